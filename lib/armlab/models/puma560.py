"""PUMA560, textbook Example 3.3 / Table 3.2, in the modified and the standard DH convention, with the
Armstrong–Khatib–Burdick mass properties as used by Corke."""

from __future__ import annotations

import math

import numpy as np

from ..kinematics.links import DHLink
from ..kinematics.structure import PUMA_MODIFIED_ALPHA
from ..robot import DHRobot
from ..transforms import Trans
from .inertial import Body, move_bodies, with_bodies

deg = math.pi / 180

#: Textbook Example 3.3 / Table 3.2 (converted from mm to m).
PUMA560 = {"a2": 0.4318, "a3": 0.02032, "d2": 0.14909, "d4": 0.43307, "d6": 0.05625}
_PUMA_QLIM_DEG = [(-160, 160), (-225, 45), (-225, 45), (-110, 170), (-100, 100), (-266, 266)]


def _table(symbolic):
    """Table 3.2's rows (α_{i-1} in degrees, a_{i-1}, d_i): the one copy of the PUMA560 table."""
    if symbolic:
        import sympy

        a2, a3, d2, d4 = sympy.symbols("a2 a3 d2 d4")
    else:
        a2, a3, d2, d4 = PUMA560["a2"], PUMA560["a3"], PUMA560["d2"], PUMA560["d4"]
    lengths = [(0, 0), (0, d2), (a2, 0), (a3, d4), (0, 0), (0, 0)]
    return [(al, a, d) for al, (a, d) in zip(PUMA_MODIFIED_ALPHA, lengths)]


#: Corke's joint angles are the textbook's plus this (Robotics Toolbox ``Puma560``, Paul's frames): the same
#: arm, q_textbook = q_Corke − CORKE_OFFSET (tests/jacobians/test_jacobians.py checks it against the toolbox).
CORKE_OFFSET = (math.pi, math.pi, 0.0, 0.0, 0.0, 0.0)
#: The Toolbox's named poses (the Jacobian notes 004 §5 compute at qn and name qs and q0; the Toolbox has no q0,
#: its zero pose is qz), in the textbook's joint angles:
#: qz all Corke angles zero, qn "nominal" (0, 45°, 180°, 0, 45°, 0), qr "ready" (0, 90°, −90°, 0, 0, 0),
#: qs "stretched" (0, 0, −90°, 0, 0, 0).
PUMA560_POSES = {
    name: tuple(float(c - o) for c, o in zip(corke, CORKE_OFFSET))
    for name, corke in (
        ("qz", (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)),
        ("qn", (0.0, math.pi / 4, math.pi, 0.0, math.pi / 4, 0.0)),
        ("qr", (0.0, math.pi / 2, -math.pi / 2, 0.0, 0.0, 0.0)),
        ("qs", (0.0, 0.0, -math.pi / 2, 0.0, 0.0, 0.0)),
    )
}

# --- mass properties --------------------------------------------------------------------------------
#: Armstrong, Khatib & Burdick (1986) as collected by Corke & Armstrong-Hélouvry (1994) and used in
#: Corke's Robotics Toolbox (roboticstoolbox-python, models/DH/Puma560.py): per link the mass (kg), the
#: centre of mass (m) and the principal moments (kg·m²) about it, in Corke's standard-DH frames
#: (:data:`_CORKE_FRAMES`). Motor inertia, gearing and friction are the actuators', not the links'.
PUMA560_AKB = [
    (0.0, (0.0, 0.0, 0.0), (0.0, 0.35, 0.0)),
    (17.4, (-0.3638, 0.006, 0.2275), (0.13, 0.524, 0.539)),
    (4.8, (-0.0203, -0.0141, 0.070), (0.066, 0.086, 0.0125)),
    (0.82, (0.0, 0.019, 0.0), (1.8e-3, 1.3e-3, 1.8e-3)),
    (0.34, (0.0, 0.0, 0.0), (0.3e-3, 0.4e-3, 0.3e-3)),
    (0.09, (0.0, 0.0, 0.032), (0.15e-3, 0.15e-3, 0.04e-3)),
]
#: The two corrections this course makes, both because the published moments break the triangle
#: inequality I_max ≤ I_1 + I_2 that every real body's principal moments satisfy (DHLink rejects them):
#:
#: * link 1, (0, 0.35, 0): only the moment about joint 1's axis (y in Corke's frame 1) was measured;
#:   the link turns about that fixed axis alone, so its other two moments enter no torque. They are
#:   set to 0.175 each, the smallest equal pair that makes the body physical: τ is unchanged.
#: * link 3, (0.066, 0.086, 0.0125): 0.086 > 0.066 + 0.0125 by 0.0075. The smallest change (in the
#:   Euclidean norm) that makes it physical moves every moment by 0.0075/3 = 0.0025 towards the
#:   bound: (0.0685, 0.0835, 0.0150). This does change τ, by less than 0.01 N·m for |q̇|, |q̈| ≤ 2.
PUMA560_MOMENT_CORRECTIONS = {0: (0.175, 0.35, 0.175), 2: (0.0685, 0.0835, 0.0150)}


def _corke_frames(q):
    """World poses of Corke's (Paul's) standard-DH link frames 1…6 of the same arm at our q.

    Corke's table: α = (90°, 0, −90°, 90°, −90°, 0), the shoulder offset as d3 and a base height d1
    (taken as 0 here); with our lengths it is our arm with q_Corke = q + (π, π, 0, 0, 0, 0)."""
    a2, a3, d2, d4 = PUMA560["a2"], PUMA560["a3"], PUMA560["d2"], PUMA560["d4"]
    rows = [(0, 0, 90, math.pi), (0, a2, 0, math.pi), (d2, a3, -90, 0), (d4, 0, 90, 0), (0, 0, -90, 0), (0, 0, 0, 0)]
    paul = DHRobot([DHLink(d=d, a=a, alpha=al * deg, offset=off) for d, a, al, off in rows], "standard")
    return paul.fkine_all(np.asarray(q, dtype=float))[1:]


def puma560_bodies() -> list[Body]:
    """The AKB/Corke link bodies (with :data:`PUMA560_MOMENT_CORRECTIONS`) in Corke's frames."""
    return [Body(m, r, PUMA560_MOMENT_CORRECTIONS.get(k, moments)) for k, (m, r, moments) in enumerate(PUMA560_AKB)]


def _with_inertia(robot):
    q0 = np.zeros(6)
    return with_bodies(robot, move_bodies(robot, q0, _corke_frames(q0), puma560_bodies()))


def puma560(symbolic: bool = False, flange: bool = False) -> DHRobot:
    """PUMA560 in the modified (Craig) convention, exactly as textbook Table 3.2.

    ====  ========  =======  ====  ====  ===============
    i     α_{i-1}   a_{i-1}  d_i   θ_i   range
    ====  ========  =======  ====  ====  ===============
    1     0         0        0     θ1    −160° … 160°
    2     −90°      0        d2    θ2    −225° … 45°
    3     0         a2       0     θ3    −225° … 45° (*)
    4     −90°      a3       d4    θ4    −110° … 170°
    5     90°       0        0     θ5    −100° … 100°
    6     −90°      0        0     θ6    −266° … 266°
    ====  ========  =======  ====  ====  ===============

    a2 = 431.8 mm, a3 = 20.32 mm, d2 = 149.09 mm, d4 = 433.07 mm.

    (*) The book prints −45° … 225°: that range is in Fu–Gonzalez–Lee's θ3, which is this θ3 + 180°
    (docs/errata.md); in these frames it is −225° … 45°, and the book's check pose lies inside it.

    Where d6 = 56.25 mm belongs: Table 3.2 lists d6 = 0, and the book's check
    pose (T06 at θ = (90°, 0, −90°, 0, 0, 0) has p = (−d2, a2 + d4, a3)) only
    holds with frame {6} at the wrist centre, where axes 4, 5 and 6 meet. That
    is also what the closed-form inverse kinematics (3.33)–(3.53) assumes. So
    d6 is not a DH parameter: it is the distance from the wrist centre to the
    tool flange along a (z6), i.e. a tool transform Trans(0, 0, d6). By default
    ``fkine`` gives T06 as in the book; ``flange=True`` adds that tool.

    ``symbolic=True`` uses sympy symbols a2, a3, d2, d4 for the lengths, so
    ``fkine(sympy.symbols("q1:7"))`` gives the book's eqs. (3.26)–(3.32); that model has no inertia.

    Mass properties (numeric model): Armstrong, Khatib & Burdick (1986) as used by Corke's Robotics
    Toolbox (:data:`PUMA560_AKB`), moved from Corke's standard-DH frames into these frames (a
    body's pose in the world does not depend on the frames that describe it), with the two
    triangle-inequality corrections of :data:`PUMA560_MOMENT_CORRECTIONS`. m1 = 0 as published:
    link 1's centre of mass is on joint 1's axis, so its mass enters no torque.

    >>> T = puma560().fkine(np.radians([90, 0, -90, 0, 0, 0]))
    >>> np.allclose(T[:3, 3], [-0.14909, 0.4318 + 0.43307, 0.02032])
    True
    """
    links = [
        DHLink(alpha=al * deg, a=a, d=d, qlim=(lo * deg, hi * deg))
        for (al, a, d), (lo, hi) in zip(_table(symbolic), _PUMA_QLIM_DEG)
    ]
    tool = Trans(0, 0, PUMA560["d6"]) if flange else None
    robot = DHRobot(links, convention="modified", tool=tool, name="PUMA560")
    return robot if symbolic else _with_inertia(robot)


def puma560_standard(symbolic: bool = False, flange: bool = False) -> DHRobot:
    """The same PUMA560 as :func:`puma560`, written in the standard DH convention.

    A modified row i carries (α_{i-1}, a_{i-1}); in the standard convention
    link i carries (a_i, α_i). Because Rx(α) and Tx(a) commute, the modified
    chain regroups into standard links whose a, α are the next modified row's,
    with no base or tool correction (α0 = a0 = 0 here). fkine is identical; the
    intermediate link frames differ (standard frame i sits on joint axis i+1).
    The numeric model carries the same bodies as :func:`puma560`, moved into these frames, so both
    give the same τ = rne(q, q̇, q̈).
    """
    table = _table(symbolic)
    # standard link i: d_i of modified row i, a and α of modified row i+1 (a0 = α0 = 0 here)
    nxt = table[1:] + [(0, 0, 0)]
    links = [
        DHLink(d=d, a=a_next, alpha=al_next * deg, qlim=(lo * deg, hi * deg))
        for (_, _, d), (al_next, a_next, _), (lo, hi) in zip(table, nxt, _PUMA_QLIM_DEG)
    ]
    tool = Trans(0, 0, PUMA560["d6"]) if flange else None
    robot = DHRobot(links, convention="standard", tool=tool, name="PUMA560 (standard DH)")
    return robot if symbolic else _with_inertia(robot)
