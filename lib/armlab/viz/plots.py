"""Small time plots (tracking errors, torques, an excitation): laid out here, drawn by the browser.

:func:`time_plot` lays one plot out in pixels: its frame, the dashed and dotted marks, the texts, and each
series as whole tenths of a pixel (int16). A :class:`TimePlots` widget draws a caption and a column of such
plots on canvases (``static/plots.js``); the points travel as one binary buffer, not as text to parse, which
keeps a slider's update small. :meth:`Plot.svg` writes the same layout as inline SVG (:func:`svg_plot`), for
HTML that must stand alone.

Nothing here imports ipywidgets or anywidget until a widget is built.
"""

from __future__ import annotations

import functools
import html
import json
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
from numpy.typing import ArrayLike

from .browser import STATIC, Widget

__all__ = ["JOINT_COLORS", "Plot", "time_plot", "svg_plot", "TimePlots"]

JOINT_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
GAP = -32768  #: a left-out point (NaN) in :attr:`Plot.points`
_DASH = {"": "", "dashed": "4 3", "dotted": "1 2"}


@dataclass(frozen=True, eq=False)
class Plot:
    """One plot laid out in CSS pixels. ``lines``: (x1, y1, x2, y2, colour, dash) with dash "", "dashed" or
    "dotted"; ``texts``: (x, y, text, anchor, colour, rotated) at the baseline, anchor "start", "middle" or
    "end", rotated a quarter turn anticlockwise about (x + 6, y) when ``rotated``; ``points`` (1 + m, P) int16:
    the samples' x then each series' y, in tenths of a pixel, :data:`GAP` for a left-out point."""

    width: int
    height: int
    box: tuple[int, int, int, int]  # left, top, width, height of the frame
    lines: tuple[tuple[float, float, float, float, str, str], ...]
    texts: tuple[tuple[float, float, str, str, str, bool], ...]
    colors: tuple[str, ...]  # of each series
    points: np.ndarray
    title: str = ""  # shown above the plot, bold
    note: str = ""  # after the title, plain

    def spec(self) -> dict[str, Any]:
        """The plot without its points, for JSON."""
        keys = ("width", "height", "box", "lines", "texts", "colors", "title", "note")
        return {k: getattr(self, k) for k in keys}

    def svg(self) -> str:
        """The plot as inline SVG (the title and note are not part of it)."""
        left, top, W, H = self.box
        parts = [
            f"<svg width='{self.width}' height='{self.height}' style='font:10px sans-serif'>",
            f"<rect x='{left}' y='{top}' width='{W}' height='{H}' fill='white' stroke='#bbb'/>",
        ]
        for x1, y1, x2, y2, color, dash in self.lines:
            style = f" stroke-dasharray='{_DASH[dash]}'" if dash else ""
            parts.append(f"<line x1='{x1:.1f}' x2='{x2:.1f}' y1='{y1:.1f}' y2='{y2:.1f}' stroke='{color}'{style}/>")
        # points in tenths of a pixel, as integers (a third of the time floats take to print), drawn at scale 0.1
        parts.append("<g transform='scale(0.1)'>")
        for color, pts in zip(self.colors, _points(self.points)):
            parts.append(
                f"<polyline fill='none' stroke='{color}' stroke-width='1' "
                f"vector-effect='non-scaling-stroke' points='{pts}'/>"
            )
        parts.append("</g>")
        for x, y, text, anchor, color, rotated in self.texts:
            extra = f" transform='rotate(-90 {x + 6:g} {y:g})'" if rotated else ""
            fill = f" fill='{color}'" if color else ""
            parts.append(f"<text x='{x:g}' y='{y:g}'{extra} text-anchor='{anchor}'{fill}>{html.escape(text)}</text>")
        parts.append("</svg>")
        return "".join(parts)


def time_plot(
    x: ArrayLike,
    series: ArrayLike,
    *,
    labels: Sequence[str] | None = None,
    colors: Sequence[str] = JOINT_COLORS,
    ylabel: str = "",
    xlabel: str = "time step",
    width: int = 380,
    height: int = 150,
    hlines: Sequence[float] = (),
    vlines: Sequence[float] = (),
    max_points: int = 300,
    title: str = "",
    note: str = "",
) -> Plot:
    """A line plot of ``series`` (m, N) against ``x`` (N,), laid out in pixels, with dashed horizontal lines at
    ``hlines`` (e.g. ± effort limits) and dotted vertical ones at ``vlines`` (e.g. the pick and the place); at
    most about ``max_points`` samples of each series are kept."""
    x = np.asarray(x, dtype=float)
    Y = np.atleast_2d(np.asarray(series, dtype=float))
    step = max(1, len(x) // max_points)
    xs, Ys = x[::step], Y[:, ::step]
    lo, hi = min([float(np.nanmin(Ys)), *hlines]), max([float(np.nanmax(Ys)), *hlines])
    if hi - lo < 1e-12:
        lo, hi = lo - 1.0, hi + 1.0
    pad = 0.06 * (hi - lo)
    lo, hi = lo - pad, hi + pad
    left, right, top, bottom = 46, 8, 8, 24
    W, H = width - left - right, height - top - bottom

    def px(v):
        return left + W * (np.asarray(v, dtype=float) - x[0]) / max(x[-1] - x[0], 1e-12)

    def py(v):
        return top + H * (hi - np.asarray(v, dtype=float)) / (hi - lo)

    def across(y, color, dash):
        y = round(float(py(y)), 1)
        return (left, y, left + W, y, color, dash)

    def down(x):
        x = round(float(px(x)), 1)
        return (x, top, x, top + H, "#999", "dotted")

    lines = ([across(0, "#ddd", "")] if lo < 0 < hi else []) + [across(h, "#999", "dashed") for h in hlines]
    lines += [down(v) for v in vlines]
    texts = [
        (left - 3, top + 9, f"{hi - pad:.3g}", "end", "", False),
        (left - 3, top + H, f"{lo + pad:.3g}", "end", "", False),
        (left, height - 6, f"{x[0]:g}", "start", "", False),
        (left + W, height - 6, f"{x[-1]:g}", "end", "", False),
        (left + W / 2, height - 6, xlabel, "middle", "", False),
        (4, top + H / 2, ylabel, "middle", "", True),
    ]
    texts += [
        (left + 6 + 42 * k, top + 11, name, "start", colors[k % len(colors)], False)
        for k, name in enumerate(labels or ())
    ]
    tenths = np.vstack([np.rint(10 * px(xs)), np.rint(10 * py(Ys))])
    points = np.where(np.isnan(tenths), GAP, np.clip(tenths, -32767, 32767)).astype(np.int16)
    return Plot(
        width=int(width),
        height=int(height),
        box=(left, top, W, H),
        lines=tuple(lines),
        texts=tuple(texts),
        colors=tuple(colors[k % len(colors)] for k in range(len(Y))),
        points=points,
        title=title,
        note=note,
    )


def svg_plot(x: ArrayLike, series: ArrayLike, **options: Any) -> str:
    """:func:`time_plot` (same arguments) as inline SVG: a few kB, drawn by the browser."""
    return time_plot(x, series, **options).svg()


def _points(points: np.ndarray) -> list[str]:
    """The polylines' ``points``, "x0 y0 x1 y1 …", one per series: a gap's point left out. Numbers from 0 to
    9999 (tenths of a pixel of a plot under 1000 px) are written all at once, four digits each (SVG reads
    leading zeros); others one by one."""
    X, Y = points[0], points[1:]
    xy = np.empty(Y.shape + (2,), dtype=np.int64)
    xy[..., 0], xy[..., 1] = X, Y
    if not (xy.min() < 0 or xy.max() > 9999):
        digits = (xy[..., None] // np.array([1000, 100, 10, 1])) % 10 + ord("0")
        text = np.full(xy.shape + (5,), ord(" "), np.uint8)
        text[..., :4] = digits
        return [row.tobytes().decode("ascii") for row in text.reshape(len(Y), -1)]
    return [" ".join(map(str, row[row[:, 1] != GAP].ravel().tolist())) for row in xy]


@functools.cache
def _widget_class() -> type:
    import anywidget
    import traitlets as t

    class PlotColumn(anywidget.AnyWidget):
        """A caption (HTML) above a column of :class:`Plot` s drawn on canvases: ``plots`` their JSON specs,
        ``points`` their points, one int16 buffer."""

        _esm = (STATIC / "plots.js").read_text(encoding="utf-8")
        _css = (STATIC / "armlab.css").read_text(encoding="utf-8")
        caption = t.Unicode("").tag(sync=True)
        plots = t.Unicode("[]").tag(sync=True)
        points = t.Bytes(b"").tag(sync=True)

    return PlotColumn


class TimePlots:
    """A caption and a column of plots in one widget (``.widget``): :meth:`show` sends them as one message."""

    def __init__(self, width: int = 380) -> None:
        self.widget: Widget = _widget_class()()
        self.widget.layout.max_width = f"{int(width) + 10}px"
        self.shown: tuple[Plot, ...] = ()  #: the plots shown

    def show(self, caption: str, plots: Sequence[Plot]) -> None:
        """Show ``caption`` (HTML) above ``plots``."""
        specs = [dict(p.spec(), count=int(p.points.shape[1])) for p in plots]
        data = b"".join(np.ascontiguousarray(p.points, dtype="<i2").tobytes() for p in plots)
        with self.widget.hold_sync():
            self.widget.caption = caption
            self.widget.plots = json.dumps(specs, separators=(",", ":"), ensure_ascii=False)
            self.widget.points = data
        self.shown = tuple(plots)

    @property
    def caption(self) -> str:
        """The caption shown (HTML)."""
        return self.widget.caption  # type: ignore[no-any-return]
