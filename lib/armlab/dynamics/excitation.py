"""Excitation trajectories for identification: a finite Fourier series per joint (Swevers et al. 1997).

    q_i(t) = q0_i + Σ_{l=1..H} [a_il/(ω_f l)·sin(ω_f l t) − b_il/(ω_f l)·cos(ω_f l t)],   ω_f = 2π f0

is periodic (period 1/f0), so measurements can be averaged over periods, and its q̇ and q̈ are exact. Its
coefficients are chosen to make the stacked base regressor Ξ (3.1) well conditioned — small cond(Ξ)
means every base parameter is seen and none is confused with another — while staying inside the
driver's position, velocity and effort limits with margins. :func:`design_excitation` does that with
scipy's SLSQP from the best of a few random starts.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._core.protocol import RobotLike
from .._core.validation import joint_vector
from .base_params import base_parameters
from .model import GRAVITY, rne

__all__ = ["Excitation", "design_excitation", "regressor_condition"]


class Excitation:
    """A Fourier excitation: coefficients ``a``, ``b`` (n, H) (rad/s), centre ``q0`` (n), base frequency
    ``f0`` (Hz). Call it with times → (q, q̇, q̈), each (N, n). :func:`design_excitation` sets ``cond`` and
    ``start_cond``, the condition number of the best random start it optimised from."""

    def __init__(self, a: np.ndarray, b: np.ndarray, q0: np.ndarray, f0: float) -> None:
        self.a, self.b = np.atleast_2d(np.asarray(a, float)), np.atleast_2d(np.asarray(b, float))
        self.q0, self.f0 = np.asarray(q0, float), float(f0)
        if self.a.shape != self.b.shape or self.a.shape[0] != self.q0.size:
            raise ValueError(f"a and b must be (n, H) with n = q0's {self.q0.size}, got {self.a.shape}, {self.b.shape}")
        if not self.f0 > 0:
            raise ValueError(f"f0 must be positive (Hz), got {f0!r}")
        self.cond = self.start_cond = None

    @property
    def period(self) -> float:
        return 1.0 / self.f0

    @property
    def harmonics(self) -> int:
        return self.a.shape[1]

    def __call__(self, t):
        t = np.asarray(t, float).reshape(-1)
        w = 2 * np.pi * self.f0 * np.arange(1, self.harmonics + 1)  # (H,)
        s, c = np.sin(np.outer(t, w)), np.cos(np.outer(t, w))  # (N, H)
        q = self.q0 + s @ (self.a / w).T - c @ (self.b / w).T
        qd = c @ self.a.T + s @ self.b.T
        qdd = -s @ (self.a * w).T + c @ (self.b * w).T
        return q, qd, qdd

    def sample(self, rate: float, periods: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(t, q, q̇, q̈) at ``rate`` Hz over ``periods`` periods."""
        t = np.arange(int(round(periods * self.period * rate))) / rate
        return (t, *self(t))

    def peaks(self, robot: RobotLike, samples: int = 400, gravity: Any = GRAVITY) -> dict[str, np.ndarray]:
        """Extremes over one period: q min and max, max |q̇| and max |τ| of the robot's own model, each (n,)."""
        q, qd, qdd = self(np.linspace(0, self.period, samples, endpoint=False))
        tau = rne(robot, q, qd, qdd, gravity)
        return {"q_min": q.min(0), "q_max": q.max(0), "qd_max": np.abs(qd).max(0), "tau_max": np.abs(tau).max(0)}

    def __repr__(self):
        cond = "" if self.cond is None else f", cond {self.cond:.3g}"
        return f"Excitation({self.q0.size} joints, {self.harmonics} harmonics, f0 {self.f0:g} Hz{cond})"


def _inside(x, slack, factor):
    """x scaled down by ``factor`` until every slack is ≥ 0 (None if that takes too long)."""
    for _ in range(100):
        if slack(x).min() >= 0:
            return x
        x = x * factor
    return None


def regressor_condition(
    robot: RobotLike, excitation: Excitation, friction: bool = True, samples: int = 100, gravity: Any = GRAVITY
) -> float:
    """cond(Ξ) of the column-normalised stacked base regressor over one period (``samples`` states)."""
    params = base_parameters(robot, friction, gravity=gravity)
    q, qd, qdd = excitation(np.linspace(0, excitation.period, samples, endpoint=False))
    X = params.regressor(q, qd, qdd).reshape(-1, params.count)
    norms = np.linalg.norm(X, axis=0)
    if (norms == 0).any():
        return np.inf
    Xn = X / norms
    lam = np.linalg.eigvalsh(
        Xn.T @ Xn
    )  # σ² of Xn: a small eigenproblem instead of the SVD of Ξ (≤ 1e7 is exact enough)
    return float(np.sqrt(lam[-1] / lam[0])) if lam[0] > 1e-14 * lam[-1] else np.inf


def design_excitation(
    robot: RobotLike,
    *,
    harmonics: int = 3,
    f0: float = 0.1,
    q0: ArrayLike | None = None,
    max_speed: ArrayLike | None = None,
    max_effort: ArrayLike | None = None,
    margin: float = 0.1,
    friction: bool = True,
    samples: int = 50,
    starts: int = 3,
    seed: int = 0,
    maxiter: int = 30,
    gravity: Any = GRAVITY,
) -> Excitation:
    """An :class:`Excitation` optimised for cond(Ξ) inside the limits, with ``margin`` (a fraction) kept from
    each: the joint range (robot.qlim), ``max_speed`` (rad/s, (n,)) and ``max_effort`` (N·m, (n,), the
    robot's own model's torques). ``q0``: the centre (default: mid-range); ``starts`` random starts."""
    from scipy.optimize import minimize  # lazily: import armlab stays light

    n, H = robot.n, int(harmonics)
    lo, hi = np.asarray(robot.qlim, float).T
    if not (np.isfinite(lo).all() and np.isfinite(hi).all()):
        raise ValueError("design_excitation needs finite joint limits (robot.qlim)")
    span = hi - lo
    lo_m, hi_m = lo + margin * span / 2, hi - margin * span / 2
    q0v = (lo + hi) / 2 if q0 is None else joint_vector(q0, n, "q0", symbolic=False, batch=False)
    if np.any(q0v <= lo_m) or np.any(q0v >= hi_m):
        raise ValueError(f"q0 must be inside the joint limits less the margin, got {q0v}")
    vmax = np.full(n, np.inf) if max_speed is None else (1 - margin) * np.asarray(max_speed, float)
    emax = np.full(n, np.inf) if max_effort is None else (1 - margin) * np.asarray(max_effort, float)
    t = np.linspace(0, 1.0 / f0, 4 * samples, endpoint=False)  # the limits, checked between cond's samples too

    def make(x):
        return Excitation(x[: n * H].reshape(n, H), x[n * H :].reshape(n, H), q0v, f0)

    def slack(x):  # ≥ 0 inside: position low/high, speed, effort, per joint (worst sample)
        ex = make(x)
        q, qd, qdd = ex(t)
        parts = [q.min(0) - lo_m, hi_m - q.max(0), vmax - np.abs(qd).max(0)]
        if np.isfinite(emax).any():
            parts.append(emax - np.abs(rne(robot, q, qd, qdd, gravity)).max(0))
        return np.nan_to_num(np.concatenate(parts), posinf=1e3)

    def cost(x):
        return np.log(regressor_condition(robot, make(x), friction, samples, gravity))

    rng = np.random.default_rng(seed)
    best = None
    for _ in range(max(1, starts)):
        x = rng.normal(size=2 * n * H) / np.tile(np.arange(1, H + 1), 2 * n)  # falling spectrum
        x = _inside(x, slack, 0.8)
        if x is not None and (best is None or cost(x) < best[0]):
            best = (cost(x), x)
    if best is None:
        raise ValueError("no start fits inside the limits: lower the margin or the effort demands")
    res = minimize(
        cost,
        best[1],
        method="SLSQP",
        constraints=[{"type": "ineq", "fun": slack}],
        options={"maxiter": maxiter, "ftol": 1e-4},
    )
    x = _inside(res.x, slack, 0.97)  # SLSQP may stop (iteration limit) slightly outside: pull it in
    if x is None or not cost(x) < best[0]:
        x = best[1]
    ex = make(x)
    ex.cond = regressor_condition(robot, ex, friction, samples, gravity)
    ex.start_cond = float(np.exp(best[0]))
    return ex
