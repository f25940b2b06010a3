"""Angle wrapping, in one convention for the whole library: (−π, π]."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # numpy.typing costs import time; annotations only
    from numpy.typing import ArrayLike

PI = math.pi
TAU = 2.0 * math.pi


def wrap_scalar(x: float) -> float:
    """One float angle wrapped to (−π, π] (the fast path for generated and per-solution code)."""
    if -PI < x <= PI:
        return x
    r = math.remainder(x, TAU)
    return r + TAU if r <= -PI else r


def wrap_angle(x: float | ArrayLike) -> float | np.ndarray:
    """Angle(s) wrapped to (−π, π].

    >>> wrap_angle(np.pi), wrap_angle(-np.pi), round(wrap_angle(3 * np.pi / 2), 6)
    (3.141592653589793, 3.141592653589793, -1.570796)
    """
    if isinstance(x, float):
        return wrap_scalar(x)
    x = np.asarray(x, dtype=float)
    r = np.remainder(x + PI, TAU) - PI  # [−π, π) first, then move −π up to π
    return np.where(r <= -PI, r + TAU, r)
