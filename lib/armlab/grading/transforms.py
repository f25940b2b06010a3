"""Checkers of rotations, homogeneous transforms and points (textbook §3.1).

References are re-derived with plain math from a description: a factor is ``("Rot", axis, θ)``
(radians; add ``"deg"`` for degrees), ``("Trans", dx, dy, dz)`` or a 4×4 matrix.

>>> from armlab.grading import reference_transform
>>> reference_transform(("Trans", 1, 2, 3), ("Rot", "z", 90, "deg"))[0]
[6.123233995736766e-17, -1.0, 0.0, 1.0]
"""

from __future__ import annotations

from ._base import arrays, call, check_finite, close, fail, fmt_shape, read, shape_message
from ._builtins import *  # noqa: F403  (the captured builtins shadow the live ones)
from ._frozen import degrees, freeze, permutations, radians
from ._plain import apply, as_nested, product, rot, rot_block, trans, translation, transpose
from .checks import check_close, check_known_mistakes, diagnose

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable

UNIT_MISTAKES = {
    "degrees": "looks like degrees were used where radians were expected (Rot/R take radians: use "
    "np.radians(...) or deg=True)",
    "twice": "looks like the angle was converted to radians twice (Rot/R take radians; it is in radians already)",
}
REVERSED = (
    "right matrices, wrong composition order: you multiplied them in reverse. Motions about the FIXED "
    "frame multiply on the LEFT (T = Tₙ···T₁); motions about the CURRENT frame on the right (T = T₁···Tₙ)"
)


def factor(f: Any, k: Any, unit_mistake: Any = None) -> Any:
    """A factor as a flat 4×4. ``unit_mistake`` builds it as a student who mixed up the units would:
    ``"degrees"``, the angle in degrees fed to cos/sin as radians; ``"twice"``, converted to radians again."""
    if isinstance(f, tuple) and f and isinstance(f[0], str):
        kind = f[0].lower()
        if kind in ("rot", "r"):
            theta = float(f[2])
            if len(f) > 3 and f[3] == "deg":
                theta = radians(theta)
            if unit_mistake == "degrees":
                theta = degrees(theta)
            elif unit_mistake == "twice":
                theta = radians(theta)
            return rot(f[1], theta, 4)
        if kind == "trans":
            return trans(*f[1:4])
        raise ValueError(f"unknown factor {f!r}")
    shape, flat = read(f, f"factors[{k}]")
    if shape != (4, 4):
        raise ValueError(f"factors[{k}] must be 4×4, got {fmt_shape(shape)}")
    return flat


def order_mistakes(mats: Any) -> Any:
    """{message: product} for the factors multiplied in the reverse and (up to 5 factors) any other order."""
    n = len(mats)
    out = {}
    if n > 1:
        out[REVERSED] = product(mats[::-1])
    if 2 < n <= 5:
        for perm in permutations(range(n)):
            if list(perm) not in (list(range(n)), list(range(n))[::-1]):
                message = (
                    "right matrices, wrong composition order (the factors are multiplied in the order "
                    f"{[p + 1 for p in perm]} instead of {[p + 1 for p in range(n)]})"
                )
                out.setdefault(message, product([mats[i] for i in perm]))
    return out


def unit_mistakes(factors: Any) -> Any:
    """{message: product of the factors built with that unit mistake}; empty without a rotation factor."""
    if not any(isinstance(f, tuple) and f and str(f[0]).lower() in ("rot", "r") for f in factors):
        return {}
    return {
        message: product([factor(f, k, unit_mistake=kind) for k, f in enumerate(factors)])
        for kind, message in UNIT_MISTAKES.items()
    }


def reference_transform(*factors: Any) -> Any:
    """The product of factors (left to right), computed with plain math, as nested lists."""
    return as_nested(product([factor(f, k) for k, f in enumerate(factors)]), (4, 4))


def check_transform(answer: Any, factors: Any, name: str = "T", atol: float = 1e-6) -> None:
    """Assert ``answer`` = factors[0]·factors[1]···, detecting a wrong composition order.

    If the answer equals the product in another order, or with an angle in degrees used as
    radians or converted to radians twice, the message says so.
    """
    mats = [factor(f, k) for k, f in enumerate(factors)]
    expected = product(mats)
    shape, a = read(answer, name)
    check_finite(a, name)
    if shape != (4, 4):
        shape_message(name, shape, (4, 4))
    if close(a, expected, atol):
        return
    for message, M in {**order_mistakes(mats), **unit_mistakes(factors)}.items():
        if close(a, M, atol + 1e-9):
            fail(name, message)
    diagnose(name, shape, a, expected, atol)


def check_point(answer: Any, factors: Any, p: Any, name: str = "p", atol: float = 1e-6) -> None:
    """Assert ``answer`` (a 3-vector) = (factors[0]·factors[1]···) · [p, 1], textbook eq. (3.16).

    Recognised mistakes: the homogeneous 4-vector, the inverse transform, the
    translation forgotten, the factors multiplied in the reverse order, an
    angle in degrees used as radians or converted to radians twice.
    """
    mats = [factor(f, k) for k, f in enumerate(factors)]
    T = product(mats)
    expected = apply(T, p)
    shape, a = read(answer, name)
    if shape == (4,) and close(a, expected + [1.0], atol):
        fail(name, "this is the homogeneous 4-vector [x, y, z, 1]; give the 3-vector (drop the last 1)")
    check_close(answer, expected, name=name, atol=atol, hints=point_mistakes(mats, factors, p))


def point_mistakes(mats: Any, factors: Any, p: Any) -> Any:
    """{message: wrong 3-vector} for T·[p, 1] with T = mats[0]·mats[1]···."""
    T = product(mats)
    Rt, t = transpose(rot_block(T, 4), 3), translation(T)
    hints = {
        "this is the inverse transform applied to p (you mapped {A} → {B} instead of {B} → {A})": [
            sum(Rt[i * 3 + j] * (float(p[j]) - t[j]) for j in range(3)) for i in range(3)
        ],
        "the translation is missing: only the rotation was applied (use the homogeneous point [x, y, z, 1])": [
            sum(T[i * 4 + j] * float(p[j]) for j in range(3)) for i in range(3)
        ],
    }
    if len(mats) > 1:
        hints["right matrices, wrong composition order (the factors are multiplied in reverse)"] = apply(
            product(mats[::-1]), p
        )
    for message, M in unit_mistakes(factors).items():
        hints[message] = apply(M, p)
    return hints


def check_motion_mistakes(
    answer: Any, motions: Any, frame: str, name: str = "T", p: Any = None, atol: float = 1e-6
) -> None:
    """Visible-test screen for a composition of motions: fail, naming the mistake, if ``answer`` is
    one of the usual wrong results; pass otherwise (the hidden tests decide whether it is right).

    ``motions`` are factors as in :func:`check_transform`, in the order the statement applies them,
    and ``frame`` says about which axes: ``"fixed"`` (T = Mₙ···M₁) or ``"current"`` (T = M₁···Mₙ).
    So a test cell repeats only the statement's data, not the order of the product. With ``p`` the
    answer is the 3-vector T·[p, 1]. Recognised: the factors in the reverse or another order, an
    angle in degrees used as radians or converted twice, and for a point also the inverse transform
    and a forgotten translation.

    >>> motions = [("Rot", "z", 90, "deg"), ("Trans", 1, 0, 0)]
    >>> check_motion_mistakes(reference_transform(*motions), motions, "fixed", name="T")
    Traceback (most recent call last):
        ...
    AssertionError: T: right matrices, wrong composition order: you multiplied them in reverse. Motions about the FIXED frame multiply on the LEFT (T = Tₙ···T₁); motions about the CURRENT frame on the right (T = T₁···Tₙ)
    >>> check_motion_mistakes(reference_transform(*motions[::-1]), motions, "fixed", name="T")
    """
    if frame not in ("fixed", "current"):
        raise ValueError(f"frame must be 'fixed' or 'current', got {frame!r}")
    factors = list(motions)[::-1] if frame == "fixed" else list(motions)
    mats = [factor(f, k) for k, f in enumerate(factors)]
    if p is None:
        mistakes = {
            message: as_nested(M, (4, 4)) for message, M in {**order_mistakes(mats), **unit_mistakes(factors)}.items()
        }
    else:
        mistakes = point_mistakes(mats, factors, p)
    right = product(mats) if p is None else apply(product(mats), p)
    _, a = read(answer, name)
    if not close(a, right, atol):
        check_known_mistakes(answer, mistakes, name=name, atol=atol)


def check_rotation(
    answer: Any, axis: str, theta: float, name: str = "R", deg: bool = False, atol: float = 1e-6
) -> None:
    """Assert ``answer`` is the rotation about ``axis`` by ``theta`` (3×3 or 4×4, by answer shape).

    The reference is re-derived with plain math (textbook eqs. (3.6)–(3.8),
    (3.19)–(3.21)); recognised mistakes: transpose/−θ, degrees fed to
    cos/sin, wrong axis, wrong shape.
    """
    t = radians(float(theta)) if deg else float(theta)
    shape, _ = read(answer, name)
    size = 3 if shape == (3, 3) else 4
    axis = str(axis).lower()
    hints = {
        f"this is a rotation about {other}, expected a rotation about {axis}": as_nested(
            rot(other, t, size), (size, size)
        )
        for other in "xyz"
        if other != axis
    }
    hints["looks like degrees were used where radians were expected (cos and sin take radians)"] = as_nested(
        rot(axis, degrees(t), size), (size, size)
    )
    hints["looks like the angle was converted to radians twice"] = as_nested(rot(axis, radians(t), size), (size, size))
    check_close(answer, as_nested(rot(axis, t, size), (size, size)), name=name, atol=atol, hints=hints)


def check_rot_function(
    fn: Callable[..., Any], name: str = "my_Rot", size: int = 4, angles: Any = (0.0, 0.3, -1.2, 2.5), atol: float = 1e-9
) -> None:
    """Assert ``fn(axis, θ)`` equals Rot(axis, θ) (size 4) or R(axis, θ) (size 3) for x, y, z and several θ."""
    for axis in "xyz":
        for t in angles:
            label = f"{name}({axis!r}, {t})"
            R = call(fn, (axis, t), name)
            shape, _ = read(R, label)
            if shape != (size, size):
                shape_message(label, shape, (size, size))
            check_rotation(R, axis, t, name=label, atol=atol)


def check_trans_function(
    fn: Callable[..., Any],
    name: str = "my_Trans",
    cases: Any = ((0.0, 0.0, 0.0), (1.0, -2.0, 0.5), (0.3, 4.0, -7.0)),
    atol: float = 1e-9,
) -> None:
    """Assert ``fn(dx, dy, dz)`` equals Trans(dx, dy, dz), textbook eq. (3.18)."""
    for dx, dy, dz in cases:
        T = call(fn, (dx, dy, dz), name)
        check_close(
            T,
            as_nested(trans(dx, dy, dz), (4, 4)),
            name=f"{name}({dx}, {dy}, {dz})",
            atol=atol,
            hints={
                "the translation is in the bottom row instead of the last column (transposed)": as_nested(
                    transpose(trans(dx, dy, dz), 4), (4, 4)
                ),
            },
        )


def check_point_function(
    fn: Callable[..., Any],
    name: str = "to_frame_A",
    cases: Any = (((("Rot", "z", 30, "deg"), ("Trans", 1, 2, 3)), (1, 0, 0)),),
    atol: float = 1e-9,
) -> None:
    """Assert ``fn(T, p)`` = T·[p, 1] as a 3-vector (textbook eq. (3.16)) for each case ``(factors, p)``: ``T`` is the
    product of ``factors``, given to ``fn`` as a 4×4 array and ``p`` as a 3-vector; the mistakes of
    :func:`check_point` are named."""
    for factors, p in cases:
        T = as_nested(product([factor(f, k) for k, f in enumerate(factors)]), (4, 4))
        check_point(call(fn, arrays(T, p), name), factors, p, name=f"{name}(T, {tuple(p)})", atol=atol)


freeze(__name__)
