"""Articulated 3-R arm (the simulation paper's, 003 §2.4): a vertical base joint and two parallel pitch
joints; position only (3 joints place a point).

The paper solves it with Euclidean-norm equations (4)–(11): taking the norm of both sides of the
positioning equation (4) removes θ1 and θ2 and leaves A·cos θ1 + B·sin θ1 + C·cos θ3 + D·sin θ3 + E = 0
(5), which in general becomes a quartic in tan(θ3/2) (10). For this arm the shoulder sits on the base
axis (a1 = 0), so A = B = 0 and D = 0: the norm equation is the law of cosines

    ‖p − o₂‖² = a2² + l3² + 2·a2·l3·cos θ3,

and the quartic collapses to a quadratic in tan(θ3/2) with the two roots ±θ3 (elbow up / down).
θ1 = atan2(py, px) or that + π (reaching back over the top), and θ2 follows from the first two rows
of (4) — the paper's (11). Up to 4 solutions, labelled front/back and up/down; on the base axis
θ1 is free (a singularity) and keeps its current value; so does θ2 when the folded arm puts the
target on the shoulder (possible when a2 equals the last link with its gripper, as here).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._core.protocol import RobotLike
from .._core.validation import as_float_array, check_joint_values, check_pose
from ..kinematics.structure import elbow3r_geometry
from .planar import two_link
from .results import IKBatch, IKSolutions
from .solver import Solver, fit_row, loop_batch, register

LABELS = ("front-up", "front-down", "back-up", "back-down")


@register
class Elbow3RSolver(Solver):
    """Closed-form position IK for an articulated 3-R arm (lengths read from the DH table)."""

    method = "elbow3r"
    position_only = True

    def __init__(self, robot: RobotLike, g: dict[str, Any]):
        super().__init__(robot)
        self.d1, self.a2, self.l3, self.offsets = g["d1"], g["a2"], g["l3"], g["offsets"]

    @classmethod
    def match(cls, robot: RobotLike) -> Elbow3RSolver | None:
        g = elbow3r_geometry(robot)
        return None if g is None else cls(robot, g)

    def _point(self, target: Any) -> list[float]:
        """The target point in the base frame of the DH chain: from a 4×4 pose (its position) or a 3-vector."""
        if np.shape(target) == (3,):
            p = as_float_array(target, "point", (3,), allow_batch=False)
        else:
            p = np.array(check_pose(target, "T"))[:3, 3]
        if self.robot.base is not None:
            B = np.asarray(self.robot.base)
            p = B[:3, :3].T @ (p - B[:3, 3])
        return p.tolist()

    def solve(self, T: Any, q0: ArrayLike | None = None) -> IKSolutions:
        """All (up to 4) solutions reaching the position of T (4×4) or the point T (3,)."""
        px, py, pz = self._point(T)
        rho = math.hypot(px, py)
        on_axis = rho <= 1e-12 * max(1.0, self.a2 + self.l3)
        now = (
            [a + b for a, b in zip(check_joint_values(q0, 3), self.offsets)]
            if q0 is not None
            else [0.0, self.offsets[1], 0.0]
        )
        phi = now[0] if on_axis else math.atan2(py, px)
        out = []
        reason = ""
        for side, th1, X in (("front", phi, rho), ("back", phi + math.pi, -rho)):
            # in frame 1 (x1 horizontal toward θ1, y1 straight down): X = reach along x1, Y = d1 − pz
            # with a2 = l3 a target at the shoulder leaves θ2 free too: it keeps its current value
            sols = two_link(X, self.d1 - pz, self.a2, self.l3, now[1])
            if isinstance(sols, str):
                reason = sols.replace("from the base", "from the shoulder")
                continue
            for th2, th3, planar_label, at_shoulder in sols:
                # frame 1's y axis points down, so the planar solver's "up" is the elbow below the line
                # when reaching forward; reaching back over the top turns that round again
                elbow = planar_label if side == "back" else {"up": "down", "down": "up"}[planar_label]
                out.append((side, elbow, th1, th2, th3, on_axis or at_shoulder))
        if not out:
            return IKSolutions.empty(3, reason, self.method)
        q, labels, ok, sing = [], [], [], []
        for side, elbow, th1, th2, th3, singular in out:
            row, inside = fit_row([th1 - self.offsets[0], th2 - self.offsets[1], th3 - self.offsets[2]], self.lims)
            labels.append(f"{side}-{elbow}")
            q.append(row)
            ok.append(inside)
            sing.append(singular)
        order = sorted(range(len(q)), key=lambda i: LABELS.index(labels[i]))
        return IKSolutions(
            np.array(q)[order],
            [labels[i] for i in order],
            np.array(ok)[order],
            np.array(sing)[order],
            method=self.method,
        )

    def solve_batch(self, T: Any, q0: ArrayLike | None = None, fill: float = 0.0) -> IKBatch:
        return loop_batch(self, T, q0, 4, list(LABELS), fill)
