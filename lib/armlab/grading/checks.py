"""Generic checkers: closeness with a diagnosis of the miss, shape, orthonormality.

>>> from armlab.grading import check_close
>>> check_close([0.5, 1.0], [0.5, 1.0], name="p")
>>> check_close(90.0, 1.5707963267948966, name="theta")
Traceback (most recent call last):
    ...
AssertionError: theta: looks like degrees were used where radians were expected (got 90, expected 1.5708)
"""

from __future__ import annotations

from ._base import (
    call,
    det3,
    is_rotation_like,
    last_row_ok,
    orthonormal_error,
    rot_block,
    translation,
    transpose,
    wrap,
    check_finite,
    decode,
    close,
    fail,
    fail_if_hint,
    fmt,
    fmt_shape,
    index,
    maxerr,
    read,
    shape_message,
    shape_of_any,
)
from ._builtins import *  # noqa: F403  (the captured builtins shadow the live ones)
from ._frozen import S, degrees, freeze, ndarray, ndarray_tolist, pi, radians
from .symbolic import check_expr_equal

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


def check_close(
    answer: Any,
    expected: Any,
    name: str = "answer",
    atol: float = 1e-6,
    rtol: float = 0.0,
    hints: Any = None,
    angle: bool = False,
) -> None:
    """Assert ``answer`` ≈ ``expected`` elementwise (|a − e| ≤ atol + rtol·|e|), explaining misses.

    ``hints`` maps a message to a known wrong value: if the answer matches
    that value, the message is the feedback (e.g. ``{"used Rot(z, −θ)": ...}``).
    ``angle=True`` compares angles modulo 2π.
    """
    ashape, a = read(answer, name)
    eshape, e = read(expected, f"{name} (expected)")
    check_finite(a, name)
    if ashape != eshape:  # a known mistake of another shape (the homogeneous 4-vector, ...) is named first
        fail_if_hint(name, hints, lambda wshape, w: wshape == ashape and close(a, w, atol + 1e-9, rtol))
        shape_message(name, ashape, eshape)
    if angle:
        a = [y + wrap(x - y) for x, y in zip(a, e)]
    if close(a, e, atol, rtol):
        return
    diagnose(name, ashape, a, e, atol, rtol, hints)


def diagnose(name: str, shape: Any, a: Any, e: Any, atol: float, rtol: float = 0.0, hints: Any = None) -> None:
    """Fail with the likeliest kind of mistake that turns the expected ``e`` into the answer ``a``."""
    tol = atol + 1e-9
    fail_if_hint(
        name, hints, lambda wshape, w: wshape == shape and close(a, w, tol, rtol) and not close(w, e, tol, rtol)
    )
    square = len(shape) == 2 and shape[0] == shape[1]
    rot = is_rotation_like(shape, e)
    if square and shape[0] > 1:
        eT = transpose(e, shape[0])
        if close(a, eT, tol, rtol) and not close(eT, e, tol, rtol):
            what = "rotation" if rot else "matrix"
            extra = " (rows and columns swapped, or R(axis, −θ) instead of R(axis, θ))" if rot else ""
            fail(name, f"this is the transpose of the expected {what}{extra}")
    if close(a, [-x for x in e], tol, rtol) and any(abs(x) > tol for x in e):
        fail(name, "sign flipped: the answer is −1 times the expected value")
    if rot:
        diagnose_transform(name, shape[0], a, e, tol, rtol)
    if any(abs(x) > tol for x in e) and not square:
        if close(a, [degrees(x) for x in e], max(tol, 1e-6 * 57.3)):
            fail(
                name,
                "looks like degrees were used where radians were expected "
                f"(got {', '.join(fmt(x) for x in a[:3])}, expected {', '.join(fmt(x) for x in e[:3])})",
            )
        if close(a, [radians(x) for x in e], tol):
            fail(name, "looks like radians were used where degrees were expected")
    if not square and all(abs(abs(x - y) - pi) <= tol for x, y in zip(a, e)):
        fail(name, "off by π (180°): check the sign of an atan2 argument or which solution branch you took")
    if len(a) > 1:
        flips = [k for k in range(len(a)) if abs(a[k] + e[k]) <= tol and abs(a[k] - e[k]) > tol]
        others = [k for k in range(len(a)) if abs(a[k] - e[k]) > tol and k not in flips]
        if flips and not others:
            where = ", ".join(str(index(k, shape)) for k in flips[:6])
            fail(name, f"right magnitudes but the sign is flipped at index {where}")
    worst, k = maxerr(a, e)
    where = f" at index {index(k, shape)}" if shape else ""
    fail(
        name,
        f"is off by up to {fmt(worst)}{where} (got {fmt(a[k])}, expected {fmt(e[k])}; tolerance {atol:g})",
    )


def diagnose_transform(name: str, n: int, a: Any, e: Any, tol: float, rtol: float) -> None:
    """The misses specific to a rotation (n = 3) or homogeneous transform (n = 4) ``e``."""
    if n == 4 and not last_row_ok(a, tol):
        fail(name, f"the last row must be [0, 0, 0, 1], got [{', '.join(fmt(x) for x in a[12:])}]")
    R = rot_block(a, n)
    err = orthonormal_error(R)
    if err > 1e-4:
        fail(
            name,
            f"not orthonormal: R·Rᵀ differs from the identity by up to {fmt(err)} "
            "(a rotation has unit, mutually perpendicular columns; check each cos/sin entry)",
        )
    if det3(R) < 0:
        fail(name, "not a rotation: det(R) = −1 (a reflection; one axis or one sign is flipped)")
    if n == 4:
        rot_ok = close(rot_block(a, 4), rot_block(e, 4), tol, rtol)
        pos_ok = close(translation(a), translation(e), tol, rtol)
        if rot_ok and not pos_ok:
            fail(
                name,
                "the rotation part is right but the translation column (position) is wrong "
                f"(got [{', '.join(fmt(x) for x in translation(a))}])",
            )
        if pos_ok and not rot_ok:
            fail(name, "the position is right but the rotation part is wrong")


def check_cases(
    fn: Any, key: Any, name: str = "answer", atol: float = 1e-9, rtol: float = 0.0, compare: Any = None
) -> None:
    """Assert ``fn`` gives the answer key's expected answers on its inputs (``armlab.autograde.key.cases``), naming
    the key's known mistake a wrong answer equals, else the likeliest kind of miss (:func:`check_expected`)."""
    inputs, expected, mistakes, names = key["inputs"], key["expected"], key.get("mistakes"), key.get("names")
    del key  # not in this frame while the student's function runs
    for k, args in enumerate(inputs):
        args = [decode(a) for a in args]
        shown = [argument_label(a) for a in args]
        if names and len(names) == len(shown):
            shown = [f"{n}={a}" for n, a in zip(names, shown)]
        label = f"{name}({', '.join(shown)})"
        answer = call(fn, args, name)
        hints = mistakes[k] if mistakes else None
        check_expected(answer, expected[k], name=label, atol=atol, rtol=rtol, hints=hints, compare=compare)


def argument_label(a: Any) -> str:
    """An argument as the label of a failed case shows it: numbers short, a 4×4 array as T, long lists elided."""
    if isinstance(a, ndarray):
        if a.shape == (4, 4):
            return "T"
        a = ndarray_tolist(a)
    if isinstance(a, float):
        return fmt(a)
    if isinstance(a, (list, tuple)) and all(isinstance(x, (int, float)) for x in a):
        return "[" + ", ".join(fmt(x) for x in a) + "]"
    text = repr(a)
    return text if len(text) <= 40 else f"<{type(a).__name__} of {len(a) if hasattr(a, '__len__') else '?'}>"


def check_expected(
    answer: Any, expected: Any, name: str, atol: float = 1e-6, rtol: float = 0.0, hints: Any = None, compare: Any = None
) -> None:
    """One answer against one expected value of an answer key, ``hints`` ({message: wrong value}) its known
    mistakes: ``compare(answer, expected, name=, atol=, hints=)`` if given (e.g. angles modulo 2π), else a
    sympy expression by :func:`check_expr_equal`, True/False by :func:`check_truth`, numbers by :func:`check_close`."""
    if compare is not None:
        compare(answer, expected, name=name, atol=atol, hints=hints)
    elif isinstance(expected, dict) and "expr" in expected:
        check_expr_equal(answer, expected["expr"], name=name, symbols=expected["symbols"])
    elif isinstance(expected, bool):
        check_truth(answer, expected, name=name, hints=hints)
    else:
        check_close(answer, expected, name=name, atol=atol, rtol=rtol, hints=hints)


def check_truth(answer: Any, expected: bool, name: str = "answer", hints: Any = None) -> None:
    """Assert ``answer`` is True or False as ``expected``; a miss names the hint whose value it equals."""
    if answer is None:
        fail(name, "is None (did the function forget to `return` its result?)")
    got = None
    try:
        got = bool(answer)
    except Exception:  # e.g. a numpy array of several values
        pass
    if got is None:
        fail(name, f"expected True or False, got {type(answer).__name__}")
    if got != expected:
        for message, wrong in (hints or {}).items():
            if wrong is got:
                fail(name, message)
        fail(name, f"expected {expected}")


def check_answer(answer: Any, key: Any, name: str = "answer", atol: float = 1e-6, rtol: float = 0.0) -> None:
    """Assert ``answer`` equals the answer key's value (``armlab.autograde.key.value``), naming the key's known
    mistake it equals (:func:`check_expected`)."""
    check_expected(answer, key["expected"], name=name, atol=atol, rtol=rtol, hints=key.get("mistakes"))


def check_mistakes(answer: Any, key: Any, name: str = "answer", atol: float = 1e-6) -> None:
    """Visible-test screen: fail, naming the mistake, if ``answer`` is one of the answer key's known wrong values
    (and not the right one); pass otherwise (the hidden tests decide whether it is right)."""
    shape, a = read(answer, name)
    eshape, e = read(key["expected"], f"{name} (expected)")
    if shape != eshape or not close(a, e, atol):
        check_known_mistakes(answer, key.get("mistakes"), name=name, atol=atol)


def check_known_mistakes(answer: Any, mistakes: Any, name: str = "answer", atol: float = 1e-6) -> None:
    """Fail with the message of the first known wrong value in ``mistakes`` ({message: wrong value})
    that ``answer`` equals; pass otherwise.

    A screen for visible tests: it names a common mistake without confirming that the answer is
    right (the hidden tests do that), so it gives nothing away. No wrong value may equal the right
    answer.

    >>> check_known_mistakes(90.0, {"degrees were used where radians were expected": 90.0}, name="theta")
    Traceback (most recent call last):
        ...
    AssertionError: theta: degrees were used where radians were expected
    >>> check_known_mistakes(1.5707963267948966, {"degrees were used": 90.0}, name="theta")
    """
    shape, a = read(answer, name)
    check_finite(a, name)
    fail_if_hint(name, mistakes, lambda wshape, w: wshape == shape and close(a, w, atol + 1e-9))


def check_orthonormal(answer: Any, name: str = "R", atol: float = 1e-6) -> None:
    """Assert ``answer`` is a rotation (3×3) or homogeneous transform (4×4): RᵀR = I, det R = +1."""
    shape, a = read(answer, name)
    check_finite(a, name)
    if shape not in ((3, 3), (4, 4)):
        fail(name, f"wrong shape: got {fmt_shape(shape)}, expected (3, 3) or (4, 4)")
    if shape == (4, 4) and not last_row_ok(a, atol):
        if last_row_ok(transpose(a, 4), atol):
            fail(
                name,
                "the last row must be [0, 0, 0, 1]: this is transposed (the translation is in the "
                "bottom row instead of the last column)",
            )
        fail(name, "the last row must be [0, 0, 0, 1]")
    R = rot_block(a, shape[0])
    err = orthonormal_error(R)
    if err > atol:
        fail(name, f"not orthonormal: R·Rᵀ differs from the identity by up to {fmt(err)}")
    if det3(R) < 0:
        fail(name, "not a rotation: det(R) = −1 (a reflection)")


def check_shape(answer: Any, shape: Any, name: str = "answer") -> None:
    """Assert ``answer`` has ``shape`` (numbers, numpy arrays or sympy matrices; sympy entries allowed)."""
    shape = tuple(int(n) for n in shape)
    if isinstance(answer, (S.MatrixBase, ndarray)):
        got = tuple(answer.shape)
    elif answer is None:
        fail(name, "is None (did the function forget to `return` its result?)")
    else:
        got = shape_of_any(answer, name)
    if got != shape:
        shape_message(name, got, shape)


freeze(__name__)
