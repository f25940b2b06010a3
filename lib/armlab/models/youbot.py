"""KUKA youBot arm: lab report Table 2.1, the mapping between the real driver's joint angles and
the report's DH joint values, the store's mass properties and the actuators (facts from
docs/youbot-interface.md)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from ..kinematics.links import DHLink
from ..robot import DHRobot
from .inertial import Body, lump, move_bodies, with_bodies

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

#: youBot driver facts (docs/youbot-interface.md): limits and the candle pose, driver radians.
YOUBOT_DRIVER = {
    "lower": np.array([0.0100692, 0.0100692, -5.0265482, 0.0221239, 0.1106195]),
    "upper": np.array([5.8401402, 2.6179939, -0.0157080, 3.4292032, 5.6415924]),
    "candle": np.array([2.9496, 1.1345, -2.5482, 1.7890, 2.9234]),
}
# DH joint value of each joint when the driver reads the candle (arm straight up).
_YOUBOT_Q_CANDLE = np.array([0.0, 0.0, 0.0, math.pi / 2, 0.0])


def youbot_driver_to_q(q_driver: ArrayLike) -> np.ndarray:
    """Driver joint angles → DH joint values q of :func:`youbot` (θ = q + offset).

    Every driver axis turns opposite to the report's DH axis, and the candle
    pose is q = (0, 0, 0, π/2, 0): q = q_candle − (q_driver − q_driver_candle).
    """
    return _YOUBOT_Q_CANDLE - (np.asarray(q_driver, dtype=float) - YOUBOT_DRIVER["candle"])


def youbot_q_to_driver(q: ArrayLike) -> np.ndarray:
    """DH joint values q of :func:`youbot` → driver joint angles (inverse of youbot_driver_to_q)."""
    return YOUBOT_DRIVER["candle"] - (np.asarray(q, dtype=float) - _YOUBOT_Q_CANDLE)


#: The real arm's actuators (docs/youbot-interface.md), joints 1–5, in driver order: effort limits
#: (N·m, youbot_description URDF), gear ratios, motor torque constants Kt (N·m/A; τ = I·Kt·gear),
#: firmware speed limits (rad/s), the labs' effort watchdog (N·m, stop if exceeded for > 0.5 s) and
#: the identified static (Coulomb) friction (N·m; none published for joint 1: NaN).
YOUBOT_ACTUATORS = {
    "effort": np.array([9.5, 9.5, 6.0, 2.0, 1.0]),
    "gear": np.array([156.0, 156.0, 100.0, 71.0, 71.0]),
    "kt": np.array([0.0335, 0.0335, 0.0335, 0.051, 0.049]),
    "max_speed": np.array([2.685, 2.685, 4.189, 5.900, 5.900]),
    "watchdog": np.array([10.0, 13.0, 7.0, 3.0, 0.6]),
    "coulomb": np.array([np.nan, 0.065, 0.042, 0.039, 0.313]),
}

#: youBot-store mass properties (youbot-interface.md, "Dynamic parameters for a simulator"): mass (kg),
#: centre of mass (m) and principal moments (kg·m²) of links 1–5 and the gripper, each in a frame at
#: its joint whose axes are parallel to the base frame's in the candle pose (z up along the arm).
YOUBOT_STORE = {
    "link1": (2.351, (0.01516, 0.00359, -0.03105), (0.0029525, 0.0060091, 0.0058821)),
    "link2": (1.318, (-0.01903, 0.0150, 0.11397), (0.0031145, 0.0005843, 0.0031631)),
    "link3": (0.821, (0.00013, 0.02022, 0.10441), (0.00172767, 0.00041967, 0.0018468)),
    "link4": (0.769, (0.00015, -0.02464, 0.05353), (0.0006764, 0.0010573, 0.0006610)),
    "link5": (0.687, (0.0, 0.0012, 0.01648), (0.0001934, 0.0001602, 0.0000689)),
    "gripper": (0.219, (0.0, 0.0, 0.0289), (0.0002324, 0.0003629, 0.0002067)),
}
#: Where the store frames of joint 5 and of the gripper sit, along the arm in the candle pose (m):
#: joint 5 is 0.1136 m above joint 4 (youbot_description's corrected arm; its original URDF has 0.130 m,
#: another copy 0.114 m), the gripper frame 0.05716 m above joint 5 (taken as given, not verified).
YOUBOT_WRIST = {"joint5_above_joint4": 0.1136, "gripper_above_joint5": 0.05716}


def youbot_store_frames(robot: DHRobot) -> list[np.ndarray]:
    """World poses (4×4) of the store frames of links 1–5 in the candle pose q_c = (0, 0, 0, π/2, 0).

    The assumptions, all about the candle pose:

    * every store frame is parallel to the base frame {0} (z up along the arm, x towards the shoulder
      offset a1);
    * joints 2–4's frames sit at the DH origins O1–O3, which lie on those joints' axes;
    * joint 1's frame sits at O0 on the vertical axis: its height enters no torque, since link 1 only
      turns about that vertical axis;
    * joint 5's frame is :data:`YOUBOT_WRIST` ``joint5_above_joint4`` above O3 along the arm.
    """
    F = robot.fkine_all(_YOUBOT_Q_CANDLE)
    origins = [F[k][:3, 3] for k in range(4)]
    origins.append(origins[3] + [0.0, 0.0, YOUBOT_WRIST["joint5_above_joint4"]])
    frames = []
    for p in origins:
        S = np.eye(4)
        S[:3, 3] = p
        frames.append(S)
    return frames


def youbot_bodies(robot: DHRobot) -> list[Body]:
    """The store's bodies moved into ``robot``'s DH link frames, the gripper lumped into link 5.

    Each body is first written in the base frame at the candle pose (frames from
    :func:`youbot_store_frames`; the gripper's frame :data:`YOUBOT_WRIST` ``gripper_above_joint5``
    above joint 5's), the gripper joined to link 5 by the parallel-axis theorem (:func:`lump`), then
    moved into DH frame k: r_k = R_kᵀ(p − o_k), I_k = R_kᵀ·I·R_k with (R_k, o_k) frame k at the candle.
    """
    frames = youbot_store_frames(robot)
    base = []
    for S, key in zip(frames, ("link1", "link2", "link3", "link4", "link5")):
        m, r, moments = YOUBOT_STORE[key]
        base.append(Body(m, r, moments).moved(S))
    m, r, moments = YOUBOT_STORE["gripper"]
    grip = np.eye(4)
    grip[:3, 3] = frames[4][:3, 3] + [0.0, 0.0, YOUBOT_WRIST["gripper_above_joint5"]]
    base[4] = lump(base[4], Body(m, r, moments).moved(grip))
    return move_bodies(robot, _YOUBOT_Q_CANDLE, [np.eye(4)] * 5, base)


def youbot(d5: float = 0.218) -> DHRobot:
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

    Mass properties: the youBot-store values (:data:`YOUBOT_STORE`, youbot-interface.md) moved into
    these frames by :func:`youbot_bodies` (assumptions there), the gripper lumped into link 5.
    The actuators' limits, gearing and friction are in :data:`YOUBOT_ACTUATORS`.
    """
    lo = youbot_driver_to_q(YOUBOT_DRIVER["upper"])  # the map reverses every axis
    hi = youbot_driver_to_q(YOUBOT_DRIVER["lower"])
    rows = [
        (0.033, math.pi / 2, 0.147, 0.0),
        (0.155, 0.0, 0.0, math.pi / 2),
        (0.135, 0.0, 0.0, 0.0),
        (0.0, math.pi / 2, 0.0, 0.0),
        (0.0, 0.0, d5, 0.0),
    ]
    links = [DHLink(a=a, alpha=al, d=d, offset=off, qlim=(l, h)) for (a, al, d, off), l, h in zip(rows, lo, hi)]
    robot = DHRobot(links, convention="standard", name="youBot arm")
    return with_bodies(robot, youbot_bodies(robot))
