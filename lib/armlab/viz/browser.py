"""The browser renderer: a matplotlib 3-D axes sent as data and drawn by our own JavaScript on a canvas.

The views build and move ordinary matplotlib artists (lines, texts, line collections) in place. A
:class:`SceneView` turns one 3-D axes into a small JSON scene, :func:`axes_payload` (points, colours,
widths, texts), and hands it to a canvas widget whose module, ``static/scene.js``, projects and draws
it in the browser (orthographic; drag to orbit, wheel to zoom). Only that data travels; no image is
rendered in the kernel, which is what brings a slider move to the screen within a few frames. The same
figure drawn by Agg is the static image for headless runs and exported HTML (:meth:`Panel.static_png`
in :mod:`armlab.viz.widgets`).

Each scene has a text alternative written here from the current state (:func:`describe_axes`: the
axes' title and what every part registered with :func:`add_description` says, e.g. an arm's joint angles and
tool position); the canvas is ``role="img"`` with that name, and a panel's :meth:`announce` text goes to a
visually hidden live region.

Artists can carry three browser-only hints: :func:`set_arrows` (an arrowhead at the end of each
segment of a line), :func:`set_screen_offset` (a text moved by a few pixels, e.g. labels of frames that
share an origin) and :func:`set_fit` (the sphere that must stay in view, so a moving arm is never
clipped and the picture does not rescale while it moves).

Nothing here imports ipywidgets or anywidget until a widget is built (:func:`widget_classes`).
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path
from typing import Any, Callable, TypeAlias

import numpy as np
from numpy.typing import ArrayLike

__all__ = [
    "add_description",
    "describe_axes",
    "set_arrows",
    "set_screen_offset",
    "set_fit",
    "axes_payload",
    "widget_classes",
    "SceneView",
    "Axes3D",
    "Figure",
    "Artist",
    "Widget",
]

# matplotlib objects and widgets flow through viz as these names: matplotlib's 3-D toolkit is only partly
# typed, and ipywidgets/anywidget are imported on first use, so their types are not available here.
Axes3D: TypeAlias = Any  #: a matplotlib 3-D axes (mpl_toolkits.mplot3d.axes3d.Axes3D)
Figure: TypeAlias = Any  #: a matplotlib Figure
Artist: TypeAlias = Any  #: a matplotlib artist: Line3D, Text, Line3DCollection
Widget: TypeAlias = Any  #: an ipywidgets or anywidget widget

STATIC = Path(__file__).with_name("static")
_DASHES = {
    "-": None,
    "solid": None,
    "--": [7, 4],
    "dashed": [7, 4],
    ":": [2, 3],
    "dotted": [2, 3],
    "-.": [7, 3, 2, 3],
    "dashdot": [7, 3, 2, 3],
}
_MARKERS = {"o": "o", ".": "o", "*": "*"}
_PT = 96 / 72  # a matplotlib point in CSS pixels


def set_arrows(line: Artist, head: float = 9.0) -> Artist:
    """Draw an arrowhead (``head`` px) at the end of every segment of ``line`` in the browser."""
    line._armlab_arrow = float(head)
    return line


def set_screen_offset(text: Artist, dx: float, dy: float) -> Artist:
    """Move a 3-D text by (dx, dy) screen pixels in the browser (dy upwards)."""
    text._armlab_offset = (float(dx), float(dy))
    return text


def set_fit(ax: Axes3D, points: ArrayLike) -> None:
    """The points (m, 3) that the browser's starting view must hold: its scale and centre come from them.

    Give the corners of the region a moving arm can reach (its reach sphere above the floor): the scale
    then stays fixed while the arm moves, and the arm is never clipped. Default: the axes' limits box.
    """
    pts = np.asarray(points, dtype=float).reshape(-1, 3)
    if not np.isfinite(pts).all() or len(pts) == 0:
        raise ValueError("fit points must be finite (m, 3) coordinates")
    ax._armlab_fit = np.round(pts, 6)


def add_description(ax: Axes3D, describe: Callable[[], str], replace: bool = False) -> None:
    """Add a part to the text alternative of ``ax``'s scene (``replace``: instead of the parts so far):
    ``describe()`` says what the part shows now ("" while it shows nothing). Called at every send, so it
    must be cheap (a few formatted numbers)."""
    parts = ax.__dict__.setdefault("_armlab_describe", [])
    if replace:
        parts.clear()
    parts.append(describe)


def describe_axes(ax: Axes3D) -> str:
    """The text alternative of a 3-D axes: its title, then what each registered part says, in order."""
    parts = [ax.get_title(), *(describe() for describe in ax.__dict__.get("_armlab_describe", ()))]
    return ". ".join(p for p in parts if p) or "3-D view"


_HEX: dict[Any, tuple[str, float]] = {}


def _hex(color):
    """(#rrggbb, alpha) of a matplotlib colour; remembered, as the same few colours are sent at every move."""
    key = tuple(color) if isinstance(color, (list, tuple, np.ndarray)) else color
    out = _HEX.get(key)
    if out is None:
        from matplotlib.colors import to_hex, to_rgba

        rgba = to_rgba(color)
        if len(_HEX) > 4096:  # colours computed from data: do not grow without bound
            _HEX.clear()
        out = _HEX[key] = (to_hex(rgba[:3]), rgba[3])
    return out


def _flat(x, y, z, decimals=5):
    """[x0, y0, z0, x1, ...] rounded, with None where a point is NaN (a break in the line)."""
    pts = np.round(np.column_stack([np.asarray(x, float), np.asarray(y, float), np.asarray(z, float)]), decimals)
    bad = ~np.isfinite(pts).all(axis=1)
    out = pts.tolist()
    for i in np.flatnonzero(bad):
        out[i] = [None, None, None]
    return [v for p in out for v in p]


def _line(line):
    x, y, z = line.get_data_3d()
    color, alpha = _hex(line.get_color())
    a = line.get_alpha()
    item = {
        "t": "line",
        "p": _flat(x, y, z),
        "c": color,
        "a": alpha if a is None else float(a),
        "w": round(line.get_linewidth() * _PT, 2),
        "d": _DASHES.get(line.get_linestyle()),
    }
    marker = _MARKERS.get(str(line.get_marker()))
    if marker:
        item.update(
            m=marker,
            ms=round(line.get_markersize() * _PT, 2),
            mfc=_hex(line.get_markerfacecolor())[0],
            mec=_hex(line.get_markeredgecolor())[0],
        )
    head = getattr(line, "_armlab_arrow", None)
    if head:
        item.update(arrow=True, hs=head)
    return item


def _segments(coll):
    segs = getattr(coll, "_segments3d", None)
    if segs is None or len(segs) == 0:
        return None
    segs = np.asarray(segs, dtype=float).reshape(-1, 2, 3)
    colors = coll.get_edgecolor()
    alphas = coll.get_alpha()
    c = [_hex(rgba[:3])[0] for rgba in colors] or ["#000000"]
    if alphas is None:
        a = [float(rgba[3]) for rgba in colors] or [1.0]
    else:
        a = list(np.atleast_1d(alphas).astype(float))
    w = [round(float(v) * _PT, 2) for v in np.atleast_1d(coll.get_linewidth())]
    return {
        "t": "segs",
        "p": _flat(segs[:, :, 0].ravel(), segs[:, :, 1].ravel(), segs[:, :, 2].ravel()),
        "c": c,
        "a": a,
        "w": w,
    }


def _text(text):
    x, y, z = text.get_position_3d()
    if not text.get_text():
        return None
    color, alpha = _hex(text.get_color())
    dx, dy = getattr(text, "_armlab_offset", (0.0, 0.0))
    weight = text.get_fontweight()
    return {
        "t": "text",
        "p": [round(float(v), 5) for v in (x, y, z)],
        "s": text.get_text(),
        "c": color,
        "a": alpha if text.get_alpha() is None else float(text.get_alpha()),
        "fs": round(text.get_fontsize() * _PT, 1),
        "fw": "bold" if weight in ("bold", 700, "heavy") else "normal",
        "ha": {"center": "center", "right": "right"}.get(text.get_ha(), "left"),
        "dx": dx,
        "dy": dy,
    }


def _spread_labels(items):
    """Texts at the same point with the same offset (frames that share an origin, e.g. PUMA {4}, {5}, {6},
    or {A} and the first partial frame) are set one beside the other instead of on top of each other."""
    taken: dict[tuple, float] = {}
    for item in items:
        if item["t"] != "text":
            continue
        key = (tuple(item["p"]), item["dx"], item["dy"], item["ha"])
        shift = taken.get(key, 0.0)
        width = 0.62 * item["fs"] * len(item["s"]) + 5
        taken[key] = shift + width
        if shift:
            item["dx"] += -shift if item["ha"] == "right" else shift


def axes_payload(ax: Axes3D) -> dict[str, Any]:
    """The scene of one 3-D axes as plain data: limits, the sphere to keep in view, visible artists."""
    limits = np.array([ax.get_xlim3d(), ax.get_ylim3d(), ax.get_zlim3d()], dtype=float)
    ranges = limits[:, 1] - limits[:, 0]
    aspect = np.asarray(ax.get_box_aspect(), dtype=float)
    scale = aspect / ranges
    scale = scale / scale.max()
    boxed = getattr(ax, "_axis3don", ax.axison)
    fit = getattr(ax, "_armlab_fit", None)
    if fit is None or boxed:  # the corners of the limits box (all of it in view when it is drawn)
        fit = np.array(np.meshgrid(*limits, indexing="ij")).reshape(3, -1).T
    items = []
    for artist in ax.get_children():
        if not artist.get_visible():
            continue
        kind = type(artist).__name__
        if kind == "Line3D":
            items.append(_line(artist))
        elif kind == "Line3DCollection":
            item = _segments(artist)
            if item:
                items.append(item)
        elif kind == "Text3D":
            item = _text(artist)
            if item:
                items.append(item)
    _spread_labels(items)
    payload = {
        "limits": np.round(limits, 6).tolist(),
        "scale": np.round(scale, 6).tolist(),
        "fit": np.ravel(fit).tolist(),
        "margin": 1.15,
        "items": items,
        "title": ax.get_title(),
    }
    if boxed:
        payload["box"] = True
        payload["ticks"] = [
            [float(v) for v in axis.get_ticklocs() if lo - 1e-9 <= v <= hi + 1e-9]
            for axis, (lo, hi) in zip((ax.xaxis, ax.yaxis, ax.zaxis), limits)
        ]
        payload["tick_text"] = [[f"{v:g}" for v in ticks] for ticks in payload["ticks"]]
    return payload


@functools.cache
def widget_classes() -> tuple[type, type]:
    """(SceneCanvas, Slider): the anywidget classes, defined on first use (this imports ipywidgets)."""
    import anywidget
    import traitlets as t

    css = (STATIC / "armlab.css").read_text(encoding="utf-8")

    class SceneCanvas(anywidget.AnyWidget):
        """A canvas that draws :func:`axes_payload` scenes (``scene``: their JSON text, one string to send
        rather than thousands of numbers for ipywidgets to walk); ``view`` is the starting camera."""

        _esm = (STATIC / "scene.js").read_text(encoding="utf-8")
        _css = css
        scene = t.Unicode("{}").tag(sync=True)
        view = t.Dict({"elev": 25.0, "azim": -38.0, "zoom": 1.0}).tag(sync=True)
        width = t.Int(440).tag(sync=True)
        height = t.Int(420).tag(sync=True)
        label = t.Unicode("3-D view").tag(sync=True)  # the text alternative: what the scene shows now
        status = t.Unicode("").tag(sync=True)  # what changed, for the aria-live region

    class Slider(anywidget.AnyWidget):
        """A float slider (label, track, editable readout) whose frontend never echoes a value set from code.

        The same traits as ``ipywidgets.FloatSlider`` that the panels use: ``value``, ``min``, ``max``,
        ``step``, ``description``, ``readout_format``, ``disabled``; ``description_width`` is a CSS width.
        ``value`` is kept within [min, max]. Keys move one ``step`` (Shift: a tenth). A value the browser
        sends is not echoed back (ipywidgets' ``echo_update``): the browser that sent it shows it already, and
        every slider move then costs one message fewer on its way to the figures.
        """

        _esm = (STATIC / "slider.js").read_text(encoding="utf-8")
        _css = css
        value = t.Float(0.0).tag(sync=True, echo_update=False)
        min = t.Float(0.0).tag(sync=True)
        max = t.Float(100.0).tag(sync=True)
        step = t.Float(0.1).tag(sync=True)
        description = t.Unicode("").tag(sync=True)
        description_width = t.Unicode("70px").tag(sync=True)
        readout_format = t.Unicode(".2f").tag(sync=True)
        disabled = t.Bool(False).tag(sync=True)
        continuous_update = t.Bool(True)  # kept for FloatSlider's interface: every move is sent

        def __init__(self, value=None, **kwargs):
            super().__init__(**kwargs)
            if value is not None:
                self.value = value

        @t.validate("value")
        def _clip(self, proposal):
            v = float(proposal["value"])
            if not math.isfinite(v):
                raise t.TraitError(f"{self.description or 'slider'} value must be finite, got {v!r}")
            return min(max(v, self.min), self.max)

        @t.observe("min", "max")
        def _limits(self, change):
            if self.min <= self.max:  # (while min and max are set one after the other, they may cross)
                self.value = min(max(self.value, self.min), self.max)

    return SceneCanvas, Slider


@functools.cache
def player_class() -> type:
    """Player: the anywidget that animates an int ``value`` (imports ipywidgets)."""
    import anywidget
    import traitlets as t

    class Player(anywidget.AnyWidget):
        """A named Play/Pause button and a back-to-start button that step ``value`` from ``min`` to ``max``
        by ``step`` every ``interval`` ms, in the browser (the interface of ``ipywidgets.Play`` the panels
        use); ``description`` says what it plays."""

        _esm = (STATIC / "player.js").read_text(encoding="utf-8")
        _css = (STATIC / "armlab.css").read_text(encoding="utf-8")
        value = t.Int(0).tag(sync=True)
        min = t.Int(0).tag(sync=True)
        max = t.Int(100).tag(sync=True)
        step = t.Int(1).tag(sync=True)
        interval = t.Int(100).tag(sync=True)
        description = t.Unicode("the animation").tag(sync=True)
        disabled = t.Bool(False).tag(sync=True)

    return Player


class SceneView:
    """One 3-D axes shown by a :class:`SceneCanvas`; :meth:`sync` sends the axes' artists as they are now
    and the scene's text alternative (``.payload``: the scene last sent, as a dict; ``.label``: its name)."""

    def __init__(self, ax: Axes3D, width: int = 440, height: int = 420) -> None:
        self.ax = ax
        SceneCanvas, _ = widget_classes()
        elev, azim = ax.elev, ax.azim
        self.widget = SceneCanvas(
            width=int(width), height=int(height), view={"elev": float(elev), "azim": float(azim), "zoom": 1.0}
        )
        self.widget.add_class("armlab-scene-widget")
        self.sync()

    def sync(self, status: str = "") -> dict[str, Any]:
        """Send the scene and its name, and ``status`` (if not "") to the live region, in one message."""
        payload = axes_payload(self.ax)
        view = {"elev": float(self.ax.elev), "azim": float(self.ax.azim), "zoom": 1.0}
        self.label = describe_axes(self.ax)
        with self.widget.hold_sync():  # the picture and its name in one message
            if view != self.widget.view:
                self.widget.view = view
            self.payload = payload
            self.widget.scene = json.dumps(payload, separators=(",", ":"), allow_nan=False)
            self.widget.label = self.label
            if status:
                self.widget.status = status
        return payload
