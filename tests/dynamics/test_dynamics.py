"""Dynamics (armlab.dynamics): RNE, M, C, G and forward dynamics against pinocchio and
roboticstoolbox on random robots with random valid inertias (both conventions, prismatic joints,
base, tool, any gravity direction), and the properties every model must have.

Example 3.9 and the other worked examples are in tests/sources/test_textbook_ch6.py.
"""

from __future__ import annotations

import numpy as np
import pinocchio as pin
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import armlab
from armlab import dynamics as dy
from armlab import statics
from support import random_inertial, random_q, random_robots, to_pin, to_rtb

TOL = 1e-9
RNG = np.random.default_rng(2024)
ROBOTS = [random_inertial(RNG, r) for r in random_robots(606, 30)]
GRAVITY = np.array([0.4, -1.3, -9.7])  # tilted on purpose


def _pin(robot):
    model, ee, _ = to_pin(robot)
    model.gravity.linear = GRAVITY
    return model, model.createData(), ee


def test_rne_mass_gravity_coriolis_and_forward_dynamics_equal_pinocchio():
    assert {r.convention for r in ROBOTS} == {"standard", "modified"} and any("P" in r.joint_types for r in ROBOTS)
    rng = np.random.default_rng(1)
    for robot in ROBOTS:
        model, data, _ = _pin(robot)
        for q in random_q(rng, robot, 3):
            qd, qdd = rng.normal(size=(2, robot.n))
            tag = f"{robot!r}\nq = {q!r}"
            np.testing.assert_allclose(
                dy.rne(robot, q, qd, qdd, GRAVITY), pin.rnea(model, data, q, qd, qdd), atol=TOL, err_msg="rne " + tag
            )
            M = pin.crba(model, data, q)
            np.testing.assert_allclose(dy.inertia(robot, q), np.triu(M) + np.triu(M, 1).T, atol=TOL, err_msg=tag)
            np.testing.assert_allclose(
                dy.gravload(robot, q, gravity=GRAVITY),
                pin.computeGeneralizedGravity(model, data, q),
                atol=TOL,
                err_msg=tag,
            )
            np.testing.assert_allclose(
                dy.coriolis(robot, q, qd),
                pin.computeCoriolisMatrix(model, data, q, qd),
                atol=TOL,
                err_msg="coriolis " + tag,
            )
            np.testing.assert_allclose(
                dy.fdyn(robot, q, qd, qdd, GRAVITY), pin.aba(model, data, q, qd, qdd), atol=TOL, err_msg="fdyn " + tag
            )
            np.testing.assert_allclose(
                dy.kinetic_energy(robot, q, qd),
                pin.computeKineticEnergy(model, data, q, qd),
                atol=TOL,
                err_msg="kinetic energy " + tag,
            )


def test_rne_with_a_tip_wrench_equals_pinocchio_external_force_and_jt_f():
    rng = np.random.default_rng(2)
    for robot in ROBOTS[::3]:
        model, data, ee = _pin(robot)
        q = random_q(rng, robot, 1)[0]
        qd, qdd = rng.normal(size=(2, robot.n))
        F = rng.normal(size=6)  # exerted by the tip on the environment, tool frame
        # pinocchio takes forces acting ON each joint's body, in the joint frame: the reaction −F
        pin.framesForwardKinematics(model, data, q)
        frame = model.frames[ee]
        X = frame.placement  # tool frame in its parent joint frame
        f_on_body = X.act(pin.Force(-F[:3], -F[3:]))
        fext = [pin.Force.Zero() for _ in range(model.njoints)]
        fext[frame.parentJoint] = f_on_body
        ref = pin.rnea(model, data, q, qd, qdd, fext)
        np.testing.assert_allclose(dy.rne(robot, q, qd, qdd, GRAVITY, f_tip=F), ref, atol=TOL)
        np.testing.assert_allclose(
            dy.rne(robot, q, np.zeros(robot.n), np.zeros(robot.n), (0, 0, 0), f_tip=F), robot.jacobe(q).T @ F, atol=TOL
        )


def test_rne_equals_roboticstoolbox_rne():
    rng = np.random.default_rng(3)
    # Revolute joints only: with prismatic joints RTB 1.x's rne disagrees even at rest (by up to ~40 N·m
    # here), while pinocchio agrees with us to 1e-13 (test above) — a bug on RTB's side.
    robots = [random_inertial(rng, r) for r in random_robots(7, 6, with_base_tool=False, prismatic_prob=0.0)]
    for robot in robots:  # RTB takes gravity in its base frame: no base transform here
        r = to_rtb(robot)
        for link, L in zip(r.links, robot.links):
            link.m, link.r, link.I = L.m, np.array(L.r), np.array(L.I)
            link.Jm, link.G, link.B, link.Tc = 0.0, 1.0, 0.0, np.zeros(2)  # no motor inertia or friction
        q = random_q(rng, robot, 1)[0]
        qd, qdd = rng.normal(size=(2, robot.n))
        np.testing.assert_allclose(dy.rne(robot, q, qd, qdd, GRAVITY), r.rne(q, qd, qdd, gravity=GRAVITY), atol=1e-8)


def test_batched_equals_looped():
    robot = ROBOTS[5]
    rng = np.random.default_rng(4)
    Q = random_q(rng, robot, 6).reshape(2, 3, robot.n)
    QD, QDD = rng.normal(size=(2, 2, 3, robot.n))
    tau, M, C = dy.rne(robot, Q, QD, QDD, GRAVITY), dy.inertia(robot, Q), dy.coriolis(robot, Q, QD)
    for idx in np.ndindex(2, 3):
        np.testing.assert_allclose(tau[idx], dy.rne(robot, Q[idx], QD[idx], QDD[idx], GRAVITY), atol=1e-13)
        np.testing.assert_allclose(M[idx], dy.inertia(robot, Q[idx]), atol=1e-13)
        np.testing.assert_allclose(C[idx], dy.coriolis(robot, Q[idx], QD[idx]), atol=1e-13)
    K = dy.kinetic_energy(robot, Q, QD)
    assert K.shape == (2, 3)
    np.testing.assert_allclose(K, 0.5 * np.einsum("...i,...ij,...j->...", QD, M, QD), atol=1e-13)


def test_symbolic_equals_numeric():
    robot = ROBOTS[2]
    rng = np.random.default_rng(5)
    q, qd, qdd = random_q(rng, robot, 1)[0], *rng.normal(size=(2, robot.n))
    sym = dy.rne(robot, list(sp.Matrix(q)), list(sp.Matrix(qd)), list(sp.Matrix(qdd)), list(sp.Matrix(GRAVITY)))
    np.testing.assert_allclose(
        np.array(sym.evalf(), dtype=float).ravel(), dy.rne(robot, q, qd, qdd, GRAVITY), atol=1e-10
    )


def test_coriolis_on_symbols_equals_the_numeric_christoffel_form_lab_report_2_71():
    """C from sympy's derivatives of M (symbols) and from CasADi's (numbers) agree, at a point given as
    symbols and substituted afterwards, and at one given as sympy numbers."""
    robot = next(r for r in ROBOTS if r.n == 3)
    rng = np.random.default_rng(6)
    q, qd = random_q(rng, robot, 1)[0], rng.normal(size=robot.n)
    x, v = sp.symbols(f"x:{robot.n}"), sp.symbols(f"v:{robot.n}")
    C = dy.coriolis(robot, list(x), list(v)).subs({**dict(zip(x, q)), **dict(zip(v, qd))})
    np.testing.assert_allclose(np.array(C.evalf(), dtype=float), dy.coriolis(robot, q, qd), atol=1e-10)
    C = dy.coriolis(robot, list(sp.Matrix(q)), list(sp.Matrix(qd)))
    np.testing.assert_allclose(np.array(C.evalf(), dtype=float), dy.coriolis(robot, q, qd), atol=1e-10)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, len(ROBOTS) - 1), st.integers(0, 2**32 - 1))
def test_properties_m_spd_mdot_minus_2c_skew_energy_balance(i, seed):
    robot = ROBOTS[i]
    rng = np.random.default_rng(seed)
    q = random_q(rng, robot, 1)[0]
    qd, tau = rng.normal(size=(2, robot.n))
    M = dy.inertia(robot, q)
    assert np.allclose(M, M.T, atol=1e-12) and np.linalg.eigvalsh(M).min() > 0
    h = 1e-6
    Mdot = (dy.inertia(robot, q + h * qd) - dy.inertia(robot, q - h * qd)) / (2 * h)
    S = Mdot - 2 * dy.coriolis(robot, q, qd)
    assert np.allclose(S, -S.T, atol=1e-6)
    # dE/dt = q̇ᵀτ along the motion q̈ = fdyn(q, q̇, τ)
    qdd = dy.fdyn(robot, q, qd, tau, GRAVITY)

    def energy(qq, vv):
        return dy.kinetic_energy(robot, qq, vv) + dy.potential_energy(robot, qq, GRAVITY)

    dE = (energy(q + h * qd, qd + h * qdd) - energy(q - h * qd, qd - h * qdd)) / (2 * h)
    assert np.isclose(dE, qd @ tau, atol=1e-6, rtol=1e-6)


def test_gravity_load_is_the_statics_gravity_load():
    """One gravity load: statics re-exports dynamics.gravload; gravity is a keyword defaulting to GRAVITY."""
    assert statics.gravity_load is dy.gravload
    robot = ROBOTS[0]
    q = np.zeros(robot.n)
    from armlab._core.constants import GRAVITY as STANDARD

    np.testing.assert_array_equal(dy.gravload(robot, q), dy.gravload(robot, q, gravity=STANDARD))
    np.testing.assert_array_equal(dy.gravload(robot, q, gravity=None), np.zeros(robot.n))  # None: no gravity
    with pytest.raises(TypeError):
        dy.gravload(robot, q, GRAVITY)  # keyword only
    rng = np.random.default_rng(6)
    for robot in ROBOTS[::5]:
        Q = random_q(rng, robot, 4)
        np.testing.assert_allclose(
            statics.gravity_load(robot, Q, gravity=GRAVITY), dy.gravload(robot, Q, gravity=GRAVITY), atol=1e-12
        )


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda r: dy.rne(r, np.zeros(2), np.zeros(3), np.zeros(3)), r"q must have 3 joint values"),
        (lambda r: dy.rne(r, np.zeros(3), [0, np.inf, 0], np.zeros(3)), "qd contains NaN or infinity"),
        (lambda r: dy.inertia(r, np.full(3, 1j)), "real numbers"),
        (lambda r: dy.gravload(r, np.zeros(3), gravity=(0, 9.81)), r"gravity must have shape"),
        (lambda r: dy.rne(r, np.zeros(3), np.zeros(3), np.zeros(3), f_tip=np.zeros(5)), r"f_tip must have shape"),
        (lambda r: dy.inertia(armlab.models.rpr(), np.zeros(3)), "has no link masses"),
    ],
)
def test_bad_input_gets_a_clear_error(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call(ROBOTS[[r.n for r in ROBOTS].index(3)])


@pytest.mark.parametrize(
    "I, match",
    [
        (np.diag([1.0, 1.0, -0.1]), "positive"),
        (np.diag([0.1, 0.1, 0.5]), "triangle"),
        (np.array([[1.0, 0.2, 0], [0.1, 1.0, 0], [0, 0, 1.0]]), "symmetric"),
    ],
)
def test_physically_invalid_inertia_is_rejected(I, match):
    with pytest.raises(ValueError, match=match):
        armlab.DHLink(a=1.0, m=1.0, I=I)
