"""manipulability means Yoshikawa's w = √det(J_p·J_pᵀ) under two names, one per kind of first argument
(issue #19 §5): jacobians.manipulability(robot, q, part) and jacobians.manipulability_of_J(J, part)."""

import warnings

import numpy as np
import pytest

from armlab import jacobians as jb
from armlab.jacobians import analysis
from armlab.models import planar2r, puma560


def test_yoshikawa_w_from_a_robot_and_from_its_jacobian_agree():
    robot = puma560()
    Q = np.random.default_rng(5).uniform(-np.pi, np.pi, (20, 6))
    for part in ("trans", "rot"):
        w = jb.manipulability(robot, Q, part)
        np.testing.assert_allclose(w, jb.manipulability_of_J(robot.jacob0(Q), part), rtol=1e-12)
        np.testing.assert_allclose(w, robot.manipulability(Q, part=part), rtol=1e-12)
        Jp = robot.jacob0(Q)[:, :3] if part == "trans" else robot.jacob0(Q)[:, 3:]
        np.testing.assert_allclose(w, np.sqrt(np.linalg.det(Jp @ np.swapaxes(Jp, -1, -2))), rtol=1e-9)


def test_planar_2r_w_is_l1_l2_sin_theta2():
    arm = planar2r(0.4, 0.7)
    assert jb.manipulability(arm, [0.3, 1.1]) == pytest.approx(0.28 * np.sin(1.1), rel=1e-12)


def test_old_analysis_name_still_works_with_a_deprecation_warning():
    J = puma560().jacob0(np.full(6, 0.3))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        old = analysis.manipulability
    assert old is jb.manipulability_of_J
    assert any(issubclass(w.category, DeprecationWarning) and "manipulability_of_J" in str(w.message) for w in caught)
    assert old(J) == jb.manipulability_of_J(J)
    with pytest.raises(AttributeError):
        analysis.no_such_name  # noqa: B018


def test_joint_arguments_go_through_the_one_validator():
    robot = puma560()
    with pytest.raises(TypeError, match="q must be real"):
        jb.manipulability(robot, [0, 0, 0, 0, 0, 1j])
    with pytest.raises(ValueError, match="q must have 6 joint values"):
        jb.jacob_velocity(robot, [0.0] * 5)
    with pytest.raises(ValueError, match="qd contains NaN"):
        jb.jdot(robot, np.zeros(6), [0, 0, 0, 0, 0, np.nan])
    with pytest.raises(TypeError, match="q0 must be"):
        jb.resolved_rate(robot, ["0"] * 6, lambda t, q: np.zeros(6), 0.1, 0.01)
    with pytest.raises(ValueError, match="q must have 6 joint values"):
        jb.singularity_conditions(robot, np.zeros(7))


def test_resolved_rate_result_has_ok_and_reason():
    arm = planar2r(0.5, 0.5)
    done = jb.resolved_rate(
        arm, [0.3, 1.2], lambda t, q: np.r_[0.05, 0.0, 0, 0, 0, 0], 0.2, 0.01, part="all", give_up_error=np.inf
    )
    assert done.ok and done.reason == "" and not done.gave_up
    # straight out to full reach: the elbow singularity stops it
    stuck = jb.resolved_rate(arm, [0.0, 0.5], lambda t, q: np.r_[1.0, 0.0, 0.0], 3.0, 0.01, part="trans")
    assert not stuck.ok and stuck.gave_up and "singular" in stuck.reason
