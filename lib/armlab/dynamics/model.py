"""Inverse and forward dynamics of any robot with inertia: τ = M(q)q̈ + C(q, q̇)q̇ + G(q) − Jᵀ·(−f_tip).

Everything comes from the one recursion :func:`armlab.dynamics.rne.rne_steps`:

* ``rne``: the recursion itself (textbook §3.4.3's Newton–Euler form, without its dissipation term);
* ``inertia``: M's column j is RNE(q, 0, e_j) without gravity;
* ``coriolis``: the Christoffel form of the lab report (2.71)–(2.72),
  C = ½(Ṁ + ∂(Mq̇)/∂q − ∂(Mq̇)/∂qᵀ), so that Ṁ − 2C is skew; Ṁ and ∂(Mq̇)/∂q are exact: CasADi's
  derivatives of the traced RNE (sympy's for symbols);
* ``gravload``: RNE(q, 0, 0) with gravity — the holding torques G(q), the statics chapter's gravity load;
* ``fdyn``: q̈ = M⁻¹(τ − C q̇ − G), with hooks for friction and actuator (armature) inertia.

Numbers run through straight-line kernels traced once per robot (floats or batches (..., n));
sympy input runs the recursion on symbols.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np
from numpy.typing import ArrayLike

from .._core import smallmat as sm
from .._core.constants import GRAVITY
from .._core.codegen import Tracer, Var, cached_kernel, run_kernel, snap
from .._core.graphs import casadi, function, replay
from .._core.symbolic import is_symbolic, sympy
from .._core.protocol import RobotLike
from .._core.validation import as_float_array, joint_vector
from ..kinematics.scalar import TracerBackend, backend_for, chain, compose
from .rne import rne_steps

__all__ = [
    "rne",
    "inertia",
    "coriolis",
    "gravload",
    "fdyn",
    "fdyn_kernel",
    "euler_step_kernel",
    "ldl_solve",
    "kinetic_energy",
    "potential_energy",
    "GRAVITY",
]


def _require_inertia(robot):
    if not any(link.m for link in robot.links):
        raise ValueError(
            f"{robot.name or 'this robot'!r} has no link masses: dynamics needs each DHLink's "
            "m, r (centre of mass) and I (inertia about it); see armlab.models for arms that have them"
        )


def joint_args(robot: RobotLike, value: Any, name: str, symbolic: bool) -> Any:
    """A joint argument of ``robot`` through the one validator, :func:`armlab._core.validation.joint_vector`."""
    return joint_vector(value, robot.n, name, symbolic=symbolic)


def vector_arg(value: Any, name: str, size: int, symbolic: bool) -> Any:
    if value is None:
        return [0] * size if symbolic else np.zeros(size)
    if symbolic:
        value = list(value)
        if len(value) != size:
            raise ValueError(f"{name} must have {size} entries, got {len(value)}")
        return [sympy().sympify(x) for x in value]
    return as_float_array(value, name, (size,))


def batch_args(arrays: list[np.ndarray]) -> list[np.ndarray]:
    """Broadcast numeric arguments to one batch shape; the first is q."""
    shape = np.broadcast_shapes(*(a.shape[:-1] for a in arrays))
    return [np.ascontiguousarray(np.broadcast_to(a, shape + a.shape[-1:])) for a in arrays]


class _Regrouped:
    """A standard-DH robot's chain regrouped as modified DH, for the compiled kernels: ~15 % fewer operations.

    A_i = Rz(θ_i)·Tz(d_i)·Tx(a_i)·Rx(α_i), and Tx·Rx of link i joins link i+1 as Craig's (α_i, a_i)
    (the move :func:`armlab.models.puma560_standard` makes the other way); Tx(a_n)·Rx(α_n) joins the tool.
    Standard frame i is modified frame i · Tx(a_i)·Rx(α_i), so each link's centre of mass and inertia move
    by that constant transform. The joints, τ, M, C and q̈ are the same; only link frames differ, and
    no kernel outputs those (statics, which does, keeps the robot's own frames).
    """

    modified, symbolic = True, False

    def __init__(self, robot: RobotLike) -> None:
        self.n, self.base, self.name = robot.n, robot.base, robot.name
        self.links: list[Any] = []
        prev: Any = None
        for link in robot.links:
            R = _rotx(link.alpha)
            I = None if link.I is None else R @ np.asarray(link.I, dtype=float) @ R.T  # noqa: E741
            self.links.append(
                link.replace(
                    alpha=prev.alpha if prev else 0.0,
                    a=prev.a if prev else 0.0,
                    r=tuple(R @ np.asarray(link.r, dtype=float) + [link.a, 0.0, 0.0]),
                    I=I,
                )
            )
            prev = link
        last = np.eye(4)
        last[:3, :3], last[0, 3] = _rotx(prev.alpha), prev.a
        self.tool = last if robot.tool is None else last @ np.asarray(robot.tool, dtype=float)


def _rotx(t):
    c, s = snap(math.cos(t)), snap(math.sin(t))  # cos(π/2) is exactly 0 here: no 1e-17 terms to compile
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def _chain(robot):
    """The chain the compiled kernels trace: the robot itself, or its modified-DH regrouping."""
    return robot if robot.modified else _Regrouped(robot)


def _plain(robot, *values):
    """Python float lists of plain (n,) float arrays whose entries are all finite, else None.

    The fast path for one state (a simulator's step): it skips the general checks, and anything
    else (lists, batches, sympy, NaN) takes the checked path, which gives the clear errors.
    """
    n, out = robot.n, []
    for v in values:
        if type(v) is not np.ndarray or v.shape != (n,) or v.dtype != np.float64:
            return None
        out.append(v.tolist())
    return out if not robot.symbolic and math.isfinite(sum(map(sum, out))) else None


def _has_mass(robot):
    return cached_kernel(robot, "dynamics.has_mass", lambda r: any(link.m for link in r.links))


_G_DEFAULT, _W_ZERO = list(GRAVITY), [0.0] * 6


def rne(robot: RobotLike, q: Any, qd: Any, qdd: Any, gravity: Any = GRAVITY, f_tip: Any = None) -> Any:
    """τ = RNE(q, q̇, q̈): joint torques (forces for prismatic joints), (..., n); sympy in, sympy out.

    ``gravity`` is the gravitational acceleration in the world frame (the frame the robot's base
    transform is given in); ``f_tip`` the 6-vector (f, n) the tip exerts on the environment, in the
    tool frame — the statics convention, so ``rne(q, 0, 0, gravity=0, f_tip=F)`` equals
    ``statics.joint_torques(robot, q, F, frame="tool")``.
    """
    fast = _plain(robot, q, qd, qdd) if gravity is GRAVITY and f_tip is None else None
    if fast is not None and _has_mass(robot):
        return np.array(_rne_kernel(robot)(*fast, _G_DEFAULT, _W_ZERO, math.cos, math.sin))
    _require_inertia(robot) if f_tip is None else None
    symbolic = robot.symbolic or is_symbolic(q, qd, qdd, gravity, f_tip)
    q, qd, qdd = (joint_args(robot, v, name, symbolic) for v, name in ((q, "q"), (qd, "qd"), (qdd, "qdd")))
    g = vector_arg(gravity, "gravity", 3, symbolic)
    w = vector_arg(f_tip, "f_tip", 6, symbolic)
    if symbolic:
        tau, _ = rne_steps(robot, q, qd, qdd, g, w, backend_for(True))
        return sympy().Matrix(tau)

    q, qd, qdd, g, w = batch_args([q, qd, qdd, g, w])
    return run_kernel(_rne_kernel(robot), q, (robot.n,), qd, qdd, g, w)


def _rne_kernel(robot):
    """The compiled ``rne(q, qd, qdd, g, w, cos, sin)`` of this robot: lists or numpy columns in, τ out."""

    def build(robot):
        tr = Tracer()
        n = robot.n
        q, qd, qdd, g, w = (
            tr.inputs(name, size) for name, size in (("q", n), ("qd", n), ("qdd", n), ("g", 3), ("w", 6))
        )
        tau, _ = rne_steps(_chain(robot), q, qd, qdd, g, w, TracerBackend(tr))
        return tr.kernel("rne", "q, qd, qdd, g, w", tau)

    return cached_kernel(robot, "dynamics.rne", build)


def gravload(robot: RobotLike, q: Any, *, gravity: Any = GRAVITY) -> Any:
    """G(q): the joint torques (..., n) that hold the arm still against its own weight; sympy in, sympy out.

    RNE(q, 0, 0) with gravity: each link's weight m·g at its centre of mass, carried inward — the dynamics
    chapter's G and the statics chapter's gravity load (``armlab.statics.gravity_load`` is this function).
    ``gravity``: the gravitational acceleration in the world frame (default
    :data:`armlab._core.constants.GRAVITY`); ``None`` means no gravity (zero torques)."""
    _require_inertia(robot)
    symbolic = robot.symbolic or is_symbolic(q, gravity)
    q = joint_args(robot, q, "q", symbolic)
    g = vector_arg(gravity, "gravity", 3, symbolic)
    if symbolic:
        zero = [0] * robot.n
        return sympy().Matrix(rne_steps(robot, q, zero, zero, g, [0] * 6, backend_for(True))[0])

    def build(robot):
        tr = Tracer()
        qv, gv = tr.inputs("q", robot.n), tr.inputs("g", 3)
        zero = [0] * robot.n
        return tr.kernel(
            "gravload", "q, g", rne_steps(_chain(robot), qv, zero, zero, gv, [0] * 6, TracerBackend(tr))[0]
        )

    q, g = batch_args([q, g])
    return run_kernel(cached_kernel(robot, "dynamics.gravload", build), q, (robot.n,), g)


def _mass_columns(robot, q, B):
    n = robot.n
    zero, g0 = [0] * n, [0, 0, 0]
    cols = [rne_steps(robot, q, zero, [1 if i == j else 0 for i in range(n)], g0, [0] * 6, B)[0] for j in range(n)]
    # M is symmetric: take M[i][j] from column min(i, j), so each column's inward pass is needed only
    # down to its own joint (compiled kernels drop the rest)
    return [[cols[min(i, j)][max(i, j)] for j in range(n)] for i in range(n)]


def inertia(robot: RobotLike, q: Any) -> Any:
    """M(q), (..., n, n), symmetric positive definite: column j is RNE(q, 0, e_j) without gravity."""
    fast = _plain(robot, q)
    if fast is not None and _has_mass(robot):
        return np.array(_inertia_kernel(robot)(fast[0], math.cos, math.sin)).reshape(robot.n, robot.n)
    _require_inertia(robot)
    symbolic = robot.symbolic or is_symbolic(q)
    q = joint_args(robot, q, "q", symbolic)
    if symbolic:
        return sympy().Matrix(_mass_columns(robot, q, backend_for(True)))
    return run_kernel(_inertia_kernel(robot), q, (robot.n, robot.n))


def _inertia_kernel(robot):
    def build(robot):
        tr = Tracer()
        M = _mass_columns(_chain(robot), tr.inputs("q", robot.n), TracerBackend(tr))
        return tr.kernel("inertia", "q", [x for row in M for x in row])

    return cached_kernel(robot, "dynamics.inertia", build)


def _coriolis_symbolic(robot, q, qd):
    """C = ½(Ṁ + A − Aᵀ) with A = ∂(M q̇)/∂q and Ṁ = Σ_k ∂M/∂q_k·q̇_k, by sympy's derivatives of M."""
    sp = sympy()
    x = [sp.Dummy(f"q{i}") for i in range(robot.n)]  # M at symbols of its own, then at q (numbers, too)
    M, v = sp.Matrix(_mass_columns(robot, x, backend_for(True))), sp.Matrix(qd)
    A = (M * v).jacobian(x)
    Mdot = sum((M.diff(xk) * vk for xk, vk in zip(x, v)), sp.zeros(robot.n))
    return ((Mdot + A - A.T) / 2).subs(dict(zip(x, q)))


def _coriolis_kernel(robot):
    """The compiled ``coriolis(q, qd, cos, sin)`` -> C row by row: CasADi's exact derivatives of the traced
    kernels, A = ∂(M q̇)/∂q (M q̇ = RNE(q, 0, q̇) without gravity) and Ṁ = (∂M/∂q)·q̇, replayed on a Tracer
    (as many operations as dual numbers took)."""

    def build(robot):
        ca, n = casadi(), robot.n
        q, qd = ca.SX.sym("q", n), ca.SX.sym("qd", n)
        A = ca.jacobian(function(_momentum_kernel(robot), [n, n])(q, qd), q)
        M = ca.reshape(function(_inertia_kernel(robot), [n])(q), n, n).T  # the kernel's M is row by row
        C = 0.5 * (ca.jtimes(M, q, qd) + A - A.T)
        F = ca.Function("coriolis", [q, qd], [ca.densify(C.T)], {"cse": True})  # Cᵀ column-major: C row-major
        tr = Tracer()
        return tr.kernel("coriolis", "q, qd", replay(F, tr, [tr.inputs("q", n), tr.inputs("qd", n)])[0])

    return cached_kernel(robot, "dynamics.coriolis", build)


def _momentum_kernel(robot):
    """The compiled ``mqd(q, qd, cos, sin)`` = M(q) q̇: RNE(q, 0, q̇) without gravity, one Newton–Euler pass."""

    def build(robot):
        tr = Tracer()
        n = robot.n
        q, qd = tr.inputs("q", n), tr.inputs("qd", n)
        return tr.kernel(
            "mqd", "q, qd", rne_steps(_chain(robot), q, [0] * n, qd, [0] * 3, [0] * 6, TracerBackend(tr))[0]
        )

    return cached_kernel(robot, "dynamics.momentum", build)


def coriolis(robot: RobotLike, q: Any, qd: Any) -> Any:
    """C(q, q̇), (..., n, n), from the Christoffel symbols: C q̇ is the velocity-product torque and
    Ṁ − 2C is skew-symmetric (lab report (2.71)–(2.73))."""
    _require_inertia(robot)
    symbolic = robot.symbolic or is_symbolic(q, qd)
    q, qd = joint_args(robot, q, "q", symbolic), joint_args(robot, qd, "qd", symbolic)
    if symbolic:
        return _coriolis_symbolic(robot, q, qd)
    q, qd = batch_args([q, qd])
    return run_kernel(_coriolis_kernel(robot), q, (robot.n, robot.n), qd)


def fdyn(
    robot: RobotLike,
    q: Any,
    qd: Any,
    tau: Any,
    gravity: Any = GRAVITY,
    *,
    friction: Callable[[np.ndarray], Any] | None = None,
    armature: ArrayLike | None = None,
    f_tip: ArrayLike | None = None,
) -> np.ndarray:
    """Forward dynamics q̈ = (M + diag(armature))⁻¹·(τ − C q̇ − G − friction(q̇) − Jᵀ·f_tip), (..., n).

    ``armature``: actuator inertia reflected to each joint (n,) (the youBot chapter's I_a);
    ``friction``: a function q̇ → (..., n) friction torques, or None.
    One compiled kernel per robot forms M and C q̇ + G together and solves by LDLᵀ (:func:`fdyn_kernel`).
    """
    plain = friction is None and armature is None and f_tip is None and gravity is GRAVITY
    fast = _plain(robot, q, qd, tau) if plain else None
    if fast is not None and _has_mass(robot):
        try:
            return np.array(fdyn_kernel(robot)(*fast, _G_DEFAULT, _W_ZERO, [0.0] * robot.n, math.cos, math.sin))
        except ZeroDivisionError:
            pass  # the checked path explains
    _require_inertia(robot)
    q = joint_args(robot, q, "q", False)
    qd = joint_args(robot, qd, "qd", False)
    tau = joint_args(robot, tau, "tau", False)
    if friction is not None:
        tau = tau - as_float_array(friction(qd), "friction(qd)", (robot.n,))
    arm = np.zeros(robot.n) if armature is None else as_float_array(armature, "armature", (robot.n,), allow_batch=False)
    g = as_float_array(gravity, "gravity", (3,), allow_batch=False)
    w = np.zeros(6) if f_tip is None else as_float_array(f_tip, "f_tip", (6,))
    q, qd, tau, g, w, arm = batch_args([q, qd, tau, g, w, arm])
    try:
        qdd = run_kernel(fdyn_kernel(robot), q, (robot.n,), qd, tau, g, w, arm)
    except ZeroDivisionError:
        qdd = np.full(q.shape, np.nan)
    if not np.isfinite(qdd).all():
        raise ValueError("M(q) + diag(armature) is singular here: give every moving link mass and inertia")
    return qdd


def _trace_fdyn(tr, robot):
    """Trace q̈ = (M + diag(arm))⁻¹(τ − RNE(q, q̇, 0, g, w)) into ``tr``; returns (the inputs' Vars, q̈)."""
    n = robot.n
    q, qd, tau, g, w, arm = (
        tr.inputs(name, size) for name, size in (("q", n), ("qd", n), ("tau", n), ("g", 3), ("w", 6), ("arm", n))
    )
    B = TracerBackend(tr)
    chain = _chain(robot)
    M = _mass_columns(chain, q, B)
    for i in range(n):
        M[i][i] = M[i][i] + arm[i]
    bias = rne_steps(chain, q, qd, [0] * n, g, w, B)[0]  # C q̇ + G (+ Jᵀ w)
    return (q, qd), ldl_solve(M, [t - b for t, b in zip(tau, bias)])


def fdyn_kernel(robot: RobotLike) -> Callable[..., list]:
    """The compiled ``fdyn(q, qd, tau, g, w, arm, cos, sin) -> q̈`` of this robot (lists or numpy columns).

    For simulators: call it directly with Python lists for one state. ``arm`` is the armature (n),
    added to M's diagonal; ``w`` the tip wrench (6) as in :func:`rne`.
    """

    def build(robot):
        tr = Tracer()
        _, qdd = _trace_fdyn(tr, robot)
        return tr.kernel("fdyn", "q, qd, tau, g, w, arm", qdd)

    return cached_kernel(robot, "dynamics.fdyn", build)


def euler_step_kernel(robot: RobotLike) -> Callable[..., tuple]:
    """One semi-implicit Euler step of :func:`fdyn_kernel`, compiled as one function:
    ``step(q, qd, tau, g, w, arm, h, cos, sin)`` returns the lists (q̈, q_next, q̇_next), with
    q̇_next = q̇ + h·q̈ and q_next = q + h·q̇_next (the new velocity moves the position). A simulator's whole
    step in one call: no lists are built between the dynamics and the update. Its q̈ is :func:`fdyn_kernel`'s,
    so a simulator needs only this kernel (with h = 0 where it wants q̈ alone).
    """

    def build(robot):
        tr = Tracer()
        (q, qd), qdd = _trace_fdyn(tr, robot)
        h = Var(tr, "h")
        qd_next = [v + h * a for v, a in zip(qd, qdd)]
        q_next = [x + h * v for x, v in zip(q, qd_next)]
        return tr.kernel("euler_step", "q, qd, tau, g, w, arm, h", (qdd, q_next, qd_next))

    return cached_kernel(robot, "dynamics.euler_step", build)


def ldl_solve(M: list, b: list) -> list:
    """x with M x = b for a symmetric positive definite M (nested lists of scalars), by M = L D Lᵀ.

    Written on scalars, like the recursions, so it traces into the compiled forward dynamics."""
    n = len(b)
    L = [[0.0] * n for _ in range(n)]
    D, Dinv = [0.0] * n, [0.0] * n
    for j in range(n):
        LD = [L[j][k] * D[k] for k in range(j)]  # row j of L·D
        d = M[j][j]
        for k in range(j):
            d = d - LD[k] * L[j][k]
        D[j], Dinv[j] = d, 1.0 / d
        for i in range(j + 1, n):
            s = M[i][j]
            for k in range(j):
                s = s - L[i][k] * LD[k]
            L[i][j] = s * Dinv[j]
    y = list(b)
    for i in range(n):
        for k in range(i):
            y[i] = y[i] - L[i][k] * y[k]
    x = [y[i] * Dinv[i] for i in range(n)]
    for i in range(n - 1, -1, -1):
        for k in range(i + 1, n):
            x[i] = x[i] - L[k][i] * x[k]
    return x


def kinetic_energy(robot: RobotLike, q: Any, qd: Any) -> np.ndarray:
    """K = ½ q̇ᵀ M(q) q̇, (...). One Newton–Euler pass: M(q) q̇ is RNE(q, 0, q̇) without gravity."""
    _require_inertia(robot)
    q = joint_args(robot, q, "q", False)
    qd = joint_args(robot, qd, "qd", False)
    q, qd = batch_args([q, qd])
    return 0.5 * np.einsum("...i,...i->...", qd, run_kernel(_momentum_kernel(robot), q, (robot.n,), qd))


def potential_energy(robot: RobotLike, q: Any, gravity: Any = GRAVITY) -> np.ndarray:
    """P = −Σ m_k·gᵀ·p_ck (world positions of the centres of mass), zero at the world origin; (...)."""
    q = joint_args(robot, q, "q", False)
    g = as_float_array(gravity, "gravity", (3,), allow_batch=False)

    def build(robot):  # the chain's frames (the robot's own: centres of mass are given in them)
        tr = Tracer()
        qv, gv = tr.inputs("q", robot.n), tr.inputs("g", 3)
        base, links, _ = chain(robot, qv, TracerBackend(tr))
        T, P = base, 0.0
        for link, L in zip(robot.links, links):
            T = compose(T, L)
            P = P - float(link.m or 0.0) * sm.dot(gv, sm.add(sm.mv(T[0], [float(c) for c in link.r]), T[1]))
        return tr.kernel("potential", "q, g", [P])

    q, g = batch_args([q, g])
    return run_kernel(cached_kernel(robot, "dynamics.potential", build), q, (), g)
