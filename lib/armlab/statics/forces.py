"""The statics recursion (5-1)–(5-4) and τ = JᵀF (5-6), statics chapter 002 §5.2–5.3, textbook (3.156).

``wrench`` = (fx, fy, fz, mx, my, mz) is what the tip exerts on the environment; ``frame=`` is "base"
(the default) or "tool"; ``gravity=None`` means no link weights, the chapter's (5-2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core import smallmat as sm
from .._core.codegen import Tracer, cached_kernel
from .._core.protocol import RobotLike
from .._core.symbolic import is_symbolic, sympy
from .._core.validation import as_float_array, joint_vector
from ..dynamics.rne import rne_steps
from ..kinematics.scalar import TracerBackend, backend_for, chain

__all__ = ["link_forces", "LinkForces", "joint_torques", "FRAMES", "check_frame"]

FRAMES = ("base", "tool")


def check_frame(frame: str) -> None:
    """A ValueError unless ``frame`` is "base" or "tool"."""
    if frame not in FRAMES:
        raise ValueError(f"frame must be 'base' or 'tool', got {frame!r}")


def _wrench_sym(robot: RobotLike, q: list, wrench: Any, frame: str) -> list:
    """The tip wrench in the tool frame (moment about the tool origin), sympy."""
    check_frame(frame)
    w = sympy().Matrix(list(wrench))
    if len(w) != 6:
        raise ValueError(f"wrench must have 6 entries (fx, fy, fz, mx, my, mz), got {len(w)}")
    if frame == "base":
        Rt = robot.fkine(q)[:3, :3].T
        w = sympy().Matrix.vstack(Rt * w[:3, 0], Rt * w[3:, 0])
    return list(w)


@dataclass
class LinkForces:
    """The statics recursion's result.

    ``f``, ``m`` (n+1, 3): row i−1 is ^iF_i, ^iM_i — the force and moment link i−1 exerts on link i,
    about the origin of frame {i}, in {i} (i = 1..n); the last row is the tip wrench in the tool frame.
    ``tau`` (n,): each joint's balancing torque (5-3) or force (5-4). In the standard convention the
    joint axis of link i is z_{i−1}, so τ_i is the moment about that axis (through O_{i−1}).
    """

    f: Any
    m: Any
    tau: Any


def link_forces(robot: RobotLike, q: Any, wrench: Any, *, frame: str = "base", gravity: Any = None) -> LinkForces:
    """The inward recursion (5-1)–(5-2) at q for a tip ``wrench`` given in the ``frame`` "base" (default)
    or "tool", with the links' weights when ``gravity`` (world frame, e.g. ``armlab._core.constants.GRAVITY``)
    is given; ``None``: no weights, the tip load alone (5-2). One configuration; numbers or sympy."""
    symbolic = robot.symbolic or is_symbolic(q, wrench, gravity)
    q = joint_vector(q, robot.n, "q", symbolic=symbolic, batch=False)
    if not symbolic:
        check_frame(frame)
        w = as_float_array(wrench, "wrench", (6,), allow_batch=False)
        g = None if gravity is None else as_float_array(gravity, "gravity", (3,), allow_batch=False)
        return _link_forces_numeric(robot, q, w, g, frame)
    ws = _wrench_sym(robot, q, wrench, frame)
    gs = [0, 0, 0] if gravity is None else list(gravity)
    zero = [0] * robot.n
    tau, steps = rne_steps(robot, list(q), zero, zero, gs, ws, backend_for(True))
    sp = sympy()
    return LinkForces(
        sp.Matrix([s["f"] for s in steps] + [ws[:3]]), sp.Matrix([s["n"] for s in steps] + [ws[3:]]), sp.Matrix(tau)
    )


def _link_forces_numeric(
    robot: RobotLike, q: np.ndarray, w: np.ndarray, g: np.ndarray | None, frame: str
) -> LinkForces:
    """The same recursion as straight-line code traced once per robot, frame and with/without weights
    (µs instead of the scalar recursion's hundreds of µs). Outputs τ, then (f, n) of every link and the tip."""

    def build(robot):
        tr = Tracer()
        B = TracerBackend(tr)
        qv, wv = tr.inputs("q", robot.n), tr.inputs("w", 6)
        gv = [0.0, 0.0, 0.0] if g is None else tr.inputs("g", 3)  # no weights: their terms fold away
        if frame == "base":  # the tip wrench into the tool frame: ^0R_toolᵀ·f, ^0R_toolᵀ·m
            base, links, tool = chain(robot, qv, B)
            R = base[0]
            for Rk, _ in links + [tool]:
                R = sm.mm(R, Rk)
            wv = sm.mtv(R, wv[:3]) + sm.mtv(R, wv[3:])
        zero = [0] * robot.n
        tau, steps = rne_steps(robot, qv, zero, zero, gv, wv, B)
        outputs = tau + [x for s in steps for x in (*s["f"], *s["n"])] + list(wv)
        return tr.kernel("link_forces", "q, w" if g is None else "q, w, g", outputs)

    kernel = cached_kernel(robot, f"statics.link_forces.{frame}.{'free' if g is None else 'weighted'}", build)
    n = robot.n
    args = (q.tolist(), w.tolist()) if g is None else (q.tolist(), w.tolist(), g.tolist())
    out = np.array(kernel(*args, math.cos, math.sin))
    fn = out[n:].reshape(n + 1, 2, 3)
    return LinkForces(fn[:, 0], fn[:, 1], out[:n])


def joint_torques(robot: RobotLike, q: Any, wrench: Any, *, frame: str = "base") -> Any:
    """τ = JᵀF (5-6): the balancing torques for the tip wrench F, given in the ``frame`` "base"
    (J = jacob0) or "tool" (J = jacobe). Batched: q (..., n), wrench (..., 6)."""
    check_frame(frame)
    J = robot.jacob0(q) if frame == "base" else robot.jacobe(q)
    if is_symbolic(J, wrench):
        return J.T * sympy().Matrix(list(wrench))
    w = as_float_array(wrench, "wrench", (6,))
    return (np.swapaxes(J, -1, -2) @ w[..., None])[..., 0]
