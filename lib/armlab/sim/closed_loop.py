"""Fixed-step runs in one CasADi call: the closed loop of :func:`armlab.sim.run_task` for a controller whose
law is one generated kernel, and :func:`armlab.sim.simulate` with torques given in advance.

Each step is what the Python loop does: τ = the law at (q, q̇, reference) clipped to the effort limits (or
the given τ), then one step of the plant's kernel (semi-implicit Euler, or RK4), the rows recorded. The
kernels are the generated ones evaluated on CasADi's symbols (:func:`armlab._core.graphs.function`); one
step is one function, its subexpressions shared between law and plant (``cse``: the law's and the plant's
cos, sin and velocities are computed once), with the run's constants (gravity, wrench, armature, step)
folded in. :data:`BLOCK` steps are unrolled into one function and ``mapaccum`` repeats it over the stretch
in CasADi's virtual machine, reading and writing numpy arrays in place (no conversion of the rows), so the
numbers agree with the Python loop's to rounding (a relative 1e-12 in the tests). The first step whose
demanded torque or result leaves the safe range (not finite, or beyond 1e300) ends the stretch there: the
Python loop redoes that step and says what went wrong.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._core.graphs import casadi, function, run
from .integrators import rk4

__all__ = ["run_stretch"]


#: Operations unrolled into one CasADi function (whole steps, at most :data:`BLOCK`): the virtual machine then
#: runs straight through them, and ``mapaccum`` repeats the block (its own overhead per repetition is about
#: that of 500 operations). A bigger block takes longer to build and runs no faster.
BLOCK_OPERATIONS, BLOCK = 16384, 32


#: Loops a plant's kernel keeps (the most recently used): a control lab makes a new model, so a new law, for
#: each model error it is given.
KEPT = 8


def _loop(law: Callable[..., Any] | None, step: Callable[..., Any], key: tuple, count: int) -> Any:
    """At least ``count`` steps, whole blocks, as one function (state, per-step inputs, kp, kd, limits) → (the
    state after each block, the rows (q, q̇, q̈, τ[, demanded τ]) of each step); kept on ``step`` by ``key`` =
    (law, method, n, clip, constants (g, w, armature, h)). The per-step inputs are the reference
    (q_r, q̇_r, q̈_r) for a ``law``, else the torque held over the step."""
    loops: OrderedDict = step.__dict__.setdefault("loops", OrderedDict())
    per = loops.get(key)
    if per is None:
        per = loops[key] = {0: _block(law, step, *key[1:])}
        while len(loops) > KEPT:
            loops.popitem(last=False)
    loops.move_to_end(key)
    blocks = -(-count // per[0].size2_in(1))
    if blocks not in per:
        per[blocks] = per[0].mapaccum(blocks)
    return per[blocks]


def _block(law: Callable[..., Any] | None, step: Callable[..., Any], method: str, n: int, clip: bool, consts) -> Any:
    """Steps unrolled into one function (:data:`BLOCK_OPERATIONS`), the arguments and results of :func:`_loop`'s."""
    ca = casadi()
    L = None if law is None else function(law, [n] * 7)  # law(q, qd, qr, qdr, qddr, kp, kd)
    S = function(step, [n, n, n, 3, 6, n, 0])  # step(q, qd, tau, g, w, arm, h) -> (q̈, q', q̇')
    g, w, arm, h = consts
    x, r = ca.SX.sym("x", 2 * n), ca.SX.sym("r", n if L is None else 3 * n)
    kp, kd, lim = (ca.SX.sym(s, n) for s in "pdl")
    q, qd = x[:n], x[n:]
    raw = r if L is None else L(q, qd, r[:n], r[n : 2 * n], r[2 * n :], kp, kd)
    tau = ca.fmin(ca.fmax(raw, -lim), lim) if clip else raw  # Controller.output's clip
    a, q2, qd2 = S(q, qd, tau, g, w, arm, h)
    if method == "rk4":  # the same integrator as the Python loop's, on CasADi's symbols

        def accel(c, qs, vs):
            return ca.vertsplit(S(ca.vertcat(*qs), ca.vertcat(*vs), tau, g, w, arm, 0)[0])

        _, q2, qd2 = (ca.vertcat(*v) for v in rk4(accel, ca.vertsplit(q), ca.vertsplit(qd), h, ca.vertsplit(a)))
    row = [x, a, tau, raw] if clip else [x, a, tau]
    one = ca.Function("step", [x, r, kp, kd, lim], [ca.vertcat(q2, qd2), ca.vertcat(*row)], {"cse": True})
    size = max(1, min(BLOCK, BLOCK_OPERATIONS // one.n_instructions()))
    x0, R = ca.SX.sym("x", 2 * n), ca.SX.sym("r", r.numel(), size)
    x, rows = x0, []
    for k in range(size):
        x, out = one(x, R[:, k], kp, kd, lim)
        rows.append(out)
    return ca.Function("block", [x0, R, kp, kd, lim], [x, ca.horzcat(*rows)])


def run_stretch(
    law: tuple[Callable[..., Any], Sequence[Sequence[float]]] | None,
    step: tuple[Callable[..., Any], Sequence[Sequence[float]], float],
    inputs: Sequence[np.ndarray],
    limits: Sequence[float] | None,
    start: int,
    stop: int,
    q: Sequence[float],
    qd: Sequence[float],
    method: str = "euler",
) -> tuple[int, list, list, tuple[np.ndarray, ...]]:
    """Steps ``start``…``stop`` − 1 of a fixed-step run in one call.

    ``law``: (generated kernel ``law(q, qd, qr, qdr, qddr, kp, kd, cos, sin)``, (kp, kd)), or None for torques
    given in advance; ``step``: (the plant's :func:`~armlab.dynamics.model.euler_step_kernel`, (g, w, armature),
    h); ``method``: "euler" (semi-implicit) or "rk4" (:func:`armlab.sim.integrators.rk4`). ``inputs``: per step,
    the reference (q_r, q̇_r, q̈_r) for a law, else (τ,), each (≥ stop, n). Returns (the step it stopped at, q
    and q̇ there, the rows (q, q̇, q̈, τ, demanded τ) of the steps it ran).
    """
    (sk, (g, w, arm), h) = step
    n, count = len(q), stop - start
    lk, (kp, kd) = (None, (np.zeros(n), np.zeros(n))) if law is None else law
    clip = limits is not None
    consts = tuple(tuple(map(float, v)) for v in (g, w, arm)) + (float(h),)
    F = _loop(lk, sk, (lk, method, n, clip, consts), count)
    blocks = F.size2_out(0)
    r = np.empty((F.size2_in(1), F.size1_in(1)))
    r[:count] = np.concatenate([np.asarray(a, dtype=float)[start:stop] for a in inputs], axis=1)
    r[count:] = r[count - 1]  # the last block's extra steps: dropped
    fixed = [
        np.tile(np.asarray(v, dtype=float), (blocks, 1)) for v in (kp, kd, np.zeros(n) if limits is None else limits)
    ]
    last, rows = np.empty((blocks, 2 * n)), np.empty((len(r), F.size1_out(1)))
    run(F, [np.r_[q, qd], r, *fixed], [last, rows])
    rows = rows.reshape(-1, F.size1_out(1) // n, n)  # per step: q, q̇, q̈, τ[, τ demanded]
    after = np.concatenate([rows[1:, :2], last[-1].reshape(1, 2, n)])  # (q, q̇) after each step
    sane = (np.abs(rows[:count, 2:]) < 1e300).all(axis=(1, 2)) & (np.abs(after[:count]) < 1e300).all(axis=(1, 2))
    done = count if sane.all() else int(np.argmin(sane))
    x = after[done - 1].ravel() if done else np.r_[q, qd]
    return start + done, x[:n].tolist(), x[n:].tolist(), tuple(rows[:done, min(i, rows.shape[1] - 1)] for i in range(5))
