"""Lab 1's teach pendant: joint sliders that command the arm through the safety layer, and a 3-D view of
the measured arm (grey, with frames) beside the commanded one (orange).

Built on :mod:`armlab.viz`'s public pieces (Panel, JointSliders, ArmView): the reason lab sits one
layer above viz (docs/architecture.md). The rules, so that the sliders never carry a target the arm is
not going to:

* a slider move sends **only the joints that moved**; every other joint is commanded where it is
  *measured* (``/joint_states``), and the sliders are put there too;
* **hold** is a latched stop (:meth:`YoubotArm.latch_hold`): no slider and no command moves the arm until
  **resume** (the button, or :meth:`TeachPendant.resume`), which puts the sliders on the measured pose;
* after a refused command, a lost connection or a stale-state hold the sliders show the measured pose;
* the status line says what holds the arm and what clears it (:meth:`YoubotArm.fault_message`), and says
  "resumed" however the arm was resumed (the button, or ``arm.resume()`` in a cell);
* refusals are given in what the sliders show: DH angles in degrees.
"""

from __future__ import annotations

import html
import math
import time
from typing import Any

import numpy as np

from ..models import youbot_driver_to_q
from ..viz import ArmView, JointSliders, Panel, figure3d, load_widgets, panel_layout, side_column, slider
from ..viz.scene import joint_text, spoken_vector
from ..viz.text import plain_text
from .arm import ArmState, YoubotArm
from .safety import GRIPPER_MAX, SafetyError

__all__ = ["TeachPendant", "teach_pendant"]

ARRIVED = 2e-3  # m: the measured tool this close to the commanded one has arrived (announced once)


class TeachPendant(Panel):
    """``TeachPendant(arm)``; ``.joints`` are the sliders (degrees, DH angles), ``.refresh()`` redraws the
    measured arm (also done live, at most ``live_hz`` times a second, while the pendant is shown);
    ``.hold()`` / ``.resume()`` are the two buttons; ``.status_text`` is what its status line says."""

    def __init__(self, arm: YoubotArm, speed: float = 0.5, live_hz: float = 10.0):
        w = load_widgets()
        self.arm, self.speed = arm, speed
        q = arm.state().q
        self.fig, (ax,) = figure3d(figsize=(4.6, 4.4), show_axes=False)
        self.redraws = 0
        self.measured = ArmView(arm.robot, ax, q, labels=False, name="measured arm")
        self.commanded = ArmView(arm.robot, ax, q, frames=False, color="#d55e00", floor=False, name="commanded arm")
        self.joints = JointSliders(arm.robot, q)
        self.joints.observe(self._command)
        self._shown = self.joints.values  # what the sliders showed after our last update
        # the commandable band in DH degrees, per joint (the driver axes turn the other way: min/max swap)
        a = np.degrees(youbot_driver_to_q(arm.limits.safe_lower))
        b = np.degrees(youbot_driver_to_q(arm.limits.safe_upper))
        self.band_deg = np.stack([np.minimum(a, b), np.maximum(a, b)], axis=1)
        self.gripper = slider(0.0, 0.0, 1000 * GRIPPER_MAX, 0.5, "finger (mm)")
        self.gripper.observe(lambda ch: self._safely(lambda: arm.gripper(ch["new"] / 1000.0)), "value")
        self.hold_button = w.Button(description="hold", tooltip="latched stop")
        self.hold_button.add_class("armlab-hold")  # dark red, white text 5.6:1 (armlab.css)
        self.hold_button.on_click(lambda _: self.hold())
        self.resume_button = w.Button(
            description="resume",
            tooltip="release the hold; the sliders go to the measured pose",
        )
        self.resume_button.add_class("armlab-resume")
        self.resume_button.on_click(lambda _: self.resume())
        self.status = w.HTML()
        self.refused = 0
        self.closed = False
        self._period, self._last = 1.0 / live_hz, 0.0
        arm.on_state.append(self._live)
        arm.on_fault.append(self._faulted)
        arm.on_resume.append(self._resumed)
        arm.client.on_disconnect.append(self._disconnected)
        buttons = w.HBox([self.hold_button, self.resume_button])
        side = side_column([self.joints.box, self.gripper, buttons, self.status])
        self.widget = panel_layout(side, self._figure_widget())

    # --- what the sliders show --------------------------------------------------------------
    def _measured_q(self) -> np.ndarray:
        """The measured pose in DH angles, moved into the commandable band (as a hold commands it)."""
        return youbot_driver_to_q(self.arm.limits.clip(self.arm.state().q_driver))

    def sync(self) -> np.ndarray:
        """Put the sliders and the orange arm on the measured pose (sends nothing); returns it."""
        q = self._measured_q()
        self.joints.set_q(q, notify=False)
        self._shown = self.joints.values
        self.commanded.update(q)
        self.refresh()
        return q

    @property
    def status_text(self) -> str:
        """The status line (moving, refused and why, held, closed) as plain text, for print."""
        return plain_text(self.status.value)

    def _say(self, text: str, error: bool = False, spoken: str = "") -> None:
        """The status line; a refusal or fault is an alert (read out at once), other news is announced
        (``spoken``, if given, in its place: what a move commands)."""
        if error:
            self.status.value = f"<div role='alert' style='color:#b00'>{html.escape(text)}</div>"
        else:
            self.status.value = f"<span>{html.escape(text)}</span>"
            if text != "sent":  # not every finger move
                self.announce(spoken or text)

    def _refuse(self, why: str) -> None:
        self.refused += 1
        self._say(f"refused: {why}", error=True)
        try:
            self.sync()
        except SafetyError:  # no state at all: leave the sliders, the message says why
            pass

    def _safely(self, action: Any, done: str = "sent", spoken: str = "") -> bool:
        if self.closed:
            self._say("the session is closed: re-run the Connect cell", error=True)
            return False
        try:
            action()
        except SafetyError as e:
            self._refuse(str(e))
            return False
        self._say(done, spoken=spoken)
        return True

    def _in_degrees(self, target: np.ndarray, moved: np.ndarray) -> str | None:
        """Why ``target`` (DH radians) is outside the commandable band, in slider degrees; None if inside."""
        deg = np.degrees(target)
        for i in moved:
            lo, hi = self.band_deg[i]
            if not lo <= deg[i] <= hi:
                margin = math.degrees(self.arm.limits.margin)
                return (
                    f"θ{i + 1} = {deg[i]:.1f}° is outside the commandable range {lo:.1f}° … {hi:.1f}° "
                    f"(DH angles: the joint's limits less a {margin:.1f}° margin); nothing was sent"
                )
        return None

    # --- commands -----------------------------------------------------------------------------
    def _command(self, q: np.ndarray) -> None:
        values = self.joints.values
        moved = np.flatnonzero(np.abs(values - self._shown) > 1e-9)
        if moved.size == 0:
            return
        if self.closed:
            self._say("the session is closed: re-run the Connect cell", error=True)
            return
        if self.arm.fault is not None:
            self._refuse(self._fault_text())
            return
        try:
            target = self._measured_q()
        except SafetyError as e:
            self._refuse(str(e))
            return
        target[moved] = q[moved]  # only what was moved; the rest where the arm is
        why = self._in_degrees(target, moved)
        if why is not None:
            self._refuse(why)
            return
        goal = f"moving to {joint_text(self.arm.robot, target)}: tool to {self._tool(target)} m"
        with self.one_message():  # "moving to …" with the view that shows the commanded arm there
            if self._safely(lambda: self.arm.move_joints(target, speed=self.speed, wait=False), "moving", goal):
                self._arriving = True
                self.joints.set_q(target, notify=False)
                self._shown = self.joints.values
                self.commanded.update(target)
                self.redraw()

    def _fault_text(self) -> str:
        return f"nothing was sent: {self.arm.fault_message()}"

    def hold(self) -> None:
        """The latched stop: the arm stops where it is and stays there until :meth:`resume`."""
        try:
            self.arm.latch_hold()
        except SafetyError as e:
            self._say(f"hold: {e}", error=True)
        try:
            self.sync()
        except SafetyError:
            pass
        self._say("held: nothing moves the arm until resume")

    def resume(self) -> ArmState | None:
        """Release a hold or a fault (the arm must be connected with fresh state) and put the sliders on the
        measured pose, so the next move starts from where the arm is."""
        try:
            return self.arm.resume()  # _resumed() puts the sliders on the measured pose
        except SafetyError as e:
            self._refuse(f"cannot resume: {e}")
            return None

    # --- following the arm ----------------------------------------------------------------------
    def _faulted(self, why: str) -> None:
        """A fault latched (stale state, watchdog, refusal by the gate, hold): show where the arm is."""
        if why == "held":
            return  # hold() syncs and says so itself
        try:
            self.sync()
        except SafetyError:
            pass
        self._say(self.arm.fault_message() or why, error=True)

    def _resumed(self, state: ArmState) -> None:
        """The arm was resumed (the button or ``arm.resume()``): the fault shown is over."""
        self.sync()
        self._say("resumed: the sliders show the measured pose")

    def _disconnected(self) -> None:
        try:
            self.sync()  # the last state that arrived: where the arm was when the link went
        except SafetyError:
            pass
        self._say(
            "connection lost: the sliders show the last measured pose; it reconnects by itself, then press resume",
            error=True,
        )

    def _live(self, state: ArmState) -> None:
        now = time.monotonic()
        if now - self._last >= self._period:
            self._last = now
            self.refresh(state)

    def refresh(self, state: ArmState | None = None) -> float:
        """Draw the measured arm where it is now; returns the commanded − measured tool offset (m)."""
        state = state or self.arm.state()
        self.measured.update(state.q)
        self.redraw()
        offset = float(np.linalg.norm(self.commanded.T[:3, 3] - self.measured.T[:3, 3]))
        if self._arriving and offset < ARRIVED:
            self._arriving = False
            self.announce(f"arrived: tool at {spoken_vector(self.measured.T[:3, 3], 3)} m")
        return offset

    _arriving = False  # a move was sent and the measured arm has not reached it yet

    def _tool(self, q: np.ndarray) -> str:
        return spoken_vector(self.arm.robot.fkine(q)[:3, 3], 3)

    def close(self) -> None:
        """Stop following the arm and grey the controls out (the arm itself stays connected)."""
        hooks: list[tuple[list[Any], Any]] = [
            (self.arm.on_state, self._live),
            (self.arm.on_fault, self._faulted),
            (self.arm.on_resume, self._resumed),
            (self.arm.client.on_disconnect, self._disconnected),
        ]
        for callbacks, fn in hooks:
            if fn in callbacks:
                callbacks.remove(fn)
        self.closed = True
        for s in [*self.joints.sliders, self.gripper, self.hold_button, self.resume_button]:
            s.disabled = True
        self._say("closed: this pendant no longer drives the arm (re-run its cell for a new one)")


def teach_pendant(arm: YoubotArm, speed: float = 0.5) -> TeachPendant:
    """Show a :class:`TeachPendant` for ``arm`` and return it."""
    return TeachPendant(arm, speed)
