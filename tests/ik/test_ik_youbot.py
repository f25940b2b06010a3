"""youBot arm closed-form inverse kinematics, lab report §2.1.3 eqs. (2.9)–(2.28) (armlab.ik_youbot).

* (2.12) by sympy; the check pose (2.7) q = (0, 0, 0, π/2, 0) comes back;
* random reachable poses round-trip; configurations I–IV follow (2.21)–(2.28);
* a general 6-D pose is not reachable by the 5-DOF arm: empty result, reason and nearest_T,
  and solving nearest_T is exact; positions out of reach; target on the base axis.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import armlab
from armlab.ik import wrap_angle

PROPS = settings(max_examples=150, deadline=None, derandomize=True, database=None)
ROBOT = armlab.models.youbot()
QLIM = ROBOT.qlim
A1, D1, A2, A3, D5 = 0.033, 0.147, 0.155, 0.135, 0.218

q_in_limits = st.tuples(*[st.floats(float(lo), float(hi), allow_nan=False) for lo, hi in QLIM]).map(np.array)


def max_err(qs, T):
    return max((np.abs(ROBOT.fkine(q) - T).max() for q in qs), default=0.0)


def dist(qs, q):
    return float(np.abs(wrap_angle(qs - q)).max(axis=1).min())


def test_eq_2_12_right_side_by_sympy():
    sp = pytest.importorskip("sympy")
    from armlab import link_transform_standard as A

    t = sp.symbols("t1:6")
    a2, a3, d5 = sp.symbols("a2 a3 d5")
    M = A(t[1], 0, a2, 0) * A(t[2], 0, a3, 0) * A(t[3], 0, 0, sp.pi / 2) * A(t[4], d5, 0, 0)
    t234, t23 = t[1] + t[2] + t[3], t[1] + t[2]
    c5, s5 = sp.cos(t[4]), sp.sin(t[4])
    printed = sp.Matrix(
        [
            [
                c5 * sp.cos(t234),
                -s5 * sp.cos(t234),
                sp.sin(t234),
                a2 * sp.cos(t[1]) + a3 * sp.cos(t23) + d5 * sp.sin(t234),
            ],
            [
                c5 * sp.sin(t234),
                -s5 * sp.sin(t234),
                -sp.cos(t234),
                a2 * sp.sin(t[1]) + a3 * sp.sin(t23) - d5 * sp.cos(t234),
            ],
            [s5, c5, 0, 0],
            [0, 0, 0, 1],
        ]
    )
    assert sp.simplify(sp.expand_trig(M - printed)) == sp.zeros(4, 4)


def test_check_pose_eq_2_7_comes_back():
    q = np.array([0.0, 0.0, 0.0, math.pi / 2, 0.0])
    T = ROBOT.fkine(q)
    assert np.allclose(T[:3, :3], np.diag([-1.0, -1.0, 1.0])) and np.allclose(T[:3, 3], [0.033, 0.0, 0.655])
    sols = ROBOT.ikine_all(T)
    assert sols.success and dist(sols.q, q) < 1e-12 and max_err(sols.q, T) < 1e-12
    # the candle is the stretched arm: θ3 = 0 is the double root of (2.21), configurations I = II;
    # θ1ᴵᴵ would need the wrist point 0.297 m from joint 2 > a2 + a3 = 0.29 m
    assert sols.labels[0].startswith("I:") and sols.labels[1].startswith("II:")
    assert np.allclose(sols.q[0], sols.q[1]) and len(sols) == 2
    assert sols.ok and sols.reason == "" and "θ1ᴵᴵ" in sols.note and "(2.20)" in sols.note


@PROPS
@given(q=q_in_limits)
def test_random_reachable_poses_round_trip(q):
    T = ROBOT.fkine(q)
    sols = ROBOT.ikine_all(T, q0=q)
    assert sols.success and sols.reachable and np.isfinite(sols.q).all()
    assert max_err(sols.q, T) <= 1e-9
    assert dist(sols.q, q) < 1e-7
    i = int(np.argmin(np.abs(wrap_angle(sols.q - q)).max(axis=1)))
    assert sols.within_limits[i]


def test_configurations_I_to_IV_follow_eqs_2_21_to_2_28():
    """A folded arm near the base reaches its pose in all 4 configurations, in the report's order."""
    q = np.array([0.4, 0.9, -2.2, 0.8, 0.3])
    T = ROBOT.fkine(q)
    sols = ROBOT.ikine_all(T)
    assert [lab.split(":")[0] for lab in sols.labels] == ["I", "II", "III", "IV"]
    assert max_err(sols.q, T) < 1e-12 and dist(sols.q, q) < 1e-12
    th1 = math.atan2(T[1, 3], T[0, 3])
    assert np.allclose(wrap_angle(sols.q[:2, 0] - th1), 0) and np.allclose(wrap_angle(sols.q[2:, 0] - th1 - math.pi), 0)
    assert sols.q[0, 2] < 0 < sols.q[1, 2] and sols.q[2, 2] < 0 < sols.q[3, 2]  # θ3 = ∓atan2(…)
    assert sols.q[0, 4] == pytest.approx(wrap_angle(sols.q[2, 4] + math.pi))  # θ5 flips with θ1 (2.15)


@pytest.mark.parametrize("sign", [-1.0, 1.0])
def test_eq_2_23_phi_plus_minus_beta_is_our_single_formula(sign):
    """θ2 = φ + β for θ3 < 0 and φ − β for θ3 > 0, β = atan2(a3·sin|θ3|, a2 + a3·cos|θ3|) (2.23)."""
    th3 = sign * 1.1
    xr, yr = 0.2, 0.07
    beta = math.atan2(A3 * math.sin(abs(th3)), A2 + A3 * math.cos(abs(th3)))
    report = math.atan2(yr, xr) + (beta if th3 < 0 else -beta)
    ours = math.atan2(yr, xr) - math.atan2(A3 * math.sin(th3), A2 + A3 * math.cos(th3))
    assert report == pytest.approx(ours)


@pytest.mark.parametrize("q", [[0.2, -0.5, 1.0, 0.4, 0.0], [0.2, 0.5, -1.0, 0.4, 0.0], [-1.0, 1.2, -2.0, 0.3, 1.0]])
def test_elbow_labels_up_and_down(q):
    sols = ROBOT.ikine_all(ROBOT.fkine(np.array(q)))
    assert len(sols) >= 2
    for row, lab in zip(sols.q, sols.labels):
        F = ROBOT.fkine_all(row)
        S, E, W = F[1][:3, 3], F[2][:3, 3], F[4][:3, 3]  # joint 2, joint 3 (elbow), wrist point
        f = np.array([W[0] - S[0], W[1] - S[1], 0.0])
        f /= np.linalg.norm(f)
        cross = ((W - S) @ f) * (E - S)[2] - (W - S)[2] * ((E - S) @ f)
        assert lab.endswith("up") == (cross > 0), lab


def test_general_pose_is_not_reachable_and_nearest_T_is_offered():
    # a reachable pose T0, then its approach axis tilted out of the arm's plane by 0.4 rad
    T0 = ROBOT.fkine(np.array([0.5, -0.4, 0.9, 0.6, 0.3]))
    normal = np.array([-T0[1, 3], T0[0, 3], 0.0]) / math.hypot(T0[0, 3], T0[1, 3])
    tilt = armlab.axis_angle_to_R(np.cross(T0[:3, 2], normal), 0.4)
    T = T0.copy()
    T[:3, :3] = tilt @ T0[:3, :3]
    sols = ROBOT.ikine_all(T)
    assert sols.q.shape == (0, 5) and not sols.reachable and not sols.success
    assert "5-DOF" in sols.reason and "nearest_T" in sols.reason
    N = sols.nearest_T
    assert N.shape == (4, 4) and armlab.is_rotation(N[:3, :3]) and np.allclose(N[:3, 3], T[:3, 3])
    # the approach axis now lies in the vertical plane through the base axis and the target
    normal = np.array([-T[1, 3], T[0, 3], 0.0]) / math.hypot(T[0, 3], T[1, 3])
    assert abs(N[:3, 2] @ normal) < 1e-12
    # nearest: the rotation from T to N is exactly the angle of z5 out of the plane
    angle_out = math.asin(abs(T[:3, 2] @ normal))
    _, turn = armlab.R_to_axis_angle(N[:3, :3] @ T[:3, :3].T)
    assert float(turn) == pytest.approx(angle_out) == pytest.approx(0.4)
    assert np.allclose(N, T0)  # the smallest rotation undoes the tilt exactly
    exact = ROBOT.ikine_all(N)
    assert exact.success and max_err(exact.q, N) < 1e-12
    proj = ROBOT.ikine_all(T, project=True)
    assert np.allclose(proj.q, exact.q) and not proj.reachable and not proj.success
    assert np.allclose(proj.nearest_T, N)


def test_pointing_down_every_fingers_yaw_is_reachable_and_joint_5_sets_it():
    """Lab 2: the approach axis must lie in the arm's plane (above); a vertical one lies in every vertical plane,
    so pointing down at a reachable spot works for every yaw of the fingers, only q5 changes (by −Δyaw), and
    R(z, φ)·R(y, π)·R(z, ψ) = R(z, φ − ψ)·R(y, π): φ = atan2(y, x) is a choice, not a constraint."""
    rng = np.random.default_rng(82)
    yaws = np.linspace(-np.pi, np.pi, 13)[:-1]
    for p in ([0.24, 0.10, 0.0], [0.18, -0.17, 0.0], [-0.2, 0.15, 0.1]):
        q5 = []
        for yaw in yaws:
            T = armlab.Rot("z", yaw) @ armlab.Rot("y", math.pi)
            T[:3, 3] = p
            sols = ROBOT.ikine_all(T)
            assert sols.success and max_err(sols.q, T) < 1e-12
            q5.append(sols.q[0, 4])
        np.testing.assert_allclose(wrap_angle(np.array(q5) + yaws - (q5[0] + yaws[0])), 0, atol=1e-12)
    phi, psi = rng.uniform(-math.pi, math.pi, 2)
    np.testing.assert_allclose(
        armlab.Rot("z", phi) @ armlab.Rot("y", math.pi) @ armlab.Rot("z", psi),
        armlab.Rot("z", phi - psi) @ armlab.Rot("y", math.pi),
        atol=1e-12,
    )


def test_position_out_of_reach_is_explained():
    T = armlab.Trans(0.8, 0.0, 0.3) @ armlab.Rot("y", math.pi / 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sols = ROBOT.ikine_all(T)
    assert sols.q.shape == (0, 5) and "unreachable" in sols.reason and "(2.20)" in sols.reason


def test_target_on_the_base_axis():
    """px = py = 0: (2.14) is atan2(0, 0); θ1 comes from the approach axis, or is free if that is vertical too."""
    T_axis = armlab.Trans(0, 0, 0.2) @ armlab.Rot("z", 0.7) @ armlab.Rot("y", 2.4)  # tip on the axis
    sols = ROBOT.ikine_all(T_axis)
    assert len(sols) == 4 and max_err(sols.q, T_axis) < 1e-12 and not sols.singular.any()
    assert np.allclose(wrap_angle(sols.q[0, 0] - 0.7), 0)  # θ1 from the approach axis
    up = np.eye(4)
    up[:3, 3] = [0.0, 0.0, 0.6]
    sols = ROBOT.ikine_all(up, q0=np.array([0.3, 0, 0, 0, 0]))
    assert sols.success and sols.singular.all() and max_err(sols.q, up) < 1e-12
    assert sols.labels[0].startswith("I:") and np.allclose(sols.q[0, 0], 0.3)  # θ1 kept at q0


def test_ikine_selects_nearest_and_batch_loops():
    rng = np.random.default_rng(4)
    Q = rng.uniform(QLIM[:, 0], QLIM[:, 1], (20, 5))
    T = ROBOT.fkine(Q)
    for q, Ti in zip(Q, T):
        best = ROBOT.ikine(Ti, q0=q)
        assert np.allclose(best.q[0], q, atol=1e-9) and best.cost < 1e-8
    batch = ROBOT.ikine_all(T)
    assert batch.q.shape == (20, 4, 5) and batch.labels == ["I", "II", "III", "IV"]
    for i in range(20):
        one = ROBOT.ikine_all(T[i])
        got = batch[i]
        assert np.allclose(got.q, one.q) and got.labels == [lab.split(":")[0] for lab in one.labels]


def test_q0_of_the_wrong_shape_or_not_numbers_is_named():
    T = ROBOT.fkine(np.zeros((3, 5)))
    with pytest.raises(ValueError, match=r"q0 must have 5 joint values"):
        ROBOT.ikine_all(T, q0=np.zeros(4))
    with pytest.raises(ValueError, match=r"q0 must have shape \(5,\) or \(3, 5\)"):
        ROBOT.ikine_all(T, q0=np.zeros((2, 5)))
    with pytest.raises(TypeError, match="q0 must be a number or an array of numbers"):
        ROBOT.ikine_all(T[0], q0=[0.0, "a", 0, 0, 0])
    with pytest.raises(TypeError, match="q0 must be real numbers"):
        ROBOT.ikine_all(T[0], q0=[0.0, 1j, 0, 0, 0])


def test_batch_project_solves_each_nearest_pose():
    """ikine_all passes project=True on to the solver for a batch (N, 4, 4) as for one pose."""
    T0 = ROBOT.fkine(np.array([0.5, -0.4, 0.9, 0.6, 0.3]))
    T = np.stack([T0, T0 @ armlab.Rot("x", 0.3)])  # the second is not reachable by the 5-DOF arm
    batch = ROBOT.ikine_all(T, project=True)
    for i in range(2):
        one = ROBOT.ikine_all(T[i], project=True)
        assert np.allclose(batch[i].q, one.q) and batch.reason[i] == one.reason
    assert batch.valid[1].any() and "nearest_T" in batch.reason[1] and "nearest_T" in batch[1].reason
