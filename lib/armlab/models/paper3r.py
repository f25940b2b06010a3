"""The simulation paper's 3-R arm (003: Wan & Xu, Computer Simulation 33(12), 2016, §3 and §5.1).

Geometry (§3): a base 0.1 m high; links of 0.9, 1.0 and 0.8 m, 0.08 m in diameter; the gripper tip
0.2 m beyond the last link. Masses (§5.1): base 9 kg, lower and middle links 2 kg each, last link and
gripper together 2 kg, the ball 1 kg; g = 9.8 m/s². Joint ranges ±180°. The parts are homogeneous
rigid bodies (§2's simplification).

Several DH symbols are lost in the extraction of Table 1, so the table is rebuilt from this geometry
and the paper's narrative: at q = 0 the arm stands upright with the tip at (0, 0, 3) (§5.3's start);
joint 1 turns about the vertical, joints 2 and 3 pitch about parallel horizontal axes, positive
toward the target; the pick (1, 0, 0) is q = (0, 90°, 90°) and the place (1, 1, 1) is
q = (45°, 45°, 90°) — exactly §5.3's "θ2 and θ3 rise from 0° to 90°, then θ1 0°→45°, θ2 90°→45°,
θ3 stays 90°".

Standard DH (a, α, d, θ):

====  =====  =====  =====  =================
link  a (m)  α      d (m)  θ
====  =====  =====  =====  =================
1     0      −90°   1.0    q1            (base 0.1 + lower link 0.9)
2     1.0    0      0      q2 − 90°      (so that q2 = 0 is upright)
3     0.8    0      0      q3
tool  Trans(0.2, 0, 0): the gripper tip along the last link
====  =====  =====  =====  =================

Mass properties (in each DH frame, about the centre of mass): uniform rods of radius 0.04 m —
link 1 (0.9 m, 2 kg) from z = 0.1 to 1.0, link 2 (1.0 m, 2 kg), and the last link with the gripper
taken as one uniform 1.0 m rod of 2 kg. The base (9 kg) does not move and has no joint.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..kinematics.links import DHLink
from ..robot import DHRobot
from ..transforms import Trans

__all__ = ["paper_3r", "PAPER_3R", "PAPER_GRAVITY"]

#: The paper's numbers (SI units).
PAPER_3R: dict[str, Any] = {
    "base_height": 0.1,
    "lengths": (0.9, 1.0, 0.8),
    "gripper": 0.2,
    "radius": 0.04,
    "masses": (2.0, 2.0, 2.0),
    "base_mass": 9.0,
    "ball_mass": 1.0,
    "ball_diameter": 0.03,
    "pick": (1.0, 0.0, 0.0),
    "place": (1.0, 1.0, 1.0),
    "start_tip": (0.0, 0.0, 3.0),
    "dt": 0.002,
}
#: g = 9.8 m/s² (§5.1), in the world frame.
PAPER_GRAVITY = (0.0, 0.0, -9.8)


def _rod(m, length, radius, axis):
    """Inertia about the centre of a uniform rod along ``axis`` (0, 1, 2)."""
    I = np.full(3, m * (3 * radius**2 + length**2) / 12)
    I[axis] = 0.5 * m * radius**2
    return np.diag(I)


def paper_3r() -> DHRobot:
    """The paper's 3-R arm with inertia (see the module docstring for the sources and choices).

    >>> arm = paper_3r()
    >>> arm.fkine([0, 0, 0])[:3, 3].round(12).tolist()                          # the start pose
    [0.0, 0.0, 3.0]
    >>> (arm.fkine(np.radians([0, 90, 90]))[:3, 3].round(12) + 0.0).tolist()   # the pick
    [1.0, 0.0, 0.0]
    >>> arm.fkine(np.radians([45, 45, 90]))[:3, 3].round(12).tolist()          # the place
    [1.0, 1.0, 1.0]
    """
    P = PAPER_3R
    (l1, l2, l3), r = P["lengths"], P["radius"]
    m1, m2, m3 = P["masses"]
    rod3 = l3 + P["gripper"]  # last link and gripper as one uniform rod
    lim = (-math.pi, math.pi)
    links = [
        # frame 1 sits at the top of link 1 (the shoulder), y1 pointing down: link 1's centre is 0.45 m below
        DHLink(alpha=-math.pi / 2, d=P["base_height"] + l1, m=m1, r=(0.0, l1 / 2, 0.0), I=_rod(m1, l1, r, 1), qlim=lim),
        # frames 2 and 3 sit at the far ends of their links, x along the link
        DHLink(a=l2, offset=-math.pi / 2, m=m2, r=(-l2 / 2, 0.0, 0.0), I=_rod(m2, l2, r, 0), qlim=lim),
        DHLink(a=l3, m=m3, r=(rod3 / 2 - l3, 0.0, 0.0), I=_rod(m3, rod3, r, 0), qlim=lim),
    ]
    return DHRobot(links, convention="standard", tool=Trans(P["gripper"], 0, 0), name="paper 3-R arm")
