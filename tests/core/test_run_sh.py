"""``./run.sh test``, what CI runs (``.ci/run``): the static checks, then pytest; with arguments, just pytest.

run.sh is sourced with its installation steps stubbed out and a fake ``.venv/bin/python`` that records how
it was called, so the order of the steps and the stop on a failing check are checked without installing
anything.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHECKS = ["-m ruff check", "-m ruff format --check", "-m mypy"]

FAKE_PYTHON = """#!/usr/bin/env bash
echo "$*" >> "$CALLS"
[[ -n "${FAIL:-}" && "$*" == *"$FAIL"* ]] && exit 1
exit 0
"""

DRIVER = """
set -euo pipefail
source "$REPO/run.sh"
VENV="$FAKE_VENV"
ensure_venv() { :; }; ensure_installed() { :; }; ensure_chromium() { :; }; activate_venv() { :; }
main "$@"
"""


def run(tmp_path: Path, *args: str, **env: str) -> tuple[int, list[str], str]:
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True, exist_ok=True)
    python = venv / "bin" / "python"
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    calls = tmp_path / "calls.txt"
    calls.write_text("")
    environ = {k: v for k, v in os.environ.items() if k not in ("ARMLAB_CHECKS", "FAIL")}
    environ.update(REPO=str(ROOT), FAKE_VENV=str(venv), CALLS=str(calls), **env)
    proc = subprocess.run(
        ["bash", "-c", DRIVER, "driver", *args], env=environ, capture_output=True, text=True, timeout=60
    )
    return proc.returncode, calls.read_text().splitlines(), proc.stderr


def test_the_full_run_checks_first_then_runs_pytest(tmp_path):
    rc, calls, _ = run(tmp_path, "test")
    assert (rc, calls) == (0, CHECKS + ["-m pytest"])


def test_with_arguments_only_pytest_runs(tmp_path):
    rc, calls, _ = run(tmp_path, "test", "tests/core", "-q")
    assert (rc, calls) == (0, ["-m pytest tests/core -q"])


@pytest.mark.parametrize(
    "flag, args, expected",
    [
        ("1", ("tests/core",), CHECKS + ["-m pytest tests/core"]),
        ("0", (), ["-m pytest"]),
    ],
)
def test_armlab_checks_overrides_the_default(tmp_path, flag, args, expected):
    rc, calls, _ = run(tmp_path, "test", *args, ARMLAB_CHECKS=flag)
    assert (rc, calls) == (0, expected)


@pytest.mark.parametrize("failing", ["ruff check", "ruff format", "mypy"])
def test_a_failing_check_stops_the_run_before_pytest_after_every_check_ran(tmp_path, failing):
    rc, calls, err = run(tmp_path, "test", FAIL=failing)
    assert rc != 0
    assert calls == CHECKS, "every check runs, and pytest does not"
    assert f"FAILED: {failing}" in err


def test_check_runs_only_the_checks(tmp_path):
    rc, calls, _ = run(tmp_path, "check")
    assert (rc, calls) == (0, CHECKS)
    rc, calls, err = run(tmp_path, "check", FAIL="mypy")
    assert rc != 0 and calls == CHECKS and "FAILED: mypy" in err


def test_ci_runs_the_full_command():
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert "./run.sh test" in lines, ".ci/run must run the full ./run.sh test (no arguments: checks included)"
