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

Slots, in this fixed order: left-up-noflip, left-up-flip, left-down-noflip, left-down-flip,
right-up-noflip, right-up-flip, right-down-noflip, right-down-flip.
"""
from __future__ import annotations

import math

import numpy as np

from .ik import (PUMA_LABELS, IKBatch, IKSolutions, PI, check_pose, check_poses, fit_array,
                 limit_table, make_fitter, strip_base_tool)

# (θ1 root sign, θ3 root sign) of each elbow/shoulder pair, in slot order (see the module docstring)
_ARM_BRANCHES = ((1.0, 1.0), (1.0, -1.0), (-1.0, -1.0), (-1.0, 1.0))

#: |s5| below this is a wrist singularity (θ4 is then chosen, θ6 compensates).
SINGULAR_TOL = 1e-10
#: Relative tolerance on the square roots of (3.38) and (3.42): a pose on the workspace
#: boundary computed by fkine is reachable (the double root collapses).
BOUNDARY_TOL = 1e-10

_DEG = math.pi / 180
_MOD_ALPHA = (0.0, -90.0, 0.0, -90.0, 90.0, -90.0)
_STD_ALPHA = (-90.0, 0.0, -90.0, 90.0, -90.0, 0.0)


def _close(x, y):
    return abs(x - y) < 1e-12


class PumaSolver:
    """Closed-form IK for a PUMA560-type arm (lengths a2, a3, d2, d4 read from the DH table)."""

    method = "puma560"

    def __init__(self, robot, a2, a3, d2, d4, tool_d):
        self.robot = robot
        self.n = 6
        self.a2, self.a3, self.d2, self.d4 = a2, a3, d2, d4
        self.tool_d = tool_d  # d6 written in the DH table: a translation along z6 after θ6
        self.lims = limit_table(robot)
        self.fit = make_fitter(self.lims)
        L = abs(a2) + abs(a3) + abs(d2) + abs(d4)
        self.eps2 = BOUNDARY_TOL * L * L
        self.labels = list(PUMA_LABELS)

    @classmethod
    def match(cls, robot):
        """A solver if robot's DH table has the PUMA560 structure, else None."""
        links = robot.links
        if robot.symbolic or robot.n != 6 or not all(l.revolute for l in links):
            return None
        if any(l.offset != 0.0 for l in links):
            return None
        if robot.modified:
            # rows (α_{i-1}, a_{i-1}, d_i): (0,0,0) (−90,0,d2) (0,a2,0) (−90,a3,d4) (90,0,0) (−90,0,d6)
            if not all(_close(l.alpha, a * _DEG) for l, a in zip(links, _MOD_ALPHA)):
                return None
            if any(links[i].a != 0.0 for i in (0, 1, 4, 5)) or any(links[i].d != 0.0 for i in (0, 2, 4)):
                return None
            a2, a3, d2, d4, d6 = links[2].a, links[3].a, links[1].d, links[3].d, links[5].d
        else:
            # standard rows (d, a, α): (0,0,−90) (d2,a2,0) (0,a3,−90) (d4,0,90) (0,0,−90) (d6,0,0);
            # fkine equals the modified table's for the same q (models.puma560_standard)
            if not all(_close(l.alpha, a * _DEG) for l, a in zip(links, _STD_ALPHA)):
                return None
            if any(links[i].a != 0.0 for i in (0, 3, 4, 5)) or any(links[i].d != 0.0 for i in (0, 2, 4)):
                return None
            a2, a3, d2, d4, d6 = links[1].a, links[2].a, links[1].d, links[3].d, links[5].d
        if a2 <= 0.0:
            return None
        return cls(robot, a2, a3, d2, d4, d6)

    def _t06(self, rows):
        rows = strip_base_tool(self.robot, rows)
        if self.tool_d:
            # T06 = T · Trans(0, 0, d6)⁻¹: move p back along a (the z6 axis)
            d = self.tool_d
            rows = [r[:] for r in rows]
            for i in range(3):
                rows[i][3] -= d * rows[i][2]
        return rows

    # --- one pose, plain Python floats (a numpy call costs ~1 µs; this is ~30 µs in all) -----------
    def solve(self, T, q_current=None):
        rows = self._t06(check_pose(T))
        q4_free = 0.0
        q1_free = 0.0
        if q_current is not None:
            qc = np.asarray(q_current, dtype=float)
            if qc.shape != (6,) or not np.isfinite(qc).all():
                raise ValueError(f"q_current must be 6 finite joint values, got {q_current!r}")
            q1_free, q4_free = float(qc[0]), float(qc[3])
        out = solve_rows(rows, self.a2, self.a3, self.d2, self.d4, self.eps2, q1_free, q4_free)
        if isinstance(out, str):
            return IKSolutions.empty(6, out, self.method)
        sols, sing = out
        fit = self.fit
        q, ok = [], []
        for row in sols:
            r, w = fit(row)
            q.append(r)
            ok.append(w)
        return IKSolutions(np.array(q), self.labels[:], np.array(ok), np.array(sing), method=self.method)

    # --- N poses, numpy -------------------------------------------------------------------------
    def solve_batch(self, T, q_current=None, fill=0.0):
        T = check_poses(T)
        N = len(T)
        if self.robot.base is not None or self.robot.tool is not None:
            from .transforms import Tinv

            if self.robot.base is not None:
                T = Tinv(self.robot.base) @ T
            if self.robot.tool is not None:
                T = T @ Tinv(self.robot.tool)
        if self.tool_d:
            T = T.copy()
            T[:, :3, 3] -= self.tool_d * T[:, :3, 2]
        if q_current is None:
            q1_free = q4_free = np.zeros(N)
        else:
            qc = np.asarray(q_current, dtype=float)
            if qc.shape not in ((6,), (N, 6)) or not np.isfinite(qc).all():
                raise ValueError(f"q_current must have shape (6,) or ({N}, 6) and be finite, got {qc.shape}")
            qc = np.broadcast_to(qc, (N, 6))
            q1_free, q4_free = qc[:, 0], qc[:, 3]
        q, valid, sing, reason = solve_batch_arrays(T, self.a2, self.a3, self.d2, self.d4, self.eps2,
                                                    q1_free, q4_free)
        q, ok = fit_array(q, self.lims)
        q = np.where(valid[..., None], q, fill)
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


def solve_batch_arrays(T, a2, a3, d2, d4, eps2, q1_free, q4_free):
    """Vectorised :func:`solve_rows`: T (N, 4, 4) → q (N, 8, 6) unwrapped, valid, singular, reason."""
    N = len(T)
    nx, ny, nz = T[:, 0, 0], T[:, 1, 0], T[:, 2, 0]
    ax, ay, az = T[:, 0, 2], T[:, 1, 2], T[:, 2, 2]
    px, py, pz = T[:, 0, 3], T[:, 1, 3], T[:, 2, 3]
    rho2 = px * px + py * py
    D1 = rho2 - d2 * d2
    bad1 = D1 < -eps2
    s_1 = np.sqrt(np.maximum(D1, 0.0))
    shoulder_singular = rho2 <= eps2
    phi = np.where(shoulder_singular, q1_free, np.arctan2(py, px))
    k = (rho2 + pz * pz - (a2 * a2 + a3 * a3 + d2 * d2 + d4 * d4)) / (2.0 * a2)
    D3 = a3 * a3 + d4 * d4 - k * k
    bad3 = D3 < -eps2
    s_3 = np.sqrt(np.maximum(D3, 0.0))
    g = math.atan2(a3, d4)
    # the two roots side by side: index 0 = + root, 1 = − root
    S1 = np.stack([s_1, -s_1], axis=1)  # (N, 2) = u for each θ1 root
    t1 = phi[:, None] - np.arctan2(d2, S1)
    t3 = g - np.arctan2(np.broadcast_to(k[:, None], (N, 2)), np.stack([s_3, -s_3], axis=1))
    c1_, s1_ = np.cos(t1), np.sin(t1)
    c3_, s3_ = np.cos(t3), np.sin(t3)
    # the 4 arm branches in slot order
    i1 = np.array([0, 0, 1, 1])
    i3 = np.array([0, 1, 1, 0])
    th1, c1, s1, u = t1[:, i1], c1_[:, i1], s1_[:, i1], S1[:, i1]
    th3, c3, s3 = t3[:, i3], c3_[:, i3], s3_[:, i3]
    pzc = pz[:, None]
    A = a3 + a2 * c3
    B = d4 - a2 * s3
    t23 = np.arctan2(-u * B - pzc * A, u * A - pzc * B)
    c23, s23 = np.cos(t23), np.sin(t23)
    axc, ayc, azc = ax[:, None], ay[:, None], az[:, None]
    m1 = c1 * c23
    m2 = s1 * c23
    X = -axc * m1 - ayc * m2 + azc * s23
    Y = -axc * s1 + ayc * c1
    singular = X * X + Y * Y < SINGULAR_TOL * SINGULAR_TOL
    th4 = np.where(singular, q4_free[:, None], np.arctan2(Y, X))
    c4, s4 = np.cos(th4), np.sin(th4)
    e1 = m1 * c4 + s1 * s4
    e2 = m2 * c4 - c1 * s4
    e3 = s23 * c4
    s5 = -(axc * e1 + ayc * e2 - azc * e3)
    c5 = -(s23 * (axc * c1 + ayc * s1) + azc * c23)
    th5 = np.arctan2(s5, c5)
    nxc, nyc, nzc = nx[:, None], ny[:, None], nz[:, None]
    s6 = -nxc * (m1 * s4 - s1 * c4) - nyc * (m2 * s4 + c1 * c4) + nzc * s23 * s4
    c6 = nxc * (e1 * c5 - c1 * s23 * s5) + nyc * (e2 * c5 - s1 * s23 * s5) - nzc * (e3 * c5 + c23 * s5)
    th6 = np.arctan2(s6, c6)
    th2 = t23 - th3
    q = np.empty((N, 4, 2, 6))
    q[:, :, 0] = np.stack([th1, th2, th3, th4, th5, th6], axis=-1)
    q[:, :, 1, :3] = q[:, :, 0, :3]
    q[:, :, 1, 3] = np.where(singular, th4, th4 + PI)
    q[:, :, 1, 4] = np.where(singular, th5, -th5)
    q[:, :, 1, 5] = np.where(singular, th6, th6 + PI)
    q = q.reshape(N, 8, 6)
    ok = ~(bad1 | bad3)
    valid = np.repeat(ok[:, None], 8, axis=1)
    sing = np.repeat(singular | shoulder_singular[:, None], 2, axis=1) & valid
    reason = np.full(N, "", dtype=object)
    reason[bad3] = "unreachable: outside the reach of the arm (a3² + d4² − k² < 0 in eq. (3.42))"
    reason[bad1] = ("unreachable: the wrist centre is closer to the axis of joint 1 than the shoulder "
                    "offset d2 (px² + py² − d2² < 0 in eq. (3.38))")
    return q, valid, sing, reason
