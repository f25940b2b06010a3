"""3-D views and widgets for the course notebooks.

Everything interactive in ``course/`` is built from these pieces, so no
notebook carries its own plotting code:

* :class:`Triads` — frame triads (x red, y green, z blue) drawn as three
  ``Line3D`` artists and moved in place with ``set_data_3d``;
* :class:`ArmView` — a DH robot as a skeleton through its link frames,
  ``update(q)`` moves it;
* :class:`JointSliders` — one ``FloatSlider`` per joint, in degrees for a
  revolute joint and metres for a prismatic one; ``.q`` converts to the
  radians/metres that :meth:`armlab.DHRobot.fkine` takes;
* :class:`MatrixDisplay` — a 4×4 shown with fixed decimals in an HTML widget;
* :func:`arm_viewer` / :func:`compare_viewer`, :func:`frame_playground`,
  :func:`link_motion_animator` — the three interactive panels of chapters 01–02.

Views never rebuild the figure: a change moves the existing artists and asks
for ``fig.canvas.draw_idle()``. This module is not imported by
``armlab/__init__.py``; ipywidgets is imported only when a widget is built, so
:class:`ArmView` and :class:`Triads` work with any matplotlib backend (Agg too).

>>> import matplotlib; matplotlib.use("Agg")
>>> from armlab import models, viz
>>> view = viz.ArmView(models.youbot())
>>> view.update([0, 0, 0, np.pi / 2, 0])[:3, 3].round(3)
array([0.033, 0.   , 0.655])
"""
from __future__ import annotations

import html
import math
import re

import numpy as np

from .dh import link_transform_modified, link_transform_standard
from .transforms import Rot, Trans, compose

__all__ = [
    "format_matrix", "parse_matrix", "MatrixDisplay", "Triads", "ArmView", "JointSliders",
    "ArmViewer", "arm_viewer", "compare_viewer", "FramePlayground", "frame_playground",
    "LinkMotionAnimator", "link_motion_animator", "trig_shorthand", "figure3d", "frames_figure", "shown", "dh_table",
]

AXIS_COLORS = ("tab:red", "tab:green", "tab:blue")  # x, y, z  (n, o, a of a hand frame)


def _widgets():
    import ipywidgets

    return ipywidgets


# --- matrices as text --------------------------------------------------------------
def format_matrix(T, decimals=3) -> str:
    """A matrix as fixed-decimal text, one row a line (−0.000 shown as 0.000).

    >>> print(format_matrix(np.eye(2), 2))
    [ 1.00  0.00]
    [ 0.00  1.00]
    """
    T = np.asarray(T, dtype=float)
    T = np.where(np.round(T, decimals) == 0, 0.0, T)  # no "-0.000"
    width = decimals + 3 + max(0, int(math.log10(max(1.0, np.abs(T).max()))))
    return "\n".join("[" + " ".join(f"{v:{width}.{decimals}f}" for v in row) + "]" for row in T)


_NUMBER = re.compile(r"[-+]?\d+\.\d+")


def parse_matrix(text, shape=(4, 4)) -> np.ndarray:
    """Read back the numbers of :func:`format_matrix` (tags and titles are ignored).

    Only numbers with a decimal point count, so a title such as "⁰T₆" does not.

    >>> parse_matrix("<pre>[ 1.00  0.50]\\n[ 0.00 -2.25]</pre>", (2, 2))
    array([[ 1.  ,  0.5 ],
           [ 0.  , -2.25]])
    """
    body = re.sub(r"<[^>]*>", " ", html.unescape(str(text)))
    values = [float(v) for v in _NUMBER.findall(body)]
    need = int(np.prod(shape))
    if len(values) < need:
        raise ValueError(f"text holds {len(values)} numbers, need {need} for shape {shape}")
    return np.array(values[-need:]).reshape(shape)


class MatrixDisplay:
    """A matrix shown with fixed decimals in an ``ipywidgets.HTML`` (``.widget``).

    ``.text`` is the plain text shown; :func:`parse_matrix` reads it back.
    """

    def __init__(self, T=None, title="T", decimals=3):
        self.title = title
        self.decimals = decimals
        self.text = ""
        self.widget = _widgets().HTML()
        self.widget.add_class("armlab-matrix")
        if T is not None:
            self.update(T)

    def update(self, T, title=None):
        if title is not None:
            self.title = title
        self.text = format_matrix(T, self.decimals)
        self.widget.value = (
            f"<div style='font-family:monospace'><b>{html.escape(self.title)}</b>"
            f"<pre class='armlab-matrix-text' style='margin:2px 0;line-height:1.25'>"
            f"{html.escape(self.text)}</pre></div>")
        return self.text


# --- figures and triads -------------------------------------------------------------
def figure3d(ncols=1, figsize=None, titles=None, show_axes=True):
    """A figure with ``ncols`` 3-D axes, made without being shown (``plt.ioff``).

    With ipympl the canvas is a widget that the panels place in their layout;
    its header, footer and resize handle are hidden. ``show_axes=False`` hides the
    panes, ticks and labels: they are half of the drawing time of a 3-D axes,
    and an arm reads well enough on a floor grid with its base frame
    (``show_axes=False``).
    """
    import matplotlib

    figsize = figsize or (4.6 * ncols, 4.4)
    if "ipympl" in matplotlib.get_backend().lower() or "widget" in matplotlib.get_backend().lower():
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


def _set_cube(ax, centre, half, zoom=1.0):
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
        shown = {}
        for k, o in enumerate(origins if self.labels else ()):
            key = next((j for j in shown if np.abs(origins[j] - o).max() < 1e-6 * self.length), None)
            if key is None:
                shown[k] = [self.names[k]]
            else:
                shown[key].append(self.names[k])
        for k, (text, o) in enumerate(zip(self.labels, origins)):
            text.set_position_3d(o + self.label_offset)
            text.set_text(",".join(shown[k]) if k in shown else "")
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
    _set_cube(ax, centre, half + 1.3 * length)
    return fig


def shown(fig):
    """What to leave as a cell's last value to show ``fig``: its ipympl canvas widget, or the figure itself."""
    try:
        w = _widgets()
    except ImportError:
        return fig
    return fig.canvas if isinstance(fig.canvas, w.DOMWidget) else fig


# --- the arm ------------------------------------------------------------------------
def _reach(robot):
    """Upper bound of the distance from the base to any frame (for fixed axis limits)."""
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
        reach = _reach(robot)
        self.triad_length = triad_length or 0.12 * reach
        half = 0.7 * reach
        _set_cube(ax, (0.0, 0.0, floor_z + 0.75 * half), half, zoom=1.25)
        if floor:
            self._floor(reach, floor_z)
        ax.plot([0, 0], [0, 0], [min(floor_z, -0.08 * reach), 0], color="0.5", lw=8, alpha=0.6)  # pedestal
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

    def _floor(self, reach, z=0.0):
        """A light square grid at height z with 0.1 m spacing (one artist), and its scale."""
        half = 0.1 * math.ceil(0.6 * reach / 0.1)
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
            shown = np.concatenate([frames, T[None]], axis=0)
        else:
            shown = frames
        self.line.set_data_3d(pts[:, 0], pts[:, 1], pts[:, 2])
        self.tip.set_data_3d([T[0, 3]], [T[1, 3]], [T[2, 3]])
        if self.triads is not None:
            self.triads.update(shown)
        self.q, self.T, self.frames = q, T, frames
        return T

    def line_data(self):
        """The skeleton's current (3, m) data, as drawn."""
        return np.array(self.line.get_data_3d())


def _on_grid(x, step, rounding):
    """x rounded to a multiple of step (rounding = math.ceil or math.floor), without float dust."""
    return round(rounding(x / step - math.copysign(1e-9, 0.5 - (rounding is math.floor))) * step, 10)


# --- joint sliders ------------------------------------------------------------------
class JointSliders:
    """One ``FloatSlider`` per joint: degrees for revolute joints, metres for prismatic.

    The sliders show what a person reads; :attr:`q` converts explicitly to the
    radians/metres that armlab computes with (``np.radians`` per revolute joint).
    ``observe(callback)`` calls ``callback(q)`` once per change; :meth:`set_q`
    moves several sliders and still calls back only once.
    """

    def __init__(self, robot, q=None, step_deg=0.5, step_m=0.005, names=None):
        w = _widgets()
        self.robot = robot
        self.revolute = np.array([link.revolute for link in robot.links])
        lim = robot.qlim
        self.sliders = []
        for i, link in enumerate(robot.links):
            lo, hi = lim[i]
            name = (names[i] if names else (f"θ{i + 1}" if link.revolute else f"d{i + 1}"))
            # The browser snaps a slider to min + k·step: put min and max on the step grid
            # (rounded inwards, so within the limits) or 0° and whole degrees would not be reachable.
            if link.revolute:
                lo = _on_grid(math.degrees(lo), step_deg, math.ceil) if np.isfinite(lo) else -180.0
                hi = _on_grid(math.degrees(hi), step_deg, math.floor) if np.isfinite(hi) else 180.0
                s = w.FloatSlider(min=lo, max=hi, step=step_deg, description=f"{name} (°)",
                                  readout_format=".1f", continuous_update=True)
            else:
                lo = _on_grid(lo, step_m, math.ceil) if np.isfinite(lo) else -1.0
                hi = _on_grid(hi, step_m, math.floor) if np.isfinite(hi) else 1.0
                s = w.FloatSlider(min=lo, max=hi, step=step_m, description=f"{name} (m)",
                                  readout_format=".3f", continuous_update=True)
            s.style.description_width = "60px"
            s.layout.width = "300px"
            self.sliders.append(s)
        if q is not None:  # a start pose outside the limits widens its slider (and is reported)
            for s, v in zip(self.sliders, self.from_q(q, self.revolute)):
                s.min, s.max = min(s.min, float(v)), max(s.max, float(v))
        self.box = w.VBox(self.sliders)
        self._callbacks = []
        self._hold = False
        for s in self.sliders:
            s.observe(self._changed, names="value")
        if q is not None:
            self.set_q(q)

    @staticmethod
    def to_q(values, revolute):
        """Slider values → joint values: degrees → radians where revolute, metres unchanged."""
        values = np.asarray(values, dtype=float)
        return np.where(revolute, np.radians(values), values)

    @staticmethod
    def from_q(q, revolute):
        """Joint values → slider values (radians → degrees where revolute)."""
        q = np.asarray(q, dtype=float)
        return np.where(revolute, np.degrees(q), q)

    @property
    def values(self):
        return np.array([s.value for s in self.sliders])

    @property
    def q(self):
        return self.to_q(self.values, self.revolute)

    def set_q(self, q):
        values = self.from_q(q, self.revolute)
        if values.shape != (len(self.sliders),):
            raise ValueError(f"q must have {len(self.sliders)} joint values, got shape {np.shape(q)}")
        self._hold = True
        try:
            for s, v in zip(self.sliders, values):
                s.value = float(np.clip(v, s.min, s.max))
        finally:
            self._hold = False
        self._notify()

    def observe(self, callback):
        self._callbacks.append(callback)

    def _changed(self, change):
        if not self._hold:
            self._notify()

    def _notify(self):
        q = self.q
        for cb in self._callbacks:
            cb(q)


def _in_ipython():
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    return get_ipython() is not None


# --- panels -------------------------------------------------------------------------
class _Panel:
    """Shared plumbing: a figure placed in a widget layout, redrawn with draw_idle."""

    fig = None
    widget = None

    def _figure_widget(self):
        w = _widgets()
        canvas = self.fig.canvas
        self._static = None
        if isinstance(canvas, w.DOMWidget):  # ipympl: the canvas itself is the widget
            return canvas
        if not _in_ipython():  # plain Python (tests, benchmarks): nothing to show
            return w.Output()
        # No widget canvas (inline backend, headless run): show a static image instead.
        self._static = w.Output()
        self._show_static()
        return self._static

    def _show_static(self):
        from IPython.display import display

        with self._static:
            self._static.clear_output(wait=True)
            display(self.fig)

    def redraw(self):
        self.redraws += 1
        if getattr(self, "_static", None) is not None:
            self._show_static()
        else:
            self.fig.canvas.draw_idle()

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


class ArmViewer(_Panel):
    """Joint sliders → live 3-D arm(s) and the end-effector T.

    ``robots`` is one robot or several that share joint variables (e.g. one arm
    in two DH conventions): every view follows the same sliders. Drive it from
    code with :meth:`set_q` or by setting ``.sliders[i].value`` (degrees/metres).
    ``.T`` is the T displayed in ``.matrix_widget`` (of the first robot).
    """

    def __init__(self, robots, q=None, titles=None, decimals=3, labels=True, figsize=None, show_axes=False,
                 floor_z=0.0):
        w = _widgets()
        if not isinstance(robots, (list, tuple)):
            robots = [robots]
        self.robots = list(robots)
        n = {r.n for r in self.robots}
        if len(n) != 1:
            raise ValueError("robots shown together must have the same number of joints")
        robot = self.robots[0]
        if q is None:
            q = np.clip(np.zeros(robot.n), robot.qlim[:, 0], robot.qlim[:, 1])
        titles = titles or ([r.name for r in self.robots] if len(self.robots) > 1 else None)
        self.fig, axes = figure3d(len(self.robots), figsize, titles, show_axes)
        self.views = [ArmView(r, ax, q, labels=labels, floor_z=floor_z) for r, ax in zip(self.robots, axes)]
        self.view = self.views[0]
        self.redraws = 0
        self.joints = JointSliders(robot, q)
        self.sliders = self.joints.sliders
        name = robot.name or "robot"
        self.matrix = MatrixDisplay(self.view.T, title=f"end-effector T of {name} (m)", decimals=decimals)
        self.matrix_widget = self.matrix.widget
        self.note = w.HTML()
        self._note()
        self.joints.observe(self._update)
        side = w.VBox([self.joints.box, self.matrix_widget, self.note])
        self.widget = w.HBox([side, self._figure_widget()])

    def _update(self, q):
        for v in self.views:
            v.update(q)
        self.matrix.update(self.view.T)
        self._note()
        self.redraw()

    def _note(self):
        notes = []
        robot, q = self.view.robot, self.view.q
        lim = robot.qlim
        for i, s in enumerate(self.sliders):
            if not lim[i, 0] - 1e-9 <= q[i] <= lim[i, 1] + 1e-9:
                lo, hi = JointSliders.from_q(lim[i], self.joints.revolute[i])
                notes.append(f"{s.description} is outside the joint range {lo:.0f} … {hi:.0f}")
        if len(self.views) > 1:
            dev = max(float(np.abs(v.T - self.view.T).max()) for v in self.views[1:])
            notes.append(f"largest difference between the views' T: {dev:.1e}")
        self.note.value = "<small>" + "<br>".join(html.escape(n) for n in notes) + "</small>"

    @property
    def T(self):
        return self.view.T

    @property
    def q(self):
        return self.joints.q

    def set_q(self, q):
        self.joints.set_q(q)
        return self.T


def arm_viewer(robot, q=None, **kwargs) -> ArmViewer:
    """Arm viewer for one robot: one slider per joint, live 3-D arm, live T (see :class:`ArmViewer`)."""
    return ArmViewer(robot, q=q, **kwargs)


def compare_viewer(robots, q=None, titles=None, **kwargs) -> ArmViewer:
    """Several robots with the same joints side by side, driven by one slider panel."""
    return ArmViewer(list(robots), q=q, titles=titles, **kwargs)


_AXES = ("x", "y", "z")


def _motion(kind, axis, value, deg=False):
    """The 4×4 of one elementary motion: Rot(axis, value) (radians, or degrees with deg=True) or a translation."""
    if kind == "rot":
        return Rot(axis, value, deg=deg)
    p = [0.0, 0.0, 0.0]
    p[_AXES.index(axis)] = value
    return Trans(*p)


def _motion_name(kind, axis, value):
    return f"Rot({axis}, {value:g}°)" if kind == "rot" else f"Trans({axis}, {value:g})"


class FramePlayground(_Panel):
    """Compose elementary motions about the fixed frame or the current frame.

    ``steps`` is a sequence of ``(kind, axis, value)`` with kind ``"rot"``
    (value in degrees) or ``"trans"`` (units). With the toggle on ``"fixed"``
    every motion is about the fixed frame and multiplies on the left,
    T = Mₖ···M₂M₁; on ``"current"`` it is about the moving frame and multiplies
    on the right, T = M₁M₂···Mₖ (textbook §3.1.5, item 6; :func:`armlab.compose`).
    The view shows the fixed frame {A}, the frame after each motion (faint,
    numbered) and the final frame {B}; a point ``point`` given in {B} is drawn
    where it lands in {A}.
    """

    def __init__(self, steps=(("rot", "z", 45.0), ("rot", "x", 60.0), ("rot", "y", 30.0)),
                 frame="fixed", point=None, trans_range=(-5.0, 5.0), extent=None, decimals=3,
                 figsize=(4.6, 4.4)):
        w = _widgets()
        if frame not in ("fixed", "current"):
            raise ValueError(f"frame must be 'fixed' or 'current', got {frame!r}")
        self.steps = [(kind, axis) for kind, axis, _ in steps]
        for kind, axis in self.steps:
            if kind not in ("rot", "trans") or axis not in _AXES:
                raise ValueError(f"each step must be ('rot'|'trans', 'x'|'y'|'z', value), got {(kind, axis)!r}")
        self.sliders = []
        for k, (kind, axis, value) in enumerate(steps, start=1):
            if kind == "rot":
                s = w.FloatSlider(value=value, min=-180, max=180, step=1, description=f"{k}: Rot {axis} (°)",
                                  readout_format=".0f")
            else:
                lo, hi = trans_range
                s = w.FloatSlider(value=value, min=lo, max=hi, step=(hi - lo) / 200,
                                  description=f"{k}: Trans {axis}", readout_format=".2f")
            s.style.description_width = "90px"
            s.layout.width = "330px"
            self.sliders.append(s)
        self.frame_toggle = w.ToggleButtons(options=[("about the fixed frame", "fixed"),
                                                     ("about the current frame", "current")],
                                            value=frame, style={"button_width": "190px"})
        self.point = None if point is None else np.append(np.asarray(point, dtype=float), 1.0)
        self.fig, (ax,) = figure3d(1, figsize)
        self.ax = ax
        self.redraws = 0
        Ps = self.partial_products()  # the start pose sets the view: every origin and the point in sight
        reach = [1.0] + list(np.linalg.norm(Ps[:, :3, 3], axis=1))
        if self.point is not None:
            reach.append(float(np.linalg.norm((Ps[-1] @ self.point)[:3])))
        self.extent = extent or 1.15 * max(reach)
        _set_cube(ax, (0, 0, 0), self.extent)
        L = 0.8 if self.extent < 1.5 else 0.3 * self.extent
        self.fixed = Triads(ax, np.eye(4)[None], length=1.2 * L, linewidth=1.5, alpha=0.45, labels=["A"],
                            label_offset=(-0.2, -0.2, -0.3))
        self.partial = Triads(ax, count=len(steps), length=L, linewidth=1.2, alpha=0.35,
                              labels=[str(k) for k in range(1, len(steps) + 1)])
        self.final = Triads(ax, length=L, linewidth=3.0, labels=["B"], label_offset=(0.15, 0.15, 0.3))
        self.path, = ax.plot([], [], [], color="0.5", ls=":", lw=1)
        self.point_artist, = ax.plot([], [], [], ls="", marker="o", color="k", ms=5)
        self.matrix = MatrixDisplay(np.eye(4), decimals=decimals)
        self.matrix_widget = self.matrix.widget
        self.formula_widget = w.HTML()
        self.point_widget = w.HTML()
        for s in self.sliders:
            s.observe(self._changed, names="value")
        self.frame_toggle.observe(self._changed, names="value")
        self._update()
        side = w.VBox([self.frame_toggle, *self.sliders, self.formula_widget, self.matrix_widget,
                       self.point_widget])
        self.widget = w.HBox([side, self._figure_widget()])

    @property
    def frame(self):
        return self.frame_toggle.value

    @property
    def matrices(self):
        """The 4×4 of each motion, in the order applied."""
        return [_motion(kind, axis, s.value, deg=True) for (kind, axis), s in zip(self.steps, self.sliders)]

    @property
    def T(self):
        """Composite transform ^A_B T = compose(M₁, …, Mₖ, frame=toggle)."""
        return compose(*self.matrices, frame=self.frame)

    def partial_products(self):
        """(k, 4, 4): the frame after motions 1..j, for j = 1..k."""
        out, T = [], np.eye(4)
        for M in self.matrices:
            T = M @ T if self.frame == "fixed" else T @ M
            out.append(T)
        return np.array(out)

    def formula(self):
        names = [_motion_name(kind, axis, s.value) for (kind, axis), s in zip(self.steps, self.sliders)]
        order = names[::-1] if self.frame == "fixed" else names
        return "T = " + " · ".join(order)

    def _changed(self, change):
        self._update()
        self.redraw()

    def _update(self):
        Ps = self.partial_products()
        T = Ps[-1]
        self.partial.update(Ps)
        self.final.update(T)
        o = np.vstack([np.zeros(3), Ps[:, :3, 3]])
        self.path.set_data_3d(o[:, 0], o[:, 1], o[:, 2])
        self.formula_widget.value = f"<code>{html.escape(self.formula())}</code>"
        self.matrix.update(T, title=f"T (about the {self.frame} frame)")
        if self.point is not None:
            AP = T @ self.point
            self.point_artist.set_data_3d([AP[0]], [AP[1]], [AP[2]])
            self.point_widget.value = (f"<code>P in {{B}} = {np.round(self.point[:3], 3).tolist()} → "
                                       f"P in {{A}} = T·P = {np.round(AP[:3], 3).tolist()}</code>")

    def set(self, values=None, frame=None):
        """Set the slider values (degrees / units) and/or the frame toggle, then redraw once."""
        if values is not None:
            for s, v in zip(self.sliders, values):
                s.unobserve(self._changed, names="value")
                s.value = v
                s.observe(self._changed, names="value")
        if frame is not None and frame != self.frame:
            self.frame_toggle.value = frame  # triggers the update
        else:
            self._changed(None)
        return self.T


def frame_playground(steps=(("rot", "z", 45.0), ("rot", "x", 60.0), ("rot", "y", 30.0)), **kwargs):
    """Frame-composition playground (see :class:`FramePlayground`)."""
    return FramePlayground(steps, **kwargs)


class LinkMotionAnimator(_Panel):
    """The four elementary motions that take frame {i−1} to frame {i}, step by step.

    Modified DH (textbook eq. (3.22)): Rot(x, α_{i−1}), Trans(x, a_{i−1}),
    Rot(z, θ_i), Trans(z, d_i), each about the current frame (right-multiplied).
    Standard DH (lab report eq. (2.1)): Rot(z, θ_i), Trans(z, d_i), Trans(x, a_i),
    Rot(x, α_i). ``.step_slider`` runs from 0 to 4; a fractional step shows that
    motion part-way, and ``.play`` animates it. At step 4, ``.T`` equals the
    link transform (3.23) / (2.4).
    """

    STEPS_PER_MOTION = 20

    def __init__(self, alpha=30.0, a=0.3, theta=45.0, d=0.2, convention="modified", figsize=(4.6, 4.4),
                 decimals=3):
        w = _widgets()
        if convention not in ("modified", "standard"):
            raise ValueError(f"convention must be 'standard' or 'modified', got {convention!r}")
        self.convention = convention
        sub = "ᵢ₋₁" if convention == "modified" else "ᵢ"
        self.param_sliders = {
            "alpha": w.FloatSlider(value=alpha, min=-180, max=180, step=1, description=f"α{sub} (°)"),
            "a": w.FloatSlider(value=a, min=0.0, max=0.5, step=0.01, description=f"a{sub} (m)"),
            "theta": w.FloatSlider(value=theta, min=-180, max=180, step=1, description="θᵢ (°)"),
            "d": w.FloatSlider(value=d, min=-0.5, max=0.5, step=0.01, description="dᵢ (m)"),
        }
        self.step_slider = w.FloatSlider(value=0.0, min=0.0, max=4.0, step=1 / self.STEPS_PER_MOTION,
                                         description="step", readout_format=".2f")
        self.play = w.Play(value=0, min=0, max=4 * self.STEPS_PER_MOTION, step=1, interval=40,
                           description="play")
        for s in [*self.param_sliders.values(), self.step_slider]:
            s.style.description_width = "70px"
            s.layout.width = "320px"
        self.fig, (ax,) = figure3d(1, figsize)
        self.ax = ax
        _set_cube(ax, (0.15, 0.0, 0.1), 0.45)
        L = 0.15
        self.start = Triads(ax, np.eye(4)[None], length=L, linewidth=1.5, alpha=0.4, labels=["i-1"])
        self.ghosts = Triads(ax, count=4, length=L, linewidth=1.0, alpha=0.25)
        self.moving = Triads(ax, length=L, linewidth=3.0, labels=["i"])
        self.path, = ax.plot([], [], [], color="0.4", ls="--", lw=1)
        self.redraws = 0
        self.caption = w.HTML()
        self.matrix = MatrixDisplay(np.eye(4), decimals=decimals)
        self.matrix_widget = self.matrix.widget
        for s in [*self.param_sliders.values(), self.step_slider]:
            s.observe(self._changed, names="value")
        self.play.observe(self._played, names="value")
        self._update()
        side = w.VBox([*self.param_sliders.values(), w.HBox([self.play]), self.step_slider, self.caption,
                       self.matrix_widget])
        self.widget = w.HBox([side, self._figure_widget()])

    def motions(self):
        """[(name, kind, axis, value)] of the four motions, in the order applied (value in rad / m)."""
        p = {k: s.value for k, s in self.param_sliders.items()}
        al, th = math.radians(p["alpha"]), math.radians(p["theta"])
        sub = "ᵢ₋₁" if self.convention == "modified" else "ᵢ"
        m = {"alpha": (f"Rot(x, α{sub})", "rot", "x", al), "a": (f"Trans(x, a{sub})", "trans", "x", p["a"]),
             "theta": ("Rot(z, θᵢ)", "rot", "z", th), "d": ("Trans(z, dᵢ)", "trans", "z", p["d"])}
        order = ("alpha", "a", "theta", "d") if self.convention == "modified" else ("theta", "d", "a", "alpha")
        return [m[k] for k in order]

    def transform_at(self, step):
        """Frame after ``step`` ∈ [0, 4] motions (fractional: the current motion part-way)."""
        step = float(np.clip(step, 0.0, 4.0))
        T = np.eye(4)
        for k, (_, kind, axis, value) in enumerate(self.motions()):
            frac = min(max(step - k, 0.0), 1.0)
            if frac == 0.0:
                break
            T = T @ _motion(kind, axis, frac * value)  # about the current frame: right-multiply
        return T

    def link_transform(self):
        """The link transform of the current parameters, from eq. (3.23) or (2.4)."""
        p = {k: s.value for k, s in self.param_sliders.items()}
        al, th = math.radians(p["alpha"]), math.radians(p["theta"])
        if self.convention == "modified":
            return link_transform_modified(al, p["a"], th, p["d"])
        return link_transform_standard(th, p["d"], p["a"], al)

    @property
    def T(self):
        return self._T

    def set_step(self, step):
        self.step_slider.value = float(step)
        return self.T

    def _played(self, change):
        self.step_slider.value = change["new"] / self.STEPS_PER_MOTION

    def _changed(self, change):
        self._update()
        self.redraw()

    def _update(self):
        step = self.step_slider.value
        T = self.transform_at(step)
        full = np.array([self.transform_at(k) for k in range(1, 5)])
        done = int(math.floor(step + 1e-9))
        self.ghosts.update(full)
        for line in self.ghosts.lines:  # only the motions already completed leave a ghost
            x, y, z = line.get_data_3d()
            keep = np.repeat(np.arange(4) < done, 3)
            line.set_data_3d(np.where(keep, x, np.nan), np.where(keep, y, np.nan), np.where(keep, z, np.nan))
        self.moving.update(T)
        o = np.vstack([np.zeros(3), full[:, :3, 3]])[: done + 1]
        o = np.vstack([o, T[:3, 3]])
        self.path.set_data_3d(o[:, 0], o[:, 1], o[:, 2])
        names = [m[0] for m in self.motions()]
        k = min(int(math.ceil(step - 1e-9)), 4)
        done_names = " · ".join(names[:k]) or "I (no motion yet)"
        self.caption.value = (f"<code>step {step:.2f} / 4: T = {html.escape(done_names)}</code>"
                              + ("<br><b>= link transform</b>" if step >= 4 else ""))
        self.matrix.update(T, title=f"T after step {step:.2f}")
        self._T = T


def link_motion_animator(alpha=30.0, a=0.3, theta=45.0, d=0.2, convention="modified", **kwargs):
    """Four-motions animator of one DH link (see :class:`LinkMotionAnimator`); angles in degrees."""
    return LinkMotionAnimator(alpha, a, theta, d, convention, **kwargs)


# --- tables -------------------------------------------------------------------------
def _fmt_len(v, unit):
    if not isinstance(v, (int, float)):
        return str(v)
    return f"{v * 1000:g}" if unit == "mm" else f"{v:g}"


def dh_table(robot, unit="mm"):
    """The robot's DH table as HTML, in its own convention's column order.

    Modified: i, α_{i−1}, a_{i−1}, d_i, θ_i (textbook Table 3.2); standard: i, a_i, α_i, d_i, θ_i
    (lab report Table 2.1). Angles in degrees, lengths in ``unit`` ("mm" or "m"),
    joint variables as qᵢ (+ offset), and the joint range when the model has one.
    """
    from IPython.display import HTML

    def ang(v):
        return f"{math.degrees(v):g}°" if isinstance(v, (int, float)) else str(v)

    rows = []
    lim = robot.qlim
    for i, link in enumerate(robot.links, start=1):
        q = f"q{i}"
        if link.revolute:
            off = f" + {math.degrees(link.offset):g}°" if link.offset else ""
            th, d = q + off, _fmt_len(link.d, unit)
        else:
            off = f" + {_fmt_len(link.offset, unit)}" if link.offset else ""
            th, d = ang(link.theta), q + off
        lo, hi = lim[i - 1]
        if not np.isfinite([lo, hi]).all():
            rng = "—"
        elif link.revolute:
            rng = f"{math.degrees(lo):.0f}° … {math.degrees(hi):.0f}°"
        else:
            rng = f"{_fmt_len(lo, unit)} … {_fmt_len(hi, unit)}"
        a, al = _fmt_len(link.a, unit), ang(link.alpha)
        cells = (i, al, a, d, th, rng) if robot.modified else (i, a, al, d, th, rng)
        rows.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in cells) + "</tr>")
    head = (("i", "α<sub>i−1</sub>", f"a<sub>i−1</sub> ({unit})", f"d<sub>i</sub> ({unit})", "θ<sub>i</sub>")
            if robot.modified else
            ("i", f"a<sub>i</sub> ({unit})", "α<sub>i</sub>", f"d<sub>i</sub> ({unit})", "θ<sub>i</sub>"))
    head += ("joint range",)
    title = f"{html.escape(robot.name)}: {robot.convention} DH"
    return HTML(f"<table><caption>{title}</caption><tr>" + "".join(f"<th>{h}</th>" for h in head)
                + "</tr>" + "".join(rows) + "</table>")


# --- symbolic display -----------------------------------------------------------------
def trig_shorthand(expr, q):
    """Rewrite sin(qᵢ), cos(qᵢ), sin(qᵢ+qⱼ)… as the book's sᵢ, cᵢ, s₂₃… symbols.

    >>> import sympy as sp
    >>> q = sp.symbols("q1:4")
    >>> trig_shorthand(sp.cos(q[0]) * sp.sin(q[1] + q[2]), q)
    c1*s23
    """
    import sympy as sp

    q = list(q)
    index = {s: str(k) for k, s in enumerate(q, start=1)}
    reps = {}
    for f in expr.atoms(sp.sin, sp.cos) if hasattr(expr, "atoms") else ():
        arg = f.args[0]
        terms = arg.args if arg.is_Add else (arg,)
        if all(t in index for t in terms):
            name = ("s" if f.func is sp.sin else "c") + "".join(sorted((index[t] for t in terms), key=int))
            reps[f] = sp.Symbol(name)
    return expr.xreplace(reps)
