"""Input checking and the numeric/symbolic switch shared by every module.

Functions take floats, numpy arrays with leading batch dimensions, or sympy
expressions. sympy is only imported when the caller already uses it, so
``import armlab`` stays fast.
"""
from __future__ import annotations

import math
import sys

import numpy as np


def sympy():
    """The sympy module, imported on first use."""
    import sympy as sp

    return sp


def is_symbolic(*values) -> bool:
    """True if any value is (or contains) a sympy object."""
    sp = sys.modules.get("sympy")
    if sp is None:  # nothing can be symbolic before sympy is imported
        return False
    return any(_has_sym(v, sp) for v in values)


def _has_sym(v, sp) -> bool:
    if isinstance(v, (sp.Basic, sp.MatrixBase)):
        return True
    if isinstance(v, (list, tuple)):
        return any(_has_sym(x, sp) for x in v)
    if isinstance(v, np.ndarray) and v.dtype == object:
        return any(_has_sym(x, sp) for x in v.flat)
    return False


def as_float_array(value, name: str, shape_tail: tuple = (), allow_batch: bool = True) -> np.ndarray:
    """``value`` as a float array, or a clear TypeError/ValueError naming ``name``.

    ``shape_tail`` is the required trailing shape, e.g. ``(4, 4)``; leading
    batch dimensions are allowed when ``allow_batch`` is true.
    """
    try:
        arr = np.asarray(value)
        if arr.dtype.kind in "USO" and not _numbers_only(arr):
            raise TypeError
        arr = arr.astype(float, copy=False)
    except (TypeError, ValueError):
        raise TypeError(
            f"{name} must be a number or an array of numbers, got {type(value).__name__}: {value!r:.80}"
        ) from None
    k = len(shape_tail)
    if arr.shape[arr.ndim - k:] != shape_tail or arr.ndim < k or (not allow_batch and arr.ndim != k):
        want = f"(..., {', '.join(map(str, shape_tail))})" if allow_batch and k else str(shape_tail)
        raise ValueError(f"{name} must have shape {want}, got shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN or infinity: {arr!r:.120}")
    return arr


def _numbers_only(arr) -> bool:
    """Object arrays of numbers are fine; strings are not numbers, even "90"."""
    return arr.dtype.kind == "O" and all(
        isinstance(x, (int, float, np.number)) and not isinstance(x, bool) for x in arr.flat)


def check_rigid(T, name: str, tol: float = 1e-6) -> None:
    """Raise ValueError unless T (…, 4, 4) is a rigid transform: orthonormal R, det +1, last row 0 0 0 1."""
    R = T[..., :3, :3]
    ok = (np.abs(np.swapaxes(R, -1, -2) @ R - np.eye(3)).max(initial=0) < tol
          and np.abs(T[..., 3, :] - [0, 0, 0, 1]).max(initial=0) < tol
          and np.all(np.linalg.det(R) > 0))
    if not ok:
        raise ValueError(f"{name} must be a rigid homogeneous transform [[R, p], [0, 0, 0, 1]] "
                         f"with R orthonormal and det R = +1")


def check_finite(values, name: str) -> None:
    """Fast NaN/inf check for a short 1-D float array."""
    if not math.isfinite(sum(values.tolist())):
        raise ValueError(f"{name} contains NaN or infinity: {values!r:.120}")


def exact_angle(x):
    """A float angle that is a multiple of pi/12 becomes an exact sympy multiple of pi.

    DH tables store angles such as -pi/2 as floats; cos(-pi/2) as a float is
    6e-17, which would leave spurious terms in symbolic results.
    """
    sp = sympy()
    if isinstance(x, sp.Basic):
        return x
    k = float(x) / (math.pi / 12)
    if abs(k - round(k)) < 1e-9:
        return sp.pi * sp.Rational(int(round(k)), 12)
    return sp.Float(x)


def exact_number(x):
    """A float length for symbolic use: integers stay exact, others stay floats."""
    sp = sympy()
    if isinstance(x, sp.Basic):
        return x
    if float(x) == int(x):
        return sp.Integer(int(x))
    return sp.Float(x)


def exact_entry(x):
    """A matrix entry for symbolic use: 0, ±1 and ±1/2 become exact, other floats stay Float."""
    sp = sympy()
    if isinstance(x, sp.Basic) and not x.is_Float:
        return x
    v = float(x)
    for exact in (0, 1, -1, sp.Rational(1, 2), -sp.Rational(1, 2)):
        if abs(v - float(exact)) < 1e-15:
            return sp.sympify(exact)
    return sp.Float(v)


def sym_matrix(M):
    """Any matrix (numpy or sympy) as a sympy Matrix with exact simple entries."""
    return sympy().Matrix(M).applyfunc(exact_entry)
