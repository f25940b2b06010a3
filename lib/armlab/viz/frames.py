"""Chapter 01 view: the frame-composition playground (fixed frame vs current frame).

>>> play = frame_playground([("rot", "z", 90.0), ("trans", "x", 1.0)], frame="current")
>>> play.T[:3, 3].round(3)
array([0., 1., 0.])
"""

from __future__ import annotations

import html
from typing import Any, Sequence

import numpy as np
from numpy.typing import ArrayLike

from ..transforms import Rot, Trans, compose
from .scene import Triads, frame_content, figure3d, fit_points, spoken_number
from .text import MatrixDisplay
from .widgets import Panel, load_widgets, panel_layout, side_column, slider

__all__ = ["elementary_motion", "FramePlayground", "frame_playground"]

_AXES = ("x", "y", "z")


def elementary_motion(kind: str, axis: str, value: float, deg: bool = False) -> np.ndarray:
    """The 4×4 of one elementary motion: ``kind`` "rot" is Rot(axis, value) (radians, or degrees
    with ``deg=True``), "trans" a translation by ``value`` along ``axis``."""
    if axis not in _AXES:
        raise ValueError(f"axis must be 'x', 'y' or 'z', got {axis!r}")
    if kind == "rot":
        return Rot(axis, value, deg=deg)
    if kind != "trans":
        raise ValueError(f"kind must be 'rot' or 'trans', got {kind!r}")
    p = [0.0, 0.0, 0.0]
    p[_AXES.index(axis)] = value
    return Trans(*p)


def _motion_name(kind, axis, value):
    return f"Rot({axis}, {value:g}°)" if kind == "rot" else f"Trans({axis}, {value:g})"


class FramePlayground(Panel):
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

    def __init__(
        self,
        steps: Sequence[tuple[str, str, float]] = (("rot", "z", 45.0), ("rot", "x", 60.0), ("rot", "y", 30.0)),
        frame: str = "fixed",
        point: ArrayLike | None = None,
        trans_range: tuple[float, float] = (-5.0, 5.0),
        extent: float | None = None,
        decimals: int = 3,
        figsize: tuple[float, float] = (4.6, 4.4),
    ) -> None:
        w = load_widgets()
        if frame not in ("fixed", "current"):
            raise ValueError(f"frame must be 'fixed' or 'current', got {frame!r}")
        self.steps = [(kind, axis) for kind, axis, _ in steps]
        for kind, axis in self.steps:
            if kind not in ("rot", "trans") or axis not in _AXES:
                raise ValueError(f"each step must be ('rot'|'trans', 'x'|'y'|'z', value), got {(kind, axis)!r}")
        self.sliders = []
        for k, (kind, axis, value) in enumerate(steps, start=1):
            if kind == "rot":
                s = slider(value, -180, 180, 1.0, f"{k}: Rot {axis} (°)", ".1f", "95px")
            else:
                lo, hi = trans_range
                s = slider(value, lo, hi, (hi - lo) / 200, f"{k}: Trans {axis}", ".2f", "95px")
            self.sliders.append(s)
        self.frame_toggle = w.ToggleButtons(
            options=[("about the fixed frame", "fixed"), ("about the current frame", "current")],
            value=frame,
            style={"button_width": "auto"},  # each as wide as its text
        )
        self.point = None if point is None else np.append(np.asarray(point, dtype=float), 1.0)
        self.fig, (ax,) = figure3d(1, figsize)
        self.ax = ax
        self.redraws = 0
        Ps = self.partial_products()  # the start pose sets the view: every frame and the point in sight
        far = max([1.0] + list(np.linalg.norm(Ps[:, :3, 3], axis=1)))
        L = 0.8 if far < 1.5 else 0.3 * far
        content = frame_content(np.vstack([np.eye(4)[None], Ps]), L)
        if self.point is not None:
            content = np.vstack([content, (Ps[-1] @ self.point)[:3]])
        if extent is not None:
            content = np.vstack([content, [(-extent, -extent, -extent), (extent, extent, extent)]])
        self.extent = fit_points(ax, content)
        self.fixed = Triads(
            ax, np.eye(4)[None], length=1.2 * L, linewidth=1.5, alpha=0.45, labels=["A"], axis_labels="xyz"
        )
        self.partial = Triads(
            ax, count=len(steps), length=L, linewidth=1.2, alpha=0.35, labels=[str(k) for k in range(1, len(steps) + 1)]
        )
        self.final = Triads(ax, length=L, linewidth=3.0, labels=["B"], axis_labels="xyz")
        (self.path,) = ax.plot([], [], [], color="0.5", ls=":", lw=1)
        (self.point_artist,) = ax.plot([], [], [], ls="", marker="o", color="k", ms=5)
        self.matrix = MatrixDisplay(np.eye(4), decimals=decimals)
        self.matrix_widget = self.matrix.widget
        self.formula_widget = w.HTML()
        self.point_widget = w.HTML()
        for s in self.sliders:
            s.observe(self._changed, names="value")
        self.frame_toggle.observe(self._changed, names="value")
        self._update()
        side = side_column(
            [self.frame_toggle, *self.sliders, self.formula_widget, self.matrix_widget, self.point_widget]
        )
        self.widget = panel_layout(side, self._figure_widget())

    @property
    def frame(self) -> str:
        """ "fixed" or "current": the toggle's value."""
        return self.frame_toggle.value

    @property
    def matrices(self) -> list[np.ndarray]:
        """The 4×4 of each motion, in the order applied."""
        return [elementary_motion(kind, axis, s.value, deg=True) for (kind, axis), s in zip(self.steps, self.sliders)]

    @property
    def T(self) -> np.ndarray:
        """Composite transform ^A_B T = compose(M₁, …, Mₖ, frame=toggle)."""
        return compose(*self.matrices, frame=self.frame)

    def partial_products(self) -> np.ndarray:
        """(k, 4, 4): the frame after motions 1..j, for j = 1..k."""
        out, T = [], np.eye(4)
        for M in self.matrices:
            T = M @ T if self.frame == "fixed" else T @ M
            out.append(T)
        return np.array(out)

    def formula(self) -> str:
        """The product as text, in the order it multiplies (e.g. "T = Rot(y, 30°) · Rot(x, 60°)")."""
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
        rows = "; ".join(", ".join(spoken_number(v, 3) for v in row) for row in T[:3])
        self.announce(f"{self.formula()}; its rows: {rows}")
        if self.point is not None:
            AP = T @ self.point
            self.point_artist.set_data_3d([AP[0]], [AP[1]], [AP[2]])
            self.point_widget.value = (
                f"<code>P in {{B}} = {np.round(self.point[:3], 3).tolist()}<br>"
                f"P in {{A}} = T·P = {np.round(AP[:3], 3).tolist()}</code>"
            )

    def set(self, values: Sequence[float] | None = None, frame: str | None = None) -> np.ndarray:
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


def frame_playground(
    steps: Sequence[tuple[str, str, float]] = (("rot", "z", 45.0), ("rot", "x", 60.0), ("rot", "y", 30.0)),
    **kwargs: Any,
) -> FramePlayground:
    """Frame-composition playground (see :class:`FramePlayground`)."""
    return FramePlayground(steps, **kwargs)
