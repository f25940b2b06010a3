"""rosbridge v2 frames for the youBot arm: what goes on the wire, and nothing else.

Pure functions shared by the client and the simulator server, so both speak the frames of
``docs/youbot-interface.md`` exactly:

* brics_actuator messages carry only ``joint_uri``, ``unit``, ``value`` — no stamps, because
  rosbridge drops a whole message with an unknown field (ROS 1 and ROS 2 name the stamps differently);
* ``/joint_states`` stamps are ROS 1 ``{"secs", "nsecs"}`` or ROS 2 ``{"sec", "nanosec"}``;
* large frames may arrive as ``fragment`` ops, reassembled by :class:`Defragmenter`.

>>> positions_msg([0.1, 0.2], [1, 3])["positions"][1]
{'joint_uri': 'arm_joint_3', 'unit': 'rad', 'value': 0.2}
>>> stamp_to_float({"sec": 3, "nanosec": 500000000}) == stamp_to_float({"secs": 3, "nsecs": 500000000})
True
"""

from __future__ import annotations

import ipaddress
import json
import math
from collections.abc import Iterable
from typing import Any

__all__ = [
    "ARM_JOINTS",
    "GRIPPER_JOINTS",
    "BASE_JOINTS",
    "TOPICS",
    "SERVICES",
    "DANGEROUS_SERVICES",
    "UNIT_RAD",
    "UNIT_M",
    "UNIT_RAD_PER_S",
    "ARM_POSITION",
    "ARM_VELOCITY",
    "GRIPPER_POSITION",
    "JOINT_STATES",
    "ProtocolError",
    "Defragmenter",
    "encode",
    "decode",
    "positions_msg",
    "parse_positions",
    "joint_state_msg",
    "parse_joint_state",
    "float_to_stamp",
    "stamp_to_float",
    "fragment",
    "IDENTIFY",
    "is_simulator",
    "GATE_REASONS",
]

ARM_JOINTS = tuple(f"arm_joint_{i}" for i in range(1, 6))
GRIPPER_JOINTS = ("gripper_finger_joint_l", "gripper_finger_joint_r")
BASE_JOINTS = ("wheel_joint_fl", "wheel_joint_fr", "wheel_joint_bl", "wheel_joint_br")

UNIT_RAD = "rad"
UNIT_M = "m"
UNIT_RAD_PER_S = "s^-1 rad"

#: The topics of the youBot arm driver (name → message type).
TOPICS = {
    "/arm_1/arm_controller/position_command": "brics_actuator/JointPositions",
    "/arm_1/arm_controller/velocity_command": "brics_actuator/JointVelocities",
    "/arm_1/gripper_controller/position_command": "brics_actuator/JointPositions",
    "/joint_states": "sensor_msgs/JointState",
}
ARM_POSITION = "/arm_1/arm_controller/position_command"
ARM_VELOCITY = "/arm_1/arm_controller/velocity_command"
GRIPPER_POSITION = "/arm_1/gripper_controller/position_command"
JOINT_STATES = "/joint_states"

#: The driver's services (all std_srvs/Empty).
SERVICES = ("/arm_1/switchOnMotors", "/arm_1/switchOffMotors", "/arm_1/calibrate")
#: switchOffMotors drops the arm (0 A); calibrate drives every joint into its end stop.
DANGEROUS_SERVICES = ("/arm_1/switchOffMotors", "/arm_1/calibrate")


#: A service only armlab's own servers answer, each saying what it is: the simulator ``{"kind": "simulator"}``,
#: the gate ``{"kind": "gate", "upstream": <what is behind it>}``. The youBot's driver and rosbridge never answer it.
IDENTIFY = "/armlab/identify"


#: Why the gate sent a client a ``status`` frame (its ``reason`` field, beside the human ``msg``): the client's advice
#: on what to do next depends on it.
GATE_REASONS = {
    "no_holder": "nobody holds the arm (no claim, or the claim lapsed)",
    "not_holder": "another client holds the arm",
    "takeover": "the TA took the arm over",
    "lease": "this client's claim lapsed",
    "gate_hold": "the gate holds the arm (someone's hold, or the deadman)",
    "policy": "a command outside the gate's policy",
}


def is_simulator(identity: Any) -> bool:
    """Whether an answer to :data:`IDENTIFY` says the arm is the simulator (directly or behind a gate). Anything
    else, no answer included, means the real robot: the safe assumption.

    >>> is_simulator({"kind": "gate", "upstream": {"kind": "simulator"}}), is_simulator({"kind": "unknown"})
    (True, False)
    """
    if not isinstance(identity, dict):
        return False
    if identity.get("kind") == "gate":
        return is_simulator(identity.get("upstream"))
    return identity.get("kind") == "simulator"


class ProtocolError(ValueError):
    """A frame that is not valid rosbridge v2 JSON for the youBot's messages."""


def encode(frame: dict) -> str:
    """One frame as compact JSON text (what rosbridge and roslibpy send)."""
    return json.dumps(frame, separators=(",", ":"), allow_nan=False)


def decode(text: str | bytes) -> dict:
    """Parse one text frame; raise ProtocolError for anything but a JSON object with a string ``op``."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ProtocolError(f"frame is not UTF-8: {e}") from None
    try:
        frame = json.loads(text)
    except (TypeError, ValueError) as e:
        raise ProtocolError(f"frame is not JSON: {e}") from None
    if not isinstance(frame, dict) or not isinstance(frame.get("op"), str):
        raise ProtocolError(f"frame has no string 'op': {str(text)[:80]!r}")
    return frame


def positions_msg(
    values: Iterable[float], joints: Iterable[int | str], unit: str = UNIT_RAD, prefix: str = "arm_joint_"
) -> dict:
    """brics_actuator/JointPositions for joint numbers ``joints`` (1-based) or names, without stamps."""
    uris = [j if isinstance(j, str) else f"{prefix}{j}" for j in joints]
    return {"positions": [{"joint_uri": u, "unit": unit, "value": float(v)} for u, v in zip(uris, values)]}


def parse_positions(msg: Any, field: str = "positions") -> list[tuple[str, str, float]]:
    """(joint_uri, unit, value) of each entry of a JointPositions/JointVelocities message.

    Only the three fields the driver reads are returned; a wrong shape raises ProtocolError.
    """
    if not isinstance(msg, dict) or not isinstance(msg.get(field), list):
        raise ProtocolError(f"message has no list {field!r}")
    out = []
    for entry in msg[field]:
        if not isinstance(entry, dict):
            raise ProtocolError(f"{field} entry is not an object: {entry!r}")
        uri, unit, value = entry.get("joint_uri"), entry.get("unit"), entry.get("value")
        if (
            not isinstance(uri, str)
            or not isinstance(unit, str)
            or isinstance(value, bool)
            or not isinstance(value, (int, float))
        ):
            raise ProtocolError(f"{field} entry needs joint_uri, unit (strings) and a numeric value: {entry!r}")
        out.append((uri, unit, float(value)))
    return out


def float_to_stamp(t: float, ros2: bool = False) -> dict:
    """Seconds since the epoch → a ROS 1 ``{secs, nsecs}`` or ROS 2 ``{sec, nanosec}`` time."""
    secs = math.floor(t)
    nsecs = min(int(round((t - secs) * 1e9)), 999_999_999)
    return {"sec": secs, "nanosec": nsecs} if ros2 else {"secs": secs, "nsecs": nsecs}


def stamp_to_float(stamp: Any) -> float:
    """A ROS 1 or ROS 2 time → seconds."""
    if not isinstance(stamp, dict):
        raise ProtocolError(f"stamp is not an object: {stamp!r}")
    for s, ns in (("secs", "nsecs"), ("sec", "nanosec")):
        if s in stamp:
            try:
                return float(stamp[s]) + float(stamp.get(ns, 0)) * 1e-9
            except (TypeError, ValueError):
                break
    raise ProtocolError(f"stamp is neither ROS 1 {{secs, nsecs}} nor ROS 2 {{sec, nanosec}}: {stamp!r}")


def joint_state_msg(
    seq: int,
    t: float,
    names: Iterable[str],
    position: Iterable[float],
    velocity: Iterable[float],
    effort: Iterable[float],
    ros2: bool = False,
) -> dict:
    """sensor_msgs/JointState (ROS 2 headers have no ``seq``)."""
    header: dict[str, Any] = {"stamp": float_to_stamp(t, ros2), "frame_id": ""}
    if not ros2:
        header = {"seq": seq, **header}
    return {
        "header": header,
        "name": list(names),
        "position": list(position),
        "velocity": list(velocity),
        "effort": list(effort),
    }


def parse_joint_state(msg: Any) -> tuple[float, int | None, dict[str, tuple[float, float, float]]]:
    """(stamp, seq or None, {name: (position, velocity, effort)}) of a JointState.

    Indexed by name, because base and arm joints share ``/joint_states``; a missing velocity or
    effort array (allowed by the message definition) reads as NaN.
    """
    try:
        header, names, pos = msg["header"], msg["name"], msg["position"]
        vel, eff = msg.get("velocity") or [], msg.get("effort") or []
        stamp = stamp_to_float(header["stamp"])
    except (KeyError, TypeError, AttributeError) as e:
        raise ProtocolError(f"JointState is missing {e}") from None
    if not isinstance(names, list) or not isinstance(pos, list) or len(names) != len(pos):
        raise ProtocolError("JointState name and position must be lists of one length")
    nan = float("nan")
    out = {}
    for i, name in enumerate(names):
        try:
            out[str(name)] = (
                float(pos[i]),
                float(vel[i]) if i < len(vel) else nan,
                float(eff[i]) if i < len(eff) else nan,
            )
        except (TypeError, ValueError):
            raise ProtocolError(f"JointState entry {name!r} is not numeric") from None
    seq = header.get("seq") if isinstance(header, dict) else None
    return stamp, seq if isinstance(seq, int) else None, out


def fragment(text: str, size: int, frame_id: str) -> list[dict]:
    """Split one frame's text into rosbridge ``fragment`` ops of at most ``size`` characters."""
    if size <= 0:
        raise ValueError(f"size must be a positive number of characters, got {size!r}")
    parts = [text[i : i + size] for i in range(0, len(text), size)] or [""]
    return [{"op": "fragment", "id": frame_id, "data": p, "num": i, "total": len(parts)} for i, p in enumerate(parts)]


class Defragmenter:
    """Reassembles ``fragment`` ops; keeps at most ``max_pending`` partial frames (oldest dropped).

    >>> d = Defragmenter()
    >>> parts = fragment('{"op":"png"}', 5, "f1")
    >>> [d.add(p) for p in parts][-1]
    '{"op":"png"}'
    """

    def __init__(self, max_pending: int = 8):
        self.max_pending = max_pending
        self._pending: dict[str, dict[int, str]] = {}

    def decode(self, text: str | bytes) -> dict | None:
        """One received frame decoded; a fragment is kept until its frame is whole (None until then).
        A fragment inside a fragment, like any malformed frame, raises ProtocolError."""
        frame = decode(text)
        if frame["op"] != "fragment":
            return frame
        whole = self.add(frame)
        if whole is None:
            return None
        frame = decode(whole)
        if frame["op"] == "fragment":
            raise ProtocolError("a fragment inside a fragment")
        return frame

    def add(self, frame: dict) -> str | None:
        """Take one fragment; return the whole frame's text once every part has arrived."""
        try:
            fid, num, total, data = frame["id"], int(frame["num"]), int(frame["total"]), frame["data"]
        except (KeyError, TypeError, ValueError):
            raise ProtocolError(f"fragment needs id, num, total and data: {str(frame)[:80]!r}") from None
        if not (0 <= num < total) or not isinstance(data, str):
            raise ProtocolError(f"fragment {num} of {total} is out of range or has non-text data")
        parts = self._pending.setdefault(str(fid), {})
        parts[num] = data
        if len(parts) == total:
            del self._pending[str(fid)]
            return "".join(parts[i] for i in range(total))
        while len(self._pending) > self.max_pending:
            self._pending.pop(next(iter(self._pending)))
        return None


def is_loopback(host: str) -> bool:
    """Whether a server bound to ``host`` is reachable from this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
