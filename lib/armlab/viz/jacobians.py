"""Chapter 04 views: the Jacobian explorer and the resolved-rate player.

* :class:`JacobianExplorer` (:func:`jacobian_explorer`) — joint sliders → the arm with its velocity and
  force ellipsoids at the tool (ellipses in the plane for a planar arm), live det J, σ_min,
  manipulability and condition number, a colour cue near a singularity, and a "snap" button per
  singular set of the robot (:func:`armlab.jacobians.snap_to_singularity`);
* :class:`RatePlayer` (:func:`rate_player`) — resolved-rate runs (:func:`armlab.jacobians.resolved_rate`)
  side by side, stepped through in time by a slider or played;
* :func:`differential_motion_figure` — textbook Fig. 3.10: a frame and the frame after a differential
  motion about the base, dT = Δ·T (3.67);
* :func:`differential_jacobian_figure` — textbook Fig. 3.11: the joint frames, the hand frame and the
  products ⁱₙT from which column i of ᵀJ is read, (3.92)–(3.93).

All drawing of the chapter's widgets is here; every number comes from :mod:`armlab.jacobians`.

>>> from armlab import models
>>> ex = jacobian_explorer(models.planar2r(1.0, 0.6), np.radians([30, 60]))
>>> round(ex.readings["manipulability"], 4)          # l1·l2·|sin θ2|
0.5196
>>> _ = ex.snap("elbow"); ex.readings["rank"], ex.readings["status"]
(1, 'singular')
"""

from __future__ import annotations

import html
import math
from typing import TYPE_CHECKING, Any, Mapping

import numpy as np
from numpy.typing import ArrayLike

from .. import jacobians as jb
from ..jacobians import differential as dm
from ..kinematics.frames import joint_axis_frames
from .browser import Figure, set_arrows
from .scene import ArmView, Triads, figure3d, fit_points, frame_content, reach, spoken_number
from .text import plain_text
from .widgets import JointSliders, Panel, load_widgets, panel_layout, player, side_column, slider

if TYPE_CHECKING:
    from ..robot import DHRobot

__all__ = [
    "NEAR",
    "JacobianExplorer",
    "jacobian_explorer",
    "ellipsoid_rings",
    "RatePlayer",
    "rate_player",
    "differential_motion_figure",
    "differential_jacobian_figure",
]

NEAR = 0.04  # σ_min below which jacobians.resolved_rate starts damping (its default ε): "near a singularity"
# badge backgrounds under white text: each at least 4.5:1 (green 5.1, ochre 4.9, red 5.6, dark red 11)
STATUS_COLORS = {"regular": "#2e7d32", "close": "#8a6d00", "near": "#c62828", "singular": "#7f0000"}
STATUS_TEXT = {
    "regular": "regular",
    "close": f"close to a singularity (σ<sub>min</sub> &lt; {2 * NEAR:g})",
    "near": f"near a singularity: resolved rate damps here (σ<sub>min</sub> &lt; {NEAR:g})",
    "singular": "singular: the Jacobian has lost rank",
}
RING_POINTS = 48


def _planar_rows(robot):
    """Rows of J a planar arm moves in, (vx, vy) or (vx, vy, ωz); None for a spatial arm."""
    planar = all(link.revolute and link.alpha == 0.0 for link in robot.links) and robot.n in (2, 3)
    return [0, 1, 5][: robot.n] if planar else None


def ellipsoid_rings(
    centre: ArrayLike, lengths: ArrayLike, U: ArrayLike, clip: float = np.inf, count: int = RING_POINTS
) -> np.ndarray:
    """(m, 3) points of an ellipsoid's principal rings (a planar ellipse for 2 axes), NaN between rings.

    ``lengths`` are the half-axes along the columns of ``U`` (as :func:`armlab.jacobians.ellipsoid`
    returns them); infinite or longer ones are drawn ``clip`` long.
    """
    lengths = np.minimum(np.asarray(lengths, dtype=float), clip)
    axes = np.asarray(U, dtype=float) * lengths  # columns: the half-axes
    if axes.shape[0] == 2:  # a planar ellipse in the x–y plane
        axes = np.vstack([axes, np.zeros((1, axes.shape[1]))])
    t = np.linspace(0.0, 2 * np.pi, count)
    pairs = [(0, 1)] if axes.shape[1] == 2 else [(0, 1), (1, 2), (0, 2)]
    rings = []
    for i, j in pairs:
        ring = np.asarray(centre, dtype=float) + np.outer(np.cos(t), axes[:, i]) + np.outer(np.sin(t), axes[:, j])
        rings += [ring, np.full((1, 3), np.nan)]
    return np.vstack(rings[:-1])


def _translation_rows(J, rows):
    return J[..., [0, 1], :] if rows is not None else J[..., :3, :]


def _typical_axes(robot, rows, count=64):
    """Median longest half-axis of the velocity and of the force ellipsoid over seeded random poses:
    the drawing scales are fixed from them, so the ellipsoids' changes stay visible as the arm moves."""
    lim = np.clip(robot.qlim, -np.pi, np.pi)
    Q = np.random.default_rng(0).uniform(lim[:, 0], lim[:, 1], (count, robot.n))
    s = np.linalg.svd(_translation_rows(robot.jacob0(Q), rows), compute_uv=False)
    s_min = s[:, -1][s[:, -1] > 1e-9]
    return float(np.median(s[:, 0])), float(np.median(1.0 / s_min))


def _round2(x):
    """x to two significant digits (a readable scale in the legend)."""
    return float(f"{x:.2g}")


class JacobianExplorer(Panel):
    """Joint sliders → arm, velocity and force ellipsoids of the tool point, and the Jacobian's measures.

    ``readings`` holds what the readout shows: ``det`` (of the square task Jacobian: J for the PUMA,
    (vx, vy) rows for a planar 2R; None for the 6×5 youBot), ``sigma_min``, ``manipulability``
    (translational, ``robot.manipulability``), ``manipulability_rot`` (spatial arms), ``condition``,
    ``rank`` and ``status``: "regular", "close" (σ_min < 2·NEAR), "near" (σ_min < NEAR, where resolved
    rate damps) or "singular" (rank lost). The ellipsoids are those of the translational rows for unit
    joint rates (velocity, drawn ``velocity_scale`` metres per m/s) and unit joint torques (force,
    ``force_scale`` metres per N, clipped at the arm's reach where they are infinite); by default the
    scales make a typical pose's longest half-axis 0.3 of the reach.
    ``snap(kind)`` (one button per kind) jumps to the nearest singular pose of that kind.
    """

    def __init__(
        self,
        robot: DHRobot,
        q: ArrayLike | None = None,
        *,
        velocity_scale: float | None = None,
        force_scale: float | None = None,
        figsize: tuple[float, float] = (4.8, 4.6),
    ) -> None:
        w = load_widgets()
        self.robot = robot
        self.rows = _planar_rows(robot)
        size = reach(robot)
        typical_v, typical_f = _typical_axes(robot, self.rows)
        for name, scale in (("velocity_scale", velocity_scale), ("force_scale", force_scale)):
            if scale is not None and not (isinstance(scale, (int, float)) and math.isfinite(scale) and scale > 0):
                raise ValueError(f"{name} must be a positive number of metres per unit, got {scale!r}")
        self.velocity_scale = _round2(0.3 * size / typical_v) if velocity_scale is None else float(velocity_scale)
        self.force_scale = _round2(0.3 * size / typical_f) if force_scale is None else float(force_scale)
        self.clip = size
        if q is None:
            q = np.clip(np.full(robot.n, 0.3), robot.qlim[:, 0], robot.qlim[:, 1])
        self.fig, (ax,) = figure3d(figsize=figsize, show_axes=False)
        if self.rows is not None:
            ax.view_init(90.0, -90.0)  # a planar arm from above
        self.ax = ax
        self.redraws = 0
        self.view = ArmView(robot, ax, q, labels=False)
        (self.velocity_line,) = ax.plot([], [], [], color="tab:blue", lw=1.4)
        (self.force_line,) = ax.plot([], [], [], color="#c44e00", lw=1.4)
        try:
            kinds = list(jb.singularity_conditions(robot, q))
        except NotImplementedError:
            kinds = []
        self.buttons = {}
        for kind in kinds:
            b = w.Button(description=f"snap: {kind}", layout=w.Layout(width="auto"))
            b.on_click(lambda _, kind=kind: self.snap(kind))
            self.buttons[kind] = b
        self.joints = JointSliders(robot, q)
        self.sliders = self.joints.sliders
        self.readout = w.HTML()
        self.message = w.HTML()
        legend = (
            f"<small><span style='color:#1f77b4'>■</span> velocity ellipsoid of the tool point for ‖q̇‖ ≤ 1 "
            f"(×{self.velocity_scale:g} s)<br><span style='color:#c44e00'>■</span> force ellipsoid for ‖τ‖ ≤ 1 "
            f"(×{self.force_scale:.3g} m/N)</small>"
        )
        side = side_column(
            [self.joints.box, self.readout, w.HBox(list(self.buttons.values())), self.message, w.HTML(legend)]
        )
        self.joints.observe(self._update)
        self._update(self.joints.q, draw=False)
        self.widget = panel_layout(side, self._figure_widget())

    # --- the numbers ---------------------------------------------------------------------------------
    def measures(self, q: ArrayLike) -> tuple[dict[str, Any], np.ndarray]:
        """The readout's values at q (see the class docstring)."""
        J0 = self.robot.jacob0(q)
        J = J0[self.rows] if self.rows is not None else J0
        s = jb.singular_values(J)
        rank = int(jb.jacobian_rank(J))
        square = J.shape[0] == J.shape[1]
        out: dict[str, Any] = {
            "det": float(np.linalg.det(J)) if square else None,
            "sigma_min": float(s[-1]),  # the smallest of min(rows, n): the youBot's 6×5 J has 5
            "manipulability": float(jb.manipulability_of_J(J0, "trans")),
            "condition": float(jb.condition_number(J)),
            "rank": rank,
        }
        if self.rows is None:
            out["manipulability_rot"] = float(jb.manipulability_of_J(J0, "rot"))
        full = min(J.shape)
        sm = out["sigma_min"]
        out["status"] = "singular" if rank < full else "near" if sm < NEAR else "close" if sm < 2 * NEAR else "regular"
        return out, J0

    def _update(self, q, draw=True):
        self.view.update(q)
        self.readings, J0 = self.measures(q)
        p = self.view.T[:3, 3]
        Jt = _translation_rows(J0, self.rows)
        for line, kind, scale in (
            (self.velocity_line, "velocity", self.velocity_scale),
            (self.force_line, "force", self.force_scale),
        ):
            lengths, U = jb.ellipsoid(Jt, "all", kind)
            pts = ellipsoid_rings(p, scale * lengths, U, clip=self.clip)
            line.set_data_3d(pts[:, 0], pts[:, 1], pts[:, 2])
        color = STATUS_COLORS[self.readings["status"]]
        self.velocity_line.set_color("tab:blue" if self.readings["status"] in ("regular", "close") else color)
        self.readout.value = self._readout_html(color)
        if draw:
            self.redraw()

    def news(self) -> str:
        """The status, then σ_min and det J: "regular: σmin 0.1234, det J +0.0123"."""
        r = self.readings
        det = "" if r["det"] is None else f", det J {spoken_number(r['det'], 4)}"
        return f"{plain_text(STATUS_TEXT[r['status']])}: σmin {r['sigma_min']:.4g}{det}"

    def _readout_html(self, color):
        r = self.readings
        det = "— (J is 6×5)" if r["det"] is None else f"{r['det']:+.4g}"
        rows = [
            ("det J", det),
            ("σ<sub>min</sub>", f"{r['sigma_min']:.4g}"),
            ("manipulability (trans)", f"{r['manipulability']:.4g}"),
        ]
        if "manipulability_rot" in r:
            rows.append(("manipulability (rot)", f"{r['manipulability_rot']:.4g}"))
        rows += [
            ("condition number", "∞" if math.isinf(r["condition"]) else f"{r['condition']:.4g}"),
            ("rank", str(r["rank"])),
        ]
        td = "style='padding:0 6px;line-height:1.3"
        cells = "".join(f"<tr><td {td}'>{k}</td><td {td};text-align:right'>{v}</td></tr>" for k, v in rows)
        badge = (
            f"<div style='background:{color};color:white;padding:1px 6px;border-radius:3px;line-height:1.4'>"
            f"{STATUS_TEXT[r['status']]}</div>"
        )
        return f"<table style='font-size:90%;border-collapse:collapse'>{cells}</table>{badge}"

    # --- driving it ----------------------------------------------------------------------------------
    @property
    def q(self) -> np.ndarray:
        """The joint values shown (rad/m)."""
        return self.view.q

    def set_q(self, q: ArrayLike) -> dict[str, Any]:
        """Move the sliders to ``q`` (one update); returns the readings."""
        self.joints.set_q(q)
        return self.readings

    def snap(self, kind: str) -> np.ndarray | None:
        """Move to the nearest singular pose of ``kind`` (one joint moves); returns its q, or None with a message."""
        try:
            q = jb.snap_to_singularity(self.robot, self.joints.q, kind)
        except ValueError as e:
            self.message.value = f"<small>{html.escape(str(e))}</small>"
            return None
        self.message.value = f"<small>on the {html.escape(kind)} singular set</small>"
        self.set_q(q)
        return q


def jacobian_explorer(robot: DHRobot, q: ArrayLike | None = None, **kwargs: Any) -> JacobianExplorer:
    """The Jacobian explorer for a PUMA560, youBot or planar arm (see :class:`JacobianExplorer`)."""
    return JacobianExplorer(robot, q, **kwargs)


class RatePlayer(Panel):
    """Resolved-rate runs side by side, one arm per run, moved through time by a slider or ``Play``.

    ``runs`` maps a title to a :class:`~armlab.jacobians.RateResult` of the same robot and time step;
    ``path`` (m, 3) is drawn in every view (e.g. the desired straight line). The tool's path so far is
    traced; the readout gives, per run, t, the largest |q̇| and σ_min at that step.
    """

    def __init__(
        self,
        robot: DHRobot,
        runs: Mapping[str, Any],
        path: ArrayLike | None = None,
        figsize: tuple[float, float] | None = None,
    ) -> None:
        w = load_widgets()
        self.robot, self.runs = robot, dict(runs)
        names = list(self.runs)
        self.steps = min(len(r.t) for r in self.runs.values())
        self.fig, axes = figure3d(len(names), figsize or (4.2 * len(names), 4.0), names, show_axes=False)
        self.redraws = 0
        self.views, self.traces = [], []
        for ax, res in zip(axes, self.runs.values()):
            if path is not None:
                pts = np.asarray(path, dtype=float)
                ax.plot(pts[:, 0], pts[:, 1], pts[:, 2], color="0.5", lw=1, ls="--")
            self.views.append(ArmView(robot, ax, res.q[0], frames=False))
            self.traces.append(ax.plot([], [], [], color="tab:purple", lw=2)[0])
        dt = float(self.runs[names[0]].t[1] - self.runs[names[0]].t[0]) if self.steps > 1 else 1.0
        self.time = slider(0.0, 0.0, (self.steps - 1) * dt, dt, "t (s)", ".3f")
        self.play = player(0, self.steps - 1, 1, 40, "the runs")
        self.play.observe(self._follow(self.play, lambda k: setattr(self.time, "value", k * dt)), names="value")
        self.dt = dt
        self.readout = w.HTML()
        self.time.observe(lambda ch: self.show(round(ch["new"] / dt)), names="value")
        self.show(0, draw=False)
        side = side_column([self.play, self.time, self.readout])
        self.widget = panel_layout(side, self._figure_widget())

    def show(self, k: int, draw: bool = True) -> None:
        """Show step ``k`` of every run."""
        k = int(np.clip(k, 0, self.steps - 1))
        self.k, self.lines = k, []
        for (name, res), view, trace in zip(self.runs.items(), self.views, self.traces):
            view.update(res.q[k])
            p = res.T[: k + 1, :3, 3]
            trace.set_data_3d(p[:, 0], p[:, 1], p[:, 2])
            self.lines.append((name, f"max |q̇| = {np.abs(res.qd[k]).max():.2f} rad/s", f"{res.sigma_min[k]:.2g}"))
        self.readout.value = (
            f"<small>t = {k * self.dt:.3f} s<br>"
            + "<br>".join(f"<b>{html.escape(n)}</b>: {q}, σ<sub>min</sub> = {s}" for n, q, s in self.lines)
            + "</small>"
        )
        if draw:
            self.redraw()

    def news(self) -> str:
        """The time shown, then each run's largest joint rate and σ_min there."""
        runs = "; ".join(f"{n}: {q}, σmin = {s}" for n, q, s in self.lines)
        return f"t = {self.k * self.dt:.3f} s; {runs}"


def rate_player(robot: DHRobot, runs: Mapping[str, Any], path: ArrayLike | None = None, **kwargs: Any) -> RatePlayer:
    """Play resolved-rate runs of one robot side by side (see :class:`RatePlayer`)."""
    return RatePlayer(robot, runs, path, **kwargs)


MOTION_COLOR, ROTATION_COLOR = "#c44e00", "#9467bd"
_SUP, _SUB = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"), str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def differential_motion_figure(
    T: ArrayLike, d: ArrayLike, delta: ArrayLike, labels: tuple[str, str] = ("A", "A + dA"), figsize=(4.4, 4.0)
) -> Figure:
    """Textbook Fig. 3.10 (§3.3.2, Example 3.6): frame T and T + dT after the differential translation d
    and rotation δ about the base frame, dT = Δ·T (3.67) with Δ of (3.69) (:func:`armlab.jacobians.differential.differential_change`).

    Drawn: the base frame {0}; T faint; T + dT bold, its axes n + dn, o + do, a + da (first order: not
    exactly unit length); the motion of T's origin, dp = d + δ × p (orange arrow), and δ as an arrow
    along its axis from the new origin (purple, δ in rad drawn as that many triad lengths).
    Returns the figure (in a notebook, ``viz.shown(fig)``).

    >>> A = np.array([[0, 0, 1, 8], [1, 0, 0, 4], [0, 1, 0, 0], [0, 0, 0, 1.0]])
    >>> fig = differential_motion_figure(A, [0.8, 0, 0.6], [0, 0.2, 0])
    >>> [t.get_text() for t in fig.axes[0].texts][:3]
    ['0', 'A', 'A + dA']
    """
    T = np.asarray(T, dtype=float)
    dT = dm.differential_change(T, d, delta)
    moved = T + dT
    Ts = np.stack([np.eye(4), T, moved])
    length = max(0.3 * float(np.ptp(Ts[:, :3, 3], axis=0).max()), 0.1)
    fig, (ax,) = figure3d(figsize=figsize)
    Triads(ax, Ts[:1], length=length, linewidth=1.5, labels=["0"], fontsize=9)
    Triads(ax, Ts[1:2], length=length, linewidth=1.5, alpha=0.45, labels=[labels[0]], fontsize=9)
    Triads(ax, Ts[2:], length=length, linewidth=3.0, labels=[labels[1]], axis_labels="noa", fontsize=9)
    p, dp = T[:3, 3], dT[:3, 3]
    set_arrows(ax.plot(*np.column_stack([p, p + dp]), color=MOTION_COLOR, lw=2.5)[0], head=10.0)
    ax.text(*(p + 0.5 * dp), "dp = d + δ×p", color=MOTION_COLOR, fontsize=8)
    w = length * np.asarray(delta, dtype=float)
    set_arrows(ax.plot(*np.column_stack([p + dp, p + dp + w]), color=ROTATION_COLOR, lw=2.5)[0], head=10.0)
    ax.text(*(p + dp + w), "δ", color=ROTATION_COLOR, fontsize=9)
    fit_points(ax, np.vstack([frame_content(Ts, length), p + dp + w]))
    return fig


def differential_jacobian_figure(robot: DHRobot, q: ArrayLike, figsize=(4.6, 4.2)) -> Figure:
    """Textbook Fig. 3.11 (§3.3.3): column i of ᵀJ is read from ⁱₙT, (3.92)–(3.93).

    Drawn: the arm at ``q``, the frame of each joint axis ({i} in the modified convention, {i−1} in the
    standard one) and the hand frame {n} (tool included), and a dashed line from each joint frame to the
    hand, labelled ⁱₙT: the book's step (2) products ⁱ⁻¹ₙT = ⁱ⁻¹ᵢT·ⁱₙT. Column i is ((p×n)_z, (p×o)_z,
    (p×a)_z, n_z, o_z, a_z) of that transform for a revolute joint, (n_z, o_z, a_z, 0, 0, 0) for a
    prismatic one (:func:`armlab.jacobians.jacob_differential`). Returns the figure.

    >>> from armlab import models
    >>> fig = differential_jacobian_figure(models.planar2r(1.0, 0.6), [0.3, 0.8])
    >>> [t.get_text() for t in fig.axes[0].texts if t.get_text().endswith("T")]
    ['⁰₂T', '¹₂T']
    """
    q = np.asarray(q, dtype=float)
    fig, (ax,) = figure3d(figsize=figsize, show_axes=False)
    view = ArmView(robot, ax, q, frames=False)
    axes = joint_axis_frames(robot, robot.fkine_all(q))
    hand = robot.fkine(q)
    n = robot.n
    first = 1 if robot.modified else 0  # the index of joint 1's axis frame
    names = [str(first + i) for i in range(n)]
    length = 0.12 * reach(robot)
    Triads(ax, axes, length=length, linewidth=1.5, labels=[f"{{{k}}}" for k in names], fontsize=8)
    Triads(ax, hand[None], length=length, linewidth=3.0, labels=[f"{{{n}}}"], axis_labels="noa", fontsize=8)
    for k, A in zip(names, axes):
        a, b = A[:3, 3], hand[:3, 3]
        ax.plot(*np.column_stack([a, b]), color="0.45", lw=1.0, ls="--")
        ax.text(*(0.5 * (a + b)), f"{k.translate(_SUP)}{str(n).translate(_SUB)}T", color="0.2", fontsize=8)
    fit_points(ax, np.vstack([frame_content(np.vstack([axes, hand[None]]), length), view.frames[:, :3, 3]]))
    return fig
