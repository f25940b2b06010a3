"""The static mapping τ = JᵀF on a planar 2R arm (statics chapter §5.3): a force at the tip, and Fig. 5.6 live.

* :class:`TipForce2R` (:func:`tip_force_explorer`): the force arrow, the joint torques as bars, the force
  ellipse, and Fig. 5.7's stretched-out arm;
* :class:`StaticMapping2R` (:func:`static_mapping_explorer`): the force plane and the torque plane, and at a
  singular pose the null space and range of Jᵀ (:func:`armlab.statics.static_mapping`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ... import jacobians as jb
from ... import statics
from ...models import planar2r
from ...robot import DHRobot
from ..browser import add_description, set_arrows
from ..jacobians import ellipsoid_rings
from ..scene import ArmView, figure3d, fit_points, reach, spoken_number, spoken_vector
from ..widgets import JointSliders, SliderSpec, SliderTable, load_widgets, side_column, slider
from .panel import ELLIPSE_COLOR, FORCE_COLOR, NULL_COLOR, RANGE_COLOR, REST_COLOR, JointsPanel, torque_bars

__all__ = ["TipForce2R", "tip_force_explorer", "StaticMapping2R", "static_mapping_explorer"]


class TipForce2R(JointsPanel):
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

    def news(self) -> str:
        """The force, the torques that hold it, and "singular" when the arm is stretched or folded."""
        text = (
            f"F = {spoken_vector(self.force)} N needs τ = {spoken_vector(self.tau, 3)} N·m, "
            f"‖τ‖ = {spoken_number(self.readings['tau_norm'], 3)} N·m"
        )
        if self.readings["singular"]:
            text += "; singular: forces along the arm cost no torque"
        return text

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


class StaticMapping2R(JointsPanel):
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
        add_description(self.ax_force, self._describe_forces)
        add_description(self.ax_tau, self._describe_torques)
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

    def _describe_forces(self) -> str:
        """The force plane in words, for its scene's text alternative."""
        m, text = self.mapping, f"force plane: the unit force F = {spoken_vector(self.force)} N on the unit circle"
        if m.rank < 2:
            text += f"; forces along ±{spoken_vector(m.null[:, 0])} need no torque (F₁)"
        return text

    def _describe_torques(self) -> str:
        """The torque plane in words, for its scene's text alternative."""
        m = self.mapping
        text = f"torque plane: τ = JᵀF = {spoken_vector(self.tau, 3)} N·m on the image of the unit circle"
        if m.rank < 2:
            text += f", a segment along {spoken_vector(m.range[:, 0])}" if m.rank else ", a point"
        return text

    def news(self) -> str:
        """τ = JᵀF for the unit force, the rank of Jᵀ, and at a singular pose the forces that need no torque."""
        m = self.mapping
        text = f"F = {spoken_vector(self.force)} N maps to τ = {spoken_vector(self.tau, 3)} N·m; rank Jᵀ = {m.rank}"
        if m.rank < 2:
            text += f", singular: forces along ±{spoken_vector(m.null[:, 0])} need no torque"
        return text

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
