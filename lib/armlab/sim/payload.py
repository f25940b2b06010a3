"""A payload held at the tool, as part of the last link for a run."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._core.inertia import shift_inertia
from .._core.protocol import RobotLike
from .._core.validation import as_float_array

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["with_payload"]


def with_payload(robot: RobotLike, mass: ArrayLike | None) -> Any:
    """A copy of ``robot`` whose last link also carries a point mass ``mass`` (kg) at the tool frame's
    origin: masses add, the centre of mass moves to the mass-weighted mean, and the link's inertia is
    shifted to it by the parallel-axis theorem. ``mass`` 0 or None returns the robot itself.

    The loaded robot is ``robot.replace_link(-1, m=…, r=…, I=…)``, named after the payload.

    >>> from armlab.models import planar2r
    >>> arm = planar2r()
    >>> loaded = with_payload(arm, 0.5)
    >>> loaded.links[-1].m, arm.links[-1].m, loaded.name
    (1.5, 1.0, 'planar 2R + 0.5 kg payload')
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
    # the link's inertia and the point mass's (none about its own centre), both moved to the new centre c
    It = shift_inertia(I, m, r - c) + shift_inertia(np.zeros((3, 3)), mp, p - c)
    last = link.replace(m=mt, r=tuple(c.tolist()), I=It)
    return robot.replace(links=(*robot.links[:-1], last), name=f"{robot.name} + {mp:g} kg payload")
