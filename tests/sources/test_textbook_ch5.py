"""Worked examples and the exercise of the statics chapter (sources/002, ch. 5) and textbook §3.5.1
(sources/000, (3.152)–(3.170), Example 3.10), recomputed.

Each test is named after its example, exercise or equation. Where the printed answer is wrong, the test
asserts the correct value and says what was printed (docs/errata.md lists each one).

Notation. 002 writes ^{X}_{Y}R for the orientation of {X} relative to {Y} (it maps {X}-components to
{Y}-components): the upper index is the frame described. The textbook (000, (3.2)) writes ^A_B R with the
upper index the reference frame: 002's ^{i+1}_{i}R is the textbook's ^{i}_{i+1}R. Below, comments use the
textbook's (and Craig's) order unless they quote 002.
"""

from pathlib import Path

import numpy as np
import pytest
import sympy as sp

import armlab
from armlab import statics
from armlab.models import planar2r, puma560, youbot
from armlab.transforms import Tinv, skew, twist_transform, wrench_in_frame, wrench_transform
from support import random_transform

l1, l2, fx, fy = sp.symbols("l1 l2 f_x f_y", real=True)
t1, t2 = sp.symbols("theta1 theta2", real=True)
c1, s1, c2, s2 = sp.cos(t1), sp.sin(t1), sp.cos(t2), sp.sin(t2)
c12, s12 = sp.cos(t1 + t2), sp.sin(t1 + t2)
YOUBOT_EFFORT = np.array([9.5, 9.5, 6.0, 2.0, 1.0])  # N·m, docs/youbot-interface.md (URDF)


def _zero(expr):
    return sp.simplify(sp.expand_trig(sp.Matrix(expr))) == sp.zeros(*sp.Matrix(expr).shape)


def fig_5_4_arm(a1=l1, a2=l2):
    """The 2R arm of Fig. 5.4(b): {1}, {2} on the joint axes with X along the links, {3} at the tip with
    {2}'s orientation, {0} on the base. That is Craig's (modified) DH with the tip as the tool frame."""
    return armlab.DHRobot([armlab.DHLink(), armlab.DHLink(a=a1)], convention="modified", tool=armlab.Trans(a2, 0, 0))


# --- §5.2.1 the link recursion (5-1), (5-2) -------------------------------------------------------------


def test_eq_5_1_recursion_with_link_weights():
    """(5-1): ^iF_i = ^iF_{i+1} − ^iG_i, ^iM_i = ^iM_{i+1} + ^{i+1}_iP × ^iF_{i+1} − ^c_ir × ^iG_i, written out
    by hand for the Fig. 5.4 arm with masses m1, m2 at (r1, 0, 0), (r2, 0, 0), equals link_forces."""
    m1, m2, r1, r2, g = sp.symbols("m1 m2 r1 r2 g", positive=True)
    arm = armlab.DHRobot(
        [armlab.DHLink(m=m1, r=(r1, 0, 0)), armlab.DHLink(a=l1, m=m2, r=(r2, 0, 0))],
        convention="modified",
        tool=armlab.Trans(l2, 0, 0),
    )
    res = statics.link_forces(arm, [t1, t2], [fx, fy, 0, 0, 0, 0], frame="tool", gravity=[0, -g, 0])

    def Rz(t):
        return sp.Matrix([[sp.cos(t), -sp.sin(t), 0], [sp.sin(t), sp.cos(t), 0], [0, 0, 1]])

    R01, R12 = Rz(t1), Rz(t2)

    def G(m, R):
        return R.T * sp.Matrix([0, -m * g, 0])  # the weight in the link's frame

    F3, M3 = sp.Matrix([fx, fy, 0]), sp.zeros(3, 1)
    G2 = G(m2, R01 * R12)
    F2 = F3 - G2
    M2 = M3 + sp.Matrix([l2, 0, 0]).cross(F3) - sp.Matrix([r2, 0, 0]).cross(G2)
    G1 = G(m1, R01)
    F1 = R12 * F2 - G1
    M1 = R12 * M2 + sp.Matrix([l1, 0, 0]).cross(R12 * F2) - sp.Matrix([r1, 0, 0]).cross(G1)
    assert _zero(res.f[1, :].T - F2) and _zero(res.m[1, :].T - M2)
    assert _zero(res.f[0, :].T - F1) and _zero(res.m[0, :].T - M1)
    assert _zero(res.tau - sp.Matrix([M1[2], M2[2]]))  # (5-3)


# --- §5.2.2 joint balancing torques (5-3), (5-4) ---------------------------------------------------------


def test_example_1_revolute_joint_torque_is_the_moment_about_z():
    M = np.array([10.0, 20.0, 30.0])
    assert M @ np.array([0, 0, 1.0]) == 30.0  # (5-3), printed 30: right
    # the same through the recursion: one revolute joint whose link holds a moment M at its own origin
    one = armlab.DHRobot([armlab.DHLink()], convention="modified")
    res = statics.link_forces(one, [0.7], [0, 0, 0, *(armlab.Rot("z", 0.7)[:3, :3] @ M)], frame="base")
    np.testing.assert_allclose(res.m[0], M, atol=1e-12)
    assert res.tau[0] == pytest.approx(30.0)


def test_example_2_prismatic_joint_force_is_the_force_along_z():
    F = np.array([10.0, 20.0, 30.0])
    assert F @ np.array([0, 0, 1.0]) == 30.0  # (5-4), printed 30: right
    one = armlab.DHRobot([armlab.DHLink(joint="P", qlim=(0, 1))], convention="modified")
    res = statics.link_forces(one, [0.4], [*F, 0, 0, 0], frame="tool")
    np.testing.assert_allclose(res.f[0], F)
    assert res.tau[0] == pytest.approx(30.0)


def test_example_3_2r_tip_force_in_the_tip_frame():
    arm = fig_5_4_arm()
    res = statics.link_forces(arm, [t1, t2], [fx, fy, 0, 0, 0, 0], frame="tool")
    # the book's intermediate results, row by row
    assert _zero(res.f[1, :].T - sp.Matrix([fx, fy, 0]))  # ²f₂ = ²₃R·F
    assert _zero(res.m[1, :].T - sp.Matrix([0, 0, l2 * fy]))  # ²M₂ = ²P₃ × ²f₂
    assert _zero(res.f[0, :].T - sp.Matrix([c2 * fx - s2 * fy, s2 * fx + c2 * fy, 0]))  # ¹f₁
    assert _zero(res.m[0, :].T - sp.Matrix([0, 0, l2 * fy + l1 * s2 * fx + l1 * c2 * fy]))  # ¹M₁
    # (5-5)
    J35 = sp.Matrix([[l1 * s2, l1 * c2 + l2], [0, l2]])
    assert _zero(res.tau - J35 * sp.Matrix([fx, fy]))
    # and it is τ = ᵀJᵀ·ᵀF with the tool-frame Jacobian
    assert _zero(res.tau - statics.joint_torques(arm, [t1, t2], [fx, fy, 0, 0, 0, 0], frame="tool"))


def test_example_4_2r_tip_force_in_the_base_frame_by_recursion_and_jt_f():
    arm = fig_5_4_arm()
    f0x, f0y = sp.symbols("f0_x f0_y", real=True)
    R03 = arm.fkine([t1, t2])[:3, :3]
    assert _zero(R03 - sp.Matrix([[c12, -s12, 0], [s12, c12, 0], [0, 0, 1]]))  # = R(Z,θ1)·R(Z,θ2)
    # ³f₃ = (⁰₃R)⁻¹·⁰f₃ (the book's "= ⁰R⁻¹·³f₃" has ³f₃ on both sides; the second must be ⁰f₃)
    f3 = R03.T * sp.Matrix([f0x, f0y, 0])
    assert _zero(f3[:2, 0] - sp.Matrix([[c12, s12], [-s12, c12]]) * sp.Matrix([f0x, f0y]))
    printed = sp.Matrix([[-l1 * s1 - l2 * s12, l1 * c1 + l2 * c12], [-l2 * s12, l2 * c12]])
    J35 = sp.Matrix([[l1 * s2, l1 * c2 + l2], [0, l2]])
    assert _zero(J35 * sp.Matrix([[c12, s12], [-s12, c12]]) - printed)  # the product, printed: right
    tau = printed * sp.Matrix([f0x, f0y])
    F0 = [f0x, f0y, 0, 0, 0, 0]
    assert _zero(statics.link_forces(arm, [t1, t2], F0, frame="base").tau - tau)  # the recursion
    assert _zero(statics.joint_torques(arm, [t1, t2], F0, frame="base") - tau)  # τ = ⁰Jᵀ·⁰F


def test_example_5_force_jacobian_by_differentiating_the_kinematics():
    x = l1 * c1 + l2 * c12
    y = l1 * s1 + l2 * s12
    J = sp.Matrix([[sp.diff(x, t1), sp.diff(x, t2)], [sp.diff(y, t1), sp.diff(y, t2)]])
    assert _zero(J - sp.Matrix([[-l1 * s1 - l2 * s12, -l2 * s12], [l1 * c1 + l2 * c12, l2 * c12]]))  # printed: right
    assert _zero(planar2r(l1, l2).jacob0([t1, t2])[:2, :] - J)
    tau = J.T * sp.Matrix([fx, fy])
    # "例4和例5 … 所用的方法不同,但结果是相同的": the recursion (Example 4's way) gives the same τ
    assert _zero(statics.link_forces(fig_5_4_arm(), [t1, t2], [fx, fy, 0, 0, 0, 0], frame="base").tau - tau)
    # and on the course's standard-DH 2R model too (frames at the link ends; the recursion still agrees)
    assert _zero(statics.link_forces(planar2r(l1, l2), [t1, t2], [fx, fy, 0, 0, 0, 0], frame="base").tau - tau)


def test_examples_3_to_5_a_force_on_the_tip_is_held_by_minus_jt_f():
    """ERRATUM, Examples 3–5: "末端受到外界施加的作用力为 F" — F is said to act ON the tip, but (5-1)'s
    F_{n+1} is what the last link exerts on the next body, so (5-5) and τ = JᵀF hold F the tip EXERTS ON
    the environment (as the exercise says: "末端对外界施加的作用力"). A force F the environment applies to
    the tip is held by τ = −JᵀF. Checked by virtual work with a finite-difference tip displacement."""
    arm = planar2r(0.5, 0.3)
    q, F_env = np.array([0.4, 0.9]), np.array([2.0, -1.0])

    def x(q):
        return arm.fkine(q)[:2, 3]

    h = 1e-6
    J = np.column_stack([(x(q + h * e) - x(q - h * e)) / (2 * h) for e in np.eye(2)])
    # the arm is in equilibrium when no virtual displacement does work: (τ + Jᵀ·F_env)·δq = 0 for all δq
    tau_hold = -J.T @ F_env
    printed = (
        np.array(
            [
                [-0.5 * np.sin(0.4) - 0.3 * np.sin(1.3), 0.5 * np.cos(0.4) + 0.3 * np.cos(1.3)],
                [-0.3 * np.sin(1.3), 0.3 * np.cos(1.3)],
            ]
        )
        @ F_env
    )  # Example 5's τ with F on the tip
    np.testing.assert_allclose(printed, -tau_hold, atol=1e-8)  # the printed sign is for the reaction
    np.testing.assert_allclose(statics.joint_torques(arm, q, [*(-F_env), 0, 0, 0, 0]), tau_hold, atol=1e-8)


def test_exercise_force_jacobian_and_torques_of_a_2r_arm():
    """Chapter exercise (Fig. 5.9 is not in the extraction: the 2R arm of Fig. 5.5 is assumed): F is what the
    tip exerts on the environment, in the base frame. (1) the force Jacobian Jᵀ; (2) τ = JᵀF — three ways."""
    f0x, f0y = sp.symbols("F_x F_y", real=True)
    JT = sp.Matrix([[-l1 * s1 - l2 * s12, l1 * c1 + l2 * c12], [-l2 * s12, l2 * c12]])
    arm = planar2r(l1, l2)
    assert _zero(arm.jacob0([t1, t2])[:2, :].T - JT)  # (1)
    tau = JT * sp.Matrix([f0x, f0y])  # (2)
    F0 = [f0x, f0y, 0, 0, 0, 0]
    assert _zero(statics.joint_torques(arm, [t1, t2], F0, frame="base") - tau)
    assert _zero(statics.link_forces(fig_5_4_arm(), [t1, t2], F0, frame="base").tau - tau)


# --- §5.3 τ = JᵀF (5-6), the static mapping, Fig. 5.7 ------------------------------------------------------


def test_eq_5_6_tau_is_jt_f_by_virtual_work():
    """τᵀδq = FᵀD with D = J·δq (5-6), on the PUMA560: the torques from the recursion do the same virtual
    work as the tip wrench on a finite-difference tip displacement."""
    robot = puma560()
    q = np.radians([20, -30, -50, 10, 30, 50])
    F = np.array([3.0, -2.0, 5.0, 0.4, -0.1, 0.2])  # base frame, moment about the tool point
    tau = statics.link_forces(robot, q, F, frame="base").tau
    rng = np.random.default_rng(56)
    for dq in rng.normal(size=(5, 6)) * 1e-6:
        T0, T1 = robot.fkine(q), robot.fkine(q + dq)
        d = T1[:3, 3] - T0[:3, 3]
        delta = armlab.transforms.unskew(T1[:3, :3] @ T0[:3, :3].T - np.eye(3))
        assert tau @ dq == pytest.approx(F @ np.concatenate([d, delta]), rel=1e-4)
    np.testing.assert_allclose(tau, robot.jacob0(q).T @ F, atol=1e-12)


def test_eq_3_156_tool_frame_and_base_frame_give_the_same_torques():
    """Textbook (3.156) T = JᵀF with J = ᵀJ from §3.3.3 (differential transforms) and F in the hand frame;
    002's (5-6) with J and F in the base frame. The same torques: ᵀJᵀ·ᵀF = ⁰Jᵀ·⁰F."""
    robot = puma560()
    q = np.radians([20, -30, -50, 10, 30, 50])
    F_tool = np.array([1.0, 2.0, -3.0, 0.3, 0.2, -0.1])
    R = robot.fkine(q)[:3, :3]
    F_base = np.concatenate([R @ F_tool[:3], R @ F_tool[3:]])
    TJ = armlab.jacobians.jacob_differential(robot, q)
    np.testing.assert_allclose(TJ.T @ F_tool, robot.jacob0(q).T @ F_base, atol=1e-12)
    np.testing.assert_allclose(TJ.T @ F_tool, statics.link_forces(robot, q, F_tool, frame="tool").tau, atol=1e-12)


def test_fig_5_7_singular_pose_holds_a_huge_force_with_almost_no_torque():
    arm = planar2r(0.5, 0.3)
    for t1_ in (0.0, 0.7, 2.0):
        along = np.array([np.cos(t1_), np.sin(t1_), 0, 0, 0, 0])  # along the stretched-out arm
        tau = statics.joint_torques(arm, [t1_, 0.0], 1e6 * along)
        np.testing.assert_allclose(tau, 0.0, atol=1e-8)  # a mega-newton, no torque
        across = np.array([-np.sin(t1_), np.cos(t1_), 0, 0, 0, 0])
        assert np.allclose(statics.joint_torques(arm, [t1_, 0.0], across), [0.8, 0.3])  # across still costs
    # near the singular pose the force that 1 N·m can hold along the arm grows like 1/θ2
    for eps in (1e-2, 1e-4):
        lengths, dirs = armlab.jacobians.ellipsoid(arm.jacob0([0.0, eps])[:2], part="all", kind="force")
        k = np.argmax(lengths)
        assert lengths[k] > 1 / eps and abs(dirs[0, k]) > 0.99  # the long axis points along the arm (x)
    lengths, dirs = armlab.jacobians.ellipsoid(arm.jacob0([0.0, 0.0])[:2], part="all", kind="force")
    assert np.isinf(lengths).sum() == 1 and abs(dirs[0, np.argmax(lengths)]) == pytest.approx(1.0)


# --- §5.4 inverse statics --------------------------------------------------------------------------------


def test_section_5_4_inverse_statics_exact_when_jt_is_invertible():
    robot = puma560()
    q = np.radians([20, -30, -50, 10, 30, 50])
    F = np.array([3.0, -2.0, 5.0, 0.4, -0.1, 0.2])
    res = statics.inverse_statics(robot, q, robot.jacob0(q).T @ F)
    assert res.method == "exact"
    np.testing.assert_allclose(res.wrench, F, atol=1e-9)
    # the planar 2R arm's 2×2 J: F = (Jᵀ)⁻¹τ in the plane
    J = planar2r(0.5, 0.3).jacob0([0.4, 0.9])[:2]
    tau = np.array([1.0, -0.5])
    np.testing.assert_allclose(J.T @ np.linalg.solve(J.T, tau), tau)


def test_section_5_4_least_squares_formula_needs_full_row_rank():
    """ERRATUM §5.4 (2): "如果 J 不是方阵, 或 Jᵀ 的逆不存在 … F = (JJᵀ)⁻¹Jτ". For J of m rows and n columns that
    formula exists exactly when rank J = m (full row rank), which needs n ≥ m: with n = m it is (Jᵀ)⁻¹τ again,
    with n > m the least-squares F. n ≥ m is not enough (a singular pose). When rank J < m — Jᵀ singular, or J
    with fewer columns than rows — JJᵀ is singular too and the formula has no value; the minimum-norm
    F = (Jᵀ)⁺τ is what remains (statics.inverse_statics reports which case applied)."""
    rng = np.random.default_rng(54)
    # n = 7 > 6, rank 6: the book's formula is numpy's least squares
    J7 = rng.normal(size=(6, 7))
    tau7 = rng.normal(size=7)
    F = np.linalg.solve(J7 @ J7.T, J7 @ tau7)
    np.testing.assert_allclose(F, np.linalg.lstsq(J7.T, tau7, rcond=None)[0], atol=1e-10)
    # n = m = 6, rank 6 (the PUMA away from its singularities): the formula exists and is (Jᵀ)⁻¹τ
    J6 = puma560().jacob0(np.radians([20, -30, -50, 10, 30, 50]))
    tau6 = rng.normal(size=6)
    np.testing.assert_allclose(np.linalg.solve(J6 @ J6.T, J6 @ tau6), np.linalg.solve(J6.T, tau6), atol=1e-9)
    # n = 7 > 6 but rank 5: more joints than wrench components, and still JJᵀ is singular
    J7_5 = rng.normal(size=(6, 5)) @ rng.normal(size=(5, 7))
    assert np.linalg.matrix_rank(J7_5) == 5
    s = np.linalg.svd(J7_5 @ J7_5.T, compute_uv=False)
    assert s[-1] < 1e-12 * s[0]
    # Jᵀ singular (PUMA560 wrist singularity, θ5 = 0) and J not square (2R arm, 6×2): JJᵀ is singular
    puma = puma560()
    for J in (puma.jacob0(np.radians([20, -30, -50, 10, 0, 50])), planar2r().jacob0([0.3, 0.8])):
        s = np.linalg.svd(J @ J.T, compute_uv=False)
        assert s[-1] < 1e-12 * s[0]
    res = statics.inverse_statics(puma, np.radians([20, -30, -50, 10, 0, 50]), np.ones(6))
    assert res.method == "min-norm" and "singular" in res.reason and np.isfinite(res.wrench).all()


def test_section_5_4_static_load_envelope_of_the_youbot():
    """Sweep the configurations for the largest tip force the joint torque limits allow: at each pose it is
    min_i τmax_i / |(Jᵀd)_i| (no weight), the force the first joint to saturate allows."""
    arm = youbot()
    rng = np.random.default_rng(57)
    Q = rng.uniform(arm.qlim[:, 0], arm.qlim[:, 1], size=(500, 5))
    down = np.array([0.0, 0.0, -1.0])
    envelope = statics.max_tip_force(arm, Q, down, YOUBOT_EFFORT)
    a = np.abs(np.swapaxes(arm.jacob0(Q)[:, :3, :], -1, -2) @ down)
    with np.errstate(divide="ignore"):
        np.testing.assert_allclose(envelope, np.min(np.where(a > 0, YOUBOT_EFFORT / a, np.inf), axis=-1))
    # the same from the geometry alone: with the arm in a vertical plane and joints 2–4 horizontal, a vertical
    # force F costs joint k the torque F·(horizontal distance from axis k to the tip)
    q = np.array([0.0, 1.1, 0.5, 1.0, 0.0])
    frames = arm.fkine_all(q)
    tip = frames[-1][:3, 3]
    lever = [np.linalg.norm((tip - frames[k][:3, 3])[:2]) for k in (1, 2, 3)]  # axes 2, 3, 4 pass O_1, O_2, O_3
    expected = min(YOUBOT_EFFORT[k] / d for k, d in zip((1, 2, 3), lever))
    assert statics.max_tip_force(arm, q, down, YOUBOT_EFFORT) == pytest.approx(expected, rel=1e-9)


# --- §5.5 coordinate transforms of forces and moments ----------------------------------------------------


def test_section_5_5_1_a_force_is_a_free_vector():
    """F^B = ᴬ_BR·F^A (002's notation: {A} relative to {B}): only the orientation matters."""
    R_AB = armlab.Rot("z", 0.6) @ armlab.Rot("x", -0.3)  # pose of {A} in {B}, rotation part
    f_A = np.array([1.0, 2.0, 3.0])
    for p in ([0, 0, 0], [1, -2, 0.5]):
        T_BA = armlab.Trans(*p) @ R_AB
        np.testing.assert_allclose(wrench_transform(T_BA, [*f_A, 0, 0, 0])[:3], R_AB[:3, :3] @ f_A)


def test_section_5_5_2_a_pure_torque_only_rotates():
    tau_motor = np.array([0, 0, 1.5])  # the book's motor torque, N·m
    T_BA = armlab.Trans(0.3, -0.2, 1.0) @ armlab.Rot("y", 0.4)
    np.testing.assert_allclose(wrench_transform(T_BA, [0, 0, 0, *tau_motor]), [0, 0, 0, *(T_BA[:3, :3] @ tau_motor)])


def test_section_5_5_2_the_moment_of_a_force_moves_with_the_reference_point():
    """M^B = ᴬ_BR·M^A + P × (ᴬ_BR·F^A) with P the origin of {A} in {B}: a force f through a point x has
    moment (x − O) × f about O; recomputing it about {B}'s origin gives the formula."""
    rng = np.random.default_rng(55)
    T_BA = random_transform(rng, scale=1.0)
    R, P = T_BA[:3, :3], T_BA[:3, 3]
    x_A, f_A = rng.normal(size=(2, 3))  # the force's point of application and the force, in {A}
    M_A = np.cross(x_A, f_A)
    x_B, f_B = R @ x_A + P, R @ f_A
    M_B = np.cross(x_B, f_B)  # the definition, about O_B
    np.testing.assert_allclose(R @ M_A + np.cross(P, R @ f_A), M_B, atol=1e-12)  # 002 §5.5.2
    np.testing.assert_allclose(R @ M_A + skew(P) @ R @ f_A, M_B, atol=1e-12)  # = ·S(P)·R
    np.testing.assert_allclose(wrench_transform(T_BA, [*f_A, *M_A]), [*f_B, *M_B], atol=1e-12)


def _D_and_F_of_eq_5_8(rng):
    """R = orientation of {i} relative to {j} (002's ^i_jR), P = origin of {i} in {j}: the pose of {i} in {j}."""
    T_ji = random_transform(rng, scale=1.0)
    return T_ji, T_ji[:3, :3], T_ji[:3, 3]


def test_eq_5_8_printed_matrix_drops_the_transposes_of_its_blocks():
    """ERRATUM (5-8): from ⁱFᵀ = ʲFᵀ·[[R, S(P)R], [0, R]] the book writes ⁱF = [[R, 0], [R·S(P), R]]·ʲF,
    transposing the 6×6 matrix but not its 3×3 blocks. The transpose is [[Rᵀ, 0], [−Rᵀ·S(P), Rᵀ]]."""
    Z = np.zeros((3, 3))
    for seed in range(5):
        T_ji, R, P = _D_and_F_of_eq_5_8(np.random.default_rng(seed))
        S = skew(P)
        # the book's first line, from (4-26) (textbook (3.85)): ⁱD = [[Rᵀ, −RᵀS(P)], [0, Rᵀ]]·ʲD — right
        D_ij = np.block([[R.T, -R.T @ S], [Z, R.T]])
        np.testing.assert_allclose(D_ij, twist_transform(Tinv(T_ji)), atol=1e-12)
        D_ji = np.block([[R, S @ R], [Z, R]])  # its inverse, printed: right
        np.testing.assert_allclose(D_ji @ D_ij, np.eye(6), atol=1e-12)
        printed = np.block([[R, Z], [R @ S, R]])
        correct = D_ji.T
        np.testing.assert_allclose(correct, np.block([[R.T, Z], [-R.T @ S, R.T]]), atol=1e-12)
        np.testing.assert_allclose(correct, wrench_transform(Tinv(T_ji)), atol=1e-12)
        # virtual work (5-7) ⁱFᵀ·ⁱD = ʲFᵀ·ʲD holds with the corrected matrix, not with the printed one
        F_j, D_j = np.random.default_rng(seed + 10).normal(size=(2, 6))
        assert (correct @ F_j) @ (D_ij @ D_j) == pytest.approx(F_j @ D_j, rel=1e-12)
        assert not np.isclose((printed @ F_j) @ (D_ij @ D_j), F_j @ D_j)
        # the printed form is right only read with R ↦ Rᵀ and P ↦ −P: O_j relative to O_i, in {j}'s axes
        np.testing.assert_allclose(np.block([[R.T, Z], [R.T @ skew(-P), R.T]]), correct, atol=1e-12)


def test_example_6_wrist_sensor_to_tool_tip():
    """ERRATUM Example 6: ᵀF = [[ᵂ_TR, 0], [ᵂ_TR·S(ᵂᴼ_TP), ᵂ_TR]]·ᵂF with ᵂ_TT = [[ᵂ_TR, ᵂᴼ_TP], [0, 1]] the
    transform from {W} to {T} (002's notation: {W} relative to {T}, P the origin of {W} in {T}). The moment
    block must be S(P)·R, as §5.5.2's own M^B = R·M^A + P × (R·F^A) says; R·S(P) would need P in {W}'s axes."""
    # a sensor frame {W} on the wrist and a tool tip {T} 0.18 m further along z_W and 0.04 m sideways,
    # turned 30° about the tool axis; the sensor reads a push and a twist
    T_WT = armlab.Trans(0.04, 0.0, 0.18) @ armlab.Rot("z", np.pi / 6)  # pose of {T} in {W}
    T_TW = Tinv(T_WT)  # the book's ᵂ_TT: maps {W} coordinates to {T}
    R, P = T_TW[:3, :3], T_TW[:3, 3]
    F_W = np.array([2.0, -1.0, -15.0, 0.3, 0.8, 0.05])
    correct = np.block([[R, np.zeros((3, 3))], [skew(P) @ R, R]]) @ F_W
    np.testing.assert_allclose(wrench_transform(T_TW, F_W), correct, atol=1e-12)
    printed = np.block([[R, np.zeros((3, 3))], [R @ skew(P), R]]) @ F_W
    assert not np.allclose(printed, correct)
    np.testing.assert_allclose(printed[:3], correct[:3])  # the force part is right
    # physics: the same force system about the tip, m_T = m_W + (O_W − O_T) × f, in {T}'s axes
    f_W, m_W = F_W[:3], F_W[3:]
    m_T_in_W = m_W + np.cross(-T_WT[:3, 3], f_W)
    np.testing.assert_allclose(correct[3:], T_WT[:3, :3].T @ m_T_in_W, atol=1e-12)
    # R·S(P) is right with P in {W}'s axes (Rᵀ·P)
    np.testing.assert_allclose(np.block([[R, np.zeros((3, 3))], [R @ skew(R.T @ P), R]]) @ F_W, correct, atol=1e-12)


def test_example_6_book_W_T_T_is_the_inverse_of_hw05_T_WT():
    """002's ᵂ_TT (Example 6) is the pose of {W} in {T} (its upper-left index is the frame described, §5.5.1);
    hw05 part 5 takes T_WT, the pose of {T} in {W}. Round trip: hw05's answer for T_WT is Example 6 (moment
    block corrected) with ᵂ_TT = T_WT⁻¹, and mapping it back with T_WT returns the sensor's wrench. Read as
    T_WT itself, Example 6 gives another wrench. The hw05 statement says which matrix the book means."""
    import nbformat

    from support import random_transform

    rng = np.random.default_rng(56)
    Z = np.zeros((3, 3))
    for _ in range(20):
        T_WT = random_transform(rng)
        F_W = rng.normal(size=6)
        hw05 = wrench_in_frame(T_WT, F_W)  # hw05's answer key

        def example_6(W_T_T):
            R, P = W_T_T[:3, :3], W_T_T[:3, 3]  # ᵂ_TR and ᵂᴼ_TP
            return np.block([[R, Z], [skew(P) @ R, R]]) @ F_W

        np.testing.assert_allclose(example_6(Tinv(T_WT)), hw05, atol=1e-12)
        np.testing.assert_allclose(wrench_transform(T_WT, hw05), F_W, atol=1e-12)  # and back to the sensor
        assert not np.allclose(example_6(T_WT), hw05, atol=1e-6)
    root = Path(__file__).resolve().parents[2]
    nb = nbformat.read(root / "solutions/hw05_statics/hw05_statics.ipynb", as_version=4)
    (part5,) = [c.source for c in nb.cells if c.cell_type == "markdown" and c.source.startswith("## Part 5")]
    assert r"${}^W_TT = T_{WT}^{-1}$, the pose of $\{W\}$ in $\{T\}$" in part5
    assert "the textbook writes this" not in part5


def test_eq_5_9_power_is_invariant_and_the_twist_transform_is_dual():
    """ⁱFᵀ·ⁱV = ʲFᵀ·ʲV for a twist V = (v, ω) and a wrench F = (f, m) at each frame's origin: the wrench
    transform is the inverse transpose of the twist transform (the adjoint)."""
    rng = np.random.default_rng(59)
    for _ in range(20):
        T_ij = random_transform(rng, scale=1.0)
        V_j, F_j = rng.normal(size=(2, 6))
        V_i, F_i = twist_transform(T_ij) @ V_j, wrench_transform(T_ij) @ F_j
        assert F_i @ V_i == pytest.approx(F_j @ V_j, rel=1e-12)
        np.testing.assert_allclose(wrench_transform(T_ij), np.linalg.inv(twist_transform(T_ij)).T, atol=1e-12)


# --- textbook §3.5.1: (3.152)–(3.170), Example 3.10 --------------------------------------------------------

EX_3_10_B = np.array([[0, 1, 0, 2], [0, 0, 1, 4], [1, 0, 0, 6], [0, 0, 0, 1.0]])
EX_3_10_F = np.array([5.0, 0, 0, 0, 10.0, 0])


def test_example_3_10_equivalent_wrench_in_frame_B():
    n, o, a, p = EX_3_10_B[:3, 0], EX_3_10_B[:3, 1], EX_3_10_B[:3, 2], EX_3_10_B[:3, 3]
    f, m = EX_3_10_F[:3], EX_3_10_F[3:]
    assert np.array_equal(np.cross(f, p), [0, -30, 20])  # printed (0)i − (30)j + (20)k: right
    assert np.array_equal(np.cross(f, p) + m, [0, -20, 20])  # printed −20j + 20k: right
    mine = [n @ f, o @ f, a @ f, n @ (np.cross(f, p) + m), o @ (np.cross(f, p) + m), a @ (np.cross(f, p) + m)]
    assert mine == [0, 5, 0, 20, 0, -20]  # printed ᴮFᵀ = [0, 5, 0, 20, 0, −20]: right
    np.testing.assert_array_equal(wrench_in_frame(EX_3_10_B, EX_3_10_F), mine)
    # 002's way: §5.5.2 / corrected (5-8) with {i} = B, {j} = A: the 6×6 map of the wrench into {B}
    np.testing.assert_allclose(wrench_transform(Tinv(EX_3_10_B), EX_3_10_F), mine, atol=1e-12)
    R, P = Tinv(EX_3_10_B)[:3, :3], Tinv(EX_3_10_B)[:3, 3]  # {A} relative to {B}; origin of {A} in {B}
    np.testing.assert_allclose(np.concatenate([R @ f, R @ m + skew(P) @ R @ f]), mine, atol=1e-12)


def test_eq_3_170_reads_n_dot_f_cross_p_plus_m_in_brackets():
    """ERRATUM (3.170): printed ᴮm_x = n·(f×p)+m, a scalar plus a vector. Intended n·((f×p)+m), like
    (3.83)'s ᵀd_x = n·((δ×p)+d): that reproduces Example 3.10's (20, 0, −20); adding m's component,
    n·(f×p) + m_x, would give (20, 10, −30)."""
    n, o, a, p = (EX_3_10_B[:3, k] for k in range(4))
    f, m = EX_3_10_F[:3], EX_3_10_F[3:]
    fp = np.cross(f, p)
    assert [n @ (fp + m), o @ (fp + m), a @ (fp + m)] == [20, 0, -20]
    assert [n @ fp + m[0], o @ fp + m[1], a @ fp + m[2]] == [20, 10, -30]


def test_eq_3_165_to_3_167_wrench_maps_are_the_transposed_differential_transform():
    """(3.165) F = ᴮJᵀ·ᴮF with ᴮJ the differential-motion map (3.82); (3.166) writes ᴮJᵀ out, (3.167) its
    inverse. Checked symbolically for any n, o, a, p with n, o, a orthonormal."""
    T = Tinv(EX_3_10_B)  # any rigid transform will do; also a random one below
    for T_AB in (EX_3_10_B, T, armlab.Trans(0.3, -1, 2) @ armlab.Rot("x", 0.7) @ armlab.Rot("z", -1.2)):
        R, p = T_AB[:3, :3], T_AB[:3, 3]
        n, o, a = R.T
        J382 = np.block(
            [[R.T, np.array([np.cross(p, n), np.cross(p, o), np.cross(p, a)])], [np.zeros((3, 3)), R.T]]
        )  # (3.82): (ᵀd, ᵀδ) from (d, δ)
        M3166 = np.block(
            [[R, np.zeros((3, 3))], [np.column_stack([np.cross(p, n), np.cross(p, o), np.cross(p, a)]), R]]
        )
        np.testing.assert_allclose(M3166, J382.T)
        np.testing.assert_allclose(M3166, wrench_transform(T_AB), atol=1e-12)  # F in A from ᴮF
        M3167 = np.block([[R.T, np.zeros((3, 3))], [np.array([np.cross(p, n), np.cross(p, o), np.cross(p, a)]), R.T]])
        np.testing.assert_allclose(M3167 @ M3166, np.eye(6), atol=1e-12)
        w = np.arange(1.0, 7.0)
        np.testing.assert_allclose(M3167 @ w, wrench_in_frame(T_AB, w), atol=1e-12)


def test_eq_3_168_matrix_is_that_of_3_82_not_3_161():
    """ERRATUM after (3.168): "比较式(3.167)和式(3.161)可见,两式的右边第一个矩阵…是相同的". (3.161) is
    δW = FᵀD and has no matrix; the matrix of (3.168), acting on (m, f), is the one of (3.82), acting on
    (d, δ): moments transform like translations and forces like rotations."""
    R, p = EX_3_10_B[:3, :3], EX_3_10_B[:3, 3]
    n, o, a = R.T
    PxR = np.array([np.cross(p, n), np.cross(p, o), np.cross(p, a)])
    M3168 = np.block([[R.T, PxR], [np.zeros((3, 3)), R.T]])  # (ᴮm, ᴮf) from (m, f)
    J382 = np.block([[R.T, PxR], [np.zeros((3, 3)), R.T]])  # (ᵀd, ᵀδ) from (d, δ)
    np.testing.assert_array_equal(M3168, J382)
    m_f = np.concatenate([EX_3_10_F[3:], EX_3_10_F[:3]])
    Bm_Bf = M3168 @ m_f
    np.testing.assert_allclose(np.concatenate([Bm_Bf[3:], Bm_Bf[:3]]), wrench_in_frame(EX_3_10_B, EX_3_10_F))
    # the differential-motion map of chapter 04's module is that same matrix
    np.testing.assert_allclose(armlab.jacobians.differential.motion_map(EX_3_10_B), J382, atol=1e-12)
