"""The gate's policy pieces, one at a time: the speed governor, the workspace box, the audit log, the exposed
warning and the command line's box; and the notebooks' connect/confirm helpers (issue #21 §2, §3)."""

from __future__ import annotations

import json
import socket
import threading

import numpy as np
import pytest

pytest.importorskip("websockets")

from armlab.lab import SafetyError, SafetyLimits  # noqa: E402
from armlab.lab.gate import AuditLog, exposed_warning  # noqa: E402
from armlab.lab.gate.cli import _numbers_as_values, _workspace  # noqa: E402
from armlab.lab.notebook import confirm_motion, connect  # noqa: E402
from armlab.lab.safety import SpeedGovernor, check_workspace, workspace_distance  # noqa: E402
from armlab.models import YOUBOT_DRIVER, youbot, youbot_driver_to_q  # noqa: E402

CANDLE = YOUBOT_DRIVER["candle"]


def test_speed_governor_passes_a_stream_at_the_cap_and_refuses_one_above_it():
    limits = SafetyLimits()
    gov, q, t = SpeedGovernor(limits), np.zeros(5), 0.0
    for _ in range(200):  # 1 rad/s for 4 s at 50 Hz, with the ticks jittered ±5 ms
        t += 0.02 + (0.005 if _ % 2 else -0.005)
        new = q + [limits.max_speed * 0.02, 0, 0, 0, 0]
        gov.check(t, new, q)
        q = new
    gov = SpeedGovernor(limits)
    gov.check(0.0, q + [0.1, 0, 0, 0, 0], q)  # one step inside the burst allowance
    with pytest.raises(SafetyError, match="joint 1 set point moves faster than the cap"):
        gov.check(0.02, q, q + [0.1, 0, 0, 0, 0])  # straight back: 0.2 rad in 20 ms
    gov.check(0.2, q, q + [0.1, 0, 0, 0, 0])  # refilled after 0.18 s at 1 rad/s


def test_workspace_box_refuses_a_tool_point_outside_and_lets_an_outside_arm_come_back():
    robot = youbot()
    p = robot.fkine(youbot_driver_to_q(CANDLE))[:3, 3]  # (0.033, 0, 0.655)
    limits = SafetyLimits(workspace=((-0.5, -0.5, 0.0), (0.5, 0.5, 0.6)))
    assert workspace_distance(p, limits) == pytest.approx(p[2] - 0.6)
    with pytest.raises(SafetyError, match="outside the session's workspace box"):
        check_workspace(robot, CANDLE, limits)
    bent = CANDLE + [0, 0.3, 0, 0, 0]  # lower than the candle: nearer the box
    check_workspace(robot, bent, limits, q_from_driver=CANDLE)
    with pytest.raises(SafetyError):
        check_workspace(robot, CANDLE, limits, q_from_driver=bent)  # back up, away from the box
    check_workspace(robot, CANDLE, SafetyLimits())  # no box: no check


@pytest.mark.parametrize("box", [((0, 0, 0), (1, 1)), ((0, 0, 1), (1, 1, 0)), ((0, 0, np.nan), (1, 1, 1))])
def test_a_malformed_workspace_box_is_an_error(box):
    with pytest.raises(ValueError, match="workspace"):
        SafetyLimits(workspace=box)


def test_cli_workspace_and_the_exposed_warning():
    assert _workspace("-0.4,-0.45,-0.01,0.5,0.45,0.7") == ((-0.4, -0.45, -0.01), (0.5, 0.45, 0.7))
    # the runbook writes the box after a space: argparse would take "-0.40,…" for an option
    assert _numbers_as_values(["--workspace", "-0.40,-0.45,-0.01,0.50,0.45,0.70", "--port", "9091"]) == [
        "--workspace=-0.40,-0.45,-0.01,0.50,0.45,0.70",
        "--port",
        "9091",
    ]
    assert _numbers_as_values(["--workspace", "--port", "9091"]) == ["--workspace", "--port", "9091"]
    with pytest.raises(Exception, match="six numbers"):
        _workspace("1,2,3")
    text = exposed_warning("192.168.50.10", 9091, None)
    assert "REACHABLE FROM THE NETWORK" in text and "192.168.50.10:9091" in text and "No --token" in text


def test_audit_log_appends_and_never_truncates(tmp_path):
    path = tmp_path / "audit.jsonl"
    for k in range(2):
        log = AuditLog(path)
        log.write("claim", who=f"student {k}")
        log.close()
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["who"] for r in rows] == ["student 0", "student 1"] and all("t" in r for r in rows)


@pytest.mark.integration  # starts a process
def test_connect_to_a_url_that_does_not_answer_is_an_error_not_a_simulator(monkeypatch):
    monkeypatch.delenv("ARMLAB_ROBOT_URL", raising=False)
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    before = {t.name for t in threading.enumerate()}
    with pytest.raises(ConnectionError, match=f"ws://127.0.0.1:{port}.*does not answer.*No simulator"):
        connect(f"ws://127.0.0.1:{port}", log=False, timeout=1.0)
    assert "youbot simulator" not in {t.name for t in threading.enumerate()} - before


@pytest.mark.integration  # starts a process
def test_connect_without_a_url_says_simulator_in_large_type(capsys, monkeypatch):
    monkeypatch.delenv("ARMLAB_ROBOT_URL", raising=False)
    arm, sim = connect(None, log=False)
    try:
        out = capsys.readouterr().out
        assert f"simulator at {sim.url}" in out and "=====" in out
    finally:
        arm.close()
        sim.stop()


def test_confirm_motion_on_the_real_robot_needs_yes(capsys):
    assert confirm_motion("move", object()) is True and "simulator: move" in capsys.readouterr().out
    assert confirm_motion("move", None, answer="yes")
    for reply in ("", "y", "no"):
        with pytest.raises(SafetyError, match="did not move"):
            confirm_motion("move", None, answer=reply)
