"""Simulation (issue 12 §Simulation): integrate the forward dynamics of any robot with inertia.

>>> from armlab import models, sim
>>> traj = sim.simulate(models.planar2r(), [0.5, 0.0], [0.0, 0.0], t_end=0.1, dt=1e-3)
>>> traj.q.shape, traj.reason
((101, 2), 'completed')
"""
from .payload import with_payload
from .simulate import ADAPTIVE, EVENTS, FIXED, simulate
from .trajectory import LimitEvent, Trajectory

__all__ = ["simulate", "Trajectory", "LimitEvent", "with_payload", "FIXED", "ADAPTIVE", "EVENTS"]
