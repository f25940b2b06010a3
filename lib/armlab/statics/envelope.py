"""The static-load envelope of §5.4: the largest tip force and payload within joint torque limits."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._core.constants import GRAVITY
from .._core.protocol import RobotLike
from .._core.validation import as_float_array, joint_vector
from ..dynamics.model import gravload

__all__ = ["max_tip_force", "max_payload"]


def _limits(tau_max: ArrayLike, n: int) -> np.ndarray:
    t = as_float_array(tau_max, "tau_max", (n,), allow_batch=False)
    if (t <= 0).any():
        raise ValueError(f"tau_max must be positive joint torque limits, got {t}")
    return t


def _largest_scale(base: np.ndarray, per_unit: np.ndarray, tau_max: np.ndarray) -> np.ndarray:
    """Largest s ≥ 0 with |base + s·per_unit| ≤ tau_max joint by joint (…); 0 if the base load alone exceeds."""
    with np.errstate(divide="ignore", invalid="ignore"):
        up = np.where(
            per_unit > 0, (tau_max - base) / per_unit, np.where(per_unit < 0, (-tau_max - base) / per_unit, np.inf)
        )
    s = np.min(up, axis=-1)
    ok = np.all(np.abs(base) <= tau_max, axis=-1)
    return np.where(ok, np.maximum(s, 0.0), 0.0)


def max_tip_force(
    robot: RobotLike, q: ArrayLike, direction: ArrayLike, tau_max: ArrayLike, *, gravity: ArrayLike | None = None
) -> np.ndarray:
    """The largest force (N) the tip can exert along the unit ``direction`` (base frame) at q (…, n)
    without any joint exceeding ``tau_max`` (n,), with the arm's own weight when ``gravity`` is given
    (``None``: the tip force alone, the envelope of §5.4)."""
    q = joint_vector(q, robot.n, "q", symbolic=False)
    d = as_float_array(direction, "direction", (3,), allow_batch=False)
    d = d / np.linalg.norm(d)
    tm = _limits(tau_max, robot.n)
    a = np.swapaxes(robot.jacob0(q)[..., :3, :], -1, -2) @ d
    base = np.zeros_like(a) if gravity is None else gravload(robot, q, gravity=gravity)
    return _largest_scale(base, a, tm)


def max_payload(robot: RobotLike, q: ArrayLike, tau_max: ArrayLike, *, gravity: ArrayLike = GRAVITY) -> np.ndarray:
    """The largest mass (kg) the tool can hold at q (…, n): its weight plus the arm's own, within ``tau_max``.

    Holding a mass m means the tip pushes up on it: F = −m·g (base frame), τ = G(q) + J_vᵀ(−m·g).
    """
    q = joint_vector(q, robot.n, "q", symbolic=False)
    g = as_float_array(gravity, "gravity", (3,), allow_batch=False)
    tm = _limits(tau_max, robot.n)
    a = np.swapaxes(robot.jacob0(q)[..., :3, :], -1, -2) @ (-g)
    return _largest_scale(gravload(robot, q, gravity=g), a, tm)
