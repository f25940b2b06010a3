"""Misprints of the textbook (sources/000) in Example 3.4, the derivation of §3.4.2 ((3.111)–(3.147)) and
§3.5.2, each recomputed (docs/errata.md lists them; issue #23 §1).

Each test asserts the right value and shows that the printed one differs. §3.4.2 follows Paul: standard DH,
joint i turns about z_{i−1}, T_p = ⁰T_p, ^pΔ_i the motion of joint i seen in frame {p}.
"""

import numpy as np
import pytest
import sympy as sp

from armlab import dynamics as dy
from armlab.dynamics import pseudo_inertia
from armlab.models import planar2r, puma560, rpr, youbot
from support import random_inertial, random_q, random_robots
from support.textbook import EXAMPLE_3_4_J

# --- Example 3.4 ---------------------------------------------------------------------------------------

J_3_4 = EXAMPLE_3_4_J


def test_example_3_4_the_given_vector_is_the_joint_motion_D_theta():
    """Example 3.4 gives "D = (0.1, 0, −0.1, 0, 0, 0.1)" and answers D = J·Dθ: the given vector is Dθ, the
    joint motion (3.57). Read as D, the hand motion, it would ask for Dθ = J⁻¹D, another answer."""
    given = np.array([0.1, 0, -0.1, 0, 0, 0.1])
    printed_answer = np.array([0.1, -0.2, 0, 0, -0.1, 0.1])  # (dx, dy, dz, δx, δy, δz)
    np.testing.assert_allclose(J_3_4 @ given, printed_answer, atol=1e-15)  # given = Dθ
    assert not np.allclose(given, printed_answer)  # so it is not D
    as_D = np.linalg.solve(J_3_4, given)  # what "D = given" would make of it
    assert not np.allclose(as_D, given) and not np.allclose(J_3_4 @ as_D, printed_answer)


# --- §3.4.2 (1): the velocity and acceleration of a point (3.112)–(3.113) --------------------------------

Q = sp.symbols("q1:4", real=True)
RPR = rpr(0.5, 0.3)  # like Fig. 3.13: link 2 slides on link 1
_T3 = [sp.Matrix(T) for T in RPR.fkine_all(list(Q))][3]
_dT3 = sp.lambdify(Q, [_T3.diff(x) for x in Q], "numpy")
_ddT3 = sp.lambdify(Q, [[_T3.diff(x).diff(y) for y in Q] for x in Q], "numpy")
_RNG = np.random.default_rng(2023)
q0, qd0, qdd0 = _RNG.uniform(-1.0, 1.0, (3, 3)) + np.array([[0, 0.6, 0], [0, 0, 0], [0, 0, 0]])
r3 = np.array([0.1, -0.2, 0.15, 1.0])  # a point P of link 3, in frame {3}


def _path(t):
    """⁰r_P along q(t) = q0 + q̇0·t + q̈0·t²/2."""
    return RPR.fkine(q0 + qd0 * t + qdd0 * t**2 / 2) @ r3


def test_eq_3_112_3_113_velocity_and_acceleration_pair_dT_dq_j_with_qdot_j():
    """ṽ = Σ_j ∂T/∂q_j q̇_j r and a = Σ_j ∂T/∂q_j q̈_j r + Σ_j Σ_k ∂²T/∂q_j∂q_k q̇_j q̇_k r, checked against
    central differences of r(t). Printed after (3.112): Ṫ3 = Σ_j ∂T3/∂q_**i** q̇_j, ⁰v_P = Σ_j ∂T3/∂q_j q̇_**i** r,
    the acceleration's Σ_j ∂T3/∂q_**i** q̇_**i** and ∂T3/∂q_**i** q̈_**i**; (3.113) begins with Σ_j ∂T_i/∂q_**i** q̇_j ⁱr
    and ends in ∂T/∂q_**k** … q̇_**k** q̇_k. For no choice of i is any of them the velocity, the acceleration or v²."""
    h = 1e-4
    v_true = (_path(h) - _path(-h)) / (2 * h)
    a_true = (_path(h) - 2 * _path(0.0) + _path(-h)) / h**2
    dT, ddT = [np.array(m, float) for m in _dT3(*q0)], np.array(_ddT3(*q0), float)
    v = sum(dT[j] @ r3 * qd0[j] for j in range(3))
    quad = sum(ddT[j, k] @ r3 * qd0[j] * qd0[k] for j in range(3) for k in range(3))
    a = sum(dT[j] @ r3 * qdd0[j] for j in range(3)) + quad
    np.testing.assert_allclose(v, v_true, atol=1e-7)
    np.testing.assert_allclose(a, a_true, atol=1e-5)
    for i in range(3):
        assert not np.allclose(sum(dT[i] @ r3 * qd0[j] for j in range(3)), v_true, atol=1e-3)  # Ṫ3 as printed
        assert not np.allclose(sum(dT[j] @ r3 * qd0[i] for j in range(3)), v_true, atol=1e-3)  # ⁰v_P as printed
        assert not np.allclose(3 * dT[i] @ r3 * qdd0[i] + quad, a_true, atol=1e-3)  # Σ_j ∂T/∂q_i q̈_i
    # (3.113): v² = Trace(Σ_j Σ_k ∂T/∂q_j r rᵀ ∂T/∂q_kᵀ q̇_j q̇_k)
    rr = np.outer(r3, r3)
    v2 = sum(np.trace(dT[j] @ rr @ dT[k].T) * qd0[j] * qd0[k] for j in range(3) for k in range(3))
    assert v2 == pytest.approx(v_true @ v_true, rel=1e-8)
    printed = sum(np.trace(dT[k] @ rr @ dT[k].T) * qd0[k] * qd0[k] for j in range(3) for k in range(3))
    assert printed != pytest.approx(v_true @ v_true, rel=1e-2)
    # (3.113)'s first line, for link i = 3: Trace(Σ_j ∂T_i/∂q_**i** q̇_j ⁱr · (Σ_k ∂T_i/∂q_k q̇_k ⁱr)ᵀ)
    first_line = np.trace(np.outer(sum(dT[2] @ r3 * qd0[j] for j in range(3)), v))
    assert first_line != pytest.approx(v_true @ v_true, rel=1e-2)


def test_line_before_eq_3_113_v_squared_needs_the_transpose():
    """The unnumbered line before (3.113), for the point P of link 3: (⁰v_P)² = … = Trace(Σ_jΣ_k ∂T3/∂q_j ³r_P ³r_Pᵀ
    ∂T3/∂q_k) q̇_j q̇_k, the last factor without its ᵀ ((3.113), (3.114) and (3.116) have it). Without it the trace is
    another number. (Possibly the extraction's: it drops superscripts elsewhere, though it keeps this one around.)"""
    h = 1e-4
    v_true = (_path(h) - _path(-h)) / (2 * h)
    dT = [np.array(m, float) for m in _dT3(*q0)]
    rr = np.outer(r3, r3)
    pairs = [(j, k) for j in range(3) for k in range(3)]
    right = sum(np.trace(dT[j] @ rr @ dT[k].T) * qd0[j] * qd0[k] for j, k in pairs)
    printed = sum(np.trace(dT[j] @ rr @ dT[k]) * qd0[j] * qd0[k] for j, k in pairs)
    assert right == pytest.approx(v_true @ v_true, rel=1e-8)
    assert printed != pytest.approx(v_true @ v_true, rel=1e-2)


# --- §3.4.2 (2): kinetic energy (3.114)–(3.124) ------------------------------------------------------------


def test_eq_3_114_3_115_kinetic_energy_of_a_mass_element():
    """dK = ½ Trace(Σ_j Σ_k ∂T_i/∂q_j ⁱr ⁱrᵀ ∂T_i/∂q_kᵀ) q̇_j q̇_k dm = ½v² dm. Printed: (3.114) ∂T3/∂q_**i** with
    q̇_**i** q̇_k under Σ_j; (3.115) "dK_K" for dK_i and ∂T_i/∂q_j **ʲr** ⁱrᵀ: ʲr = ʲT_i ⁱr are the point's
    coordinates in frame {j}, which belong nowhere in frame {0}'s velocity; its first line also drops the ᵀ of
    ∂T_i/∂q_k (the second line and (3.114) have it)."""
    h = 1e-4
    v_true = (_path(h) - _path(-h)) / (2 * h)
    dT = [np.array(m, float) for m in _dT3(*q0)]
    frames = RPR.fkine_all(q0)

    def half_trace(left, first, last=np.transpose):
        return 0.5 * sum(
            np.trace(dT[first(j)] @ np.outer(left(j), r3) @ last(dT[k])) * qd0[first(j)] * qd0[k]
            for j in range(3)
            for k in range(3)
        )

    assert half_trace(lambda j: r3, lambda j: j) == pytest.approx(0.5 * v_true @ v_true, rel=1e-8)
    for i in range(3):  # (3.114) as printed
        assert half_trace(lambda j: r3, lambda j: i) != pytest.approx(0.5 * v_true @ v_true, rel=1e-2)
    jr = [np.linalg.solve(frames[j], frames[3]) @ r3 for j in range(3)]  # ʲr = (⁰T_j)⁻¹ ⁰T_3 ³r
    assert half_trace(lambda j: jr[j], lambda j: j) != pytest.approx(0.5 * v_true @ v_true, rel=1e-2)  # (3.115)
    no_transpose = half_trace(lambda j: r3, lambda j: j, last=lambda m: m)  # (3.115)'s first line
    assert no_transpose != pytest.approx(0.5 * v_true @ v_true, rel=1e-2)


def _pseudo(link):
    return np.array(pseudo_inertia(link.m, link.r, link.I), dtype=float)


def test_eq_3_118_3_121_3_124_kinetic_energy_pairs_dT_dq_j_with_qdot_j():
    """K = ½ Σ_i Σ_{j,k ≤ i} Trace(∂T_i/∂q_j I_i ∂T_i/∂q_kᵀ) q̇_j q̇_k = ½q̇ᵀMq̇. Printed: (3.121) ∂T_i/∂q_**i** with
    q̇_**i** q̇_k (and j summed to n), (3.124) ∂T_i/∂q_**i** with q̇_j q̇_k, (3.118) the last factor without its ᵀ.
    Each differs from ½q̇ᵀMq̇."""
    arm = random_inertial(np.random.default_rng(121), RPR)
    T = [sp.Matrix(Tp) for Tp in arm.fkine_all(list(Q))][1:]
    dT = [[np.array(sp.lambdify(Q, Ti.diff(x), "numpy")(*q0), float) for x in Q] for Ti in T]
    Ip = [_pseudo(L) for L in arm.links]
    K = 0.5 * qd0 @ dy.inertia(arm, q0) @ qd0

    def energy(first, speed, j_to, last=np.transpose):
        return 0.5 * sum(
            np.trace(dT[i][first(i, j)] @ Ip[i] @ last(dT[i][k])) * qd0[speed(i, j)] * qd0[k]
            for i in range(3)
            for j in range(j_to(i))
            for k in range(i + 1)
        )

    assert energy(lambda i, j: j, lambda i, j: j, lambda i: i + 1) == pytest.approx(K, rel=1e-10)
    assert energy(lambda i, j: i, lambda i, j: i, lambda i: 3) != pytest.approx(K, rel=1e-2)  # (3.121)
    assert energy(lambda i, j: i, lambda i, j: j, lambda i: i + 1) != pytest.approx(K, rel=1e-2)  # (3.124)
    no_transpose = energy(lambda i, j: j, lambda i, j: j, lambda i: i + 1, last=lambda m: m)
    assert no_transpose != pytest.approx(K, rel=1e-2)  # (3.118)


# --- §3.4.2 (3): potential energy (3.127) ------------------------------------------------------------------

d1, d2, m1, m2, ma, g = sp.symbols("d1 d2 m1 m2 m_a g", positive=True)


def test_eq_3_127_actuator_potential_energy_adds():
    """P = Σ(P_i + P_ai): an actuator of mass m_a carried at the elbow of Example 3.9's arm has the potential
    −m_a gᵀT_1 e₄, and the arm then holds the gravity load of link 1 with mass m1 + m_a. Printed P = Σ(P_i − P_ai)
    would give the load of m1 − m_a."""
    model = dy.lagrange(planar2r(l1=d1, l2=d2, m1=m1, m2=m2), gravity=(g, 0, 0), symbol="theta")
    heavier = dy.lagrange(planar2r(l1=d1, l2=d2, m1=m1 + ma, m2=m2), gravity=(g, 0, 0), symbol="theta")
    T1 = planar2r(l1=d1, l2=d2).fkine_all(list(model.q))[1]
    P_a = -ma * (sp.Matrix([[g, 0, 0, 0]]) * sp.Matrix(T1) * sp.Matrix([0, 0, 0, 1]))[0]
    for sign, right in ((+1, True), (-1, False)):
        P = model.P + sign * P_a
        G = [sp.simplify(P.diff(x) - Gx) == 0 for x, Gx in zip(model.q, heavier.G)]
        assert all(G) is right, sign


# --- §3.4.2 (4): the simplification (3.133)–(3.141) ------------------------------------------------------

RANDOM = [
    random_inertial(np.random.default_rng(137 + k), r)
    for k, r in enumerate(random_robots(137, 4, ("standard",), n_range=(3, 5), prismatic_prob=0.4))
]
assert not any(r.modified for r in RANDOM)  # _vectors takes frame {i−1} as joint i's axis frame


def _vectors(robot, F, i, p):
    """^pd_i, ^pδ_i of a unit motion of joint i seen in frame {p}: by (3.134)–(3.135) for a revolute joint and
    (n_z, o_z, a_z) for a prismatic one, n, o, a, p the columns of ^{i−1}T_p."""
    aTp = np.linalg.solve(F[i], F[p])
    n, o, a, pp = aTp[:3, 0], aTp[:3, 1], aTp[:3, 2], aTp[:3, 3]
    if not robot.links[i].revolute:
        return np.array([n[2], o[2], a[2]]), np.zeros(3)
    return np.array([n[1] * pp[0] - n[0] * pp[1], o[1] * pp[0] - o[0] * pp[1], a[1] * pp[0] - a[0] * pp[1]]), aTp[2, :3]


def _Delta(d, delta):
    """The operator (3.70) of a motion (d, δ): [[S(δ), d], [0, 0]]."""
    D = np.zeros((4, 4))
    D[:3, :3] = [[0, -delta[2], delta[1]], [delta[2], 0, -delta[0]], [-delta[1], delta[0], 0]]
    D[:3, 3] = d
    return D


def _origin_inertia(link):
    c = np.asarray(link.r, float)
    return np.asarray(link.I, float) + link.m * ((c @ c) * np.eye(3) - np.outer(c, c))


def test_section_3_4_2_prismatic_joint_vectors_are_the_z_row_of_n_o_a():
    """For a prismatic joint ^pd_i = (n_pz, o_pz, a_pz) (by (3.79) with d = (0, 0, 1)), ^pδ_i = 0; printed
    ^pd_i = (**p**_pz, o_pz, a_pz). Checked against ∂T_p/∂q_i = T_p ^pΔ_i by central differences."""
    h, checked, differs = 1e-6, 0, False
    for robot in RANDOM:
        q = random_q(np.random.default_rng(1), robot)
        F = robot.fkine_all(q)
        for i, link in enumerate(robot.links):
            if link.revolute:
                continue
            dF = (robot.fkine_all(q + h * np.eye(robot.n)[i]) - robot.fkine_all(q - h * np.eye(robot.n)[i])) / (2 * h)
            for p in range(i + 1, robot.n + 1):
                d, delta = _vectors(robot, F, i, p)
                np.testing.assert_allclose(dF[p], F[p] @ _Delta(d, delta), atol=1e-8)
                aTp = np.linalg.solve(F[i], F[p])
                differs |= not np.allclose([aTp[2, 3], aTp[2, 1], aTp[2, 2]], d, atol=1e-3)
                checked += 1
    assert checked and differs


def test_eq_3_137_middle_factors_are_delta_j_pseudo_inertia_delta_i_transpose():
    """(3.137): Trace(^pΔ_j I_p ^pΔ_iᵀ) summed over p is D_ij. As printed, ^pΔ_iᵀ has (0, δ_ix, −δ_iy, 0) as its first
    row and (δ_ix, δ_iy, d_iz, 0) as its last, for (0, δ_iz, −δ_iy, 0) and (d_ix, d_iy, d_iz, 0); the pseudo-inertia's
    (2,2) entry is printed (−I_xx − I_yy + I_zz)/2 for (3.120)'s (I_xx − I_yy + I_zz)/2. Each slip changes D_ij."""
    rng, slips = np.random.default_rng(3), [False, False, False]
    for robot in RANDOM:
        q = random_q(rng, robot)
        F, M = robot.fkine_all(q), dy.inertia(robot, q)
        for i in range(robot.n):
            for j in range(robot.n):
                total, printed = 0.0, np.zeros(3)
                for p in range(max(i, j) + 1, robot.n + 1):
                    L = robot.links[p - 1]
                    (di, ei), (dj, ej) = _vectors(robot, F, i, p), _vectors(robot, F, j, p)
                    Dj, Di, Ip = _Delta(dj, ej), _Delta(di, ei), _pseudo(L)
                    total += np.trace(Dj @ Ip @ Di.T)
                    row1, row4 = Di.T.copy(), Di.T.copy()
                    row1[0] = [0, ei[0], -ei[1], 0]
                    row4[3] = [ei[0], ei[1], di[2], 0]
                    Io = _origin_inertia(L)
                    Ip2 = Ip.copy()
                    Ip2[1, 1] = (-Io[0, 0] - Io[1, 1] + Io[2, 2]) / 2
                    printed += [np.trace(Dj @ Ip @ row1), np.trace(Dj @ Ip @ row4), np.trace(Dj @ Ip2 @ Di.T)]
                assert total == pytest.approx(M[i, j], abs=1e-9)
                slips = [s or abs(x - M[i, j]) > 1e-4 for s, x in zip(slips, printed)]
    assert all(slips)


def test_eq_3_138_k_p_is_the_inertia_about_the_origin_over_m():
    """k_p = I_o/m_p with I_o the inertia tensor about frame {p}'s origin: first row (k²_pxx, −k²_pxy, −k²_pxz).
    Printed (k²_pxx, −k_pxy, −k²_pxy): k_pxy unsquared, and −k²_pxy at (1,3) where the third row has −k²_pxz,
    so the printed k_p is not symmetric and gives D_ij ≠ D_ji."""
    rng, asymmetric = np.random.default_rng(4), False
    for robot in RANDOM:
        q = random_q(rng, robot)
        F, M = robot.fkine_all(q), dy.inertia(robot, q)
        for i in range(robot.n):
            for j in range(robot.n):
                right = printed = 0.0
                for p in range(max(i, j) + 1, robot.n + 1):
                    L = robot.links[p - 1]
                    (di, ei), (dj, ej) = _vectors(robot, F, i, p), _vectors(robot, F, j, p)
                    k = _origin_inertia(L) / L.m
                    kp = k.copy()
                    kp[0, 2] = k[0, 1]  # −k²_pxy at (1,3)
                    rest = di @ dj + np.asarray(L.r) @ (np.cross(di, ej) + np.cross(dj, ei))
                    right += L.m * (ei @ k @ ej + rest)
                    printed += L.m * (ei @ kp @ ej + rest)
                assert right == pytest.approx(M[i, j], abs=1e-9)
                asymmetric |= abs(printed - M[i, j]) > 1e-4
    assert asymmetric


def test_eq_3_139_second_group_is_the_point_mass_term():
    """After (3.139): the first group (δᵀkδ) is where link p's mass distribution acts; the second, m_p d_i·d_j, is
    the mass m_p at the frame origin on the moment arms d (printed: "表示连杆p质量的分布", the distribution again).
    Redistributing a link's mass at the same m and centre of mass changes M only by the first group."""
    rng = np.random.default_rng(5)
    for robot in RANDOM:
        q = random_q(rng, robot)
        F = robot.fkine_all(q)
        p = robot.n
        L = robot.links[-1]
        extra = np.diag(rng.uniform(0.01, 0.05, 3))  # more inertia, same m and r̄
        other = robot.replace(links=[*robot.links[:-1], L.replace(I=np.asarray(L.I) + extra)])
        change = dy.inertia(other, q) - dy.inertia(robot, q)
        for i in range(robot.n):
            for j in range(robot.n):
                ei, ej = _vectors(robot, F, i, p)[1], _vectors(robot, F, j, p)[1]
                assert change[i, j] == pytest.approx(ei @ extra @ ej, abs=1e-12)  # first group only
        assert np.abs(change).max() > 1e-3


def test_eq_3_141_term_by_term_identification_uses_the_z_row_and_a_cross_product():
    """After (3.141) the book equates (3.140)'s terms with (3.141)'s: δ_ix²k²_pxx + … = n²_pzk²_pxx + o²_pzk²_pyy +
    a²_pzk²_pzz (printed again n²_px, o²_py, a²_px), d_i·d_i = p̄·p̄, and d_i **×** δ_i = (p̄·n, p̄·o, p̄·a) (printed
    d_i·δ_i, which is 0 for a revolute joint). The three groups of D_ii are those of (3.139) (printed "正如式(3.128)")."""
    rng = np.random.default_rng(6)
    for robot in RANDOM:
        F = robot.fkine_all(random_q(rng, robot))
        for i, link in enumerate(robot.links):
            if not link.revolute:
                continue
            for p in range(i + 1, robot.n + 1):
                d, delta = _vectors(robot, F, i, p)
                aTp = np.linalg.solve(F[i], F[p])
                n, o, a, pp = aTp[:3, 0], aTp[:3, 1], aTp[:3, 2], aTp[:3, 3]
                pbar = np.array([pp[0], pp[1], 0.0])
                np.testing.assert_allclose(delta, [n[2], o[2], a[2]], atol=1e-12)
                assert d @ d == pytest.approx(pbar @ pbar, abs=1e-12)
                np.testing.assert_allclose(np.cross(d, delta), [pbar @ n, pbar @ o, pbar @ a], atol=1e-12)
                assert d @ delta == pytest.approx(0.0, abs=1e-12)  # the printed dot product


def test_section_3_4_2_gravity_operator_first_row_is_0_minus_dz_dy_dx():
    """The generic product before (3.146), −gᵀT ^{i−1}Δ_i: Δ's first row is (0, −δz, δy, dx) as in (3.69), printed
    (0, −δ**x**, δy, dx), which is not skew-symmetric and turns a rotation about z into nothing. T's bottom row is
    printed (0, 0, 0, 0) for (0, 0, 0, 1): harmless, as Δ's bottom row is zero."""
    rng = np.random.default_rng(7)
    gvec = np.array([0.4, -1.3, -9.7, 0.0])
    for _ in range(5):
        d, delta = rng.normal(size=(2, 3))
        T = np.linalg.qr(rng.normal(size=(3, 3)))[0]
        T = np.block([[T, rng.normal(size=(3, 1))], [np.zeros((1, 3)), np.ones((1, 1))]])
        D = _Delta(d, delta)
        printed = D.copy()
        printed[0, 1] = -delta[0]
        assert np.allclose(D[:3, :3], -D[:3, :3].T) and not np.allclose(printed[:3, :3], -printed[:3, :3].T)
        flat = T.copy()
        flat[3, 3] = 0.0
        np.testing.assert_allclose(-gvec @ flat @ D, -gvec @ T @ D, atol=1e-12)
    rot_z = _Delta(np.zeros(3), [0, 0, 1.0])
    printed_z = rot_z.copy()
    printed_z[0, 1] = 0.0  # −δx with δ = (0, 0, 1)
    n, o = T[:3, 0], T[:3, 1]
    np.testing.assert_allclose(-gvec @ T @ rot_z, [-gvec[:3] @ o, gvec[:3] @ n, 0, 0], atol=1e-12)  # (3.146)
    assert not np.allclose(-gvec @ T @ printed_z, -gvec @ T @ rot_z)


# --- §3.5.2 --------------------------------------------------------------------------------------------------


def test_section_3_5_2_mass_and_inertia_load_the_servos_with_an_inertial_load():
    """§3.5.2 prints "…质量和转动惯量…给…伺服系统的总负载强加上一个很大的摩擦负载"; the load that mass and inertia
    add in fast motion is inertial, M(q)q̈ + C(q, q̇)q̇, not friction. It vanishes at rest (Coulomb friction does
    not), grows with the square of the speed along a path (viscous friction grows linearly), and depends on the pose."""
    robot = puma560()
    zero = np.zeros(6)
    rng = np.random.default_rng(8)
    q, qd, qdd = np.radians([20, -30, -50, 10, 30, 50]), rng.normal(size=6), rng.normal(size=6)
    assert np.allclose(robot.rne(q, zero, zero, gravity=(0, 0, 0)), 0.0)
    load = robot.rne(q, qd, qdd, gravity=(0, 0, 0))
    for s in (2.0, 3.0):  # the same path s times as fast: q̇ → s·q̇, q̈ → s²·q̈
        np.testing.assert_allclose(robot.rne(q, s * qd, s**2 * qdd, gravity=(0, 0, 0)), s**2 * load, rtol=1e-12)
    Q = rng.uniform(robot.qlim[:, 0], robot.qlim[:, 1], (300, 6))
    M11 = np.array([dy.inertia(robot, x)[0, 0] for x in Q])
    assert M11.max() / M11.min() > 2.5


def test_section_3_5_2_changing_loads_make_a_fixed_servo_oscillate():
    """Stability: "惯性负载和重力负载也随之变动,这就使振荡难以形成" reverses the cause. A joint servo τ = K_p e − K_d q̇
    tuned critically damped (ζ = 1) where joint 1 of the PUMA560 drives the least inertia is underdamped
    (ζ = √(M_min/M_max) ≈ 0.6, an overshoot of about 9 %) where it drives the most: the varying load is what makes
    oscillation hard to prevent, not hard to form."""
    robot = puma560()
    Q = np.random.default_rng(9).uniform(robot.qlim[:, 0], robot.qlim[:, 1], (600, 6))
    M11 = np.array([dy.inertia(robot, x)[0, 0] for x in Q])
    kp = 100.0
    kd = 2 * np.sqrt(kp * M11.min())  # ζ = 1 at the lightest pose
    zeta = kd / (2 * np.sqrt(kp * M11))
    assert zeta.max() == pytest.approx(1.0) and zeta.min() < 0.65
    overshoot = np.exp(-np.pi * zeta.min() / np.sqrt(1 - zeta.min() ** 2))
    assert 0.05 < overshoot < 0.15


def test_section_3_5_2_spatial_resolution_is_control_resolution_plus_mechanical_deviation():
    """Printed "空间分辨度与机械偏差一起构成控制分辨度": the other way round. Control resolution is each joint's range
    divided by the number of control increments (printed "为了确定空间分辨度"); the tip's spatial resolution adds the
    mechanical deviations (backlash) to it. On the youBot with 2¹² increments per joint range and 0.1 mrad backlash:
    the tip resolution with backlash exceeds the control resolution alone by the backlash's share, over the workspace."""
    arm = youbot()
    control = (arm.qlim[:, 1] - arm.qlim[:, 0]) / 2**12  # rad per increment
    backlash = np.full(5, 1e-4)
    Q = np.random.default_rng(10).uniform(arm.qlim[:, 0], arm.qlim[:, 1], (400, 5))
    Jp = arm.jacob0(Q)[:, :3, :]  # tip translation per joint
    lever = np.linalg.norm(Jp, axis=1)  # m per rad, per joint
    only_control = (lever * control).sum(axis=1)  # worst case: all joints one increment the same way
    spatial = (lever * (control + backlash)).sum(axis=1)
    np.testing.assert_allclose(spatial - only_control, (lever * backlash).sum(axis=1), rtol=1e-12)
    assert (spatial > only_control).all()
    assert 1e-4 < only_control.max() < 2e-3  # of the order of the arm's 1 mm repeatability (report Table 1.1)
    # the linear estimate is the finite one: one increment at every joint moves the tip by about that much
    q = Q[0]
    corners = [arm.fkine(q + s * control)[:3, 3] - arm.fkine(q)[:3, 3] for s in (1, -1)]
    assert max(np.linalg.norm(c) for c in corners) <= only_control[0] * (1 + 1e-3)


def test_section_3_2_2_step_1_the_prismatic_joint_variable_is_the_offset_d_not_a_length():
    """§3.2.2 step (1): "对于滑动关节,z轴为沿直线运动的方向,沿z轴的**连杆长度**d是关节变量". d_i is the link **offset**
    (连杆偏距, §3.2.1), the distance between the normals a_{i−1} and a_i along axis i; the link length is a_{i−1}, the
    common normal of axes i−1 and i. Sliding the joint of a modified-DH link moves frame {i} along z_i by the
    change of d_i, and leaves the common normal a_{i−1} (the offset of z_i from z_{i−1} along x_{i−1}) as it was."""
    from armlab import DHLink, DHRobot

    arm = DHRobot([DHLink(a=0.4, alpha=np.pi / 2, d=0.0, joint="P")], convention="modified")
    T0, T1 = arm.fkine([0.1]), arm.fkine([0.35])
    z = T0[:3, 2]
    np.testing.assert_allclose(T1[:3, 3] - T0[:3, 3], 0.25 * z, atol=1e-12)  # the variable is d, along z_i
    np.testing.assert_allclose(T1[:3, :3], T0[:3, :3], atol=1e-12)
    for T in (T0, T1):  # the link length a_{i−1}: the foot of z_i on x_{i−1} stays 0.4 from z_{i−1}
        foot = T[:3, 3] - (T[:3, 3] @ z) * z
        assert np.linalg.norm(foot) == pytest.approx(0.4, abs=1e-12)
