"""Chapter 03 views, part 1: every inverse-kinematics solution of a pose drawn at once.

* :class:`GhostArm` — an :class:`~armlab.viz.ArmView` drawn as a faint line;
* :class:`SolutionArms` — one ghost per solution slot on one axes; ``update(sols)`` moves them in
  place: solutions inside the joint limits in colour, the others grey and dashed, unused slots
  hidden; a short stub along the PUMA's joint-5 axis tells the two wrists (``noflip``/``flip``)
  apart, whose links coincide;
* :class:`WristInset` — a close-up of the wrist centre, where all solutions meet: there the two wrists of
  each arm (``noflip``/``flip``, joint 5's axis one way or the other) are told apart;
* :func:`solutions_table` — the solutions as an HTML table;
* :func:`show_solutions` — a figure of one :class:`~armlab.ik.IKSolutions`.

The pose explorer built from these is :mod:`armlab.viz.pose_explorer`.

>>> from armlab import models
>>> robot = models.puma560()
>>> view = show_solutions(robot, robot.ikine_all(robot.fkine(np.radians([30, -40, -60, 20, 45, -30]))))
>>> int(view.arms.shown.sum()), int(view.arms.highlighted.sum())
(8, 4)
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np
from numpy.typing import ArrayLike

from ..ik import PUMA_LABELS, solver_for
from ..kinematics import joint_axis_frames
from .browser import Artist, Axes3D, add_description, set_screen_offset
from .scene import VIEW, ArmView, Triads, figure3d, fit_points, reach
from .widgets import Panel, load_widgets

if TYPE_CHECKING:
    from ..ik import IKSolutions
    from ..robot import DHRobot

__all__ = [
    "OUTSIDE_COLOR",
    "slot_of",
    "arm_label",
    "wrist_label",
    "floor_height",
    "GhostArm",
    "SolutionArms",
    "WristInset",
    "solutions_table",
    "SolutionsFigure",
    "show_solutions",
]

# one pair per arm, (dark, darker): the first wrist and the flipped one; robots without a wrist flip take one
# colour per solution. Okabe–Ito hues, darkened until labels in them read at 4.5:1 on white
_TAB20 = ["#0072b2", "#004a75", "#c44e00", "#7f3300", "#007a5a", "#004d39", "#a04a8c", "#66295a"]
_TAB10 = ("#0072b2", "#c44e00", "#007a5a", "#a04a8c", "#000000", "#8a6d00", "#c62828", "#595959")
OUTSIDE_COLOR = "0.45"  # grey #737373: 4.7:1
_ROMAN = ("I", "II", "III", "IV")
_SLOTS = {"puma560": 8, "youbot": 4, "planar2r": 2, "planar3r": 2}  # solutions each closed form can give
_PUMA_WRIST_JOINT = 4  # joint 5 (0-based 4): its axis reverses when the wrist flips


def slot_of(label: str, fallback: int) -> int:
    """The fixed slot of a branch label: PUMA slots in PUMA_LABELS order, youBot I–IV, planar up/down.

    Labels the function does not know keep ``fallback`` (their position in the result).
    """
    if label in PUMA_LABELS:
        return PUMA_LABELS.index(label)
    head = label.split(":")[0]
    if head in _ROMAN:
        return _ROMAN.index(head)
    if label in ("up", "down"):
        return ("up", "down").index(label)
    return fallback


def arm_label(label: str) -> str:
    """The part of a label that names the arm (links 1–3), without the wrist: 'left-up-flip' → 'left-up'."""
    for wrist in ("-noflip", "-flip"):
        if label.endswith(wrist):
            return label[: -len(wrist)]
    return label


def wrist_label(label: str) -> str:
    """The wrist part of a PUMA label ('noflip' or 'flip'), '' for other robots."""
    return label.rsplit("-", 1)[1] if label.endswith(("-noflip", "-flip")) else ""


def closed_form(robot: DHRobot) -> str:
    """The name of the closed-form solver that ``robot.ikine_all`` uses ("" for the numeric one)."""
    return getattr(solver_for(robot), "method", "")


def floor_height(robot: DHRobot) -> float:
    """Height of the floor grid: the PUMA's frame {0} sits at the shoulder, so put its floor 0.6 reach lower."""
    if closed_form(robot) == "puma560":
        return -round(0.6 * reach(robot), 1)
    return 0.0


class GhostArm(ArmView):
    """An :class:`~armlab.viz.ArmView` drawn as a faint line: no frame triads, no tip marker, no pedestal.

    ``set_style(color, alpha, dashed)`` restyles it in place; ``set_visible`` shows or hides it.
    """

    def __init__(
        self,
        robot: DHRobot,
        ax: Axes3D,
        q: ArrayLike | None = None,
        color: str = "0.5",
        linewidth: float = 2.5,
        floor_z: float = 0.0,
    ) -> None:
        before = list(ax.lines)
        super().__init__(robot, ax, q=q, frames=False, labels=False, color=color, floor=False, floor_z=floor_z)
        for artist in list(ax.lines):  # the pedestal: the solid view (or the floor view) already has one
            if artist not in before and artist is not self.line and artist is not self.tip:
                artist.remove()
        # every solution ends at the same target: one marker is enough. Removed, not hidden: a hidden
        # 3-D line is still projected at every draw
        self.tip.set_visible(False)
        self.tip.remove()
        self.line.set_linewidth(linewidth)
        self.line.set_marker("None")

    def set_style(self, color: str, alpha: float, dashed: bool = False) -> None:
        """Restyle the line in place: colour, opacity, dashed or solid."""
        self.line.set_color(color)
        self.line.set_alpha(alpha)
        self.line.set_linestyle("--" if dashed else "-")

    def set_visible(self, visible: bool) -> None:
        self.line.set_visible(visible)

    def describe(self) -> str:
        return ""  # the solutions are described together (SolutionArms.describe)


class SolutionArms:
    """One :class:`GhostArm` per solution slot on one axes, moved in place by :meth:`update`.

    After ``update(sols)``:

    ``shown``        (slots,) bool, the slot holds a solution
    ``highlighted``  (slots,) bool, shown and within the joint limits (drawn in colour)
    ``q``            (slots, n) joint values drawn (NaN where not shown)
    ``labels``       (slots,) label drawn in each slot ('' where not shown)

    The slot of a solution is fixed by its branch label (:func:`slot_of`), so a branch keeps
    its colour while the target moves. ``wrist`` is the (0-based) joint whose axis gets a stub,
    ``"auto"`` (joint 5 of a PUMA, else none) or None.
    """

    IN_ALPHA = 0.85
    OUT_ALPHA = 0.8  # outside the limits: grey and dashed, still 3:1 on white

    def __init__(
        self,
        robot: DHRobot,
        ax: Axes3D,
        slots: int | None = None,
        wrist: int | str | None = "auto",
        text: bool = True,
        stub_length: float | None = None,
        stub_width: float = 4.0,
    ) -> None:
        self.robot = robot
        self.ax = ax
        method = closed_form(robot)
        self.count = slots or _SLOTS.get(method, 8)
        self.wrist = (_PUMA_WRIST_JOINT if method == "puma560" else None) if wrist == "auto" else wrist
        paired = self.wrist is not None
        self.colors = [_TAB20[k % len(_TAB20)] if paired else _TAB10[k % len(_TAB10)] for k in range(self.count)]
        fz = floor_height(robot)  # ArmView sets the axes' cube from it: the same for every view
        self.ghosts = [GhostArm(robot, ax, color=c, floor_z=fz) for c in self.colors]
        # the wrist stubs of all slots in one artist (one segment each): fewer artists, faster drawing
        self.stub_length = stub_length or 0.6 * self.ghosts[0].triad_length
        self.stubs = None
        if self.wrist is not None:
            from mpl_toolkits.mplot3d.art3d import Line3DCollection

            self.stubs = Line3DCollection(np.zeros((self.count, 2, 3)), linewidths=stub_width, colors=self.colors)
            ax.add_collection3d(self.stubs)
        self.label_frame = max(1, robot.n // 2)  # the elbow: PUMA {3}, youBot {2}, planar {1}
        self.texts = [ax.text(0, 0, 0, "", fontsize=7, color=c) for c in self.colors] if text else []
        self.shown = np.zeros(self.count, bool)
        self.highlighted = np.zeros(self.count, bool)
        self.q = np.full((self.count, robot.n), np.nan)
        self.labels = [""] * self.count
        self.hide()
        add_description(ax, self.describe)

    def describe(self) -> str:
        """The solutions drawn, for the scene's text alternative: how many, their branches, which lie outside
        the joint limits."""
        shown = np.flatnonzero(self.shown)
        if not len(shown):
            return "no solution drawn"
        names = ", ".join(self.labels[s] + ("" if self.highlighted[s] else " (outside the limits)") for s in shown)
        return f"{len(shown)} solution{'s' if len(shown) != 1 else ''} drawn: {names}"

    def hide(self) -> None:
        for g in self.ghosts:
            g.set_visible(False)
        if self.stubs is not None:
            self.stubs.set_visible(False)
        for t in self.texts:
            t.set_visible(False)
        self.shown[:] = False
        self.highlighted[:] = False
        self.q[:] = np.nan
        self.labels = [""] * self.count

    def slots(self, labels: Sequence[str]) -> list[int]:
        """The slot of each label, in order: :func:`slot_of`, or the next free slot for unknown labels."""
        out = []
        for k, label in enumerate(labels):
            s = slot_of(label, k)
            if s in out or s >= self.count:
                s = next(j for j in range(self.count) if j not in out)
            out.append(s)
        return out

    def update(self, sols: IKSolutions) -> np.ndarray:
        """Draw the solutions of ``sols`` (an :class:`armlab.ik.IKSolutions`); hide the other slots."""
        self.hide()
        for s, q, label, ok in zip(self.slots(sols.labels), sols.q, sols.labels, sols.within_limits):
            g = self.ghosts[s]
            g.update(q)
            if ok:
                g.set_style(self.colors[s], self.IN_ALPHA)
            else:
                g.set_style(OUTSIDE_COLOR, self.OUT_ALPHA, dashed=True)
            g.set_visible(True)
            self.shown[s], self.highlighted[s] = True, bool(ok)
            self.q[s], self.labels[s] = q, label
        self._place_texts()
        self._place_stubs()
        return self.shown

    def _place_stubs(self):
        """A short segment along the wrist joint's axis (PUMA: joint 5, which reverses when the wrist flips)."""
        if self.stubs is None or not self.shown.any():
            return
        segs = np.full((self.count, 2, 3), np.nan)
        colors = []
        for s in range(self.count):
            if self.shown[s]:
                F = joint_axis_frames(self.robot, self.ghosts[s].frames)[self.wrist]
                segs[s, 0] = F[:3, 3]
                segs[s, 1] = F[:3, 3] + self.stub_length * F[:3, 2]
            colors.append(self.colors[s] if self.highlighted[s] else OUTSIDE_COLOR)
        shown = np.flatnonzero(self.shown)
        self._stub_segs = segs
        self.stubs.set_segments(segs[shown])
        self.stubs.set_color([colors[s] for s in shown])
        self.stubs.set_alpha([self.IN_ALPHA if self.highlighted[s] else self.OUT_ALPHA for s in shown])
        self.stubs.set_visible(True)

    def stub_segments(self) -> dict[int, np.ndarray]:
        """{slot: (2, 3) wrist stub as drawn} for the shown slots (empty without a wrist stub)."""
        if self.stubs is None or not self.stubs.get_visible():
            return {}
        return {int(s): self._stub_segs[s] for s in np.flatnonzero(self.shown)}

    def _place_texts(self):
        """One text per distinct arm (flip and noflip share their links, so they share a label), at the elbow."""
        if not self.texts:
            return
        placed = set()
        for s in np.flatnonzero(self.shown):
            name = arm_label(self.labels[s])
            if name in placed:
                continue
            placed.add(name)
            t = self.texts[s]
            t.set_text(name)
            t.set_color(self.colors[s] if self.highlighted[s] else OUTSIDE_COLOR)
            t.set_position_3d(self.ghosts[s].frames[self.label_frame][:3, 3])
            set_screen_offset(t, 6, 8)  # beside the elbow, not on it
            t.set_visible(True)


class WristInset:
    """A close-up of the wrist centre on its own axes: every solution's forearm ends there.

    A PUMA's eight solutions are four arms (links 1–3), each holding the hand with two wrists that differ
    by θ4 + 180°, −θ5, θ6 + 180°: seen from afar they coincide. Close up, the stub along joint 5's axis
    points one way for ``noflip`` and the other way for ``flip``; each stub is labelled in its arm's
    colour (dark: noflip, light: flip). The view follows the wrist centre (``radius`` around it).
    """

    def __init__(self, robot: DHRobot, ax: Axes3D, radius: float = 0.14) -> None:
        self.ax = ax
        self.radius = float(radius)
        self.arms = SolutionArms(robot, ax, text=False, stub_length=0.55 * radius, stub_width=5.0)
        for g in self.arms.ghosts:
            g.line.set_linewidth(3.5)
        self.texts: list[Artist] = [
            ax.text(0, 0, 0, "", fontsize=8, color=c, weight="bold", ha="center") for c in self.arms.colors
        ]
        self.centre = np.zeros(3)
        ax.set_title("close-up of the wrist centre", fontsize=8)

    def update(self, sols: IKSolutions) -> None:
        """Zoom onto the wrist centre of ``sols`` and label each wrist."""
        arms = self.arms
        arms.update(sols)
        for t in self.texts:
            t.set_visible(False)
        stubs = arms.stub_segments()
        if not stubs:
            return
        self.centre = np.mean([seg[0] for seg in stubs.values()], axis=0)
        c, r = self.centre, self.radius
        fit_points(self.ax, [c - r, c + r], margin=0.0)
        for s, seg in stubs.items():
            t = self.texts[s]
            t.set_text(wrist_label(arms.labels[s]) or arms.labels[s])
            t.set_color(arms.colors[s] if arms.highlighted[s] else OUTSIDE_COLOR)
            t.set_position_3d(seg[0] + 1.3 * (seg[1] - seg[0]))
            t.set_visible(True)


def solutions_table(
    sols: IKSolutions,
    colors: Sequence[str],
    slots: Sequence[int],
    J: np.ndarray | None = None,
    chosen: int | None = None,
) -> str:
    """HTML table of ``sols``: colour of its slot, label, q in degrees, limits, singular, J.

    ``colors`` is the colour of each slot, ``slots`` the slot of each solution
    (:meth:`SolutionArms.slots`); row ``chosen`` is set in bold.
    """
    rows = []
    for k, (q, label, ok, sing) in enumerate(zip(sols.q, sols.labels, sols.within_limits, sols.singular)):
        color = colors[slots[k]] if ok else OUTSIDE_COLOR
        deg = " ".join(f"{v:7.1f}" for v in np.degrees(q))
        flags = ("✓" if ok else "outside") + (" · singular" if sing else "")
        cost = "" if J is None else f"{J[k]:.3f}"
        style = "font-weight:bold" if chosen == k else ""
        rows.append(
            f"<tr style='{style}'><td style='color:{color}'>■</td><td>{html.escape(label)}</td>"
            f"<td><code>{deg}</code></td><td>{flags}</td><td>{cost}</td></tr>"
        )
    head = "<tr><th></th><th>branch</th><th>q (°)</th><th>limits</th><th>J</th></tr>"
    return f"<table style='font-size:11px'>{head}{''.join(rows)}</table>"


class SolutionsFigure(Panel):
    """A static figure of all solutions of one pose (see :func:`show_solutions`)."""

    def __init__(
        self,
        robot: DHRobot,
        sols: IKSolutions | None = None,
        T: ArrayLike | None = None,
        *,
        title: str = "",
        figsize: tuple[float, float] = (4.6, 4.4),
        elev: float | None = None,
        azim: float | None = None,
    ) -> None:
        w = load_widgets()
        self.fig, (ax,) = figure3d(1, figsize, [title] if title else None, show_axes=False)
        floor = ArmView(robot, ax, frames=False, labels=False, floor_z=floor_height(robot))  # floor, cube
        floor.set_visible(False)
        self.ax = ax
        self.robot = robot
        self.redraws = 0
        self.arms = SolutionArms(robot, ax)
        self.target = Triads(ax, np.eye(4)[None], length=0.1 * reach(robot), linewidth=2.5, labels=["target"])
        if elev is not None or azim is not None:
            ax.view_init(elev=VIEW[0] if elev is None else elev, azim=VIEW[1] if azim is None else azim)
        self.caption = w.HTML()
        if sols is not None:
            self.update(sols, T)
        self.widget = w.VBox([self._figure_widget(), self.caption])

    def update(self, sols: IKSolutions, T: ArrayLike | None = None) -> SolutionsFigure:
        """Draw ``sols`` (and the target ``T``; by default the pose of the first solution)."""
        self.arms.update(sols)
        if T is None and len(sols):
            T = self.robot.fkine(sols.q[0])
        if T is not None:
            self.target.update(np.asarray(T, dtype=float)[None])
        self.target.set_visible(T is not None)
        text = solutions_table(sols, self.arms.colors, self.arms.slots(sols.labels)) if len(sols) else ""
        if sols.reason:
            text += f"<div style='color:#a00;font-size:11px'>{html.escape(sols.reason)}</div>"
        self.caption.value = text
        if self.widget is not None:
            self.redraw()
        return self


def show_solutions(
    robot: DHRobot, sols: IKSolutions, T: ArrayLike | None = None, title: str = "", **kwargs: Any
) -> SolutionsFigure:
    """Draw every solution in ``sols`` on one 3-D axes (colour: within limits; grey dashed: outside)."""
    return SolutionsFigure(robot, sols, T, title=title, **kwargs)
