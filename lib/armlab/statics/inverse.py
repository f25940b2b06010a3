"""Inverse statics: the tip wrench that given joint torques hold (statics chapter 002 §5.3)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from .._core.protocol import RobotLike
from .._core.validation import joint_vector
from .forces import check_frame

__all__ = ["inverse_statics", "InverseStatics"]


@dataclass
class InverseStatics:
    """F from τ. ``method``: "exact" (n = 6, J regular: F = (Jᵀ)⁻¹τ), "least-squares" (n > 6: the
    book's F = (JJᵀ)⁻¹Jτ, which fits τ best), "min-norm" (n < 6, or J singular: the smallest F whose
    torques are closest to τ). ``residual`` = ‖JᵀF − τ‖, ``reason`` says why that case applied."""

    wrench: np.ndarray
    method: str
    reason: str
    residual: float


def inverse_statics(
    robot: RobotLike, q: ArrayLike, tau: ArrayLike, *, frame: str = "base", tol: float = 1e-9
) -> InverseStatics:
    """The tip wrench (in ``frame``) that the joint torques ``tau`` hold; see :class:`InverseStatics`."""
    check_frame(frame)
    qv = joint_vector(q, robot.n, "q", symbolic=False, batch=False)
    t = joint_vector(tau, robot.n, "tau", symbolic=False, batch=False)
    J = robot.jacob0(qv) if frame == "base" else robot.jacobe(qv)  # type: ignore[attr-defined]
    s = np.linalg.svd(J, compute_uv=False)
    rank = int((s > tol * max(s[0], 1e-300)).sum())
    n = robot.n
    if n == 6 and rank == 6:
        F = np.linalg.solve(J.T, t)
        method, reason = "exact", "6 joints and J is regular: F = (Jᵀ)⁻¹τ is the one wrench"
    elif n > 6 and rank == 6:
        F = np.linalg.solve(J @ J.T, J @ t)
        method, reason = (
            "least-squares",
            (f"{n} joints: Jᵀ is {n}×6, τ = JᵀF has no exact solution in general; F = (JJᵀ)⁻¹Jτ minimises ‖JᵀF − τ‖"),
        )
    else:
        F = np.linalg.pinv(J.T, rcond=tol) @ t
        method = "min-norm"
        reason = (
            f"only {n} joints: many wrenches give these torques (the arm cannot resist forces along "
            f"{6 - rank} direction(s)); F is the smallest"
            if n < 6
            else f"J is singular (rank {rank} < 6): F = (Jᵀ)⁺τ, the smallest wrench closest to τ"
        )
    return InverseStatics(F, method, reason, float(np.linalg.norm(J.T @ F - t)))
