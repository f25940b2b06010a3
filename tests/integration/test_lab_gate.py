"""The robot-side gate (issue #21 §2) in front of the simulator, standing in for rosbridge, on 127.0.0.1.

Raw clients that never heard of our safety layer (a plain websocket, roslibpy) try to get around it: commands
without the claim, far steps, values outside the limits or in the wrong unit, a second commander, the dangerous
services, velocity commands, malformed frames. Every attempt is answered with a status frame, written to the
audit log, and nothing outside the policy reaches the simulator; the arm never leaves the policy.
"""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
import time

import numpy as np
import pytest

pytest.importorskip("websockets")

from websockets.sync.client import connect  # noqa: E402

from armlab.lab import SafetyError, SafetyLimits, Simulator, YoubotArm  # noqa: E402
from armlab.lab.gate import Gate, server  # noqa: E402
from armlab.lab.protocol import ARM_POSITION, positions_msg  # noqa: E402
from armlab.models import youbot, youbot_driver_to_q  # noqa: E402

LIMITS = SafetyLimits()
TOKEN = "ta-secret"
_LEGACY = {"legacy": True} if "legacy" in inspect.signature(connect).parameters else {}
pytestmark = pytest.mark.timeout(120)


@pytest.fixture()
def rig(tmp_path):
    with Simulator(port=0, record=True) as sim:
        gate = Gate(sim.url, port=0, token=TOKEN, audit=tmp_path / "audit.jsonl").start()
        try:
            yield sim, gate
        finally:
            gate.stop()


def audit(gate):
    return [json.loads(line) for line in gate.audit.path.read_text().splitlines()]


def arm_commands_received(sim):
    """Every arm set point the simulator (rosbridge) received, as (connection id, {joint index: value})."""
    out = []
    for _, cid, text in list(sim.received):
        f = json.loads(text)
        if f.get("op") == "publish" and f.get("topic") == ARM_POSITION:
            out.append((cid, {int(e["joint_uri"][-1]) - 1: e["value"] for e in f["msg"]["positions"]}))
    return out


def assert_policy_kept(sim, q_start):
    """Each set point that reached the simulator is inside the limits less the margin, within the step cap
    of where the arm was, and the arm is now near where it started (nothing big was let through)."""
    for _, values in arm_commands_received(sim):
        for j, v in values.items():
            assert LIMITS.safe_lower[j] <= v <= LIMITS.safe_upper[j], (j, v)
    assert np.abs(sim.joint_positions() - q_start).max() < 0.3


class Raw:
    """A raw rosbridge client on a plain websocket: it sends what it likes and collects what comes back."""

    def __init__(self, url):
        # max_queue=None: frames it never reads (a subscription streams on) must not stop the client from reading
        # the gate's answer to its close (websockets stops reading when its queue is full: a 10 s close timeout)
        self.ws = connect(url, open_timeout=5, max_queue=None, **_LEGACY)
        self.n = 0

    def send(self, frame):
        self.ws.send(frame if isinstance(frame, (str, bytes)) else json.dumps(frame))

    def frames(self, seconds=0.3):
        out, end = [], time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                out.append(json.loads(self.ws.recv(timeout=max(0.0, end - time.monotonic()))))
            except TimeoutError:
                break
        return out

    def frames_until(self, enough, timeout=10.0):
        """Frames until ``enough(frames)`` holds: a count, not a time window (a busy machine is slower, not wrong)."""
        out, end = [], time.monotonic() + timeout
        while not enough(out) and time.monotonic() < end:
            try:
                out.append(json.loads(self.ws.recv(timeout=max(0.0, end - time.monotonic()))))
            except TimeoutError:
                break
        return out

    def statuses(self, seconds=0.3):
        return [f["msg"] for f in self.frames(seconds) if f.get("op") == "status"]

    def answer(self, word):
        """The statuses that answer what was just sent: until one says ``word`` (waited for, at most 10 s: what
        came, not a time window, ends the wait), and what follows within 50 ms."""
        said = self.frames_until(lambda fs: any(f.get("op") == "status" and word in f["msg"] for f in fs))
        return [f["msg"] for f in said + self.frames(0.05) if f.get("op") == "status"]

    def call(self, service, args=None):
        self.n += 1
        self.send({"op": "call_service", "id": f"c{self.n}", "service": service, "args": args or {}})

        def answer(f):
            return f.get("op") == "service_response" and f.get("id") == f"c{self.n}"

        for f in self.frames_until(lambda frames: any(map(answer, frames))):
            if answer(f):
                return f
        raise AssertionError(f"no answer to {service}")

    def publish(self, values, joints=range(1, 6), unit="rad", topic=ARM_POSITION):
        self.send({"op": "publish", "topic": topic, "msg": positions_msg(values, joints, unit=unit)})

    def close(self):
        self.ws.close()


@pytest.mark.gate_limits
def test_raw_websocket_bypass_attempts_are_refused_and_logged(rig):
    sim, gate = rig
    time.sleep(0.3)
    q0 = sim.joint_positions()
    a, b = Raw(gate.url), Raw(gate.url)
    a.send({"op": "advertise", "topic": ARM_POSITION, "type": "brics_actuator/JointPositions"})
    far = q0 + [0.5, 0, 0, 0, 0]
    attempts = []  # (what, frame or callable, word expected in the status)

    def attempt(what, send, word, client=a):
        send(client)
        msgs = client.answer(word)
        assert msgs and all(m.startswith("armlab gate: refused") for m in msgs), (what, msgs)
        assert any(word in m for m in msgs), (what, msgs)
        attempts.append(what)

    attempt("command without a claim", lambda c: c.publish(q0 + [0.05, 0, 0, 0, 0]), "nobody holds the arm")
    assert a.call("/armlab_gate/claim", {"name": "raw-a"})["result"] is True
    attempt("far step", lambda c: c.publish(far), "step")
    attempt("one far joint", lambda c: c.publish([q0[2] - 0.4], [3]), "step")
    attempt("above the upper limit", lambda c: c.publish([LIMITS.upper[1] + 0.1], [2]), "outside the safe range")
    attempt(
        "inside the driver's limit, in the margin",
        lambda c: c.publish([LIMITS.lower[0] + 0.005], [1]),
        "outside the safe range",
    )
    attempt(
        "NaN",
        lambda c: c.send(
            '{"op":"publish","topic":"%s","msg":{"positions":[{"joint_uri":"arm_joint_1",'
            '"unit":"rad","value":NaN}]}}' % ARM_POSITION
        ),
        "NaN",
    )
    attempt(
        "1e999",
        lambda c: c.send(
            '{"op":"publish","topic":"%s","msg":{"positions":[{"joint_uri":"arm_joint_1",'
            '"unit":"rad","value":1e999}]}}' % ARM_POSITION
        ),
        "NaN or infinity",
    )
    attempt("degrees unit", lambda c: c.publish([q0[0] + 0.01], [1], unit="deg"), "unit")
    attempt("unknown joint", lambda c: c.publish([0.1], ["arm_joint_9"]), "joint_uri")
    attempt("repeated joint", lambda c: c.publish([q0[0], q0[0] + 0.3], [1, 1]), "repeated")
    # 0.1 rad out is legal alone (inside the step cap), but not straight back: 0.2 rad in no time
    attempt("too fast a stream", lambda c: [c.publish(q0 + [0.1, 0, 0, 0, 0]), c.publish(q0)], "faster than")
    attempt(
        "velocity command",
        lambda c: c.publish([1.0], [1], unit="s^-1 rad", topic="/arm_1/arm_controller/velocity_command"),
        "velocity",
    )
    attempt("base", lambda c: c.send({"op": "publish", "topic": "/cmd_vel", "msg": {}}), "not allowed")
    for service in ("/arm_1/switchOffMotors", "/arm_1/calibrate", "/rosapi/topics"):
        attempt(service, lambda c, s=service: c.send({"op": "call_service", "id": "x", "service": s}), "refused")
    attempt("subscribe elsewhere", lambda c: c.send({"op": "subscribe", "topic": "/rosout"}), "watched")
    for bad in (
        "not json {",
        "[1, 2]",
        '{"op": 5}',
        b"\x00\x01binary",
        '{"op":"fragment","id":"f","num":3,"total":2,"data":"x"}',
        '{"op":"advertise_service","service":"/x"}',
        '{"op":"set_level","level":"none"}',
    ):
        attempt(f"malformed {bad!r}", lambda c, t=bad: c.send(t), "refused")
    # the second commander: its claim and its commands are refused, naming who holds the arm
    resp = b.call("/armlab_gate/claim", {"name": "raw-b"})
    assert resp["result"] is False and "raw-a" in resp["values"]
    attempts.append("second claim")
    attempt("second commander", lambda c: c.publish(q0 + [0.05, 0, 0, 0, 0]), "held by raw-a", client=b)
    b.frames(0.2)
    attempt(
        "wrong TA token",
        lambda c: c.send(
            {"op": "call_service", "id": "t", "service": "/armlab_gate/claim", "args": {"token": "guess"}}
        ),
        "wrong token",
        client=b,
    )
    attempt(
        "resume by a watcher",
        lambda c: c.send({"op": "call_service", "id": "r", "service": "/armlab_gate/resume"}),
        "holder",
        client=b,
    )
    # and a legal step still goes through, for the holder
    a.frames(0.2)
    a.publish([sim.joint_positions()[0] + 0.05], [1])
    assert a.statuses(0.5) == []
    a.close()
    b.close()
    time.sleep(0.3)
    log = audit(gate)
    refusals = [e for e in log if e["event"] == "refuse"]
    assert len(refusals) >= len(attempts), (len(refusals), len(attempts))
    assert all(e["why"] for e in refusals)
    assert any(e["event"] == "forward" for e in log) and any(e["event"] == "claim" for e in log)
    assert_policy_kept(sim, q0)
    received = arm_commands_received(sim)
    holds = [e for e in log if e["event"] == "hold" and e["sent"]]  # the gate's own: a's disconnect
    assert len(received) == sum(e["event"] == "forward" for e in log) + len(holds) == 3  # two legal set points
    assert not any(w for _, _, w in sim.warnings if "switchOff" in w or "velocity" in w)
    assert sim.motors_on


ROSLIBPY_CLIENT = r"""
import json, sys, time
import roslibpy

port = int(sys.argv[1])
ros = roslibpy.Ros(host="127.0.0.1", port=port)
ros.run(timeout=10)
states = []
listener = roslibpy.Topic(ros, "/joint_states", "sensor_msgs/JointState")
listener.subscribe(lambda m: states.append(m))
t_end = time.time() + 5
while len(states) < 5 and time.time() < t_end:
    time.sleep(0.02)
q1 = dict(zip(states[-1]["name"], states[-1]["position"]))["arm_joint_1"]
cmd = roslibpy.Topic(ros, "/arm_1/arm_controller/position_command", "brics_actuator/JointPositions")
vel = roslibpy.Topic(ros, "/arm_1/arm_controller/velocity_command", "brics_actuator/JointVelocities")
def pos(v):
    return roslibpy.Message({"positions": [{"joint_uri": "arm_joint_1", "unit": "rad", "value": v}]})
out = {}
cmd.publish(pos(q1 + 0.05))                       # no claim
time.sleep(0.3)
def call(name, args=None):
    try:
        return ["ok", dict(roslibpy.Service(ros, name, "std_srvs/Empty").call(roslibpy.ServiceRequest(args or {}), timeout=3))]
    except Exception as e:
        return ["error", str(e)]
out["off"] = call("/arm_1/switchOffMotors")
out["calibrate"] = call("/arm_1/calibrate")
out["claim"] = call("/armlab_gate/claim", {"name": "roslibpy"})
cmd.publish(pos(q1 + 1.0))                        # a far step
cmd.publish(pos(5.9))                             # beyond the limit (5.84)
vel.publish(roslibpy.Message({"velocities": [{"joint_uri": "arm_joint_1", "unit": "s^-1 rad", "value": 2.0}]}))
time.sleep(0.5)
cmd.publish(pos(q1 + 0.05))                       # legal
time.sleep(0.5)
out["q1_start"], out["q1_end"] = q1, dict(zip(states[-1]["name"], states[-1]["position"]))["arm_joint_1"]
print(json.dumps(out))
ros.terminate()
"""


@pytest.mark.gate_limits
def test_raw_roslibpy_client_is_held_to_the_policy(rig):
    pytest.importorskip("roslibpy")
    sim, gate = rig
    time.sleep(0.3)
    q0 = sim.joint_positions()
    proc = subprocess.run(
        [sys.executable, "-c", ROSLIBPY_CLIENT, str(gate.port)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["off"][0] == "error" and out["calibrate"][0] == "error"
    assert out["claim"][0] == "ok"
    assert out["q1_end"] == pytest.approx(q0[0] + 0.05, abs=0.01)  # only the legal set point moved the arm
    whys = [e["why"] for e in audit(gate) if e["event"] == "refuse"]
    assert any("nobody holds" in w for w in whys)
    assert any("switchOffMotors" in w for w in whys) and any("calibrate" in w for w in whys)
    assert any("step" in w for w in whys) and any("outside the safe range" in w for w in whys)
    assert any("velocity" in w for w in whys)
    assert_policy_kept(sim, q0)
    assert sim.motors_on


def test_youboarm_through_the_gate_needs_only_the_claim(rig, tmp_path):
    sim, gate = rig
    with YoubotArm(gate.url, log=False, claim=True, claim_name="student") as arm:
        goal = arm.state().q_driver + [0.3, 0.2, -0.2, 0.3, 0.3]
        arm.move_joints(goal, frame="driver", speed=0.8)
        np.testing.assert_allclose(arm.state().q_driver, goal, atol=0.02)
        arm.gripper(0.01)
        arm.switch_on_motors()
        with YoubotArm(gate.url, log=False) as other:  # watches fine, but cannot command
            assert other.state().seq is not None
            with pytest.raises(SafetyError, match="held by student"):
                other.claim("other")
            with pytest.raises(SafetyError):
                other.move_joints(other.state().q_driver + [0.1, 0, 0, 0, 0], frame="driver")
            assert "held by student" in (other.gate_status or "")
        # the TA takes over from another seat with the token; the student's next command is refused
        with YoubotArm(gate.url, log=False, claim=True, token=TOKEN, claim_name="TA") as ta:
            time.sleep(0.2)
            assert arm.fault and "took over" in arm.fault and not arm.claimed
            with pytest.raises(SafetyError):
                arm.move_joints(goal, frame="driver")
            ta.move_joints(ta.state().q_driver + [-0.1, 0, 0, 0, 0], frame="driver")
    events = [e["event"] for e in audit(gate)]
    assert "takeover" in events and events.count("claim") == 2


@pytest.mark.gate_limits
def test_deadman_holds_when_the_commander_drops_mid_motion(rig):
    sim, gate = rig
    time.sleep(0.3)
    a = Raw(gate.url)
    a.send({"op": "advertise", "topic": ARM_POSITION, "type": "brics_actuator/JointPositions"})
    assert a.call("/armlab_gate/claim", {"name": "dropper"})["result"]
    sim.stick_joint(1)  # the arm cannot follow: it is mid-motion when the commander goes
    q = sim.joint_positions()
    a.publish([q[0] + 0.1], [1])
    time.sleep(0.05)
    a.ws.socket.close()  # a dead kernel: no close frame
    time.sleep(0.5)
    holds = [e for e in audit(gate) if e["event"] == "hold"]
    assert holds and "disconnected" in holds[-1]["why"] and holds[-1]["sent"]
    cid, last = arm_commands_received(sim)[-1]
    assert last[0] == pytest.approx(LIMITS.clip(sim.joint_positions())[0], abs=0.01)  # the measured pose
    assert gate.commander is None


@pytest.mark.gate_limits
def test_deadman_latches_a_hold_when_the_commander_goes_quiet_mid_motion(rig):
    sim, gate = rig
    time.sleep(0.3)
    a = Raw(gate.url)
    a.send({"op": "advertise", "topic": ARM_POSITION, "type": "brics_actuator/JointPositions"})
    assert a.call("/armlab_gate/claim", {"name": "quiet"})["result"]
    sim.stick_joint(2)
    q = sim.joint_positions()
    a.publish([q[1] + 0.1], [2])
    msgs = a.statuses(1.2)
    assert any("deadman" in m for m in msgs), msgs
    assert gate.held and "deadman" in gate.held
    a.publish([q[1] + 0.02], [2])
    assert any("holds the arm" in m for m in a.statuses(0.3))
    sim.stick_joint(2, False)
    assert a.call("/armlab_gate/resume")["result"] and gate.held is None
    a.close()


def test_the_workspace_box_keeps_the_tool_point_in(tmp_path):
    robot = youbot()
    with Simulator(port=0) as sim:
        time.sleep(0.2)
        q_start = sim.joint_positions() + [0.5, 0.5, -0.5, 0.5, 0.0]
        # move to a pose first without a box, then put a 6 cm box around the tool there
        with Gate(sim.url, port=0, audit=tmp_path / "a0.jsonl") as g0, YoubotArm(g0.url, log=False, claim=True) as arm:
            arm.move_joints(q_start, frame="driver", speed=0.6)
        p = robot.fkine(youbot_driver_to_q(sim.joint_positions()))[:3, 3]
        box = (tuple(p - 0.03), tuple(p + 0.03))
        limits = server.SafetyLimits(workspace=box)  # this test run's gate limits (tests/conftest.py: patient)
        with (
            Gate(sim.url, port=0, limits=limits, audit=tmp_path / "a1.jsonl") as gate,
            YoubotArm(gate.url, log=False, claim=True) as arm,
        ):
            with pytest.raises(SafetyError, match="workspace box"):
                arm.move_joints(q_start + [0, 0.4, 0, 0, 0], frame="driver", speed=0.6)
            time.sleep(0.5)
            p_now = robot.fkine(youbot_driver_to_q(sim.joint_positions()))[:3, 3]
            assert np.all(p_now >= np.array(box[0]) - 0.002) and np.all(p_now <= np.array(box[1]) + 0.002)
            assert any("workspace box" in e["why"] for e in audit(gate) if e["event"] == "refuse")


def test_the_notebooks_connect_cell_says_real_robot_and_claims_at_the_gate(capsys, monkeypatch, tmp_path):
    from support.lab_rig import NamelessSimulator

    from armlab.lab.notebook import close_session, connect

    monkeypatch.delenv("ARMLAB_ROBOT_URL", raising=False)
    # the real robot's rosbridge does not say what it is: neither does this simulator
    with NamelessSimulator(port=0) as robot, Gate(robot.url, port=0, audit=tmp_path / "audit.jsonl") as gate:
        arm, no_sim = connect(gate.url, log=False, name="group 3")
        try:
            out = capsys.readouterr().out
            assert no_sim is None and f"REAL ROBOT at {gate.url}" in out and "you hold the arm" in out
            assert "behind the armlab gate" in out and "did not say it is a simulator" in out
            assert arm.claimed and gate.commander is not None and gate.commander.name == "group 3"
        finally:
            close_session(arm, no_sim)
        time.sleep(0.2)
        assert gate.commander is None
        assert [e["why"] for e in audit(gate) if e["event"] == "release"] == ["asked"]


def test_watchers_share_the_gates_one_subscription_with_throttle_and_fragments(rig):
    from armlab.lab.protocol import Defragmenter

    sim, gate = rig
    before = sim.stats["connections"]
    plain, slow = Raw(gate.url), Raw(gate.url)
    plain.send({"op": "subscribe", "topic": "/joint_states", "type": "sensor_msgs/JointState"})
    slow.send(
        {
            "op": "subscribe",
            "topic": "/joint_states",
            "type": "sensor_msgs/JointState",
            "throttle_rate": 100,
            "fragment_size": 200,
        }
    )
    got_plain = plain.frames_until(lambda fs: sum(f.get("op") == "publish" for f in fs) >= 35)
    seqs = [f["msg"]["header"]["seq"] for f in got_plain if f.get("op") == "publish"]
    assert len(seqs) >= 35 and np.all(np.diff(seqs) == 1)  # every state, none lost
    d, whole, read = Defragmenter(), [], [0]

    def ten_whole(frames):  # reassembles the frames not read yet
        for f in frames[read[0] :]:
            assert f["op"] == "fragment"
            text = d.add(f)
            if text is not None:
                whole.append(json.loads(text))
        read[0] = len(frames)
        return len(whole) >= 10

    slow.frames_until(ten_whole)
    slow_seqs = [w["msg"]["header"]["seq"] for w in whole]
    assert len(whole) >= 10 and all(w["topic"] == "/joint_states" for w in whole)
    # throttled to one state per 100 ms: in order, and at most every other state (five at 50 Hz; fewer when a busy
    # machine makes the simulator's ticks late, which a count cannot tell from the throttle)
    assert np.all(np.diff(slow_seqs) >= 1) and len(slow_seqs) <= (slow_seqs[-1] - slow_seqs[0]) / 2 + 1
    assert sim.stats["connections"] == before, "a watcher opened its own rosbridge connection"
    plain.close()
    slow.close()
