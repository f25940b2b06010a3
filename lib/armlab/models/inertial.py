"""Moving published mass properties into a model's DH link frames.

Sources give each body's mass, centre of mass and inertia in frames of their own (Corke's
standard-DH frames for the PUMA560, joint frames for the youBot). A body is rigid, so if its source
frame S and our link frame F are known in the world at one configuration, X = F⁻¹·S is constant and

    r_F = R_X·r_S + p_X,    I_F = R_X·I_S·R_Xᵀ    (the inertia stays about the centre of mass).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..robot import DHRobot

__all__ = ["Body", "lump", "move_bodies", "with_bodies"]


class Body:
    """Mass m (kg), centre of mass r (m) and 3×3 inertia I about it (kg·m²), in some frame."""

    def __init__(self, m, r, I):  # noqa: E741
        self.m = float(m)
        self.r = np.asarray(r, dtype=float).reshape(3)
        I = np.asarray(I, dtype=float)  # noqa: E741
        self.I = np.diag(I) if I.shape == (3,) else I.reshape(3, 3)

    def moved(self, X):
        """The same body in a frame F, given X = F⁻¹·S (4×4) with S the frame it is written in."""
        R = X[:3, :3]
        return Body(self.m, R @ self.r + X[:3, 3], R @ self.I @ R.T)

    def __repr__(self):
        return f"Body(m={self.m:g}, r={self.r.round(6).tolist()}, I={self.I.round(9).tolist()})"


def lump(*bodies):
    """One rigid body from several written in the same frame: masses add, the centre of mass is the
    mass-weighted mean, and each inertia is shifted to it by the parallel-axis theorem
    I_c = Σ I_k + m_k·(|d_k|²·E − d_k·d_kᵀ) with d_k = r_k − r_c."""
    m = sum(b.m for b in bodies)
    rc = sum(b.m * b.r for b in bodies) / m
    I = sum(b.I + b.m * (np.dot(b.r - rc, b.r - rc) * np.eye(3) - np.outer(b.r - rc, b.r - rc)) for b in bodies)  # noqa: E741
    return Body(m, rc, I)


def move_bodies(robot, q, source_frames, bodies):
    """Bodies given in ``source_frames`` (world poses, 4×4 each, at joint values ``q``), moved into the
    robot's DH link frames 1…n at the same ``q``."""
    F = robot.fkine_all(np.asarray(q, dtype=float))[1:]
    return [b.moved(_snap(np.linalg.solve(Fk, Sk))) for Fk, Sk, b in zip(F, source_frames, bodies)]


def _snap(X, tol=1e-12):
    """cos(π/2) = 6e-17 and the like become exact 0 and ±1: no 1e-20 terms in the compiled dynamics."""
    X = X.copy()
    for exact in (0.0, 1.0, -1.0):
        X[np.abs(X - exact) < tol] = exact
    return X


def with_bodies(robot, bodies, name=None):
    """A copy of ``robot`` (same table, limits, base, tool) whose links carry ``bodies`` (in link frames)."""
    def clean(x, scale):  # rounding residue (1e-17 m, 1e-37 kg·m²) would only cost compiled operations
        return np.where(np.abs(x) < 1e-12 * scale, 0.0, x)

    links = [replace(link, m=b.m, r=tuple(clean(b.r, 1.0).tolist()),
                     I=clean(0.5 * (b.I + b.I.T), np.abs(b.I).max())) for link, b in zip(robot.links, bodies)]
    return DHRobot(links, robot.convention, base=robot.base, tool=robot.tool, name=name or robot.name)
