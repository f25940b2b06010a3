"""Chapter 03 views, part 2: the inverse-kinematics explorer, target-pose sliders → every solution, live.

:class:`IKExplorer` / :func:`ik_explorer` — sliders for a target pose (x, y, z, roll, pitch, yaw),
all solutions drawn live (:class:`~armlab.viz.ik.SolutionArms`), a close-up of the wrist centre where the
flip/noflip wrists differ (:class:`~armlab.viz.ik.WristInset`, PUMA), and the one chosen by
``robot.ikine`` (nearest, or least weighted joint motion J = Σ kᵢ|Δθᵢ|, paper 003 eq. (12)) drawn
thick in its branch's colour, with its link frames.

>>> from armlab import models
>>> robot = models.puma560()
>>> ex = ik_explorer(robot, follow=False)            # the arm starts at q = 0
>>> chosen = ex.set_T(robot.fkine(np.radians([30, -40, 60, 20, 45, -30])))
>>> int(ex.arms.shown.sum()), chosen.labels, np.degrees(chosen.q[0]).round(1)
(8, ['left-up-noflip'], array([ 30., -40.,  60.,  20.,  45., -30.]))
"""

from __future__ import annotations

import html
import math
import time
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from ..ik import joint_motion, select, solver_for
from ..models import puma560
from ..transforms import R_to_rpy, Trans, rpy_to_R
from .ik import SolutionArms, WristInset, closed_form, floor_height, slot_of, solutions_table
from .browser import add_description
from .scene import ArmView, Triads, figure3d, reach, spoken_vector
from .text import plain_text
from .widgets import Panel, load_widgets, panel_layout, side_column, slider

if TYPE_CHECKING:
    from ..ik import IKSolutions
    from ..robot import DHRobot

__all__ = ["IKExplorer", "ik_explorer", "PRESETS"]

_POSE_NAMES = ("x", "y", "z", "roll", "pitch", "yaw")

# Presets of the PUMA560 explorer: (target configuration, current configuration), degrees. The target is
# fkine of the first; the second is where the arm is when the choice is made.
PRESETS = {
    "example: eight solutions": ([30, -40, 60, 20, 45, -30], [30, -40, 60, 20, 45, -30]),
    # nearest moves θ1 by 56° and saves the wrist; k = (3, 2, 1, …) keeps θ1 and turns the wrist instead
    "nearest ≠ weighted": ([-35, 40, 20, -10, 30, 5], [-65, -55, -60, 30, -10, -20]),
    "wrist singular (θ5 = 0)": ([20, -30, 40, 0, 0, 0], [0, 0, 0, 0, 0, 0]),
}

FOLLOW_HELP = (
    "<b>follow</b> on: after each move of the target the arm goes to the chosen solution, and the next "
    "choice is measured from there, so J is the motion from the previous pose. Switching nearest / weighted "
    "decides again from that same previous pose. Off: every choice is measured from the fixed current q "
    "(<i>current q → home</i> resets it)."
)


def _with_tool(robot, length):
    """``robot`` with a tool ``length`` metres further along the last frame's z (after its own tool, if any)."""
    tool = (robot.tool if robot.tool is not None else np.eye(4)) @ Trans(0.0, 0.0, length)
    return robot.replace(tool=tool)


class IKExplorer(Panel):
    """Target-pose sliders → every inverse-kinematics solution, live.

    * sliders x, y, z (m) and roll, pitch, yaw (°), T = Trans(x, y, z)·R(z, yaw)·R(y, pitch)·R(x, roll);
    * all solutions of ``robot.ikine_all(T)`` drawn as thin arms (colour: within the joint limits, grey
      dashed: outside), labelled by arm; a table lists them with J; for a PUMA a close-up of the wrist
      centre tells each arm's two wrists apart;
    * the selector picks one with ``robot.ikine(T, q_current, weights)``: ``"nearest"`` uses equal
      weights (J = Σ|Δθᵢ|), ``"weighted"`` the weights in ``.weights_text`` (J = Σ kᵢ|Δθᵢ|,
      paper 003 eq. (12)); the chosen one is drawn thick in its colour, with its link frames;
    * ``follow`` on: after each move of the target the chosen solution becomes the current
      configuration; a change of rule or weights decides again from the configuration before it;
    * ``tool`` (metres, or None): a tool that long along z of the last frame; the checkbox ``.use_tool``
      makes the sliders set the tool tip's pose instead of frame {n}'s, so turning the target swings
      the whole arm;
    * ``.preset`` (a PUMA's :data:`PRESETS`): a target and a current configuration in one click;
    * an unreachable target hides every arm and shows the solver's reason.

    Drive it from code with :meth:`set_pose` (degrees), :meth:`set_T`, ``.mode.value``,
    :meth:`set_current`, :meth:`load_preset`. After each update: ``.sols``, ``.chosen``, ``.q_used``
    (the configuration the choice was made from), ``.last_update_s``; ``.message_text`` is what the
    message under the sliders says, as plain text.
    """

    def __init__(
        self,
        robot=None,
        pose=None,
        q_current=None,
        weights=None,
        mode="nearest",
        follow=True,
        figsize=(4.8, 4.6),
        span=None,
        tool=0.15,
        use_tool=False,
    ):
        w = load_widgets()
        self.robot = robot if robot is not None else puma560()
        robot = self.robot
        n = robot.n
        self.revolute = np.array([link.revolute for link in robot.links])
        if weights is None:
            weights = [3.0, 2.0, 1.0] + [1.0] * (n - 3) if n >= 3 else [1.0] * n
        if tool is not None and not (isinstance(tool, (int, float)) and math.isfinite(tool) and tool > 0):
            raise ValueError(f"tool must be a length in metres > 0 or None, got {tool!r}")
        self.tool_robot = _with_tool(robot, float(tool)) if tool else None
        drawn = self.tool_robot or robot  # the tool is drawn whether or not the target is its tip
        size = reach(drawn)
        span = span or round(1.1 * size, 2)
        self.sliders = []
        for name in _POSE_NAMES:
            if name in ("x", "y", "z"):
                s = slider(0.0, -span, span, 0.005, f"{name} (m)", ".3f")
            else:
                lim = 90.0 if name == "pitch" else 180.0
                s = slider(0.0, -lim, lim, 0.5, f"{name} (°)", ".1f")
            self.sliders.append(s)
        self.pose_sliders = dict(zip(_POSE_NAMES, self.sliders))
        self.mode = w.ToggleButtons(
            options=[("nearest", "nearest"), ("weighted J = Σkᵢ|Δθᵢ|", "weighted")],
            value=mode,
            style={"button_width": "165px"},
        )
        self.weights_text = w.Text(
            value=", ".join(f"{k:g}" for k in weights),
            description="k",
            layout=w.Layout(width="240px"),
            style={"description_width": "20px"},
        )
        self.follow = w.Checkbox(
            value=follow,
            description="follow: the arm moves to the chosen solution",
            indent=False,
            layout=w.Layout(width="100%"),
        )
        self.use_tool = w.Checkbox(
            value=bool(use_tool and tool),
            indent=False,
            layout=w.Layout(width="100%"),
            description=f"target = tool tip ({tool:g} m along z{n})" if tool else "no tool",
            disabled=not tool,
        )
        self.home_button = w.Button(description="current q → home", layout=w.Layout(width="150px"))
        presets = list(PRESETS) if closed_form(robot) == "puma560" else []
        self.preset = w.Dropdown(
            options=[("preset…", "")] + [(p, p) for p in presets],
            value="",
            description="preset",
            tooltip="a target and a current configuration in one choice",
            style={"description_width": "auto"},
            layout=w.Layout(width="220px", display="" if presets else "none"),
        )
        self.message = w.HTML()
        self.help = w.HTML(f"<div style='font-size:11px;line-height:1.3;color:#444'>{FOLLOW_HELP}</div>")
        self.table = w.HTML()
        self.redraws = 0
        self.update_times = []

        self.fig, (ax,) = figure3d(1, figsize, show_axes=False)
        self.ax = ax
        self.arms = SolutionArms(drawn, ax)
        self.chosen_view = ArmView(
            drawn, ax, frames=True, labels=False, color="k", floor_z=floor_height(robot)
        )  # also draws the floor and pedestal
        self.chosen_view.line.set_linewidth(5.5)
        self.chosen_view.line.set_markersize(5)
        self.target = Triads(ax, np.eye(4)[None], length=0.15 * size, linewidth=2.5, labels=["target"], describe=False)
        add_description(ax, self._describe_target)
        self.inset = None
        if self.arms.wrist is not None:
            self.inset_fig, (iax,) = figure3d(1, (2.6, 2.6), show_axes=False)
            self.inset = WristInset(drawn, iax)

        self.home = np.clip(np.zeros(n), robot.qlim[:, 0], robot.qlim[:, 1])
        self.q_current = self.home.copy() if q_current is None else np.asarray(q_current, dtype=float).copy()
        self.q_used = self.q_current.copy()
        self.sols: IKSolutions | None = None  # the last target's solutions
        self.chosen = None
        self._hold = False
        if pose is None:
            pose = self._pose_of(self.ik_robot.fkine(self.q_current))
        elif np.shape(pose) == (4, 4):
            pose = self._pose_of(pose)
        self._set_values(pose)
        for s in self.sliders:
            s.observe(self._changed, names="value")
        for control in (self.mode, self.weights_text, self.use_tool):
            control.observe(self._redecide, names="value")
        self.preset.observe(self._preset_chosen, names="value")
        self.home_button.on_click(self._go_home)
        self._update()
        self._update_close_up()
        self._write_text()
        controls = side_column(
            [
                *self.sliders,
                self.mode,
                self.weights_text,
                w.HBox([self.home_button, self.preset]),
                self.follow,
                self.use_tool,
                self.help,
                self.message,
            ]
        )
        figures = [self._figure_widget()]
        if self.inset is not None:
            main = self.scenes
            figures.append(self._figure_widget(self.inset_fig.axes))
            self.scenes = [*main, *self.scenes]
        self.widget = w.VBox([panel_layout(controls, *figures), self.table])

    # --- pose <-> sliders ---------------------------------------------------------------------
    @property
    def ik_robot(self) -> DHRobot:
        """The robot whose last frame the target sets: with the tool when ``.use_tool`` is on."""
        return self.tool_robot if self.use_tool.value and self.tool_robot is not None else self.robot

    @property
    def message_text(self) -> str:
        """The message under the sliders (how many solutions, the chosen one, singular or why none) as text."""
        return plain_text(self.message.value)

    @staticmethod
    def _pose_of(T):
        T = np.asarray(T, dtype=float)
        rpy = np.degrees(R_to_rpy(T[:3, :3]))
        return [*T[:3, 3], *rpy]

    @property
    def pose(self) -> np.ndarray:
        """(x, y, z, roll°, pitch°, yaw°) of the target, as set on the sliders (exactly: no echo rounds them)."""
        return np.array([s.value for s in self.sliders])

    @property
    def T(self) -> np.ndarray:
        """Target pose T = Trans(x, y, z)·rpy_to_R(roll, pitch, yaw)."""
        x, y, z, roll, pitch, yaw = self.pose
        T = Trans(x, y, z)
        T[:3, :3] = rpy_to_R(math.radians(roll), math.radians(pitch), math.radians(yaw))
        return T

    @property
    def weights(self) -> np.ndarray:
        """The weights k parsed from ``.weights_text`` (a ValueError names the text when malformed)."""
        try:
            k = np.array([float(v) for v in self.weights_text.value.replace(";", ",").split(",") if v.strip()])
        except ValueError:
            raise ValueError(
                f"weights must be {self.robot.n} numbers separated by commas, got {self.weights_text.value!r}"
            ) from None
        if k.shape != (self.robot.n,) or np.any(k < 0):
            raise ValueError(f"weights must be {self.robot.n} numbers >= 0, got {self.weights_text.value!r}")
        return k

    def _set_values(self, pose):
        pose = [float(v) for v in pose]
        if len(pose) != 6:
            raise ValueError(f"pose must be (x, y, z, roll, pitch, yaw), got {pose!r}")
        for s, v in zip(self.sliders, pose):  # check all before moving any: a refused pose changes nothing
            if not s.min <= v <= s.max:
                raise ValueError(
                    f"pose value {v:g} for {s.description} is outside the slider range [{s.min:g}, {s.max:g}]"
                )
        self._hold = True
        try:
            for s, v in zip(self.sliders, pose):
                s.value = v
        finally:
            self._hold = False

    def set_pose(
        self, x: float, y: float, z: float, roll: float = 0.0, pitch: float = 0.0, yaw: float = 0.0
    ) -> IKSolutions | None:
        """Move the sliders (metres, degrees) and update once; returns the chosen solution (or empty)."""
        self._set_values([x, y, z, roll, pitch, yaw])
        self._changed(None)
        return self.chosen

    def set_T(self, T: ArrayLike) -> IKSolutions | None:
        """Move the sliders to the pose T (4×4) and update once."""
        return self.set_pose(*self._pose_of(T))

    def set_current(self, q):
        """Set the current configuration the next choice is measured from, and update."""
        q = np.asarray(q, dtype=float)
        if q.shape != (self.robot.n,):
            raise ValueError(f"q must have {self.robot.n} joint values, got shape {q.shape}")
        self.q_current = q.copy()
        self._changed(None)
        return self.chosen

    def load_preset(self, name: str) -> IKSolutions | None:
        """Set a preset's target and current configuration (:data:`PRESETS`), then update once."""
        if name not in PRESETS:
            raise ValueError(f"preset must be one of {sorted(PRESETS)}, got {name!r}")
        target, current = (np.radians(v) for v in PRESETS[name])
        self.q_current = current
        return self.set_T(self.ik_robot.fkine(target))

    def _preset_chosen(self, change):
        if change["new"]:
            self.load_preset(change["new"])

    def _go_home(self, _button=None):
        self.set_current(self.home)

    # --- update -------------------------------------------------------------------------------
    def _changed(self, change):
        if self._hold:
            return
        self._update()
        self.redraw()  # the picture first: the table and the message are slower to lay out in the page
        self._write_text()

    def redraw(self) -> None:
        """Send the main view, then bring the wrist close-up (eight more arms) to the solutions and send it: the
        arm that the student moves answers first."""
        self.redraws += 1
        main, *close_up = self.scenes
        main.sync()
        self._update_close_up()
        for scene in close_up:
            scene.sync()

    def _update_close_up(self) -> None:
        if self.inset is not None and self.sols is not None:
            self.inset.update(self.sols)

    def _write_text(self):
        self.message.value, self.table.value = self._text
        self.announce(self.message_text.replace("\n", " "))

    def _describe_target(self) -> str:
        """The target pose, for the scene's text alternative."""
        x, y, z, *rpy = self.pose
        return f"target at {spoken_vector((x, y, z))} m, roll, pitch, yaw = {spoken_vector(rpy, 1)}°"

    def _redecide(self, change):
        """Rule, weights or tool changed: choose again from the configuration the last choice started at."""
        self.q_current = self.q_used.copy()
        self._changed(change)

    def _update(self):
        t0 = time.perf_counter()
        robot = self.ik_robot
        T = self.T
        self.target.update(T[None])
        sols = robot.ikine_all(T, self.q_current)
        self.sols = sols
        self.q_used = self.q_current.copy()
        try:
            weights = None if self.mode.value == "nearest" else self.weights
            bad_weights = ""
        except ValueError as exc:
            weights, bad_weights = None, str(exc)
        if len(sols) == 0:
            self.arms.hide()
            self.chosen = sols
            self.chosen_view.set_visible(False)
            self._text = (
                f"<div style='color:#a00;line-height:1.35'><b>No solution.</b> "
                f"{html.escape(sols.reason or 'unreachable')}</div>",
                "",
            )
        else:
            self.arms.update(sols)
            solver = solver_for(robot)  # = robot.ikine(T, q_current, weights), without solving T again
            self.chosen = select(sols, self.q_current, weights, solver.qlim, solver.revolute)
            chosen_q = self.chosen.q[0]
            label = self.chosen.labels[0]
            self.chosen_view.name = f"chosen solution, {label}: {robot.name}"
            self.chosen_view.update(chosen_q)
            self.chosen_view.set_visible(True)
            slot = self.arms.slots(sols.labels)[sols.labels.index(label)] if label in sols.labels else slot_of(label, 0)
            color = self.arms.colors[slot % len(self.arms.colors)]
            self.chosen_view.line.set_color(color)
            self.chosen_view.line.set_markeredgecolor(color)
            J, _ = joint_motion(sols.q, self.q_current, weights, robot.qlim, self.revolute)
            k_chosen = sols.labels.index(label)
            table = solutions_table(sols, self.arms.colors, self.arms.slots(sols.labels), J, k_chosen)
            n_ok = int(sols.within_limits.sum())
            how = "nearest (k = 1)" if weights is None else f"least J, k = ({', '.join(f'{v:g}' for v in weights)})"
            sing = (
                " <b>Singular</b> (wrist: only θ4 + θ6 is fixed; θ4 kept at its current value)."
                if sols.singular.any()
                else ""
            )
            err = (
                f"<div style='color:#a00'>{html.escape(bad_weights)} — using equal weights</div>" if bad_weights else ""
            )
            self._text = (
                f"<div style='line-height:1.35'>{len(sols)} solution(s), <b>{n_ok}</b> within the joint limits (colour; grey dashed: "
                f"outside).{sing}<br>chosen ({how}): <b style='color:{color}'>{html.escape(label)}</b> (thick), "
                f"J = {self.chosen.cost:.3f}</div>{err}",
                table,
            )
            if self.follow.value:
                self.q_current = np.asarray(chosen_q, dtype=float).copy()
        self.last_update_s = time.perf_counter() - t0
        self.update_times.append(self.last_update_s)


def ik_explorer(robot: DHRobot | None = None, **kwargs: Any) -> IKExplorer:
    """Inverse-kinematics explorer (see :class:`IKExplorer`); PUMA560 by default."""
    return IKExplorer(robot, **kwargs)
