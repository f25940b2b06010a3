"""Numeric IK (damped least squares / Levenberg–Marquardt on jacob0), armlab.ik_numeric.

* converges on random reachable targets from random starts, within the iteration bound, for the
  PUMA560, the youBot (full pose and position only), planar arms and the Stanford arm (prismatic);
* respects joint limits, is deterministic for a given q0 and seed;
* fails cleanly (success False, empty q, reason, finite best_q, bounded iterations) on unreachable targets;
* agrees with the closed form: the numeric answer is one of ikine_all's solutions.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import armlab
from armlab.ik import wrap_angle
from armlab.ik.numeric import pose_error


def random_q(robot, rng, k=None):
    lim = robot.qlim
    lo = np.where(np.isfinite(lim[:, 0]), lim[:, 0], -math.pi)
    hi = np.where(np.isfinite(lim[:, 1]), lim[:, 1], math.pi)
    return rng.uniform(lo, hi, None if k is None else (k, robot.n))


def test_pose_error_is_position_and_axis_angle():
    T = armlab.Trans(1, 2, 3) @ armlab.Rot("z", 0.3)
    target = armlab.Trans(1.5, 2, 3) @ armlab.Rot("x", 0.2) @ armlab.Rot("z", 0.3)
    e = pose_error(T, target)
    assert np.allclose(e, [0.5, 0, 0, 0.2, 0, 0])
    flipped = T.copy()
    flipped[:3, :3] = T[:3, :3] @ armlab.R("y", math.pi)  # θ = π: the axis from the symmetric part
    e = pose_error(T, flipped)
    assert np.linalg.norm(e[3:]) == pytest.approx(math.pi)


def test_puma560_converges_from_random_starts_within_limits():
    robot = armlab.models.puma560()
    rng = np.random.default_rng(0)
    for i in range(12):
        T = robot.fkine(random_q(robot, rng))
        sol = robot.ikine_numeric(T, q0=random_q(robot, rng), seed=i)
        assert sol.success, sol.reason
        assert sol.q.shape == (1, 6) and sol.iterations <= (sol.searches) * 100
        assert sol.residual[0] <= 1e-10 and sol.residual[1] <= 1e-10
        assert np.abs(robot.fkine(sol.q[0]) - T).max() < 1e-9
        assert robot.within_limits(sol.q[0]) and sol.within_limits[0]
        # it is one of the closed-form solutions
        closed = robot.ikine_all(T, q0=sol.q[0])
        assert np.abs(wrap_angle(closed.q - sol.q[0])).max(axis=1).min() < 1e-6


def test_without_limits_one_search_is_enough_and_few_iterations():
    robot = armlab.models.puma560()
    rng = np.random.default_rng(1)
    for i in range(10):
        T = robot.fkine(random_q(robot, rng))
        sol = robot.ikine_numeric(T, q0=random_q(robot, rng), joint_limits=False, restarts=0)
        assert sol.success and sol.searches == 1 and sol.iterations <= 100


def test_deterministic_for_a_given_start_and_seed():
    robot = armlab.models.puma560()
    T = robot.fkine([0.3, -2.5, 2.9, 0.2, 0.6, -0.1])
    a = robot.ikine_numeric(T, q0=np.zeros(6), seed=7)
    b = robot.ikine_numeric(T, q0=np.zeros(6), seed=7)
    assert np.array_equal(a.q, b.q) and a.iterations == b.iterations and a.searches == b.searches


def test_unreachable_fails_cleanly():
    robot = armlab.models.puma560()
    sol = robot.ikine_numeric(armlab.Trans(1.5, 0.0, 0.2), q0=np.zeros(6), max_iter=50, restarts=3)
    assert not sol.success and not sol.reachable
    assert "did not converge" in sol.reason and "out of reach" in sol.reason
    # an explained empty result (the closest attempt is kept in best_q, finite)
    assert sol.q.shape == (0, 6) and len(sol) == 0
    assert np.isfinite(sol.best_q).all() and sol.best_q.shape == (6,)
    assert sol.searches == 4 and sol.iterations <= 4 * 50
    # no configuration comes nearer than the reach of the wrist centre, 0.8781 m (3.42)
    assert 1.5 - 0.8781 - 1e-3 <= sol.residual[0] < 1.0


def test_youbot_full_pose_and_position_only():
    robot = armlab.models.youbot()
    rng = np.random.default_rng(2)
    for i in range(8):
        T = robot.fkine(random_q(robot, rng))
        full = robot.ikine_numeric(T, q0=random_q(robot, rng), mask=(1, 1, 1, 1, 1, 1), seed=i)
        assert full.success and np.abs(robot.fkine(full.q[0]) - T).max() < 1e-9
        pos = robot.ikine_numeric(T, q0=random_q(robot, rng), seed=i)  # default mask for 5 joints: position
        assert pos.success and np.abs(robot.fkine(pos.q[0])[:3, 3] - T[:3, 3]).max() < 1e-9
    # an orientation the 5-DOF arm cannot take: the full-pose solve fails, position only succeeds
    T = armlab.Trans(0.25, 0.1, 0.25) @ armlab.Rot("y", 2.5) @ armlab.Rot("x", 0.4)
    assert not robot.ikine_numeric(T, mask=(1, 1, 1, 1, 1, 1), max_iter=50, restarts=2).success
    assert robot.ikine_numeric(T, mask=(1, 1, 1, 0, 0, 0)).success


@pytest.mark.parametrize("make", [armlab.models.planar2r, armlab.models.planar3r])
def test_planar_arms_default_mask(make):
    robot = make()
    rng = np.random.default_rng(3)
    for i in range(8):
        T = robot.fkine(random_q(robot, rng))
        sol = robot.ikine_numeric(T, q0=random_q(robot, rng), seed=i)
        assert sol.success
        got = robot.fkine(sol.q[0])
        assert np.abs(got[:2, 3] - T[:2, 3]).max() < 1e-9
        if robot.n == 3:
            assert np.allclose(got, T, atol=1e-9)
    sol = robot.ikine_numeric(armlab.Trans(5, 0, 0), max_iter=30, restarts=2)
    assert not sol.success and sol.reason


def test_stanford_arm_with_a_prismatic_joint():
    robot = armlab.models.stanford_arm()
    rng = np.random.default_rng(4)
    for i in range(6):
        q = rng.uniform(-2, 2, 6)
        q[2] = rng.uniform(0.2, 0.9)
        T = robot.fkine(q)
        sol = robot.ikine_numeric(T, q0=np.r_[0, 0, 0.5, 0, 0, 0], seed=i)
        assert sol.success and np.abs(robot.fkine(sol.q[0]) - T).max() < 1e-9
        assert 0.0 <= sol.q[0, 2] <= 1.0


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"mask": (0, 0, 0, 0, 0, 0)}, "mask"),
        ({"mask": (1, 1)}, "mask"),
        ({"max_iter": -1}, "max_iter"),
        ({"q0": [0, 0]}, "q0"),
    ],
)
def test_bad_arguments(kw, match):
    with pytest.raises(ValueError, match=match):
        armlab.models.puma560().ikine_numeric(np.eye(4), **kw)
