"""armlab.sim: integrators, torque inputs, payload, limit events, energy drift and bad input.

The MuJoCo cross-check of the same motions is in tests/sim/test_mujoco.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from armlab import models, sim
from armlab.dynamics.model import fdyn_kernel, ldl_solve

YOUBOT = models.youbot()
Q0 = np.array([0.3, 0.5, -0.4, 1.2, 0.2])  # inside the driver limits
Z5 = np.zeros(5)


def free(robot=YOUBOT, q0=Q0, t_end=1.0, dt=1e-3, **kw):
    return sim.simulate(robot, q0, np.zeros(robot.n), t_end, dt, events="ignore", **kw)


# --- energy ----------------------------------------------------------------------------------------------


def test_rk4_conserves_the_energy_of_a_free_arm():
    traj = free()
    assert traj.completed and traj.t[-1] == pytest.approx(1.0) and traj.q.shape == (1001, 5)
    assert np.ptp(traj.energy) < 1e-4 and traj.max_drift < 1e-4  # J (measured 2.3e-5); K reaches ~17 J
    assert traj.kinetic.max() > 1.0 and np.allclose(
        traj.kinetic, 0.5 * np.einsum("ki,kij,kj->k", traj.qd, YOUBOT.inertia(traj.q), traj.qd)
    )
    # fourth order: halving the step cuts the drift by about 2⁴
    assert 8 < traj.max_drift / free(dt=5e-4).max_drift < 40


def test_semi_implicit_euler_drifts_far_more_than_rk4_and_reports_it():
    rk4, euler = free(), free(method="euler")
    assert euler.max_drift > 1000 * rk4.max_drift
    assert euler.relative_drift > rk4.relative_drift and "drift" in repr(euler)


def test_adaptive_integration_agrees_with_rk4_at_a_small_step():
    ref = free(t_end=0.3, dt=1e-3, method="DOP853", rtol=1e-11, atol=1e-11)
    assert np.abs(free(t_end=0.3, dt=1e-3).q - ref.q).max() < 1e-8
    assert np.abs(free(t_end=0.3, dt=1e-3, method="adaptive").q - ref.q).max() < 1e-6


def test_energy_balance_with_torque_friction_and_armature():
    """dE/dt = q̇ᵀ(τ − friction): drift = E − E0 − work stays small while E changes by ~9 J. The work is
    summed by the trapezoid rule, so here the drift is second order in dt (1.0e-4 J, then 2.6e-5 J)."""

    def tau(t, q, qd):
        return 0.5 * np.sin(3 * t + np.arange(5))

    kw = dict(tau=tau, friction=lambda qd: 0.05 * np.asarray(qd), armature=[0.01, 0.01, 0.005, 0.002, 0.002])
    coarse, fine = free(**kw), free(dt=5e-4, **kw)
    assert np.ptp(coarse.energy) > 5.0 and coarse.max_drift < 2e-4
    assert 3 < coarse.max_drift / fine.max_drift < 5


# --- inputs ----------------------------------------------------------------------------------------------


def test_array_torque_equals_the_same_torque_as_a_function_or_a_controller():
    table = np.tile([0.2, -1.0, 0.5, 0.1, 0.05], (200, 1))
    by_array = free(t_end=0.2, tau=table)
    by_function = free(t_end=0.2, tau=lambda t, q, qd: table[0])
    np.testing.assert_allclose(by_array.q, by_function.q, atol=1e-13)
    steps = np.random.default_rng(1).normal(size=(200, 5))  # a new value every step: held, like a controller
    by_controller = free(t_end=0.2, controller=lambda t, q, qd, ref: steps[min(round(t / 1e-3), 199)])
    np.testing.assert_allclose(free(t_end=0.2, tau=steps).q, by_controller.q, atol=1e-13)
    np.testing.assert_allclose(by_controller.tau[:-1], steps, atol=0)


def test_controller_object_with_step_and_a_reference_holds_a_pose():
    class PDGravity:  # PD in joint acceleration (M-scaled gains), plus gravity
        def step(self, t, q, qd, ref):
            return YOUBOT.gravload(q) + YOUBOT.inertia(q) @ (100.0 * (ref[0] - q) - 20.0 * qd)

    target = Q0 + 0.1
    traj = sim.simulate(YOUBOT, Q0, Z5, 3.0, 1e-3, controller=PDGravity(), reference=lambda t: (target, Z5, Z5))
    assert np.abs(traj.q[-1] - target).max() < 1e-3 and traj.completed


def test_payload_changes_the_gravity_load_by_j_transpose_of_its_weight():
    robot = models.puma560(flange=True)
    heavy = sim.with_payload(robot, 2.0)
    q = np.radians([20, -40, -60, 10, 30, 0])
    weight = 2.0 * np.array([0.0, 0.0, -9.81])
    np.testing.assert_allclose(heavy.gravload(q) - robot.gravload(q), -robot.jacob0(q)[:3].T @ weight, atol=1e-12)
    assert sim.with_payload(robot, 0) is robot and heavy.links[-1].m == pytest.approx(robot.links[-1].m + 2)
    # holding torque for the payload keeps the loaded arm still, and not the bare arm
    hold = heavy.gravload(q)
    loaded = sim.simulate(robot, q, np.zeros(6), 0.2, 1e-3, tau=lambda t, q, qd: hold, payload=2.0)
    bare = sim.simulate(robot, q, np.zeros(6), 0.2, 1e-3, tau=lambda t, q, qd: hold)
    assert np.abs(loaded.q - q).max() < 1e-9 < 1e-3 < np.abs(bare.q - q).max()


# --- limits and failures -------------------------------------------------------------------------------


def test_joint_limit_events_stop_report_or_ignore():
    stop = sim.simulate(YOUBOT, Q0, Z5, 2.0, 1e-3, events="stop")
    assert not stop.completed and "joint 2 reached its upper limit" in stop.reason
    event = stop.events[0]
    assert (event.joint, event.side) == (2, "upper") and event.limit == pytest.approx(YOUBOT.qlim[1, 1])
    assert stop.t[-2] <= event.t <= stop.t[-1] and stop.q[-2, 1] <= event.limit < stop.q[-1, 1]
    report = sim.simulate(YOUBOT, Q0, Z5, 2.0, 1e-3, events="report")
    first = report.events[0]  # the same crossing (the "stop" run steps in Python, "report" in CasADi)
    assert report.completed and len(report.events) > 1
    assert (first.joint, first.side, first.limit) == (event.joint, event.side, event.limit)
    assert first.t == pytest.approx(event.t, rel=1e-12)
    assert sim.simulate(YOUBOT, Q0, Z5, 2.0, 1e-3, events="ignore").events == []
    adaptive = sim.simulate(YOUBOT, Q0, Z5, 2.0, 1e-3, events="stop", method="DOP853")
    assert adaptive.reason.startswith("joint 2 reached its upper limit") and abs(adaptive.t[-1] - event.t) < 2e-3


def test_a_run_that_blows_up_stops_with_a_reason_and_no_nan():
    traj = free(tau=lambda t, q, qd: np.full(5, 1e200), t_end=0.5)
    assert not traj.completed and "non-finite" in traj.reason
    for a in (traj.q, traj.qd, traj.qdd, traj.tau):
        assert np.isfinite(a).all()


@pytest.mark.parametrize(
    "kw, match",
    [
        (dict(q0=np.zeros(4)), r"q0 must have 5 joint values \(shape \(5,\)\)"),
        (dict(q0=[0, np.nan, 0, 0, 0]), "q0 contains NaN"),
        (dict(method="leapfrog"), "method must be one of"),
        (dict(events="bounce"), "events must be one of"),
        (dict(t_end=-1.0), "t_end and dt must be > 0"),
        (dict(t_end=1e-4), "shorter than one step"),
        (dict(tau=np.zeros((7, 5))), r"tau must be a function .* shape \(100, 5\)"),
        (dict(tau=lambda t, q, qd: [1.0, 2.0]), r"tau\(t, q, qd\) must have shape"),
        (dict(controller=42), "controller must be a function"),
        (dict(payload=-1.0), "payload must be a mass"),
        (dict(friction=[0.1] * 5), "friction must be a function"),
        (dict(max_steps=10), "exceeds max_steps"),
    ],
)
def test_bad_input_gets_a_clear_error(kw, match):
    args = dict(q0=Q0, qd0=Z5, t_end=0.1, dt=1e-3) | kw
    with pytest.raises((ValueError, TypeError), match=match):
        sim.simulate(YOUBOT, **args)


def test_a_robot_without_inertia_cannot_be_simulated():
    with pytest.raises(ValueError, match="no link masses"):
        sim.simulate(models.rpr(), np.zeros(3), np.zeros(3), 0.1, 1e-3)


# --- the compiled forward dynamics the simulator calls ---------------------------------------------------


def test_ldl_solve_equals_numpy_and_the_kernel_equals_m_inverse_times_the_rhs():
    rng = np.random.default_rng(2)
    A = rng.normal(size=(6, 6))
    M, b = A @ A.T + 6 * np.eye(6), rng.normal(size=6)
    np.testing.assert_allclose(ldl_solve(M.tolist(), b.tolist()), np.linalg.solve(M, b), atol=1e-12)
    q, qd, tau = rng.normal(size=(3, 5))
    arm = [0.1, 0.2, 0.3, 0.0, 0.05]
    got = fdyn_kernel(YOUBOT)(q.tolist(), qd.tolist(), tau.tolist(), [0, 0, -9.81], [0.0] * 6, arm, math.cos, math.sin)
    want = np.linalg.solve(YOUBOT.inertia(q) + np.diag(arm), tau - YOUBOT.rne(q, qd, np.zeros(5)))
    np.testing.assert_allclose(got, want, atol=1e-10)
