"""Where the course's arms are singular, in closed form, and how to get there.

PUMA560 (textbook Table 3.2, either convention), derived with sympy from ^TJ of (3.94)–(3.99):

    det J = −a2 · (a3·s3 + d4·c3) · (a2·c2 + a3·c23 − d4·s23) · s5

* ``wrist``:    s5 = 0 — axes 4 and 6 line up (the case the IK's (3.48) warns about);
* ``elbow``:    a3·s3 + d4·c3 = 0 — the forearm (to the wrist centre) is in line with the upper arm;
* ``shoulder``: a2·c2 + a3·c23 − d4·s23 = 0 — the wrist centre lies on the plane through axis 1
  perpendicular to the shoulder offset, i.e. at distance d2 from axis 1.

youBot arm (lab report Table 2.1), J is 6×5:

* ``elbow``:    s3 = 0 — links 2 and 3 in line (stretched or folded): rank 4;
* ``base-axis``: the gripper point on the axis of joint 1 (ρ = its distance from that axis = 0):
  joint 1 moves the point no more, so the position Jacobian loses rank.

Planar 2R/3R: ``elbow`` s2 = 0.

>>> import armlab
>>> robot = armlab.models.puma560()
>>> q = snap_to_singularity(robot, np.radians([20, -30, 40, 10, 30, 50]), "wrist")
>>> round(float(np.degrees(q[4])), 9), int(np.linalg.matrix_rank(robot.jacob0(q)))
(0.0, 5)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._core.protocol import RobotLike
from .._core.validation import joint_vector
from ..kinematics.structure import puma560_geometry, youbot_geometry

__all__ = ["singularity_conditions", "snap_to_singularity", "puma560_det"]


def puma560_det(q: ArrayLike, a2: float, a3: float, d4: float) -> Any:
    """det J of the PUMA560 in closed form (the sign of ^TJ in the textbook's frames)."""
    _, q2, q3, _, q5, _ = np.moveaxis(np.asarray(q, float), -1, 0)
    return (
        -a2
        * (a3 * np.sin(q3) + d4 * np.cos(q3))
        * (a2 * np.cos(q2) + a3 * np.cos(q2 + q3) - d4 * np.sin(q2 + q3))
        * np.sin(q5)
    )


def _conditions(robot):
    """{kind: (f(q) → value that is 0 on the singular set, index of the joint that reaches it)}."""
    g = puma560_geometry(robot)
    if g is not None:
        a2, a3, d4 = g["a2"], g["a3"], g["d4"]
        return {
            "wrist": (lambda q: math.sin(q[4]), 4),
            "elbow": (lambda q: a3 * math.sin(q[2]) + d4 * math.cos(q[2]), 2),
            "shoulder": (lambda q: a2 * math.cos(q[1]) + a3 * math.cos(q[1] + q[2]) - d4 * math.sin(q[1] + q[2]), 1),
        }
    yb = youbot_geometry(robot)
    if yb is not None:
        off = yb["offsets"]

        def rho(q):
            T = robot.fkine(np.asarray(q, float))
            c, s = math.cos(q[0] + off[0]), math.sin(q[0] + off[0])
            return c * T[0, 3] + s * T[1, 3]  # signed distance from axis 1, in the arm's plane

        return {"elbow": (lambda q: math.sin(q[2] + off[2]), 2), "base-axis": (rho, 1)}
    if robot.n in (2, 3) and not robot.modified and all(l.revolute and l.alpha == 0.0 for l in robot.links):
        return {"elbow": (lambda q: math.sin(q[1] + robot.links[1].offset), 1)}
    raise NotImplementedError(
        f"no closed-form singular sets for {robot.name or 'this robot'!r} "
        "(PUMA560, youBot and planar 2R/3R arms have them); use jacobians.lost_directions"
    )


def singularity_conditions(robot: RobotLike, q: ArrayLike) -> dict[str, float]:
    """{kind: value} at q; a value of 0 means q lies on that singular set (see the module docstring)."""
    values = joint_vector(q, robot.n, "q", symbolic=False, batch=False).tolist()
    return {kind: f(values) for kind, (f, _) in _conditions(robot).items()}


def snap_to_singularity(
    robot: RobotLike, q: ArrayLike, kind: str, tol: float = 1e-12, max_iter: int = 60
) -> np.ndarray:
    """The singular pose of ``kind`` nearest to q, moving only the joint that controls it.

    Newton's method on that joint (from q, bounded to ``max_iter`` steps). Raises ValueError when
    the set cannot be reached by that joint from here (e.g. a youBot pose whose gripper cannot
    swing over the base axis).
    """
    conds = _conditions(robot)
    if kind not in conds:
        raise ValueError(f"kind must be one of {sorted(conds)} for {robot.name or 'this robot'!r}, got {kind!r}")
    f, j = conds[kind]
    q = np.array(joint_vector(q, robot.n, "q", symbolic=False, batch=False))
    h = 1e-7
    for _ in range(max_iter):
        value = f(q)
        if abs(value) < tol:
            return q
        qp, qm = q.copy(), q.copy()
        qp[j] += h
        qm[j] -= h
        slope = (f(qp) - f(qm)) / (2 * h)
        if abs(slope) < 1e-12:
            break
        q[j] -= float(np.clip(value / slope, -0.5, 0.5))  # bounded steps: stay on the nearest root
    raise ValueError(f"no {kind!r} singularity reachable by joint {j + 1} from q = {np.round(q, 4).tolist()}")
