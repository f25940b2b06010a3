"""Lab 3's excitation trajectory and a first identification from a session log.

* :func:`excitation_trajectory` — a windowed finite Fourier series per joint: it starts and ends at
  rest at q0 (the sin² window), stays within the speed cap, and excites every joint at once.
* :func:`model_terms` / :func:`identify_scaling` — a grey-box least squares that *this* course can do
  before chapter 7: per joint i,

      τ_i ≈ α_i·(M q̈ + C q̇)_i + γ_i·G_i + f_c,i·sign(q̇_i) + f_v,i·q̇_i,

  i.e. how much the model's inertial (M and C come from the same masses and inertias) and gravity torques
  must be scaled, plus Coulomb and viscous friction, from the (q, q̇, q̈, τ) of :func:`armlab.lab.log.identification_data`.
  Chapter 7 replaces the model terms by the full base-parameter regressor; the data path stays.
* :func:`identify_log` — chapter 7's identification (:func:`armlab.dynamics.identify`) from a session log:
  the same data path, :func:`armlab.lab.log.identification_data`, hands it the arrays.
"""

from __future__ import annotations

import inspect
import os
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..dynamics import Identification, identify
from .log import LogContents, identification_data

__all__ = ["excitation_trajectory", "model_terms", "identify_scaling", "predict", "identify_log", "PARAMETERS"]

#: The options of :func:`identify_log`: identification_data's, and identify's besides the arrays.
_DATA_OPTIONS = frozenset(inspect.signature(identification_data).parameters) - {"log"}
_FIT_OPTIONS = frozenset(inspect.signature(identify).parameters) - {"robot", "q", "qd", "qdd", "tau"}

#: The four parameters identified per joint, in column order.
PARAMETERS = ("alpha (M q̈ + C q̇)", "gamma (G)", "Coulomb f_c (N·m)", "viscous f_v (N·m·s/rad)")


def excitation_trajectory(
    q0: ArrayLike,
    duration: float = 8.0,
    rate: float = 50.0,
    amplitude: ArrayLike = (0.5, 0.35, 0.45, 0.5, 0.6),
    base_hz: float = 0.25,
    harmonics: tuple[int, ...] = (1, 2, 3),
    seed: int = 7,
    max_speed: float = 0.9,
) -> tuple[np.ndarray, np.ndarray]:
    """(t, q): q(t) = q0 + sin²(πt/T)·Σ_k a_jk sin(2π k f t + φ_jk), sampled at ``rate`` Hz (DH angles).

    Amplitudes a_jk split ``amplitude[j]`` (rad) over the harmonics with random phases (``seed``);
    the whole trajectory is scaled down if its peak joint speed would exceed ``max_speed`` rad/s.
    """
    q0 = np.asarray(q0, dtype=float)
    rng = np.random.default_rng(seed)
    n = int(round(duration * rate))
    t = np.arange(1, n + 1) / rate
    w = np.sin(np.pi * t / duration) ** 2
    amp = np.asarray(amplitude, float)[:, None] / len(harmonics) * np.ones((1, len(harmonics)))
    phase = rng.uniform(0, 2 * np.pi, amp.shape)
    k = np.asarray(harmonics, float)
    wave = np.einsum("jk,tjk->tj", amp, np.sin(2 * np.pi * base_hz * k[None, None, :] * t[:, None, None] + phase))
    dq = w[:, None] * wave  # the window starts and ends at q0, at rest
    speed = np.abs(np.diff(np.vstack([np.zeros(5), dq]), axis=0)).max() * rate
    if speed > max_speed:
        dq *= max_speed / speed
    return t, q0 + dq


def model_terms(
    robot: Any, q: np.ndarray, qd: np.ndarray, qdd: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(M q̈, C q̇, G), each (N, n), of the model ``robot`` along a measured motion."""
    Mqdd = np.einsum("nij,nj->ni", robot.inertia(q), qdd)
    Cqd = np.einsum("nij,nj->ni", robot.coriolis(q, qd), qd)
    return Mqdd, Cqd, robot.gravload(q)


def _columns(robot, data):
    Mqdd, Cqd, G = model_terms(robot, data["q"], data["qd"], data["qdd"])
    qd = data["qd"]
    return np.stack([Mqdd + Cqd, G, np.tanh(qd / 0.01), qd], axis=-1)  # (N, n, 4); tanh: a smooth sign


def _smooth(x, n):
    """Moving average over n samples along axis 0 ('valid' part): the same filter for τ and the regressor."""
    if n <= 1:
        return x
    c = np.cumsum(np.concatenate([np.zeros((1,) + x.shape[1:]), x]), axis=0)
    return (c[n:] - c[:-n]) / n


def identify_scaling(robot: Any, data: dict[str, np.ndarray], smooth: int = 5) -> tuple[np.ndarray, np.ndarray]:
    """Least-squares parameters (n, 4) in :data:`PARAMETERS` order, one independent fit per joint, and
    the fit's residual RMS per joint (N·m). τ and the regressor columns are low-passed by the same
    ``smooth``-sample moving average first (parallel filtering: the fit is linear, so filtering both sides
    keeps it exact while q̈'s differentiation noise averages out). A term that is identically zero for a
    joint (gravity on a vertical axis) is left out of that joint's fit (its parameter reads 0)."""
    Y, tau = _smooth(_columns(robot, data), smooth), _smooth(data["tau"], smooth)
    theta, rms = np.zeros((robot.n, Y.shape[-1])), np.zeros(robot.n)
    for i in range(robot.n):
        Yi = Y[:, i, :]
        scale = np.abs(Yi).max(axis=0)
        used = scale > 1e-9
        sol, *_ = np.linalg.lstsq(Yi[:, used] / scale[used], tau[:, i], rcond=None)
        theta[i, used] = sol / scale[used]  # columns equilibrated for the solve
        rms[i] = np.sqrt(np.mean((Yi @ theta[i] - tau[:, i]) ** 2))
    return theta, rms


def predict(
    robot: Any, theta: np.ndarray, data: dict[str, np.ndarray], smooth: int = 5
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(t, τ predicted, τ measured), both filtered as in :func:`identify_scaling`, along another motion."""
    n = max(int(smooth), 1)
    t = data["t"][(n - 1) // 2 : len(data["t"]) - n // 2]
    return (t, np.einsum("nik,ik->ni", _smooth(_columns(robot, data), n), theta), _smooth(data["tau"], n))


def identify_log(
    log: str | os.PathLike | LogContents, robot: Any, *, method: str = "wls", friction: bool = True, **options: Any
) -> Identification:
    """:func:`armlab.dynamics.identify` from a lab session log: the samples of
    :func:`~armlab.lab.log.identification_data`, then the least-squares fit (``method``, ``friction``).

    Each of ``options`` goes to the one of the two that takes it: ``t_start``, ``t_end``, ``to_dh``,
    ``cutoff``, ``nan`` and ``filter_tau`` (the time window, the driver → DH map, the filter and the
    differentiation) to identification_data, the rest (``gravity``, ``prior``, ``pull``) to identify; an
    option neither takes is a TypeError naming it. The result's ``.data`` holds the samples used (t, q,
    qd, qdd, tau)."""
    unknown = sorted(set(options) - _DATA_OPTIONS - _FIT_OPTIONS)
    if unknown:
        raise TypeError(
            f"identify_log() got unknown option(s) {unknown}: identification_data takes {sorted(_DATA_OPTIONS)}, "
            f"identify {sorted(_FIT_OPTIONS)}"
        )
    data = identification_data(log, **{k: options.pop(k) for k in list(options) if k in _DATA_OPTIONS})
    if data["q"].shape[1] != robot.n:
        raise ValueError(f"the log has {data['q'].shape[1]} joints but the robot {robot.n}")
    result = identify(
        robot, data["q"], data["qd"], data["qdd"], data["tau"], method=method, friction=friction, **options
    )
    result.data = data
    return result
