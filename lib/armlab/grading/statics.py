"""Checkers for the statics homework (hw05): a recursion step, τ = JᵀF, the singular direction, a 6-D
wrench transform and inverse statics (statics chapter 002 §5.2–5.5, textbook §3.5.1).

Same rules as the rest of :mod:`armlab.grading`: every failure is an ``AssertionError`` that names the
kind of mistake (wrong frame, action vs reaction, transposed J, the moment of the force forgotten, ...),
and the references are computed here with plain Python arithmetic, never with ``armlab.statics`` or numpy.

Convention (002's (5-1) and Craig's): a tip force is what the tip EXERTS ON the environment; the
balancing joint torques are then τ = JᵀF. A wrench is (f, m), the moment about the frame's origin.

>>> from armlab.grading.statics import reference_tau_base
>>> [round(t, 12) for t in reference_tau_base(0.0, 1.5707963267948966, 1.0, 1.0, [0.0, 1.0])]
[1.0, 0.0]

Checkers of student functions call them on fixed cases and on seeded random cases:
:func:`check_recursion_step_function` ((5-2)), :func:`check_tau_tip_function` ((5-5)),
:func:`check_tau_base_function` ((5-6)), :func:`check_free_direction_function` (Fig. 5.7),
:func:`check_wrench_at_tool_function` ((5-8), Example 6), :func:`check_tip_force_function` (§5.4).
"""

from __future__ import annotations

from ._base import Run, arrays, call, check_finite, fail, fmt, fmt_list, function_checker, read, vector
from ._builtins import *  # noqa: F403  (the captured builtins shadow the live ones)
from ._frozen import cos, freeze, np_array, pi, sin, sqrt
from ._plain import cross, matmul, matvec, rot, transpose
from .checks import check_close

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable, Sequence
    from random import Random

__all__ = [
    "check_recursion_step_function",
    "check_tau_tip_function",
    "check_tau_base_function",
    "check_free_direction_function",
    "check_wrench_at_tool_function",
    "check_tip_force_function",
    "reference_recursion_step",
    "reference_tau_tip",
    "reference_tau_base",
    "reference_free_direction",
    "reference_wrench_at_tool",
    "reference_tip_force_3r",
    "jacobian_2r",
    "jacobian_planar",
]

SIGN = (
    "sign flipped: this balances the force the environment applies to the tip (the reaction). The "
    "convention here is the force the tip EXERTS on the environment, τ = +JᵀF"
)


# --- plain-math references -------------------------------------------------------------------------
def neg(v: Any) -> list[Any]:
    return [-x for x in v]


def add(a: Any, b: Any) -> list[Any]:
    return [x + y for x, y in zip(a, b)]


def random_rotation(rng: Random) -> Any:
    """A rotation R(z, a)·R(y, b)·R(x, c) with random angles (flat 3×3)."""
    return matmul(
        matmul(rot("z", rng.uniform(-pi, pi), 3), rot("y", rng.uniform(-pi, pi), 3), 3),
        rot("x", rng.uniform(-pi, pi), 3),
        3,
    )


def reference_recursion_step(
    R: Sequence[float], P: Sequence[float], f_next: Sequence[float], n_next: Sequence[float]
) -> Any:
    """(5-2): f_i = ⁱR_{i+1}·f_{i+1}, n_i = ⁱR_{i+1}·n_{i+1} + ⁱP_{i+1} × f_i, as (f_i, n_i)."""
    f = matvec(R, f_next, 3)
    return f, add(matvec(R, n_next, 3), cross(P, f))


def jacobian_planar(q: Any, lengths: Any) -> Any:
    """Rows (x, y) of the tip velocity Jacobian of a planar arm with revolute joints (flat 2×n)."""
    n = len(q)
    angles, total = [], 0.0
    for qi in q:
        total += qi
        angles.append(total)
    row_x = [-sum(lengths[j] * sin(angles[j]) for j in range(k, n)) for k in range(n)]
    row_y = [sum(lengths[j] * cos(angles[j]) for j in range(k, n)) for k in range(n)]
    return row_x + row_y


def jacobian_2r(t1: float, t2: float, l1: float, l2: float) -> Any:
    """Example 5's J of the 2R arm, flat 2×2: [[−l1s1 − l2s12, −l2s12], [l1c1 + l2c12, l2c12]]."""
    return jacobian_planar([t1, t2], [l1, l2])


def jt_times(J: Any, F: Any, n: int) -> list[Any]:
    """Jᵀ·F for a flat 2×n J."""
    return [J[k] * F[0] + J[n + k] * F[1] for k in range(n)]


def tip_matrix(t2: float, l1: float, l2: float) -> list[Any]:
    """(5-5)'s matrix: τ = [[l1s2, l1c2 + l2], [0, l2]]·f with f in the tip frame {3}."""
    return [l1 * sin(t2), l1 * cos(t2) + l2, 0.0, l2]


def reference_tau_tip(t1: float, t2: float, l1: float, l2: float, f: Sequence[float]) -> list[float]:
    """(5-5): the balancing torques for the tip force f = (fx, fy) in the tip frame {3}."""
    M = tip_matrix(t2, l1, l2)
    return [M[0] * f[0] + M[1] * f[1], M[2] * f[0] + M[3] * f[1]]


def reference_tau_base(t1: float, t2: float, l1: float, l2: float, F: Sequence[float]) -> Any:
    """(5-6), Example 5: τ = JᵀF for the tip force F = (Fx, Fy) in the base frame {0}."""
    return jt_times(jacobian_2r(t1, t2, l1, l2), F, 2)


def reference_free_direction(t1: float, t2: float, l1: float, l2: float) -> list[float]:
    """At a singular pose (θ2 = 0 or π) the unit force (base frame) that costs no torque: along the arm."""
    return [cos(t1), sin(t1)]


def reference_wrench_at_tool(T: Sequence[float], F: Sequence[float]) -> Any:
    """The wrench F = (f, m) measured at O_W in {W}'s axes, as the equivalent wrench at O_T in {T}'s axes,
    for T = T_WT (the pose of {T} in {W}, flat 4×4; the statics chapter's ᵂ_TT is its inverse):
    f_T = Rᵀf, m_T = Rᵀ(m − p × f)."""
    Rt = transpose([T[0], T[1], T[2], T[4], T[5], T[6], T[8], T[9], T[10]], 3)
    p, f, m = [T[3], T[7], T[11]], F[:3], F[3:]
    return matvec(Rt, f, 3) + matvec(Rt, add(m, neg(cross(p, f))), 3)


def solve2(A: Any, b: Any) -> list[Any]:
    """The 2×2 system A·x = b (flat A), by Cramer's rule."""
    det = A[0] * A[3] - A[1] * A[2]
    return [(b[0] * A[3] - A[1] * b[1]) / det, (A[0] * b[1] - A[2] * b[0]) / det]


def reference_tip_force_3r(q: Sequence[float], lengths: Sequence[float], tau: Sequence[float]) -> Any:
    """§5.4: the tip force (base frame) of a planar 3R arm from its joint torques, by the book's least
    squares F = (JJᵀ)⁻¹Jτ (J the 2×3 translational Jacobian: three equations, two unknowns)."""
    J = jacobian_planar(q, lengths)
    n = len(q)
    JJt = [sum(J[r * n + k] * J[c * n + k] for k in range(n)) for r in range(2) for c in range(2)]
    Jtau = [sum(J[r * n + k] * tau[k] for k in range(n)) for r in range(2)]
    return solve2(JJt, Jtau)


# --- reading answers -------------------------------------------------------------------------------
def nested3(flat: Any) -> Any:
    return np_array([flat[0:3], flat[3:6], flat[6:9]], dtype=float)


# --- checkers of student functions -----------------------------------------------------------------
@function_checker("recursion_step", atol=1e-9)
def check_recursion_step_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(R, P, f_next, n_next)`` must return ``(f_i, n_i)`` by (5-2), with R = ⁱR_{i+1} (3×3, {i+1}'s axes
    in {i}), P = ⁱP_{i+1} (O_{i+1} in {i}), f_next, n_next in {i+1}. Cases are (R flat 3×3, P, f, n)."""

    def make(rng):
        vec = [[rng.uniform(-2.0, 2.0) for _ in range(3)] for _ in range(3)]
        return (random_rotation(rng), *vec)

    for R, P, fn1, nn1 in run.each(make):
        label = f"{run.name}(R, P={fmt_list(P)}, f_next={fmt_list(fn1)}, n_next={fmt_list(nn1)})"
        got = call(fn, (nested3(R), *arrays(P, fn1, nn1)), run.name)
        shape, flat = read(got, label)
        if shape not in ((2, 3), (6,)):
            fail(label, f"expected the two 3-vectors (f_i, n_i), got shape {shape} (return f, n)")
        check_finite(flat, label)
        f, nn = reference_recursion_step(R, P, fn1, nn1)
        Rn = matvec(R, nn1, 3)
        Rt = transpose(R, 3)
        hints = {
            "forgot the moment of the force: f_{i+1} acts at O_{i+1}, a lever arm ⁱP_{i+1} away from O_i, so "
            "n_i = R·n_{i+1} + P × f_i": [f, Rn],
            "wrong frame in P × f: P is in {i}, so the force must be in {i} too: P × (R·f_{i+1})": [
                f,
                add(Rn, cross(P, fn1)),
            ],
            "cross product in the wrong order: the moment of f about O_i is P × f, not f × P": [
                f,
                add(Rn, cross(f, P)),
            ],
            "rotated the wrong way: R = ⁱR_{i+1} already takes {i+1}'s components to {i}'s (use R, not Rᵀ)": [
                matvec(Rt, fn1, 3),
                add(matvec(Rt, nn1, 3), cross(P, matvec(Rt, fn1, 3))),
            ],
            "the moment of link i+1 is not rotated: n_i = R·n_{i+1} + …, with n_{i+1} given in {i+1}": [
                f,
                add(nn1, cross(P, f)),
            ],
            "sign flipped: f_{i+1} is what link i exerts on link i+1, and f_i what link i−1 exerts on link i; "
            "without weights they are the same force carried inward, f_i = +R·f_{i+1}": [neg(f), neg(nn)],
        }
        check_close([flat[:3], flat[3:]], [f, nn], name=label, atol=run.atol, hints=hints)


def angles_case(rng: Random) -> Any:
    return (
        rng.uniform(-pi, pi),
        rng.uniform(-pi, pi),
        rng.uniform(0.2, 1.5),
        rng.uniform(0.2, 1.5),
        [rng.uniform(-20.0, 20.0), rng.uniform(-20.0, 20.0)],
    )


@function_checker("tau_tip", atol=1e-9)
def check_tau_tip_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(theta1, theta2, l1, l2, f)`` must return τ (2,) by (5-5) for the tip force f = (fx, fy) given in
    the tip frame {3} (Example 3)."""
    for t1, t2, l1, l2, f in run.each(angles_case):
        label = f"{run.name}({fmt(t1)}, {fmt(t2)}, {fmt(l1)}, {fmt(l2)}, f={fmt_list(f)})"
        got = vector(call(fn, (t1, t2, l1, l2, np_array(f, dtype=float)), run.name), 2, label)
        M = tip_matrix(t2, l1, l2)
        hints = {
            "wrong frame: f is given in the tip frame {3}; this treats it as a base-frame force (use (5-5), or "
            "rotate f into {0} first)": reference_tau_base(t1, t2, l1, l2, f),
            "transposed matrix: τ = [[l1s2, l1c2 + l2], [0, l2]]·f, (5-5)": [
                M[0] * f[0] + M[2] * f[1],
                M[1] * f[0] + M[3] * f[1],
            ],
            "τ1 misses the moment carried over from joint 2: ¹M₁ = ¹R₂·²M₂ + ¹P₂ × ¹f₁, and ²M₂ = (0, 0, l2·f_y)": [
                l1 * (sin(t2) * f[0] + cos(t2) * f[1]),
                l2 * f[1],
            ],
            SIGN: neg(reference_tau_tip(t1, t2, l1, l2, f)),
        }
        check_close(got, reference_tau_tip(t1, t2, l1, l2, f), name=label, atol=run.atol, hints=hints)


@function_checker("tau_base", atol=1e-9)
def check_tau_base_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(theta1, theta2, l1, l2, F)`` must return τ = JᵀF (2,) for the tip force F = (Fx, Fy) in the base
    frame {0} (Examples 4 and 5)."""
    for t1, t2, l1, l2, F in run.each(angles_case):
        label = f"{run.name}({fmt(t1)}, {fmt(t2)}, {fmt(l1)}, {fmt(l2)}, F={fmt_list(F)})"
        got = vector(call(fn, (t1, t2, l1, l2, np_array(F, dtype=float)), run.name), 2, label)
        J = jacobian_2r(t1, t2, l1, l2)
        hints = {
            "wrong frame: F is given in the base frame {0}; (5-5) takes a force in the tip frame {3} (rotate F "
            "by R(z, −(θ1 + θ2)) first, or use τ = JᵀF with the base-frame J)": reference_tau_tip(t1, t2, l1, l2, F),
            "transposed J: the torques are τ = JᵀF, not J·F": [J[0] * F[0] + J[1] * F[1], J[2] * F[0] + J[3] * F[1]],
            "θ2 is relative to link 1: the second link's direction is θ1 + θ2 (s12, c12), not θ2": jt_times(
                [-l1 * sin(t1) - l2 * sin(t2), -l2 * sin(t2), l1 * cos(t1) + l2 * cos(t2), l2 * cos(t2)], F, 2
            ),
            SIGN: neg(reference_tau_base(t1, t2, l1, l2, F)),
        }
        check_close(got, reference_tau_base(t1, t2, l1, l2, F), name=label, atol=run.atol, hints=hints)


@function_checker("free_direction", atol=1e-7)
def check_free_direction_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(theta1, theta2, l1, l2)`` at a singular pose (θ2 = 0 or π) must return a unit force direction
    u (2,), base frame, that costs no joint torque: Jᵀu = 0 (either sign)."""

    def make(rng):
        l1 = rng.uniform(0.2, 1.5)
        l2 = rng.uniform(0.2, 1.5)
        if abs(l1 - l2) < 0.05:
            l2 += 0.1
        return (rng.uniform(-pi, pi), 0.0 if rng.random() < 0.6 else pi, l1, l2)

    for t1, t2, l1, l2 in run.each(make):
        label = f"{run.name}({fmt(t1)}, {fmt(t2)}, {fmt(l1)}, {fmt(l2)})"
        u = vector(call(fn, (t1, t2, l1, l2), run.name), 2, label)
        J = jacobian_2r(t1, t2, l1, l2)
        tau = jt_times(J, u, 2)
        norm = sqrt(u[0] * u[0] + u[1] * u[1])
        along = reference_free_direction(t1, t2, l1, l2)
        if norm < 1e-12:
            fail(label, "is the zero vector; a direction must have length 1")
        if abs(tau[0]) <= run.atol * norm * 10 and abs(tau[1]) <= run.atol * norm * 10:
            if abs(norm - 1.0) > 1e-6:
                fail(label, f"right direction, but not a unit vector (length {fmt(norm)}): divide by its norm")
            continue
        if abs(u[0] * along[0] + u[1] * along[1]) < 1e-6 * norm:
            fail(
                label,
                "this direction is ACROSS the stretched-out arm: a force across it needs the largest "
                "torques. The free direction is the one Jᵀ maps to zero (its null space)",
            )
        fail(
            label,
            f"Jᵀu = {fmt_list(tau)} ≠ 0: this force needs joint torque. Look for u with Jᵀu = 0 (the null space of Jᵀ)",
        )


@function_checker("wrench_at_tool", atol=1e-9)
def check_wrench_at_tool_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(T_WT, F_W)`` must return the wrench (6,) at O_T in {T}'s axes equivalent to F_W = (f, m) at O_W
    in {W}'s axes, for T_WT the pose of {T} in {W} (4×4). Cases are (T flat 4×4, F_W)."""

    def make(rng):
        R = random_rotation(rng)
        p = [rng.uniform(-0.5, 0.5) for _ in range(3)]
        T = R[0:3] + [p[0]] + R[3:6] + [p[1]] + R[6:9] + [p[2], 0.0, 0.0, 0.0, 1.0]
        return (T, [rng.uniform(-20.0, 20.0) for _ in range(3)] + [rng.uniform(-3.0, 3.0) for _ in range(3)])

    for T, F in run.each(make):
        label = f"{run.name}(T_WT with p = ({fmt(T[3])}, {fmt(T[7])}, {fmt(T[11])}), F_W={fmt_list(F)})"
        got = vector(
            call(fn, (np_array([T[0:4], T[4:8], T[8:12], T[12:16]], dtype=float), np_array(F, dtype=float)), run.name),
            6,
            label,
        )
        R = [T[0], T[1], T[2], T[4], T[5], T[6], T[8], T[9], T[10]]
        Rt = transpose(R, 3)
        p, f, m = [T[3], T[7], T[11]], F[:3], F[3:]
        fT = matvec(Rt, f, 3)
        pT = neg(matvec(Rt, p, 3))  # O_W in {T}
        hints = {
            "forgot the moment of the force: moving the reference point from O_W to O_T adds (O_W − O_T) × f "
            "to the moment": fT + matvec(Rt, m, 3),
            "the lever arm points the wrong way: the moment about O_T is m + (O_W − O_T) × f = m − p × f, with "
            "p = O_T in {W}": fT + matvec(Rt, add(m, cross(p, f)), 3),
            "wrong frame: the result must be in {T}'s axes; R (the rotation of T_WT) takes {T}'s components to "
            "{W}'s, so use Rᵀ": matvec(R, f, 3) + matvec(R, add(m, neg(cross(p, f))), 3),
            "mixed frames: p is in {W}'s axes, so take m − p × f in {W} and rotate the result (or rotate p too)": fT
            + add(matvec(Rt, m, 3), neg(cross(p, fT))),
            "this is the statics chapter's Example 6 as printed, R·S(P): with P = O_W in {T} the moment block is "
            "S(P)·R (docs/errata.md)": fT + add(matvec(Rt, m, 3), matvec(Rt, cross(pT, f), 3)),
            "this maps the other way, from {T} to {W}: the statics chapter's ᵂ_TT (Example 6) is the inverse of "
            "T_WT, the pose of {W} in {T}; the argument here is T_WT itself": matvec(R, f, 3)
            + add(matvec(R, m, 3), cross(p, matvec(R, f, 3))),
        }
        check_close(got, reference_wrench_at_tool(T, F), name=label, atol=run.atol, hints=hints)


@function_checker("tip_force", atol=1e-7)
def check_tip_force_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(q, lengths, tau)`` must return the tip force F = (Fx, Fy) (base frame) of a planar 3R arm that
    the joint torques tau (3,) hold, by least squares F = (JJᵀ)⁻¹Jτ (§5.4). Cases are (q, lengths, tau)."""

    def make(rng):
        while True:
            q = [rng.uniform(-pi, pi) for _ in range(3)]
            lengths = [rng.uniform(0.2, 1.0) for _ in range(3)]
            J = jacobian_planar(q, lengths)
            JJt = [sum(J[r * 3 + k] * J[c * 3 + k] for k in range(3)) for r in range(2) for c in range(2)]
            if JJt[0] * JJt[3] - JJt[1] * JJt[2] > 0.01:  # away from the singular poses
                return (q, lengths, [rng.uniform(-10.0, 10.0) for _ in range(3)])

    for q, lengths, tau in run.each(make):
        label = f"{run.name}(q={fmt_list(q)}, lengths={fmt_list(lengths)}, tau={fmt_list(tau)})"
        got = vector(
            call(fn, arrays(q, lengths, tau), run.name),
            2,
            label,
        )
        F = reference_tip_force_3r(q, lengths, tau)
        J = jacobian_planar(q, lengths)
        phi = q[0] + q[1] + q[2]
        hints = {
            SIGN: neg(F),
            "wrong frame: F is wanted in the base frame {0}; this is it in the tip frame": [
                cos(phi) * F[0] + sin(phi) * F[1],
                -sin(phi) * F[0] + cos(phi) * F[1],
            ],
            "only two of the three joint equations were used: τ = JᵀF is three equations for two unknowns, "
            "solve them in the least-squares sense, F = (JJᵀ)⁻¹Jτ": solve2([J[0], J[3], J[1], J[4]], tau[:2]),
            "J·τ is not the force (it is not even (JJᵀ)⁻¹Jτ): the least-squares force is F = (JJᵀ)⁻¹Jτ": [
                sum(J[k] * tau[k] for k in range(3)),
                sum(J[3 + k] * tau[k] for k in range(3)),
            ],
        }
        check_close(got, F, name=label, atol=run.atol, rtol=1e-7, hints=hints)


freeze(__name__)
