"""The numeric/symbolic switch shared by every module.

Functions take floats, numpy arrays with leading batch dimensions, or sympy
expressions. sympy is only imported when the caller already uses it, so
``import armlab`` stays fast.
"""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np


def sympy() -> Any:
    """The sympy module, imported on first use."""
    import sympy as sp

    return sp


def is_symbolic(*values: Any) -> bool:
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


def exact_angle(x: Any) -> Any:
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


def exact_number(x: Any) -> Any:
    """A float length for symbolic use: integers stay exact, others stay floats."""
    sp = sympy()
    if isinstance(x, sp.Basic):
        return x
    if float(x) == int(x):
        return sp.Integer(int(x))
    return sp.Float(x)


def exact_entry(x: Any) -> Any:
    """A matrix entry for symbolic use: 0, ±1 and ±1/2 become exact, other floats stay Float."""
    sp = sympy()
    if isinstance(x, sp.Basic) and not x.is_Float:
        return x
    v = float(x)
    for exact in (0, 1, -1, sp.Rational(1, 2), -sp.Rational(1, 2)):
        if abs(v - float(exact)) < 1e-15:
            return sp.sympify(exact)
    return sp.Float(v)


def sym_matrix(M: Any) -> Any:
    """Any matrix (numpy or sympy) as a sympy Matrix with exact simple entries."""
    return sympy().Matrix(M).applyfunc(exact_entry)
