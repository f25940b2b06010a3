"""What a Jacobian tells: manipulability, singular values, lost directions, ellipsoids, frame changes,
the analytic (RPY-rate) Jacobian and J̇.

Rows are (vx, vy, vz, ωx, ωy, ωz). Translational and rotational parts are kept apart
(``part="trans"`` | ``"rot"``): metres and radians do not mix, so a measure over all six rows
depends on the unit of length and is not offered.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._core.protocol import RobotLike
from .._core.symbolic import is_symbolic, sympy
from .._core.validation import as_float_array, joint_vector

__all__ = [
    "PARTS",
    "part_of",
    "manipulability_of_J",
    "singular_values",
    "condition_number",
    "jacobian_rank",
    "lost_directions",
    "dependent_columns",
    "ellipsoid",
    "frame_change",
    "rpy_rate_matrix",
    "analytic_jacobian",
    "jdot",
]

PARTS = {"trans": slice(0, 3), "rot": slice(3, 6)}


def part_of(J: Any, part: str) -> Any:
    """Rows of J for ``part`` "trans" (v) or "rot" (ω); "all" gives J itself."""
    if part == "all":
        return J
    if part not in PARTS:
        raise ValueError(f"part must be 'trans' or 'rot' (or 'all' where a function says so), got {part!r}")
    return J[..., PARTS[part], :]


def _J(J, name="J"):
    J = as_float_array(J, name)
    if J.ndim < 2:
        raise ValueError(f"{name} must be a matrix (..., rows, n), got shape {J.shape}")
    return J


def manipulability_of_J(J: ArrayLike, part: str = "trans") -> np.ndarray:
    """Yoshikawa's measure w = √det(J_p·J_pᵀ) of the rows ``part`` of a Jacobian J you already have
    (the product of their singular values). From a robot and q: :func:`armlab.jacobians.manipulability`.

    With fewer joints than rows (a planar 2R arm's 3×2 J_trans) the product of the n singular values,
    √det(J_pᵀ·J_p), is used, so the 2R arm gets the classic |l1·l2·sin θ2|. Batched: (..., 6, n) → (...).
    """
    if part not in PARTS:
        raise ValueError(
            f"part must be 'trans' or 'rot', got {part!r} (a measure over all six rows mixes "
            "metres and radians, so its value depends on the unit of length)"
        )
    Jp = part_of(_J(J), part)
    r, n = Jp.shape[-2:]
    A = Jp @ np.swapaxes(Jp, -1, -2) if n >= r else np.swapaxes(Jp, -1, -2) @ Jp
    return np.sqrt(np.maximum(_det(A), 0.0))


def _det(A):
    """det of (..., k, k), with a closed form for 2×2 and 3×3 (np.linalg.det is slower on many small ones)."""
    k = A.shape[-1]
    if k == 3:
        a, b, c = A[..., 0, 0], A[..., 0, 1], A[..., 0, 2]
        d, e, f = A[..., 1, 0], A[..., 1, 1], A[..., 1, 2]
        g, h, i = A[..., 2, 0], A[..., 2, 1], A[..., 2, 2]
        return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    if k == 2:
        return A[..., 0, 0] * A[..., 1, 1] - A[..., 0, 1] * A[..., 1, 0]
    return np.linalg.det(A)


def singular_values(J: ArrayLike, part: str = "all") -> np.ndarray:
    """Singular values of J (or of its ``part``), largest first."""
    return np.linalg.svd(part_of(_J(J), part), compute_uv=False)


def condition_number(J: ArrayLike, part: str = "all") -> np.ndarray:
    """σ_max / σ_min (∞ at a singularity)."""
    s = singular_values(J, part)
    with np.errstate(divide="ignore"):
        return np.where(s[..., -1] > 0, s[..., 0] / np.where(s[..., -1] > 0, s[..., -1], 1.0), np.inf)


def jacobian_rank(J: ArrayLike, part: str = "all", tol: float = 1e-9) -> np.ndarray:
    """Number of singular values above ``tol``·σ_max."""
    s = singular_values(J, part)
    return (s > tol * np.maximum(s[..., :1], 1e-300)).sum(axis=-1)


def lost_directions(J: ArrayLike, part: str = "all", tol: float = 1e-9) -> tuple[np.ndarray, np.ndarray]:
    """At a (near-)singular pose: (null, lost) — joint motions that move nothing (columns of ``null``,
    n×k) and task directions no joint motion produces (columns of ``lost``, rows×m). One pose only."""
    Jp = part_of(_J(J), part)
    if Jp.ndim != 2:
        raise ValueError(f"J must be one matrix (rows, n) here, got shape {Jp.shape}")
    U, s, Vt = np.linalg.svd(Jp)
    big = s > tol * max(s[0] if len(s) else 0.0, 1e-300)
    r = int(big.sum())
    return Vt[r:].T, U[:, r:]


def dependent_columns(J: ArrayLike, tol: float = 1e-9) -> list[tuple[int, dict[int, float]]]:
    """Which joint columns of J are combinations of earlier ones: what MATLAB's ``jsingu(J)`` in the
    Jacobian notes 004 §5 reports ("q6 can be expressed by q4").

    Columns are taken left to right; a column that does not raise the rank (singular values below
    ``tol``·σ_max count as 0) is written in the independent columns before it. Returns
    [(j, {i: c_i})] with 0-based indices: column j = Σ c_i·column i (coefficients below ``tol``
    dropped). Empty where J has full column rank. One matrix only.

    >>> from armlab.models import PUMA560_POSES, puma560
    >>> [(j, {i: round(c, 9) for i, c in cs.items()}) for j, cs in dependent_columns(puma560().jacob0(PUMA560_POSES["qz"]))]
    [(5, {3: 1.0})]
    >>> dependent_columns(puma560().jacob0(PUMA560_POSES["qn"]))    # the notes' qn is regular
    []
    """
    A = _J(J)
    if A.ndim != 2:
        raise ValueError(f"J must be one matrix (rows, n) here, got shape {A.shape}")
    scale = max(float(np.linalg.norm(A, 2)), 1e-300)
    kept: list[int] = []
    found: list[tuple[int, dict[int, float]]] = []
    for j in range(A.shape[1]):
        if not kept:
            if np.linalg.norm(A[:, j]) > tol * scale:
                kept.append(j)
            else:
                found.append((j, {}))  # a zero column: a joint that moves nothing
            continue
        basis = A[:, kept]
        c, *_ = np.linalg.lstsq(basis, A[:, j], rcond=None)
        if np.linalg.norm(basis @ c - A[:, j]) > tol * scale:
            kept.append(j)
        else:
            found.append((j, {i: float(x) for i, x in zip(kept, c) if abs(x) > tol}))
    return found


def ellipsoid(
    J: ArrayLike, part: str = "trans", kind: str = "velocity", tol: float = 1e-12
) -> tuple[np.ndarray, np.ndarray]:
    """Axes of the velocity or force ellipsoid of J's ``part`` for unit joint rates / torques.

    Returns (lengths, directions): direction k (a column) has half-axis length σ_k for velocity
    (‖q̇‖ ≤ 1 → ẋ), 1/σ_k for force (‖τ‖ ≤ 1 → F, from τ = JᵀF); ∞ where σ_k = 0 (below
    ``tol``·σ_max, i.e. zero to rounding).
    """
    if kind not in ("velocity", "force"):
        raise ValueError(f"kind must be 'velocity' or 'force', got {kind!r}")
    U, s, _ = np.linalg.svd(part_of(_J(J), part))
    k = U.shape[-1]
    s = np.concatenate([s, np.zeros(s.shape[:-1] + (k - s.shape[-1],))], axis=-1) if s.shape[-1] < k else s
    s = np.where(s > tol * s[..., :1], s, 0.0)
    if kind == "force":
        with np.errstate(divide="ignore"):
            s = np.where(s > 0, 1.0 / np.where(s > 0, s, 1.0), np.inf)
    return s, U


def frame_change(J: Any, R: Any) -> Any:
    """^AJ = diag(R, R)·^BJ, notes 004: a Jacobian expressed in {B} re-expressed in {A}, R = ^A_BR."""
    if is_symbolic(J, R):
        sp = sympy()
        R = sp.Matrix(R)
        return sp.Matrix(sp.BlockMatrix([[R, sp.zeros(3)], [sp.zeros(3), R]])) * sp.Matrix(J)
    J = _J(J)
    if J.shape[-2] != 6:
        raise ValueError(f"J must have 6 rows (v, ω), got shape {J.shape}")
    R = as_float_array(R, "R", (3, 3))
    return np.concatenate([R @ J[..., :3, :], R @ J[..., 3:, :]], axis=-2)


def rpy_rate_matrix(rpy: ArrayLike) -> np.ndarray:
    """E with ω = E·(roll̇, pitcḣ, yaẇ) for R = Rz(yaw)·Ry(pitch)·Rx(roll) (transforms.rpy_to_R).
    Singular at pitch = ±90° (det E = cos pitch)."""
    rpy = as_float_array(rpy, "rpy", (3,))
    _, p, y = np.moveaxis(rpy, -1, 0)
    cp, sp_, cy, sy = np.cos(p), np.sin(p), np.cos(y), np.sin(y)
    E = np.zeros(rpy.shape[:-1] + (3, 3))
    E[..., 0, 0], E[..., 1, 0], E[..., 2, 0] = cy * cp, sy * cp, -sp_
    E[..., 0, 1], E[..., 1, 1] = -sy, cy
    E[..., 2, 2] = 1.0
    return E


def analytic_jacobian(J0: Any, rpy: ArrayLike) -> np.ndarray:
    """J_a with (ṗ, roll̇, pitcḣ, yaẇ) = J_a·q̇, from the base-frame J0 and the tool's RPY angles:
    J_a = diag(I, E⁻¹)·J0. Raises ValueError at the RPY singularity (pitch = ±90°)."""
    J0 = _J(J0, "J0")
    E = rpy_rate_matrix(rpy)
    if np.any(np.abs(np.linalg.det(E)) < 1e-9):
        raise ValueError(
            "the RPY rates are undefined at pitch = ±90° (representation singularity); use the geometric Jacobian there"
        )
    return np.concatenate([J0[..., :3, :], np.linalg.solve(E, J0[..., 3:, :])], axis=-2)


def jdot(robot: RobotLike, q: Any, qd: Any) -> np.ndarray:
    """J̇ = dJ0/dt (…, 6, n) at joint rates qd, for the base-frame geometric Jacobian.

    Column i of J0 is [z_i × (p − o_i); z_i] (revolute) or [z_i; 0]: the axis z_i and point o_i move
    with the joints before i, so ż_i = ω_i × z_i and ȯ_i is that point's velocity, with
    ω_i = Σ_{j<i, revolute} z_j q̇_j. J̇·q̇ is the velocity-product term of task-space control.
    """
    from ..kinematics.frames import joint_axis_frames

    q = joint_vector(q, robot.n, "q", symbolic=False)
    qd = joint_vector(qd, robot.n, "qd", symbolic=False)
    F = joint_axis_frames(robot, robot.fkine_all(q))
    z, o = F[..., :3, 2], F[..., :3, 3]  # (..., n, 3)
    p = robot.fkine(q)[..., :3, 3]
    rev = np.array([link.revolute for link in robot.links])
    n = robot.n
    zr = z * (rev * qd)[..., None]  # revolute axes times their rates
    zp = z * ((~rev) * qd)[..., None]
    lower = np.tril(np.ones((n, n)), -1)  # j < i
    w = np.einsum("ij,...jk->...ik", lower, zr)  # ω of axis frame i
    # ȯ_i = Σ_{j<i} q̇_j (z_j × (o_i − o_j)) for revolute j, q̇_j z_j for prismatic j
    rel = o[..., :, None, :] - o[..., None, :, :]  # (..., i, j, 3) = o_i − o_j
    od = np.einsum("ij,...ijk->...ik", lower, np.cross(zr[..., None, :, :], rel)) + np.einsum(
        "ij,...jk->...ik", lower, zp
    )
    J = robot.jacob0(q)
    pd = (J[..., :3, :] @ qd[..., :, None])[..., 0]
    zd = np.cross(w, z)
    Jv = np.where(rev[:, None], np.cross(zd, p[..., None, :] - o) + np.cross(z, pd[..., None, :] - od), zd)
    Jw = np.where(rev[:, None], zd, 0.0)
    return np.concatenate([np.swapaxes(Jv, -1, -2), np.swapaxes(Jw, -1, -2)], axis=-2)


def __getattr__(name: str) -> Any:
    # The old name of manipulability_of_J (it clashed with jacobians.manipulability(robot, q)).
    if name == "manipulability":
        import warnings

        warnings.warn(
            "armlab.jacobians.analysis.manipulability(J, part) is now manipulability_of_J(J, part); "
            "armlab.jacobians.manipulability(robot, q, part) takes a robot and q",
            DeprecationWarning,
            stacklevel=2,
        )
        return manipulability_of_J
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
