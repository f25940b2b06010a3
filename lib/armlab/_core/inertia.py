"""The parallel-axis theorem, once: moving an inertia tensor off the centre of mass."""

from __future__ import annotations

from typing import Any

import numpy as np

from .symbolic import is_symbolic, sympy


def shift_inertia(I_c: Any, m: Any, d: Any) -> Any:
    """Inertia about a point O from the inertia ``I_c`` about the centre of mass (Steiner):
    I_O = I_c + m·(|d|²·E − d·dᵀ), with ``d`` the vector from O to the centre of mass.

    Floats give a (3, 3) array; sympy entries give a sympy Matrix.

    >>> shift_inertia(np.zeros((3, 3)), 2.0, [0.0, 0.0, 1.0]).diagonal().tolist()
    [2.0, 2.0, 0.0]
    """
    if is_symbolic(I_c, m, *d):
        sp = sympy()
        d = sp.Matrix(d)
        return sp.Matrix(I_c) + m * ((d.T * d)[0] * sp.eye(3) - d * d.T)
    d = np.asarray(d, dtype=float)
    return np.asarray(I_c, dtype=float) + m * (np.dot(d, d) * np.eye(3) - np.outer(d, d))
