"""The docs' shell commands (issue #33): each one is run by a test as written, or the docs mark it as an example not
run here and say why.

Every ```bash block of README.md, docs/instructor.md and the student edition's README is either listed in
``RUN_BY`` (the test that runs it, with only its placeholders filled) or carries a line ``# not run by the tests: …``
with the reason. The instructor's grading workflow and the late student's commands run here, in a course of two
students (one submitted through the exchange, one downloaded from an LMS) and a late third.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from support.nbgrader_harness import BIN, REPO, hw01_submissions

sys.path.insert(0, str(REPO / "deploy"))
import student_edition as se  # noqa: E402

A = "hw01_transforms"
MARK = "# not run by the tests:"
GUIDE = REPO / "docs" / "instructor.md"


def bash_blocks(text: str) -> list[str]:
    """The ```bash blocks of a markdown text, dedented."""
    blocks = re.findall(r"^( *)```bash\n(.*?)^ *```", text, re.S | re.M)
    return ["\n".join(line[len(indent) :] for line in body.splitlines()) for indent, body in blocks]


def first_command(block: str) -> str:
    return next(
        line.split("  #")[0].strip() for line in block.splitlines() if line.strip() and not line.startswith("#")
    )


WORKFLOW = "test_doc_commands.py::test_the_guides_grading_workflow_runs_as_written"
LAB = "test_doc_commands.py::test_the_readmes_simulator_and_gate_commands_start_a_youbot_and_its_gate"
#: (document, how the block's first command starts) -> the test that runs the block as written
RUN_BY = {
    ("docs/instructor.md", "./run.sh student-edition build/student --git"): "test_student_edition.py::edition",
    ("docs/instructor.md", "nbgrader generate_assignment hw01_transforms --force"): WORKFLOW,
    ("docs/instructor.md", "nbgrader zip_collect hw01_transforms"): WORKFLOW,
    ("docs/instructor.md", "nbgrader generate_assignment hw09_rotations --force"): (
        "test_instructor_walkthrough.py::test_the_walkthrough_releases_a_new_homework_and_grades_it"
    ),
    ("docs/instructor.md", "nbgrader collect hw01_transforms"): WORKFLOW,
    ("docs/instructor.md", 'python -c "from traitlets.config.loader import PyFileConfigLoader'): (
        "test_doc_commands.py::test_the_guides_config_check_loads_the_courses_config"
    ),
    ("README.md", "./run.sh course"): "test_working_copy.py::test_run_sh_course_prints_the_url_of_the_start_page",
    ("README.md", ".venv/bin/python -m armlab.lab.sim --port 9090"): LAB,
    ("README.md", ".venv/bin/python -m armlab.lab.gate --upstream"): LAB,
    ("student edition README", "python -m venv .venv && .venv/bin/pip install -r requirements.txt"): (
        "test_student_edition.py::test_the_readme_recipe_installs_the_edition_in_its_folder_and_opens_a_students_lab"
    ),
}
DOCS = {"README.md": REPO / "README.md", "docs/instructor.md": GUIDE}


def _blocks():
    for name, path in DOCS.items():
        for block in bash_blocks(path.read_text()):
            yield name, block
    for block in bash_blocks(se.README):
        yield "student edition README", block


def test_every_shell_block_of_the_docs_is_run_by_a_test_or_marked_with_why_not():
    unaccounted, missing, used = [], [], set()
    for doc, block in _blocks():
        command = first_command(block)
        found = [k for k in RUN_BY if k[0] == doc and command.startswith(k[1])]
        if found:
            used.add(found[0])
            file, name = RUN_BY[found[0]].split("::")
            if not re.search(rf"^def {name}\(", (REPO / "tests" / "integration" / file).read_text(), re.M):
                missing.append(RUN_BY[found[0]])
        elif not re.search(rf"^{re.escape(MARK)} \S.{{10,}}", block, re.M):
            unaccounted.append(f"{doc}: {command}")
    assert not unaccounted, "blocks neither run by a test nor marked with a reason:\n" + "\n".join(unaccounted)
    assert not missing, missing
    assert used == set(RUN_BY), set(RUN_BY) - used  # every entry names a block the docs still have


def test_the_guides_config_check_loads_the_courses_config():
    (block,) = [b for b in bash_blocks(GUIDE.read_text()) if "PyFileConfigLoader" in b]
    out = subprocess.run(["bash", "-c", block], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "'Execute': {'timeout': 10" in out.stdout and "TypesetMath" in out.stdout


def _nbgrader(cwd: Path, env: dict[str, str], *args: str) -> None:
    r = subprocess.run(
        [str(Path(BIN) / "nbgrader"), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]


def _submit(home: Path, env: dict[str, str], student: str, nb, exchange: Path) -> None:
    """A student fetches the homework, writes their answers and submits it through the exchange."""
    home.mkdir(parents=True)
    (home / "nbgrader_config.py").write_text(
        f"c = get_config()\nc.CourseDirectory.student_id = {student!r}\nc.CourseDirectory.course_id = 'armlab'\n"
        f"c.Exchange.root = {str(exchange)!r}\n"
    )
    _nbgrader(home, env, "fetch_assignment", A)
    nbformat.write(nb, str(home / A / f"{A}.ipynb"))
    _nbgrader(home, env, "submit", A)


@pytest.mark.timeout(900)
def test_the_guides_grading_workflow_runs_as_written(tmp_path):
    """docs/instructor.md's grading workflow, command for command, in a course directory of this repository's layout:
    students imported from a CSV; hw01 released; ada fetches and submits through the exchange; collected, graded by
    armlab-grade, feedback released, grades exported. Then bob's notebook from an LMS download (the guide's second
    block), and the late-student commands for s042. The scores are hw01's (solution 18, the harness's wrong 8)."""
    blocks = bash_blocks(GUIDE.read_text())
    (workflow,) = [b for b in blocks if b.startswith("# 0. students")]
    (lms,) = [b for b in blocks if b.startswith("nbgrader zip_collect")]
    (late,) = [b for b in blocks if b.startswith("nbgrader collect hw01_transforms  ")]
    release, grade = workflow[: workflow.index("# 2. collect")], workflow[workflow.index("# 2. collect") :]
    course, exchange = tmp_path / "course", tmp_path / "exchange"
    shutil.copytree(REPO / "solutions" / A, course / "solutions" / A)
    (course / "nbgrader_config.py").write_text(
        (REPO / "nbgrader_config.py").read_text()
        + f"\nc.CourseDirectory.course_id = 'armlab'\nc.Exchange.root = {str(exchange)!r}\n"
        + "c.FileNameCollectorPlugin.named_regexp = "  # the guide's example
        + re.search(r'`(r"\.\*/\(\?P<student_id>[^`]*")`', GUIDE.read_text())[1]
        + "\nc.Execute.timeout = 5\n"
    )
    exchange.mkdir()
    env = {**os.environ, "PATH": BIN + os.pathsep + os.environ["PATH"]}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO / "lib"), os.environ.get("PYTHONPATH")]))
    (course / "students.csv").write_text(
        "id,first_name,last_name,email\nada,Ada,Lovelace,ada@example.edu\nbob,Bob,Babbage,bob@example.edu\n"
        "s042,Sam,Late,s042@example.edu\n"
    )
    step0 = re.search(r"^# 0\. students \(once\): (nbgrader db student import students\.csv)", workflow, re.M)[1]
    _run(step0, course, env)
    _run(release, course, env)
    solution = nbformat.read(REPO / "solutions" / A / f"{A}.ipynb", as_version=4)
    blank = nbformat.read(course / "exercises" / A / f"{A}.ipynb", as_version=4)
    subs = hw01_submissions(solution, blank)
    _submit(tmp_path / "ada", env, "ada", subs["solution"], exchange)

    out = _run(grade, course, env)
    assert f"{A}: 1 student graded, mean score 18.0 / 18" in out, out
    for noise in ("SAWarning", "still alive", "Traceback (most recent call last)"):
        assert noise not in out, out
    html = (course / "feedback" / "ada" / A / f"{A}.html").read_text()
    assert "<math" in html and "<script src=" not in html and "BEGIN HIDDEN TESTS" not in html
    assert len(list((exchange / "armlab" / "feedback").glob("*.html"))) == 1

    download = course / "downloaded" / A / "archive"
    download.mkdir(parents=True)
    nbformat.write(subs["wrong"], str(download / f"bob--2026-11-20T10:00:00--{A}.ipynb"))  # the guide's file name
    out = _run(lms, course, env)
    assert f"{A}: 1 student graded, mean score 8.0 / 18 (1 graded before, not again)" in out, out
    assert (course / "feedback" / "bob" / A / f"{A}.html").exists()
    with (course / "grades.csv").open() as f:
        rows = {r["student_id"]: r for r in csv.DictReader(f)}
    assert {s: (float(rows[s]["score"]), rows[s]["last_name"]) for s in ("ada", "bob")} == {
        "ada": (18.0, "Lovelace"),
        "bob": (8.0, "Babbage"),
    }

    _submit(tmp_path / "s042", env, "s042", subs["solution"], exchange)
    _run(late, course, env)
    assert (course / "feedback" / "s042" / A / f"{A}.html").exists()
    assert len(list((exchange / "armlab" / "feedback").glob("*.html"))) == 2
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", "armlab") as gb:
        assert gb.find_submission(A, "s042").score == 18.0


def _run(block: str, cwd: Path, env: dict[str, str]) -> str:
    r = subprocess.run(["bash", "-e", "-c", block], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"{block}\n{r.stdout[-4000:]}\n{r.stderr[-4000:]}"
    return r.stdout + r.stderr


def test_the_student_edition_readme_says_what_the_test_runs():
    text = json.dumps(bash_blocks(se.README))
    assert (
        "pip install -r requirements.txt" in text
        and "--LabApp.default_url=/lab/tree/course/00_start_here.ipynb" in text
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(command: str, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen(
        ["bash", "-c", f"exec {command}"], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def _listens(proc: subprocess.Popen, port: int) -> bool:
    """Whether ``proc`` accepts a connection on 127.0.0.1:``port`` within 60 s."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(0.2)
    return False


def _stop(proc: subprocess.Popen) -> int:
    """Ctrl-C, as the README says; the exit status."""
    proc.send_signal(signal.SIGINT)
    try:
        return proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.wait()


@pytest.mark.timeout(180)
def test_the_readmes_simulator_and_gate_commands_start_a_youbot_and_its_gate(tmp_path):
    """README.md's lab commands with their placeholders filled: free ports for 9090 and 9091, 127.0.0.1 for the robot's
    address, a token; the optional workspace left out; ``.venv/bin/python`` this interpreter where no .venv is."""
    sim, gate = [b for b in bash_blocks((REPO / "README.md").read_text()) if "armlab.lab." in b]
    venv = REPO / ".venv" / "bin" / "python"  # run elsewhere: the gate writes its audit log where it runs
    python = str(venv) if venv.exists() else sys.executable
    p_sim, p_gate = _free_port(), _free_port()
    sim_cmd = first_command(sim).replace(".venv/bin/python", python).replace("9090", str(p_sim))
    gate_cmd = " ".join(
        line.split("  #")[0].strip().rstrip("\\") for line in gate.splitlines() if not line.startswith("#")
    )
    gate_cmd = gate_cmd.replace(".venv/bin/python", python).replace("9090", str(p_sim)).replace("9091", str(p_gate))
    gate_cmd = gate_cmd.replace("<robot address>", "127.0.0.1").replace("<TA token>", "ta-token")
    gate_cmd = re.sub(r"\s*\[--workspace [^\]]*\]", "", gate_cmd)
    assert "<" not in gate_cmd and "[" not in gate_cmd, gate_cmd
    sim_proc = _start(sim_cmd, tmp_path)
    try:
        assert _listens(sim_proc, p_sim), sim_cmd
        gate_proc = _start(gate_cmd, tmp_path)
        try:
            assert _listens(gate_proc, p_gate), gate_cmd
        finally:
            _stop(gate_proc)
    finally:
        _stop(sim_proc)
