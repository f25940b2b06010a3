"""hw04's answer key and armlab.grading.jacobians' comparisons: right answers pass, wrong ones fail naming the
mistake (wrong frame, transposed, degrees, the [ω; v] row order, ...). The key is the one the release bakes: the
solutions notebook's key cells, run by armlab in a fresh process."""

import pytest
import numpy as np
import sympy as sp

from pathlib import Path

import nbformat

from armlab.grading import check_cases
from armlab.grading import jacobians as g
from armlab.autograde.bake import is_key_cell, run_keys

from support.verdicts import raises_verdict

pytestmark = [pytest.mark.homework("hw04_jacobians"), pytest.mark.integration]  # the key runs in a process

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


@pytest.fixture(scope="module")
def K():
    path = Path(__file__).resolve().parents[2] / "solutions/hw04_jacobians/hw04_jacobians.ipynb"
    nb = nbformat.read(path, as_version=4)
    return run_keys("\n\n".join(c.source for c in nb.cells if is_key_cell(c)))


def J2(answer, K):
    g.check_jacobian_2r_expr(answer, K["KEY_P1"], name="J2")


def P2(fn, K):
    check_cases(fn, K["KEY_P2"], name="propagate", compare=g.check_pair)


def P3(fn, K):
    check_cases(fn, K["KEY_P3"], name="joint_rates", atol=1e-7, rtol=1e-7)


def P4(fn, K):
    check_cases(fn, K["KEY_P4"], name="singular_pose", atol=1e-7, compare=g.check_singular_pose)


def P5(fn, K):
    check_cases(fn, K["KEY_P5"], name="jacobian_in_base")


def test_right_answers_pass(K):
    J2(J2_OK, K)
    J2(J2_OK.applyfunc(sp.expand_trig), K)  # any equivalent form
    P2(propagate_ok, K)
    P3(joint_rates_ok, K)
    P4(singular_ok, K)
    P4(
        lambda q, l: (singular_ok(q, l)[0] + [0, 2 * np.pi, 0], -singular_ok(q, l)[1]), K
    )  # θ2 modulo 2π, u of either sign
    P5(in_base_ok, K)


# --- and wrong ones fail, naming the mistake ---------------------------------------------------------
def test_part1_messages(K):
    fails(J2, J2_OK.T, K, match="transpose")
    fails(
        J2,
        sp.Matrix([[l1 * sp.sin(th2), 0], [l1 * sp.cos(th2) + l2, l2]]),
        K,
        match="tip frame",
    )
    fails(J2, J2_OK.subs(th1 + th2, th2), K, match="θ1 \\+ θ2")
    fails(J2, -J2_OK, K, match="sign flipped")
    fails(J2, J2_OK.col_join(sp.Matrix([[1, 1]])), K, match="drop the other rows")
    fails(J2, J2_OK.subs(l1, sp.Symbol("L")), K, match="symbol")
    fails(J2, np.ones((2, 2)), K, match="has no symbols")


def test_part2_messages(K):
    fails(P2, lambda *a: propagate_ok(*a)[::-1], K, match=r"returned \(v, ω\)")
    fails(P2, lambda R, *a: propagate_ok(R.T, *a), K, match="wrong way")

    def cross_reversed(R, P, w, v, qd, joint):
        return R.T @ w + (qd * Z if joint == "R" else 0), R.T @ (v + np.cross(P, w)) + (qd * Z if joint == "P" else 0)

    def rate_first(R, P, w, v, qd, joint):
        return R.T @ (w + (qd * Z if joint == "R" else 0)), R.T @ (v + np.cross(w, P) + (qd * Z if joint == "P" else 0))

    def no_prismatic(R, P, w, v, qd, joint):
        return R.T @ w + qd * Z, R.T @ (v + np.cross(w, P))

    fails(P2, cross_reversed, K, match="wrong order")
    fails(P2, rate_first, K, match="before rotating")
    fails(P2, no_prismatic, K, match="prismatic joint as revolute")

    def left_in_frame_i(R, P, w, v, qd, joint):
        w1 = w + (qd * R[:, 2] if joint == "R" else 0)
        return w1, v + np.cross(w, P) + (qd * R[:, 2] if joint == "P" else 0)

    fails(P2, left_in_frame_i, K, match="still in frame {i}")


def test_part3_messages(K):
    fails(P3, lambda *a: np.degrees(joint_rates_ok(*a)), K, match="degrees per second")
    fails(P3, lambda q, l, x: np.linalg.solve(planar_J(q, l).T, x), K, match="transposed J")
    fails(
        P3,
        lambda q, l, x: np.linalg.solve(planar_J(q, l, omega_first=True), x),
        K,
        match=r"\[ω; v\] row order",
    )
    fails(
        P3,
        lambda q, l, x: np.linalg.solve(planar_J(q, l, absolute=True), x),
        K,
        match="relative",
    )
    fails(P3, lambda q, l, x: planar_J(q, l) @ x, K, match=r"J·ẋ is not")


def test_part4_messages(K):
    def null_space(q, l):
        qs, _ = singular_ok(q, l)
        return qs, np.linalg.svd(planar_J(qs, l))[2][-1]

    def deg(q, l):
        qs, u = singular_ok(q, l)
        return qs * [1, 180 / np.pi, 1], u

    fails(
        P4,
        null_space,
        K,
        match="transposed: this is the joint motion that moves nothing",
    )
    fails(P4, deg, K, match="degrees")
    fails(
        P4,
        lambda q, l: (singular_ok(q, l)[0], 2 * singular_ok(q, l)[1]),
        K,
        match="not a unit vector",
    )
    fails(
        P4,
        lambda q, l: (np.array(q, float), singular_ok(q, l)[1]),
        K,
        match="q_s is q itself",
    )
    fails(
        P4,
        lambda q, l: (singular_ok(q, l)[0] + [0, np.pi, 0], singular_ok(q, l)[1]),
        K,
        match="nearer",
    )
    fails(P4, lambda q, l: singular_ok(q, l)[0], K, match=r"two results \(q_s, u\)")


def test_part5_messages(K):
    fails(P5, lambda J, T: in_base_ok(J, np.linalg.inv(T)), K, match="wrong way")
    fails(
        P5,
        lambda J, T: in_base_ok(J, T)[[3, 4, 5, 0, 1, 2]],
        K,
        match=r"\[ω; v\] row order",
    )
    fails(
        P5,
        lambda J, T: np.vstack([T[:3, :3] @ J[:3], J[3:]]),
        K,
        match="only the translational",
    )
    fails(
        P5,
        lambda J, T: np.vstack([J[:3], T[:3, :3] @ J[3:]]),
        K,
        match="only the rotational",
    )

    def moved(J, T):  # the 6×6 motion map with the reference point moved too
        Jb = in_base_ok(J, T)
        return np.vstack([Jb[:3] - np.cross(T[:3, 3], Jb[3:].T).T, Jb[3:]])

    fails(P5, moved, K, match="reference point")
    fails(
        P5,
        lambda J, T: in_base_ok(J, T).T,
        K,
        match="transposed",
    )
