"""Misprints of the Jacobian notes (sources/004): the prose of §2, the claim of §4, and what the MATLAB lines of
§5 really print, run with roboticstoolbox-python (Corke's Puma560, the model `mdl_puma560` loads). docs/errata.md
lists them (issue #23 §1)."""

import contextlib
import io
import re

import numpy as np
import pytest
import sympy as sp

import armlab
from armlab import jacobians as jb

rtb = pytest.importorskip("roboticstoolbox")
P560 = rtb.models.DH.Puma560()


def jsingu(J):
    """What RTB's ``jsingu(J)`` prints ("column 5 = 1 column_3", 0-based), read back as {dependent joint:
    [joints it is a combination of]} (1-based), without the rounding noise it prints too (terms below 1e-9)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rtb.jsingu(np.asarray(J, float))
    found = {}
    for line in out.getvalue().splitlines():
        j, terms = re.match(r"column (\d+) =(.*)", line).groups()
        found[int(j) + 1] = [int(i) + 1 for c, i in re.findall(r"([\d.e+-]+) column_(\d+)", terms) if float(c) > 1e-9]
    return found


def test_notes_004_section_1_a_vector_turning_with_B_has_velocity_AV_Q():
    """§1: a vector Q fixed in {B}, {B} turning with ᴬΩ_B about {A}'s origin: "QV_Q = ᴬΩ_B × ᴬQ" (^QV_Q). The velocity is seen
    from {A}, ᴬV_Q, as the next two lines write it (Q is a vector, not a frame). By central differences of
    ᴬQ(t) = ᴬ_BR(t)·ᴮQ its rate is ᴬΩ_B × ᴬQ; seen from {B}, which turns with it, Q does not move."""
    omega = np.array([0.3, -0.5, 0.8])
    BQ = np.array([0.2, 0.4, -0.1])
    R0 = armlab.R("z", 0.4) @ armlab.R("x", 1.1)

    def R_AB(t):
        return armlab.transforms.axis_angle_to_R(omega, np.linalg.norm(omega) * t) @ R0

    h = 1e-5
    AV_Q = (R_AB(h) @ BQ - R_AB(-h) @ BQ) / (2 * h)
    np.testing.assert_allclose(AV_Q, np.cross(omega, R0 @ BQ), atol=1e-9)
    assert np.linalg.norm(AV_Q) > 0.1  # what {A} sees; in {B}, ᴮQ is constant


def test_notes_004_section_2_the_added_velocity_comes_from_link_i():
    """§2: "坐标系{i+1}的原点的线速度等于坐标系{i}原点的线速度加上一个由于连杆**i+1**的角速度引起的分量"; the formula
    beside it, ⁱv_{i+1} = ⁱv_i + ⁱω_i × ⁱP_{i+1}, has link **i**'s ω: frame {i+1}'s origin is fixed in link i. On the
    notes' 2R arm the origin of {2} moves with θ̇1 only; with ω₂ it would move with θ̇2 as well."""
    l1, l2 = sp.symbols("l1 l2", positive=True)
    t1, t2, w1, w2 = sp.symbols("theta1 theta2 thetadot1 thetadot2", real=True)
    arm = armlab.DHRobot([armlab.DHLink(), armlab.DHLink(a=l1)], convention="modified", tool=armlab.Trans(l2, 0, 0))
    frames = jb.velocity_propagation(arm, [t1, t2], [w1, w2])
    (_, w_1, v_1), (_, w_2, v_2) = frames[1], frames[2]  # (i, ⁱω_i, ⁱv_i)
    o2 = sp.Matrix(arm.fkine_all([t1, t2])[2])[:3, 3]  # origin of {2} in {0}
    v_o2 = o2.diff(t1) * w1 + o2.diff(t2) * w2
    R02 = sp.Matrix(arm.fkine_all([t1, t2])[2])[:3, :3]
    assert sp.simplify(R02 * v_2 - v_o2) == sp.zeros(3, 1)
    P12 = sp.Matrix([l1, 0, 0])  # ¹P₂
    R21 = arm.link_transform(2, t2)[:3, :3].T
    assert sp.simplify(R21 * (v_1 + w_1.cross(P12)) - v_2) == sp.zeros(3, 1)  # with ¹ω₁: right
    w_12 = R21.T * w_2  # ¹ω₂, link i+1's angular velocity in {1}
    assert sp.simplify(R21 * (v_1 + w_12.cross(P12)) - v_2) != sp.zeros(3, 1)  # with ¹ω₂: wrong
    assert v_o2.diff(w2) == sp.zeros(3, 1)


def test_notes_004_section_4_at_a_singularity_the_hand_still_moves_in_other_directions():
    """§4: at a singular pose "选择什么样的速度都无法使机械臂运动". Only some hand directions are lost: at the Puma560's
    qz (axes 4 and 6 in line) J has rank 5, one of six directions is lost, and all joint rates but one direction
    (q̇4 = −q̇6) still move the hand."""
    J = P560.jacob0(P560.qz)
    assert np.linalg.matrix_rank(J) == 5
    null, lost = jb.lost_directions(J)
    assert null.shape == (6, 1) and lost.shape == (6, 1)
    np.testing.assert_allclose(np.abs(null[[3, 5], 0]), [2**-0.5, 2**-0.5], atol=1e-12)
    np.testing.assert_allclose(null[3, 0], -null[5, 0], atol=1e-12)
    rates = np.random.default_rng(4).normal(size=(50, 6))
    assert (np.linalg.norm(rates @ J.T, axis=1) > 1e-3).all()


def test_notes_004_section_5_mdl_puma560_defines_qz_qr_qs_qn_not_q0():
    """§5: "qn是默认的位姿之一,其他的有qs、**q0**等". The model defines qz (all zero), qr, qs and qn; there is no q0."""
    assert set(P560.configs) == {"qz", "qr", "qs", "qn"}
    np.testing.assert_array_equal(P560.qz, np.zeros(6))
    assert not hasattr(P560, "q0")


def test_notes_004_section_5_jsingu_at_qn_reports_no_dependent_joint():
    """§5 computes J = p560.jacob0(qn) and says ``jsingu(J)`` reports "q6可由q4表示". At qn J has full rank
    (``rank(J)`` prints 6) and jsingu prints "0 linearly dependent joints". "q6 depends on: q4" is its report at
    qz (and qr, qs): there θ5 = 0 puts axes 4 and 6 in line, and J's columns 4 and 6 are equal. The same for jacobe."""
    for jac in (P560.jacob0, P560.jacobe):
        J_qn = jac(P560.qn)
        assert np.linalg.matrix_rank(J_qn) == 6 and jsingu(J_qn) == {}
        for q in (P560.qz, P560.qr, P560.qs):
            J = jac(q)
            assert np.linalg.matrix_rank(J) == 5 and jsingu(J) == {6: [4]}
            np.testing.assert_allclose(J[:, 5], J[:, 3], atol=1e-12)
