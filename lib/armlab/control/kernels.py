"""The model terms controllers evaluate once per step, compiled once per robot model.

Both are the Newton–Euler recursion (:func:`armlab.dynamics.rne.rne_steps`) traced into straight-line
code with gravity as an input (the paper's g = 9.8 m/s² and the standard 9.81 share one kernel):

* :func:`computed_torque` — τ = M(q)·v + C(q, q̇)·q̇ + G(q) with v = q̈_r + Kd·(q̇_r − q̇) + Kp·(q_r − q):
  the whole control law in one Newton–Euler pass;
* :func:`gravity_torques` — G(q), for PD + gravity and the task-space controller.
"""
from __future__ import annotations

from .._core.codegen import Tracer, cached_kernel
from ..dynamics.rne import rne_steps
from ..kinematics.scalar import TracerBackend

__all__ = ["computed_torque", "gravity_torques"]


def _require_inertia(robot):
    if not any(link.m for link in robot.links):
        raise ValueError(f"{robot.name or 'this robot'!r} has no link masses: a model-based controller needs each "
                         "DHLink's m, r and I (see armlab.models for arms that have them)")


def computed_torque(robot):
    """``f(q, qd, qr, qdr, qddr, kp, kd, g, cos, sin) -> τ`` (lists in, list out) for ``robot``."""
    _require_inertia(robot)

    def build(robot):
        tr = Tracer()
        n = robot.n
        q, qd, qr, qdr, qddr, kp, kd = (tr.inputs(name, n) for name in ("q", "qd", "qr", "qdr", "qddr", "kp", "kd"))
        g = tr.inputs("g", 3)
        v = [a + p * (r - x) + d * (rd - xd) for a, p, r, x, d, rd, xd in zip(qddr, kp, qr, q, kd, qdr, qd)]
        tau, _ = rne_steps(robot, q, qd, v, g, [0] * 6, TracerBackend(tr))
        return tr.kernel("computed_torque", "q, qd, qr, qdr, qddr, kp, kd, g", tau)

    return cached_kernel(robot, "control.computed_torque", build)


def gravity_torques(robot):
    """``f(q, g, cos, sin) -> G(q)`` (lists in, list out) for ``robot``."""
    _require_inertia(robot)

    def build(robot):
        tr = Tracer()
        n = robot.n
        q, g = tr.inputs("q", n), tr.inputs("g", 3)
        zero = [0] * n
        tau, _ = rne_steps(robot, q, zero, zero, g, [0] * 6, TracerBackend(tr))
        return tr.kernel("gravity_torques", "q, g", tau)

    return cached_kernel(robot, "control.gravity_torques", build)
