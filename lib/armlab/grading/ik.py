"""Checkers for the inverse-kinematics homework (hw03): angles, roots, solution sets, choices.

Same rules as the rest of :mod:`armlab.grading`: every failure is an ``AssertionError`` that names
the kind of mistake, and the references (:mod:`.ik_reference`) are computed with plain Python
arithmetic, never with ``armlab.ik`` or numpy, so patching ``math.atan2`` or ``numpy.arctan2``
changes nothing.

>>> from armlab.grading.ik import check_angles
>>> check_angles([0.5, -2.0], [-2.0, 0.5], name="theta3", as_set=True)      # either order
>>> check_angles(2.0 + 3.141592653589793, 2.0, name="theta1")
Traceback (most recent call last):
    ...
AssertionError: theta1: off by π (180°): check the atan2 argument order and signs (atan2(y, x), y first), or which root you took

Checkers of student functions call them on fixed cases and on seeded random cases:
:func:`check_theta1_function` (textbook eq. (3.38)), :func:`check_theta3_function` ((3.40)–(3.42)),
:func:`check_2r_function` (planar 2R, law of cosines), :func:`check_motion_cost_function` and
:func:`check_choose_function` (paper 003 eq. (12)), :func:`check_in_range_function` and
:func:`check_count_function` (PUMA560 solutions within Table 3.2's ranges, θ3's as corrected in docs/errata.md).
"""

from __future__ import annotations

from ._base import Run, call, check_finite, fail, fail_if_hint, fmt, fmt_list, function_checker, read
from ._builtins import *  # noqa: F403  (the captured builtins shadow the live ones)
from ._frozen import Random, cos, degrees, freeze, isnan, np_array, pi, radians, sin, sqrt
from ._plain import TAU, atan2, wrap
from .checks import check_close
from .ik_reference import (  # noqa: F401  (re-exported: armlab.grading.ik.reference_* and friends)
    PUMA_RANGES_DEG,
    fk2r,
    plus_minus,
    random_puma_pose,
    reference_2r,
    reference_choice,
    reference_in_range,
    reference_motion_cost,
    reference_puma_count,
    reference_puma_solutions,
    reference_theta1,
    reference_theta3,
    theta3_k,
)

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable

__all__ = [
    "check_angles",
    "check_theta1_function",
    "check_theta3_function",
    "check_2r_function",
    "check_motion_cost_function",
    "check_choose_function",
    "check_in_range_function",
    "check_count_function",
    "reference_theta1",
    "reference_theta3",
    "reference_2r",
    "reference_motion_cost",
    "reference_choice",
    "reference_in_range",
    "reference_puma_solutions",
    "reference_puma_count",
    "random_puma_pose",
    "PUMA_RANGES_DEG",
]


# --- angles ------------------------------------------------------------------------------------
def flat_angles(answer: Any, name: str) -> Any:
    shape, flat = read(answer, name)
    if len(shape) > 1:
        fail(name, f"expected a number or a list of numbers, got shape {shape}")
    check_finite(flat, name)
    return shape, flat


def same_angle(a: Any, b: Any, tol: float) -> bool:
    return abs(wrap(a - b)) <= tol


def match_as_set(a: Any, e: Any, tol: float) -> bool:
    """True if the angles a and e are equal as multisets modulo 2π."""
    if len(a) != len(e):
        return False
    used = [False] * len(e)
    for x in a:
        for j, y in enumerate(e):
            if not used[j] and same_angle(x, y, tol):
                used[j] = True
                break
        else:
            return False
    return True


def check_angles(
    answer: Any, expected: Any, name: str = "angle", as_set: bool = False, atol: float = 1e-6, hints: Any = None
) -> None:
    """Assert angle(s) ``answer`` = ``expected`` modulo 2π (radians), explaining the usual misses.

    A number, or a list of roots; ``as_set=True`` accepts the roots in any order. ``hints`` maps a
    message to a known wrong answer (e.g. the result with the atan2 arguments swapped).
    Recognised: degrees for radians, off by π, sign flipped, the roots swapped (when order matters),
    the same root twice, a root missing, and a root off by π.
    """
    ashape, a = flat_angles(answer, name)
    eshape, e = flat_angles(expected, f"{name} (expected)")
    tol = atol + 1e-12
    if eshape == () and ashape != ():
        if len(a) == 1:
            ashape = ()
        else:
            fail(name, f"expected one angle, got {len(a)} values {fmt_list(a)}")
    if eshape != () and ashape == ():
        fail(name, f"expected a list of {len(e)} angle(s), got one number {fmt(a[0])}")
    if len(a) == len(e):
        if match_as_set(a, e, tol) if as_set else all(same_angle(x, y, tol) for x, y in zip(a, e)):
            return
    fail_if_hint(
        name,
        hints,
        lambda _, w: len(w) == len(a) and len(w) > 0 and match_as_set(a, w, tol) and not match_as_set(w, e, tol),
    )
    if len(a) != len(e):
        if len(e) == 0:
            fail(name, f"expected no solution (an empty list: the target cannot be reached), got {fmt_list(a)}")
        if len(a) == 0:
            fail(name, f"got no solution, expected {len(e)}: the target is reachable")
        fail(name, f"expected {len(e)} root(s), got {len(a)}: {fmt_list(a)} (expected {fmt_list(e)} in some order)")
    if match_as_set(a, e, tol):
        fail(
            name,
            f"the roots are swapped: got {fmt_list(a)}, expected {fmt_list(e)} (the + root of the square root first)",
        )
    if len(a) > 1 and all(same_angle(x, a[0], tol) for x in a) and not all(same_angle(y, e[0], tol) for y in e):
        fail(name, f"all roots are the same angle {fmt(a[0])}: the ± of the square root must give two different roots")
    if match_as_set([radians(x) for x in a], e, tol * 10):
        fail(
            name,
            f"looks like degrees were used where radians were expected (got {fmt_list(a)}, expected {fmt_list(e)})",
        )
    if match_as_set([x + pi for x in a], e, tol):
        fail(
            name,
            "off by π (180°): check the atan2 argument order and signs (atan2(y, x), y first), or which root you took",
        )
    if match_as_set([-x for x in a], e, tol):
        fail(name, "sign flipped: the answer is −1 times the expected angle(s)")
    right = [x for x in a if any(same_angle(x, y, tol) for y in e)]
    if right and len(a) > 1:
        wrong = [x for x in a if x not in right]
        fail(
            name,
            f"{len(right)} of {len(a)} roots are right; {fmt_list(wrong)} is not one of the expected {fmt_list(e)}",
        )
    fail(name, f"got {fmt_list(a)} (rad), expected {fmt_list(e)} (compared modulo 2π, tolerance {atol:g})")


# --- checkers of student functions ---------------------------------------------------------------
def as_roots(value: Any, name: str) -> Any:
    shape, flat = read(value, name)
    if len(shape) > 1:
        fail(name, f"expected a list of angles, got shape {shape}")
    return flat


@function_checker("theta1", atol=1e-6)
def check_theta1_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(px, py, d2)`` must return both roots of eq. (3.38) (any order), [] when unreachable."""

    def make(rng):
        d2 = rng.uniform(0.05, 0.3)
        r = rng.uniform(0.0, 0.9) if rng.random() < 0.15 else rng.uniform(d2 * 1.05, 0.9)
        t = rng.uniform(-pi, pi)
        return (r * cos(t), r * sin(t), d2)

    for px, py, d2 in run.each(make):
        label = f"{run.name}(px={fmt(px)}, py={fmt(py)}, d2={fmt(d2)})"
        got = as_roots(call(fn, (px, py, d2), run.name), label)
        phi, D = atan2(py, px), px * px + py * py - d2 * d2
        hints = {
            "the arguments of atan2(py, px) are swapped: atan2 takes (y, x), so Φ = atan2(py, px)": plus_minus(
                atan2(px, py), D, lambda s: atan2(d2, s)
            ),
            "the arguments of atan2(d2, ±√(px² + py² − d2²)) are swapped: it is atan2(d2, ±√…), "
            "sin(Φ − θ1) = d2/ρ": plus_minus(phi, D, lambda s: atan2(s, d2)),
            "θ1 = Φ − atan2(…), not Φ + atan2(…) (eq. (3.38)); as it stands both roots are off by π": plus_minus(
                phi, D, lambda s: -atan2(d2, s)
            ),
            "the square root is missing: atan2(d2, ±√(px² + py² − d2²))": [phi - atan2(d2, D), phi - atan2(d2, -D)]
            if D >= 0.0
            else [],
        }
        check_angles(got, reference_theta1(px, py, d2), name=label, as_set=True, atol=run.atol, hints=hints)


@function_checker("theta3", atol=1e-6)
def check_theta3_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(px, py, pz, a2, a3, d2, d4)`` must return both roots of eq. (3.42) (any order), [] when
    a3² + d4² − k² < 0."""

    def make(rng):
        a2, a3, d2, d4 = (rng.uniform(0.3, 0.5), rng.uniform(0.0, 0.05), rng.uniform(0.05, 0.2), rng.uniform(0.3, 0.5))
        far = a2 + sqrt(a3 * a3 + d4 * d4)
        r = rng.uniform(far * 1.02, far * 1.3) if rng.random() < 0.15 else rng.uniform(0.3 * far, 0.98 * far)
        rho = sqrt(r * r + d2 * d2)  # wrist-centre distance, including the shoulder offset
        t, e = rng.uniform(-pi, pi), rng.uniform(-1.2, 1.2)
        return (rho * cos(e) * cos(t), rho * cos(e) * sin(t), rho * sin(e), a2, a3, d2, d4)

    for case in run.each(make):
        a3, d4 = case[4], case[6]
        label = f"{run.name}({', '.join(fmt(v) for v in case)})"
        got = as_roots(call(fn, case, run.name), label)
        k = theta3_k(*case)
        D, k1 = a3 * a3 + d4 * d4 - k * k, 2.0 * k
        hints = {
            "atan2(a3, d4) has its arguments swapped (eq. (3.42): atan2(a3, d4) − atan2(k, ±√(a3² + d4² − k²)))": plus_minus(
                atan2(d4, a3), D, lambda s: atan2(k, s)
            ),
            "atan2(k, ±√…) has its arguments swapped (eq. (3.42))": plus_minus(atan2(a3, d4), D, lambda s: atan2(s, k)),
            "k is divided by a2 instead of 2·a2 (eq. (3.41))": plus_minus(
                atan2(a3, d4), a3 * a3 + d4 * d4 - k1 * k1, lambda s: atan2(k1, s)
            ),
        }
        check_angles(got, reference_theta3(*case), name=label, as_set=True, atol=run.atol, hints=hints)


def as_solution_rows(value: Any, n: int, name: str) -> list[Any]:
    """A (k, n) array of solutions as k rows; NaN and other shapes fail with the likely reason."""
    shape, flat = read(value, name)
    if shape == (0,):
        return []
    if len(shape) != 2 or shape[1] != n:
        extra = ""
        if shape == (n,):
            extra = f" (one solution as a flat array; return all of them as rows, shape (k, {n}))"
        elif len(shape) == 2 and shape[0] == 0:
            extra = f" (for no solution return an empty array of shape (0, {n}), e.g. np.zeros((0, {n})))"
        fail(name, f"expected an array of shape (k, {n}), one solution per row, got shape {shape}{extra}")
    if any(isnan(x) for x in flat):
        fail(
            name,
            "contains NaN: test |cos θ2| ≤ 1 before taking the square root (or arccos), and return an "
            f"empty array of shape (0, {n}) when the target is out of reach",
        )
    check_finite(flat, name)
    return [flat[i * n : (i + 1) * n] for i in range(shape[0])]


def same_row(a: Any, b: Any, tol: float) -> Any:
    return all(same_angle(x, y, tol) for x, y in zip(a, b))


@function_checker("solve_2r", atol=1e-6)
def check_2r_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(x, y, l1, l2)`` must return both planar 2R solutions as rows [θ1, θ2] (any order), an
    array of shape (0, 2) when (x, y) is out of reach; at the boundary one or two (equal) rows."""

    def make(rng):
        l1, l2 = rng.uniform(0.3, 1.2), rng.uniform(0.3, 1.2)
        lo, hi = abs(l1 - l2), l1 + l2
        u = rng.random()
        if u < 0.1:
            r = rng.uniform(hi * 1.01, hi * 1.5)
        elif u < 0.15 and lo > 0.05:
            r = rng.uniform(0.0, lo * 0.95)
        else:
            r = rng.uniform(lo + 0.02 * hi, 0.98 * hi)
        t = rng.uniform(-pi, pi)
        return (r * cos(t), r * sin(t), l1, l2)

    for x, y, l1, l2 in run.each(make):
        label = f"{run.name}({fmt(x)}, {fmt(y)}, {fmt(l1)}, {fmt(l2)})"
        rows = as_solution_rows(call(fn, (x, y, l1, l2), run.name), 2, label)
        want = reference_2r(x, y, l1, l2)
        if not want:
            if rows:
                fail(
                    label,
                    f"the target is out of reach (distance {fmt(sqrt(x * x + y * y))}, reach "
                    f"[{fmt(abs(l1 - l2))}, {fmt(l1 + l2)}]), so the result must be empty (shape (0, 2)); "
                    f"got {len(rows)} row(s)",
                )
            continue
        if not rows:
            fail(label, "got no solution, but the target is reachable")
        for i, q in enumerate(rows):
            hx, hy = fk2r(q, l1, l2)
            if abs(hx - x) > 1e-6 or abs(hy - y) > 1e-6:
                if abs(hx + x) <= 1e-6 and abs(hy + y) <= 1e-6:
                    fail(
                        label,
                        f"row {i} puts the hand at ({fmt(hx)}, {fmt(hy)}), the target mirrored through "
                        "the base: θ1 is off by π. arctan(y/x) loses the quadrant; use atan2(y, x)",
                    )
                rx, ry = fk2r([radians(v) for v in q], l1, l2)
                if abs(rx - x) <= 1e-6 and abs(ry - y) <= 1e-6:
                    fail(label, f"row {i} = {fmt_list(q)} looks like degrees; return radians")
                fail(
                    label,
                    f"row {i} = {fmt_list(q)} puts the hand at ({fmt(hx)}, {fmt(hy)}), not at the target "
                    f"({fmt(x)}, {fmt(y)})",
                )
        distinct = len(want) == 2 and not same_row(want[0], want[1], 1e-9)
        if distinct and len(rows) == 1:
            fail(
                label, "only one solution returned; the other elbow (θ2 with the opposite sign) reaches the target too"
            )
        if distinct and len(rows) == 2 and same_row(rows[0], rows[1], 1e-9):
            fail(label, "the same solution twice: elbow up and elbow down have θ2 of opposite signs")
        if len(rows) > 2:
            fail(label, f"{len(rows)} rows; a planar 2R arm has at most 2 solutions")
        if len(rows) == 2 and distinct:
            if not (
                (same_row(rows[0], want[0], run.atol) and same_row(rows[1], want[1], run.atol))
                or (same_row(rows[0], want[1], run.atol) and same_row(rows[1], want[0], run.atol))
            ):
                fail(label, f"got {fmt_list([v for q in rows for v in q])}, expected the rows {want} (any order)")


@function_checker("motion_cost", atol=1e-9)
def check_motion_cost_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(q, q_current, k)`` must return J = Σ kᵢ|Δθᵢ| with each Δθ wrapped to (−π, π]."""

    def make(rng):
        m = rng.choice((3, 6))
        return (
            [rng.uniform(-pi, pi) for _ in range(m)],
            [rng.uniform(-pi, pi) for _ in range(m)],
            [float(rng.randint(1, 4)) for _ in range(m)],
        )

    for q, qc, k in run.each(make):
        label = f"{run.name}(q={fmt_list(q)}, q_current={fmt_list(qc)}, k={fmt_list(k)})"
        shape, flat = read(call(fn, (list(q), list(qc), list(k)), run.name), label)
        if shape != ():
            fail(label, f"expected one number J, got shape {shape} (sum the weighted terms)")
        hints = {
            "Δθ is not wrapped: a joint at 170° going to −170° moves 20°, not 340° (wrap Δθ to (−π, π])": unwrapped_cost(
                q, qc, k
            ),
            "the weights k are missing (J = Σ kᵢ|Δθᵢ|)": reference_motion_cost(q, qc, [1.0] * len(q)),
            "|Δθ| is missing: J adds absolute values": sum(ki * wrap(a - b) for a, b, ki in zip(q, qc, k)),
        }
        check_close(flat[0], reference_motion_cost(q, qc, k), name=label, atol=run.atol, hints=hints)


def unwrapped_cost(q: Any, q_current: Any, k: Any) -> Any:
    """J without wrapping Δθ (the usual mistake)."""
    return sum(ki * abs(a - b) for a, b, ki in zip(q, q_current, k))


@function_checker("choose", atol=1e-9)
def check_choose_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(solutions, q_current, k)`` must return the row of ``solutions`` with the least J."""

    def make(rng):
        while True:
            m, rows = rng.choice((2, 3, 6)), rng.randint(2, 8)
            sols = [[rng.uniform(-pi, pi) for _ in range(m)] for _ in range(rows)]
            qc = [rng.uniform(-pi, pi) for _ in range(m)]
            k = [float(rng.randint(1, 4)) for _ in range(m)]
            costs = sorted(reference_motion_cost(s, qc, k) for s in sols)
            if costs[1] - costs[0] > 1e-3:  # no ties
                return (sols, qc, k)

    for sols, qc, k in run.each(make):
        label = f"{run.name}(<{len(sols)} solutions>, q_current={fmt_list(qc)}, k={fmt_list(k)})"
        got = call(fn, ([list(s) for s in sols], list(qc), list(k)), run.name)
        if isinstance(got, int) and not isinstance(got, bool):
            fail(label, f"returned the index {got}; return the chosen row itself (solutions[i])")
        shape, flat = read(got, label)
        if shape != (len(qc),):
            fail(label, f"expected one solution (a row of {len(qc)} angles), got shape {shape}")
        best = reference_choice(sols, qc, k)
        chosen = [i for i, s in enumerate(sols) if all(abs(a - b) <= run.atol for a, b in zip(flat, s))]
        if best in chosen:
            continue
        if not chosen:
            fail(label, f"returned {fmt_list(flat)}, which is not one of the rows of `solutions`")
        i = chosen[0]
        costs = [reference_motion_cost(r, qc, k) for r in sols]
        by = {
            "unwrapped": [unwrapped_cost(r, qc, k) for r in sols],
            "unweighted": [reference_motion_cost(r, qc, [1.0] * len(qc)) for r in sols],
        }
        if i == min(range(len(sols)), key=lambda j: by["unwrapped"][j]):
            fail(label, "chose by J without wrapping Δθ; the short way round is shorter")
        if i == min(range(len(sols)), key=lambda j: by["unweighted"][j]):
            fail(label, "chose the nearest solution with equal weights; J = Σ kᵢ|Δθᵢ| uses the weights k")
        if i == max(range(len(sols)), key=lambda j: costs[j]):
            fail(label, "chose the solution with the LARGEST J; take the least")
        fail(label, f"chose row {i} (J = {fmt(costs[i])}); row {best} has the least J = {fmt(costs[best])}")


def check_in_range_function(fn: Callable[..., Any], cases: Any = None, name: str = "in_range") -> None:
    """``fn(theta, lo, hi)`` (radians) must say whether some θ + 2πm lies in [lo, hi]."""
    default = [
        (-200.0, -225.0, 45.0),
        (200.0, -225.0, 45.0),
        (100.0, -225.0, 45.0),
        (170.0, -160.0, 160.0),
        (-170.0, -160.0, 160.0),
        (-100.0, -45.0, 225.0),
        (-135.0, -45.0, 225.0),
        (300.0, -266.0, 266.0),
        (-300.0, -266.0, 266.0),
        (0.0, -100.0, 100.0),
        (100.0, -100.0, 100.0),
        (460.0, -100.0, 100.0),
        (-620.0, -110.0, 170.0),
    ]
    for theta, lo, hi in cases or [tuple(radians(v) for v in c) for c in default]:
        label = (
            f"{name}({fmt(theta)}, {fmt(lo)}, {fmt(hi)})  [{fmt(degrees(theta))}° in "
            f"{fmt(degrees(lo))}°…{fmt(degrees(hi))}°]"
        )
        got = call(fn, (theta, lo, hi), name)
        if got is None:
            fail(label, "is None (did the function forget to `return` its result?)")
        answer = None
        try:
            answer = bool(got)
        except Exception:  # e.g. a numpy array of several values
            pass
        if answer is None:
            fail(label, f"expected True or False, got {type(got).__name__}")
        want = reference_in_range(theta, lo, hi)
        if answer != want:
            if want and not lo <= theta <= hi:
                fail(
                    label,
                    f"expected True: θ {'+' if theta < lo else '−'} 360° = "
                    f"{fmt(degrees(theta + (TAU if theta < lo else -TAU)))}° is in the range "
                    "(the same joint position)",
                )
            fail(label, f"expected {want}")


def check_count_function(
    fn: Callable[..., Any], poses: Any = None, seed: int | None = None, n: int = 6, name: str = "count_valid"
) -> None:
    """``fn(T)`` must return how many PUMA560 solutions of T lie in Table 3.2's ranges (±360° allowed)."""
    cases = list(poses or ())
    if seed is not None:
        rng = Random(seed)
        cases += [random_puma_pose(rng) for _ in range(n)]
    for T in cases:
        _, flat = read(T, "T")
        p = ", ".join(fmt(flat[i]) for i in (3, 7, 11))
        label = f"{name}(T with p = ({p}))"
        # the student's function gets a numpy array, as in the notebook
        got = call(fn, (np_array([flat[0:4], flat[4:8], flat[8:12], flat[12:16]], dtype=float),), name)
        shape, v = read(got, label)
        if shape != ():
            fail(label, f"expected one integer, got shape {shape}")
        want = reference_puma_count(T)
        if v[0] == want:
            continue
        if v[0] == reference_puma_count(T, shift=False):
            fail(
                label,
                f"got {fmt(v[0])}, expected {want}: an angle outside a range may still be valid "
                "360° away (θ2's and θ3's range is −225°…45°, θ6's ±266°)",
            )
        if v[0] == 8:
            fail(label, "got 8: that counts every solution; count only those within the joint ranges")
        fail(label, f"got {fmt(v[0])}, expected {want}")


freeze(__name__)
