"""Widget plumbing shared by every panel: the lazy ipywidgets import, sliders, :class:`Panel`, :class:`JointSliders`.

ipywidgets is imported by :func:`load_widgets` when a widget is built, never at import time, so the
matplotlib-only views (:mod:`armlab.viz.scene`) work without it. Sliders are :func:`slider`\\ s, the
browser slider of :mod:`armlab.viz.browser`: a value set from code is never replaced by the browser's
snapped echo, Shift gives fine steps, and the track keeps at least 120 px.
"""

from __future__ import annotations

import base64
import contextlib
import io
import math
from typing import TYPE_CHECKING, Any, Callable, ContextManager, Mapping, NamedTuple, Sequence

import numpy as np
from numpy.typing import ArrayLike

from .browser import Axes3D, Figure, SceneView, Widget, player_class, widget_classes

if TYPE_CHECKING:
    from ..robot import DHRobot

__all__ = [
    "load_widgets",
    "in_ipython",
    "slider",
    "player",
    "SliderSpec",
    "SliderTable",
    "side_column",
    "panel_layout",
    "Panel",
    "JointSliders",
    "joint_table",
]

SIDE_WIDTH = "380px"  # the controls column: wide enough for a 150 px track beside label and readout


def load_widgets() -> Any:
    """The ``ipywidgets`` module, imported on first use."""
    import ipywidgets

    return ipywidgets


def in_ipython() -> bool:
    """True inside an IPython kernel or shell (a notebook), False in plain Python (tests, benchmarks)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    return get_ipython() is not None


def slider(
    value: float,
    lo: float,
    hi: float,
    step: float,
    description: str,
    readout_format: str = ".1f",
    description_width: str = "70px",
) -> Widget:
    """A float slider from ``lo`` to ``hi`` (keys: ``step``, Shift: step/10) that never echoes code's values."""
    _, Slider = widget_classes()
    s = Slider(
        min=float(lo),
        max=float(hi),
        step=float(step),
        description=description,
        readout_format=readout_format,
        description_width=description_width,
    )
    s.value = float(value)
    s.layout.width = "100%"
    return s


def player(lo: int, hi: int, step: int = 1, interval: int = 40, description: str = "the animation") -> Widget:
    """Play/Pause and back-to-start buttons stepping an int ``value`` from ``lo`` to ``hi`` in the browser,
    named after ``description`` (what they play, e.g. "the motion"); observe its ``value``."""
    return player_class()(min=int(lo), max=int(hi), step=int(step), interval=int(interval), description=description)


class SliderSpec(NamedTuple):
    """One slider of a panel, declared once: it builds the slider and is the panel's start-value option."""

    name: str  # the keyword option that sets its start value
    lo: float
    hi: float
    step: float
    start: float  # the default start value
    label: str  # with its unit, e.g. "a (m)"
    readout_format: str = ".1f"
    description_width: str = "70px"


class SliderTable:
    """A panel's sliders, declared once (``SliderTable(SliderSpec(...), ...)``): the table checks the start
    values a panel is given as keyword options and builds the sliders at them."""

    def __init__(self, *rows: SliderSpec) -> None:
        self.rows = rows

    def starts(self, options: Mapping[str, Any], owner: str) -> dict[str, float]:
        """The start value of each slider: its default, or the value ``options`` gives.

        An option no slider has is a TypeError, a value that is not a real number or lies outside its
        slider's range a ValueError, each naming the option (a slider would silently clamp it).
        """
        names = [row.name for row in self.rows]
        unknown = sorted(set(options) - set(names))
        if unknown:
            raise TypeError(f"{owner}() got an unknown option {unknown[0]!r}; the options are {', '.join(names)}")
        starts = {}
        for row in self.rows:
            v = options.get(row.name, row.start)
            if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
                raise ValueError(f"{owner}: {row.name} must be a real number, got {v!r}")
            if not row.lo <= v <= row.hi:  # also refuses NaN
                raise ValueError(f"{owner}: {row.name} = {v!r} is outside its slider's range [{row.lo:g}, {row.hi:g}]")
            starts[row.name] = float(v)
        return starts

    def build(self, starts: Mapping[str, float] | None = None) -> dict[str, Widget]:
        """The sliders by name, each at its value in ``starts`` (by default its row's start)."""
        starts = {r.name: r.start for r in self.rows} if starts is None else starts
        return {
            r.name: slider(starts[r.name], r.lo, r.hi, r.step, r.label, r.readout_format, r.description_width)
            for r in self.rows
        }


def side_column(children: Sequence[Widget], width: str = SIDE_WIDTH) -> Widget:
    """The controls of a panel, one a row, in a column of fixed width (it never squeezes the sliders)."""
    w = load_widgets()
    box = w.VBox(children, layout=w.Layout(width=width, min_width=width, flex="0 0 auto"))
    box.add_class("armlab-side")
    return box


def panel_layout(*children: Widget) -> Widget:
    """Controls and figures side by side when there is room; a figure wraps below when there is not."""
    w = load_widgets()
    box = w.HBox(
        list(children),
        layout=w.Layout(flex_flow="row wrap", align_items="flex-start", grid_gap="4px 12px", width="100%"),
    )
    box.add_class("armlab-panel")
    return box


class Panel:
    """Base class of the interactive panels: a matplotlib figure drawn in the browser, controls beside it.

    A subclass sets ``.fig``, ``.redraws = 0`` and ``.widget``, puts ``self._figure_widget()`` in its
    layout and calls :meth:`redraw` after moving its artists: that sends every 3-D axes' scene to its
    canvas (:class:`~armlab.viz.browser.SceneView`); the kernel renders nothing. Displayed, a panel is its
    widget plus a PNG of the figure, which frontends without widgets (exported HTML) show instead.
    """

    fig: Figure = None
    widget: Widget = None
    scenes: Sequence[SceneView] = ()
    redraws: int = 0

    def _figure_widget(self, axes: Sequence[Axes3D] | None = None) -> Widget:
        """The canvas widget(s) of the figure's 3-D axes (several wrap onto the next line when narrow)."""
        w = load_widgets()
        axes = [ax for ax in (axes or self.fig.axes) if ax.name == "3d"]
        fw, fh = axes[0].figure.get_size_inches() * 96
        width = int(fw / max(len(axes), 1))
        self.scenes = [SceneView(ax, width, int(fh)) for ax in axes]
        if len(self.scenes) == 1:
            return self.scenes[0].widget
        return w.HBox([s.widget for s in self.scenes], layout=w.Layout(flex_flow="row wrap"))

    def redraw(self) -> None:
        """Send every 3-D axes' scene to its canvas (counted in ``.redraws``), and with the first the
        panel's :meth:`news` for its live region (one message: the picture, its name and the news)."""
        self.redraws += 1
        news = "" if self._quiet else self.news()
        for k, scene in enumerate(self.scenes):
            scene.sync(news if k == 0 else "")

    def news(self) -> str:
        """What a move changed, as a sentence for the live region: the new value of what the panel computes
        (e.g. "tool at (0.41, 0.15, 0.32) m"). Sent by :meth:`redraw`; "" (this default) leaves the region as
        it is, for a panel that speaks through :meth:`announce` instead."""
        return ""

    def one_message(self) -> ContextManager[Any]:
        """Inside this block the first canvas's changes (scene, name, live region) are sent together, so the
        browser never names the old view beside news of the new one."""
        return self.scenes[0].widget.hold_sync() if self.scenes else contextlib.nullcontext()

    def announce(self, text: str) -> None:
        """Say ``text`` through the panel's live region (what changed: a solution count, "singular", a
        refusal); screen readers read it when it changes."""
        if self.scenes:
            self.scenes[0].widget.status = text

    _quiet = False  # showing a frame in the middle of an animation: nothing is announced

    def _follow(self, play: Widget, move: Callable[[int], Any]) -> Callable[[Any], None]:
        """The observer of ``play``'s value: ``move(frame)`` shows the frame. Frames between the first and
        the last are not announced (a screen reader would read out 25 a second); the last one is."""

        def observer(change: Any) -> None:
            self._quiet = play.min < change["new"] < play.max
            try:
                move(change["new"])
            finally:
                self._quiet = False

        return observer

    def static_png(self, dpi: float = 80) -> bytes:
        """The figure drawn by Agg: the still image of the panel."""
        buf = io.BytesIO()
        self.fig.savefig(buf, format="png", dpi=dpi)
        return buf.getvalue()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data = self.widget._repr_mimebundle_(**kwargs)
        if isinstance(data, tuple):
            data = data[0]
        data = dict(data)
        if in_ipython():  # headless runs and exported HTML have no widget state: they show this image
            data["image/png"] = base64.b64encode(self.static_png()).decode("ascii")
        return data


def _on_grid(x, step, rounding):
    """x rounded to a multiple of step (rounding = math.ceil or math.floor), without float dust."""
    return round(rounding(x / step - math.copysign(1e-9, 0.5 - (rounding is math.floor))) * step, 10)


def joint_table(
    robot: DHRobot, step_deg: float = 0.5, step_m: float = 0.005, names: Sequence[str] | None = None
) -> SliderTable:
    """One slider a joint, within its limits: degrees for revolute joints, metres for prismatic.

    Each starts at 0 (or the limit nearest it); ``names`` replaces θi / di.
    """
    rows = []
    for i, (link, (lo, hi)) in enumerate(zip(robot.links, robot.qlim)):
        name = names[i] if names else (f"θ{i + 1}" if link.revolute else f"d{i + 1}")
        # min and max on the step grid (rounded inwards, so within the limits): keys then reach 0° and
        # whole degrees
        if link.revolute:
            lo = _on_grid(math.degrees(lo), step_deg, math.ceil) if np.isfinite(lo) else -180.0
            hi = _on_grid(math.degrees(hi), step_deg, math.floor) if np.isfinite(hi) else 180.0
            step, label, fmt = step_deg, f"{name} (°)", ".1f"
        else:
            lo = _on_grid(lo, step_m, math.ceil) if np.isfinite(lo) else -1.0
            hi = _on_grid(hi, step_m, math.floor) if np.isfinite(hi) else 1.0
            step, label, fmt = step_m, f"{name} (m)", ".3f"
        rows.append(SliderSpec(name, lo, hi, step, min(max(0.0, lo), hi), label, fmt, "60px"))
    return SliderTable(*rows)


class JointSliders:
    """One slider per joint: degrees for revolute joints, metres for prismatic.

    The sliders show what a person reads; :attr:`q` converts explicitly to the
    radians/metres that armlab computes with (``np.radians`` per revolute joint).
    ``observe(callback)`` calls ``callback(q)`` once per change; :meth:`set_q`
    moves several sliders and still calls back only once. ``table`` declares the
    sliders (by default :func:`joint_table` of the robot: its limits, 0.5° and 5 mm steps).
    """

    def __init__(self, robot: DHRobot, q: ArrayLike | None = None, table: SliderTable | None = None) -> None:
        w = load_widgets()
        self.robot = robot
        self.revolute = np.array([link.revolute for link in robot.links])
        table = joint_table(robot) if table is None else table
        if len(table.rows) != robot.n:
            raise ValueError(f"table must have one slider a joint ({robot.n}), got {len(table.rows)}")
        self.sliders = list(table.build().values())
        if q is not None:  # a start pose outside the limits widens its slider (and is reported)
            for s, v in zip(self.sliders, self.from_q(q, self.revolute)):
                s.min, s.max = min(s.min, float(v)), max(s.max, float(v))
        self.box = w.VBox(self.sliders, layout=w.Layout(width="100%"))
        self._callbacks: list[Callable[[np.ndarray], Any]] = []
        self._hold = False
        for s in self.sliders:
            s.observe(self._changed, names="value")
        if q is not None:
            self.set_q(q)

    @staticmethod
    def to_q(values: ArrayLike, revolute: ArrayLike) -> np.ndarray:
        """Slider values → joint values: degrees → radians where revolute, metres unchanged."""
        values = np.asarray(values, dtype=float)
        return np.where(revolute, np.radians(values), values)

    @staticmethod
    def from_q(q: ArrayLike, revolute: ArrayLike) -> np.ndarray:
        """Joint values → slider values (radians → degrees where revolute)."""
        q = np.asarray(q, dtype=float)
        return np.where(revolute, np.degrees(q), q)

    @property
    def values(self) -> np.ndarray:
        """The sliders' values as shown: degrees for revolute joints, metres for prismatic."""
        return np.array([s.value for s in self.sliders])

    @property
    def q(self) -> np.ndarray:
        """The joint values in radians/metres."""
        return self.to_q(self.values, self.revolute)

    def set_q(self, q: ArrayLike, notify: bool = True) -> None:
        """Move the sliders to ``q``; call back once, or not at all with ``notify=False``."""
        values = self.from_q(q, self.revolute)
        if values.shape != (len(self.sliders),):
            raise ValueError(f"q must have {len(self.sliders)} joint values, got shape {np.shape(q)}")
        self._hold = True
        try:
            for s, v in zip(self.sliders, values):
                s.value = float(np.clip(v, s.min, s.max))
        finally:
            self._hold = False
        if notify:
            self._notify()

    def observe(self, callback: Callable[[np.ndarray], Any]) -> None:
        """Call ``callback(q)`` once per change of the joint values."""
        self._callbacks.append(callback)

    def _changed(self, change):
        if not self._hold:
            self._notify()

    def _notify(self):
        q = self.q
        for cb in self._callbacks:
            cb(q)
