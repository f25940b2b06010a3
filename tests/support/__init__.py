"""Test support: generators, reference-library builders, finite differences.

Tests import what they need from here; benchmarks may too, but never a test module.
"""

from .finite_differences import fd_jacobians
from .generators import (
    COURSE_MODELS,
    PRISMATIC_QLIM,
    random_dh_robot,
    random_inertial,
    random_q,
    random_robots,
    random_transform,
)
from .references import pin_kinematics, to_pin, to_rtb

__all__ = [
    "COURSE_MODELS",
    "PRISMATIC_QLIM",
    "random_dh_robot",
    "random_q",
    "random_robots",
    "random_transform",
    "random_inertial",
    "to_rtb",
    "to_pin",
    "pin_kinematics",
    "fd_jacobians",
]
