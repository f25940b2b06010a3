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
import re
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
from numpy.typing import ArrayLike

from .browser import STATIC, Widget

__all__ = ["JOINT_COLORS", "Plot", "time_plot", "svg_plot", "TimePlots"]

#: joint colours: Okabe–Ito's blue, vermillion and bluish green, Tol's purple, black and Tol's indigo, each at
#: least 3:1 against white and apart under deuteranopia, protanopia and tritanopia (tests/viz/test_accessibility.py)
JOINT_COLORS = ("#0072b2", "#d55e00", "#009e73", "#aa3377", "#000000", "#332288")
#: each series also has its own dash (colour is never the only difference): solid, dashed, dotted, dash-dot, …
SERIES_DASHES = ("", "dashed", "dotted", "dashdot", "longdash", "dashdotdot")
GAP = -32768  #: a left-out point (NaN) in :attr:`Plot.points`
_DASH = {
    "": "",
    "dashed": "5 3",
    "dotted": "1.5 2",
    "dashdot": "6 2 1.5 2",
    "longdash": "10 3",
    "dashdotdot": "6 2 1.5 2 1.5 2",
}
TEXT_COLOR, MARK_COLOR = "#222222", "#595959"  # 15:1 and 7:1 on white
TABLE_ROWS = 11  #: rows of a plot's data table (evenly spaced samples)


@dataclass(frozen=True, eq=False)
class Plot:
    """One plot laid out in CSS pixels. ``lines``: (x1, y1, x2, y2, colour, dash) with dash "", "dashed" or
    "dotted"; ``texts``: (x, y, text, anchor, colour, rotated) at the baseline, anchor "start", "middle" or
    "end", rotated a quarter turn anticlockwise about (x + 6, y) when ``rotated``; ``points`` (1 + m, P) int16:
    the samples' x then each series' y, in tenths of a pixel, :data:`GAP` for a left-out point; ``dashes`` the
    dash of each series, ``legend`` the line samples beside the series' names. ``alt`` is the plot's text
    alternative (what is plotted, ranges, last values) and ``table`` its data at a few evenly spaced samples,
    (header, rows of formatted numbers), shown on request."""

    width: int
    height: int
    box: tuple[int, int, int, int]  # left, top, width, height of the frame
    lines: tuple[tuple[float, float, float, float, str, str], ...]
    texts: tuple[tuple[float, float, str, str, str, bool], ...]
    colors: tuple[str, ...]  # of each series
    points: np.ndarray
    title: str = ""  # shown above the plot, bold
    note: str = ""  # after the title, plain
    dashes: tuple[str, ...] = ()
    legend: tuple[tuple[float, float, str, str], ...] = ()  # (x, y, colour, dash): a 16 px sample of a series
    alt: str = ""
    table: tuple[tuple[str, ...], tuple[tuple[str, ...], ...]] = ((), ())

    def spec(self) -> dict[str, Any]:
        """The plot without its points, for JSON."""
        keys = (
            "width",
            "height",
            "box",
            "lines",
            "texts",
            "colors",
            "dashes",
            "legend",
            "title",
            "note",
            "alt",
            "table",
        )
        return {k: getattr(self, k) for k in keys}

    def svg(self) -> str:
        """The plot as inline SVG (the title and note are not part of it)."""
        left, top, W, H = self.box
        parts = [
            f"<svg width='{self.width}' height='{self.height}' style='font:11px sans-serif;max-width:100%' "
            f"viewBox='0 0 {self.width} {self.height}' role='img' aria-label='{html.escape(self.alt, quote=True)}'>",
            f"<rect x='{left}' y='{top}' width='{W}' height='{H}' fill='white' stroke='#bbb'/>",
        ]
        for x1, y1, x2, y2, color, dash in self.lines:
            style = f" stroke-dasharray='{_DASH[dash]}'" if dash else ""
            parts.append(f"<line x1='{x1:.1f}' x2='{x2:.1f}' y1='{y1:.1f}' y2='{y2:.1f}' stroke='{color}'{style}/>")
        # points in tenths of a pixel, as integers (a third of the time floats take to print), drawn at scale 0.1
        for x, y, color, dash in self.legend:
            style = f" stroke-dasharray='{_DASH[dash]}'" if dash else ""
            parts.append(
                f"<line x1='{x:g}' x2='{x + 16:g}' y1='{y:g}' y2='{y:g}' stroke='{color}' stroke-width='1.5'{style}/>"
            )
        parts.append("<g transform='scale(0.1)'>")
        for k, (color, pts) in enumerate(zip(self.colors, _points(self.points))):
            dash = _DASH[self.dashes[k]] if k < len(self.dashes) else ""
            style = f" stroke-dasharray='{dash}'" if dash else ""
            parts.append(
                f"<polyline fill='none' stroke='{color}' stroke-width='1.5'{style} "
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
    dashes: Sequence[str] = SERIES_DASHES,
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
    most about ``max_points`` samples of each series are kept. Each series has a colour and a dash, and the
    legend shows both beside its name; the plot's ``alt`` and ``table`` say the same in words and numbers."""
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
        return (x, top, x, top + H, MARK_COLOR, "dotted")

    lines = ([across(0, "#cccccc", "")] if lo < 0 < hi else []) + [across(h, MARK_COLOR, "dashed") for h in hlines]
    lines += [down(v) for v in vlines]
    m = len(Y)
    colors = tuple(colors[k % len(colors)] for k in range(m))
    dashes = tuple(dashes[k % len(dashes)] for k in range(m))
    # the legend: a sample of each series' line (its colour and dash) before its name, in dark text
    names = list(labels or ())
    legend = tuple((left + 6 + 50 * k, top + 7.5, colors[k], dashes[k]) for k in range(len(names)))
    texts = [
        (left - 3, top + 9, f"{hi - pad:.3g}", "end", "", False),
        (left - 3, top + H, f"{lo + pad:.3g}", "end", "", False),
        (left, height - 6, f"{x[0]:g}", "start", "", False),
        (left + W, height - 6, f"{x[-1]:g}", "end", "", False),
        (left + W / 2, height - 6, xlabel, "middle", "", False),
        (4, top + H / 2, ylabel, "middle", "", True),
    ]
    texts += [(left + 6 + 50 * k + 19, top + 11, name, "start", TEXT_COLOR, False) for k, name in enumerate(names)]
    tenths = np.vstack([np.rint(10 * px(xs)), np.rint(10 * py(Ys))])
    points = np.where(np.isnan(tenths), GAP, np.clip(tenths, -32767, 32767)).astype(np.int16)
    return Plot(
        width=int(width),
        height=int(height),
        box=(left, top, W, H),
        lines=tuple(lines),
        texts=tuple(texts),
        colors=colors,
        points=points,
        title=title,
        note=note,
        dashes=dashes,
        legend=legend,
        alt=_summary(x, Y, names, title or ylabel, ylabel, xlabel, hlines),
        table=_table(x, Y, names, xlabel),
    )


def _summary(x, Y, names, title, ylabel, xlabel, hlines) -> str:
    """The plot in words: what against what over which range, each series' range and last value."""
    with np.errstate(all="ignore"):
        parts = [f"Plot of {title}" + (f" ({ylabel})" if ylabel and ylabel != title else "")]
        parts[0] += f" against {xlabel} from {x[0]:.4g} to {x[-1]:.4g}"
        for k, y in enumerate(Y):
            name = names[k] if k < len(names) else f"series {k + 1}"
            ok = np.round(y[np.isfinite(y)], 12) + 0.0  # no "−0" or "2e−16" read out
            if len(ok):
                parts.append(f"{name} from {ok.min():.3g} to {ok.max():.3g}, last {ok[-1]:.3g}")
    if len(hlines):
        parts.append("dashed lines at " + ", ".join(f"{h:.3g}" for h in hlines))
    return re.sub(r"-(?=\d)", "−", ". ".join(parts))


def _table(x, Y, names, xlabel) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """The data at :data:`TABLE_ROWS` evenly spaced samples, formatted: (header, rows)."""
    idx = np.unique(np.linspace(0, len(x) - 1, min(TABLE_ROWS, len(x))).round().astype(int))
    head = (xlabel, *(f"{names[k] if k < len(names) else f'series {k + 1}'}" for k in range(len(Y))))
    rows = tuple((f"{x[i]:.4g}", *(f"{Y[k, i]:.4g}" for k in range(len(Y)))) for i in idx)
    return head, rows


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
