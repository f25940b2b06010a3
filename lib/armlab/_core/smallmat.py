"""3-vectors and 3×3 matrices as nested lists of scalars.

The scalars may be Python floats, numpy arrays (one entry per configuration of a batch), sympy
expressions, or :class:`armlab._core.codegen.Var` (recording straight-line code). So one recursion,
written once with these helpers, serves numbers, batches, symbols and compiled kernels.
"""

from __future__ import annotations

from typing import Any, Sequence

#: A 3-vector and a 3×3 matrix (rows) of scalars of any kind.
Vec = Sequence[Any]
Mat = Sequence[Sequence[Any]]


def mv(R: Mat, v: Vec) -> list[Any]:
    """R·v."""
    return [R[i][0] * v[0] + R[i][1] * v[1] + R[i][2] * v[2] for i in range(3)]


def mtv(R: Mat, v: Vec) -> list[Any]:
    """Rᵀ·v."""
    return [R[0][i] * v[0] + R[1][i] * v[1] + R[2][i] * v[2] for i in range(3)]


def mm(A: Mat, B: Mat) -> list[list[Any]]:
    """A·B."""
    return [[A[i][0] * B[0][j] + A[i][1] * B[1][j] + A[i][2] * B[2][j] for j in range(3)] for i in range(3)]


def cross(a: Vec, b: Vec) -> list[Any]:
    """a × b."""
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def add(a: Vec, b: Vec) -> list[Any]:
    return [x + y for x, y in zip(a, b)]


def sub(a: Vec, b: Vec) -> list[Any]:
    return [x - y for x, y in zip(a, b)]


def scale(k: Any, a: Vec) -> list[Any]:
    return [k * x for x in a]


def dot(a: Vec, b: Vec) -> Any:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def transpose(R: Mat) -> list[list[Any]]:
    return [[R[j][i] for j in range(3)] for i in range(3)]


def columns(R: Mat) -> list[list[Any]]:
    """The three columns of R as vectors (n, o, a of a rotation)."""
    return [[R[0][j], R[1][j], R[2][j]] for j in range(3)]
