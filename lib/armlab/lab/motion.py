"""How :class:`~armlab.lab.YoubotArm` moves the arm: set points along a minimum-jerk profile, every row checked
before the first is sent, then one row per tick at the arm's rate, and the wait until the arm has arrived.

A position command is a step on the real arm, so a motion is always a stream of small ones. The loop sleeps to
each tick but wakes before the state would go stale, and stops at once when a fault aborts it (nothing queued
is sent after a hold).
"""

from __future__ import annotations

import math
import threading
import time
from typing import Protocol

import numpy as np
from numpy.typing import ArrayLike

from .client import NotConnectedError
from .messages import ADVICE
from .state import ArmState
from .safety import (
    ConnectionLostError,
    SafetyError,
    SafetyLimits,
    StaleStateError,
    TrackingError,
    check_set_point,
    check_step,
)

__all__ = ["min_jerk", "trajectory_rows", "checked_trajectory", "stream", "settle_at"]


class Arm(Protocol):
    """What streaming needs of :class:`~armlab.lab.YoubotArm`: its rate and limits, its latest state, the live
    check (raises the latched fault), one checked set point out, and the fault latch."""

    rate: float
    limits: SafetyLimits
    missed_ticks: int
    _abort: threading.Event

    def state(self) -> ArmState: ...

    def wait_state(self, timeout: float = 1.0, newer_than: float | None = None) -> ArmState: ...

    def fault_message(self) -> str | None: ...

    def _check_live(self) -> None: ...

    def _publish_arm(self, q_driver: ArrayLike, step: bool = True) -> None: ...

    def _trip(self, why: str, hold: bool, kind: str = "fault") -> None: ...


def min_jerk(start: ArrayLike, goal: ArrayLike, duration: float, rate: float) -> np.ndarray:
    """Set points at ``rate`` Hz from start to goal, s(τ) = 10τ³ − 15τ⁴ + 6τ⁵ (peak speed 1.875·Δ/T).

    >>> min_jerk([0.0], [1.0], 0.1, 50).round(3).ravel().tolist()
    [0.058, 0.317, 0.683, 0.942, 1.0]
    """
    start, goal = np.asarray(start, float), np.asarray(goal, float)
    n = max(1, math.ceil(duration * rate - 1e-9))
    tau = np.arange(1, n + 1) / n
    s = tau**3 * (10 - 15 * tau + 6 * tau**2)
    return start + s[:, None] * (goal - start)


def trajectory_rows(q_traj: ArrayLike) -> np.ndarray:
    """``q_traj`` as an (N, 5) array, N ≥ 1; SafetyError otherwise."""
    try:
        rows = np.asarray(q_traj)
    except (TypeError, ValueError):
        raise SafetyError(
            f"q_traj must be an (N, 5) array of joint angles, got {q_traj!r:.80}; nothing was sent"
        ) from None
    if rows.ndim != 2 or rows.shape[1] != 5 or rows.shape[0] == 0:
        raise SafetyError(f"q_traj must have shape (N, 5), got {np.shape(q_traj)}; nothing was sent")
    return rows


def checked_trajectory(traj: ArrayLike, prev: ArrayLike, limits: SafetyLimits) -> np.ndarray:
    """Driver-angle rows that are all inside the limits, each at most the step cap from the one before (the first
    from ``prev``, the set point in force); SafetyError naming the first row that is not."""
    rows = np.array([check_set_point(r, limits, f"set point {k}") for k, r in enumerate(np.asarray(traj))])
    for k, row in enumerate(rows):
        try:
            check_step(row, prev, limits)
        except SafetyError as e:
            raise SafetyError(f"trajectory row {k}: {e}") from None
        prev = row
    return rows


def stream(arm: Arm, traj: np.ndarray) -> bool:
    """Publish the rows on their ticks; False if stopped before the last (another command took over)."""
    period = 1.0 / arm.rate
    t0 = time.monotonic()
    for k, row in enumerate(traj):
        deadline = t0 + k * period
        while True:  # sleep to the tick, but wake when the state would go stale before it
            wake = min(deadline, arm.state().received + arm.limits.stale_after + 0.001)
            if arm._abort.wait(max(0.0, wake - time.monotonic())):
                arm._check_live()  # a fault aborted us: raise it
                return False
            if time.monotonic() >= deadline:
                break
            arm._check_live()
        if time.monotonic() - deadline > period:
            arm.missed_ticks += 1
        arm._check_live()
        try:
            arm._publish_arm(row)
        except NotConnectedError:
            arm._trip("connection lost", hold=False, kind="connection")
            raise ConnectionLostError(arm.fault_message()) from None
    return True


def settle_at(arm: Arm, goal: np.ndarray, tol: float, timeout: float) -> None:
    """Wait until every joint is within ``tol`` rad of ``goal`` (driver angles); after ``timeout`` s hold and
    raise TrackingError naming the joint that did not arrive."""
    end = time.monotonic() + timeout
    while True:
        arm._check_live()
        err = np.abs(arm.state().q_driver - goal)
        if np.all(err <= tol):
            return
        if time.monotonic() > end:
            i = int(np.argmax(err))
            arm._trip(f"joint {i + 1} is {err[i]:.3f} rad from its target after {timeout} s", hold=True)
            raise TrackingError(
                f"joint {i + 1} did not reach {goal[i]:.4f} rad (driver angle): measured "
                f"{arm.state().q_driver[i]:.4f}, error {err[i]:.3f} > {tol} rad after "
                f"{timeout} s (stuck or blocked?); the arm holds: {ADVICE['fault']}"
            )
        try:
            arm.wait_state(0.05)
        except StaleStateError:
            pass
