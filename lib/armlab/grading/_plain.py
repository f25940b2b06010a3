"""The plain-math references hw05–hw08's checkers (statics, dynamics, control) still use: flat row-major
matrices as lists of floats, matrix·vector and cross products, elementary rotations (textbook eqs.
(3.6)–(3.8)), and atan2 from arithmetic alone. Homework on answer keys needs none of it: delete this module
when those four are converted (issue #30).

Nothing here calls numpy, sympy or ``armlab``: a reference cannot be moved by patching them.
"""

from __future__ import annotations

from ._builtins import *  # noqa: F403  (the captured builtins shadow the live ones)
from ._frozen import cos, freeze, pi, sin, sqrt

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

TAU = 2.0 * pi
AXES = {"x": 0, "y": 1, "z": 2}


# --- flat matrices --------------------------------------------------------------------------------
def identity(n: int) -> list[Any]:
    return [1.0 if i % (n + 1) == 0 else 0.0 for i in range(n * n)]


def transpose(flat: Any, n: int) -> list[Any]:
    return [flat[j * n + i] for i in range(n) for j in range(n)]


def matmul(A: Any, B: Any, n: int) -> list[Any]:
    """Product of two n×n matrices."""
    return [sum(A[i * n + k] * B[k * n + j] for k in range(n)) for i in range(n) for j in range(n)]


def matvec(M: Any, v: Any, n: int) -> list[Any]:
    """M·v for an n×n M (flat) and an n-vector."""
    return [sum(M[i * n + k] * v[k] for k in range(n)) for i in range(n)]


def cross(a: Any, b: Any) -> list[Any]:
    """a × b of two 3-vectors."""
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


# --- elementary transforms ------------------------------------------------------------------------
def rot(axis: str, theta: float, size: int = 4) -> Any:
    """R(axis, θ) (size 3) or Rot(axis, θ) (size 4), textbook (3.6)–(3.8), (3.19)–(3.21)."""
    i = AXES[str(axis).lower()]
    j, k = (i + 1) % 3, (i + 2) % 3
    c, s = cos(float(theta)), sin(float(theta))
    M = identity(size)
    M[j * size + j], M[j * size + k], M[k * size + j], M[k * size + k] = c, -s, s, c
    return M


# --- angles -------------------------------------------------------------------------------------
def wrap(x: Any) -> Any:
    """x wrapped into (−π, π]."""
    r = (x + pi) % TAU - pi
    return r + TAU if r <= -pi else r


def atan(x: Any) -> Any:
    """arctan with plain arithmetic: two half-angle reductions, then the Taylor series (|err| < 1e-16)."""
    if x < 0.0:
        return -atan(-x)
    if x > 1.0:
        return 0.5 * pi - atan(1.0 / x)
    for _ in range(2):  # atan(x) = 2·atan(x / (1 + √(1 + x²)))
        x = x / (1.0 + sqrt(1.0 + x * x))
    x2, term, total = x * x, x, x
    for k in range(1, 30):
        term *= -x2
        total += term / (2 * k + 1)
    return 4.0 * total


def atan2(y: Any, x: Any) -> Any:
    """atan2 from :func:`atan`, so patching ``math.atan2`` or ``numpy.arctan2`` changes nothing."""
    if x > 0.0:
        return atan(y / x)
    if x < 0.0:
        return atan(y / x) + (pi if y >= 0.0 else -pi)
    if y > 0.0:
        return 0.5 * pi
    if y < 0.0:
        return -0.5 * pi
    return 0.0


freeze(__name__)
