"""Rotations and homogeneous transforms, named as in textbook ch. 3 §3.1.

Every function accepts plain floats, numpy arrays with leading batch
dimensions (angles ``(...)``, matrices ``(..., 4, 4)``), or sympy expressions;
given symbols it returns a sympy Matrix. Angles are in radians unless a
function takes ``deg=True``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ._core.symbolic import is_symbolic, sym_matrix, sympy
from ._core.validation import as_float_array, check_rigid

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = [
    "R",
    "Rot",
    "Trans",
    "homogeneous",
    "Tinv",
    "point",
    "vector",
    "compose",
    "rpy_to_R",
    "R_to_rpy",
    "euler_to_R",
    "R_to_euler",
    "axis_angle_to_R",
    "R_to_axis_angle",
    "skew",
    "unskew",
    "is_rotation",
    "twist_transform",
    "wrench_transform",
    "wrench_in_frame",
]

_AXES = {"x": 0, "y": 1, "z": 2}


def _axis(axis) -> int:
    key = str(axis).lower() if isinstance(axis, str) else None
    if key not in _AXES:
        raise ValueError(f"axis must be 'x', 'y' or 'z', got {axis!r}")
    return _AXES[key]


def _elementary(axis, theta, deg, size):
    """Rotation about a principal axis embedded in a size×size identity."""
    i = _axis(axis)
    j, k = (i + 1) % 3, (i + 2) % 3
    if is_symbolic(theta):
        sp = sympy()
        t = sp.sympify(theta) * (sp.pi / 180 if deg else 1)
        M = sp.eye(size)
        c, s = sp.cos(t), sp.sin(t)
        M[j, j], M[j, k], M[k, j], M[k, k] = c, -s, s, c
        return M
    t = as_float_array(theta, "theta")
    if deg:
        t = np.radians(t)
    c, s = np.cos(t), np.sin(t)
    M = np.zeros(t.shape + (size, size))
    M[..., i, i] = 1.0
    if size == 4:
        M[..., 3, 3] = 1.0
    M[..., j, j], M[..., j, k], M[..., k, j], M[..., k, k] = c, -s, s, c
    return M


def R(axis: str | int, theta: Any, deg: bool = False) -> Any:
    """3×3 rotation R(axis, θ) about x, y or z, textbook eqs. (3.6)–(3.8).

    >>> R("z", np.pi / 2).round(3)
    array([[ 0., -1.,  0.],
           [ 1.,  0.,  0.],
           [ 0.,  0.,  1.]])
    """
    return _elementary(axis, theta, deg, 3)


def Rot(axis: str | int, theta: Any, deg: bool = False) -> Any:
    """4×4 homogeneous rotation Rot(axis, θ), textbook eqs. (3.19)–(3.21).

    >>> Rot("x", 30, deg=True)[1:3, 1:3].round(3)
    array([[ 0.866, -0.5  ],
           [ 0.5  ,  0.866]])
    """
    return _elementary(axis, theta, deg, 4)


def Trans(dx: Any, dy: Any = None, dz: Any = None) -> Any:
    """4×4 pure translation Trans(dx, dy, dz), textbook eq. (3.18).

    Also accepts one vector ``Trans(p)`` with ``p`` of shape ``(..., 3)``.

    >>> Trans(1, 2, 3)[:3, 3]
    array([1., 2., 3.])
    """
    if dy is None and dz is None:
        p = dx
    elif dy is None or dz is None:
        raise TypeError("Trans takes three components (dx, dy, dz) or one 3-vector")
    else:
        p = None
    if is_symbolic(dx, dy, dz):
        sp = sympy()
        px, py, pz = list(p) if p is not None else (dx, dy, dz)
        return sp.Matrix([[1, 0, 0, px], [0, 1, 0, py], [0, 0, 1, pz], [0, 0, 0, 1]])
    if p is None:
        p = np.stack(
            np.broadcast_arrays(as_float_array(dx, "dx"), as_float_array(dy, "dy"), as_float_array(dz, "dz")), axis=-1
        )
    p = as_float_array(p, "p", (3,))
    T = np.zeros(p.shape[:-1] + (4, 4))
    T[..., [0, 1, 2, 3], [0, 1, 2, 3]] = 1.0
    T[..., :3, 3] = p
    return T


def homogeneous(R_: Any, p: Any) -> Any:
    """The 4×4 transform [[R, p], [0, 1]] of textbook eq. (3.17).

    >>> homogeneous(np.eye(3), [1, 2, 3])[:3, 3]
    array([1., 2., 3.])
    """
    if is_symbolic(R_, p):
        sp = sympy()
        R_, p = sp.Matrix(R_), sp.Matrix(p)
        if R_.shape != (3, 3) or p.shape not in ((3, 1), (1, 3)):
            raise ValueError(f"R must be 3×3 and p a 3-vector, got {R_.shape} and {p.shape}")
        return sp.Matrix.vstack(sp.Matrix.hstack(R_, p.reshape(3, 1)), sp.Matrix([[0, 0, 0, 1]]))
    R_ = as_float_array(R_, "R", (3, 3))
    p = as_float_array(p, "p", (3,))
    shape = np.broadcast_shapes(R_.shape[:-2], p.shape[:-1])
    T = np.zeros(shape + (4, 4))
    T[..., :3, :3] = R_
    T[..., :3, 3] = p
    T[..., 3, 3] = 1.0
    return T


def Tinv(T: Any) -> Any:
    """Inverse of a homogeneous transform, [[Rᵀ, −Rᵀp], [0, 1]] (textbook eq. (3.72)).

    Cheaper and more accurate than a general matrix inverse.

    >>> T = Trans(1, 2, 3) @ Rot("z", 0.3)
    >>> np.allclose(Tinv(T) @ T, np.eye(4))
    True
    """
    if is_symbolic(T):
        sp = sympy()
        T = sp.Matrix(T)
        Rt = T[:3, :3].T
        return homogeneous(Rt, -Rt * T[:3, 3])
    T = as_float_array(T, "T", (4, 4))
    check_rigid(T, "T")
    Rt = np.swapaxes(T[..., :3, :3], -1, -2)
    out = np.zeros_like(T)
    out[..., :3, :3] = Rt
    out[..., :3, 3] = -(Rt @ T[..., :3, 3:4])[..., 0]
    out[..., 3, 3] = 1.0
    return out


def _homog(coords, w, name):
    if is_symbolic(coords):
        return sympy().Matrix([*coords, w])
    p = as_float_array(coords, name, (3,))
    return np.concatenate([p, np.full(p.shape[:-1] + (1,), float(w))], axis=-1)


def _coords(x, y, z, what):
    if (y is None) != (z is None):
        raise TypeError(f"{what} takes three coordinates (x, y, z) or one 3-vector")
    if y is None:
        return x
    if is_symbolic(x, y, z):
        return (x, y, z)
    return np.stack(np.broadcast_arrays(*(as_float_array(c, n) for c, n in zip((x, y, z), "xyz"))), -1)


def point(x: Any, y: Any = None, z: Any = None) -> Any:
    """A point in homogeneous coordinates [x, y, z, 1] (textbook §3.1.5).

    >>> point(4, 8, 0)
    array([4., 8., 0., 1.])
    """
    return _homog(_coords(x, y, z, "point"), 1, "point")


def vector(x: Any, y: Any = None, z: Any = None) -> Any:
    """A free vector (direction) in homogeneous coordinates [x, y, z, 0].

    Translations do not move it: ``Trans(1, 2, 3) @ vector(1, 0, 0)`` is ``[1, 0, 0, 0]``.
    """
    return _homog(_coords(x, y, z, "vector"), 0, "vector")


def compose(*transforms: Any, frame: str = "fixed") -> Any:
    """Compose transforms applied one after another.

    ``frame="fixed"``: each motion is about the fixed (reference) frame, so it
    multiplies on the left, T = Tₙ···T₂T₁. ``frame="current"``: each motion is
    about the current (moving) frame, so it multiplies on the right,
    T = T₁T₂···Tₙ (textbook §3.1.5, item 6).

    >>> A, B = Rot("z", 0.5), Trans(1, 0, 0)
    >>> np.allclose(compose(A, B, frame="fixed"), B @ A)
    True
    """
    if frame not in ("fixed", "current"):
        raise ValueError(f"frame must be 'fixed' or 'current', got {frame!r}")
    if not transforms:
        raise ValueError("compose needs at least one transform")
    seq = transforms[::-1] if frame == "fixed" else transforms
    if is_symbolic(*seq):
        out = sym_matrix(seq[0])
        for T in seq[1:]:
            out = out * sym_matrix(T)
        return out
    mats = [as_float_array(T, f"transforms[{i}]") for i, T in enumerate(seq)]
    shapes = {m.shape[-2:] for m in mats}
    if len(shapes) != 1 or shapes.pop() not in ((3, 3), (4, 4)):
        raise ValueError("transforms must all be 3×3 rotations or all be 4×4 transforms")
    out = mats[0]
    for m in mats[1:]:
        out = out @ m
    return out


def rpy_to_R(roll: Any, pitch: Any, yaw: Any) -> Any:
    """Rotation from roll–pitch–yaw angles: R = R(z, yaw)·R(y, pitch)·R(x, roll).

    Roll about x, then pitch about the fixed y, then yaw about the fixed z
    (the convention of Craig and of roboticstoolbox's ``rpy2r``).
    """
    if is_symbolic(roll, pitch, yaw):
        roll, pitch, yaw = sympy().sympify((roll, pitch, yaw))
    else:  # check here so an error names roll/pitch/yaw, not R's "theta"
        roll, pitch, yaw = (as_float_array(v, n) for v, n in ((roll, "roll"), (pitch, "pitch"), (yaw, "yaw")))
    return compose(R("x", roll), R("y", pitch), R("z", yaw), frame="fixed")


def euler_to_R(phi: Any, theta: Any, psi: Any) -> Any:
    """Rotation from ZYZ Euler angles: R = R(z, φ)·R(y, θ)·R(z, ψ)."""
    if is_symbolic(phi, theta, psi):
        phi, theta, psi = sympy().sympify((phi, theta, psi))
    else:  # check here so an error names phi/theta/psi
        phi, theta, psi = (as_float_array(v, n) for v, n in ((phi, "phi"), (theta, "theta"), (psi, "psi")))
    return compose(R("z", phi), R("y", theta), R("z", psi), frame="current")


def R_to_rpy(R_: ArrayLike, tol: float = 1e-9) -> np.ndarray:
    """Roll, pitch, yaw (last axis of size 3) with R = R(z,yaw)·R(y,pitch)·R(x,roll).

    Pitch is in [−π/2, π/2]. At pitch = ±π/2 (gimbal lock) yaw is set to 0.
    """
    R_ = as_float_array(R_, "R", (3, 3))
    r = lambda i, j: R_[..., i, j]  # noqa: E731
    cp = np.hypot(r(0, 0), r(1, 0))
    pitch = np.arctan2(-r(2, 0), cp)
    lock = cp < tol
    yaw = np.where(lock, 0.0, np.arctan2(r(1, 0), r(0, 0)))
    roll = np.where(lock, np.arctan2(-np.sign(r(2, 0)) * r(0, 1), r(1, 1)), np.arctan2(r(2, 1), r(2, 2)))
    return np.stack([roll, pitch, yaw], axis=-1)


def R_to_euler(R_: ArrayLike, tol: float = 1e-9) -> np.ndarray:
    """ZYZ Euler angles (φ, θ, ψ) with θ in [0, π]; at θ = 0 or π, φ is set to 0."""
    R_ = as_float_array(R_, "R", (3, 3))
    r = lambda i, j: R_[..., i, j]  # noqa: E731
    st = np.hypot(r(2, 0), r(2, 1))
    theta = np.arctan2(st, r(2, 2))
    lock = st < tol
    phi = np.where(lock, 0.0, np.arctan2(r(1, 2), r(0, 2)))
    psi = np.where(lock, np.arctan2(r(1, 0), r(1, 1)), np.arctan2(r(2, 1), -r(2, 0)))
    return np.stack([phi, theta, psi], axis=-1)


def skew(p: Any) -> Any:
    """Skew-symmetric matrix S(p) with S(p)·v = p × v, textbook eq. (3.87).

    >>> skew([1, 2, 3]) @ np.array([4, 5, 6]), np.cross([1, 2, 3], [4, 5, 6])
    (array([-3.,  6., -3.]), array([-3,  6, -3]))
    """
    if is_symbolic(p):
        x, y, z = list(p)
        return sympy().Matrix([[0, -z, y], [z, 0, -x], [-y, x, 0]])
    p = as_float_array(p, "p", (3,))
    S = np.zeros(p.shape[:-1] + (3, 3))
    x, y, z = p[..., 0], p[..., 1], p[..., 2]
    S[..., 0, 1], S[..., 0, 2] = -z, y
    S[..., 1, 0], S[..., 1, 2] = z, -x
    S[..., 2, 0], S[..., 2, 1] = -y, x
    return S


def unskew(S: Any) -> Any:
    """The vector p of a skew-symmetric matrix S(p) (the antisymmetric part is used)."""
    if is_symbolic(S):
        S = sympy().Matrix(S)
        return sympy().Matrix([S[2, 1], S[0, 2], S[1, 0]])
    S = as_float_array(S, "S", (3, 3))
    return 0.5 * np.stack(
        [S[..., 2, 1] - S[..., 1, 2], S[..., 0, 2] - S[..., 2, 0], S[..., 1, 0] - S[..., 0, 1]], axis=-1
    )


def axis_angle_to_R(axis: Any, theta: Any) -> Any:
    """Rotation Rot(k, θ) about a unit axis k (Rodrigues): I + sinθ·S(k) + (1−cosθ)·S(k)²."""
    if is_symbolic(axis, theta):
        sp = sympy()
        k = sp.Matrix(axis)
        K = skew(k)
        return sp.eye(3) + sp.sin(theta) * K + (1 - sp.cos(theta)) * K * K
    k = as_float_array(axis, "axis", (3,))
    t = as_float_array(theta, "theta")
    norm = np.linalg.norm(k, axis=-1, keepdims=True)
    if np.any(norm < 1e-12):
        raise ValueError("axis must be a non-zero 3-vector")
    K = skew(k / norm)
    s, c = np.sin(t)[..., None, None], np.cos(t)[..., None, None]
    return np.eye(3) + s * K + (1 - c) * (K @ K)


def R_to_axis_angle(R_: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Unit axis (…, 3) and angle θ in [0, π] with R = Rot(axis, θ).

    θ = atan2(|sinθ·k|, cosθ) stays accurate near 0 and π, where arccos does not.
    At θ = 0 the axis is undefined and (0, 0, 1) is returned.
    """
    R_ = as_float_array(R_, "R", (3, 3))
    v = unskew(R_)  # sinθ · k
    s = np.linalg.norm(v, axis=-1)
    c = (np.trace(R_, axis1=-2, axis2=-1) - 1) / 2
    theta = np.arctan2(s, c)
    axis = np.where(s[..., None] > 0, v / np.maximum(s, 1e-300)[..., None], np.array([0.0, 0.0, 1.0]))
    # For θ > π/2, sinθ·k is small and noisy; the symmetric part (R + Rᵀ)/2 − cI = (1 − c)·k·kᵀ
    # is well conditioned. Its largest column gives k up to sign; v gives the sign.
    wide = c < 0
    if np.any(wide):
        B = (R_ + np.swapaxes(R_, -1, -2)) / 2 - c[..., None, None] * np.eye(3)
        col = np.argmax(np.diagonal(B, axis1=-2, axis2=-1), axis=-1)
        k = np.take_along_axis(B, col[..., None, None], axis=-1)[..., 0]
        k = k / np.linalg.norm(k, axis=-1, keepdims=True)
        k = np.where((np.sum(k * v, axis=-1) < 0)[..., None], -k, k)
        axis = np.where(wide[..., None], k, axis)
    return axis, theta


def is_rotation(R_: Any, tol: float = 1e-9) -> bool:
    """True if R is orthonormal with det = +1 (all of a batch)."""
    R_ = as_float_array(R_, "R", (3, 3))
    eye = np.swapaxes(R_, -1, -2) @ R_
    return bool(np.all(np.abs(eye - np.eye(3)) < tol) and np.all(np.abs(np.linalg.det(R_) - 1) < tol))


# --- twists and wrenches between frames --------------------------------------------------------------


def _R_p(T):
    if is_symbolic(T):
        T = sympy().Matrix(T)
        return T[:3, :3], T[:3, 3], True
    T = as_float_array(T, "T", (4, 4))
    check_rigid(T, "T")
    return T[..., :3, :3], T[..., :3, 3], False


def twist_transform(T_AB: Any) -> Any:
    """6×6 map of a twist (v, ω) given at {B}'s origin in {B}'s axes to {A}: [[R, S(p)R], [0, R]] (the adjoint).

    v_A = R·v_B + p × (R·ω_B), ω_A = R·ω_B, for T_AB = [[R, p], [0, 1]].
    """
    R_, p, sym = _R_p(T_AB)
    SR = skew(p) * R_ if sym else skew(p) @ R_
    return _block(R_, SR, 0 * R_, R_, sym)


def wrench_transform(T_AB: Any, wrench_B: Any = None) -> Any:
    """A wrench (f, m) acting at {B}'s origin, in {B}'s axes, as the equivalent wrench at {A}'s origin in {A}.

    f_A = R·f_B, m_A = R·m_B + p × f_A — the moment of the force moves with the reference point, a free
    force does not, a pure torque is only rotated (statics chapter (5-7)–(5-9)). Without ``wrench_B``
    returns the 6×6 matrix [[R, 0], [S(p)R, R]], which is the transpose of the twist transform of the
    inverse: wrench_transform(T) = twist_transform(T⁻¹)ᵀ, so power f·v + m·ω is the same in both frames.

    >>> T = Trans(2, 4, 6) @ Rot("z", np.pi / 2)
    >>> wrench_transform(T, [1, 0, 0, 0, 0, 0]).round(12).tolist()   # f along x_B = y_A, moment p × f
    [0.0, 1.0, 0.0, -6.0, 0.0, 2.0]
    """
    R_, p, sym = _R_p(T_AB)
    SR = skew(p) * R_ if sym else skew(p) @ R_
    W = _block(R_, 0 * R_, SR, R_, sym)
    if wrench_B is None:
        return W
    if sym:
        return W * sympy().Matrix(wrench_B)
    return (W @ as_float_array(wrench_B, "wrench_B", (6,))[..., None])[..., 0]


def wrench_in_frame(T: Any, wrench: Any) -> Any:
    """Textbook §3.5.1 (3.169)–(3.170): a wrench F = (f, m) given in {A} (at A's origin) as seen in the
    frame T = ^A T_B (n, o, a, p its columns): ^B f = (n·f, o·f, a·f), ^B m = (n·(f×p + m), o·(f×p + m),
    a·(f×p + m)). The inverse of :func:`wrench_transform`.

    >>> B = np.array([[0, 1, 0, 2], [0, 0, 1, 4], [1, 0, 0, 6], [0, 0, 0, 1.0]])   # Example 3.10
    >>> wrench_in_frame(B, [5, 0, 0, 0, 10, 0]).tolist()
    [0.0, 5.0, 0.0, 20.0, 0.0, -20.0]
    """
    R_, p, sym = _R_p(T)
    if sym:
        w = sympy().Matrix(wrench)
        f, m = w[:3, 0], w[3:, 0]
        return sympy().Matrix.vstack(R_.T * f, R_.T * (f.cross(p) + m))
    w = as_float_array(wrench, "wrench", (6,))
    f, m = w[..., :3], w[..., 3:]
    Rt = np.swapaxes(R_, -1, -2)
    return np.concatenate([(Rt @ f[..., None])[..., 0], (Rt @ (np.cross(f, p) + m)[..., None])[..., 0]], axis=-1)


def _block(A, B, C, D, sym):
    if sym:
        sp = sympy()
        return sp.Matrix(sp.BlockMatrix([[A, B], [C, D]]))
    return np.concatenate([np.concatenate([A, B], axis=-1), np.concatenate([C, D], axis=-1)], axis=-2)
