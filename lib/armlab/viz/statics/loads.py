"""Loads on a real arm and at a sensor (statics chapter): the youBot holding a payload, a wrist force sensor.

* :class:`PayloadExplorer` (:func:`payload_explorer`): the torques from the arm's weight and the payload
  against each joint's effort limit, and the largest payload a pose can hold
  (:func:`armlab.statics.max_payload`);
* :class:`WristSensor` (:func:`wrist_sensor_demo`): Example 6, a wrench measured at the wrist moved to the
  tool tip (:func:`armlab.transforms.wrench_transform`).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from numpy.typing import ArrayLike

from ... import statics
from ..._core.constants import GRAVITY
from ...models import YOUBOT_ACTUATORS, youbot
from ...robot import DHRobot
from ...transforms import Rot, Trans, wrench_transform
from ..browser import add_description, set_arrows
from ..scene import ArmView, Triads, figure3d, fit_points, reach, spoken_vector
from ..widgets import JointSliders, Panel, SliderSpec, SliderTable, load_widgets, panel_layout, side_column
from .panel import FORCE_COLOR, LEVELS, MOMENT_COLOR, Holding, JointsPanel, torque_bars

__all__ = ["PayloadExplorer", "payload_explorer", "WristSensor", "wrist_sensor_demo"]


class PayloadExplorer(JointsPanel):
    """The youBot holding a payload of ``mass`` kg in its gripper.

    The torques holding the arm's own weight and the payload's, τ = G(q) + J_vᵀ·(m·(−g)) (the gripper pushes
    up on the payload), are shown against each joint's effort limit (``effort``, N·m; the real arm's by
    default) as bars coloured as they approach it; the readout gives the largest payload this pose can hold
    (:func:`armlab.statics.max_payload`) and the joint that limits it. ``tau``, ``readings`` hold the numbers.
    The option ``mass`` (kg, 0…``max_mass``, default 0.3) starts the payload slider (:meth:`slider_table`).
    """

    @staticmethod
    def slider_table(max_mass: float) -> SliderTable:
        """The payload slider, up to ``max_mass`` kg."""
        return SliderTable(
            SliderSpec("mass", 0.0, max_mass, 0.01, 0.3, "payload (kg)", ".2f", "90px"),
        )

    def __init__(
        self,
        robot: DHRobot | None = None,
        q: ArrayLike | None = None,
        max_mass: float = 2.0,
        effort: ArrayLike | None = None,
        figsize: tuple[float, float] = (4.6, 4.4),
        **start: float,
    ) -> None:
        w = load_widgets()
        table = self.slider_table(max_mass)
        starts = table.starts(start, type(self).__name__)
        self.robot = robot if robot is not None else youbot()
        self.effort = np.asarray(YOUBOT_ACTUATORS["effort"] if effort is None else effort, dtype=float)
        self.g = np.array(GRAVITY)
        if q is None:
            q = np.clip(np.radians([0.0, 30.0, 40.0, 60.0, 0.0]), self.robot.qlim[:, 0], self.robot.qlim[:, 1])
        self.fig, (ax,) = figure3d(figsize=figsize, show_axes=False)
        self.redraws = 0
        self.view = ArmView(self.robot, ax, q, frames=False)
        self.weight_scale = 0.4 * reach(self.robot) / float(np.linalg.norm(self.g))  # 1 kg: 0.4 of the reach
        (self.load,) = ax.plot([], [], [], ls="", marker="o", ms=8, color="0.25")
        self.arrow = set_arrows(ax.plot([], [], [], color=FORCE_COLOR, lw=3)[0], head=10.0)
        self.joints = JointSliders(self.robot, q)
        self.mass = table.build(starts)["mass"]
        self.sliders = self.joints.sliders + [self.mass]
        self.bars, self.readout = w.HTML(), w.HTML()
        bands = ("&lt;&nbsp;70&nbsp;%", "&lt;&nbsp;90&nbsp;%", "&lt;&nbsp;100&nbsp;%", "over")
        swatch = " ".join(f"<span style='color:{c}'>■</span>&nbsp;{t}" for (_, c), t in zip(LEVELS, bands))
        legend = (
            "<small>bars: |τ| of each joint against its effort limit ("
            + ", ".join(f"{e:g}" for e in self.effort)
            + f" N·m): {swatch}<br>"
            f"<span style='color:{FORCE_COLOR}'>➜</span> the payload's weight</small>"
        )
        side = side_column([self.joints.box, self.mass, self.bars, self.readout, w.HTML(legend)])
        self._wire(side, (self.mass,))

    def _show(self, q: np.ndarray, draw: bool = True) -> None:
        m = self.mass.value
        own = statics.gravity_load(self.robot, q, gravity=self.g)
        per_kg = self.robot.jacob0(q)[:3].T @ (-self.g)  # torques per kg held
        self.tau = own + m * per_kg
        best = float(statics.max_payload(self.robot, q, self.effort, gravity=self.g))
        frac = np.abs(self.tau) / self.effort
        self.readings = {
            "own": own,
            "per_kg": per_kg,
            "max_payload": best,
            "fraction": frac,
            "limiting_joint": self._limiting_joint(own, per_kg),
        }
        p = self.view.T[:3, 3]
        self.load.set_data_3d([p[0]], [p[1]], [p[2]])
        self.load.set_markersize(4.0 + 10.0 * np.cbrt(m))
        end = p + self.weight_scale * m * self.g
        self.arrow.set_data_3d([p[0], end[0]], [p[1], end[1]], [p[2], end[2]])
        self.bars.value = torque_bars(self.tau, self.effort)
        k = self.readings["limiting_joint"]
        if best > 0:
            text = f"largest payload here: <b>{best:.3f} kg</b> (joint {k} reaches its limit first)"
        else:
            text = f"<b>cannot hold even its own weight here</b>: joint {k} is over its limit"
        over = np.flatnonzero(frac > 1.0)
        if len(over):
            joints = ", ".join(str(i + 1) for i in over)
            text += f"<br><span style='color:#d62728'>over the limit: joint {joints}</span>"
        self.readout.value = f"<small>{text}</small>"
        if draw:
            self.redraw()

    def news(self) -> str:
        """The joint torques, the largest payload of this pose and its limiting joint, the joints over."""
        best, k = self.readings["max_payload"], self.readings["limiting_joint"]
        text = f"τ = {spoken_vector(self.tau)} N·m; "
        text += f"holds at most {best:.3f} kg, joint {k} limits it" if best > 0 else f"joint {k} is over its limit"
        over = np.flatnonzero(self.readings["fraction"] > 1.0)
        if len(over):
            text += "; over the limit: joint " + ", ".join(str(i + 1) for i in over)
        return text

    def _limiting_joint(self, own, per_kg):
        """The joint (1-based) that saturates first as the payload grows (or is already over its limit)."""
        over = np.abs(own) > self.effort
        if over.any():
            return int(np.argmax(np.abs(own) / self.effort)) + 1
        with np.errstate(divide="ignore", invalid="ignore"):
            room = np.where(
                per_kg > 0, (self.effort - own) / per_kg, np.where(per_kg < 0, (-self.effort - own) / per_kg, np.inf)
            )
        return int(np.argmin(room)) + 1

    def set_state(self, q: ArrayLike | None = None, mass: float | None = None) -> np.ndarray:
        """Set the joint angles (rad) and/or the payload (kg); one update."""
        return self._set(q, {self.mass: mass})


def payload_explorer(robot: DHRobot | None = None, q: ArrayLike | None = None, **kwargs: Any) -> PayloadExplorer:
    """The youBot with a payload against its joints' effort limits (see :class:`PayloadExplorer`)."""
    return PayloadExplorer(robot, q, **kwargs)


class WristSensor(Panel, Holding):
    """Statics chapter Example 6: a 6-axis sensor at the wrist {W} measures F_W = (f, m); the tool tip {T} sits
    ``length`` m out along z_W, the tool bent by ``bend`` degrees about y_W: T_WT = Rot(y, bend)·Trans(0, 0, L).

    The equivalent wrench at the tip, in {T}'s axes, is ``F_T = wrench_transform(T_TW, F_W)`` with T_TW = T_WT⁻¹
    (the same force; the moment gains (O_W − O_T) × f). Drawn: the frames, the tool, f at both points
    (red) and the moments m_W and m_T (purple). ``F_W``, ``F_T`` hold the numbers; ``F_T_printed`` is the
    chapter's Example 6 as printed, R·S(P) instead of S(P)·R (docs/errata.md).

    The sliders' start values are keyword options (:meth:`slider_table`): ``force`` (f_x, f_y, f_z in N, each
    within ±``max_force``, default (0, 5, −15)), ``moment_z`` (N·m, ±``max_moment``, 0.2), ``length`` (m,
    0…0.3, 0.18) and ``bend`` (°, −90…90, 30); an unknown or out-of-range one is an error naming it.
    """

    @staticmethod
    def slider_table(max_force: float, max_moment: float) -> SliderTable:
        """The wrench at the wrist, then the tool's length and bend."""
        force = [
            SliderSpec(f"f_{a}", -max_force, max_force, 0.1, f, f"f_{a} (N)", ".1f")
            for a, f in zip("xyz", (0.0, 5.0, -15.0))
        ]
        return SliderTable(
            *force,
            SliderSpec("moment_z", -max_moment, max_moment, 0.01, 0.2, "m_z (N·m)", ".2f"),
            SliderSpec("length", 0.0, 0.3, 0.005, 0.18, "L (m)", ".3f"),
            SliderSpec("bend", -90.0, 90.0, 0.5, 30.0, "bend (°)", ".1f"),
        )

    def __init__(
        self,
        force: Sequence[float] | None = None,
        max_force: float = 20.0,
        max_moment: float = 3.0,
        figsize: tuple[float, float] = (4.4, 4.2),
        **start: float,
    ) -> None:
        w = load_widgets()
        if force is not None:
            if len(force) != 3:
                raise ValueError(f"force must be (f_x, f_y, f_z), got {force!r}")
            start = {**dict(zip(("f_x", "f_y", "f_z"), force)), **start}
        table = self.slider_table(max_force, max_moment)
        sliders = table.build(table.starts(start, type(self).__name__))
        self.fig, (ax,) = figure3d(figsize=figsize, show_axes=False)
        self.redraws = 0
        self.force_scale = 0.12 / max_force
        self.moment_scale = 0.12 / max_moment
        box = [[x, y, z] for x in (-0.15, 0.15) for y in (-0.15, 0.15) for z in (-0.08, 0.3)]
        fit_points(ax, np.array(box), margin=0.0)
        self.triads = Triads(ax, np.stack([np.eye(4), np.eye(4)]), length=0.06, labels=["W", "T"])
        (self.tool,) = ax.plot([], [], [], color="0.35", lw=5, solid_capstyle="round")
        self.f_lines = set_arrows(ax.plot([], [], [], color=FORCE_COLOR, lw=2.5)[0])
        self.m_lines = set_arrows(ax.plot([], [], [], color=MOMENT_COLOR, lw=2.5)[0])
        self.sliders = list(sliders.values())
        self.length, self.bend = sliders["length"], sliders["bend"]
        self.readout = w.HTML()
        legend = (
            f"<small><span style='color:{FORCE_COLOR}'>➜</span> f (the same at both points), "
            f"<span style='color:{MOMENT_COLOR}'>➜</span> the moment about each point (m_W at W, m_T at T)"
            "</small>"
        )
        side = side_column(self.sliders + [self.readout, w.HTML(legend)])
        add_description(ax, self._describe)
        for s in self.sliders:
            s.observe(lambda _: self._update(), names="value")
        self._update(draw=False)
        self.widget = panel_layout(side, self._figure_widget())

    def _update(self, draw=True):
        if self._hold:
            return
        fx, fy, fz, mz = (s.value for s in self.sliders[:4])
        self.F_W = np.array([fx, fy, fz, 0.0, 0.0, mz])
        self.T_WT = Rot("y", np.radians(self.bend.value)) @ Trans(0.0, 0.0, self.length.value)
        T_TW = np.linalg.inv(self.T_WT)
        self.F_T = wrench_transform(T_TW, self.F_W)
        R, P = T_TW[:3, :3], T_TW[:3, 3]
        S = np.array([[0, -P[2], P[1]], [P[2], 0, -P[0]], [-P[1], P[0], 0]])
        self.F_T_printed = np.concatenate([R @ self.F_W[:3], R @ S @ self.F_W[:3] + R @ self.F_W[3:]])
        self.triads.update(np.stack([np.eye(4), self.T_WT]))
        o_T = self.T_WT[:3, 3]
        self.tool.set_data_3d([0.0, o_T[0]], [0.0, o_T[1]], [0.0, o_T[2]])
        R_WT = self.T_WT[:3, :3]
        f, m_W, m_T = self.F_W[:3], self.F_W[3:], R_WT @ self.F_T[3:]  # both moments drawn in {W}'s axes
        origins = np.zeros(3), o_T
        self._arrows(self.f_lines, origins, (f, f), self.force_scale)
        self._arrows(self.m_lines, origins, (m_W, m_T), self.moment_scale)
        fmt = lambda v: "(" + ", ".join(f"{x:+.3f}" for x in v) + ")"  # noqa: E731
        self.readout.value = (
            f"<small><b>ᵂF</b> = {fmt(self.F_W[:3])} N, {fmt(self.F_W[3:])} N·m<br>"
            f"<b>ᵀF</b> = {fmt(self.F_T[:3])} N, {fmt(self.F_T[3:])} N·m<br>"
            f"Example 6 as printed (R·S(P)): moment {fmt(self.F_T_printed[3:])} N·m</small>"
        )
        if draw:
            self.redraw()

    def _describe(self) -> str:
        """The scene in words: the wrench the sensor measures and where the tool tip is."""
        return (
            f"the sensor at W measures force {spoken_vector(self.F_W[:3])} N, moment {spoken_vector(self.F_W[3:])} "
            f"N·m; the tool tip T is {self.length.value:.3f} m out, bent {self.bend.value:.1f}°"
        )

    def news(self) -> str:
        """The wrench at the tool tip, in {T}'s axes."""
        return f"at the tip: force {spoken_vector(self.F_T[:3], 3)} N, moment {spoken_vector(self.F_T[3:], 3)} N·m"

    @staticmethod
    def _arrows(line, starts, vectors, scale):
        rows = []
        for s, v in zip(starts, vectors):
            rows += [s, s + scale * np.asarray(v), np.full(3, np.nan)]
        pts = np.array(rows[:-1])
        line.set_data_3d(pts[:, 0], pts[:, 1], pts[:, 2])

    def set_state(
        self,
        force: Sequence[float] | None = None,
        moment_z: float | None = None,
        length: float | None = None,
        bend: float | None = None,
    ) -> np.ndarray:
        """Set the measured force (N, in {W}), m_z, the tool length (m) and bend (degrees); one update."""
        with self._holding():
            if force is not None:
                for s, v in zip(self.sliders[:3], force):
                    s.value = float(v)
            if moment_z is not None:
                self.sliders[3].value = float(moment_z)
            if length is not None:
                self.length.value = float(length)
            if bend is not None:
                self.bend.value = float(bend)
        self._update()
        return self.F_T


def wrist_sensor_demo(**kwargs: Any) -> WristSensor:
    """Example 6's wrist force sensor and tool tip (see :class:`WristSensor`)."""
    return WristSensor(**kwargs)
