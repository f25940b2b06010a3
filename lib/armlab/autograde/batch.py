"""Autograde a whole class in parallel, on this machine or on a Dask cluster.

``python -m armlab.autograde.batch ASSIGNMENT [--workers N] [--scheduler ADDRESS] [--force]``
(console script ``armlab-grade``), run from the course directory; ``armlab-grade report ASSIGNMENT`` writes the
class report (:mod:`armlab.class_report`).

Every submission gets nbgrader's own autograde (the course's ``nbgrader_config.py``: the same
preprocessors, the same hardening, a fresh kernel, forked from a warm template unless ``--no-fork``:
:mod:`armlab.autograde.forked_kernels`), but in a private copy of the course: its own
directory and its own SQLite gradebook holding the assignment's cells, copied from the course's
gradebook. A task carries everything it needs (the submission, the source's non-notebook files, the
gradebook template, the config) and returns the autograded files and the grade rows, so a worker
needs no shared file system, only the same armlab and nbgrader (checked before grading): :mod:`.worker`.

This process is the gradebook's one writer: it copies each result's rows into the course's
gradebook (SQLite or any ``db_url`` nbgrader supports) as the result arrives, so concurrent workers
never contend for it and no grade is lost or written twice. The scores are those of
``nbgrader autograde``, cell by cell (``tests/integration/test_batch_grading.py`` compares them).

A submission that hangs past ``--timeout``, kills its kernel or kills its worker process gets zero
on every cell, is flagged for manual grading, and the reason goes into the log and into
``autograded/<student>/<assignment>/BATCH_FAILURE.txt``; the batch goes on. A re-run skips what is
graded already (``--force`` grades again). The worker also writes each graded submission's feedback HTML
(``nbgrader generate_feedback``, the course's config) into ``feedback/<student>/<assignment>/``.
:func:`grade_assignment` returns a :class:`~armlab.autograde.batch_report.Summary` (graded, mean score, failures,
timeouts, where the feedback is), which ``armlab-grade`` prints at the end.

Dask (``pip install 'armlab[scale]'``) runs the tasks: ``--workers N`` starts a ``LocalCluster`` of N
single-threaded process workers, at most one per submission to grade (also for N = 1, so that no submission can
take this process down);
``--scheduler tcp://host:8786`` uses a running cluster (for example one from dask-gateway on
JupyterHub). Without Dask, ``--workers 1`` grades one by one in this process, as nbgrader does.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any, Callable

from .batch_report import Progress, Summary
from .gradebook import gradebook_template
from .worker import (
    DEFAULT_TIMEOUT,
    NOISE,
    Result,
    Task,
    read_tree,
    write_tree,
    grade_one,
    sweep_private_copies,
    versions,
)

__all__ = [
    "Task",
    "Result",
    "Progress",
    "Summary",
    "grade_assignment",
    "grade_one",
    "sweep_private_copies",
    "versions",
    "main",
]

FAILURE_FILE = "BATCH_FAILURE.txt"


# --- the course side ---------------------------------------------------------------------------------
def merge(gb: Any, assignment: str, result: Result, course: Path, autograded: str, feedback: str | None = None) -> None:
    """Write one result into the course: the autograded files, the feedback (into ``feedback``, the course's
    feedback folder, when given: a failed submission's old feedback goes), then the gradebook rows."""
    dest = course / autograded / result.student / assignment
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    write_tree(dest, result.files)
    if feedback is not None:
        html = course / feedback / result.student / assignment
        shutil.rmtree(html, ignore_errors=True)
        if result.feedback:
            html.mkdir(parents=True)
            write_tree(html, result.feedback)
    gb.update_or_create_student(result.student)
    if result.timestamp is not None:
        gb.update_or_create_submission(assignment, result.student, timestamp=result.timestamp)
    else:
        gb.update_or_create_submission(assignment, result.student)
    sub = gb.find_submission(assignment, result.student)
    for nb in sub.notebooks:
        rows = result.notebooks.get(nb.name)
        if rows is None:  # failed: zero on every cell, flagged for a person to look at
            nb.flagged = True
            for g in nb.grades:
                g.auto_score, g.needs_manual_grade = 0.0, True
            continue
        nb.flagged, nb.late_submission_penalty = rows["flagged"], rows["late_submission_penalty"]
        for g in nb.grades:
            g.auto_score = rows["grades"][g.name]["auto_score"]
            g.needs_manual_grade = rows["grades"][g.name]["needs_manual_grade"]
        for c in nb.comments:
            c.auto_comment = rows["comments"][c.name]["auto_comment"]
    if not result.ok:
        (dest / FAILURE_FILE).write_text(f"{result.student}: {result.reason}\n")
    gb.db.commit()


def _course_config(course: Path) -> Any:
    from traitlets.config.loader import PyFileConfigLoader

    from nbgrader.coursedir import CourseDirectory

    cfg = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    cfg.CourseDirectory.root = str(course)
    return CourseDirectory(config=cfg)


def _tasks(
    coursedir: Any, course: Path, assignment: str, force: bool, timeout: float, fork: bool, feedback: bool
) -> tuple[list[Task], int]:
    """The submissions to grade, and how many are graded already (skipped without ``force``)."""
    from nbgrader.api import Gradebook

    sub_root = course / coursedir.submitted_directory
    collected = students = sorted(p.parent.name for p in sub_root.glob(f"*/{assignment}") if p.is_dir())
    done_dir = course / coursedir.autograded_directory
    if not force:
        with Gradebook(coursedir.db_url, coursedir.course_id) as gb:
            graded = {s.student.id for s in gb.find_assignment(assignment).submissions}
        students = [
            s
            for s in students
            if not (
                s in graded
                and (done_dir / s / assignment).is_dir()
                and not (done_dir / s / assignment / FAILURE_FILE).exists()
            )
        ]
    source = course / coursedir.source_directory / assignment
    source_files = {
        k: v
        for k, v in read_tree(source).items()
        if not k.endswith(".ipynb") and not any(part.startswith(".") for part in Path(k).parts)
    }
    template = gradebook_template(coursedir.db_url, coursedir.course_id, assignment)
    config = (course / "nbgrader_config.py").read_text()
    here = versions()
    return [
        Task(
            assignment,
            s,
            read_tree(sub_root / s / assignment),
            source_files,
            template,
            config,
            coursedir.course_id,
            timeout,
            here,
            fork,
            feedback,
        )
        for s in students
    ], len(collected) - len(students)


def _run_serial(tasks: list[Task], on_result: Callable[[Result], None]) -> None:
    for task in tasks:
        on_result(grade_one(task))


def _run_dask(tasks: list[Task], on_result: Callable[[Result], None], workers: int, scheduler: str | None) -> None:
    import dask
    from distributed import Client, LocalCluster, as_completed

    with contextlib.ExitStack() as stack:
        if scheduler:
            client = stack.enter_context(Client(scheduler))
        else:
            # a submission that kills its worker is retried once, not three times, then gets zero; one task per
            # worker at a time, so that a worker's death only ever counts against the submission it was grading
            stack.enter_context(
                dask.config.set(
                    {"distributed.scheduler.allowed-failures": 1, "distributed.scheduler.worker-saturation": 1.0}
                )
            )
            cluster = stack.enter_context(
                LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address=None,  # no dashboard; the scheduler's HTTP server on a free loopback port
                    scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},  # (its default, 8787, may be taken)
                )
            )
            client = stack.enter_context(Client(cluster))
            # the workers stop before the cluster closes, their kernel templates first: the cluster's own close gives
            # a worker 4 s to exit, then kills it and logs "Worker process still alive ..., killing" (a loaded machine)
            stack.callback(_stop_workers, cluster, client)
            client.run(_quiet_heartbeat_at_close)
        here = versions()
        for addr, theirs in client.run(versions).items():
            if theirs != here:
                raise SystemExit(
                    f"worker {addr} has {theirs}; this course needs {here}: install the same "
                    "armlab and nbgrader on every worker"
                )
        futures = {client.submit(grade_one, t, pure=False, key=f"grade-{t.assignment}-{t.student}"): t for t in tasks}
        for future in as_completed(list(futures)):
            task = futures.pop(future)
            try:
                result = future.result()
                future.release()  # a result already merged is not recomputed if its worker dies later
            except Exception as e:  # KilledWorker and friends: the submission took its worker down
                name = type(e).__name__
                reason = (
                    "the submission killed its grading worker process"
                    if name == "KilledWorker"
                    else f"grading raised {name}: {e}"
                )
                result = Result(task.student, False, reason)
            on_result(result)


def _quiet_heartbeat_at_close() -> None:
    """In a worker of our local cluster: drop the traceback distributed logs when a closing worker's last heartbeat
    finds the scheduler gone ("Failed to communicate with scheduler during heartbeat", on a loaded machine). It
    says nothing about a submission, and an instructor would read it as the batch failing."""
    import logging

    def keep(record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Failed to communicate with scheduler during heartbeat")

    logging.getLogger("distributed.worker").addFilter(keep)


def _stop_workers(cluster: Any, client: Any, timeout: float = 60.0) -> None:
    """End the workers' kernel templates, then stop the workers of a local cluster, each given ``timeout`` s."""
    import asyncio

    from .forked_kernels import close_template

    if client.status == "running":
        client.run(close_template)

    async def stop() -> None:
        await asyncio.gather(*(nanny.close(timeout=timeout) for nanny in list(cluster.workers.values())))

    cluster.sync(stop)


def grade_assignment(
    assignment: str,
    course: str | Path = ".",
    *,
    workers: int = 1,
    scheduler: str | None = None,
    force: bool = False,
    timeout: float = DEFAULT_TIMEOUT,
    fork: bool = True,
    feedback: bool = True,
    stream: Any = None,
) -> Summary:
    """Autograde every collected submission of ``assignment`` and write its feedback HTML (``feedback``); returns
    the run's :class:`Summary` (iterate over it for one Result per graded student)."""
    from nbgrader.api import Gradebook

    course = Path(course).resolve()
    coursedir = _course_config(course)
    tasks, skipped = _tasks(coursedir, course, assignment, force, timeout, fork, feedback)
    progress = Progress(len(tasks), stream)
    results: list[Result] = []
    with Gradebook(coursedir.db_url, coursedir.course_id) as gb, warnings.catch_warnings():
        warnings.filterwarnings("ignore", NOISE)
        fb_dir = coursedir.feedback_directory if feedback else None

        def on_result(result: Result) -> None:
            merge(gb, assignment, result, course, coursedir.autograded_directory, fb_dir)
            results.append(result)
            progress.update(result)

        if not tasks:
            pass
        elif scheduler is None and importlib.util.find_spec("distributed") is None:
            if workers > 1:
                raise SystemExit("parallel grading needs Dask: pip install 'armlab[scale]' (or use --workers 1)")
            _run_serial(tasks, on_result)  # as nbgrader does: a submission that kills its process stops the batch
        else:
            # no more local workers than submissions: each starts a kernel template (the late student: one)
            _run_dask(tasks, on_result, min(workers, len(tasks)), scheduler)
            if scheduler is None:  # this machine's workers are gone: the copies of any that were killed
                sweep_private_copies()
        scores = {r.student: gb.find_submission(assignment, r.student).score for r in results}
        max_score = gb.find_assignment(assignment).max_score
    feedback_of = sorted((course / coursedir.feedback_directory).glob(f"*/{assignment}"))
    where = {p.parent.name: p for p in feedback_of if any(p.glob("*.html"))}
    return Summary(assignment, results, scores, max_score, where, skipped)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="armlab-grade",
        description=__doc__.split("\n\n")[0],
        epilog="armlab-grade report ASSIGNMENT: what the class got wrong, as reports/ASSIGNMENT.html and .csv",
    )
    parser.add_argument("assignment")
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="local worker processes (default: one per core)"
    )
    parser.add_argument("--scheduler", help="address of a Dask scheduler, e.g. tcp://10.0.0.5:8786")
    parser.add_argument("--force", action="store_true", help="grade again what is graded already")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per submission")
    parser.add_argument("--course", default=".", help="the course directory (default: here)")
    parser.add_argument(
        "--no-feedback",
        dest="feedback",
        action="store_false",
        help="do not write the feedback HTML (nbgrader generate_feedback writes it later)",
    )
    parser.add_argument(
        "--no-fork",
        dest="fork",
        action="store_false",
        help="start every kernel as nbgrader does, instead of forking it from a warm template",
    )
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["report"]:  # the class report: a program of its own (autograde and class_report each stand alone)
        return subprocess.call([sys.executable, "-m", "armlab.class_report", *argv[1:]])
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    summary = grade_assignment(
        args.assignment,
        args.course,
        workers=args.workers,
        scheduler=args.scheduler,
        force=args.force,
        timeout=args.timeout,
        fork=args.fork,
        feedback=args.feedback,
    )
    print(summary, flush=True)
    return 1 if summary.failures or summary.timeouts else 0


if __name__ == "__main__":
    sys.exit(main())
