"""Lab 1's teach pendant (sliders → safety layer → simulator; measured vs commanded arms), lab 3's excitation
trajectory and identification on exact model torques, and that ``import armlab`` leaves the lab alone."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("websockets")

from armlab.lab import SafetyLimits, Simulator, YoubotArm  # noqa: E402
from armlab.lab.ident import excitation_trajectory, identify_scaling, model_terms, predict  # noqa: E402
from armlab.models import YOUBOT_DRIVER, youbot, youbot_driver_to_q, youbot_q_to_driver  # noqa: E402

LIB = Path(__file__).resolve().parents[2] / "lib"
Q0 = youbot_driver_to_q(YOUBOT_DRIVER["candle"]) + np.array([0.3, 0.4, -0.6, 0.2, 0.0])


def test_import_armlab_does_not_load_the_lab_or_websockets(tmp_path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(LIB), os.environ.get("PYTHONPATH")]))}
    code = "import sys, armlab; print(sorted(m for m in sys.modules if m.startswith(('armlab.lab', 'websockets'))))"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True, check=True, timeout=60
    ).stdout.strip()
    assert out == "[]"


def test_a_pendant_move_says_moving_in_the_message_that_renames_its_view():
    """The live region's "moving to …" and the view's new name (the commanded arm moved) reach the browser in one
    message: a screen reader never hears the news beside the old name. Without ``one_message`` they are two."""
    pytest.importorskip("ipywidgets")
    pytest.importorskip("anywidget")
    from armlab.lab.pendant import TeachPendant

    class Comm:  # what the kernel would send to the browser: each update's state
        kernel, comm_id = object(), "test"

        def __init__(self):
            self.sent = []

        def send(self, data=None, buffers=None, **kwargs):
            self.sent.append(dict(data.get("state", {})))

        def on_msg(self, callback):
            pass

        def close(self, *args, **kwargs):
            pass

    with Simulator(port=0) as sim, YoubotArm(sim.url) as arm:
        pendant = TeachPendant(arm, speed=1.0)
        widget = pendant.scenes[0].widget
        widget.comm = comm = Comm()
        pendant.joints.set_q(youbot_driver_to_q(arm.state().q_driver + [0.3, 0, 0, 0, 0]))
        moving = [m for m in list(comm.sent) if str(m.get("status", "")).startswith("moving")]
        assert pendant.refused == 0, pendant.status.value
        assert len(moving) == 1 and moving[0].get("label") == widget.label, comm.sent


def test_teach_pendant_sends_through_the_safety_layer(tmp_path):
    pytest.importorskip("ipywidgets")
    pytest.importorskip("anywidget")
    from armlab.lab.pendant import TeachPendant

    with Simulator(port=0, record=True) as sim, YoubotArm(sim.url, log=tmp_path / "p.jsonl") as arm:
        pendant = TeachPendant(arm, speed=1.0)
        target = youbot_driver_to_q(arm.state().q_driver + [0.3, 0.3, -0.3, 0.3, 0.3])  # away from the stops
        pendant.joints.set_q(target)
        deadline = time.monotonic() + 5
        while np.abs(arm.state().q - target).max() > 0.01 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert pendant.refused == 0, pendant.status.value
        assert pendant.refresh() < 0.005  # measured and commanded arms drawn together
        np.testing.assert_allclose(pendant.measured.q, target, atol=0.01)
        n, quiet_since, deadline = len(sim.received), time.monotonic(), time.monotonic() + 3
        while time.monotonic() - quiet_since < 0.3 and time.monotonic() < deadline:  # the stream's last set points
            time.sleep(0.05)
            if len(sim.received) != n:
                n, quiet_since = len(sim.received), time.monotonic()
        pendant.joints.set_q(target + np.radians([0, 0, 0, 0, 300]))  # joint 5 far beyond its range
        time.sleep(0.2)
        assert pendant.refused == 1 and "θ5" in pendant.status.value and "°" in pendant.status.value
        assert len(sim.received) == n, "a refused slider move reached the robot"
        # the sliders went back to the measured pose: the next move (another joint) is not refused for joint 5
        np.testing.assert_allclose(pendant.joints.q, target, atol=np.radians(0.5))
        nudged = pendant.joints.q + np.radians([2, 0, 0, 0, 0])
        pendant.joints.set_q(nudged)
        assert pendant.refused == 1, pendant.status.value
        np.testing.assert_allclose(pendant.commanded.q, nudged, atol=1e-3)  # the others: measured
        pendant.close()


def test_excitation_starts_and_ends_at_rest_within_the_caps():
    t, Q = excitation_trajectory(Q0, duration=8.0)
    limits = SafetyLimits()
    steps = np.abs(np.diff(np.vstack([Q0, Q]), axis=0))
    assert steps.max() * 50 <= 0.9 + 1e-9 < limits.max_speed  # peak speed scaled to 0.9 rad/s
    np.testing.assert_allclose(Q[-1], Q0, atol=1e-9)
    assert np.abs(Q[0] - Q0).max() < 1e-3 and steps[:3].max() < 1e-3  # starts at rest
    qd = youbot_q_to_driver(Q)
    assert np.all((qd >= limits.safe_lower) & (qd <= limits.safe_upper))
    assert np.all(np.ptp(Q, axis=0) > 0.1)  # every joint is excited


def test_identification_recovers_the_model_and_friction_from_exact_torques():
    """τ made by the model itself with known scalings and friction: least squares gives them back."""
    robot = youbot()
    t, Q = excitation_trajectory(Q0, duration=8.0)
    dt = t[1] - t[0]
    qd = np.gradient(Q, dt, axis=0)
    qdd = np.gradient(qd, dt, axis=0)
    M, C, G = model_terms(robot, Q, qd, qdd)
    alpha, gamma = np.array([1.1, 0.9, 1.2, 0.8, 1.0]), np.array([1.0, 1.05, 0.95, 1.1, 0.9])
    fc, fv = np.array([0.07, 0.06, 0.04, 0.04, 0.3]), np.array([0.02, 0.1, 0.05, 0.01, 0.01])
    tau = alpha * (M + C) + gamma * G + fc * np.tanh(qd / 0.01) + fv * qd
    data = {"t": t, "q": Q, "qd": qd, "qdd": qdd, "tau": tau}
    theta, rms = identify_scaling(robot, data, smooth=1)
    np.testing.assert_allclose(theta[:, 0], alpha, rtol=1e-6)
    np.testing.assert_allclose(theta[1:, 1], gamma[1:], rtol=1e-6)
    assert theta[0, 1] == 0.0  # joint 1 is vertical: no gravity term to identify
    np.testing.assert_allclose(theta[:, 2], fc, rtol=1e-5)
    np.testing.assert_allclose(theta[:, 3], fv, rtol=1e-5)
    assert rms.max() < 1e-9
    _, tau_hat, tau_meas = predict(robot, theta, data, smooth=5)
    np.testing.assert_allclose(tau_hat, tau_meas, atol=1e-9)
