"""Central finite differences, the reference that needs no other library."""

from __future__ import annotations

import numpy as np

from .elementary import vee


def fd_jacobians(fkine, q, h=1e-6):
    """Central-difference (J0, Je) of a pose function fkine(q) -> 4×4.

    Column j: linear part ∂p/∂q_j; angular part vee(Ṙ·Rᵀ) in the base frame
    (J0) and vee(Rᵀ·Ṙ) in the end-effector frame (Je), with Ṙ = ∂R/∂q_j.
    The (v) rows of Je are Rᵀ·∂p/∂q_j.
    """
    q = np.asarray(q, dtype=float)
    T = fkine(q)
    Rm = T[:3, :3]
    n = q.size
    J0, Je = np.zeros((6, n)), np.zeros((6, n))
    for j in range(n):
        dq = np.zeros(n)
        dq[j] = h
        dT = (fkine(q + dq) - fkine(q - dq)) / (2 * h)
        dp, dR = dT[:3, 3], dT[:3, :3]
        J0[:3, j], J0[3:, j] = dp, vee(dR @ Rm.T)
        Je[:3, j], Je[3:, j] = Rm.T @ dp, vee(Rm.T @ dR)
    return J0, Je
