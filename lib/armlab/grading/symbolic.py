"""Checkers of sympy expressions and matrices: mathematical equality, allowed symbols.

>>> import sympy as sp
>>> from armlab.grading import check_expr_equal
>>> q = sp.Symbol("q")
>>> check_expr_equal(sp.sin(q)**2, "1 - cos(q)**2", symbols=["q"])
>>> check_expr_equal(sp.cos(q), "sin(q)", symbols=["q"], name="x")
Traceback (most recent call last):
    ...
AssertionError: x: sin and cos are swapped
"""

from __future__ import annotations

from ._base import close, fail, fmt, index, maxerr, shape_message, transpose
from ._builtins import *  # noqa: F403  (the captured builtins shadow the live ones)
from ._frozen import SP_NAMESPACE, SP_NUMBER_TYPES, Random, S, freeze, isfinite, ndarray, ndarray_tolist, np_generic

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


def check_symbols(expr: Any, allowed: Any, name: str = "expression") -> None:
    """Assert the sympy expression (or matrix) ``expr`` only uses symbols named in ``allowed``."""
    if isinstance(expr, ndarray):
        expr = S.Matrix(ndarray_tolist(expr))
    if not isinstance(expr, (S.Basic, S.MatrixBase)):
        fail(name, f"is a {type(expr).__name__}, expected a sympy expression")
    used = {s.name for s in expr.free_symbols}
    extra = sorted(used - set(allowed))
    if extra:
        fail(name, f"should only depend on {sorted(set(allowed))}, but it also uses {extra}")


def check_expr_equal(
    answer: Any,
    expected: Any,
    name: str = "expression",
    symbols: Any = (),
    trials: int = 8,
    atol: float = 1e-8,
    seed: int = 0,
    simplify: bool = True,
) -> None:
    """Assert two sympy expressions (or matrices) are mathematically equal.

    ``expected`` may be a string, parsed here with sympy functions captured
    at import (names in ``symbols`` become plain symbols). Symbols are matched
    by NAME, so ``Symbol("q1", real=True)`` and ``Symbol("q1")`` count as the
    same variable. First ``simplify(answer − expected) == 0`` (a proof when
    it works), then, as the robust fallback, both are evaluated at ``trials``
    random points: equal everywhere → pass.
    """
    names = list(symbols)
    ashape, a = entries(sym(answer, name, names))
    eshape, e = entries(sym(expected, f"{name} (expected)", names))
    if ashape != eshape:
        shape_message(name, ashape, eshape)
    a = [rebuild(x, name) for x in a]
    by_name = symbols_by_name(a, e)
    a_names = {s.name for x in a for s in x.free_symbols}
    e_names = {s.name for x in e for s in x.free_symbols}
    # one symbol per name, so that simplify can cancel q1 (real) against q1
    canon = {n: syms[0] for n, syms in by_name.items()}
    a = [x.xreplace({s: canon[s.name] for s in x.free_symbols}) for x in a]
    e = [x.xreplace({s: canon[s.name] for s in x.free_symbols}) for x in e]
    if simplify and simplifies_to_zero(a, e):
        return
    rng = Random(seed)
    points: list[tuple[Any, Any, Any]] = []
    agree, tried = True, 0
    while len(points) < trials and tried < 5 * trials:
        tried += 1
        values = {n: rng.uniform(-2.0, 2.0) for n in by_name}
        va, ve = evaluate(a, values), evaluate(e, values)
        if va is None or ve is None:
            continue
        points.append((values, va, ve))
        if not close(va, ve, atol, 1e-9):
            agree = False
            break
    if agree and points:
        return
    if not points:
        fail(name, "could not be evaluated numerically (does it contain undefined functions?)")
    extra = sorted(a_names - e_names)
    if extra:
        fail(
            name,
            f"uses symbol(s) {extra} that the expected answer does not contain "
            f"(expected symbols: {sorted(e_names)}; use the names defined in the statement)",
        )
    values, va, ve = points[-1]
    if all(close(pa, [-x for x in pe], atol, 1e-9) for _, pa, pe in points) and any(abs(x) > atol for x in ve):
        fail(name, "sign flipped: the answer is −1 times the expected expression")
    if len(ashape) == 2 and ashape[0] == ashape[1]:
        n = ashape[0]
        if close(va, transpose(ve, n), atol, 1e-9) and not close(ve, transpose(ve, n), atol, 1e-9):
            fail(name, "this is the transpose of the expected matrix")
    if sin_cos_swapped(va, e, values, atol):
        fail(name, "sin and cos are swapped")
    missing = sorted(e_names - a_names)
    hint = f"; it does not depend on {missing}" if missing else ""
    worst, k = maxerr(va, ve)
    where = f" in entry {index(k, ashape)}" if ashape else ""
    at = ", ".join(f"{n}={v:.3f}" for n, v in sorted(values.items()))
    fail(
        name,
        f"is not equal to the expected expression{hint}: at {at} it gives {fmt(va[k])}{where}, expected {fmt(ve[k])}",
    )


def sym(value: Any, name: str, names: Any) -> Any:
    """value as a sympy object; strings are parsed with the frozen sympy namespace."""
    if isinstance(value, str):
        ns = dict(SP_NAMESPACE)
        for n in names:
            ns[n] = S.Symbol(n)
        error = None
        try:
            return S.sympify(value, locals=ns)
        except Exception as exc:
            error = f"{exc}"
        fail(name, f"could not parse {value!r}: {error}")
    if isinstance(value, ndarray):
        value = S.Matrix(ndarray_tolist(value))
    if isinstance(value, (list, tuple)):
        value = S.Matrix(value)
    if isinstance(value, (S.Basic, S.MatrixBase)):
        return value
    if isinstance(value, (int, float, np_generic)) and not isinstance(value, bool):
        return S.sympify(float(value))
    fail(name, f"is a {type(value).__name__}, expected a sympy expression")


def entries(x: Any) -> Any:
    """(shape, flat list of entries); () for a single expression."""
    if isinstance(x, S.MatrixBase):
        return x.shape, list(x)
    return (), [x]


def rebuild(e: Any, name: str) -> Any:
    """``e`` re-parsed from its printed form with the frozen namespace, so that the comparison
    only involves genuine sympy objects (a student's Expr subclass whose ``__sub__`` returns 0,
    say, cannot make ``simplify(answer - expected) == 0``)."""
    if any(type(e) is t for t in SP_NUMBER_TYPES):  # exact numbers, and Floats without a lossy print
        return e
    ns = dict(SP_NAMESPACE)
    for s in e.free_symbols:
        ns[str(s.name)] = S.Symbol(str(s.name))
    try:
        return S.sympify(S.sstr(e), locals=ns)
    except Exception:
        pass
    fail(name, f"could not be read back as a sympy expression: {repr(e)[:80]}")


def symbols_by_name(*exprs: Any) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for ex in exprs:
        for e in ex:
            for s in e.free_symbols:
                out.setdefault(s.name, []).append(s)
    return out


def simplifies_to_zero(a: Any, e: Any) -> Any:
    """simplify(x − y) == 0 for every pair (skipped for large expressions, and False if sympy fails)."""
    if not all(S.count_ops(x - y) < 300 for x, y in zip(a, e)):
        return False
    try:
        return all(S.simplify(x - y) == 0 for x, y in zip(a, e))
    except Exception:
        return False


def evaluate(exprs: Any, values: Any) -> Any:
    """Expressions at a point given by symbol name -> float; None where not a finite real number."""
    res = []
    for e in exprs:
        sub = {s: S.Float(values[s.name], 30) for s in e.free_symbols}
        try:
            c = complex(e.xreplace(sub).evalf(20))
        except (TypeError, ValueError, Exception):
            return None
        if not (isfinite(c.real) and isfinite(c.imag)) or abs(c.imag) > 1e-9 * (1 + abs(c.real)):
            return None
        res.append(c.real)
    return res


def sin_cos_swapped(va: Any, e: Any, values: Any, atol: float) -> Any:
    """True if the answer's values ``va`` at ``values`` are those of ``e`` with every sin and cos exchanged."""
    try:
        F = S.Function("_swap_")
        vs = evaluate([x.replace(S.sin, F).replace(S.cos, S.sin).replace(F, S.cos) for x in e], values)
    except Exception:
        return False
    return vs is not None and close(va, vs, atol, 1e-9)


freeze(__name__)
