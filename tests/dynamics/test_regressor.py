"""The regressor form τ = ξ·χ (lab report (2.53)–(2.56)) and its extension ξ̄·χ̄ (2.64)–(2.67)."""

from __future__ import annotations

import numpy as np
import pinocchio as pin
import sympy as sp

import armlab
from armlab.dynamics import params as R
from support import random_inertial, random_q, random_robots, to_pin

RNG = np.random.default_rng(77)
ROBOTS = [random_inertial(RNG, r) for r in random_robots(77, 12)]
GRAVITY = np.array([0.3, -0.5, -9.81])


def test_eq_2_53_xi_chi_equals_rne_for_the_youbot_and_random_arms():
    rng = np.random.default_rng(1)
    for robot in [armlab.models.youbot(), armlab.models.puma560()] + ROBOTS:
        Q = random_q(rng, robot, 4)
        QD, QDD = rng.normal(size=(2, 4, robot.n))
        xi = R.regressor(robot, Q, QD, QDD, GRAVITY)
        assert xi.shape == (4, robot.n, 10 * robot.n)
        np.testing.assert_allclose(xi @ R.dynamic_params(robot), robot.rne(Q, QD, QDD, GRAVITY), atol=1e-9)
        for k in range(4):
            np.testing.assert_allclose(R.regressor(robot, Q[k], QD[k], QDD[k], GRAVITY), xi[k], atol=1e-12)


def test_eq_2_55_xi_is_block_upper_triangular():
    """ξ_{j,i} = 0 for j > i, (2.51): joint j is not moved by the parameters of links before it."""
    robot = armlab.models.youbot()
    xi = R.regressor(robot, *np.random.default_rng(2).normal(size=(3, 5)))
    for j in range(5):
        assert np.all(xi[j, : 10 * j] == 0)


def test_pinocchio_joint_torque_regressor_after_mapping_parameter_orders():
    """pinocchio's dynamic parameters are (m, m·c, Ixx, Ixy, Iyy, Ixz, Iyz, Izz) about the joint frame;
    ours (2.54) are (m, m·c, Ixx, Iyy, Izz, Ixy, Ixz, Iyz) about the DH frame: same τ."""
    rng = np.random.default_rng(3)
    for robot in ROBOTS[:6]:
        model, _, _ = to_pin(robot)
        model.gravity.linear = GRAVITY
        data = model.createData()
        q = random_q(rng, robot, 1)[0]
        qd, qdd = rng.normal(size=(2, robot.n))
        Y = pin.computeJointTorqueRegressor(model, data, q, qd, qdd)
        pi = np.concatenate([model.inertias[j].toDynamicParameters() for j in range(1, model.njoints)])
        np.testing.assert_allclose(Y @ pi, R.regressor(robot, q, qd, qdd, GRAVITY) @ R.dynamic_params(robot), atol=1e-9)
        # the same reorder, parameter by parameter, for a modified-DH robot (DH frame = joint frame)
        if robot.modified:
            order = [0, 1, 2, 3, 4, 6, 9, 5, 7, 8]  # ours in terms of pinocchio's indices
            mapped = np.concatenate([pi[10 * k : 10 * k + 10][order] for k in range(robot.n)])
            np.testing.assert_allclose(mapped, R.dynamic_params(robot), atol=1e-12)


def test_regressor_full_adds_actuator_inertia_and_friction_columns():
    robot = armlab.models.youbot()
    rng = np.random.default_rng(4)
    q, qd, qdd = rng.normal(size=(3, 5))
    chi = R.dynamic_params(robot)
    Ia, fv, fc, foff = rng.uniform(0.01, 0.1, (4, 5))
    chibar = np.concatenate([np.r_[chi[10 * i : 10 * i + 10], Ia[i], fv[i], fc[i], foff[i]] for i in range(5)])
    tau_e = robot.rne(q, qd, qdd) + Ia * qdd + fv * qd + fc * np.sign(qd) + foff  # (2.63)
    np.testing.assert_allclose(R.regressor_full(robot, q, qd, qdd) @ chibar, tau_e, atol=1e-12)


def test_symbolic_regressor_equals_numeric():
    robot = armlab.models.planar2r(0.7, 0.4, 1.5, 0.8)
    q, qd, qdd = [0.3, -0.6], [1.1, 0.4], [-0.2, 0.9]
    sym = R.regressor(robot, [sp.Float(x) for x in q], qd, qdd)
    np.testing.assert_allclose(np.array(sym.evalf(), dtype=float), R.regressor(robot, q, qd, qdd), atol=1e-12)
