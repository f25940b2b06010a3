"""Chapter 03 views, part 2: the inverse-kinematics explorer, target-pose sliders → every solution, live.

:class:`IKExplorer` / :func:`ik_explorer` — sliders for a target pose (x, y, z, roll, pitch, yaw),
all solutions drawn live (:class:`~armlab.viz.ik.SolutionArms`), and the one chosen by
``robot.ikine`` (nearest, or least weighted joint motion J = Σ kᵢ|Δθᵢ|, paper 003 eq. (12)) drawn
solid with its link frames.

>>> import matplotlib; matplotlib.use("Agg")
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

import numpy as np

from ..ik import joint_motion
from ..models import puma560
from ..transforms import R_to_rpy, Trans, rpy_to_R
from .ik import SolutionArms, floor_height, solutions_table
from .scene import ArmView, Triads, figure3d, reach
from .widgets import Panel, load_widgets

__all__ = ["IKExplorer", "ik_explorer"]

_POSE_NAMES = ("x", "y", "z", "roll", "pitch", "yaw")


class IKExplorer(Panel):
    """Target-pose sliders → every inverse-kinematics solution, live.

    * sliders x, y, z (m) and roll, pitch, yaw (°), T = Trans(x, y, z)·R(z, yaw)·R(y, pitch)·R(x, roll);
    * all solutions of ``robot.ikine_all(T)`` drawn as ghost arms (colour: within the joint
      limits, grey dashed: outside), labelled by branch; a table lists them with J;
    * the selector picks one with ``robot.ikine(T, q_current, weights)``: ``"nearest"`` uses equal
      weights (J = Σ|Δθᵢ|), ``"weighted"`` the weights in ``.weights_text`` (J = Σ kᵢ|Δθᵢ|,
      paper 003 eq. (12)); the chosen one is drawn solid with its link frames;
    * ``follow`` on: after each change the chosen solution becomes the current configuration
      (the arm moves there), so the next choice is the nearest to where the arm is;
    * an unreachable target hides every arm and shows the solver's reason.

    Drive it from code with :meth:`set_pose` (degrees), :meth:`set_T`, ``.mode.value``,
    :meth:`set_current`. After each update: ``.sols``, ``.chosen``, ``.q_used`` (the current
    configuration the choice was made from), ``.last_update_s``.
    """

    def __init__(self, robot=None, pose=None, q_current=None, weights=None, mode="nearest", follow=True,
                 figsize=(5.2, 4.8), span=None):
        w = load_widgets()
        self.robot = robot if robot is not None else puma560()
        robot = self.robot
        n = robot.n
        self.revolute = np.array([link.revolute for link in robot.links])
        if weights is None:
            weights = [3.0, 2.0, 1.0] + [1.0] * (n - 3) if n >= 3 else [1.0] * n
        size = reach(robot)
        span = span or round(1.1 * size, 2)
        step = 0.005
        self.sliders = []
        for name in _POSE_NAMES:
            if name in ("x", "y", "z"):
                s = w.FloatSlider(min=-span, max=span, step=step, description=f"{name} (m)", readout_format=".3f")
            else:
                lim = 90.0 if name == "pitch" else 180.0
                s = w.FloatSlider(min=-lim, max=lim, step=0.5, description=f"{name} (°)", readout_format=".1f")
            s.style.description_width = "70px"
            s.layout.width = "320px"
            self.sliders.append(s)
        self.pose_sliders = dict(zip(_POSE_NAMES, self.sliders))
        self.mode = w.ToggleButtons(options=[("nearest", "nearest"), ("weighted J = Σkᵢ|Δθᵢ|", "weighted")],
                                    value=mode, style={"button_width": "150px"})
        self.weights_text = w.Text(value=", ".join(f"{k:g}" for k in weights), description="k",
                                   layout=w.Layout(width="240px"))
        self.weights_text.style.description_width = "20px"
        self.follow = w.Checkbox(value=follow, description="follow: the arm moves to the chosen solution",
                                 indent=False)
        self.home_button = w.Button(description="current q → home", layout=w.Layout(width="150px"))
        self.message = w.HTML()
        self.table = w.HTML()
        self.redraws = 0
        self.update_times = []

        self.fig, (ax,) = figure3d(1, figsize, show_axes=False)
        self.ax = ax
        self.chosen_view = ArmView(robot, ax, frames=True, labels=False, color="k",
                                   floor_z=floor_height(robot))  # also draws the floor, pedestal, cube
        self.chosen_view.line.set_linewidth(2.0)
        self.arms = SolutionArms(robot, ax)
        self.target = Triads(ax, np.eye(4)[None], length=0.15 * size, linewidth=3.0, labels=["target"])

        self.home = np.clip(np.zeros(n), robot.qlim[:, 0], robot.qlim[:, 1])
        self.q_current = self.home.copy() if q_current is None else np.asarray(q_current, dtype=float).copy()
        self.q_used = self.q_current.copy()
        self.sols = None
        self.chosen = None
        self._hold = False
        if pose is None:
            pose = self._pose_of(robot.fkine(self.q_current))
        elif np.shape(pose) == (4, 4):
            pose = self._pose_of(pose)
        self._set_values(pose)
        for s in self.sliders:
            s.observe(self._changed, names="value")
        self.mode.observe(self._changed, names="value")
        self.weights_text.observe(self._changed, names="value")
        self.home_button.on_click(self._go_home)
        self._update()
        controls = w.VBox([*self.sliders, self.mode, self.weights_text, w.HBox([self.home_button]), self.follow,
                           self.message])
        self.widget = w.VBox([w.HBox([controls, self._figure_widget()]), self.table])

    # --- pose <-> sliders ---------------------------------------------------------------------
    @staticmethod
    def _pose_of(T):
        T = np.asarray(T, dtype=float)
        rpy = np.degrees(R_to_rpy(T[:3, :3]))
        return [*T[:3, 3], *rpy]

    @property
    def pose(self):
        """(x, y, z, roll°, pitch°, yaw°) of the target, as set on the sliders.

        A browser shows a slider value on the grid min + k·step and sends that snapped value back;
        a slider still within half a step of the value last set from code keeps the exact value.
        """
        values = np.array([s.value for s in self.sliders])
        steps = np.array([s.step for s in self.sliders])
        return np.where(np.abs(values - self._exact) <= 0.5 * steps + 1e-12, self._exact, values)

    @property
    def T(self):
        """Target pose T = Trans(x, y, z)·rpy_to_R(roll, pitch, yaw)."""
        x, y, z, roll, pitch, yaw = self.pose
        T = Trans(x, y, z)
        T[:3, :3] = rpy_to_R(math.radians(roll), math.radians(pitch), math.radians(yaw))
        return T

    @property
    def weights(self):
        """The weights k parsed from ``.weights_text`` (a ValueError names the text when malformed)."""
        try:
            k = np.array([float(v) for v in self.weights_text.value.replace(";", ",").split(",") if v.strip()])
        except ValueError:
            raise ValueError(f"weights must be {self.robot.n} numbers separated by commas, "
                             f"got {self.weights_text.value!r}") from None
        if k.shape != (self.robot.n,) or np.any(k < 0):
            raise ValueError(f"weights must be {self.robot.n} numbers >= 0, got {self.weights_text.value!r}")
        return k

    def _set_values(self, pose):
        pose = [float(v) for v in pose]
        if len(pose) != 6:
            raise ValueError(f"pose must be (x, y, z, roll, pitch, yaw), got {pose!r}")
        for s, v in zip(self.sliders, pose):  # check all before moving any: a refused pose changes nothing
            if not s.min <= v <= s.max:
                raise ValueError(f"pose value {v:g} for {s.description} is outside the slider "
                                 f"range [{s.min:g}, {s.max:g}]")
        self._exact = np.array(pose)
        self._hold = True
        try:
            for s, v in zip(self.sliders, pose):
                s.value = v
        finally:
            self._hold = False

    def set_pose(self, x, y, z, roll=0.0, pitch=0.0, yaw=0.0):
        """Move the sliders (metres, degrees) and update once; returns the chosen solution (or empty)."""
        self._set_values([x, y, z, roll, pitch, yaw])
        self._changed(None)
        return self.chosen

    def set_T(self, T):
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

    def _go_home(self, _button=None):
        self.set_current(self.home)

    # --- update -------------------------------------------------------------------------------
    def _changed(self, change):
        if self._hold:
            return
        if change is not None and change["owner"] in self.sliders and np.array_equal(self.pose, self._pose_used):
            return  # the browser echoing the same target, snapped to its step grid
        self._update()
        self.redraw()

    def _update(self):
        t0 = time.perf_counter()
        robot = self.robot
        self._pose_used = self.pose
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
            self.message.value = (f"<div style='color:#a00'><b>No solution.</b> "
                                  f"{html.escape(sols.reason or 'unreachable')}</div>")
            self.table.value = ""
        else:
            self.arms.update(sols)
            self.chosen = robot.ikine(T, self.q_current, weights)
            chosen_q = self.chosen.q[0]
            self.chosen_view.update(chosen_q)
            self.chosen_view.set_visible(True)
            J, _ = joint_motion(sols.q, self.q_current, weights, robot.qlim, self.revolute)
            k_chosen = sols.labels.index(self.chosen.labels[0])
            self.table.value = solutions_table(sols, self.arms.colors, self.arms.slots(sols.labels), J, k_chosen)
            n_ok = int(sols.within_limits.sum())
            how = "nearest (k = 1)" if weights is None else f"least J, k = ({', '.join(f'{v:g}' for v in weights)})"
            sing = " <b>Singular</b> (wrist: only θ4 + θ6 is fixed; θ4 kept at its current value)." \
                if sols.singular.any() else ""
            err = f"<div style='color:#a00'>{html.escape(bad_weights)} — using equal weights</div>" \
                if bad_weights else ""
            self.message.value = (
                f"<div>{len(sols)} solution(s), <b>{n_ok}</b> within the joint limits (colour; grey dashed: "
                f"outside).{sing}<br>chosen ({how}): <b>{html.escape(self.chosen.labels[0])}</b>, "
                f"J = {self.chosen.cost:.3f}</div>{err}")
            if self.follow.value:
                self.q_current = np.asarray(chosen_q, dtype=float).copy()
        self.last_update_s = time.perf_counter() - t0
        self.update_times.append(self.last_update_s)


def ik_explorer(robot=None, **kwargs) -> IKExplorer:
    """Inverse-kinematics explorer (see :class:`IKExplorer`); PUMA560 by default."""
    return IKExplorer(robot, **kwargs)
