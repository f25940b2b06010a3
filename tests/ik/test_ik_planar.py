"""Planar 2R / 3R closed-form inverse kinematics (armlab.ik_planar) and the paper's eq. (12) selection.

* both elbow solutions, labels up/down by geometry, round trips (hypothesis);
* unreachable targets (too far, too near, off the plane) give an empty result with a reason;
* the workspace boundary (stretched arm) and the folded arm at the base (θ1 free);
* the 3-joint weighted motion J = k1|Δθ1| + k2|Δθ2| + k3|Δθ3|, k = (3, 2, 1) (paper 003 eq. (12)).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import armlab
from armlab import ik
from armlab.ik import PAPER_WEIGHTS, wrap_angle

PROPS = settings(max_examples=150, deadline=None, derandomize=True, database=None)
R2 = armlab.models.planar2r(1.0, 0.7)
R3 = armlab.models.planar3r(1.0, 0.8, 0.3)
angle = st.floats(-math.pi, math.pi, allow_nan=False)


def test_textbook_exercise_6_pose():
    """l1 = l2 = 0.5, θ = (30°, 60°): the other solution is the mirror image about the base–tip line."""
    sols = ik.planar2r_ikine(*armlab.models.planar2r(0.5, 0.5).fkine(np.radians([30, 60]))[:2, 3], 0.5, 0.5)
    assert sols.labels == ["up", "down"]
    assert np.allclose(np.degrees(sols.q), [[90, -60], [30, 60]])


@PROPS
@given(q=st.tuples(angle, angle).map(np.array))
def test_2r_round_trip_and_labels(q):
    T = R2.fkine(q)
    sols = R2.ikine_all(T)
    assert sols.success and sols.q.shape == (2, 2) and np.isfinite(sols.q).all()
    assert max(np.abs(R2.fkine(r)[:3, 3] - T[:3, 3]).max() for r in sols.q) <= 1e-9
    if abs(math.sin(q[1])) > 1e-6:
        d = np.abs(wrap_angle(sols.q - q)).max(axis=1)
        i = int(np.argmin(d))
        assert d[i] < 1e-7
        # elbow up ⇔ the elbow is counter-clockwise of (above) the base→tip line ⇔ θ2 < 0
        elbow, tip = R2.fkine_all(q)[1][:2, 3], T[:2, 3]
        ccw = tip[0] * elbow[1] - tip[1] * elbow[0] > 0
        assert sols.labels[i] == ("up" if ccw else "down")


@PROPS
@given(q=st.tuples(angle, angle, angle).map(np.array))
def test_3r_round_trip_position_and_orientation(q):
    T = R3.fkine(q)
    sols = R3.ikine_all(T)
    assert sols.success and sols.q.shape == (2, 3)
    assert max(np.abs(R3.fkine(r) - T).max() for r in sols.q) <= 1e-9
    if abs(math.sin(q[1])) > 1e-6:
        assert np.abs(wrap_angle(sols.q - q)).max(axis=1).min() < 1e-7


@pytest.mark.parametrize("x, y, words", [(2.0, 0.0, "farther than l1 + l2"), (0.1, 0.1, "nearer than |l1 − l2|")])
def test_2r_unreachable(x, y, words):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sols = R2.ikine_all(armlab.Trans(x, y, 0))
    assert sols.q.shape == (0, 2) and not sols.success and "unreachable" in sols.reason and words in sols.reason
    assert len(ik.planar2r_ikine(x, y, 1.0, 0.7)) == 0


def test_off_plane_and_3r_orientation_not_about_z():
    assert "off the arm's plane" in R2.ikine_all(armlab.Trans(1, 0, 0.1)).reason
    assert "rotation about" in R3.ikine_all(armlab.Trans(1, 0, 0) @ armlab.Rot("x", 0.3)).reason
    assert "the wrist" in ik.planar3r_ikine(5.0, 0.0, 0.0, 1.0, 0.8, 0.3).reason


def test_boundary_stretched_arm_double_root():
    T = R2.fkine([0.4, 0.0])
    sols = R2.ikine_all(T)
    # the double root of θ2 = ±acos(D) is determined to √ε ≈ 1.5e-8 (D = 1 − O(ε)); the position exactly
    assert len(sols) == 2 and np.allclose(sols.q, [[0.4, 0.0], [0.4, 0.0]], atol=1e-7)
    assert len(sols.unique(1e-7)) == 1 and np.allclose(R2.fkine(sols.q[0]), T, atol=1e-15)
    T[:2, 3] *= 1 + 1e-13  # rounding beyond the boundary is still reachable
    assert len(R2.ikine_all(T)) == 2


def test_folded_arm_at_the_base_is_singular_theta1_free():
    robot = armlab.models.planar2r(1.0, 1.0)
    sols = robot.ikine_all(robot.fkine([0.3, math.pi]), q0=[0.3, 0.0])
    assert sols.singular.all() and np.allclose(sols.q[:, 0], 0.3) and np.allclose(np.abs(sols.q[:, 1]), math.pi)
    assert np.allclose(robot.fkine(sols.q[0]), robot.fkine([0.3, math.pi]))


def test_offsets_and_base_are_handled():
    links = [
        armlab.DHLink(a=1.0, offset=0.2, qlim=(-3, 3)),
        armlab.DHLink(a=0.6, offset=-0.5, qlim=(-3, 3)),
        armlab.DHLink(a=0.2, d=0.1, qlim=(-3, 3)),
    ]
    robot = armlab.DHRobot(links, base=armlab.Trans(0.5, 0.2, 0.3) @ armlab.Rot("z", 1.0))
    q = np.array([0.3, 1.1, -0.4])
    sols = robot.ikine_all(robot.fkine(q))
    assert np.abs(wrap_angle(sols.q - q)).max(axis=1).min() < 1e-9


def test_eq_12_paper_weights_on_a_3_joint_arm():
    """J = 3|Δθ1| + 2|Δθ2| + |Δθ3| (paper 003 eq. (12), k = (3, 2, 1)) can choose another branch than Σ|Δθ|."""
    q = np.array([0.5, 0.9, -0.6])
    T = R3.fkine(q)
    sols = R3.ikine_all(T)
    a, b = sols.q
    # by hand for one configuration
    qc = np.array([0.1, 0.2, 0.3])
    J3, _ = ik.joint_motion(sols.q, qc, PAPER_WEIGHTS, R3.qlim)
    d = np.abs(wrap_angle(a - qc))
    assert J3[0] == pytest.approx(3 * d[0] + 2 * d[1] + d[2])
    # current configurations between the two branches: find where the weights change the choice
    differ = 0
    for t in np.stack(np.meshgrid(*[np.linspace(0, 1, 5)] * 3), -1).reshape(-1, 3):
        qc = a + t * (b - a)
        w = R3.ikine(T, q0=qc, weights=PAPER_WEIGHTS)
        u = R3.ikine(T, q0=qc)
        J3, _ = ik.joint_motion(sols.q, qc, PAPER_WEIGHTS, R3.qlim)
        J1, _ = ik.joint_motion(sols.q, qc, None, R3.qlim)
        assert w.cost == pytest.approx(J3.min()) and u.cost == pytest.approx(J1.min())
        differ += w.labels != u.labels
    assert differ > 0
    with pytest.raises(ValueError, match="weights"):
        R3.ikine(T, q0=qc, weights=[1, -1, 1])


def test_eq_12_as_extracted_and_intended_readings_choose_differently():
    """Paper 003 eq. (12) is extracted as J = k1|Δθ1| + k2|Δθ3| + k3|Δθ3| (a garbled subscript).

    Read literally, joint 2 costs nothing and θ3 is weighted k2 + k3 = 3; the paper's "three axes"
    (旋转三个轴) and k = (3, 2, 1) mean k2|Δθ2|. On chapter 03's planar 3R example the two readings
    pick different elbows, so the reading matters.
    """
    sols = ik.planar3r_ikine(1.8, -0.5, math.radians(20), 1.0, 1.0, 0.5)
    q0 = np.zeros(3)
    assert sols.labels == ["up", "down"]
    d = np.abs(sols.q)  # from the zero configuration
    intended, literal = d @ PAPER_WEIGHTS, 3 * d[:, 0] + (2 + 1) * d[:, 2]
    assert ik.joint_motion(sols.q, q0, PAPER_WEIGHTS)[0] == pytest.approx(intended)
    assert ik.joint_motion(sols.q, q0, (3, 0, 3))[0] == pytest.approx(literal)
    assert ik.select(sols, q0, PAPER_WEIGHTS).labels == ["up"]
    assert ik.select(sols, q0, (3, 0, 3)).labels == ["down"] == ik.select(sols, q0).labels
