"""Misprints of the statics chapter (sources/002) in §5.3.1, §5.3.2 and §5.5.2, each recomputed (docs/errata.md
lists them; issue #23 §1). F is what the tip exerts, as in (5-6) (see the Examples 3–5 erratum)."""

import numpy as np
import pytest

from armlab import Rot, Trans, statics
from armlab.models import planar2r, puma560
from armlab.transforms import twist_transform, wrench_transform


def test_section_5_3_1_virtual_displacement_is_delta_q_not_q():
    """§5.3.1 prints the virtual displacement as δq = [q1 q2 ⋯ qn]ᵀ; its components are δq_i (the next line sums
    τ_i δq_i). The joint coordinates are no displacement: moving joint 1's zero by 0.3 rad changes τᵀq, while the
    virtual work τᵀδq = FᵀD of the same physical motion does not change."""
    arm = planar2r(0.5, 0.3)
    moved = arm.replace(
        links=[arm.links[0].replace(offset=0.3), arm.links[1]]
    )  # the same arm, joint 1 read 0.3 rad less
    q = np.array([0.7, 0.9])
    q_moved = q - [0.3, 0.0]
    np.testing.assert_allclose(moved.fkine(q_moved), arm.fkine(q), atol=1e-15)
    F = np.array([2.0, -1.0, 0, 0, 0, 0.4])
    tau, tau_moved = statics.joint_torques(arm, q, F), statics.joint_torques(moved, q_moved, F)
    np.testing.assert_allclose(tau_moved, tau, atol=1e-12)  # the same torques hold the same arm
    dq = np.array([1e-6, -2e-6])
    D = arm.jacob0(q) @ dq
    assert tau @ dq == pytest.approx(F @ D, rel=1e-12) and tau_moved @ dq == pytest.approx(F @ D, rel=1e-12)
    assert tau @ q != pytest.approx(tau_moved @ q_moved, rel=1e-3)  # "τᵀq" depends on where q is counted from


def test_section_5_3_2_given_tau_the_force_is_unique_when_rank_J_is_m():
    """§5.3.2: "对于给定的机器人关节驱动力τ和机器人位形q, 机器人末端作用力F是不唯一的". F is not unique only when
    rank J < m. For the planar 2R (m = n = 2) away from θ2 = 0, π, and for the PUMA560 away from its singular sets,
    Jᵀ is invertible and F = (Jᵀ)⁻¹τ is the only force that τ balances (§5.4 (1))."""
    arm = planar2r(0.5, 0.3)
    tau = np.array([1.0, -0.4])
    for t2 in (0.3, 1.2, -2.0):
        Jt = arm.jacob0([0.4, t2])[:2].T
        assert np.linalg.matrix_rank(Jt) == 2  # no null space: one F
        F = np.linalg.solve(Jt, tau)
        np.testing.assert_allclose(Jt @ F, tau)
    Jt0 = arm.jacob0([0.4, 0.0])[:2].T
    assert np.linalg.matrix_rank(Jt0) == 1  # stretched out: F + N(Jᵀ) all balance the same τ (if any does)
    puma = puma560()
    J = puma.jacob0(np.radians([20, -30, -50, 10, 30, 50]))
    assert np.linalg.matrix_rank(J) == 6
    F = np.array([3.0, -2.0, 5.0, 0.4, -0.1, 0.2])
    np.testing.assert_allclose(np.linalg.solve(J.T, J.T @ F), F, atol=1e-9)


def test_section_5_3_2_at_a_singular_pose_tau_is_still_linear_and_only_null_space_forces_are_free():
    """§5.3.2: at a singular pose "末端作用力与关节平衡驱动力之间不能建立线性映射关系" and "末端作用力都被机器人机构本体
    承受了" (after Fig. 5.7: "都映射到关节驱动力矩的零点上"). The link recursion (5-1)–(5-2) still gives τ = JᵀF, a
    linear map; what is lost is its inverse (rank Jᵀ < m). Only the forces in N(Jᵀ) ⊂ Rᵐ map to τ = 0, the zero of
    Rⁿ, and are borne by the structure; a force across the stretched 2R still costs (l1 + l2, l2)·|F|."""
    arm = planar2r(0.5, 0.3)
    q = np.array([0.6, 0.0])  # stretched out: singular
    rng = np.random.default_rng(532)
    F1, F2 = rng.normal(size=(2, 6)) * [1, 1, 0, 0, 0, 1]
    a, b = 2.5, -0.7
    by_recursion = [statics.link_forces(arm, q, F).tau for F in (F1, F2, a * F1 + b * F2)]
    np.testing.assert_allclose(by_recursion[2], a * by_recursion[0] + b * by_recursion[1], atol=1e-12)  # linear
    np.testing.assert_allclose(by_recursion[0], arm.jacob0(q).T @ F1, atol=1e-12)  # and it is Jᵀ
    Jt = arm.jacob0(q)[:2].T  # the planar rows (f_x, f_y)
    _, s, Vt = np.linalg.svd(Jt)
    null = Vt[-1]  # N(Jᵀ): a vector of the force space R², along the arm
    assert s[-1] < 1e-12 and abs(null @ [np.cos(0.6), np.sin(0.6)]) == pytest.approx(1.0)
    np.testing.assert_allclose(Jt @ (1e6 * null), [0.0, 0.0], atol=1e-6)  # to the zero torque of R²
    across = np.array([-np.sin(0.6), np.cos(0.6)])
    np.testing.assert_allclose(Jt @ across, [0.8, 0.3], atol=1e-12)  # not free
    # and the inverse is what fails: a τ outside R(Jᵀ) is held by no tip force at all
    tau = np.array([1.0, 0.0])
    F, *_ = np.linalg.lstsq(Jt, tau, rcond=None)
    assert np.linalg.norm(Jt @ F - tau) > 0.1


def test_section_5_5_2_a_moment_is_a_vector_in_R3_not_an_element_of_SE3():
    """§5.5.2 (2): "力产生力矩 M = r × F, M ∈ SE(3)". A moment is a vector of R³: moments add, and the sum
    transforms by M^B = R·M^A + P × (R·F^A) like its parts (P: the origin of {A} in {B}). SE(3) is the group of
    rigid motions, 4×4 transforms that compose by products: the sum of two is no rigid motion."""
    T_BA = Trans(0.3, -0.2, 1.0) @ Rot("z", 0.7) @ Rot("x", -0.4)
    R, P = T_BA[:3, :3], T_BA[:3, 3]
    rng = np.random.default_rng(552)
    (r1, F1), (r2, F2) = rng.normal(size=(2, 2, 3))
    M1, M2 = np.cross(r1, F1), np.cross(r2, F2)
    assert M1.shape == (3,)

    def moment_B(M, F):
        return R @ M + np.cross(P, R @ F)

    np.testing.assert_allclose(moment_B(M1 + M2, F1 + F2), moment_B(M1, F1) + moment_B(M2, F2), atol=1e-12)
    np.testing.assert_allclose(wrench_transform(T_BA, [*(F1 + F2), *(M1 + M2)])[3:], moment_B(M1 + M2, F1 + F2))
    S = T_BA + T_BA  # two elements of SE(3) added
    assert S[3, 3] == 2.0 and not np.allclose(S[:3, :3].T @ S[:3, :3], np.eye(3))


def test_section_5_5_3_an_equivalent_wrench_does_the_same_virtual_work():
    """§5.5.3: "根据虚功原理：外力与等效力所做的虚功之和为零，可得 ⁱFᵀ·ⁱD = ʲFᵀ·ʲD (5-7)". A zero sum would be
    ⁱFᵀⁱD = −ʲFᵀʲD and make ⁱF the opposite of the equivalent wrench. The principle gives what (5-7) says: the
    equivalent wrench does the same virtual work as the one it replaces, for every virtual motion of the body;
    it is the wrench and the opposite of its equivalent whose works sum to zero (they balance)."""
    T_ij = Trans(0.3, -0.2, 0.5) @ Rot("z", 0.7) @ Rot("x", -0.4)  # {j} in {i}
    jF = np.array([2.0, -1.0, 0.5, 0.3, 0.1, -0.2])  # (f, m) at {j}'s origin, in {j}
    iF = wrench_transform(T_ij, jF)  # (5-8): the equivalent wrench at {i}'s origin, in {i}
    for iD in np.random.default_rng(553).normal(size=(5, 6)) * 1e-3:  # (d, δ) of the body at {i}'s origin
        jD = twist_transform(np.linalg.inv(T_ij)) @ iD  # the same motion at {j}'s origin, in {j}
        assert iF @ iD == pytest.approx(jF @ jD, rel=1e-12)  # (5-7)
        assert abs(iF @ iD + jF @ jD) > 1e-6  # the printed "sum is zero" does not hold
        assert (-iF) @ iD + jF @ jD == pytest.approx(0.0, abs=1e-15)


def test_eq_5_9_force_transformation_matrix_repeats_5_8s_blocks():
    """§5.5.3, (5-9): ⁱF = ʲᵢT_f·ʲF with "广义力转换矩阵" ʲᵢT_f = [[ⁱ_jR, 0], [ⁱ_jR·S(P), ⁱ_jR]], (5-8)'s matrix again, so
    its blocks lack the same transposes: the matrix that keeps (5-7)'s virtual work is [[Rᵀ, 0], [−Rᵀ·S(P), Rᵀ]]
    (R the orientation and P the origin of {i} in {j}), armlab's wrench_transform."""
    T_ji = Trans(0.2, 0.5, -0.1) @ Rot("y", 0.9) @ Rot("z", -0.3)  # {i} in {j}
    R, P = T_ji[:3, :3], T_ji[:3, 3]
    S, Z = np.array([[0, -P[2], P[1]], [P[2], 0, -P[0]], [-P[1], P[0], 0]]), np.zeros((3, 3))
    printed, right = np.block([[R, Z], [R @ S, R]]), np.block([[R.T, Z], [-R.T @ S, R.T]])
    np.testing.assert_allclose(right, wrench_transform(np.linalg.inv(T_ji)), atol=1e-12)
    jF, jD = np.random.default_rng(59).normal(size=(2, 6))
    iD = twist_transform(np.linalg.inv(T_ji)) @ jD  # the same virtual motion at {i}'s origin, in {i}
    assert (right @ jF) @ iD == pytest.approx(jF @ jD, rel=1e-12)  # (5-7)
    assert abs((printed @ jF) @ iD - jF @ jD) > 1e-3
