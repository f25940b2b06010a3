"""hw05's answer keys (solutions/hw05_statics, computed by armlab) and armlab.grading.statics' comparisons: the
textbook's formulas pass, each known mistake is named (wrong frame, action vs reaction, transposed J, the moment
of the force forgotten, ...), a direction passes with either sign."""

import numpy as np
import pytest

from armlab.grading import check_cases
from armlab.grading.statics import f_and_n, free_direction_of
from armlab.transforms import Tinv, skew, wrench_transform

from support.answer_keys import answer_keys, check_part
from support.verdicts import raises_verdict

pytestmark = pytest.mark.homework("hw05_statics")


@pytest.fixture(scope="module")
def key():
    return answer_keys("hw05_statics")


# --- the textbook's formulas, written as a student would (solutions/hw05) ---------------------------
def step_ok(R, P, f_next, n_next):  # (5-2)
    f = R @ f_next
    return f, R @ n_next + np.cross(P, f)


def tip_matrix(t2, l1, l2):  # (5-5)
    return np.array([[l1 * np.sin(t2), l1 * np.cos(t2) + l2], [0.0, l2]])


def J2(t1, t2, l1, l2):  # Example 5
    s1, c1, s12, c12 = np.sin(t1), np.cos(t1), np.sin(t1 + t2), np.cos(t1 + t2)
    return np.array([[-l1 * s1 - l2 * s12, -l2 * s12], [l1 * c1 + l2 * c12, l2 * c12]])


def tau_tip_ok(t1, t2, l1, l2, f):
    return tip_matrix(t2, l1, l2) @ f


def tau_base_ok(t1, t2, l1, l2, F):
    return J2(t1, t2, l1, l2).T @ F


def free_ok(t1, t2, l1, l2):
    return np.linalg.svd(J2(t1, t2, l1, l2).T)[2][-1]  # the null space of Jᵀ, by SVD: either sign


def wrench_ok(T, F):
    R, p = T[:3, :3], T[:3, 3]
    return np.concatenate([R.T @ F[:3], R.T @ (F[3:] - np.cross(p, F[:3]))])


def J3(q, L):
    phi = np.cumsum(q)
    return np.array(
        [[-np.sum(L[k:] * np.sin(phi[k:])) for k in range(3)], [np.sum(L[k:] * np.cos(phi[k:])) for k in range(3)]]
    )


def tip_force_ok(q, L, tau):  # §5.4
    J = J3(q, L)
    return np.linalg.solve(J @ J.T, J @ tau)


PARTS = [  # (key, right function, check_cases keywords)
    ("P1", step_ok, {"compare": f_and_n}),
    ("P2", tau_tip_ok, {}),
    ("P3", tau_base_ok, {}),
    ("P4", free_ok, {"atol": 1e-7, "compare": free_direction_of}),
    ("P5", wrench_ok, {}),
    ("P6", tip_force_ok, {"atol": 1e-7, "rtol": 1e-7}),
]


@pytest.mark.parametrize("part, fn, kw", PARTS, ids=[p for p, _, _ in PARTS])
def test_the_textbook_formulas_pass_the_keys_armlab_computed(part, fn, kw):
    assert check_part("hw05_statics", part, fn, **kw) >= 40


def fails(key, part, fn, match):
    kw = dict(PARTS[int(part[1]) - 1][2])
    with raises_verdict(match):
        check_cases(fn, key[f"KEY_{part}"], name="answer", **kw)


def test_eq_5_2_recursion_step_names_the_mistake(key):
    fails(key, "P1", lambda R, P, f, n: (R @ f, R @ n), "forgot the moment of the force")
    fails(key, "P1", lambda R, P, f, n: (R @ f, R @ n + np.cross(P, f)), "wrong frame in P × f")
    fails(key, "P1", lambda R, P, f, n: (R @ f, R @ n + np.cross(R @ f, P)), "cross product in the wrong order")
    fails(key, "P1", lambda R, P, f, n: step_ok(R.T, P, f, n), "rotated the wrong way")
    fails(key, "P1", lambda R, P, f, n: tuple(-v for v in step_ok(R, P, f, n)), "sign flipped")
    fails(key, "P1", lambda R, P, f, n: (R @ f, n + np.cross(P, R @ f)), "is not rotated")
    fails(key, "P1", lambda R, P, f, n: R @ f, "expected the two 3-vectors")
    check_cases(lambda *a: np.concatenate(step_ok(*a)), key["KEY_P1"], compare=f_and_n)  # one 6-vector is fine too


def test_eq_5_5_and_5_6_name_frame_sign_and_transpose(key):
    fails(key, "P2", lambda t1, t2, l1, l2, f: tip_matrix(t2, l1, l2).T @ f, "transposed matrix")
    fails(key, "P2", lambda *a: -tau_tip_ok(*a), "sign flipped.*EXERTS")
    fails(key, "P2", tau_base_ok, "wrong frame: f is given in the tip frame")
    fails(
        key,
        "P2",
        lambda t1, t2, l1, l2, f: np.array([l1 * (np.sin(t2) * f[0] + np.cos(t2) * f[1]), l2 * f[1]]),
        "moment carried over",
    )
    fails(key, "P3", lambda t1, t2, l1, l2, F: J2(t1, t2, l1, l2) @ F, "transposed J")
    fails(key, "P3", tau_tip_ok, "wrong frame: F is given in the base frame")
    fails(key, "P3", lambda *a: -tau_base_ok(*a), "sign flipped")
    fails(key, "P3", lambda t1, t2, l1, l2, F: J2(t1, t2 - t1, l1, l2).T @ F, "relative to link 1")


def test_fig_5_7_free_direction_either_sign_and_its_mistakes(key):
    check_cases(lambda t1, t2, l1, l2: -np.array([np.cos(t1), np.sin(t1)]), key["KEY_P4"], compare=free_direction_of)
    fails(key, "P4", lambda t1, t2, l1, l2: np.array([-np.sin(t1), np.cos(t1)]), "ACROSS")
    fails(key, "P4", lambda t1, t2, l1, l2: 3 * np.array([np.cos(t1), np.sin(t1)]), "not a unit vector")
    fails(key, "P4", lambda t1, t2, l1, l2: np.zeros(2), "zero vector")
    fails(key, "P4", lambda t1, t2, l1, l2: np.array([1.0, 0.0]), "needs joint torque")
    fails(key, "P4", lambda t1, t2, l1, l2: np.zeros(3), "expected a vector of 2 numbers")


def test_eq_5_8_wrench_at_tool_names_the_mistake(key):
    def rotated(T, F, R, m):
        return np.concatenate([R @ F[:3], m])

    R = lambda T: T[:3, :3]  # noqa: E731
    fails(key, "P5", lambda T, F: rotated(T, F, R(T).T, R(T).T @ F[3:]), "forgot the moment of the force")
    fails(key, "P5", lambda T, F: rotated(T, F, R(T).T, R(T).T @ (F[3:] + np.cross(T[:3, 3], F[:3]))), "lever arm")
    fails(key, "P5", lambda T, F: rotated(T, F, R(T), R(T) @ (F[3:] - np.cross(T[:3, 3], F[:3]))), "wrong frame")
    fails(
        key,
        "P5",
        lambda T, F: rotated(T, F, R(T).T, R(T).T @ F[3:] - np.cross(T[:3, 3], R(T).T @ F[:3])),
        "mixed frames",
    )
    fails(key, "P5", lambda T, F: wrench_transform(T, F), "the other way")

    def example_6_as_printed(T, F):
        R, P = Tinv(T)[:3, :3], Tinv(T)[:3, 3]
        return np.block([[R, np.zeros((3, 3))], [R @ skew(P), R]]) @ F

    fails(key, "P5", example_6_as_printed, "Example 6 as printed")


def test_section_5_4_tip_force_names_the_mistake(key):
    check_cases(lambda q, L, tau: np.linalg.lstsq(J3(q, L).T, tau, rcond=None)[0], key["KEY_P6"], atol=1e-7, rtol=1e-7)
    fails(key, "P6", lambda *a: -tip_force_ok(*a), "sign flipped")
    fails(key, "P6", lambda q, L, tau: np.linalg.solve(J3(q, L)[:, :2].T, tau[:2]), "only two of the three")
    fails(key, "P6", lambda q, L, tau: J3(q, L) @ tau, r"J·τ is not the force")

    def tip_frame(q, L, tau):
        c, s = np.cos(np.sum(q)), np.sin(np.sum(q))
        return np.array([[c, s], [-s, c]]) @ tip_force_ok(q, L, tau)

    fails(key, "P6", tip_frame, "wrong frame")


def test_comparisons_do_not_trust_patched_numpy(key, monkeypatch):
    monkeypatch.setattr(np, "allclose", lambda *a, **k: True)
    monkeypatch.setattr(np.linalg, "norm", lambda *a, **k: 0.0)
    monkeypatch.setattr(np, "cross", lambda a, b: np.zeros(3))
    with pytest.raises(AssertionError):
        check_cases(lambda T, F: np.zeros(6), key["KEY_P5"])
    with pytest.raises(AssertionError):
        check_cases(lambda *a: np.zeros(2), key["KEY_P4"], compare=free_direction_of)


def test_module_is_read_only():
    import armlab.grading.statics as g

    with pytest.raises(AttributeError, match="read-only"):
        g.free_direction_of = lambda *a, **k: None
