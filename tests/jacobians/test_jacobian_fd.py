"""Geometric Jacobians jacob0 / jacobe against central finite differences of fkine.

Column j of J0: linear part ∂p/∂q_j, angular part ω = vee(Ṙ·Rᵀ) with Ṙ = ∂R/∂q_j
(textbook: ω from Ṙ = S(ω)·R, S of eq. (3.87)); for Je both are expressed in
the end-effector frame: Rᵀ·∂p/∂q_j and vee(Rᵀ·Ṙ).

Tolerance: central differences have truncation error ~h²·|∂³T/∂q³|/6 and
round-off ~eps·|T|/h. With h = 1e-6 and lengths ≲ 3 m that is ~1e-12 + ~1e-10,
so 1e-7 is a safe bound that still catches any wrong column, sign or frame.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from support import COURSE_MODELS, fd_jacobians, random_q, random_robots

H = 1e-6
FD_TOL = 1e-7  # finite-difference bound, see module docstring


def _check(robot, q_batch):
    for q in q_batch:
        J0_fd, Je_fd = fd_jacobians(robot.fkine, q, H)
        tag = f"{robot!r}\nq = {q!r}"
        np.testing.assert_allclose(robot.jacob0(q), J0_fd, rtol=0, atol=FD_TOL, err_msg="jacob0 " + tag)
        np.testing.assert_allclose(robot.jacobe(q), Je_fd, rtol=0, atol=FD_TOL, err_msg="jacobe " + tag)


@pytest.mark.parametrize("convention", ["standard", "modified"])
def test_jacobians_match_finite_differences_on_random_robots(convention):
    seed = {"standard": 7, "modified": 8}[convention]
    robots = random_robots(seed, 25, conventions=(convention,), prismatic_prob=0.4)
    assert any("P" in r.joint_types for r in robots)
    rng = np.random.default_rng(seed + 100)
    for robot in robots:  # 25 robots × 8 configurations per convention
        _check(robot, random_q(rng, robot, 8))


@pytest.mark.parametrize("name", sorted(COURSE_MODELS))
def test_jacobians_match_finite_differences_on_course_model(name):
    robot = COURSE_MODELS[name]()
    _check(robot, random_q(np.random.default_rng(zlib.crc32(name.encode())), robot, 25))


def test_finite_difference_check_detects_a_wrong_jacobian():
    """The check has teeth: swapping two columns of a correct Jacobian fails it."""
    robot = COURSE_MODELS["puma560"]()
    q = random_q(np.random.default_rng(1), robot)
    J0_fd, _ = fd_jacobians(robot.fkine, q, H)
    J = robot.jacob0(q)[:, [1, 0, 2, 3, 4, 5]]
    assert np.abs(J - J0_fd).max() > 1e-3
