"""Plumbing shared by every checker: reading an answer into plain Python floats, formatting,
failing with a message, calling a student's function.

An answer (number, list, numpy array, sympy number or matrix) becomes ``(shape, flat)``: its
shape and a flat row-major list of Python floats. numpy arrays are read with ``ndarray.tolist``,
a method of an immutable C type, so an ndarray subclass cannot fake its values.
"""

from __future__ import annotations

from ._builtins import *  # noqa: F403  (the captured builtins shadow the live ones)
from ._frozen import (
    np_array,
    S,
    freeze,
    isfinite,
    isnan,
    ndarray,
    ndarray_tolist,
    np_asarray,
    np_complexfloating,
    np_det,
    np_generic,
    np_matmul,
    pi,
)

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable, NoReturn


#: ``nbgrader validate`` indents an error by 4 columns and cuts every line at 87: a line of the message keeps
#: 83 columns, the first 16 fewer for its "AssertionError: " prefix.
LINE = 76
FIRST_LINE = 83 - len("AssertionError: ")


def fail(name: str, message: Any) -> NoReturn:
    """Raise the checker's verdict, diagnosis first (:func:`verdict`)."""
    raise AssertionError(verdict(name, str(message)))


def verdict(name: str, message: str) -> str:
    """The message of a failed check: "<what>: <diagnosis>" in a first line short enough that ``nbgrader validate``
    shows it whole, then the details and the call that failed, in lines that fit too. Joined with spaces, the lines
    read "<what>: <message> in <name>".

    >>> print(verdict("propagate(R, P, w, v, 0.5, 'R')", "the joint rate was added before rotating: θ̇·ẑ is in {i+1}"))
    propagate: the joint rate was added before rotating:
    θ̇·ẑ is in {i+1}
    in propagate(R, P, w, v, 0.5, 'R')
    """
    what = without_arguments(name)
    if len(what) > 30:  # "J2 at th1=…, th2=…": the first word says what; the rest follows with the call
        what = what.split(" ")[0]
    room = FIRST_LINE - len(what) - 2
    head, details = message, ""
    if len(message) > room:
        cut = first_clause(message)
        if 0 < cut < room:
            head, details = message[:cut].rstrip(), message[cut:].strip()
        else:
            head = wrapped(message, room)[0]
            details = message[len(head) :].strip()
    lines = [f"{what}: {head}"] + wrapped(details, LINE)
    if what != name:
        lines += wrapped(f"in {name}", LINE)
    return "\n".join(lines)


def first_clause(message: str) -> int:
    """Where the diagnosis of ``message`` ends: after its first ": " or "; " outside brackets, else before a final
    remark in parentheses; -1 if neither."""
    depth, remark = 0, -1
    for i, ch in enumerate(message):
        if ch in "([{":
            if ch == "(" and depth == 0 and message[i - 1 : i] == " " and remark < 0:
                remark = i
            depth += 1
        elif ch in ")]}":
            depth = max(depth - 1, 0)
            if depth == 0 and remark >= 0 and message[i + 1 :].strip(" .") != "":
                remark = -1  # "(v, ω) instead of …": a parenthesis inside the clause, not a remark after it
        elif depth == 0 and ch in ":;" and message[i + 1 : i + 2] == " ":
            return i + 1
    return remark


def without_arguments(name: str) -> str:
    """``name`` without the arguments of the calls in it: "singular_pose(q=[...]): u" is "singular_pose: u"."""
    out, depth, prev = [], 0, " "
    for ch in name:
        if ch == "(" and (depth or prev.isalnum() or prev in "_]"):
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
        elif not depth:
            out.append(ch)
        prev = ch
    return "".join(out)


def wrapped(text: str, width: int) -> list[str]:
    """``text`` broken at spaces into lines of at most ``width`` (a longer word gets a line of its own)."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + [line] if line else lines


class Ragged(Exception):
    """Rows of different lengths (internal: turned into an AssertionError by the caller)."""


# --- reading answers ----------------------------------------------------------------------------
def read(value: Any, name: str) -> Any:
    """``value`` as (shape, flat list of Python floats), or an AssertionError that says why not."""
    if value is None:
        fail(name, "is None (did the function forget to `return` its result?)")
    if value is NotImplemented or value is Ellipsis:
        fail(name, f"is {value!r}, not a number")
    if callable(value) and not isinstance(value, (ndarray, S.Basic, S.MatrixBase)):
        fail(name, "is a function, not a value (did you forget to call it?)")
    ragged = False
    try:
        nested = to_nested(value, name)
        shape = shape_of(nested)
    except Ragged:
        ragged = True  # failed outside the except block, so no "during handling" context is shown
    if ragged:
        fail(name, "has rows of different lengths (a ragged list), not a matrix")
    flat: list[Any] = []
    flatten(nested, flat)
    return shape, flat


def to_nested(x: Any, name: str) -> Any:
    """Nested lists of Python floats."""
    if isinstance(x, ndarray):
        x = np_asarray(x)  # a plain ndarray view: subclasses cannot override dtype/astype/tolist
        if x.dtype.kind in "fiub":
            return ndarray_tolist(x.astype(float) if x.dtype.kind != "f" else x)
        return to_nested(ndarray_tolist(x), name)
    if isinstance(x, S.MatrixBase):
        return [[scalar(v, name) for v in row] for row in x.tolist()]
    if isinstance(x, (list, tuple)):
        return [to_nested(v, name) for v in x]
    return scalar(x, name)


def scalar(v: Any, name: str) -> Any:
    """One entry as a Python float, or an AssertionError naming what it is instead."""
    if isinstance(v, bool):
        fail(name, f"contains the boolean {v!r}, expected a number")
    if isinstance(v, (float, int)):
        return float(v)
    if isinstance(v, np_generic):
        if not isinstance(v, np_complexfloating):
            return float(v)
        v = complex(v)
    if isinstance(v, complex):
        if abs(v.imag) > 1e-12:
            fail(name, f"contains the complex number {v!r}; expected real numbers")
        return float(v.real)
    if isinstance(v, S.Basic):
        if v.free_symbols:
            fail(
                name,
                f"contains symbols {sorted(str(s) for s in v.free_symbols)}; expected a number "
                "(substitute values, e.g. expr.subs(...), or use the numeric functions)",
            )
        c = None
        try:
            c = complex(v.evalf())
        except (TypeError, ValueError):
            pass
        if c is None:
            fail(name, f"contains {v!r}, which is not a number")
        if abs(c.imag) > 1e-12:
            fail(name, f"contains the complex number {c!r}; expected real numbers")
        return float(c.real)
    if isinstance(v, ndarray):
        return to_nested(v, name)
    try:
        return float(v)
    except (TypeError, ValueError):
        pass
    fail(name, f"contains {type(v).__name__} {repr(v)[:60]}, which is not a number")


def shape_of(nested: Any) -> Any:
    """Shape of nested lists; raises :class:`Ragged` for rows of different lengths."""
    if not isinstance(nested, list):
        return ()
    if not nested:
        return (0,)
    subs = [shape_of(v) for v in nested]
    if any(s != subs[0] for s in subs):
        raise Ragged()
    return (len(nested),) + subs[0]


def shape_of_any(x: Any, name: str) -> Any:
    """Shape of lists/tuples/arrays of anything (sympy entries allowed), for check_shape."""

    def nest(v):
        if isinstance(v, (list, tuple)):
            return [nest(u) for u in v]
        if isinstance(v, ndarray):
            return nest(ndarray_tolist(v))
        return 0

    ragged = False
    try:
        return shape_of(nest(x))
    except Ragged:
        ragged = True
    if ragged:
        fail(name, "has rows of different lengths (a ragged list), not a matrix")


def flatten(nested: Any, out: list[Any]) -> None:
    if isinstance(nested, list):
        for v in nested:
            flatten(v, out)
    else:
        out.append(nested)


def check_finite(a: Any, name: str) -> None:
    for x in a:
        if isnan(x):
            fail(name, "contains NaN (a 0/0, an arccos/sqrt outside its domain, or an uninitialised entry?)")
        if not isfinite(x):
            fail(name, "contains infinity (division by zero?)")


# --- properties of an answer (the diagnosis of a miss) ----------------------------------------------------
def transpose(flat: Any, n: int) -> list[Any]:
    """An n×n matrix (flat, row-major) with rows and columns swapped."""
    return [flat[j * n + i] for i in range(n) for j in range(n)]


def rot_block(flat: Any, n: int) -> list[Any]:
    """The upper-left 3×3 block of an n×n matrix."""
    return [flat[i * n + j] for i in range(3) for j in range(3)]


def translation(T: Any) -> list[Any]:
    """The translation column of a 4×4."""
    return [T[3], T[7], T[11]]


def last_row_ok(T: Any, tol: float) -> Any:
    """The last row of a 4×4 is [0, 0, 0, 1]."""
    return all(abs(x - y) <= tol for x, y in zip(T[12:], (0.0, 0.0, 0.0, 1.0)))


def matrix3(R9: Any) -> Any:
    return np_array([R9[0:3], R9[3:6], R9[6:9]], dtype=float)


def orthonormal_error(R9: Any) -> Any:
    """max |R·Rᵀ − I| of a 3×3 (numpy's matmul ufunc, captured at import)."""
    R = matrix3(R9)
    RRt = ndarray_tolist(np_matmul(R, R.T))
    return max(abs(RRt[i][j] - (1.0 if i == j else 0.0)) for i in range(3) for j in range(3))


def det3(R9: Any) -> float:
    return float(np_det(matrix3(R9)))


def is_rotation_like(shape: Any, flat: Any) -> bool:
    """True for a 3×3 rotation or a 4×4 homogeneous transform with a rotation block."""
    if shape == (3, 3):
        R = flat
    elif shape == (4, 4) and last_row_ok(flat, 1e-9):
        R = rot_block(flat, 4)
    else:
        return False
    return orthonormal_error(R) < 1e-6 and det3(R) > 0


def wrap(x: Any) -> Any:
    """An angle x wrapped into (−π, π]."""
    r = (x + pi) % (2.0 * pi) - pi
    return r + 2.0 * pi if r <= -pi else r


# --- comparing and formatting -------------------------------------------------------------------
def close(a: Any, b: Any, atol: float, rtol: float = 0.0) -> Any:
    """Flat lists equal entry by entry within atol + rtol·|b|."""
    return len(a) == len(b) and all(abs(x - y) <= atol + rtol * abs(y) for x, y in zip(a, b))


def maxerr(a: Any, b: Any) -> Any:
    """(largest |a − b|, its flat index)."""
    worst, where = 0.0, 0
    for k, (x, y) in enumerate(zip(a, b)):
        e = abs(x - y)
        if e > worst:
            worst, where = e, k
    return worst, where


def fmt(x: Any) -> str:
    return f"{x:.6g}"


def fmt_list(xs: Any) -> Any:
    return "[" + ", ".join(fmt(x) for x in xs) + "]"


def fmt_shape(shape: Any) -> Any:
    return (
        "a scalar"
        if shape == ()
        else "shape (" + ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"
    )


def index(k: Any, shape: Any) -> Any:
    """The multi-index of flat index k."""
    idx = []
    for s in shape[::-1]:
        idx.append(k % s)
        k //= s
    return tuple(idx[::-1])


def shape_message(name: str, ashape: Any, eshape: Any) -> None:
    """Fail: wrong shape, with the likely reason for the common pairs."""
    msg = f"wrong shape: got {fmt_shape(ashape)}, expected {fmt_shape(eshape)}"
    pair = (ashape, eshape)
    if pair == ((3, 3), (4, 4)):
        msg += " (a 3×3 rotation where the 4×4 homogeneous transform was expected)"
    elif pair == ((4, 4), (3, 3)):
        msg += " (a 4×4 homogeneous transform where the 3×3 rotation was expected: take T[:3, :3])"
    elif pair == ((4,), (3,)):
        msg += " (a homogeneous point [x, y, z, 1] where a 3-vector was expected: drop the last entry)"
    elif pair == ((3,), (4,)):
        msg += " (a 3-vector where the homogeneous point [x, y, z, 1] was expected)"
    elif len(ashape) == 2 and len(eshape) == 2 and ashape == eshape[::-1]:
        msg += " (transposed?)"
    fail(name, msg)


def fail_if_hint(name: str, hints: Any, matches: Any) -> None:
    """Fail with the message of the first ``hints`` entry {message: wrong value} whose value
    ``matches(shape, flat)`` accepts; values that cannot be read are skipped."""
    for message, wrong in (hints or {}).items():
        try:
            shape, flat = read(wrong, "hint")
        except AssertionError:
            continue
        if matches(shape, flat):
            fail(name, message)


# --- student functions ----------------------------------------------------------------------------
def call(fn: Callable[..., Any], args: Any, name: str) -> Any:
    """``fn(*args)``; a function still raising NotImplementedError fails with that said."""
    if not callable(fn):
        fail(name, f"is not a function (got {type(fn).__name__})")
    try:
        return fn(*args)
    except NotImplementedError:
        pass  # failed below, outside the except block, so the traceback stays short
    fail(name, "is not implemented yet (it still raises NotImplementedError)")


def decode(arg: Any) -> Any:
    """An input from an answer key as the student's function gets it: ``{"ndarray": ...}`` as a float array."""
    return np_array(arg["ndarray"], dtype=float) if isinstance(arg, dict) and "ndarray" in arg else arg


def vector(value: Any, size: int, label: str) -> Any:
    """A student's vector as a flat list of ``size`` finite numbers, or a failure naming ``label``."""
    shape, flat = read(value, label)
    if shape != (size,):
        fail(label, f"expected a vector of {size} numbers, got shape {shape}")
    check_finite(flat, label)
    return flat


freeze(__name__)
