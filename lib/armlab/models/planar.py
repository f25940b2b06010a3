"""Planar 2R and 3R arms (textbook Example 3.9, statics chapter, simulation paper)."""

from __future__ import annotations

import math

import numpy as np

from .._core.dhlink import Scalar
from ..kinematics.links import DHLink
from ..robot import DHRobot


def planar2r(l1: Scalar = 1.0, l2: Scalar = 1.0, m1: Scalar = 1.0, m2: Scalar = 1.0) -> DHRobot:
    """Planar 2R arm with point masses at the link ends (textbook Example 3.9, statics ch. 5).

    Standard DH: a = (l1, l2), α = 0. Link frame i sits at the end of link i, so
    each point mass has its centre of mass at the frame origin, r = (0, 0, 0).
    Joint limits ±π.
    """
    links = [DHLink(a=l, m=m, qlim=(-math.pi, math.pi)) for l, m in ((l1, m1), (l2, m2))]
    return DHRobot(links, convention="standard", name="planar 2R")


def planar3r(
    l1: float = 1.0,
    l2: float = 1.0,
    l3: float = 0.5,
    m1: float = 1.0,
    m2: float = 1.0,
    m3: float = 0.5,
    radius: float = 0.02,
) -> DHRobot:
    """Planar 3R arm, standard DH with a = (l1, l2, l3), α = 0, joint limits ±π.

    Mass properties (a course choice; no source gives any): each link a uniform solid rod (cylinder of
    ``radius``), by default 1 kg per metre, so m = (1, 1, 0.5) kg. Link frame i sits at the end of link
    i with x along it, so the centre of mass is r = (−l/2, 0, 0) and the inertia about it
    diag(m·ρ²/2, m(3ρ² + l²)/12, m(3ρ² + l²)/12).
    """
    links = []
    for l, m in zip((l1, l2, l3), (m1, m2, m3)):
        across = m * (3 * radius**2 + l**2) / 12
        links.append(
            DHLink(
                a=l, qlim=(-math.pi, math.pi), m=m, r=(-l / 2, 0.0, 0.0), I=np.diag([m * radius**2 / 2, across, across])
            )
        )
    return DHRobot(links, convention="standard", name="planar 3R")
