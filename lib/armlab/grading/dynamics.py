"""Checkers for the dynamics homework (hw06): the 2R arm of textbook Example 3.9 — its kinetic energy,
the velocity-product torques from the D-coefficients, the gravity torques, one outward step of the
Newton–Euler recursion, and its inertia matrix checked for being symmetric positive definite.

Same rules as the rest of :mod:`armlab.grading`: every failure is an ``AssertionError`` that names the
kind of mistake (a missing factor ½, the Coriolis term counted once instead of twice, the gravity sign,
angles from the horizontal, θ2 taken as absolute, ...), and the references are computed here with plain
Python arithmetic, never with ``armlab.dynamics`` or numpy.

Example 3.9's arm: point masses m1, m2 at the ends of links d1, d2, angles from the DOWNWARD vertical
(x2 = d1 sinθ1 + d2 sin(θ1 + θ2), y2 = −d1 cosθ1 − d2 cos(θ1 + θ2)), θ2 relative to link 1, gravity g
downwards. Torques are what the joint motors supply: τ = M(q)q̈ + h(q, q̇) + G(q).

>>> [round(x, 12) for x in reference_gravity([1.5707963267948966, 0.0], 1.0, 1.0, 1.0, 1.0, 10.0)]
[30.0, 10.0]

Checkers of student functions call them on fixed cases and on seeded random cases:
:func:`check_kinetic_energy_function` ((3.103)), :func:`check_velocity_torques_function` ((3.106)–(3.110)),
:func:`check_gravity_function` (D1, D2), :func:`check_outward_step_function` (one RNE step),
:func:`check_mass_matrix_function` and :func:`check_spd_function` (M symmetric positive definite).
"""

from __future__ import annotations

from ._base import Run, arrays, call, cases_of, check_finite, fail, fmt, fmt_list, function_checker, read
from ._builtins import *  # noqa: F403  (the captured builtins shadow the live ones)
from ._frozen import cos, freeze, np_array, np_generic, pi, sin
from ._plain import cross, matvec, transpose
from .checks import check_close
from .statics import add, nested3, neg, random_rotation, vector

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable, Sequence
    from random import Random

__all__ = [
    "check_kinetic_energy_function",
    "check_velocity_torques_function",
    "check_gravity_function",
    "check_outward_step_function",
    "check_mass_matrix_function",
    "check_spd_function",
    "reference_kinetic_energy",
    "reference_velocity_torques",
    "reference_gravity",
    "reference_outward_step",
    "reference_mass_matrix",
    "reference_is_spd",
]

GRAVITY_SIGN = (
    "gravity sign: this is the torque gravity exerts on the joints. The motors must supply the opposite, "
    "D_i = ∂P/∂θ_i (with P = m·g·height, P1 = −m1·g·d1·cosθ1 …)"
)


# --- plain-math references ----------------------------------------------------------------------
def reference_kinetic_energy(
    q: Sequence[float], qd: Sequence[float], m1: float, m2: float, d1: float, d2: float
) -> float:
    """(3.103): K = ½(m1 + m2)d1²θ̇1² + ½m2d2²(θ̇1 + θ̇2)² + m2d1d2 cosθ2 (θ̇1² + θ̇1θ̇2)."""
    w1, w2 = qd
    return (
        0.5 * (m1 + m2) * d1 * d1 * w1 * w1
        + 0.5 * m2 * d2 * d2 * (w1 + w2) * (w1 + w2)
        + m2 * d1 * d2 * cos(q[1]) * (w1 * w1 + w1 * w2)
    )


def reference_mass_matrix(q: Sequence[float], m1: float, m2: float, d1: float, d2: float) -> list[float]:
    """[[D11, D12], [D21, D22]] of Example 3.9 (flat 2×2)."""
    c2 = cos(q[1])
    D11 = (m1 + m2) * d1 * d1 + m2 * d2 * d2 + 2.0 * m2 * d1 * d2 * c2
    D12 = m2 * d2 * d2 + m2 * d1 * d2 * c2
    return [D11, D12, D12, m2 * d2 * d2]


def reference_velocity_torques(
    q: Sequence[float], qd: Sequence[float], m1: float, m2: float, d1: float, d2: float
) -> list[float]:
    """Σ_jk D_ijk θ̇_j θ̇_k: [D122θ̇2² + (D112 + D121)θ̇1θ̇2, D211θ̇1²] with D122 = D112 = D121 = −m2d1d2 sinθ2,
    D211 = m2d1d2 sinθ2 (the centripetal and Coriolis torques of (3.106)–(3.107))."""
    w1, w2 = qd
    k = m2 * d1 * d2 * sin(q[1])
    return [-k * (w2 * w2 + 2.0 * w1 * w2), k * w1 * w1]


def reference_gravity(q: Sequence[float], m1: float, m2: float, d1: float, d2: float, g: float) -> list[float]:
    """D1, D2 of Example 3.9: [(m1 + m2)g d1 sinθ1 + m2 g d2 sin(θ1 + θ2), m2 g d2 sin(θ1 + θ2)]."""
    s12 = sin(q[0] + q[1])
    return [(m1 + m2) * g * d1 * sin(q[0]) + m2 * g * d2 * s12, m2 * g * d2 * s12]


def reference_outward_step(
    R: Sequence[float],
    P: Sequence[float],
    w: Sequence[float],
    wd: Sequence[float],
    vd: Sequence[float],
    qd: float,
    qdd: float,
) -> Any:
    """One outward step of RNE for a revolute joint i+1 (Craig, modified DH), everything in frame {i+1}:
    ω' = Rᵀω + θ̇ẑ, ω̇' = Rᵀω̇ + (Rᵀω) × θ̇ẑ + θ̈ẑ, v̇' = Rᵀ(ω̇ × P + ω × (ω × P) + v̇), with R = ⁱR_{i+1}
    (flat 3×3) and P = ⁱP_{i+1}. Returns the flat 9 numbers (ω', ω̇', v̇')."""
    Rt = transpose(R, 3)
    z = [0.0, 0.0, qd]
    w_in = matvec(Rt, w, 3)
    w1 = add(w_in, z)
    wd1 = add(add(matvec(Rt, wd, 3), cross(w_in, z)), [0.0, 0.0, qdd])
    vd1 = matvec(Rt, add(add(cross(wd, P), cross(w, cross(w, P))), vd), 3)
    return w1 + wd1 + vd1


def is_symmetric(M: Any, n: int, tol: float) -> Any:
    """|M_ij − M_ji| ≤ tol·max|M| for every pair (hw06's rule: relative to the largest entry, whatever the units)."""
    level = tol * max(abs(x) for x in M)
    return all(abs(M[i * n + j] - M[j * n + i]) <= level for i in range(n) for j in range(i + 1, n))


def ldl_pivots(M: Any, n: int) -> Any:
    """The pivots d_k of the LDLᵀ factorisation of the symmetric M (plain arithmetic; None at a zero pivot)."""
    L, d = [0.0] * (n * n), [0.0] * n
    for j in range(n):
        d[j] = M[j * n + j] - sum(L[j * n + k] * L[j * n + k] * d[k] for k in range(j))
        if d[j] == 0.0:
            return None
        for i in range(j + 1, n):
            L[i * n + j] = (M[i * n + j] - sum(L[i * n + k] * L[j * n + k] * d[k] for k in range(j))) / d[j]
    return d


def reference_is_spd(M: Sequence[float], n: int, tol: float = 1e-9) -> bool:
    """hw06's rule, with ε = tol·max|M|: M (flat n×n) is symmetric when every |M_ij − M_ji| ≤ ε, and positive
    definite when every eigenvalue of its symmetric part S = (M + Mᵀ)/2 is above ε (an eigenvalue at rounding
    level counts as zero). In plain arithmetic: λ_min(S) > ε exactly when S − εE is positive definite, i.e.
    when every LDLᵀ pivot of S − εE is > 0."""
    if not is_symmetric(M, n, tol):
        return False
    level = tol * max(abs(x) for x in M)
    shifted = [(M[i * n + j] + M[j * n + i]) / 2.0 - (level if i == j else 0.0) for i in range(n) for j in range(n)]
    d = ldl_pivots(shifted, n)
    return d is not None and all(x > 0.0 for x in d)


# --- cases --------------------------------------------------------------------------------------
def arm_case(rng: Random) -> Any:
    """(q, qd, m1, m2, d1, d2): random pose, joint rates, masses and lengths."""
    return (
        [rng.uniform(-pi, pi), rng.uniform(-pi, pi)],
        [rng.uniform(-3.0, 3.0), rng.uniform(-3.0, 3.0)],
        rng.uniform(0.2, 5.0),
        rng.uniform(0.2, 5.0),
        rng.uniform(0.2, 1.5),
        rng.uniform(0.2, 1.5),
    )


def scalar_answer(value: Any, label: str) -> Any:
    shape, flat = read(value, label)
    if shape != ():
        if len(flat) == 1:
            return flat[0]
        fail(label, f"expected one number (the energy in J), got shape {shape}")
    check_finite(flat, label)
    return flat[0]


def arm_label(name: str, q: Any, qd: Any, m1: float, m2: float, d1: float, d2: float, extra: str = "") -> str:
    rates = "" if qd is None else f", qd={fmt_list(qd)}"
    return f"{name}(q={fmt_list(q)}{rates}, m1={fmt(m1)}, m2={fmt(m2)}, d1={fmt(d1)}, d2={fmt(d2)}{extra})"


# --- checkers of student functions --------------------------------------------------------------
@function_checker("kinetic_energy", atol=1e-9)
def check_kinetic_energy_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(q, qd, m1, m2, d1, d2)`` must return Example 3.9's K (3.103), a number (J)."""
    for q, qd, m1, m2, d1, d2 in run.each(arm_case):
        label = arm_label(run.name, q, qd, m1, m2, d1, d2)
        got = scalar_answer(call(fn, (*arrays(q, qd), m1, m2, d1, d2), run.name), label)
        K = reference_kinetic_energy(q, qd, m1, m2, d1, d2)
        w1, w2 = qd
        cross_term = m2 * d1 * d2 * cos(q[1]) * (w1 * w1 + w1 * w2)
        hints = {
            "missing the factor ½: kinetic energy is ½·m·v² (this is twice K)": 2.0 * K,
            "the cross term of v2² is missing: ẋ2² + ẏ2² = d1²θ̇1² + d2²(θ̇1 + θ̇2)² + 2d1d2cosθ2(θ̇1² + θ̇1θ̇2)": K
            - cross_term,
            "the cross term is half what it should be: (a + b)² = a² + 2ab + b², so v2² has 2d1d2cosθ2(θ̇1² + θ̇1θ̇2)": K
            - 0.5 * cross_term,
            "θ2 taken as link 2's absolute angle: in Example 3.9 θ2 is measured from link 1, so m2 moves with "
            "θ̇1 + θ̇2 and the cross term has cosθ2": 0.5 * (m1 + m2) * d1 * d1 * w1 * w1
            + 0.5 * m2 * d2 * d2 * w2 * w2
            + m2 * d1 * d2 * cos(q[1] - q[0]) * w1 * w2,
            "m2 moves with link 1 too: the first term is ½(m1 + m2)d1²θ̇1², not ½m1d1²θ̇1²": K
            - 0.5 * m2 * d1 * d1 * w1 * w1,
        }
        check_close(got, K, name=label, atol=run.atol, rtol=1e-9, hints=hints)


@function_checker("velocity_torques", atol=1e-9)
def check_velocity_torques_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(q, qd, m1, m2, d1, d2)`` must return the centripetal + Coriolis torques
    [Σ_jk D_1jk θ̇_j θ̇_k, Σ_jk D_2jk θ̇_j θ̇_k] (2,) of Example 3.9."""
    for q, qd, m1, m2, d1, d2 in run.each(arm_case):
        label = arm_label(run.name, q, qd, m1, m2, d1, d2)
        got = vector(call(fn, (*arrays(q, qd), m1, m2, d1, d2), run.name), 2, label)
        h = reference_velocity_torques(q, qd, m1, m2, d1, d2)
        w1, w2 = qd
        k = m2 * d1 * d2 * sin(q[1])
        hints = {
            "Coriolis counted once instead of twice: D112·θ̇1θ̇2 and D121·θ̇2θ̇1 are both in (3.108), and they are "
            "equal, so joint 1's Coriolis torque is 2·D112·θ̇1θ̇2 = −2m2d1d2 sinθ2·θ̇1θ̇2": [
                -k * (w2 * w2 + w1 * w2),
                k * w1 * w1,
            ],
            "the centripetal terms are missing: D122·θ̇2² on joint 1 and D211·θ̇1² on joint 2 (velocity squared)": [
                -2.0 * k * w1 * w2,
                0.0,
            ],
            "the Coriolis term is missing: joint 1 also feels (D112 + D121)·θ̇1θ̇2": [-k * w2 * w2, k * w1 * w1],
            "D211 has the wrong sign: joint 2's centripetal torque is +m2d1d2 sinθ2·θ̇1² (D211 = −D122)": [h[0], -h[1]],
            "sign flipped: these are the torques the motors must SUPPLY (they appear on the right of T_i = …)": neg(h),
        }
        check_close(got, h, name=label, atol=run.atol, rtol=1e-9, hints=hints)


@function_checker("gravity_torques", atol=1e-9)
def check_gravity_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(q, m1, m2, d1, d2, g)`` must return [D1, D2] (2,): the torques the motors supply to hold the arm
    against gravity, θ measured from the downward vertical (Example 3.9)."""

    def make(rng):
        q, _, m1, m2, d1, d2 = arm_case(rng)
        return (q, m1, m2, d1, d2, rng.uniform(1.0, 10.0))

    for q, m1, m2, d1, d2, g in run.each(make):
        label = arm_label(run.name, q, None, m1, m2, d1, d2, f", g={fmt(g)}")
        got = vector(call(fn, (np_array(q, dtype=float), m1, m2, d1, d2, g), run.name), 2, label)
        G = reference_gravity(q, m1, m2, d1, d2, g)
        c1, c12 = cos(q[0]), cos(q[0] + q[1])
        hints = {
            GRAVITY_SIGN: neg(G),
            "angles measured from the horizontal: Example 3.9 measures θ1 from the DOWNWARD vertical "
            "(y2 = −d1cosθ1 − d2cos(θ1 + θ2)), so the lever arms are d1 sinθ1 and d2 sin(θ1 + θ2)": [
                (m1 + m2) * g * d1 * c1 + m2 * g * d2 * c12,
                m2 * g * d2 * c12,
            ],
            "joint 1 holds m2 too, at the lever arm d1 sinθ1 + d2 sin(θ1 + θ2): D1 = (m1 + m2)g d1 sinθ1 + …": [
                m1 * g * d1 * sin(q[0]) + m2 * g * d2 * sin(q[0] + q[1]),
                G[1],
            ],
            "θ2 taken as absolute: link 2's direction is θ1 + θ2, so sin(θ1 + θ2), not sinθ2": [
                (m1 + m2) * g * d1 * sin(q[0]) + m2 * g * d2 * sin(q[1]),
                m2 * g * d2 * sin(q[1]),
            ],
        }
        check_close(got, G, name=label, atol=run.atol, rtol=1e-9, hints=hints)


@function_checker("outward_step", atol=1e-9)
def check_outward_step_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(R, P, w, wd, vd, qd, qdd)`` must return (ω_{i+1}, ω̇_{i+1}, v̇_{i+1}) of a revolute joint i+1,
    each in frame {i+1} (see :func:`reference_outward_step`). Cases are (R flat 3×3, P, w, wd, vd, qd, qdd)."""

    def make(rng):
        vec = [[rng.uniform(-2.0, 2.0) for _ in range(3)] for _ in range(4)]
        return (random_rotation(rng), *vec, rng.uniform(-3.0, 3.0), rng.uniform(-5.0, 5.0))

    for R, P, w, wd, vd, qd, qdd in run.each(make):
        label = (
            f"{run.name}(R, P={fmt_list(P)}, w={fmt_list(w)}, wd={fmt_list(wd)}, vd={fmt_list(vd)}, "
            f"qd={fmt(qd)}, qdd={fmt(qdd)})"
        )
        args = (
            nested3(R),
            *arrays(P, w, wd, vd),
            qd,
            qdd,
        )
        shape, flat = read(call(fn, args, run.name), label)
        if shape not in ((3, 3), (9,)):
            fail(label, f"expected the three 3-vectors (w, wd, vd), got shape {shape} (return w, wd, vd)")
        check_finite(flat, label)
        ref = reference_outward_step(R, P, w, wd, vd, qd, qdd)
        Rt = transpose(R, 3)
        z = [0.0, 0.0, qd]
        ww, P1 = ref[:3], matvec(Rt, P, 3)
        hints = {
            "ω̇ misses (Rᵀω) × θ̇ẑ: the joint's own rate θ̇ẑ is turned by link i's rotation ω, "
            "ω̇_{i+1} = Rᵀω̇ + Rᵀω × θ̇ẑ + θ̈ẑ": ref[:3] + add(matvec(Rt, wd, 3), [0.0, 0.0, qdd]) + ref[6:],
            "v̇ misses the centripetal term ω × (ω × P): the origin O_{i+1} circles O_i": ref[:6]
            + matvec(Rt, add(cross(wd, P), vd), 3),
            "rotated the wrong way: R = ⁱR_{i+1} takes {i+1}'s components to {i}'s, so into {i+1} use Rᵀ": reference_outward_step(
                transpose(R, 3), P, w, wd, vd, qd, qdd
            ),
            "v̇ left in frame {i}: rotate it into {i+1} with Rᵀ like ω and ω̇": ref[:6]
            + add(add(cross(wd, P), cross(w, cross(w, P))), vd),
            "v̇ built from ω_{i+1}, ω̇_{i+1}: the acceleration of O_{i+1} as a point of link i uses link i's ω_i, ω̇_i": ref[
                :6
            ]
            + add(add(cross(ref[3:6], P1), cross(ww, cross(ww, P1))), matvec(Rt, vd, 3)),
            "the joint rate is added before rotating: ω_{i+1} = Rᵀω_i + θ̇ẑ, with θ̇ẑ already in {i+1}": matvec(
                Rt, add(w, z), 3
            )
            + ref[3:],
        }
        check_close(flat, ref, name=label, atol=run.atol, rtol=1e-9, hints=hints)


@function_checker("mass_matrix", atol=1e-9)
def check_mass_matrix_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(q, m1, m2, d1, d2)`` must return Example 3.9's M(q) = [[D11, D12], [D21, D22]] (2×2)."""

    def make(rng):
        q, _, m1, m2, d1, d2 = arm_case(rng)
        return (q, m1, m2, d1, d2)

    for q, m1, m2, d1, d2 in run.each(make):
        label = arm_label(run.name, q, None, m1, m2, d1, d2)
        got = call(fn, (np_array(q, dtype=float), m1, m2, d1, d2), run.name)
        M = reference_mass_matrix(q, m1, m2, d1, d2)
        c2 = m2 * d1 * d2 * cos(q[1])
        hints = {
            "not symmetric: the coupling inertia D12 = D21 = m2(d2² + d1d2cosθ2) belongs in both off-diagonal places": [
                [M[0], M[1]],
                [0.0, M[3]],
            ],
            "D11's cross term is 2m2d1d2cosθ2 (from the cross term of v2²), not m2d1d2cosθ2": [
                [M[0] - c2, M[1]],
                [M[2], M[3]],
            ],
            "m2 moves with link 1 too: D11 = (m1 + m2)d1² + …, not m1d1² + …": [
                [M[0] - m2 * d1 * d1, M[1]],
                [M[2], M[3]],
            ],
            "missing the factor 2 of K = ½q̇ᵀMq̇: this is M/2": [[0.5 * M[0], 0.5 * M[1]], [0.5 * M[2], 0.5 * M[3]]],
        }
        check_close(got, [M[0:2], M[2:4]], name=label, atol=run.atol, rtol=1e-9, hints=hints)


# --- is it symmetric positive definite? ------------------------------------------------------------
SPD_CASES = (
    # (flat M, n, what it is, said when the answer is wrong; None: an SPD matrix with nothing special to say)
    ([2.0, 0.5, 0.5, 1.0], 2, None),
    (
        [1.0, 3.0, 0.0, 1.0],
        2,
        "not symmetric (M ≠ Mᵀ), though both eigenvalues are positive: check symmetry as well (np.linalg.cholesky "
        "reads one triangle only, and the eigenvalues of a non-symmetric matrix say nothing about xᵀMx)",
    ),
    (
        [-1.0, 0.0, 0.0, -2.0],
        2,
        "negative definite: det(M) > 0 is not enough, both eigenvalues are negative here (use all eigenvalues of "
        "the symmetric M, or Cholesky)",
    ),
    (
        [1.0, 2.0, 2.0, 1.0],
        2,
        "indefinite (eigenvalues 3 and −1): a positive diagonal does not make M positive definite",
    ),
    (
        [1.0, 1.0, 1.0, 1.0],
        2,
        "singular: an eigenvalue is 0 (to rounding), so M is only semi-definite; positive definite needs every "
        "eigenvalue > 0, with a tolerance for rounding",
    ),
    ([4.0, 1.0, 0.0, 1.0, 3.0, 1.0, 0.0, 1.0, 2.0], 3, None),
    ([1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1e-3], 3, "one eigenvalue is −0.001: every eigenvalue must be > 0"),
    (
        [1e-3, 0.0, 0.0, 5e-10],
        2,
        "symmetric positive definite, only badly scaled (eigenvalues 1e-3 and 5e-10): the tolerance is relative, "
        "1e-9·max|M| = 1e-12 here, not an absolute 1e-9 (inertias in kg·m² can be that small)",
    ),
)


def check_spd_function(
    fn: Callable[..., Any],
    cases: Any = None,
    seed: int | None = None,
    n: int = 20,
    name: str = "is_spd",
    tol: float = 1e-9,
) -> None:
    """``fn(M)`` must return True exactly when M is symmetric and positive definite by hw06's rule
    (:func:`reference_is_spd`: with ε = tol·max|M|, |M − Mᵀ| ≤ ε and every eigenvalue of (M + Mᵀ)/2 above ε).
    Fixed tricky matrices, then ``cases`` ((flat M, n) pairs), then seeded random
    ones: Example 3.9's M(q) (always SPD), random A·Aᵀ + cI, rank-deficient, indefinite, non-symmetric."""

    def make(rng):
        kind = rng.randrange(5)
        if kind == 0:
            q, _, m1, m2, d1, d2 = arm_case(rng)
            return (reference_mass_matrix(q, m1, m2, d1, d2), 2)
        k = 2 + rng.randrange(3)
        A = [rng.uniform(-1.0, 1.0) for _ in range(k * k)]
        AAt = [sum_row(A, i, j, k) for i in range(k) for j in range(k)]
        if kind == 1:
            return ([x + (0.1 if i % (k + 1) == 0 else 0.0) for i, x in enumerate(AAt)], k)
        if kind == 2:  # rank k − 1: the last row of A a copy of the first, in exact binary fractions
            B = [float(int(x * 8)) / 8.0 for x in A[: (k - 1) * k]] + [float(int(x * 8)) / 8.0 for x in A[:k]]
            return ([sum_row(B, i, j, k) for i in range(k) for j in range(k)], k)
        if kind == 3:  # symmetric indefinite
            return ([x - (0.5 + max(abs(y) for y in AAt)) * (1.0 if i == 0 else 0.0) for i, x in enumerate(AAt)], k)
        return ([x + (0.1 if i % (k + 1) == 0 else 0.0) + (0.7 if i == 1 else 0.0) for i, x in enumerate(AAt)], k)

    fixed = [(M, k) for M, k, _ in SPD_CASES]
    for index, (M, k) in enumerate(fixed + cases_of(cases, seed, n, make)):
        rows = [M[i * k : (i + 1) * k] for i in range(k)]
        label = f"{name}({fmt_rows(rows)})"
        got = call(fn, (np_array(rows, dtype=float),), name)
        if not isinstance(got, (bool, np_generic)) or isinstance(got, np_generic) and got.dtype.kind != "b":
            fail(label, f"expected True or False, got {type(got).__name__} {fmt_value(got)}")
        got = bool(got)
        expected = reference_is_spd(M, k, tol)
        if got == expected:
            continue
        if index < len(fixed) and SPD_CASES[index][2]:
            fail(label, f"returned {got}: this matrix is {SPD_CASES[index][2]}")
        if expected:
            fail(label, "returned False, but this matrix is symmetric with all eigenvalues > 0")
        if not is_symmetric(M, k, tol):
            fail(label, f"returned True: this matrix is {SPD_CASES[1][2]}")
        fail(label, "returned True: this symmetric matrix has an eigenvalue ≤ 0 (zero to rounding, or negative)")


def sum_row(A: Any, i: int, j: int, k: Any) -> Any:
    """(A·Aᵀ)_ij for a flat k×k A."""
    return sum(A[i * k + m] * A[j * k + m] for m in range(k))


def fmt_rows(rows: Any) -> Any:
    return "[" + ", ".join(fmt_list(r) for r in rows) + "]"


def fmt_value(x: Any) -> Any:
    text = f"{x!r}"
    return text if len(text) < 60 else text[:57] + "..."


freeze(__name__)
