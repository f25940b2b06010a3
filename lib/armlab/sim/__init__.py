"""Simulation (issue 12 §Simulation): integrate the forward dynamics of any robot with inertia.

>>> from armlab import models, sim
>>> traj = sim.simulate(models.planar2r(), [0.5, 0.0], [0.0, 0.0], t_end=0.1, dt=1e-3)
>>> traj.q.shape, traj.ok, traj.reason
((101, 2), True, '')
"""

from .payload import with_payload
from .simulate import ADAPTIVE, EVENTS, FIXED, simulate
from .trajectory import LimitEvent, Trajectory
from . import trajectories
from .trajectories import *  # noqa: F403  (the names in trajectories.__all__)
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
    *trajectories.__all__,
    "PickAndPlace",
    "TaskResult",
    "KernelEngine",
    "plan_pick_and_place",
    "run_task",
    "run_task_mujoco",
    "KINDS",
    "PAPER_TASK",
]
