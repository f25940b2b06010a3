"""armlab.grading.statics: the hw05 checkers pass right answers, fail wrong ones naming the mistake
(wrong frame, action vs reaction, transposed J, the moment of the force forgotten), and their plain-math
references agree with armlab.statics."""

import numpy as np
import pytest

import armlab
from armlab import statics
from armlab.grading import statics as g
from armlab.models import planar2r, planar3r
from armlab.transforms import Tinv, skew, wrench_transform

from support.verdicts import raises_verdict

pytestmark = pytest.mark.homework("hw05_statics")  # its checkers


# --- right answers (as in solutions/hw05) ---------------------------------------------------------
def step_ok(R, P, f_next, n_next):
    f = R @ f_next
    return f, R @ n_next + np.cross(P, f)


def tip_matrix(t2, l1, l2):
    return np.array([[l1 * np.sin(t2), l1 * np.cos(t2) + l2], [0.0, l2]])


def J2(t1, t2, l1, l2):
    return np.array(
        [
            [-l1 * np.sin(t1) - l2 * np.sin(t1 + t2), -l2 * np.sin(t1 + t2)],
            [l1 * np.cos(t1) + l2 * np.cos(t1 + t2), l2 * np.cos(t1 + t2)],
        ]
    )


def tau_tip_ok(t1, t2, l1, l2, f):
    return tip_matrix(t2, l1, l2) @ f


def tau_base_ok(t1, t2, l1, l2, F):
    return J2(t1, t2, l1, l2).T @ F


def free_ok(t1, t2, l1, l2):
    _, _, Vt = np.linalg.svd(J2(t1, t2, l1, l2).T)
    return Vt[-1]  # the null space of Jᵀ, by SVD: either sign


def wrench_ok(T, F):
    R, p = T[:3, :3], T[:3, 3]
    return np.concatenate([R.T @ F[:3], R.T @ (F[3:] - np.cross(p, F[:3]))])


def J3(q, lengths):
    return planar3r(*lengths).jacob0(q)[:2]


def tip_force_ok(q, lengths, tau):
    J = J3(q, lengths)
    return np.linalg.solve(J @ J.T, J @ tau)


CHECKS = [
    (g.check_recursion_step_function, step_ok),
    (g.check_tau_tip_function, tau_tip_ok),
    (g.check_tau_base_function, tau_base_ok),
    (g.check_free_direction_function, free_ok),
    (g.check_wrench_at_tool_function, wrench_ok),
    (g.check_tip_force_function, tip_force_ok),
]


@pytest.mark.parametrize("check, fn", CHECKS, ids=[c.__name__ for c, _ in CHECKS])
def test_right_answers_pass(check, fn):
    check(fn, seed=5, n=60)


def fails(check, fn, match):
    with raises_verdict(match):
        check(fn, seed=7, n=10)


def test_recursion_step_names_the_mistake():
    c = g.check_recursion_step_function
    fails(c, lambda R, P, f, n: (R @ f, R @ n), "forgot the moment of the force")
    fails(c, lambda R, P, f, n: (R @ f, R @ n + np.cross(P, f)), "wrong frame in P × f")
    fails(c, lambda R, P, f, n: (R @ f, R @ n + np.cross(R @ f, P)), "cross product in the wrong order")
    fails(c, lambda R, P, f, n: step_ok(R.T, P, f, n), "rotated the wrong way")
    fails(c, lambda R, P, f, n: tuple(-v for v in step_ok(R, P, f, n)), "sign flipped")
    fails(c, lambda R, P, f, n: (R @ f, n + np.cross(P, R @ f)), "is not rotated")
    fails(c, lambda R, P, f, n: R @ f, "expected the two 3-vectors")
    c(lambda R, P, f, n: np.concatenate(step_ok(R, P, f, n)), seed=7, n=5)  # one 6-vector is fine too


def test_tau_tip_and_base_name_frame_sign_and_transpose():
    fails(g.check_tau_tip_function, lambda t1, t2, l1, l2, f: tip_matrix(t2, l1, l2).T @ f, "transposed matrix")
    fails(g.check_tau_tip_function, lambda t1, t2, l1, l2, f: -tau_tip_ok(t1, t2, l1, l2, f), "sign flipped.*EXERTS")
    fails(g.check_tau_tip_function, tau_base_ok, "wrong frame: f is given in the tip frame")
    fails(
        g.check_tau_tip_function,
        lambda t1, t2, l1, l2, f: np.array([l1 * (np.sin(t2) * f[0] + np.cos(t2) * f[1]), l2 * f[1]]),
        "moment carried over",
    )
    fails(g.check_tau_base_function, lambda t1, t2, l1, l2, F: J2(t1, t2, l1, l2) @ F, "transposed J")
    fails(g.check_tau_base_function, tau_tip_ok, "wrong frame: F is given in the base frame")
    fails(g.check_tau_base_function, lambda *a: -tau_base_ok(*a), "sign flipped")
    fails(g.check_tau_base_function, lambda t1, t2, l1, l2, F: J2(t1, t2 - t1, l1, l2).T @ F, "relative to link 1")


def test_free_direction_messages():
    c = g.check_free_direction_function
    c(lambda t1, t2, l1, l2: -np.array([np.cos(t1), np.sin(t1)]), seed=7, n=10)  # either sign
    fails(c, lambda t1, t2, l1, l2: np.array([-np.sin(t1), np.cos(t1)]), "ACROSS")
    fails(c, lambda t1, t2, l1, l2: 3 * np.array([np.cos(t1), np.sin(t1)]), "not a unit vector")
    fails(c, lambda t1, t2, l1, l2: np.zeros(2), "zero vector")
    fails(c, lambda t1, t2, l1, l2: np.array([1.0, 0.0]), "needs joint torque")


def test_wrench_at_tool_messages():
    c = g.check_wrench_at_tool_function
    rot_only = lambda T, F: np.concatenate([T[:3, :3].T @ F[:3], T[:3, :3].T @ F[3:]])  # noqa: E731
    fails(c, rot_only, "forgot the moment of the force")
    fails(
        c,
        lambda T, F: np.concatenate([T[:3, :3].T @ F[:3], T[:3, :3].T @ (F[3:] + np.cross(T[:3, 3], F[:3]))]),
        "lever arm points the wrong way",
    )
    fails(
        c,
        lambda T, F: np.concatenate([T[:3, :3] @ F[:3], T[:3, :3] @ (F[3:] - np.cross(T[:3, 3], F[:3]))]),
        "wrong frame",
    )
    fails(
        c,
        lambda T, F: np.concatenate(
            [T[:3, :3].T @ F[:3], T[:3, :3].T @ F[3:] - np.cross(T[:3, 3], T[:3, :3].T @ F[:3])]
        ),
        "mixed frames",
    )
    fails(c, lambda T, F: wrench_transform(T, F), "the other way")

    def example_6_as_printed(T, F):
        R, P = Tinv(T)[:3, :3], Tinv(T)[:3, 3]
        return np.block([[R, np.zeros((3, 3))], [R @ skew(P), R]]) @ F

    fails(c, example_6_as_printed, "Example 6 as printed")


def test_tip_force_messages():
    c = g.check_tip_force_function
    c(lambda q, L, tau: np.linalg.lstsq(J3(q, L).T, tau, rcond=None)[0], seed=7, n=10)  # lstsq is the same
    fails(c, lambda *a: -tip_force_ok(*a), "sign flipped")
    fails(c, lambda q, L, tau: np.linalg.solve(J3(q, L)[:, :2].T, tau[:2]), "only two of the three")
    fails(c, lambda q, L, tau: J3(q, L) @ tau, r"J·τ is not the force")

    def tip_frame(q, L, tau):
        c_, s_ = np.cos(np.sum(q)), np.sin(np.sum(q))
        return np.array([[c_, s_], [-s_, c_]]) @ tip_force_ok(q, L, tau)

    fails(c, tip_frame, "wrong frame")


def test_references_agree_with_armlab_statics():
    rng = np.random.default_rng(8)
    for _ in range(20):
        t1, t2 = rng.uniform(-np.pi, np.pi, 2)
        l1, l2 = rng.uniform(0.2, 1.5, 2)
        F = rng.normal(size=2)
        arm = planar2r(l1, l2)
        np.testing.assert_allclose(
            g.reference_tau_base(t1, t2, l1, l2, list(F)),
            statics.joint_torques(arm, [t1, t2], [*F, 0, 0, 0, 0]),
            atol=1e-12,
        )
        np.testing.assert_allclose(
            g.reference_tau_tip(t1, t2, l1, l2, list(F)),
            statics.joint_torques(arm, [t1, t2], [*F, 0, 0, 0, 0], frame="tool"),
            atol=1e-12,
        )
        T = armlab.Trans(*rng.normal(size=3)) @ armlab.Rot("z", rng.normal()) @ armlab.Rot("x", rng.normal())
        W = rng.normal(size=6)
        np.testing.assert_allclose(
            g.reference_wrench_at_tool(T.ravel().tolist(), list(W)), wrench_transform(Tinv(T), W), atol=1e-12
        )
        q, L, tau = rng.uniform(-np.pi, np.pi, 3), rng.uniform(0.2, 1.0, 3), rng.normal(size=3)
        np.testing.assert_allclose(
            g.reference_tip_force_3r(list(q), list(L), list(tau)),
            np.linalg.lstsq(planar3r(*L).jacob0(q)[:2].T, tau, rcond=None)[0],
            atol=1e-9,
        )
        R = armlab.Rot("y", rng.normal())[:3, :3]
        P, fn, nn = rng.normal(size=(3, 3))
        f, n = g.reference_recursion_step(R.ravel().tolist(), list(P), list(fn), list(nn))
        # the same step through armlab: a one-link arm whose tool frame is {i+1} = (R, P)
        one = armlab.DHRobot([armlab.DHLink()], convention="modified", tool=armlab.transforms.homogeneous(R, P))
        res = statics.link_forces(one, [0.0], [*fn, *nn], frame="tool")
        np.testing.assert_allclose(np.concatenate([f, n]), np.concatenate([res.f[0], res.m[0]]), atol=1e-12)


def test_checkers_do_not_trust_patched_numpy(monkeypatch):
    monkeypatch.setattr(np, "allclose", lambda *a, **k: True)
    monkeypatch.setattr(np.linalg, "norm", lambda *a, **k: 0.0)
    monkeypatch.setattr(np, "cross", lambda a, b: np.zeros(3))
    with pytest.raises(AssertionError):
        g.check_wrench_at_tool_function(lambda T, F: np.zeros(6), seed=1, n=3)
    with pytest.raises(AssertionError):
        g.check_tau_base_function(lambda *a: np.zeros(2), seed=1, n=3)


def test_module_is_read_only():
    with pytest.raises(AttributeError, match="read-only"):
        g.check_tau_base_function = lambda *a, **k: None
