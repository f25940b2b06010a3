"""PUMA560 closed-form inverse kinematics, textbook §3.2.3 eqs. (3.33)–(3.53) (armlab.ik.puma560).

* errata of the printed equations, derived with sympy and shown wrong numerically;
* properties (hypothesis): ikine_all(fkine(q)) contains q (mod 2π), every solution reproduces T,
  generic poses have 8 distinct solutions, branch labels mean what they say;
* the check pose of Example 3.3, wrist singularity (3.48), workspace boundary, unreachable poses;
* joint-range handling (θ2, θ3 outside (−π, π], θ6 ±266°) and solution selection (paper 003 eq. (12));
* cross-checks against roboticstoolbox-python: Puma560.ikine_a per configuration on the same
  geometry, and analytic_ik().solve on our standard-DH table, compared as sets;
* batched IK equals the looped single-pose solver.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

import armlab
from armlab import ik
from armlab.ik import PUMA_LABELS, wrap_angle

PROPS = settings(max_examples=150, deadline=None, derandomize=True, database=None)
ROBOT = armlab.models.puma560()
P = armlab.models.PUMA560
A2, A3, D2, D4 = P["a2"], P["a3"], P["d2"], P["d4"]
QLIM = ROBOT.qlim
deg = np.radians

q_in_limits = st.tuples(*[st.floats(float(lo), float(hi), allow_nan=False) for lo, hi in QLIM]).map(np.array)


def max_err(robot, qs, T):
    return max((np.abs(robot.fkine(q) - T).max() for q in qs), default=0.0)


def contains(qs, q, tol=1e-7):
    """q is among the rows qs (mod 2π). Near the wrist singularity (|s5| < 1e-6) only θ4 + θ6 is
    well determined (the error of θ4 alone grows like 1e-16/|s5|), so the sum is compared there."""
    if not len(qs):
        return False
    d = np.abs(wrap_angle(qs - q))
    if abs(math.sin(q[4])) < 1e-6:
        d[:, 3] = np.abs(wrap_angle(qs[:, 3] + qs[:, 5] - q[3] - q[5]))
        d[:, 5] = 0.0
    return float(d.max(axis=1).min()) < tol


# --- errata --------------------------------------------------------------------------------------


def test_eq_3_39_second_line_is_minus_pz_not_minus_px():
    """(3,4) element of (3.35): pz = ¹pz = −a3·s23 − a2·s2 − d4·c23, i.e. −pz = a3s23 + d4c23 + a2s2."""
    sp = pytest.importorskip("sympy")
    q = sp.symbols("q1:7")
    a2, a3, d2, d4 = sp.symbols("a2 a3 d2 d4")
    sym = armlab.models.puma560(symbolic=True)
    T06 = sym.fkine(q)
    T01 = sym.fkine_all(q)[1]
    lhs = (T01.inv() * T06)[2, 3]  # row 3 of ⁰₁T⁻¹ is (0, 0, 1, 0): this is pz
    s2, s23, c23 = sp.sin(q[1]), sp.sin(q[1] + q[2]), sp.cos(q[1] + q[2])
    assert sp.simplify(sp.expand_trig(lhs - T06[2, 3])) == 0
    assert sp.simplify(sp.expand_trig(-T06[2, 3] - (a3 * s23 + d4 * c23 + a2 * s2))) == 0
    # numerically: the printed "−px = …" does not hold
    qn = np.array([0.3, -0.5, 0.4, 0.2, 0.6, -0.1])
    T = ROBOT.fkine(qn)
    rhs = A3 * math.sin(qn[1] + qn[2]) + D4 * math.cos(qn[1] + qn[2]) + A2 * math.sin(qn[1])
    assert -T[2, 3] == pytest.approx(rhs, abs=1e-12)
    assert abs(-T[0, 3] - rhs) > 0.1


def test_eq_3_45_second_line_has_c23_pz_not_c23_px():
    """Row 2 of ⁰₃T⁻¹ (3.44) is (−c1s23, −s1s23, −c23, a2s3): (2,4) gives −c1s23px − s1s23py − c23pz + a2s3 = d4."""
    qn = np.array([0.7, -0.9, 0.5, 0.1, -0.4, 0.8])
    T = ROBOT.fkine(qn)
    px, py, pz = T[:3, 3]
    c1, s1 = math.cos(qn[0]), math.sin(qn[0])
    c23, s23, s3 = math.cos(qn[1] + qn[2]), math.sin(qn[1] + qn[2]), math.sin(qn[2])
    T03 = ROBOT.fkine_all(qn)[3]
    assert np.allclose(np.linalg.inv(T03)[1], [-c1 * s23, -s1 * s23, -c23, A2 * s3])
    corrected = -c1 * s23 * px - s1 * s23 * py - c23 * pz + A2 * s3
    printed = -c1 * s23 * px - s1 * s23 * py - c23 * px + A2 * s3
    assert corrected == pytest.approx(D4, abs=1e-12)
    assert abs(printed - D4) > 1e-3
    # and the first line, c1c23px + s1c23py − s23pz − a2c3 = a3, as printed
    assert c1 * math.cos(qn[1] + qn[2]) * px + s1 * c23 * py - s23 * pz - A2 * math.cos(qn[2]) == pytest.approx(A3)


def test_eq_3_32_oy_has_s6_not_c6():
    """(3.32) prints oy = s1[c23(−c4c5s6 − s4c6) + s23s5s6] − c1(c4c6 − s4c5c6); the last c6 is s6."""
    q = np.array([0.4, -0.3, 0.9, 0.5, 0.7, 1.1])
    c = np.cos(q)
    s = np.sin(q)
    c23, s23 = math.cos(q[1] + q[2]), math.sin(q[1] + q[2])
    c1, c4, c5, c6 = c[0], c[3], c[4], c[5]
    s1, s4, s5, s6 = s[0], s[3], s[4], s[5]
    right = s1 * (c23 * (-c4 * c5 * s6 - s4 * c6) + s23 * s5 * s6) - c1 * (c4 * c6 - s4 * c5 * s6)
    printed = s1 * (c23 * (-c4 * c5 * s6 - s4 * c6) + s23 * s5 * s6) - c1 * (c4 * c6 - s4 * c5 * c6)
    oy = ROBOT.fkine(q)[1, 1]
    assert right == pytest.approx(oy, abs=1e-12)
    assert abs(printed - oy) > 1e-3


def test_eq_3_49_inverse_of_T04_as_printed():
    q = np.array([0.4, -0.3, 0.9, 0.5, 0.7, 1.1])
    c1, s1, c4, s4 = math.cos(q[0]), math.sin(q[0]), math.cos(q[3]), math.sin(q[3])
    c23, s23, c3, s3 = math.cos(q[1] + q[2]), math.sin(q[1] + q[2]), math.cos(q[2]), math.sin(q[2])
    printed = np.array(
        [
            [c1 * c23 * c4 + s1 * s4, s1 * c23 * c4 - c1 * s4, -s23 * c4, -A2 * c3 * c4 + D2 * s4 - A3 * c4],
            [-c1 * c23 * s4 + s1 * c4, -s1 * c23 * s4 - c1 * c4, s23 * s4, A2 * c3 * s4 + D2 * c4 + A3 * s4],
            [-c1 * s23, -s1 * s23, -c23, A2 * s3 - D4],
            [0, 0, 0, 1],
        ]
    )
    assert np.allclose(printed, np.linalg.inv(ROBOT.fkine_all(q)[4]), atol=1e-12)


# --- properties ----------------------------------------------------------------------------------


@PROPS
@given(q=q_in_limits)
def test_ikine_all_contains_q_and_reproduces_T(q):
    T = ROBOT.fkine(q)
    sols = ROBOT.ikine_all(T, q0=q)  # q0 fixes θ4 if the wrist is singular
    assert sols.q.shape == (8, 6) and sols.success and sols.reason == ""
    assert np.isfinite(sols.q).all()
    assert max_err(ROBOT, sols.q, T) <= 1e-9
    assert contains(sols.q, q)
    i = int(np.argmin(np.abs(wrap_angle(sols.q - q)).max(axis=1)))
    assert sols.within_limits[i]  # q itself is within limits, and so is its representation
    assert np.all((sols.q > -math.pi - 1e-12) | (QLIM[:, 0] < -math.pi))


@PROPS
@given(q=q_in_limits)
def test_generic_pose_has_8_distinct_solutions(q):
    T = ROBOT.fkine(q)
    u = A2 * math.cos(q[1]) + A3 * math.cos(q[1] + q[2]) - D4 * math.sin(q[1] + q[2])
    assume(abs(math.sin(q[4])) > 1e-6)  # not the wrist singularity (3.48)
    assume(abs(u) > 1e-6)  # not on the shoulder boundary of (3.38)
    assume(abs(A3 * math.sin(q[2]) + D4 * math.cos(q[2])) > 1e-6)  # not on the elbow boundary of (3.42)
    sols = ROBOT.ikine_all(T)
    d = np.abs(wrap_angle(sols.q[:, None, :] - sols.q[None, :, :])).max(axis=2)
    assert (d + np.eye(8) * 10).min() > 1e-7
    assert not sols.singular.any()


@PROPS
@given(q=q_in_limits)
def test_branch_labels_match_the_geometry(q):
    """left/right: side of the shoulder offset; up/down: elbow above the shoulder–wrist line; flip: θ5 < 0."""
    assume(abs(math.sin(q[4])) > 1e-6)
    F = ROBOT.fkine_all(q)
    T = F[-1]
    S, E, W = F[2][:3, 3], F[3][:3, 3], T[:3, 3]  # shoulder (frame 2), elbow (frame 3), wrist centre
    forward = np.array([W[0], W[1], 0.0]) - np.array([S[0], S[1], 0.0])  # horizontal, towards the wrist
    assume(np.linalg.norm(forward) > 1e-6)
    left_of_forward = np.cross([0, 0, 1.0], forward)
    shoulder = "left" if S @ left_of_forward > 0 else "right"  # S − base is the offset d2·y1
    f = forward / np.linalg.norm(forward)
    # in the arm's vertical plane, coordinates (along f, up): E above the line S→W ⇔ cross > 0
    (wr, wz), (er, ez) = [((P - S) @ f, (P - S)[2]) for P in (W, E)]
    cross = wr * ez - wz * er
    assume(abs(cross) > 1e-9)
    elbow = "up" if cross > 0 else "down"
    wrist = "noflip" if q[4] >= 0 else "flip"
    sols = ROBOT.ikine_all(T)
    i = int(np.argmin(np.abs(wrap_angle(sols.q - q)).max(axis=1)))
    assert sols.labels[i] == f"{shoulder}-{elbow}-{wrist}"
    assert sols.labels == list(PUMA_LABELS)


# --- Example 3.3 check pose, singularity, boundary, unreachable ------------------------------------


def test_example_3_3_check_pose_is_a_wrist_singularity():
    """θ = (90°, 0, −90°, 0, 0, 0): s5 = 0, so (3.48) is atan2(0, 0); θ4 is chosen and θ6 compensates."""
    q = deg([90, 0, -90, 0, 0, 0])
    T = ROBOT.fkine(q)
    assert np.allclose(T[:3, 3], [-D2, A2 + D4, A3])
    sols = ROBOT.ikine_all(T)
    # only the arm branch of the pose itself (left, elbow down) has s5 = 0; both its wrists collapse
    assert len(sols) == 8 and sols.singular.tolist() == [False, False, True, True] + [False] * 4
    assert np.array_equal(sols.q[2], sols.q[3])
    assert max_err(ROBOT, sols.q, T) <= 1e-12
    assert contains(sols.q, q)
    assert np.allclose(sols.q[sols.singular, 3], 0.0)  # θ4 = 0 without q0
    # with q0, θ4 keeps its value in q0 and θ6 compensates
    qc = deg([80, 5, -85, 40, 3, 0])
    s2 = ROBOT.ikine_all(T, q0=qc)
    assert np.allclose(s2.q[s2.singular, 3], qc[3])
    assert max_err(ROBOT, s2.q, T) <= 1e-12
    k = s2.labels.index("left-down-noflip")
    assert np.allclose(s2.q[k], deg([90, 0, -90, 40, 0, -40]), atol=1e-12)


def test_table_3_2_check_pose_is_within_the_theta3_range_in_this_tables_theta3():
    """Table 3.2 prints θ3's range in Lee's θ3 (this θ3 + 180°); as −225°…45° it holds the check pose θ3 = −90°."""
    q = deg([90, 0, -90, 0, 0, 0])
    sols = ROBOT.ikine_all(ROBOT.fkine(q))
    k = sols.labels.index("left-down-noflip")
    assert np.allclose(sols.q[k], q) and sols.within_limits[k]
    assert ROBOT.within_limits(q)


def test_wrist_singularity_flags_and_valid_solutions():
    q = np.array([0.5, -1.0, 0.6, 1.2, 0.0, -0.7])
    T = ROBOT.fkine(q)
    sols = ROBOT.ikine_all(T, q0=q)
    assert sols.singular.sum() == 2 and max_err(ROBOT, sols.q, T) <= 1e-12
    assert contains(sols.q, q)
    near = q.copy()
    near[4] = 1e-6  # close to, not at, the singularity: all 8 distinct, none flagged
    sols = ROBOT.ikine_all(ROBOT.fkine(near))
    assert not sols.singular.any() and contains(sols.q, near)


@pytest.mark.parametrize("where", ["elbow", "shoulder"])
def test_workspace_boundary_double_roots(where):
    """On the boundary the ± roots of (3.38) / (3.42) coincide: 8 rows, pairs equal, no NaN."""
    if where == "elbow":  # k = √(a3² + d4²), θ3 = atan2(a3, d4) − 90°: arm stretched, √(a3² + d4² − k²) = 0
        q = np.array([0.3, -0.8, math.atan2(A3, D4) - math.pi / 2, 0.4, 0.5, 0.6])
    else:  # u = c1px + s1py = 0: wrist centre straight above the shoulder, √(px² + py² − d2²) = 0
        q2 = 0.3
        # u = a2c2 + a3c23 − d4s23 = 0 → solve θ23 for this θ2
        r, g = math.hypot(A3, D4), math.atan2(-D4, A3)
        t23 = math.acos(-A2 * math.cos(q2) / r) + g
        q = np.array([0.2, q2, t23 - q2, 0.4, 0.5, 0.6])
    T = ROBOT.fkine(q)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sols = ROBOT.ikine_all(T, q0=q)
    assert len(sols) == 8 and np.isfinite(sols.q).all()
    assert max_err(ROBOT, sols.q, T) <= 1e-9
    assert contains(sols.q, q, tol=1e-6)
    assert len(sols.unique(1e-6)) == 4


@pytest.mark.parametrize(
    "T, words",
    [
        (armlab.Trans(1.5, 0.2, 0.1), ["unreachable", "(3.42)"]),
        (armlab.Trans(0.0, 0.0, 0.3), ["unreachable", "(3.38)", "shoulder offset"]),
        (armlab.Trans(0.05, 0.02, 0.0), ["unreachable", "(3.38)"]),
    ],
)
def test_unreachable_gives_empty_result_with_reason(T, words):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sols = ROBOT.ikine_all(T)
    assert sols.q.shape == (0, 6) and not sols.success and not sols.reachable
    assert all(w in sols.reason for w in words), sols.reason
    one = ROBOT.ikine(T, q0=np.zeros(6))
    assert one.q.shape == (0, 6) and one.reason == sols.reason


def test_unique_and_take_of_an_empty_result():
    sols = ROBOT.ikine_all(armlab.Trans(2.0, 0.0, 0.0))
    for got in (sols.unique(), sols.take([])):
        assert got.q.shape == (0, 6) and got.labels == [] and not got.success and got.reason == sols.reason


def test_just_outside_the_boundary_is_unreachable_and_just_inside_reachable():
    q = np.array([0.3, -0.8, math.atan2(A3, D4) - math.pi / 2, 0.4, 0.5, 0.6])  # arm stretched
    T = ROBOT.fkine(q)
    out = T.copy()
    out[:3, 3] *= 1 + 1e-6
    assert len(ROBOT.ikine_all(out)) == 0
    inside = T.copy()
    inside[:3, 3] *= 1 - 1e-6
    assert len(ROBOT.ikine_all(inside)) == 8


@pytest.mark.parametrize(
    "bad, match",
    [
        (np.eye(3), "T must have shape"),
        (np.full((4, 4), np.nan), "T contains NaN"),
        (np.diag([2.0, 1, 1, 1]), "T is not a rigid transform"),
        (np.array([[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]]), "T is not a rigid"),  # det −1
        (np.vstack([np.eye(4)[:3], [0, 0, 1, 1]]), "T is not a rigid"),
    ],
)
def test_bad_T_raises_value_error_naming_T(bad, match):
    with pytest.raises(ValueError, match=match):
        ROBOT.ikine_all(bad)


def test_ikine_of_a_batch_says_to_use_ikine_all():
    with pytest.raises(ValueError, match=r"T must have shape \(4, 4\).*ikine_all"):
        ROBOT.ikine(ROBOT.fkine(np.zeros((2, 6))))


def test_other_robots_raise_not_implemented_pointing_to_numeric():
    for robot in (armlab.models.stanford_arm(), armlab.models.rpr()):
        with pytest.raises(NotImplementedError, match="ikine_numeric"):
            robot.ikine_all(np.eye(4))


# --- variants of the table: flange tool, standard DH, base, other lengths ---------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda: armlab.models.puma560(flange=True),
        armlab.models.puma560_standard,
        lambda: armlab.models.puma560_standard(flange=True),
        lambda: armlab.DHRobot(
            armlab.models.puma560().links,
            "modified",
            base=armlab.Trans(0.1, -0.2, 0.67) @ armlab.Rot("z", 0.3),
            tool=armlab.Trans(0.01, 0.02, 0.1) @ armlab.Rot("x", 0.2),
        ),
    ],
)
def test_variants_are_recognised_and_round_trip(make):
    robot = make()
    rng = np.random.default_rng(5)
    for _ in range(20):
        q = rng.uniform(QLIM[:, 0], QLIM[:, 1])
        T = robot.fkine(q)
        sols = robot.ikine_all(T, q0=q)
        assert len(sols) == 8 and max_err(robot, sols.q, T) <= 1e-9 and contains(sols.q, q)


def test_d6_in_the_dh_table_is_handled_as_a_tool():
    robot = armlab.models.puma560().replace_link(5, d=P["d6"])  # link 6 (index 5) with d6 in the table
    q = np.array([0.3, -0.5, 0.4, 0.2, 0.6, -0.1])
    T = robot.fkine(q)
    assert np.allclose(T, armlab.models.puma560(flange=True).fkine(q))
    sols = robot.ikine_all(T)
    assert contains(sols.q, q) and max_err(robot, sols.q, T) <= 1e-12


# --- joint ranges and selection --------------------------------------------------------------------


def test_angles_moved_into_ranges_outside_minus_pi_pi():
    """θ2 = θ3 = −200° are in range (−225°…45°); their wrapped form 160° is not. θ6 = 250° likewise."""
    q = deg([10, -200, -200, 20, 30, 250])
    assert ROBOT.within_limits(q)
    sols = ROBOT.ikine_all(ROBOT.fkine(q))
    i = int(np.argmin(np.abs(wrap_angle(sols.q - q)).max(axis=1)))
    assert np.allclose(sols.q[i, :3], q[:3]) and sols.within_limits[i]
    # θ6 = 250° ≡ −110°: −110° is already in (−π, π] and within ±266°, so the wrapped value stays
    assert sols.q[i, 5] == pytest.approx(math.radians(-110))
    # ikine moves it to the equivalent nearest to the current configuration
    best = ROBOT.ikine(ROBOT.fkine(q), q0=q)
    assert np.allclose(best.q[0], q) and best.cost == pytest.approx(0, abs=1e-9)


def test_ikine_never_picks_a_solution_outside_limits_when_one_inside_exists():
    rng = np.random.default_rng(11)
    for _ in range(50):
        q = rng.uniform(QLIM[:, 0], QLIM[:, 1])
        T = ROBOT.fkine(q)
        qc = rng.uniform(-math.pi, math.pi, 6)  # anywhere, even outside limits
        best = ROBOT.ikine(T, q0=qc, weights=[6, 5, 4, 3, 2, 1])
        assert len(best) == 1 and best.within_limits[0] and ROBOT.within_limits(best.q[0])
        assert np.abs(ROBOT.fkine(best.q[0]) - T).max() <= 1e-9
        sols = ROBOT.ikine_all(T)
        J, _ = ik.joint_motion(sols.q[sols.within_limits], qc, [6, 5, 4, 3, 2, 1], ROBOT.qlim)
        assert best.cost == pytest.approx(J.min())


def test_eq_12_weighted_joint_motion_selects_the_cheaper_branch():
    """J = Σ kᵢ|Δθᵢ| (paper 003 eq. (12)): unit weights and the paper's k = (3, 2, 1, 1, 1, 1) choose different branches.

    From q_now the right arm is nearest in total, but it swings joint 2 by 167.5°; the left arm moves
    joint 2 by 30° and the wrist more. With joint 2 weighted 2 and the wrist 1, the left arm costs less.
    """
    T = ROBOT.fkine(deg([20, -60, -10, 50, -60, 250]))
    q_now = deg([-70, -30, -40, 150, 50, -60])
    k6 = list(ik.PAPER_WEIGHTS) + [1, 1, 1]
    nearest, weighted = ROBOT.ikine(T, q0=q_now), ROBOT.ikine(T, q0=q_now, weights=k6)
    assert nearest.labels == ["right-down-noflip"] and weighted.labels == ["left-up-flip"]
    assert nearest.within_limits[0] and weighted.within_limits[0]
    # J by hand from the chosen angles (neither pair crosses ±180° here, so |Δθ| is the plain difference)
    d_near, d_weighted = np.abs(nearest.q[0] - q_now), np.abs(weighted.q[0] - q_now)
    assert nearest.cost == pytest.approx(d_near.sum()) and weighted.cost == pytest.approx(k6 @ d_weighted)
    assert d_near.sum() < d_weighted.sum() and k6 @ d_weighted < k6 @ d_near
    assert np.degrees(d_near[1]) == pytest.approx(167.5, abs=0.1) and np.degrees(d_weighted[1]) == pytest.approx(30)
    # both are the minimum over all valid branches, as eq. (12) asks
    sols = ROBOT.ikine_all(T, q_now)
    for w, best in ((None, nearest), (k6, weighted)):
        J, _ = ik.joint_motion(sols.q[sols.within_limits], q_now, w, ROBOT.qlim)
        assert best.cost == pytest.approx(J.min())


def test_joint_motion_wraps_only_where_the_range_allows():
    """θ1 (±160°) cannot pass through ±180°, θ6 (±266°) can."""
    sols = ik.IKSolutions(deg([[150, 0, 0, 0, 0, 150]]), ["x"], np.array([True]), np.array([False]))
    J, moved = ik.joint_motion(sols.q, deg([-150, 0, 0, 0, 0, -150]), [1, 0, 0, 0, 0, 0], ROBOT.qlim)
    assert math.degrees(J[0]) == pytest.approx(300)
    J, moved = ik.joint_motion(sols.q, deg([-150, 0, 0, 0, 0, -150]), [0, 0, 0, 0, 0, 1], ROBOT.qlim)
    assert math.degrees(J[0]) == pytest.approx(60) and math.degrees(moved[0, 5]) == pytest.approx(-210)


# --- batch ------------------------------------------------------------------------------------------


def test_batched_equals_looped_including_unreachable_and_singular():
    rng = np.random.default_rng(3)
    Q = rng.uniform(QLIM[:, 0], QLIM[:, 1], (300, 6))
    Q[::17, 4] = 0.0  # wrist singular
    T = ROBOT.fkine(Q)
    T[5, :3, 3] = [2.0, 0.0, 0.0]  # out of reach
    T[9, :3, 3] = [0.0, 0.0, 0.2]  # on the axis of joint 1
    batch = ROBOT.ikine_all(T, q0=Q)
    assert batch.q.shape == (300, 8, 6) and batch.valid.shape == (300, 8)
    assert batch.labels == list(PUMA_LABELS)
    assert np.isfinite(batch.q).all()
    for i in range(300):
        one = ROBOT.ikine_all(T[i], q0=Q[i])
        if len(one) == 0:
            assert not batch.valid[i].any() and batch.reason[i].startswith("unreachable")
            continue
        assert batch.valid[i].all() and batch.reason[i] == ""
        # equal as joint positions: an angle outside its range may come out as 180° in one and −180° in the other
        assert np.abs(wrap_angle(batch.q[i] - one.q)).max() <= 1e-9
        assert (batch.within_limits[i] == one.within_limits).all()
        assert (batch.singular[i] == one.singular).all()
    assert batch.singular[::17].any(axis=1).all()
    assert len(batch[5]) == 0 and len(batch[0]) == 8


def test_batch_bad_input_names_the_pose():
    T = np.repeat(np.eye(4)[None], 3, axis=0)
    T[1, 0, 0] = 2.0
    with pytest.raises(ValueError, match=r"T\[1\] is not a rigid transform"):
        ROBOT.ikine_all(T)


# --- roboticstoolbox-python cross-checks ------------------------------------------------------------

rtb = pytest.importorskip("roboticstoolbox")
# RTB's Puma560 uses Paul's frames: α = (90°, 0, −90°, 90°, −90°, 0), the shoulder offset d3 in link 3
# and a base height d1. With d1 = 0 and our lengths it is our arm, with q_rtb = q + (π, π, 0, 0, 0, 0).
# Its ikine_a letters l/r and u/d mean what ours do; its n/f are our flip/noflip.
RTB_SHIFT = np.array([math.pi, math.pi, 0, 0, 0, 0])
RTB_CONFIG = {"left": "l", "right": "r", "up": "u", "down": "d", "noflip": "f", "flip": "n"}


def rtb_puma_our_lengths():
    robot = rtb.models.DH.Puma560()
    robot.links[0].d = 0.0
    robot.links[1].a, robot.links[2].a, robot.links[2].d, robot.links[3].d = A2, A3, D2, D4
    return robot


def test_rtb_puma560_with_our_lengths_is_our_arm():
    R = rtb_puma_our_lengths()
    rng = np.random.default_rng(0)
    for q in rng.uniform(-3, 3, (10, 6)):
        assert np.allclose(R.fkine(q + RTB_SHIFT).A, ROBOT.fkine(q), atol=1e-12)


def test_rtb_puma560_qlim_is_table_3_2_with_theta3_in_this_tables_theta3():
    """RTB's limits (Unimation's, via Wang & Chen), mapped to our θ, are ours for joints 2–6: θ3 −225°…45°.

    Joint 1 is not compared: the mapping turns the base by 180° (RTB's zero pose has the shoulder offset
    on the other side), so RTB's ±160° lands on 20°…340°; where the real base's dead zone faces is not
    a kinematic fact, and the book and Lee's table both centre θ1's range on θ1 = 0.
    """
    theirs = np.array([link.qlim for link in rtb.models.DH.Puma560().links]) - RTB_SHIFT[:, None]
    assert np.allclose(theirs[1:], QLIM[1:])
    assert np.allclose(np.degrees(theirs[2]), [-225, 45])


def test_rtb_ikine_a_per_configuration_equals_our_labelled_solutions():
    R = rtb_puma_our_lengths()
    rng = np.random.default_rng(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for q in rng.uniform(QLIM[:, 0], QLIM[:, 1], (10, 6)):
            T = ROBOT.fkine(q)
            sols = ROBOT.ikine_all(T)
            for label, row in zip(sols.labels, sols.q):
                config = "".join(RTB_CONFIG[w] for w in label.split("-"))
                r = R.ikine_a(T, config)
                assert r.success, (config, r.reason)
                assert np.abs(wrap_angle(r.q - RTB_SHIFT - row)).max() < 1e-9, (label, config)


def test_rtb_analytic_ik_on_our_standard_table_gives_the_same_set():
    """RTB derives a solver for any 6R standard-DH arm (symbolically, ~10 s); compare as sets."""
    std = armlab.models.puma560_standard()
    links = [rtb.RevoluteDH(d=l.d, a=l.a, alpha=l.alpha, qlim=list(l.qlim)) for l in std.links]
    R = rtb.DHRobot(links, name="PUMA560 (textbook, standard DH)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        solver = R.analytic_ik()
        rng = np.random.default_rng(2)
        for q in rng.uniform(QLIM[:, 0], QLIM[:, 1], (5, 6)):
            T = std.fkine(q)
            theirs = solver.solve(T, joint_limits=False).q
            ours = std.ikine_all(T).q
            assert theirs.shape == ours.shape == (8, 6)
            d = np.abs(wrap_angle(theirs[:, None, :] - ours[None, :, :])).max(axis=2)
            assert d.min(axis=1).max() < 1e-8 and d.min(axis=0).max() < 1e-8


def test_closed_form_is_written_once_and_compiled_for_single_poses_and_batches():
    """ik.puma560.closed_form holds (3.38)–(3.53) once. Run as written on Python floats (FloatOps), as the
    straight-line single-pose function and as the numpy batch function (both compiled from one trace),
    it gives the same angles, flags and reachability, wrist-singular and unreachable poses included."""
    from armlab._core.validation import check_pose
    from armlab.ik import puma560 as ik_puma

    solver = ik.solver_for(ROBOT)
    # one trace: the single-pose source is the batch source with where/lt/le/and_/or_ written as syntax
    assert len(solver.single.source.splitlines()) == len(solver.batch.source.splitlines())
    assert "where(" in solver.batch.source and "where(" not in solver.single.source
    rng = np.random.default_rng(8)
    xs, refs = [], []
    for i in range(300):
        q = rng.uniform(-4, 4, 6)
        if i % 5 == 0:
            q[4] = 0.0  # wrist singular
        r = check_pose(ROBOT.fkine(q))
        if i % 7 == 0:
            r[0][3] = 2.0 if i % 2 else 0.01  # out of reach (3.42) / inside the shoulder offset (3.38)
        free = [math.cos(0.3), math.sin(0.3), math.cos(q[3]), math.sin(q[3])]
        x = [r[0][0], r[0][2], r[0][3], r[1][0], r[1][2], r[1][3], r[2][0], r[2][2], r[2][3], *free]
        ref = ik_puma.closed_form(x, A2, A3, D2, D4, solver.eps2, solver.lims, ik_puma.FloatOps)
        one = solver.single(r, *free, math.atan2, math.sqrt, math.cos, math.sin)
        assert np.abs(wrap_angle(np.subtract(one[0], ref[0]))).max() <= 1e-9
        assert [bool(v) for v in one[1]] == [bool(v) for v in ref[1]] and one[2] == ref[2]
        assert one[3][:2] == ref[3][:2]
        xs.append(r)
        refs.append(ref)
    assert sum(bool(r[3][0]) for r in refs) > 0 and sum(bool(r[3][1]) for r in refs) > 0
    assert sum(any(r[2]) for r in refs) >= 50
    cols = np.array(xs).transpose(1, 2, 0).copy()  # (4, 4, N)
    qs = rng.uniform(-4, 4, (2, 300))
    free = np.cos(qs[0]), np.sin(qs[0]), np.cos(qs[1]), np.sin(qs[1])
    refs = [
        ik_puma.closed_form([*x[:9], *f], A2, A3, D2, D4, solver.eps2, solver.lims, ik_puma.FloatOps)
        for x, f in zip(
            ([r[0][0], r[0][2], r[0][3], r[1][0], r[1][2], r[1][3], r[2][0], r[2][2], r[2][3]] for r in xs), zip(*free)
        )
    ]
    q, inside, sing, status = solver.batch(cols, *free, *ik_puma.NUMPY_OPS)
    assert np.abs(wrap_angle(np.array(q).T - [r[0] for r in refs])).max() <= 1e-9
    assert (np.array(inside, bool).T == [r[1] for r in refs]).all()
    assert (np.array(sing).T == [r[2] for r in refs]).all()
    assert (np.array(status[:2]).T == [r[3][:2] for r in refs]).all()
