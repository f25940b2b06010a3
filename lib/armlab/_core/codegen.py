"""The one straight-line code generator behind every compiled kernel (FK, Jacobian, IK, RNE).

A 4×4 numpy matmul costs microseconds, so the fast paths are written out once per robot as
elementary float operations with the robot's constants folded in. A scalar algorithm written once
(:mod:`armlab.kinematics.scalar`, :mod:`armlab._core.smallmat`) is run on :class:`Var` scalars of a
:class:`Tracer`, which records it as such code (constants folded, common subexpressions shared);
:meth:`Tracer.kernel` compiles it and :func:`make_function` turns generated source into a function.
"""

from __future__ import annotations

import math
import re
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from types import MappingProxyType
from typing import Any, Union

import numpy as np

from .protocol import description_key

_SNAP = 1e-15
_NAME = re.compile(r"\bv\d+\b")


def snap(x: float) -> float:
    """0, 1 and −1 to rounding become exact, so that folded terms vanish."""
    for exact in (0.0, 1.0, -1.0):
        if abs(x - exact) < _SNAP:
            return exact
    return float(x)


class Emitter:
    """The lines of straight-line code being generated, each ``vN = expression``."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.count = 0

    def var(self, expr: str) -> str:
        name = f"v{self.count}"
        self.count += 1
        self.lines.append(f"    {name} = {expr}")
        return name


def _needed(lines: list[str], outputs: list[Any]) -> list[str]:
    """Drop the lines whose results the outputs do not use (several kernels share one emitter)."""
    need = {v for o in outputs if isinstance(o, str) for v in _NAME.findall(o)}  # outputs may be "-v7"
    kept = []
    for line in reversed(lines):
        target, _, expr = line.strip().partition(" = ")
        if target.startswith("v") and target not in need:
            continue
        need.update(_NAME.findall(expr))
        kept.append(line)
    return kept[::-1]


#: A traced scalar: a :class:`Var` or a folded constant.
Scalar = Union["Var", float]


class Var:
    """A scalar that records arithmetic as straight-line code in an :class:`Emitter`.

    Running a scalar algorithm (see :mod:`armlab._core.smallmat`) on Vars traces it into code; float
    operands are folded (0·x and 0 + x vanish, 1·x is x), so the robot's constants disappear. A Var
    carries its sign (``neg``), so negation and subtraction cost no line of their own.
    """

    __slots__ = ("em", "name", "neg")
    __array_ufunc__ = None  # numpy defers to our operators

    def __init__(self, em: Tracer, name: str, neg: bool = False) -> None:
        self.em, self.name, self.neg = em, name, neg

    def __repr__(self) -> str:
        return f"-{self.name}" if self.neg else self.name

    def __add__(self, other: Any) -> Any:
        if not isinstance(other, (Var, int, float)):
            return NotImplemented  # another type of scalar: its own operators apply
        return self.em.add(self, other)

    __radd__ = __add__

    def __sub__(self, other: Any) -> Any:
        if not isinstance(other, (Var, int, float)):
            return NotImplemented
        return self.em.add(self, -other)

    def __rsub__(self, other: Any) -> Any:
        return self.em.add(-self, other)

    def __mul__(self, other: Any) -> Any:
        if not isinstance(other, (Var, int, float)):
            return NotImplemented
        return self.em.mul(self, other)

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> Any:
        if not isinstance(other, (Var, int, float)):
            return NotImplemented
        return self.em.div(self, other)

    def __rtruediv__(self, other: Any) -> Any:
        return self.em.div(other, self)

    def __neg__(self) -> Var:
        return Var(self.em, self.name, not self.neg)


class Tracer(Emitter):
    """An Emitter whose values are :class:`Var` or floats, for tracing scalar algorithms.

    Equal expressions are emitted once (common subexpressions), signs are folded into the Vars, and
    :meth:`kernel` inlines temporaries used only once, so the compiled code has few statements.
    """

    def __init__(self) -> None:
        super().__init__()
        self._memo: dict[str, str] = {}
        self._scaled: dict[str, tuple[float, str]] = {}  # name of a k·x line -> (k, x): k1·(k2·x) is (k1·k2)·x

    def new(self, expr: str, neg: bool = False) -> Var:
        name = self._memo.get(expr)
        if name is None:
            name = self._memo[expr] = self.var(expr)
        return Var(self, name, neg)

    def add(self, a: Any, b: Any) -> Scalar:
        a, b = _num(a), _num(b)
        if isinstance(a, float) and isinstance(b, float):
            return snap(a + b)
        if isinstance(a, float):
            a, b = b, a
        if isinstance(b, float):
            if b == 0.0:
                return a
            k = -b if a.neg else b  # a + b = ±(|a| ± |b|)
            return self.new(f"{a.name} + {k!r}" if k > 0 else f"{a.name} - {-k!r}", a.neg)
        if a.neg and not b.neg:
            a, b = b, a
        if a.name == b.name:
            return 0.0 if a.neg != b.neg else self.mul(a, 2.0)
        if not b.neg:  # both positive
            return self.new("{} + {}".format(*sorted((a.name, b.name))))
        if a.neg:  # both negative
            return self.new("{} + {}".format(*sorted((a.name, b.name))), True)
        if f"{b.name} - {a.name}" in self._memo:  # a − b = −(b − a): reuse it
            return self.new(f"{b.name} - {a.name}", True)
        return self.new(f"{a.name} - {b.name}")

    def mul(self, a: Any, b: Any) -> Scalar:
        a, b = _num(a), _num(b)
        if isinstance(a, float) and isinstance(b, float):
            return snap(a * b)
        if isinstance(a, float):
            a, b = b, a
        if isinstance(b, float):
            k = -b if a.neg else b
            if k == 0.0:
                return 0.0
            name = a.name
            if name in self._scaled:  # a is k0·x: fold the two constants
                k0, name = self._scaled[name]
                k = snap(k * k0)
            if abs(k) == 1.0:
                return Var(self, name, k < 0)
            out = self.new(f"{abs(k)!r}*{name}", k < 0)
            self._scaled[out.name] = (abs(k), name)
            return out
        return self.new("{}*{}".format(*sorted((a.name, b.name))), a.neg != b.neg)

    def div(self, a: Any, b: Any) -> Scalar:
        a, b = _num(a), _num(b)
        if isinstance(b, float):
            return self.mul(a, 1.0 / b)
        if isinstance(a, float):
            if a == 0.0:
                return 0.0
            k = -a if b.neg else a
            return self.new(f"{abs(k)!r}/{b.name}", k < 0)
        return self.new(f"{a.name}/{b.name}", a.neg != b.neg)

    def cos(self, x: Scalar) -> Scalar:
        return snap(math.cos(x)) if isinstance(x, float) else self.new(f"cos({x.name})")

    def sin(self, x: Scalar) -> Scalar:
        return snap(math.sin(x)) if isinstance(x, float) else self.new(f"sin({x.name})", x.neg)

    def inputs(self, name: str, n: int) -> list[Var]:
        """Vars for the n entries of the argument ``name`` (unpacked in the first line)."""
        names = [f"{name}{i}" for i in range(n)]
        self.lines.append(f"    {', '.join(names)}{',' if n == 1 else ''} = {name}")
        return [Var(self, v) for v in names]

    def kernel(self, name: str, args: str, outputs: list[Any] | tuple[list[Any], ...]) -> Callable[..., Any]:
        """Compile the traced code into ``name(args, cos, sin)`` returning the flat list ``outputs``, or,
        for a tuple of lists of outputs, a tuple of those lists."""
        groups = [
            [repr(o) if isinstance(o, Var) else _num(o) for o in g]
            for g in (outputs if isinstance(outputs, tuple) else (outputs,))
        ]
        flat = [o for g in groups for o in g]
        lines = _inline(_needed(self.lines, flat), flat)
        body = "\n".join(lines) or "    pass"
        ret = ", ".join(f"[{', '.join(map(str, g))}]" for g in groups)
        src = f"def {name}({args}, cos, sin):\n{body}\n    return {ret}\n"
        return make_function(name, src, {})


_MAX_DEPTH = 12  # nesting of inlined expressions (the parser and the compiler have depth limits)


def _inline(lines: list[str], outputs: list[Any]) -> list[str]:
    """Substitute temporaries used exactly once into their one use: fewer statements, and numpy
    temporaries freed as soon as they are used."""
    uses: dict[str, int] = {}
    for text in [line.partition(" = ")[2] for line in lines] + [str(o) for o in outputs]:
        for v in _NAME.findall(text):
            uses[v] = uses.get(v, 0) + 1
    pending: dict[str, tuple[str, int]] = {}  # inlinable name -> (expression, depth)
    kept = []
    for line in lines:
        target, _, expr = line.strip().partition(" = ")
        depth = 0

        def sub(m):
            nonlocal depth
            if m.group(0) not in pending:
                return m.group(0)
            e, d = pending.pop(m.group(0))
            depth = max(depth, d + 1)
            return f"({e})"

        expr = _NAME.sub(sub, expr)
        if _NAME.fullmatch(target) and uses.get(target, 0) == 1 and depth < _MAX_DEPTH:
            pending[target] = (expr, depth)
        else:
            kept.append(f"    {target} = {expr}")
    if pending:  # used once, by an output
        outs = " ".join(map(str, outputs))
        for v, (e, _) in pending.items():
            assert re.search(rf"\b{v}\b", outs), v
            kept.append(f"    {v} = {e}")
    return kept


def _num(x: Any) -> Any:
    """Plain floats for numbers (numpy scalars print as np.float64(...) in generated code)."""
    return float(x) if isinstance(x, (int, float)) else x


def run_kernel(kernel: Callable[..., Any], q: np.ndarray, shape: tuple[int, ...], *args: np.ndarray) -> np.ndarray:
    """Run a compiled kernel on one configuration (Python floats) or a batch (numpy columns).

    ``q`` is (n,) or (..., n); extra ``args`` are arrays of the same layout. Returns (..., *shape).
    """
    if q.ndim == 1:  # the hot path of fkine/jacob0: no generator, no extra work
        if args:
            return np.array(kernel(q.tolist(), *[a.tolist() for a in args], math.cos, math.sin)).reshape(shape)
        return np.array(kernel(q.tolist(), math.cos, math.sin)).reshape(shape)
    batch = q.shape[:-1]
    count = math.prod(batch)
    # arguments with the batch's shape are cut into chunks with it; others are the same for every state
    batched = [a.shape[:-1] == batch for a in (q, *args)]
    flat = [a.reshape(count, a.shape[-1]) if b else np.moveaxis(a, -1, 0) for a, b in zip((q, *args), batched)]
    out = np.empty((0, math.prod(shape)))
    for start in range(0, count, CHUNK):  # chunks that stay in cache: every temporary is small
        stop = min(start + CHUNK, count)
        cols = [np.ascontiguousarray(a[start:stop].T) if b else a for a, b in zip(flat, batched)]
        values = kernel(*cols, np.cos, np.sin)
        if start == 0:
            out = np.empty((count, len(values)))
        for k, v in enumerate(values):
            out[start:stop, k] = v
    return out.reshape(batch + shape)


#: States per chunk of a batched kernel call (measured on a PUMA560 RNE: 0.91, 0.67, 0.56, 0.52 µs per
#: state at 1k, 2k, 4k, 8k; one 100k chunk took 4.3 µs, its temporaries falling out of cache).
CHUNK = 4096


class _Kernels(dict):
    """One robot description's compiled kernels, by namespaced key (a dict subclass: weak-referenceable)."""

    __slots__ = ("__weakref__",)


#: Every live description's kernels: an entry lives while a robot of that description holds it
#: (each DHRobot holds its own entry from construction on), and no longer.
_LIVE: weakref.WeakValueDictionary[Hashable, _Kernels] = weakref.WeakValueDictionary()
#: The most recently built descriptions, kept even without a robot (least recently built dropped first), so
#: that building the same model again (``puma560()`` in every cell or test) compiles nothing.
_RECENT: OrderedDict[Hashable, _Kernels] = OrderedDict()
#: How many descriptions :data:`_RECENT` keeps beyond the live ones.
RECENT_DESCRIPTIONS = 16


def kernel_entry(description: Hashable) -> _Kernels:
    """The kernels of ``description`` (a robot's hashable description key), created empty if new.

    A DHRobot calls this once, when it is built, and keeps the entry: its kernel lookups never hash
    the description again.
    """
    entry = _LIVE.get(description)
    if entry is None:
        entry = _LIVE[description] = _Kernels()
    _RECENT[description] = entry
    _RECENT.move_to_end(description)
    while len(_RECENT) > RECENT_DESCRIPTIONS:
        _RECENT.popitem(last=False)
    return entry


def _entry_of(robot: Any) -> _Kernels:
    try:
        return robot._kernels  # a DHRobot's own entry, resolved when it was built
    except AttributeError:  # any other robot-like object: described afresh (it may have changed)
        return kernel_entry(description_key(robot))


def cached_kernel(robot: Any, key: Hashable, build: Callable[[Any], Any]) -> Any:
    """``build(robot)``, once per robot description and ``key``: the one cache of compiled code.

    ``key`` is namespaced by the module that builds it: ``"dynamics.rne"``, ``("control.pd_gravity", g)``.
    Kernels belong to the robot's immutable description (:func:`armlab._core.protocol.description_key`:
    convention, every link's parameters, limits and inertia, base, tool), not to the robot object: two
    robots built equal share them, and a robot made by ``robot.replace(...)`` with other values gets its
    own. What ``build`` returns must therefore depend on the description only (not on the name).

    Memory is bounded: an entry lives while a robot of its description does (a weak-value map; each
    DHRobot holds its entry), and the :data:`RECENT_DESCRIPTIONS` most recently built descriptions are
    kept besides (a small LRU of strong references). A DHRobot finds its entry in O(1), without hashing
    its description; other robot-like objects are described on every call. (A kernel's CasADi graph,
    :func:`armlab._core.graphs.function`, is kept on the kernel, so it lives as long.)
    """
    try:
        entry = robot._kernels  # a DHRobot's own entry, resolved when it was built (the hot path: inlined)
    except AttributeError:
        entry = _entry_of(robot)
    try:
        return entry[key]
    except KeyError:
        pass
    value = entry[key] = build(robot)
    return value


def cached_kernels(robot: Any) -> Mapping[Hashable, Any]:
    """The kernels compiled so far for ``robot``'s description, by key (a read-only view).

    >>> from armlab.models import planar2r
    >>> "kinematics.chain" in cached_kernels(planar2r())
    True
    """
    return MappingProxyType(_entry_of(robot))


#: Names every generated function may use.
MATH_ENV = {
    "atan2": math.atan2,
    "cos": math.cos,
    "sin": math.sin,
    "sqrt": math.sqrt,
    "rem": math.remainder,
    "math": math,
    "inf": math.inf,
}


def make_function(name: str, source: str, env: dict[str, Any] | None = None) -> Callable[..., Any]:
    """Compile generated ``source`` (which defines ``name``) and return that function.

    The source is kept on the function as ``.source`` for inspection and tests.
    """
    scope = dict(MATH_ENV if env is None else env)
    exec(compile(source, f"<armlab {name}>", "exec"), scope)  # noqa: S102 - our own generated code
    fn = scope[name]
    fn.source = source
    return fn
