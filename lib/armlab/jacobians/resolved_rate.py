"""Resolved-rate motion control: q̇ = J⁺·ẋ, made safe near singularities.

Near a singularity the pseudo-inverse asks for huge joint rates. Damped least squares,
q̇ = Jᵀ(JJᵀ + λ²I)⁻¹·ẋ, trades a little tracking error for bounded rates. λ is switched on only
near a singularity (Nakamura–Hanafusa / Chiaverini): with σ_min the smallest singular value of J,

    λ² = 0                                if σ_min ≥ ε
    λ² = (1 − (σ_min/ε)²)·λ_max²          otherwise,

so away from singularities the solution is the exact one. ε (default 0.04) is where damping
starts; λ_max (default 0.04) bounds the rates to about ‖ẋ‖/(2λ_max) at the singularity itself.
Then: joints that would cross a limit are frozen for that step and the rest re-solved, and the
whole q̇ is scaled down (direction kept) if a joint exceeds ``qd_max``.

A run gives up, and says why, when it cannot do what it is asked. ‖J·q̇ − ẋ‖ alone cannot tell: the
plain pseudo-inverse makes it 0 even at a singularity, while its huge rates, integrated over a step,
throw the hand off the path. So the run also watches the joint rates and the path error: the distance
of the hand from where the requested velocities lead (their integral from the start pose).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
from numpy.typing import ArrayLike

from .._core.protocol import RobotLike
from .._core.validation import as_float_array, joint_vector
from ..transforms import R_to_axis_angle, axis_angle_to_R
from .analysis import part_of

__all__ = ["damping", "dls_rates", "resolved_rate", "RateResult"]


def damping(sigma_min: ArrayLike, eps: float = 0.04, lam_max: float = 0.04) -> np.ndarray:
    """λ of the damped least squares for the smallest singular value σ_min (see the module docstring)."""
    s = np.asarray(sigma_min, float)
    return np.where(s >= eps, 0.0, lam_max * np.sqrt(np.clip(1.0 - (s / eps) ** 2, 0.0, 1.0)))


def dls_rates(J: ArrayLike, xdot: ArrayLike, lam: float = 0.0) -> np.ndarray:
    """q̇ = Jᵀ(JJᵀ + λ²I)⁻¹·ẋ (λ = 0: the minimum-norm pseudo-inverse solution, via lstsq)."""
    J = np.asarray(J, float)
    xdot = np.asarray(xdot, float)
    if lam == 0.0:
        return np.linalg.lstsq(J, xdot, rcond=None)[0]
    return J.T @ np.linalg.solve(J @ J.T + lam * lam * np.eye(J.shape[0]), xdot)


@dataclass
class RateResult:
    """A resolved-rate run: time, joint values and rates, the tool pose, and what happened.

    ``ok`` is True when the run covered the whole time span within its give-up bounds; otherwise ``reason``
    says why it stopped (``gave_up``, the older name, is ``not ok``).
    """

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    T: np.ndarray
    sigma_min: np.ndarray
    lam: np.ndarray
    clamped: np.ndarray  # per step: a joint limit or the rate bound changed q̇
    tracking_error: np.ndarray  # ‖J·q̇ − ẋ‖ per step
    path_error: np.ndarray  # per step: (m, rad) of the hand from the integral of the requested ẋ
    gave_up: bool = False
    reason: str = ""
    steps: int = field(init=False)
    ok: bool = field(init=False)

    def __post_init__(self) -> None:
        self.steps = len(self.t) - 1
        self.ok = not self.gave_up


def _path_error(T: np.ndarray, p: np.ndarray, R: np.ndarray, moves: bool, turns: bool) -> tuple[float, float]:
    """(m, rad) of the pose T from the reference (p, R); 0 for a part the run is not asked to follow."""
    return (
        float(np.linalg.norm(T[:3, 3] - p)) if moves else 0.0,
        float(R_to_axis_angle(T[:3, :3] @ R.T)[1]) if turns else 0.0,
    )


def _off_path(t: float, path: tuple[float, float], bound: float, smin: float, damped: bool) -> str:
    return (
        f"t = {t:.4g} s: the hand is {path[0]:.3g} m and {path[1]:.3g} rad off the path the velocities describe, "
        f"over give_up_path = {bound:.3g} (σ_min = {smin:.3g}{'; use damping' if not damped else ''})"
    )


def resolved_rate(
    robot: RobotLike,
    q0: ArrayLike,
    velocity: Callable[[float, np.ndarray], ArrayLike],
    t_end: float,
    dt: float,
    *,
    damped: bool = True,
    eps: float = 0.04,
    lam_max: float = 0.04,
    qd_max: float | None = None,
    part: str = "all",
    joint_limits: bool = True,
    give_up_error: float = 0.5,
    give_up_rate: float = 20.0,
    give_up_path: float = 0.05,
    max_steps: int = 100_000,
) -> RateResult:
    """Integrate q̇ = J⁺ẋ from q0 for ``t_end`` seconds with step ``dt``.

    ``velocity(t, q)`` gives the desired base-frame ẋ: 6 entries (v, ω) for ``part="all"``, 3 for
    "trans" or "rot". ``damped=False`` uses the plain pseudo-inverse (to see the blow-up).
    It gives up — returns what it has, with ``ok`` False and a ``reason`` — when the achieved task
    velocity misses the desired one by more than ``give_up_error``·‖ẋ‖ (e.g. every useful joint at
    a limit), when a joint rate exceeds ``give_up_rate`` (rad/s, m/s for a prismatic joint; a real
    arm manages a few), when the hand is more than ``give_up_path`` (m, and rad for the orientation)
    from where the requested velocities lead, or when a rate is not finite. It never returns NaN.
    ``np.inf`` switches a test off. (With feedback inside ``velocity``, the path error measures how
    well the requested velocities were carried out, not the distance from your own path.)
    """
    q = joint_vector(q0, robot.n, "q0", symbolic=False, batch=False).copy()
    v: Any
    for name, span in (("t_end", t_end), ("dt", dt)):
        if not (isinstance(span, (int, float)) and np.isfinite(span) and span > 0):
            raise ValueError(f"{name} must be a positive finite number, got {span!r}")
    if qd_max is not None and not (np.isfinite(qd_max) and qd_max > 0):
        raise ValueError(f"qd_max must be a positive number, got {qd_max!r}")
    for name, bound in (
        ("give_up_error", give_up_error),
        ("give_up_rate", give_up_rate),
        ("give_up_path", give_up_path),
    ):
        if not (isinstance(bound, (int, float)) and bound > 0):
            raise ValueError(f"{name} must be a positive number (np.inf: never give up on it), got {bound!r}")
    steps = int(round(t_end / dt))
    if steps > max_steps:
        raise ValueError(f"t_end / dt = {steps} steps exceeds max_steps = {max_steps}")
    lo, hi = robot.qlim[:, 0], robot.qlim[:, 1]
    rows = {"all": 6, "trans": 3, "rot": 3}.get(part)
    if rows is None:
        raise ValueError(f"part must be 'all', 'trans' or 'rot', got {part!r}")
    out: dict[str, list[Any]] = {k: [] for k in ("q", "qd", "T", "s", "lam", "clamped", "err", "path")}
    t = [0.0]
    reason = ""
    T = robot.fkine(q)
    p_ref, R_ref = T[:3, 3].copy(), T[:3, :3].copy()  # where the requested velocities lead
    moves, turns = part in ("all", "trans"), part in ("all", "rot")
    for k in range(steps):
        J = part_of(robot.jacob0(q), part)
        xd = as_float_array(velocity(t[-1], q.copy()), "velocity(t, q)", (rows,), allow_batch=False)
        path = _path_error(T, p_ref, R_ref, moves, turns)
        s = np.linalg.svd(J, compute_uv=False)
        smin = float(s[min(rows, robot.n) - 1]) if len(s) else 0.0
        lam = float(damping(smin, eps, lam_max)) if damped else 0.0
        qd = dls_rates(J, xd, lam)
        clamped = False
        if joint_limits:  # freeze the joints that would cross a limit, re-solve with the rest, repeat
            frozen = np.zeros(robot.n, bool)
            for _ in range(robot.n):
                crossing = ((q + qd * dt < lo) & (qd < 0)) | ((q + qd * dt > hi) & (qd > 0))
                if not crossing.any():
                    break
                clamped = True
                frozen |= crossing
                qd = np.zeros(robot.n)
                if not frozen.all():
                    qd[~frozen] = dls_rates(J[:, ~frozen], xd, lam)
        if qd_max is not None and np.abs(qd).max() > qd_max:
            qd *= qd_max / np.abs(qd).max()
            clamped = True
        err = float(np.linalg.norm(J @ qd - xd))
        if not np.isfinite(qd).all():
            reason = f"step {k}: the joint rates are not finite (σ_min = {smin:.3g}); use damping"
            break
        for key, v in (
            ("q", q.copy()),
            ("qd", qd),
            ("T", T),
            ("s", smin),
            ("lam", lam),
            ("clamped", clamped),
            ("err", err),
            ("path", path),
        ):
            out[key].append(v)
        if np.abs(qd).max() > give_up_rate:
            j = int(np.abs(qd).argmax())
            reason = (
                f"t = {t[-1]:.4g} s: joint {j + 1} would move at {abs(qd[j]):.3g} rad/s, over give_up_rate = "
                f"{give_up_rate:.3g} (σ_min = {smin:.3g}{'; use damping' if not damped else ''})"
            )
            break
        if max(path) > give_up_path:
            reason = _off_path(t[-1], path, give_up_path, smin, damped)
            break
        if err > give_up_error * max(float(np.linalg.norm(xd)), 1e-12) and np.linalg.norm(xd) > 0:
            near = smin < eps
            why = (
                "near a singularity (σ_min = %.3g), the rates it needs would cross joint limits" % smin
                if near and clamped
                else "near a singularity (σ_min = %.3g)" % smin
                if near
                else "joints at their limits"
                if clamped
                else "the velocity asks for a direction J cannot give"
            )
            reason = (
                f"t = {t[-1]:.4g} s: cannot follow the requested velocity (tracking error "
                f"{err:.3g} vs |ẋ| = {np.linalg.norm(xd):.3g}; {why})"
            )
            break
        q = q + qd * dt
        v_ref, w_ref = (xd[:3] if moves else np.zeros(3)), (xd[-3:] if turns else np.zeros(3))
        p_ref = p_ref + v_ref * dt
        if np.linalg.norm(w_ref) > 1e-12:  # below, a turn too small to count
            R_ref = axis_angle_to_R(w_ref, np.linalg.norm(w_ref) * dt) @ R_ref
        T = robot.fkine(q)
        t.append(t[-1] + dt)
    else:
        out["q"].append(q.copy())
        out["qd"].append(np.zeros(robot.n))
        out["T"].append(T)
        s = np.linalg.svd(part_of(robot.jacob0(q), part), compute_uv=False)
        path = _path_error(T, p_ref, R_ref, moves, turns)
        smin = float(s[min(rows, robot.n) - 1])
        if max(path) > give_up_path:  # the last step's, which no later step would check
            reason = _off_path(t[-1], path, give_up_path, smin, damped)
        for key, v in (
            ("s", smin),
            ("lam", 0.0),
            ("clamped", False),
            ("err", 0.0),
            ("path", path),
        ):
            out[key].append(v)
    n_rec = len(out["q"])
    return RateResult(
        np.array(t[:n_rec]),
        np.array(out["q"]),
        np.array(out["qd"]),
        np.array(out["T"]),
        np.array(out["s"]),
        np.array(out["lam"]),
        np.array(out["clamped"]),
        np.array(out["err"]),
        np.array(out["path"]).reshape(-1, 2),
        gave_up=bool(reason),
        reason=reason,
    )
