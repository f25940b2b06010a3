"""The teach pendant's hold holds (issue #21 §1), against the simulator.

The sequence a TA reported: drag θ1 to −149° (a long swing from the folded pose at +166°), press hold
mid-swing, then move only θ3. Before the fix the pendant sent the whole slider vector and joint 1 swung on
to −149° after the hold. Now hold is latched, the sliders show the measured pose, a slider move carries
only its own joint, and refusals are given in the sliders' DH degrees.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

pytest.importorskip("websockets")
pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from armlab.lab import Simulator, YoubotArm  # noqa: E402
from armlab.lab.pendant import TeachPendant  # noqa: E402

pytestmark = pytest.mark.integration  # starts processes or servers

ARM_TOPIC = "/arm_1/arm_controller/position_command"


def _arm_publishes(sim):
    return sum(1 for _, _, text in list(sim.received) if ARM_TOPIC in text and '"op":"publish"' in text)


def _wait_quiet(sim, quiet=0.3, timeout=3.0):
    n, since, end = _arm_publishes(sim), time.monotonic(), time.monotonic() + timeout
    while time.monotonic() - since < quiet and time.monotonic() < end:
        time.sleep(0.05)
        if _arm_publishes(sim) != n:
            n, since = _arm_publishes(sim), time.monotonic()
    return n


@pytest.fixture()
def rig(tmp_path):
    with Simulator(port=0, record=True) as sim, YoubotArm(sim.url, log=tmp_path / "pendant.jsonl") as arm:
        pendant = TeachPendant(arm, speed=1.0)
        yield sim, arm, pendant
        pendant.close()


def _swing_then_hold(sim, arm, pendant):
    """Drag θ1 to −149°, wait until the swing is under way, press hold; returns joint 1 after the stop."""
    q1_start = arm.state().q[0]
    assert np.degrees(q1_start) > 150  # the folded pose: the swing to −149° is about 315°
    q = pendant.joints.q
    q[0] = np.radians(-149.0)
    pendant.joints.set_q(q)  # what dragging θ1 does
    assert pendant.refused == 0, pendant.status.value
    end = time.monotonic() + 5
    while abs(arm.state().q[0] - q1_start) < np.radians(45) and time.monotonic() < end:
        time.sleep(0.02)
    assert abs(arm.state().q[0] - q1_start) >= np.radians(45), "the swing did not start"
    pendant.hold_button.click()
    time.sleep(0.4)  # the arm stops at the held set point
    return arm.state().q[0]


def test_hold_mid_swing_then_moving_theta3_does_not_move_joint_1(rig):
    sim, arm, pendant = rig
    q1_held = _swing_then_hold(sim, arm, pendant)
    assert np.degrees(q1_held) > -100, "the hold did not stop the swing"
    slider_after_hold = pendant.joints.q[0]
    n = _wait_quiet(sim)
    q = pendant.joints.q
    q[2] += np.radians(10)
    pendant.joints.set_q(q)  # move only θ3
    time.sleep(1.5)
    assert abs(arm.state().q[0] - q1_held) < np.radians(1), (
        f"joint 1 moved after hold: {np.degrees(q1_held):.1f}° → {np.degrees(arm.state().q[0]):.1f}°"
    )
    assert _arm_publishes(sim) == n, "a slider move reached the robot while held"
    assert pendant.refused >= 1 and "resume" in pendant.status.value
    # the sliders showed, and show, where the arm is, not the −149° it is no longer going to
    np.testing.assert_allclose([slider_after_hold, pendant.joints.q[0]], q1_held, atol=np.radians(2))
    assert arm.fault == "held"


def test_resume_resyncs_the_sliders_and_a_move_starts_from_the_measured_pose(rig):
    sim, arm, pendant = rig
    q1_held = _swing_then_hold(sim, arm, pendant)
    pendant.resume()
    assert arm.fault is None
    measured = arm.state().q
    np.testing.assert_allclose(pendant.joints.q, measured, atol=np.radians(1))
    np.testing.assert_allclose(pendant.commanded.q, measured, atol=np.radians(1))
    q = pendant.joints.q
    q[2] += np.radians(10)
    pendant.joints.set_q(q)  # only θ3 moves, from where the arm is
    assert pendant.refused == 0, pendant.status.value
    end = time.monotonic() + 4
    while abs(arm.state().q[2] - q[2]) > 0.01 and time.monotonic() < end:
        time.sleep(0.05)
    now = arm.state().q
    assert abs(now[2] - q[2]) <= 0.01, "θ3 did not go where its slider was moved"
    assert abs(now[0] - q1_held) < np.radians(1), "joint 1 moved when only θ3 was commanded"
    np.testing.assert_allclose(now[[1, 3, 4]], measured[[1, 3, 4]], atol=np.radians(1))


def test_refusal_is_in_slider_degrees_and_the_sliders_show_the_measured_pose(rig):
    sim, arm, pendant = rig
    before = arm.state().q
    n = _wait_quiet(sim)
    q = pendant.joints.q
    q[1] = np.radians(-170.0)  # beyond θ2's range: the slider stops at its end, inside the driver's margin
    pendant.joints.set_q(q)
    time.sleep(0.2)
    assert pendant.refused == 1
    shown = pendant.joints.sliders[1].min
    assert f"θ2 = {shown:.1f}°" in pendant.status.value and "commandable range" in pendant.status.value
    assert "rad" not in pendant.status.value
    assert pendant.status_text.startswith("refused: ") and "<" not in pendant.status_text  # lab 1 prints it
    assert _arm_publishes(sim) == n
    np.testing.assert_allclose(pendant.joints.q, before, atol=np.radians(1))


@pytest.mark.stale_watchdog
def test_after_a_stale_state_hold_the_sliders_show_the_measured_pose(rig):
    sim, arm, pendant = rig
    q = pendant.joints.q
    q[0] -= np.radians(60)
    pendant.joints.set_q(q)
    time.sleep(0.4)
    sim.stall(0.5)  # /joint_states stops mid-motion: the client holds
    time.sleep(0.9)
    assert arm.fault is not None and "stale" in arm.fault
    assert abs(pendant.joints.q[0] - q[0]) > np.radians(10), "the slider still shows the abandoned target"
    np.testing.assert_allclose(pendant.joints.q[0], arm.state().q[0], atol=np.radians(2))
    assert pendant.resume() is not None
    np.testing.assert_allclose(pendant.joints.q, arm.state().q, atol=np.radians(1))


def test_a_closed_pendant_is_greyed_out_says_so_and_sends_nothing(rig):
    sim, arm, pendant = rig
    n = _wait_quiet(sim)
    pendant.close()
    assert all(s.disabled for s in pendant.joints.sliders) and pendant.hold_button.disabled
    assert "closed" in pendant.status.value
    q = pendant.joints.q
    q[0] -= np.radians(10)
    pendant.joints.set_q(q)
    time.sleep(0.3)
    assert _arm_publishes(sim) == n and "closed" in pendant.status.value


def test_a_slider_move_announces_the_target_then_the_arrival_at_fkine(rig):
    """The live region says where a move goes ("moving to θ = …: tool to (…) m"), then, once the measured tool is
    within 2 mm of it, "arrived" with the measured tool position; a refusal is an alert, not an announcement."""
    sim, arm, pendant = rig
    q = pendant.joints.q
    q[2] += np.radians(10.0)
    pendant.joints.set_q(q)
    said = pendant.scenes[0].widget.status
    assert said.startswith("moving to θ = (") and "tool to (" in said, said
    goal = arm.robot.fkine(pendant.commanded.q)[:3, 3]
    tool = [float(v.replace("−", "-")) for v in said.split("tool to (")[1].split(")")[0].split(", ")]
    assert tool == pytest.approx(goal, abs=5e-4)
    end = time.monotonic() + 10
    while not pendant.scenes[0].widget.status.startswith("arrived") and time.monotonic() < end:
        time.sleep(0.05)
    said = pendant.scenes[0].widget.status
    assert said.startswith("arrived: tool at ("), said
    q[2] += np.radians(400.0)  # far outside the commandable range: refused
    pendant.joints.set_q(q)
    assert "role='alert'" in pendant.status.value and pendant.scenes[0].widget.status == said
