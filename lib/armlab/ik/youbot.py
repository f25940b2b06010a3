"""KUKA youBot arm closed-form inverse kinematics, lab report §2.1.3, eqs. (2.9)–(2.28).

Standard DH (Table 2.1, ``armlab.models.youbot()``), θ = q + offset (θ2 = q2 + π/2). With
⁰A₅ = [[r_ij, p]] (2.9) and ⁰A₁⁻¹·⁰A₅ = ¹A₂·²A₃·³A₄·⁴A₅ (2.10)–(2.12):

* θ1, (2.14): px·s1 − py·c1 = 0 → θ1ᴵ = atan2(py, px), θ1ᴵᴵ = atan2(−py, −px)
* θ5, (2.15): s5 = r11·s1 − r21·c1, c5 = r12·s1 − r22·c1
* θ234, (2.16): s234 = r13·c1 + r23·s1, c234 = −r33
* wrist point in frame 1, (2.17)–(2.19): x_r = (px − d5·r13)·c1 + (py − d5·r23)·s1 − a1,
  y_r = pz − d1 − d5·r33
* θ3, (2.20)–(2.22): c3 = (x_r² + y_r² − a2² − a3²) / (2·a2·a3), θ3 = ∓atan2(√(1 − c3²), c3)
* θ2, (2.23)–(2.25): θ2 = φ − atan2(a3·sin θ3, a2 + a3·cos θ3), φ = atan2(y_r, x_r)
  (this is the report's φ ± β with β = atan2(a3·sin|θ3|, a2 + a3·cos|θ3|) in one formula)
* θ4, (2.26): θ4 = θ234 − θ2 − θ3; q = θ − offset, (2.27)–(2.28).

Remarks on the report (checked in tests/test_ik_youbot.py):

* (2.12) is right (sympy). (2.15) is printed twice over in the text extraction ("c5 = … ⇒ c5 = …").
* After (2.28) the report says *any* position and orientation of the gripper can be reached in 4
  configurations. Not so: the arm has 5 joints, and the (3,3) element of (2.11)–(2.12) gives the
  constraint r13·s1 − r23·c1 = 0 (used in (2.18)): the approach axis z5 must lie in the vertical
  plane through the base axis and the wrist. A general 6-D pose violates it; this module detects
  that and offers ``nearest_T`` (the approach axis rotated into that plane by the smallest rotation).
* (2.14) divides by nothing but fails when px = py = 0 (target on the base axis): θ1 is then
  taken from the approach axis (2.18), and if that is vertical too θ1 is free (singular).
* The θ1ᴵᴵ branch reaches backwards over the top; with a1 > 0 it is often out of reach
  (|c3| > 1), so fewer than 4 configurations exist. Joint limits are not part of the report.

Labels ``'I:front-up'`` etc.: the report's numbering (I, II: θ1ᴵ; III, IV: θ1ᴵᴵ; I, III: θ3 ≤ 0),
then ``front``/``back`` (θ1ᴵ / θ1ᴵᴵ) and ``up``/``down`` (elbow above / below the line from joint 2
to the wrist point, seen with the wrist point in front).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._core.protocol import RobotLike
from .._core.validation import check_joint_values, check_pose
from ..kinematics.frames import strip_base_tool
from ..kinematics.structure import youbot_geometry
from ..transforms import axis_angle_to_R
from .results import IKBatch, IKSolutions
from .solver import Solver, fit_row, loop_batch, register

#: approach axis may leave the arm's plane by this much (rad) and still count as reachable.
PLANE_TOL = 1e-9
#: |c3| may exceed 1 by this much on the workspace boundary.
BOUNDARY_TOL = 1e-10

_ROMAN = ("I", "II", "III", "IV")


@register
class YoubotSolver(Solver):
    """Closed-form IK for the youBot arm structure (lengths and offsets read from the DH table)."""

    method = "youbot"

    def __init__(self, robot: RobotLike):
        super().__init__(robot)
        L = robot.links
        self.a1, self.d1, self.a2, self.a3, self.d5 = L[0].a, L[0].d, L[1].a, L[2].a, L[4].d
        self.offsets = [l.offset for l in L]

    @classmethod
    def match(cls, robot: RobotLike) -> YoubotSolver | None:
        return cls(robot) if youbot_geometry(robot) is not None else None

    def solve(self, T: Any, q0: ArrayLike | None = None, project: bool = False) -> IKSolutions:
        """All (up to 4) configurations of T; see the module docstring.

        If the orientation of T cannot be reached by the 5-DOF arm the result is empty with
        ``reachable=False``, a ``reason`` and ``nearest_T``; with ``project=True`` the solutions
        of ``nearest_T`` are returned instead (still ``reachable=False``).
        """
        rows = strip_base_tool(self.robot, check_pose(T))
        free = 0.0 if q0 is None else check_joint_values(q0, 5)[0] + self.offsets[0]
        R = [r[:3] for r in rows[:3]]
        px, py, pz = rows[0][3], rows[1][3], rows[2][3]
        r13, r23, r33 = R[0][2], R[1][2], R[2][2]
        scale = self.a1 + self.a2 + self.a3 + abs(self.d1) + abs(self.d5)
        singular = False
        if math.hypot(px, py) > 1e-9 * scale:
            th1 = math.atan2(py, px)  # (2.14)
        elif math.hypot(r13, r23) > PLANE_TOL:
            th1 = math.atan2(r23, r13)  # p on the base axis: the plane comes from z5, (2.18)
        else:
            th1, singular = free, True  # p and z5 both on the base axis: θ1 is free
        s1, c1 = math.sin(th1), math.cos(th1)
        off_plane = r13 * s1 - r23 * c1  # (3,3) element of (2.11); must be 0 by (2.12)
        if abs(off_plane) > PLANE_TOL:
            T_near = self.nearest_pose(rows, th1)
            angle = math.degrees(math.asin(min(1.0, abs(off_plane))))
            reason = (
                f"not reachable by the 5-DOF arm: the approach axis z5 is {angle:.3g}° out of the "
                "vertical plane through the base axis and the target (the (3,3) element of "
                "(2.11)–(2.12), r13·s1 − r23·c1, must be 0); nearest_T is the nearest reachable pose"
            )
            if not project:
                return IKSolutions.empty(5, reason, self.method, nearest_T=T_near)
            sols = self.solve(T_near, q0)
            sols.reachable, sols.success, sols.nearest_T = False, False, T_near
            sols.reason = reason + (" — q solves nearest_T" if len(sols) else "; " + sols.reason)
            return sols

        a1, d1, a2, a3, d5 = self.a1, self.d1, self.a2, self.a3, self.d5
        q, labels, ok, sing, why = [], [], [], [], []
        for b, t1 in enumerate((th1, th1 + math.pi)):
            c1, s1 = math.cos(t1), math.sin(t1)
            th5 = math.atan2(R[0][0] * s1 - R[1][0] * c1, R[0][1] * s1 - R[1][1] * c1)  # (2.15)
            th234 = math.atan2(r13 * c1 + r23 * s1, -r33)  # (2.16)
            xr = (px - d5 * r13) * c1 + (py - d5 * r23) * s1 - a1  # (2.19)
            yr = pz - d1 - d5 * r33
            c3 = (xr * xr + yr * yr - a2 * a2 - a3 * a3) / (2.0 * a2 * a3)  # (2.20)
            if abs(c3) > 1.0:
                if abs(c3) > 1.0 + BOUNDARY_TOL:
                    dist = math.hypot(xr, yr)
                    why.append(
                        f"θ1{'ᴵ' if b == 0 else 'ᴵᴵ'}: the wrist point is {dist:.4g} m from joint 2, "
                        f"outside [|a2 − a3|, a2 + a3] = [{abs(a2 - a3):.4g}, {a2 + a3:.4g}] m "
                        "(|cos θ3| > 1 in eq. (2.20))"
                    )
                    continue
                c3 = math.copysign(1.0, c3)
            s3 = math.sqrt(1.0 - c3 * c3)
            phi = math.atan2(yr, xr)
            for i, sign in enumerate((-1.0, 1.0)):  # (2.21)–(2.22): θ3 = ∓atan2(√(1 − c3²), c3)
                th3 = math.atan2(sign * s3, c3)
                th2 = phi - math.atan2(a3 * math.sin(th3), a2 + a3 * math.cos(th3))  # (2.23)–(2.25)
                th4 = th234 - th2 - th3  # (2.26)
                theta = (t1, th2, th3, th4, th5)
                row, w = fit_row([t - o for t, o in zip(theta, self.offsets)], self.lims)  # (2.27)–(2.28)
                elbow = "up" if (sign < 0) == (xr >= 0) else "down"
                q.append(row)
                labels.append(f"{_ROMAN[2 * b + i]}:{'front' if b == 0 else 'back'}-{elbow}")
                ok.append(w)
                sing.append(singular)
        if not q:
            return IKSolutions.empty(5, "unreachable: " + "; ".join(why), self.method)
        return IKSolutions(np.array(q), labels, np.array(ok), np.array(sing), method=self.method, note="; ".join(why))

    def nearest_pose(self, rows: list, th1: float) -> np.ndarray:
        """T with its approach axis rotated, by the smallest rotation, into the arm's vertical plane."""
        T = np.array(rows)
        a = T[:3, 2]
        normal = np.array([-math.sin(th1), math.cos(th1), 0.0])
        a_new = a - (a @ normal) * normal
        norm = np.linalg.norm(a_new)
        # z5 perpendicular to the plane: every direction in it is 90° away; take "pointing down"
        a_new = a_new / norm if norm > 1e-9 else np.array([0.0, 0.0, -1.0])
        axis = np.cross(a, a_new)
        s = np.linalg.norm(axis)
        if s > 1e-15:
            T[:3, :3] = axis_angle_to_R(axis, math.atan2(s, float(a @ a_new))) @ T[:3, :3]
        # back to the robot's outer frames (rows were base⁻¹·T·tool⁻¹)
        if self.robot.base is not None:
            T = self.robot.base @ T
        if self.robot.tool is not None:
            T = T @ self.robot.tool
        return T

    def solve_batch(self, T: Any, q0: ArrayLike | None = None, fill: float = 0.0, project: bool = False) -> IKBatch:
        return loop_batch(self, T, q0, 4, list(_ROMAN), fill, project=project)
