"""Fault injection on a real websocket simulator (loopback, free port per test): a dropped connection, stale
/joint_states, a server restart, malformed frames, a stuck joint tripping the effort watchdog, and
switchOffMotors letting the simulated arm fall. Every wait is bounded."""

from __future__ import annotations

import json
import threading
import time

import numpy as np
import pytest

pytest.importorskip("websockets")

from armlab.lab import (
    ConnectionLostError,
    RosbridgeClient,
    SafetyError,
    Simulator,  # noqa: E402
    WatchdogError,
    YoubotArm,
)
from armlab.lab import protocol as P  # noqa: E402
from armlab.lab.sim.server import HOME_DRIVER  # noqa: E402
from support.lab_faults import AWAY, stale_stream_hold, wait_for  # noqa: E402


@pytest.fixture
def arm(sim, tmp_path):
    with YoubotArm(sim.url, log=tmp_path / "faults.jsonl") as a:
        yield a


_wait = wait_for


def _ops(sim, since, conn=None):
    return [json.loads(text) for t, c, text in list(sim.received) if t >= since and (conn is None or c == conn)]


def test_connection_drop_mid_stream_raises_and_nothing_stale_after_reconnect(sim, arm):
    timer = threading.Timer(0.4, sim.drop_connections)
    timer.start()
    with pytest.raises(SafetyError) as info:  # ConnectionLostError, or the latched fault if already back
        arm.move_joints(AWAY, frame="driver", speed=0.5)
    timer.join()
    assert "connection lost" in str(info.value)
    _wait(lambda: arm.connected and sim.stats["connections"] == 2, 5.0, "the reconnect")
    t_back = time.time() - 0.5
    time.sleep(0.5)
    after = [f for f in _ops(sim, t_back, conn=2)]
    assert {f["op"] for f in after} <= {"advertise", "subscribe"}, "a command was sent after reconnecting"
    assert any(f["op"] == "subscribe" and f["topic"] == P.JOINT_STATES for f in after)
    with pytest.raises(SafetyError, match="resume"):  # explicit resume required
        arm.move_joints(HOME_DRIVER, frame="driver")
    state = arm.resume()
    _wait(lambda: any(f["op"] == "publish" for f in _ops(sim, t_back, conn=2)), 1.0, "the hold")
    time.sleep(0.1)
    hold = [f for f in _ops(sim, t_back, conn=2) if f["op"] == "publish"]
    assert len(hold) == 1, "resume sends exactly one hold"
    sent = np.array([p["value"] for p in hold[0]["msg"]["positions"]])
    np.testing.assert_allclose(sent, arm.limits.clip(state.q_driver), atol=0.01)  # where the arm is, not stale
    arm.move_joints(state.q_driver + [0.1, 0, 0, 0, 0], frame="driver")


def test_connection_drop_publish_raises_and_is_never_queued(sim):
    c = RosbridgeClient(sim.url, reconnect=False).connect()
    c.advertise(P.ARM_POSITION, P.TOPICS[P.ARM_POSITION])
    sim.drop_connections()
    _wait(lambda: not c.connected, 2.0, "the drop")
    from armlab.lab import NotConnectedError

    with pytest.raises(NotConnectedError, match="never queued"):
        c.publish(P.ARM_POSITION, P.positions_msg(HOME_DRIVER, range(1, 6)))
    c.close()


@pytest.mark.stale_watchdog
def test_stale_joint_states_hold_at_the_last_measured_pose(sim, arm):
    """The move stops with StaleStateError and one hold goes out at the last pose measured (how soon after the
    last state, ≤ 150 ms + one 20 ms tick: bench/bench_lab.py --check)."""
    _, sent, held_at = stale_stream_hold(sim, arm)
    np.testing.assert_allclose(sent, held_at, atol=1e-12)
    np.testing.assert_allclose(sent, arm.limits.clip(arm.state().q_driver), atol=1e-9)
    assert "stale" in arm.fault
    _wait(lambda: arm.state().age < 0.05, 2.0, "the state stream to come back")
    arm.resume()


def test_server_restart_resubscribes_and_requires_resume(sim, arm):
    before = arm.client.generation
    sim.restart(down=0.3)
    _wait(lambda: arm.client.generation > before and arm.connected, 5.0, "the reconnect")
    state = arm.wait_state(1.0)
    assert state.seq is not None and state.seq < 100  # seq restarted: a new server
    with pytest.raises(SafetyError, match="resume"):
        arm.move_joints(HOME_DRIVER + [0.1, 0, 0, 0, 0], frame="driver")
    arm.resume()
    arm.move_joints(HOME_DRIVER + [0.1, 0, 0, 0, 0], frame="driver")


def test_malformed_frames_are_logged_and_survived(sim, arm):
    n0 = arm.client.malformed
    sim.send_malformed(5)
    _wait(lambda: arm.client.malformed >= n0 + 5, 2.0, "five malformed frames")
    s = arm.wait_state(0.5)
    assert s.age < 0.05 and arm.fault is None
    arm.move_joints(HOME_DRIVER + [0.1, 0, 0, 0, 0], frame="driver")
    errors = [line for line in arm.log.path.read_text().splitlines() if '"kind":"error"' in line]
    assert len(errors) >= 5


def test_stuck_joint_trips_the_effort_watchdog(sim, arm):
    sim.stick_joint(2)
    goal = HOME_DRIVER + [0, 0.6, 0, 0, 0]
    with pytest.raises(WatchdogError, match="joint 2"):
        arm.move_joints(goal, frame="driver", speed=0.5)
    assert abs(arm.state().q_driver[1] - goal[1]) > 0.3  # stopped on the stuck joint, not at the goal
    assert "effort watchdog" in arm.fault
    sim.stick_joint(2, False)
    arm.resume()


def test_switch_off_motors_drops_the_arm_and_the_client_refuses_it(sim, arm):
    with pytest.raises(SafetyError, match="falls"):
        arm.call_service("/arm_1/switchOffMotors")
    arm.move_joints(HOME_DRIVER + [0, 1.0, -1.2, 0.5, 0], frame="driver", speed=1.0)
    before = sim.joint_positions()
    raw = RosbridgeClient(sim.url).connect()  # what a client without the safety layer can do
    try:
        raw.call_service("/arm_1/switchOffMotors")
        time.sleep(1.0)
        fell = sim.joint_positions() - before
        assert not sim.motors_on and np.abs(fell[1:3]).max() > 0.3, fell
        raw.call_service("/arm_1/switchOnMotors")
        assert sim.motors_on
    finally:
        raw.close()


def test_ros2_stamps_and_fragmented_states():
    with Simulator(port=0, ros2=True) as s:
        got = []
        c = RosbridgeClient(s.url).connect()
        c.subscribe(P.JOINT_STATES, P.TOPICS[P.JOINT_STATES], lambda m, t: got.append(m), fragment_size=100)
        _wait(lambda: len(got) >= 3, 2.0, "fragmented states")
        c.close()
    header = got[-1]["header"]
    assert "seq" not in header and set(header["stamp"]) == {"sec", "nanosec"}
    assert P.parse_joint_state(got[-1])[2]["arm_joint_1"][0] == pytest.approx(HOME_DRIVER[0], abs=1e-3)


def test_velocity_command_has_no_watchdog_and_stops_at_the_limit(sim):
    c = RosbridgeClient(sim.url).connect()
    try:
        c.advertise(P.ARM_VELOCITY, P.TOPICS[P.ARM_VELOCITY])
        c.publish(
            P.ARM_VELOCITY, {"velocities": [{"joint_uri": "arm_joint_5", "unit": P.UNIT_RAD_PER_S, "value": 4.0}]}
        )
        time.sleep(0.6)  # nobody refreshes the command: it keeps running
        q1 = sim.joint_positions()[4]
        time.sleep(1.4)
        q2 = sim.joint_positions()[4]
        assert q1 > HOME_DRIVER[4] + 1.0 and q2 > q1
        assert q2 < 5.6415924  # the firmware stopped it short of the driver limit
    finally:
        c.close()


def test_connection_lost_error_is_a_connection_error():
    assert issubclass(ConnectionLostError, ConnectionError) and issubclass(ConnectionLostError, SafetyError)
