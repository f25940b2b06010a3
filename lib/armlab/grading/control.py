"""Checkers for the simulation-and-control homework (hw08): a quintic through boundary conditions, PD + gravity
gains for a settling time on a one-joint arm and its control law, one computed-torque step, and the paper's
optimal IK solution by eq. (12).

Same rules as the rest of :mod:`armlab.grading`: every failure is an ``AssertionError`` that names the kind of
mistake (time scaling, the error's sign, the gravity term left out, the inertia left out, an unwrapped or
unweighted cost, ...), and the references are computed here with plain Python arithmetic, never with
``armlab.sim``, ``armlab.control`` or numpy.

The one-joint arm: a link of mass m with its centre of mass l from the joint, inertia I about the joint, the
angle θ measured from the horizontal (up positive): I·θ̈ + m·g·l·cos θ = τ.

>>> [round(c, 12) for c in reference_quintic(0.0, 1.0, 1.0)]   # rest to rest in 1 s: 10t³ − 15t⁴ + 6t⁵
[0.0, 0.0, 0.0, 10.0, -15.0, 6.0]

Checkers of student functions call them on fixed cases and on seeded random cases:
:func:`check_quintic_function`, :func:`check_pd_gains_function`, :func:`check_pdg_torque_function`,
:func:`check_ct_step_function` (random SPD models and random 2R arms of textbook Example 3.9) and
:func:`check_best_solution_function` (the paper's 3-R arm, its four IK solutions computed here).
"""

from __future__ import annotations

from ._base import Run, arrays, call, cases_of, check_finite, fail, fmt, fmt_list, function_checker, read
from ._builtins import *  # noqa: F403  (the captured builtins shadow the live ones)
from ._frozen import cos, freeze, np_array, pi, sin, sqrt
from ._plain import atan2, matvec, wrap
from .checks import check_close
from .dynamics import reference_gravity, reference_mass_matrix, reference_velocity_torques

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable, Sequence
    from random import Random

__all__ = [
    "check_quintic_function",
    "check_pd_gains_function",
    "check_pdg_torque_function",
    "check_ct_step_function",
    "check_best_solution_function",
    "reference_quintic",
    "reference_pd_gains",
    "reference_pdg_torque",
    "reference_ct_step",
    "reference_paper_ik",
    "reference_best_solution",
    "paper_fk",
    "PAPER_ARM",
    "PAPER_K",
]

#: The simulation paper's arm (003): shoulder 1.0 m up (base 0.1 + link 0.9), link 2 1.0 m, link 3 with the
#: gripper 1.0 m (0.8 + 0.2); q = 0 upright; and eq. (12)'s weights.
PAPER_ARM = {"d1": 1.0, "a2": 1.0, "l3": 1.0}
PAPER_K = (3.0, 2.0, 1.0)

ERROR_SIGN = (
    "wrong sign of the error: use e = θ_ref − θ (reference minus measurement), so that a positive gain pushes "
    "toward the reference; with e = θ − θ_ref the feedback pushes away"
)
NO_GRAVITY = "the gravity term is missing: PD + gravity adds G(θ) = m·g·l·cos θ, the torque that holds the link still"


# --- plain-math references -------------------------------------------------------------------------
def reference_quintic(
    q0: float, q1: float, T: float, v0: float = 0.0, v1: float = 0.0, a0: float = 0.0, a1: float = 0.0
) -> list[float]:
    """[c0, …, c5] of q(t) = Σ c_k t^k with q, q̇, q̈ = (q0, v0, a0) at t = 0 and (q1, v1, a1) at t = T."""
    h = q1 - q0
    return [
        q0,
        v0,
        0.5 * a0,
        (20 * h - (8 * v1 + 12 * v0) * T - (3 * a0 - a1) * T * T) / (2 * T**3),
        (-30 * h + (14 * v1 + 16 * v0) * T + (3 * a0 - 2 * a1) * T * T) / (2 * T**4),
        (12 * h - 6 * (v1 + v0) * T + (a1 - a0) * T * T) / (2 * T**5),
    ]


def reference_pd_gains(inertia: float, settling_time: float, zeta: float = 0.7) -> tuple[float, float]:
    """(Kp, Kd) = (I·ω², 2ζω·I) with ω = 4/(ζ·t_s), the 2 % settling rule t_s ≈ 4/(ζω)."""
    w = 4.0 / (zeta * settling_time)
    return inertia * w * w, 2.0 * zeta * w * inertia


def reference_pdg_torque(
    theta: float, dtheta: float, theta_ref: float, kp: float, kd: float, m: float, l: float, g: float = 9.81
) -> float:
    """τ = Kp·(θ_ref − θ) − Kd·θ̇ + m·g·l·cos θ (θ from the horizontal)."""
    return kp * (theta_ref - theta) - kd * dtheta + m * g * l * cos(theta)


def reference_ct_step(
    M: Sequence[float],
    h: Sequence[float],
    G: Sequence[float],
    q: Sequence[float],
    qd: Sequence[float],
    q_ref: Sequence[float],
    qd_ref: Sequence[float],
    qdd_ref: Sequence[float],
    kp: float,
    kd: float,
) -> list[float]:
    """τ = M·(q̈_ref + Kd·(q̇_ref − q̇) + Kp·(q_ref − q)) + h + G, M flat n×n."""
    n = len(q)
    v = [a + kp * (r - x) + kd * (rd - xd) for a, r, x, rd, xd in zip(qdd_ref, q_ref, q, qd_ref, qd)]
    return [t + b + c for t, b, c in zip(matvec(M, v, n), h, G)]


def paper_fk(q: Sequence[float]) -> list[float]:
    """The paper arm's tip position: reach r = a2·sin q2 + l3·sin(q2 + q3), height d1 + a2·cos q2 + l3·cos(q2 + q3)."""
    d1, a2, l3 = PAPER_ARM["d1"], PAPER_ARM["a2"], PAPER_ARM["l3"]
    r = a2 * sin(q[1]) + l3 * sin(q[1] + q[2])
    return [r * cos(q[0]), r * sin(q[0]), d1 + a2 * cos(q[1]) + l3 * cos(q[1] + q[2])]


def reference_paper_ik(p: Sequence[float]) -> Any:
    """The four solutions (front/back × elbow) of the paper's arm for the point p, angles in (−π, π]."""
    d1, a2, l3 = PAPER_ARM["d1"], PAPER_ARM["a2"], PAPER_ARM["l3"]
    x, y, z = p
    rho, Z = sqrt(x * x + y * y), z - d1
    out = []
    for q1, R in ((atan2(y, x), rho), (atan2(y, x) + pi, -rho)):
        D = (R * R + Z * Z - a2 * a2 - l3 * l3) / (2 * a2 * l3)
        if abs(D) > 1:
            continue
        s = sqrt(1 - D * D)
        for q3 in (atan2(s, D), atan2(-s, D)):
            q2 = atan2(R, Z) - atan2(l3 * sin(q3), a2 + l3 * cos(q3))
            out.append([wrap(q1), wrap(q2), wrap(q3)])
    return out


def motion_cost(q: Sequence[float], q_current: Sequence[float], k: Sequence[float] = PAPER_K) -> float:
    """Eq. (12): Σ k_i·|Δθ_i|. The paper's joints turn within −180°…180° and cannot pass ±180°, so Δθ is the plain
    difference of two angles in that range (the long way round if need be), as ``armlab.ik.joint_motion`` has it."""
    return sum(ki * abs(a - b) for a, b, ki in zip(q, q_current, k))


def reference_best_solution(p: Sequence[float], q_current: Sequence[float]) -> Any:
    sols = reference_paper_ik(p)
    return min(sols, key=lambda s: motion_cost(s, q_current))


# --- checkers of student functions -----------------------------------------------------------------
def quintic_case(rng: Random) -> Any:
    return (
        rng.uniform(-2, 2),
        rng.uniform(-2, 2),
        rng.uniform(0.4, 3.0),
        rng.uniform(-1, 1),
        rng.uniform(-1, 1),
        rng.uniform(-2, 2),
        rng.uniform(-2, 2),
    )


@function_checker("quintic_coefficients", atol=1e-8)
def check_quintic_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(q0, q1, T, v0, v1, a0, a1)`` must return [c0, …, c5], q(t) = Σ c_k t^k with t in seconds from the start."""
    for q0, q1, T, v0, v1, a0, a1 in run.each(quintic_case):
        label = f"{run.name}({fmt(q0)}, {fmt(q1)}, T={fmt(T)}, v0={fmt(v0)}, v1={fmt(v1)}, a0={fmt(a0)}, a1={fmt(a1)})"
        shape, c = read(call(fn, (q0, q1, T, v0, v1, a0, a1), run.name), label)
        if shape != (6,):
            fail(label, f"expected the 6 coefficients [c0, c1, c2, c3, c4, c5], got shape {shape}")
        check_finite(c, label)
        want = reference_quintic(q0, q1, T, v0, v1, a0, a1)
        unit = reference_quintic(q0, q1, 1.0, v0, v1, a0, a1)
        hints = {
            "time scaling: these are the coefficients in the normalised time s = t/T; in seconds c_k is divided by T^k": [
                w * T**k for k, w in enumerate(want)
            ],
            "time scaling: this solves the conditions for T = 1 s; the duration T must enter the equations": unit,
            "the coefficients are in the reverse order: return [c0, c1, …, c5], c0 the constant term": want[::-1],
            "the boundary velocities and accelerations are ignored (this is the rest-to-rest quintic)": reference_quintic(
                q0, q1, T
            ),
        }
        check_close(c, want, name=label, atol=run.atol, rtol=1e-9, hints=hints)


@function_checker("pd_gains", atol=1e-9)
def check_pd_gains_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(inertia, settling_time, zeta)`` must return (Kp, Kd) = (I·ω², 2ζω·I) with ω = 4/(ζ·t_s)."""

    def make(rng):
        return (rng.uniform(0.01, 3.0), rng.uniform(0.1, 3.0), rng.uniform(0.4, 1.0))

    for I, ts, z in run.each(make):
        label = f"{run.name}(inertia={fmt(I)}, settling_time={fmt(ts)}, zeta={fmt(z)})"
        shape, got = read(call(fn, (I, ts, z), run.name), label)
        if shape != (2,):
            fail(label, f"expected the pair (Kp, Kd), got shape {shape}")
        check_finite(got, label)
        kp, kd = reference_pd_gains(I, ts, z)
        w = 4.0 / (z * ts)
        hints = {
            "the inertia is missing: Kp = I·ω² and Kd = 2ζω·I (the loop is I·ë + Kd·ė + Kp·e = 0)": [w * w, 2 * z * w],
            "ω is not 4/(ζ·t_s): the 2 % settling time of a second-order loop is about 4/(ζω)": [
                I / (ts * ts),
                2 * z * I / ts,
            ],
            "Kp and Kd are swapped: return (Kp, Kd)": [kd, kp],
            "the damping ratio is missing from Kd = 2ζω·I": [kp, 2 * w * I],
        }
        check_close(got, [kp, kd], name=label, atol=run.atol, rtol=1e-9, hints=hints)


@function_checker("pdg_torque", atol=1e-9)
def check_pdg_torque_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(theta, dtheta, theta_ref, kp, kd, m, l, g)`` must return τ = Kp·(θ_ref − θ) − Kd·θ̇ + m·g·l·cos θ."""

    def make(rng):
        return (
            rng.uniform(-1.5, 1.5),
            rng.uniform(-2, 2),
            rng.uniform(-1.5, 1.5),
            rng.uniform(1, 100),
            rng.uniform(0.5, 20),
            rng.uniform(0.2, 3.0),
            rng.uniform(0.1, 1.0),
            9.81,
        )

    for th, dth, ref, kp, kd, m, l, g in run.each(make):
        label = (
            f"{run.name}(theta={fmt(th)}, dtheta={fmt(dth)}, theta_ref={fmt(ref)}, kp={fmt(kp)}, kd={fmt(kd)}, "
            f"m={fmt(m)}, l={fmt(l)}, g={fmt(g)})"
        )
        shape, got = read(call(fn, (th, dth, ref, kp, kd, m, l, g), run.name), label)
        if shape not in ((), (1,)):
            fail(label, f"expected one torque (a number), got shape {shape}")
        check_finite(got, label)
        want = reference_pdg_torque(th, dth, ref, kp, kd, m, l, g)
        grav = m * g * l * cos(th)
        hints = {
            ERROR_SIGN: kp * (th - ref) - kd * dth + grav,
            ERROR_SIGN + " (for the damping too)": kp * (th - ref) + kd * dth + grav,
            NO_GRAVITY: want - grav,
            "the gravity term has the wrong sign: the motor must hold the link up, +m·g·l·cos θ": want - 2 * grav,
            "sin instead of cos: θ is measured from the horizontal, where gravity's lever arm is l·cos θ": want
            - grav
            + m * g * l * sin(th),
            "the damping acts on the error's rate with the wrong sign: −Kd·θ̇ damps the motion": want + 2 * kd * dth,
        }
        check_close(got[0], want, name=label, atol=run.atol, rtol=1e-9, hints=hints)


def spd_case(rng: Random) -> Any:
    """A random symmetric positive definite M (n = 2 or 3), h, G, state, reference and gains."""
    n = rng.choice((2, 3))
    A = [rng.uniform(-1, 1) for _ in range(n * n)]
    M = [
        sum(A[i * n + k] * A[j * n + k] for k in range(n)) + (0.5 if i == j else 0.0)
        for i in range(n)
        for j in range(n)
    ]
    vec = [[rng.uniform(-2, 2) for _ in range(n)] for _ in range(7)]
    return (M, *vec, rng.uniform(10, 200), rng.uniform(2, 30))


def arm_ct_case(rng: Random) -> Any:
    """Textbook Example 3.9's 2R arm with random masses and lengths: its M(q), h(q, q̇) and G(q) at a random state."""
    m1, m2, d1, d2 = rng.uniform(0.5, 3), rng.uniform(0.5, 3), rng.uniform(0.3, 1.2), rng.uniform(0.3, 1.2)
    q, qd = [rng.uniform(-pi, pi) for _ in range(2)], [rng.uniform(-2, 2) for _ in range(2)]
    refs = [[rng.uniform(-2, 2) for _ in range(2)] for _ in range(3)]
    return (
        reference_mass_matrix(q, m1, m2, d1, d2),
        reference_velocity_torques(q, qd, m1, m2, d1, d2),
        reference_gravity(q, m1, m2, d1, d2, 9.81),
        q,
        qd,
        *refs,
        rng.uniform(10, 200),
        rng.uniform(2, 30),
    )


@function_checker("ct_step", atol=1e-8)
def check_ct_step_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(M, h, G, q, qd, q_ref, qd_ref, qdd_ref, kp, kd)`` must return τ = M·(q̈_ref + Kd·ė + Kp·e) + h + G with
    e = q_ref − q (M an n×n array, the rest vectors, kp and kd numbers). Half the random cases are SPD matrices,
    half the 2R arm of textbook Example 3.9."""
    made = cases_of(run.cases, run.seed, run.n // 2, spd_case) + (
        cases_of(None, run.seed + 1, run.n - run.n // 2, arm_ct_case) if run.seed is not None else []
    )
    for M, h, G, q, qd, qr, qdr, qddr, kp, kd in made:
        m = len(q)
        label = f"{run.name}(M, h={fmt_list(h)}, G={fmt_list(G)}, q={fmt_list(q)}, qd={fmt_list(qd)}, …, kp={fmt(kp)}, kd={fmt(kd)})"
        args = (
            np_array([M[i * m : (i + 1) * m] for i in range(m)], dtype=float),
            *arrays(h, G, q, qd, qr, qdr, qddr),
            kp,
            kd,
        )
        shape, got = read(call(fn, args, run.name), label)
        if shape != (m,):
            fail(label, f"expected τ with {m} entries, got shape {shape}")
        check_finite(got, label)
        want = reference_ct_step(M, h, G, q, qd, qr, qdr, qddr, kp, kd)
        flipped = reference_ct_step(M, h, G, qr, qdr, q, qd, qddr, kp, kd)  # e = q − q_ref
        pd_outside = [
            a + kp * (r - x) + kd * (rd - xd)
            for a, r, x, rd, xd in zip(reference_ct_step(M, h, G, q, qd, q, qd, qddr, 0.0, 0.0), qr, q, qdr, qd)
        ]
        hints = {
            ERROR_SIGN.replace("θ_ref − θ", "q_ref − q").replace("θ − θ_ref", "q − q_ref"): flipped,
            "the gravity term G is missing: τ = M·v + h + G": [w - c for w, c in zip(want, G)],
            "h = C(q, q̇)·q̇ is missing: the velocity-product torques must be cancelled too": [
                w - c for w, c in zip(want, h)
            ],
            "the feedback is not multiplied by M: computed torque is M·(q̈_ref + Kd·ė + Kp·e) + h + G, so that every "
            "joint gets ë + Kd·ė + Kp·e = 0": pd_outside,
            "the feedforward q̈_ref is missing inside M·(…)": reference_ct_step(
                M, h, G, q, qd, qr, qdr, [0.0] * m, kp, kd
            ),
        }
        check_close(got, want, name=label, atol=run.atol, rtol=1e-9, hints=hints)


def point_case(rng: Random) -> Any:
    """A reachable point of the paper's arm (from random angles) and a random current configuration, with a
    clear best solution (no tie in eq. (12))."""
    while True:
        p = paper_fk([rng.uniform(-pi, pi) for _ in range(3)])
        qc = [rng.uniform(-pi, pi) for _ in range(3)]
        costs = sorted(motion_cost(s, qc) for s in reference_paper_ik(p))
        if len(costs) == 4 and costs[1] - costs[0] > 1e-3 and sqrt(p[0] ** 2 + p[1] ** 2) > 1e-3:
            return (p, qc)


@function_checker("best_solution", atol=1e-6, n=12)
def check_best_solution_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(point, q_current)`` must return the solution (3,) of the paper's arm reaching ``point`` with the least
    J = 3|Δθ1| + 2|Δθ2| + |Δθ3| from ``q_current`` (eq. (12); Δθ within the joints' range −180°…180°, no wrapping).

    A wrong choice is explained by the usual mistake whose choice it is; where several mistakes would choose
    alike, the next cases decide (the first case that tells them apart)."""
    mistakes = (
        (
            "chose with equal weights; eq. (12) weighs the joints k = (3, 2, 1)",
            lambda sols, qc: min(sols, key=lambda s: motion_cost(s, qc, (1.0, 1.0, 1.0))),
        ),
        (
            "Δθ was wrapped the short way round, but these joints turn within −180°…180° and cannot pass ±180°: from "
            "170° to −170° a joint turns 340°, so Δθ is the plain difference",
            lambda sols, qc: min(sols, key=lambda s: sum(k * abs(wrap(x - y)) for x, y, k in zip(s, qc, PAPER_K))),
        ),
        (
            "this is the best solution from q = 0, not from q_current: Δθ = θ − θ_current",
            lambda sols, qc: min(sols, key=lambda s: motion_cost(s, [0.0, 0.0, 0.0])),
        ),
        (
            "chose the solution with the LARGEST J; take the least",
            lambda sols, qc: max(sols, key=lambda s: motion_cost(s, qc)),
        ),
    )
    ambiguous = None
    for p, qc in run.each(point_case):
        label = f"{run.name}(point={fmt_list(p)}, q_current={fmt_list(qc)})"
        got = call(fn, arrays(p, qc), run.name)
        if isinstance(got, int) and not isinstance(got, bool):
            fail(label, f"returned the index {got}; return the chosen solution itself (three angles)")
        shape, a = read(got, label)
        if shape != (3,):
            fail(label, f"expected one solution (three angles), got shape {shape}")
        check_finite(a, label)
        sols = reference_paper_ik(p)
        best = reference_best_solution(p, qc)
        same = [s for s in sols if all(abs(wrap(x - y)) <= run.atol for x, y in zip(a, s))]
        if same and same[0] == best:
            continue
        if not same:
            reach = paper_fk(a)
            if all(abs(x - y) <= 1e-6 for x, y in zip(reach, p)):
                fail(label, f"{fmt_list(a)} reaches the point but is not one of its four solutions as IK gives them")
            fail(label, f"{fmt_list(a)} does not reach the point (its tip is at {fmt_list(reach)})")
        why = [msg for msg, choose in mistakes if choose(sols, qc) == same[0]]
        if len(why) == 1:
            fail(label, why[0])
        verdict = (
            label,
            f"chose J = {fmt(motion_cost(same[0], qc))}; another solution has J = "
            f"{fmt(motion_cost(best, qc))}" + (f" (one of: {'; '.join(why)})" if why else ""),
        )
        if not why:
            fail(*verdict)
        ambiguous = ambiguous or verdict
    if ambiguous:
        fail(*ambiguous)


freeze(__name__)
