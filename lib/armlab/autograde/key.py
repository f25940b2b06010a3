"""Answer keys: what a test cell compares a student's answer with, computed once by armlab itself.

In ``solutions/<hw>/<hw>.ipynb`` an instructor writes *answer key cells*: code cells whose first line is
``### ANSWER KEY``. They compute, with ``armlab``, the expected answers and the answers of the usual wrong
variants, and bind them to names that start with ``KEY_``:

>>> import numpy as np
>>> KEY_DOUBLE = cases(lambda x: 2 * x, [(1.0,), (np.array([0.5, 2.0]),)],
...                    mistakes={"added instead of multiplied": lambda x: x + 2})
>>> KEY_DOUBLE["expected"]
[2.0, [1.0, 4.0]]

The test cells pass them to a checker: ``check_cases(double, KEY_DOUBLE, name="double")`` (a function on the
key's inputs), ``check_answer(x, KEY_X, name="x")`` (a value), ``check_mistakes(x, KEY_X, name="x")`` (a
visible test that only names a usual mistake). When the assignment is generated,
:class:`armlab.autograde.preprocessors.BakeAnswerKey` runs the key cells alone in a fresh Python process, writes
each ``KEY_...`` a test cell uses into it as literal data (exact float reprs) and leaves the key cells out of the
student version, so grading compares with data and computes nothing.

Keys are plain data: numbers, strings, lists, tuples and dicts of them (:func:`plain`). A numpy array given to a
student's function is kept as ``{"ndarray": nested lists}`` and given back as a float array.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import permutations
from math import isfinite
from typing import Any


__all__ = ["cases", "value", "plain", "wrong_orders", "DEGREES", "TWICE", "REVERSED"]

#: mistake messages several homework share (the feedback tests look for their words)
DEGREES = "looks like degrees were used where radians were expected"
TWICE = "looks like the angle was converted to radians twice"
REVERSED = (
    "right matrices, wrong composition order: you multiplied them in reverse. Motions about the FIXED "
    "frame multiply on the LEFT (T = Tₙ···T₁); motions about the CURRENT frame on the right (T = T₁···Tₙ)"
)

#: the usual wrong answers: {message: wrong variant of the function}, a function of the input that returns
#: {message: wrong answer}, or one such dict per input
Mistakes = Mapping[str, Callable[..., Any]] | Callable[..., Mapping[str, Any]] | list[Mapping[str, Any]] | None


def plain(x: Any, what: str = "key") -> Any:
    """``x`` as literal data: numbers as Python floats/ints, arrays and sympy matrices as nested lists, sympy
    expressions as ``{"expr": str, "symbols": [...]}``. Raises ``ValueError`` naming ``what`` otherwise."""
    import numpy as np

    if x is None or isinstance(x, (bool, int, str)):
        return x
    if isinstance(x, (float, np.floating, np.integer)):
        f = float(x)
        if not isfinite(f):
            raise ValueError(f"{what}: {f} is not a finite number (a key holds finite numbers only)")
        return f
    if isinstance(x, np.bool_):
        return bool(x)
    if isinstance(x, np.ndarray):
        return plain(x.tolist(), what)
    if isinstance(x, (list, tuple)):
        return type(x)(plain(v, f"{what}[{k}]") for k, v in enumerate(x))
    if isinstance(x, dict):
        return {str(k): plain(v, f"{what}[{k!r}]") for k, v in x.items()}
    if type(x).__module__.startswith("sympy"):
        import sympy

        if isinstance(x, sympy.MatrixBase) and not x.free_symbols:
            return plain([[v for v in row] for row in x.tolist()], what)
        if isinstance(x, sympy.Basic) and x.is_number:
            return plain(complex(x.evalf()).real, what)
        return {"expr": str(x), "symbols": sorted(s.name for s in x.free_symbols)}
    raise ValueError(f"{what}: cannot write a {type(x).__name__} into an answer key (numbers, arrays, sympy)")


def argument(x: Any, what: str) -> Any:
    """An input of a student's function: arrays marked so the checker gives them back as arrays."""
    import numpy as np

    return {"ndarray": plain(x, what)} if isinstance(x, np.ndarray) else plain(x, what)


def mistakes_of(
    mistakes: Mapping[str, Callable[..., Any]] | Callable[..., Mapping[str, Any]] | None,
    args: tuple[Any, ...],
    what: str,
) -> dict[str, Any]:
    """{message: wrong answer} for one input: ``mistakes`` maps messages to wrong variants of the function, or
    is a function of the input that returns that dict. A variant that raises or returns None is left out."""
    if mistakes is None:
        return {}
    if callable(mistakes):
        out = mistakes(*args)
    else:
        out = {}
        for message, variant in mistakes.items():
            try:
                out[message] = variant(*args)
            except (ValueError, ZeroDivisionError, ArithmeticError):
                continue
    return {m: plain(v, f"{what}: mistake {m!r}") for m, v in out.items() if v is not None}


def cases(fn: Callable[..., Any], inputs: Any, mistakes: Mistakes = None) -> dict[str, Any]:
    """The key of a student's function: ``fn`` (the right one, written with armlab) on each input (a tuple of
    arguments), and the usual wrong answers on the same inputs (:data:`Mistakes`), for ``check_cases``."""
    inputs = [tuple(a) for a in inputs]
    if not inputs:
        raise ValueError("cases: give at least one input")
    key: dict[str, Any] = {
        "names": parameter_names(fn, max(len(args) for args in inputs)),
        "inputs": [[argument(a, f"input {k}") for a in args] for k, args in enumerate(inputs)],
        "expected": [plain(fn(*args), f"answer {k}") for k, args in enumerate(inputs)],
    }
    if isinstance(mistakes, list):
        if len(mistakes) != len(inputs):
            raise ValueError(f"cases: {len(mistakes)} dicts of mistakes for {len(inputs)} inputs")
        key["mistakes"] = [value(None, m).get("mistakes", {}) for m in mistakes]
    elif mistakes is not None:
        key["mistakes"] = [mistakes_of(mistakes, args, f"input {k}") for k, args in enumerate(inputs)]
    return key


def parameter_names(fn: Callable[..., Any], n: int) -> list[str]:
    """The names of ``fn``'s first ``n`` parameters, for the messages (``joint_rates(q=[…], …)``); [] if unknown."""
    import inspect

    try:
        params = list(inspect.signature(fn).parameters.values())[:n]
    except (TypeError, ValueError):  # a builtin or ufunc without a signature
        return []
    plain_kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return [p.name for p in params] if len(params) == n and all(p.kind in plain_kinds for p in params) else []


def value(expected: Any, mistakes: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The key of an answer that is a value (a matrix, a number, a sympy expression), with the values the
    usual mistakes give, for ``check_answer`` and ``check_mistakes``."""
    key = {"expected": plain(expected, "answer")}
    if mistakes:
        key["mistakes"] = {m: plain(v, f"mistake {m!r}") for m, v in mistakes.items()}
    return key


def wrong_orders(factors: Any) -> dict[str, Any]:
    """{message: product} of ``factors`` (matrices, left to right) multiplied in the reverse and, up to five
    factors, in every other order: the "right matrices, wrong composition order" mistakes."""
    from functools import reduce

    import numpy as np

    n = len(factors)
    product = lambda order: reduce(np.matmul, [factors[i] for i in order])  # noqa: E731
    out = {REVERSED: product(range(n)[::-1])} if n > 1 else {}
    if 2 < n <= 5:
        for perm in permutations(range(n)):
            if list(perm) not in (list(range(n)), list(range(n))[::-1]):
                message = (
                    "right matrices, wrong composition order (the factors are multiplied in the order "
                    f"{[p + 1 for p in perm]} instead of {[p + 1 for p in range(n)]})"
                )
                out[message] = product(perm)
    return out
