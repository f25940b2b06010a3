"""Simulator or real robot, told apart by what is at the other end (issue #33, lab TA 2 and 3), on 127.0.0.1.

The simulator and the gate answer ``/armlab/identify``; the real robot's rosbridge does not (``NamelessSimulator``
stands in for it). The notebook's banner says **simulator** only when the other end said so, on its own or behind
the gate, and **REAL ROBOT** otherwise; the claim carries the user's name, which the gate shows.
"""

from __future__ import annotations

import getpass
import io
import socket

import pytest

pytest.importorskip("websockets")

from support.lab_rig import NamelessSimulator  # noqa: E402

from armlab.lab import SafetyError, YoubotArm  # noqa: E402
from armlab.lab.gate import Gate  # noqa: E402
from armlab.lab.notebook import RemoteSimulator, close_session, confirm_motion, connect  # noqa: E402

pytestmark = pytest.mark.timeout(60)
SIM_NAME = "the armlab youBot simulator"


@pytest.fixture(autouse=True)
def _no_env_url(monkeypatch):
    monkeypatch.delenv("ARMLAB_ROBOT_URL", raising=False)
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)


def test_the_standalone_simulator_says_simulator_and_motions_ask_nothing(sim, capsys):
    arm, remote = connect(sim.url, log=False)
    try:
        out, err = capsys.readouterr()
        assert f"= simulator at {sim.url} =\n" in out
        assert f"\nURL given in the notebook\nit says it is {SIM_NAME}\nno robot moves\n" in out
        assert "REAL ROBOT" not in out + err and "WARNING" not in err
        assert isinstance(remote, RemoteSimulator) and not remote.local and arm.simulated and not arm.behind_gate
        assert confirm_motion("move", remote)  # no prompt: input() is not called under pytest
    finally:
        close_session(arm, remote)
    assert sim.published, "close_session stopped a simulator it did not start"


def test_the_simulator_behind_the_gate_says_simulator_and_names_the_holder(sim, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("JUPYTERHUB_USER", "student-7")
    with Gate(sim.url, port=0, audit=tmp_path / "audit.jsonl") as gate:
        arm, remote = connect(gate.url, log=False)
        try:
            out = capsys.readouterr().out
            assert f"= simulator at {gate.url} =\n" in out
            assert f"\nbehind the armlab gate\n{sim.url} says it is {SIM_NAME}\nno robot moves\n" in out
            assert "you hold the arm at the gate" in out and "as student-7 (connection 1 from 127.0.0.1:" in out
            assert isinstance(remote, RemoteSimulator) and arm.behind_gate and arm.claimed
            assert gate.commander is not None and gate.commander.name == "student-7"
            assert arm.identity["upstream"]["kind"] == "simulator"
        finally:
            close_session(arm, remote)


@pytest.mark.parametrize("answer", ["silent", "missing"])
def test_a_rosbridge_that_does_not_say_what_it_is_is_the_real_robot(answer, capsys):
    with NamelessSimulator(port=0, identify=answer) as robot:
        arm, no_sim = connect(robot.url, log=False)
        try:
            out, err = capsys.readouterr()
            assert f"= REAL ROBOT at {robot.url} =\n" in out
            assert (
                "\nURL given in the notebook\nit did not say it is a simulator\nno armlab gate in front of it\n" in out
            )
            assert "WARNING: no armlab gate in front of" in err
            assert no_sim is None and not arm.simulated and arm.identity["kind"] == "unknown"
            with pytest.raises(SafetyError, match="not confirmed"):
                confirm_motion("move", no_sim, answer="")  # the real robot: a person must type yes
        finally:
            close_session(arm, no_sim)


def test_a_client_is_named_after_its_user_by_default(sim, tmp_path):
    with Gate(sim.url, port=0, audit=tmp_path / "audit.jsonl") as gate:
        with YoubotArm(gate.url, log=False, claim=True) as arm:
            assert gate.commander is not None
            assert gate.commander.name == f"{getpass.getuser()}@{socket.gethostname()}" == arm.name


def test_the_gates_console_shows_claims_refusals_take_overs_and_holds(sim, tmp_path):
    console = io.StringIO()
    with Gate(sim.url, port=0, token="t", audit=tmp_path / "audit.jsonl", console=console) as gate:
        with YoubotArm(gate.url, log=False, claim=True, claim_name="alice") as alice:
            with YoubotArm(gate.url, log=False, claim_name="bob") as bob:
                with pytest.raises(SafetyError):
                    bob.move_joints(bob.state().q_driver + [0.1, 0, 0, 0, 0], frame="driver")
                bob.client.call_service("/armlab_gate/hold")
            with YoubotArm(gate.url, log=False, claim=True, claim_name="TA", token="t"):
                pass
            assert alice.fault is not None
    lines = console.getvalue().splitlines()
    text = "\n".join(lines)
    assert "alice (connection 1 from 127.0.0.1:" in text and "holds the arm" in text
    refused = [line for line in lines if " REFUSED publish /arm_1/arm_controller/position_command from bob" in line]
    assert refused and "the arm is held by alice" in refused[0]
    assert len(refused) == 1, "a run of identical refusals is shown once (all are in the audit log)"
    assert any("HOLD: hold asked by bob" in line for line in lines)
    assert any("TAKE-OVER: TA (connection 3 " in line and "(with the TA token)" not in line for line in lines)
    assert any("TA (connection 3 from 127.0.0.1:" in line and "(with the TA token)" in line for line in lines)
    assert not any("forward" in line for line in lines)


def test_the_gates_console_says_real_robot_when_rosbridge_does_not_say_what_it_is(capsys, tmp_path):
    from armlab.lab.gate import main

    with NamelessSimulator(port=0) as robot:
        args = ["--upstream", robot.url, "--port", "0", "--audit", str(tmp_path / "a.jsonl"), "--duration", "0.1"]
        assert main(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert f"upstream {robot.url}: did not say it is a simulator: the REAL ROBOT" in out
