"""Chapter 02 views: joint sliders driving a DH arm, and the four motions of one DH link.

* :class:`ArmViewer` (:func:`arm_viewer`, :func:`compare_viewer`) — joint sliders → live arm(s) and T;
* :class:`LinkMotionAnimator` (:func:`link_motion_animator`) — frame {i−1} to frame {i} step by step.

>>> from armlab import models
>>> panel = arm_viewer(models.youbot(), [0, 0, 0, np.pi / 2, 0])
>>> print(panel.matrix.text.splitlines()[2])
[ 0.000  0.000  1.000  0.655]
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from ..kinematics import link_transform_modified, link_transform_standard
from .frames import elementary_motion
from .scene import ArmView, Triads, frame_content, figure3d, fit_points, spoken_number, spoken_vector
from .text import MatrixDisplay
from .widgets import (
    JointSliders,
    Panel,
    SliderSpec,
    SliderTable,
    load_widgets,
    panel_layout,
    player,
    side_column,
    slider,
)

if TYPE_CHECKING:
    from ..robot import DHRobot

__all__ = ["ArmViewer", "arm_viewer", "compare_viewer", "LinkMotionAnimator", "link_motion_animator"]


class ArmViewer(Panel):
    """Joint sliders → live 3-D arm(s) and the end-effector T.

    ``robots`` is one robot or several that share joint variables (e.g. one arm
    in two DH conventions): every view follows the same sliders. Drive it from
    code with :meth:`set_q` or by setting ``.sliders[i].value`` (degrees/metres).
    ``.T`` is the T displayed in ``.matrix_widget`` (of the first robot).
    """

    def __init__(
        self,
        robots: DHRobot | Sequence[DHRobot],
        q: ArrayLike | None = None,
        titles: Sequence[str] | None = None,
        decimals: int = 3,
        labels: bool = True,
        figsize: tuple[float, float] | None = None,
        show_axes: bool = False,
        floor_z: float = 0.0,
    ) -> None:
        w = load_widgets()
        self.robots: list[DHRobot] = list(robots) if isinstance(robots, Sequence) else [robots]
        n = {r.n for r in self.robots}
        if len(n) != 1:
            raise ValueError("robots shown together must have the same number of joints")
        robot = self.robots[0]
        if q is None:
            q = np.clip(np.zeros(robot.n), robot.qlim[:, 0], robot.qlim[:, 1])
        titles = titles or ([r.name for r in self.robots] if len(self.robots) > 1 else None)
        figsize = figsize or ((4.2 * len(self.robots), 4.0) if len(self.robots) > 1 else (4.6, 4.4))
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
        self.notes: list[str] = []
        self._note()
        self.joints.observe(self._update)
        side = side_column([self.joints.box, self.matrix_widget, self.note])
        self.widget = panel_layout(side, self._figure_widget())

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
        self.notes = notes
        self.note.value = "<small>" + "<br>".join(html.escape(n) for n in notes) + "</small>"

    def news(self) -> str:
        """The tool's new position, and the notes (a joint outside its range, the views' difference)."""
        p = spoken_vector(self.view.T[:3, 3], 3)
        return "; ".join([f"{self.view.name or 'robot'}: tool at {p} m", *self.notes])

    @property
    def T(self) -> np.ndarray:
        """The end-effector T shown (of the first robot)."""
        return self.view.T

    @property
    def q(self) -> np.ndarray:
        """The joint values (rad/m)."""
        return self.joints.q

    def set_q(self, q: ArrayLike) -> np.ndarray:
        """Move the sliders to ``q`` (one update); returns the end-effector T."""
        self.joints.set_q(q)
        return self.T


def arm_viewer(robot: DHRobot, q: ArrayLike | None = None, **kwargs: Any) -> ArmViewer:
    """Arm viewer for one robot: one slider per joint, live 3-D arm, live T (see :class:`ArmViewer`)."""
    return ArmViewer(robot, q=q, **kwargs)


def compare_viewer(
    robots: Sequence[DHRobot], q: ArrayLike | None = None, titles: Sequence[str] | None = None, **kwargs: Any
) -> ArmViewer:
    """Several robots with the same joints side by side, driven by one slider panel."""
    return ArmViewer(list(robots), q=q, titles=titles, **kwargs)


class LinkMotionAnimator(Panel):
    """The four elementary motions that take frame {i−1} to frame {i}, step by step.

    Modified DH (textbook eq. (3.22)): Rot(x, α_{i−1}), Trans(x, a_{i−1}),
    Rot(z, θ_i), Trans(z, d_i), each about the current frame (right-multiplied).
    Standard DH (lab report eq. (2.1)): Rot(z, θ_i), Trans(z, d_i), Trans(x, a_i),
    Rot(x, α_i). ``.step_slider`` runs from 0 to 4; a fractional step shows that
    motion part-way, and ``.play`` animates it. At step 4, ``.T`` equals the
    link transform (3.23) / (2.4).

    The start values are keyword options (:meth:`slider_table`): ``alpha`` (°, −180…180, default 30), ``a``
    (m, 0…0.5, 0.3), ``theta`` (°, −180…180, 45) and ``d`` (m, −0.5…0.5, 0.2); an unknown or
    out-of-range one is an error naming it.
    """

    STEPS_PER_MOTION = 20

    @staticmethod
    def slider_table(convention: str) -> SliderTable:
        """The link-parameter sliders (labels with the convention's subscripts)."""
        sub = "ᵢ₋₁" if convention == "modified" else "ᵢ"
        return SliderTable(
            SliderSpec("alpha", -180.0, 180.0, 1.0, 30.0, f"α{sub} (°)", ".1f"),
            SliderSpec("a", 0.0, 0.5, 0.01, 0.3, f"a{sub} (m)", ".3f"),
            SliderSpec("theta", -180.0, 180.0, 1.0, 45.0, "θᵢ (°)", ".1f"),
            SliderSpec("d", -0.5, 0.5, 0.01, 0.2, "dᵢ (m)", ".3f"),
        )

    def __init__(
        self,
        convention: str = "modified",
        figsize: tuple[float, float] = (4.6, 4.4),
        decimals: int = 3,
        **start: float,
    ) -> None:
        w = load_widgets()
        if convention not in ("modified", "standard"):
            raise ValueError(f"convention must be 'standard' or 'modified', got {convention!r}")
        self.convention = convention
        table = self.slider_table(convention)
        self.param_sliders = table.build(table.starts(start, type(self).__name__))
        self.step_slider = slider(0.0, 0.0, 4.0, 1 / self.STEPS_PER_MOTION, "step", ".2f")
        self.play = player(0, 4 * self.STEPS_PER_MOTION, 1, 40, "the four motions")
        self.fig, (ax,) = figure3d(1, figsize)
        self.ax = ax
        self.L = L = 0.18
        self.start = Triads(ax, np.eye(4)[None], length=L, linewidth=1.5, alpha=0.4, labels=["i-1"], axis_labels="xyz")
        self.ghosts = Triads(ax, count=4, length=L, linewidth=1.0, alpha=0.25)
        self.moving = Triads(ax, length=L, linewidth=3.0, labels=["i"], axis_labels="xyz")
        (self.path,) = ax.plot([], [], [], color="0.4", ls="--", lw=1)
        self.redraws = 0
        # the caption and matrix have a fixed size: the figure beside them must not move while it plays
        self.caption = w.HTML(layout=w.Layout(height="64px", width="100%", overflow="hidden"))
        self.matrix = MatrixDisplay(np.eye(4), decimals=decimals)
        self.matrix_widget = self.matrix.widget
        for s in [*self.param_sliders.values(), self.step_slider]:
            s.observe(self._changed, names="value")
        self.play.observe(self._follow(self.play, self._played), names="value")
        self._update()
        self._fit()
        side = side_column(
            [*self.param_sliders.values(), w.HBox([self.play]), self.step_slider, self.caption, self.matrix_widget]
        )
        self.widget = panel_layout(side, self._figure_widget())

    def _fit(self):
        """Limits that hold every frame of the four motions of the starting parameters, and some room."""
        full = np.array([self.transform_at(k) for k in range(5)])
        room = 0.25 * np.array([[1, 1, 1], [-1, -1, -1]])
        fit_points(self.ax, np.vstack([frame_content(full, self.L), room]), margin=0.05)

    def _parameters(self):
        """(α, a, θ, d) of the sliders, angles in radians."""
        p = {k: s.value for k, s in self.param_sliders.items()}
        return math.radians(p["alpha"]), p["a"], math.radians(p["theta"]), p["d"]

    def motions(self) -> list[tuple[str, str, str, float]]:
        """[(name, kind, axis, value)] of the four motions, in the order applied (value in rad / m)."""
        al, a, th, d = self._parameters()
        sub = "ᵢ₋₁" if self.convention == "modified" else "ᵢ"
        m = {
            "alpha": (f"Rot(x, α{sub})", "rot", "x", al),
            "a": (f"Trans(x, a{sub})", "trans", "x", a),
            "theta": ("Rot(z, θᵢ)", "rot", "z", th),
            "d": ("Trans(z, dᵢ)", "trans", "z", d),
        }
        order = ("alpha", "a", "theta", "d") if self.convention == "modified" else ("theta", "d", "a", "alpha")
        return [m[k] for k in order]

    def transform_at(self, step: float) -> np.ndarray:
        """Frame after ``step`` ∈ [0, 4] motions (fractional: the current motion part-way)."""
        step = float(np.clip(step, 0.0, 4.0))
        T = np.eye(4)
        for k, (_, kind, axis, value) in enumerate(self.motions()):
            frac = min(max(step - k, 0.0), 1.0)
            if frac == 0.0:
                break
            T = T @ elementary_motion(kind, axis, frac * value)  # about the current frame: right-multiply
        return T

    def link_transform(self) -> np.ndarray:
        """The link transform of the current parameters, from eq. (3.23) or (2.4)."""
        al, a, th, d = self._parameters()
        if self.convention == "modified":
            return link_transform_modified(al, a, th, d)
        return link_transform_standard(th, d, a, al)

    @property
    def T(self) -> np.ndarray:
        """The frame after the current step."""
        return self._T

    def set_step(self, step: float) -> np.ndarray:
        """Move to ``step`` ∈ [0, 4]; returns the frame there."""
        self.step_slider.value = float(step)
        return self.T

    def _played(self, frame):
        self.step_slider.value = frame / self.STEPS_PER_MOTION

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
        self.caption.value = f"<code>step {step:.2f} / 4:<br>T = {html.escape(done_names)}</code>" + (
            "<br><b>= link transform</b>" if step >= 4 else ""
        )
        self.matrix.update(T, title=f"T after step {step:.2f}")
        self._T = T
        self._done = done_names

    def news(self) -> str:
        """The step, the motions done, where the moving frame's origin is now and where the link transform
        puts it."""
        step = self.step_slider.value
        end = "" if step >= 4 else f"; after all four at {spoken_vector(self.link_transform()[:3, 3], 3)} m"
        return (
            f"step {spoken_number(step, 2)} of 4: T = {self._done}; "
            f"frame i's origin at {spoken_vector(self._T[:3, 3], 3)} m{end}"
        )


def link_motion_animator(convention: str = "modified", **kwargs: Any) -> LinkMotionAnimator:
    """Four-motions animator of one DH link (see :class:`LinkMotionAnimator`: the options ``alpha``, ``a``,
    ``theta``, ``d`` start its sliders); angles in degrees."""
    return LinkMotionAnimator(convention, **kwargs)
