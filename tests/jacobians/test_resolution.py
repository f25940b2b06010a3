"""Spatial resolution and accuracy from the joint encoders (textbook §3.5.2, Fig. 3.15):
armlab.jacobians.joint_resolution and tip_resolution against lever arms, brute force and fkine."""

import itertools

import numpy as np
import pytest

from armlab import jacobians as jb
from armlab.models import YOUBOT_ACTUATORS, planar2r, puma560, youbot


def test_section_3_5_2_joint_resolution_is_one_count_of_the_motor_encoder():
    # youBot: 4000 encoder ticks per motor revolution (KUKA's driver), gears 156, 156, 100, 71, 71
    steps = jb.joint_resolution(4000, YOUBOT_ACTUATORS["gear"])
    np.testing.assert_allclose(steps * 4000 * np.array([156, 156, 100, 71, 71]), 2 * np.pi, rtol=1e-15)
    assert jb.joint_resolution(1000, [-62.6111])[0] == pytest.approx(2 * np.pi / 62611.1)  # a negative gear ratio
    with pytest.raises(ValueError, match="counts_per_rev and gear must be non-zero"):
        jb.joint_resolution(0, [100])


def test_section_3_5_2_one_count_moves_the_tip_by_the_lever_arm():
    """Planar 2R: joint i's column of J_v is z × (tip − joint i), so one count moves the tip by the
    distance from the joint to the tip times the count."""
    arm = planar2r(1.0, 0.6)
    rng = np.random.default_rng(0)
    Q = rng.uniform(-3, 3, (50, 2))
    r = jb.tip_resolution(arm, Q, [2e-5, 3e-5])
    tip = arm.fkine(Q)[:, :2, 3]
    elbow = arm.fkine_all(Q)[:, 1, :2, 3]
    np.testing.assert_allclose(r.step[:, 0], np.linalg.norm(tip, axis=1) * 2e-5, rtol=1e-12)
    np.testing.assert_allclose(r.step[:, 1], np.linalg.norm(tip - elbow, axis=1) * 3e-5, rtol=1e-12)
    np.testing.assert_allclose(r.finest, r.step.min(1))
    np.testing.assert_allclose(r.coarsest, r.step.max(1))
    assert r.worst.shape == (50,) and r.step.shape == (50, 2)


@pytest.mark.parametrize("make", [puma560, youbot], ids=["puma560", "youbot"])
def test_fig_3_15_rounding_every_joint_misses_by_at_most_worst(make):
    """worst = max ‖J_v δq‖ over |δq_i| ≤ Δ_i/2: no sampled rounding error exceeds it, a corner reaches it,
    and fkine agrees with the first-order J_v δq to 1e-4 relative at that corner."""
    robot = make()
    rng = np.random.default_rng(1)
    step = jb.joint_resolution(1000, np.full(robot.n, 80.0))
    for q in rng.uniform(*robot.qlim.T, (5, robot.n)):
        r = jb.tip_resolution(robot, q, step)
        Jv = robot.jacob0(q)[:3]
        sampled = rng.uniform(-0.5, 0.5, (4000, robot.n)) * step
        assert np.linalg.norm(sampled @ Jv.T, axis=1).max() <= r.worst * (1 + 1e-12)
        corners = np.array(list(itertools.product((-0.5, 0.5), repeat=robot.n))) * step
        best = corners[np.argmax(np.linalg.norm(corners @ Jv.T, axis=1))]
        assert np.linalg.norm(Jv @ best) == pytest.approx(r.worst, rel=1e-12)
        moved = np.linalg.norm(robot.fkine(q + best)[:3, 3] - robot.fkine(q)[:3, 3])
        assert moved == pytest.approx(r.worst, rel=1e-4)


def test_bad_input_gets_a_clear_error():
    with pytest.raises(ValueError, match=r"joint_step must have shape \(2,\)"):
        jb.tip_resolution(planar2r(), [0, 0], [1e-4])
    with pytest.raises(ValueError, match="joint_step must hold 2 positive increments"):
        jb.tip_resolution(planar2r(), [0, 0], [1e-4, 0.0])
    with pytest.raises(ValueError, match="q must have 2 joint values"):
        jb.tip_resolution(planar2r(), [0, 0, 0], [1e-4, 1e-4])
