"""The one straight-line code emitter behind every compiled kernel (FK, Jacobian, IK, RNE).

A 4×4 numpy matmul costs microseconds, so the fast paths are written out once per robot as
elementary float operations with the robot's constants folded in. :class:`Emitter` builds such
code with constant folding; :func:`make_function` turns generated source into a function.
"""
from __future__ import annotations

import math
import re

_SNAP = 1e-15
_NAME = re.compile(r"\bv\d+\b")


def snap(x: float) -> float:
    """0, 1 and −1 to rounding become exact, so that folded terms vanish."""
    for exact in (0.0, 1.0, -1.0):
        if abs(x - exact) < _SNAP:
            return exact
    return float(x)


class Emitter:
    """Straight-line code with constant folding. Values are floats or variable names."""

    def __init__(self):
        self.lines: list[str] = []
        self.count = 0

    def var(self, expr: str) -> str:
        name = f"v{self.count}"
        self.count += 1
        self.lines.append(f"    {name} = {expr}")
        return name

    def lin(self, *terms):
        """Σ sign·x·y over terms (x, y) or (x, y, sign), folded."""
        const, parts = 0.0, []
        for term in terms:
            x, y, sign = term if len(term) == 3 else (*term, 1.0)
            if isinstance(x, float) and isinstance(y, float):
                const += sign * x * y
                continue
            if isinstance(x, float):
                x, y = y, x
            if isinstance(y, float):
                k = sign * y
                if k == 0.0:
                    continue
                parts.append(x if k == 1.0 else f"-{x}" if k == -1.0 else f"{k!r}*{x}")
            else:
                parts.append(f"{x}*{y}" if sign == 1.0 else f"-{x}*{y}")
        const = snap(const)
        if not parts:
            return const
        if const:
            parts.append(repr(const))
        if len(parts) == 1 and parts[0].isidentifier():
            return parts[0]
        return self.var(" + ".join(parts))

    def angle(self, value):
        """(cos, sin) of a constant angle or of an emitted expression."""
        if isinstance(value, float):
            return snap(math.cos(value)), snap(math.sin(value))
        return self.var(f"cos({value})"), self.var(f"sin({value})")

    def function(self, name: str, args: str, outputs, env=None):
        """A function ``name(args)`` returning the list ``outputs``, with only the lines they need."""
        body = "\n".join(_needed(self.lines, outputs))
        src = f"def {name}({args}):\n{body}\n    return [{', '.join(map(str, outputs))}]\n"
        return make_function(name, src, env)


def _needed(lines, outputs):
    """Drop the lines whose results the outputs do not use (several kernels share one emitter)."""
    need = {v for v in outputs if isinstance(v, str)}
    kept = []
    for line in reversed(lines):
        target, _, expr = line.strip().partition(" = ")
        if target.startswith("v") and target not in need:
            continue
        need.update(_NAME.findall(expr))
        kept.append(line)
    return kept[::-1]


#: Names every generated function may use.
MATH_ENV = {"atan2": math.atan2, "cos": math.cos, "sin": math.sin, "sqrt": math.sqrt,
            "rem": math.remainder, "math": math, "inf": math.inf}


def make_function(name: str, source: str, env=None):
    """Compile generated ``source`` (which defines ``name``) and return that function.

    The source is kept on the function as ``.source`` for inspection and tests.
    """
    scope = dict(MATH_ENV if env is None else env)
    exec(compile(source, f"<armlab {name}>", "exec"), scope)  # noqa: S102 - our own generated code
    fn = scope[name]
    fn.source = source
    return fn
