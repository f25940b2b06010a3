"""KUKA youBot arm: lab report Table 2.1, and the mapping between the real driver's joint angles and
the report's DH joint values (facts from shared/docs/youbot-interface.md)."""
from __future__ import annotations

import math

import numpy as np

from ..kinematics.links import DHLink
from ..robot import DHRobot

#: youBot driver facts (shared/docs/youbot-interface.md): limits and the candle pose, driver radians.
YOUBOT_DRIVER = {
    "lower": np.array([0.0100692, 0.0100692, -5.0265482, 0.0221239, 0.1106195]),
    "upper": np.array([5.8401402, 2.6179939, -0.0157080, 3.4292032, 5.6415924]),
    "candle": np.array([2.9496, 1.1345, -2.5482, 1.7890, 2.9234]),
}
# DH joint value of each joint when the driver reads the candle (arm straight up).
_YOUBOT_Q_CANDLE = np.array([0.0, 0.0, 0.0, math.pi / 2, 0.0])


def youbot_driver_to_q(q_driver):
    """Driver joint angles → DH joint values q of :func:`youbot` (θ = q + offset).

    Every driver axis turns opposite to the report's DH axis, and the candle
    pose is q = (0, 0, 0, π/2, 0): q = q_candle − (q_driver − q_driver_candle).
    """
    return _YOUBOT_Q_CANDLE - (np.asarray(q_driver, dtype=float) - YOUBOT_DRIVER["candle"])


def youbot_q_to_driver(q):
    """DH joint values q of :func:`youbot` → driver joint angles (inverse of youbot_driver_to_q)."""
    return YOUBOT_DRIVER["candle"] - (np.asarray(q, dtype=float) - _YOUBOT_Q_CANDLE)


def youbot(d5=0.218):
    """KUKA youBot arm, standard DH, lab report Table 2.1.

    ===  ======  =====  =====  ====================
    i    a (m)   α      d (m)  θ
    ===  ======  =====  =====  ====================
    1    0.033   π/2    0.147  q1
    2    0.155   0      0      q2 + π/2
    3    0.135   0      0      q3
    4    0       π/2    0      q4
    5    0       0      d5     q5
    ===  ======  =====  =====  ====================

    Joint limits are the real driver's limits (youbot-interface.md) mapped to
    these q with :func:`youbot_driver_to_q`. The report's check pose
    q = (0, 0, 0, π/2, 0) is the candle: R = diag(−1, −1, 1), p = (0.033, 0, 0.655).
    """
    lo = youbot_driver_to_q(YOUBOT_DRIVER["upper"])  # the map reverses every axis
    hi = youbot_driver_to_q(YOUBOT_DRIVER["lower"])
    rows = [(0.033, math.pi / 2, 0.147, 0.0), (0.155, 0.0, 0.0, math.pi / 2), (0.135, 0.0, 0.0, 0.0),
            (0.0, math.pi / 2, 0.0, 0.0), (0.0, 0.0, d5, 0.0)]
    links = [DHLink(a=a, alpha=al, d=d, offset=off, qlim=(l, h))
             for (a, al, d, off), l, h in zip(rows, lo, hi)]
    return DHRobot(links, convention="standard", name="youBot arm")
