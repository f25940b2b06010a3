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

:class:`DHLink`, the immutable row itself, lives in :mod:`armlab._core.dhlink` (below every package
that reads links) and is re-exported here with :class:`ImmutableError` and :func:`check_inertia`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.dhlink import CONVENTIONS, FIELDS, DHLink, ImmutableError, check_inertia
from .._core.symbolic import is_symbolic, sympy
from .._core.validation import as_float_array
from .scalar import IDENTITY, NumpyBackend, SympyBackend, dh_link, link_Rp, to_transform

__all__ = [
    "link_transform_standard",
    "link_transform_modified",
    "DHLink",
    "ImmutableError",
    "link_matrix",
    "check_inertia",
    "CONVENTIONS",
    "FIELDS",
]


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


def link_matrix(link: DHLink, qi: Any, modified: bool) -> Any:
    """The link transform of ``link`` at joint value ``qi``: (3.23) if ``modified`` else (2.4).

    A sympy ``qi`` (or a symbolic link) gives a sympy Matrix with exact constants
    (−π/2 stays exact, so no 6e-17 terms appear); numbers give a numpy array (…, 4, 4).
    """
    if link.symbolic or is_symbolic(qi):
        return to_transform(link_Rp(link, sympy().sympify(qi), modified, SympyBackend), True)
    return to_transform(link_Rp(link, as_float_array(qi, "qi"), modified, NumpyBackend), False)
