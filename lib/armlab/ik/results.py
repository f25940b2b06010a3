"""The result types of every inverse-kinematics solver."""
from __future__ import annotations

import numpy as np

from .._core.angles import wrap_angle

__all__ = ["IKSolutions", "IKBatch"]


class IKSolutions:
    """The solutions of one inverse-kinematics problem.

    Fields (k solutions of an n-joint robot):

    ``q``              (k, n) joint values, revolute angles wrapped to (−π, π] and then moved by
                       ±2π into the joint range where that is possible
    ``labels``         list of k branch labels, e.g. ``'left-up-noflip'`` (PUMA), ``'front-up'`` (youBot),
                       ``'up'`` (planar), ``'numeric'``
    ``within_limits``  (k,) bool, every joint inside its range
    ``singular``       (k,) bool, the solution is at a singularity (a free joint was fixed by choice)
    ``reachable``      the target pose itself can be reached (False for an empty result, and for a
                       youBot pose that was replaced by ``nearest_T``)
    ``reason``         why there is no (exact) solution; ``''`` when there is nothing to say
    ``nearest_T``      youBot only: the nearest pose the 5-DOF arm can reach, else None
    ``method``         which solver: ``'puma560'``, ``'youbot'``, ``'planar2r'``, ``'planar3r'``, ``'numeric'``
    ``success``        True if q holds a solution of the (reachable) target
    ``iterations``, ``searches``  numeric solver only (0 for closed forms)
    ``residual``       numeric solver: (position error m, orientation error rad); closed forms: None
    ``cost``           after :func:`select`: the weighted joint motion of the chosen solution, else None
    ``best_q``         numeric solver, when it failed: the closest configuration it found (q itself is empty)

    ``len(sols)`` is k; ``sols[i]`` is row i of q; iterating gives the rows.
    """

    __slots__ = ("q", "labels", "within_limits", "singular", "reachable", "reason", "nearest_T",
                 "method", "success", "iterations", "searches", "residual", "cost", "best_q")

    def __init__(self, q, labels, within_limits, singular, *, reachable=True, reason="",
                 nearest_T=None, method="", success=None, iterations=0, searches=0,
                 residual=None, cost=None, best_q=None):
        self.q = q
        self.labels = labels
        self.within_limits = within_limits
        self.singular = singular
        self.reachable = reachable
        self.reason = reason
        self.nearest_T = nearest_T
        self.method = method
        self.success = bool(len(q) > 0 and reachable) if success is None else success
        self.iterations = iterations
        self.searches = searches
        self.residual = residual
        self.cost = cost
        self.best_q = best_q

    @classmethod
    def empty(cls, n, reason, method="", **kw):
        """No solution: q of shape (0, n) and a reason."""
        return cls(np.zeros((0, n)), [], np.zeros(0, bool), np.zeros(0, bool), reachable=False,
                   reason=reason, method=method, **kw)

    def __len__(self):
        return len(self.q)

    def __getitem__(self, i):
        return self.q[i]

    def __iter__(self):
        return iter(self.q)

    def take(self, index):
        """A new result with the rows ``index`` (array of ints or bools)."""
        index = np.asarray(index)
        index = np.flatnonzero(index) if index.dtype == bool else index.astype(int)  # [] is float
        return IKSolutions(self.q[index], [self.labels[i] for i in index], self.within_limits[index],
                           self.singular[index], reachable=self.reachable, reason=self.reason,
                           nearest_T=self.nearest_T, method=self.method,
                           success=bool(len(index) > 0 and self.success), iterations=self.iterations,
                           searches=self.searches, residual=self.residual)

    def unique(self, tol=1e-9):
        """Drop rows equal (modulo 2π) to an earlier row, e.g. the double roots at the workspace boundary."""
        keep = []
        for i, row in enumerate(self.q):
            if not any(np.all(np.abs(wrap_angle(row - self.q[j])) <= tol) for j in keep):
                keep.append(i)
        return self.take(keep)

    def __repr__(self):
        head = f"IKSolutions({self.method}, {len(self.q)} solution(s)"
        if self.reason:
            head += f", reason={self.reason!r}"
        lines = [head + ")"]
        for q, lab, ok, sing in zip(self.q, self.labels, self.within_limits, self.singular):
            deg = " ".join(f"{v:8.2f}" for v in np.degrees(q))
            flags = ("" if ok else " OUTSIDE LIMITS") + (" singular" if sing else "")
            lines.append(f"  {lab:<16} [{deg}] deg{flags}")
        return "\n".join(lines)


class IKBatch:
    """Closed-form solutions of N poses in fixed branch slots.

    ``q``              (N, m, n) joint values, m slots (8 for PUMA560, 4 for the youBot, 2 planar)
    ``valid``          (N, m) bool, the slot holds a solution; invalid slots are filled with ``fill``
    ``within_limits``  (N, m) bool (False where not valid)
    ``singular``       (N, m) bool
    ``reason``         (N,) str array, the single-pose solver's reason ('' when there is nothing to
                       say; a youBot pose can have solutions and a reason for the missing ones)
    ``labels``         list of m slot labels: PUMA560 the single-pose labels, youBot the numbers
                       I–IV of its labels, planar 'up', 'down'
    """

    __slots__ = ("q", "valid", "within_limits", "singular", "reason", "labels", "method")

    def __init__(self, q, valid, within_limits, singular, reason, labels, method=""):
        self.q, self.valid, self.within_limits, self.singular = q, valid, within_limits, singular
        self.reason, self.labels, self.method = reason, labels, method

    def __len__(self):
        return len(self.q)

    def __getitem__(self, i):
        """Pose i as an :class:`IKSolutions` (valid slots only)."""
        v = self.valid[i]
        idx = np.flatnonzero(v)
        if len(idx) == 0:
            return IKSolutions.empty(self.q.shape[-1], str(self.reason[i]), self.method)
        return IKSolutions(self.q[i, idx], [self.labels[j] for j in idx], self.within_limits[i, idx],
                           self.singular[i, idx], reason=str(self.reason[i]), method=self.method)

    def __repr__(self):
        return (f"IKBatch({self.method}, {len(self.q)} poses × {self.q.shape[1]} slots, "
                f"{int(self.valid.sum())} valid solutions)")
