"""PUMA560, textbook Example 3.3 / Table 3.2, in the modified and the standard DH convention."""
from __future__ import annotations

import math

from ..kinematics.links import DHLink
from ..kinematics.structure import PUMA_MODIFIED_ALPHA
from ..robot import DHRobot
from ..transforms import Trans

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


def puma560(symbolic=False, flange=False):
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
    ``fkine(sympy.symbols("q1:7"))`` gives the book's eqs. (3.26)–(3.32).

    >>> T = puma560().fkine(np.radians([90, 0, -90, 0, 0, 0]))
    >>> np.allclose(T[:3, 3], [-0.14909, 0.4318 + 0.43307, 0.02032])
    True
    """
    links = [DHLink(alpha=al * deg, a=a, d=d, qlim=(lo * deg, hi * deg))
             for (al, a, d), (lo, hi) in zip(_table(symbolic), _PUMA_QLIM_DEG)]
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
    table = _table(symbolic)
    # standard link i: d_i of modified row i, a and α of modified row i+1 (a0 = α0 = 0 here)
    nxt = table[1:] + [(0, 0, 0)]
    links = [DHLink(d=d, a=a_next, alpha=al_next * deg, qlim=(lo * deg, hi * deg))
             for (_, _, d), (al_next, a_next, _), (lo, hi) in zip(table, nxt, _PUMA_QLIM_DEG)]
    tool = Trans(0, 0, PUMA560["d6"]) if flange else None
    return DHRobot(links, convention="standard", tool=tool, name="PUMA560 (standard DH)")
