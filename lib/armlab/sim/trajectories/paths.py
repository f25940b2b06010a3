"""References through several points or along a line, built from the profiles of
:mod:`armlab.sim.trajectories.profiles`.

:func:`via_points` joins quintic segments through several points with q, q̇ and q̈ continuous;
:func:`sequence` runs references one after another; :func:`cartesian_line` moves the tool on a straight
line through the robot's closed-form IK, refused where it passes a singularity or leaves the workspace.

>>> ref = via_points([[0.0], [1.0], [0.5]], [0.0, 1.0, 2.0])
>>> ref(1.0)[0].tolist(), ref(1.0)[1].tolist()   # the joint turns round at the middle point: q̇ = 0 there
([1.0], [0.0])
"""

from __future__ import annotations

from typing import Unpack

import numpy as np
from numpy.typing import ArrayLike

from ..._core.deprecation import renamed_kwargs
from ..._core.protocol import RobotLike
from ..._core.validation import as_float_array, joint_vector
from .profiles import JointReference, RateLimits, Reference, check_duration, check_limits, quintic

__all__ = ["Sequence", "CartesianLine", "via_points", "sequence", "cartesian_line"]


def via_points(
    points: ArrayLike,
    times: ArrayLike,
    *,
    qd: ArrayLike | None = None,
    t0: float | None = None,
    **limits: Unpack[RateLimits],
) -> JointReference:
    """Quintic segments through ``points`` (m, n) at ``times`` (m,), at rest at both ends (``limits``:
    :class:`RateLimits`).

    At an interior point the velocity is the mean of the two neighbouring segments' average slopes, or 0
    where they have opposite signs (the joint turns round there), unless ``qd`` (m, n) gives them all; the
    acceleration there is 0. So q, q̇ and q̈ are continuous through every via point.
    """
    P = as_float_array(points, "points")
    if P.ndim == 1:
        P = P[:, None]
    t = as_float_array(times, "times", (len(P),), allow_batch=False)
    if len(P) < 2:
        raise ValueError(f"via_points needs at least 2 points, got {len(P)}")
    if np.any(np.diff(t) <= 0):
        raise ValueError(f"times must increase strictly, got {t.tolist()}")
    if qd is None:
        slope = np.diff(P, axis=0) / np.diff(t)[:, None]
        V = np.zeros_like(P)
        inner = 0.5 * (slope[:-1] + slope[1:])
        V[1:-1] = np.where(np.sign(slope[:-1]) * np.sign(slope[1:]) > 0, inner, 0.0)
    else:
        V = as_float_array(qd, "qd", P.shape, allow_batch=False)
    parts = [quintic(P[k], P[k + 1], t[k + 1] - t[k], qd0=V[k], qd1=V[k + 1], t0=t[k]) for k in range(len(P) - 1)]
    ref = JointReference(t, np.concatenate([p.coeffs for p in parts]), "via points")
    ref = ref if t0 is None else ref.shifted(t0)
    return check_limits(ref, **limits)


class Sequence(Reference):
    """References run one after another (each shifted to start where the previous ends); callable like
    each of them. ``starts`` holds the start time of every part."""

    def __init__(self, parts: list, t0: float = 0.0, tol: float = 1e-9):
        if not parts:
            raise ValueError("sequence needs at least one reference")
        self.parts: list[Reference] = []
        self.starts: list[float] = []
        start = float(t0)
        for k, part in enumerate(parts):
            if not callable(part) or not hasattr(part, "duration"):
                raise TypeError(f"part {k + 1} must be a reference of this module (callable, with .duration)")
            part = part.shifted(start)
            if self.parts:
                prev = self.parts[-1]
                q_end, qd_end, _ = prev(prev.t1)
                q_new, qd_new, _ = part(part.t0)
                gap = max(np.abs(q_new - q_end).max(), np.abs(qd_new - qd_end).max())
                if gap > tol:
                    raise ValueError(
                        f"part {k + 1} starts at q = {np.round(q_new, 6).tolist()}, q̇ = "
                        f"{np.round(qd_new, 6).tolist()} but part {k} ends at q = "
                        f"{np.round(q_end, 6).tolist()}, q̇ = {np.round(qd_end, 6).tolist()}"
                    )
            self.parts.append(part)
            self.starts.append(start)
            start += part.duration
        self._n = self.parts[0].n

    @property
    def t0(self) -> float:
        return self.starts[0]

    @property
    def t1(self) -> float:
        return self.parts[-1].t1

    @property
    def duration(self) -> float:
        return self.t1 - self.t0

    def shifted(self, t0: float) -> Sequence:
        return Sequence(self.parts, t0)

    def __call__(self, t: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        scalar = np.ndim(t) == 0
        t = np.atleast_1d(as_float_array(t, "t"))
        k = np.clip(np.searchsorted(np.array(self.starts), t, side="right") - 1, 0, len(self.parts) - 1)
        out = [np.empty((len(t), self.n)) for _ in range(3)]
        for j in np.unique(k):
            mask = k == j
            for o, v in zip(out, self.parts[j](t[mask])):
                o[mask] = v
        q, qd, qdd = out
        return (q[0], qd[0], qdd[0]) if scalar else (q, qd, qdd)

    def peaks(self, samples: int = 801) -> tuple[np.ndarray, np.ndarray]:
        per = [p.peaks() for p in self.parts]
        return np.max([p[0] for p in per], axis=0), np.max([p[1] for p in per], axis=0)

    def __repr__(self) -> str:
        return f"Sequence({', '.join(repr(p) for p in self.parts)})"


def sequence(*parts: Reference, t0: float = 0.0) -> Sequence:
    """Run references one after another; each must start where the previous one ends (q and q̇)."""
    return Sequence(list(parts), t0)


class CartesianLine(Reference):
    """The tool's position moving on a straight line, p(t) = p0 + s(t)·(p1 − p0), s a rest-to-rest quintic
    0 → 1, mapped to joint space by the robot's closed-form position IK on one branch (``label``).

    q̇ = J⁻¹ṗ and q̈ = J⁻¹(p̈ − J̇q̇) with J the Jacobian's position rows. ``x(t)`` gives p, ṗ, p̈.
    """

    def __init__(
        self, robot: RobotLike, p0: ArrayLike, p1: ArrayLike, T: float, label: str, q_ref: ArrayLike, t0: float = 0.0
    ):
        self.robot, self.label, self.q_ref = robot, label, np.asarray(q_ref, float)
        self.p0, self.p1 = np.asarray(p0, float), np.asarray(p1, float)
        self.T, self._t0 = float(T), float(t0)
        self._n = robot.n
        self.s = quintic([0.0], [1.0], self.T, t0=self._t0)

    @property
    def t0(self) -> float:
        return self._t0

    @property
    def t1(self) -> float:
        return self._t0 + self.T

    @property
    def duration(self) -> float:
        return self.T

    def shifted(self, t0: float) -> CartesianLine:
        return CartesianLine(self.robot, self.p0, self.p1, self.T, self.label, self.q_ref, t0)

    def x(self, t: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(p, ṗ, p̈) of the tool, (3,) each or (N, 3)."""
        s, sd, sdd = self.s(t)
        d = self.p1 - self.p0
        return self.p0 + s * d, sd * d, sdd * d

    def __call__(self, t: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        scalar = np.ndim(t) == 0
        p, pd, pdd = (np.atleast_2d(v) for v in self.x(t))
        q = _branch(self.robot, p, self.label, self.q_ref)
        J = self.robot.jacob0(q)[..., :3, :]
        qd = np.linalg.solve(J, pd[..., None])[..., 0]
        from ...jacobians import jdot  # the task-space acceleration needs J̇q̇

        Jd = jdot(self.robot, q, qd)[..., :3, :]
        qdd = np.linalg.solve(J, (pdd - np.einsum("...ij,...j->...i", Jd, qd))[..., None])[..., 0]
        return (q[0], qd[0], qdd[0]) if scalar else (q, qd, qdd)

    def __repr__(self) -> str:
        return (
            f"CartesianLine({self.p0.tolist()} → {self.p1.tolist()} in {self.T:g} s, branch {self.label!r}, "
            f"{self.robot.name or 'robot'})"
        )


def _branch(robot, points, label, q_ref):
    """IK of each point (N, 3) on the branch ``label``, each angle the 2π-equivalent nearest q_ref."""
    from ...ik import ikine_all

    out = np.empty((len(points), robot.n))
    for k, p in enumerate(points):
        sols = ikine_all(robot, p, q_ref)
        if label not in sols.labels:
            raise ValueError(
                f"the path leaves the workspace of branch {label!r} at p = {np.round(p, 6).tolist()}"
                + (f" ({sols.reason})" if sols.reason else "")
            )
        q = sols.q[sols.labels.index(label)]
        out[k] = q_ref + (q - q_ref + np.pi) % (2 * np.pi) - np.pi
    return out


@renamed_kwargs(q_start="q0")
def cartesian_line(
    robot: RobotLike,
    p0: ArrayLike,
    p1: ArrayLike,
    T: float,
    *,
    q0: ArrayLike | None = None,
    t0: float = 0.0,
    min_sigma: float = 1e-2,
    samples: int = 201,
    qd_max: ArrayLike | None = None,
    qdd_max: ArrayLike | None = None,
) -> CartesianLine:
    """A straight line of the tool's position from p0 to p1 in T seconds (quintic timing), through the
    closed-form position IK of ``robot`` (e.g. ``models.paper_3r()``).

    The branch is the IK solution at p0 nearest the start pose ``q0`` (default: the first solution), kept
    along the line. The line is checked at ``samples`` points: a point out of reach, or a smallest singular
    value of the Jacobian's position rows below ``min_sigma`` (m/rad; the line would cross a singularity,
    where q̇ = J⁻¹ṗ blows up) raises a ValueError naming where. ``qd_max``/``qdd_max`` are checked too.
    """
    p0 = as_float_array(p0, "p0", (3,), allow_batch=False)
    p1 = as_float_array(p1, "p1", (3,), allow_batch=False)
    T = check_duration(T)
    if q0 is not None:
        q0 = np.asarray(joint_vector(q0, robot.n, "q0", symbolic=False, batch=False), dtype=float)
    from ...ik import ikine_all  # on first use: importing sim stays light

    sols = ikine_all(robot, p0, q0)
    if len(sols) == 0:
        raise ValueError(f"p0 = {p0.tolist()} is out of reach ({sols.reason})")
    if q0 is None:
        k = 0
        q_ref = sols.q[k]
    else:
        k = int(np.argmin(np.abs((sols.q - q0 + np.pi) % (2 * np.pi) - np.pi).sum(axis=1)))
        q_ref = q0 + (sols.q[k] - q0 + np.pi) % (2 * np.pi) - np.pi
    line = CartesianLine(robot, p0, p1, T, sols.labels[k], q_ref, t0)
    s = np.linspace(0.0, 1.0, samples)
    pts = p0 + s[:, None] * (p1 - p0)
    q = _branch(robot, pts, line.label, q_ref)
    sigma = np.linalg.svd(robot.jacob0(q)[:, :3, :], compute_uv=False)[:, -1]
    bad = np.flatnonzero(sigma < min_sigma)
    if len(bad):
        i = int(bad[0])
        raise ValueError(
            f"the line crosses a singularity near p = {np.round(pts[i], 4).tolist()} "
            f"(s = {s[i]:.3f}, t = {_time_of(line, s[i]):.4g} s): "
            f"σ_min of the position Jacobian = {sigma[i]:.2e} < {min_sigma:g}"
        )
    line.q_ref = q[0]
    return check_limits(line, qd_max, qdd_max)


def _time_of(line, s):
    """The time at which the quintic timing reaches the fraction s (bisection)."""
    lo, hi = line.t0, line.t1
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if line.s(mid)[0][0] < s else (lo, mid)
    return 0.5 * (lo + hi)
