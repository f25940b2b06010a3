"""Comparisons for the Jacobian homework (hw04): a symbolic 2R Jacobian evaluated at the answer key's points, a pair
of velocities, a singular pose with the direction it loses (either sign).

The expected values and the usual mistakes come from the answer key (armlab in the solutions notebook); nothing
here computes a Jacobian.
"""

from __future__ import annotations

from ._base import check_finite, fail, fmt, fmt_list, read, vector
from ._builtins import *  # noqa: F403  (the captured builtins shadow the live ones)
from ._frozen import freeze, sqrt
from .checks import check_close
from .symbolic import entries, evaluate, rebuild, sym

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

__all__ = ["check_jacobian_2r_expr", "check_pair", "check_singular_pose"]

SYMBOLS_2R = ("th1", "th2", "l1", "l2")


def check_jacobian_2r_expr(answer: Any, key: Any, name: str = "J2", atol: float = 1e-9) -> None:
    """``answer``: the planar 2R arm's Jacobian as a 2×2 sympy Matrix in the symbols th1, th2, l1, l2 (rows
    ẋ, ẏ), evaluated at the answer key's points ((th1, th2, l1, l2)) and compared with its values there."""
    mat = sym(answer, name, list(SYMBOLS_2R))
    shape, items = entries(mat)
    if shape != (2, 2):
        if shape in ((3, 2), (6, 2)):
            fail(name, f"wrong shape {shape}: J2 is the 2×2 of the tip's (ẋ, ẏ) only; drop the other rows")
        if shape == (2,) or shape == (2, 1) or shape == ():
            fail(name, f"wrong shape {shape}: J2 is the 2×2 matrix of ∂(x, y)/∂(θ1, θ2), not the position (x, y)")
        fail(name, f"wrong shape: got {shape}, expected (2, 2)")
    items = [rebuild(x, name) for x in items]
    used = {s.name for x in items for s in x.free_symbols}
    extra = [s for s in used if s not in SYMBOLS_2R]
    if extra:
        fail(name, f"uses symbol(s) {extra}; write J2 with the symbols th1, th2, l1, l2 defined in the cell")
    if not used:
        fail(name, "has no symbols: J2 must be a sympy Matrix in th1, th2, l1, l2 (not numbers)")
    for k, (t1, t2, l1, l2) in enumerate(key["inputs"]):
        got = evaluate(items, {"th1": t1, "th2": t2, "l1": l1, "l2": l2})
        label = f"{name} at th1={fmt(t1)}, th2={fmt(t2)}, l1={fmt(l1)}, l2={fmt(l2)}"
        if got is None:
            fail(label, "could not be evaluated to real numbers")
        hints = key["mistakes"][k] if key.get("mistakes") else None
        check_close([got[:2], got[2:]], key["expected"][k], name=label, atol=atol, rtol=1e-9, hints=hints)


def check_pair(answer: Any, expected: Any, name: str = "answer", atol: float = 1e-9, hints: Any = None) -> None:
    """Two 3-vectors (e.g. ω, v), returned as a pair or as one 6-vector (a ``compare`` of ``check_cases``)."""
    shape, flat = read(answer, name)
    if shape not in ((2, 3), (6,)):
        fail(name, f"expected the two 3-vectors (ω, v), got shape {shape} (return w_next, v_next)")
    check_finite(flat, name)
    check_close([flat[:3], flat[3:]], expected, name=name, atol=atol, hints=hints)


def check_singular_pose(
    answer: Any, expected: Any, name: str = "answer", atol: float = 1e-7, hints: Any = None
) -> None:
    """``answer`` = (q_s, u): q_s as expected[0] (angles modulo 2π), u a unit vector along ±expected[1] (a
    ``compare`` of ``check_cases``). ``hints``: {message: [wrong q_s or None, wrong u or None]}."""
    if not isinstance(answer, (tuple, list)) or len(answer) != 2:
        fail(name, f"expected two results (q_s, u) (return them as a tuple), got {type(answer).__name__}")
    qs, u = vector(answer[0], 3, f"{name}: q_s"), vector(answer[1], 3, f"{name}: u")
    if abs(abs(qs[1]) - 180.0) < 1e-6:
        fail(f"{name}: q_s", "looks like degrees: the singular θ2 is π radians, not 180")
    hints = hints or {}
    q_hints = {m: w[0] for m, w in hints.items() if w[0] is not None}
    check_close(qs, expected[0], name=f"{name}: q_s", atol=atol, angle=True, hints=q_hints)
    length = sqrt(sum(x * x for x in u))
    if length < 1e-9:
        fail(f"{name}: u", "is the zero vector; the lost direction must have length 1")
    unit = [x / length for x in u]
    if along(unit, expected[1], atol * 10):
        if abs(length - 1.0) > 1e-6:
            fail(f"{name}: u", f"right direction, but not a unit vector (length {fmt(length)}): divide by its norm")
        return
    for message, (_, wrong) in hints.items():
        if wrong is not None and along(unit, wrong, 1e-6):
            fail(f"{name}: u", message)
    fail(
        f"{name}: u",
        f"u = {fmt_list(u)} is not a direction the arm has lost at q_s (expected ±{fmt_list(expected[1])})",
    )


def along(a: Any, b: Any, tol: float) -> bool:
    """Unit vectors a and b equal up to sign."""
    return all(abs(x - y) <= tol for x, y in zip(a, b)) or all(abs(x + y) <= tol for x, y in zip(a, b))


freeze(__name__)
