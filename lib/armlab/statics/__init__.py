"""Statics (statics chapter 002 §5.2–5.5, textbook §3.5.1): forces through a resting arm.

Convention (the book's (5-1)–(5-2), Craig's): ``wrench`` = (fx, fy, fz, mx, my, mz) is what the tip
EXERTS ON the environment, so the balancing joint torques are τ = JᵀF (5-6)/(3.156). A load acting on
the arm (a payload's weight, a push) is the negative of that.

* :func:`link_forces` — the inward recursion (5-1)–(5-4), link by link, with optional link weights:
  it is the inward pass of Newton–Euler (:mod:`armlab.dynamics.rne`) at rest;
* :func:`joint_torques` — τ = JᵀF, with F in the base or the tool frame;
* :func:`gravity_load` — the holding torques G(q): the dynamics chapter's G, the very same function as
  :func:`armlab.dynamics.gravload` (re-exported here under the chapter's name);
* :func:`inverse_statics` — F from τ: exact, least squares (the book's (JJᵀ)⁻¹Jτ) or minimum norm;
* wrench transforms: :func:`armlab.transforms.wrench_transform` ((5-7)–(5-9)) and
  :func:`armlab.transforms.wrench_in_frame` (textbook (3.169)–(3.170));
* :func:`max_tip_force`, :func:`max_payload` — the static-load envelope of §5.4 under joint torque limits.

Conventions: ``frame=`` is "base" (the default everywhere) or "tool"; ``gravity=`` is a keyword, the
gravitational acceleration in the world frame. Where gravity is the point of the function
(:func:`gravity_load`, :func:`max_payload`) its default is :data:`armlab._core.constants.GRAVITY`; where it
adds the links' own weights to a tip load (:func:`link_forces`, :func:`max_tip_force`) its default ``None``
means "no weights", the chapter's (5-2).

>>> import armlab, numpy as np
>>> arm = armlab.models.planar2r(0.5, 0.3)
>>> q, F = [0.4, 0.9], [2.0, -1.0, 0, 0, 0, 0]
>>> res = link_forces(arm, q, F, frame="tool")
>>> bool(np.allclose(res.tau, joint_torques(arm, q, F, frame="tool")))
True
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._core import smallmat as sm
from .._core.codegen import Tracer, cached_kernel
from .._core.constants import GRAVITY
from .._core.protocol import RobotLike
from .._core.symbolic import is_symbolic, sympy
from .._core.validation import as_float_array, joint_vector
from ..dynamics.model import gravload
from ..dynamics.rne import rne_steps
from ..kinematics.scalar import TracerBackend, backend_for, chain
from ..transforms import wrench_in_frame, wrench_transform

__all__ = ["link_forces", "LinkForces", "joint_torques", "gravity_load", "inverse_statics", "InverseStatics",
           "wrench_transform", "wrench_in_frame", "max_tip_force", "max_payload", "FRAMES"]

FRAMES = ("base", "tool")


#: The holding torques G(q): :func:`armlab.dynamics.gravload` itself, under the statics chapter's name.
gravity_load = gravload


def _frame(frame: str) -> None:
    if frame not in FRAMES:
        raise ValueError(f"frame must be 'base' or 'tool', got {frame!r}")


def _wrench_sym(robot: RobotLike, q: list, wrench: Any, frame: str) -> list:
    """The tip wrench in the tool frame (moment about the tool origin), sympy."""
    _frame(frame)
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
        _frame(frame)
        w = as_float_array(wrench, "wrench", (6,), allow_batch=False)
        g = None if gravity is None else as_float_array(gravity, "gravity", (3,), allow_batch=False)
        return _link_forces_numeric(robot, q, w, g, frame)
    ws = _wrench_sym(robot, q, wrench, frame)
    gs = [0, 0, 0] if gravity is None else list(gravity)
    zero = [0] * robot.n
    tau, steps = rne_steps(robot, list(q), zero, zero, gs, ws, backend_for(True))
    sp = sympy()
    return LinkForces(sp.Matrix([s["f"] for s in steps] + [ws[:3]]), sp.Matrix([s["n"] for s in steps] + [ws[3:]]),
                      sp.Matrix(tau))


def _link_forces_numeric(robot: RobotLike, q: np.ndarray, w: np.ndarray, g: np.ndarray | None,
                         frame: str) -> LinkForces:
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
    _frame(frame)
    J = robot.jacob0(q) if frame == "base" else robot.jacobe(q)  # type: ignore[attr-defined]
    if is_symbolic(J, wrench):
        return J.T * sympy().Matrix(list(wrench))
    w = as_float_array(wrench, "wrench", (6,))
    return (np.swapaxes(J, -1, -2) @ w[..., None])[..., 0]


@dataclass
class InverseStatics:
    """F from τ. ``method``: "exact" (n = 6, J regular: F = (Jᵀ)⁻¹τ), "least-squares" (n > 6: the
    book's F = (JJᵀ)⁻¹Jτ, which fits τ best), "min-norm" (n < 6, or J singular: the smallest F whose
    torques are closest to τ). ``residual`` = ‖JᵀF − τ‖, ``reason`` says why that case applied."""

    wrench: np.ndarray
    method: str
    reason: str
    residual: float


def inverse_statics(robot: RobotLike, q: ArrayLike, tau: ArrayLike, *, frame: str = "base",
                    tol: float = 1e-9) -> InverseStatics:
    """The tip wrench (in ``frame``) that the joint torques ``tau`` hold; see :class:`InverseStatics`."""
    _frame(frame)
    qv = joint_vector(q, robot.n, "q", symbolic=False, batch=False)
    t = joint_vector(tau, robot.n, "tau", symbolic=False, batch=False)
    J = robot.jacob0(qv) if frame == "base" else robot.jacobe(qv)  # type: ignore[attr-defined]
    s = np.linalg.svd(J, compute_uv=False)
    rank = int((s > tol * max(s[0], 1e-300)).sum())
    n = robot.n
    if n == 6 and rank == 6:
        F = np.linalg.solve(J.T, t)
        method, reason = "exact", "6 joints and J is regular: F = (Jᵀ)⁻¹τ is the one wrench"
    elif n > 6 and rank == 6:
        F = np.linalg.solve(J @ J.T, J @ t)
        method, reason = "least-squares", (f"{n} joints: Jᵀ is {n}×6, τ = JᵀF has no exact solution in "
                                           "general; F = (JJᵀ)⁻¹Jτ minimises ‖JᵀF − τ‖")
    else:
        F = np.linalg.pinv(J.T, rcond=tol) @ t
        method = "min-norm"
        reason = (f"only {n} joints: many wrenches give these torques (the arm cannot resist forces along "
                  f"{6 - rank} direction(s)); F is the smallest" if n < 6 else
                  f"J is singular (rank {rank} < 6): F = (Jᵀ)⁺τ, the smallest wrench closest to τ")
    return InverseStatics(F, method, reason, float(np.linalg.norm(J.T @ F - t)))


def _limits(tau_max: ArrayLike, n: int) -> np.ndarray:
    t = as_float_array(tau_max, "tau_max", (n,), allow_batch=False)
    if (t <= 0).any():
        raise ValueError(f"tau_max must be positive joint torque limits, got {t}")
    return t


def _largest_scale(base: np.ndarray, per_unit: np.ndarray, tau_max: np.ndarray) -> np.ndarray:
    """Largest s ≥ 0 with |base + s·per_unit| ≤ tau_max joint by joint (…); 0 if the base load alone exceeds."""
    with np.errstate(divide="ignore", invalid="ignore"):
        up = np.where(per_unit > 0, (tau_max - base) / per_unit, np.where(per_unit < 0, (-tau_max - base) / per_unit,
                                                                          np.inf))
    s = np.min(up, axis=-1)
    ok = np.all(np.abs(base) <= tau_max, axis=-1)
    return np.where(ok, np.maximum(s, 0.0), 0.0)


def max_tip_force(robot: RobotLike, q: ArrayLike, direction: ArrayLike, tau_max: ArrayLike, *,
                  gravity: ArrayLike | None = None) -> np.ndarray:
    """The largest force (N) the tip can exert along the unit ``direction`` (base frame) at q (…, n)
    without any joint exceeding ``tau_max`` (n,), with the arm's own weight when ``gravity`` is given
    (``None``: the tip force alone, the envelope of §5.4)."""
    q = joint_vector(q, robot.n, "q", symbolic=False)
    d = as_float_array(direction, "direction", (3,), allow_batch=False)
    d = d / np.linalg.norm(d)
    tm = _limits(tau_max, robot.n)
    a = np.swapaxes(robot.jacob0(q)[..., :3, :], -1, -2) @ d
    base = np.zeros_like(a) if gravity is None else gravload(robot, q, gravity=gravity)
    return _largest_scale(base, a, tm)


def max_payload(robot: RobotLike, q: ArrayLike, tau_max: ArrayLike, *, gravity: ArrayLike = GRAVITY) -> np.ndarray:
    """The largest mass (kg) the tool can hold at q (…, n): its weight plus the arm's own, within ``tau_max``.

    Holding a mass m means the tip pushes up on it: F = −m·g (base frame), τ = G(q) + J_vᵀ(−m·g).
    """
    q = joint_vector(q, robot.n, "q", symbolic=False)
    g = as_float_array(gravity, "gravity", (3,), allow_batch=False)
    tm = _limits(tau_max, robot.n)
    a = np.swapaxes(robot.jacob0(q)[..., :3, :], -1, -2) @ (-g)
    return _largest_scale(gravload(robot, q, gravity=g), a, tm)
