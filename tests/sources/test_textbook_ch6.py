"""Textbook §3.4 (sources/000, (3.100)–(3.151)) and §3.5.2, recomputed: Example 3.9 entry by entry,
the pseudo-inertia route, its simplifications (3.133)–(3.148), and the 2-DOF example with dissipation
(3.149)–(3.151).

Each test is named after its example or equation. Where the printed formula is wrong, the test asserts
the correct one and says what was printed (docs/errata.md lists each one).

The book's 2R arm (Fig. 3.12) has point masses at the link ends and measures θ1 from the downward
vertical: x2 = d1 sinθ1 + d2 sin(θ1 + θ2), y2 = −d1 cosθ1 − d2 cos(θ1 + θ2), gravity along −y. That is
``planar2r(d1, d2, m1, m2)`` (standard DH, frame {i} at the end of link i, q measured from x0) with
gravity (g, 0, 0) along +x0: the book's (x, y) are our (y, −x). Fig. 3.14 in §3.4.3 draws the same arm
with i pointing down, which is our frame exactly.
"""

import numpy as np
import pytest
import sympy as sp

from armlab import DHLink, DHRobot
from armlab import dynamics as dy
from armlab.dynamics import lagrange, pseudo_inertia, simplify_trig
from armlab.models import planar2r
from support import random_inertial, random_q, random_robots

d1, d2, m1, m2, g = sp.symbols("d1 d2 m1 m2 g", positive=True)
C1, C2 = sp.symbols("C1 C2", positive=True)  # §3.4.3's damping coefficients (printed c1, c2)
ARM = planar2r(l1=d1, l2=d2, m1=m1, m2=m2)
MODEL = lagrange(ARM, gravity=(g, 0, 0), symbol="theta")
th1, th2 = MODEL.q
w1, w2 = MODEL.qd
a1, a2 = MODEL.qdd
s1, c1, s2, c2 = sp.sin(th1), sp.cos(th1), sp.sin(th2), sp.cos(th2)
s12, c12 = sp.sin(th1 + th2), sp.cos(th1 + th2)


def same(a, b):
    """a and b are the same function of the angles (a − b reduces to exactly 0)."""
    return simplify_trig(sp.sympify(a) - b, combine=False) == 0


def ddt(f):
    """d/dt along the motion: Σ ∂f/∂θ·θ̇ + ∂f/∂θ̇·θ̈."""
    terms = [f.diff(x) * v for x, v in zip((th1, th2, w1, w2), (w1, w2, a1, a2))]
    return terms[0] + terms[1] + terms[2] + terms[3]


# --- Example 3.9 -----------------------------------------------------------------------------------------


def test_example_3_9_positions_and_v2_squared():
    p = ARM.fkine([th1, th2])[:3, 3]
    x2, y2 = d1 * s1 + d2 * s12, -d1 * c1 - d2 * c12  # as printed
    assert same(x2, p[1]) and same(y2, -p[0])  # the book's (x, y) are our (y, −x)
    xd2 = d1 * c1 * w1 + d2 * c12 * (w1 + w2)  # printed ẋ2
    yd2 = d1 * s1 * w1 + d2 * s12 * (w1 + w2)  # printed ẏ2
    assert same(xd2, ddt(x2)) and same(yd2, ddt(y2))
    v2_sq = d1**2 * w1**2 + d2**2 * (w1**2 + 2 * w1 * w2 + w2**2) + 2 * d1 * d2 * c2 * (w1**2 + w1 * w2)
    assert same(v2_sq, xd2**2 + yd2**2)
    assert same(ddt(p[0]) ** 2 + ddt(p[1]) ** 2, v2_sq)


K_BOOK = (
    sp.Rational(1, 2) * (m1 + m2) * d1**2 * w1**2
    + sp.Rational(1, 2) * m2 * d2**2 * (w1 + w2) ** 2
    + m2 * d1 * d2 * c2 * (w1**2 + w1 * w2)
)
P_BOOK = -(m1 + m2) * g * d1 * c1 - m2 * g * d2 * c12
L_BOOK = (
    sp.Rational(1, 2) * (m1 + m2) * d1**2 * w1**2
    + sp.Rational(1, 2) * m2 * d2**2 * (w1**2 + 2 * w1 * w2 + w2**2)
    + m2 * d1 * d2 * c2 * (w1**2 + w1 * w2)
    + (m1 + m2) * g * d1 * c1
    + m2 * g * d2 * c12
)


def test_eq_3_103_kinetic_energy():
    assert same(K_BOOK, MODEL.K)
    v1_sq = d1**2 * w1**2
    assert same(
        K_BOOK,
        m1 * v1_sq / 2 + m2 * (ddt(ARM.fkine([th1, th2])[0, 3]) ** 2 + ddt(ARM.fkine([th1, th2])[1, 3]) ** 2) / 2,
    )


def test_eq_3_104_potential_energy():
    assert same(P_BOOK, MODEL.P)
    h1 = -d1 * c1  # printed h1; P2 = m2·g·y2 (printed "mgy2")
    assert same(P_BOOK, m1 * g * h1 + m2 * g * (-d1 * c1 - d2 * c12))


def test_eq_3_105_lagrangian():
    assert same(L_BOOK, MODEL.K - MODEL.P)


def test_example_3_9_partial_derivatives_of_L():
    L = MODEL.K - MODEL.P
    printed = {
        th1: -(m1 + m2) * g * d1 * s1 - m2 * g * d2 * s12,
        th2: -m2 * d1 * d2 * s2 * (w1**2 + w1 * w2) - m2 * g * d2 * s12,
        w1: (m1 + m2) * d1**2 * w1
        + m2 * d2**2 * w1
        + m2 * d2**2 * w2
        + 2 * m2 * d1 * d2 * c2 * w1
        + m2 * d1 * d2 * c2 * w2,
        w2: m2 * d2**2 * w1 + m2 * d2**2 * w2 + m2 * d1 * d2 * c2 * w1,
    }
    for x, value in printed.items():
        assert same(value, L.diff(x)), x


def test_example_3_9_time_derivatives_of_dL_dthetadot():
    L = MODEL.K - MODEL.P
    printed_1 = (
        ((m1 + m2) * d1**2 + m2 * d2**2 + 2 * m2 * d1 * d2 * c2) * a1
        + (m2 * d2**2 + m2 * d1 * d2 * c2) * a2
        - 2 * m2 * d1 * d2 * s2 * w1 * w2
        - m2 * d1 * d2 * s2 * w2**2
    )
    printed_2 = m2 * d2**2 * a1 + m2 * d2**2 * a2 + m2 * d1 * d2 * c2 * a1 - m2 * d1 * d2 * s2 * w1 * w2
    assert same(printed_1, ddt(L.diff(w1)))
    assert same(printed_2, ddt(L.diff(w2)))


T1_BOOK = (
    ((m1 + m2) * d1**2 + m2 * d2**2 + 2 * m2 * d1 * d2 * c2) * a1
    + (m2 * d2**2 + m2 * d1 * d2 * c2) * a2
    - 2 * m2 * d1 * d2 * s2 * w1 * w2
    - m2 * d1 * d2 * s2 * w2**2
    + (m1 + m2) * g * d1 * s1
    + m2 * g * d2 * s12
)
T2_BOOK = (m2 * d2**2 + m2 * d1 * d2 * c2) * a1 + m2 * d2**2 * a2 + m2 * d1 * d2 * s2 * w1**2 + m2 * g * d2 * s12


def test_eq_3_106_3_107_joint_torques_by_lagrange_and_by_rne():
    L = MODEL.K - MODEL.P
    assert same(T1_BOOK, ddt(L.diff(w1)) - L.diff(th1))  # (3.102)
    assert same(T2_BOOK, ddt(L.diff(w2)) - L.diff(th2))
    assert same(T1_BOOK, MODEL.tau[0]) and same(T2_BOOK, MODEL.tau[1])
    rne = ARM.rne([th1, th2], [w1, w2], [a1, a2], gravity=(g, 0, 0))
    assert same(T1_BOOK, rne[0]) and same(T2_BOOK, rne[1])


# the coefficients as printed after (3.110), by the book's names. The coupling inertia is D12 alone, printed
# "D12=m2d22+m2d1d2cosθ2=m2(d22+d1d2cosθ2)": both forms are kept; there is no D21 (it equals D12)
D12_FACTORED = m2 * (d2**2 + d1 * d2 * c2)
PRINTED_D = {
    "effective inertia": {(1, 1): (m1 + m2) * d1**2 + m2 * d2**2 + 2 * m2 * d1 * d2 * c2, (2, 2): m2 * d2**2},
    "coupling inertia": {(1, 2): m2 * d2**2 + m2 * d1 * d2 * c2},
    "centripetal": {(1, 1, 1): 0, (1, 2, 2): -m2 * d1 * d2 * s2, (2, 1, 1): m2 * d1 * d2 * s2, (2, 2, 2): 0},
    "Coriolis": {(1, 1, 2): -m2 * d1 * d2 * s2, (1, 2, 1): -m2 * d1 * d2 * s2, (2, 1, 2): 0, (2, 2, 1): 0},
    "gravity": {(1,): (m1 + m2) * g * d1 * s1 + m2 * g * d2 * s12, (2,): m2 * g * d2 * s12},
}


def test_eq_3_108_to_3_110_d_coefficients():
    for name, entries in PRINTED_D.items():
        for index, value in entries.items():
            assert same(value, MODEL.D(*index)), (name, index)
    assert same(D12_FACTORED, MODEL.D(1, 2)) and MODEL.D(2, 1) == MODEL.D(1, 2)  # the unprinted D21: M is symmetric
    # (3.108)–(3.109) with them are (3.106)–(3.107)
    for i, T in ((1, T1_BOOK), (2, T2_BOOK)):
        D = MODEL.D
        form = (
            D(i, 1) * a1
            + D(i, 2) * a2
            + D(i, 1, 1) * w1**2
            + D(i, 2, 2) * w2**2
            + D(i, 1, 2) * w1 * w2
            + D(i, 2, 1) * w2 * w1
            + D(i)
        )
        assert same(T, form)


def test_eq_3_110_d_coefficients_and_3_106_3_107_come_back_as_printed():
    """The model returns Example 3.9 in the book's own form: the same expression tree, not only the same
    function. D11 = (m1 + m2)d1² + m2d2² + 2m2d1d2 cosθ2 and every other coefficient after (3.110), and
    T1, T2 (3.106)–(3.107). The book prints D12 twice, m2d2² + m2d1d2 cosθ2 = m2(d2² + d1d2 cosθ2): the
    model's is the first form; the second, with m2 factored out, differs in form only. It prints no D21."""
    d11 = (m1 + m2) * d1**2 + m2 * d2**2 + 2 * m2 * d1 * d2 * c2
    assert MODEL.D(1, 1) == d11 and MODEL.M[0, 0] == d11
    assert str(MODEL.D(1, 1)) == "d1**2*(m1 + m2) + 2*d1*d2*m2*cos(theta2) + d2**2*m2"
    assert sp.srepr(MODEL.D(1, 1)) == sp.srepr(d11)
    assert sp.simplify(MODEL.D(1, 1) - d11) == 0
    for name, entries in PRINTED_D.items():
        for index, value in entries.items():
            assert MODEL.D(*index) == value, (name, index, MODEL.D(*index))
    assert MODEL.D(1, 2) == sp.expand(D12_FACTORED) != D12_FACTORED
    assert MODEL.tau[0] == T1_BOOK and MODEL.tau[1] == T2_BOOK
    # the call as a student writes it: default joint symbols q1, q2 and gravity
    plain = lagrange(planar2r(d1, d2, m1, m2))
    assert plain.D(1, 1) == (m1 + m2) * d1**2 + m2 * d2**2 + 2 * m2 * d1 * d2 * sp.cos(plain.q[1])
    # the check can fail: the raw (back-substituted) D11 is the same function, not the printed expression
    raw = lagrange(ARM, gravity=(g, 0, 0), symbol="theta", simplify=False).D(1, 1)
    assert raw != d11 and same(raw, d11)


def test_eq_3_108_to_3_110_torque_split_by_name():
    """After (3.110): D_ii θ̈_i is the effective inertia, D_ij θ̈_j the coupling inertia, D_ijj θ̇_j² the
    centripetal force of joint j's speed, D_ijk θ̇_j θ̇_k + D_ikj θ̇_k θ̇_j (j ≠ k) the Coriolis force of
    joints j and k's speeds (printed "θ̇_i 和 θ̇_k"), D_i gravity. Checked on numbers: the split adds up."""
    values = dict(d1=0.8, d2=0.6, m1=1.5, m2=0.7, g=9.81)
    q, qd, qdd = np.array([0.4, 1.1]), np.array([1.5, -2.0]), np.array([0.3, -0.8])
    split = MODEL.terms_fn(q, qd, qdd, **values)
    at = {th1: q[0], th2: q[1], **{sp.Symbol(k, positive=True): v for k, v in values.items()}}

    def D(*i):
        return float(MODEL.D(*i).xreplace(at))

    expected = [
        [
            D(i, i) * qdd[i - 1],
            D(i, 3 - i) * qdd[2 - i],
            D(i, 1, 1) * qd[0] ** 2 + D(i, 2, 2) * qd[1] ** 2,
            (D(i, 1, 2) + D(i, 2, 1)) * qd[0] * qd[1],
            D(i),
        ]
        for i in (1, 2)
    ]
    np.testing.assert_allclose(split, expected, atol=1e-12)
    np.testing.assert_allclose(split.sum(1), planar2r(0.8, 0.6, 1.5, 0.7).rne(q, qd, qdd, gravity=(9.81, 0, 0)))
    assert dy.TERMS == ("effective inertia", "coupling inertia", "centripetal", "Coriolis", "gravity")


# --- §3.4.2: the pseudo-inertia route (3.111)–(3.132) ------------------------------------------------


def _dT(robot, q):
    """∂T_p/∂q_j (p, j = 1..n) of the symbolic arm by differentiating T_p (3.111)–(3.112)."""
    T = [sp.Matrix(Tp) for Tp in robot.fkine_all(list(q))][1:]
    return T, [[Tp.diff(x) for x in q] for Tp in T]


def test_eq_3_117_3_118_3_121_kinetic_energy_first_factor_is_dT_dq_j():
    """(3.117), (3.118), (3.121) print Trace(∂T_i/∂q_k · I_i · ∂T_i/∂q_kᵀ)q̇_j q̇_k (or ∂T_i/∂q_i first);
    the velocity (3.112) makes the first factor ∂T_i/∂q_j."""
    T, U = _dT(ARM, MODEL.q)
    Ip = [pseudo_inertia(L.m, L.r, L.I) for L in ARM.links]
    qd = MODEL.qd

    def K(first):
        return (
            sum(
                (U[p][first(j, k)] * Ip[p] * U[p][k].T).trace() * qd[j] * qd[k]
                for p in range(2)
                for j in range(2)
                for k in range(2)
            )
            / 2
        )

    assert same(K(lambda j, k: j), K_BOOK)
    assert not same(K(lambda j, k: k), K_BOOK)  # as printed


def test_eq_3_126_gravity_row_ends_in_0_not_1():
    """(3.126) prints gᵀ = (g_x, g_y, g_z, 1). With 1, every link's potential gains the constant −m_i: a
    mass, not an energy. The torques do not change (∂T_i/∂q has a zero last row), which hides the slip;
    g is a direction, (g_x, g_y, g_z, 0) (Fu–Gonzalez–Lee), as our P uses."""
    T, U = _dT(ARM, MODEL.q)
    r = sp.Matrix([0, 0, 0, 1])  # point masses at the frame origins
    P = {last: -sum(L.m * (sp.Matrix([[g, 0, 0, last]]) * Tp * r)[0] for L, Tp in zip(ARM.links, T)) for last in (0, 1)}
    assert same(P[0], P_BOOK) and same(P[1], P_BOOK - m1 - m2)
    for i in range(2):
        D_i = {
            last: -sum(L.m * (sp.Matrix([[g, 0, 0, last]]) * U[p][i] * r)[0] for p, L in enumerate(ARM.links))
            for last in (0, 1)
        }
        assert same(D_i[0], D_i[1]) and same(D_i[0], MODEL.D(i + 1))


def test_eq_3_131_pseudo_inertia_is_I_p_not_I_i():
    """(3.131) prints I_i inside Σ_p; the sum over the links p needs link p's I_p, as in (3.130)."""
    T, U = _dT(ARM, MODEL.q)
    Ip = [pseudo_inertia(L.m, L.r, L.I) for L in ARM.links]
    q = MODEL.q

    def D3(i, j, k, which):
        return sum((U[p][j].diff(q[k]) * Ip[which(p, i)] * U[p][i].T).trace() for p in range(max(i, j, k), 2))

    for i, j, k in np.ndindex(2, 2, 2):
        assert same(D3(i, j, k, lambda p, i: p), MODEL.D(i + 1, j + 1, k + 1))
    assert same(D3(0, 1, 1, lambda p, i: i), -m1 * d1 * d2 * s2)  # as printed: m1 where m2 belongs
    assert not same(D3(0, 1, 1, lambda p, i: i), PRINTED_D["centripetal"][1, 2, 2])


# --- simplifications (3.133)–(3.148) --------------------------------------------------------------------

RNG = np.random.default_rng(633)
RANDOM = [random_inertial(RNG, r) for r in random_robots(633, 3, n_range=(3, 5), prismatic_prob=0.4)]


def _axis_frame(robot, F, i):
    """World pose of the frame whose z is joint i's axis (0-based i): {i−1} standard (the book's, after
    Paul), {i} modified."""
    return F[i + 1] if robot.modified else F[i]


def _delta(robot, i):
    D = np.zeros((4, 4))
    if robot.links[i].revolute:
        D[0, 1], D[1, 0] = -1, 1
    else:
        D[2, 3] = 1
    return D


def test_eq_3_133_dTp_dqi_is_Tp_times_pDelta_i():
    rng = np.random.default_rng(1)
    h = 1e-6
    for robot in RANDOM:
        q = random_q(rng, robot)
        F = robot.fkine_all(q)
        for i in range(robot.n):
            dq = h * np.eye(robot.n)[i]
            dF = (robot.fkine_all(q + dq) - robot.fkine_all(q - dq)) / (2 * h)
            A = _axis_frame(robot, F, i)
            for p in range(i + 1, robot.n + 1):
                aTp = np.linalg.inv(A) @ F[p]
                pDelta = np.linalg.inv(aTp) @ _delta(robot, i) @ aTp  # ^pΔ_i = (^{i−1}T_p)⁻¹ ^{i−1}Δ_i ^{i−1}T_p
                np.testing.assert_allclose(dF[p], F[p] @ pDelta, atol=1e-7)


def _differential_vectors(robot, F, i, p):
    """(3.134)–(3.135) for a revolute joint, §3.3's (3.79) for a prismatic one: ^pd_i and ^pδ_i from the
    columns n, o, a, p of ^{i−1}T_p."""
    aTp = np.linalg.inv(_axis_frame(robot, F, i)) @ F[p]
    n, o, a, pp = aTp[:3, 0], aTp[:3, 1], aTp[:3, 2], aTp[:3, 3]
    if not robot.links[i].revolute:
        return np.array([n[2], o[2], a[2]]), np.zeros(3)
    d = np.array([-n[0] * pp[1] + n[1] * pp[0], -o[0] * pp[1] + o[1] * pp[0], -a[0] * pp[1] + a[1] * pp[0]])
    return d, np.array([n[2], o[2], a[2]])


def _origin_inertia(link):
    """m·k_p: the inertia tensor of the link about its frame origin (parallel-axis theorem)."""
    c = np.array(link.r)
    Ic = np.zeros((3, 3)) if link.I is None else np.asarray(link.I, float)
    return Ic + link.m * ((c @ c) * np.eye(3) - np.outer(c, c))


def test_eq_3_138_to_3_140_d_ij_from_the_differential_vectors():
    """(3.138): D_ij = Σ_p m_p[^pδ_iᵀ k_p ^pδ_j + ^pd_i·^pd_j + ^p r̄_p·(^pd_i × ^pδ_j + ^pd_j × ^pδ_i)].
    Printed: ^p r̄_j and (^pd_i × ^pδ_j + ^pd_j × ^pδ_j); (3.139) repeats ^pδ_jy and prints
    (d_i × ^pδ_i + ^pd_j × ^pδ_i); (3.140) prints ^pd_i·^pδ_i for ^pd_i × ^pδ_i; k_p's definition prints
    m_p k²_pxz = I_pzz for m_p k²_pyy = I_pyy."""
    rng = np.random.default_rng(2)
    printed_differs = False
    for robot in RANDOM:
        q = random_q(rng, robot)
        F, M = robot.fkine_all(q), dy.inertia(robot, q)
        for i in range(robot.n):
            for j in range(robot.n):
                total = printed = 0.0
                for p in range(max(i, j) + 1, robot.n + 1):
                    L = robot.links[p - 1]
                    di, ei = _differential_vectors(robot, F, i, p)
                    dj, ej = _differential_vectors(robot, F, j, p)
                    r = np.array(L.r)
                    common = ei @ _origin_inertia(L) @ ej + L.m * di @ dj
                    total += common + L.m * r @ (np.cross(di, ej) + np.cross(dj, ei))
                    printed += common + L.m * r @ (np.cross(di, ej) + np.cross(dj, ej))
                assert total == pytest.approx(M[i, j], abs=1e-9)
                printed_differs |= abs(printed - M[i, j]) > 1e-3
    assert printed_differs


def test_eq_3_141_d_ii_of_a_revolute_joint_uses_the_z_components():
    """(3.141), normal assumption (k_p diagonal): D_ii = Σ_p m_p[n_pz² k²_pxx + o_pz² k²_pyy + a_pz² k²_pzz
    + p̄·p̄ + 2 r̄_p·(p̄·n, p̄·o, p̄·a)], since ^pδ_i = (n_pz, o_pz, a_pz) (3.135). Printed n_px², o_py², a_px²."""
    rng = np.random.default_rng(3)
    links = [
        DHLink(
            a=rng.uniform(0.2, 0.6), alpha=al, d=rng.uniform(-0.2, 0.2), m=m, r=(x, 0, 0), I=np.diag(moments)
        )  # COM on x and a diagonal I: the inertia about the origin is diagonal
        for al, m, x, moments in (
            (0.0, 2.0, -0.2, (0.01, 0.05, 0.05)),
            (np.pi / 2, 1.5, -0.1, (0.02, 0.03, 0.04)),
            (-np.pi / 2, 1.0, 0.05, (0.01, 0.012, 0.015)),
        )
    ]
    robot = DHRobot(links, convention="standard")
    q = random_q(rng, robot)
    F, M = robot.fkine_all(q), dy.inertia(robot, q)
    for i in range(robot.n):
        right = wrong = 0.0
        for p in range(i + 1, robot.n + 1):
            L = robot.links[p - 1]
            k2 = np.diag(_origin_inertia(L)) / L.m
            aTp = np.linalg.inv(_axis_frame(robot, F, i)) @ F[p]
            n, o, a, pp = aTp[:3, 0], aTp[:3, 1], aTp[:3, 2], aTp[:3, 3]
            pbar = np.array([pp[0], pp[1], 0.0])
            rest = pbar @ pbar + 2 * np.array(L.r) @ [pbar @ n, pbar @ o, pbar @ a]
            right += L.m * (n[2] ** 2 * k2[0] + o[2] ** 2 * k2[1] + a[2] ** 2 * k2[2] + rest)
            wrong += L.m * (n[0] ** 2 * k2[0] + o[1] ** 2 * k2[1] + a[0] ** 2 * k2[2] + rest)
        assert right == pytest.approx(M[i, i], abs=1e-12)
        if i < robot.n - 1:
            assert abs(wrong - M[i, i]) > 1e-6  # rounding is ~1e-16


def test_eq_3_142_prismatic_d_ii_is_the_sum_of_the_outboard_masses():
    rng = np.random.default_rng(4)
    checked = 0
    for robot in RANDOM:
        M = dy.inertia(robot, random_q(rng, robot))
        for i, link in enumerate(robot.links):
            if not link.revolute:
                assert M[i, i] == pytest.approx(sum(L.m for L in robot.links[i:]), abs=1e-12)
                checked += 1
    assert checked


def test_eq_3_134_3_135_library_differential_vectors_are_the_columns_formula():
    rng = np.random.default_rng(6)
    for robot in RANDOM:
        q = random_q(rng, robot)
        F = robot.fkine_all(q)
        d, delta = dy.differential_vectors(robot, q)
        for i in range(robot.n):
            for p in range(1, robot.n + 1):
                expected = _differential_vectors(robot, F, i, p) if p > i else (np.zeros(3), np.zeros(3))
                np.testing.assert_allclose(d[i, p - 1], expected[0], atol=1e-12)
                np.testing.assert_allclose(delta[i, p - 1], expected[1], atol=1e-12)


def test_eq_3_138_3_139_library_d_ij_is_M_and_its_three_groups_add_up():
    """dynamics.inertia_from_differential_vectors: (3.138) is M for random arms (both conventions,
    prismatic joints, base transforms); the three groups of (3.139) add up to it, and a link whose centre
    of mass is at its frame origin contributes nothing to the third."""
    rng = np.random.default_rng(7)
    for robot in RANDOM:
        q = random_q(rng, robot)
        parts = dy.inertia_from_differential_vectors(robot, q, split=True)
        np.testing.assert_allclose(parts.sum(0), dy.inertia(robot, q), atol=1e-10)
        np.testing.assert_allclose(dy.inertia_from_differential_vectors(robot, q), parts.sum(0), atol=1e-15)
    point = planar2r(0.8, 0.6, 1.5, 0.7)  # point masses at the frame origins: only the moment arms d·d
    parts = dy.inertia_from_differential_vectors(point, [0.3, 0.9], split=True)
    assert np.abs(parts[[0, 2]]).max() < 1e-15 and np.allclose(parts[1], point.inertia([0.3, 0.9]))


def test_eq_3_141_3_142_library_effective_inertia_under_the_normal_assumption():
    """dynamics.effective_inertia_from_differential_vectors: (3.141) for revolute and (3.142) for prismatic
    joints is diag M on arms whose link inertias about the frame origins are diagonal; a link with
    products of inertia there gets a ValueError naming it."""
    normal = DHRobot(
        [
            DHLink(a=0.3, m=2.0, r=(-0.15, 0, 0), I=np.diag([0.001, 0.02, 0.02])),
            DHLink(alpha=np.pi / 2, joint="P", qlim=(0, 0.5), m=1.2, r=(0, 0, -0.1), I=np.diag([0.01, 0.01, 0.001])),
            DHLink(a=0.2, alpha=-np.pi / 2, m=0.5, r=(-0.1, 0, 0), I=np.diag([0.0005, 0.002, 0.002])),
        ],
        convention="standard",
    )
    rng = np.random.default_rng(8)
    for q in random_q(rng, normal, 5):
        D = dy.effective_inertia_from_differential_vectors(normal, q)
        np.testing.assert_allclose(D, np.diag(normal.inertia(q)), atol=1e-12)
        assert D[1] == pytest.approx(1.2 + 0.5, abs=1e-15)  # (3.142): the mass the slide carries
    skewed = normal.replace_link(2, r=(-0.1, 0.03, 0))  # centre of mass off the x axis: products about the origin
    with pytest.raises(ValueError, match="link 3's inertia about its frame origin has products of inertia"):
        dy.effective_inertia_from_differential_vectors(skewed, [0.1, 0.2, 0.3])


def test_eq_3_148_library_gravity_terms_equal_gravload():
    rng = np.random.default_rng(9)
    gvec = np.array([0.4, -1.3, -9.7])
    for robot in RANDOM:
        q = random_q(rng, robot)
        np.testing.assert_allclose(
            dy.gravity_from_axis_frames(robot, q, gravity=gvec), dy.gravload(robot, q, gravity=gvec), atol=1e-10
        )


def test_eq_3_145_to_3_148_gravity_term():
    """D_i = ^{i−1}g·Σ_{p ≥ i} m_p ^{i−1}r̄_p with ^{i−1}g = −gᵀ T_{i−1} ^{i−1}Δ_i: [−g·o, g·n, 0, 0] for a
    revolute joint (3.146, read with the brackets the extraction lost), [0, 0, 0, −g·a] for a
    prismatic one (3.147); n, o, a are the axis frame's columns in the base frame."""
    rng = np.random.default_rng(5)
    gvec = np.array([0.4, -1.3, -9.7])
    for robot in RANDOM:
        q = random_q(rng, robot)
        F = robot.fkine_all(q)
        G = dy.gravload(robot, q, gravity=gvec)
        for i in range(robot.n):
            A = _axis_frame(robot, F, i)
            n, o, a = A[:3, 0], A[:3, 1], A[:3, 2]
            g_row = -np.r_[gvec, 0] @ A @ _delta(robot, i)
            expected = [-gvec @ o, gvec @ n, 0, 0] if robot.links[i].revolute else [0, 0, 0, -gvec @ a]
            np.testing.assert_allclose(g_row, expected, atol=1e-12)
            moment = sum(
                L.m * np.linalg.inv(A) @ F[p] @ np.r_[L.r, 1] for p, L in enumerate(robot.links[i:], start=i + 1)
            )
            assert g_row @ moment == pytest.approx(G[i], abs=1e-9)


def test_eq_3_146_axis_frame_is_i_minus_1_in_standard_dh_and_i_in_modified_dh():
    """(3.145)–(3.148) use joint i's axis frame: {i−1} in Paul's standard DH, in which §3.4's simplifications
    are written and chapter 06's arms are built (planar2r, planar3r, its R-P-R), {i} in the modified DH of
    Table 3.2 (the PUMA560) and of hw06's Newton–Euler step. The other frame gives wrong torques."""
    from armlab.models import planar3r, puma560

    assert [planar2r().modified, planar3r().modified, puma560().modified] == [False, False, True]
    rng = np.random.default_rng(146)
    gvec = np.array([2.0, -9.0, 3.0])  # slanted: no term vanishes
    for robot in (planar3r(), puma560()):
        q = random_q(rng, robot)
        F = robot.fkine_all(q)
        G = dy.gravload(robot, q, gravity=gvec)

        def D_i(i, A):
            g_row = -np.r_[gvec, 0] @ A @ _delta(robot, i)
            moment = sum(
                L.m * np.linalg.inv(A) @ F[p] @ np.r_[L.r, 1] for p, L in enumerate(robot.links[i:], start=i + 1)
            )
            return g_row @ moment

        right = [D_i(i, _axis_frame(robot, F, i)) for i in range(robot.n)]
        other = [D_i(i, F[i] if robot.modified else F[i + 1]) for i in range(robot.n)]
        np.testing.assert_allclose(right, G, atol=1e-9)
        assert not np.allclose(other, G, atol=1e-3)


# --- §3.4.3: the 2-DOF example with dissipation (3.149)–(3.151) --------------------------------------------


def _section_3_4_3():
    """K, P, D, W of Fig. 3.14 as printed (r1 = d1cosθ1 i + d1sinθ1 j, i pointing down), and the
    equations of motion by (3.149): ∂W/∂q_i = d/dt ∂K/∂q̇_i − ∂K/∂q_i + ∂D/∂q̇_i + ∂P/∂q_i."""
    r1 = sp.Matrix([d1 * c1, d1 * s1])
    r2 = r1 + sp.Matrix([d2 * c12, d2 * s12])
    K = m1 * ddt(r1).dot(ddt(r1)) / 2 + m2 * ddt(r2).dot(ddt(r2)) / 2
    P = -m1 * g * r1[0] - m2 * g * r2[0]
    D = C1 * w1**2 / 2 + C2 * w2**2 / 2
    return r2, K, P, D


def test_eq_3_149_is_lagrange_with_dissipation_and_gives_rne_plus_damping():
    """(3.149) is Lagrange's equation with a Rayleigh dissipation function D, not the Newton–Euler
    recursion the section is named after; the torques equal RNE's plus the damping C_i θ̇_i."""
    _, K, P, D = _section_3_4_3()
    assert same(K, K_BOOK) and same(P, P_BOOK)  # the same arm as Example 3.9
    rne = ARM.rne([th1, th2], [w1, w2], [a1, a2], gravity=(g, 0, 0))
    for i, (x, v, Ci) in enumerate(((th1, w1, C1), (th2, w2, C2))):
        T = ddt(K.diff(v)) - K.diff(x) + D.diff(v) + P.diff(x)
        assert same(T, rne[i] + Ci * v)


def test_section_3_4_3_v2_j_component_has_plus_d2_cos():
    """Printed v2's j component: θ̇1d1cosθ1 − (θ̇1 + θ̇2)d2cos(θ1 + θ2); the derivative of
    d2 sin(θ1 + θ2) is +(θ̇1 + θ̇2)d2cos(θ1 + θ2). The printed v2² is right."""
    r2, _, _, _ = _section_3_4_3()
    v2 = ddt(r2)
    assert same(v2[1], w1 * d1 * c1 + (w1 + w2) * d2 * c12)
    assert not same(v2[1], w1 * d1 * c1 - (w1 + w2) * d2 * c12)  # as printed
    v2_sq = d1**2 * w1**2 + d2**2 * (w1**2 + 2 * w1 * w2 + w2**2) + 2 * d1 * d2 * (w1**2 + w1 * w2) * c2
    assert same(v2.dot(v2), v2_sq)


def test_eq_3_150_second_inertia_term_multiplies_theta2_ddot():
    """(3.150) prints [m2d2² + m2d1d2cosθ2]θ̈1 (θ̈1 twice); as extracted it also lacks the θ̇2² of the
    −m2d1d2 sinθ2 term and the g of m2 g d2 sin(θ1 + θ2)."""
    _, K, P, D = _section_3_4_3()
    T1 = ddt(K.diff(w1)) - K.diff(th1) + D.diff(w1) + P.diff(th1)
    correct = T1_BOOK + C1 * w1
    assert same(T1, correct)
    printed = correct - (m2 * d2**2 + m2 * d1 * d2 * c2) * (a2 - a1)  # θ̈1 in place of θ̈2
    assert not same(T1, printed)


def test_eq_3_151_is_T2_not_T1():
    """(3.151) is labelled T1; it is T2: (m2d2² + m2d1d2cosθ2)θ̈1 + m2d2²θ̈2 + m2d1d2 sinθ2 θ̇1² + C2θ̇2
    + m2 g d2 sin(θ1 + θ2) (printed c2θ̇2: the damping coefficient, not cosθ2)."""
    _, K, P, D = _section_3_4_3()
    printed = (
        (m2 * d2**2 + m2 * d1 * d2 * c2) * a1
        + m2 * d2**2 * a2
        + m2 * d1 * d2 * s2 * w1**2
        + C2 * w2
        + m2 * g * d2 * s12
    )
    T1 = ddt(K.diff(w1)) - K.diff(th1) + D.diff(w1) + P.diff(th1)
    T2 = ddt(K.diff(w2)) - K.diff(th2) + D.diff(w2) + P.diff(th2)
    assert same(printed, T2) and not same(printed, T1)


def test_section_3_4_3_dK_dtheta2_is_minus_m2_d1_d2():
    """In the q_i = θ2 block the second "∂K/∂θ̇2" is ∂K/∂θ2, and it is −m2d1d2(θ̇1² + θ̇1θ̇2)sinθ2
    (printed −m2d2²(…)sinθ2)."""
    _, K, _, _ = _section_3_4_3()
    assert same(K.diff(th2), -m2 * d1 * d2 * (w1**2 + w1 * w2) * s2)
    assert not same(K.diff(th2), -m2 * d2**2 * (w1**2 + w1 * w2) * s2)
    assert same(K.diff(w2), m2 * d2**2 * (w1 + w2) + m2 * d1 * d2 * w1 * c2)  # the first one, right


def test_section_3_4_3_ddt_dK_dtheta2dot_has_the_velocity_product():
    """d/dt ∂K/∂θ̇2 = m2d2²(θ̈1 + θ̈2) + m2d1d2θ̈1cosθ2 − m2d1d2θ̇1θ̇2 sinθ2 (printed θ̈1θ̈2)."""
    _, K, _, _ = _section_3_4_3()
    assert same(ddt(K.diff(w2)), m2 * d2**2 * (a1 + a2) + m2 * d1 * d2 * a1 * c2 - m2 * d1 * d2 * w1 * w2 * s2)
    assert not same(ddt(K.diff(w2)), m2 * d2**2 * (a1 + a2) + m2 * d1 * d2 * a1 * c2 - m2 * d1 * d2 * a1 * a2 * s2)


def test_section_3_4_3_dP_dtheta2_label():
    """In the q_i = θ2 block, "∂P/∂θ1 = m2 g d2 sin(θ1 + θ2)" is ∂P/∂θ2; ∂P/∂θ1 is the θ1 block's."""
    _, _, P, _ = _section_3_4_3()
    assert same(P.diff(th2), m2 * g * d2 * s12)
    assert same(P.diff(th1), (m1 + m2) * g * d1 * s1 + m2 * d2 * g * s12)


# --- §3.5.2: natural frequency ------------------------------------------------------------------------------


def test_section_3_5_2_natural_frequency_falls_as_the_arm_stretches():
    """A joint held by a servo of stiffness k (the others locked) vibrates at ω = √(k / D_ii(q)): the
    effective inertia, and so the frequency, changes with the pose. For the 2R, D11 = (m1 + m2)d1² + m2d2²
    + 2m2d1d2cosθ2 is largest stretched out (θ2 = 0) and smallest folded (θ2 = ±π)."""
    model = lagrange(planar2r(l1=0.8, l2=0.6, m1=1.5, m2=0.7), gravity=(9.81, 0, 0))
    k = 200.0  # N·m/rad
    theta2 = np.linspace(-np.pi, np.pi, 73)
    M = model.M_fn(np.column_stack([np.zeros_like(theta2), theta2]))
    omega = np.sqrt(k / M[:, 0, 0])
    assert omega.argmin() == 36 and theta2[36] == pytest.approx(0.0)
    assert omega.max() / omega.min() == pytest.approx(
        np.sqrt((2.2 * 0.64 + 0.7 * 0.36 + 2 * 0.7 * 0.48) / (2.2 * 0.64 + 0.7 * 0.36 - 2 * 0.7 * 0.48))
    )
    # both joints free: the generalized eigenproblem K v = ω² M v
    lam = np.linalg.eigvals(np.linalg.solve(M[36], k * np.eye(2)))
    assert np.all(lam > 0) and np.sqrt(lam.min()) < omega[36]
