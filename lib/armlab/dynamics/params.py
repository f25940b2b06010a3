"""The dynamics linear in the inertial parameters: τ = ξ(q, q̇, q̈)·χ (lab report (2.53)–(2.56)).

χ_i = (m, m·xc, m·yc, m·zc, Ixx, Iyy, Izz, Ixy, Ixz, Iyz) per link, the inertia taken about the link
frame's origin — the order of (2.54), whose fourth entry is printed m·yc again where m·zc is meant
(docs/errata.md). With actuator inertia and friction (2.57)–(2.67) each link gets
χ̄_i = (χ_i, I_a,i, f_v,i, f_c,i, f_off,i) and ξ̄ the matching columns q̈_i, q̇_i, sign(q̇_i), 1 on row i.

ξ is computed by the same Newton–Euler recursion as τ, once per unit parameter (the outward pass is
shared: the traced code computes it once), compiled per robot; sympy input runs it on symbols.

>>> import armlab, numpy as np
>>> robot = armlab.models.youbot()
>>> q, qd, qdd = np.full((3, 5), 0.3) * [[1], [2], [-1]]
>>> bool(np.allclose(regressor(robot, q, qd, qdd) @ dynamic_params(robot), robot.rne(q, qd, qdd)))
True
"""
from __future__ import annotations

import numpy as np

from .._core.codegen import Tracer, cached_kernel, run_kernel
from .._core.symbolic import is_symbolic, sympy
from ..kinematics.scalar import TracerBackend, backend_for
from .model import GRAVITY, batch_args, joint_args, vector_arg
from .rne import rne_steps

__all__ = ["dynamic_params", "regressor", "regressor_full", "PARAM_NAMES", "FULL_NAMES"]

PARAM_NAMES = ("m", "mx", "my", "mz", "Ixx", "Iyy", "Izz", "Ixy", "Ixz", "Iyz")
FULL_NAMES = PARAM_NAMES + ("Ia", "fv", "fc", "foff")


def dynamic_params(robot):
    """χ (10n,): each link's mass, first moments m·c and inertia about its frame origin
    (I_o = I_c + m·(cᵀc·E − c·cᵀ)), in the order of (2.54)."""
    out = []
    for link in robot.links:
        m = float(link.m)
        c = np.array(link.r, dtype=float)
        Ic = np.zeros((3, 3)) if link.I is None else np.array(link.I, dtype=float)
        Io = Ic + m * (c @ c * np.eye(3) - np.outer(c, c))
        out += [m, *(m * c), Io[0, 0], Io[1, 1], Io[2, 2], Io[0, 1], Io[0, 2], Io[1, 2]]
    return np.array(out)


def _columns(robot, q, qd, qdd, g, B):
    """ξ as n rows of 10n scalars: RNE with one unit parameter at a time."""
    n = robot.n
    cols = []
    for k in range(n):
        for j in range(10):
            params = [[1 if (kk == k and jj == j) else 0 for jj in range(10)] for kk in range(n)]
            cols.append(rne_steps(robot, q, qd, qdd, g, [0] * 6, B, params)[0])
    return [[cols[c][i] for c in range(10 * n)] for i in range(n)]


def regressor(robot, q, qd, qdd, gravity=GRAVITY):
    """ξ(q, q̇, q̈), (..., n, 10n), with ξ·χ = rne(q, q̇, q̈, gravity); sympy in, sympy Matrix out."""
    symbolic = robot.symbolic or is_symbolic(q, qd, qdd, gravity)
    q, qd, qdd = (joint_args(robot, v, name, symbolic) for v, name in ((q, "q"), (qd, "qd"), (qdd, "qdd")))
    g = vector_arg(gravity, "gravity", 3, symbolic)
    if symbolic:
        return sympy().Matrix(_columns(robot, q, qd, qdd, g, backend_for(True)))

    def build(robot):
        tr = Tracer()
        n = robot.n
        ins = [tr.inputs(name, size) for name, size in (("q", n), ("qd", n), ("qdd", n), ("g", 3))]
        rows = _columns(robot, *ins, TracerBackend(tr))
        return tr.kernel("regressor", "q, qd, qdd, g", [x for row in rows for x in row])

    q, qd, qdd, g = batch_args([q, qd, qdd, g])
    return run_kernel(cached_kernel(robot, "regressor", build), q, (robot.n, 10 * robot.n), qd, qdd, g)


def regressor_full(robot, q, qd, qdd, gravity=GRAVITY):
    """ξ̄ (..., n, 14n) of (2.64)–(2.66): per link its 10 columns of ξ, then I_a, f_v, f_c, f_off,
    whose columns are q̈_i, q̇_i, sign(q̇_i) and 1 on row i only (ξ̄·χ̄ = τ_e, (2.67))."""
    xi = regressor(robot, q, qd, qdd, gravity)
    qd, qdd = np.asarray(qd, float), np.asarray(qdd, float)
    n = robot.n
    shape = xi.shape[:-2]
    out = np.zeros(shape + (n, 14 * n))
    for i in range(n):
        out[..., :, 14 * i:14 * i + 10] = xi[..., :, 10 * i:10 * i + 10]
        extra = np.stack([np.broadcast_to(qdd[..., i], shape), np.broadcast_to(qd[..., i], shape),
                          np.broadcast_to(np.sign(qd[..., i]), shape), np.ones(shape)], axis=-1)
        out[..., i, 14 * i + 10:14 * i + 14] = extra
    return out
