"""The one sympy → Python compiler: a straight-line sympy program as a compiled function.

The symbolic models (:mod:`armlab.dynamics.lagrange`, :mod:`armlab.dynamics.symbolic_regressor`) build
their results as straight-line programs over sympy: a list of entries (symbol, expression over inputs and
earlier entries). :func:`compile_program` prints each entry as one Python statement and compiles the
function through :func:`armlab._core.codegen.make_function`, the same path as every traced kernel.

sympy is never imported here: the expressions carry their own classes, so ``import armlab`` stays free
of it.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Iterable, Mapping, MutableMapping, Sequence

from .codegen import make_function
from .symbolic import sympy

__all__ = ["python_source", "compile_program", "SYMPY_ENV"]

#: Names the compiled programs may use besides their arguments (``cos`` and ``sin`` are arguments, so
#: one function runs on floats with math's and on numpy columns with numpy's).
SYMPY_ENV = {"pi": math.pi, "sqrt": math.sqrt}


def python_source(e: Any, names: Mapping[Any, str]) -> str:
    """Python source of one small sympy expression: the symbols by ``names``, numbers at full precision,
    every compound in brackets (cheaper than sympy's printers, which order terms).

    >>> import sympy as sp
    >>> x, y = sp.symbols("x y")
    >>> python_source(2 * sp.cos(x) + y ** 2, {x: "q[0]", y: "v3"})
    '((v3**2) + (2*cos(q[0])))'
    """
    if e in names:
        return names[e]
    if e.is_Integer:
        return repr(int(e))
    if e.is_Number or e.is_NumberSymbol:
        return repr(float(e))
    if e.is_Add or e.is_Mul:
        return "(" + (" + " if e.is_Add else "*").join(python_source(a, names) for a in e.args) + ")"
    if e.is_Pow:
        return f"({python_source(e.base, names)}**{python_source(e.exp, names)})"
    if e.is_Function and e.func.__name__ in ("cos", "sin", "sqrt"):
        return f"{e.func.__name__}({python_source(e.args[0], names)})"
    raise TypeError(f"cannot compile {e!r} ({type(e).__name__})")


def compile_program(
    name: str,
    args: Sequence[str],
    entries: Iterable[tuple[Any, Any]],
    outputs: Sequence[Any],
    names: Mapping[Any, str],
    *,
    prologue: Sequence[str] = (),
    printed: MutableMapping[Any, str] | None = None,
) -> Callable[..., list]:
    """Compile a straight-line sympy program into ``name(*args, cos, sin)`` returning the list ``outputs``.

    ``entries``: (symbol, expression) in program order, the ones the outputs need; ``names``: the Python
    name of every input symbol and entry symbol; ``prologue``: source lines (without indentation) run
    first, e.g. unpacking an argument; ``printed``: an optional memo symbol → source shared by several
    programs over one tape, so that each entry is printed once.

    >>> import sympy as sp
    >>> x = sp.Symbol("x"); t = sp.Dummy("t")
    >>> f = compile_program("f", ["x"], [(t, sp.cos(x) ** 2)], [t + 1], {x: "x", t: "t0"})
    >>> f(0.0, math.cos, math.sin)
    [2.0]
    """
    memo: MutableMapping[Any, str] = {} if printed is None else printed
    lines = [f"    {line}" for line in prologue]
    for s, e in entries:
        src = memo.get(s)
        if src is None:
            src = memo[s] = python_source(e, names)
        lines.append(f"    {names[s]} = {src}")
    lines.append(f"    return [{', '.join(python_source(_sympify(o), names) for o in outputs)}]")
    source = f"def {name}({', '.join(args)}, cos, sin):\n" + "\n".join(lines) + "\n"
    return make_function(name, source, SYMPY_ENV)


def _sympify(x: Any) -> Any:
    """An output as a sympy object (a plain 0 where an output vanished exactly)."""
    return x if hasattr(x, "is_Number") else sympy().sympify(x)
