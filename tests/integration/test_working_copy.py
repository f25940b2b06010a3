"""The student's working copy (deploy/working_copy.py), what ``./run.sh course`` opens.

A student runs and edits the copy, never the tracked notebooks, so pulling a course update cannot conflict with
their runs; each start brings the copy up to date without overwriting anything the student changed; notebooks
are written as JupyterLab writes them for this kernel, so opening one changes nothing. The last test starts
``./run.sh course`` for real and reads the URL it prints.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from armlab.notebooks import kernel_metadata

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "deploy"))
import working_copy as wc  # noqa: E402
from support.jupyterlab import student_tools  # noqa: E402

META = {
    "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
    "language_info": {
        "codemirror_mode": {"name": "ipython", "version": 3},
        "file_extension": ".py",
        "mimetype": "text/x-python",
        "name": "python",
        "nbconvert_exporter": "python",
        "pygments_lexer": "ipython3",
        "version": "3.11.7",
    },
}


@pytest.fixture
def repo(tmp_path):
    """A small repository: two chapters, a glossary, one homework, the docs a student gets."""
    r = tmp_path / "repo"
    for name, text in (("00_start_here", "# Start"), ("01_poses", "# Poses")):
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(text), nbformat.v4.new_code_cell("1 + 1")])
        nb.metadata = {"kernelspec": META["kernelspec"], "language_info": {"name": "python"}}
        (r / "course").mkdir(parents=True, exist_ok=True)
        (r / "course" / f"{name}.ipynb").write_text(nbformat.writes(nb) + "\n")
    (r / "course" / "glossary.md").write_text("link twist\n")
    (r / "exercises" / "hw01").mkdir(parents=True)
    shutil.copy(r / "course" / "01_poses.ipynb", r / "exercises" / "hw01" / "hw01.ipynb")
    (r / "docs").mkdir()
    for name in ("errata.md", "youbot-interface.md"):
        (r / "docs" / name).write_text(name)
    return r


def _edit(path: Path, cell: int, source: str) -> None:
    nb = nbformat.read(path, as_version=4)
    nb.cells[cell].source = source
    path.write_text(nbformat.writes(nb) + "\n")


def _run(path: Path) -> None:
    """What running every cell and saving does to a notebook: outputs and execution counts."""
    nb = nbformat.read(path, as_version=4)
    for k, c in enumerate(c for c in nb.cells if c.cell_type == "code"):
        c.execution_count = k + 1
        c.outputs = [nbformat.v4.new_output("execute_result", {"text/plain": "2"}, execution_count=k + 1)]
    path.write_text(nbformat.writes(nb) + "\n")


def test_first_start_copies_what_the_student_edition_holds_in_jupyterlabs_form(repo, tmp_path):
    work = tmp_path / "my-course"
    done = wc.sync(work, repo, META)
    expected = {
        "course/00_start_here.ipynb",
        "course/01_poses.ipynb",
        "course/glossary.md",
        "exercises/hw01/hw01.ipynb",
        "docs/errata.md",
        "docs/youbot-interface.md",
    }
    assert {p.relative_to(work).as_posix() for p in work.rglob("*") if p.is_file() and p.name != wc.STATE} == expected
    assert sorted(done) == sorted(f"added: {rel}" for rel in expected)
    for path in work.rglob("*.ipynb"):
        text = path.read_text()
        nb = nbformat.reads(text, as_version=4)
        assert nb.metadata == META  # what JupyterLab sets when the kernel connects: nothing left to change
        assert text == nbformat.writes(nb) + "\n"  # and the layout it saves in
    assert wc.sync(work, repo, META) == []  # a second start changes nothing


def test_the_kernel_metadata_is_this_pythons():
    meta = kernel_metadata()
    assert meta["kernelspec"]["name"] == "python3" and meta["kernelspec"]["language"] == "python"
    assert meta["language_info"]["version"] == ".".join(map(str, sys.version_info[:3]))
    assert set(meta["language_info"]) == set(META["language_info"])


def test_an_update_replaces_what_the_student_only_ran_and_keeps_what_they_edited(repo, tmp_path):
    work = tmp_path / "my-course"
    wc.sync(work, repo, META)
    _run(work / "course" / "00_start_here.ipynb")  # run, not edited
    _edit(work / "course" / "01_poses.ipynb", 1, "1 + 1  # my note")  # edited
    _edit(work / "exercises" / "hw01" / "hw01.ipynb", 1, "answer = 42")  # a homework answer
    for rel in ("course/00_start_here.ipynb", "course/01_poses.ipynb", "exercises/hw01/hw01.ipynb"):
        _edit(repo / rel, 0, "# Updated by the course")  # the course changes all three
    (repo / "course" / "02_dh.ipynb").write_bytes((repo / "course" / "01_poses.ipynb").read_bytes())  # and adds one

    done = wc.sync(work, repo, META)
    assert sorted(done) == [
        "added: course/02_dh.ipynb",
        "kept your course/01_poses.ipynb; the course's new version is course/01_poses.updated.ipynb",
        "kept your exercises/hw01/hw01.ipynb; the course's new version is exercises/hw01/hw01.updated.ipynb",
        "updated: course/00_start_here.ipynb (its outputs are gone: run it again)",
    ]
    start = nbformat.read(work / "course" / "00_start_here.ipynb", as_version=4)
    assert start.cells[0].source == "# Updated by the course" and not start.cells[1].outputs
    assert nbformat.read(work / "course" / "01_poses.ipynb", as_version=4).cells[1].source == "1 + 1  # my note"
    assert nbformat.read(work / "exercises" / "hw01" / "hw01.ipynb", as_version=4).cells[1].source == "answer = 42"
    beside = nbformat.read(work / "exercises" / "hw01" / "hw01.updated.ipynb", as_version=4)
    assert beside.cells[0].source == "# Updated by the course" and beside.metadata == META
    assert wc.sync(work, repo, META) == []  # once offered, an update is not offered again


def test_a_deleted_notebook_comes_back_fresh_and_a_run_one_stays_run(repo, tmp_path):
    work = tmp_path / "my-course"
    wc.sync(work, repo, META)
    (work / "course" / "01_poses.ipynb").unlink()  # "start this chapter afresh"
    _run(work / "course" / "00_start_here.ipynb")
    ran = (work / "course" / "00_start_here.ipynb").read_bytes()
    assert wc.sync(work, repo, META) == ["restored: course/01_poses.ipynb"]
    assert (work / "course" / "00_start_here.ipynb").read_bytes() == ran  # the course did not change it


def test_the_working_copy_holds_the_real_course_and_never_writes_into_the_repository(tmp_path):
    before = {p: p.stat().st_mtime_ns for p in (REPO / "course").glob("*.ipynb")}
    work = tmp_path / "my-course"
    wc.sync(work, metadata=META)
    tracked = subprocess.run(
        ["git", "ls-files", "course", "exercises", "docs/errata.md", "docs/youbot-interface.md"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    copied = {p.relative_to(work).as_posix() for p in work.rglob("*") if p.is_file() and p.name != wc.STATE}
    assert copied == set(tracked)  # what git tracks, and nothing a run left beside it (lab-logs/, checkpoints)
    assert "course/00_start_here.ipynb" in copied and "exercises/hw01_transforms/hw01_transforms.ipynb" in copied
    assert {p: p.stat().st_mtime_ns for p in (REPO / "course").glob("*.ipynb")} == before
    state = json.loads((work / wc.STATE).read_text())
    assert "course/00_start_here.ipynb" in state and "course/.ipynb_checkpoints" not in " ".join(state)


def test_git_ignores_the_working_copy():
    out = subprocess.run(
        ["git", "check-ignore", "-q", "my-course/course/00_start_here.ipynb"], cwd=REPO, capture_output=True
    )
    assert out.returncode == 0, "my-course/ must be in .gitignore: a student's runs are not the repository's"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.timeout(120)
def test_run_sh_course_prints_the_url_of_the_start_page(tmp_path):
    """``./run.sh course`` for real (this interpreter's environment standing in for .venv): it makes the working
    copy and starts JupyterLab on it; the URL it prints opens course/00_start_here.ipynb."""
    work = tmp_path / "my-course"
    driver = (
        'source "$REPO/run.sh"; VENV="$FAKE_VENV"; ensure_venv() { :; }; ensure_installed() { :; }; '
        'activate_venv() { :; }; main "$@"'
    )
    env = dict(
        os.environ,
        REPO=str(REPO),
        FAKE_VENV=sys.prefix,
        ARMLAB_COURSE_DIR=str(work),
        JUPYTER_CONFIG_DIR=str(tmp_path / "config"),
        JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    )
    port = _free_port()
    args = ["bash", "-c", driver, "driver", "course", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1"]
    proc = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            if f"127.0.0.1:{port}/" in line:
                break
        log = "".join(lines)
        assert f"http://127.0.0.1:{port}/lab/tree/course/00_start_here.ipynb?token=" in log, log[-3000:]
        token = log.split("?token=")[1].split()[0]
        tools = student_tools(f"http://127.0.0.1:{port}", token)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert (work / "course" / "00_start_here.ipynb").exists() and (work / "exercises").is_dir()
    assert "your working copy of the course" in log
    # a student's Lab: nbgrader's student tools, not the instructor's, and no warning about a missing config
    assert tools == {
        "formgrader page": 404,
        "disabled": {"@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:create-assignment"},
    }
    assert "No nbgrader_config.py file found" not in log and "formgrader" not in log, log


@pytest.mark.timeout(300)
def test_opening_a_notebook_of_the_working_copy_changes_nothing(jupyterlab_opener):
    """In JupyterLab and Chromium, as a student opens them: the start page, a lab and a homework of the working
    copy stay unsaved-free (no "modified" dot, nothing for autosave to write) once their kernel is
    up. The tracked notebook, which lacks the kernel's language_info, is marked modified at once: that is
    what the working copy's notebooks are written to avoid."""
    names = [
        "course/00_start_here.ipynb",
        "course/lab1_connect_and_move.ipynb",
        "exercises/hw04_jacobians/hw04_jacobians.ipynb",
    ]

    def place(root: Path) -> list[str]:  # root: a copy of course/, as tracked
        wc.sync(root / "my-course")
        return ["00_start_here.ipynb", *(f"my-course/{n}" for n in names)]

    dirty = jupyterlab_opener.dirty_on_opening(place)
    assert dirty.pop("00_start_here.ipynb") is True, "the check no longer sees what JupyterLab changes on opening"
    assert dirty == {f"my-course/{n}": False for n in names}
