"""The lab's docs are tested (issue #33): every shell command in ``docs/lab.md``, and the lab commands of the
README, is either run here as written, with only its placeholders filled in (the robot's address becomes
127.0.0.1, ports become free ports, ``~`` a temporary home, ``<TA token>`` a token), or marked in the doc as an
example for the robot's PC (``*(robot PC)*`` after it, or a ``# robot PC`` first line in its block).

A command added to the docs and neither run here nor marked fails :func:`test_every_lab_command_is_run_or_marked`.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("websockets")

from armlab.lab import SafetyError, YoubotArm  # noqa: E402
from armlab.lab.sim.__main__ import parse_fault  # noqa: E402

pytestmark = pytest.mark.timeout(120)
ROOT = Path(__file__).resolve().parents[2]
MARK = "*(robot PC)*"
SHELL = re.compile(r"(sudo|python|\.venv/bin/python|pip|git|curl|tail|rostopic|rosservice|roslaunch|ros2|openssl)\b")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
BOX = "-0.40,-0.45,-0.01,0.50,0.45,0.70"


def shell_commands(text: str) -> list[tuple[str, bool]]:
    """(command, marked for the robot PC) for each shell command of a markdown text: the commands of its bash blocks
    (continuation lines joined, comments cut) and its inline code spans that start with a shell program."""
    out = []
    for block in FENCE.finditer(text):
        if block.group(1) not in ("bash", "sh", "shell", "console"):
            continue
        body = block.group(2)
        marked = body.lstrip().startswith("# robot PC")
        for cmd in re.sub(r"\\\n\s*", "", body).splitlines():
            cmd = re.sub(r"(^|\s+)#\s.*$", "", cmd).strip()
            if cmd:
                out.append((cmd, marked))
    prose = FENCE.sub("", text)
    for span in re.finditer(r"`([^`]+)`", prose):
        cmd = " ".join(span.group(1).split())
        if SHELL.match(cmd):
            out.append((cmd, prose[span.end() :].lstrip().startswith(MARK)))
    return out


def lab_commands() -> dict[str, bool]:
    """Every shell command of docs/lab.md and the README's lab commands (those naming armlab.lab)."""
    found = shell_commands((ROOT / "docs" / "lab.md").read_text())
    found += [(c, m) for c, m in shell_commands((ROOT / "README.md").read_text()) if "armlab.lab" in c]
    return dict(found)


# the doc's commands, as they are written there (the tests below run each)
GATE_RUNBOOK = (
    'python -m armlab.lab.gate --upstream ws://127.0.0.1:9090 --host 192.168.50.10 --port 9091 --token "$(openssl '
    f'rand -hex 4)" --workspace {BOX} --audit ~/armlab-gate-audit.jsonl'
)
GATE_README = (
    ".venv/bin/python -m armlab.lab.gate --upstream ws://127.0.0.1:9090 --host <robot address> --port 9091 "
    "--token <TA token> [--workspace x0,y0,z0,x1,y1,z1]"
)
SIM_VENV = ".venv/bin/python -m armlab.lab.sim --port 9090"
SIM, GATE_LOCAL, GATE_BARE = (
    "python -m armlab.lab.sim --port 9090",
    "python -m armlab.lab.gate --port 9091 --token t",
    "python -m armlab.lab.gate",
)
SIM_HELP = "python -m armlab.lab.sim --help"
CURL = "curl -i http://192.168.50.10:9091"
RUN_HERE = {GATE_RUNBOOK, GATE_README, SIM_VENV, SIM, GATE_LOCAL, GATE_BARE, SIM_HELP, CURL}


def test_every_lab_command_is_run_or_marked():
    commands = lab_commands()
    unmarked = {c for c, marked in commands.items() if not marked}
    assert unmarked == RUN_HERE, (
        f"run here but no longer in the docs: {sorted(RUN_HERE - unmarked)}; in the docs but neither run here nor "
        f"marked {MARK}: {sorted(unmarked - RUN_HERE)}"
    )
    robot_pc = {c for c, marked in commands.items() if marked}
    assert any(c.startswith("rosservice call /arm_1/switchOffMotors") for c in robot_pc)
    assert any(c.startswith("roslaunch rosbridge_server") for c in robot_pc)


def test_the_command_finder_finds_blocks_spans_and_marks():
    text = (
        "Run `python -m x --a 1` and `rostopic hz /j` *(robot PC)*; not `--fault a@1`.\n\n"
        "```bash\n# robot PC: needs ROS\nsudo apt-get install y\n```\n\n"
        "```bash\n.venv/bin/python -m z --p 1 \\\n    --q 2   # a comment\n```\n"
    )
    assert shell_commands(text) == [
        ("sudo apt-get install y", True),
        (".venv/bin/python -m z --p 1 --q 2", False),
        ("python -m x --a 1", False),
        ("rostopic hz /j", True),
    ]


# --- running them --------------------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Shell:
    """A doc's command in bash, in its own process group, its output read line by line."""

    def __init__(self, command: str, cwd: Path):
        env = {**os.environ, "HOME": str(cwd), "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
        self.proc = subprocess.Popen(
            ["bash", "-c", command],
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, pattern: str, timeout: float = 20.0) -> re.Match:
        end = time.monotonic() + timeout
        while True:
            for line in self.seen:
                if m := re.search(pattern, line):
                    self.seen.remove(line)
                    return m
            try:
                self.seen.append(self.lines.get(timeout=max(0.0, end - time.monotonic())))
            except queue.Empty:
                raise AssertionError(f"no line matching {pattern!r}; output: {self.seen}") from None

    def interrupt(self, timeout: float = 15.0) -> int:
        """Ctrl-C, as the docs say, and the exit code."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGINT)
        try:
            return self.proc.wait(timeout)
        finally:
            if self.proc.poll() is None:
                os.killpg(self.proc.pid, signal.SIGKILL)


@pytest.fixture()
def home(tmp_path):
    """The working directory and home of the commands, with the course's venv as ``.venv``."""
    (tmp_path / ".venv").symlink_to(Path(sys.prefix))
    return tmp_path


def start_sim(cwd: Path, command: str = SIM_VENV, port: int | None = None) -> tuple[Shell, int]:
    port = port or free_port()
    sim = Shell(command.replace("9090", str(port)), cwd)
    assert sim.wait_for(r"listening on ws://127\.0\.0\.1:(\d+)").group(1) == str(port)
    return sim, port


def stop(shell: Shell, counters: str) -> dict:
    """Ctrl-C: it exits 0 and prints its counters as one JSON line."""
    assert shell.interrupt() == 0, shell.seen
    return json.loads(shell.wait_for(counters).string)


def test_the_simulator_command_runs_and_says_it_is_the_simulator(home):
    sim, port = start_sim(home)
    try:
        with YoubotArm(f"ws://127.0.0.1:{port}", log=False) as arm:
            assert arm.simulated and arm.identity["name"] == "the armlab youBot simulator"
    finally:
        assert stop(sim, r'^\{"ticks"')["published"] > 0


def test_the_runbooks_gate_command_runs_as_written(home):
    """docs/lab.md §2 with the runbook's negative workspace box; the console shows what is behind the gate,
    claims and refusals; curl gets 426; Ctrl-C prints the counters; the audit log is where the command says."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed (the runbook's token comes from it)")
    sim, up = start_sim(home)
    port = free_port()
    cmd = GATE_RUNBOOK.replace("9090", str(up)).replace("192.168.50.10", "127.0.0.1").replace("9091", str(port))
    gate = Shell(cmd, home)
    try:
        gate.wait_for(rf"^listening on ws://127\.0\.0\.1:{port} \(upstream ws://127\.0\.0\.1:{up}; audit log ")
        gate.wait_for(rf"^upstream ws://127\.0\.0\.1:{up}: the armlab youBot simulator: no robot moves$")
        with YoubotArm(f"ws://127.0.0.1:{port}", log=False, claim=True, claim_name="group 3") as arm:
            gate.wait_for(r"group 3 \(connection \d+ from 127\.0\.0\.1:\d+\) holds the arm")
            assert arm.identity["upstream"]["kind"] == "simulator"
            with YoubotArm(f"ws://127.0.0.1:{port}", log=False, claim_name="watcher") as watcher:
                with pytest.raises(SafetyError, match="held by group 3"):
                    watcher.move_joints(watcher.state().q_driver + [0.1, 0, 0, 0, 0], frame="driver")
                gate.wait_for(r"REFUSED publish /arm_1/arm_controller/position_command from watcher .*held by group 3")
                with pytest.raises(SafetyError, match="switchOffMotors"):
                    watcher.call_service("/arm_1/switchOffMotors")  # refused by the client: nothing is sent
        curl = subprocess.run(
            ["bash", "-c", CURL.replace("192.168.50.10", "127.0.0.1").replace("9091", str(port))],
            capture_output=True,
            text=True,
            timeout=20,
        )
        assert curl.stdout.startswith("HTTP/1.1 426 Upgrade Required"), curl.stdout + curl.stderr
        assert stop(gate, r'^\{"forwarded"')["refused"] >= 1
    finally:
        gate.interrupt()
        stop(sim, r'^\{"ticks"')
    rows = [json.loads(line) for line in (home / "armlab-gate-audit.jsonl").read_text().splitlines()]
    start = rows[0]
    assert start["event"] == "start" and start["token"] is True
    assert start["policy"]["workspace"] == [[-0.40, -0.45, -0.01], [0.50, 0.45, 0.70]]
    refused = [r for r in rows if r["event"] == "refuse"]
    assert refused and all("switchOffMotors" not in str(r) for r in refused)  # the client never sent it


def test_the_readmes_gate_command_runs_with_its_placeholders_filled(home):
    sim, up = start_sim(home)
    port = free_port()
    cmd = (
        GATE_README.replace("9090", str(up))
        .replace("<robot address>", "127.0.0.1")
        .replace("9091", str(port))
        .replace("<TA token>", "t")
        .replace("[--workspace x0,y0,z0,x1,y1,z1]", f"--workspace {BOX}")
    )
    gate = Shell(cmd, home)
    try:
        gate.wait_for(rf"^listening on ws://127\.0\.0\.1:{port} ")
        assert stop(gate, r'^\{"forwarded"')["audit"]["start"] == 1
    finally:
        gate.interrupt()
        stop(sim, r'^\{"ticks"')
    assert (home / "armlab-gate-audit.jsonl").exists()


def test_rehearsing_with_the_simulator_on_9090_and_the_gate_on_9091(home):
    """docs/lab.md §2's two terminals, on the ports as written (the bare gate command uses the same defaults)."""
    for port in (9090, 9091):
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                pytest.skip(f"port {port} is in use on this machine: the commands as written need it")
    sim, _ = start_sim(home, SIM, port=9090)
    try:
        for command in (GATE_LOCAL, GATE_BARE):
            gate = Shell(command, home)
            try:
                gate.wait_for(r"^listening on ws://127\.0\.0\.1:9091 \(upstream ws://127\.0\.0\.1:9090;")
                gate.wait_for(r"^upstream ws://127\.0\.0\.1:9090: the armlab youBot simulator: no robot moves$")
                with YoubotArm("ws://127.0.0.1:9091", log=False, claim=True) as arm:
                    assert arm.simulated and arm.behind_gate
                stop(gate, r'^\{"forwarded"')
            finally:
                gate.interrupt()
    finally:
        stop(sim, r'^\{"ticks"')


def test_the_simulators_help_and_every_fault_the_runbook_names():
    out = subprocess.run(
        ["bash", "-c", SIM_HELP],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"},
    )
    assert out.returncode == 0 and "--fault SPEC" in out.stdout
    specs = re.findall(r"`--fault ([^`]+)`|`([a-z]+:[\d.:]+@?[\d.]*)`", (ROOT / "docs" / "lab.md").read_text())
    specs = [a or b for a, b in specs]
    assert len(specs) == 6, specs
    for spec in specs:
        at, _ = parse_fault(spec)  # raises for a spec the simulator would refuse
        assert at >= 0
