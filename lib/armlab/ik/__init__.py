"""Inverse kinematics: closed forms for the course robots and a numeric solver for any DHRobot.

Closed forms (recognised from the robot's DH table, see :func:`solver_for`):

* PUMA560, textbook §3.2.3 eqs. (3.33)–(3.53), up to 8 solutions (:mod:`armlab.ik.puma560`),
  also batched: ``robot.ikine_all(T)`` with T (N, 4, 4) → IKBatch with q (N, 8, 6);
* KUKA youBot arm, lab report §2.1.3 eqs. (2.9)–(2.28), up to 4 solutions (:mod:`armlab.ik.youbot`);
* planar 2R / 3R arms, up to 2 solutions (:mod:`armlab.ik.planar`).

Numeric: damped least squares / Levenberg–Marquardt on ``jacob0`` (:mod:`armlab.ik.numeric`).

The simulation paper's general route for any 3-R arm, its norm equations (5)–(11) with the quartic (10):
:func:`norm_equation_ik` (:mod:`armlab.ik.norm3r`).

Every solver returns an :class:`IKSolutions`. One solution is chosen from many by the
weighted joint motion J = Σ kᵢ|Δθᵢ| of the simulation paper (003) eq. (12): :func:`select`.

API (also as DHRobot methods):

* ``robot.ikine_all(T, q0=None)`` → IKSolutions (all branches; T (N, 4, 4) → IKBatch);
  youBot also ``project=True``. ``q0``, the start pose, only picks the free joint at a singularity.
* ``robot.ikine(T, q0=None, weights=None)`` → IKSolutions with one row (least J from q0), or none.
* ``robot.ikine_numeric(T, q0=None, *, mask=None, tol=1e-10, max_iter=100, restarts=20, seed=0,
  lam=1e-3, joint_limits=True)`` → IKSolutions with one row and success/iterations/residual.
* ``planar2r_ikine(x, y, l1, l2)``, ``planar3r_ikine(x, y, φ, l1, l2, l3)``.
* ``joint_motion(q, q0, weights, qlim, revolute)`` → (J, q moved to the nearest equivalents).

The start pose is ``q0`` everywhere; the old keyword ``q_current=`` still works for one term, with a
DeprecationWarning.

Every result has ``ok`` (a usable solution) and ``reason`` (``''`` when ok), like the other packages' results.

Where two roots coincide (workspace boundary, wrist singularity) both rows are still returned
(equal to rounding, about √ε ≈ 1e-8 at a boundary); ``sols.unique(tol)`` drops the repeats.

>>> import numpy as np, armlab
>>> robot = armlab.models.puma560()
>>> T = robot.fkine(np.radians([20, -30, 40, 10, 30, 50]))
>>> sols = robot.ikine_all(T)
>>> len(sols), sols.labels[0], sols.q.shape, int(sols.within_limits.sum())
(8, 'left-up-noflip', (8, 6), 2)
>>> best = robot.ikine(T, q0=np.radians([15, -20, 30, 0, 20, 40]))
>>> best.labels, np.degrees(best.q[0]).round(6).tolist()
(['left-up-noflip'], [20.0, -30.0, 40.0, 10.0, 30.0, 50.0])
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._core.angles import wrap_angle
from .._core.deprecation import renamed_kwargs
from .._core.protocol import RobotLike
from . import puma560, youbot, planar, elbow3r  # noqa: F401, I001 - registers the closed-form solvers, in this order
from .numeric import ikine_numeric
from .norm3r import NormEquations, norm_equation_ik
from .planar import planar2r_ikine, planar3r_ikine
from .puma560 import PUMA_LABELS
from .results import IKBatch, IKSolutions
from .selection import PAPER_WEIGHTS, joint_motion, select
from .solver import solver_for

__all__ = [
    "IKSolutions",
    "IKBatch",
    "ikine_all",
    "ikine",
    "ikine_numeric",
    "norm_equation_ik",
    "NormEquations",
    "select",
    "joint_motion",
    "solver_for",
    "planar2r_ikine",
    "planar3r_ikine",
    "wrap_angle",
    "PAPER_WEIGHTS",
    "PUMA_LABELS",
]


@renamed_kwargs(q_current="q0")
def ikine_all(robot: RobotLike, T: ArrayLike, q0: ArrayLike | None = None, **kw: Any) -> IKSolutions | IKBatch:
    """All closed-form solutions of pose T (4×4) for a recognised robot; T (N, 4, 4) gives an :class:`IKBatch`.

    ``q0`` (the start pose; (n,), or (N, n) for a batch) only matters at singularities: the free joint
    keeps its value in q0.
    Extra keywords go to the robot's solver (youBot: ``project=True`` solves the nearest
    reachable pose instead of returning an empty result).
    Raises NotImplementedError for other robots (use :func:`ikine_numeric`).
    """
    return _ikine_all(robot, T, q0, **kw)


def _ikine_all(robot: RobotLike, T: Any, q0: ArrayLike | None, **kw: Any) -> Any:
    solver = solver_for(robot)
    if solver is None and robot.symbolic:
        raise NotImplementedError(
            f"{robot.name or 'this robot'!r} has symbolic DH parameters; inverse "
            "kinematics needs numbers (e.g. armlab.models.puma560() without symbolic=True)"
        )
    if solver is None:
        raise NotImplementedError(
            f"no closed-form inverse kinematics for {robot.name or 'this robot'!r}: its DH table is not "
            "the PUMA560, youBot, planar 2R/3R or articulated 3-R structure. Use robot.ikine_numeric(T, q0) "
            "(armlab.ik.ikine_numeric), the damped-least-squares solver."
        )
    ndim = T.ndim if type(T) is np.ndarray else np.ndim(T)
    if getattr(solver, "position_only", False) and np.shape(T)[-1:] == (3,):
        ndim += 1  # a point (3,) or points (N, 3) for an arm that only places a point
    if ndim == 3:
        return solver.solve_batch(np.asarray(T), q0, **kw)
    return solver.solve(T, q0, **kw)


@renamed_kwargs(q_current="q0")
def ikine(
    robot: RobotLike, T: ArrayLike, q0: ArrayLike | None = None, weights: ArrayLike | None = None, **kw: Any
) -> IKSolutions:
    """One closed-form solution of T: the least weighted joint motion from the start pose q0 (:func:`select`).

    Returns an :class:`IKSolutions` with k = 1, or k = 0 and a reason. q0 None means zeros.
    """
    if (T.ndim if type(T) is np.ndarray else np.ndim(T)) == 3:
        raise ValueError(
            f"T must have shape (4, 4) for ikine, got shape {np.shape(T)}; for a batch "
            "(N, 4, 4) use ikine_all, which returns every solution of every pose"
        )
    sols = _ikine_all(robot, T, q0, **kw)
    solver = solver_for(robot)
    assert solver is not None  # _ikine_all raised otherwise
    return select.__wrapped__(sols, q0, weights, solver.qlim, solver.revolute)  # type: ignore[attr-defined]
