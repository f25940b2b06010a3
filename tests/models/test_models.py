"""The course's robot models against their source tables and check poses."""

import numpy as np
import pytest
import sympy as sp

from armlab.models import (
    YOUBOT_DRIVER,
    planar2r,
    planar3r,
    puma560,
    puma560_standard,
    youbot,
    youbot_driver_to_q,
    youbot_q_to_driver,
)

rng = np.random.default_rng(2024)


def test_table_3_2_joint_ranges_in_radians():
    lim = np.degrees(puma560().qlim)
    # θ3: Table 3.2 prints −45°…225° in Lee's θ3 (= this θ3 + 180°), see test_table_3_2_theta3_range_is_lees_theta3…
    assert np.allclose(lim, [[-160, 160], [-225, 45], [-225, 45], [-110, 170], [-100, 100], [-266, 266]])


def test_puma560_standard_equals_modified():
    Q = rng.uniform(-np.pi, np.pi, (500, 6))
    assert np.allclose(puma560().fkine(Q), puma560_standard().fkine(Q), atol=1e-12)
    assert np.allclose(puma560(flange=True).fkine(Q), puma560_standard(flange=True).fkine(Q), atol=1e-12)
    # Same end-effector velocity map too (both Jacobians are about the same point).
    assert np.allclose(puma560().jacob0(Q), puma560_standard().jacob0(Q), atol=1e-12)
    # but different intermediate frames: standard frame i sits on joint axis i+1
    assert not np.allclose(puma560().fkine_all(Q[0])[2], puma560_standard().fkine_all(Q[0])[2])


def test_puma560_standard_symbolic_equals_modified():
    q = sp.symbols("q1:7")
    diff = puma560(symbolic=True).fkine(q) - puma560_standard(symbolic=True).fkine(q)
    assert diff.applyfunc(lambda e: sp.expand(sp.expand_trig(e))) == sp.zeros(4, 4)


def test_lab_report_eq_2_7_youbot_check_pose():
    T = youbot().fkine([0, 0, 0, np.pi / 2, 0])
    assert np.allclose(T[:3, :3], np.diag([-1, -1, 1]), atol=1e-12)
    assert np.allclose(T[:3, 3], [0.033, 0, 0.655], atol=1e-12)  # 0.147 + 0.155 + 0.135 + 0.218


def test_lab_report_table_2_1_youbot_parameters():
    robot = youbot()
    assert robot.convention == "standard"
    assert [lk.a for lk in robot.links] == [0.033, 0.155, 0.135, 0.0, 0.0]
    assert [lk.d for lk in robot.links] == [0.147, 0.0, 0.0, 0.0, 0.218]
    assert np.allclose([lk.alpha for lk in robot.links], [np.pi / 2, 0, 0, np.pi / 2, 0])
    assert np.allclose([lk.offset for lk in robot.links], [0, np.pi / 2, 0, 0, 0])


def test_youbot_candle_is_the_driver_candle():
    assert np.allclose(youbot_driver_to_q(YOUBOT_DRIVER["candle"]), [0, 0, 0, np.pi / 2, 0])
    q = rng.uniform(-2, 2, (20, 5))
    assert np.allclose(youbot_driver_to_q(youbot_q_to_driver(q)), q)


def test_youbot_limits_are_driver_limits_in_dh_angles():
    robot = youbot()
    lo, hi = robot.qlim.T
    # Every driver axis turns the other way, so the driver's upper limit maps to the lower one.
    assert np.allclose(lo, youbot_driver_to_q(YOUBOT_DRIVER["upper"]))
    assert np.allclose(hi, youbot_driver_to_q(YOUBOT_DRIVER["lower"]))
    assert np.all(lo < hi)
    assert robot.within_limits([0, 0, 0, np.pi / 2, 0])  # the candle is inside
    # the folded home pose is inside the driver limits, hence inside ours
    home = youbot_driver_to_q([0.0100693, 0.0100693, -0.015708, 0.0221239, 0.11062])
    assert robot.within_limits(home)


def test_planar2r_matches_closed_form():
    l1, l2 = 0.7, 0.4
    robot = planar2r(l1, l2)
    Q = rng.uniform(-np.pi, np.pi, (100, 2))
    T = robot.fkine(Q)
    t1, t12 = Q[:, 0], Q.sum(1)
    assert np.allclose(T[:, 0, 3], l1 * np.cos(t1) + l2 * np.cos(t12))
    assert np.allclose(T[:, 1, 3], l1 * np.sin(t1) + l2 * np.sin(t12))
    assert np.allclose(T[:, 2, 3], 0)
    assert [lk.m for lk in robot.links] == [1.0, 1.0]


def test_planar3r_orientation_is_angle_sum():
    robot = planar3r(1.0, 0.8, 0.3)
    q = np.array([0.3, -0.7, 1.1])
    T = robot.fkine(q)
    phi = q.sum()
    assert np.allclose(T[:2, :2], [[np.cos(phi), -np.sin(phi)], [np.sin(phi), np.cos(phi)]])


def test_planar2r_symbolic_lengths():
    l1, l2, t1, t2 = sp.symbols("l1 l2 theta1 theta2")
    T = planar2r(l1, l2).fkine([t1, t2])
    assert sp.simplify(T[0, 3] - (l1 * sp.cos(t1) + l2 * sp.cos(t1 + t2))) == 0


@pytest.mark.parametrize("make", [puma560, puma560_standard, youbot, planar2r, planar3r])
def test_models_have_names_limits_and_docstrings(make):
    robot = make()
    assert robot.name and make.__doc__
    assert robot.qlim.shape == (robot.n, 2)
    assert np.all(np.isfinite(robot.qlim))
    assert robot.name in repr(robot)
