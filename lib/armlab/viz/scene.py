"""3-D scenes as matplotlib artists, moved in place: figures, frame triads and a DH arm.

* :func:`figure3d` — a figure of 3-D axes (Agg, never shown by pyplot); :func:`set_cube` fixes its limits;
* :class:`Triads` — frame triads (x red, y green, z blue) with arrowheads, frame labels and, if asked,
  axis labels; frames that share an origin get their labels side by side, not piled up;
* :func:`frames_figure` — a small figure of a few frames, limits fitted to them;
* :class:`ArmView` — a DH robot as a skeleton through its link frames, ``update(q)`` moves it;
* :func:`reach` — an upper bound of a robot's reach, for fixed axis limits;
* :func:`strided_path` — a long path (a trace behind a moving tip) through every stride-th sample;
* :func:`shown` — what a cell returns to show a figure (3-D: drawn in the browser).

The browser draws these artists from data (:mod:`armlab.viz.browser`); matplotlib (Agg) draws them for the
still image. Nothing here needs ipywidgets.

>>> from armlab import models
>>> view = ArmView(models.youbot())
>>> view.update([0, 0, 0, np.pi / 2, 0])[:3, 3].round(3)
array([0.033, 0.   , 0.655])
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np
from numpy.typing import ArrayLike

from .browser import Artist, Axes3D, Figure, add_description, set_arrows, set_fit, set_screen_offset
from .still import StillFigure, describe_figure
from .widgets import Panel

if TYPE_CHECKING:
    from ..robot import DHRobot

__all__ = [
    "AXIS_COLORS",
    "VIEW",
    "figure3d",
    "set_cube",
    "fit_points",
    "Triads",
    "frames_figure",
    "FigureView",
    "shown",
    "reach",
    "arm_region",
    "ArmView",
    "spoken_number",
    "spoken_vector",
    "joint_text",
]

# x, y, z (n, o, a of a hand frame): red, green, blue dark enough for their axis names (text, 4.5:1 on white)
AXIS_COLORS = ("#c62828", "#2e7d32", "#1565c0")
FAINT_ALPHA = 0.75  # a faint triad (a start or earlier frame) is dashed at this opacity: still 3:1 on white
# The starting view (elevation, azimuth in degrees): no multiple of 15° of azimuth points at the eye, so an
# axis turned by a "round" angle is never seen end-on and hidden behind another.
VIEW = (24.0, -37.5)


def spoken_number(v: float, decimals: int = 1) -> str:
    """``v`` rounded for a text alternative: no trailing zeros, a true minus sign (read as "minus")."""
    text = f"{v:.{decimals}f}".rstrip("0").rstrip(".") if decimals else f"{v:.0f}"
    return "0" if text in ("-0", "") else text.replace("-", "−")


def spoken_vector(v: ArrayLike, decimals: int = 2) -> str:
    """A vector for a text alternative: "(0.41, 0.15, −0.32)"."""
    return f"({', '.join(spoken_number(float(c), decimals) for c in np.asarray(v, dtype=float))})"


def joint_text(robot: DHRobot, q: ArrayLike) -> str:
    """The joint values as read aloud: "θ = (20, −30, 40, 0, 0, 0)°" for revolute joints (degrees),
    "θ1 = 20°, d2 = 0.3 m, …" when some are prismatic (metres)."""
    q = np.asarray(q, dtype=float)
    revolute = [link.revolute for link in robot.links]
    if all(revolute):
        return f"θ = ({', '.join(spoken_number(math.degrees(v)) for v in q)})°"
    return ", ".join(
        f"θ{i} = {spoken_number(math.degrees(v))}°" if r else f"d{i} = {spoken_number(v, 3)} m"
        for i, (v, r) in enumerate(zip(q, revolute), start=1)
    )


def figure3d(
    ncols: int = 1,
    figsize: tuple[float, float] | None = None,
    titles: Sequence[str] | None = None,
    show_axes: bool = True,
) -> tuple[Figure, list[Axes3D]]:
    """A figure with ``ncols`` 3-D axes, drawn by Agg and not tracked by pyplot (nothing is shown twice).

    The browser draws its artists (:class:`~armlab.viz.widgets.Panel`); Agg draws the still image.
    ``show_axes=False`` hides the panes, ticks and labels: an arm reads well on a floor grid with its base frame.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figsize = figsize or (4.6 * ncols, 4.4)
    fig = Figure(figsize=figsize)
    FigureCanvasAgg(fig)
    axes = [fig.add_subplot(1, ncols, k + 1, projection="3d") for k in range(ncols)]
    for k, ax in enumerate(axes):
        ax.view_init(*VIEW)
        if show_axes:
            _light_axes(ax)
        else:
            ax.set_axis_off()
        if titles:
            ax.set_title(titles[k], fontsize=9)
    fig.subplots_adjust(left=0.0, right=1.0, bottom=0.02, top=0.95, wspace=0.0)
    return fig, axes


def _light_axes(ax):
    """Few ticks and small labels, the axis names clear of the tick labels."""
    from matplotlib.ticker import MaxNLocator

    for axis in (ax.xaxis, ax.yaxis, ax.zaxis):
        axis.set_major_locator(MaxNLocator(3))
        axis.set_tick_params(labelsize=7, pad=0)
    ax.set_xlabel("x", fontsize=8, labelpad=2)
    ax.set_ylabel("y", fontsize=8, labelpad=2)
    ax.set_zlabel("z", fontsize=8, labelpad=2)


def set_cube(ax: Axes3D, centre: Sequence[float], half: float, zoom: float = 1.0) -> None:
    """Show the cube of half-width ``half`` around ``centre`` with equal scales on all three axes."""
    cx, cy, cz = centre
    ax.set_xlim(cx - half, cx + half)
    ax.set_ylim(cy - half, cy + half)
    ax.set_zlim(cz - half, cz + half)
    ax.set_box_aspect((1, 1, 1), zoom=zoom)


def fit_points(ax: Axes3D, points: ArrayLike, margin: float = 0.08) -> float:
    """Fit the axes to ``points`` (m, 3): limits just around them (``margin`` of their size added on each
    side, every axis at least a fifth of the largest), equal scales, and the browser's starting view holds
    them (:func:`~armlab.viz.browser.set_fit`). Returns the half-width of the largest axis."""
    pts = np.asarray(points, dtype=float).reshape(-1, 3)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    size = max(float((hi - lo).max()), 1e-3)
    half = np.maximum(0.5 * (hi - lo), 0.1 * size) + margin * size
    centre = (lo + hi) / 2
    ax.set_xlim(centre[0] - half[0], centre[0] + half[0])
    ax.set_ylim(centre[1] - half[1], centre[1] + half[1])
    ax.set_zlim(centre[2] - half[2], centre[2] + half[2])
    ax.set_box_aspect(tuple(half / half.max()))
    set_fit(ax, pts)
    return float(half.max())


def _nan_segments(starts, ends):
    """x, y, z arrays of separate segments start→end, split by NaN."""
    k = len(starts)
    pts = np.full((3 * k, 3), np.nan)
    pts[0::3] = starts
    pts[1::3] = ends
    return pts[:, 0], pts[:, 1], pts[:, 2]


class Triads:
    """Coordinate-frame triads of several frames, moved in place.

    Three ``Line3D`` artists (all x axes red, y green, z blue; frames separated by NaN) with an arrowhead
    at each tip in the browser, a label beside each origin (``labels``; ``label_offset`` in triad lengths)
    and, with ``axis_labels`` (e.g. "xyz" or "noa"), the axis names at the tips. The browser sets labels
    of frames that share an origin (PUMA {4}, {5}, {6}) side by side. ``update(Ts)`` takes (k, 4, 4)
    transforms and only moves the artists.
    """

    LABEL_PX = (-5.0, -9.0)  # a frame's label: below left of its origin, where its own axes rarely are

    def __init__(
        self,
        ax: Axes3D,
        Ts: ArrayLike | None = None,
        length: float = 0.1,
        linewidth: float = 2.0,
        alpha: float = 1.0,
        labels: Sequence[object] | None = None,
        count: int | None = None,
        label_offset: ArrayLike = (0.0, 0.0, 0.0),
        axis_labels: Sequence[str] | None = None,
        fontsize: float = 8,
        describe: bool = True,
    ) -> None:
        self.ax = ax
        self.length = float(length)
        self.label_offset = np.asarray(label_offset, dtype=float) * self.length
        if Ts is None:
            Ts = np.broadcast_to(np.eye(4), (count or 1, 4, 4))
        Ts = np.asarray(Ts, dtype=float).reshape(-1, 4, 4)
        self.count = len(Ts)
        # a faint frame is told apart by its dashes, not by a pale colour (which would fall below 3:1)
        faint = alpha < 1
        style = dict(alpha=max(alpha, FAINT_ALPHA), ls="--") if faint else dict(alpha=alpha)
        self.lines = [
            set_arrows(
                ax.plot([], [], [], color=c, lw=linewidth, solid_capstyle="round", **style)[0],
                head=5.0 + 2.0 * linewidth,
            )
            for c in AXIS_COLORS
        ]
        self.labels: list[Artist] = []
        self.names = [str(s) for s in labels] if labels is not None else []
        if labels is not None:
            self.labels = [ax.text(0, 0, 0, name, fontsize=fontsize, color="0.15", ha="right") for name in self.names]
        self.axis_texts: list[list[Artist]] = []
        if axis_labels:
            self.axis_texts = [
                [
                    ax.text(0, 0, 0, name, fontsize=fontsize, color=c, weight="bold", ha="center")
                    for name, c in zip(axis_labels, AXIS_COLORS)
                ]
                for _ in range(self.count)
            ]
        self.update(Ts)
        if self.names and describe:  # labelled frames say where they are in the scene's text alternative
            add_description(ax, self.describe)

    def describe(self) -> str:
        """The labelled frames where they are now ("" while hidden): origins, and axis directions for up to
        three frames."""
        if not self.lines[0].get_visible():
            return ""
        return frames_text(self.Ts[: len(self.names)], self.names, axes=len(self.names) <= 3)

    def update(self, Ts: ArrayLike) -> None:
        """Move the triads to the frames ``Ts`` (k, 4, 4)."""
        Ts = np.asarray(Ts, dtype=float).reshape(-1, 4, 4)
        if len(Ts) != self.count:
            raise ValueError(f"Ts must hold {self.count} frames, got {len(Ts)}")
        origins = Ts[:, :3, 3]
        for k, line in enumerate(self.lines):
            line.set_data_3d(*_nan_segments(origins, origins + self.length * Ts[:, :3, k]))
        for text, o in zip(self.labels, origins):  # frames sharing an origin: the browser sets them side by side
            text.set_position_3d(o + self.label_offset)
            set_screen_offset(text, *self.LABEL_PX)
        for texts, T in zip(self.axis_texts, Ts):
            for k, text in enumerate(texts):
                text.set_position_3d(T[:3, 3] + 1.22 * self.length * T[:3, k])
        self.Ts = Ts

    def set_visible(self, visible: bool) -> None:
        for artist in self.lines + self.labels + [t for ts in self.axis_texts for t in ts]:
            artist.set_visible(visible)


def frame_content(Ts: ArrayLike, length: float) -> np.ndarray:
    """Origins and axis tips of frames (k, 4, 4): what a frame view must hold."""
    Ts = np.asarray(Ts, dtype=float).reshape(-1, 4, 4)
    tips = Ts[:, None, :3, 3] + 1.3 * length * np.swapaxes(Ts[:, :3, :3], 1, 2)
    return np.vstack([Ts[:, :3, 3], tips.reshape(-1, 3)])


def frames_figure(
    Ts: ArrayLike,
    labels: Sequence[str | None] | None = None,
    axis_names: str | None = None,
    length: float | None = None,
    figsize: tuple[float, float] = (3.6, 3.4),
) -> Figure:
    """A small static 3-D figure of some frames (k, 4, 4), the first drawn faint, limits fitted to them.

    ``axis_names`` (e.g. "noa") labels the axis tips of the last frame.
    Returns the figure; in a notebook end the cell with ``viz.shown(fig)``.
    """
    Ts = np.asarray(Ts, dtype=float).reshape(-1, 4, 4)
    origins = Ts[:, :3, 3]
    spread = float(np.ptp(origins, axis=0).max()) if len(Ts) > 1 else 0.0
    length = length or max(0.45 * spread, 0.1)
    fig, (ax,) = figure3d(figsize=figsize)
    names: list[str | None] = list(labels) if labels is not None else [None] * len(Ts)
    for k, T in enumerate(Ts):
        last = k == len(Ts) - 1
        Triads(
            ax,
            T[None],
            length=length,
            linewidth=1.5 if k == 0 else 3.0,
            alpha=0.5 if k == 0 else 1.0,
            labels=None if names[k] is None else [names[k]],
            axis_labels=axis_names if last else None,
            fontsize=9,
        )
    fit_points(ax, frame_content(Ts, length))
    return fig


def frames_text(Ts: ArrayLike, names: Sequence[str | None], axes: bool = True) -> str:
    """Frames read aloud: "frame {A} at (0, 0, 0) m, x axis along (1, 0, 0), …" for each frame (without the
    axis directions when ``axes`` is False)."""
    out = []
    for k, (T, name) in enumerate(zip(np.asarray(Ts, dtype=float).reshape(-1, 4, 4), names)):
        label = str(name if name is not None else k + 1).strip("{}")
        text = f"frame {{{label}}} at {spoken_vector(T[:3, 3])} m"
        if axes:
            text += ", " + ", ".join(f"{a} axis along {spoken_vector(T[:3, i])}" for i, a in enumerate("xyz"))
        out.append(text)
    return "; ".join(out)


class FigureView(Panel):
    """A figure's 3-D axes drawn in the browser (no controls): what :func:`shown` returns for a 3-D figure."""

    def __init__(self, fig: Figure) -> None:
        self.fig = fig
        self.redraws = 0
        self.widget = self._figure_widget()


def shown(fig: Figure, alt: str | None = None) -> Any:
    """What to leave as a cell's last value to show ``fig``.

    A figure with 3-D axes is drawn in the browser (:class:`FigureView`, with a still image for exported
    HTML; its text alternative is written from what it shows); a 2-D figure is a still image with alt text
    (:class:`~armlab.viz.still.StillFigure`: ``alt``, or one written from its titles, labels and ranges), never
    an interactive canvas that would keep the keyboard's focus.
    """
    if any(ax.name == "3d" for ax in fig.axes):
        if alt is not None:
            describe_figure(fig, alt)
            for ax in fig.axes:
                add_description(ax, lambda: alt, replace=True)
        try:
            return FigureView(fig)
        except ImportError:  # no widgets installed: the figure shows itself as an image
            return fig
    return StillFigure(fig, alt)


def reach(robot: DHRobot) -> float:
    """Upper bound of the distance from the base to any frame (for fixed axis limits), in metres."""
    total = 0.0
    for link, (lo, hi) in zip(robot.links, robot.qlim):
        total += abs(link.a) + abs(link.d)
        if not link.revolute:
            total += abs(link.offset) + (max(abs(lo), abs(hi)) if np.isfinite([lo, hi]).all() else 1.0)
    if robot.tool is not None:
        total += float(np.linalg.norm(robot.tool[:3, 3]))
    return max(total, 1e-3)


#: a trace behind a moving tip is drawn through at most this many samples: a scene stays a few kB
TRACE_POINTS = 400


def trace_stride(count: int) -> int:
    """The stride that draws a path of ``count`` samples through at most :data:`TRACE_POINTS` of them."""
    return max(1, -(-count // TRACE_POINTS))


def strided_path(points: np.ndarray, k: int, stride: int) -> np.ndarray:
    """Points 0, stride, 2·stride, … up to sample k, and sample k itself: a path drawn to k with few points."""
    path = points[: k + 1 : stride]
    return path if k % stride == 0 else np.concatenate([path, points[k : k + 1]])


def arm_region(size: float, floor_z: float = 0.0, count: int = 16) -> np.ndarray:
    """Points (m, 3) around what an arm of reach ``size`` can sweep above ``floor_z``: its reach sphere cut
    by the floor (the widest circle, the circle on the floor, the top) and the floor grid's corners."""
    t = np.linspace(0.0, 2 * np.pi, count, endpoint=False)

    def circle(z):
        r = math.sqrt(max(size**2 - z**2, 0.0))
        return np.column_stack([r * np.cos(t), r * np.sin(t), np.full(count, z)])

    g = 0.1 * math.ceil(0.6 * size / 0.1)
    corners = [(x, y, floor_z) for x in (-g, g) for y in (-g, g)]
    widest = max(floor_z, 0.0) if floor_z < size else floor_z
    return np.vstack([[(0.0, 0.0, max(size, floor_z))], circle(widest), circle(floor_z), corners])


class ArmView:
    """A DH robot drawn as a skeleton with its link frames, moved by ``update(q)``.

    The skeleton runs through every frame origin and, between two origins,
    through the corner where the common normal meets the joint axis: along
    z_{i-1} by d_i then along x_i by a_i (standard DH), or along x_{i-1} by
    a_{i-1} then along z_i by d_i (modified DH). So each segment is a DH length.
    Frame {i} is drawn as a triad labelled i; the tool frame (if any) as "E".

    The view holds the robot's reach above the floor (:func:`arm_region`), so no pose is clipped and the
    picture does not rescale while the arm moves.

    ``update(q)`` returns the end-effector T (``robot.fkine(q)``, tool included)
    and stores ``.q``, ``.T``, ``.frames``; it does not redraw (the panels do).

    The arm is part of its scene's text alternative (:meth:`describe`: ``name``, by default the robot's, its
    joint values and its tool position).
    """

    def __init__(
        self,
        robot: DHRobot,
        ax: Axes3D | None = None,
        q: ArrayLike | None = None,
        frames: bool = True,
        labels: bool = True,
        triad_length: float | None = None,
        color: str = "0.35",
        title: str | None = None,
        floor: bool | None = None,
        floor_z: float = 0.0,
        name: str | None = None,
    ) -> None:
        if ax is None:
            _, (ax,) = figure3d(titles=[title] if title else None, show_axes=False)
        if floor is None:  # a floor grid stands in for hidden axes
            floor = not ax.axison
        self.robot = robot
        self.ax = ax
        size = reach(robot)
        self.triad_length = triad_length or 0.12 * size
        fit_points(ax, arm_region(size, floor_z), margin=0.0)
        ax.set_box_aspect(ax.get_box_aspect(), zoom=1.2)
        if floor:
            self._floor(size, floor_z)
        ax.plot([0, 0], [0, 0], [min(floor_z, -0.08 * size), 0], color="0.5", lw=8, alpha=0.6)  # pedestal
        (self.line,) = ax.plot(
            [], [], [], color=color, lw=4, marker="o", ms=4, mfc="white", mec=color, solid_capstyle="round"
        )
        (self.tip,) = ax.plot([], [], [], ls="", marker="*", ms=11, color="#d55e00")
        nframes = robot.n + 1 + (robot.tool is not None)
        names = [str(i) for i in range(robot.n + 1)] + (["E"] if robot.tool is not None else [])
        self.triads = (
            Triads(ax, length=self.triad_length, count=nframes, labels=names if labels else None, describe=False)
            if frames
            else None
        )
        if q is None:
            q = np.clip(np.zeros(robot.n), robot.qlim[:, 0], robot.qlim[:, 1])
        self.name = robot.name if name is None else name
        self.update(q)
        add_description(ax, self.describe)

    def describe(self) -> str:
        """What the scene's text alternative says of this arm: its joint values and tool position ("" when
        hidden)."""
        if not self.line.get_visible():
            return ""
        return f"{self.name} at {joint_text(self.robot, self.q)}, tool at {spoken_vector(self.T[:3, 3])} m"

    def _floor(self, size, z=0.0):
        """A light square grid at height z with 0.1 m spacing (one artist), and its scale."""
        half = 0.1 * math.ceil(0.6 * size / 0.1)
        ticks = np.arange(-half, half + 1e-9, 0.1)
        starts = [(t, -half, z) for t in ticks] + [(-half, t, z) for t in ticks]
        ends = [(t, half, z) for t in ticks] + [(half, t, z) for t in ticks]
        self.ax.plot(*_nan_segments(np.array(starts), np.array(ends)), color="0.85", lw=0.6)
        self.ax.text(half, -half, z, "grid 0.1 m", fontsize=8, color="0.35")

    def skeleton(self, frames: np.ndarray) -> np.ndarray:
        """(m, 3) points of the skeleton for link frames ``frames`` (n+1, 4, 4)."""
        pts = [frames[0, :3, 3]]
        for i, link in enumerate(self.robot.links, start=1):
            prev, cur = frames[i - 1], frames[i]
            if self.robot.modified:
                corner = prev[:3, 3] + link.a * prev[:3, 0]
            else:
                corner = cur[:3, 3] - link.a * cur[:3, 0]
            pts += [corner, cur[:3, 3]]
        return np.array(pts)

    def update(self, q: ArrayLike) -> np.ndarray:
        """Move the arm to ``q``; returns the end-effector T (tool included). Does not redraw."""
        q = np.asarray(q, dtype=float)
        frames = self.robot.fkine_all(q)
        T = self.robot.fkine(q)
        pts = self.skeleton(frames)
        if self.robot.tool is not None:
            pts = np.vstack([pts, T[:3, 3]])
            drawn = np.concatenate([frames, T[None]], axis=0)
        else:
            drawn = frames
        self.line.set_data_3d(pts[:, 0], pts[:, 1], pts[:, 2])
        self.tip.set_data_3d([T[0, 3]], [T[1, 3]], [T[2, 3]])
        if self.triads is not None:
            self.triads.update(drawn)
        self.q, self.T, self.frames = q, T, frames
        return T

    def set_visible(self, visible: bool) -> None:
        """Show or hide the whole arm: skeleton, tip marker and frame triads (the floor stays)."""
        self.line.set_visible(visible)
        self.tip.set_visible(visible)
        if self.triads is not None:
            self.triads.set_visible(visible)

    def line_data(self) -> np.ndarray:
        """The skeleton's current (3, m) data, as drawn."""
        return np.array(self.line.get_data_3d())
