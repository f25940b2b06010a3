"""The one home of the fixed-step integrators (armlab.sim.integrators): what simulate, run_task and the lab's
simulated youBot step with."""

from __future__ import annotations

import math

import numpy as np
import pytest

from armlab import models, sim
from armlab.dynamics.model import GRAVITY, euler_step_kernel
from armlab.sim.integrators import rk4, semi_implicit_euler

ARM = models.paper_3r()


def _kernel_accel(robot, tau):
    step = euler_step_kernel(robot)
    g, w, arm = list(GRAVITY), [0.0] * 6, [0.0] * robot.n
    return step, (lambda q, qd: step(q, qd, tau, g, w, arm, 0.0, math.cos, math.sin)[0]), (g, w, arm)


def test_semi_implicit_euler_is_the_compiled_euler_step_of_dynamics_model():
    """q̇' = q̇ + h·q̈, q' = q + h·q̇': the generic step and the traced kernel agree to the last bit."""
    tau = [0.3, -1.0, 0.2]
    step, accel, (g, w, arm) = _kernel_accel(ARM, tau)
    q, qd = [0.1, 0.7, -0.4], [0.5, -0.2, 0.9]
    for _ in range(50):
        want = step(q, qd, tau, g, w, arm, 0.002, math.cos, math.sin)
        got = semi_implicit_euler(accel, q, qd, 0.002)
        assert got == tuple(want)
        q, qd = got[1], got[2]


def test_semi_implicit_euler_keeps_arrays_and_applies_the_impulse_before_the_position_moves():
    q, qd = np.array([1.0, 2.0]), np.array([0.5, -0.5])
    a, q1, qd1 = semi_implicit_euler(lambda q, qd: -q, q, qd, 0.1, impulse=lambda v: np.where([True, False], 0.0, v))
    assert isinstance(q1, np.ndarray) and a.tolist() == [-1.0, -2.0]
    assert qd1.tolist() == [0.0, -0.5 - 0.2] and q1.tolist() == [1.0, 2.0 + 0.1 * (-0.7)]


def test_rk4_is_fourth_order_on_the_harmonic_oscillator():
    """q̈ = −q from (1, 0): the error at t = 1 shrinks 2⁴ = 16 times when h halves (Butcher's classic RK4)."""

    def error(h):
        q, qd = [1.0], [0.0]
        for _ in range(round(1.0 / h)):
            _, q, qd = rk4(lambda c, q, qd: [-q[0]], q, qd, h)
        return abs(q[0] - math.cos(1.0))

    ratio = error(0.1) / error(0.05)
    assert 15.0 < ratio < 17.0


def test_rk4_evaluates_its_stages_at_half_and_full_step():
    seen = []
    rk4(lambda c, q, qd: seen.append(c) or [0.0], [0.0], [0.0], 0.1)
    assert seen == [0.0, 0.5, 0.5, 1.0]


def test_simulate_rk4_is_the_integrators_rk4_step_by_step():
    """simulate(method="rk4") takes each step from integrators.rk4 with the compiled q̈ (to a relative 1e-12:
    the steps run in CasADi)."""
    q0, qd0, dt = [0.2, 0.9, -0.5], [0.0, 0.3, 0.0], 0.005
    tr = sim.simulate(ARM, q0, qd0, 0.05, dt, method="rk4")
    _, accel, _ = _kernel_accel(ARM, [0.0] * 3)
    q, qd = list(q0), list(qd0)
    for k in range(10):
        _, q, qd = rk4(lambda c, q, qd: accel(q, qd), q, qd, dt)
        np.testing.assert_allclose(tr.q[k + 1], q, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(tr.qd[k + 1], qd, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("motors_on", [True, False])
def test_the_lab_simulator_steps_with_semi_implicit_euler(motors_on):
    """Free fall of the youBot with its motors off: the lab's step is the integrator's, plus its friction
    impulse; with the motors on the servo's ramp moves q by h·q̇' (the new velocity)."""
    from armlab.lab.sim.physics import ArmPhysics

    arm = ArmPhysics(np.array([0.0, 0.5, -1.0, 0.8, 0.0]))
    arm.switch_motors(motors_on)
    arm.set_target(1, 0.9)
    q_before = arm.q.copy()
    dt = arm.dt_servo if motors_on else arm.dt_free
    arm.advance(0.0)
    arm.advance(dt)
    assert np.allclose(arm.q, q_before + dt * arm.qd, rtol=0, atol=1e-15)
    assert np.allclose(arm.qdd, arm.qd / dt, rtol=0, atol=1e-12)  # from rest, q̈ is the new velocity over h
    assert np.any(arm.qd != 0.0)
