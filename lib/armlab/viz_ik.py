"""Inverse-kinematics views: every solution of a pose drawn at once, and the pose explorer widget.

Built from :mod:`armlab.viz` (``ArmView``, ``Triads``, ``figure3d``, the ``_Panel`` plumbing):

* :class:`GhostArm` — an :class:`~armlab.viz.ArmView` drawn as a faint line;
* :class:`SolutionArms` — one ghost per solution slot on one axes; ``update(sols)`` moves them in
  place: solutions inside the joint limits in colour, the others grey and dashed, unused slots
  hidden; a short stub along the PUMA's joint-5 axis tells the two wrists (``noflip``/``flip``)
  apart, whose links coincide;
* :func:`show_solutions` — a static figure of one :class:`~armlab.ik.IKSolutions`;
* :class:`IKExplorer` / :func:`ik_explorer` — sliders for a target pose (x, y, z, roll, pitch,
  yaw), all solutions drawn live, and the one chosen by ``robot.ikine`` (nearest, or least
  weighted joint motion J = Σ kᵢ|Δθᵢ|, paper 003 eq. (12)) drawn solid with its link frames.

Nothing is rebuilt on a change: the artists move (``set_data_3d``) and the canvas is asked to
``draw_idle``. Not imported by ``armlab/__init__.py``.

>>> import matplotlib; matplotlib.use("Agg")
>>> from armlab import models, viz_ik
>>> robot = models.puma560()
>>> view = viz_ik.show_solutions(robot, robot.ikine_all(robot.fkine(np.radians([30, -40, 60, 20, 45, -30]))))
>>> int(view.arms.shown.sum()), int(view.arms.highlighted.sum())
(8, 3)
"""
from __future__ import annotations

import html
import math
import time

import numpy as np

from . import viz
from .ik import PUMA_LABELS, joint_motion
from .transforms import R_to_rpy, Trans, rpy_to_R

__all__ = ["GhostArm", "SolutionArms", "SolutionsFigure", "show_solutions", "IKExplorer", "ik_explorer",
           "slot_of", "arm_label"]

# tab20 comes in (dark, light) pairs: one pair per arm, dark for the first wrist, light for the flipped one;
# robots without a wrist flip take one tab10 colour per solution
_TAB20 = ["#1f77b4", "#aec7e8", "#ff7f0e", "#ffbb78", "#2ca02c", "#98df8a", "#d62728", "#ff9896",
          "#9467bd", "#c5b0d5", "#8c564b", "#c49c94", "#e377c2", "#f7b6d2", "#7f7f7f", "#c7c7c7"]
_TAB10 = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf")
OUTSIDE_COLOR = "0.55"
_ROMAN = ("I", "II", "III", "IV")


def slot_of(label, fallback):
    """The fixed slot of a branch label: PUMA slots in PUMA_LABELS order, youBot I–IV, planar up/down.

    Labels the function does not know keep ``fallback`` (their position in the result).
    """
    if label in PUMA_LABELS:
        return PUMA_LABELS.index(label)
    head = label.split(":")[0]
    if head in _ROMAN:
        return _ROMAN.index(head)
    if label in ("up", "down"):
        return ("up", "down").index(label)
    return fallback


def arm_label(label):
    """The part of a label that names the arm (links 1–3), without the wrist: 'left-up-flip' → 'left-up'."""
    for wrist in ("-noflip", "-flip"):
        if label.endswith(wrist):
            return label[: -len(wrist)]
    return label


def _slot_count(robot):
    from .ik import solver_for

    solver = solver_for(robot)
    method = getattr(solver, "method", "")
    return {"puma560": 8, "youbot": 4, "planar2r": 2, "planar3r": 2}.get(method, 8)


def _slot_colors(count, paired):
    if paired:
        return [_TAB20[k % len(_TAB20)] for k in range(count)]
    return [_TAB10[k % len(_TAB10)] for k in range(count)]


def _wrist_axis(robot):
    """(frame, axis) for the wrist stub: the joint-5 axis z5 of a PUMA (it flips with the wrist), else None."""
    from .ik import solver_for

    solver = solver_for(robot)
    if getattr(solver, "method", "") == "puma560":
        return (5, 2) if robot.modified else (4, 2)
    return None


def _floor_z(robot):
    """Height of the floor grid: the PUMA's frame {0} sits at the shoulder, so put its floor 0.6 reach lower."""
    from .ik import solver_for

    if getattr(solver_for(robot), "method", "") == "puma560":
        return -round(0.6 * viz._reach(robot), 1)
    return 0.0


class GhostArm(viz.ArmView):
    """An :class:`~armlab.viz.ArmView` drawn as a faint line: no frame triads, no tip marker, no pedestal.

    ``set_style(color, alpha, dashed)`` restyles it in place; ``set_visible`` shows or hides it.
    """

    def __init__(self, robot, ax, q=None, color="0.5", linewidth=3.0, floor_z=0.0):
        before = list(ax.lines)
        super().__init__(robot, ax, q=q, frames=False, labels=False, color=color, floor=False, floor_z=floor_z)
        for artist in list(ax.lines):  # the pedestal: the solid view (or the floor view) already has one
            if artist not in before and artist is not self.line and artist is not self.tip:
                artist.remove()
        # every solution ends at the same target: one marker is enough. Removed, not hidden: a hidden
        # 3-D line is still projected at every draw
        self.tip.set_visible(False)
        self.tip.remove()
        self.line.set_linewidth(linewidth)
        self.line.set_marker("None")

    def set_style(self, color, alpha, dashed=False):
        self.line.set_color(color)
        self.line.set_alpha(alpha)
        self.line.set_linestyle("--" if dashed else "-")

    def set_visible(self, visible):
        self.line.set_visible(visible)


class SolutionArms:
    """One :class:`GhostArm` per solution slot on one axes, moved in place by :meth:`update`.

    After ``update(sols)``:

    ``shown``        (slots,) bool, the slot holds a solution
    ``highlighted``  (slots,) bool, shown and within the joint limits (drawn in colour)
    ``q``            (slots, n) joint values drawn (NaN where not shown)
    ``labels``       (slots,) label drawn in each slot ('' where not shown)

    The slot of a solution is fixed by its branch label (:func:`slot_of`), so a branch keeps
    its colour while the target moves.
    """

    IN_ALPHA = 0.75
    OUT_ALPHA = 0.3

    def __init__(self, robot, ax, slots=None, wrist="auto", text=True):
        self.robot = robot
        self.ax = ax
        self.count = slots or _slot_count(robot)
        self.wrist = _wrist_axis(robot) if wrist == "auto" else wrist
        self.colors = _slot_colors(self.count, paired=self.wrist is not None)
        fz = _floor_z(robot)  # ArmView sets the axes' cube from it: the same for every view
        self.ghosts = [GhostArm(robot, ax, color=c, floor_z=fz) for c in self.colors]
        # the wrist stubs of all slots in one artist (one segment each): fewer artists, faster drawing
        self.stub_length = 0.6 * self.ghosts[0].triad_length
        self.stubs = None
        if self.wrist is not None:
            from mpl_toolkits.mplot3d.art3d import Line3DCollection

            self.stubs = Line3DCollection(np.zeros((self.count, 2, 3)), linewidths=4.0, colors=self.colors)
            ax.add_collection3d(self.stubs)
        self.label_frame = max(1, robot.n // 2)  # the elbow: PUMA {3}, youBot {2}, planar {1}
        self.texts = [ax.text(0, 0, 0, "", fontsize=7, color=c) for c in self.colors] if text else []
        self.shown = np.zeros(self.count, bool)
        self.highlighted = np.zeros(self.count, bool)
        self.q = np.full((self.count, robot.n), np.nan)
        self.labels = [""] * self.count
        self.hide()

    def hide(self):
        for g in self.ghosts:
            g.set_visible(False)
        if self.stubs is not None:
            self.stubs.set_visible(False)
        for t in self.texts:
            t.set_visible(False)
        self.shown[:] = False
        self.highlighted[:] = False
        self.q[:] = np.nan
        self.labels = [""] * self.count

    def update(self, sols):
        """Draw the solutions of ``sols`` (an :class:`armlab.ik.IKSolutions`); hide the other slots."""
        self.hide()
        used = set()
        for k, (q, label, ok) in enumerate(zip(sols.q, sols.labels, sols.within_limits)):
            s = slot_of(label, k)
            if s in used or s >= self.count:  # unknown labels: the next free slot
                s = next(j for j in range(self.count) if j not in used)
            used.add(s)
            g = self.ghosts[s]
            g.update(q)
            if ok:
                g.set_style(self.colors[s], self.IN_ALPHA)
            else:
                g.set_style(OUTSIDE_COLOR, self.OUT_ALPHA, dashed=True)
            g.set_visible(True)
            self.shown[s], self.highlighted[s] = True, bool(ok)
            self.q[s], self.labels[s] = q, label
        self._place_texts()
        self._place_stubs()
        return self.shown

    def _place_stubs(self):
        """A short segment along the wrist axis (PUMA: z5, which reverses when the wrist flips)."""
        if self.stubs is None or not self.shown.any():
            return
        i, k = self.wrist
        segs = np.full((self.count, 2, 3), np.nan)
        colors = []
        for s in range(self.count):
            if self.shown[s]:
                F = self.ghosts[s].frames[i]
                segs[s, 0] = F[:3, 3]
                segs[s, 1] = F[:3, 3] + self.stub_length * F[:3, k]
            colors.append(self.colors[s] if self.highlighted[s] else OUTSIDE_COLOR)
        shown = np.flatnonzero(self.shown)
        self._stub_segs = segs
        self.stubs.set_segments(segs[shown])
        self.stubs.set_color([colors[s] for s in shown])
        self.stubs.set_alpha([self.IN_ALPHA if self.highlighted[s] else self.OUT_ALPHA for s in shown])
        self.stubs.set_visible(True)

    def stub_segments(self):
        """{slot: (2, 3) wrist stub as drawn} for the shown slots (empty without a wrist stub)."""
        if self.stubs is None or not self.stubs.get_visible():
            return {}
        return {int(s): self._stub_segs[s] for s in np.flatnonzero(self.shown)}

    def _place_texts(self):
        """One text per distinct arm (flip and noflip share their links, so they share a label)."""
        placed = {}
        for s in np.flatnonzero(self.shown):
            if not self.texts:
                break
            name = arm_label(self.labels[s])
            p = self.ghosts[s].frames[self.label_frame][:3, 3]
            t = self.texts[s]
            if name in placed:
                continue
            lift = (0.03 + 0.035 * len(placed)) * self.ghosts[s].triad_length / 0.12  # labels stacked, not piled
            placed[name] = s
            t.set_text(name)
            t.set_color(self.colors[s] if self.highlighted[s] else OUTSIDE_COLOR)
            t.set_position_3d((p[0], p[1], p[2] + lift))
            t.set_visible(True)


def _solutions_table(sols, colors_by_slot, J=None, chosen=None, slot_index=None):
    """HTML table: colour, label, q in degrees, limits, singular, J."""
    rows = []
    for k, (q, label, ok, sing) in enumerate(zip(sols.q, sols.labels, sols.within_limits, sols.singular)):
        s = slot_index[k] if slot_index is not None else k
        color = colors_by_slot[s] if ok else OUTSIDE_COLOR
        deg = " ".join(f"{v:7.1f}" for v in np.degrees(q))
        flags = ("✓" if ok else "outside") + (" · singular" if sing else "")
        cost = "" if J is None else f"{J[k]:.3f}"
        style = "font-weight:bold" if chosen == k else ""
        rows.append(f"<tr style='{style}'><td style='color:{color}'>■</td><td>{html.escape(label)}</td>"
                    f"<td><code>{deg}</code></td><td>{flags}</td><td>{cost}</td></tr>")
    head = "<tr><th></th><th>branch</th><th>q (°)</th><th>limits</th><th>J</th></tr>"
    return f"<table style='font-size:11px'>{head}{''.join(rows)}</table>"


class SolutionsFigure(viz._Panel):
    """A static figure of all solutions of one pose (see :func:`show_solutions`)."""

    def __init__(self, robot, sols=None, T=None, title=None, figsize=(4.6, 4.4), ax=None, elev=None, azim=None):
        w = viz._widgets()
        if ax is None:
            self.fig, (ax,) = viz.figure3d(1, figsize, [title] if title else None, show_axes=False)
            floor = viz.ArmView(robot, ax, frames=False, labels=False, floor_z=_floor_z(robot))  # floor, cube
            floor.line.set_visible(False)
            floor.tip.set_visible(False)
        else:
            self.fig = ax.figure
        self.ax = ax
        self.robot = robot
        self.redraws = 0
        self.arms = SolutionArms(robot, ax)
        L = 0.1 * viz._reach(robot)
        self.target = viz.Triads(ax, np.eye(4)[None], length=L, linewidth=2.5, labels=["target"])
        if elev is not None or azim is not None:
            ax.view_init(elev=elev if elev is not None else 30, azim=azim if azim is not None else -60)
        self.caption = w.HTML()
        if sols is not None:
            self.update(sols, T)
        self.widget = w.VBox([self._figure_widget(), self.caption])

    def update(self, sols, T=None):
        self.arms.update(sols)
        if T is None and len(sols):
            T = self.robot.fkine(sols.q[0])
        if T is not None:
            self.target.update(np.asarray(T, dtype=float)[None])
        self.target.set_visible(T is not None)
        slot_index = [slot_of(l, k) for k, l in enumerate(sols.labels)]
        text = _solutions_table(sols, self.arms.colors, slot_index=slot_index) if len(sols) else ""
        if sols.reason:
            text += f"<div style='color:#a00;font-size:11px'>{html.escape(sols.reason)}</div>"
        self.caption.value = text
        if getattr(self, "widget", None) is not None:
            self.redraw()
        return self


def show_solutions(robot, sols, T=None, title=None, **kwargs) -> SolutionsFigure:
    """Draw every solution in ``sols`` on one 3-D axes (colour: within limits; grey dashed: outside)."""
    return SolutionsFigure(robot, sols, T, title, **kwargs)


_POSE_NAMES = ("x", "y", "z", "roll", "pitch", "yaw")


class IKExplorer(viz._Panel):
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
        w = viz._widgets()
        from . import models

        self.robot = robot if robot is not None else models.puma560()
        robot = self.robot
        n = robot.n
        self.revolute = np.array([link.revolute for link in robot.links])
        if weights is None:
            weights = [3.0, 2.0, 1.0] + [1.0] * (n - 3) if n >= 3 else [1.0] * n
        reach = viz._reach(robot)
        span = span or round(1.1 * reach, 2)
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

        self.fig, (ax,) = viz.figure3d(1, figsize, show_axes=False)
        self.ax = ax
        self.chosen_view = viz.ArmView(robot, ax, frames=True, labels=False, color="k",
                                       floor_z=_floor_z(robot))  # also draws the floor, pedestal, cube
        self.chosen_view.line.set_linewidth(2.0)
        self.arms = SolutionArms(robot, ax)
        self.target = viz.Triads(ax, np.eye(4)[None], length=0.15 * reach, linewidth=3.0, labels=["target"])

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
            self.chosen_view.line.set_visible(False)
            self.chosen_view.tip.set_visible(False)
            if self.chosen_view.triads is not None:
                self.chosen_view.triads.set_visible(False)
            self.message.value = (f"<div style='color:#a00'><b>No solution.</b> "
                                  f"{html.escape(sols.reason or 'unreachable')}</div>")
            self.table.value = ""
        else:
            self.arms.update(sols)
            self.chosen = robot.ikine(T, self.q_current, weights)
            chosen_q = self.chosen.q[0]
            self.chosen_view.update(chosen_q)
            self.chosen_view.line.set_visible(True)
            self.chosen_view.tip.set_visible(True)
            if self.chosen_view.triads is not None:
                self.chosen_view.triads.set_visible(True)
            J, _ = joint_motion(sols.q, self.q_current, weights, robot.qlim, self.revolute)
            k_chosen = sols.labels.index(self.chosen.labels[0])
            slot_index = [slot_of(l, k) for k, l in enumerate(sols.labels)]
            self.table.value = _solutions_table(sols, self.arms.colors, J, k_chosen, slot_index)
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
