"""Widget plumbing shared by every panel: the lazy ipywidgets import, :class:`Panel`, :class:`JointSliders`.

ipywidgets is imported by :func:`load_widgets` when a widget is built, never at import time, so the
matplotlib-only views (:mod:`armlab.viz.scene`) work without it.
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["load_widgets", "in_ipython", "Panel", "JointSliders"]


def load_widgets():
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


class Panel:
    """Base class of the interactive panels: a figure placed in a widget layout, redrawn with draw_idle.

    A subclass sets ``.fig``, ``.redraws = 0`` and ``.widget``, puts ``self._figure_widget()`` in its
    layout and calls :meth:`redraw` after moving its artists. A panel shows itself as its widget.
    """

    fig = None
    widget = None

    def _figure_widget(self):
        """The widget that shows ``.fig``: the ipympl canvas, or a static image under another backend."""
        w = load_widgets()
        canvas = self.fig.canvas
        self._static = None
        if isinstance(canvas, w.DOMWidget):  # ipympl: the canvas itself is the widget
            return canvas
        if not in_ipython():  # plain Python (tests, benchmarks): nothing to show
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


def _on_grid(x, step, rounding):
    """x rounded to a multiple of step (rounding = math.ceil or math.floor), without float dust."""
    return round(rounding(x / step - math.copysign(1e-9, 0.5 - (rounding is math.floor))) * step, 10)


class JointSliders:
    """One ``FloatSlider`` per joint: degrees for revolute joints, metres for prismatic.

    The sliders show what a person reads; :attr:`q` converts explicitly to the
    radians/metres that armlab computes with (``np.radians`` per revolute joint).
    ``observe(callback)`` calls ``callback(q)`` once per change; :meth:`set_q`
    moves several sliders and still calls back only once.
    """

    def __init__(self, robot, q=None, step_deg=0.5, step_m=0.005, names=None):
        w = load_widgets()
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
