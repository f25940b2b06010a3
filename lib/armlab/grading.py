"""Checkers for homework test cells: tolerant, helpful, hard to fool.

Used by the nbgrader test cells in ``solutions/hw*`` (and so ``exercises/``):

>>> from armlab.grading import check_close
>>> check_close([0.5, 1.0], [0.5, 1.0], name="p")
>>> check_close([[0, 1, 0], [-1, 0, 0], [0, 0, 1]], [[0, -1, 0], [1, 0, 0], [0, 0, 1]], name="R")
Traceback (most recent call last):
    ...
AssertionError: R: this is the transpose of the expected rotation (rows and columns swapped, or R(axis, −θ) instead of R(axis, θ))

Every failure raises ``AssertionError`` with a message that says *what kind*
of mistake it looks like: transpose, degrees for radians, sign flipped, off
by π, wrong shape, NaN, not orthonormal, right factors in the wrong order,
a DH table that is right at the home pose only, ...

Tamper resistance (nbgrader runs student code in the same kernel as the
tests, so this raises the bar, it is not a sandbox):

* Every numpy, sympy, math and builtin function the checkers use is captured
  when this module is imported. The autograder imports it before any
  student code runs (``nbgrader_hardening.InjectGradingImport``), so a
  student who reassigns ``np.allclose``, ``np.isclose``,
  ``np.testing.assert_allclose``, ``np.linalg.norm``, ``sympy.simplify`` or
  ``builtins.abs`` changes nothing here.
* Comparisons are plain Python arithmetic on ``float`` values (numpy arrays
  are read with ``ndarray.tolist``, a method of an immutable C type), and
  reference values are re-derived inside the checker from a description
  (``("Rot", "z", 0.3)``, a DH table as literals, an expression as a
  string) instead of trusting ``armlab.Rot`` & co. at grading time.
* The module refuses attribute assignment (``armlab.grading.check_close =
  ...`` raises), and the test cells re-import the checkers at their top, so
  rebinding a name in the notebook does not reach the tests.

Limits: a student can still replace ``sys.modules["armlab.grading"]``,
write into this module's ``__dict__``, patch methods of sympy classes, or
read the gradebook's files. Such code is visible in the submitted notebook;
review flagged notebooks by hand.
"""
from __future__ import annotations

import builtins as _builtins
import itertools as _itertools
import math as _math
import random as _random
import sys as _sys
import types as _types

import numpy as _np
import sympy as _sp

__all__ = [
    "check_close", "check_shape", "check_symbols", "check_rotation", "check_orthonormal",
    "check_transform", "check_point", "check_dh_position",
    "check_rot_function", "check_trans_function", "check_link_function",
    "check_expr_equal", "check_dh_robot", "reference_transform", "reference_fkine",
]

# --- frozen originals (captured at import, before student code runs) --------------------------
_abs, _float, _int, _len, _range, _isinstance, _min, _max = (
    _builtins.abs, _builtins.float, _builtins.int, _builtins.len, _builtins.range,
    _builtins.isinstance, _builtins.min, _builtins.max)
_zip, _all, _any, _sorted, _tuple, _list, _str, _repr, _enumerate, _sum = (
    _builtins.zip, _builtins.all, _builtins.any, _builtins.sorted, _builtins.tuple, _builtins.list,
    _builtins.str, _builtins.repr, _builtins.enumerate, _builtins.sum)
_getattr, _hasattr, _callable, _bool, _complex, _set, _dict, _type = (
    _builtins.getattr, _builtins.hasattr, _builtins.callable, _builtins.bool, _builtins.complex,
    _builtins.set, _builtins.dict, _builtins.type)
_AssertionError, _TypeError, _ValueError, _Exception = (
    _builtins.AssertionError, _builtins.TypeError, _builtins.ValueError, _builtins.Exception)
_cos, _sin, _isfinite, _isnan, _pi, _sqrt, _degrees, _radians = (
    _math.cos, _math.sin, _math.isfinite, _math.isnan, _math.pi, _math.sqrt, _math.degrees, _math.radians)
_permutations = _itertools.permutations
_Random = _random.Random
_ndarray, _np_asarray, _np_generic = _np.ndarray, _np.asarray, _np.generic
_ndarray_tolist = _np.ndarray.tolist
_S = _types.SimpleNamespace(
    Basic=_sp.Basic, MatrixBase=_sp.MatrixBase, Matrix=_sp.Matrix, Symbol=_sp.Symbol,
    sympify=_sp.sympify, simplify=_sp.simplify, count_ops=_sp.count_ops, Function=_sp.Function, sstr=_sp.sstr,
    Float=_sp.Float, Integer=_sp.Integer, Rational=_sp.Rational,
    sin=_sp.sin, cos=_sp.cos, tan=_sp.tan, atan2=_sp.atan2, sqrt=_sp.sqrt, pi=_sp.pi,
    exp=_sp.exp, Abs=_sp.Abs, atan=_sp.atan, asin=_sp.asin, acos=_sp.acos, E=_sp.E,
    zoo=_sp.zoo, nan=_sp.nan, oo=_sp.oo, I=_sp.I,
)
_SP_NAMESPACE = {k: _getattr(_S, k) for k in (
    "sin", "cos", "tan", "atan2", "sqrt", "pi", "exp", "Abs", "atan", "asin", "acos", "E", "Matrix",
    "Rational", "Integer", "Float", "Symbol", "I", "oo", "zoo", "nan")}
_SP_NAMESPACE["abs"] = _S.Abs
# sympy's own number classes (Integer, Float, Zero, Half, ...), compared by identity in _rebuild
_SP_NUMBER_TYPES = _tuple({c for c in _builtins.vars(_sp.core.numbers).values()
                           if _isinstance(c, _type) and _sp.Number in c.__mro__})


def _fail(name, message):
    raise _AssertionError(f"{name}: {message}")


# --- reading answers into plain Python --------------------------------------------------------
class _Shape(_Exception):
    pass


def _read(value, name):
    """``value`` as (shape, flat list of Python floats), or an AssertionError that says why not."""
    if value is None:
        _fail(name, "is None (did the function forget to `return` its result?)")
    if value is NotImplemented or value is Ellipsis:
        _fail(name, f"is {value!r}, not a number")
    if _callable(value) and not _isinstance(value, (_ndarray, _S.Basic, _S.MatrixBase)):
        _fail(name, "is a function, not a value (did you forget to call it?)")
    try:
        nested = _to_nested(value, name)
        shape = _shape_of(nested)
    except _Shape:
        _fail(name, "has rows of different lengths (a ragged list), not a matrix")
    flat = []
    _flatten(nested, flat)
    return shape, flat


def _to_nested(x, name):
    if _isinstance(x, _ndarray):
        x = _np_asarray(x)  # a plain ndarray view: subclasses cannot override dtype/astype/tolist
        if x.dtype.kind in "fiub":
            return _ndarray_tolist(x.astype(_float) if x.dtype.kind != "f" else x)
        return _to_nested(_ndarray_tolist(x), name)
    if _isinstance(x, _S.MatrixBase):
        return [[_scalar(v, name) for v in row] for row in x.tolist()]
    if _isinstance(x, (_list, _tuple)):
        return [_to_nested(v, name) for v in x]
    return _scalar(x, name)


def _scalar(v, name):
    if _isinstance(v, _bool):
        _fail(name, f"contains the boolean {v!r}, expected a number")
    if _isinstance(v, (_float, _int)):
        return _float(v)
    if _isinstance(v, _np_generic):
        if _isinstance(v, _np.complexfloating):
            v = _complex(v)
        else:
            return _float(v)
    if _isinstance(v, _complex):
        if _abs(v.imag) > 1e-12:
            _fail(name, f"contains the complex number {v!r}; expected real numbers")
        return _float(v.real)
    if _isinstance(v, _S.Basic):
        if v.free_symbols:
            _fail(name, f"contains symbols {_sorted(_str(s) for s in v.free_symbols)}; expected a number "
                        "(substitute values, e.g. expr.subs(...), or use the numeric functions)")
        try:
            c = _complex(v.evalf())
        except (_TypeError, _ValueError):
            _fail(name, f"contains {v!r}, which is not a number")
        if _abs(c.imag) > 1e-12:
            _fail(name, f"contains the complex number {c!r}; expected real numbers")
        return _float(c.real)
    if _isinstance(v, _ndarray):
        return _to_nested(v, name)
    try:
        return _float(v)
    except (_TypeError, _ValueError):
        _fail(name, f"contains {_type(v).__name__} {_repr(v)[:60]}, which is not a number")


def _shape_of(nested):
    if not _isinstance(nested, _list):
        return ()
    if not nested:
        return (0,)
    subs = [_shape_of(v) for v in nested]
    if _any(s != subs[0] for s in subs):
        raise _Shape()
    return (_len(nested),) + subs[0]


def _flatten(nested, out):
    if _isinstance(nested, _list):
        for v in nested:
            _flatten(v, out)
    else:
        out.append(nested)


def _fmt_shape(shape):
    return "a scalar" if shape == () else "shape (" + ", ".join(_str(s) for s in shape) + ("," if _len(shape) == 1 else "") + ")"


def _index(k, shape):
    idx = []
    for s in shape[::-1]:
        idx.append(k % s)
        k //= s
    return _tuple(idx[::-1])


def _maxerr(a, b):
    worst, where = 0.0, 0
    for k, (x, y) in _enumerate(_zip(a, b)):
        e = _abs(x - y)
        if e > worst:
            worst, where = e, k
    return worst, where


def _close(a, b, atol, rtol=0.0):
    return _len(a) == _len(b) and _all(_abs(x - y) <= atol + rtol * _abs(y) for x, y in _zip(a, b))


def _transpose(flat, n):
    return [flat[j * n + i] for i in _range(n) for j in _range(n)]


def _matmul(A, B, n):
    """Product of two n×n matrices given as flat row-major lists."""
    return [_sum(A[i * n + k] * B[k * n + j] for k in _range(n)) for i in _range(n) for j in _range(n)]


def _rot_block(flat, n):
    return [flat[i * n + j] for i in _range(3) for j in _range(3)]


def _orthonormal_error(R9):
    """max |R·Rᵀ − I| for a flat 3×3."""
    RRt = _matmul(R9, _transpose(R9, 3), 3)
    return _max(_abs(RRt[i] - (1.0 if i in (0, 4, 8) else 0.0)) for i in _range(9))


def _det3(R):
    return (R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6])
            + R[2] * (R[3] * R[7] - R[4] * R[6]))


def _is_rotation_like(shape, flat):
    """True for a 3×3 rotation or a 4×4 homogeneous transform with a rotation block."""
    if shape == (3, 3):
        R = flat
    elif shape == (4, 4):
        if not _close(flat[12:], [0.0, 0.0, 0.0, 1.0], 1e-9):
            return False
        R = _rot_block(flat, 4)
    else:
        return False
    return _orthonormal_error(R) < 1e-6 and _det3(R) > 0


# --- numbers and matrices ---------------------------------------------------------------------
def check_close(answer, expected, name="answer", atol=1e-6, rtol=0.0, hints=None, angle=False):
    """Assert ``answer`` ≈ ``expected`` elementwise (|a − e| ≤ atol + rtol·|e|), explaining misses.

    ``hints`` maps a message to a known wrong value: if the answer matches
    that value, the message is the feedback (e.g. ``{"used Rot(z, −θ)": ...}``).
    ``angle=True`` compares angles modulo 2π.

    >>> check_close(90.0, 1.5707963267948966, name="theta")
    Traceback (most recent call last):
        ...
    AssertionError: theta: looks like degrees were used where radians were expected (got 90, expected 1.5708)
    """
    ashape, a = _read(answer, name)
    eshape, e = _read(expected, f"{name} (expected)")
    _check_finite(a, name)
    if ashape != eshape:
        _shape_message(name, ashape, eshape)
    if angle:
        a = [y + _wrap(x - y) for x, y in _zip(a, e)]
    if _close(a, e, atol, rtol):
        return
    _diagnose(name, ashape, a, e, atol, rtol, hints, angle)


def _wrap(x):
    """x wrapped into [−π, π)."""
    return (x + _pi) % (2 * _pi) - _pi


def _check_finite(a, name):
    for k, x in _enumerate(a):
        if _isnan(x):
            _fail(name, "contains NaN (a 0/0, an arccos/sqrt outside its domain, or an uninitialised entry?)")
        if not _isfinite(x):
            _fail(name, "contains infinity (division by zero?)")


def _shape_message(name, ashape, eshape):
    msg = f"wrong shape: got {_fmt_shape(ashape)}, expected {_fmt_shape(eshape)}"
    pair = (ashape, eshape)
    if pair == ((3, 3), (4, 4)):
        msg += " (a 3×3 rotation where the 4×4 homogeneous transform was expected)"
    elif pair == ((4, 4), (3, 3)):
        msg += " (a 4×4 homogeneous transform where the 3×3 rotation was expected: take T[:3, :3])"
    elif pair == ((4,), (3,)):
        msg += " (a homogeneous point [x, y, z, 1] where a 3-vector was expected: drop the last entry)"
    elif pair == ((3,), (4,)):
        msg += " (a 3-vector where the homogeneous point [x, y, z, 1] was expected)"
    elif _len(ashape) == 2 and _len(eshape) == 2 and ashape == eshape[::-1]:
        msg += " (transposed?)"
    _fail(name, msg)


def _fmt(x):
    return f"{x:.6g}"


def _diagnose(name, shape, a, e, atol, rtol, hints, angle):
    tol = atol + 1e-9
    if hints:
        for message, wrong in hints.items():
            try:
                wshape, w = _read(wrong, "hint")
            except _AssertionError:
                continue
            if wshape == shape and _close(a, w, tol, rtol) and not _close(w, e, tol, rtol):
                _fail(name, message)
    square = _len(shape) == 2 and shape[0] == shape[1]
    rot = _is_rotation_like(shape, e)
    if square and shape[0] > 1:
        n = shape[0]
        eT = _transpose(e, n)
        if _close(a, eT, tol, rtol) and not _close(eT, e, tol, rtol):
            what = "rotation" if rot else "matrix"
            extra = (" (rows and columns swapped, or R(axis, −θ) instead of R(axis, θ))" if rot else "")
            _fail(name, f"this is the transpose of the expected {what}{extra}")
    if _close(a, [-x for x in e], tol, rtol) and _any(_abs(x) > tol for x in e):
        _fail(name, "sign flipped: the answer is −1 times the expected value")
    if rot:
        n = shape[0]
        if n == 4 and not _close(a[12:], [0.0, 0.0, 0.0, 1.0], tol):
            _fail(name, f"the last row must be [0, 0, 0, 1], got [{', '.join(_fmt(x) for x in a[12:])}]")
        R = _rot_block(a, n)
        err = _orthonormal_error(R)
        if err > 1e-4:
            _fail(name, f"not orthonormal: R·Rᵀ differs from the identity by up to {_fmt(err)} "
                        "(a rotation has unit, mutually perpendicular columns; check each cos/sin entry)")
        if _det3(R) < 0:
            _fail(name, "not a rotation: det(R) = −1 (a reflection; one axis or one sign is flipped)")
        if n == 4:
            rot_ok = _close(_rot_block(a, 4), _rot_block(e, 4), tol, rtol)
            pos_ok = _close([a[3], a[7], a[11]], [e[3], e[7], e[11]], tol, rtol)
            if rot_ok and not pos_ok:
                _fail(name, "the rotation part is right but the translation column (position) is wrong "
                            f"(got [{', '.join(_fmt(a[i]) for i in (3, 7, 11))}])")
            if pos_ok and not rot_ok:
                _fail(name, "the position is right but the rotation part is wrong")
    nonzero = [k for k, x in _enumerate(e) if _abs(x) > tol]
    if nonzero and not square:
        if _close(a, [_degrees(x) for x in e], _max(tol, 1e-6 * 57.3)):
            _fail(name, "looks like degrees were used where radians were expected "
                        f"(got {', '.join(_fmt(x) for x in a[:3])}, expected {', '.join(_fmt(x) for x in e[:3])})")
        if _close(a, [_radians(x) for x in e], tol):
            _fail(name, "looks like radians were used where degrees were expected")
    if not square and _all(_abs(_abs(x - y) - _pi) <= tol for x, y in _zip(a, e)):
        _fail(name, "off by π (180°): check the sign of an atan2 argument or which solution branch you took")
    if _len(a) > 1:
        flips = [k for k in _range(_len(a)) if _abs(a[k] + e[k]) <= tol and _abs(a[k] - e[k]) > tol]
        others = [k for k in _range(_len(a)) if _abs(a[k] - e[k]) > tol and k not in flips]
        if flips and not others:
            where = ", ".join(_str(_index(k, shape)) for k in flips[:6])
            _fail(name, f"right magnitudes but the sign is flipped at index {where}")
    worst, k = _maxerr(a, e)
    where = f" at index {_index(k, shape)}" if shape else ""
    _fail(name, f"differs from the expected value by up to {_fmt(worst)}{where} "
                f"(got {_fmt(a[k])}, expected {_fmt(e[k])}; tolerance {atol:g})")


def check_orthonormal(answer, name="R", atol=1e-6):
    """Assert ``answer`` is a rotation (3×3) or homogeneous transform (4×4): RᵀR = I, det R = +1."""
    shape, a = _read(answer, name)
    _check_finite(a, name)
    if shape not in ((3, 3), (4, 4)):
        _fail(name, f"wrong shape: got {_fmt_shape(shape)}, expected (3, 3) or (4, 4)")
    if shape == (4, 4) and not _close(a[12:], [0.0, 0.0, 0.0, 1.0], atol):
        _fail(name, "the last row must be [0, 0, 0, 1]")
    R = _rot_block(a, shape[0])
    err = _orthonormal_error(R)
    if err > atol:
        _fail(name, f"not orthonormal: R·Rᵀ differs from the identity by up to {_fmt(err)}")
    if _det3(R) < 0:
        _fail(name, "not a rotation: det(R) = −1 (a reflection)")


def check_shape(answer, shape, name="answer"):
    """Assert ``answer`` has ``shape`` (numbers, numpy arrays or sympy matrices; sympy entries allowed)."""
    shape = _tuple(_int(n) for n in shape)
    if _isinstance(answer, _S.MatrixBase):
        got = _tuple(answer.shape)
    elif _isinstance(answer, _ndarray):
        got = _tuple(answer.shape)
    elif _isinstance(answer, (_list, _tuple)):
        try:
            got = _shape_of(_nest_any(answer))
        except _Shape:
            _fail(name, "has rows of different lengths (a ragged list), not a matrix")
    elif answer is None:
        _fail(name, "is None (did the function forget to `return` its result?)")
    else:
        got = ()
    if got != shape:
        _shape_message(name, got, shape)


def _nest_any(x):
    if _isinstance(x, (_list, _tuple)):
        return [_nest_any(v) for v in x]
    if _isinstance(x, _ndarray):
        return _nest_any(_ndarray_tolist(x))
    return 0


def check_symbols(expr, allowed, name="expression"):
    """Assert the sympy expression (or matrix) ``expr`` only uses symbols named in ``allowed``."""
    if _isinstance(expr, _ndarray):
        expr = _S.Matrix(_ndarray_tolist(expr))
    if not _isinstance(expr, (_S.Basic, _S.MatrixBase)):
        _fail(name, f"is a {_type(expr).__name__}, expected a sympy expression")
    used = {s.name for s in expr.free_symbols}
    extra = _sorted(used - _set(allowed))
    if extra:
        _fail(name, f"should only depend on {_sorted(_set(allowed))}, but it also uses {extra}")


# --- reference transforms, re-derived with plain math ------------------------------------------
_AXES = {"x": 0, "y": 1, "z": 2}


def _ref_rot(axis, theta, size=4):
    i = _AXES[_str(axis).lower()]
    j, k = (i + 1) % 3, (i + 2) % 3
    c, s = _cos(_float(theta)), _sin(_float(theta))
    M = [1.0 if r == q else 0.0 for r in _range(size) for q in _range(size)]
    M[j * size + j], M[j * size + k], M[k * size + j], M[k * size + k] = c, -s, s, c
    return M


def _ref_trans(dx, dy, dz):
    return [1.0, 0.0, 0.0, _float(dx), 0.0, 1.0, 0.0, _float(dy), 0.0, 0.0, 1.0, _float(dz),
            0.0, 0.0, 0.0, 1.0]


def _factor(f, k, unit_mistake=None):
    """A factor of check_transform: ("Rot", axis, θ[, "deg"]), ("Trans", dx, dy, dz) or a 4×4 matrix.

    ``unit_mistake`` builds the factor as a student who mixed up the units would: ``"degrees"``,
    the angle in degrees fed to cos/sin as radians; ``"twice"``, the angle converted to radians again.
    """
    if _isinstance(f, _tuple) and f and _isinstance(f[0], _str):
        kind = f[0].lower()
        if kind in ("rot", "r"):
            theta = _float(f[2])
            if _len(f) > 3 and f[3] == "deg":
                theta = _radians(theta)
            if unit_mistake == "degrees":
                theta = _degrees(theta)
            elif unit_mistake == "twice":
                theta = _radians(theta)
            return _ref_rot(f[1], theta, 4)
        if kind == "trans":
            return _ref_trans(*f[1:4])
        raise _ValueError(f"unknown factor {f!r}")
    shape, flat = _read(f, f"factors[{k}]")
    if shape != (4, 4):
        raise _ValueError(f"factors[{k}] must be 4×4, got {_fmt_shape(shape)}")
    return flat


_UNIT_MISTAKES = {
    "degrees": "looks like degrees were used where radians were expected (Rot/R take radians: use "
               "np.radians(...) or deg=True)",
    "twice": "looks like the angle was converted to radians twice (Rot/R take radians; it is in radians already)",
}


def _unit_mistake_products(factors):
    """{message: product of the factors built with that unit mistake}; empty without a rotation factor."""
    if not _any(_isinstance(f, _tuple) and f and _str(f[0]).lower() in ("rot", "r") for f in factors):
        return {}
    return {message: _product([_factor(f, k, unit_mistake=kind) for k, f in _enumerate(factors)])
            for kind, message in _UNIT_MISTAKES.items()}


def _product(mats, n=4):
    out = [1.0 if i % (n + 1) == 0 else 0.0 for i in _range(n * n)]
    for M in mats:
        out = _matmul(out, M, n)
    return out


def _as_nested(flat, shape):
    if _len(shape) == 1:
        return _list(flat)
    n, m = shape
    return [flat[i * m:(i + 1) * m] for i in _range(n)]


def reference_transform(*factors):
    """The product of factors (left to right), computed with plain math, as nested lists.

    >>> reference_transform(("Trans", 1, 2, 3), ("Rot", "z", 90, "deg"))[0]
    [6.123233995736766e-17, -1.0, 0.0, 1.0]
    """
    return _as_nested(_product([_factor(f, k) for k, f in _enumerate(factors)]), (4, 4))


def check_transform(answer, factors, name="T", atol=1e-6):
    """Assert ``answer`` = factors[0]·factors[1]···, detecting a wrong composition order.

    Each factor is ``("Rot", axis, θ)`` (radians; add ``"deg"`` for degrees),
    ``("Trans", dx, dy, dz)`` or a 4×4 array; descriptions are re-derived
    here with plain math. If the answer equals the product in another order,
    or with an angle in degrees used as radians or converted to radians twice,
    the message says so.
    """
    mats = [_factor(f, k) for k, f in _enumerate(factors)]
    expected = _product(mats)
    shape, a = _read(answer, name)
    _check_finite(a, name)
    if shape != (4, 4):
        _shape_message(name, shape, (4, 4))
    if _close(a, expected, atol):
        return
    tol = atol + 1e-9
    if _len(mats) > 1 and _close(a, _product(mats[::-1]), tol):
        _fail(name, "right matrices, wrong composition order: you multiplied them in reverse. Motions about "
                    "the FIXED frame multiply on the LEFT (T = Tₙ···T₁); motions about the CURRENT frame on "
                    "the right (T = T₁···Tₙ)")
    if 2 < _len(mats) <= 5:
        for perm in _permutations(_range(_len(mats))):
            if _list(perm) != _list(_range(_len(mats))) and _close(a, _product([mats[i] for i in perm]), tol):
                _fail(name, "right matrices, wrong composition order (the factors are multiplied in the order "
                            f"{[p + 1 for p in perm]} instead of {[p + 1 for p in _range(_len(mats))]})")
    for message, M in _unit_mistake_products(factors).items():
        if _close(a, M, tol):
            _fail(name, message)
    _diagnose(name, shape, a, expected, atol, 0.0, None, False)


def check_point(answer, factors, p, name="p", atol=1e-6):
    """Assert ``answer`` (a 3-vector) = (factors[0]·factors[1]···) · [p, 1], textbook eq. (3.16).

    Recognised mistakes: the homogeneous 4-vector, the inverse transform, the
    translation forgotten, the factors multiplied in the reverse order, an
    angle in degrees used as radians or converted to radians twice.
    """
    mats = [_factor(f, k) for k, f in _enumerate(factors)]
    ph = [_float(x) for x in p] + [1.0]

    def apply(M):
        return [_sum(M[i * 4 + j] * ph[j] for j in _range(4)) for i in _range(3)]

    T = _product(mats)
    expected = apply(T)
    shape, a = _read(answer, name)
    if shape == (4,) and _close(a, expected + [1.0], atol):
        _fail(name, "this is the homogeneous 4-vector [x, y, z, 1]; give the 3-vector (drop the last 1)")
    Rt = _transpose(_rot_block(T, 4), 3)
    t = [T[3], T[7], T[11]]
    inv = [_sum(Rt[i * 3 + j] * (ph[j] - t[j]) for j in _range(3)) for i in _range(3)]
    rot_only = [_sum(T[i * 4 + j] * ph[j] for j in _range(3)) for i in _range(3)]
    hints = {
        "this is the inverse transform applied to p (you mapped {A} → {B} instead of {B} → {A})":
            inv,
        "the translation is missing: only the rotation was applied (use the homogeneous point [x, y, z, 1])":
            rot_only,
    }
    if _len(mats) > 1:
        hints["right matrices, wrong composition order (the factors are multiplied in reverse)"] = \
            apply(_product(mats[::-1]))
    for message, M in _unit_mistake_products(factors).items():
        hints[message] = apply(M)
    check_close(answer, expected, name=name, atol=atol, hints=hints)


def check_rotation(answer, axis, theta, name="R", deg=False, atol=1e-6):
    """Assert ``answer`` is the rotation about ``axis`` by ``theta`` (3×3 or 4×4, by answer shape).

    The reference is re-derived with plain math (textbook eqs. (3.6)–(3.8),
    (3.19)–(3.21)); recognised mistakes: transpose/−θ, degrees fed to
    cos/sin, wrong axis, wrong shape.
    """
    t = _radians(_float(theta)) if deg else _float(theta)
    shape, a = _read(answer, name)
    size = 3 if shape == (3, 3) else 4
    expected = _ref_rot(axis, t, size)
    hints = {}
    for other in "xyz":
        if other != _str(axis).lower():
            hints[f"this is a rotation about {other}, expected a rotation about {_str(axis).lower()}"] = \
                _as_nested(_ref_rot(other, t, size), (size, size))
    hints["looks like degrees were used where radians were expected (cos and sin take radians)"] = \
        _as_nested(_ref_rot(axis, _degrees(t), size), (size, size))
    hints["looks like the angle was converted to radians twice"] = \
        _as_nested(_ref_rot(axis, _radians(t), size), (size, size))
    check_close(answer, _as_nested(expected, (size, size)), name=name, atol=atol, hints=hints)


# --- functions written by students --------------------------------------------------------------
def _call(fn, args, name):
    if not _callable(fn):
        _fail(name, f"is not a function (got {_type(fn).__name__})")
    try:
        return fn(*args)
    except NotImplementedError:
        _fail(name, "is not implemented yet (it still raises NotImplementedError)")


def check_rot_function(fn, name="my_Rot", size=4, angles=(0.0, 0.3, -1.2, 2.5), atol=1e-9):
    """Assert ``fn(axis, θ)`` equals Rot(axis, θ) (size 4) or R(axis, θ) (size 3) for x, y, z and several θ."""
    for axis in "xyz":
        for t in angles:
            R = _call(fn, (axis, t), name)
            shape, _ = _read(R, f"{name}({axis!r}, {t})")
            if shape != (size, size):
                _shape_message(f"{name}({axis!r}, {t})", shape, (size, size))
            check_rotation(R, axis, t, name=f"{name}({axis!r}, {t})", atol=atol)


def check_trans_function(fn, name="my_Trans", cases=((0.0, 0.0, 0.0), (1.0, -2.0, 0.5), (0.3, 4.0, -7.0)),
                         atol=1e-9):
    """Assert ``fn(dx, dy, dz)`` equals Trans(dx, dy, dz), textbook eq. (3.18)."""
    for dx, dy, dz in cases:
        label = f"{name}({dx}, {dy}, {dz})"
        T = _call(fn, (dx, dy, dz), name)
        expected = _as_nested(_ref_trans(dx, dy, dz), (4, 4))
        check_close(T, expected, name=label, atol=atol, hints={
            "the translation is in the bottom row instead of the last column (transposed)":
                _as_nested(_transpose(_ref_trans(dx, dy, dz), 4), (4, 4)),
        })


def _link_modified(alpha, a, theta, d):
    ct, st, ca, sa = _cos(theta), _sin(theta), _cos(alpha), _sin(alpha)
    return [ct, -st, 0.0, a, st * ca, ct * ca, -sa, -sa * d, st * sa, ct * sa, ca, ca * d, 0.0, 0.0, 0.0, 1.0]


def _link_standard(theta, d, a, alpha):
    ct, st, ca, sa = _cos(theta), _sin(theta), _cos(alpha), _sin(alpha)
    return [ct, -st * ca, st * sa, a * ct, st, ct * ca, -ct * sa, a * st, 0.0, sa, ca, d, 0.0, 0.0, 0.0, 1.0]


def check_link_function(fn, convention="modified", name="my_link", atol=1e-9,
                        cases=((0.0, 0.0, 0.0, 0.0), (-1.5707963267948966, 0.2, 0.4, 0.15),
                               (0.7, 0.43, -1.1, -0.05), (1.5707963267948966, 0.0, 2.8, 0.43))):
    """Assert ``fn`` is the one-link DH transform.

    modified: ``fn(alpha, a, theta, d)`` = textbook eq. (3.23);
    standard: ``fn(theta, d, a, alpha)`` = lab report eq. (2.4).
    """
    for p in cases:
        label = f"{name}{tuple(p)}"
        T = _call(fn, p, name)
        if convention == "modified":
            alpha, a, theta, d = p
            expected = _link_modified(alpha, a, theta, d)
            other = _link_standard(theta, d, a, alpha)
            other_msg = "this is the STANDARD-convention link matrix Rz(θ)Tz(d)Tx(a)Rx(α); eq. (3.23) is Rx(α)Tx(a)Rz(θ)Tz(d)"
        else:
            theta, d, a, alpha = p
            expected = _link_standard(theta, d, a, alpha)
            other = _link_modified(alpha, a, theta, d)
            other_msg = "this is the MODIFIED-convention link matrix; lab report (2.4) is Rz(θ)Tz(d)Tx(a)Rx(α)"
        check_close(T, _as_nested(expected, (4, 4)), name=label, atol=atol,
                    hints={other_msg: _as_nested(other, (4, 4))})


# --- symbolic expressions ---------------------------------------------------------------------
def _sym(value, name, names):
    """value as a sympy object; strings are parsed with the frozen sympy namespace."""
    if _isinstance(value, _str):
        ns = _dict(_SP_NAMESPACE)
        for n in names:
            ns[n] = _S.Symbol(n)
        try:
            return _S.sympify(value, locals=ns)
        except _Exception as exc:
            _fail(name, f"could not parse {value!r}: {exc}")
    if _isinstance(value, _ndarray):
        value = _S.Matrix(_ndarray_tolist(value))
    if _isinstance(value, (_list, _tuple)):
        value = _S.Matrix(value)
    if _isinstance(value, (_S.Basic, _S.MatrixBase)):
        return value
    if _isinstance(value, (_int, _float, _np_generic)) and not _isinstance(value, _bool):
        return _S.sympify(_float(value))
    _fail(name, f"is a {_type(value).__name__}, expected a sympy expression")


def _entries(x):
    if _isinstance(x, _S.MatrixBase):
        return x.shape, _list(x)
    return (), [x]


def _rebuild(e, name):
    """``e`` re-parsed from its printed form with the frozen namespace, so that the comparison
    only involves genuine sympy objects (a student's Expr subclass whose ``__sub__`` returns 0,
    say, cannot make ``simplify(answer - expected) == 0``)."""
    if _any(_type(e) is t for t in _SP_NUMBER_TYPES):  # exact numbers, and Floats without a lossy print
        return e
    ns = _dict(_SP_NAMESPACE)
    for s in e.free_symbols:
        ns[_str(s.name)] = _S.Symbol(_str(s.name))
    try:
        return _S.sympify(_S.sstr(e), locals=ns)
    except _Exception:
        _fail(name, f"could not be read back as a sympy expression: {_repr(e)[:80]}")


def _symbols_by_name(*exprs):
    out = {}
    for ex in exprs:
        for e in ex:
            for s in e.free_symbols:
                out.setdefault(s.name, []).append(s)
    return out


def _evaluate(entries, values):
    """Entries at a point given by symbol name -> float; None where not a finite real number."""
    res = []
    for e in entries:
        sub = {s: _S.Float(values[s.name], 30) for s in e.free_symbols}
        try:
            c = _complex(e.xreplace(sub).evalf(20))
        except (_TypeError, _ValueError, _Exception):
            return None
        if not (_isfinite(c.real) and _isfinite(c.imag)) or _abs(c.imag) > 1e-9 * (1 + _abs(c.real)):
            return None
        res.append(c.real)
    return res


def _sin_cos_swapped(e):
    """e with every sin replaced by cos and vice versa (to recognise that mistake)."""
    F = _S.Function("_swap_")
    return e.replace(_S.sin, F).replace(_S.cos, _S.sin).replace(F, _S.cos)


def check_expr_equal(answer, expected, name="expression", symbols=(), trials=8, atol=1e-8, seed=0,
                     simplify=True):
    """Assert two sympy expressions (or matrices) are mathematically equal.

    ``expected`` may be a string, parsed here with sympy functions captured
    at import (names in ``symbols`` become plain symbols). Symbols are matched
    by NAME, so ``Symbol("q1", real=True)`` and ``Symbol("q1")`` count as the
    same variable. First ``simplify(answer − expected) == 0`` (a proof when
    it works), then, as the robust fallback, both are evaluated at ``trials``
    random points: equal everywhere → pass.

    >>> import sympy as sp
    >>> q = sp.Symbol("q")
    >>> check_expr_equal(sp.sin(q)**2, "1 - cos(q)**2", symbols=["q"])
    """
    names = _list(symbols)
    A = _sym(answer, name, names)
    E = _sym(expected, f"{name} (expected)", names)
    ashape, a = _entries(A)
    eshape, e = _entries(E)
    if ashape != eshape:
        _shape_message(name, ashape, eshape)
    a = [_rebuild(x, name) for x in a]
    by_name = _symbols_by_name(a, e)
    a_names = {s.name for x in a for s in x.free_symbols}
    e_names = {s.name for x in e for s in x.free_symbols}
    # one symbol per name, so that simplify can cancel q1 (real) against q1
    canon = {n: syms[0] for n, syms in by_name.items()}
    a = [x.xreplace({s: canon[s.name] for s in x.free_symbols}) for x in a]
    e = [x.xreplace({s: canon[s.name] for s in x.free_symbols}) for x in e]
    if simplify and _all(_S.count_ops(x - y) < 300 for x, y in _zip(a, e)):
        try:
            if _all(_S.simplify(x - y) == 0 for x, y in _zip(a, e)):
                return
        except _Exception:
            pass
    rng = _Random(seed)
    points, agree, tried = [], True, 0
    while _len(points) < trials and tried < 5 * trials:
        tried += 1
        values = {n: rng.uniform(-2.0, 2.0) for n in by_name}
        va, ve = _evaluate(a, values), _evaluate(e, values)
        if va is None or ve is None:
            continue
        points.append((values, va, ve))
        if not _close(va, ve, atol, 1e-9):
            agree = False
            break
    if agree and points:
        return
    if not points:
        _fail(name, "could not be evaluated numerically (does it contain undefined functions?)")
    extra = _sorted(a_names - e_names)
    if extra:
        _fail(name, f"uses symbol(s) {extra} that the expected answer does not contain "
                    f"(expected symbols: {_sorted(e_names)}; use the names defined in the statement)")
    values, va, ve = points[-1]
    if _all(_close(pa, [-x for x in pe], atol, 1e-9) for _, pa, pe in points) and _any(_abs(x) > atol for x in ve):
        _fail(name, "sign flipped: the answer is −1 times the expected expression")
    if _len(ashape) == 2 and ashape[0] == ashape[1]:
        n = ashape[0]
        if _close(va, _transpose(ve, n), atol, 1e-9) and not _close(ve, _transpose(ve, n), atol, 1e-9):
            _fail(name, "this is the transpose of the expected matrix")
    try:
        sw = [_sin_cos_swapped(x) for x in e]
        vs = _evaluate(sw, values)
        if vs is not None and _close(va, vs, atol, 1e-9):
            _fail(name, "sin and cos are swapped")
    except _AssertionError:
        raise
    except _Exception:
        pass
    missing = _sorted(e_names - a_names)
    hint = f"; it does not depend on {missing}" if missing else ""
    worst, k = _maxerr(va, ve)
    where = f" in entry {_index(k, ashape)}" if ashape else ""
    at = ", ".join(f"{n}={v:.3f}" for n, v in _sorted(values.items()))
    _fail(name, f"is not equal to the expected expression{hint}: at {at} it gives {_fmt(va[k])}{where}, "
                f"expected {_fmt(ve[k])}")


# --- DH tables ----------------------------------------------------------------------------------
def _links_of(robot, name):
    """(convention, rows, base, tool) from a DHRobot-like object or a reference dict."""
    if _isinstance(robot, _dict):
        conv = robot.get("convention", "modified")
        rows = [(_str(r.get("joint", "R")).upper(), _float(r.get("a", 0.0)), _float(r.get("alpha", 0.0)),
                 _float(r.get("d", 0.0)), _float(r.get("theta", 0.0)), _float(r.get("offset", 0.0)))
                for r in robot["links"]]
        base, tool = robot.get("base"), robot.get("tool")
    else:
        if not _hasattr(robot, "links"):
            _fail(name, f"is a {_type(robot).__name__}, expected a DHRobot (armlab.DHRobot([...], convention=...))")
        conv = _getattr(robot, "convention", "standard")
        rows = []
        for i, link in _enumerate(robot.links):
            try:
                rows.append((_str(link.joint).upper(), _float(link.a), _float(link.alpha), _float(link.d),
                             _float(link.theta), _float(link.offset)))
            except (_TypeError, _ValueError, AttributeError):
                _fail(name, f"link {i + 1} has non-numeric parameters (use numbers, not symbols)")
        base, tool = _getattr(robot, "base", None), _getattr(robot, "tool", None)
    base = None if base is None else _read(base, f"{name}.base")[1]
    tool = None if tool is None else _read(tool, f"{name}.tool")[1]
    return conv, rows, base, tool


def _fk(conv, rows, base, tool, q):
    mats = [base] if base is not None else []
    for (joint, a, alpha, d, theta, offset), qi in _zip(rows, q):
        if joint == "R":
            theta = qi + offset
        else:
            d = qi + offset
        mats.append(_link_modified(alpha, a, theta, d) if conv == "modified" else _link_standard(theta, d, a, alpha))
    if tool is not None:
        mats.append(tool)
    return _product(mats)


def reference_fkine(table, q, deg=False):
    """End pose (nested 4×4 lists) of a DH table given as a dict or DHRobot, with plain math.

    ``deg=True``: the revolute joints' values are in degrees (prismatic ones stay in metres).
    """
    conv, rows, base, tool = _links_of(table, "table")
    if _len(q) != _len(rows):
        raise _ValueError(f"q has {_len(q)} values, the table {_len(rows)} joints")
    q = [_radians(_float(x)) if deg and row[0] == "R" else _float(x) for x, row in _zip(q, rows)]
    return _as_nested(_fk(conv, rows, base, tool, q), (4, 4))


def check_dh_position(robot, q, position, name="robot", joints=None, atol=1e-6):
    """Assert the tool of a DH table is at ``position`` for joint values ``q`` (plain-math FK).

    ``joints`` (e.g. ``"RRPR"``) also checks the number and types of joints.
    """
    conv, rows, base, tool = _links_of(robot, name)
    if joints is not None:
        got = "".join(r[0] for r in rows)
        if _len(got) != _len(joints):
            _fail(name, f"has {_len(got)} joints; the arm described has {_len(joints)} (one DH row per joint)")
        if got != joints:
            _fail(name, f"joint types are {got}, expected {joints} (R revolute, P prismatic)")
    if _len(q) != _len(rows):
        _fail(name, f"has {_len(rows)} joints but q has {_len(q)} values")
    T = _fk(conv, rows, base, tool, [_float(x) for x in q])
    check_close([T[3], T[7], T[11]], position, name=f"{name}: tool position at q = {_list(q)}", atol=atol)


def check_dh_robot(robot, reference, name="robot", trials=12, seed=0, atol=1e-6, prismatic_range=(0.0, 0.3)):
    """Assert a student's DH table describes the same arm as ``reference``.

    Graded by the end-effector pose, not the table: both are evaluated (with
    plain math here, not ``robot.fkine``) at q = 0 and at ``trials`` random
    joint vectors, so equivalent tables (other but valid frame choices that
    give the same tool frame) pass. ``reference`` is a dict
    ``{"convention": "modified", "links": [{"joint": "R", "a": .., "alpha": ..,
    "d": .., "theta": .., "offset": ..}, ...], "base": 4×4 or None, "tool": ...}``
    or a DHRobot.
    """
    conv, rows, base, tool = _links_of(robot, name)
    rconv, rrows, rbase, rtool = _links_of(reference, "reference")
    if conv not in ("modified", "standard"):
        _fail(name, f"unknown convention {conv!r}")
    if _len(rows) != _len(rrows):
        _fail(name, f"has {_len(rows)} joints; the arm described has {_len(rrows)} (one DH row per joint)")
    for i, (r, rr) in _enumerate(_zip(rows, rrows)):
        if r[0] != rr[0]:
            kind = {"R": "revolute (R)", "P": "prismatic (P)"}
            _fail(name, f"joint {i + 1} should be {kind.get(rr[0], rr[0])}, your table has {kind.get(r[0], r[0])}")
    rng = _Random(seed)
    qs = [[0.0] * _len(rows)]
    for _ in _range(trials):
        qs.append([rng.uniform(-_pi, _pi) if j[0] == "R" else rng.uniform(*prismatic_range) for j in rrows])
    bad_pos, bad_rot = [], []
    for k, q in _enumerate(qs):
        T = _fk(conv, rows, base, tool, q)
        Tr = _fk(rconv, rrows, rbase, rtool, q)
        pos_ok = _close([T[3], T[7], T[11]], [Tr[3], Tr[7], Tr[11]], atol)
        rot_ok = _close(_rot_block(T, 4), _rot_block(Tr, 4), atol)
        if not pos_ok:
            bad_pos.append(k)
        if not rot_ok:
            bad_rot.append(k)
    if not bad_pos and not bad_rot:
        return
    if not bad_pos:
        _fail(name, "the tool POSITION is right for every q, but its ORIENTATION is not: check the twist "
                    "angles α (which way each z axis points) and the θ offsets of the last joints")
    k = bad_pos[0]
    q = qs[k]
    T = _fk(conv, rows, base, tool, q)
    Tr = _fk(rconv, rrows, rbase, rtool, q)
    got = ", ".join(_fmt(T[i]) for i in (3, 7, 11))
    want = ", ".join(_fmt(Tr[i]) for i in (3, 7, 11))
    if k == 0:
        _fail(name, f"wrong already at the home pose q = 0: tool at ({got}), expected ({want}). Check the "
                    "constant lengths a and d, the twists α and the θ offsets")
    qtxt = ", ".join(f"{x:.3f}" for x in q)
    _fail(name, f"right at q = 0 but wrong when the joints move: at q = ({qtxt}) the tool is at ({got}), "
                f"expected ({want}). A joint variable may sit on the wrong parameter, or a joint axis "
                "(twist α) points the wrong way")


# --- read-only module -------------------------------------------------------------------------
class _ReadOnlyModule(_types.ModuleType):
    """Refuse ``armlab.grading.check_close = ...`` (one of the cheap tampering routes); also used by
    :mod:`armlab.grading_ik`."""

    def __setattr__(self, key, value):
        raise AttributeError(f"{self.__name__} is read-only (cannot set {key!r})")

    def __delattr__(self, key):
        raise AttributeError(f"{self.__name__} is read-only (cannot delete {key!r})")


_sys.modules[__name__].__class__ = _ReadOnlyModule
