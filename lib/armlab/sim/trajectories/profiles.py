"""Point-to-point references in joint space, and the piecewise polynomial every joint reference is.

:class:`Reference` is what every reference of :mod:`armlab.sim.trajectories` has; :class:`JointReference`
is a piecewise polynomial in t. The profiles between two states: :func:`quintic` and :func:`cubic`
polynomials, :func:`trapezoidal` (linear segments with parabolic blends, LSPB) from velocity and
acceleration limits, and :func:`hold`. :func:`check_limits` refuses a reference that needs more than the
given ``qd_max`` / ``qdd_max``, naming the joint, the peak and the shortest feasible duration.

>>> ref = trapezoidal([0.0], [1.0], qd_max=1.0, qdd_max=2.0)  # 0.5 s blends, cruise at 1 rad/s
>>> round(ref.duration, 9), ref(0.75)[1].tolist(), ref(ref.t1)[0].tolist()
(1.5, [1.0], [1.0])
"""

from __future__ import annotations

import math

from typing import Any, TypedDict, Unpack

import numpy as np
from numpy.typing import ArrayLike

from ..._core.validation import as_float_array, joint_vector

__all__ = [
    "Reference",
    "JointReference",
    "quintic",
    "cubic",
    "trapezoidal",
    "hold",
    "check_limits",
    "RateLimits",
    "CubicOptions",
    "QuinticOptions",
]

_DEGREE = 6  # coefficients per joint and piece: q(τ) = Σ c_k τ^k, k = 0..5


class Reference:
    """What every reference of :mod:`armlab.sim.trajectories` has: ``t0``, ``t1``, ``duration``, ``n``,
    ``shifted(t0)``, ``__call__(t) -> (q, q̇, q̈)``, and the two helpers below."""

    _n: int

    @property
    def n(self) -> int:
        """The number of joints."""
        return self._n

    @property
    def t0(self) -> float:
        raise NotImplementedError

    @property
    def t1(self) -> float:
        raise NotImplementedError

    @property
    def duration(self) -> float:
        return self.t1 - self.t0

    def __call__(self, t: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        raise NotImplementedError

    def shifted(self, t0: float) -> Reference:
        raise NotImplementedError

    def sample(self, dt: float, t_end: float | None = None) -> tuple[np.ndarray, ...]:
        """(t, q, q̇, q̈) on the grid t0, t0 + dt, …, up to ``t_end`` (default the end)."""
        dt = float(as_float_array(dt, "dt", ()))
        if not dt > 0:
            raise ValueError(f"dt must be > 0 s, got {dt!r}")
        end = self.t1 if t_end is None else float(t_end)
        t = self.t0 + dt * np.arange(int(round((end - self.t0) / dt)) + 1)
        return (t, *self(t))

    def peaks(self, samples: int = 801) -> tuple[np.ndarray, np.ndarray]:
        """(max |q̇|, max |q̈|) per joint, (n,) each, on a grid of ``samples`` times."""
        _, qd, qdd = self(np.linspace(self.t0, self.t1, samples))
        return np.abs(qd).max(axis=0), np.abs(qdd).max(axis=0)


class JointReference(Reference):
    """A piecewise polynomial joint trajectory: ``breaks`` (m + 1,) absolute times, ``coeffs`` (m, n, 6)
    with q(t) = Σ_k coeffs[i, :, k]·(t − breaks[i])^k on piece i. Built by the functions of
    :mod:`armlab.sim.trajectories`."""

    def __init__(self, breaks: ArrayLike, coeffs: ArrayLike, name: str = ""):
        self.breaks = np.asarray(breaks, dtype=float)
        self.coeffs = np.asarray(coeffs, dtype=float)
        self.name = name
        if self.coeffs.ndim != 3 or self.coeffs.shape[0] != len(self.breaks) - 1 or self.coeffs.shape[2] != _DEGREE:
            raise ValueError(f"coeffs must have shape ({len(self.breaks) - 1}, n, {_DEGREE}), got {self.coeffs.shape}")
        self._d = [self.coeffs]  # q, q̇, q̈ and the jerk
        for _ in range(3):
            self._d.append(_derivative(self._d[-1]))
        self.q_start, self.q_end = self._eval(np.array([self.t0, self.t1]), 0)
        self.qd_start, self.qd_end = self._eval(np.array([self.t0, self.t1]), 1)

    @property
    def n(self) -> int:
        return self.coeffs.shape[1]

    @property
    def t0(self) -> float:
        return float(self.breaks[0])

    @property
    def t1(self) -> float:
        return float(self.breaks[-1])

    @property
    def duration(self) -> float:
        return self.t1 - self.t0

    def _eval(self, t, order):
        """The ``order``-th derivative at the times t (N,) inside [t0, t1], (N, n)."""
        i = np.clip(np.searchsorted(self.breaks, t, side="right") - 1, 0, len(self.breaks) - 2)
        tau = (t - self.breaks[i])[:, None]
        c = self._d[order][i]  # (N, n, 6)
        out = c[..., _DEGREE - 1]
        for k in range(_DEGREE - 2, -1, -1):  # Horner
            out = out * tau + c[..., k]
        return out

    def __call__(self, t: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(q, q̇, q̈) at time(s) t: (n,) each for a number, (N, n) for an array (N,)."""
        scalar = np.ndim(t) == 0
        t = np.atleast_1d(as_float_array(t, "t"))
        if t.ndim != 1:
            raise ValueError(f"t must be a number or a 1-D array of times, got shape {t.shape}")
        inside = np.clip(t, self.t0, self.t1)
        q, qd, qdd = (self._eval(inside, k) for k in range(3))
        after = (t > self.t1)[:, None]
        q = q + np.where(after, (t - self.t1)[:, None] * self.qd_end, 0.0)
        qd = np.where(t[:, None] < self.t0, 0.0, qd)
        qdd = np.where((t[:, None] < self.t0) | after, 0.0, qdd)
        return (q[0], qd[0], qdd[0]) if scalar else (q, qd, qdd)

    def peaks(self, samples: int = 801) -> tuple[np.ndarray, np.ndarray]:
        """(max |q̇|, max |q̈|) per joint, (n,) each, exact (``samples`` is not needed): at the ends of each piece or where the next
        derivative vanishes inside it."""
        out = np.zeros((2, self.n))
        for i, (a, b) in enumerate(zip(self.breaks[:-1], self.breaks[1:])):
            for j in range(self.n):
                for k in (1, 2):
                    c, dc = self._d[k][i, j], self._d[k + 1][i, j]
                    roots = np.roots(np.trim_zeros(dc[::-1], "f")) if np.any(dc) else np.zeros(0)
                    taus = [0.0, b - a] + [r.real for r in roots if abs(r.imag) < 1e-12 and 0 < r.real < b - a]
                    out[k - 1, j] = max(out[k - 1, j], max(abs(np.polyval(c[::-1], x)) for x in taus))
        return out[0], out[1]

    def shifted(self, t0: float) -> JointReference:
        """The same motion starting at ``t0``."""
        return JointReference(self.breaks - self.t0 + float(t0), self.coeffs, self.name)

    def __repr__(self) -> str:
        return (
            f"JointReference({self.name or 'piecewise polynomial'}, {self.n} joints, "
            f"t = {self.t0:g}…{self.t1:g} s, {len(self.breaks) - 1} piece(s))"
        )


def _derivative(c):
    """Coefficients of the derivative, same layout (the top one becomes 0)."""
    d = np.zeros_like(c)
    d[..., :-1] = c[..., 1:] * np.arange(1, _DEGREE)
    return d


def _joints(value, name, n=None):
    """A vector of joint values through the one validator (:func:`armlab._core.validation.joint_vector`):
    n entries when n is given (a number is then used for every joint), else as many as ``value`` has."""
    if np.ndim(value) == 0:
        if n is not None:
            return np.full(n, float(as_float_array(value, name, ())))
        value = [value]
    if n is None:
        n = np.shape(value)[-1] if np.ndim(value) == 1 else -1
    return joint_vector(value, n, name, symbolic=False, batch=False)


def check_duration(T: Any, name: str = "T") -> float:
    """``T`` as a float, or a ValueError naming ``name`` unless it is a duration > 0 s (shared with
    :mod:`armlab.sim.trajectories.paths`)."""
    T = float(as_float_array(T, name, ()))
    if not T > 0:
        raise ValueError(f"{name} must be a duration > 0 s, got {T!r}")
    return T


class RateLimits(TypedDict, total=False):
    """The velocity and acceleration limits a reference is checked against when it is built (rad/s, rad/s²;
    numbers or (n,); None, the default: unchecked): an infeasible reference is a ValueError naming the
    joint, its peak and (rest to rest) the shortest feasible duration (:func:`check_limits`)."""

    qd_max: ArrayLike | None
    qdd_max: ArrayLike | None


class CubicOptions(RateLimits, total=False):
    """The keyword options of :func:`cubic`: the end rates ``qd0``, ``qd1`` (default 0: from and to rest), the
    start time ``t0`` (s, default 0) and the :class:`RateLimits`."""

    qd0: ArrayLike
    qd1: ArrayLike
    t0: float


class QuinticOptions(CubicOptions, total=False):
    """The keyword options of :func:`quintic`: those of :class:`CubicOptions`, and the end accelerations
    ``qdd0``, ``qdd1`` (default 0)."""

    qdd0: ArrayLike
    qdd1: ArrayLike


def quintic(q0: ArrayLike, q1: ArrayLike, T: float, **options: Unpack[QuinticOptions]) -> JointReference:
    """The quintic from (q0, q̇0, q̈0) at t0 to (q1, q̇1, q̈1) at t0 + T, per joint (q̈ continuous, jerk
    finite). Rest to rest, the peak velocity is 1.875·|Δq|/T and the peak acceleration 5.774·|Δq|/T².
    ``options``: ``qd0``, ``qd1``, ``qdd0``, ``qdd1`` (default 0), ``t0``, ``qd_max``, ``qdd_max``
    (:class:`QuinticOptions`)."""
    return _polynomial(5, q0, q1, T, **options)


def cubic(q0: ArrayLike, q1: ArrayLike, T: float, **options: Unpack[CubicOptions]) -> JointReference:
    """The cubic from (q0, q̇0) at t0 to (q1, q̇1) at t0 + T (q̈ jumps at the ends). Rest to rest, the
    peak velocity is 1.5·|Δq|/T and the peak acceleration 6·|Δq|/T². ``options``: ``qd0``, ``qd1``
    (default 0), ``t0``, ``qd_max``, ``qdd_max`` (:class:`CubicOptions`)."""
    return _polynomial(3, q0, q1, T, **options)


#: the rest-to-rest peaks of the quintic and the cubic: velocity per |Δq|/T, acceleration per |Δq|/T²
_PEAKS = {5: (1.875, 5.7735), 3: (1.5, 6.0)}


def _polynomial(degree, q0, q1, T, *, qd0=0.0, qd1=0.0, qdd0=None, qdd1=None, t0=0.0, qd_max=None, qdd_max=None):
    """The quintic (degree 5) or the cubic (3) between the two states, per joint: the one implementation."""
    kind = "quintic" if degree == 5 else "cubic"
    if degree == 3 and (qdd0 is not None or qdd1 is not None):
        raise TypeError("cubic() takes no qdd0 or qdd1: a cubic cannot also meet end accelerations (use quintic)")
    x0 = _joints(q0, "q0")
    n = len(x0)
    x1, v0, v1, a0, a1 = (
        _joints(0.0 if v is None else v, name, n)
        for v, name in ((q1, "q1"), (qd0, "qd0"), (qd1, "qd1"), (qdd0, "qdd0"), (qdd1, "qdd1"))
    )
    T = check_duration(T)
    h = x1 - x0
    c = np.zeros((1, n, _DEGREE))
    c[0, :, 0], c[0, :, 1] = x0, v0
    if degree == 5:
        c[0, :, 2] = a0 / 2
        c[0, :, 3] = (20 * h - (8 * v1 + 12 * v0) * T - (3 * a0 - a1) * T**2) / (2 * T**3)
        c[0, :, 4] = (-30 * h + (14 * v1 + 16 * v0) * T + (3 * a0 - 2 * a1) * T**2) / (2 * T**4)
        c[0, :, 5] = (12 * h - 6 * (v1 + v0) * T + (a1 - a0) * T**2) / (2 * T**5)
    else:
        c[0, :, 2] = (3 * h - (2 * v0 + v1) * T) / T**2
        c[0, :, 3] = (-2 * h + (v0 + v1) * T) / T**3
    ref = JointReference([t0, t0 + T], c, kind)
    return check_limits(ref, qd_max, qdd_max, rest_to_rest=(h, *_PEAKS[degree]))


def check_limits(
    ref: Any, qd_max: ArrayLike | None = None, qdd_max: ArrayLike | None = None, rest_to_rest: tuple | None = None
) -> Any:
    """``ref`` itself if its peak |q̇| and |q̈| are within the limits (numbers or (n,)); else a ValueError
    naming the joint, its peak, the limit and (for rest-to-rest polynomials) the shortest feasible T."""
    if qd_max is None and qdd_max is None:
        return ref
    peak_v, peak_a = ref.peaks()
    for what, limit, peak, power in (("velocity", qd_max, peak_v, 1), ("acceleration", qdd_max, peak_a, 2)):
        if limit is None:
            continue
        lim = _joints(limit, "qd_max" if power == 1 else "qdd_max", ref.n)
        if np.any(~(lim > 0)):
            raise ValueError(f"{what} limits must be > 0, got {lim.tolist()}")
        over = np.flatnonzero(peak > lim * (1 + 1e-9))
        if len(over):
            i = int(over[0])
            msg = (
                f"infeasible trajectory: joint {i + 1} needs a peak {what} of {peak[i]:.4g} "
                f"(limit {lim[i]:.4g}) over T = {ref.duration:.4g} s"
            )
            if rest_to_rest is not None:
                h, kv, ka = rest_to_rest
                need = kv * abs(h[i]) / lim[i] if power == 1 else math.sqrt(ka * abs(h[i]) / lim[i])
                msg += f"; at least T = {need:.4g} s is feasible"
            raise ValueError(msg)
    return ref


def trapezoidal(
    q0: ArrayLike, q1: ArrayLike, *, qd_max: ArrayLike, qdd_max: ArrayLike, T: float | None = None, t0: float = 0.0
) -> JointReference:
    """Linear segment with parabolic blends (LSPB), rest to rest, every joint arriving together.

    Each joint accelerates at its ``qdd_max`` to a cruise velocity, coasts, and brakes at ``qdd_max``.
    Without ``T`` the duration is the least that keeps every joint within ``qd_max`` and ``qdd_max``
    (the slowest joint's; short moves never reach cruise: a triangular profile). With ``T``, each joint
    cruises at the velocity that takes exactly T; a T below the least feasible one is a ValueError.
    """
    x0 = _joints(q0, "q0")
    n = len(x0)
    x1, vmax, amax = (_joints(v, name, n) for v, name in ((q1, "q1"), (qd_max, "qd_max"), (qdd_max, "qdd_max")))
    if np.any(~(vmax > 0)) or np.any(~(amax > 0)):
        raise ValueError(f"qd_max and qdd_max must be > 0, got {vmax.tolist()} and {amax.tolist()}")
    D = np.abs(x1 - x0)
    # least time per joint: trapezoid if the cruise velocity is reached, else triangle
    full = D >= vmax**2 / amax
    t_min = np.where(full, D / vmax + vmax / amax, 2 * np.sqrt(D / amax))
    T_least = float(t_min.max())
    if T is None:
        T = T_least
        if T == 0.0:
            return hold(x0, 0.0, t0=t0)
    T = check_duration(T)
    if T < T_least * (1 - 1e-12):
        i = int(np.argmax(t_min))
        raise ValueError(
            f"infeasible trajectory: joint {i + 1} needs at least T = {T_least:.4g} s to move "
            f"{D[i]:.4g} within qd_max = {vmax[i]:.4g} and qdd_max = {amax[i]:.4g}; T = {T:.4g} s given"
        )
    # cruise velocity that takes exactly T: v² − a·T·v + a·D = 0, the smaller root
    disc = np.maximum(amax**2 * T**2 - 4 * amax * D, 0.0)
    v = (amax * T - np.sqrt(disc)) / 2
    tb = np.where(D > 0, v / amax, 0.0)
    sign = np.sign(x1 - x0)
    cuts = np.unique(np.concatenate([[0.0, T], tb, T - tb]))
    cuts = cuts[(cuts >= 0) & (cuts <= T)]
    cuts = cuts[np.concatenate([[True], np.diff(cuts) > 1e-12])]
    coeffs = np.zeros((len(cuts) - 1, n, _DEGREE))
    for k, s in enumerate(cuts[:-1]):
        mid = 0.5 * (s + cuts[k + 1])  # which part of each joint's profile this piece is
        acc = np.where(mid < tb, amax, np.where(mid > T - tb, -amax, 0.0)) * sign
        q_s, v_s = _lspb_state(s, x0, x1, sign, amax, v, tb, T)
        coeffs[k, :, 0], coeffs[k, :, 1], coeffs[k, :, 2] = q_s, v_s, acc / 2
    return JointReference(t0 + cuts, coeffs, "trapezoidal")


def _lspb_state(t, q0, q1, sign, a, v, tb, T):
    """(q, q̇) of every joint's LSPB at time t (0 ≤ t ≤ T)."""
    q = np.where(
        t <= tb,
        q0 + sign * a * t**2 / 2,
        np.where(t >= T - tb, q1 - sign * a * (T - t) ** 2 / 2, q0 + sign * v * (t - tb / 2)),
    )
    qd = np.where(t <= tb, sign * a * t, np.where(t >= T - tb, sign * a * (T - t), sign * v))
    return q, qd


def hold(q: ArrayLike, T: float, t0: float = 0.0) -> JointReference:
    """Stay at q for T seconds (T = 0: an instant)."""
    x = _joints(q, "q")
    T = float(as_float_array(T, "T", ()))
    if not T >= 0:
        raise ValueError(f"T must be >= 0 s, got {T!r}")
    c = np.zeros((1, len(x), _DEGREE))
    c[0, :, 0] = x
    return JointReference([t0, t0 + T], c, "hold")
