"""armlab.viz.plots: a time plot laid out in pixels, its SVG form, and the widget that draws it on canvases
(the browser side is tests/integration/test_browser.py)."""

import json
import re

import numpy as np
import pytest

from armlab.viz.plots import GAP, time_plot, svg_plot


def test_svg_plot_scales_series_and_marks():
    svg = svg_plot(np.arange(5), [[0, 1, 2, 3, 4], [4, 3, 2, 1, 0]], labels=["a", "b"], hlines=(5.0,), vlines=(2,))
    assert svg.startswith("<svg") and svg.count("<polyline") == 2
    assert "stroke-dasharray='1.5 2'" in svg and "stroke-dasharray='5 3'" in svg and ">a</text>" in svg


@pytest.mark.parametrize("width", [380, 2000])  # numbers under 10 000 are written all at once, others one by one
@pytest.mark.parametrize("gap", [False, True])
def test_svg_plot_points_are_the_samples_in_tenths_of_a_pixel(width, gap):
    """Each polyline point is a sample's (x, y) in tenths of a pixel (the group is drawn at scale 0.1): x across
    the plot area (46 px to width − 8), y down from its top (8 px) over the range padded by 6 %; a NaN is left
    out."""
    y = np.array([[0.0, 1.0, 2.0, 3.0, 4.0], [4.0, np.nan if gap else 3.0, 2.0, 1.0, 0.0]])
    svg = svg_plot(np.arange(5), y, width=width)
    points = [[int(v) for v in p.split()] for p in re.findall(r"points='([^']*)'", svg)]
    lo, hi, W, H = -0.24, 4.24, width - 54, 150 - 32
    for row, got in zip(y, points):
        keep = ~np.isnan(row)
        x = np.rint(10 * (46 + W * np.arange(5)[keep] / 4))
        v = np.rint(10 * (8 + H * (hi - row[keep]) / (hi - lo)))
        assert got == np.column_stack([x, v]).ravel().astype(int).tolist()
    assert len(points[1]) == (8 if gap else 10)


def test_time_plot_keeps_about_max_points_and_marks_a_nan_as_a_gap():
    y = np.sin(np.linspace(0, 6, 1001))
    y[500] = np.nan
    p = time_plot(np.arange(1001), [y, -y], max_points=300)
    assert p.points.shape == (3, 334) and p.points.dtype == np.int16  # every 3rd sample, x then each series
    assert not (p.points == GAP).any()  # sample 500 is not one of them
    q = time_plot(np.arange(1001), [y, -y], max_points=2000)
    assert q.points.shape == (3, 1001) and (q.points[1:, 500] == GAP).all() and (q.points[1:] == GAP).sum() == 2


def test_the_widget_sends_the_caption_the_specs_and_the_points_as_one_int16_buffer():
    pytest.importorskip("anywidget")
    from armlab.viz.plots import TimePlots

    a = time_plot(np.arange(10), [np.arange(10.0)], title="first", note="a note")
    b = time_plot(np.arange(5), np.ones((2, 5)), hlines=(2.0,))
    view = TimePlots(width=380)
    view.show("<b>caption</b>", [a, b])
    w = view.widget
    specs = json.loads(w.plots)
    assert w.caption == "<b>caption</b>" and [s["title"] for s in specs] == ["first", ""]
    assert [s["count"] for s in specs] == [10, 5] and specs[0]["note"] == "a note"
    data = np.frombuffer(w.points, dtype="<i2")
    np.testing.assert_array_equal(data, np.concatenate([a.points.ravel(), b.points.ravel()]))
    assert w.layout.max_width == "390px"
