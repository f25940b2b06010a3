"""hw08's answer keys (solutions/hw08_control, computed by armlab) and armlab.grading.control's check of a choice by
eq. (12): the right answers pass, wrong ones are named (time scaling, the error's sign, the gravity term, the
inertia, the feedback outside M, unweighted or unwrapped costs), and the key's functions are armlab.control's
computed torque, armlab.sim's quintic and the paper arm's IK selection."""

import re

import numpy as np
import pytest

from armlab import control, ik, models
from armlab.grading import check_cases
from armlab.grading.control import check_choice
from armlab.grading.dynamics import one_number

from support.answer_keys import answer_keys, check_part, key_namespace
from support.verdicts import raises_verdict

pytestmark = pytest.mark.homework("hw08_control")

ARM = models.paper_3r()


def key(name):
    """An answer key of hw08 (its key cells run once, on first use)."""
    return answer_keys("hw08_control")[name]


def ref(name):
    """A function of hw08's answer key cells."""
    return key_namespace("hw08_control")[name]


# --- right answers (as in solutions/hw08) ---------------------------------------------------------
def quintic_ok(q0, q1, T, v0=0.0, v1=0.0, a0=0.0, a1=0.0):
    A = np.array(
        [
            [1, 0, 0, 0, 0, 0],
            [0, 1, 0, 0, 0, 0],
            [0, 0, 2, 0, 0, 0],
            [1, T, T**2, T**3, T**4, T**5],
            [0, 1, 2 * T, 3 * T**2, 4 * T**3, 5 * T**4],
            [0, 0, 2, 6 * T, 12 * T**2, 20 * T**3],
        ],
        float,
    )
    return np.linalg.solve(A, [q0, v0, a0, q1, v1, a1])


def gains_ok(inertia, settling_time, zeta=0.7):
    w = 4.0 / (zeta * settling_time)
    return inertia * w**2, 2 * zeta * w * inertia


def torque_ok(theta, dtheta, theta_ref, kp, kd, m, l, g=9.81):
    return kp * (theta_ref - theta) - kd * dtheta + m * g * l * np.cos(theta)


def ct_ok(M, h, G, q, qd, q_ref, qd_ref, qdd_ref, kp, kd):
    return M @ (qdd_ref + kd * (qd_ref - qd) + kp * (q_ref - q)) + h + G


def best_ok(point, q_current):
    sols = ARM.ikine_all(np.asarray(point, float)).q
    return sols[np.argmin(np.abs(sols - q_current) @ [3.0, 2.0, 1.0])]  # within ±180°: no wrapping


PARTS = {  # key: (right function, check_cases keywords)
    "P1": (quintic_ok, {"atol": 1e-8, "rtol": 1e-9}),
    "P2_GAINS": (gains_ok, {"rtol": 1e-9}),
    "P2_TORQUE": (torque_ok, {"compare": one_number}),
    "P3": (ct_ok, {"atol": 1e-8, "rtol": 1e-9}),
}


@pytest.mark.parametrize("part", PARTS)
def test_right_answers_pass_the_keys_armlab_computed(part):
    fn, kw = PARTS[part]
    assert check_part("hw08_control", part, fn, **kw) >= 40


def test_eq_12_best_solution_passes_its_key():
    check_choice(best_ok, key("KEY_P4_VISIBLE"))
    check_choice(best_ok, key("KEY_P4"))
    assert len(key("KEY_P4")["inputs"]) >= 25


# --- the key's functions are armlab's numbers ------------------------------------------------------
def test_key_ct_step_is_control_computed_torque_on_the_papers_arm():
    rng = np.random.default_rng(1)
    gravity = models.PAPER_GRAVITY
    ct = control.ComputedTorque(ARM, 144.0, 24.0, gravity=gravity)
    for _ in range(5):
        q, qd, qr, qdr, qddr = rng.normal(size=(5, 3))
        M, h = ARM.inertia(q), ARM.rne(q, qd, np.zeros(3), gravity=(0, 0, 0))
        G = ARM.gravload(q, gravity)
        want = ct.step(0.0, q, qd, (qr, qdr, qddr))
        np.testing.assert_allclose(ref("ref_ct")(M, h, G, q, qd, qr, qdr, qddr, 144.0, 24.0), want, atol=1e-9)
        np.testing.assert_allclose(ct_ok(M, h, G, q, qd, qr, qdr, qddr, 144.0, 24.0), want, atol=1e-9)


def test_key_quintic_and_torque_are_the_textbook_formulas():
    rng = np.random.default_rng(0)
    for _ in range(10):
        q0, q1, v0, v1, a0, a1 = rng.normal(size=6)
        T = rng.uniform(0.3, 3)
        np.testing.assert_allclose(ref("ref_quintic")(q0, q1, T, v0, v1, a0, a1), quintic_ok(q0, q1, T, v0, v1, a0, a1))
        th, dth, tr, kp, kd, m, l = rng.uniform(0.1, 2, 7)
        assert ref("ref_pdg")(th, dth, tr, kp, kd, m, l, 9.81) == pytest.approx(torque_ok(th, dth, tr, kp, kd, m, l))


def test_key_best_solution_is_ik_select_with_the_papers_weights():
    rng = np.random.default_rng(2)
    for _ in range(20):
        p = ARM.fkine(rng.uniform(-np.pi, np.pi, 3))[:3, 3]
        qc = rng.uniform(-np.pi, np.pi, 3)
        choice = ref("ref_choice")(p, qc)
        if np.sort(choice["costs"])[1] - np.sort(choice["costs"])[0] < 1e-6:
            continue  # a tie: either is right
        best = ARM.ikine(p, q0=qc, weights=ik.PAPER_WEIGHTS).q[0]
        d = (choice["solutions"][choice["best"]] - best + np.pi) % (2 * np.pi) - np.pi
        assert np.abs(d).max() < 1e-7


def test_key_pd_gains_settle_a_one_joint_arm_in_the_stated_time():
    """The 2 % rule t_s ≈ 4/(ζω) with ζ = 0.7: under PD + G the link from −30° to +30° stays within 2 % of the step
    from about t_s on."""
    m, length, ts = 2.0, 1.0, 0.8
    inertia, l = m * length**2 / 3, length / 2
    kp, kd = ref("ref_gains")(inertia, ts, 0.7)
    th, w, dt = np.radians(-30), 0.0, 1e-4
    target, settled = np.radians(30), None
    for k in range(20000):
        tau = torque_ok(th, w, target, kp, kd, m, l)
        w += dt * (tau - m * 9.81 * l * np.cos(th)) / inertia
        th += dt * w
        inside = abs(th - target) < 0.02 * np.radians(60)
        settled = None if not inside else settled if settled is not None else k * dt
    assert 0.85 * ts < settled < 1.15 * ts


# --- wrong answers are named ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "part, fn, message",
    [
        (
            "P1",
            lambda q0, q1, T, *a: quintic_ok(q0, q1, 1.0, *a),
            "solves the conditions for T = 1 s",
        ),
        (
            "P1",
            lambda q0, q1, T, *a: quintic_ok(q0, q1, T, *a) * T ** np.arange(6),
            "normalised time",
        ),
        ("P1", lambda *a: quintic_ok(*a)[::-1], "reverse order"),
        (
            "P1",
            lambda q0, q1, T, *a: quintic_ok(q0, q1, T),
            "velocities and accelerations are ignored",
        ),
        ("P2_GAINS", lambda I, ts, z=0.7: gains_ok(1.0, ts, z), "the inertia is missing"),
        ("P2_GAINS", lambda I, ts, z=0.7: (I / ts**2, 2 * z * I / ts), "ω is not 4/(ζ·t_s)"),
        ("P2_GAINS", lambda I, ts, z=0.7: gains_ok(I, ts, z)[::-1], "swapped"),
        (
            "P2_TORQUE",
            lambda th, dth, ref, kp, kd, m, l, gr=9.81: (
                torque_ok(ref, dth, th, kp, kd, m, l, gr) - m * gr * l * (np.cos(ref) - np.cos(th))
            ),
            "wrong sign of the error",
        ),
        (
            "P2_TORQUE",
            lambda th, dth, ref, kp, kd, m, l, gr=9.81: kp * (ref - th) - kd * dth,
            "the gravity term is missing",
        ),
        (
            "P2_TORQUE",
            lambda th, dth, ref, kp, kd, m, l, gr=9.81: kp * (ref - th) - kd * dth + m * gr * l * np.sin(th),
            "sin instead of cos",
        ),
        ("P3", lambda M, h, G, *a: ct_ok(M, h, G, *a) - G, "the gravity term G is missing"),
        (
            "P3",
            lambda M, h, G, q, qd, qr, qdr, qddr, kp, kd: ct_ok(M, h, G, qr, qdr, q, qd, qddr, kp, kd),
            "wrong sign of the error",
        ),
        (
            "P3",
            lambda M, h, G, q, qd, qr, qdr, qddr, kp, kd: M @ qddr + kp * (qr - q) + kd * (qdr - qd) + h + G,
            "not multiplied by M",
        ),
        ("P3", lambda M, h, G, *a: ct_ok(M, h, G, *a) - h, "h = C(q, q̇)·q̇ is missing"),
    ],
)
def test_wrong_answers_name_the_mistake(part, fn, message):
    with raises_verdict(re.escape(message)):
        check_cases(fn, key(f"KEY_{part}"), name="answer", **PARTS[part][1])


@pytest.mark.parametrize(
    "weights, wrap, from_zero, message",
    [
        ((1, 1, 1), False, False, "equal weights"),
        ((3, 2, 1), True, False, "wrapped the short way round"),
        ((3, 2, 1), False, True, "from q = 0"),
    ],
)
def test_wrong_choices_by_eq_12_are_named(weights, wrap, from_zero, message):
    def choose(point, qc):
        sols = ARM.ikine_all(np.asarray(point, float)).q
        d = sols - (0.0 if from_zero else qc)
        d = (d + np.pi) % (2 * np.pi) - np.pi if wrap else d
        return sols[np.argmin(np.abs(d) @ np.array(weights, float))]

    with raises_verdict(f"^answer: [^(]*{message}"):  # named alone, not as one of several
        check_choice(choose, key("KEY_P4"), name="answer")
    with raises_verdict("the index 0"):
        check_choice(lambda p, qc: 0, key("KEY_P4"))
    with raises_verdict("LARGEST J"):
        check_choice(
            lambda p, qc: ARM.ikine_all(p).q[np.argmax(np.abs(ARM.ikine_all(p).q - qc) @ [3, 2, 1])], key("KEY_P4")
        )
    with raises_verdict("does not reach the point"):
        check_choice(lambda p, qc: np.zeros(3), key("KEY_P4"))


def test_module_is_read_only():
    import armlab.grading.control as g

    with pytest.raises(AttributeError, match="read-only"):
        g.check_choice = lambda *a, **k: None
