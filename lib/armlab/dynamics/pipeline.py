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
dropped), so the mask is explicit.

:func:`identify_log` reads a lab session log (``armlab.lab``'s JSON lines; driver angles mapped to the
report's DH angles, velocities and efforts with them) and identifies from it.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .identification import identify

__all__ = ["prepare", "identify_log", "log_samples"]


def prepare(t, q, tau, *, cutoff=5.0, order=4, trim=None, nan="raise", filter_tau=False):
    """dict(t, q, qd, qdd, tau) ready for :func:`~armlab.dynamics.identify` from times t (N,), measured q
    (N, n) and efforts τ (N, n): uniform grid, zero-phase low-pass of q (and of τ with ``filter_tau``) at
    ``cutoff`` Hz (Butterworth of ``order``; None: no filter), central differences, ``trim`` samples dropped
    at each end (default: two periods of the cutoff)."""
    t = np.asarray(t, dtype=float).reshape(-1)
    q, tau = np.asarray(q, dtype=float), np.asarray(tau, dtype=float)
    if q.ndim != 2 or tau.shape != q.shape:
        raise ValueError(f"q and tau must be (N, n) arrays of one shape, got {q.shape} and {tau.shape}")
    if t.shape[0] != q.shape[0]:
        raise ValueError(f"t has {t.shape[0]} samples but q and tau have {q.shape[0]}")
    if nan not in ("raise", "drop"):
        raise ValueError(f"nan must be 'raise' or 'drop', got {nan!r}")
    finite = np.isfinite(t) & np.isfinite(q).all(axis=1) & np.isfinite(tau).all(axis=1)
    if not finite.all() and nan == "raise":
        rows = np.flatnonzero(~finite)
        raise ValueError(f"{rows.size} of {t.size} samples have NaN or inf (first at row {rows[0]}): pass "
                         "nan='drop' to identify from the finite stretches between them")
    pieces = []
    for a, b in _runs(finite):
        piece = _prepare_run(t[a:b], q[a:b], tau[a:b], cutoff, order, trim, filter_tau)
        if piece is not None:
            pieces.append(piece)
    if not pieces:
        raise ValueError("no stretch of finite samples is long enough to filter and differentiate")
    return {k: np.concatenate([p[k] for p in pieces]) for k in pieces[0]}


def _runs(mask):
    """(start, stop) of each run of True."""
    edges = np.diff(np.r_[0, mask.astype(int), 0])
    return list(zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)))


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


def log_samples(path_or_log, *, t_start=None, t_end=None, to_dh=None):
    """(t, q, τ) in DH angles and signs from a lab session log: a path, ``armlab.lab.read_log``'s contents,
    or a mapping with arrays t (or stamp), q and tau (or effort) already in DH angles.

    ``t_start``/``t_end`` select by arrival time on the lab machine (``time.time()`` around a motion). The
    driver → DH map is affine (each driver axis turns against the report's): ``to_dh`` is that function
    (e.g. ``armlab.models.youbot_driver_to_q``), or the log's own ``driver_to_dh`` record (sign, offset)."""
    if isinstance(path_or_log, dict):
        d = path_or_log
        t = np.asarray(d["stamp"] if "stamp" in d else d["t"], float)
        keep = _window(np.asarray(d.get("t", t), float), t_start, t_end)
        return t[keep], np.asarray(d["q"], float)[keep], np.asarray(d["tau"] if "tau" in d else d["effort"], float)[keep]
    records = path_or_log.records if hasattr(path_or_log, "records") else _read(path_or_log)
    opened = next((r for r in records if r.get("kind") == "open"), {})
    states = [r for r in records if r.get("kind") == "state"]
    if not states:
        raise ValueError("the log has no arm states")
    if to_dh is None:
        mapping = opened.get("driver_to_dh")
        if mapping is None:
            raise ValueError("this log does not say how driver angles map to DH angles: pass "
                             "to_dh=armlab.models.youbot_driver_to_q")
        sign, offset = np.asarray(mapping["sign"], float), np.asarray(mapping["offset"], float)
    else:
        offset = np.asarray(to_dh(np.zeros(len(states[0]["q_driver"]))), float)
        sign = np.asarray(to_dh(np.ones(len(states[0]["q_driver"]))), float) - offset
    arrival = np.array([s["t"] for s in states], float)
    keep = _window(arrival, t_start, t_end)
    stamp = np.array([s["stamp"] for s in states], float)[keep]
    q_driver = np.array([s["q_driver"] for s in states], float)[keep]
    effort = np.array([s["effort_driver"] for s in states], float)[keep]
    return stamp, offset + sign * q_driver, sign * effort


def _window(t, t_start, t_end):
    keep = np.ones(t.shape, bool)
    if t_start is not None:
        keep &= t >= t_start
    if t_end is not None:
        keep &= t <= t_end
    if keep.sum() < 3:
        raise ValueError("fewer than 3 samples between t_start and t_end")
    return keep


def _read(path):
    """The complete records of a JSON-lines session log (a torn last line is skipped)."""
    lines = Path(path).read_bytes().split(b"\n")
    lines.pop()  # b"" after the last newline, or a torn last record (the process died mid-write)
    out = []
    for i, line in enumerate(lines, 1):
        try:
            out.append(json.loads(line))
        except ValueError:
            raise ValueError(f"{path}:{i}: not a session-log record") from None
    return out


def identify_log(path_or_log, robot, *, t_start=None, t_end=None, to_dh=None, cutoff=5.0, nan="raise",
                 filter_tau=False, method="wls", friction=True, **options):
    """:func:`~armlab.dynamics.identify` from a lab session log (see :func:`log_samples`, :func:`prepare`).
    The result's ``.data`` holds the samples used (t, q, qd, qdd, tau)."""
    t, q, tau = log_samples(path_or_log, t_start=t_start, t_end=t_end, to_dh=to_dh)
    if q.shape[1] != robot.n:
        raise ValueError(f"the log has {q.shape[1]} joints but the robot {robot.n}")
    data = prepare(t, q, tau, cutoff=cutoff, nan=nan, filter_tau=filter_tau)
    result = identify(robot, data["q"], data["qd"], data["qdd"], data["tau"], method=method, friction=friction,
                      **options)
    result.data = data
    return result
