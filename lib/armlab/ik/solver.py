"""What every closed-form solver shares: the registry that matches a robot to its solver, the
joint-range fitting of solutions, and solving a batch pose by pose."""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np
from numpy.typing import ArrayLike

from .._core.angles import TAU, wrap_scalar
from .._core.codegen import cached_kernel
from .._core.protocol import RobotLike
from .._core.validation import as_float_array, check_joint_batch, check_poses
from .results import IKBatch, IKSolutions

__all__ = ["LIMIT_TOL", "Solver", "register", "solver_for", "limit_table", "fit_row", "loop_batch"]

#: Tolerance on joint limits (rad / m): a solution exactly on a limit is within it.
LIMIT_TOL = 1e-9

_SOLVERS: list[type[Solver]] = []


class Solver:
    """Base of the closed-form solvers. A subclass sets ``method`` and implements

    * ``match(robot)`` (classmethod): a solver for this robot's DH table, or None;
    * ``solve(T, q0=None, **kw)`` → IKSolutions, ``solve_batch(T, q0=None, fill=0.0, **kw)`` → IKBatch
      (q0: the start pose, which fixes the free joint at a singularity).
    """

    method = ""
    position_only = False

    def __init__(self, robot: RobotLike):
        self.robot = robot
        self.n = robot.n
        self.lims = limit_table(robot)
        self.qlim = robot.qlim
        self.revolute = np.array([link.revolute for link in robot.links])

    @classmethod
    def match(cls, robot: RobotLike) -> Solver | None:
        raise NotImplementedError

    def solve(self, T: Any, q0: ArrayLike | None = None) -> IKSolutions:
        raise NotImplementedError

    def solve_batch(self, T: Any, q0: ArrayLike | None = None, fill: float = 0.0) -> IKBatch:
        raise NotImplementedError


def register(cls: type[Solver]) -> type[Solver]:
    """Class decorator: try ``cls.match`` when a robot's solver is looked up (in registration order)."""
    _SOLVERS.append(cls)
    return cls


def solver_for(robot: RobotLike) -> Any:  # a Solver, or None (Any: callers use a subclass's fields)
    """The closed-form solver that fits this robot's DH table, or None (built once per robot description,
    in :func:`armlab._core.codegen.cached_kernel`: an edited robot is a new description, with its own)."""
    return cached_kernel(robot, "ik.solver", _match)


def _match(robot: RobotLike) -> Solver | None:
    if robot.symbolic:
        return None
    for cls in _SOLVERS:
        solver = cls.match(robot)
        if solver is not None:
            return solver
    return None


def limit_table(robot: RobotLike) -> list[tuple[float, float, bool]]:
    """[(lo, hi, revolute)] per joint, limits widened by LIMIT_TOL (±inf without limits)."""
    out = []
    for link in robot.links:
        lo, hi = link.qlim if link.qlim is not None else (-math.inf, math.inf)
        out.append((lo - LIMIT_TOL, hi + LIMIT_TOL, link.revolute))
    return out


def fit_row(row: Sequence[float], lims: Sequence[tuple[float, float, bool]]) -> tuple[list[float], bool]:
    """Wrap a row of angles to (−π, π], then move each by ±2π into its range when that is possible.

    Returns (row, within_limits). The ±2π move is for joints whose range is wider than
    2π (PUMA θ6 ±266°) or lies outside (−π, π] (PUMA θ2 and θ3 −225°…45°).
    """
    ok = True
    out = []
    for x, (lo, hi, rev) in zip(row, lims):
        if rev:
            x = wrap_scalar(x)
            if not lo <= x <= hi:
                if x < lo and lo <= x + TAU <= hi:
                    x += TAU
                elif x > hi and lo <= x - TAU <= hi:
                    x -= TAU
                else:
                    ok = False  # moved by ±2π only where that lands inside (a range may lie beyond ±π)
        elif not lo <= x <= hi:
            ok = False
        out.append(x)
    return out, ok


def loop_batch(
    solver: Solver, T: ArrayLike, q0: ArrayLike | None, slots: int, labels: Sequence[str], fill: float = 0.0, **kw: Any
) -> IKBatch:
    """An :class:`IKBatch` by solving pose after pose (robots without a vectorised solver).

    Solutions go to the slot of their label (labels in slot order); ``kw`` go to ``solver.solve``.
    """
    if solver.position_only and np.shape(T)[-1:] == (3,):
        targets = as_float_array(T, "T", (3,))  # points (N, 3)
    else:
        targets = check_poses(T)
    N, n = len(targets), solver.n
    q = np.full((N, slots, n), fill, dtype=float)
    valid = np.zeros((N, slots), bool)
    ok = np.zeros((N, slots), bool)
    sing = np.zeros((N, slots), bool)
    reason = np.full(N, "", dtype=object)
    qc = check_joint_batch(q0, N, n)
    for i in range(N):
        s = solver.solve(targets[i], None if qc is None else qc[i], **kw)
        reason[i] = s.reason
        for j, lab in enumerate(s.labels):
            k = labels.index(lab.split(":")[0])
            q[i, k], valid[i, k], ok[i, k], sing[i, k] = s.q[j], True, s.within_limits[j], s.singular[j]
    return IKBatch(q, valid, ok, sing, reason, list(labels), solver.method)
