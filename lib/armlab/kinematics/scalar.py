"""The DH chain as scalar recursions: link rotations and origins as nested lists of scalars.

Jacobians, statics and Newton–Euler walk the chain link by link with these. A *backend* supplies
cos/sin and the link constants: :class:`SympyBackend` gives exact symbolic results,
:class:`NumpyBackend` numbers (floats or batches), and :class:`armlab._core.codegen.Tracer`
records straight-line code that is compiled once per robot.
"""
from __future__ import annotations


import numpy as np

from .._core import smallmat as sm
from .._core.symbolic import exact_angle, exact_number, sym_matrix, sympy

# ints, not floats: exact in sympy, and floats or numpy promote them as usual
IDENTITY = ([[1, 0, 0], [0, 1, 0], [0, 0, 1]], [0, 0, 0])


class NumpyBackend:
    """Numbers: cos/sin of numpy (works on floats and on batches)."""

    cos, sin = staticmethod(np.cos), staticmethod(np.sin)

    @staticmethod
    def angle(x):
        return float(x)

    length = angle

    @staticmethod
    def fixed(T):
        T = np.asarray(T, dtype=float)
        return [[float(T[i][j]) for j in range(3)] for i in range(3)], [float(T[i][3]) for i in range(3)]


class SympyBackend:
    """Exact symbols: −π/2 stays exact, integers stay integers."""

    @staticmethod
    def cos(x):
        return sympy().cos(x)

    @staticmethod
    def sin(x):
        return sympy().sin(x)

    angle = staticmethod(exact_angle)
    length = staticmethod(exact_number)

    @staticmethod
    def fixed(T):
        M = sym_matrix(T)
        return [[M[i, j] for j in range(3)] for i in range(3)], [M[i, 3] for i in range(3)]


class TracerBackend:
    """Adapts a Tracer (constants stay floats and fold away)."""

    def __init__(self, tracer):
        self.cos, self.sin = tracer.cos, tracer.sin

    angle = length = staticmethod(float)
    fixed = staticmethod(NumpyBackend.fixed)


def link_Rp(link, qi, modified, B):
    """(R, p) of one link transform at joint value qi: textbook (3.23) if ``modified``, else (2.4)."""
    if link.revolute:
        th, d = qi + B.angle(link.offset), B.length(link.d)
    else:
        th, d = B.angle(link.theta), qi + B.length(link.offset)
    a, al = B.length(link.a), B.angle(link.alpha)
    ct, st, ca, sa = B.cos(th), B.sin(th), B.cos(al), B.sin(al)
    if modified:  # Rx(α)·Tx(a)·Rz(θ)·Tz(d)
        return [[ct, -st, 0], [st * ca, ct * ca, -sa], [st * sa, ct * sa, ca]], [a, -sa * d, ca * d]
    # Rz(θ)·Tz(d)·Tx(a)·Rx(α)
    return [[ct, -st * ca, st * sa], [st, ct * ca, -ct * sa], [0, sa, ca]], [a * ct, a * st, d]


def compose(A, B):
    """(R, p) of A·B."""
    (Ra, pa), (Rb, pb) = A, B
    return sm.mm(Ra, Rb), sm.add(sm.mv(Ra, pb), pa)


def chain(robot, q, B):
    """Base, every link transform and the tool of ``robot`` at ``q``, as (R, p) pairs:
    (base, [link 1 … link n], tool); base and tool are IDENTITY when the robot has none."""
    base = IDENTITY if robot.base is None else B.fixed(robot.base)
    tool = IDENTITY if robot.tool is None else B.fixed(robot.tool)
    return base, [link_Rp(link, qi, robot.modified, B) for link, qi in zip(robot.links, q)], tool


def backend_for(symbolic: bool):
    return SympyBackend if symbolic else NumpyBackend


def to_matrix(rows, symbolic):
    """A nested list of scalars as a sympy Matrix or a numpy array (batch axes last → first)."""
    if symbolic:
        return sympy().Matrix(rows)
    arr = np.array(np.broadcast_arrays(*[np.asarray(x, float) for r in rows for x in r]))
    shape = (len(rows), len(rows[0]))
    return np.moveaxis(arr.reshape(shape + arr.shape[1:]), (0, 1), (-2, -1)) if arr.ndim > 1 else arr.reshape(shape)


__all__ = ["link_Rp", "compose", "chain", "IDENTITY", "NumpyBackend", "SympyBackend", "TracerBackend",
           "backend_for", "to_matrix"]
