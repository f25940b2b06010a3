"""The result types of every inverse-kinematics solver.

Like every result in armlab they have ``ok`` (a usable answer) and ``reason`` (``""`` when ok).
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from typing import Any, Iterator, Sequence

import numpy as np
from numpy.typing import ArrayLike

from .._core.angles import wrap_angle

__all__ = ["IKSolutions", "IKBatch"]


@dataclass(slots=True, eq=False, repr=False)
class IKSolutions:
    """The solutions of one inverse-kinematics problem.

    Fields (k solutions of an n-joint robot):

    ``q``              (k, n) joint values, revolute angles wrapped to (−π, π] and then moved by
                       ±2π into the joint range where that is possible
    ``labels``         list of k branch labels, e.g. ``'left-up-noflip'`` (PUMA), ``'front-up'`` (youBot),
                       ``'up'`` (planar), ``'numeric'``
    ``within_limits``  (k,) bool, every joint inside its range
    ``singular``       (k,) bool, the solution is at a singularity (a free joint was fixed by choice)
    ``ok``             q holds solutions of the target (the same as ``success``)
    ``reachable``      the target pose itself can be reached (False for an empty result, and for a
                       youBot pose that was replaced by ``nearest_T``)
    ``reason``         why there is no (exact) solution; ``''`` when ok
    ``note``           what else there is to say when ok, e.g. why a youBot branch is missing; else ``''``
    ``nearest_T``      youBot only: the nearest pose the 5-DOF arm can reach, else None
    ``method``         which solver: ``'puma560'``, ``'youbot'``, ``'planar2r'``, ``'planar3r'``, ``'numeric'``
    ``success``        True if q holds a solution of the (reachable) target
    ``iterations``, ``searches``  numeric solver only (0 for closed forms)
    ``residual``       numeric solver: (position error m, orientation error rad); closed forms: None
    ``cost``           after :func:`select`: the weighted joint motion of the chosen solution, else None
    ``best_q``         numeric solver, when it failed: the closest configuration it found (q itself is empty)

    ``len(sols)`` is k; ``sols[i]`` is row i of q; iterating gives the rows.
    """

    q: np.ndarray
    labels: list[str]
    within_limits: np.ndarray
    singular: np.ndarray
    _: KW_ONLY
    reachable: bool = True
    reason: str = ""
    nearest_T: np.ndarray | None = None
    method: str = ""
    success: bool | None = None  # None: computed from q and reachable
    iterations: int = 0
    searches: int = 0
    residual: tuple[float, float] | None = None
    cost: float | None = None
    best_q: np.ndarray | None = None
    note: str = ""

    def __post_init__(self) -> None:
        if self.success is None:
            self.success = bool(len(self.q) > 0 and self.reachable)

    @property
    def ok(self) -> bool:
        """q holds solutions of the target (``reason`` says why not)."""
        return bool(self.success)

    @classmethod
    def empty(cls, n: int, reason: str, method: str = "", **kw: Any) -> IKSolutions:
        """No solution: q of shape (0, n) and a reason."""
        return cls(
            np.zeros((0, n)),
            [],
            np.zeros(0, bool),
            np.zeros(0, bool),
            reachable=False,
            reason=reason,
            method=method,
            **kw,
        )

    def __len__(self) -> int:
        return len(self.q)

    def __getitem__(self, i: Any) -> np.ndarray:
        return self.q[i]

    def __iter__(self) -> Iterator[np.ndarray]:
        return iter(self.q)

    def take(self, index: ArrayLike) -> IKSolutions:
        """A new result with the rows ``index`` (array of ints or bools)."""
        index = np.asarray(index)
        index = np.flatnonzero(index) if index.dtype == bool else index.astype(int)  # [] is float
        return IKSolutions(
            self.q[index],
            [self.labels[i] for i in index],
            self.within_limits[index],
            self.singular[index],
            reachable=self.reachable,
            reason=self.reason,
            nearest_T=self.nearest_T,
            method=self.method,
            success=bool(len(index) > 0 and self.success),
            iterations=self.iterations,
            searches=self.searches,
            residual=self.residual,
            note=self.note,
        )

    def unique(self, tol: float = 1e-9) -> IKSolutions:
        """Drop rows equal (modulo 2π) to an earlier row, e.g. the double roots at the workspace boundary."""
        keep: list[int] = []
        for i, row in enumerate(self.q):
            if not any(np.all(np.abs(wrap_angle(row - self.q[j])) <= tol) for j in keep):
                keep.append(i)
        return self.take(keep)

    def __repr__(self) -> str:
        head = f"IKSolutions({self.method}, {len(self.q)} solution(s)"
        if self.reason:
            head += f", reason={self.reason!r}"
        if self.note:
            head += f", note={self.note!r}"
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
    ``reason``         (N,) str array, the single-pose solver's reason for each pose ('' where it is ok)
    ``ok``             every pose is solved (``pose_ok`` per pose; ``reason`` says why not)
    ``labels``         list of m slot labels: PUMA560 the single-pose labels, youBot the numbers
                       I–IV of its labels, planar 'up', 'down'
    """

    __slots__ = ("q", "valid", "within_limits", "singular", "reason", "labels", "method")

    def __init__(
        self,
        q: np.ndarray,
        valid: np.ndarray,
        within_limits: np.ndarray,
        singular: np.ndarray,
        reason: np.ndarray,
        labels: Sequence[str],
        method: str = "",
    ):
        self.q, self.valid, self.within_limits, self.singular = q, valid, within_limits, singular
        self.reason, self.labels, self.method = reason, list(labels), method

    @property
    def pose_ok(self) -> np.ndarray:
        """(N,) bool: the pose has solutions and no reason against it."""
        return self.valid.any(axis=1) & (self.reason == "")

    @property
    def ok(self) -> bool:
        """Every pose is solved (see ``reason`` for those that are not)."""
        return bool(self.pose_ok.all())

    def __len__(self) -> int:
        return len(self.q)

    def __getitem__(self, i: int) -> IKSolutions:
        """Pose i as an :class:`IKSolutions` (valid slots only)."""
        v = self.valid[i]
        idx = np.flatnonzero(v)
        if len(idx) == 0:
            return IKSolutions.empty(self.q.shape[-1], str(self.reason[i]), self.method)
        reason = str(self.reason[i])  # a youBot pose solved by its nearest_T (project=True) is not ok
        return IKSolutions(
            self.q[i, idx],
            [self.labels[j] for j in idx],
            self.within_limits[i, idx],
            self.singular[i, idx],
            reachable=not reason,
            reason=reason,
            method=self.method,
        )

    def __repr__(self) -> str:
        return (
            f"IKBatch({self.method}, {len(self.q)} poses × {self.q.shape[1]} slots, "
            f"{int(self.valid.sum())} valid solutions)"
        )
