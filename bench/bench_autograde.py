"""A class of hw01 submissions graded twice in one run: serial ``nbgrader autograde`` against
``armlab-grade --workers N`` (Dask LocalCluster), wall times, the ratio, and whether every score matched.

    PATH=.venv/bin:$PATH .venv/bin/python bench/bench_autograde.py [--students 200] [--workers 2]

The students cycle through right, partly wrong, blank and adversarial notebooks (tests/support's hw01
builders: monkeypatching, deleted and stripped test cells, a million printed lines, a dead kernel).
Also reports the per-notebook overhead that is not the student's code: a kernel start, and the
imports of the setup cell, for a kernel started as nbgrader starts it and for one that armlab-grade forks from
its warm template (``armlab.autograde.forked_kernels``).
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
BIN = Path(sys.executable).parent
os.environ["PATH"] = str(BIN) + os.pathsep + os.environ.get("PATH", "")  # nbgrader runs alembic
A = "hw01_transforms"
MIX = (
    "solution",
    "wrong",
    "blank",
    "solution",
    "monkeypatch",
    "deleted_tests",
    "stripped_solution",
    "solution",
    "million_lines",
    "edited_tests",
    "os_exit",
    "wrong",
)


def make_course(root: Path, students: int) -> None:
    import nbformat
    from nbgrader.apps import NbGraderAPI
    from traitlets.config import Config

    from support.nbgrader_harness import hw01_submissions, load_config

    shutil.copytree(REPO / "solutions" / A, root / "solutions" / A)
    shutil.copy(REPO / "nbgrader_config.py", root / "nbgrader_config.py")
    cfg = load_config()
    cfg.merge(Config({"CourseDirectory": {"root": str(root)}}))
    assert NbGraderAPI(config=cfg).generate_assignment(A)["success"]
    solution = nbformat.read(root / "solutions" / A / f"{A}.ipynb", as_version=4)
    blank = nbformat.read(root / "exercises" / A / f"{A}.ipynb", as_version=4)
    kinds = hw01_submissions(solution, blank)
    for i in range(students):
        kind = MIX[i % len(MIX)]
        dest = root / "submitted" / f"s{i:03d}_{kind}" / A / f"{A}.ipynb"
        dest.parent.mkdir(parents=True)
        nbformat.write(kinds[kind], str(dest))


def grades(root: Path) -> dict:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gb:
        return {
            s.student.id: {g.name: (g.auto_score, g.needs_manual_grade) for nb in s.notebooks for g in nb.grades}
            for s in gb.find_assignment(A).submissions
        }


def timed(cmd: list[str], cwd: Path) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # exit 1: the dead kernel
    return time.perf_counter() - t0


def overhead(forked: bool) -> tuple[float, float]:
    """(kernel start to first reply, the setup cell's imports) in seconds, in a fresh kernel: started as
    nbgrader starts it, or forked from the batch grader's warm template (armlab.autograde.forked_kernels)."""
    import asyncio

    from jupyter_client.manager import AsyncKernelManager

    from armlab.autograde.forked_kernels import ForkedKernelManager

    async def measure() -> tuple[float, float]:
        t0 = time.perf_counter()
        km = (ForkedKernelManager if forked else AsyncKernelManager)(kernel_name="python3")
        await km.start_kernel()
        kc = km.client()
        kc.start_channels()
        await kc.wait_for_ready(timeout=60)
        start = time.perf_counter() - t0
        t0 = time.perf_counter()
        await kc.execute_interactive("import numpy as np, sympy as sp, armlab, armlab.grading", timeout=60)
        imports = time.perf_counter() - t0
        kc.stop_channels()
        await km.shutdown_kernel(now=True)
        return start, imports

    return asyncio.run(measure())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--students", type=int, default=200)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    logging.disable(logging.WARNING)
    warnings.filterwarnings("ignore", "Object of type .* not in session")
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "course"
        make_course(base, args.students)
        serial, batch = Path(tmp) / "serial", Path(tmp) / "batch"
        shutil.copytree(base, serial)
        shutil.copytree(base, batch)
        t_serial = timed([str(BIN / "nbgrader"), "autograde", A], serial)
        # --no-feedback: the same work as serial autograde (armlab-grade writes the feedback HTML by default)
        batch_cmd = [sys.executable, "-m", "armlab.autograde.batch", A, "--workers", str(args.workers), "--no-feedback"]
        t_batch = timed(batch_cmd, batch)
        g_serial, g_batch = grades(serial), grades(batch)
        same = g_serial == g_batch and len(g_serial) == args.students
        started = [overhead(False) for _ in range(3)]
        forked = [overhead(True) for _ in range(4)][1:]  # the first one starts the template
    print(f"{args.students} hw01 submissions ({', '.join(sorted(set(MIX)))})")
    print(f"serial nbgrader autograde:          {t_serial:7.1f} s  ({t_serial / args.students:.2f} s per notebook)")
    print(
        f"armlab-grade --workers {args.workers}:          {t_batch:7.1f} s  ({t_batch / args.students:.2f} s per notebook)"
    )
    print(f"ratio serial / parallel:            {t_serial / t_batch:7.2f}x   (target >= 1.8x on 2 cores)")
    print(f"every score of every cell matched:  {same}")
    for name, runs in (("nbgrader's kernels", started), ("armlab-grade's forked kernels", forked)):
        start, imports = (min(x) for x in zip(*runs))
        print(f"per-notebook overhead, {name}: kernel start {start:.2f} s, setup imports {imports:.2f} s (best of 3)")


if __name__ == "__main__":
    main()
