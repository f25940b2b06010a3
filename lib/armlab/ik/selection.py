"""Choosing one solution from many: the weighted joint motion J = Σ kᵢ|Δθᵢ| of the simulation
paper (003) eq. (12)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._core.angles import TAU, wrap_angle, wrap_scalar
from .._core.deprecation import renamed_kwargs
from .._core.validation import as_float_array, joint_vector
from .results import IKSolutions
from .solver import LIMIT_TOL

__all__ = ["PAPER_WEIGHTS", "joint_motion", "select"]

#: Weights k = (k1, k2, k3) of the simulation paper's eq. (12) for its 3-joint arm.
PAPER_WEIGHTS = (3.0, 2.0, 1.0)


@renamed_kwargs(q_current="q0")
def joint_motion(
    q: ArrayLike,
    q0: ArrayLike | None,
    weights: ArrayLike | None = None,
    qlim: ArrayLike | None = None,
    revolute: ArrayLike | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Weighted joint motion J = Σ kᵢ|Δθᵢ| from the start pose q0 to each row of q, paper 003 eq. (12).

    The paper prints J = k1|Δθ1| + k2|Δθ3| + k3|Δθ3|; the middle term is k2|Δθ2| (erratum),
    with k = (3, 2, 1) (:data:`PAPER_WEIGHTS`) for its 3-joint arm. weights None means all 1, q0 None zeros.

    Returns (J (k,), q_moved (k, n)). For a revolute joint the target angle is replaced by the
    equivalent angle θ + 2πm nearest to the current one that lies inside the joint range
    (so a joint whose range allows passing through ±π takes the short way round, Δθ wrapped to
    (−π, π]; a joint with a narrower range takes the only way its limits allow). Where no
    equivalent lies inside the range, Δθ is the wrapped difference.

    >>> J, _ = joint_motion(np.array([[0.1, 0.2, 0.3]]), np.zeros(3), PAPER_WEIGHTS)
    >>> round(float(J[0]), 6)   # 3·0.1 + 2·0.2 + 1·0.3
    1.0
    """
    return _joint_motion(q, q0, weights, qlim, revolute)


def _joint_motion(q: Any, q0: Any, weights: Any, qlim: Any, revolute: Any) -> tuple[np.ndarray, np.ndarray]:
    q = np.atleast_2d(np.asarray(q, dtype=float))
    k, n = q.shape
    qc = np.zeros(n) if q0 is None else joint_vector(q0, n, "q0", symbolic=False, batch=False)
    w = np.ones(n) if weights is None else as_float_array(weights, "weights", (n,), allow_batch=False)
    if (w < 0).any():
        raise ValueError(f"weights must be >= 0, got {w}")
    if qlim is None:
        lo, hi = np.full(n, -np.inf), np.full(n, np.inf)
    else:
        qlim = np.asarray(qlim, dtype=float)
        lo, hi = qlim[:, 0] - LIMIT_TOL, qlim[:, 1] + LIMIT_TOL
    rev = np.ones(n, bool) if revolute is None else np.asarray(revolute, bool)
    if k * n <= 64:  # a handful of solutions: plain floats beat ~25 numpy calls
        return _joint_motion_floats(q, qc, w, lo, hi, rev)
    d = q - qc
    # nearest equivalent θ + 2πm to the current angle, then the next two (other side, same side)
    d0 = np.where(rev, wrap_angle(d), d)
    step = np.where(rev & (d0 != 0.0), np.copysign(TAU, d0), TAU * rev)
    moved = qc + d0
    for shift in (-step, step):  # only looked at where the nearer one is outside the range
        out = (moved < lo) | (moved > hi)
        cand = qc + d0 + shift
        np.copyto(moved, cand, where=out & rev & (cand >= lo) & (cand <= hi))
    inside = (moved >= lo) & (moved <= hi)
    moved = np.where(inside, moved, qc + d0)  # no equivalent in range: wrapped difference
    return np.abs(moved - qc) @ w, moved


def _joint_motion_floats(
    q: np.ndarray, qc: np.ndarray, w: np.ndarray, lo: np.ndarray, hi: np.ndarray, rev: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`joint_motion` on Python floats (same rules, same order of candidates)."""
    qc_, w_, lo_, hi_, rev_ = qc.tolist(), w.tolist(), lo.tolist(), hi.tolist(), rev.tolist()
    J, moved = [], []
    for row in q.tolist():
        total = 0.0
        out = []
        for x, c, wi, l, h, r in zip(row, qc_, w_, lo_, hi_, rev_):
            d = x - c
            if r:
                d = wrap_scalar(d)
                m = c + d
                if not l <= m <= h:
                    step = math.copysign(TAU, d) if d != 0.0 else TAU
                    for cand in (m - step, m + step):
                        if l <= cand <= h:
                            m = cand
                            break
            else:
                m = x
            out.append(m)
            total += wi * abs(m - c)
        J.append(total)
        moved.append(out)
    return np.array(J), np.array(moved)


@renamed_kwargs(q_current="q0")
def select(
    sols: IKSolutions,
    q0: ArrayLike | None = None,
    weights: ArrayLike | None = None,
    qlim: ArrayLike | None = None,
    revolute: ArrayLike | None = None,
) -> IKSolutions:
    """The one solution with least weighted joint motion (paper 003 eq. (12)) from the start pose q0.

    A solution outside the joint limits is never chosen if any within-limit one exists.
    q0 None means the zero configuration. If the chosen solution is within limits its angles
    are the equivalents nearest to q0 (see :func:`joint_motion`), else they are left as
    given; ``cost`` holds J.
    """
    if len(sols) == 0:
        return sols
    J, moved = _joint_motion(sols.q, q0, weights, qlim, revolute)
    pool = sols.within_limits if sols.within_limits.any() else np.ones(len(J), bool)
    i = int(np.argmin(np.where(pool, J, np.inf)))
    out = sols.take([i])
    if sols.within_limits[i]:
        out.q = moved[i : i + 1]
    out.cost = float(J[i])
    return out
