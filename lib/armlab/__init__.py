"""ArmLab: robot-manipulator kinematics, statics and dynamics for the classroom.

One vocabulary for notebooks, homework and the lab (the package layout: docs/architecture.md):

>>> import armlab
>>> robot = armlab.models.puma560()
>>> robot.fkine([0, 0, 0, 0, 0, 0]).shape
(4, 4)
"""

from typing import Any

from . import models
from ._core.deprecation import install_moved_modules
from .kinematics.links import DHLink, ImmutableError, link_transform_modified, link_transform_standard
from .robot import DHRobot
from . import transforms
from .transforms import *  # noqa: F403  (the names in transforms.__all__)

__version__ = "0.1.0"

install_moved_modules()  # the old module paths (armlab.dh, armlab.grading_ik, ...) import, with a DeprecationWarning

#: Subpackages loaded on first use (``armlab.statics`` works without importing it first).
_LAZY = (
    "ik",
    "jacobians",
    "dynamics",
    "statics",
    "sim",
    "control",
    "export",
    "viz",
    "grading",
    "lab",
    "kinematics",
    "transforms",
)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "models",
    "DHLink",
    "DHRobot",
    "ImmutableError",
    "link_transform_standard",
    "link_transform_modified",
    *transforms.__all__,
]
