"""The control resolution at the tip and its share of the accuracy, textbook §3.5.2 ("空间分辨度和精度", Fig. 3.15).

The control system moves each joint in increments: one encoder count, Δ_i = 2π / (counts per motor
revolution × gear ratio) for a revolute joint (:func:`joint_resolution`): the control resolution. At the
tip, one count of joint i moves the tool point by |J_v,i|·Δ_i, where J_v,i is column i of the position rows
of J: the control resolution at the tip changes with the pose, finest where the joint's lever arm is short.
It is not yet the spatial resolution: that adds the mechanical deviations (backlash, loose links, load) to
the control resolution (§3.5.2 as corrected in docs/errata.md); this module computes the encoders' part.
A target the arm must reach lies between controllable joint values; rounding each joint to its nearest
count (|δq_i| ≤ Δ_i/2) misses it by at most max ‖J_v δq‖ over that box, the accuracy the control
resolution alone allows (Fig. 3.15 adds the mechanical deviations). The same bound with ``joint_step`` =
2 × a joint play gives the spread of the returns to a taught point (repeatability, Fig. 3.16) that the
play alone causes.
All first order in the small increments.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from .._core.protocol import RobotLike
from .._core.validation import as_float_array, joint_vector

__all__ = ["joint_resolution", "tip_resolution", "TipResolution"]


def joint_resolution(counts_per_rev: ArrayLike, gear: ArrayLike) -> np.ndarray:
    """The joint increment of one encoder count on the motor shaft, 2π / (counts × |gear|) rad.

    >>> (joint_resolution(4000, [156, 156, 100, 71, 71]) * 1e6).round(2)   # youBot, µrad
    array([10.07, 10.07, 15.71, 22.12, 22.12])
    """
    counts = as_float_array(counts_per_rev, "counts_per_rev")
    g = np.abs(as_float_array(gear, "gear"))
    if np.any(counts <= 0) or np.any(g == 0):
        raise ValueError("counts_per_rev and gear must be non-zero (counts positive)")
    return 2 * math.pi / (counts * g)


@dataclass
class TipResolution:
    """What the joint increments mean at the tool point (metres; shapes (..., n) and (...)).

    ``step``: the tip's motion for one increment of each joint alone; ``finest``, ``coarsest``: the
    smallest and largest of them; ``worst``: max ‖J_v δq‖ over |δq_i| ≤ step_i / 2, the largest miss
    when every joint is rounded to its nearest increment (the resolution's share of the accuracy)."""

    step: np.ndarray
    finest: np.ndarray
    coarsest: np.ndarray
    worst: np.ndarray


def tip_resolution(robot: RobotLike, q: ArrayLike, joint_step: ArrayLike) -> TipResolution:
    """The control resolution at the tip and the accuracy bound it alone allows (§3.5.2), at the poses
    ``q`` (..., n), for joint increments ``joint_step`` (n,): rad for revolute, m for prismatic joints (see
    the module docstring).

    >>> from armlab.models import planar2r
    >>> r = tip_resolution(planar2r(1.0, 0.6), [0.0, 0.0], [1e-4, 1e-4])
    >>> (r.step * 1e6).round(3).tolist(), round(float(r.worst) * 1e6, 3)   # µm: lever arms 1.6 m and 0.6 m
    ([160.0, 60.0], 110.0)
    """
    Q = joint_vector(q, robot.n, "q", symbolic=False)
    step = as_float_array(joint_step, "joint_step", (robot.n,), allow_batch=False)
    if step.shape != (robot.n,) or np.any(step <= 0):
        raise ValueError(f"joint_step must hold {robot.n} positive increments, got {step!r}")
    Jv = np.asarray(robot.jacob0(Q), dtype=float)[..., :3, :]
    tip_steps = np.linalg.norm(Jv, axis=-2) * step
    # ‖J_v δq‖ is convex in δq: its maximum over the box is at a corner, δq_i = ±step_i/2
    corners = np.array(list(itertools.product((-0.5, 0.5), repeat=robot.n))).T * step[:, None]  # (n, 2ⁿ)
    worst = np.linalg.norm(Jv @ corners, axis=-2).max(axis=-1)
    return TipResolution(tip_steps, tip_steps.min(axis=-1), tip_steps.max(axis=-1), worst)
