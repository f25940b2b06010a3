"""Differential motion, textbook §3.3.2, eqs. (3.59)–(3.87).

A small motion of a frame T is a differential translation d = (dx, dy, dz) and rotation
δ = (δx, δy, δz), taken about the base frame's axes. To first order

* Trans(dx, dy, dz) (3.59) and Rot(k, dθ) = Rot(x, δx)·Rot(y, δy)·Rot(z, δz) (3.65) commute;
* dT = Δ·T with the differential operator Δ = Trans(d)·Rot(k, dθ) − I (3.66)–(3.69);
* the same motion seen in the frame T itself is ^TΔ = T⁻¹·Δ·T (3.71), with
  ^Td = Rᵀ(δ × p + d) and ^Tδ = Rᵀδ (3.80)–(3.84), the 6×6 map of (3.82)/(3.85).

>>> A = np.array([[0, 0, 1, 8], [1, 0, 0, 4], [0, 1, 0, 0], [0, 0, 0, 1.0]])   # Examples 3.6 and 3.7
>>> d, delta = [0.8, 0, 0.6], [0, 0.2, 0]
>>> differential_change(A, d, delta)[:3]
array([[ 0. ,  0.2,  0. ,  0.8],
       [ 0. ,  0. ,  0. ,  0. ],
       [ 0. ,  0. , -0.2, -1. ]])
>>> [v.tolist() for v in motion_in_frame(A, d, delta)]
[[0.0, -1.0, 0.8], [0.2, 0.0, 0.0]]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.symbolic import is_symbolic, sympy
from .._core.validation import as_float_array, check_rigid

__all__ = ["diff_rot", "delta_operator", "differential_change", "motion_in_frame", "motion_map", "operator_in_frame"]


def _vec(v, name):
    if is_symbolic(v):
        v = list(v)
        if len(v) != 3:
            raise ValueError(f"{name} must have 3 entries, got {len(v)}")
        return sympy().Matrix(v)
    return as_float_array(v, name, (3,))


def _skew4(d, delta):
    """The 4×4 [[S(δ), d], [0, 0]] (numpy (..., 4, 4) or sympy)."""
    if is_symbolic(d, delta):
        sp = sympy()
        dx, dy, dz = _vec(d, "d")
        x, y, z = _vec(delta, "delta")
        return sp.Matrix([[0, -z, y, dx], [z, 0, -x, dy], [-y, x, 0, dz], [0, 0, 0, 0]])
    d, delta = np.broadcast_arrays(_vec(d, "d"), _vec(delta, "delta"))
    x, y, z = np.moveaxis(delta, -1, 0)
    D = np.zeros(d.shape[:-1] + (4, 4))
    D[..., 0, 1], D[..., 0, 2], D[..., 1, 2] = -z, y, -x
    D[..., 1, 0], D[..., 2, 0], D[..., 2, 1] = z, -y, x
    D[..., :3, 3] = d
    return D


def diff_rot(delta: Any) -> Any:
    """Rot(k, dθ) for a small rotation δ = (δx, δy, δz), to first order: textbook (3.65).

    >>> diff_rot([0.05, 0.1, 0.05])[:3, :3]          # Example 3.5
    array([[ 1.  , -0.05,  0.1 ],
           [ 0.05,  1.  , -0.05],
           [-0.1 ,  0.05,  1.  ]])
    """
    D = _skew4([0, 0, 0], delta)
    if is_symbolic(D):
        return D + sympy().eye(4)
    return D + np.eye(4)


def delta_operator(d: Any, delta: Any) -> Any:
    """The differential operator Δ about the base frame, textbook (3.69): [[S(δ), d], [0, 0]]."""
    return _skew4(d, delta)


def differential_change(T: Any, d: Any, delta: Any) -> Any:
    """dT = Δ·T, textbook (3.67): how a small motion (d, δ) about the base frame changes T."""
    if is_symbolic(T, d, delta):
        return delta_operator(d, delta) * sympy().Matrix(T)
    return delta_operator(d, delta) @ _pose(T)


def operator_in_frame(T: Any, Delta: Any) -> Any:
    """^TΔ = T⁻¹·Δ·T, textbook (3.71): the same differential operator taken about the frame T."""
    if is_symbolic(T, Delta):
        T = sympy().Matrix(T)
        return T.inv() * sympy().Matrix(Delta) * T
    T = _pose(T)
    return np.linalg.inv(T) @ as_float_array(Delta, "Delta", (4, 4)) @ T


def motion_in_frame(T: Any, d: Any, delta: Any) -> tuple[Any, Any]:
    """(^Td, ^Tδ): a motion about the base frame, taken about frame T, textbook (3.83)–(3.84):
    ^Td = (n·(δ×p + d), o·(δ×p + d), a·(δ×p + d)), ^Tδ = (n·δ, o·δ, a·δ)."""
    if is_symbolic(T, d, delta):
        T = sympy().Matrix(T)
        R, p = T[:3, :3], T[:3, 3]
        d, delta = _vec(d, "d"), _vec(delta, "delta")
        return R.T * (delta.cross(p) + d), R.T * delta
    T = _pose(T)
    R, p = T[..., :3, :3], T[..., :3, 3]
    d, delta = _vec(d, "d"), _vec(delta, "delta")
    Rt = np.swapaxes(R, -1, -2)
    return (Rt @ (np.cross(delta, p) + d)[..., None])[..., 0], (Rt @ delta[..., None])[..., 0]


def motion_map(T: Any) -> Any:
    """The 6×6 matrix of textbook (3.82)/(3.85), [^Td; ^Tδ] = [[Rᵀ, −Rᵀ·S(p)], [0, Rᵀ]]·[d; δ].

    It takes Paul's base-frame Jacobian (rows: the motion (d, δ) about the base frame, d being the
    velocity of the point at the base origin) to the frame T: ^TJ = M·J. ``robot.jacob0`` rows are the
    tool point's velocity instead, so for it ^TJ = diag(Rᵀ, Rᵀ)·jacob0 (:func:`~armlab.jacobians.frame_change`).
    """
    if is_symbolic(T):
        sp = sympy()
        T = sp.Matrix(T)
        Rt, p = T[:3, :3].T, T[:3, 3]
        S = sp.Matrix([[0, -p[2], p[1]], [p[2], 0, -p[0]], [-p[1], p[0], 0]])
        return sp.Matrix(sp.BlockMatrix([[Rt, -Rt * S], [sp.zeros(3), Rt]]))
    T = _pose(T)
    Rt = np.swapaxes(T[..., :3, :3], -1, -2)
    px, py, pz = np.moveaxis(T[..., :3, 3], -1, 0)
    S = np.zeros(T.shape[:-2] + (3, 3))
    S[..., 0, 1], S[..., 0, 2], S[..., 1, 2] = -pz, py, -px
    S[..., 1, 0], S[..., 2, 0], S[..., 2, 1] = pz, -py, px
    M = np.zeros(T.shape[:-2] + (6, 6))
    M[..., :3, :3], M[..., :3, 3:], M[..., 3:, 3:] = Rt, -Rt @ S, Rt
    return M


def _pose(T):
    T = as_float_array(T, "T", (4, 4))
    check_rigid(T, "T")
    return T
