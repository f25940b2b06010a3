"""Argument checks: one error policy for the whole library.

Bad input raises a TypeError or ValueError that names the argument and says what was expected:
a wrong shape, NaN or infinity, complex numbers, strings. Nothing is silently converted.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

if TYPE_CHECKING:  # numpy.typing costs import time; annotations only
    from numpy.typing import ArrayLike

from .symbolic import is_symbolic, sympy

#: How far a pose may be from a rigid transform (orthonormality error, last row).
RIGID_TOL = 1e-6


def as_float_array(value: Any, name: str, shape_tail: tuple[int, ...] = (), allow_batch: bool = True) -> np.ndarray:
    """``value`` as a float array, or a clear TypeError/ValueError naming ``name``.

    ``shape_tail`` is the required trailing shape, e.g. ``(4, 4)``; leading
    batch dimensions are allowed when ``allow_batch`` is true.

    >>> as_float_array([1, 2], "q", (2,)).tolist()
    [1.0, 2.0]
    >>> as_float_array([1 + 1j, 0], "q")
    Traceback (most recent call last):
    ...
    TypeError: q must be real numbers, got complex values: array([1.+1.j, 0.+0.j])
    """
    try:
        arr = np.asarray(value)
        if arr.dtype.kind == "c" or (arr.dtype.kind == "O" and _has_complex(arr)):
            raise TypeError(f"{name} must be real numbers, got complex values: {arr!r:.80}")
        if arr.dtype.kind in "USO" and not _numbers_only(arr):
            raise ValueError
        arr = arr.astype(float, copy=False)
    except TypeError as e:
        if str(e).startswith(name):
            raise
        raise _not_numbers(value, name) from None
    except ValueError:
        raise _not_numbers(value, name) from None
    k = len(shape_tail)
    if arr.shape[arr.ndim - k :] != shape_tail or arr.ndim < k or (not allow_batch and arr.ndim != k):
        want = f"(..., {', '.join(map(str, shape_tail))})" if allow_batch and k else str(shape_tail)
        raise ValueError(f"{name} must have shape {want}, got shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN or infinity: {arr!r:.120}")
    return arr


def _not_numbers(value, name):
    return TypeError(f"{name} must be a number or an array of numbers, got {type(value).__name__}: {value!r:.80}")


def _has_complex(arr) -> bool:
    return any(isinstance(x, (complex, np.complexfloating)) for x in arr.flat)


def _numbers_only(arr) -> bool:
    """Object arrays of real numbers are fine; strings are not numbers, even "90"."""
    return arr.dtype.kind == "O" and all(
        isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool) for x in arr.flat
    )


def check_finite(values: np.ndarray, name: str) -> None:
    """Fast NaN/inf check for a short 1-D float array."""
    if not math.isfinite(sum(values.tolist())):
        raise ValueError(f"{name} contains NaN or infinity: {values!r:.120}")


def rigid_error(rows: Sequence[Any] | np.ndarray) -> Any:
    """How far a pose is from a rigid transform: orthonormal R with det +1 and last row 0 0 0 1.

    ``rows`` are the 4 rows of T: lists of floats for one pose (gives a float), or arrays with the
    batch as their last axis, ``T.transpose(1, 2, 0)`` (gives one error per pose). Right-handedness
    is tested as a = n × o, which also rules out det −1.
    """
    (nx, ox, ax, _), (ny, oy, ay, _), (nz, oz, az, _), last = rows
    terms = (
        nx * nx + ny * ny + nz * nz - 1.0,
        ox * ox + oy * oy + oz * oz - 1.0,
        nx * ox + ny * oy + nz * oz,
        ny * oz - nz * oy - ax,
        nz * ox - nx * oz - ay,
        nx * oy - ny * ox - az,
        abs(last[0]) + abs(last[1]) + abs(last[2]) + abs(last[3] - 1.0),
    )
    if isinstance(nx, float):
        return max(abs(t) for t in terms)
    return np.maximum.reduce([np.abs(t) for t in terms])


def _rigid_message(name, err):
    return (
        f"{name} is not a rigid transform (rotation part not orthonormal with det +1, or last row "
        f"not [0, 0, 0, 1]; error {err:.2g} > {RIGID_TOL:g})"
    )


def check_rigid(T: ArrayLike, name: str) -> None:
    """Raise ValueError unless every pose in T (…, 4, 4) is a rigid transform."""
    T = np.asarray(T, dtype=float)
    err = rigid_error(np.moveaxis(T.reshape(-1, 4, 4), 0, -1))
    worst = float(err.max(initial=0.0))
    if worst > RIGID_TOL:
        raise ValueError(_rigid_message(name, worst))


def check_pose(T: ArrayLike, name: str = "T") -> list[list[float]]:
    """One pose T (4, 4) as a list of 4 rows of floats, or a ValueError naming T (shape, NaN, not rigid)."""
    if not (type(T) is np.ndarray and T.shape == (4, 4) and T.dtype == float):
        T = np.asarray(as_float_array(T, name, (4, 4), allow_batch=False), dtype=float)
    rows = T.tolist()
    if not math.isfinite(sum(rows[0]) + sum(rows[1]) + sum(rows[2]) + sum(rows[3])):
        raise ValueError(f"{name} contains NaN or infinity: {T!r:.200}")
    err = rigid_error(rows)
    if err > RIGID_TOL:
        raise ValueError(f"{_rigid_message(name, err)}: {T!r:.200}")
    return rows


def check_poses(T: ArrayLike, name: str = "T", rigid: bool = True) -> np.ndarray:
    """A batch T (N, 4, 4) as a float array, or a ValueError naming T and the first bad pose.

    ``rigid=False`` leaves the rigid-transform test to the caller (:func:`rigid_error` on
    cache-sized chunks, then :func:`raise_if_not_rigid`).
    """
    T = as_float_array(T, name, (4, 4))
    if T.ndim != 3:
        raise ValueError(f"{name} must have shape (N, 4, 4) for a batch, got shape {T.shape}")
    if rigid:
        raise_if_not_rigid(rigid_error(np.ascontiguousarray(T.transpose(1, 2, 0))), name)
    return T


def raise_if_not_rigid(err: np.ndarray, name: str = "T") -> None:
    """Raise a ValueError naming the first pose whose :func:`rigid_error` is too large."""
    bad = np.flatnonzero(err > RIGID_TOL)
    if len(bad):
        i = int(bad[0])
        raise ValueError(f"{_rigid_message(f'{name}[{i}]', err[i])}; {len(bad)} bad pose(s) in the batch")


def joint_vector(q: Any, n: int, name: str = "q", *, symbolic: bool | None = None, batch: bool = True) -> Any:
    """The one joint-argument check behind every public entry point.

    Numbers give a float array of shape (..., n) (``batch=False``: exactly (n,)); sympy input, or
    ``symbolic=True``, gives a list of n sympified entries. Complex values, NaN or infinity,
    strings and a wrong length raise a TypeError or ValueError that names ``name``.

    >>> joint_vector([0, 1], 2).tolist()
    [0.0, 1.0]
    >>> joint_vector([0, 1j], 2)
    Traceback (most recent call last):
    ...
    TypeError: q must be real numbers, got complex values: array([0.+0.j, 0.+1.j])
    >>> joint_vector([0, 1, 2], 2, "q0")
    Traceback (most recent call last):
    ...
    ValueError: q0 must have 2 joint values (shape (..., 2)), got shape (3,)
    """
    if symbolic or (symbolic is None and is_symbolic(q)):
        sp = sympy()
        try:
            values = [sp.sympify(x, strict=True) for x in q]
        except (TypeError, sp.SympifyError):
            raise TypeError(f"{name} must be {n} numbers or sympy expressions, got {q!r:.80}") from None
        if len(values) != n:
            raise ValueError(f"{name} must have {n} joint values, got {len(values)}")
        if any(v.is_real is False for v in values):
            raise TypeError(f"{name} must be real, got {values!r:.80}")
        return values
    arr = as_float_array(q, name)
    if arr.ndim == 0 or arr.shape[-1] != n or (not batch and arr.ndim != 1):
        want = f"(..., {n})" if batch else f"({n},)"
        raise ValueError(f"{name} must have {n} joint values (shape {want}), got shape {arr.shape}")
    return arr


def check_joint_values(values, n, name="q0"):
    """``values`` as a list of n finite floats, or an error naming the argument (see :func:`joint_vector`)."""
    return joint_vector(values, n, name, symbolic=False, batch=False).tolist()


def check_joint_batch(values, N, n, name="q0"):
    """None, or ``values`` ((n,) for every pose, or (N, n)) as an (N, n) array; else an error naming it."""
    if values is None:
        return None
    arr = joint_vector(values, n, name, symbolic=False)
    if arr.shape not in ((n,), (N, n)):
        raise ValueError(f"{name} must have shape ({n},) or ({N}, {n}), got shape {arr.shape}")
    return np.broadcast_to(arr, (N, n))
