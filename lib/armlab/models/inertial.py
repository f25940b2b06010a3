"""Moving published mass properties into a model's DH link frames.

Sources give each body's mass, centre of mass and inertia in frames of their own (Corke's
standard-DH frames for the PUMA560, joint frames for the youBot). A body is rigid, so if its source
frame S and our link frame F are known in the world at one configuration, X = F⁻¹·S is constant and

    r_F = R_X·r_S + p_X,    I_F = R_X·I_S·R_Xᵀ    (the inertia stays about the centre of mass).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .._core.inertia import shift_inertia
from ..robot import DHRobot

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["Body", "lump", "move_bodies", "with_bodies"]


class Body:
    """Mass m (kg), centre of mass r (m) and 3×3 inertia I about it (kg·m²), in some frame."""

    def __init__(self, m: float, r: ArrayLike, I: ArrayLike) -> None:  # noqa: E741
        self.m = float(m)
        self.r = np.asarray(r, dtype=float).reshape(3)
        I = np.asarray(I, dtype=float)  # noqa: E741
        self.I = np.diag(I) if I.shape == (3,) else I.reshape(3, 3)

    def moved(self, X: np.ndarray) -> Body:
        """The same body in a frame F, given X = F⁻¹·S (4×4) with S the frame it is written in."""
        R = X[:3, :3]
        return Body(self.m, R @ self.r + X[:3, 3], R @ self.I @ R.T)

    def __repr__(self) -> str:
        return f"Body(m={self.m:g}, r={self.r.round(6).tolist()}, I={self.I.round(9).tolist()})"


def lump(*bodies: Body) -> Body:
    """One rigid body from several written in the same frame: masses add, the centre of mass is the
    mass-weighted mean, and each inertia is shifted to it by the parallel-axis theorem
    I_c = Σ I_k + m_k·(|d_k|²·E − d_k·d_kᵀ) with d_k = r_k − r_c (:func:`armlab._core.inertia.shift_inertia`)."""
    m = sum(b.m for b in bodies)
    rc = sum(b.m * b.r for b in bodies) / m
    return Body(m, rc, sum(shift_inertia(b.I, b.m, b.r - rc) for b in bodies))


def move_bodies(
    robot: DHRobot, q: ArrayLike, source_frames: Sequence[np.ndarray], bodies: Sequence[Body]
) -> list[Body]:
    """Bodies given in ``source_frames`` (world poses, 4×4 each, at joint values ``q``), moved into the
    robot's DH link frames 1…n at the same ``q``."""
    F = robot.fkine_all(np.asarray(q, dtype=float))[1:]
    return [b.moved(_snap(np.linalg.solve(Fk, Sk))) for Fk, Sk, b in zip(F, source_frames, bodies)]


def _snap(X: np.ndarray, tol: float = 1e-12) -> np.ndarray:
    """cos(π/2) = 6e-17 and the like become exact 0 and ±1: no 1e-20 terms in the compiled dynamics."""
    X = X.copy()
    for exact in (0.0, 1.0, -1.0):
        X[np.abs(X - exact) < tol] = exact
    return X


def with_bodies(robot: DHRobot, bodies: Sequence[Body], name: str | None = None) -> DHRobot:
    """A copy of ``robot`` (same table, limits, base, tool) whose links carry ``bodies`` (in link frames)."""

    def clean(
        x: Any, scale: float
    ) -> np.ndarray:  # rounding residue (1e-17 m, 1e-37 kg·m²) would only cost compiled operations
        return np.where(np.abs(x) < 1e-12 * scale, 0.0, x)

    links = [
        link.replace(m=b.m, r=tuple(clean(b.r, 1.0).tolist()), I=clean(0.5 * (b.I + b.I.T), np.abs(b.I).max()))
        for link, b in zip(robot.links, bodies)
    ]
    return robot.replace(links=links, name=name or robot.name)
