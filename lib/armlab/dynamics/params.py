"""The dynamics linear in the inertial parameters: τ = ξ(q, q̇, q̈)·χ (lab report (2.53)–(2.56)).

χ_i = (m, m·xc, m·yc, m·zc, Ixx, Iyy, Izz, Ixy, Ixz, Iyz) per link, the inertia taken about the link
frame's origin — the order of (2.54), whose fourth entry is printed m·yc again where m·zc is meant
(docs/errata.md). Ixy, Ixz, Iyz are the inertia tensor's entries, as in the report's (2.30): Ixy = −∫xy dm,
the negative of the textbook's product of inertia I_xy = ∫xy dm in (3.120)
(:func:`armlab.dynamics.pseudo_inertia`). With actuator inertia and friction (2.57)–(2.67) each link gets
χ̄_i = (χ_i, I_a,i, f_v,i, f_c,i, f_off,i) and ξ̄ the matching columns q̈_i, q̇_i, sign(q̇_i), 1 on row i.

How ξ is computed (one algorithm for numbers, batches and symbols). Link k's inertial wrench about its
frame origin O_k, in frame k, is linear in χ_k: [F; N] = Y_k·χ_k with the 6×10 block

    F = m·v̇ + (S(ω̇) + S(ω)²)·h,        N = −S(v̇)·h + (L(ω̇) + S(ω)·L(ω))·(Ixx, …, Iyz),

h = m·c and L(a)·(Ixx, …, Iyz) = I·a (ω, ω̇, v̇ from the outward pass of Newton–Euler). Joint j carries
link k's wrench (k ≥ j) through the unit twist of its axis written at O_k in frame k, t_jk = (z × (O_k − P),
z) for a revolute joint (P a point of the axis), (z, 0) for a prismatic one: ξ_{j,k} = t_jkᵀ·Y_k.
The twist moves outward link by link (t' = (Rᵀ(v + ω × p), Rᵀω)), so each joint's axis is carried
once and all ten columns of a link share it; ξ_{j,k} = 0 for j > k is (2.51). Numbers run through
straight-line code traced once per robot (about 700 operations for the youBot).

>>> import armlab, numpy as np
>>> robot = armlab.models.youbot()
>>> q, qd, qdd = np.full((3, 5), 0.3) * [[1], [2], [-1]]
>>> bool(np.allclose(regressor(robot, q, qd, qdd) @ dynamic_params(robot), robot.rne(q, qd, qdd)))
True
"""

from __future__ import annotations

from typing import Any

import math

import numpy as np

from .._core.protocol import RobotLike
from .._core import smallmat as sm
from .._core.codegen import Tracer, cached_kernel, run_kernel
from .._core.inertia import shift_inertia
from .._core.symbolic import is_symbolic, sympy
from ..kinematics.scalar import TracerBackend, backend_for, chain
from .model import GRAVITY, batch_args, joint_args, vector_arg
from .rne import rne_steps

__all__ = ["dynamic_params", "regressor", "regressor_full", "link_blocks", "PARAM_NAMES", "FULL_NAMES"]

PARAM_NAMES = ("m", "mx", "my", "mz", "Ixx", "Iyy", "Izz", "Ixy", "Ixz", "Iyz")
FULL_NAMES = PARAM_NAMES + ("Ia", "fv", "fc", "foff")


def dynamic_params(robot: RobotLike) -> np.ndarray:
    """χ (10n,): each link's mass, first moments m·c and inertia about its frame origin
    (I_o = I_c + m·(cᵀc·E − c·cᵀ), :func:`armlab._core.inertia.shift_inertia`), in the order of (2.54)."""
    out = []
    for link in robot.links:
        m = float(link.m)
        c = np.array(link.r, dtype=float)
        Ic = np.zeros((3, 3)) if link.I is None else np.array(link.I, dtype=float)
        Io = shift_inertia(Ic, m, c)  # about the frame origin
        out += [m, *(m * c), Io[0, 0], Io[1, 1], Io[2, 2], Io[0, 1], Io[0, 2], Io[1, 2]]
    return np.array(out)


def _skew(a):
    return [[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]]


def _lmat(a):
    """L(a) with L(a)·(Ixx, Iyy, Izz, Ixy, Ixz, Iyz) = I·a."""
    return [[a[0], 0, 0, a[1], a[2], 0], [0, a[1], 0, a[0], 0, a[2]], [0, 0, a[2], 0, a[0], a[1]]]


def link_blocks(w: list, wd: list, vd: list) -> list[list]:
    """Y (6 rows of 10): the inertial force F (rows 0–2) and moment N about the frame origin (rows 3–5)
    of a link per unit barycentric parameter, from its ω, ω̇ and origin acceleration v̇ (frame-k lists)."""
    Sw, Swd, Svd = _skew(w), _skew(wd), _skew(vd)
    K = [[Swd[i][j] + sm.dot(Sw[i], [Sw[0][j], Sw[1][j], Sw[2][j]]) for j in range(3)] for i in range(3)]
    Lw, Lwd = _lmat(w), _lmat(wd)
    N_I = [
        [Lwd[i][j] + Sw[i][0] * Lw[0][j] + Sw[i][1] * Lw[1][j] + Sw[i][2] * Lw[2][j] for j in range(6)]
        for i in range(3)
    ]
    force = [[vd[i]] + K[i] + [0] * 6 for i in range(3)]
    moment = [[0] + [-Svd[i][j] for j in range(3)] + N_I[i] for i in range(3)]
    return force + moment


def _zero(x):
    """An exact zero of the block's structure (a traced or symbolic zero folds anyway, only later)."""
    return type(x) in (int, float) and x == 0


def _joint_twist(robot, j, R, P):
    """Joint j's unit twist (v at O_j, ω) in frame j; (R, P) is link j's transform from frame j−1."""
    if robot.modified:  # axis z_j through O_j
        z, v = [0, 0, 1], [0, 0, 0]
    else:  # axis z_{j−1} through O_{j−1}, which is at −Rᵀp in frame j
        z = [R[2][0], R[2][1], R[2][2]]
        v = sm.cross(z, sm.mtv(R, P))
    return (v, z) if robot.links[j].revolute else (z, [0, 0, 0])


def _rows(robot, q, qd, qdd, g, B):
    """ξ as n rows of 10n scalars."""
    n = robot.n
    _, links, _ = chain(robot, q, B)
    _, steps = rne_steps(robot, q, qd, qdd, g, [0] * 6, B, [[0] * 10] * n)  # the outward pass only
    Y = [link_blocks(s["w"], s["wd"], s["vd"]) for s in steps]
    rows = [[0] * (10 * n) for _ in range(n)]
    for j in range(n):
        v, w = _joint_twist(robot, j, *links[j])
        for k in range(j, n):
            if k > j:  # carry the axis out to frame k
                R, P = links[k]
                v, w = sm.mtv(R, sm.add(v, sm.cross(w, P))), sm.mtv(R, w)
            t = v + w
            for c in range(10):
                terms = [t[r] * Y[k][r][c] for r in range(6) if not _zero(Y[k][r][c])]
                rows[j][10 * k + c] = sum(terms[1:], terms[0]) if terms else 0
    return rows


def _kernel(robot):
    def build(robot):
        tr = Tracer()
        n = robot.n
        q, qd, qdd, g = (tr.inputs(name, size) for name, size in (("q", n), ("qd", n), ("qdd", n), ("g", 3)))
        return tr.kernel(
            "regressor", "q, qd, qdd, g", [x for row in _rows(robot, q, qd, qdd, g, TracerBackend(tr)) for x in row]
        )

    return cached_kernel(robot, "dynamics.regressor", build)


def regressor(robot: RobotLike, q: Any, qd: Any, qdd: Any, gravity: Any = GRAVITY) -> Any:
    """ξ(q, q̇, q̈), (..., n, 10n), with ξ·χ = rne(q, q̇, q̈, gravity); sympy in, sympy Matrix out."""
    n = robot.n
    if (
        gravity is GRAVITY
        and not robot.symbolic
        and all(type(v) is np.ndarray and v.shape == (n,) and v.dtype == np.float64 for v in (q, qd, qdd))
    ):
        values = [v.tolist() for v in (q, qd, qdd)]
        if math.isfinite(sum(map(sum, values))):  # the fast path for one state; anything else is checked
            return np.array(_kernel(robot)(*values, list(GRAVITY), math.cos, math.sin)).reshape(n, 10 * n)
    symbolic = robot.symbolic or is_symbolic(q, qd, qdd, gravity)
    q, qd, qdd = (joint_args(robot, v, name, symbolic) for v, name in ((q, "q"), (qd, "qd"), (qdd, "qdd")))
    g = vector_arg(gravity, "gravity", 3, symbolic)
    if symbolic:
        return sympy().Matrix(_rows(robot, q, qd, qdd, g, backend_for(True)))
    q, qd, qdd, g = batch_args([q, qd, qdd, g])
    return run_kernel(_kernel(robot), q, (n, 10 * n), qd, qdd, g)


def regressor_full(robot: RobotLike, q: Any, qd: Any, qdd: Any, gravity: Any = GRAVITY) -> np.ndarray:
    """ξ̄ (..., n, 14n) of (2.64)–(2.66): per link its 10 columns of ξ, then I_a, f_v, f_c, f_off,
    whose columns are q̈_i, q̇_i, sign(q̇_i) and 1 on row i only (ξ̄·χ̄ = τ_e, (2.67))."""
    xi = regressor(robot, q, qd, qdd, gravity)
    qd, qdd = np.asarray(qd, float), np.asarray(qdd, float)
    n = robot.n
    shape = xi.shape[:-2]
    out = np.zeros(shape + (n, n, 14))
    out[..., :10] = xi.reshape(shape + (n, n, 10))
    i = np.arange(n)
    out[..., i, i, 10] = np.broadcast_to(qdd, shape + (n,))
    out[..., i, i, 11] = np.broadcast_to(qd, shape + (n,))
    out[..., i, i, 12] = np.broadcast_to(np.sign(qd), shape + (n,))
    out[..., i, i, 13] = 1.0
    return out.reshape(shape + (n, 14 * n))
