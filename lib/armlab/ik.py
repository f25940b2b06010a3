"""Inverse kinematics: closed forms for the course robots and a numeric solver for any DHRobot.

Closed forms (recognised from the robot's DH table, see :func:`solver_for`):

* PUMA560, textbook §3.2.3 eqs. (3.33)–(3.53), up to 8 solutions (:mod:`armlab.ik_puma`),
  also batched: :func:`puma560_ikine_batch`, (N, 4, 4) → (N, 8, 6);
* KUKA youBot arm, lab report §2.1.3 eqs. (2.9)–(2.28), up to 4 solutions (:mod:`armlab.ik_youbot`);
* planar 2R / 3R arms, up to 2 solutions (:mod:`armlab.ik_planar`).

Numeric: damped least squares / Levenberg–Marquardt on ``jacob0`` (:mod:`armlab.ik_numeric`).

Every solver returns an :class:`IKSolutions`. One solution is chosen from many by the
weighted joint motion J = Σ kᵢ|Δθᵢ| of the simulation paper (003) eq. (12): :func:`select`.

API (also as DHRobot methods):

* ``robot.ikine_all(T, q_current=None)`` → IKSolutions (all branches; T (N, 4, 4) → IKBatch);
  youBot also ``project=True``. ``q_current`` only picks the free joint at a singularity.
* ``robot.ikine(T, q_current=None, weights=None)`` → IKSolutions with one row (least J), or none.
* ``robot.ikine_numeric(T, q0=None, *, mask=None, tol=1e-10, max_iter=100, restarts=20, seed=0,
  lam=1e-3, joint_limits=True)`` → IKSolutions with one row and success/iterations/residual.
* ``puma560_ikine_batch(T, q_current=None, robot=None, fill=0.0)`` → IKBatch (N, 8, 6).
* ``planar2r_ikine(x, y, l1, l2)``, ``planar3r_ikine(x, y, φ, l1, l2, l3)``, ``youbot_ikine(T)``.
* ``joint_motion(q, q_current, weights, qlim, revolute)`` → (J, q moved to the nearest equivalents).

Where two roots coincide (workspace boundary, wrist singularity) both rows are still returned
(equal to rounding, about √ε ≈ 1e-8 at a boundary); ``sols.unique(tol)`` drops the repeats.

>>> import numpy as np, armlab
>>> robot = armlab.models.puma560()
>>> T = robot.fkine(np.radians([20, -30, 40, 10, 30, 50]))
>>> sols = robot.ikine_all(T)
>>> len(sols), sols.labels[0], sols.q.shape, int(sols.within_limits.sum())
(8, 'left-up-noflip', (8, 6), 2)
>>> best = robot.ikine(T, q_current=np.radians([15, -20, 30, 0, 20, 40]))
>>> best.labels, np.degrees(best.q[0]).round(6).tolist()
(['left-up-noflip'], [20.0, -30.0, 40.0, 10.0, 30.0, 50.0])
"""
from __future__ import annotations

import math

import numpy as np

from ._backend import as_float_array

__all__ = [
    "IKSolutions", "IKBatch", "ikine_all", "ikine", "ikine_numeric", "select", "joint_motion",
    "solver_for", "puma560_ikine", "puma560_ikine_batch", "youbot_ikine", "planar2r_ikine",
    "planar3r_ikine", "wrap_angle", "PAPER_WEIGHTS", "PUMA_LABELS",
]

TAU = 2.0 * math.pi
PI = math.pi
#: Weights k = (k1, k2, k3) of the simulation paper's eq. (12) for its 3-joint arm.
PAPER_WEIGHTS = (3.0, 2.0, 1.0)
#: PUMA560 branch labels, in the fixed slot order of the single-pose and batched solvers.
PUMA_LABELS = ("left-up-noflip", "left-up-flip", "left-down-noflip", "left-down-flip",
               "right-up-noflip", "right-up-flip", "right-down-noflip", "right-down-flip")
#: Tolerance on joint limits (rad / m): a solution exactly on a limit is within it.
LIMIT_TOL = 1e-9
#: How far T may be from a rigid transform (orthonormality error, last row).
RIGID_TOL = 1e-6


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


# --- small helpers shared by the solvers ------------------------------------------------------------

def wrap_angle(x):
    """Angle(s) wrapped to (−π, π].

    >>> wrap_angle(np.pi), wrap_angle(-np.pi), round(wrap_angle(3 * np.pi / 2), 6)
    (3.141592653589793, 3.141592653589793, -1.570796)
    """
    if isinstance(x, float):
        r = math.remainder(x, TAU)
        return r + TAU if r <= -PI else r
    x = np.asarray(x, dtype=float)
    r = np.remainder(x + PI, TAU) - PI  # [−π, π)
    return np.where(r <= -PI, r + TAU, r)


def limit_table(robot):
    """[(lo, hi, revolute)] per joint, limits widened by LIMIT_TOL (±inf without limits)."""
    out = []
    for link in robot.links:
        lo, hi = link.qlim if link.qlim is not None else (-math.inf, math.inf)
        out.append((lo - LIMIT_TOL, hi + LIMIT_TOL, link.revolute))
    return out


def fit_row(row, lims):
    """Wrap a row of angles to (−π, π], then move each by ±2π into its range when that is possible.

    Returns (row, within_limits). The ±2π move is for joints whose range is wider than
    2π (PUMA θ6 ±266°) or lies outside (−π, π] (PUMA θ2 −225°…45°, θ3 −45°…225°).
    """
    ok = True
    out = []
    rem = math.remainder
    for x, (lo, hi, rev) in zip(row, lims):
        if rev:
            if not -PI < x <= PI:
                x = rem(x, TAU)
                if x <= -PI:
                    x += TAU
            if not lo <= x <= hi:
                if x < lo and x + TAU <= hi:
                    x += TAU
                elif x > hi and x - TAU >= lo:
                    x -= TAU
                else:
                    ok = False
        elif not lo <= x <= hi:
            ok = False
        out.append(x)
    return out, ok


def check_pose(T, name="T"):
    """T as a list of 4 rows of floats, or a ValueError naming T (shape, NaN, not rigid)."""
    if not (type(T) is np.ndarray and T.shape == (4, 4) and T.dtype == float):
        T = np.asarray(as_float_array(T, name, (4, 4), allow_batch=False), dtype=float)
    rows = T.tolist()
    r0, r1, r2, r3 = rows
    if not math.isfinite(sum(r0) + sum(r1) + sum(r2) + sum(r3)):
        raise ValueError(f"{name} contains NaN or infinity: {T!r:.200}")
    nx, ox, ax = r0[0], r0[1], r0[2]
    ny, oy, ay = r1[0], r1[1], r1[2]
    nz, oz, az = r2[0], r2[1], r2[2]
    err = max(abs(r3[0]), abs(r3[1]), abs(r3[2]), abs(r3[3] - 1.0),
              abs(nx * nx + ny * ny + nz * nz - 1.0), abs(ox * ox + oy * oy + oz * oz - 1.0),
              abs(nx * ox + ny * oy + nz * oz),
              abs(ny * oz - nz * oy - ax), abs(nz * ox - nx * oz - ay), abs(nx * oy - ny * ox - az))
    if err > RIGID_TOL:
        raise ValueError(
            f"{name} is not a rigid transform (rotation part not orthonormal with det +1, or last row "
            f"not [0, 0, 0, 1]; error {err:.2g} > {RIGID_TOL:g}): {T!r:.200}")
    return rows


def check_poses(T, name="T", rigid=True):
    """A batch T (N, 4, 4) as a float array, or a ValueError naming T and the first bad pose.

    ``rigid=False`` leaves the rigid-transform test to the caller (:func:`rigid_error` on
    cache-sized chunks, then :func:`raise_if_not_rigid`).
    """
    T = as_float_array(T, name, (4, 4))
    if T.ndim != 3:
        raise ValueError(f"{name} must have shape (N, 4, 4) for a batch, got shape {T.shape}")
    if rigid:
        raise_if_not_rigid(rigid_error(np.ascontiguousarray(T.transpose(1, 2, 0))), name)
    return T


def rigid_error(cols):
    """Per pose, how far T is from a rigid transform; cols = T.transpose(1, 2, 0), shape (4, 4, N)."""
    (nx, ox, ax, _), (ny, oy, ay, _), (nz, oz, az, _), last = cols
    e = np.abs(nx * nx + ny * ny + nz * nz - 1.0)
    np.maximum(e, np.abs(ox * ox + oy * oy + oz * oz - 1.0), out=e)
    np.maximum(e, np.abs(nx * ox + ny * oy + nz * oz), out=e)
    np.maximum(e, np.abs(ny * oz - nz * oy - ax), out=e)
    np.maximum(e, np.abs(nz * ox - nx * oz - ay), out=e)
    np.maximum(e, np.abs(nx * oy - ny * ox - az), out=e)
    np.maximum(e, np.abs(last[0]) + np.abs(last[1]) + np.abs(last[2]) + np.abs(last[3] - 1.0), out=e)
    return e


def raise_if_not_rigid(e, name="T"):
    bad = np.flatnonzero(e > RIGID_TOL)
    if len(bad):
        i = int(bad[0])
        raise ValueError(f"{name}[{i}] is not a rigid transform (rotation part not orthonormal with det +1, "
                         f"or last row not [0, 0, 0, 1]; error {e[i]:.2g} > {RIGID_TOL:g}); "
                         f"{len(bad)} bad pose(s) in the batch")


def strip_base_tool(robot, rows):
    """Pose of the last DH frame: base⁻¹ · T · tool⁻¹ (rows of floats in, rows out)."""
    if robot.base is None and robot.tool is None:
        return rows
    from .transforms import Tinv

    T = np.array(rows)
    if robot.base is not None:
        T = Tinv(robot.base) @ T
    if robot.tool is not None:
        T = T @ Tinv(robot.tool)
    return T.tolist()


def check_q_current(q_current, n):
    """q_current as a list of n floats, or a ValueError naming q_current."""
    try:
        qc = np.asarray(q_current, dtype=float)
        ok = qc.shape == (n,) and np.isfinite(qc).all()
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ValueError(f"q_current must be {n} finite joint values, got {q_current!r:.120}")
    return qc.tolist()


def check_q_current_batch(q_current, N, n):
    """None, or q_current ((n,) for every pose, or (N, n)) as an (N, n) array; else a ValueError."""
    if q_current is None:
        return None
    try:
        qc = np.asarray(q_current, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"q_current must be numbers, got {q_current!r:.120}") from None
    if qc.shape not in ((n,), (N, n)) or not np.isfinite(qc).all():
        raise ValueError(f"q_current must have shape ({n},) or ({N}, {n}) and be finite, got shape {qc.shape}")
    return np.broadcast_to(qc, (N, n))


# --- solution selection (paper 003 eq. (12)) ------------------------------------------------------

def joint_motion(q, q_current, weights=None, qlim=None, revolute=None):
    """Weighted joint motion J = Σ kᵢ|Δθᵢ| from q_current to each row of q, paper 003 eq. (12).

    The paper prints J = k1|Δθ1| + k2|Δθ3| + k3|Δθ3|; the middle term is k2|Δθ2| (erratum),
    with k = (3, 2, 1) (:data:`PAPER_WEIGHTS`) for its 3-joint arm. weights None means all 1.

    Returns (J (k,), q_moved (k, n)). For a revolute joint the target angle is replaced by the
    equivalent angle θ + 2πm nearest to the current one that lies inside the joint range
    (so a joint whose range allows passing through ±π takes the short way round, Δθ wrapped to
    (−π, π]; a joint with a narrower range takes the only way its limits allow). Where no
    equivalent lies inside the range, Δθ is the wrapped difference.

    >>> J, _ = joint_motion(np.array([[0.1, 0.2, 0.3]]), np.zeros(3), PAPER_WEIGHTS)
    >>> round(float(J[0]), 6)   # 3·0.1 + 2·0.2 + 1·0.3
    1.0
    """
    q = np.atleast_2d(np.asarray(q, dtype=float))
    k, n = q.shape
    qc = np.zeros(n) if q_current is None else as_float_array(q_current, "q_current", (n,), allow_batch=False)
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


def _joint_motion_floats(q, qc, w, lo, hi, rev):
    """:func:`joint_motion` on Python floats (same rules, same order of candidates)."""
    rem = math.remainder
    qc_, w_, lo_, hi_, rev_ = qc.tolist(), w.tolist(), lo.tolist(), hi.tolist(), rev.tolist()
    J, moved = [], []
    for row in q.tolist():
        total = 0.0
        out = []
        for x, c, wi, l, h, r in zip(row, qc_, w_, lo_, hi_, rev_):
            d = x - c
            if r:
                d = rem(d, TAU)
                if d <= -PI:
                    d += TAU
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


def select(sols, q_current=None, weights=None, qlim=None, revolute=None):
    """The one solution with least weighted joint motion (paper 003 eq. (12)) from q_current.

    A solution outside the joint limits is never chosen if any within-limit one exists.
    q_current None means the zero configuration. If the chosen solution is within limits its angles
    are the equivalents nearest to q_current (see :func:`joint_motion`), else they are left as
    given; ``cost`` holds J.
    """
    if len(sols) == 0:
        return sols
    J, moved = joint_motion(sols.q, q_current, weights, qlim, revolute)
    pool = sols.within_limits if sols.within_limits.any() else np.ones(len(J), bool)
    i = int(np.argmin(np.where(pool, J, np.inf)))
    out = sols.take([i])
    if sols.within_limits[i]:
        out.q = moved[i:i + 1]
    out.cost = float(J[i])
    return out


# --- dispatch -------------------------------------------------------------------------------------

def solver_for(robot):
    """The closed-form solver that fits this robot's DH table, or None (cached on the robot).

    Recognised: PUMA560 (modified DH as textbook Table 3.2, or its standard-DH form, any lengths,
    d6 / tool / base allowed), the youBot arm (lab report Table 2.1, any lengths and offsets),
    planar 2R and 3R arms (standard DH, α = 0).
    """
    # DHRobot compiles its chain once (robot._fk); a robot whose table changes is rebuilt with a
    # new kernel, so the kernel's identity is a cheap key for the solver made from the same table.
    key = getattr(robot, "_fk", None)
    cached = getattr(robot, "_ik_cache", None)
    if cached is not None and key is not None and cached[0] is key:
        return cached[1]
    from . import ik_planar, ik_puma, ik_youbot

    solver = None
    for make in (ik_puma.PumaSolver.match, ik_youbot.YoubotSolver.match, ik_planar.PlanarSolver.match):
        solver = make(robot)
        if solver is not None:
            break
    robot._ik_cache = (key, solver)
    return solver


def ikine_all(robot, T, q_current=None, **kw):
    """All closed-form solutions of pose T (4×4) for a recognised robot; T (N, 4, 4) gives an :class:`IKBatch`.

    ``q_current`` only matters at singularities: the free joint keeps its current value.
    Extra keywords go to the robot's solver (youBot: ``project=True`` solves the nearest
    reachable pose instead of returning an empty result).
    Raises NotImplementedError for other robots (use :func:`ikine_numeric`).
    """
    solver = solver_for(robot)
    if solver is None and robot.symbolic:
        raise NotImplementedError(f"{robot.name or 'this robot'!r} has symbolic DH parameters; inverse "
                                  "kinematics needs numbers (e.g. armlab.models.puma560() without symbolic=True)")
    if solver is None:
        raise NotImplementedError(
            f"no closed-form inverse kinematics for {robot.name or 'this robot'!r}: its DH table is not "
            "the PUMA560, youBot, planar 2R or planar 3R structure. Use robot.ikine_numeric(T, q0) "
            "(armlab.ik.ikine_numeric), the damped-least-squares solver.")
    if (T.ndim if type(T) is np.ndarray else np.ndim(T)) == 3:
        return solver.solve_batch(np.asarray(T), q_current, **kw)
    return solver.solve(T, q_current, **kw)


def ikine(robot, T, q_current=None, weights=None, **kw):
    """One closed-form solution of T: the least weighted joint motion from q_current (:func:`select`).

    Returns an :class:`IKSolutions` with k = 1, or k = 0 and a reason. q_current None means zeros.
    """
    if (T.ndim if type(T) is np.ndarray else np.ndim(T)) == 3:
        raise ValueError(f"T must have shape (4, 4) for ikine, got shape {np.shape(T)}; for a batch "
                         "(N, 4, 4) use ikine_all, which returns every solution of every pose")
    sols = ikine_all(robot, T, q_current, **kw)
    solver = solver_for(robot)
    if not hasattr(solver, "qlim_array"):
        solver.qlim_array = robot.qlim
        solver.revolute_array = np.array([l.revolute for l in robot.links])
    return select(sols, q_current, weights, solver.qlim_array, solver.revolute_array)


def ikine_numeric(robot, T, q0=None, **kw):
    """Numeric IK for any DHRobot, see :func:`armlab.ik_numeric.ikine_numeric`."""
    from .ik_numeric import ikine_numeric as solve

    return solve(robot, T, q0, **kw)


def puma560_ikine(T, q_current=None, robot=None):
    """All (up to 8) PUMA560 solutions of T, textbook eqs. (3.33)–(3.53); robot defaults to models.puma560()."""
    from . import models

    return ikine_all(robot if robot is not None else _default("puma560", models.puma560), T, q_current)


def puma560_ikine_batch(T, q_current=None, robot=None, fill=0.0):
    """PUMA560 IK of N poses at once, vectorised: T (N, 4, 4) → :class:`IKBatch` with q (N, 8, 6)."""
    from . import models

    robot = robot if robot is not None else _default("puma560", models.puma560)
    solver = solver_for(robot)
    from .ik_puma import PumaSolver

    if not isinstance(solver, PumaSolver):
        raise NotImplementedError(f"{robot.name!r} is not a PUMA560-type robot")
    return solver.solve_batch(T, q_current, fill=fill)


def youbot_ikine(T, q_current=None, robot=None, project=False):
    """All (up to 4) youBot solutions of T, lab report eqs. (2.9)–(2.28); robot defaults to models.youbot()."""
    from . import models

    return ikine_all(robot if robot is not None else _default("youbot", models.youbot), T, q_current,
                     project=project)


def planar2r_ikine(x, y, l1=1.0, l2=1.0, q_current=None):
    """Both planar 2R solutions (elbow up, elbow down) reaching the point (x, y)."""
    from .ik_planar import planar2r_ikine as f

    return f(x, y, l1, l2, q_current)


def planar3r_ikine(x, y, phi, l1=1.0, l2=1.0, l3=0.5, q_current=None):
    """Both planar 3R solutions reaching (x, y) with end-effector angle φ."""
    from .ik_planar import planar3r_ikine as f

    return f(x, y, phi, l1, l2, l3, q_current)


_DEFAULTS = {}


def _default(name, make):
    if name not in _DEFAULTS:
        _DEFAULTS[name] = make()
    return _DEFAULTS[name]


def loop_batch(solver, T, q_current, slots, labels, fill=0.0, **kw):
    """An :class:`IKBatch` by solving pose after pose (robots without a vectorised solver).

    Solutions go to the slot of their label (labels in slot order); ``kw`` go to ``solver.solve``.
    """
    T = check_poses(T)
    N, n = len(T), solver.n
    q = np.full((N, slots, n), fill, dtype=float)
    valid = np.zeros((N, slots), bool)
    ok = np.zeros((N, slots), bool)
    sing = np.zeros((N, slots), bool)
    reason = np.full(N, "", dtype=object)
    qc = check_q_current_batch(q_current, N, n)
    for i in range(N):
        s = solver.solve(T[i], None if qc is None else qc[i], **kw)
        reason[i] = s.reason
        for j, lab in enumerate(s.labels):
            k = labels.index(lab.split(":")[0])
            q[i, k], valid[i, k], ok[i, k], sing[i, k] = s.q[j], True, s.within_limits[j], s.singular[j]
    return IKBatch(q, valid, ok, sing, reason, list(labels), solver.method)
