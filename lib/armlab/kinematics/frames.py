"""Per-link frames: the one place that knows which frame holds joint i's axis, and how the fixed
base and tool transforms wrap a DH chain. Jacobians, statics and RNE iterate over these."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.protocol import RobotLike
from ..transforms import Tinv


def axis_frames(frames: Any, modified: bool) -> Any:
    """From the n+1 frames base, 1..n (a list or an array's leading axis), the n frames whose
    z axis and origin are joint i's: frame i in the modified convention (textbook (3.22)), frame
    i−1 in the standard one (lab report (2.1))."""
    return frames[1:] if modified else frames[:-1]


def joint_axis_frames(robot: RobotLike, frames: Any) -> Any:
    """The (…, n, 4, 4) frames of the joint axes, from ``robot.fkine_all(q)`` (…, n+1, 4, 4).

    >>> import armlab
    >>> robot = armlab.models.planar2r()
    >>> F = joint_axis_frames(robot, robot.fkine_all([0.0, 0.0]))
    >>> F[:, :3, 3].tolist()    # standard DH: joint 1 at the base, joint 2 at the end of link 1
    [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]
    """
    if isinstance(frames, list):
        return axis_frames(frames, robot.modified)
    return frames[..., 1:, :, :] if robot.modified else frames[..., :-1, :, :]


def strip_base_tool(robot: RobotLike, T: Any) -> Any:
    """The pose of the last DH frame: base⁻¹ · T · tool⁻¹, for one pose (4, 4) or a batch (N, 4, 4).

    Row lists in give row lists out (the single-pose IK solvers work on Python floats).
    """
    if robot.base is None and robot.tool is None:
        return T
    rows = isinstance(T, list)
    T = np.asarray(T, dtype=float)
    if robot.base is not None:
        T = Tinv(robot.base) @ T
    if robot.tool is not None:
        T = T @ Tinv(robot.tool)
    return T.tolist() if rows else T
