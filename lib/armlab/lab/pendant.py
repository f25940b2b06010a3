"""Lab 1's teach pendant: joint sliders that command the arm through the safety layer, and a 3-D view of
the measured arm (grey, with frames) beside the commanded one (orange).

Built on :mod:`armlab.viz`'s public pieces (Panel, JointSliders, ArmView): the reason lab sits one
layer above viz (docs/architecture.md). A slider change streams a motion in the background
(``move_joints(..., wait=False)``); a refused command shows its SafetyError, sends nothing and puts the
sliders back on the commanded pose (else every later move would carry the refused value and be refused too).
"""
from __future__ import annotations

import html
import time

import numpy as np

from ..viz import ArmView, JointSliders, Panel, figure3d, load_widgets, panel_layout, side_column, slider
from .safety import GRIPPER_MAX, SafetyError

__all__ = ["TeachPendant", "teach_pendant"]


class TeachPendant(Panel):
    """``TeachPendant(arm)``; ``.joints`` are the sliders (degrees, DH angles), ``.refresh()`` redraws the
    measured arm (also done live, at most ``live_hz`` times a second, while the pendant is shown)."""

    def __init__(self, arm, speed=0.5, live_hz=10.0):
        w = load_widgets()
        self.arm, self.speed = arm, speed
        q = arm.state().q
        self.fig, (ax,) = figure3d(figsize=(4.6, 4.4), show_axes=False)
        self.redraws = 0
        self.measured = ArmView(arm.robot, ax, q, labels=False)
        self.commanded = ArmView(arm.robot, ax, q, frames=False, color="tab:orange", floor=False)
        self.joints = JointSliders(arm.robot, q)
        self.joints.observe(self._command)
        self.gripper = slider(0.0, 0.0, 1000 * GRIPPER_MAX, 0.5, "finger mm")
        self.gripper.observe(lambda ch: self._safely(lambda: arm.gripper(ch["new"] / 1000.0)), "value")
        self.hold_button = w.Button(description="hold", button_style="warning")
        self.hold_button.on_click(lambda _: self._safely(arm.stop, "held"))
        self.status = w.HTML()
        self.refused = 0
        self._period, self._last = 1.0 / live_hz, 0.0
        arm.on_state.append(self._live)
        side = side_column([self.joints.box, self.gripper, self.hold_button, self.status])
        self.widget = panel_layout(side, self._figure_widget())

    def _safely(self, action, done="sent"):
        try:
            action()
        except SafetyError as e:
            self.refused += 1
            self.status.value = f"<span style='color:#b00'>refused: {html.escape(str(e))}</span>"
            return False
        self.status.value = f"<small>{done}</small>"
        return True

    def _command(self, q):
        if self._safely(lambda: self.arm.move_joints(q, speed=self.speed, wait=False), "moving"):
            self.commanded.update(q)
            self.redraw()
        else:
            self.joints.set_q(self.commanded.q, notify=False)

    def _live(self, state):
        now = time.monotonic()
        if now - self._last >= self._period:
            self._last = now
            self.refresh(state)

    def refresh(self, state=None):
        """Draw the measured arm where it is now; returns the commanded − measured tool offset (m)."""
        state = state or self.arm.state()
        self.measured.update(state.q)
        self.redraw()
        return float(np.linalg.norm(self.commanded.T[:3, 3] - self.measured.T[:3, 3]))

    def close(self):
        """Stop following the arm's state (the arm itself stays connected)."""
        if self._live in self.arm.on_state:
            self.arm.on_state.remove(self._live)


def teach_pendant(arm, speed=0.5):
    """Show a :class:`TeachPendant` for ``arm`` and return it."""
    return TeachPendant(arm, speed)
