"""Controllers (armlab.control) in closed loop with armlab.sim: PD + gravity converges (its Lyapunov function
never grows), computed torque imposes ë + Kd·ė + Kp·e = 0, PD alone stops short by Kp⁻¹·G, PID removes that
offset, the assumed drive cascade, saturation is clipped and reported, resolved rate follows a line, and
bad input is refused."""

from __future__ import annotations

import numpy as np
import pytest

from armlab import control, models, sim
from armlab._core.constants import GRAVITY

ARM = models.paper_3r()
G = models.PAPER_GRAVITY
KP, KD, KI = np.array([30.0, 400.0, 100.0]), np.array([8.0, 60.0, 15.0]), np.array([10.0, 200.0, 50.0])
Q_SET = np.array([0.4, 0.8, 0.6])
Q0 = np.array([0.0, 0.1, 0.0])


def settle(controller, t_end=5.0, dt=1e-3, robot=ARM, q0=Q0, ref=Q_SET, gravity=G):
    return sim.simulate(robot, q0, np.zeros(robot.n), t_end, dt, controller=controller, reference=ref, gravity=gravity)


def test_pd_plus_gravity_converges_and_its_lyapunov_function_never_grows():
    """V = ½q̇ᵀM(q)q̇ + ½eᵀKp·e is non-increasing under τ = Kp·e − Kd·q̇ + G(q) (setpoint, exact model)."""
    tr = settle(control.PDGravity(ARM, KP, KD, gravity=G))
    e = Q_SET - tr.q
    V = 0.5 * np.einsum("ki,kij,kj->k", tr.qd, ARM.inertia(tr.q), tr.qd) + 0.5 * np.einsum("ki,i,ki->k", e, KP, e)
    assert np.diff(V).max() < 1e-5 * V[0]  # only the step's rounding (torque held over 1 ms)
    assert V[-1] < 1e-6 * V[0]
    assert np.abs(e[-1]).max() < 2e-3 and np.abs(tr.qd[-1]).max() < 2e-3


def test_pd_without_gravity_stops_short_by_inverse_kp_times_g():
    """At rest under τ = Kp·e − Kd·q̇ the torque balances gravity: Kp·e_ss = G(q_ss)."""
    tr = settle(control.PD(KP, KD))
    q_ss = tr.q[-1]
    e_ss = Q_SET - q_ss
    np.testing.assert_allclose(e_ss[1:], ARM.gravload(q_ss, G)[1:] / KP[1:], atol=1e-6)
    assert abs(e_ss[1]) > 0.05  # a visible sag of the shoulder


def test_pid_integral_removes_the_gravity_offset():
    tr = settle(control.PID(KP, KI, KD), t_end=8.0)
    assert np.abs(Q_SET - tr.q[-1]).max() < 3e-3


def test_computed_torque_imposes_the_linear_error_dynamics():
    """With a perfect model, each joint's error obeys ë + 2ω·ė + ω²·e = 0: e(t) = (e0 + (ė0 + ω·e0)·t)·e^(−ωt),
    whatever the reference does (here a fast quintic). Evaluated continuously (RK4 stages): ≤ 1e-6 rad."""
    w = 12.0
    ct = control.ComputedTorque(ARM, w**2, 2 * w, gravity=G)
    ref = sim.quintic([0.0, 0.2, 0.3], [1.0, 1.2, -0.4], 1.5)
    e0, ed0 = np.array([0.05, -0.03, 0.02]), np.array([0.1, 0.0, -0.2])
    q0, qd0 = ref(0.0)[0] - e0, ref(0.0)[1] - ed0
    tr = sim.simulate(ARM, q0, qd0, 1.5, 1e-3, tau=lambda t, q, qd: ct.step(t, q, qd, ref(t)), gravity=G)
    t = tr.t[:, None]
    expected = (e0 + (ed0 + w * e0) * t) * np.exp(-w * t)
    np.testing.assert_allclose(ref(tr.t)[0] - tr.q, expected, atol=1e-6)


def test_computed_torque_with_the_wrong_payload_misses_by_the_unmodelled_weight():
    """The controller thinks the arm is bare; the arm holds 1 kg at the tool: at rest, ω²·e = M⁻¹·ΔG."""
    w = 10.0
    ct = control.ComputedTorque(ARM, w**2, 2 * w, gravity=G)
    heavy = sim.with_payload(ARM, 1.0)
    tr = settle(ct, robot=heavy, t_end=4.0)
    q = tr.q[-1]
    dG = heavy.gravload(q, G) - ARM.gravload(q, G)
    np.testing.assert_allclose(w**2 * (Q_SET - q), np.linalg.solve(ARM.inertia(q), dG), atol=1e-4)


def test_saturation_clips_to_the_effort_limits_and_is_reported():
    """The youBot (its real effort limits) told to jump 0.3 rad per joint: the base's, shoulder's and wrist's
    demands exceed 9.5, 9.5 and 2 N·m at first; the output stays on the limits and the record says so."""
    yb = models.youbot()
    limits = models.YOUBOT_ACTUATORS["effort"]
    q0 = np.array([0.0, 0.0, 0.0, 0.5, 0.0])
    target = q0 + np.array([0.3, 0.3, -0.3, 0.3, 0.3])
    kp, kd = control.pd_gains(yb, q0, 40.0)
    c = control.PDGravity(yb, kp, kd, limits=limits)
    tr = settle(c, robot=yb, q0=q0, ref=target, gravity=(0, 0, -9.81), t_end=2.0)
    sat = c.saturation
    assert sat and sat.first == 0.0 and sat.calls == len(tr.t)
    assert np.all(np.abs(tr.tau) <= limits * (1 + 1e-12))
    assert np.isclose(np.abs(tr.tau[0]), limits)[[0, 1, 3]].all()  # joints 1, 2 and 4 start on their limits
    assert sat.per_joint[3] > 50 and sat.peak[0] > 2.0
    assert "joint 4" in sat.report() and "saturated in" in sat.report()
    assert np.abs(tr.q[-1] - target).max() < 0.02  # it still gets there, later
    free = control.PDGravity(yb, kp, kd, limits=limits * 100)
    settle(free, robot=yb, q0=q0, ref=target, gravity=(0, 0, -9.81), t_end=2.0)
    assert not free.saturation and free.saturation.report() == "no saturation in 2001 steps"


def test_pid_integral_stops_growing_while_clipped():
    """Anti-windup: with the output on its limit, the integral is frozen."""
    c = control.PID(1.0, 100.0, 0.0, limits=1.0)
    q = np.zeros(1)
    for k in range(5):
        c.step(0.01 * k, q, q, np.array([10.0]))
    assert c.integral[0] == 0.0 and c.saturation.steps == 5
    unlimited = control.PID(1.0, 100.0, 0.0)
    for k in range(5):
        unlimited.step(0.01 * k, q, q, np.array([10.0]))
    assert unlimited.integral[0] == pytest.approx(0.4)


def test_cascade_without_integral_or_lag_is_a_pd_and_the_current_loop_lags():
    """Position P (kp) → velocity P (kv): τ = kv·(q̇_r + kp·e − q̇) = (kv·kp)·e + kv·(q̇_r − q̇)."""
    cas = control.PID.cascade(kp=20.0, kv=5.0)
    pd = control.PD(kp=100.0, kd=5.0)
    rng = np.random.default_rng(4)
    for k in range(5):
        q, qd, qr, qdr = rng.normal(size=(4, 3))
        np.testing.assert_allclose(cas.step(0.001 * k, q, qd, (qr, qdr)), pd.step(0.0, q, qd, (qr, qdr)), atol=1e-12)
    lag = control.PID.cascade(kp=20.0, kv=5.0, current_lag=0.01)
    z = np.zeros(1)
    first = lag.step(0.0, z, z, np.array([1.0]))  # no time has passed: the current has not moved
    second = lag.step(0.01, z, z, np.array([1.0]))  # one time constant: 1 − 1/e of the demand
    assert first[0] == 0.0 and second[0] == pytest.approx(100.0 * (1 - np.exp(-1)))


def test_pd_plus_gravity_is_pd_plus_gravity_compensation():
    a = control.PDGravity(ARM, KP, KD, gravity=G)
    b = control.PD(KP, KD) + control.GravityCompensation(ARM, gravity=G)
    q, qd = np.array([0.3, 1.1, -0.4]), np.array([0.2, -0.1, 0.5])
    np.testing.assert_allclose(a.step(0, q, qd, Q_SET), b.step(0, q, qd, Q_SET), atol=1e-12)
    np.testing.assert_allclose(
        control.GravityCompensation(ARM, gravity=G).step(0, q, qd, q), ARM.gravload(q, G), atol=1e-12
    )


def test_resolved_rate_follows_a_cartesian_line():
    line = sim.cartesian_line(ARM, [1.0, 0.0, 0.5], [1.0, 0.8, 1.0], 1.5, q0=np.radians([0, 90, 90]))
    rr = control.ResolvedRate(ARM, k=20.0, kv=[40.0, 200.0, 60.0], gravity=G)
    q0 = line(0.0)[0]
    tr = sim.simulate(ARM, q0, np.zeros(3), 2.0, 1e-3, controller=rr, reference=lambda t: line.x(t)[:2], gravity=G)
    tool = ARM.fkine(tr.q)[:, :3, 3]
    assert np.linalg.norm(tool - line.x(tr.t)[0], axis=1).max() < 0.01
    assert np.linalg.norm(tool[-1] - [1.0, 0.8, 1.0]) < 1e-4 and rr.sigma_min > 0.1


def test_pd_gains_are_the_free_joint_inertia_times_omega_squared_and_two_zeta_omega():
    """m_i = 1/(M⁻¹)_ii: what joint i moves when the others are free, at most M_ii."""
    q = np.radians([10.0, 60.0, 45.0])
    kp, kd = control.pd_gains(ARM, q, 20.0, zeta=0.7)
    m = 1 / np.diag(np.linalg.inv(ARM.inertia(q)))
    assert np.all(m <= np.diag(ARM.inertia(q)) + 1e-12)
    np.testing.assert_allclose(kp, 400.0 * m)
    np.testing.assert_allclose(kd, 28.0 * m)


def test_perturbed_model_scales_the_inertial_parameters():
    wrong = control.perturbed(ARM, 0.2, seed=3)
    ratios = [link.m / ref.m for link, ref in zip(wrong.links, ARM.links)]
    assert set(np.round(ratios, 12)) <= {0.8, 1.2}
    assert [link.d for link in wrong.links] == [link.d for link in ARM.links]
    assert control.perturbed(ARM, 0.0) is ARM
    with pytest.raises(ValueError, match="fraction"):
        control.perturbed(ARM, 1.5)


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: control.PD(np.nan, 1.0), "gain kp contains NaN"),
        (lambda: control.PID(1.0, [1.0, np.inf], 1.0), "gain ki contains NaN or infinity"),
        (lambda: control.PD(-1.0, 1.0), "gain kp must be >= 0"),
        (lambda: control.PD([1.0, 2.0], [1.0, 2.0, 3.0]), "one value per joint"),
        (lambda: control.ComputedTorque(ARM, [1.0, 2.0], 1.0), r"one value per joint \(3 for this model\)"),
        (lambda: control.PD(1.0, 1.0, limits=[1.0, 0.0]).step(0, [0, 0], [0, 0], [1, 1]), "limits must be > 0"),
        (lambda: control.PD(1.0, 1.0).step(0, [0, 0], [0, 0], [1, 1, 1]), "ref must have shape"),
        (lambda: control.PD(1.0, 1.0).step(0, [0, np.nan], [0, 0], [1, 1]), "q contains NaN"),
        (lambda: control.PID.cascade(1.0, 1.0, current_lag=-1.0), "current_lag must be >= 0"),
        (lambda: control.ComputedTorque(models.puma560(), 1.0, 1.0).with_model(ARM), "has 3 joints"),
        (lambda: control.ComputedTorque(models.stanford_arm(), 1.0, 1.0), "no link masses"),
    ],
)
def test_bad_input_is_refused_clearly(make, match):
    with pytest.raises(ValueError, match=match):
        make()


@pytest.mark.parametrize(
    "make",
    [
        lambda **o: control.GravityCompensation(ARM, **o),
        lambda **o: control.PDGravity(ARM, 100.0, 20.0, **o),
        lambda **o: control.ComputedTorque(ARM, 100.0, 20.0, **o),
        lambda **o: control.ResolvedRate(ARM, 5.0, 2.0, **o),
    ],
)
def test_model_based_controllers_share_the_model_options_gravity_and_limits(make):
    """Every model-based controller takes ModelOptions: gravity (default GRAVITY, None for none) and limits,
    by keyword; another option is a TypeError that names it."""
    q = np.array([0.0, np.pi / 2, 0.0])  # stretched out horizontally: G(q) ≠ 0
    ref = (np.array([0.1, 0.2, 0.3]), np.zeros(3)) if make(gravity=G).space == "task" else (q, np.zeros(3), np.zeros(3))

    def tau(**options):
        return make(**options).step(0.0, q, np.zeros(3), ref)

    assert np.allclose(tau(), tau(gravity=GRAVITY))  # the default
    assert not np.allclose(tau(gravity=G), tau(gravity=None))
    assert np.abs(tau(gravity=G, limits=0.5)).max() <= 0.5
    with pytest.raises(TypeError, match="gravty"):
        make(gravty=G)
