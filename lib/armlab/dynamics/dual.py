"""Dual numbers a + b·ε (ε² = 0) over any scalar type, for exact derivatives of a recursion.

Running M(q)-by-RNE on q + q̇·ε gives M and Ṁ = dM/dt together, exactly; the scalar recursions
of :mod:`armlab.kinematics.scalar` run on Duals unchanged, and so do traced kernels.
"""

from __future__ import annotations

from typing import Any


class Dual:
    __slots__ = ("a", "b")
    __array_ufunc__ = None  # numpy defers to our operators

    def __init__(self, a: Any, b: Any = 0) -> None:
        self.a, self.b = a, b

    def __add__(self, o):
        return Dual(self.a + o.a, self.b + o.b) if isinstance(o, Dual) else Dual(self.a + o, self.b)

    __radd__ = __add__

    def __neg__(self):
        return Dual(-self.a, -self.b)

    def __sub__(self, o):
        return self + (-o)

    def __rsub__(self, o):
        return (-self) + o

    def __mul__(self, o):
        if isinstance(o, Dual):
            return Dual(self.a * o.a, self.a * o.b + self.b * o.a)
        return Dual(self.a * o, self.b * o)

    __rmul__ = __mul__


def value(x: Any) -> Any:
    return x.a if isinstance(x, Dual) else x


def derivative(x: Any) -> Any:
    return x.b if isinstance(x, Dual) else 0


class DualBackend:
    """A backend whose cos/sin accept Duals; constants come from the wrapped backend."""

    def __init__(self, B: Any) -> None:
        self.B = B
        self.angle, self.length, self.fixed = B.angle, B.length, B.fixed

    def cos(self, x: Any) -> Any:
        if isinstance(x, Dual):
            return Dual(self.B.cos(x.a), -self.B.sin(x.a) * x.b)
        return self.B.cos(x)

    def sin(self, x: Any) -> Any:
        if isinstance(x, Dual):
            return Dual(self.B.sin(x.a), self.B.cos(x.a) * x.b)
        return self.B.sin(x)
