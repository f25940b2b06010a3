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
    torques are closest to τ). ``residual`` = ‖JᵀF − τ‖.

    ``ok``: F is the one wrench that holds τ (JᵀF = τ, and no other wrench does); otherwise ``reason`` says
    why not: no wrench gives these torques exactly, or many do ("" when ok).
    """

    wrench: np.ndarray
    method: str
    reason: str
    residual: float

    @property
    def ok(self) -> bool:
        """F is the one wrench that holds τ (``reason`` is "")."""
        return not self.reason


def inverse_statics(
    robot: RobotLike, q: ArrayLike, tau: ArrayLike, *, frame: str = "base", tol: float = 1e-9
) -> InverseStatics:
    """The tip wrench (in ``frame``) that the joint torques ``tau`` hold; see :class:`InverseStatics`.
    ``tol``: relative, for J's rank (of its largest singular value) and for JᵀF = τ (of max(‖τ‖, 1))."""
    check_frame(frame)
    qv = joint_vector(q, robot.n, "q", symbolic=False, batch=False)
    t = joint_vector(tau, robot.n, "tau", symbolic=False, batch=False)
    J = robot.jacob0(qv) if frame == "base" else robot.jacobe(qv)
    s = np.linalg.svd(J, compute_uv=False)
    rank = int((s > tol * max(s[0], 1e-300)).sum())
    n = robot.n
    if rank == 6 and n >= 6:  # Jᵀ has independent columns: at most one wrench holds τ
        F = np.linalg.solve(J.T, t) if n == 6 else np.linalg.solve(J @ J.T, J @ t)
        method = "exact" if n == 6 else "least-squares"
    else:
        F = np.linalg.pinv(J.T, rcond=tol) @ t
        method = "min-norm"
    residual = float(np.linalg.norm(J.T @ F - t))
    held = residual <= tol * max(float(np.linalg.norm(t)), 1.0)
    if method == "least-squares" and not held:
        reason = (
            f"{n} joints: Jᵀ is {n}×6, τ = JᵀF has no exact solution for these torques; F = (JJᵀ)⁻¹Jτ "
            f"minimises ‖JᵀF − τ‖ = {residual:.3g} N·m"
        )
    elif method == "min-norm":
        reason = (
            f"only {n} joints: many wrenches give these torques (the arm cannot resist forces along "
            f"{6 - rank} direction(s)); F is the smallest"
            if n < 6
            else f"J is singular (rank {rank} < 6): F = (Jᵀ)⁺τ, the smallest wrench closest to τ"
        ) + ("" if held else f"; no wrench gives them exactly (‖JᵀF − τ‖ = {residual:.3g} N·m)")
    else:
        reason = ""
    return InverseStatics(F, method, reason, residual)
