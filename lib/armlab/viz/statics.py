"""Chapter 05 views: a force at the tip of a 2R arm, the youBot holding a payload, a wrist force sensor.

* :class:`TipForce2R` (:func:`tip_force_explorer`) — joint sliders and a tip force (magnitude, direction)
  → the force arrow, the joint torques τ = JᵀF as live bars, and the force ellipse (the forces that
  ‖τ‖ ≤ ``tau_ref`` can hold); the "Fig. 5.7" button stretches the arm out and pushes along it;
* :class:`StaticMapping2R` (:func:`static_mapping_explorer`) — §5.3.2's Fig. 5.6 live for the 2R: the
  force plane and the torque plane side by side, the unit forces and their image under Jᵀ, and at a
  singular pose the null space F₁ of Jᵀ, its range τ₁ and the rest τ₂ (:func:`armlab.statics.static_mapping`);
* :class:`PayloadExplorer` (:func:`payload_explorer`) — youBot joint sliders and a payload mass → the
  torques from the arm's weight and the payload against each joint's effort limit (bars coloured as they
  approach it) and the largest payload this pose can hold (:func:`armlab.statics.max_payload`);
* :class:`WristSensor` (:func:`wrist_sensor_demo`) — statics chapter Example 6: a wrench measured at the
  wrist {W}, moved to the tool tip {T} (:func:`armlab.transforms.wrench_transform`), both drawn as arrows.

Convention as in :mod:`armlab.statics`: a tip force is what the tip exerts on the environment.
All drawing of the chapter's widgets is here; every number comes from :mod:`armlab.statics`.

>>> from armlab import models
>>> ex = tip_force_explorer(models.planar2r(0.5, 0.3), np.radians([30, 60]), magnitude=10.0, direction=90.0)
>>> ex.tau.round(4)                              # 10 N straight up: τ = Jᵀ·(0, 10) = 10·(l1c1 + l2c12, l2c12)
array([4.3301, 0.    ])
>>> _ = ex.fig_5_7(); bool(np.abs(ex.tau).max() < 1e-9)      # stretched out, pushing along the arm
True
"""

from __future__ import annotations

import html
from contextlib import contextmanager
from typing import Any, Sequence

import numpy as np
from numpy.typing import ArrayLike

from .. import jacobians as jb
from .. import statics
from .._core.constants import GRAVITY
from ..models import YOUBOT_ACTUATORS, planar2r, youbot
from ..transforms import Rot, Trans, wrench_transform
from ..robot import DHRobot
from .browser import set_arrows
from .jacobians import ellipsoid_rings
from .scene import ArmView, Triads, figure3d, fit_points, reach
from .widgets import JointSliders, Panel, SliderSpec, SliderTable, load_widgets, panel_layout, side_column, slider

__all__ = [
    "TipForce2R",
    "tip_force_explorer",
    "StaticMapping2R",
    "static_mapping_explorer",
    "PayloadExplorer",
    "payload_explorer",
    "WristSensor",
    "wrist_sensor_demo",
]

FORCE_COLOR, MOMENT_COLOR, ELLIPSE_COLOR = "#ff7f0e", "#9467bd", "#17becf"  # clear of the triads' red, green, blue
NULL_COLOR, RANGE_COLOR, REST_COLOR = "#d62728", "#2ca02c", "#7f7f7f"  # Fig. 5.6: F₁, τ₁, τ₂
LEVELS = ((0.7, "#2ca02c"), (0.9, "#e6a100"), (1.0, "#ff7f0e"), (np.inf, "#d62728"))  # fraction of the limit


def load_color(fraction: float) -> str:
    """Green below 70 % of the limit, amber to 90 %, orange to 100 %, red beyond."""
    return next(color for level, color in LEVELS if fraction < level)


def torque_bars(tau: ArrayLike, limits: ArrayLike, labels: Sequence[str] | None = None, unit: str = "N·m") -> str:
    """HTML bars, one per joint: |τ_i| against ``limits``[i] (full width = the limit), coloured by
    :func:`load_color`; the signed value and the percentage beside each."""
    rows = []
    for i, (t, lim) in enumerate(zip(np.asarray(tau, float), np.asarray(limits, float))):
        frac = abs(t) / lim
        name = labels[i] if labels else f"τ{i + 1}"
        rows.append(
            "<tr><td style='padding:0 4px'>" + html.escape(name) + "</td>"
            "<td style='width:150px;padding:0'><div style='background:#eee;height:12px;position:relative'>"
            f"<div style='background:{load_color(frac)};width:{min(frac, 1.0) * 100:.1f}%;height:12px'></div>"
            "</div></td>"
            "<td style='padding:0 4px;text-align:right;white-space:nowrap'>"
            f"{t:+.3f} {unit} ({frac * 100:.0f} %)</td></tr>"
        )
    return "<table style='font-size:90%;border-collapse:collapse'>" + "".join(rows) + "</table>"


class _Holding:
    """Several controls set from code, one update: ``with self._holding(): ...``."""

    _hold = False

    @contextmanager
    def _holding(self):
        self._hold = True
        try:
            yield
        finally:
            self._hold = False


class _JointsPanel(Panel, _Holding):
    """A statics panel driven by joint sliders (``self.joints``) and a few value controls."""

    joints: Any
    view: Any
    tau: np.ndarray

    def _update(self, draw: bool = True) -> None:
        """Show the panel at the sliders' pose; nothing while controls are set from code."""
        q = self._pose()
        if q is not None:
            self._show(q, draw)

    def _show(self, q: np.ndarray, draw: bool = True) -> None:
        raise NotImplementedError

    def _wire(self, side: Any, controls: Sequence[Any]) -> None:
        """Every control updates the panel; the first update; the panel's layout."""
        self.joints.observe(lambda _: self._update())
        for control in controls:
            control.observe(lambda _: self._update(), names="value")
        self._update(draw=False)
        self.widget = panel_layout(side, self._figure_widget())

    def _pose(self) -> np.ndarray | None:
        """The joint angles, with the arm drawn at them; None while controls are set from code."""
        if self._hold:
            return None
        q = self.joints.q
        self.view.update(q)
        return q

    @property
    def q(self) -> np.ndarray:
        """The joint angles (rad)."""
        return self.joints.q

    def _set(self, q: ArrayLike | None, values: dict[Any, float | None]) -> np.ndarray:
        """Set the joint angles and the controls given (not None) together, then update once."""
        with self._holding():
            if q is not None:
                self.joints.set_q(q)
            for control, value in values.items():
                if value is not None:
                    control.value = float(value)
        self._update()
        return self.tau


class TipForce2R(_JointsPanel):
    """A planar 2R arm (seen from above) pushing on the environment with a force F at its tip.

    Controls: θ1, θ2, |F| (N) and the direction of F in the base frame (degrees from x0). Drawn: the arm,
    F as an arrow (``force_scale`` m/N), and the force ellipse {F : ‖JᵀF‖ ≤ ``tau_ref``} with the same
    scale (clipped at the arm's reach where it is unbounded). The bars show τ = JᵀF against ``tau_ref``.
    ``tau``, ``force`` (2,), ``readings`` (``sigma_min``, ``singular``) hold what is shown.
    The options ``magnitude`` (N, 0…``max_force``, default 10) and ``direction`` (°, −180…180, 60) start the
    force sliders (:meth:`slider_table`); an unknown or out-of-range one is an error naming it.
    """

    @staticmethod
    def slider_table(max_force: float) -> SliderTable:
        """The tip force: its magnitude and its direction."""
        return SliderTable(
            SliderSpec("magnitude", 0.0, max_force, 0.1, 10.0, "|F| (N)", ".1f"),
            SliderSpec("direction", -180.0, 180.0, 0.5, 60.0, "dir (°)", ".1f"),
        )

    def __init__(
        self,
        robot: DHRobot | None = None,
        q: ArrayLike | None = None,
        max_force: float = 20.0,
        tau_ref: float = 5.0,
        figsize: tuple[float, float] = (4.4, 4.2),
        **start: float,
    ) -> None:
        w = load_widgets()
        table = self.slider_table(max_force)
        sliders = table.build(table.starts(start, type(self).__name__))
        self.robot = robot if robot is not None else planar2r(0.5, 0.3)
        if q is None:
            q = np.radians([30.0, 60.0])
        self.size = reach(self.robot)
        self.tau_ref = float(tau_ref)
        self.force_scale = 0.45 * self.size / float(max_force)
        self.fig, (ax,) = figure3d(figsize=figsize, show_axes=False)
        ax.view_init(90.0, -90.0)
        self.redraws = 0
        self.view = ArmView(self.robot, ax, q, frames=False)
        fit_points(ax, np.array([[x, y, 0.0] for x in (-1, 1) for y in (-1, 1)]) * 1.15 * self.size, margin=0.0)
        (self.ellipse,) = ax.plot([], [], [], color=ELLIPSE_COLOR, lw=1.5)
        self.arrow = set_arrows(ax.plot([], [], [], color=FORCE_COLOR, lw=3)[0], head=11.0)
        self.joints = JointSliders(self.robot, q)
        self.magnitude, self.direction = sliders["magnitude"], sliders["direction"]
        self.sliders = self.joints.sliders + [self.magnitude, self.direction]
        self.button = w.Button(description="Fig. 5.7: stretch out, push along the arm", layout=w.Layout(width="auto"))
        self.button.on_click(lambda _: self.fig_5_7())
        self.bars, self.readout = w.HTML(), w.HTML()
        legend = (
            f"<small><span style='color:{FORCE_COLOR}'>➜</span> F, the force the tip exerts (base frame)<br>"
            f"<span style='color:{ELLIPSE_COLOR}'>◯</span> forces that ‖τ‖ ≤ {self.tau_ref:g} N·m can hold"
            f"<br>bars: τ = JᵀF, full width {self.tau_ref:g} N·m</small>"
        )
        side = side_column(
            [self.joints.box, self.magnitude, self.direction, self.button, self.bars, self.readout, w.HTML(legend)]
        )
        self._wire(side, (self.magnitude, self.direction))

    def _show(self, q: np.ndarray, draw: bool = True) -> None:
        phi = np.radians(self.direction.value)
        self.force = self.magnitude.value * np.array([np.cos(phi), np.sin(phi)])
        self.tau = statics.joint_torques(self.robot, q, [*self.force, 0, 0, 0, 0])
        J = self.robot.jacob0(q)[:2]
        lengths, U = jb.ellipsoid(J, "all", "force")
        p = self.view.T[:3, 3]
        pts = ellipsoid_rings(p, self.force_scale * self.tau_ref * lengths, U, clip=self.size)
        self.ellipse.set_data_3d(pts[:, 0], pts[:, 1], pts[:, 2])
        tip = p + self.force_scale * np.r_[self.force, 0.0]
        self.arrow.set_data_3d([p[0], tip[0]], [p[1], tip[1]], [p[2], tip[2]])
        s = jb.singular_values(J)
        self.readings = {
            "sigma_min": float(s[-1]),
            "singular": bool(s[-1] < 1e-9 * s[0]),
            "tau_norm": float(np.linalg.norm(self.tau)),
        }
        self.bars.value = torque_bars(self.tau, [self.tau_ref] * 2)
        note = (
            "<b>singular</b>: forces along the arm cost no torque, the structure carries them"
            if self.readings["singular"]
            else f"σ<sub>min</sub>(J) = {s[-1]:.3g} m"
        )
        self.readout.value = (
            f"<small>F = ({self.force[0]:.2f}, {self.force[1]:.2f}) N, "
            f"‖τ‖ = {self.readings['tau_norm']:.3g} N·m<br>{note}</small>"
        )
        if draw:
            self.redraw()

    def set_state(
        self, q: ArrayLike | None = None, magnitude: float | None = None, direction: float | None = None
    ) -> np.ndarray:
        """Set any of the joint angles (rad), |F| (N) and its direction (degrees); one update."""
        return self._set(q, {self.magnitude: magnitude, self.direction: direction})

    def fig_5_7(self) -> np.ndarray:
        """Fig. 5.7: θ2 = 0 and the largest force along the arm: a huge force, no joint torque."""
        q = self.joints.q.copy()
        q[1] = 0.0
        along = (np.degrees(q[0]) + 180.0) % 360.0 - 180.0
        return self.set_state(q, self.magnitude.max, along)


def tip_force_explorer(robot: DHRobot | None = None, q: ArrayLike | None = None, **kwargs: Any) -> TipForce2R:
    """A 2R arm with a tip force, joint torque bars and the force ellipse (see :class:`TipForce2R`)."""
    return TipForce2R(robot, q, **kwargs)


def _plane(ax: Any, half: float, labels: tuple[str, str], title: str) -> None:
    """A 3-D axes seen from above as a 2-D plane: two thin axis lines, their labels, the title."""
    ax.view_init(90.0, -90.0)
    ax.plot([-half, half], [0, 0], [0, 0], color="#bbbbbb", lw=0.8)
    ax.plot([0, 0], [-half, half], [0, 0], color="#bbbbbb", lw=0.8)
    ax.text(0.92 * half, 0.06 * half, 0, labels[0], fontsize=9)
    ax.text(0.05 * half, 0.92 * half, 0, labels[1], fontsize=9)
    ax.text(-half, 1.05 * half, 0, title, fontsize=9)
    fit_points(ax, np.array([[x, y, 0.0] for x in (-1, 1) for y in (-1, 1)]) * 1.1 * half, margin=0.0)


class StaticMapping2R(_JointsPanel):
    """Fig. 5.6 (statics chapter §5.3.2) live for a planar 2R arm: τ = JᵀF from the force plane to the
    torque plane.

    Controls: θ1, θ2 and the direction of a unit tip force F (degrees from x0). Drawn: the arm with F at its
    tip; in the force plane (N) the unit circle and F; in the torque plane (N·m) the image of the circle
    under Jᵀ (an ellipse with half-axes σ₁, σ₂, the singular values of J) and τ = JᵀF. Where J is singular
    the ellipse collapses to a segment: the null space F₁ of Jᵀ (forces along the arm, carried by the
    structure) is drawn in the force plane, the range τ₁ and the rest τ₂ of the torque plane in the other;
    elsewhere the dashed line is the force that costs the least torque (σ_min per newton). The button
    stretches the arm out (Fig. 5.7). ``mapping`` (:class:`armlab.statics.StaticMapping`), ``force``,
    ``tau`` hold what is shown.
    """

    def __init__(self, robot=None, q=None, direction=30.0, figsize=(9.6, 3.4)):
        w = load_widgets()
        self.robot = robot if robot is not None else planar2r(0.5, 0.3)
        if q is None:
            q = np.radians([30.0, 60.0])
        self.size = reach(self.robot)
        self.fig, (ax_arm, self.ax_force, self.ax_tau) = figure3d(3, figsize=figsize, show_axes=False)
        ax_arm.view_init(90.0, -90.0)
        self.redraws = 0
        self.view = ArmView(self.robot, ax_arm, q, frames=False)
        fit_points(ax_arm, np.array([[x, y, 0.0] for x in (-1, 1) for y in (-1, 1)]) * 1.15 * self.size, margin=0.0)
        self.force_scale = 0.35 * self.size  # metres per newton, on the arm
        self.tip_arrow = set_arrows(ax_arm.plot([], [], [], color=FORCE_COLOR, lw=3)[0], head=11.0)
        _plane(self.ax_force, 1.3, ("fx", "fy"), "force plane F (N)")
        _plane(self.ax_tau, 1.1 * self.size, ("τ1", "τ2"), "torque plane τ = JᵀF (N·m)")
        t = np.linspace(0.0, 2 * np.pi, 97)
        self.circle = np.column_stack([np.cos(t), np.sin(t)])
        self.ax_force.plot(self.circle[:, 0], self.circle[:, 1], np.zeros(len(t)), color=ELLIPSE_COLOR, lw=1.5)
        (self.image,) = self.ax_tau.plot([], [], [], color=ELLIPSE_COLOR, lw=1.5)
        (self.null_line,) = self.ax_force.plot([], [], [], color=NULL_COLOR, lw=2.5)
        (self.range_line,) = self.ax_tau.plot([], [], [], color=RANGE_COLOR, lw=2.5)
        (self.rest_line,) = self.ax_tau.plot([], [], [], color=REST_COLOR, lw=1.5, ls="--")
        self.f_arrow = set_arrows(self.ax_force.plot([], [], [], color=FORCE_COLOR, lw=2.5)[0], head=10.0)
        self.t_arrow = set_arrows(self.ax_tau.plot([], [], [], color=FORCE_COLOR, lw=2.5)[0], head=10.0)
        self.joints = JointSliders(self.robot, q)
        self.direction = slider(direction, -180.0, 180.0, 0.5, "F dir (°)", ".1f")
        self.sliders = self.joints.sliders + [self.direction]
        self.button = w.Button(description="Fig. 5.7: stretch out (θ2 = 0)", layout=w.Layout(width="auto"))
        self.button.on_click(lambda _: self.stretch())
        self.readout = w.HTML()
        legend = (
            f"<small><span style='color:{ELLIPSE_COLOR}'>◯</span> unit forces and their torques"
            f"<br><span style='color:{NULL_COLOR}'>━</span> F₁: forces that need no torque (null space of Jᵀ)"
            f"<br><span style='color:{RANGE_COLOR}'>━</span> τ₁: the torques a tip force balances (range of Jᵀ)"
            f"<br><span style='color:{REST_COLOR}'>╌</span> τ₂: the rest (no tip force balances them)</small>"
        )
        side = side_column([self.joints.box, self.direction, self.button, self.readout, w.HTML(legend)])
        self._wire(side, (self.direction,))

    def _show(self, q: np.ndarray, draw: bool = True) -> None:
        phi = np.radians(self.direction.value)
        self.force = np.array([np.cos(phi), np.sin(phi)])
        J = self.robot.jacob0(q)[:2]
        self.tau = J.T @ self.force
        m = self.mapping = statics.static_mapping(J)
        p = self.view.T[:3, 3]
        tip = p + self.force_scale * np.r_[self.force, 0.0]
        self.tip_arrow.set_data_3d([p[0], tip[0]], [p[1], tip[1]], [p[2], tip[2]])
        self.f_arrow.set_data_3d([0, self.force[0]], [0, self.force[1]], [0, 0])
        self.t_arrow.set_data_3d([0, self.tau[0]], [0, self.tau[1]], [0, 0])
        image = self.circle @ J  # each row Fᵀ·J = (JᵀF)ᵀ
        self.image.set_data_3d(image[:, 0], image[:, 1], np.zeros(len(image)))

        def line(artist, direction, half, ls):
            d = np.zeros(2) if direction is None else half * np.asarray(direction).ravel()
            artist.set_data_3d([-d[0], d[0]], [-d[1], d[1]], [0.0, 0.0])
            artist.set_linestyle(ls)

        half_tau = 1.05 * self.size
        if m.rank < 2:  # Fig. 5.6's F₁, τ₁, τ₂
            line(self.null_line, m.null[:, 0], 1.25, "-")
            line(self.range_line, m.range[:, 0] if m.rank else None, half_tau, "-")
            line(self.rest_line, m.complement[:, -1], half_tau, "--")
            note = (
                f"<b>singular</b> (rank Jᵀ = {m.rank}): F₁ = forces along ({m.null[0, 0]:+.2f}, {m.null[1, 0]:+.2f})"
                " need no torque; only τ on the green line can be balanced"
            )
        else:  # the force that costs least torque, σ_min N·m per N
            U = np.linalg.svd(J)[0]
            line(self.null_line, U[:, -1], 1.25, "--")
            line(self.range_line, None, 0.0, "-")
            line(self.rest_line, None, 0.0, "--")
            note = (
                f"rank Jᵀ = 2: every τ is balanced by one F; F₁ = {{0}}. The cheapest force direction (dashed) "
                f"costs σ<sub>min</sub> = {m.singular_values[-1]:.3g} N·m per N"
            )
        self.readout.value = (
            f"<small>F = ({self.force[0]:.2f}, {self.force[1]:.2f}) N → τ = ({self.tau[0]:.3f}, "
            f"{self.tau[1]:.3f}) N·m<br>σ(J) = {', '.join(f'{x:.3g}' for x in m.singular_values)} m<br>{note}</small>"
        )
        if draw:
            self.redraw()

    def set_state(self, q: ArrayLike | None = None, direction: float | None = None) -> np.ndarray:
        """Set the joint angles (rad) and/or the force direction (degrees); one update. Returns τ."""
        return self._set(q, {self.direction: direction})

    def stretch(self) -> np.ndarray:
        """Fig. 5.7: θ2 = 0, the force along the arm: τ = 0."""
        q = self.joints.q.copy()
        q[1] = 0.0
        return self.set_state(q, (np.degrees(q[0]) + 180.0) % 360.0 - 180.0)


def static_mapping_explorer(robot: DHRobot | None = None, q: ArrayLike | None = None, **kwargs: Any) -> StaticMapping2R:
    """Fig. 5.6 live: the 2R arm's force plane, torque plane and the subspaces of Jᵀ (:class:`StaticMapping2R`)."""
    return StaticMapping2R(robot, q, **kwargs)


class PayloadExplorer(_JointsPanel):
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


class WristSensor(Panel, _Holding):
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
