"""The gate's checks of one command's content: pure functions of the message, the set point in force and the
policy (:class:`~armlab.lab.safety.SafetyLimits`, the one definition the client's safety layer uses too)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import protocol as P
from ..safety import SafetyError, SafetyLimits, check_gripper, check_set_point

__all__ = ["arm_set_point", "gripper_command", "policy_summary", "measured_now", "is_moving", "AT_REST"]

#: The measured arm counts as at rest within these (rad, rad/s): the deadman only trips mid-motion.
AT_REST = (0.02, 0.05)


def arm_set_point(
    msg: Any, q_target: np.ndarray | None, limits: SafetyLimits, fresh: bool
) -> tuple[np.ndarray, list[int]]:
    """The new set point (driver radians): ``q_target`` with the message's joints replaced, inside the limits
    less the margin, and the indices of the joints the message named. SafetyError otherwise, and when the
    measured pose is not ``fresh`` (nothing to check a set point against)."""
    entries = P.parse_positions(msg)
    if not entries:
        raise SafetyError("an empty set point")
    if not fresh or q_target is None:
        raise SafetyError(
            f"the gate has no fresh /joint_states (limit {1000 * limits.stale_after:.0f} ms): "
            "it cannot check a set point against the measured pose"
        )
    new = q_target.copy()
    seen = set()
    for uri, unit, value in entries:
        if uri not in P.ARM_JOINTS or uri in seen:
            raise SafetyError(f"joint_uri {uri!r} is unknown or repeated (arm_joint_1 … arm_joint_5, once each)")
        if unit != P.UNIT_RAD:
            raise SafetyError(f"{uri}: unit {unit!r} is not {P.UNIT_RAD!r} (the driver would ignore it)")
        seen.add(uri)
        new[P.ARM_JOINTS.index(uri)] = value
    return check_set_point(new, limits), sorted(P.ARM_JOINTS.index(u) for u in seen)


def gripper_command(msg: Any, limits: SafetyLimits) -> dict:
    """The gripper message re-encoded from its checked values, or SafetyError."""
    entries = P.parse_positions(msg)
    if not entries:
        raise SafetyError("an empty gripper command")
    out = []
    for uri, unit, value in entries:
        if uri not in P.GRIPPER_JOINTS or unit != P.UNIT_M:
            raise SafetyError(f"gripper: {uri!r} in {unit!r} (needs {', '.join(P.GRIPPER_JOINTS)} in 'm')")
        out.append((uri, check_gripper(value, limits)))
    return P.positions_msg([v for _, v in out], [u for u, _ in out], unit=P.UNIT_M)


def policy_summary(limits: SafetyLimits, deadman: float, lease: float) -> dict:
    """The policy in force, as the audit log and a claim's answer show it."""
    return {
        "margin": limits.margin,
        "max_step": limits.max_step,
        "max_speed": limits.max_speed,
        "stale_after": limits.stale_after,
        "workspace": limits.workspace,
        "deadman": deadman,
        "lease": lease,
    }


def _velocity(qd: np.ndarray | None) -> np.ndarray:
    return qd if qd is not None and np.all(np.isfinite(qd)) else np.zeros(5)


def measured_now(q: np.ndarray, qd: np.ndarray | None, age: float, limits: SafetyLimits) -> np.ndarray:
    """The measured pose carried forward by its measured velocity over its age (at most the stale limit)."""
    return q + _velocity(qd) * min(max(0.0, age), limits.stale_after)


def is_moving(q: np.ndarray, qd: np.ndarray | None, q_target: np.ndarray | None) -> bool:
    """Whether the arm is away from its set point or still moving (beyond :data:`AT_REST`)."""
    off = 0.0 if q_target is None else float(np.max(np.abs(q - q_target)))
    return off > AT_REST[0] or float(np.max(np.abs(_velocity(qd)))) > AT_REST[1]
