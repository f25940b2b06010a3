"""The youBot lab's safety layer: every bad command is refused with nothing on the wire, checked on
the frames a recording server (the simulator with ``record=True``) actually received; the driver ↔ DH
angle mapping; the rosbridge frames of youbot-interface.md; and the session log under SIGKILL.

All traffic is on 127.0.0.1, to a simulator started on a free port for this module.
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("websockets")

from armlab.lab import SafetyError, YoubotArm, read_log  # noqa: E402
from armlab.lab.safety import SafetyLimits  # noqa: E402
from armlab.lab import protocol as P  # noqa: E402
from armlab.models import YOUBOT_DRIVER, youbot, youbot_driver_to_q, youbot_q_to_driver  # noqa: E402

LIB = Path(__file__).resolve().parents[2] / "lib"
LO, HI, CANDLE = YOUBOT_DRIVER["lower"], YOUBOT_DRIVER["upper"], YOUBOT_DRIVER["candle"]


@pytest.fixture(scope="module")
def sim(module_sim):
    """One recording simulator for this module (tests/conftest.py): ``arm`` and the tests see the same server."""
    return module_sim


@pytest.fixture(scope="module")
def arm(sim, tmp_path_factory):
    # made before the per-test patient watchdog (tests/conftest.py) applies: none of these tests is about it
    limits = SafetyLimits(stale_after=2.0)  # = tests/conftest.py PATIENT_STALE_AFTER
    with YoubotArm(sim.url, log=tmp_path_factory.mktemp("log") / "safety.jsonl", limits=limits) as a:
        a.move_joints(CANDLE - [0.3, 0.3, -0.3, 0.3, 0.3], frame="driver", speed=1.0)
        yield a


def _candle_with(j, value):
    q = CANDLE.copy()
    q[j] = value
    return q


# (name, callable(arm)) — each must raise SafetyError and send nothing
BAD = []
for j in range(5):
    BAD += [
        (f"nan joint {j + 1}", lambda a, j=j: a.move_joints(_candle_with(j, math.nan), frame="driver")),
        (f"inf joint {j + 1}", lambda a, j=j: a.move_joints(_candle_with(j, math.inf), frame="driver")),
        (f"degrees joint {j + 1}", lambda a, j=j: a.move_joints(_candle_with(j, 90.0), frame="driver")),
        (
            f"above driver limit joint {j + 1}",
            lambda a, j=j: a.move_joints(_candle_with(j, HI[j] + 0.1), frame="driver"),
        ),
        (
            f"below driver limit joint {j + 1}",
            lambda a, j=j: a.move_joints(_candle_with(j, LO[j] - 0.1), frame="driver"),
        ),
        (
            f"inside margin at upper joint {j + 1}",
            lambda a, j=j: a.move_joints(_candle_with(j, HI[j] - 0.01), frame="driver"),
        ),
        (
            f"at the strict lower limit joint {j + 1}",
            lambda a, j=j: a.move_joints(_candle_with(j, LO[j]), frame="driver"),
        ),
    ]
BAD += [
    ("four joints", lambda a: a.move_joints([0.1, 0.2, 0.3, 0.4])),
    ("six joints", lambda a: a.move_joints([0.1] * 6)),
    ("a string", lambda a: a.move_joints("home")),
    ("None", lambda a: a.move_joints(None)),
    ("nested list", lambda a: a.move_joints([[0.1] * 5])),
    ("DH target outside limits", lambda a: a.move_joints([3.1, 0, 0, 0, 0])),
    ("speed zero", lambda a: a.move_joints(CANDLE, speed=0.0, frame="driver")),
    ("speed negative", lambda a: a.move_joints(CANDLE, speed=-0.5, frame="driver")),
    ("speed above cap", lambda a: a.move_joints(CANDLE, speed=1.5, frame="driver")),
    ("speed nan", lambda a: a.move_joints(CANDLE, speed=math.nan, frame="driver")),
    ("speed string", lambda a: a.move_joints(CANDLE, speed="fast", frame="driver")),
    (
        "duration implies speed above cap",
        lambda a: a.move_joints(CANDLE + [1.0, 0, 0, 0, 0], duration=0.5, frame="driver"),
    ),
    ("duration negative", lambda a: a.move_joints(CANDLE, duration=-1.0, frame="driver")),
    ("unknown frame", lambda a: a.move_joints(CANDLE, frame="deg")),
    ("gripper negative", lambda a: a.gripper(-0.001)),
    ("gripper too wide", lambda a: a.gripper(0.012)),
    ("gripper in millimetres", lambda a: a.gripper(10.0)),
    ("gripper nan", lambda a: a.gripper(math.nan)),
    ("gripper string", lambda a: a.gripper("open")),
    ("service switchOffMotors", lambda a: a.call_service("/arm_1/switchOffMotors")),
    ("service calibrate", lambda a: a.call_service("/arm_1/calibrate")),
    (
        "trajectory step above cap",
        lambda a: a.follow(np.linspace(a.state().q_driver, a.state().q_driver + [0.5, 0, 0, 0, 0], 3), frame="driver"),
    ),
    ("trajectory first row jumps", lambda a: a.follow([a.state().q_driver + [0, 0.2, 0, 0, 0]], frame="driver")),
    ("trajectory wrong shape", lambda a: a.follow(np.zeros((4, 3)))),
    (
        "trajectory row outside limits",
        lambda a: a.follow([a.state().q_driver, _candle_with(1, HI[1] + 0.5)], frame="driver"),
    ),
    (
        "unreachable pose",
        lambda a: a.move_pose(
            np.eye(4) @ np.diag([1, 1, 1, 1]) + np.array([[0, 0, 0, 2.0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
        ),
    ),
]


def _frames_from(sim, conn_since):
    return [(t, c, text) for t, c, text in list(sim.received) if t >= conn_since]


def test_at_least_40_bad_commands_are_refused_with_nothing_on_the_wire(sim, arm):
    """The issue's figure: ≥ 40 bad commands, each a SafetyError naming what was wrong, and the recording
    server receives not one frame while they are tried."""
    assert len(BAD) >= 40
    time.sleep(0.1)
    t0 = time.time()
    refused = []
    for name, cmd in BAD:
        with pytest.raises(SafetyError) as info:
            cmd(arm)
        assert "nothing was sent" in str(info.value), (name, str(info.value))
        refused.append(name)
    time.sleep(0.2)  # anything sent would have arrived by now (loopback)
    assert _frames_from(sim, t0) == [], "frames reached the server while bad commands were refused"
    print(f"\n{len(refused)} bad commands refused, 0 frames on the wire")
    # the arm still works afterwards, and a good command does reach the wire
    arm.move_joints(arm.state().q_driver + [0.05, 0, 0, 0, 0], frame="driver")
    assert any('"op":"publish"' in text for _, _, text in _frames_from(sim, t0))


@pytest.mark.parametrize("j", range(5))
def test_limit_message_names_joint_value_and_limit(arm, j):
    with pytest.raises(SafetyError) as info:
        arm.move_joints(_candle_with(j, HI[j] + 0.1), frame="driver")
    msg = str(info.value)
    assert f"joint {j + 1}" in msg and f"{HI[j] + 0.1:.4f}" in msg and f"{HI[j]:.4f}" in msg


def test_driver_rejects_silently_what_the_client_refuses(sim):
    """The simulator behaves like the driver: a wrong unit or a set point on the strict limit is dropped with
    only a server-side warning; the arm does not move and no error comes back."""
    from armlab.lab import RosbridgeClient

    c = RosbridgeClient(sim.url).connect()
    try:
        time.sleep(0.5)  # let the last motion settle
        before, warned = sim.joint_positions(), len(sim.warnings)
        c.advertise(P.ARM_POSITION, P.TOPICS[P.ARM_POSITION])
        c.publish(P.ARM_POSITION, P.positions_msg([1.0], [1], unit="deg"))
        c.publish(P.ARM_POSITION, P.positions_msg([LO[1]], [2]))
        c.publish(
            P.ARM_POSITION, {"positions": [{"joint_uri": "arm_joint_1", "unit": "rad", "value": 1.0, "extra": 1}]}
        )
        time.sleep(0.2)
        assert len(sim.warnings) - warned == 3
        np.testing.assert_allclose(sim.joint_positions(), before, atol=1e-3)
    finally:
        c.close()


# --- driver angles ↔ DH angles ------------------------------------------------------------------
def test_follow_returns_once_the_arm_is_at_its_last_row_so_the_next_plan_starts_there(arm):
    """follow(wait=True) blocks until the arm is within tol of the last row, as move_joints does: lab 2 plans each
    line from the measured q, and an arm still trailing its last set point made that plan's first row a step."""
    q0 = arm.state().q_driver
    rows = q0 + np.outer(np.linspace(0.011, 0.33, 30), [0, 1, 0, 0, 0])  # 0.55 rad/s to an abrupt stop
    arm.follow(rows, frame="driver")
    assert np.abs(arm.state().q_driver - rows[-1]).max() <= 0.02
    arm.follow(rows[::-1], frame="driver")  # and back, from where it is: no step
    assert np.abs(arm.state().q_driver - rows[0]).max() <= 0.02


def test_driver_dh_round_trip_and_candle():
    rng = np.random.default_rng(15)
    qd = rng.uniform(LO, HI, size=(200, 5))
    np.testing.assert_allclose(youbot_q_to_driver(youbot_driver_to_q(qd)), qd, atol=1e-12)
    q_candle = youbot_driver_to_q(CANDLE)
    np.testing.assert_allclose(q_candle, [0, 0, 0, np.pi / 2, 0], atol=1e-12)
    T = youbot().fkine(q_candle)  # arm straight up: lab report (2.7)
    np.testing.assert_allclose(T[:3, 3], [0.033, 0, 0.147 + 0.155 + 0.135 + 0.218], atol=1e-9)


def test_arm_state_reports_both_angle_sets(arm):
    s = arm.state()
    np.testing.assert_allclose(s.q, youbot_driver_to_q(s.q_driver))
    np.testing.assert_allclose(s.qd, -s.qd_driver)
    assert s.age >= 0  # how fresh it is depends on the machine's load: the watchdog's tests judge that


# --- wire format ------------------------------------------------------------------------------------
def test_position_command_frame_is_the_captured_one():
    """youbot-interface.md's captured frame, byte for byte (no stamps: the driver reads joint_uri/unit/value)."""
    frame = {"op": "publish", "topic": P.ARM_POSITION, "msg": P.positions_msg(CANDLE, range(1, 6))}
    expected = (
        '{"op":"publish","topic":"/arm_1/arm_controller/position_command","msg":{"positions":['
        '{"joint_uri":"arm_joint_1","unit":"rad","value":2.9496},{"joint_uri":"arm_joint_2","unit":"rad",'
        '"value":1.1345},{"joint_uri":"arm_joint_3","unit":"rad","value":-2.5482},{"joint_uri":"arm_joint_4",'
        '"unit":"rad","value":1.789},{"joint_uri":"arm_joint_5","unit":"rad","value":2.9234}]}}'
    )
    assert P.encode(frame) == expected


@pytest.mark.parametrize("ros2", [False, True])
def test_time_stamps_ros1_and_ros2(ros2):
    stamp = P.float_to_stamp(1700000000.25, ros2)
    assert set(stamp) == ({"sec", "nanosec"} if ros2 else {"secs", "nsecs"})
    assert P.stamp_to_float(stamp) == pytest.approx(1700000000.25, abs=1e-9)


def test_fragments_reassemble_in_any_order():
    text = P.encode({"op": "publish", "topic": "/joint_states", "msg": {"x": list(range(50))}})
    parts = P.fragment(text, 17, "f")
    d = P.Defragmenter()
    out = [d.add(p) for p in reversed(parts)]
    assert out[-1] == text and out[:-1] == [None] * (len(parts) - 1)


# --- the session log ----------------------------------------------------------------------------------
CHILD = """
import sys, time
from armlab.lab import YoubotArm
arm = YoubotArm(sys.argv[1], log=sys.argv[2])
q = arm.state().q_driver
print("ready", flush=True)
for k in range(100):  # bounded: about 20 s at most
    arm.move_joints(q + [0.2 * (k % 2), 0, 0, 0, 0], frame="driver", speed=0.5)
"""


def test_sigkill_mid_session_leaves_the_log_intact_to_the_last_record(sim, tmp_path):
    log = tmp_path / "killed.jsonl"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(LIB), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, sim.url, str(log)], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(1.0)
        seen = log.read_bytes().count(b"\n")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    contents = read_log(log)  # raises if any complete line is damaged
    assert len(contents.records) >= seen > 50
    assert contents.records[0]["kind"] == "open"
    kinds = {r["kind"] for r in contents.records}
    assert {"tx", "rx", "state"} <= kinds
    seqs = [r["seq"] for r in contents.of_kind("state")]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), "states missing from the log"
    # every publish the client made is in the log as sent, with the commanded next to the measured
    assert any(json.loads(r["frame"])["op"] == "publish" for r in contents.of_kind("tx"))
    assert any(r["q_cmd_driver"] is not None for r in contents.of_kind("state"))


def test_log_reader_skips_a_torn_last_line(tmp_path):
    from armlab.lab import SessionLog

    path = tmp_path / "torn.jsonl"
    with SessionLog(path) as log:
        log.write("event", msg="one")
    with open(path, "ab") as f:
        f.write(b'{"t":1,"kind":"st')
    contents = read_log(path)
    assert contents.truncated and [r["kind"] for r in contents.records] == ["open", "event"]
