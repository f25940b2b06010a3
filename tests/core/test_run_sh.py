"""``./run.sh test``, what CI runs (``.ci/run``): pytest with the static checks beside it; with arguments, just pytest.
``./run.sh course``: the working copy, then JupyterLab on it at the start page.

run.sh is sourced with its installation steps stubbed out and a fake ``.venv/bin/python`` that records how
it was called, so the steps and what a failing check does are checked without installing anything.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration  # starts processes or servers

ROOT = Path(__file__).resolve().parents[2]
CHECKS = ["-m ruff check", "-m ruff format --check", "-m mypy"]
FULL = "-m pytest -n 3 --dist loadgroup"  # the whole suite on three processes

FAKE_PYTHON = """#!/usr/bin/env bash
echo "$*" >> "$CALLS"
[[ -n "${FAIL:-}" && "$*" == *"$FAIL"* ]] && exit 1
exit 0
"""

FAKE_JUPYTER = """#!/usr/bin/env bash
echo "jupyter $* @ $PWD" >> "$CALLS"
"""

DRIVER = """
set -euo pipefail
source "$REPO/run.sh"
VENV="$FAKE_VENV"
ensure_venv() { :; }; ensure_installed() { :; }; ensure_chromium() { :; }; ensure_cjk_font() { :; }; activate_venv() { :; }; compile_lib() { :; }
main "$@"
"""


def run(tmp_path: Path, *args: str, **env: str) -> tuple[int, list[str], str]:
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True, exist_ok=True)
    python = venv / "bin" / "python"
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    jupyter = venv / "bin" / "jupyter"
    jupyter.write_text(FAKE_JUPYTER)
    jupyter.chmod(0o755)
    calls = tmp_path / "calls.txt"
    calls.write_text("")
    environ = {k: v for k, v in os.environ.items() if k not in ("ARMLAB_CHECKS", "FAIL")}
    environ.update(REPO=str(ROOT), FAKE_VENV=str(venv), CALLS=str(calls), **env)
    proc = subprocess.run(
        ["bash", "-c", DRIVER, "driver", *args], env=environ, capture_output=True, text=True, timeout=60
    )
    return proc.returncode, calls.read_text().splitlines(), proc.stderr


def beside(calls: list[str], run: str) -> bool:
    """The checks, in their order, and the pytest run ``run``, in any order between them (they run at once)."""
    return [c for c in calls if c != run] == CHECKS and calls.count(run) == 1


def test_the_full_run_runs_pytest_with_the_checks_beside_it(tmp_path):
    rc, calls, err = run(tmp_path, "test")
    assert rc == 0 and beside(calls, FULL), calls
    assert "static checks passed" in err


def test_with_arguments_only_pytest_runs(tmp_path):
    rc, calls, _ = run(tmp_path, "test", "tests/core", "-q")
    assert (rc, calls) == (0, ["-m pytest tests/core -q"])


@pytest.mark.parametrize(
    "flag, args, expected",
    [
        ("1", ("tests/core",), "-m pytest tests/core"),
        ("0", (), None),
    ],
)
def test_armlab_checks_overrides_the_default(tmp_path, flag, args, expected):
    rc, calls, _ = run(tmp_path, "test", *args, ARMLAB_CHECKS=flag)
    assert rc == 0
    assert beside(calls, expected) if expected else calls == [FULL]


@pytest.mark.parametrize("failing", ["ruff check", "ruff format", "mypy"])
def test_a_failing_check_fails_the_run_after_every_check_and_pytest_ran(tmp_path, failing):
    rc, calls, err = run(tmp_path, "test", FAIL=failing)
    assert rc != 0
    assert beside(calls, FULL), "every check runs, and pytest too"
    assert f"FAILED: {failing}" in err and "static checks failed" in err


def test_a_failing_pytest_fails_the_run_with_its_own_code(tmp_path):
    rc, calls, err = run(tmp_path, "test", FAIL="pytest")
    assert rc == 1 and beside(calls, FULL), (rc, calls)
    assert "static checks passed" in err


def test_quick_runs_the_unit_tests_only_without_the_checks(tmp_path):
    rc, calls, _ = run(tmp_path, "test", "--quick", "-x")
    assert (rc, calls) == (0, ["-m pytest -m unit -n 2 -x"])


def test_a_homework_name_runs_that_homeworks_tests(tmp_path):
    rc, calls, _ = run(tmp_path, "test", "hw03_inverse_kinematics", "-q")
    assert (rc, calls) == (0, ["-m pytest --homework hw03_inverse_kinematics -q"])
    rc, calls, err = run(tmp_path, "test", "hw99_nothing")
    assert rc != 0 and calls == [] and "no homework hw99_nothing" in err


def test_bench_runs_the_benchmarks_with_their_limits(tmp_path):
    rc, calls, _ = run(tmp_path, "bench", "--check")
    assert (rc, calls) == (0, [f"{ROOT}/bench/run.py --check"])


def test_check_runs_only_the_checks(tmp_path):
    rc, calls, _ = run(tmp_path, "check")
    assert (rc, calls) == (0, CHECKS)
    rc, calls, err = run(tmp_path, "check", FAIL="mypy")
    assert rc != 0 and calls == CHECKS and "FAILED: mypy" in err


def test_ci_runs_the_full_command():
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert "./run.sh test" in lines, ".ci/run must run the full ./run.sh test (no arguments: checks included)"


def test_course_opens_the_start_page_of_the_working_copy(tmp_path):
    """The working copy is made or updated first; JupyterLab then serves it (not the repository: no bench,
    lib, solutions or tests in its file browser), from inside it, and the URL it prints opens the start page."""
    work = tmp_path / "my-course"
    (work / "course").mkdir(parents=True)
    (work / "course" / "00_start_here.ipynb").write_text("{}")  # as the working copy script leaves it
    rc, calls, _ = run(tmp_path, "course", "--no-browser", ARMLAB_COURSE_DIR=str(work))
    assert rc == 0 and len(calls) == 2, calls
    assert calls[0] == f"{ROOT}/deploy/working_copy.py {work}"
    args, cwd = calls[1].split(" @ ")
    args = args.split()
    assert args[:2] == ["jupyter", "lab"] and cwd == str(work)
    assert f"--ServerApp.root_dir={work}" in args
    assert "--LabApp.default_url=/lab/tree/course/00_start_here.ipynb" in args
    assert args[-1] == "--no-browser"  # the student's arguments come last
    assert not any(a.startswith("--notebook-dir") or not a.startswith("--") and a.endswith(".ipynb") for a in args)


def test_course_without_a_start_page_opens_the_working_copy_at_its_root(tmp_path):
    work = tmp_path / "my-course"
    work.mkdir()
    rc, calls, _ = run(tmp_path, "course", ARMLAB_COURSE_DIR=str(work))
    assert rc == 0 and f"--ServerApp.root_dir={work}" in calls[1]
    assert "default_url" not in calls[1]
