"""What the chapter-05 widgets share: the palette, torque bars coloured by load, and the panel base.

:func:`torque_bars` draws |τ_i| against each joint's limit, coloured by :func:`load_color`.
:class:`JointsPanel` is a :class:`~armlab.viz.widgets.Panel` driven by joint sliders and a few value
controls; :class:`Holding` lets several controls be set from code with one update.
"""

from __future__ import annotations

import html
from contextlib import contextmanager
from typing import Any, Sequence

import numpy as np
from numpy.typing import ArrayLike

from ..widgets import Panel, panel_layout

__all__ = ["load_color", "torque_bars", "Holding", "JointsPanel"]

# clear of the triads' red, green, blue, and at least 3:1 on white
FORCE_COLOR, MOMENT_COLOR, ELLIPSE_COLOR = "#c44e00", "#9467bd", "#00838f"
NULL_COLOR, RANGE_COLOR, REST_COLOR = "#d62728", "#2ca02c", "#7f7f7f"  # Fig. 5.6: F₁, τ₁, τ₂
# fraction of the limit: green, ochre, orange, red, each 3:1 or more on white
LEVELS = ((0.7, "#2e7d32"), (0.9, "#8a6d00"), (1.0, "#c44e00"), (np.inf, "#c62828"))


def load_color(fraction: float) -> str:
    """Green below 70 % of the limit, amber to 90 %, orange to 100 %, red beyond."""
    return next(color for level, color in LEVELS if fraction < level)


def torque_bars(tau: ArrayLike, limits: ArrayLike, labels: Sequence[str] | None = None, unit: str = "N·m") -> str:
    """HTML bars, one per joint: |τ_i| against ``limits``[i] (full width = the limit), coloured by
    :func:`load_color`; the signed value and the percentage beside each."""
    rows = []
    for i, (t, lim) in enumerate(zip(np.asarray(tau, float), np.asarray(limits, float))):
        frac = abs(t) / lim
        name = labels[i] if labels else f"τ{i + 1}"
        rows.append(
            "<tr><td style='padding:0 4px'>" + html.escape(name) + "</td>"
            "<td style='width:150px;padding:0'><div style='background:#eee;height:12px;position:relative'>"
            f"<div style='background:{load_color(frac)};width:{min(frac, 1.0) * 100:.1f}%;height:12px'></div>"
            "</div></td>"
            "<td style='padding:0 4px;text-align:right;white-space:nowrap'>"
            f"{t:+.3f} {unit} ({frac * 100:.0f} %)</td></tr>"
        )
    return "<table style='font-size:90%;border-collapse:collapse'>" + "".join(rows) + "</table>"


class Holding:
    """Several controls set from code, one update: ``with self._holding(): ...``."""

    _hold = False

    @contextmanager
    def _holding(self):
        self._hold = True
        try:
            yield
        finally:
            self._hold = False


class JointsPanel(Panel, Holding):
    """A statics panel driven by joint sliders (``self.joints``) and a few value controls."""

    joints: Any
    view: Any
    tau: np.ndarray

    def _update(self, draw: bool = True) -> None:
        """Show the panel at the sliders' pose; nothing while controls are set from code."""
        q = self._pose()
        if q is not None:
            self._show(q, draw)

    def _show(self, q: np.ndarray, draw: bool = True) -> None:
        raise NotImplementedError

    def _wire(self, side: Any, controls: Sequence[Any]) -> None:
        """Every control updates the panel; the first update; the panel's layout."""
        self.joints.observe(lambda _: self._update())
        for control in controls:
            control.observe(lambda _: self._update(), names="value")
        self._update(draw=False)
        self.widget = panel_layout(side, self._figure_widget())

    def _pose(self) -> np.ndarray | None:
        """The joint angles, with the arm drawn at them; None while controls are set from code."""
        if self._hold:
            return None
        q = self.joints.q
        self.view.update(q)
        return q

    @property
    def q(self) -> np.ndarray:
        """The joint angles (rad)."""
        return self.joints.q

    def _set(self, q: ArrayLike | None, values: dict[Any, float | None]) -> np.ndarray:
        """Set the joint angles and the controls given (not None) together, then update once."""
        with self._holding():
            if q is not None:
                self.joints.set_q(q)
            for control, value in values.items():
                if value is not None:
                    control.value = float(value)
        self._update()
        return self.tau
