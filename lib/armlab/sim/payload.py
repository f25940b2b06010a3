"""A payload held at the tool, as part of the last link for a run."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from .._core.validation import as_float_array

__all__ = ["with_payload"]


def with_payload(robot, mass):
    """A copy of ``robot`` whose last link also carries a point mass ``mass`` (kg) at the tool frame's
    origin: masses add, the centre of mass moves to the mass-weighted mean, and the link's inertia is
    shifted to it by the parallel-axis theorem. ``mass`` 0 or None returns the robot itself.
    """
    if mass is None:
        return robot
    mp = float(as_float_array(mass, "payload", ()))
    if mp < 0:
        raise ValueError(f"payload must be a mass >= 0 kg, got {mass!r}")
    if mp == 0:
        return robot
    link = robot.links[-1]
    tool = np.eye(4) if robot.tool is None else np.asarray(robot.tool, dtype=float)
    p, r, m = tool[:3, 3], np.asarray(link.r, dtype=float), float(link.m)
    I = np.zeros((3, 3)) if link.I is None else np.asarray(link.I, dtype=float)  # noqa: E741
    mt = m + mp
    c = (m * r + mp * p) / mt

    def shift(mass_, d):  # inertia of a point mass at offset d, about the new centre
        return mass_ * (np.dot(d, d) * np.eye(3) - np.outer(d, d))

    It = I + shift(m, r - c) + shift(mp, p - c)
    links = robot.links[:-1] + [replace(link, m=mt, r=tuple(c), I=It)]
    return type(robot)(links, robot.convention, base=robot.base, tool=robot.tool,
                       name=f"{robot.name} + {mp:g} kg payload")
