"""3-D views and widgets for the course notebooks, drawn live in the browser.

Everything interactive in ``course/`` is built from these pieces, so no notebook carries its own
plotting code. The package is layered; each module imports only the ones above it in this list:

* :mod:`~armlab.viz.browser` — the renderer: a 3-D axes sent as data to our own JavaScript canvas
  (``static/scene.js``; orthographic, drag or arrow keys to orbit, wheel or +/− to zoom, double-click, Home or 0
  to reset; ``role="img"`` named from the state, :func:`~armlab.viz.browser.add_description`), the browser
  slider (``static/slider.js``; no echo of values set from code, Shift for fine steps, named by its label, its
  value read with its unit) and a named play button (``static/player.js``);
* :mod:`~armlab.viz.widgets` — the lazy ipywidgets import, :func:`slider`, :func:`player`, :class:`Panel`
  (figure + controls, laid out to wrap on narrow screens; :meth:`Panel.announce` for its live region),
  :class:`JointSliders`;
* :mod:`~armlab.viz.still` — 2-D matplotlib figures as ``<img>`` with alt text (:func:`describe_figure`,
  :func:`figure_alt`); docs/accessibility.md says what the course does for WCAG 2.1 AA;
* :mod:`~armlab.viz.text` — :func:`format_matrix` / :func:`parse_matrix`, :class:`MatrixDisplay`,
  :func:`dh_table`, :func:`trig_shorthand`, :func:`latex` / :func:`show_math` (sympy matrices, equations,
  lists and tuples of them typeset as LaTeX);
* :mod:`~armlab.viz.scene` — :func:`figure3d`, :class:`Triads`, :func:`frames_figure`, :class:`ArmView`,
  :func:`fit_points`, :func:`reach`, :func:`shown`;
* per chapter: :mod:`~armlab.viz.frames` (01, :func:`frame_playground`), :mod:`~armlab.viz.arms`
  (02, :func:`arm_viewer`, :func:`compare_viewer`, :func:`link_motion_animator`),
  :mod:`~armlab.viz.ik` and :mod:`~armlab.viz.pose_explorer` (03, :func:`show_solutions`,
  :func:`ik_explorer`); :mod:`~armlab.viz.jacobians` (04, :func:`jacobian_explorer`, :func:`rate_player`,
  :func:`differential_motion_figure`, :func:`differential_jacobian_figure`);
  :mod:`~armlab.viz.statics` (05, :func:`tip_force_explorer`, :func:`static_mapping_explorer`, :func:`payload_explorer`,
  :func:`wrist_sensor_demo`);
  :mod:`~armlab.viz.dynamics` (06, :func:`torque_split_explorer`, :func:`trajectory_player`);
  :mod:`~armlab.viz.identification` (07, :func:`excitation_explorer`);
  :mod:`~armlab.viz.control` (08, :func:`control_lab`, :func:`task_player`);
  :mod:`~armlab.viz.plots` (07, 08: :func:`time_plot`, :class:`TimePlots`, :func:`svg_plot`).

**How a view is made** (what chapters 4–8 use). A scene is an ordinary matplotlib 3-D axes from
:func:`figure3d`; whatever is drawn on it is what the browser shows:

* frames: :class:`Triads` (arrowheads, labels, axis names; coincident labels set side by side);
* an arm: :class:`ArmView` (``update(q)``);
* polylines and arrows: ``ax.plot(x, y, z, ...)`` (NaN separates pieces); :func:`~armlab.viz.browser.set_arrows`
  puts an arrowhead at the end of each piece (force vectors, velocities);
* ellipsoids and ellipses: wireframe polylines (rings joined by NaN) in one ``ax.plot``;
* bars: thick segments, ``ax.plot(..., lw=10)`` or a ``Line3DCollection`` (one colour per segment);
* texts: ``ax.text(x, y, z, s)``, :func:`~armlab.viz.browser.set_screen_offset` nudges one by pixels;
* colours, widths, visibility and data may change at every update.

A :class:`Panel` subclass moves its artists in place and calls :meth:`Panel.redraw`, which sends the
scene (a few kB) to the canvas; nothing is rendered in the kernel. To animate from the kernel, change the
artists and call ``redraw()`` in a loop (a ``time.sleep`` between frames), or drive a slider with a
:func:`player`. :func:`fit_points` fixes the region the view must hold, so a moving scene neither
rescales nor leaves the picture. The same figure drawn by Agg is the still image of headless runs and
exported HTML.

>>> from armlab import models, viz
>>> from armlab.viz.browser import set_arrows
>>> class ForceView(viz.Panel):                     # a force arrow at the tool of a youBot
...     def __init__(self, robot, q, force):
...         self.fig, (ax,) = viz.figure3d(show_axes=False)
...         self.redraws = 0
...         self.arm = viz.ArmView(robot, ax, q)
...         self.arrow = set_arrows(ax.plot([], [], [], color="tab:purple", lw=3)[0])
...         self.set_force(force)
...         self.widget = viz.panel_layout(self._figure_widget())
...     def set_force(self, force, scale=0.02):
...         p = self.arm.T[:3, 3]
...         self.arrow.set_data_3d(*np.column_stack([p, p + scale * np.asarray(force)]))
...         self.redraw()
>>> view = ForceView(models.youbot(), [0, 0, 0, np.pi / 2, 0], force=[0, 0, -10])
>>> arrow = [it for it in view.scenes[0].payload["items"] if it.get("arrow") and it["c"] == "#9467bd"]
>>> np.reshape(arrow[0]["p"], (2, 3)).round(3)
array([[0.033, 0.   , 0.655],
       [0.033, 0.   , 0.455]])

``import armlab`` does not import this package; matplotlib, ipywidgets and anywidget are imported only
when a figure or a widget is built.
"""

from .arms import ArmViewer, LinkMotionAnimator, arm_viewer, compare_viewer, link_motion_animator
from .frames import FramePlayground, elementary_motion, frame_playground
from . import ik
from .ik import *  # noqa: F403  (the names in ik.__all__)
from .jacobians import (
    JacobianExplorer,
    RatePlayer,
    differential_jacobian_figure,
    differential_motion_figure,
    jacobian_explorer,
    rate_player,
)
from .pose_explorer import PRESETS, IKExplorer, ik_explorer
from . import scene
from .scene import *  # noqa: F403  (the names in scene.__all__)
from .control import ControlLab, TaskPlayer, control_lab, task_player
from .plots import TimePlots, svg_plot, time_plot
from .identification import ExcitationExplorer, excitation_explorer
from .dynamics import TorqueSplit, TrajectoryPlayer, torque_split_explorer, trajectory_player
from . import statics
from .statics import *  # noqa: F403  (the names in statics.__all__)
from .text import MatrixDisplay, Table, dh_table, format_matrix, latex, parse_matrix, show_math, trig_shorthand
from . import widgets
from .widgets import *  # noqa: F403  (the names in widgets.__all__)
from .still import describe_figure, figure_alt, install as _install_still_figures

_install_still_figures()  # in a notebook: every 2-D figure is an <img> with alt text

__all__ = [
    "format_matrix",
    "parse_matrix",
    "MatrixDisplay",
    "dh_table",
    "Table",
    "trig_shorthand",
    "describe_figure",
    "figure_alt",
    "latex",
    "show_math",
    *scene.__all__,
    *widgets.__all__,
    "elementary_motion",
    "FramePlayground",
    "frame_playground",
    "ArmViewer",
    "arm_viewer",
    "compare_viewer",
    "LinkMotionAnimator",
    "link_motion_animator",
    *ik.__all__,
    "PRESETS",
    "IKExplorer",
    "ik_explorer",
    "JacobianExplorer",
    "jacobian_explorer",
    "RatePlayer",
    "rate_player",
    "differential_motion_figure",
    "differential_jacobian_figure",
    *statics.__all__,
    "TorqueSplit",
    "torque_split_explorer",
    "TrajectoryPlayer",
    "trajectory_player",
    "ControlLab",
    "control_lab",
    "TaskPlayer",
    "task_player",
    "svg_plot",
    "time_plot",
    "TimePlots",
    "ExcitationExplorer",
    "excitation_explorer",
]
