"""The symbolic Lagrange engine (armlab.dynamics.lagrange, textbook (3.111)–(3.132)) against RNE.

Symbolically for the 2R (every τ entry's difference simplifies to 0), numerically for random arms in
both conventions with prismatic joints, base transforms and tilted gravity (≤ 1e-9); M symmetric
positive definite, Ṁ − 2C skew, the D-coefficients against the book's formulas written out
literally, and the pseudo-inertia matrix. Example 3.9 itself is in tests/sources/test_textbook_ch6.py.
"""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest
import sympy as sp

from armlab import DHLink, DHRobot
from armlab import dynamics as dy
from armlab.dynamics import lagrange, pseudo_inertia, simplify_trig
from armlab.models import paper_3r, planar2r, planar3r, puma560, puma560_standard, rpr
from support import random_inertial, random_q, random_robots

TOL = 1e-9
GRAVITY = np.array([0.4, -1.3, -9.7])  # tilted on purpose
RNG = np.random.default_rng(612)
ROBOTS = [random_inertial(RNG, r) for r in random_robots(612, 6, n_range=(1, 6))]
d1, d2, m1, m2, g = sp.symbols("d1 d2 m1 m2 g", positive=True)


def _sym2r():
    return planar2r(l1=d1, l2=d2, m1=m1, m2=m2)


def _point_3r():
    """The planar 3R with a point mass at the end of each link (exact rational lengths and masses)."""
    R = sp.Rational
    links = [DHLink(a=R(l), m=R(m)) for l, m in (("0.9", "2"), ("0.7", "1.5"), ("0.4", "0.8"))]
    return DHRobot(links, convention="standard", name="point-mass 3R")


def _identically_zero(expr):
    """expr(q, q̇, q̈) is 0 as a function: expanded with sin² = 1 − cos², a polynomial in the sines and
    cosines of independent angles is canonical, so the identity shows as exactly 0. (sympy.simplify
    reaches the same 0 for the 2R's τ, in 18 s instead of 0.3 s.)"""
    return simplify_trig(expr, combine=False) == 0


def test_eq_3_129_2r_equals_rne_symbolically():
    robot = _sym2r()
    gx, gy = sp.symbols("g_x g_y")
    for gravity in ((g, 0, 0), (gx, gy, 0)):  # the book's gravity, and any direction in the plane
        model = lagrange(robot, gravity=gravity)
        rne = robot.rne(model.q, model.qd, model.qdd, gravity=gravity)
        assert all(_identically_zero(model.tau[i] - rne[i]) for i in range(2))
        # the book's form of (3.106)–(3.107), coefficient by coefficient, is the same τ
        assert all(sp.simplify(a - b) == 0 for a, b in zip(model.simplified(), rne.applyfunc(simplify_trig)))


def test_eq_3_129_random_arms_equal_rne_numerically():
    assert {r.convention for r in ROBOTS} == {"standard", "modified"}
    assert any("P" in r.joint_types for r in ROBOTS) and any(r.base is not None for r in ROBOTS)
    rng = np.random.default_rng(1)
    for robot in ROBOTS:
        model = lagrange(robot, GRAVITY)
        Q = random_q(rng, robot, 4)
        QD, QDD = rng.normal(size=(2, 4, robot.n))
        tag = repr(robot)
        np.testing.assert_allclose(model.tau_fn(Q, QD, QDD), dy.rne(robot, Q, QD, QDD, GRAVITY), atol=TOL, err_msg=tag)
        np.testing.assert_allclose(model.M_fn(Q), dy.inertia(robot, Q), atol=TOL, err_msg=tag)
        np.testing.assert_allclose(model.C_fn(Q, QD), dy.coriolis(robot, Q, QD), atol=TOL, err_msg=tag)
        np.testing.assert_allclose(model.G_fn(Q), dy.gravload(robot, Q, gravity=GRAVITY), atol=TOL, err_msg=tag)
        K, P = np.moveaxis(model.energy_fn(Q, QD), -1, 0)
        np.testing.assert_allclose(K, dy.kinetic_energy(robot, Q, QD), atol=TOL, err_msg=tag)
        np.testing.assert_allclose(P, dy.potential_energy(robot, Q, GRAVITY), atol=TOL, err_msg=tag)
        # the torque split of (3.108)–(3.110) adds up to τ
        np.testing.assert_allclose(model.terms_fn(Q, QD, QDD).sum(-1), model.tau_fn(Q, QD, QDD), atol=TOL)


@pytest.mark.parametrize("convention", ["modified", "standard"])
def test_eq_3_129_puma560_equals_rne(convention):
    """(How fast the model is built: bench/bench_lagrange.py --check.)"""
    robot = puma560() if convention == "modified" else puma560_standard()  # Armstrong–Khatib–Burdick inertias
    model = lagrange(robot)
    tau = model.tau
    assert tau.shape == (6, 1) and tau.free_symbols <= set(model.q + model.qd + model.qdd)
    rng = np.random.default_rng(2)
    Q = random_q(rng, robot, 20)
    QD, QDD = rng.normal(size=(2, 20, 6))
    np.testing.assert_allclose(model.tau_fn(Q, QD, QDD), robot.rne(Q, QD, QDD), atol=TOL)


def test_symbolic_expressions_equal_the_compiled_functions():
    # a 3-joint arm (RPP, base and tool): the back-substituted expressions are trees that sympy walks
    # without sharing, so a long arm's would take minutes here
    robot = random_inertial(
        np.random.default_rng(31), random_robots(31, 1, ("standard",), n_range=(3, 3), prismatic_prob=0.5)[0]
    )
    assert robot.joint_types == "RPP"
    model = lagrange(robot, GRAVITY)
    rng = np.random.default_rng(3)
    q, qd, qdd = random_q(rng, robot), *rng.normal(size=(2, robot.n))
    values = dict(zip(model.q + model.qd + model.qdd, map(sp.Float, np.concatenate([q, qd, qdd]))))
    np.testing.assert_allclose(
        np.array(model.tau.xreplace(values), dtype=float).ravel(), model.tau_fn(q, qd, qdd), atol=1e-10
    )
    np.testing.assert_allclose(np.array(model.M.xreplace(values), dtype=float), model.M_fn(q), atol=1e-10)
    # the program behind τ (cse form) gives the same numbers
    pairs, outputs = model.cse("tau")
    env = dict(values)
    for x, e in pairs:
        env[x] = e.xreplace(env)
    np.testing.assert_allclose([float(o.xreplace(env)) for o in outputs], model.tau_fn(q, qd, qdd), atol=1e-10)


def test_m_symmetric_positive_definite_and_mdot_minus_2c_skew():
    rng = np.random.default_rng(4)
    for robot in ROBOTS:
        model = lagrange(robot, GRAVITY)
        for q in random_q(rng, robot, 3):
            qd = rng.normal(size=robot.n)
            M = model.M_fn(q)
            assert np.array_equal(M, M.T) and np.linalg.eigvalsh(M).min() > 0
            h = 1e-6
            Mdot = (model.M_fn(q + h * qd) - model.M_fn(q - h * qd)) / (2 * h)
            N = Mdot - 2 * model.C_fn(q, qd)
            np.testing.assert_allclose(N, -N.T, atol=1e-6)


def test_mdot_minus_2c_is_skew_symbolically_for_the_2r_and_3r():
    for model in (lagrange(_sym2r(), (g, 0, 0)), lagrange(_point_3r(), (0, -9.81, 0))):
        M, C = model.M, model.C
        Mdot = sum((M.diff(q) * v for q, v in zip(model.q, model.qd)), sp.zeros(model.n))
        N = Mdot - 2 * C
        assert all(_identically_zero(x) for x in N + N.T)


def _literal(robot, gravity):
    """(3.130)–(3.132) exactly as printed: T_p by (3.111), ∂T_p/∂q_j by differentiation, the traces."""
    n = robot.n
    q = sp.symbols(f"q1:{n + 1}", real=True)
    T = robot.fkine_all(q) if robot.symbolic else robot.fkine_all(list(q))
    T = [sp.Matrix(Tp) for Tp in T][1:]
    Ip = [pseudo_inertia(L.m, L.r, L.I) for L in robot.links]
    U = [[T[p].diff(q[j]) for j in range(n)] for p in range(n)]
    g4 = sp.Matrix(list(gravity) + [0]).T
    D2 = [[sum((U[p][j] * Ip[p] * U[p][i].T).trace() for p in range(max(i, j), n)) for j in range(n)] for i in range(n)]
    D3 = [
        [
            [sum((U[p][j].diff(q[k]) * Ip[p] * U[p][i].T).trace() for p in range(max(i, j, k), n)) for k in range(n)]
            for j in range(n)
        ]
        for i in range(n)
    ]
    D1 = [
        sum((-robot.links[p].m * g4 * U[p][i] * sp.Matrix(list(robot.links[p].r) + [1]))[0] for p in range(i, n))
        for i in range(n)
    ]
    return q, D2, D3, D1


@pytest.mark.parametrize(
    "make, gravity",
    [
        (_sym2r, (g, 0, 0)),
        (_point_3r, (0, -9.81, 0)),
        (
            lambda: random_inertial(
                np.random.default_rng(5), random_robots(5, 1, ("modified",), n_range=(3, 3), prismatic_prob=0.5)[0]
            ),
            (0.4, -1.3, -9.7),
        ),
    ],
    ids=["2r-symbolic", "3r-point-masses", "random-3-joint"],
)
def test_eq_3_130_to_3_132_d_coefficients_equal_the_printed_sums(make, gravity):
    robot = make()
    model = lagrange(robot, gravity)
    q, D2, D3, D1 = _literal(robot, gravity)
    sub = dict(zip(q, model.q))
    rng = np.random.default_rng(6)
    at = dict(zip(model.q, rng.uniform(-2, 2, robot.n)))
    if robot.symbolic:
        at.update({d1: 0.7, d2: 0.45, m1: 1.3, m2: 0.6, g: 9.81})
    n = robot.n

    def close(a, b):
        a, b = sp.sympify(a).xreplace(sub), sp.sympify(b)
        return abs(float((a - b).xreplace(at))) < 1e-9

    assert all(close(D2[i][j], model.D(i + 1, j + 1)) for i in range(n) for j in range(n))
    assert all(close(D3[i][j][k], model.D(i + 1, j + 1, k + 1)) for i in range(n) for j in range(n) for k in range(n))
    assert all(close(D1[i], model.D(i + 1)) for i in range(n))


def test_eq_3_131_d_ijk_is_the_christoffel_symbol_of_report_2_71():
    # (2.71): C_ijk = ½(∂D_kj/∂q_i + ∂D_ki/∂q_j − ∂D_ij/∂q_k) is the book's D_kij
    for model in (lagrange(_sym2r(), (g, 0, 0)), lagrange(_point_3r())):
        M, q, n = model.M, model.q, model.n
        for i in range(n):
            for j in range(n):
                for k in range(n):
                    c = (M[k, j].diff(q[i]) + M[k, i].diff(q[j]) - M[i, j].diff(q[k])) / 2
                    assert _identically_zero(c - model.D(k + 1, i + 1, j + 1))


def test_eq_3_119_3_120_pseudo_inertia_of_a_rigid_cluster_of_point_masses():
    # For point masses the integral (3.119) is a sum: Σ m·r̃·r̃ᵀ, exactly.
    rng = np.random.default_rng(7)
    masses, points = rng.uniform(0.1, 1, 5), rng.uniform(-0.3, 0.3, (5, 3))
    m = masses.sum()
    c = masses @ points / m
    s = points - c
    I_c = sum(mi * ((si @ si) * np.eye(3) - np.outer(si, si)) for mi, si in zip(masses, s))
    hom = np.hstack([points, np.ones((5, 1))])
    expected = sum(mi * np.outer(h, h) for mi, h in zip(masses, hom))
    np.testing.assert_allclose(np.array(pseudo_inertia(m, c, I_c), dtype=float), expected, atol=1e-12)
    # (3.120): the same matrix from the moments about the frame origin, I_xx = ∫(y² + z²)dm, and the
    # products I_xy = ∫xy dm (the book's sign: not the inertia tensor's −∫xy dm)
    I_o = sum(mi * ((p @ p) * np.eye(3) - np.outer(p, p)) for mi, p in zip(masses, points))
    Ixx, Iyy, Izz = np.diag(I_o)
    Ixy, Ixz, Iyz = -I_o[0, 1], -I_o[0, 2], -I_o[1, 2]
    book = np.array(
        [
            [(-Ixx + Iyy + Izz) / 2, Ixy, Ixz, m * c[0]],
            [Ixy, (Ixx - Iyy + Izz) / 2, Iyz, m * c[1]],
            [Ixz, Iyz, (Ixx + Iyy - Izz) / 2, m * c[2]],
            [m * c[0], m * c[1], m * c[2], m],
        ]
    )
    np.testing.assert_allclose(book, expected, atol=1e-12)


def test_eq_3_122_to_3_124_armature_adds_to_the_diagonal_of_m():
    robot = ROBOTS[1]
    Ia = np.linspace(0.1, 0.5, robot.n)
    plain, model = lagrange(robot, GRAVITY), lagrange(robot, GRAVITY, armature=Ia)
    rng = np.random.default_rng(8)
    q, qd, qdd = random_q(rng, robot), *rng.normal(size=(2, robot.n))
    np.testing.assert_allclose(model.M_fn(q), plain.M_fn(q) + np.diag(Ia), atol=1e-12)
    np.testing.assert_allclose(model.tau_fn(q, qd, qdd), plain.tau_fn(q, qd, qdd) + Ia * qdd, atol=1e-12)
    K = model.energy_fn(q, qd)[0]
    assert K == pytest.approx(plain.energy_fn(q, qd)[0] + 0.5 * Ia @ qd**2)  # (3.124)


def test_batched_equals_looped_and_parameters_are_keywords():
    model = lagrange(_sym2r(), (g, 0, 0))
    assert [s.name for s in model.parameters] == ["d1", "d2", "g", "m1", "m2"]
    values = dict(d1=0.8, d2=0.6, g=9.81, m1=1.5, m2=0.7)
    numeric = planar2r(l1=0.8, l2=0.6, m1=1.5, m2=0.7)
    rng = np.random.default_rng(9)
    Q, QD, QDD = rng.normal(size=(3, 2, 3, 2))
    tau = model.tau_fn(Q, QD, QDD, **values)
    assert tau.shape == (2, 3, 2)
    for idx in np.ndindex(2, 3):
        np.testing.assert_allclose(tau[idx], model.tau_fn(Q[idx], QD[idx], QDD[idx], **values), atol=1e-13)
        np.testing.assert_allclose(tau[idx], numeric.rne(Q[idx], QD[idx], QDD[idx], gravity=(9.81, 0, 0)), atol=TOL)
    assert model.terms_fn(Q, QD, QDD, **values).shape == (2, 3, 2, 5)


def _slide():
    """Chapter 06's R-P-R arm (standard DH, a prismatic middle joint, float inertias)."""
    return DHRobot(
        [
            DHLink(a=0.3, m=2.0, r=(-0.15, 0, 0), I=np.diag([0.001, 0.02, 0.02])),
            DHLink(alpha=np.pi / 2, joint="P", qlim=(0, 0.5), m=1.2, r=(0, 0, -0.1), I=np.diag([0.01, 0.01, 0.001])),
            DHLink(a=0.2, m=0.5, r=(-0.1, 0, 0), I=np.diag([0.0005, 0.002, 0.002])),
        ],
        convention="standard",
        name="R-P-R",
    )


@pytest.mark.parametrize("make", [paper_3r, _slide, planar3r], ids=["paper-3r", "r-p-r", "planar-3r"])
def test_eq_3_129_small_arms_come_back_readable_and_equal_the_compiled_functions(make):
    """M, C, G, τ, K, P and the D-coefficients of an arm of ≤ 3 joints are simplified by default (sums of
    cos and sin of angle combinations, exact: no float residue), and they are the same functions as the
    compiled M_fn, C_fn, G_fn, tau_fn, energy_fn."""
    robot = make()
    model = lagrange(robot, GRAVITY)
    assert model.simplify
    M, C, G, tau, K, P = model.M, model.C, model.G, model.tau, model.K, model.P
    assert tau == model.simplified()
    assert model.D(1, 2) is model.D(1, 2)  # computed once
    everything = sp.Matrix([*M, *C, *G, *tau, K, P])
    # readable: no raw powers of a sine; exact: no coefficient that is float residue
    assert not any(isinstance(p.base, sp.sin) for p in everything.atoms(sp.Pow))
    floats = [abs(f) for f in everything.atoms(sp.Float)]
    assert floats and min(floats) > 1e-9
    rng = np.random.default_rng(11)
    for q in random_q(rng, robot, 3):
        qd, qdd = rng.normal(size=(2, robot.n))
        at = dict(zip(model.q + model.qd + model.qdd, map(float, np.concatenate([q, qd, qdd]))))

        def num(X):
            return np.array(X.xreplace(at), dtype=float)

        np.testing.assert_allclose(num(M), model.M_fn(q), atol=1e-12)
        np.testing.assert_allclose(num(C), model.C_fn(q, qd), atol=1e-12)
        np.testing.assert_allclose(num(G).ravel(), model.G_fn(q), atol=1e-12)
        np.testing.assert_allclose(num(tau).ravel(), model.tau_fn(q, qd, qdd), atol=1e-12)
        np.testing.assert_allclose([float(K.xreplace(at)), float(P.xreplace(at))], model.energy_fn(q, qd), atol=1e-12)


def test_eq_3_131_paper_3r_centripetal_d122_is_exactly_zero():
    """D122 = 0 for the paper's 3-R (its links are symmetric about the arm's plane): joint 2's speed exerts
    no centripetal torque on the vertical joint 1.
    Evaluated in floats, the pseudo-inertia route leaves ~1e-16; the readable form is exact."""
    model = lagrange(paper_3r(), GRAVITY)
    assert model.D(1, 2, 2) == 0
    raw = model.D(1, 2, 2, simplify=False)
    assert raw != 0 and abs(float(raw.xreplace(dict(zip(model.q, (0.3, 0.7, -0.4)))))) < 1e-12


def test_eq_3_130_puma560_is_not_simplified_but_one_entry_can_be():
    """Large arms come back unexpanded (the PUMA560's readable M has hundreds of terms and its C takes
    minutes); one entry in the readable form is quick (bench/bench_lagrange.py --check times it)."""
    robot = puma560()
    model = lagrange(robot)
    assert not model.simplify
    d22 = model.D(2, 2, simplify=True)
    assert d22.free_symbols == {model.q[2], model.q[3], model.q[4]}  # D22 does not depend on q1, q2, q6
    rng = np.random.default_rng(12)
    for q in random_q(rng, robot, 3):
        value = float(d22.xreplace(dict(zip(model.q, map(float, q)))))
        assert value == pytest.approx(model.M_fn(q)[1, 1], abs=1e-12)
    assert model.D(2, 2) != d22  # the model's own choice stays raw
    assert lagrange(planar3r(), simplify=False).simplify is False


def test_model_is_built_once_per_robot_and_does_not_keep_it_alive():
    robot = planar3r()
    assert lagrange(robot) is lagrange(robot)
    assert lagrange(robot) is not lagrange(robot, gravity=(0, -9.81, 0))
    alive = weakref.ref(robot)
    del robot
    gc.collect()
    assert alive() is None


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: lagrange(rpr()), "has no link masses"),
        (lambda: lagrange(planar2r(), gravity=(0, 9.81)), "gravity must have 3 entries"),
        (lambda: lagrange(planar2r(), armature=(1.0,)), "armature must have 2 entries"),
        (lambda: lagrange(planar2r(), symbol="1q"), "symbol must be a name"),
        (lambda: lagrange(planar2r()).M_fn([0.0, 0.0, 0.0]), r"q must have 2 joint values"),
        (lambda: lagrange(planar2r()).tau_fn([0, 0], [0, np.nan], [0, 0]), "qd contains NaN or infinity"),
        (lambda: lagrange(_sym2r(), (g, 0, 0)).M_fn([0, 0]), r"missing \['d1', 'd2', 'g', 'm1', 'm2'\]"),
        (lambda: lagrange(planar2r()).M_fn([0, 0], m1=2), r"unknown \['m1'\]"),
        (lambda: lagrange(planar2r()).D(3, 1), "D takes 1 to 3 joint indices in 1..2"),
    ],
)
def test_bad_input_gets_a_clear_error(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()
