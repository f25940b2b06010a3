"""Task-space resolved-rate control: the tool follows a Cartesian position reference.

Each step: the tool position x = fkine(q), the joint rates that would move it along the reference,
q̇* = J⁺·(ẋ_r + K·(x_r − x)) (damped least squares near a singularity, chapter 04's
:func:`armlab.jacobians.dls_rates`), and the torque that makes the joints follow them,
τ = Kv·(q̇* − q̇) + G(q). The reference is (x_r, ẋ_r): the tool position and velocity in the base frame.
"""

from __future__ import annotations

import math
from typing import Unpack

import numpy as np
from numpy.typing import ArrayLike

from .._core.protocol import RobotLike
from ..jacobians import damping, dls_rates
from .base import ModelBased, ModelOptions, gains
from .kernels import gravity_torques

__all__ = ["ResolvedRate"]


class ResolvedRate(ModelBased):
    """Resolved-rate position control of the tool, on a velocity loop with gravity compensation.

    ``k`` (1/s): how fast a position error is closed; ``kv`` (N·m·s/rad, per joint): the velocity loop.
    ``eps``, ``lam_max``: where damping starts and how much (chapter 04); :attr:`sigma_min` holds the
    last step's smallest singular value of the position Jacobian. ``options``:
    :class:`~armlab.control.base.ModelOptions` (``gravity``, ``limits``).
    """

    space = "task"
    kv: list[float]

    def __init__(
        self,
        model: RobotLike,
        k: float,
        kv: ArrayLike,
        *,
        eps: float = 0.04,
        lam_max: float = 0.04,
        **options: Unpack[ModelOptions],
    ) -> None:
        self.k = float(gains(k, "k"))
        self.eps, self.lam_max = float(eps), float(lam_max)
        self.sigma_min = math.nan
        super().__init__(model, options, kv=kv)

    @property
    def ref_size(self) -> int:
        return 3

    def _compile(self, robot: RobotLike) -> None:
        self._G = gravity_torques(robot, self.gravity)

    def law(self, t: float, q: list, qd: list, xr: list, xdr: list, _unused: list) -> list:
        qa = np.array(q)
        J = self.model.jacob0(qa)[:3]
        x = self.model.fkine(qa)[:3, 3]
        s = np.linalg.svd(J, compute_uv=False)
        self.sigma_min = float(s[-1]) if len(s) >= 3 else 0.0
        rates = dls_rates(
            J, np.array(xdr) + self.k * (np.array(xr) - x), float(damping(self.sigma_min, self.eps, self.lam_max))
        )
        G = self._G(q, math.cos, math.sin)
        return [kv * (r - v) + g for kv, r, v, g in zip(self.kv, rates.tolist(), qd, G)]

    def __repr__(self) -> str:
        return f"ResolvedRate(k={self.k:g}, {self._gain_repr()})"
