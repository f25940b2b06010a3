"""3-D views and widgets for the course notebooks.

Everything interactive in ``course/`` is built from these pieces, so no notebook carries its own
plotting code. The package is layered; each module imports only the ones above it in this list:

* :mod:`~armlab.viz.widgets` — the lazy ipywidgets import, the :class:`Panel` base class,
  :class:`JointSliders` (degrees for revolute joints, metres for prismatic);
* :mod:`~armlab.viz.text` — :func:`format_matrix` / :func:`parse_matrix`, :class:`MatrixDisplay`,
  :func:`dh_table`, :func:`trig_shorthand`, :func:`latex` / :func:`show_math`;
* :mod:`~armlab.viz.scene` — :func:`figure3d`, :class:`Triads`, :func:`frames_figure`,
  :class:`ArmView`, :func:`reach`, :func:`shown` (matplotlib only, any backend);
* per chapter: :mod:`~armlab.viz.frames` (01, :func:`frame_playground`), :mod:`~armlab.viz.arms`
  (02, :func:`arm_viewer`, :func:`compare_viewer`, :func:`link_motion_animator`),
  :mod:`~armlab.viz.ik` and :mod:`~armlab.viz.pose_explorer` (03, :func:`show_solutions`,
  :func:`ik_explorer`).

Views never rebuild the figure: a change moves the existing artists and asks for
``fig.canvas.draw_idle()``. ``import armlab`` does not import this package; ipywidgets is imported
only when a widget is built.

>>> import matplotlib; matplotlib.use("Agg")
>>> from armlab import models, viz
>>> view = viz.ArmView(models.youbot())
>>> view.update([0, 0, 0, np.pi / 2, 0])[:3, 3].round(3)
array([0.033, 0.   , 0.655])
"""
from .arms import ArmViewer, LinkMotionAnimator, arm_viewer, compare_viewer, link_motion_animator
from .frames import FramePlayground, elementary_motion, frame_playground
from .ik import (
    OUTSIDE_COLOR, GhostArm, SolutionArms, SolutionsFigure, arm_label, floor_height, show_solutions, slot_of,
    solutions_table,
)
from .pose_explorer import IKExplorer, ik_explorer
from .scene import AXIS_COLORS, ArmView, Triads, figure3d, frames_figure, reach, set_cube, shown
from .text import MatrixDisplay, dh_table, format_matrix, latex, parse_matrix, show_math, trig_shorthand
from .widgets import JointSliders, Panel, in_ipython, load_widgets

__all__ = [
    # text
    "format_matrix", "parse_matrix", "MatrixDisplay", "dh_table", "trig_shorthand", "latex", "show_math",
    # scene
    "AXIS_COLORS", "figure3d", "set_cube", "Triads", "frames_figure", "shown", "reach", "ArmView",
    # widgets
    "load_widgets", "in_ipython", "Panel", "JointSliders",
    # chapter 01
    "elementary_motion", "FramePlayground", "frame_playground",
    # chapter 02
    "ArmViewer", "arm_viewer", "compare_viewer", "LinkMotionAnimator", "link_motion_animator",
    # chapter 03
    "OUTSIDE_COLOR", "slot_of", "arm_label", "floor_height", "GhostArm", "SolutionArms", "solutions_table",
    "SolutionsFigure", "show_solutions", "IKExplorer", "ik_explorer",
]
