"""armlab-grade (armlab.autograde.batch) against serial ``nbgrader autograde``: the same scores, cell by cell,
on a real Dask LocalCluster with a worker killed mid-batch, and the failures a class produces
(a submission that hangs, one that kills its worker) graded zero with the reason while the batch goes on."""

from __future__ import annotations

import copy
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import nbformat
import pytest

from support.nbgrader_harness import BIN, REPO, hw01_submissions, prepend

pytestmark = pytest.mark.homework("hw01_transforms")  # grades it

pytest.importorskip("distributed")

A = "hw01_transforms"
#: honest, wrong, blank and adversarial students whose serial grades the batch must reproduce
STUDENTS = ("solution", "blank", "wrong", "monkeypatch", "deleted_tests", "os_exit")
# the process that launched the kernel (jupyter_client tells every kernel its pid): the grading worker; its parent
# is the worker's kernel template when kernels are forked (tests/autograde/test_forked_kernels.py kills that one)
KILLER = "import os, signal\nos.kill(int(os.environ['JPY_PARENT_PID']), signal.SIGKILL)"


def _env():
    return {**os.environ, "PATH": BIN + os.pathsep + os.environ["PATH"]}


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A released hw01 with collected submissions, not yet graded (per-cell timeout 5 s, as the homework tests)."""
    from nbgrader.apps import NbGraderAPI
    from traitlets.config import Config

    from support.nbgrader_harness import load_config

    root = tmp_path_factory.mktemp("course")
    shutil.copytree(REPO / "solutions" / A, root / "solutions" / A)
    config = (REPO / "nbgrader_config.py").read_text() + "\nc.Execute.timeout = 5\n"
    (root / "nbgrader_config.py").write_text(config)
    cfg = load_config()
    cfg.merge(Config({"CourseDirectory": {"root": str(root)}}))
    os.environ["PATH"] = _env()["PATH"]
    res = NbGraderAPI(config=cfg).generate_assignment(A)
    assert res["success"], res.get("error")
    solution = nbformat.read(root / "solutions" / A / f"{A}.ipynb", as_version=4)
    blank = nbformat.read(root / "exercises" / A / f"{A}.ipynb", as_version=4)
    subs = {s: nb for s, nb in hw01_submissions(solution, blank).items() if s in STUDENTS}
    for student, nb in subs.items():
        dest = root / "submitted" / student / A / f"{A}.ipynb"
        dest.parent.mkdir(parents=True)
        nbformat.write(nb, str(dest))
    killer = copy.deepcopy(solution)
    prepend(killer, "p2_my_Trans", KILLER)
    slow = copy.deepcopy(solution)
    for grade_id in ("p1_my_Rot", "p2_my_Trans", "p3_T_AB", "p4_to_frame_A", "p5_fixed_current"):
        prepend(slow, grade_id, "import time\ntime.sleep(1.8)")  # each cell within its 5 s, 9 s in all (> 8 s)
    return root, {"kills_worker": killer, "slow": slow}


def _copy(course, tmp_path, name, extra=()):
    root, specials = course
    dest = tmp_path / name
    shutil.copytree(root, dest)
    for student in extra:
        path = dest / "submitted" / student / A / f"{A}.ipynb"
        path.parent.mkdir(parents=True)
        nbformat.write(specials[student], str(path))
    return dest


def _grades(root, db_url=None, course_id=""):
    """{student: {cell: (auto_score, needs_manual_grade)}} and {student: score}, from a course's gradebook."""
    from nbgrader.api import Gradebook

    with Gradebook(db_url or f"sqlite:///{root / 'gradebook.db'}", course_id) as gb:
        cells = {
            s.student.id: {g.name: (g.auto_score, g.needs_manual_grade) for nb in s.notebooks for g in nb.grades}
            for s in gb.find_assignment(A).submissions
        }
        scores = {s.student.id: s.score for s in gb.find_assignment(A).submissions}
    return cells, scores


def _serial_nbgrader(root):
    out = subprocess.run(
        [str(Path(BIN) / "nbgrader"), "autograde", A], cwd=root, env=_env(), capture_output=True, text=True, timeout=600
    )
    assert "os_exit" in out.stdout + out.stderr  # the dead kernel is reported; the batch went on
    return _grades(root)


def _children(pid):
    return [
        c
        for t in os.listdir(f"/proc/{pid}/task")
        for c in (Path(f"/proc/{pid}/task") / t / "children").read_text().split()
    ]


def _kill_a_busy_worker(stop, killed):
    """Kill one Dask worker process while it is grading (it has a kernel child: the kernel, or the template
    its kernels fork from), once. Another child (multiprocessing's resource tracker, at start) is not
    grading: killing that worker would stop the cluster from starting, not test the batch."""
    me = os.getpid()
    deadline = time.monotonic() + 120
    while not stop.is_set() and time.monotonic() < deadline:
        for task in Path(f"/proc/{me}/task").glob("*"):
            for pid in (task / "children").read_text().split():
                try:
                    cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
                    busy = any(b"ipykernel" in Path(f"/proc/{c}/cmdline").read_bytes() for c in _children(pid))
                except OSError:  # it ended while we looked
                    continue
                if b"multiprocessing" in cmd and busy:
                    os.kill(int(pid), signal.SIGKILL)
                    killed.append(int(pid))
                    return
        time.sleep(0.05)


@pytest.fixture(scope="module")
def serial(course, tmp_path_factory):
    """The grades serial ``nbgrader autograde`` gives the students: what every batch must reproduce."""
    cells, scores = _serial_nbgrader(_copy(course, tmp_path_factory.mktemp("serial"), "course"))
    assert scores["solution"] == 18.0 and scores["blank"] == 0.0 and scores["wrong"] == 8.0
    return cells, scores


def test_batch_on_a_local_cluster_gives_serial_nbgraders_scores_through_a_killed_worker(course, serial, tmp_path):
    from armlab.autograde.batch import grade_assignment

    serial_cells, serial_scores = serial

    root = _copy(course, tmp_path, "batch", extra=("kills_worker",))
    stop, killed = threading.Event(), []
    killer = threading.Thread(target=_kill_a_busy_worker, args=(stop, killed))
    killer.start()
    try:
        results = grade_assignment(A, root, workers=2)
    finally:
        stop.set()
        killer.join()
    assert killed, "no worker was killed mid-batch"
    cells, scores = _grades(root)
    by_student = {r.student: r for r in results}
    assert set(by_student) == set(STUDENTS) | {"kills_worker"}
    for student in STUDENTS:
        assert cells[student] == serial_cells[student], student  # every cell: score and manual flag
        assert scores[student] == serial_scores[student], student
    killed_result = by_student["kills_worker"]
    assert not killed_result.ok and "killed its grading worker" in killed_result.reason
    assert scores["kills_worker"] == 0.0
    assert all(flag for _, flag in cells["kills_worker"].values())  # flagged for a person
    assert (root / "autograded" / "kills_worker" / A / "BATCH_FAILURE.txt").read_text().count("killed") == 1
    # the killed workers could not remove their private copies of the course; the batch did
    assert not [
        p for p in Path(tempfile.gettempdir()).glob("armlab-grade-*") if p.name.split("-")[2] in map(str, killed)
    ]

    # a re-run resumes: what was graded is not graded again; the failures are tried again, as nbgrader
    # retries a notebook whose autograde failed, and fail the same way
    again = grade_assignment(A, root, workers=2)
    assert sorted((r.student, r.ok) for r in again) == [("kills_worker", False), ("os_exit", False)]
    assert _grades(root) == (cells, scores)


def test_armlab_grade_times_out_a_slow_submission_ends_with_a_summary_and_resumes(course, tmp_path):
    """``armlab-grade`` as an instructor runs it: a slow submission gets zero with the reason, the run ends with a
    summary (graded, mean score, failures, timeouts, where the feedback is) and prints no library warning."""
    from armlab.autograde.batch import grade_assignment

    root = _copy(course, tmp_path, "slow", extra=("slow",))
    for student in STUDENTS:
        if student not in ("solution", "os_exit"):
            shutil.rmtree(root / "submitted" / student)
    cli = [str(Path(BIN) / "armlab-grade"), A, "--workers", "1", "--timeout", "8"]
    out = subprocess.run(cli, cwd=root, env=_env(), capture_output=True, text=True, timeout=600)
    assert out.returncode == 1, out.stderr  # some submissions failed
    text = out.stdout + out.stderr
    summary = out.stdout.splitlines()  # stdout: the summary; stderr: the progress
    assert summary == [
        f"{A}: 3 students graded, mean score 6.0 / 18",
        "  failures: 1 (zero, flagged for manual grading)",
        "    os_exit: its kernel died (the notebook ended or crashed its Python process)",
        "  timeouts: 1 (zero, flagged for manual grading)",
        "    slow: timed out after 8 s",
        f"  feedback of 1 student: {root / 'feedback'}/<student>/{A}/ (give students only these HTML files; after"
        f" manual grading: nbgrader generate_feedback {A} --force)",
    ], text
    for noise in ("Warning", "SAWarning", "still alive", "killing", "Traceback"):
        assert noise not in text, text
    html = (root / "feedback" / "solution" / A / f"{A}.html").read_text()
    assert "Score: 18.0 / 18.0" in html or "18.0 / 18.0" in html
    # its maths typeset as MathML, and no script from anywhere (MathJax from a CDN showed raw $\theta$ offline)
    assert html.count("<math") >= 5 and "<script src=" not in html and "x-mathjax-config" not in html
    assert not (root / "feedback" / "slow").exists() and not (root / "feedback" / "os_exit").exists()
    cells, scores = _grades(root)
    assert scores == {"slow": 0.0, "solution": 18.0, "os_exit": 0.0}
    assert all(flag for _, flag in cells["slow"].values())
    shutil.rmtree(root / "submitted" / "os_exit")
    rerun = grade_assignment(A, root, workers=1, timeout=3)  # only the slow one runs: a short wait proves it
    assert [r.student for r in rerun] == ["slow"]  # graded ones are skipped; the failure is tried again
    assert rerun.timeouts == [("slow", "timed out after 3 s")] and rerun.failures == [] and rerun.skipped == 1
    assert rerun.scores == {"slow": 0.0} and rerun.max_score == 18.0
    # the API's return value, the last line of a notebook cell: a few lines, no notebook, no hidden test
    for shown in (repr(rerun), str(rerun), repr(list(rerun))):
        assert len(shown) < 800 and "HIDDEN" not in shown and "cells" not in shown, shown
    forced = grade_assignment(A, root, workers=1, timeout=120, force=True)
    assert sorted(r.student for r in forced) == ["slow", "solution"] and all(r.ok for r in forced)
    assert _grades(root)[1] == {"slow": 18.0, "solution": 18.0, "os_exit": 0.0}


def test_batch_into_a_postgresql_gradebook_gives_serial_nbgraders_scores(course, serial, tmp_path):
    """The course's gradebook on a PostgreSQL server (``db_url``): the batch's one writer fills it as it fills SQLite."""
    from nbgrader.apps import NbGraderAPI
    from traitlets.config import Config

    from armlab.autograde.batch import grade_assignment
    from support import postgres
    from support.nbgrader_harness import load_config

    if not postgres.available():
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL's initdb is missing (Debian: apt install postgresql)")
        pytest.skip("PostgreSQL is not installed")
    root = _copy(course, tmp_path, "pg")
    with postgres.private_postgres() as url:
        with (root / "nbgrader_config.py").open("a") as f:
            # a course id: PostgreSQL enforces the gradebook's foreign keys (SQLite does not), and nbgrader
            # records no course row for the empty default id
            f.write(f"\nc.CourseDirectory.db_url = {url!r}\nc.CourseDirectory.course_id = 'robotics'\n")
        cfg = load_config()
        cfg.merge(Config({"CourseDirectory": {"root": str(root), "db_url": url, "course_id": "robotics"}}))
        assert NbGraderAPI(config=cfg).generate_assignment(A, force=True)["success"]  # the assignment's cells
        results = grade_assignment(A, root, workers=2, fork=False)  # kernels started as nbgrader starts them
        assert sorted(r.student for r in results) == sorted(STUDENTS)
        assert _grades(root, url, "robotics") == serial
        again = grade_assignment(A, root, workers=2)  # resumes from what PostgreSQL holds
        assert [r.student for r in again] == ["os_exit"]
        assert _grades(root, url, "robotics") == serial  # nothing lost
        assert _row_counts(url) == (len(STUDENTS), len(STUDENTS) * len(serial[0]["solution"]))  # nothing twice


def _row_counts(db_url):
    """(submissions of A, grade rows of A) in a gradebook."""
    from nbgrader.api import Gradebook

    with Gradebook(db_url, "robotics") as gb:
        subs = gb.find_assignment(A).submissions
        return len(subs), sum(len(nb.grades) for s in subs for nb in s.notebooks)


def test_grading_package_does_not_import_dask_or_nbgrader():
    code = (
        "import armlab.grading, sys; print(sorted(m for m in ('dask', 'distributed', 'nbgrader') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.timeout(300)
def test_grading_from_a_notebook_cell_shows_progress_and_a_short_summary_and_no_warning(course, tmp_path):
    """``grade_assignment(...)`` as the last line of a notebook cell, as the guide shows it: the cell's outputs are the
    progress line and the summary, no red warning block (the workers' SQLAlchemy noise went to the kernel's stderr),
    and nothing of the graded notebook (hidden tests)."""
    import nbclient

    root = _copy(course, tmp_path, "nb")
    for student in STUDENTS:
        if student != "solution":
            shutil.rmtree(root / "submitted" / student)
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(f"from armlab.autograde.batch import grade_assignment\ngrade_assignment({A!r})")
    ]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    os.environ["PATH"] = _env()["PATH"]
    nbclient.NotebookClient(nb, timeout=240, resources={"metadata": {"path": str(root)}}).execute()
    outputs = nb.cells[0].outputs
    stderr = [o.text for o in outputs if o.output_type == "stream" and o.name == "stderr"]
    assert stderr == [], stderr
    (result,) = [o for o in outputs if o.output_type == "execute_result"]
    summary = result.data["text/plain"]
    assert summary.startswith(f"{A}: 1 student graded, mean score 18.0 / 18") and len(summary) < 600, summary
    shown = json.dumps([o for o in outputs])
    assert "HIDDEN" not in shown and "check_" not in shown
