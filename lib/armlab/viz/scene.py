"""3-D scenes drawn with matplotlib: figures, frame triads and a DH arm, all moved in place.

* :func:`figure3d` — a figure of 3-D axes made without being shown; :func:`set_cube` fixes a view;
* :class:`Triads` — frame triads (x red, y green, z blue) moved with ``set_data_3d``;
* :func:`frames_figure` — a small static figure of a few frames;
* :class:`ArmView` — a DH robot as a skeleton through its link frames, ``update(q)`` moves it;
* :func:`reach` — an upper bound of a robot's reach, for fixed axis limits;
* :func:`shown` — what a cell returns to show a figure.

Nothing here needs ipywidgets: these views work with any matplotlib backend (Agg too).

>>> import matplotlib; matplotlib.use("Agg")
>>> from armlab import models
>>> view = ArmView(models.youbot())
>>> view.update([0, 0, 0, np.pi / 2, 0])[:3, 3].round(3)
array([0.033, 0.   , 0.655])
"""
from __future__ import annotations

import math

import numpy as np

from .widgets import load_widgets

__all__ = ["AXIS_COLORS", "figure3d", "set_cube", "Triads", "frames_figure", "shown", "reach", "ArmView"]

AXIS_COLORS = ("tab:red", "tab:green", "tab:blue")  # x, y, z  (n, o, a of a hand frame)


def figure3d(ncols=1, figsize=None, titles=None, show_axes=True):
    """A figure with ``ncols`` 3-D axes, made without being shown (``plt.ioff``).

    With ipympl the canvas is a widget that the panels place in their layout;
    its header, footer and resize handle are hidden. ``show_axes=False`` hides the
    panes, ticks and labels: they are half of the drawing time of a 3-D axes,
    and an arm reads well enough on a floor grid with its base frame.
    """
    import matplotlib

    figsize = figsize or (4.6 * ncols, 4.4)
    backend = matplotlib.get_backend().lower()
    if "ipympl" in backend or "widget" in backend:
        import matplotlib.pyplot as plt

        with plt.ioff():  # the panel places the canvas widget itself
            fig = plt.figure(figsize=figsize)
    else:
        # Any other backend (Agg, inline): a figure pyplot does not track, so nothing is
        # shown twice and nothing piles up in pyplot's list of open figures.
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        fig = Figure(figsize=figsize)
        FigureCanvasAgg(fig)
    axes = [fig.add_subplot(1, ncols, k + 1, projection="3d") for k in range(ncols)]
    for k, ax in enumerate(axes):
        if show_axes:
            _light_axes(ax)
        else:
            ax.set_axis_off()
        if titles:
            ax.set_title(titles[k], fontsize=9)
    fig.subplots_adjust(left=0.0, right=1.0, bottom=0.02, top=0.95, wspace=0.0)
    canvas = fig.canvas
    for attr, value in (("header_visible", False), ("footer_visible", False), ("resizable", False),
                        ("toolbar_visible", "fade-in-fade-out")):
        if hasattr(canvas, attr):
            try:
                setattr(canvas, attr, value)
            except Exception:  # older ipympl: traitlets reject a value; keep the default
                pass
    return fig, axes


def _light_axes(ax):
    """Few ticks and small labels: a 3-D axes draws noticeably faster that way."""
    from matplotlib.ticker import MaxNLocator

    for axis, name in ((ax.xaxis, "x"), (ax.yaxis, "y"), (ax.zaxis, "z")):
        axis.set_major_locator(MaxNLocator(3))
        axis.set_tick_params(labelsize=7, pad=0)
    ax.set_xlabel("x", fontsize=8, labelpad=-8)
    ax.set_ylabel("y", fontsize=8, labelpad=-8)
    ax.set_zlabel("z", fontsize=8, labelpad=-8)


def set_cube(ax, centre, half, zoom=1.0):
    """Show the cube of half-width ``half`` around ``centre`` with equal scales on all three axes."""
    cx, cy, cz = centre
    ax.set_xlim(cx - half, cx + half)
    ax.set_ylim(cy - half, cy + half)
    ax.set_zlim(cz - half, cz + half)
    ax.set_box_aspect((1, 1, 1), zoom=zoom)


def _nan_segments(starts, ends):
    """x, y, z arrays of separate segments start→end, split by NaN."""
    k = len(starts)
    pts = np.full((3 * k, 3), np.nan)
    pts[0::3] = starts
    pts[1::3] = ends
    return pts[:, 0], pts[:, 1], pts[:, 2]


class Triads:
    """Coordinate-frame triads of several frames, moved in place.

    Three ``Line3D`` artists (all x axes red, y green, z blue; frames separated
    by NaN), plus an optional label at each origin. ``update(Ts)`` takes
    (k, 4, 4) transforms and only calls ``set_data_3d``/``set_position_3d``.
    """

    def __init__(self, ax, Ts=None, length=0.1, linewidth=2.0, alpha=1.0, labels=None, count=None,
                 label_offset=(-0.25, -0.25, 0.25)):
        self.ax = ax
        self.length = float(length)
        self.label_offset = np.asarray(label_offset, dtype=float) * self.length
        if Ts is None:
            Ts = np.broadcast_to(np.eye(4), (count or 1, 4, 4))
        Ts = np.asarray(Ts, dtype=float).reshape(-1, 4, 4)
        self.count = len(Ts)
        self.lines = [ax.plot([], [], [], color=c, lw=linewidth, alpha=alpha, solid_capstyle="round")[0]
                      for c in AXIS_COLORS]
        self.labels = []
        self.names = [str(s) for s in labels] if labels is not None else []
        if labels is not None:
            self.labels = [ax.text(0, 0, 0, name, fontsize=8, color="0.15") for name in self.names]
        self.update(Ts)

    def update(self, Ts):
        Ts = np.asarray(Ts, dtype=float).reshape(-1, 4, 4)
        if len(Ts) != self.count:
            raise ValueError(f"Ts must hold {self.count} frames, got {len(Ts)}")
        origins = Ts[:, :3, 3]
        for k, line in enumerate(self.lines):
            line.set_data_3d(*_nan_segments(origins, origins + self.length * Ts[:, :3, k]))
        # frames whose origins coincide (e.g. PUMA {4},{5},{6}) share one label "4,5,6"
        shared = {}
        for k, o in enumerate(origins if self.labels else ()):
            key = next((j for j in shared if np.abs(origins[j] - o).max() < 1e-6 * self.length), None)
            if key is None:
                shared[k] = [self.names[k]]
            else:
                shared[key].append(self.names[k])
        for k, (text, o) in enumerate(zip(self.labels, origins)):
            text.set_position_3d(o + self.label_offset)
            text.set_text(",".join(shared[k]) if k in shared else "")
        self.Ts = Ts

    def set_visible(self, visible):
        for artist in self.lines + self.labels:
            artist.set_visible(visible)


def frames_figure(Ts, labels=None, axis_names=None, length=None, figsize=(3.6, 3.4)):
    """A small static 3-D figure of some frames (k, 4, 4), the first drawn faint.

    ``axis_names`` (e.g. "noa") labels the axis tips of the last frame.
    Returns the figure; in a notebook end the cell with ``viz.shown(fig)``.
    """
    Ts = np.asarray(Ts, dtype=float).reshape(-1, 4, 4)
    origins = Ts[:, :3, 3]
    centre = (origins.max(axis=0) + origins.min(axis=0)) / 2
    half = max(float(np.abs(origins - centre).max()), 0.1)
    length = length or 0.6 * half
    fig, (ax,) = figure3d(figsize=figsize)
    names = list(labels) if labels is not None else [None] * len(Ts)
    for k, T in enumerate(Ts):
        Triads(ax, T[None], length=length, linewidth=1.5 if k == 0 else 3.0, alpha=0.5 if k == 0 else 1.0,
               labels=None if names[k] is None else [names[k]])
    if axis_names:
        T = Ts[-1]
        for k, name in enumerate(axis_names):
            ax.text(*(T[:3, 3] + 1.25 * length * T[:3, k]), name, color=AXIS_COLORS[k], fontsize=11,
                    weight="bold")
    set_cube(ax, centre, half + 1.3 * length)
    return fig


def shown(fig):
    """What to leave as a cell's last value to show ``fig``: its ipympl canvas widget, or the figure itself."""
    try:
        w = load_widgets()
    except ImportError:
        return fig
    return fig.canvas if isinstance(fig.canvas, w.DOMWidget) else fig


def reach(robot) -> float:
    """Upper bound of the distance from the base to any frame (for fixed axis limits), in metres."""
    total = 0.0
    for link, (lo, hi) in zip(robot.links, robot.qlim):
        total += abs(link.a) + abs(link.d)
        if not link.revolute:
            total += abs(link.offset) + (max(abs(lo), abs(hi)) if np.isfinite([lo, hi]).all() else 1.0)
    if robot.tool is not None:
        total += float(np.linalg.norm(robot.tool[:3, 3]))
    return max(total, 1e-3)


class ArmView:
    """A DH robot drawn as a skeleton with its link frames, moved by ``update(q)``.

    The skeleton runs through every frame origin and, between two origins,
    through the corner where the common normal meets the joint axis: along
    z_{i-1} by d_i then along x_i by a_i (standard DH), or along x_{i-1} by
    a_{i-1} then along z_i by d_i (modified DH). So each segment is a DH length.
    Frame {i} is drawn as a triad labelled i; the tool frame (if any) as "E".

    ``update(q)`` returns the end-effector T (``robot.fkine(q)``, tool included)
    and stores ``.q``, ``.T``, ``.frames``; it does not redraw — call
    ``fig.canvas.draw_idle()`` (the panels do).
    """

    def __init__(self, robot, ax=None, q=None, frames=True, labels=True, triad_length=None,
                 color="0.35", title=None, floor=None, floor_z=0.0):
        if ax is None:
            _, (ax,) = figure3d(titles=[title] if title else None, show_axes=False)
        if floor is None:  # a floor grid stands in for hidden axes
            floor = not ax.axison
        self.robot = robot
        self.ax = ax
        size = reach(robot)
        self.triad_length = triad_length or 0.12 * size
        half = 0.7 * size
        set_cube(ax, (0.0, 0.0, floor_z + 0.75 * half), half, zoom=1.25)
        if floor:
            self._floor(size, floor_z)
        ax.plot([0, 0], [0, 0], [min(floor_z, -0.08 * size), 0], color="0.5", lw=8, alpha=0.6)  # pedestal
        self.line, = ax.plot([], [], [], color=color, lw=4, marker="o", ms=4,
                             mfc="white", mec=color, solid_capstyle="round")
        self.tip, = ax.plot([], [], [], ls="", marker="*", ms=11, color="tab:orange")
        nframes = robot.n + 1 + (robot.tool is not None)
        names = [str(i) for i in range(robot.n + 1)] + (["E"] if robot.tool is not None else [])
        self.triads = Triads(ax, length=self.triad_length, count=nframes, labels=names if labels else None) \
            if frames else None
        if q is None:
            q = np.clip(np.zeros(robot.n), robot.qlim[:, 0], robot.qlim[:, 1])
        self.update(q)

    def _floor(self, size, z=0.0):
        """A light square grid at height z with 0.1 m spacing (one artist), and its scale."""
        half = 0.1 * math.ceil(0.6 * size / 0.1)
        ticks = np.arange(-half, half + 1e-9, 0.1)
        starts = [(t, -half, z) for t in ticks] + [(-half, t, z) for t in ticks]
        ends = [(t, half, z) for t in ticks] + [(half, t, z) for t in ticks]
        self.ax.plot(*_nan_segments(np.array(starts), np.array(ends)), color="0.85", lw=0.6)
        self.ax.text(half, -half, z, "grid 0.1 m", fontsize=7, color="0.5")

    def skeleton(self, frames):
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

    def update(self, q):
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

    def set_visible(self, visible):
        """Show or hide the whole arm: skeleton, tip marker and frame triads (the floor stays)."""
        self.line.set_visible(visible)
        self.tip.set_visible(visible)
        if self.triads is not None:
            self.triads.set_visible(visible)

    def line_data(self):
        """The skeleton's current (3, m) data, as drawn."""
        return np.array(self.line.get_data_3d())
