"""Recognising the course's arm structures from a DH table, whatever the lengths.

The closed-form inverse kinematics and the closed-form singular sets both need to know "is this a
PUMA560-type arm (or a youBot-type arm), and what are its lengths?". This is the one place that
answers it.
"""

from __future__ import annotations

import math
from typing import Any

from .._core.protocol import RobotLike

#: α_{i-1} of textbook Table 3.2 (degrees), the PUMA560 structure. In standard DH link i carries
#: the next modified row's α (models.puma560_standard), so that column is this one shifted.
PUMA_MODIFIED_ALPHA = (0.0, -90.0, 0.0, -90.0, 90.0, -90.0)
_PUMA_STANDARD_ALPHA = PUMA_MODIFIED_ALPHA[1:] + (0.0,)
#: α_i of lab report Table 2.1, the youBot structure (radians).
YOUBOT_ALPHA = (math.pi / 2, 0.0, 0.0, math.pi / 2, 0.0)


def _close(x, y):
    return abs(x - y) < 1e-12


def puma560_geometry(robot: RobotLike) -> dict[str, float] | None:
    """{'a2', 'a3', 'd2', 'd4', 'd6'} of a PUMA560-type robot (either DH convention), else None.

    d6 is the length written in the table after θ6 (0 in Table 3.2, where {6} is the wrist centre).
    """
    links = robot.links
    if robot.symbolic or robot.n != 6 or not all(link.revolute for link in links):
        return None
    if any(link.offset != 0.0 for link in links):
        return None
    alphas = PUMA_MODIFIED_ALPHA if robot.modified else _PUMA_STANDARD_ALPHA
    if not all(_close(link.alpha, math.radians(a)) for link, a in zip(links, alphas)):
        return None
    if robot.modified:
        # rows (α_{i-1}, a_{i-1}, d_i): (0,0,0) (−90,0,d2) (0,a2,0) (−90,a3,d4) (90,0,0) (−90,0,d6)
        if any(links[i].a != 0.0 for i in (0, 1, 4, 5)) or any(links[i].d != 0.0 for i in (0, 2, 4)):
            return None
        g = dict(a2=links[2].a, a3=links[3].a, d2=links[1].d, d4=links[3].d, d6=links[5].d)
    else:
        # standard rows (d, a, α): (0,0,−90) (d2,a2,0) (0,a3,−90) (d4,0,90) (0,0,−90) (d6,0,0)
        if any(links[i].a != 0.0 for i in (0, 3, 4, 5)) or any(links[i].d != 0.0 for i in (0, 2, 4)):
            return None
        g = dict(a2=links[1].a, a3=links[2].a, d2=links[1].d, d4=links[3].d, d6=links[5].d)
    return g if g["a2"] > 0.0 else None


def youbot_geometry(robot: RobotLike) -> dict[str, Any] | None:
    """{'a1', 'd1', 'a2', 'a3', 'd5', 'offsets'} of a youBot-type arm (standard DH, lab report
    Table 2.1's structure with any lengths and offsets), else None."""
    L = robot.links
    if robot.symbolic or robot.modified or robot.n != 5 or not all(link.revolute for link in L):
        return None
    if not all(abs(link.alpha - a) < 1e-12 for link, a in zip(L, YOUBOT_ALPHA)):
        return None
    if L[3].a or L[4].a or L[1].d or L[2].d or L[3].d or L[1].a <= 0 or L[2].a <= 0:
        return None
    return dict(a1=L[0].a, d1=L[0].d, a2=L[1].a, a3=L[2].a, d5=L[4].d, offsets=[link.offset for link in L])


def elbow3r_geometry(robot: RobotLike) -> dict[str, Any] | None:
    """{'d1', 'a2', 'l3', 'offsets'} of an articulated 3-R arm — a vertical base joint, then two parallel
    pitch joints (standard DH: α = (−90°, 0, 0), a1 = 0, d2 = d3 = 0) — else None. ``l3`` is a3 plus a
    tool that extends the last link along x3 (the simulation paper's gripper); other tools don't fit."""
    L = robot.links
    if robot.symbolic or robot.modified or robot.n != 3 or not all(link.revolute for link in L):
        return None
    if not (_close(L[0].alpha, -math.pi / 2) and L[1].alpha == 0.0 and L[2].alpha == 0.0):
        return None
    if L[0].a != 0.0 or L[1].d != 0.0 or L[2].d != 0.0 or L[1].a <= 0.0 or L[2].a <= 0.0:
        return None
    extra = 0.0
    if robot.tool is not None:
        T = robot.tool
        if (
            max(abs(T[i][j] - (1.0 if i == j else 0.0)) for i in range(3) for j in range(3)) > 1e-12
            or abs(T[1][3]) > 1e-12
            or abs(T[2][3]) > 1e-12
        ):
            return None
        extra = float(T[0][3])
    return dict(d1=L[0].d, a2=L[1].a, l3=L[2].a + extra, offsets=[link.offset for link in L])
