"""One sample of the arm, as :class:`~armlab.lab.YoubotArm` reads it from ``/joint_states``."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..models import youbot_driver_to_q

__all__ = ["ArmState"]


@dataclass(frozen=True)
class ArmState:
    """One ``/joint_states`` sample of the arm. DH angles and signs (``q``, ``qd``, ``effort``) and the
    driver's own (``*_driver``); ``stamp`` is the robot's time (s), ``age`` the time since it arrived."""

    q_driver: np.ndarray
    qd_driver: np.ndarray
    effort_driver: np.ndarray
    stamp: float
    seq: int | None
    received: float  # time.monotonic() at arrival
    gripper: float | None = None

    @property
    def q(self) -> np.ndarray:
        return youbot_driver_to_q(self.q_driver)

    @property
    def qd(self) -> np.ndarray:
        return -self.qd_driver  # every driver axis turns opposite to its DH axis

    @property
    def effort(self) -> np.ndarray:
        return -self.effort_driver

    @property
    def age(self) -> float:
        return time.monotonic() - self.received
