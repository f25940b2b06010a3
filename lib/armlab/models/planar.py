"""Planar 2R and 3R arms (textbook Example 3.9, statics chapter, simulation paper)."""
from __future__ import annotations

import math

from ..kinematics.links import DHLink
from ..robot import DHRobot

def planar2r(l1=1.0, l2=1.0, m1=1.0, m2=1.0):
    """Planar 2R arm with point masses at the link ends (textbook Example 3.9, statics ch. 5).

    Standard DH: a = (l1, l2), α = 0. Link frame i sits at the end of link i, so
    each point mass has its centre of mass at the frame origin, r = (0, 0, 0).
    Joint limits ±π.
    """
    links = [DHLink(a=l, m=m, qlim=(-math.pi, math.pi)) for l, m in ((l1, m1), (l2, m2))]
    return DHRobot(links, convention="standard", name="planar 2R")


def planar3r(l1=1.0, l2=1.0, l3=0.5):
    """Planar 3R arm, standard DH with a = (l1, l2, l3), α = 0, joint limits ±π."""
    links = [DHLink(a=l, qlim=(-math.pi, math.pi)) for l in (l1, l2, l3)]
    return DHRobot(links, convention="standard", name="planar 3R")
