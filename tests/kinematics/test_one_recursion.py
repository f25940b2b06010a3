"""Forward kinematics and jacob0 come from one DH link transform and one recursion
(armlab.kinematics.scalar), numeric, batched, compiled and symbolic alike (issue #19 §2).

The teaching formulas are checked against it here: the elementary products of lab report (2.1)–(2.4)
and textbook (3.22)–(3.23), and the printed matrices.
"""

import subprocess
import sys

import numpy as np
import pytest
import sympy as sp

import armlab
from armlab import DHLink, DHRobot, Rot, Trans, link_transform_modified, link_transform_standard
from armlab.kinematics import scalar
from armlab.models import puma560, stanford_arm, youbot

RNG = np.random.default_rng(19)


def test_eq_2_1_to_2_4_standard_link_is_Rz_Tz_Tx_Rx():
    for theta, d, a, alpha in RNG.uniform(-3, 3, (20, 4)):
        A = Rot("z", theta) @ Trans(0, 0, d) @ Trans(a, 0, 0) @ Rot("x", alpha)
        np.testing.assert_allclose(link_transform_standard(theta, d, a, alpha), A, atol=1e-14)


def test_eq_3_22_modified_link_is_Rx_Tx_Rz_Tz():
    for alpha, a, theta, d in RNG.uniform(-3, 3, (20, 4)):
        T = Rot("x", alpha) @ Trans(a, 0, 0) @ Rot("z", theta) @ Trans(0, 0, d)
        np.testing.assert_allclose(link_transform_modified(alpha, a, theta, d), T, atol=1e-14)


def test_eq_2_4_printed_matrix_symbolically():
    th, d, a, al = sp.symbols("theta d a alpha")
    ct, st, ca, sa = sp.cos(th), sp.sin(th), sp.cos(al), sp.sin(al)
    printed = sp.Matrix(
        [[ct, -st * ca, st * sa, a * ct], [st, ct * ca, -ct * sa, a * st], [0, sa, ca, d], [0, 0, 0, 1]]
    )
    assert link_transform_standard(th, d, a, al) == printed  # entry by entry, not just equal after simplify


def test_eq_3_23_printed_matrix_symbolically():
    al, a, th, d = sp.symbols("alpha a theta d")
    ct, st, ca, sa = sp.cos(th), sp.sin(th), sp.cos(al), sp.sin(al)
    printed = sp.Matrix(
        [[ct, -st, 0, a], [st * ca, ct * ca, -sa, -sa * d], [st * sa, ct * sa, ca, ca * d], [0, 0, 0, 1]]
    )
    assert link_transform_modified(al, a, th, d) == printed


def test_link_transforms_broadcast_a_batch_of_joint_values():
    theta = RNG.uniform(-3, 3, 7)
    A = link_transform_standard(theta, 0.2, 0.3, np.pi / 2)
    assert A.shape == (7, 4, 4)
    for k in range(7):
        np.testing.assert_allclose(A[k], link_transform_standard(theta[k], 0.2, 0.3, np.pi / 2), atol=0)
    with pytest.raises(ValueError, match="broadcast"):
        link_transform_modified(np.zeros(2), 0.0, np.zeros(3), 0.0)


ROBOTS = {
    "puma560 (modified)": puma560(),
    "youbot (standard, offsets)": youbot(),
    "stanford (prismatic d3)": stanford_arm(),
    "base and tool": DHRobot(
        [
            DHLink(a=0.3, alpha=0.4, d=0.1, offset=0.2),
            DHLink(a=0.2, alpha=-1.1, joint="P"),
            DHLink(d=0.05, alpha=np.pi / 2),
        ],
        "standard",
        base=Trans(0.1, -0.2, 0.3) @ Rot("y", 0.3),
        tool=Trans(0, 0, 0.12) @ Rot("x", 0.2),
    ),
}


@pytest.mark.parametrize("name", sorted(ROBOTS))
def test_eq_3_24_fkine_is_base_times_link_transforms_times_tool(name):
    robot = ROBOTS[name]
    Q = RNG.uniform(-2, 2, (5, robot.n))
    for q in Q:
        T = np.eye(4) if robot.base is None else robot.base
        frames = [T]
        for i in range(1, robot.n + 1):
            T = T @ robot.link_transform(i, q[i - 1])
            frames.append(T)
        tool = np.eye(4) if robot.tool is None else robot.tool
        np.testing.assert_allclose(robot.fkine(q), T @ tool, atol=1e-13)
        np.testing.assert_allclose(robot.fkine_all(q), frames, atol=1e-13)
    # the batch runs the same compiled kernel on numpy columns
    np.testing.assert_allclose(robot.fkine(Q), [robot.fkine(q) for q in Q], atol=1e-13)
    np.testing.assert_allclose(robot.jacob0(Q), [robot.jacob0(q) for q in Q], atol=1e-13)


@pytest.mark.parametrize("name", ["base and tool", "stanford (prismatic d3)"])
def test_symbolic_fkine_and_jacob0_equal_the_compiled_kernels(name):
    robot = ROBOTS[name]
    qs = sp.symbols(f"q1:{robot.n + 1}")
    T, J = robot.fkine(qs), robot.jacob0(qs)
    assert isinstance(T, sp.MatrixBase) and isinstance(J, sp.MatrixBase)
    f = sp.lambdify([qs], T, "numpy")
    g = sp.lambdify([qs], J, "numpy")
    for q in RNG.uniform(-2, 2, (5, robot.n)):
        np.testing.assert_allclose(np.array(f(q), float), robot.fkine(q), atol=1e-12)
        np.testing.assert_allclose(np.array(g(q), float), robot.jacob0(q), atol=1e-12)


def test_jacob0_is_the_finite_difference_of_fkine():
    robot = ROBOTS["base and tool"]
    q, h = RNG.uniform(-2, 2, robot.n), 1e-6
    J = robot.jacob0(q)
    for i in range(robot.n):
        dq = np.zeros(robot.n)
        dq[i] = h
        Tp, Tm = robot.fkine(q + dq), robot.fkine(q - dq)
        np.testing.assert_allclose((Tp[:3, 3] - Tm[:3, 3]) / (2 * h), J[:3, i], atol=1e-8)
        dR = (Tp[:3, :3] - Tm[:3, :3]) / (2 * h) @ robot.fkine(q)[:3, :3].T  # = S(ω)
        np.testing.assert_allclose([dR[2, 1], dR[0, 2], dR[1, 0]], J[3:, i], atol=1e-8)


def test_exact_constants_stay_exact_in_the_symbolic_recursion():
    T = puma560().fkine([sp.pi / 2, 0, -sp.pi / 2, 0, 0, 0])  # a numeric table, exact joint values
    assert all(x.is_Float or x.is_Integer or x.is_zero for x in T)
    assert T[:3, :3] == sp.Matrix([[0, 1, 0], [0, 0, 1], [1, 0, 0]])  # no 6e-17 left from cos(−π/2)


def test_compiled_kernels_fold_the_table_constants():
    src = puma560()._fk.source
    assert "cos(" in src and "6.123" not in src and "e-17" not in src
    assert src.count("cos(") == 6  # one per joint: α = ±90° became a swap, not a cos of a constant


def test_one_link_transform_from_identity_is_the_link_matrix():
    link = DHLink(a=0.3, alpha=0.7, d=0.2, offset=0.1)
    for modified in (False, True):
        R, p = scalar.link_Rp(link, 0.4, modified, scalar.NumpyBackend)
        A = armlab.kinematics.link_matrix(link, 0.4, modified)
        np.testing.assert_allclose(np.array(R, float), A[:3, :3], atol=0)
        np.testing.assert_allclose(np.array(p, float), A[:3, 3], atol=0)


@pytest.mark.integration  # starts a process
def test_robot_jacob0_does_not_use_the_teaching_methods():
    # The chapter's three methods are checked against jacob0; jacob0 never calls them.
    code = (
        "import sys, numpy as np, sympy as sp; from armlab.models import puma560; r = puma560(); "
        "r.jacob0(np.zeros(6)); r.jacobe(np.zeros(6)); r.jacob0(sp.symbols('q1:7')); "
        "print('armlab.jacobians.methods' in sys.modules, 'armlab.jacobians' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False"]
