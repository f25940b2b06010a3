"""Comparisons for the inverse-kinematics homework (hw03): angles modulo 2π, roots in any order, solution rows.

They compare a student's answer with an answer key's (``check_cases(theta1, KEY, compare=check_roots)``) and
name the usual misses; the keys themselves are computed by armlab in the solutions notebook.

>>> check_angles([0.5, -2.0], [-2.0, 0.5], name="theta3", as_set=True)      # either order
>>> check_angles(2.0 + 3.141592653589793, 2.0, name="theta1")
Traceback (most recent call last):
    ...
AssertionError: theta1: off by π (180°): check the atan2 argument order and signs (atan2(y, x), y first), or which root you took
"""

from __future__ import annotations

from ._base import check_finite, fail, fail_if_hint, fmt, fmt_list, read, wrap
from ._builtins import *  # noqa: F403  (the captured builtins shadow the live ones)
from ._frozen import freeze, isnan, pi, radians

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

__all__ = ["check_angles", "check_roots", "check_rows"]


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


def check_roots(answer: Any, expected: Any, name: str = "roots", atol: float = 1e-6, hints: Any = None) -> None:
    """The roots of an equation, in any order, modulo 2π (a ``compare`` of ``check_cases``); [] when none."""
    check_angles(answer, expected, name=name, as_set=True, atol=atol, hints=hints)


def check_rows(answer: Any, expected: Any, name: str = "solutions", atol: float = 1e-6, hints: Any = None) -> None:
    """Solutions as rows (k, n), in any order, angles modulo 2π (a ``compare`` of ``check_cases``): ``expected``
    the key's rows, [] when out of reach; at a boundary one row or two equal rows. The planar 2R arm's misses
    are named: θ1 off by π (arctan for atan2), degrees, one elbow only, the same elbow twice."""
    n = 2 if not expected else len(expected[0])
    rows = as_solution_rows(answer, n, name)
    if not expected:
        if rows:
            fail(
                name,
                f"the target is out of reach, so the result must be empty (shape (0, {n})); got {len(rows)} row(s)",
            )
        return
    if not rows:
        fail(name, "got no solution, but the target is reachable")
    if len(rows) > 2 and len(expected) == 2:
        fail(name, f"{len(rows)} rows; a planar 2R arm has at most 2 solutions")
    for i, q in enumerate(rows):
        if any(same_row(q, e, atol) for e in expected):
            continue
        if any(same_row([q[0] + pi] + q[1:], e, atol) for e in expected):
            fail(
                name,
                f"row {i} puts the hand at the target mirrored through the base: θ1 is off by π. "
                "arctan(y/x) loses the quadrant; use atan2(y, x)",
            )
        if any(same_row([radians(v) for v in q], e, atol) for e in expected):
            fail(name, f"row {i} = {fmt_list(q)} looks like degrees; return radians")
        fail(
            name, f"row {i} = {fmt_list(q)} is not a solution: expected the rows {fmt_list_rows(expected)} (any order)"
        )
    distinct = len(expected) == 2 and not same_row(expected[0], expected[1], 1e-9)
    if distinct and len(rows) == 1:
        fail(name, "only one solution returned; the other elbow (θ2 with the opposite sign) reaches the target too")
    if distinct and same_row(rows[0], rows[1], 1e-9):
        fail(name, "the same solution twice: elbow up and elbow down have θ2 of opposite signs")


def fmt_list_rows(rows: Any) -> str:
    return "[" + ", ".join(fmt_list(r) for r in rows) + "]"


freeze(__name__)
