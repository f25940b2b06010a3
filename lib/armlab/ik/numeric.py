"""Numeric inverse kinematics for any DHRobot: damped least squares / Levenberg–Marquardt.

Error of the current pose T(q) against the target T*, in the base frame (the rows of ``jacob0``):

    e = [p* − p ;  ω],   ω = θ·k with Rot(k, θ) = R*·Rᵀ   (axis–angle of the rotation still to do)

Step (damped least squares, with the task mask W = diag(mask)):

    Δq = (JᵀWJ + λI)⁻¹ JᵀW e

λ is adapted as in Levenberg–Marquardt: a step that lowers ‖W e‖ is kept and λ shrinks, one that
does not is rejected and λ grows. Joints are clamped to their limits after every step, and a
joint resting on a limit that the descent direction would push further out is held fixed (its
Jacobian column zeroed) so that the others still make progress. A search
stops on convergence, after ``max_iter`` iterations, or when it stalls (λ too large); then a new
search starts from a random configuration within the limits (``numpy.random.default_rng(seed)``),
up to ``restarts`` times. Same q0 and seed, same answer.

>>> import numpy as np, armlab
>>> robot = armlab.models.puma560()
>>> T = robot.fkine([0.3, -0.5, 0.4, 0.2, 0.6, -0.1])
>>> sol = robot.ikine_numeric(T, q0=np.zeros(6))
>>> sol.success, bool(np.allclose(robot.fkine(sol.q[0]), T, atol=1e-9))
(True, True)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._core.protocol import RobotLike
from .._core.validation import as_float_array, check_pose, joint_vector
from .results import IKSolutions
from .solver import fit_row, limit_table


def pose_error(T: np.ndarray, T_target: np.ndarray) -> np.ndarray:
    """6-vector [p* − p; ω] of T against T_target, ω = axis·angle of R*·Rᵀ (base frame)."""
    dp = T_target[:3, 3] - T[:3, 3]
    Re = T_target[:3, :3] @ T[:3, :3].T
    v = np.array([Re[2, 1] - Re[1, 2], Re[0, 2] - Re[2, 0], Re[1, 0] - Re[0, 1]])  # 2·sinθ·k
    s = 0.5 * math.sqrt(float(v @ v))
    c = 0.5 * (Re[0, 0] + Re[1, 1] + Re[2, 2] - 1.0)
    theta = math.atan2(s, c)
    if s > 1e-7:
        w = v * (theta / (2.0 * s))
    elif c > 0:
        w = 0.5 * v  # small angle: θ·k ≈ sinθ·k
    else:
        # θ ≈ π: k from the symmetric part (R + I)/2 = k·kᵀ
        B = 0.5 * (Re + np.eye(3))
        i = int(np.argmax(np.diag(B)))
        k = B[:, i] / math.sqrt(max(B[i, i], 1e-300))
        if v @ k < 0:
            k = -k
        w = theta * k
    return np.concatenate([dp, w])


def ikine_numeric(
    robot: RobotLike,
    T: ArrayLike,
    q0: ArrayLike | None = None,
    *,
    mask: ArrayLike | None = None,
    tol: float = 1e-10,
    max_iter: int = 100,
    restarts: int = 20,
    seed: Any = 0,
    lam: float = 1e-3,
    joint_limits: bool = True,
) -> IKSolutions:
    """One solution of T by damped least squares / Levenberg–Marquardt on ``robot.jacob0``.

    Parameters
    ----------
    T : (4, 4) target pose
    q0 : (n,) start (default: the middle of the joint ranges, 0 where a joint has no limits)
    mask : 6 weights of the error rows (vx, vy, vz, ωx, ωy, ωz), e.g. (1, 1, 1, 0, 0, 0) for
        position only. Default: for a planar arm (every α = 0) (1, 1, 0, 0, 0, 1) with 3 joints and
        (1, 1, 0, 0, 0, 0) with 1 or 2; (1, 1, 1, 0, 0, 0) for any other robot with fewer than
        6 joints; else all six.
    tol : convergence threshold on the masked position error (m) and orientation error (rad)
    max_iter : iterations per search; restarts : extra searches from random starts; seed : their RNG
    lam : initial damping λ; joint_limits : clamp every step to the joint limits

    Returns an :class:`~armlab.ik.IKSolutions` with k = 1: ``q`` (1, n) (the best found, also on
    failure), ``success`` (= ``ok``), ``iterations`` (total), ``searches``, ``residual`` = (position error m,
    orientation error rad) over the masked rows, ``reason`` ('' on success), ``within_limits``.
    """
    rows = check_pose(T)
    Tt = np.array(rows)
    n = robot.n
    lims = limit_table(robot)
    lo = np.array([l[0] for l in lims])
    hi = np.array([l[1] for l in lims])
    W = _mask(robot, mask)
    Wp, Wr = W[:3] > 0, W[3:] > 0
    if q0 is None:
        finite = np.isfinite(lo) & np.isfinite(hi)
        q = np.zeros(n)
        q[finite] = 0.5 * (lo[finite] + hi[finite])  # mid-range; 0 for unlimited joints
    else:
        q = joint_vector(q0, n, "q0", symbolic=False, batch=False).copy()
    for name, v in (("max_iter", max_iter), ("restarts", restarts)):
        if not isinstance(v, (int, np.integer)) or v < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {v!r}")
    if joint_limits:
        q = np.clip(q, lo, hi)
    rng = np.random.default_rng(seed)
    span_lo = np.where(np.isfinite(lo), lo, -math.pi)
    span_hi = np.where(np.isfinite(hi), hi, math.pi)

    def residual(e: np.ndarray) -> tuple[float, float]:
        return (float(np.linalg.norm(e[:3][Wp])), float(np.linalg.norm(e[3:][Wr])))

    best = (math.inf, q.copy(), (math.inf, math.inf))
    iterations = 0
    searches = 0
    for search in range(restarts + 1):
        searches += 1
        if search > 0:
            q = rng.uniform(span_lo, span_hi)
        e = pose_error(robot.fkine(q), Tt)
        err = float(np.sqrt((W * e) @ e))
        damping = lam
        for _ in range(max_iter):
            res = residual(e)
            if res[0] <= tol and res[1] <= tol:
                break
            iterations += 1
            J = robot.jacob0(q)
            if joint_limits:
                # active set: a joint on a limit whose step would leave the range is held fixed
                free = _free_joints(J, W, e, q, lo, hi)
                J = J * free
            JtW = J.T * W
            H = JtW @ J
            g = JtW @ e
            try:
                dq = np.linalg.solve(H + damping * np.eye(n), g)
            except np.linalg.LinAlgError:
                damping *= 10.0
                continue
            q_new = q + dq
            if joint_limits:
                q_new = np.clip(q_new, lo, hi)
            e_new = pose_error(robot.fkine(q_new), Tt)
            err_new = float(np.sqrt((W * e_new) @ e_new))
            if err_new < err:
                q, e, err = q_new, e_new, err_new
                damping = max(damping / 3.0, 1e-12)
            else:
                damping *= 4.0
                if damping > 1e8:  # stalled: local minimum or a limit in the way
                    break
        res = residual(e)
        score = res[0] + res[1]
        if score < best[0]:
            best = (score, q.copy(), res)
        if res[0] <= tol and res[1] <= tol:
            break
    _, q, res = best
    success = res[0] <= tol and res[1] <= tol
    row, ok = fit_row(q.tolist(), lims)
    reason = (
        ""
        if success
        else (
            f"did not converge: best residual {res[0]:.3g} m, {res[1]:.3g} rad after {searches} search(es), "
            f"{iterations} iterations; the target is probably out of reach"
            + (" or not reachable with these joint limits" if joint_limits else "")
        )
    )
    if not success:  # an explained empty result; the closest attempt is kept apart, not as a solution
        return IKSolutions.empty(
            n,
            reason,
            method="numeric",
            success=False,
            iterations=iterations,
            searches=searches,
            residual=res,
            best_q=np.array(row),
        )
    return IKSolutions(
        np.array([row]),
        ["numeric"],
        np.array([ok]),
        np.array([False]),
        method="numeric",
        success=True,
        iterations=iterations,
        searches=searches,
        residual=res,
    )


def _free_joints(
    J: np.ndarray, W: np.ndarray, e: np.ndarray, q: np.ndarray, lo: np.ndarray, hi: np.ndarray
) -> np.ndarray:
    """1 for joints that may move, 0 for those on a limit that the descent direction pushes out."""
    g = (J.T * W) @ e  # steepest-descent direction of ½‖W e‖²
    at_lo = (q <= lo + 1e-12) & (g < 0)
    at_hi = (q >= hi - 1e-12) & (g > 0)
    return np.where(at_lo | at_hi, 0.0, 1.0)


def _mask(robot: RobotLike, mask: ArrayLike | None) -> np.ndarray:
    if mask is not None:
        W = as_float_array(mask, "mask", (6,), allow_batch=False)
        if np.any(W < 0) or not np.any(W > 0):
            raise ValueError(f"mask must be 6 non-negative weights, not all zero, got {mask!r}")
        return W
    planar = all(l.alpha == 0.0 for l in robot.links)  # every z axis parallel, either convention
    if planar and robot.n <= 3:
        return np.array([1.0, 1.0, 0.0, 0.0, 0.0, 1.0]) if robot.n == 3 else np.array([1.0, 1, 0, 0, 0, 0])
    if robot.n < 6:
        return np.array([1.0, 1, 1, 0, 0, 0])
    return np.ones(6)
