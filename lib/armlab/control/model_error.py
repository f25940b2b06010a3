"""A controller's model that is wrong by a given fraction: each link's mass, centre of mass and inertia off
by ±``error`` (signs drawn once per seed), as identified parameters would be."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._core.protocol import RobotLike
from .._core.validation import as_float_array

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["perturbed"]


def perturbed(robot: RobotLike, error: ArrayLike, seed: int = 0) -> Any:
    """A copy of ``robot`` whose link masses, centres of mass and inertia tensors are scaled by 1 ± ``error``
    (a fraction, e.g. 0.2 for 20 %; each link and quantity gets its own sign from ``seed``). ``error`` 0
    returns the robot itself. Kinematics (the DH table) is unchanged: the copy is ``robot.replace(links=…)``.

    >>> from armlab.models import planar2r
    >>> wrong = perturbed(planar2r(), 0.2)
    >>> [round(link.m, 3) for link in wrong.links], [link.a for link in wrong.links]
    ([1.2, 0.8], [1.0, 1.0])
    """
    e = float(as_float_array(error, "error", ()))
    if not 0 <= e < 1:
        raise ValueError(f"error must be a fraction in [0, 1), got {error!r}")
    if e == 0:
        return robot
    signs = np.random.default_rng(seed).choice([-1.0, 1.0], size=(robot.n, 3))
    links = []
    for link, (sm, sr, si) in zip(robot.links, signs):
        I = None if link.I is None else np.asarray(link.I, dtype=float) * (1 + si * e)  # noqa: E741
        r = tuple((np.asarray(link.r, float) * (1 + sr * e)).tolist())
        links.append(link.replace(m=float(link.m) * (1 + sm * e), r=r, I=I))
    return robot.replace(links=links, name=f"{robot.name or 'robot'} (±{e * 100:g} % inertial error, seed {seed})")
