"""From measurements to identification data, for simulated runs and real lab logs alike.

The arm reports q (encoders) and efforts (N·m, current·Kt·gear, as ``/joint_states`` gives them); q̇ and
q̈ have to be made. :func:`prepare`:

1. puts the samples on a uniform time grid (the robot's stamps jitter; linear interpolation);
2. low-passes q with a zero-phase Butterworth filter (forward and backward, so no lag): noise in q would
   be amplified twice by differentiating and enter the regressor, which biases least squares. τ is left
   as measured by default: its noise only adds variance, and a filtered τ would smear the jumps of the
   Coulomb term f_c·sign(q̇), so it would no longer match ξ̄ of the same sample (``filter_tau=True``
   filters it too, for motions that never reverse);
3. differentiates by central differences, q̇ from q and q̈ from q̇ (second-order accurate);
4. drops the ends, where the filter's start-up transient lives.

A sample with NaN or inf is never smoothed over: by default it is an error; ``nan="drop"`` splits the
record into its finite stretches and processes each on its own (stretches too short to filter are
dropped), so the mask is explicit. A hole in the stamps longer than :data:`GAP` sampling periods (states
lost, or a busy machine that published late) splits the record the same way: interpolating across it
would make up a motion, and its q̈, that the arm never had.

This module takes arrays. Reading a lab session log belongs to :mod:`armlab.lab`:
:func:`armlab.lab.log.identification_data` turns a log into these arrays (through :func:`prepare`), and
:func:`armlab.lab.ident.identify_log` hands them to :func:`~armlab.dynamics.identify`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._core.validation import as_float_array

__all__ = ["prepare", "GAP"]

#: a hole in t longer than this many median sampling periods splits the record; shorter ones (a few late or lost
#: samples, 0.2 s at the lab's 50 Hz: one period of the default 5 Hz cutoff) are interpolated, as splitting costs
#: each side two cutoff periods of data
GAP = 10.0


def prepare(
    t: ArrayLike,
    q: ArrayLike,
    tau: ArrayLike,
    *,
    cutoff: float | None = 5.0,
    order: int = 4,
    trim: int | None = None,
    nan: str = "raise",
    filter_tau: bool = False,
) -> dict[str, np.ndarray]:
    """dict(t, q, qd, qdd, tau) ready for :func:`~armlab.dynamics.identify` from times t (N,), measured q
    (N, n) and efforts τ (N, n): uniform grid, zero-phase low-pass of q (and of τ with ``filter_tau``) at
    ``cutoff`` Hz (Butterworth of ``order``; None: no filter), central differences, ``trim`` samples dropped
    at each end (default: two periods of the cutoff). Each stretch between NaN samples (``nan="drop"``) and
    holes in t longer than :data:`GAP` periods is processed on its own."""
    t, q, tau = (_real(v, name) for v, name in ((t, "t"), (q, "q"), (tau, "tau")))
    t = t.reshape(-1)
    if q.ndim != 2 or tau.shape != q.shape:
        raise ValueError(f"q and tau must be (N, n) arrays of one shape, got {q.shape} and {tau.shape}")
    if t.shape[0] != q.shape[0]:
        raise ValueError(f"t has {t.shape[0]} samples but q and tau have {q.shape[0]}")
    if nan not in ("raise", "drop"):
        raise ValueError(f"nan must be 'raise' or 'drop', got {nan!r}")
    finite = np.isfinite(t) & np.isfinite(q).all(axis=1) & np.isfinite(tau).all(axis=1)
    if not finite.all() and nan == "raise":
        rows = np.flatnonzero(~finite)
        raise ValueError(
            f"{rows.size} of {t.size} samples have NaN or inf (first at row {rows[0]}): pass "
            "nan='drop' to identify from the finite stretches between them"
        )
    pieces = []
    for a, b in _stretches(t, finite):
        piece = _prepare_run(t[a:b], q[a:b], tau[a:b], cutoff, order, trim, filter_tau)
        if piece is not None:
            pieces.append(piece)
    if not pieces:
        raise ValueError("no stretch of finite samples without a hole in t is long enough to filter and differentiate")
    return {k: np.concatenate([p[k] for p in pieces]) for k in pieces[0]}


def _real(value: ArrayLike, name: str) -> np.ndarray:
    """A float array; NaN and inf stay (``nan=`` decides), complex values and strings raise naming the argument."""
    a = np.asarray(value)
    if a.dtype.kind not in "biuf":
        as_float_array(value, name)  # the one error policy: complex, strings, objects that are no numbers
    return a.astype(float)


def _stretches(t, finite):
    """(start, stop) of each run of finite samples with no hole in t longer than GAP median periods."""
    step = np.diff(t)
    both = finite[1:] & finite[:-1]
    period = float(np.median(step[both])) if both.any() else 0.0
    joined = np.r_[False, both & ~(step > GAP * period)]  # sample i continues the stretch of sample i - 1
    bounds = [*np.flatnonzero(~joined).tolist(), t.size]
    return [(a, b) for a, b in zip(bounds[:-1], bounds[1:]) if finite[a]]


def _prepare_run(t, q, tau, cutoff, order, trim, filter_tau):
    if t.size < 3:
        return None
    if np.any(np.diff(t) <= 0):
        raise ValueError("t must increase strictly (sort the samples and drop repeated stamps)")
    dt = float(np.median(np.diff(t)))
    grid = t[0] + dt * np.arange(int(round((t[-1] - t[0]) / dt)) + 1)
    if grid.size != t.size or np.abs(grid - t).max() > 1e-3 * dt:  # jittered stamps: resample
        q = np.column_stack([np.interp(grid, t, c) for c in q.T])
        tau = np.column_stack([np.interp(grid, t, c) for c in tau.T])
        t = grid
    rate = 1.0 / dt
    if trim is None:
        trim = int(np.ceil(2 * rate / cutoff)) if cutoff else 1
    if t.size <= 2 * trim + 3 * (order + 1):
        return None
    if cutoff:
        if not 0 < cutoff < rate / 2:
            raise ValueError(f"cutoff must be between 0 and the Nyquist frequency {rate / 2:g} Hz, got {cutoff!r}")
        from scipy.signal import butter, sosfiltfilt  # lazily: import armlab stays light

        sos = butter(order, cutoff, fs=rate, output="sos")
        pad = min(t.size - 1, int(np.ceil(6 * rate / cutoff)))  # odd extension well past the filter's memory
        q = sosfiltfilt(sos, q, axis=0, padlen=pad)
        if filter_tau:
            tau = sosfiltfilt(sos, tau, axis=0, padlen=pad)
    qd = np.gradient(q, dt, axis=0)
    qdd = np.gradient(qd, dt, axis=0)
    keep = slice(trim, t.size - trim)
    return {"t": t[keep], "q": q[keep], "qd": qd[keep], "qdd": qdd[keep], "tau": tau[keep]}
