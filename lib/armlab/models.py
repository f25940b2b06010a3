"""Robot models of the course, each built from the table its source prints.

Lengths in metres, angles in radians. Functions that take lengths accept
sympy symbols too, for symbolic derivations.
"""
from __future__ import annotations

import math

import numpy as np

from .dh import DHLink, DHRobot
from .transforms import Trans

__all__ = [
    "puma560", "puma560_standard", "youbot", "planar2r", "planar3r", "stanford_arm", "rpr",
    "PUMA560", "YOUBOT_DRIVER", "youbot_driver_to_q", "youbot_q_to_driver",
]

deg = math.pi / 180

#: Textbook Example 3.3 / Table 3.2 (converted from mm to m).
PUMA560 = {"a2": 0.4318, "a3": 0.02032, "d2": 0.14909, "d4": 0.43307, "d6": 0.05625}
_PUMA_QLIM_DEG = [(-160, 160), (-225, 45), (-45, 225), (-110, 170), (-100, 100), (-266, 266)]


def _puma_lengths(symbolic):
    if symbolic:
        import sympy

        return sympy.symbols("a2 a3 d2 d4")
    return PUMA560["a2"], PUMA560["a3"], PUMA560["d2"], PUMA560["d4"]


def puma560(symbolic=False, flange=False):
    """PUMA560 in the modified (Craig) convention, exactly as textbook Table 3.2.

    ====  ========  =======  ====  ====  ===============
    i     α_{i-1}   a_{i-1}  d_i   θ_i   range
    ====  ========  =======  ====  ====  ===============
    1     0         0        0     θ1    −160° … 160°
    2     −90°      0        d2    θ2    −225° … 45°
    3     0         a2       0     θ3    −45° … 225°
    4     −90°      a3       d4    θ4    −110° … 170°
    5     90°       0        0     θ5    −100° … 100°
    6     −90°      0        0     θ6    −266° … 266°
    ====  ========  =======  ====  ====  ===============

    a2 = 431.8 mm, a3 = 20.32 mm, d2 = 149.09 mm, d4 = 433.07 mm.

    Where d6 = 56.25 mm belongs: Table 3.2 lists d6 = 0, and the book's check
    pose (T06 at θ = (90°, 0, −90°, 0, 0, 0) has p = (−d2, a2 + d4, a3)) only
    holds with frame {6} at the wrist centre, where axes 4, 5 and 6 meet. That
    is also what the closed-form inverse kinematics (3.33)–(3.53) assumes. So
    d6 is not a DH parameter: it is the distance from the wrist centre to the
    tool flange along a (z6), i.e. a tool transform Trans(0, 0, d6). By default
    ``fkine`` gives T06 as in the book; ``flange=True`` adds that tool.

    ``symbolic=True`` uses sympy symbols a2, a3, d2, d4 for the lengths, so
    ``fkine(sympy.symbols("q1:7"))`` gives the book's eqs. (3.26)–(3.32).

    >>> T = puma560().fkine(np.radians([90, 0, -90, 0, 0, 0]))
    >>> np.allclose(T[:3, 3], [-0.14909, 0.4318 + 0.43307, 0.02032])
    True
    """
    a2, a3, d2, d4 = _puma_lengths(symbolic)
    rows = [(0, 0, 0), (-90, 0, d2), (0, a2, 0), (-90, a3, d4), (90, 0, 0), (-90, 0, 0)]
    links = [DHLink(alpha=al * deg, a=a, d=d, qlim=(lo * deg, hi * deg))
             for (al, a, d), (lo, hi) in zip(rows, _PUMA_QLIM_DEG)]
    tool = Trans(0, 0, PUMA560["d6"]) if flange else None
    return DHRobot(links, convention="modified", tool=tool, name="PUMA560")


def puma560_standard(symbolic=False, flange=False):
    """The same PUMA560 as :func:`puma560`, written in the standard DH convention.

    A modified row i carries (α_{i-1}, a_{i-1}); in the standard convention
    link i carries (a_i, α_i). Because Rx(α) and Tx(a) commute, the modified
    chain regroups into standard links whose a, α are the next modified row's,
    with no base or tool correction (α0 = a0 = 0 here). fkine is identical; the
    intermediate link frames differ (standard frame i sits on joint axis i+1).
    """
    a2, a3, d2, d4 = _puma_lengths(symbolic)
    rows = [(0, 0, -90), (d2, a2, 0), (0, a3, -90), (d4, 0, 90), (0, 0, -90), (0, 0, 0)]
    links = [DHLink(d=d, a=a, alpha=al * deg, qlim=(lo * deg, hi * deg))
             for (d, a, al), (lo, hi) in zip(rows, _PUMA_QLIM_DEG)]
    tool = Trans(0, 0, PUMA560["d6"]) if flange else None
    return DHRobot(links, convention="standard", tool=tool, name="PUMA560 (standard DH)")


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


def stanford_arm(d2=0.154, d6=0.263, convention="modified"):
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


def rpr(L1=0.5, L2=0.3):
    """RPR manipulator of textbook ch. 3 exercise 5 (Fig. 3.18, Table 3.5), modified DH.

    Rows α_{i-1}, a_{i-1}, d_i, θ_i: (0, 0, L1, θ1), (90°, 0, d2, 0) with d2
    prismatic, (0, 0, L2, θ3).
    """
    links = [DHLink(d=L1), DHLink(alpha=90 * deg, joint="P", qlim=(0.0, 1.0)), DHLink(d=L2)]
    return DHRobot(links, convention="modified", name="RPR")
