"""The worker side of a batch (:mod:`armlab.autograde.batch`): one submission autograded by nbgrader in a private
copy of the course, from a :class:`Task` that carries everything it needs, into a :class:`Result` that carries
everything it produced. Dask pickles :func:`grade_one` and runs it on a worker, which needs no shared file system,
only the same armlab and nbgrader (:func:`versions`)."""

from __future__ import annotations

import contextlib
import datetime
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from .gradebook import submission_rows

__all__ = ["Task", "Result", "grade_one", "sweep_private_copies", "versions"]

#: A submission that runs longer than this (seconds, all its cells) gets zero.
DEFAULT_TIMEOUT = 300.0
TIMED_OUT = "timed out after"
#: nbgrader 0.9.6 trips over its own SQLAlchemy session while autograding: a harmless warning per submission
NOISE = r"Object of type .* not in session"
#: A worker's private copy of the course: ``<tmp>/armlab-grade-<worker pid>-<random>``.
PRIVATE_PREFIX = "armlab-grade-"


@dataclass
class Task:
    """One submission to autograde, with everything a worker needs (paths are relative, files bytes)."""

    assignment: str
    student: str
    submission: dict[str, bytes]
    source_files: dict[str, bytes]
    gradebook: bytes
    config: str
    course_id: str
    timeout: float = DEFAULT_TIMEOUT
    versions: dict[str, str] = field(default_factory=dict)
    fork: bool = True  # kernels forked from a warm template (forked_kernels), or started as nbgrader does
    feedback: bool = True  # also write the feedback HTML (nbgrader generate_feedback), for a graded submission


@dataclass
class Result:
    """What one autograde produced: the autograded files and the gradebook rows it wrote."""

    student: str
    ok: bool
    reason: str = ""
    seconds: float = 0.0
    # the autograded notebooks (hidden tests included), the grades and the log: never in a repr
    files: dict[str, bytes] = field(default_factory=dict, repr=False)
    timestamp: datetime.datetime | None = None
    notebooks: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)
    log: str = field(default="", repr=False)
    feedback: dict[str, bytes] = field(default_factory=dict, repr=False)  # the feedback HTML, for the student

    @property
    def timed_out(self) -> bool:
        return self.reason.startswith(TIMED_OUT)


def versions() -> dict[str, str]:
    """The versions a grading worker must share with the course: armlab, nbgrader, Python."""
    from importlib.metadata import version

    return {"armlab": version("armlab"), "nbgrader": version("nbgrader"), "python": "%d.%d" % sys.version_info[:2]}


def write_tree(root: Path, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def read_tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _children(pid: int) -> list[int]:
    """Every descendant process of ``pid`` (Linux /proc; elsewhere none are found)."""
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            with contextlib.suppress(OSError):
                for child in (task / "children").read_text().split():
                    found.append(int(child))
                    todo.append(int(child))
    return found


@contextlib.contextmanager
def _deadline(seconds: float, hit: list[bool]) -> Iterator[None]:
    """Kill this process's children (the kernel) once ``seconds`` have passed."""
    done = threading.Event()

    def watch() -> None:
        if not done.wait(seconds):
            hit.append(True)
            for pid in _children(os.getpid()):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def grade_one(task: Task) -> Result:
    """Autograde one submission with nbgrader in a private copy of the course."""
    from nbgrader.api import Gradebook
    from nbgrader.apps import NbGraderAPI
    from traitlets.config import Config
    from traitlets.config.loader import PyFileConfigLoader

    from .forked_kernels import fork_kernels, watch_template

    if task.versions and task.versions != versions():
        return Result(task.student, False, f"worker has {versions()}, the course needs {task.versions}")
    t0 = time.perf_counter()
    sweep_private_copies()
    with tempfile.TemporaryDirectory(prefix=f"{PRIVATE_PREFIX}{os.getpid()}-") as tmp:
        root = Path(tmp)
        (root / "nbgrader_config.py").write_text(task.config)
        (root / "gradebook.db").write_bytes(task.gradebook)
        write_tree(root / "submitted" / task.student / task.assignment, task.submission)
        write_tree(root / "source" / task.assignment, task.source_files)
        cfg = Config()
        cfg.merge(PyFileConfigLoader("nbgrader_config.py", path=tmp).load_config())
        cfg.CourseDirectory.root = tmp
        cfg.CourseDirectory.source_directory = "source"
        cfg.CourseDirectory.submitted_directory = "submitted"
        cfg.CourseDirectory.autograded_directory = "autograded"
        cfg.CourseDirectory.feedback_directory = "feedback"
        cfg.CourseDirectory.db_url = f"sqlite:///{root / 'gradebook.db'}"
        cfg.CourseDirectory.course_id = task.course_id
        if task.fork:
            fork_kernels(cfg)
        api = NbGraderAPI(config=cfg)
        hit: list[bool] = []
        with _deadline(task.timeout, hit), watch_template() as killed, warnings.catch_warnings():
            warnings.filterwarnings("ignore", NOISE)
            out = api.autograde(task.assignment, task.student, force=True, create=True)
        ok, reason = out["success"] and not hit and not killed, ""
        if hit:
            reason = f"{TIMED_OUT} {task.timeout:g} s"
        elif killed:  # its kernel died with it; a started kernel's parent would have been this worker
            reason = "the submission killed its kernel's parent process"
        elif not out["success"]:
            reason = _failure(out)
        timestamp: Any = None
        notebooks: dict[str, dict[str, Any]] = {}
        if not hit:  # nbgrader's own rows, also for a notebook it failed (a dead kernel): as serial grading
            with Gradebook(cfg.CourseDirectory.db_url, task.course_id) as gb:
                with contextlib.suppress(Exception):
                    timestamp, notebooks = submission_rows(gb, task.assignment, task.student)
        out_dir = root / "autograded" / task.student / task.assignment
        files = read_tree(out_dir) if out_dir.is_dir() else {}
        feedback: dict[str, bytes] = {}
        if ok and task.feedback:  # the feedback HTML as nbgrader generate_feedback writes it (the course's config)
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", NOISE)
                fb = api.generate_feedback(task.assignment, task.student, force=True)
            fb_dir = root / "feedback" / task.student / task.assignment
            if fb["success"] and fb_dir.is_dir():
                feedback = read_tree(fb_dir)
        seconds = time.perf_counter() - t0
        return Result(task.student, ok, reason, seconds, files, timestamp, notebooks, out.get("log", ""), feedback)


def sweep_private_copies(tmpdir: str | None = None) -> list[Path]:
    """Remove the private course copies of workers that died mid-grade (a killed worker cannot clean up
    after itself); each copy is named after its worker's process id. Returns what was removed."""
    removed = []
    for path in Path(tmpdir or tempfile.gettempdir()).glob(f"{PRIVATE_PREFIX}*-*"):
        pid = path.name[len(PRIVATE_PREFIX) :].split("-", 1)[0]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def _failure(out: dict[str, Any]) -> str:
    """Why nbgrader's autograde failed, in the words an instructor needs (its own last line only says "see above")."""
    if "DeadKernelError" in out.get("log", "") + out.get("error", ""):
        return "its kernel died (the notebook ended or crashed its Python process)"
    return "nbgrader autograde failed: " + _last_line(out.get("error", ""))


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:300] if lines else "no error message"
