"""The static mapping τ = JᵀF and its subspaces (statics chapter 002 §5.3.2, Fig. 5.6).

τ = JᵀF maps the m-dimensional task space of tip wrenches F into the n-dimensional joint space of
torques τ. Fig. 5.6 names its parts: the image τ₁ of all F (the range of Jᵀ), the rest τ₂ of the joint
space (torques no tip force balances: the chapter's "余量"), and F₁, the forces mapped to zero torque
(the null space of Jᵀ), which the structure carries (Fig. 5.7). F₁ has m − rank J dimensions: for m ≤ n
it exists only at a singular pose, for m > n at every pose (the youBot's 6×5 J leaves one wrench
direction to the structure even at a regular pose).

τ₂ is the null space of J as a set of vectors, but it holds torques, not joint velocities: joint
*velocities* in it move the arm without the tip; *torques* in it are balanced by no tip force, so at
rest they accelerate the arm, tip included (by J·M⁻¹·τ: under a unit τ₂ the tip of the stretched 2R of
Fig. 5.7, with 1 kg point masses, accelerates at 3.1 m/s²).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from .._core.validation import as_float_array

__all__ = ["static_mapping", "StaticMapping"]


@dataclass
class StaticMapping:
    """The subspaces of τ = JᵀF at one pose, as orthonormal columns (§5.3.2, Fig. 5.6).

    ``range`` (n×r): τ₁, the torques some tip wrench balances; ``complement`` (n×(n−r)): τ₂, the torques
    none does (at rest they accelerate the arm; as a subspace it is the null space of J, whose joint
    velocities move the arm without the tip); ``null`` (m×(m−r)): F₁, the wrenches that need no torque
    (at a singular pose, or at any pose when m > n); ``rank`` r; ``singular_values`` of J, largest first."""

    range: np.ndarray
    complement: np.ndarray
    null: np.ndarray
    rank: int
    singular_values: np.ndarray


def static_mapping(J: ArrayLike, tol: float = 1e-9) -> StaticMapping:
    """The range, its complement and the null space of Jᵀ (see :class:`StaticMapping`) from one
    Jacobian J (m×n: m wrench components, n joints); singular values below ``tol``·σ_max count as 0.

    The 2R arm stretched out (Fig. 5.7): a force along the arm needs no torque, and only torques
    along one line in joint space can be balanced at the tip.

    >>> from armlab.models import planar2r
    >>> m = static_mapping(planar2r(0.5, 0.3).jacob0([0.0, 0.0])[:2])
    >>> m.rank, m.null.round(6).ravel().tolist()            # F₁: forces along the arm (x0)
    (1, [1.0, 0.0])
    >>> (m.range.ravel() / m.range[0, 0] * 0.8).round(6).tolist()   # τ₁ ∝ (l1 + l2, l2)
    [0.8, 0.3]
    """
    A = as_float_array(J, "J")
    if A.ndim != 2 or 0 in A.shape:
        raise ValueError(f"J must be one non-empty matrix (m, n), got shape {A.shape}")
    U, s, Vt = np.linalg.svd(A)  # J = U S Vᵀ, so Jᵀ = V S Uᵀ: range(Jᵀ) = V[:, :r], null(Jᵀ) = U[:, r:]
    r = int((s > tol * max(s[0] if len(s) else 0.0, 1e-300)).sum())
    return StaticMapping(range=Vt[:r].T, complement=Vt[r:].T, null=U[:, r:], rank=r, singular_values=s)
