"""Denavit–Hartenberg links and their link transforms, in both conventions.

* standard (lab report eqs. (2.1)–(2.4)):  A_i = Rz(θ_i)·Tz(d_i)·Tx(a_i)·Rx(α_i)
* modified / Craig (textbook eqs. (3.22)–(3.23)):
  ^{i-1}_iT = Rx(α_{i-1})·Tx(a_{i-1})·Rz(θ_i)·Tz(d_i)

In the modified convention a link's ``a`` and ``alpha`` are the row's a_{i-1},
α_{i-1} as printed in the textbook's tables.

:func:`link_transform_standard` and :func:`link_transform_modified` are the teaching formulas and
the library's one link transform at once: both (and :func:`link_matrix`, ``robot.link_transform``,
``fkine``, ``jacob0``) evaluate :func:`armlab.kinematics.scalar.dh_link`. The tests check it entry by
entry against the printed (2.4)/(3.23) and against the elementary products (2.1)/(3.22).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._core.symbolic import is_symbolic, sympy
from .._core.validation import as_float_array
from .scalar import IDENTITY, NumpyBackend, SympyBackend, dh_link, link_Rp, to_transform

__all__ = ["link_transform_standard", "link_transform_modified", "DHLink", "link_matrix", "check_inertia",
           "CONVENTIONS"]

CONVENTIONS = ("standard", "modified")


def link_transform_standard(theta: Any, d: Any, a: Any, alpha: Any) -> Any:
    """Standard DH link matrix A = Rz(θ)·Tz(d)·Tx(a)·Rx(α), lab report eq. (2.4).

    Numbers (or arrays that broadcast) give a numpy array (…, 4, 4), sympy values a sympy Matrix.
    The entries come from the library's one link transform, :func:`armlab.kinematics.scalar.dh_link`.

    >>> link_transform_standard(0.0, 0.147, 0.033, np.pi / 2).round(3) + 0.0  # + 0.0 drops the sign of -0.
    array([[ 1.   ,  0.   ,  0.   ,  0.033],
           [ 0.   ,  0.   , -1.   ,  0.   ],
           [ 0.   ,  1.   ,  0.   ,  0.147],
           [ 0.   ,  0.   ,  0.   ,  1.   ]])
    """
    return _link_transform(theta, d, a, alpha, False)


def link_transform_modified(alpha: Any, a: Any, theta: Any, d: Any) -> Any:
    """Modified (Craig) DH link matrix ^{i-1}_iT = Rx(α)·Tx(a)·Rz(θ)·Tz(d), textbook eq. (3.23).

    Arguments in the textbook's order: α_{i-1}, a_{i-1}, θ_i, d_i. Numbers give a numpy array,
    sympy values a sympy Matrix (see :func:`link_transform_standard`).

    >>> link_transform_modified(-np.pi / 2, 0.0, 0.0, 0.14909).round(3) + 0.0
    array([[ 1.   ,  0.   ,  0.   ,  0.   ],
           [ 0.   ,  0.   ,  1.   ,  0.149],
           [ 0.   , -1.   ,  0.   ,  0.   ],
           [ 0.   ,  0.   ,  0.   ,  1.   ]])
    """
    return _link_transform(theta, d, a, alpha, True)


def _link_transform(theta: Any, d: Any, a: Any, alpha: Any, modified: bool) -> Any:
    if is_symbolic(theta, d, a, alpha):
        sp = sympy()
        theta, d, a, alpha = (sp.sympify(v) for v in (theta, d, a, alpha))
        return to_transform(dh_link(IDENTITY, theta, d, a, alpha, modified, sp.cos, sp.sin), True)
    args = [as_float_array(v, n) for v, n in ((theta, "theta"), (d, "d"), (a, "a"), (alpha, "alpha"))]
    try:
        np.broadcast_shapes(*(v.shape for v in args))
    except ValueError:
        shapes = ", ".join(f"{n} {v.shape}" for n, v in zip(("theta", "d", "a", "alpha"), args))
        raise ValueError(f"theta, d, a and alpha must broadcast to one shape, got {shapes}") from None
    theta, d, a, alpha = (v if v.ndim else float(v) for v in args)
    return to_transform(dh_link(IDENTITY, theta, d, a, alpha, modified, np.cos, np.sin), False)


@dataclass
class DHLink:
    """One row of a DH table, with optional limits and mass properties.

    Revolute (``joint="R"``): θ = q + offset, d constant.
    Prismatic (``joint="P"``): d = q + offset, θ = ``theta`` constant.
    ``m`` is the link mass (kg), ``r`` its centre of mass and ``I`` its 3×3
    inertia about the centre of mass, both in the link's own frame.
    Parameters may be sympy expressions, for symbolic derivations.
    """

    a: float = 0.0
    alpha: float = 0.0
    d: float = 0.0
    theta: float = 0.0
    offset: float = 0.0
    joint: str = "R"
    qlim: tuple | None = None
    m: float = 0.0
    r: tuple = (0.0, 0.0, 0.0)
    I: np.ndarray | None = None  # noqa: E741
    symbolic: bool = field(init=False, repr=False, default=False)

    def __post_init__(self):
        if self.joint not in ("R", "P"):
            raise ValueError(f"joint must be 'R' (revolute) or 'P' (prismatic), got {self.joint!r}")
        params = {"a": self.a, "alpha": self.alpha, "d": self.d, "theta": self.theta, "offset": self.offset}
        self.symbolic = is_symbolic(*params.values())
        if not self.symbolic:
            for name, v in params.items():
                if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
                    raise TypeError(f"DHLink {name} must be a real number, got {type(v).__name__}: {v!r}")
                if not math.isfinite(v):
                    raise ValueError(f"DHLink {name} must be finite, got {v!r}")
                setattr(self, name, float(v))
        if self.qlim is not None:
            lo, hi = as_float_array(self.qlim, "qlim", (2,), allow_batch=False)
            if not lo <= hi:
                raise ValueError(f"qlim must be (lower, upper) with lower <= upper, got {self.qlim!r}")
            self.qlim = (float(lo), float(hi))
        self.r = tuple(as_float_array(self.r, "r", (3,), allow_batch=False)) if not is_symbolic(self.r) else tuple(self.r)
        if not is_symbolic(self.m):
            if isinstance(self.m, bool) or not isinstance(self.m, (int, float, np.integer, np.floating)) \
                    or not math.isfinite(self.m) or self.m < 0:
                raise ValueError(f"DHLink m must be a mass >= 0 (kg), got {self.m!r}")
            self.m = float(self.m)
        if self.I is not None and not is_symbolic(self.I):
            self.I = as_float_array(self.I, "I", (3, 3), allow_batch=False)
            check_inertia(self.I)

    @property
    def revolute(self) -> bool:
        return self.joint == "R"

    def theta_d(self, q):
        """(θ, d) of this link for joint value q."""
        if self.revolute:
            return q + self.offset, self.d
        return self.theta, q + self.offset


def check_inertia(I: np.ndarray, tol: float = 1e-9) -> None:  # noqa: E741
    """Raise ValueError unless I (3×3, about the centre of mass) is a physical inertia: symmetric,
    positive semi-definite, and its principal moments satisfy the triangle inequality
    I1 ≤ I2 + I3 (a real body's do; some published tables violate it)."""
    scale = max(float(np.abs(I).max()), 1e-300)
    if np.abs(I - I.T).max() > tol * scale:
        raise ValueError(f"I must be symmetric, got {I.tolist()}")
    moments = np.linalg.eigvalsh(I)
    if moments[0] < -tol * scale:
        raise ValueError(f"I must be positive semi-definite (principal moments >= 0), got moments {moments.tolist()}")
    if moments[2] > moments[0] + moments[1] + tol * scale:
        raise ValueError(f"I's principal moments {moments.round(9).tolist()} break the triangle inequality "
                         "I_max <= I_1 + I_2: no real body has this inertia")


def link_matrix(link: DHLink, qi: Any, modified: bool) -> Any:
    """The link transform of ``link`` at joint value ``qi``: (3.23) if ``modified`` else (2.4).

    A sympy ``qi`` (or a symbolic link) gives a sympy Matrix with exact constants
    (−π/2 stays exact, so no 6e-17 terms appear); numbers give a numpy array (…, 4, 4).
    """
    if link.symbolic or is_symbolic(qi):
        return to_transform(link_Rp(link, sympy().sympify(qi), modified, SympyBackend), True)
    return to_transform(link_Rp(link, as_float_array(qi, "qi"), modified, NumpyBackend), False)
