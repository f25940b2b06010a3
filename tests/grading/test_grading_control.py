"""armlab.grading.control: the hw08 checkers pass right answers, fail wrong ones naming the mistake (time scaling,
the error's sign, the gravity term, the inertia, the feedback outside M, unweighted or unwrapped costs), and their
plain-math references agree with armlab.sim, armlab.control and the paper arm's IK."""

import re

import numpy as np
import pytest

from armlab import control, ik, models, sim
from armlab.grading import control as g

from support.verdicts import raises_verdict

pytestmark = pytest.mark.homework("hw08_control")  # its checkers

ARM = models.paper_3r()


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


def test_right_answers_pass_on_many_random_cases():
    g.check_quintic_function(quintic_ok, seed=1, n=60)
    g.check_pd_gains_function(gains_ok, seed=2, n=60)
    g.check_pdg_torque_function(torque_ok, seed=3, n=60)
    g.check_ct_step_function(ct_ok, seed=4, n=60)
    g.check_best_solution_function(best_ok, seed=5, n=40)


# --- the references are armlab's numbers -----------------------------------------------------------
def test_reference_quintic_is_sim_quintic():
    rng = np.random.default_rng(0)
    for _ in range(10):
        q0, q1, v0, v1, a0, a1 = rng.normal(size=6)
        T = rng.uniform(0.3, 3)
        ref = sim.quintic([q0], [q1], T, qd0=v0, qd1=v1, qdd0=a0, qdd1=a1)
        np.testing.assert_allclose(
            g.reference_quintic(q0, q1, T, v0, v1, a0, a1), ref.coeffs[0, 0], rtol=1e-12, atol=1e-12
        )


def test_reference_ct_step_is_control_computed_torque_on_the_papers_arm():
    rng = np.random.default_rng(1)
    gravity = models.PAPER_GRAVITY
    ct = control.ComputedTorque(ARM, 144.0, 24.0, gravity=gravity)
    for _ in range(5):
        q, qd, qr, qdr, qddr = rng.normal(size=(5, 3))
        M, h = ARM.inertia(q), ARM.rne(q, qd, np.zeros(3), gravity=(0, 0, 0))
        G = ARM.gravload(q, gravity)
        want = ct.step(0.0, q, qd, (qr, qdr, qddr))
        np.testing.assert_allclose(
            g.reference_ct_step(M.ravel().tolist(), h, G, q, qd, qr, qdr, qddr, 144.0, 24.0), want, atol=1e-9
        )


def test_reference_paper_ik_is_the_arms_ik_and_eq_12_is_ik_select():
    rng = np.random.default_rng(2)
    for _ in range(20):
        q = rng.uniform(-np.pi, np.pi, 3)
        p = ARM.fkine(q)[:3, 3]
        np.testing.assert_allclose(g.paper_fk(q), p, atol=1e-12)
        mine = np.array(g.reference_paper_ik(p.tolist()))
        theirs = ARM.ikine_all(p).q
        assert len(mine) == len(theirs) == 4
        for row in theirs:  # the same four, in any order, modulo 2π
            assert np.min(np.abs((mine - row + np.pi) % (2 * np.pi) - np.pi).max(axis=1)) < 1e-7
        qc = rng.uniform(-np.pi, np.pi, 3)
        costs = np.sort([g.motion_cost(s, qc.tolist()) for s in mine])
        if costs[1] - costs[0] < 1e-6:
            continue  # a tie: either is right
        best = ARM.ikine(p, q0=qc, weights=ik.PAPER_WEIGHTS).q[0]
        d = (np.array(g.reference_best_solution(p.tolist(), qc.tolist())) - best + np.pi) % (2 * np.pi) - np.pi
        assert np.abs(d).max() < 1e-7


def test_reference_pd_gains_settle_a_one_joint_arm_in_the_stated_time():
    """The 2 % rule t_s ≈ 4/(ζω) with ζ = 0.7: under PD + G the link from −30° to +30° stays within 2 % of the step
    from about t_s on."""
    m, length, ts = 2.0, 1.0, 0.8
    inertia, l = m * length**2 / 3, length / 2
    kp, kd = g.reference_pd_gains(inertia, ts, 0.7)
    th, w, dt = np.radians(-30), 0.0, 1e-4
    target, settled = np.radians(30), None
    for k in range(20000):
        tau = g.reference_pdg_torque(th, w, target, kp, kd, m, l)
        w += dt * (tau - m * 9.81 * l * np.cos(th)) / inertia
        th += dt * w
        inside = abs(th - target) < 0.02 * np.radians(60)
        settled = None if not inside else settled if settled is not None else k * dt
    assert 0.85 * ts < settled < 1.15 * ts


# --- wrong answers are named ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "checker, fn, message",
    [
        (
            g.check_quintic_function,
            lambda q0, q1, T, *a: quintic_ok(q0, q1, 1.0, *a),
            "solves the conditions for T = 1 s",
        ),
        (
            g.check_quintic_function,
            lambda q0, q1, T, *a: quintic_ok(q0, q1, T, *a) * T ** np.arange(6),
            "normalised time",
        ),
        (g.check_quintic_function, lambda *a: quintic_ok(*a)[::-1], "reverse order"),
        (
            g.check_quintic_function,
            lambda q0, q1, T, *a: quintic_ok(q0, q1, T),
            "velocities and accelerations are ignored",
        ),
        (g.check_pd_gains_function, lambda I, ts, z=0.7: gains_ok(1.0, ts, z), "the inertia is missing"),
        (g.check_pd_gains_function, lambda I, ts, z=0.7: (I / ts**2, 2 * z * I / ts), "ω is not 4/(ζ·t_s)"),
        (g.check_pd_gains_function, lambda I, ts, z=0.7: gains_ok(I, ts, z)[::-1], "swapped"),
        (
            g.check_pdg_torque_function,
            lambda th, dth, ref, kp, kd, m, l, gr=9.81: (
                torque_ok(ref, dth, th, kp, kd, m, l, gr) - m * gr * l * (np.cos(ref) - np.cos(th))
            ),
            "wrong sign of the error",
        ),
        (
            g.check_pdg_torque_function,
            lambda th, dth, ref, kp, kd, m, l, gr=9.81: kp * (ref - th) - kd * dth,
            "the gravity term is missing",
        ),
        (
            g.check_pdg_torque_function,
            lambda th, dth, ref, kp, kd, m, l, gr=9.81: kp * (ref - th) - kd * dth + m * gr * l * np.sin(th),
            "sin instead of cos",
        ),
        (g.check_ct_step_function, lambda M, h, G, *a: ct_ok(M, h, G, *a) - G, "the gravity term G is missing"),
        (
            g.check_ct_step_function,
            lambda M, h, G, q, qd, qr, qdr, qddr, kp, kd: ct_ok(M, h, G, qr, qdr, q, qd, qddr, kp, kd),
            "wrong sign of the error",
        ),
        (
            g.check_ct_step_function,
            lambda M, h, G, q, qd, qr, qdr, qddr, kp, kd: M @ qddr + kp * (qr - q) + kd * (qdr - qd) + h + G,
            "not multiplied by M",
        ),
        (g.check_ct_step_function, lambda M, h, G, *a: ct_ok(M, h, G, *a) - h, "h = C(q, q̇)·q̇ is missing"),
    ],
)
def test_wrong_answers_name_the_mistake(checker, fn, message):
    with raises_verdict(re.escape(message)):
        checker(fn, seed=11, n=20)


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

    with raises_verdict(message):
        g.check_best_solution_function(choose, seed=12, n=30)
    with raises_verdict("the index 0"):
        g.check_best_solution_function(lambda p, qc: 0, seed=12)
