"""Old path of the inverse-kinematics views, kept for released notebooks: see :mod:`armlab.viz.ik`."""
from .viz import (  # noqa: F401
    OUTSIDE_COLOR, GhostArm, IKExplorer, SolutionArms, SolutionsFigure, arm_label, ik_explorer, show_solutions,
    slot_of,
)
