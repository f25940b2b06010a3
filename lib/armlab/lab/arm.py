"""``YoubotArm``: the API students use, on the real youBot or on the simulator (one URL apart).

Every command passes the safety layer (:mod:`armlab.lab.safety`) before it is sent. Motions are
streamed at ``rate`` Hz along a minimum-jerk trajectory, because a position command is a step on
the real arm. Any fault — stale ``/joint_states``, the effort watchdog, a lost connection, a
reconnect — makes the arm hold and *latches*: further motion raises until :meth:`YoubotArm.resume`.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..models import youbot, youbot_driver_to_q, youbot_q_to_driver
from .client import NotConnectedError, RosbridgeClient, ServiceError
from .log import SessionLog, default_log_path
from .messages import ADVICE, HELD, default_claim_name, fault_text
from .state import ArmState
from .motion import checked_trajectory, min_jerk, settle_at, stream, trajectory_rows
from .protocol import (
    ARM_JOINTS,
    ARM_POSITION,
    GATE_REASONS,
    GRIPPER_JOINTS,
    GRIPPER_POSITION,
    IDENTIFY,
    JOINT_STATES,
    TOPICS,
    UNIT_M,
    ProtocolError,
    is_simulator,
    parse_joint_state,
    positions_msg,
)
from .safety import (
    ConnectionLostError,
    EffortWatchdog,
    SafetyError,
    SafetyLimits,
    StaleStateError,
    WatchdogError,
    check_gripper,
    check_joint_vector,
    check_service,
    check_set_point,
    check_speed,
    check_step,
    check_workspace,
)

__all__ = [
    "YoubotArm",
    "ArmState",
    "ConnectionLostError",
    "DEFAULT_URL",
    "min_jerk",
    "GATE_CLAIM",
    "GATE_RELEASE",
    "GATE_HOLD",
    "GATE_RESUME",
]

#: The local simulator (``python -m armlab.lab.sim``).
DEFAULT_URL = "ws://127.0.0.1:9090"
#: The gate's own services (``python -m armlab.lab.gate``), answered by the gate, never by rosbridge.
GATE_CLAIM, GATE_RELEASE = "/armlab_gate/claim", "/armlab_gate/release"
GATE_HOLD, GATE_RESUME = "/armlab_gate/hold", "/armlab_gate/resume"


class YoubotArm:
    """A youBot arm behind rosbridge. ``log``: path of the session log (None: a timestamped file
    under ./lab-logs/; False: no log). Use it as a context manager: it holds on exit and on any error.

    Behind the robot's gate (``python -m armlab.lab.gate``) only the client holding the arm may command
    it: ``claim=True`` (or :meth:`claim` later) takes it; ``claim_name`` names you in the gate's audit log
    and in what other clients are told; ``token`` is the TA's take-over token."""

    def __init__(
        self,
        url: str = DEFAULT_URL,
        log: str | Path | bool | None = None,
        *,
        limits: SafetyLimits | None = None,
        rate: float = 50.0,
        timeout: float = 5.0,
        claim: bool = False,
        claim_name: str | None = None,
        token: str | None = None,
    ):
        if not 20.0 <= rate <= 50.0:
            raise ValueError(f"rate must be 20 … 50 Hz (the driver's command rate), got {rate!r}")
        self.url, self.rate = url, float(rate)
        self.name = claim_name or default_claim_name()  # how the gate and other clients see this one
        self.limits = limits or SafetyLimits()
        self.robot = youbot()
        # the driver → DH map q = offset + sign·q_driver, so that a log can be read without armlab.models
        dh = {
            "sign": (youbot_driver_to_q(np.ones(5)) - youbot_driver_to_q(np.zeros(5))).tolist(),
            "offset": youbot_driver_to_q(np.zeros(5)).tolist(),
        }
        self.log = (
            None
            if log is False
            else SessionLog(
                default_log_path() if log is None or log is True else log,
                {"url": url, "rate": self.rate, "driver_to_dh": dh},
            )
        )
        self.fault: str | None = None
        self.fault_kind: str | None = None  # a key of ADVICE
        self.identity: dict = {"kind": "unknown"}  # what the other end says it is (identify())
        self.last_error: BaseException | None = None
        self.missed_ticks = 0  # stream ticks sent more than one period late
        self.on_state: list[Callable[[ArmState], Any]] = []  # run on the reader thread for every arm state
        self.on_fault: list[Callable[[str], Any]] = []  # run (on any thread) when a fault latches
        self.on_resume: list[Callable[[ArmState], Any]] = []  # run when resume() has cleared a fault or hold
        self.claimed = False
        self.gate_status: str | None = None  # the last refusal or notice the gate sent us
        self._claim_args: dict[str, Any] | None = None
        self._watchdog = EffortWatchdog(self.limits)
        self._state: ArmState | None = None
        self._cond = threading.Condition()
        self._cmd_lock = threading.RLock()
        self._q_cmd: np.ndarray | None = None
        self._abort = threading.Event()
        self._worker: threading.Thread | None = None
        self._client = RosbridgeClient(url, on_frame=self._log_frame, on_error=self._log_error, open_timeout=timeout)
        self._client.on_disconnect.append(lambda: self._trip("connection lost", hold=False, kind="connection"))
        self._client.on_reconnect.append(self._reconnected)
        self._client.on_status.append(self._on_status)
        try:
            self._client.connect()
            for topic in (ARM_POSITION, GRIPPER_POSITION):
                self._client.advertise(topic, TOPICS[topic])
            self._client.subscribe(JOINT_STATES, TOPICS[JOINT_STATES], self._on_state)
            self.wait_state(timeout)
            self.identify()
            if claim:
                self.claim(token=token)
        except BaseException:
            self.close()
            raise

    def _reconnected(self, gen: int) -> None:
        self.claimed = False  # a claim belongs to a connection: resume() claims again
        self._event(f"reconnected (connection {gen}); the arm stays held until resume()")

    def identify(self, timeout: float = 1.0) -> dict:
        """Ask the other end what it is (``/armlab/identify``): the simulator and the gate answer (the gate with
        what is behind it, and learns this client's ``name``); the real driver's rosbridge does not, and no
        answer means the real robot."""
        try:
            values = self._client.call_service(IDENTIFY, {"name": self.name}, timeout=timeout)
        except (ServiceError, NotConnectedError) as e:
            values = {"kind": "unknown", "why": str(e)}
        self.identity = values if isinstance(values, dict) else {"kind": "unknown", "why": repr(values)}
        return self.identity

    @property
    def simulated(self) -> bool:
        """Whether the other end said it is the simulator (directly or behind the gate); unknown: False."""
        return is_simulator(self.identity)

    @property
    def behind_gate(self) -> bool:
        """Whether the other end is the armlab gate (commands need the claim)."""
        return self.identity.get("kind") == "gate"

    def _on_status(self, frame: dict) -> None:
        """A status frame: the gate refused one of our frames (or told us something); a refusal holds."""
        msg = str(frame.get("msg", ""))
        self._event(f"status from {self.url}: {msg}")
        # a refused service call is answered (and raised) by call_service; a refused command, a take-over,
        # a lost lease or the deadman stop this client's motion
        if (
            frame.get("level") == "error"
            and msg.startswith("armlab gate")
            and not msg.startswith("armlab gate: refused call_service")
        ):
            self.gate_status = msg
            reason = str(frame.get("reason"))
            kind = reason if reason in GATE_REASONS else "policy"
            if kind in ("takeover", "lease", "not_holder", "no_holder"):
                self.claimed = False  # the gate says we do not hold the arm
            self._trip(msg, hold=self.claimed and self.fault is None, kind=kind)

    # --- the gate's lease ---------------------------------------------------------------
    def claim(self, name: str | None = None, token: str | None = None, timeout: float = 2.0) -> dict:
        """Take the arm at the gate (only its holder may command it); ``token``: the TA's, to take it over.
        Raises SafetyError naming who holds the arm, or if ``url`` is not a gate."""
        args = {k: v for k, v in (("name", name or self.name), ("token", token)) if v is not None}
        try:
            values = self._client.call_service(GATE_CLAIM, args, timeout=timeout)
        except ServiceError as e:
            raise SafetyError(f"claim refused by {self.url}: {e.values if e.values is not None else e}") from None
        self.claimed, self._claim_args = True, args
        self._event(f"claimed the arm: {values}")
        return values if isinstance(values, dict) else {}

    def release(self, timeout: float = 2.0) -> None:
        """Give the arm back at the gate (after holding it)."""
        if self.claimed:
            self._client.call_service(GATE_RELEASE, {}, timeout=timeout)
            self.claimed = False

    # --- state --------------------------------------------------------------------------
    def _on_state(self, msg: dict, t_rx: float) -> None:
        try:
            stamp, seq, joints = parse_joint_state(msg)
        except ProtocolError as err:
            self._log_error(f"bad JointState: {err}", str(msg)[:200])
            raise
        if not all(j in joints for j in ARM_JOINTS):
            return  # a base-only message: /joint_states carries the base's joints too
        p, v, e = (np.array([joints[j][k] for j in ARM_JOINTS]) for k in range(3))
        grip = joints[GRIPPER_JOINTS[0]][0] if GRIPPER_JOINTS[0] in joints else None
        state = ArmState(p, v, e, stamp, seq, t_rx, grip)
        with self._cond:
            self._state = state
            self._cond.notify_all()
        if self.log:
            cmd = None if self._q_cmd is None else self._q_cmd.tolist()
            self.log.write(
                "state",
                stamp=stamp,
                seq=seq,
                q_driver=p.tolist(),
                qd_driver=v.tolist(),
                effort_driver=e.tolist(),
                q_cmd_driver=cmd,
                gripper=grip,
            )
        tripped = self._watchdog.update(t_rx, e) if np.all(np.isfinite(e)) else None
        if tripped and self.fault is None:
            self._trip(tripped, hold=True)
        for hook in list(self.on_state):
            hook(state)

    def state(self) -> ArmState:
        """The latest arm state (see ``.age`` for how old it is)."""
        if self._state is None:
            raise SafetyError("no /joint_states received yet")
        return self._state

    def wait_state(self, timeout: float = 1.0, newer_than: float | None = None) -> ArmState:
        """Block until a state newer than ``newer_than`` (monotonic time; default: now) arrives."""
        if not self._state_after(time.monotonic() if newer_than is None else newer_than, timeout):
            raise StaleStateError(f"no /joint_states from {self.url} within {timeout} s")
        return self.state()

    def _state_after(self, after: float, timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: self._state is not None and self._state.received > after, timeout)

    @property
    def connected(self) -> bool:
        return self._client.connected

    @property
    def client(self) -> RosbridgeClient:
        """The rosbridge connection (``.generation`` counts connections, ``.malformed`` bad frames)."""
        return self._client

    # --- faults -------------------------------------------------------------------------
    def _event(self, msg):
        if self.log:
            self.log.write("event", msg=msg)

    def _log_frame(self, direction, text):
        if self.log:
            self.log.frame(direction, text)

    def _log_error(self, why, text):
        if self.log:
            self.log.write("error", msg=why, frame=str(text)[:1000])

    def _trip(self, why: str, hold: bool, kind: str = "fault") -> None:
        """Latch a fault (``kind``: a key of ADVICE), stop streaming, and hold if we still can."""
        first = self.fault is None
        if first:
            self.fault, self.fault_kind = why, kind
        self._abort.set()
        self._event(f"fault: {why}")
        if hold:
            try:
                self.hold()
            except (NotConnectedError, SafetyError):
                pass
        if first:  # after the hold: a display hook may be slow
            for hook in list(self.on_fault):
                try:
                    hook(why)
                except Exception as e:  # noqa: BLE001 - a display hook must not stop the client
                    self._event(f"on_fault hook failed: {e}")

    def fault_message(self) -> str | None:
        """What happened and what to do about it, for the latched fault (None: no fault)."""
        return None if self.fault is None else fault_text(self.fault, self.fault_kind, self.connected)

    def _check_live(self) -> None:
        """Raise (after holding) unless the arm is connected, unfaulted and its state fresh."""
        if self.fault is not None:
            text = self.fault_message()
            if not self.connected:
                raise ConnectionLostError(text)
            raise (WatchdogError if self.fault.startswith("effort watchdog") else SafetyError)(text)
        if not self.connected:
            self._trip("connection lost", hold=False, kind="connection")
            raise ConnectionLostError(self.fault_message())
        last = self.state()  # a thread kept off a busy CPU may not have read the states: one more tick for them
        if last.age > self.limits.stale_after and not self._state_after(last.received, 1 / self.rate):
            age, limit = 1000 * self.state().age, 1000 * self.limits.stale_after
            why = f"stale /joint_states: none for {age:.1f} ms (limit {limit:.0f} ms)"
            self._trip(why, hold=True, kind="stale")
            raise StaleStateError(f"{why}; {ADVICE['stale']}")

    def latch_hold(self, why: str = HELD) -> None:
        """A latched stop: abort any motion, hold where the arm is, and refuse every motion until
        :meth:`resume` (the teach pendant's hold button)."""
        self._trip(why, hold=self._state is not None, kind="held")  # at once: a stream row can no longer follow it
        self._stop_worker()

    def resume(self, timeout: float = 1.0) -> ArmState:
        """Clear a latched fault or hold once connected with fresh state; sets the hold point to where the arm
        is (and, behind a gate, claims the arm if this client does not hold it, and lifts the gate's hold)."""
        if not self.connected:
            raise ConnectionLostError(f"not connected to {self.url}; cannot resume (it reconnects by itself)")
        self._stop_worker()
        state = self.wait_state(timeout)
        if not self.claimed and (self._claim_args is not None or self.behind_gate):
            self.claim(**(self._claim_args or {}))
        if self.claimed:
            try:
                self._client.call_service(GATE_RESUME, {}, timeout=timeout)
            except ServiceError as e:
                raise SafetyError(f"the gate did not lift its hold: {e}") from None
            self.gate_status = None
        self._watchdog.reset()
        self.fault = self.fault_kind = None
        self._abort.clear()
        self._event("resumed")
        self.hold()
        for hook in list(self.on_resume):
            hook(state)
        return state

    # --- commands -----------------------------------------------------------------------
    def _publish_arm(self, q_driver: ArrayLike, step: bool = True) -> None:
        with self._cmd_lock:
            if step and self.fault is not None:  # a stream row racing a hold: the hold wins
                self._check_live()  # raises the fault's own error; nothing is sent
            q = check_set_point(q_driver, self.limits)
            if step and self._q_cmd is not None:
                check_step(q, self._q_cmd, self.limits)
            if step and self.limits.workspace is not None and self._state is not None:
                check_workspace(self.robot, q, self.limits, self._state.q_driver)
            self._client.publish(ARM_POSITION, positions_msg(q, range(1, 6)))
            self._q_cmd = q

    def hold(self) -> None:
        """Command the measured position (moved into the safe band): a software stop."""
        self._publish_arm(self.limits.clip(self.state().q_driver), step=False)

    def stop(self) -> None:
        """Abort any motion and hold."""
        self._abort.set()
        self._stop_worker()
        self.hold()
        self._abort.clear()

    def gripper(self, opening: float) -> None:
        """Set each finger's opening, 0 (closed) … 0.0115 m."""
        w = check_gripper(opening, self.limits)
        self._check_live()
        self._client.publish(GRIPPER_POSITION, positions_msg([w, w], GRIPPER_JOINTS, unit=UNIT_M))

    def call_service(self, name: str, timeout: float = 2.0) -> Any:
        """Call a driver service; switchOffMotors and calibrate are refused (nothing is sent)."""
        return self._client.call_service(check_service(name), timeout=timeout)

    def switch_on_motors(self) -> Any:
        return self.call_service("/arm_1/switchOnMotors")

    def _to_driver(self, q: ArrayLike, frame: str, name: str = "q") -> np.ndarray:
        if frame not in ("dh", "driver"):
            raise SafetyError(f"frame must be 'dh' or 'driver', got {frame!r}; nothing was sent")
        q = check_joint_vector(q, name)
        return youbot_q_to_driver(q) if frame == "dh" else q

    def follow(
        self, q_traj: ArrayLike, frame: str = "dh", wait: bool = True, tol: float = 0.02, settle: float = 1.5
    ) -> None:
        """Stream a joint trajectory, one row per tick at ``rate`` Hz. Every row is checked before the
        first is sent: limits, and the step between rows (from the current set point) at most the cap.
        With ``wait`` it blocks until the arm is within ``tol`` rad of the last row (TrackingError after
        ``settle`` s), so that the next motion starts where this one ended: a plan from the measured q
        made while the arm still trailed its last set point would start with a step."""
        rows = trajectory_rows(q_traj)
        self._stop_worker()
        self._check_live()
        driver = [self._to_driver(r, frame, f"q_traj[{k}]") for k, r in enumerate(rows)]
        prev = self._q_cmd if self._q_cmd is not None else self.state().q_driver
        traj = checked_trajectory(driver, prev, self.limits)
        if wait:
            if stream(self, traj):
                settle_at(self, traj[-1], tol, settle)
            return None
        self._worker = threading.Thread(target=self._stream_bg, args=(traj,), daemon=True, name="youbot stream")
        self._worker.start()
        return None

    def move_joints(
        self,
        q: ArrayLike,
        speed: float = 0.5,
        frame: str = "dh",
        duration: float | None = None,
        wait: bool = True,
        tol: float = 0.02,
        settle: float = 1.5,
    ) -> ArmState | None:
        """Move to joint angles q (``frame`` "dh" or "driver") with peak joint speed ``speed`` rad/s, or
        in ``duration`` s; blocks until the arm is within ``tol`` rad (``wait=False`` streams in the
        background; a later command replaces it)."""
        speed = check_speed(speed, self.limits)
        goal = check_set_point(self._to_driver(q, frame), self.limits, "target")
        self._check_live()
        self._stop_worker()
        start = self._q_cmd if self._q_cmd is not None else self.limits.clip(self.state().q_driver)
        dist = float(np.max(np.abs(goal - start)))
        if duration is None:
            duration = 1.875 * dist / speed
        elif not (isinstance(duration, (int, float)) and math.isfinite(duration) and duration > 0):
            raise SafetyError(f"duration must be a positive number of seconds, got {duration!r}; nothing was sent")
        else:
            check_speed(1.875 * dist / duration, self.limits)
        self.follow(min_jerk(start, goal, duration, self.rate), frame="driver", wait=wait, tol=tol, settle=settle)
        return self.state() if wait else None

    def move_pose(
        self, T: ArrayLike, speed: float = 0.5, weights: ArrayLike | None = None, **kw: Any
    ) -> ArmState | None:
        """Move the tool to pose T (4×4, base frame, metres) through IK, choosing the solution with the least
        weighted joint motion from the measured q; SafetyError if no solution is inside the limits."""
        sols = self.robot.ikine(np.asarray(T, dtype=float), q0=self.state().q, weights=weights)
        if len(sols) == 0:
            raise SafetyError(
                f"no inverse-kinematics solution within the joint limits for this pose "
                f"({getattr(sols, 'reason', '')}); nothing was sent"
            )
        return self.move_joints(sols.q[0], speed=speed, frame="dh", **kw)

    # --- streaming ----------------------------------------------------------------------
    def _stream_bg(self, traj):
        try:
            stream(self, traj)
        except BaseException as e:  # noqa: BLE001 - kept for the caller, who is not waiting
            self.last_error = e
            self._event(f"background motion stopped: {e}")

    def _stop_worker(self):
        w = self._worker
        if w is not None and w is not threading.current_thread() and w.is_alive():
            self._abort.set()
            w.join(timeout=2.0)
            if self.fault is None:
                self._abort.clear()
        self._worker = None

    # --- lifetime -----------------------------------------------------------------------
    def close(self) -> None:
        """Hold (if still connected and this client commanded the arm), then close the connection and the log."""
        try:
            self._abort.set()
            self._stop_worker()
            if self.connected and self._state is not None and self._q_cmd is not None:
                self.hold()  # (a client that never commanded the arm, a watcher, has nothing to hold)
        except (NotConnectedError, SafetyError):
            pass
        finally:
            self._client.close()
            if self.log:
                self.log.close()

    def __enter__(self) -> YoubotArm:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"YoubotArm({self.url!r}, {'connected' if self.connected else 'disconnected'}, fault={self.fault!r})"
