"""The model terms controllers evaluate once per step, compiled once per robot model and gravity.

Both are the Newton–Euler recursion (:func:`armlab.dynamics.rne.rne_steps`) traced into straight-line
code, with the controller's gravity vector folded in as constants (a horizontal component that is zero
costs nothing then):

* :func:`computed_torque` — τ = M(q)·v + C(q, q̇)·q̇ + G(q) with v = q̈_r + Kd·(q̇_r − q̇) + Kp·(q_r − q):
  the whole control law in one Newton–Euler pass;
* :func:`gravity_torques` — G(q), for gravity compensation and the task-space controller;
* :func:`pd_gravity` — τ = Kp·(q_r − q) + Kd·(q̇_r − q̇) + G(q), PD + gravity's law in one call.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence


from .._core.codegen import Tracer, cached_kernel
from .._core.protocol import RobotLike
from ..dynamics.rne import rne_steps
from ..kinematics.scalar import TracerBackend

__all__ = ["computed_torque", "gravity_torques", "pd_gravity"]


def _require_inertia(robot: RobotLike) -> None:
    if not any(link.m for link in robot.links):
        raise ValueError(
            f"{robot.name or 'this robot'!r} has no link masses: a model-based controller needs each "
            "DHLink's m, r and I (see armlab.models for arms that have them)"
        )


def computed_torque(robot: RobotLike, gravity: Sequence[float]) -> Callable[..., Any]:
    """``f(q, qd, qr, qdr, qddr, kp, kd, cos, sin) -> τ`` (lists in, list out) for ``robot`` and ``gravity``."""
    _require_inertia(robot)
    g = [float(x) for x in gravity]

    def build(robot):
        tr = Tracer()
        n = robot.n
        q, qd, qr, qdr, qddr, kp, kd = (tr.inputs(name, n) for name in ("q", "qd", "qr", "qdr", "qddr", "kp", "kd"))
        v = [a + p * (r - x) + d * (rd - xd) for a, p, r, x, d, rd, xd in zip(qddr, kp, qr, q, kd, qdr, qd)]
        tau, _ = rne_steps(robot, q, qd, v, g, [0] * 6, TracerBackend(tr))
        return tr.kernel("computed_torque", "q, qd, qr, qdr, qddr, kp, kd", tau)

    return cached_kernel(robot, ("control.computed_torque", tuple(g)), build)


def _gravity(tr, robot, g, q):
    zero = [0] * robot.n
    return rne_steps(robot, q, zero, zero, g, [0] * 6, TracerBackend(tr))[0]


def gravity_torques(robot: RobotLike, gravity: Sequence[float]) -> Callable[..., Any]:
    """``f(q, cos, sin) -> G(q)`` (lists in, list out) for ``robot`` and ``gravity``."""
    _require_inertia(robot)
    g = [float(x) for x in gravity]

    def build(robot):
        tr = Tracer()
        return tr.kernel("gravity_torques", "q", _gravity(tr, robot, g, tr.inputs("q", robot.n)))

    return cached_kernel(robot, ("control.gravity_torques", tuple(g)), build)


def pd_gravity(robot: RobotLike, gravity: Sequence[float]) -> Callable[..., Any]:
    """``f(q, qd, qr, qdr, qddr, kp, kd, cos, sin) -> Kp·(q_r − q) + Kd·(q̇_r − q̇) + G(q)`` (lists in, list
    out; ``qddr`` unused: the arguments of :func:`computed_torque`, so one CasADi loop runs either law)."""
    _require_inertia(robot)
    g = [float(x) for x in gravity]

    def build(robot):
        tr = Tracer()
        names = ("q", "qd", "qr", "qdr", "qddr", "kp", "kd")
        q, qd, qr, qdr, _, kp, kd = (tr.inputs(name, robot.n) for name in names)
        G = _gravity(tr, robot, g, q)
        tau = [p * (r - x) + d * (rd - v) + gi for p, r, x, d, rd, v, gi in zip(kp, qr, q, kd, qdr, qd, G)]
        return tr.kernel("pd_gravity", ", ".join(names), tau)

    return cached_kernel(robot, ("control.pd_gravity", tuple(g)), build)
