"""The static mapping τ = JᵀF (statics chapter §5.3.2, Fig. 5.6): armlab.statics.static_mapping's range τ₁,
its complement τ₂ and the null space F₁ of Jᵀ, checked against their definitions."""

import numpy as np
import pytest

import armlab
from armlab import statics
from armlab.models import planar2r, puma560


def _check_subspaces(J, m):
    """The columns are orthonormal, span what they claim, and split the two spaces."""
    rows, n = J.shape
    assert (
        m.range.shape == (n, m.rank) and m.complement.shape == (n, n - m.rank) and m.null.shape == (rows, rows - m.rank)
    )
    basis = np.hstack([m.range, m.complement])
    np.testing.assert_allclose(basis.T @ basis, np.eye(n), atol=1e-12)  # τ₁ ⊕ τ₂ = joint space
    np.testing.assert_allclose(J.T @ m.null, 0.0, atol=1e-9)  # F₁ needs no torque
    np.testing.assert_allclose(J @ m.complement, 0.0, atol=1e-9)  # τ₂ ⟂ every JᵀF
    rng = np.random.default_rng(0)
    tau = J.T @ rng.normal(size=rows)  # any balanced torque lies in τ₁
    np.testing.assert_allclose(m.range @ (m.range.T @ tau), tau, atol=1e-9)


def test_fig_5_6_2r_regular_pose_has_no_null_forces():
    J = planar2r(0.5, 0.3).jacob0([0.3, 1.1])[:2]
    m = statics.static_mapping(J)
    _check_subspaces(J, m)
    assert m.rank == 2 and m.null.shape == (2, 0) and m.complement.shape == (2, 0)


@pytest.mark.parametrize("theta1", [0.0, 0.7, -2.0])
def test_fig_5_7_2r_stretched_out_forces_along_the_arm_need_no_torque(theta1):
    arm = planar2r(0.5, 0.3)
    J = arm.jacob0([theta1, 0.0])[:2]
    m = statics.static_mapping(J)
    _check_subspaces(J, m)
    along = np.array([np.cos(theta1), np.sin(theta1)])
    assert m.rank == 1 and abs(abs(m.null[:, 0] @ along) - 1) < 1e-12  # F₁ is the arm's direction
    r = m.range[:, 0] / np.linalg.norm(m.range[:, 0])
    assert abs(abs(r @ np.array([0.8, 0.3]) / np.hypot(0.8, 0.3)) - 1) < 1e-12  # τ₁ ∝ (l1 + l2, l2)
    assert np.abs(statics.joint_torques(arm, [theta1, 0.0], [*(1e6 * m.null[:, 0]), 0, 0, 0, 0])).max() < 1e-9


def test_fig_5_6_redundant_arm_has_torques_no_tip_wrench_balances():
    """n = 7 > m = 6: τ₂ (the chapter's 余量) is one direction even at a regular pose."""
    arm7 = armlab.DHRobot(
        [
            armlab.DHLink(alpha=al, d=d)
            for al, d in (
                (np.pi / 2, 0.34),
                (-np.pi / 2, 0),
                (np.pi / 2, 0.4),
                (-np.pi / 2, 0),
                (np.pi / 2, 0.4),
                (-np.pi / 2, 0),
                (0, 0.13),
            )
        ]
    )
    J = arm7.jacob0(np.radians([10, 40, -20, -60, 30, 50, 0]))
    m = statics.static_mapping(J)
    _check_subspaces(J, m)
    assert (m.rank, m.complement.shape[1], m.null.shape[1]) == (6, 1, 0)


def test_fig_5_6_puma_wrist_singularity_carries_one_wrench():
    q = np.radians([20, -30, -50, 10, 0, 50])  # θ5 = 0: axes 4 and 6 line up
    J = puma560().jacob0(q)
    m = statics.static_mapping(J)
    _check_subspaces(J, m)
    assert (m.rank, m.null.shape[1], m.complement.shape[1]) == (5, 1, 1)


def test_fig_5_6_youbot_has_f1_at_a_regular_pose():
    """m = 6 > n = 5: F₁ = null(Jᵀ) has m − rank J = 1 direction at a regular pose, not only at a singular one."""
    q = np.radians([20, 30, -40, 25, 10])
    J = armlab.models.youbot().jacob0(q)
    m = statics.static_mapping(J)
    _check_subspaces(J, m)
    assert m.singular_values[-1] > 0.01 * m.singular_values[0]  # regular: rank 5, the most a 6×5 J has
    assert (m.rank, m.null.shape[1], m.complement.shape[1]) == (5, 1, 0)


def test_fig_5_6_a_unit_tau2_accelerates_the_stretched_2r():
    """τ₂ is null(J) as a subspace, but its torques do not move the arm "without the tip": at rest the tip
    accelerates at J·M⁻¹·τ₂, 3.1 m/s² for a unit τ₂ on the stretched (0.5 m, 0.3 m; 1 kg, 1 kg) arm; joint
    velocities along τ₂ do not move the tip."""
    arm = planar2r(0.5, 0.3)
    q = np.array([0.4, 0.0])
    J = arm.jacob0(q)[:2]
    tau2 = statics.static_mapping(J).complement[:, 0]
    np.testing.assert_allclose(J @ tau2, 0.0, atol=1e-12)
    tip = J @ np.linalg.solve(arm.inertia(q), tau2)
    assert np.linalg.norm(tip) == pytest.approx(3.121, abs=1e-3)


def test_bad_input_gets_a_clear_error():
    with pytest.raises(ValueError, match=r"J must be one non-empty matrix \(m, n\)"):
        statics.static_mapping(np.zeros((2, 3, 3)))
    with pytest.raises(ValueError, match="J contains NaN"):
        statics.static_mapping([[1.0, np.nan]])
