"""Planar 2R and 3R closed-form inverse kinematics (law of cosines).

2R, end point (x, y), links l1, l2:

    D = (x² + y² − l1² − l2²) / (2·l1·l2) = cos θ2,   θ2 = atan2(±√(1 − D²), D)
    θ1 = atan2(y, x) − atan2(l2·sin θ2, l1 + l2·cos θ2)

Elbow ``up`` is θ2 < 0: the elbow lies counter-clockwise of (above, for a target in front) the
line from the base to the target; ``down`` is θ2 > 0. |D| > 1 means the target is out of
reach (farther than l1 + l2, or nearer than |l1 − l2|).

3R, end-effector pose (x, y, φ): the wrist (x − l3·cos φ, y − l3·sin φ) is solved as a 2R,
then θ3 = φ − θ1 − θ2 (the textbook exercise 5 answer's two-link solution, extended).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np
from numpy.typing import ArrayLike

from .._core.deprecation import renamed_kwargs
from .._core.protocol import RobotLike
from .._core.validation import check_joint_values, check_pose
from ..kinematics.frames import strip_base_tool
from .results import IKBatch, IKSolutions
from .solver import Solver, fit_row, loop_batch, register

#: |D| may exceed 1 by this much (rounding on the workspace boundary) and still be reachable.
BOUNDARY_TOL = 1e-10


def two_link(x: float, y: float, l1: float, l2: float, th1_free: float = 0.0) -> list[tuple] | str:
    """[(θ1, θ2, label, singular)] for elbow up and down, or a string saying why (x, y) is unreachable."""
    r2 = x * x + y * y
    D = (r2 - l1 * l1 - l2 * l2) / (2.0 * l1 * l2)
    if D > 1.0:
        if D > 1.0 + BOUNDARY_TOL:
            return (
                f"unreachable: the target is {math.sqrt(r2):.4g} from the base, farther than "
                f"l1 + l2 = {l1 + l2:.4g} (cos θ2 = {D:.4g} > 1)"
            )
        D = 1.0
    elif D < -1.0:
        if D < -1.0 - BOUNDARY_TOL:
            return (
                f"unreachable: the target is {math.sqrt(r2):.4g} from the base, nearer than "
                f"|l1 − l2| = {abs(l1 - l2):.4g} (cos θ2 = {D:.4g} < −1)"
            )
        D = -1.0
    s = math.sqrt(1.0 - D * D)
    # target on the base (only when l1 = l2, folded arm): θ1 is free
    singular = r2 <= (BOUNDARY_TOL * (l1 + l2)) ** 2
    phi = math.atan2(y, x)
    out = []
    for sign, label in ((-1.0, "up"), (1.0, "down")):
        th2 = math.atan2(sign * s, D)
        th1 = th1_free if singular else phi - math.atan2(l2 * math.sin(th2), l1 + l2 * math.cos(th2))
        out.append((th1, th2, label, singular))
    return out


def three_link(
    x: float, y: float, phi: float, l1: float, l2: float, l3: float, th1_free: float = 0.0
) -> list[tuple] | str:
    """[(θ1, θ2, θ3, label, singular)] for elbow up and down, or a string saying why the pose is unreachable."""
    wx, wy = x - l3 * math.cos(phi), y - l3 * math.sin(phi)
    sols = two_link(wx, wy, l1, l2, th1_free)
    if isinstance(sols, str):
        return sols.replace("the target", f"the wrist ({wx:.4g}, {wy:.4g})")
    return [(t1, t2, phi - t1 - t2, label, singular) for t1, t2, label, singular in sols]


def _result(
    sols: list[tuple] | str,
    lims: Sequence[tuple[float, float, bool]],
    method: str,
    offsets: Sequence[float] | None = None,
) -> IKSolutions:
    """IKSolutions of [(θ1, …, θn, label, singular)] (q = θ − offset, fitted into lims), or empty for a reason."""
    n = len(lims)
    if isinstance(sols, str):
        return IKSolutions.empty(n, sols, method)
    q, ok = [], []
    for s in sols:
        row = s[:n] if offsets is None else [t - o for t, o in zip(s[:n], offsets)]
        r, w = fit_row(row, lims)
        q.append(r)
        ok.append(w)
    return IKSolutions(
        np.array(q), [s[n] for s in sols], np.array(ok), np.array([s[n + 1] for s in sols]), method=method
    )


_FREE = [(-math.inf, math.inf, True)] * 3


@renamed_kwargs(q_current="q0")
def planar2r_ikine(x: float, y: float, l1: float = 1.0, l2: float = 1.0, q0: ArrayLike | None = None) -> IKSolutions:
    """Both 2R solutions reaching (x, y), angles wrapped to (−π, π]. q0 (2,): the start pose, whose θ1
    is kept when the target is on the base (θ1 free).

    >>> s = planar2r_ikine(1.0, 1.0, 1.0, 1.0)
    >>> s.labels, np.degrees(s.q).round(6).tolist()
    (['up', 'down'], [[90.0, -90.0], [0.0, 90.0]])
    """
    x, y, l1, l2 = map(float, (x, y, l1, l2))
    free = 0.0 if q0 is None else check_joint_values(q0, 2, "q0")[0]
    return _result(two_link(x, y, l1, l2, free), _FREE[:2], "planar2r")


@renamed_kwargs(q_current="q0")
def planar3r_ikine(
    x: float, y: float, phi: float, l1: float = 1.0, l2: float = 1.0, l3: float = 0.5, q0: ArrayLike | None = None
) -> IKSolutions:
    """Both 3R solutions reaching (x, y) with the end effector at angle φ (rad); q0 (3,) as for
    :func:`planar2r_ikine`."""
    x, y, phi, l1, l2, l3 = map(float, (x, y, phi, l1, l2, l3))
    free = 0.0 if q0 is None else check_joint_values(q0, 3, "q0")[0]
    return _result(three_link(x, y, phi, l1, l2, l3, free), _FREE, "planar3r")


@register
class PlanarSolver(Solver):
    """Closed-form IK for a planar 2R / 3R robot (standard DH, every α = 0, revolute)."""

    def __init__(self, robot: RobotLike, lengths: list[float], offsets: list[float], z0: float):
        super().__init__(robot)
        self.method = f"planar{self.n}r"
        self.lengths, self.offsets, self.z0 = lengths, offsets, z0

    @classmethod
    def match(cls, robot: RobotLike) -> PlanarSolver | None:
        links = robot.links
        if robot.symbolic or robot.modified or robot.n not in (2, 3):
            return None
        if not all(l.revolute and l.alpha == 0.0 for l in links) or any(l.a <= 0.0 for l in links):
            return None
        return cls(robot, [l.a for l in links], [l.offset for l in links], sum(l.d for l in links))

    def solve(self, T: Any, q0: ArrayLike | None = None) -> IKSolutions:
        """2R: the position of T (its orientation is ignored, 2 joints only place a point);
        3R: position and the angle φ of x_n about z. T must lie in the arm's plane."""
        rows = strip_base_tool(self.robot, check_pose(T))
        x, y, z = rows[0][3], rows[1][3], rows[2][3]
        n = self.n
        scale = sum(self.lengths)
        if abs(z - self.z0) > 1e-9 * max(1.0, scale):
            return IKSolutions.empty(
                n, f"unreachable: the target z = {z:.4g} is off the arm's plane z = {self.z0:.4g}", self.method
            )
        free = 0.0 if q0 is None else check_joint_values(q0, n)[0] + self.offsets[0]
        l1, l2 = self.lengths[0], self.lengths[1]
        if n == 2:
            sols = two_link(x, y, l1, l2, free)
        else:
            if abs(rows[2][2] - 1.0) > 1e-9:
                return IKSolutions.empty(
                    3,
                    "unreachable: the orientation of T is not a rotation about "
                    "the z axis, which is all a planar arm can do",
                    self.method,
                )
            sols = three_link(x, y, math.atan2(rows[1][0], rows[0][0]), l1, l2, self.lengths[2], free)
        return _result(sols, self.lims, self.method, self.offsets)

    def solve_batch(self, T: Any, q0: ArrayLike | None = None, fill: float = 0.0) -> IKBatch:
        return loop_batch(self, T, q0, 2, ["up", "down"], fill)
