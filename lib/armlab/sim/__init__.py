"""Simulation (issue 12 §Simulation): integrate the forward dynamics of any robot with inertia.

>>> from armlab import models, sim
>>> traj = sim.simulate(models.planar2r(), [0.5, 0.0], [0.0, 0.0], t_end=0.1, dt=1e-3)
>>> traj.q.shape, traj.ok, traj.reason
((101, 2), True, '')
"""

from .payload import with_payload
from .simulate import ADAPTIVE, EVENTS, FIXED, simulate
from .trajectory import LimitEvent, Trajectory
from .trajectories import (
    CartesianLine,
    JointReference,
    Reference,
    Sequence,
    cartesian_line,
    check_limits,
    cubic,
    hold,
    quintic,
    sequence,
    trapezoidal,
    via_points,
)
from .task import KINDS, PAPER_TASK, KernelEngine, PickAndPlace, TaskResult, plan_pick_and_place, run_task
from .mujoco_task import run_task_mujoco

__all__ = [
    "simulate",
    "Trajectory",
    "LimitEvent",
    "with_payload",
    "FIXED",
    "ADAPTIVE",
    "EVENTS",
    # reference trajectories (chapter 8)
    "Reference",
    "JointReference",
    "Sequence",
    "CartesianLine",
    "quintic",
    "cubic",
    "trapezoidal",
    "via_points",
    "hold",
    "sequence",
    "cartesian_line",
    "check_limits",
    # the pick-and-place task (chapter 8)
    "PickAndPlace",
    "TaskResult",
    "KernelEngine",
    "plan_pick_and_place",
    "run_task",
    "run_task_mujoco",
    "KINDS",
    "PAPER_TASK",
]
