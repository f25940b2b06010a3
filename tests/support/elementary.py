"""Elementary transforms written out independently of armlab, so that a bug in armlab.transforms
cannot hide on both sides of a cross-check."""

from __future__ import annotations

import math

import numpy as np


def rotx(t):
    c, s = math.cos(t), math.sin(t)
    return np.array([[1, 0, 0, 0], [0, c, -s, 0], [0, s, c, 0], [0, 0, 0, 1.0]])


def rotz(t):
    c, s = math.cos(t), math.sin(t)
    return np.array([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])


def tx(a):
    T = np.eye(4)
    T[0, 3] = a
    return T


def tz(d):
    T = np.eye(4)
    T[2, 3] = d
    return T


def vee(S):
    """Vector of the antisymmetric part of a 3×3 matrix."""
    return 0.5 * np.array([S[2, 1] - S[1, 2], S[0, 2] - S[2, 0], S[1, 0] - S[0, 1]])
