"""The simulation paper's general inverse kinematics of a 3-R arm by norm equations, 003 eqs. (4)–(11)
(armlab.ik.norm_equation_ik): the quartic (10) on arms where A, B, D ≠ 0, against fkine and numeric IK;
the degenerate a1 = 0 case on the paper's own arm, against the closed form (armlab.ik.elbow3r)."""

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from armlab import DHLink, DHRobot, Trans, ik
from armlab.models import paper_3r


def _offset_arm():
    """The paper's arm with its shoulder 0.15 m off the base axis and the gripper 5 cm off the last link's line."""
    return DHRobot(
        [
            DHLink(a=0.15, alpha=-math.pi / 2, d=1.0),
            DHLink(a=1.0, offset=-math.pi / 2),
            DHLink(a=0.8),
        ],
        convention="standard",
        tool=Trans(0.2, 0.05, 0.0),
    )


def _twisted_arm():
    """Every DH parameter non-zero: shoulder offset, twisted elbow, link offsets, a tool off all axes."""
    return DHRobot(
        [
            DHLink(a=0.15, alpha=-math.pi / 2, d=0.4),
            DHLink(a=0.5, alpha=math.radians(20), d=0.1),
            DHLink(a=0.4, alpha=math.radians(-35), d=0.05),
        ],
        convention="standard",
        tool=Trans(0.1, 0.08, 0.03),
        base=Trans(0.2, -0.1, 0.3),
    )


def _same(q, qs, tol=1e-7):
    return any(np.allclose(np.angle(np.exp(1j * (q - x))), 0.0, atol=tol) for x in qs)


@pytest.mark.parametrize("make", [_offset_arm, _twisted_arm], ids=["offset", "twisted"])
def test_eq_5_to_11_the_quartic_finds_every_solution(make):
    robot = make()
    rng = np.random.default_rng(5)
    counts = []
    for q in rng.uniform(-math.pi, math.pi, (60, 3)):
        p = robot.fkine(q)[:3, 3]
        sol = ik.norm_equation_ik(robot, p)
        k = sol.coefficients
        scale = max(abs(v) for v in k.values())
        assert sol.case == "quartic" and min(abs(k["A"]), abs(k["B"]), abs(k["D"])) > 1e-6 * scale  # not degenerate
        assert abs(sol.quartic[0]) > 1e-9 * np.abs(sol.quartic).max()  # degree 4
        assert _same(q, sol.q), (q, sol.q)  # the pose we came from is among the solutions
        for x in sol.q:
            np.testing.assert_allclose(robot.fkine(x)[:3, 3], p, atol=1e-9)
            th = x + np.array([link.offset for link in robot.links])
            c1, s1, c3, s3 = np.cos(th[0]), np.sin(th[0]), np.cos(th[2]), np.sin(th[2])
            assert abs(k["A"] * c1 + k["B"] * s1 + k["C"] * c3 + k["D"] * s3 + k["E"]) < 1e-9  # (5)
            assert abs(k["F"] * c1 + k["G"] * s1 + k["H"] * c3 + k["I"] * s3 + k["J"]) < 1e-9  # (6)-(7)
        counts.append(len(sol.q))
    assert max(counts) == 4 and min(counts) >= 1


@pytest.mark.parametrize("make", [_offset_arm, _twisted_arm], ids=["offset", "twisted"])
def test_eq_10_agrees_with_numeric_ik(make):
    """Every solution numeric IK finds from random starts is one of the quartic's, and together they find all."""
    robot = make()
    rng = np.random.default_rng(6)
    for q in rng.uniform(-math.pi, math.pi, (4, 3)):
        T = robot.fkine(q)
        ours = ik.norm_equation_ik(robot, T[:3, 3]).q
        found = []
        for seed, start in enumerate(rng.uniform(-math.pi, math.pi, (16, 3))):
            num = ik.ikine_numeric(robot, T, start, mask=(1, 1, 1, 0, 0, 0), restarts=0, joint_limits=False, seed=seed)
            if num.success:
                assert _same(num.q[0], ours, tol=1e-6), (num.q[0], ours)
                found.append(num.q[0])
        assert all(_same(x, found, tol=1e-6) for x in ours)


def test_eq_5_a1_zero_is_the_closed_form_of_the_papers_arm():
    """a1 = 0: A = B = 0, (10) degenerates; the route's solutions are the closed form's (ik.elbow3r)."""
    arm = paper_3r()
    rng = np.random.default_rng(7)
    for q in rng.uniform(-math.pi, math.pi, (40, 3)):
        p = arm.fkine(q)[:3, 3]
        sol = ik.norm_equation_ik(arm, p)
        assert sol.case == "a1 = 0" and sol.quartic is None
        assert sol.coefficients["A"] == sol.coefficients["B"] == sol.coefficients["D"] == 0.0
        closed = arm.ikine_all(p)
        assert len(sol.q) == len(closed.q)
        assert all(_same(x, closed.q) for x in sol.q)


def test_eq_4_to_11_bad_input_and_unreachable_targets():
    with pytest.raises(ValueError, match="needs 3 revolute joints in the standard DH"):
        ik.norm_equation_ik(DHRobot([DHLink(), DHLink(a=1.0), DHLink(a=1.0)], convention="modified"), [1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="p is on the axis of joint 1"):
        ik.norm_equation_ik(_offset_arm(), [0.0, 0.0, 1.5])
    flat = DHRobot([DHLink(a=0.2), DHLink(a=1.0), DHLink(a=0.8)], convention="standard")
    with pytest.raises(ValueError, match="sin α1 = 0"):
        ik.norm_equation_ik(flat, [1.0, 0.5, 0.0])
    far = ik.norm_equation_ik(_offset_arm(), [5.0, 0.0, 1.0])
    assert far.q.shape == (0, 3) and "out of reach" in far.reason
    with pytest.raises(ValueError, match=r"p must have shape \(3,\)"):
        ik.norm_equation_ik(_offset_arm(), [1.0, 0.0])


# a₁ from 0 to 1 mm, through the range where the quartic's two pairs of roots are nearly double
A1 = st.one_of(st.just(0.0), st.floats(-15.0, -3.0).map(lambda e: 10.0**e)).flatmap(lambda a: st.sampled_from([a, -a]))
ANGLE = st.floats(-math.pi, math.pi)
LENGTH = st.floats(0.2, 1.5)
OFFSET = st.floats(-0.3, 0.3)


@st.composite
def _small_a1_arms(draw):
    """A random 3-R arm whose shoulder is at most 1 mm off the base axis (|sin α1| ≥ 0.2)."""
    alpha1 = draw(st.floats(0.2, math.pi - 0.2)) * draw(st.sampled_from([1.0, -1.0]))
    links = [
        DHLink(a=draw(A1), alpha=alpha1, d=draw(OFFSET)),
        DHLink(a=draw(LENGTH), alpha=draw(ANGLE), d=draw(OFFSET), offset=draw(ANGLE)),
        DHLink(a=draw(LENGTH), alpha=draw(ANGLE), d=draw(OFFSET)),
    ]
    return DHRobot(links, convention="standard", tool=Trans(draw(OFFSET), draw(OFFSET), draw(OFFSET)))


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(robot=_small_a1_arms(), q=st.tuples(ANGLE, ANGLE, ANGLE))
def test_eq_10_small_a1_loses_no_solution(robot, q):
    """a₁ from 0 to 1 mm on random arms: a reachable point always has a solution, every solution reaches
    it, and the pose it came from is among them (where that pose is regular, so it is well defined)."""
    q = np.array(q)
    p = robot.fkine(q)[:3, 3]
    assume(math.hypot(p[0], p[1]) > 1e-3)  # off the axis of joint 1, where θ1 is free
    sol = ik.norm_equation_ik(robot, p)
    assert len(sol.q) >= 1, (sol.case, sol.reason)  # reachable: it came from q
    assert len(sol.q) <= 4
    for x in sol.q:  # 1e-9 of the arm's size (at most 4.5 m here): at the edge Newton stalls near that
        np.testing.assert_allclose(robot.fkine(x)[:3, 3], p, atol=5e-9)
    assume(np.linalg.svd(robot.jacob0(q)[:3], compute_uv=False)[-1] > 1e-3)
    assert _same(q, sol.q, tol=1e-6), (sol.case, q, sol.q)


@pytest.mark.parametrize("a1", [1e-3, 1e-7, 1e-8, 1e-9, 1e-11, 0.0])
def test_eq_10_small_a1_the_papers_arm_has_the_planar_count(a1):
    """The paper's arm with its shoulder a₁ off the axis: θ1 = φ or φ + π puts the target in the arm's
    plane at radius ±ρ − a₁ from the shoulder, and each such 2R problem has 2 solutions inside its
    annulus (|a2 − a3| < r < a2 + a3): the route finds exactly that many."""
    arm = paper_3r().replace_link(0, a=a1)
    reach = 1.0 + 1.0  # a2 = 1.0, and the last link with the gripper 0.8 + 0.2
    rng = np.random.default_rng(11)
    for q in rng.uniform(-math.pi, math.pi, (50, 3)):
        p = arm.fkine(q)[:3, 3]
        rho, h = math.hypot(p[0], p[1]), p[2] - 1.0
        radii = [math.hypot(rho - a1, h), math.hypot(-rho - a1, h)]
        assume_regular = all(abs(r - reach) > 1e-6 and r > 1e-6 for r in radii)
        if not assume_regular:
            continue
        sol = ik.norm_equation_ik(arm, p)
        assert len(sol.q) == 2 * sum(r < reach for r in radii), (a1, q, sol.q)
        assert _same(q, sol.q, tol=1e-6)


@pytest.mark.parametrize(
    "links, q",
    [  # found by the property test above; each was reported out of reach
        ([DHLink(a=1e-10, alpha=1.0), DHLink(a=1.0, offset=2.0), DHLink(a=1.0)], (0.0, 0.0, 0.0)),
        ([DHLink(a=1e-10, alpha=1.0), DHLink(a=1.0), DHLink(a=1.0)], (0.0, 2.0, 0.0)),
        ([DHLink(a=1e-8, alpha=1.0), DHLink(a=1.0, alpha=1.0, d=6.103515625e-05), DHLink(a=1.0)], (0.0, 0.0, 0.0)),
        ([DHLink(a=1e-3, alpha=1.0), DHLink(a=1.0), DHLink(a=1.0)], (0.0, 2.0, 0.0)),  # the quartic's form
    ],
)
def test_eq_10_small_a1_stretched_out_at_the_edge_of_the_workspace_the_point_is_reached(links, q):
    """Stretched out (θ3 = 0), the point lies on the workspace's boundary: (9)'s root is double, Newton
    stalls at the rounding of the singular direction, and the point must still be reported reachable."""
    robot = DHRobot(links, convention="standard")
    p = robot.fkine(np.array(q))[:3, 3]
    sol = ik.norm_equation_ik(robot, p)
    assert 1 <= len(sol.q) <= 4, (sol.case, sol.reason)
    for x in sol.q:
        np.testing.assert_allclose(robot.fkine(x)[:3, 3], p, atol=5e-9)
