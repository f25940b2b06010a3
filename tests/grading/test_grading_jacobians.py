"""armlab.grading.jacobians: the hw04 checkers pass right answers, fail wrong ones naming the mistake
(wrong frame, transposed, degrees, the [ω; v] row order, ...), and their plain-math references agree with
armlab.jacobians."""

import pytest
import numpy as np
import sympy as sp

import armlab
from armlab import jacobians as jb
from armlab.grading import jacobians as g

from support.verdicts import raises_verdict

pytestmark = pytest.mark.homework("hw04_jacobians")  # its checkers

th1, th2, l1, l2 = sp.symbols("th1 th2 l1 l2", real=True)
J2_OK = sp.Matrix(
    [
        [-l1 * sp.sin(th1) - l2 * sp.sin(th1 + th2), -l2 * sp.sin(th1 + th2)],
        [l1 * sp.cos(th1) + l2 * sp.cos(th1 + th2), l2 * sp.cos(th1 + th2)],
    ]
)
Z = np.array([0.0, 0.0, 1.0])


# --- right answers (as in solutions/hw04) ---------------------------------------------------------
def propagate_ok(R, P, w, v, qd, joint):
    w1 = R.T @ w + (qd * Z if joint == "R" else 0)
    return w1, R.T @ (v + np.cross(w, P)) + (qd * Z if joint == "P" else 0)


def planar_J(q, lengths, omega_first=False, absolute=False):
    phi = np.asarray(q, float) if absolute else np.cumsum(q)
    l = np.asarray(lengths, float)
    rows = [[-np.sum(l[k:] * np.sin(phi[k:])) for k in range(3)], [np.sum(l[k:] * np.cos(phi[k:])) for k in range(3)]]
    return np.array([[1.0, 1.0, 1.0]] + rows if omega_first else rows + [[1.0, 1.0, 1.0]])


def joint_rates_ok(q, lengths, xdot):
    return np.linalg.solve(planar_J(q, lengths), xdot)


def singular_ok(q, lengths):
    qs = np.array(q, float)
    qs[1] = 0.0 if np.cos(qs[1]) >= 0 else np.pi
    return qs, np.linalg.svd(planar_J(qs, lengths))[0][:, -1]


def in_base_ok(J, T):
    return np.vstack([T[:3, :3] @ J[:3], T[:3, :3] @ J[3:]])


def fails(check, *args, match, **kw):
    with raises_verdict(match):
        check(*args, **kw)


# --- references agree with armlab ------------------------------------------------------------------
def test_references_agree_with_armlab_jacobians():
    rng = np.random.default_rng(40)
    for _ in range(10):
        t1, t2, a, b = rng.uniform(-3, 3), rng.uniform(-3, 3), rng.uniform(0.2, 1.5), rng.uniform(0.2, 1.5)
        J = armlab.models.planar2r(a, b).jacob0([t1, t2])[:2]
        assert np.allclose(np.reshape(g.reference_jacobian_2r(t1, t2, a, b), (2, 2)), J, atol=1e-12)
        q, lengths = rng.uniform(-3, 3, 3), rng.uniform(0.2, 1.0, 3)
        robot = armlab.DHRobot([armlab.DHLink(a=x) for x in lengths])
        J3 = robot.jacob0(q)[[0, 1, 5]]
        assert np.allclose(np.reshape(g.reference_jacobian_planar3(list(q), list(lengths)), (3, 3)), J3, atol=1e-12)
        xdot = rng.uniform(-1, 1, 3)
        assert np.allclose(g.reference_joint_rates(list(q), list(lengths), list(xdot)), np.linalg.solve(J3, xdot))
        qs, u = g.reference_singular_pose(list(q), list(lengths))
        assert abs(np.sin(qs[1])) < 1e-12 and abs(np.cos(qs[1] - q[1])) >= 0  # on the singular set
        assert np.allclose(np.array(u) @ robot.jacob0(qs)[[0, 1, 5]], 0, atol=1e-12) and np.isclose(
            np.linalg.norm(u), 1
        )
        T = robot.fkine(q)
        n = 3
        Jb = g.reference_frame_change(list(robot.jacobe(q).ravel()), list(T[:3, :3].ravel()), n)
        assert np.allclose(np.reshape(Jb, (6, n)), robot.jacob0(q), atol=1e-12)


def test_propagation_reference_is_armlab_velocity_propagation():
    """One reference step per link of a random arm (modified DH) reproduces jb.velocity_propagation."""
    robot = armlab.DHRobot(
        [
            armlab.DHLink(alpha=0.4, a=0.2, d=0.1),
            armlab.DHLink(alpha=-1.1, a=0.3, joint="P", qlim=(0, 1)),
            armlab.DHLink(alpha=0.7, a=0.1, d=0.2),
        ],
        convention="modified",
    )
    q, qd = np.array([0.3, 0.4, -0.8]), np.array([0.5, -0.2, 0.9])
    steps = jb.velocity_propagation(robot, q, qd)
    w, v = [0.0] * 3, [0.0] * 3
    for i, link in enumerate(robot.links):
        A = robot.link_transform(i + 1, q[i])
        w, v = g.reference_propagation_step(
            list(A[:3, :3].ravel()), list(A[:3, 3]), w, v, qd[i], "R" if link.revolute else "P"
        )
        assert np.allclose(w, steps[i + 1][1]) and np.allclose(v, steps[i + 1][2]), i


# --- the checkers: right answers pass ---------------------------------------------------------------
def test_right_answers_pass():
    g.check_jacobian_2r_expr(J2_OK, points=[(0.5, 1.0, 0.5, 0.5)], seed=1)
    g.check_jacobian_2r_expr(J2_OK.applyfunc(sp.expand_trig), seed=2)  # any equivalent form
    g.check_propagation_step_function(propagate_ok, seed=3, n=40)
    g.check_joint_rates_function(joint_rates_ok, seed=4, n=40)
    g.check_singular_pose_function(singular_ok, seed=5, n=40)
    g.check_singular_pose_function(
        lambda q, l: (singular_ok(q, l)[0] + [0, 2 * np.pi, 0], -singular_ok(q, l)[1]), seed=5, n=10
    )  # θ2 modulo 2π, u of either sign
    g.check_frame_change_function(in_base_ok, seed=6, n=40)


# --- and wrong ones fail, naming the mistake ---------------------------------------------------------
def test_part1_messages():
    fails(g.check_jacobian_2r_expr, J2_OK.T, seed=1, match="transpose")
    fails(
        g.check_jacobian_2r_expr,
        sp.Matrix([[l1 * sp.sin(th2), 0], [l1 * sp.cos(th2) + l2, l2]]),
        seed=1,
        match="tip frame",
    )
    fails(g.check_jacobian_2r_expr, J2_OK.subs(th1 + th2, th2), seed=1, match="θ1 \\+ θ2")
    fails(g.check_jacobian_2r_expr, -J2_OK, seed=1, match="sign flipped")
    fails(g.check_jacobian_2r_expr, J2_OK.col_join(sp.Matrix([[1, 1]])), seed=1, match="drop the other rows")
    fails(g.check_jacobian_2r_expr, J2_OK.subs(l1, sp.Symbol("L")), seed=1, match="symbol")
    fails(g.check_jacobian_2r_expr, np.ones((2, 2)), seed=1, match="has no symbols")


def test_part2_messages():
    fails(g.check_propagation_step_function, lambda *a: propagate_ok(*a)[::-1], seed=2, match=r"returned \(v, ω\)")
    fails(g.check_propagation_step_function, lambda R, *a: propagate_ok(R.T, *a), seed=2, match="wrong way")

    def cross_reversed(R, P, w, v, qd, joint):
        return R.T @ w + (qd * Z if joint == "R" else 0), R.T @ (v + np.cross(P, w)) + (qd * Z if joint == "P" else 0)

    def rate_first(R, P, w, v, qd, joint):
        return R.T @ (w + (qd * Z if joint == "R" else 0)), R.T @ (v + np.cross(w, P) + (qd * Z if joint == "P" else 0))

    def no_prismatic(R, P, w, v, qd, joint):
        return R.T @ w + qd * Z, R.T @ (v + np.cross(w, P))

    fails(g.check_propagation_step_function, cross_reversed, seed=2, match="wrong order")
    fails(g.check_propagation_step_function, rate_first, seed=2, match="before rotating")
    fails(g.check_propagation_step_function, no_prismatic, seed=2, match="prismatic joint as revolute")

    def left_in_frame_i(R, P, w, v, qd, joint):
        w1 = w + (qd * R[:, 2] if joint == "R" else 0)
        return w1, v + np.cross(w, P) + (qd * R[:, 2] if joint == "P" else 0)

    fails(g.check_propagation_step_function, left_in_frame_i, seed=2, match="still in frame {i}")


def test_part3_messages():
    fails(g.check_joint_rates_function, lambda *a: np.degrees(joint_rates_ok(*a)), seed=3, match="degrees per second")
    fails(
        g.check_joint_rates_function, lambda q, l, x: np.linalg.solve(planar_J(q, l).T, x), seed=3, match="transposed J"
    )
    fails(
        g.check_joint_rates_function,
        lambda q, l, x: np.linalg.solve(planar_J(q, l, omega_first=True), x),
        seed=3,
        match=r"\[ω; v\] row order",
    )
    fails(
        g.check_joint_rates_function,
        lambda q, l, x: np.linalg.solve(planar_J(q, l, absolute=True), x),
        seed=3,
        match="relative",
    )
    fails(g.check_joint_rates_function, lambda q, l, x: planar_J(q, l) @ x, seed=3, match=r"J·ẋ is not")


def test_part4_messages():
    def null_space(q, l):
        qs, _ = singular_ok(q, l)
        return qs, np.linalg.svd(planar_J(qs, l))[2][-1]

    def deg(q, l):
        qs, u = singular_ok(q, l)
        return qs * [1, 180 / np.pi, 1], u

    fails(
        g.check_singular_pose_function,
        null_space,
        seed=4,
        match="transposed: this is the joint motion that moves nothing",
    )
    fails(g.check_singular_pose_function, deg, cases=[([0.3, 2.9, 0.1], [0.5, 0.4, 0.3])], match="degrees")
    fails(
        g.check_singular_pose_function,
        lambda q, l: (singular_ok(q, l)[0], 2 * singular_ok(q, l)[1]),
        seed=4,
        match="not a unit vector",
    )
    fails(
        g.check_singular_pose_function,
        lambda q, l: (np.array(q, float), singular_ok(q, l)[1]),
        seed=4,
        match="q_s is q itself",
    )
    fails(
        g.check_singular_pose_function,
        lambda q, l: (singular_ok(q, l)[0] + [0, np.pi, 0], singular_ok(q, l)[1]),
        cases=[([0.3, 0.2, 0.1], [0.5, 0.4, 0.3])],
        match="nearer",
    )
    fails(g.check_singular_pose_function, lambda q, l: singular_ok(q, l)[0], seed=4, match=r"two results \(q_s, u\)")


def test_part5_messages():
    fails(g.check_frame_change_function, lambda J, T: in_base_ok(J, np.linalg.inv(T)), seed=5, match="wrong way")
    fails(
        g.check_frame_change_function,
        lambda J, T: in_base_ok(J, T)[[3, 4, 5, 0, 1, 2]],
        seed=5,
        match=r"\[ω; v\] row order",
    )
    fails(
        g.check_frame_change_function,
        lambda J, T: np.vstack([T[:3, :3] @ J[:3], J[3:]]),
        seed=5,
        match="only the translational",
    )
    fails(
        g.check_frame_change_function,
        lambda J, T: np.vstack([J[:3], T[:3, :3] @ J[3:]]),
        seed=5,
        match="only the rotational",
    )

    def moved(J, T):  # the 6×6 motion map with the reference point moved too
        Jb = in_base_ok(J, T)
        return np.vstack([Jb[:3] - np.cross(T[:3, 3], Jb[3:].T).T, Jb[3:]])

    fails(g.check_frame_change_function, moved, seed=5, match="reference point")
    fails(
        g.check_frame_change_function,
        lambda J, T: in_base_ok(J, T).T,
        cases=[([0.1] * 12, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])],
        match="transposed",
    )
