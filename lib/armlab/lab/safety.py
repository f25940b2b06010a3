"""The safety layer every youBot command passes before anything goes on the wire.

The real driver rejects a bad set point silently (a warning on the robot only) and has no command
watchdog, so the client checks everything itself and refuses loudly: a rejected command sends
nothing and raises :class:`SafetyError` naming the joint, the value and the limit. The numbers are
the labs' guards from ``docs/youbot-interface.md``. The same definitions serve the client
(:class:`~armlab.lab.arm.YoubotArm`) and the robot-side gate (:mod:`armlab.lab.gate`): one policy, written once.

>>> limits = SafetyLimits()
>>> check_gripper(0.02, limits)
Traceback (most recent call last):
...
armlab.lab.safety.SafetyError: gripper opening 0.02 m is outside 0 … 0.0115 m (each finger's opening); nothing was sent
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._core.validation import joint_vector

from ..models import YOUBOT_DRIVER
from ..models.youbot import YOUBOT_ACTUATORS
from .protocol import DANGEROUS_SERVICES

__all__ = [
    "SafetyError",
    "StaleStateError",
    "WatchdogError",
    "TrackingError",
    "ConnectionLostError",
    "SafetyLimits",
    "check_joint_vector",
    "check_set_point",
    "check_step",
    "check_speed",
    "check_gripper",
    "check_service",
    "check_workspace",
    "workspace_distance",
    "EffortWatchdog",
    "SpeedGovernor",
]

#: Each finger opens 0 (closed) … 0.0115 m.
GRIPPER_MAX = 0.0115


class SafetyError(RuntimeError):
    """A command the safety layer refused, or a fault that made the arm hold. Nothing unsafe was sent."""


class StaleStateError(SafetyError):
    """No ``/joint_states`` for longer than the stale limit: streaming stopped and the arm holds."""


class WatchdogError(SafetyError):
    """An effort stayed above its threshold for too long: the arm holds."""


class TrackingError(SafetyError):
    """The measured arm did not reach the commanded pose in time (a stuck joint, a collision)."""


class ConnectionLostError(SafetyError, ConnectionError):
    """The connection dropped during a command: streaming stopped, and nothing will be replayed."""


@dataclass(frozen=True)
class SafetyLimits:
    """The labs' guards. Angles in driver radians, times in seconds, efforts in N·m."""

    #: distance kept from the driver's strict limits lo < q < hi
    margin: float = 0.02
    #: largest set-point change between two streamed ticks
    max_step: float = 0.12
    #: largest joint speed a trajectory may ask for (the spec speed is 1.5708 rad/s)
    max_speed: float = 1.0
    #: a gap in /joint_states longer than this is a fault (EtherCAT lost)
    stale_after: float = 0.150
    #: effort watchdog: |τ_i| above threshold_i for longer than effort_duration trips
    effort_threshold: tuple = tuple(YOUBOT_ACTUATORS["watchdog"])
    effort_duration: float = 0.5
    lower: np.ndarray = field(default_factory=lambda: YOUBOT_DRIVER["lower"].copy())
    upper: np.ndarray = field(default_factory=lambda: YOUBOT_DRIVER["upper"].copy())
    #: the tool point's box in the base frame, ((x_min, y_min, z_min), (x_max, y_max, z_max)) in metres,
    #: set per session by the TA (the table, the platform); None: no box
    workspace: tuple | None = None

    def __post_init__(self) -> None:
        if self.workspace is not None:
            lo, hi = (np.asarray(v, dtype=float) for v in self.workspace)
            if lo.shape != (3,) or hi.shape != (3,) or not np.all(np.isfinite(lo)) or not np.all(lo < hi):
                raise ValueError(
                    f"workspace must be ((x_min, y_min, z_min), (x_max, y_max, z_max)) in metres "
                    f"with min < max, got {self.workspace!r}"
                )
            object.__setattr__(self, "workspace", (tuple(lo.tolist()), tuple(hi.tolist())))

    @property
    def safe_lower(self) -> np.ndarray:
        return self.lower + self.margin

    @property
    def safe_upper(self) -> np.ndarray:
        return self.upper - self.margin

    def clip(self, q_driver: ArrayLike) -> np.ndarray:
        """Driver angles moved into the commandable band [lo + margin, hi − margin]."""
        return np.clip(np.asarray(q_driver, dtype=float), self.safe_lower, self.safe_upper)


def check_joint_vector(q: ArrayLike, name: str = "q", n: int = 5) -> np.ndarray:
    """Five finite real joint values in radians, or SafetyError naming ``name`` (complex, NaN, strings, a
    wrong length: the library's one joint check, :func:`armlab._core.validation.joint_vector`)."""
    try:
        arr = joint_vector(q, n, name, symbolic=False, batch=False)
    except (TypeError, ValueError) as e:
        raise SafetyError(f"{e}; nothing was sent") from None
    big = np.flatnonzero(np.abs(arr) > 2 * math.pi + 1e-9)
    if big.size:
        i = int(big[0])
        raise SafetyError(
            f"joint {i + 1} value {arr[i]:g} in {name} is larger than 2π: radians expected "
            f"(degrees? use np.radians); nothing was sent"
        )
    return arr


def check_set_point(q_driver: ArrayLike, limits: SafetyLimits, what: str = "set point") -> np.ndarray:
    """Driver angles inside [lo + margin, hi − margin] (the driver itself tests lo < q < hi)."""
    q = check_joint_vector(q_driver, what)
    for i in range(5):
        lo, hi = limits.safe_lower[i], limits.safe_upper[i]
        if not lo <= q[i] <= hi:
            raise SafetyError(
                f"joint {i + 1} {what} {q[i]:.4f} rad (driver angle) is outside the safe range "
                f"[{lo:.4f}, {hi:.4f}]: driver limits {limits.lower[i]:.4f} < q < {limits.upper[i]:.4f} "
                f"with a {limits.margin} rad margin; nothing was sent"
            )
    return q


def check_step(q_new: ArrayLike, q_prev: ArrayLike, limits: SafetyLimits, what: str = "in one tick") -> None:
    """No joint's set point changes by more than ``max_step`` between two ticks (the gate: from the
    measured pose, ``what="from the measured pose"``)."""
    step = np.abs(np.asarray(q_new, dtype=float) - np.asarray(q_prev, dtype=float))
    i = int(np.argmax(step))
    if step[i] > limits.max_step:
        raise SafetyError(
            f"joint {i + 1} step {step[i]:.4f} rad {what} is above the cap "
            f"{limits.max_step} rad (a position command is a step: stream it); nothing was sent"
        )


def check_speed(speed: Any, limits: SafetyLimits) -> float:
    """A positive, finite joint speed (rad/s) at most ``max_speed``."""
    if isinstance(speed, bool) or not isinstance(speed, (int, float, np.integer, np.floating)):
        raise SafetyError(f"speed must be a number in rad/s, got {speed!r}; nothing was sent")
    if not math.isfinite(speed) or speed <= 0:
        raise SafetyError(f"speed must be positive and finite (rad/s), got {speed}; nothing was sent")
    if speed > limits.max_speed:
        raise SafetyError(f"speed {speed:g} rad/s is above the cap {limits.max_speed} rad/s; nothing was sent")
    return float(speed)


def check_gripper(width: Any, limits: SafetyLimits | None = None) -> float:
    """Each finger's opening in metres, 0 … 0.0115."""
    if isinstance(width, bool) or not isinstance(width, (int, float, np.integer, np.floating)):
        raise SafetyError(f"gripper opening must be a number in metres, got {width!r}; nothing was sent")
    if not math.isfinite(width):
        raise SafetyError(f"gripper opening {width} is not finite; nothing was sent")
    if not 0.0 <= width <= GRIPPER_MAX:
        hint = " (millimetres? use metres)" if 1.0 <= width <= 1000 * GRIPPER_MAX else ""
        raise SafetyError(
            f"gripper opening {width:g} m is outside 0 … {GRIPPER_MAX} m "
            f"(each finger's opening){hint}; nothing was sent"
        )
    return float(width)


def check_service(name: str) -> str:
    """Refuse the services that drop the arm or drive it into its end stops."""
    if name in DANGEROUS_SERVICES:
        why = (
            "cuts motor current: the arm falls"
            if name.endswith("switchOffMotors")
            else "drives every joint into its end stop"
        )
        raise SafetyError(f"service {name} is refused by the client: it {why}; nothing was sent")
    return name


def workspace_distance(p: ArrayLike, limits: SafetyLimits) -> float:
    """How far (m) the point p lies outside the workspace box; 0 inside it or without a box."""
    if limits.workspace is None:
        return 0.0
    lo, hi = (np.asarray(v) for v in limits.workspace)
    p = np.asarray(p, dtype=float)
    return float(np.linalg.norm(np.maximum(np.maximum(lo - p, p - hi), 0.0)))


def check_workspace(
    robot: Any,
    q_driver: ArrayLike,
    limits: SafetyLimits,
    q_from_driver: ArrayLike | None = None,
    what: str = "set point",
) -> None:
    """The tool point of ``q_driver`` (forward kinematics of the DH model) inside the workspace box.

    A set point outside the box is still allowed when it brings the tool no further out than it is at
    ``q_from_driver`` (the measured pose): an arm that starts outside can be moved back in.
    """
    if limits.workspace is None:
        return
    from ..models import youbot_driver_to_q

    p = robot.fkine(youbot_driver_to_q(q_driver))[:3, 3]
    out = workspace_distance(p, limits)
    if out <= 1e-9:
        return
    if q_from_driver is not None:
        p0 = robot.fkine(youbot_driver_to_q(q_from_driver))[:3, 3]
        if out <= workspace_distance(p0, limits) + 1e-4:
            return
    lo, hi = limits.workspace
    raise SafetyError(
        f"{what}: the tool point ({p[0]:.3f}, {p[1]:.3f}, {p[2]:.3f}) m is {1000 * out:.0f} mm outside "
        f"the session's workspace box x {lo[0]:g}…{hi[0]:g}, y {lo[1]:g}…{hi[1]:g}, "
        f"z {lo[2]:g}…{hi[2]:g} m; nothing was sent"
    )


class SpeedGovernor:
    """The joint speed cap on a stream of set points, robust to network jitter: each joint has an allowance
    (rad) that refills at ``max_speed`` up to ``max_step`` and that every set-point change spends.

    A stream that keeps to ``max_speed`` on average never runs dry; one that asks for more is refused.
    """

    def __init__(self, limits: SafetyLimits):
        self.limits = limits
        self._allow = np.full(5, limits.max_step)
        self._t: float | None = None

    def check(self, t: float, q_new: ArrayLike, q_prev: ArrayLike) -> None:
        """Raise SafetyError if moving the set point from q_prev to q_new at time t (s) is too fast."""
        lim = self.limits
        allow = self._allow.copy()
        if self._t is not None:
            allow = np.minimum(allow + lim.max_speed * max(0.0, t - self._t), lim.max_step)
        need = np.abs(np.asarray(q_new, dtype=float) - np.asarray(q_prev, dtype=float))
        over = np.flatnonzero(need > allow + 1e-9)
        if over.size:
            i = int(over[0])
            raise SafetyError(
                f"joint {i + 1} set point moves faster than the cap {lim.max_speed} rad/s "
                f"(asked {need[i]:.4f} rad with {allow[i]:.4f} rad allowed now); nothing was sent"
            )
        self._allow, self._t = allow - need, t


class EffortWatchdog:
    """Trips when any |τ_i| stays above its threshold for longer than ``duration`` seconds."""

    def __init__(self, limits: SafetyLimits):
        self.threshold = np.asarray(limits.effort_threshold, dtype=float)
        self.duration = limits.effort_duration
        self._since = np.full(self.threshold.shape, np.nan)

    def reset(self) -> None:
        self._since[:] = np.nan

    def update(self, t: float, effort: ArrayLike) -> str | None:
        """Feed one measurement at time t (s); return a message naming the joint once it trips."""
        effort = np.asarray(effort, dtype=float)
        over = np.abs(effort) > self.threshold
        self._since[~over] = np.nan
        self._since[over & np.isnan(self._since)] = t
        held = t - self._since
        for i in np.flatnonzero(over & (held > self.duration)):
            return (
                f"effort watchdog: joint {i + 1} effort {effort[i]:.2f} N·m above {self.threshold[i]} N·m "
                f"for {held[i]:.2f} s (limit {self.duration} s)"
            )
        return None
