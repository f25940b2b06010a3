"""The one plain-math reference copy every checker uses: flat row-major matrices as lists of
floats, matrix·vector and cross products, elementary rotations and translations (textbook eqs.
(3.18)–(3.21)), the DH link matrices (textbook (3.23), lab report (2.4)), a DH chain, and atan2 from
arithmetic alone.

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


def product(mats: Any, n: int = 4) -> Any:
    """mats[0]·mats[1]···; the identity for none."""
    out = identity(n)
    for M in mats:
        out = matmul(out, M, n)
    return out


def apply(T: Any, p: Any) -> list[Any]:
    """The 3-vector T·[p, 1] for a 4×4 T."""
    ph = [float(x) for x in p] + [1.0]
    return [sum(T[i * 4 + j] * ph[j] for j in range(4)) for i in range(3)]


def rot_block(flat: Any, n: int) -> list[Any]:
    """The upper-left 3×3 block of an n×n matrix."""
    return [flat[i * n + j] for i in range(3) for j in range(3)]


def translation(T: Any) -> list[Any]:
    """The translation column of a 4×4."""
    return [T[3], T[7], T[11]]


def matvec(M: Any, v: Any, n: int) -> list[Any]:
    """M·v for an n×n M (flat) and an n-vector."""
    return [sum(M[i * n + k] * v[k] for k in range(n)) for i in range(n)]


def cross(a: Any, b: Any) -> list[Any]:
    """a × b of two 3-vectors."""
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def as_nested(flat: Any, shape: Any) -> Any:
    """A flat list as nested lists of ``shape`` (one or two dimensions)."""
    if len(shape) == 1:
        return list(flat)
    n, m = shape
    return [flat[i * m : (i + 1) * m] for i in range(n)]


def orthonormal_error(R9: Any) -> Any:
    """max |R·Rᵀ − I| of a 3×3."""
    RRt = matmul(R9, transpose(R9, 3), 3)
    return max(abs(RRt[i] - (1.0 if i in (0, 4, 8) else 0.0)) for i in range(9))


def det3(R: Any) -> Any:
    return R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) + R[2] * (R[3] * R[7] - R[4] * R[6])


def last_row_ok(T: Any, tol: float) -> Any:
    """The last row of a 4×4 is [0, 0, 0, 1]."""
    return all(abs(x - y) <= tol for x, y in zip(T[12:], (0.0, 0.0, 0.0, 1.0)))


def is_rotation_like(shape: Any, flat: Any) -> bool:
    """True for a 3×3 rotation or a 4×4 homogeneous transform with a rotation block."""
    if shape == (3, 3):
        R = flat
    elif shape == (4, 4) and last_row_ok(flat, 1e-9):
        R = rot_block(flat, 4)
    else:
        return False
    return orthonormal_error(R) < 1e-6 and det3(R) > 0


# --- elementary transforms ------------------------------------------------------------------------
def rot(axis: str, theta: float, size: int = 4) -> Any:
    """R(axis, θ) (size 3) or Rot(axis, θ) (size 4), textbook (3.6)–(3.8), (3.19)–(3.21)."""
    i = AXES[str(axis).lower()]
    j, k = (i + 1) % 3, (i + 2) % 3
    c, s = cos(float(theta)), sin(float(theta))
    M = identity(size)
    M[j * size + j], M[j * size + k], M[k * size + j], M[k * size + k] = c, -s, s, c
    return M


def trans(dx: Any, dy: Any, dz: Any) -> list[Any]:
    """Trans(dx, dy, dz), textbook (3.18)."""
    return [1.0, 0.0, 0.0, float(dx), 0.0, 1.0, 0.0, float(dy), 0.0, 0.0, 1.0, float(dz), 0.0, 0.0, 0.0, 1.0]


def link_modified(alpha: Any, a: Any, theta: float, d: Any) -> list[Any]:
    """Rx(α)·Tx(a)·Rz(θ)·Tz(d), textbook (3.23)."""
    ct, st, ca, sa = cos(theta), sin(theta), cos(alpha), sin(alpha)
    return [ct, -st, 0.0, a, st * ca, ct * ca, -sa, -sa * d, st * sa, ct * sa, ca, ca * d, 0.0, 0.0, 0.0, 1.0]


def link_standard(theta: float, d: Any, a: Any, alpha: Any) -> list[Any]:
    """Rz(θ)·Tz(d)·Tx(a)·Rx(α), lab report (2.4)."""
    ct, st, ca, sa = cos(theta), sin(theta), cos(alpha), sin(alpha)
    return [ct, -st * ca, st * sa, a * ct, st, ct * ca, -ct * sa, a * st, 0.0, sa, ca, d, 0.0, 0.0, 0.0, 1.0]


def fk(convention: str, rows: Any, base: Any, tool: Any, q: Any) -> Any:
    """End pose (flat 4×4) of DH ``rows`` = [(joint "R"/"P", a, α, d, θ, offset), ...] at ``q``."""
    mats = [base] if base is not None else []
    for (joint, a, alpha, d, theta, offset), qi in zip(rows, q):
        if joint == "R":
            theta = qi + offset
        else:
            d = qi + offset
        mats.append(
            link_modified(alpha, a, theta, d) if convention == "modified" else link_standard(theta, d, a, alpha)
        )
    if tool is not None:
        mats.append(tool)
    return product(mats)


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
