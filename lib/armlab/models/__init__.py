"""Robot models of the course, each built from the table its source prints.

Lengths in metres, angles in radians. Functions that take lengths accept
sympy symbols too, for symbolic derivations. Numeric models carry their links' mass properties
(each model's docstring cites the source); ``models.inertial`` moves published ones into DH frames.
"""

from .paper3r import PAPER_3R, PAPER_GRAVITY, paper_3r
from .planar import planar2r, planar3r
from .puma560 import (
    CORKE_OFFSET,
    PUMA560,
    PUMA560_AKB,
    PUMA560_MOMENT_CORRECTIONS,
    PUMA560_POSES,
    puma560,
    puma560_standard,
)
from .textbook import rpr, stanford_arm
from .youbot import (
    YOUBOT_ACTUATORS,
    YOUBOT_DRIVER,
    YOUBOT_STORE,
    YOUBOT_WRIST,
    youbot,
    youbot_driver_to_q,
    youbot_q_to_driver,
)

__all__ = [
    "puma560",
    "puma560_standard",
    "youbot",
    "planar2r",
    "planar3r",
    "stanford_arm",
    "rpr",
    "PUMA560",
    "YOUBOT_DRIVER",
    "youbot_driver_to_q",
    "youbot_q_to_driver",
    "paper_3r",
    "PAPER_3R",
    "PAPER_GRAVITY",
    "PUMA560_AKB",
    "PUMA560_MOMENT_CORRECTIONS",
    "PUMA560_POSES",
    "CORKE_OFFSET",
    "YOUBOT_ACTUATORS",
    "YOUBOT_STORE",
    "YOUBOT_WRIST",
]
