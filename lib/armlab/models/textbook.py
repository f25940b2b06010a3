"""Textbook exercise arms: the Stanford arm (exercises 3–4) and the RPR arm (exercise 5)."""

from __future__ import annotations

import math

from .._core.dhlink import Scalar
from ..kinematics.links import DHLink
from ..robot import DHRobot

deg = math.pi / 180


def stanford_arm(d2: Scalar = 0.154, d6: Scalar = 0.263, convention: str = "modified") -> DHRobot:
    """Stanford arm (RRPRRR), textbook ch. 3 exercises 3–4, Fig. 3.17.

    Modified DH (the textbook's convention), rows α_{i-1}, a_{i-1}, d_i, θ_i:
    (0, 0, 0, θ1), (−90°, 0, d2, θ2), (90°, 0, d3, 0) with d3 the prismatic
    variable, (0, 0, 0, θ4), (−90°, 0, 0, θ5), (90°, 0, d6, θ6).

    Erratum: the book's answer (Table 3.4) prints α = (−90°, 90°, 0, −90°, 90°, 0),
    which are the standard-convention α_i, under the α_{i-1} heading. Both give
    the same T06 only when read in their own convention; ``convention="standard"``
    builds that reading. Default lengths are Paul's (d2 = 0.154 m, d6 = 0.263 m).
    """
    if convention == "modified":
        rows = [(0, 0), (-90, d2), (90, 0), (0, 0), (-90, 0), (90, d6)]
    elif convention == "standard":
        rows = [(-90, 0), (90, d2), (0, 0), (-90, 0), (90, 0), (0, d6)]
    else:
        raise ValueError(f"convention must be 'standard' or 'modified', got {convention!r}")
    links = [DHLink(alpha=al * deg, d=d) for al, d in rows]
    links[2] = DHLink(alpha=rows[2][0] * deg, joint="P", qlim=(0.0, 1.0))
    return DHRobot(links, convention=convention, name="Stanford arm")


def rpr(L1: Scalar = 0.5, L2: Scalar = 0.3) -> DHRobot:
    """RPR manipulator of textbook ch. 3 exercise 5 (Fig. 3.18, Table 3.5), modified DH.

    Rows α_{i-1}, a_{i-1}, d_i, θ_i: (0, 0, L1, θ1), (90°, 0, d2, 0) with d2
    prismatic, (0, 0, L2, θ3).
    """
    links = [DHLink(d=L1), DHLink(alpha=90 * deg, joint="P", qlim=(0.0, 1.0)), DHLink(d=L2)]
    return DHRobot(links, convention="modified", name="RPR")
