"""Chapter 06 views: where a joint's torque comes from, and a released arm in motion.

* :class:`TorqueSplit` (:func:`torque_split_explorer`) — a planar 2R or 3R arm in a vertical plane with
  sliders for q, q̇ and q̈, and each joint's torque as a stacked bar split into the five terms of textbook
  (3.108)–(3.110): effective inertia D_ii q̈_i, coupling inertia Σ_{j≠i} D_ij q̈_j, centripetal
  Σ_j D_ijj q̇_j², Coriolis Σ_{j≠k} D_ijk q̇_j q̇_k and gravity D_i (from :func:`armlab.dynamics.lagrange`);
  the readout names the term that dominates each joint;
* :class:`TrajectoryPlayer` (:func:`trajectory_player`) — simulated motions of one robot replayed in one
  view: the first drawn solid, the others (e.g. the same release in MuJoCo) as dashed ghosts over it, moved
  by a time slider or ``Play``; the readout gives t, each run's energy and drift.

All drawing of the chapter's widgets is here; every number comes from :mod:`armlab.dynamics`.

>>> from armlab import models
>>> ex = torque_split_explorer(models.planar2r(0.8, 0.6, 1.5, 0.7), np.radians([30, 45]), qd=[2.0, -1.0])
>>> bool(np.allclose(ex.split.sum(axis=1), ex.robot.rne(ex.q, ex.qd, ex.qdd, gravity=ex.gravity)))
True
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np
from numpy.typing import ArrayLike

from .. import dynamics
from .._core.constants import GRAVITY
from ..models import planar2r
from .browser import set_arrows
from .ik import GhostArm
from .scene import TRACE_POINTS, ArmView, figure3d, fit_points, reach, spoken_number, strided_path, trace_stride
from .widgets import JointSliders, Panel, load_widgets, panel_layout, player, side_column, slider
from .plots import JOINT_COLORS

if TYPE_CHECKING:
    from ..robot import DHRobot

__all__ = ["TERM_COLORS", "split_bars", "TorqueSplit", "torque_split_explorer", "TrajectoryPlayer", "trajectory_player"]

#: One colour per term of :data:`armlab.dynamics.TERMS` (inertia blues, velocity terms warm, gravity grey).
TERM_COLORS = ("#0072b2", "#009e73", "#c44e00", "#b0589a", "#595959")  # each 3:1 or more on white
BAR_PX = 240  # width of one joint's bar; zero torque in the middle
#: Gravity for the planar arms drawn here: they move in the x–y plane of frame {0}, held vertical, so standard
#: gravity (:data:`armlab._core.constants.GRAVITY`, along −z of the world) points along −y0.
PLANE_GRAVITY = (0.0, GRAVITY[2], 0.0)


def nice_ceiling(x: float) -> float:
    """The smallest of 1, 2, 5 × 10^k that is ≥ x (x > 0)."""
    k = np.floor(np.log10(x))
    return float(next(m * 10**k for m in (1, 2, 5, 10) if m * 10**k >= x * (1 - 1e-12)))


def split_bars(split: ArrayLike, scale: float, labels: Sequence[str] | None = None, unit: str = "N·m") -> str:
    """HTML: one stacked bar per joint, positive terms stacked right of the middle, negative ones left,
    ``scale`` (N·m) at either end; the total τ as a black tick and a number."""
    split = np.asarray(split, dtype=float)
    half = BAR_PX / 2
    rows = []
    for i, terms in enumerate(split):
        parts, right, left = [], half, half
        for value, color, name in zip(terms, TERM_COLORS, dynamics.TERMS):
            width = min(abs(value) / scale * half, BAR_PX)
            if width < 0.05:
                continue
            if value > 0:
                x, right = right, right + width
            else:
                left -= width
                x = left
            parts.append(
                f"<div title='{html.escape(name)} {value:+.3f} {unit}' style='position:absolute;"
                f"left:{x:.1f}px;width:{width:.1f}px;top:1px;height:14px;background:{color}'></div>"
            )
        tau = terms.sum()
        tick = float(np.clip(half + tau / scale * half, 0.0, BAR_PX))
        parts.append(
            f"<div style='position:absolute;left:{tick - 1:.1f}px;width:2px;top:-2px;height:20px;"
            "background:#000'></div>"
        )
        name = labels[i] if labels else f"τ{i + 1}"
        rows.append(
            "<tr><td style='padding:0 4px'>" + html.escape(name) + "</td>"
            f"<td style='padding:0'><div style='position:relative;width:{BAR_PX}px;height:16px;"
            f"background:#f2f2f2;overflow:hidden'><div style='position:absolute;left:{half - 0.5}px;"
            "width:1px;top:0;height:16px;background:#999'></div>" + "".join(parts) + "</div></td>"
            f"<td style='padding:0 4px;text-align:right;white-space:nowrap'>{tau:+.2f} {unit}</td></tr>"
        )
    legend = " ".join(
        f"<span style='color:{c}'>■</span>&nbsp;{html.escape(n)}" for c, n in zip(TERM_COLORS, dynamics.TERMS)
    )
    return (
        f"<table style='font-size:90%;border-collapse:collapse'>{''.join(rows)}</table>"
        f"<small>{legend}; ▮ τ; full width ±{scale:g} {unit}</small>"
    )


class TorqueSplit(Panel):
    """A planar arm (2R or 3R, revolute joints about z) in a vertical plane, gravity along −y0.

    Sliders: the joint angles (degrees), rates q̇ (rad/s) and accelerations q̈ (rad/s²). The arm is drawn
    from the front; the bars split each joint's torque into :data:`armlab.dynamics.TERMS` (the torque split
    of the robot's :func:`armlab.dynamics.lagrange` model). ``split`` (n, 5), ``tau`` (n,), ``dominant`` (the
    largest term's name per joint) hold what is shown; :meth:`set_state` moves several sliders at once.
    """

    def __init__(
        self,
        robot: DHRobot | None = None,
        q: ArrayLike | None = None,
        qd: ArrayLike | None = None,
        qdd: ArrayLike | None = None,
        max_rate: float = 6.0,
        max_accel: float = 20.0,
        scale: float | None = None,
        figsize: tuple[float, float] = (4.0, 4.0),
    ) -> None:
        w = load_widgets()
        self.robot = robot if robot is not None else planar2r(0.8, 0.6, 1.5, 0.7)
        n = self.robot.n
        if not all(link.revolute for link in self.robot.links):
            raise ValueError("TorqueSplit draws arms with revolute joints only")
        self.gravity = PLANE_GRAVITY
        self.model = dynamics.lagrange(self.robot, self.gravity)
        self.fig, (ax,) = figure3d(figsize=figsize, show_axes=False)
        ax.view_init(90.0, -90.0)
        self.redraws = 0
        self.view = ArmView(self.robot, ax, np.zeros(n) if q is None else q, frames=False)
        size = reach(self.robot)
        fit_points(ax, np.array([[x, y, 0.0] for x in (-1, 1) for y in (-1, 1)]) * 1.1 * size, margin=0.0)
        x = -0.95 * size  # gravity, beside the arm's reach
        set_arrows(ax.plot([x, x], [0.35 * size, -0.05 * size], [0, 0], color="0.55", lw=2)[0], head=9.0)
        ax.text(x + 0.04 * size, 0.15 * size, 0, "g", color="0.45", fontsize=10)
        self.joints = JointSliders(self.robot, q)
        qd = np.zeros(n) if qd is None else np.asarray(qd, dtype=float)
        qdd = np.zeros(n) if qdd is None else np.asarray(qdd, dtype=float)
        self.rates = [slider(v, -max_rate, max_rate, 0.05, f"θ̇{i + 1}", ".2f", "60px") for i, v in enumerate(qd)]
        self.accels = [slider(v, -max_accel, max_accel, 0.1, f"θ̈{i + 1}", ".1f", "60px") for i, v in enumerate(qdd)]
        self.sliders = self.joints.sliders + self.rates + self.accels
        self.scale = float(scale) if scale is not None else self._default_scale(max_rate, max_accel)
        self.bars, self.readout = w.HTML(), w.HTML()
        self._hold = False
        heading = "<small><b>{}</b></small>".format
        side = side_column(
            [
                self.joints.box,
                w.HTML(heading("rates (rad/s)")),
                *self.rates,
                w.HTML(heading("accelerations (rad/s²)")),
                *self.accels,
                self.bars,
                self.readout,
            ]
        )
        self.joints.observe(lambda _: self._update())
        for s in self.rates + self.accels:
            s.observe(lambda _: self._update(), names="value")
        self._update(draw=False)
        self.widget = panel_layout(side, self._figure_widget())

    def _default_scale(self, max_rate, max_accel):
        """A round number above the largest torque half the slider ranges give, so most bars stay inside."""
        rng = np.random.default_rng(0)
        n = self.robot.n
        Q = rng.uniform(-np.pi, np.pi, (64, n))
        QD = rng.uniform(-0.5, 0.5, (64, n)) * max_rate
        QDD = rng.uniform(-0.5, 0.5, (64, n)) * max_accel
        big = float(np.abs(self.model.terms_fn(Q, QD, QDD)).sum(-1).max())
        return nice_ceiling(big)

    def _update(self, draw=True):
        if self._hold:
            return
        self.view.update(self.q)
        self.split = self.model.terms_fn(self.q, self.qd, self.qdd)
        self.tau = self.split.sum(axis=1)
        self.dominant = [dynamics.TERMS[k] for k in np.abs(self.split).argmax(axis=1)]
        self.bars.value = split_bars(self.split, self.scale)
        lines = [f"joint {i + 1}: {html.escape(name)} dominates" for i, name in enumerate(self.dominant)]
        self.readout.value = "<small>" + "<br>".join(lines) + "</small>"
        if draw:
            self.redraw()

    def news(self) -> str:
        """Each joint's torque and its largest term: "τ1 = 9.81 N·m, gravity dominates; …"."""
        return "; ".join(
            f"τ{i} = {spoken_number(t, 2)} N·m, {name} dominates"
            for i, (t, name) in enumerate(zip(self.tau, self.dominant), start=1)
        )

    @property
    def q(self) -> np.ndarray:
        """The joint angles (rad)."""
        return self.joints.q

    @property
    def qd(self) -> np.ndarray:
        """The joint rates (rad/s)."""
        return np.array([s.value for s in self.rates])

    @property
    def qdd(self) -> np.ndarray:
        """The joint accelerations (rad/s²)."""
        return np.array([s.value for s in self.accels])

    def set_state(
        self, q: ArrayLike | None = None, qd: Sequence[float] | None = None, qdd: Sequence[float] | None = None
    ) -> np.ndarray:
        """Set any of q (rad), q̇ (rad/s), q̈ (rad/s²); one update. Returns the split (n, 5)."""
        self._hold = True
        try:
            if q is not None:
                self.joints.set_q(q)
            for sliders, values in ((self.rates, qd), (self.accels, qdd)):
                if values is not None:
                    for s, v in zip(sliders, values):
                        s.value = float(np.clip(v, s.min, s.max))
        finally:
            self._hold = False
        self._update()
        return self.split


def torque_split_explorer(
    robot: DHRobot | None = None,
    q: ArrayLike | None = None,
    qd: ArrayLike | None = None,
    qdd: ArrayLike | None = None,
    **kwargs: Any,
) -> TorqueSplit:
    """A planar arm with sliders for q, q̇, q̈ and each joint's torque split into its terms (:class:`TorqueSplit`)."""
    return TorqueSplit(robot, q, qd, qdd, **kwargs)


class TrajectoryPlayer(Panel):
    """Simulated motions of one robot in one view, moved through time by a slider or ``Play``.

    ``runs`` maps a title to a result with ``.t`` (N,) and ``.q`` (N, n), e.g. a
    :class:`~armlab.sim.Trajectory`; all share the first run's time steps (a shorter run stops at its last
    sample). The first run is the solid arm, the others dashed ghosts over it; each leaves a trace of its tip
    (every ``stride``-th sample, at most :attr:`TRACE_POINTS` points).
    ``energy`` optionally maps a title to (N,) energies shown in the readout. ``view`` = (elevation, azimuth).
    """

    COLORS = JOINT_COLORS[:4]
    TRACE_POINTS = TRACE_POINTS

    def __init__(
        self,
        robot: DHRobot,
        runs: Mapping[str, Any],
        energy: Mapping[str, ArrayLike] | None = None,
        view: tuple[float, float] | None = None,
        figsize: tuple[float, float] = (4.4, 4.2),
        interval: int = 40,
    ) -> None:
        w = load_widgets()
        self.robot, self.runs = robot, dict(runs)
        self.energy = dict(energy or {})
        first = next(iter(self.runs.values()))
        self.t = np.asarray(first.t, dtype=float)
        self.fig, (ax,) = figure3d(figsize=figsize, show_axes=False)
        if view is not None:
            ax.view_init(*view)
        self.redraws = 0
        self.arms: list[ArmView] = []
        self.traces = []
        for k, (name, run) in enumerate(self.runs.items()):
            if k == 0:
                self.arms.append(ArmView(robot, ax, run.q[0], frames=False))
            else:
                ghost = GhostArm(robot, ax, run.q[0])
                ghost.set_style(self.COLORS[k % len(self.COLORS)], 0.9, dashed=True)
                self.arms.append(ghost)
            self.traces.append(ax.plot([], [], [], color=self.COLORS[k % len(self.COLORS)], lw=1)[0])
        steps = len(self.t)
        self.time = slider(
            0.0, 0.0, float(self.t[-1]), float(self.t[1] - self.t[0]) if steps > 1 else 1.0, "t (s)", ".3f"
        )
        self.play = player(0, steps - 1, max(1, steps // 200), interval, "the motions")
        self.play.observe(self._follow(self.play, lambda k: setattr(self.time, "value", float(self.t[k]))), "value")
        self.time.observe(lambda ch: self.show(int(np.searchsorted(self.t, ch["new"] - 1e-12))), names="value")
        self.readout = w.HTML()
        legend = "<br>".join(
            f"<span style='color:{self.COLORS[k % len(self.COLORS)]}'>{'━' if k == 0 else '╍'}</span> "
            f"{html.escape(name)}"
            for k, name in enumerate(self.runs)
        )
        # every run's tip path, computed once; the drawn trace keeps every stride-th sample (at most TRACE_POINTS,
        # the same samples whatever the time), so a scene stays a few kB at the end of a long run
        self.tips = [self.robot.fkine(np.asarray(run.q))[..., :3, 3] for run in self.runs.values()]
        self.stride = trace_stride(steps)
        self.show(0, draw=False)
        self.widget = panel_layout(
            side_column([self.play, self.time, self.readout, w.HTML(f"<small>{legend}</small>")]), self._figure_widget()
        )

    def show(self, k: int, draw: bool = True) -> None:
        """Show sample ``k`` of every run."""
        k = int(np.clip(k, 0, len(self.t) - 1))
        lines = [f"t = {self.t[k]:.3f} s"]
        for (name, run), arm, trace, tips in zip(self.runs.items(), self.arms, self.traces, self.tips):
            j = min(k, len(run.q) - 1)
            arm.update(run.q[j])
            path = strided_path(tips, j, self.stride)
            trace.set_data_3d(path[:, 0], path[:, 1], path[:, 2])
            if name in self.energy:
                E = np.asarray(self.energy[name])
                lines.append(f"{name}: E = {E[j]:.4f} J (drift {E[j] - E[0]:+.2e} J)")
        self.k, self.lines = k, lines
        self.readout.value = "<small>" + "<br>".join(map(html.escape, lines)) + "</small>"
        if draw:
            self.redraw()

    def news(self) -> str:
        """The time shown and, per run with an energy, its energy and drift (the readout's lines)."""
        return "; ".join(self.lines).replace("-", "−")


def trajectory_player(robot: DHRobot, runs: Mapping[str, Any], **kwargs: Any) -> TrajectoryPlayer:
    """Replay simulated motions of one robot in one view (see :class:`TrajectoryPlayer`)."""
    return TrajectoryPlayer(robot, runs, **kwargs)
