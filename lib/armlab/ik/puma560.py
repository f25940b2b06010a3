"""PUMA560 closed-form inverse kinematics, textbook §3.2.3, eqs. (3.33)–(3.53).

Frames are the textbook's modified-DH frames (Table 3.2, ``armlab.models.puma560()``), with
{6} at the wrist centre. Steps, with (u = c1·px + s1·py):

* θ1, eq. (3.38): θ1 = atan2(py, px) − atan2(d2, ±√(px² + py² − d2²))        2 roots
* θ3, eqs. (3.40)–(3.42): a3·c3 − d4·s3 = k,
  k = (px² + py² + pz² − a2² − a3² − d2² − d4²) / (2·a2),
  θ3 = atan2(a3, d4) − atan2(k, ±√(a3² + d4² − k²))                            2 roots
* θ23, eq. (3.46): θ23 = atan2(−(a3 + a2c3)·pz − u·(d4 − a2s3), (a2s3 − d4)·pz + u·(a2c3 + a3)),
  θ2 = θ23 − θ3 (3.47)
* θ4, eq. (3.48): θ4 = atan2(−ax·s1 + ay·c1, −ax·c1c23 − ay·s1c23 + az·s23) (= atan2(s4s5, c4s5))
* θ5, eqs. (3.50)–(3.51), θ6, eqs. (3.52)–(3.53)
* the flipped wrist (θ4 + π, −θ5, θ6 + π) gives the same T06: 2·2·2 = 8 solutions.

Errata in the printed §3.2.3 (derived with sympy and checked numerically in tests/test_ik_puma.py):

* (3.39), second line: printed "−px = a3·s23 + d4·c23 + a2·s2"; it is the (3,4) element of (3.35),
  so it reads −pz = a3·s23 + d4·c23 + a2·s2 (compare pz in (3.30)/(3.32)).
* (3.45), second line: printed "−c1s23px − s1s23py − c23px + a2s3 = d4"; row 2 of ⁰₃T⁻¹ in
  (3.44) is (−c1s23, −s1s23, −c23, a2s3), so the term is −c23·pz.
* (3.32) (the FK the IK inverts) prints oy = s1[…] − c1(c4c6 − s4c5**c6**); it is s4c5**s6**
  (compare ox). Its brackets are also lost in the text (nx, ny, px, py: c1[c23(…) − s23s5c6] …).
* (3.46) and the s23/c23 expressions above it are right once the fraction bars are restored;
  (3.49)'s ⁰₄T⁻¹, (3.50) and (3.52)–(3.53) are right.
* The book says a wrist singularity "can be detected by both atan2 arguments of (3.48) being
  near zero": those arguments are s4·s5 and c4·s5, so this is exactly s5 ≈ 0.

* Table 3.2 prints θ3's range as −45°…225°, which is Fu–Gonzalez–Lee's θ3 (this θ3 + 180°);
  in the book's frames it is −225°…45° (docs/errata.md), and the check pose is inside it.

Branch labels (geometric, independent of frame choices):

* shoulder ``left`` / ``right``: facing from the base towards the wrist centre, the shoulder offset
  d2 (along y1) lies to the left / right. ``left`` ⇔ the + root of (3.38) ⇔ u > 0.
  (The book's check pose θ = (90°, 0, −90°, 0, 0, 0) is a left arm.)
* elbow ``up`` / ``down``: the elbow (origin of {3}) is above / below the line from the shoulder to
  the wrist centre, seen with the wrist in front. The cross product of the two works out to
  a2·(a3s3 + d4c3) = ±a2·√(a3² + d4² − k²) in the (x1, z1) plane, so ``up`` ⇔ the + root of
  (3.42) for a left arm and the − root for a right arm.
* wrist ``noflip`` / ``flip``: noflip is (3.48) as printed (s5 ≥ 0, θ5 ∈ [0, π]); flip is
  (θ4 + π, −θ5, θ6 + π).

roboticstoolbox-python's ``Puma560.ikine_a`` (Paul's frames; with d1 = 0 and these lengths it is
the same arm, q_rtb = q + (π, π, 0, 0, 0, 0)) agrees on l/r and u/d; its n/f are our flip/noflip.

Slots, in this fixed order: left-up-noflip, left-up-flip, left-down-noflip, left-down-flip,
right-up-noflip, right-up-flip, right-down-noflip, right-down-flip.
"""
from __future__ import annotations

import math

import numpy as np

from .._core.angles import PI, TAU, wrap_atan2_inplace, wrap_code
from .._core.codegen import make_function
from .._core.validation import (check_joint_batch, check_joint_values, check_pose, check_poses,
                                raise_if_not_rigid, rigid_error)
from ..kinematics.frames import strip_base_tool
from ..kinematics.structure import puma560_geometry
from .results import IKBatch, IKSolutions
from .solver import Solver, register

#: Branch labels, in the fixed slot order of the single-pose and batched solvers.
PUMA_LABELS = ("left-up-noflip", "left-up-flip", "left-down-noflip", "left-down-flip",
               "right-up-noflip", "right-up-flip", "right-down-noflip", "right-down-flip")

# (θ1 root sign, θ3 root sign) of each elbow/shoulder pair, in slot order (see the module docstring)
_ARM_BRANCHES = ((1.0, 1.0), (1.0, -1.0), (-1.0, -1.0), (-1.0, 1.0))

#: |s5| below this is a wrist singularity (θ4 is then chosen, θ6 compensates).
SINGULAR_TOL = 1e-10
#: Tolerance on the radicands of (3.38) and (3.42), relative to the squared arm length
#: (|a2| + |a3| + |d2| + |d4|)²: a pose on the workspace boundary computed by fkine is reachable
#: (a slightly negative radicand is taken as 0 and the double root collapses).
BOUNDARY_TOL = 1e-10



@register
class PumaSolver(Solver):
    """Closed-form IK for a PUMA560-type arm (lengths a2, a3, d2, d4 read from the DH table)."""

    method = "puma560"

    def __init__(self, robot, a2, a3, d2, d4, tool_d):
        super().__init__(robot)
        self.a2, self.a3, self.d2, self.d4 = a2, a3, d2, d4
        self.tool_d = tool_d  # d6 written in the DH table: a translation along z6 after θ6
        L = abs(a2) + abs(a3) + abs(d2) + abs(d4)
        self.eps2 = BOUNDARY_TOL * L * L
        self.solve_one = compile_single(a2, a3, d2, d4, self.eps2, self.lims)
        self.strip = robot.base is not None or robot.tool is not None or bool(tool_d)
        self.labels = list(PUMA_LABELS)

    @classmethod
    def match(cls, robot):
        """A solver if robot's DH table has the PUMA560 structure, else None."""
        g = puma560_geometry(robot)
        return None if g is None else cls(robot, g["a2"], g["a3"], g["d2"], g["d4"], g["d6"])

    def _t06(self, rows):
        rows = strip_base_tool(self.robot, rows)
        if self.tool_d:
            # T06 = T · Trans(0, 0, d6)⁻¹: move p back along a (the z6 axis)
            d = self.tool_d
            rows = [r[:] for r in rows]
            for i in range(3):
                rows[i][3] -= d * rows[i][2]
        return rows

    # --- one pose, plain Python floats (a numpy call costs ~1 µs): compile_single below ---------
    def solve(self, T, q_current=None):
        rows = check_pose(T)
        if self.strip:
            rows = self._t06(rows)
        q1_free = q4_free = 0.0
        if q_current is not None:
            qc = check_joint_values(q_current, 6)
            q1_free, q4_free = qc[0], qc[3]
        out = self.solve_one(rows, q1_free, q4_free)
        if type(out) is int:  # unreachable: the readable solver words the reason
            reason = solve_rows(rows, self.a2, self.a3, self.d2, self.d4, self.eps2)
            return IKSolutions.empty(6, reason, self.method)
        flat, ok, sing = out
        return IKSolutions(np.array(flat).reshape(8, 6), self.labels[:], np.array(ok, dtype=bool),
                           np.array(sing, dtype=bool), method=self.method)

    # --- N poses, numpy -------------------------------------------------------------------------
    def solve_batch(self, T, q_current=None, fill=0.0):
        T = check_poses(T, rigid=False)  # tested per chunk, see solve_batch_arrays
        N = len(T)
        T = strip_base_tool(self.robot, T)
        if self.tool_d:
            T = T.copy()
            T[:, :3, 3] -= self.tool_d * T[:, :3, 2]
        qc = check_joint_batch(q_current, N, 6)
        q1_free, q4_free = (0.0, 0.0) if qc is None else (qc[:, 0], qc[:, 3])
        q, valid, sing, reason, ok = solve_batch_arrays(T, self.a2, self.a3, self.d2, self.d4, self.eps2,
                                                        q1_free, q4_free, self.lims, check=True)
        if not valid.all():
            q[~valid] = fill
        return IKBatch(q, valid, ok & valid, sing & valid, reason, self.labels[:], self.method)


def solve_rows(rows, a2, a3, d2, d4, eps2=0.0, q1_free=0.0, q4_free=0.0):
    """The 8 PUMA560 solutions of T06 (rows of floats), unwrapped, in slot order.

    Returns (solutions, singular flags) or a string saying why the pose is unreachable.
    """
    atan2, cos, sin, sqrt = math.atan2, math.cos, math.sin, math.sqrt
    r0, r1, r2 = rows[0], rows[1], rows[2]
    nx, ax, px = r0[0], r0[2], r0[3]
    ny, ay, py = r1[0], r1[2], r1[3]
    nz, az, pz = r2[0], r2[2], r2[3]

    # θ1, eq. (3.38)
    rho2 = px * px + py * py
    D1 = rho2 - d2 * d2
    if D1 < 0.0:
        if D1 < -eps2:
            return (f"unreachable: the wrist centre is {math.sqrt(rho2):.4g} m from the axis of joint 1, "
                    f"closer than the shoulder offset d2 = {abs(d2):.4g} m, so px² + py² − d2² < 0 "
                    "in eq. (3.38)")
        D1 = 0.0
    s_1 = sqrt(D1)
    shoulder_singular = rho2 <= eps2  # wrist centre on axis 1 (only possible when d2 = 0)
    phi = q1_free if shoulder_singular else atan2(py, px)
    t1 = (phi - atan2(d2, s_1), phi - atan2(d2, -s_1))

    # θ3, eqs. (3.40)–(3.42)
    k = (rho2 + pz * pz - a2 * a2 - a3 * a3 - d2 * d2 - d4 * d4) / (2.0 * a2)
    m2 = a3 * a3 + d4 * d4
    D3 = m2 - k * k
    if D3 < 0.0:
        if D3 < -eps2:
            r = math.sqrt(rho2 + pz * pz)
            return (f"unreachable: the wrist centre is {r:.4g} m from the origin, outside the reach of the "
                    f"arm (a3² + d4² − k² < 0 in eq. (3.42), k = {k:.4g} m); reachable distances are "
                    f"{_reach_text(a2, a3, d2, d4)}")
        D3 = 0.0
    s_3 = sqrt(D3)
    g = atan2(a3, d4)
    t3p, t3m = g - atan2(k, s_3), g - atan2(k, -s_3)
    c3p, s3p, c3m, s3m = cos(t3p), sin(t3p), cos(t3m), sin(t3m)

    sols = []
    sing = []
    for i1, i3 in _ARM_BRANCHES:
        th1 = t1[0] if i1 > 0 else t1[1]
        u = i1 * s_1  # = c1·px + s1·py for this root
        if i3 > 0:
            th3, c3, s3 = t3p, c3p, s3p
        else:
            th3, c3, s3 = t3m, c3m, s3m
        c1, s1 = cos(th1), sin(th1)
        # θ23, eq. (3.46) (with (3.45) corrected: −c23·pz), θ2 = θ23 − θ3 (3.47)
        A = a3 + a2 * c3
        B = d4 - a2 * s3
        t23 = atan2(-u * B - pz * A, u * A - pz * B)
        c23, s23 = cos(t23), sin(t23)
        # θ4, eq. (3.48)
        m1 = c1 * c23
        m2_ = s1 * c23
        X = -ax * m1 - ay * m2_ + az * s23  # c4·s5
        Y = -ax * s1 + ay * c1  # s4·s5
        singular = X * X + Y * Y < SINGULAR_TOL * SINGULAR_TOL
        th4 = q4_free if singular else atan2(Y, X)
        c4, s4 = cos(th4), sin(th4)
        # θ5, eqs. (3.50)–(3.51)
        e1 = m1 * c4 + s1 * s4
        e2 = m2_ * c4 - c1 * s4
        e3 = s23 * c4
        s5 = -(ax * e1 + ay * e2 - az * e3)
        c5 = -(ax * c1 * s23 + ay * s1 * s23 + az * c23)
        th5 = atan2(s5, c5)
        # θ6, eqs. (3.52)–(3.53)
        s6 = -nx * (m1 * s4 - s1 * c4) - ny * (m2_ * s4 + c1 * c4) + nz * s23 * s4
        c6 = (nx * (e1 * c5 - c1 * s23 * s5) + ny * (e2 * c5 - s1 * s23 * s5)
              - nz * (e3 * c5 + c23 * s5))
        th6 = atan2(s6, c6)
        th2 = t23 - th3
        sols.append([th1, th2, th3, th4, th5, th6])
        if singular:  # the flip is the same wrist: keep θ4 where it is
            sols.append([th1, th2, th3, th4, th5, th6])
        else:
            sols.append([th1, th2, th3, th4 + PI, -th5, th6 + PI])
        sing.append(singular or shoulder_singular)
        sing.append(singular or shoulder_singular)
    return sols, sing


def _reach_text(a2, a3, d2, d4):
    m = math.hypot(a3, d4)
    lo, hi = abs(a2 - m), a2 + m
    return f"{math.hypot(lo, d2):.4g} … {math.hypot(hi, d2):.4g} m"


def solve_batch_arrays(T, a2, a3, d2, d4, eps2, q1_free, q4_free, lims=None, check=False):
    """Vectorised :func:`solve_rows`: T (N, 4, 4) → q (N, 8, 6), valid, singular, reason, within_limits.

    Angles are wrapped to (−π, π] and moved into the ranges of ``lims`` (:func:`armlab.ik.solver.limit_table`)
    as :func:`armlab.ik.solver.fit_row` does; without ``lims`` only wrapped. ``check=True`` raises a
    ValueError naming the first pose that is not a rigid transform (tested chunk by chunk).

    The same equations, with the sines and cosines of θ1, θ3 and θ23 taken algebraically
    instead of through atan2 then cos/sin (numpy trig on 100k-vectors is the cost here):

    * θ1 = Φ − β with cos Φ = px/ρ, sin Φ = py/ρ, cos β = u/ρ, sin β = d2/ρ (3.38):
      c1 = (px·u + py·d2)/ρ², s1 = (py·u − px·d2)/ρ²
    * θ3 = γ − ψ with cos γ = d4/m, sin γ = a3/m, cos ψ = v/m, sin ψ = k/m (3.42), v = ±√(m² − k²):
      c3 = (d4·v + a3·k)/m², s3 = (a3·v − d4·k)/m²
    * c23, s23: the two fractions above (3.46), whose common denominator is u² + pz²
    * θ2 = atan2(s23·c3 − c23·s3, c23·c3 + s23·s3) (3.47): an atan2 result like the others, no θ23 − θ3 to wrap.
    """
    N = len(T)
    Q = np.empty((6, 8, N))  # filled contiguously, returned as the (N, 8, 6) view
    sing = np.empty((8, N), bool)
    inside = np.empty((8, N), bool)
    if lims is None:
        lims = [(-math.inf, math.inf, True)] * 6
    bad1 = np.empty(N, bool)
    bad3 = np.empty(N, bool)
    q1_free = np.broadcast_to(q1_free, (N,))
    q4_free = np.broadcast_to(q4_free, (N,))
    # chunks of a few thousand poses keep every temporary in cache (whole-batch temporaries are
    # fresh mmap'd pages each time, several times slower)
    err = np.zeros(N)
    with np.errstate(all="ignore"):  # a non-rigid T is reported below, not as a numpy warning
        for lo in range(0, N, CHUNK):
            hi = min(N, lo + CHUNK)
            bad1[lo:hi], bad3[lo:hi] = _solve_chunk(T[lo:hi], a2, a3, d2, d4, eps2, q1_free[lo:hi],
                                                    q4_free[lo:hi], Q[:, :, lo:hi], sing[:, lo:hi], lims,
                                                    inside[:, lo:hi], err[lo:hi] if check else None)
    if check:
        raise_if_not_rigid(err)
    ok = ~(bad1 | bad3)
    valid = np.repeat(ok[:, None], 8, axis=1)
    reason = np.full(N, "", dtype=object)
    if not ok.all():
        reason[bad3] = "unreachable: outside the reach of the arm (a3² + d4² − k² < 0 in eq. (3.42))"
        reason[bad1] = ("unreachable: the wrist centre is closer to the axis of joint 1 than the shoulder "
                        "offset d2 (px² + py² − d2² < 0 in eq. (3.38))")
    return Q.transpose(2, 1, 0), valid, sing.T & valid, reason, inside.T & valid


CHUNK = 4096


def _fit(x, lim):
    """In place: x (from atan2, in [−π, π]) wrapped to (−π, π] and moved ±2π into the range; → inside or None."""
    lo, hi, _ = lim
    wrap_atan2_inplace(x)
    if lo < -PI:
        np.subtract(x, TAU, out=x, where=(x > hi) & (x >= lo + TAU))
    if hi > PI:
        np.add(x, TAU, out=x, where=(x < lo) & (x <= hi - TAU))
    if math.isinf(lo) and math.isinf(hi):
        return None
    return (x >= lo) & (x <= hi)


def _and(*flags):
    out = None
    for f in flags:
        if f is not None:
            out = f if out is None else out & f
    return True if out is None else out


def _solve_chunk(T, a2, a3, d2, d4, eps2, q1_free, q4_free, Q, sing, lims, inside, err=None):
    """One chunk of :func:`solve_batch_arrays`, written into Q (6, 8, n), sing and inside (8, n).

    Fitting into the joint ranges happens here, on θ1 and θ3 once per root and θ2 once per arm
    branch, instead of on all 8 slots afterwards."""
    # contiguous copies: arithmetic on strided columns of T is ~10× slower
    cols = np.ascontiguousarray(T.transpose(1, 2, 0))  # (4 rows, n/o/a/p, N)
    (nx, _, ax, px), (ny, _, ay, py), (nz, _, az, pz), _ = cols
    if err is not None:
        err[:] = rigid_error(cols)
    rho2 = px * px + py * py
    D1 = rho2 - d2 * d2
    bad1 = D1 < -eps2
    D1 = np.maximum(D1, 0.0)
    s_1 = np.sqrt(D1)
    k = (rho2 + pz * pz - (a2 * a2 + a3 * a3 + d2 * d2 + d4 * d4)) / (2.0 * a2)
    mm = a3 * a3 + d4 * d4
    D3 = mm - k * k
    bad3 = D3 < -eps2
    s_3 = np.sqrt(np.maximum(D3, 0.0))
    inv_rho2 = 1.0 / np.where(rho2 > 0.0, rho2, 1.0)
    pxs, pys, pxd, pyd = px * s_1, py * s_1, px * d2, py * d2
    roots1 = {1.0: ((pxs + pyd) * inv_rho2, (pys - pxd) * inv_rho2),
              -1.0: ((pyd - pxs) * inv_rho2, (-pys - pxd) * inv_rho2)}
    shoulder_singular = rho2 <= eps2
    if shoulder_singular.any():  # wrist centre on axis 1 (d2 = 0): θ1 is free
        cf, sf = np.cos(q1_free), np.sin(q1_free)
        roots1 = {sg: (np.where(shoulder_singular, cf, c), np.where(shoulder_singular, sf, s_))
                  for sg, (c, s_) in roots1.items()}
    a3k, d4k = a3 * k, d4 * k
    roots3 = {1.0: ((d4 * s_3 + a3k) / mm, (a3 * s_3 - d4k) / mm),
              -1.0: ((a3k - d4 * s_3) / mm, (-a3 * s_3 - d4k) / mm)}
    th1s = {sg: np.arctan2(s_, c) for sg, (c, s_) in roots1.items()}
    th3s = {sg: np.arctan2(s_, c) for sg, (c, s_) in roots3.items()}
    ok1 = {sg: _fit(v, lims[0]) for sg, v in th1s.items()}
    ok3 = {sg: _fit(v, lims[2]) for sg, v in th3s.items()}
    invD = 1.0 / np.where(D1 + pz * pz > 0.0, D1 + pz * pz, 1.0)
    c4f, s4f = np.cos(q4_free), np.sin(q4_free)
    tol2 = SINGULAR_TOL * SINGULAR_TOL
    for b, (i1, i3) in enumerate(_ARM_BRANCHES):
        c1, s1 = roots1[i1]
        c3, s3 = roots3[i3]
        u = s_1 if i1 > 0 else -s_1
        A = a3 + a2 * c3
        B = d4 - a2 * s3
        c23 = (u * A - pz * B) * invD
        s23 = (-u * B - pz * A) * invD
        th2 = np.arctan2(s23 * c3 - c23 * s3, c23 * c3 + s23 * s3)
        arm = _and(ok1[i1], _fit(th2, lims[1]), ok3[i3])
        m1 = c1 * c23
        m2 = s1 * c23
        X = az * s23 - ax * m1 - ay * m2  # c4·s5 (3.48)
        Y = ay * c1 - ax * s1  # s4·s5
        h2 = X * X + Y * Y
        singular = h2 < tol2
        if singular.any():
            inv_h = 1.0 / np.sqrt(np.where(singular, 1.0, h2))
            c4 = np.where(singular, c4f, X * inv_h)
            s4 = np.where(singular, s4f, Y * inv_h)
            th4 = np.arctan2(s4, c4)
        else:
            inv_h = 1.0 / np.sqrt(h2)
            c4, s4 = X * inv_h, Y * inv_h
            th4 = np.arctan2(Y, X)
        e1 = m1 * c4 + s1 * s4
        e2 = m2 * c4 - c1 * s4
        e3 = s23 * c4
        s5 = az * e3 - ax * e1 - ay * e2  # (3.50)
        c5 = -(s23 * (ax * c1 + ay * s1) + az * c23)
        th5 = np.arctan2(s5, c5)
        s6 = nz * s23 * s4 - nx * (m1 * s4 - s1 * c4) - ny * (m2 * s4 + c1 * c4)  # (3.52)
        c6 = nx * (e1 * c5 - c1 * s23 * s5) + ny * (e2 * c5 - s1 * s23 * s5) - nz * (e3 * c5 + c23 * s5)
        th6 = np.arctan2(s6, c6)
        j = 2 * b
        for col, v in enumerate((th1s[i1], th2, th3s[i3], th4, th5, th6)):
            Q[col, j] = v
        Q[:3, j + 1] = Q[:3, j]
        # flipped wrist (θ4 ± π, −θ5, θ6 ± π), the same wrist where singular
        f4 = np.where(th4 > 0.0, th4 - PI, th4 + PI)
        f6 = np.where(th6 > 0.0, th6 - PI, th6 + PI)
        if singular.any():
            f4, f6 = np.where(singular, th4, f4), np.where(singular, th6, f6)
            f5 = np.where(singular, th5, -th5)
        else:
            f5 = -th5
        Q[3, j + 1], Q[4, j + 1], Q[5, j + 1] = f4, f5, f6
        sing[j] = sing[j + 1] = singular | shoulder_singular
        for jj in (j, j + 1):
            inside[jj] = _and(arm, *(_fit(Q[c, jj], lims[c]) for c in (3, 4, 5)))
    return bad1, bad3


# --- the single-pose solver written out per robot ----------------------------------------------------
# solve_rows above is the readable form. For speed (≈2× on this machine) PumaSolver runs the same
# equations as straight-line code with the lengths and joint ranges folded in, the four arm branches
# unrolled and fit_row inlined, θ1 and θ3 fitted once per root and θ2 once per branch.
# tests/test_ik_puma.py checks that both give the same solutions.

def _fit_code(x, ok, lim, indent):
    """Inline fit_row for one angle variable: wrap to (−π, π], move ±2π into [lo, hi], set ok."""
    lo, hi, _ = lim
    pad = " " * indent
    lines = wrap_code(x)
    if math.isinf(lo) and math.isinf(hi):
        lines.append(f"{ok} = True")
    else:
        lines += [f"if {lo!r} <= {x} <= {hi!r}:", f"    {ok} = True"]
        if hi - TAU >= -PI:  # an angle below lo may fit one turn up
            lines += [f"elif {x} < {lo!r} and {x} <= {hi - TAU!r}:", f"    {x} += {TAU!r}", f"    {ok} = True"]
        if lo + TAU <= PI:  # an angle above hi may fit one turn down
            lines += [f"elif {x} > {hi!r} and {x} >= {lo + TAU!r}:", f"    {x} -= {TAU!r}", f"    {ok} = True"]
        lines += ["else:", f"    {ok} = False"]
    return [pad + line for line in lines]


_BRANCH = """
    # arm branch {b}: θ1 root {s1}, θ3 root {s3}
    u = {sign}s_1
    A = {a3!r} + {a2!r} * c3{r3}
    B = {d4!r} - {a2!r} * s3{r3}
    t23 = atan2(-u * B - pz * A, u * A - pz * B)
    c23 = cos(t23)
    s23 = sin(t23)
    m1 = c1{r1} * c23
    m2 = s1{r1} * c23
    X = az * s23 - ax * m1 - ay * m2
    Y = ay * c1{r1} - ax * s1{r1}
    singular = X * X + Y * Y < {tol2!r}
    if singular:
        th4 = q4_free
        c4 = cos(th4)
        s4 = sin(th4)
    else:
        th4 = atan2(Y, X)
        h = sqrt(X * X + Y * Y)
        c4 = X / h
        s4 = Y / h
    e1 = m1 * c4 + s1{r1} * s4
    e2 = m2 * c4 - c1{r1} * s4
    e3 = s23 * c4
    s5 = az * e3 - ax * e1 - ay * e2
    c5 = -(s23 * (ax * c1{r1} + ay * s1{r1}) + az * c23)
    th5 = atan2(s5, c5)
    s6 = nz * s23 * s4 - nx * (m1 * s4 - s1{r1} * c4) - ny * (m2 * s4 + c1{r1} * c4)
    c6 = nx * (e1 * c5 - c1{r1} * s23 * s5) + ny * (e2 * c5 - s1{r1} * s23 * s5) - nz * (e3 * c5 + c23 * s5)
    th6 = atan2(s6, c6)
    th2 = t23 - t3{r3}
    if singular:
        f4 = th4
        f5 = th5
        f6 = th6
    else:
        f4 = th4 + {PI!r}
        f5 = -th5
        f6 = th6 + {PI!r}
{fits}
    arm = ok1{r1} and ok2 and ok3{r3}
    sing = singular or shoulder
    out += [t1{r1}, th2, t3{r3}, th4, th5, th6, t1{r1}, th2, t3{r3}, f4, f5, f6]
    oks += [arm and o4 and o5 and o6, arm and p4 and p5 and p6]
    sings += [sing, sing]
"""


def compile_single(a2, a3, d2, d4, eps2, lims):
    """The straight-line single-pose solver: f(rows, q1_free, q4_free) → (flat 48 list, ok 8, sing 8)
    or an int (1: θ1 unreachable, 3: θ3 unreachable)."""
    head = f"""def solve(rows, q1_free, q4_free):
    r0, r1, r2 = rows[0], rows[1], rows[2]
    nx = r0[0]; ax = r0[2]; px = r0[3]
    ny = r1[0]; ay = r1[2]; py = r1[3]
    nz = r2[0]; az = r2[2]; pz = r2[3]
    rho2 = px * px + py * py
    D1 = rho2 - {d2 * d2!r}
    if D1 < 0.0:
        if D1 < {-eps2!r}:
            return 1
        D1 = 0.0
    s_1 = sqrt(D1)
    shoulder = rho2 <= {eps2!r}
    phi = q1_free if shoulder else atan2(py, px)
    t1p = phi - atan2({d2!r}, s_1)
    t1m = phi - atan2({d2!r}, -s_1)
    k = (rho2 + pz * pz - {a2 * a2 + a3 * a3 + d2 * d2 + d4 * d4!r}) / {2.0 * a2!r}
    D3 = {a3 * a3 + d4 * d4!r} - k * k
    if D3 < 0.0:
        if D3 < {-eps2!r}:
            return 3
        D3 = 0.0
    s_3 = sqrt(D3)
    t3p = {math.atan2(a3, d4)!r} - atan2(k, s_3)
    t3m = {math.atan2(a3, d4)!r} - atan2(k, -s_3)
    c3p = cos(t3p); s3p = sin(t3p); c3m = cos(t3m); s3m = sin(t3m)
    c1p = cos(t1p); s1p = sin(t1p); c1m = cos(t1m); s1m = sin(t1m)
"""
    src = [head]
    for x, ok, j in (("t1p", "ok1p", 0), ("t1m", "ok1m", 0), ("t3p", "ok3p", 2), ("t3m", "ok3m", 2)):
        src.append("\n".join(_fit_code(x, ok, lims[j], 4)) + "\n")
    src.append("    out = []\n    oks = []\n    sings = []\n")
    for b, (i1, i3) in enumerate(_ARM_BRANCHES):
        fits = []
        for x, ok, j in (("th2", "ok2", 1), ("th4", "o4", 3), ("th5", "o5", 4), ("th6", "o6", 5),
                         ("f4", "p4", 3), ("f5", "p5", 4), ("f6", "p6", 5)):
            fits += _fit_code(x, ok, lims[j], 4)
        src.append(_BRANCH.format(b=b, s1="+" if i1 > 0 else "−", s3="+" if i3 > 0 else "−",
                                  sign="" if i1 > 0 else "-", r1="p" if i1 > 0 else "m",
                                  r3="p" if i3 > 0 else "m", a2=a2, a3=a3, d4=d4,
                                  tol2=SINGULAR_TOL * SINGULAR_TOL, PI=PI, fits="\n".join(fits)))
    src.append("    return out, oks, sings\n")
    return make_function("solve", "".join(src))
