"""No test reads a clock to decide (issue 29): limits on time live in bench/, behind --check.

A test may bound a wait (a deadline that turns a hang into a failure), so ``time.monotonic`` may appear; what
must not is a timer of the kind that measures (``perf_counter``, ``process_time``, ``timeit``) or an assertion
on a latency, an elapsed time or a speed-up. ``tests/support/nbgrader_harness.py`` records how long each
submission took for bench/bench_grading.py, which is where that is checked.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
BENCH = TESTS.parent / "bench"
TIMERS = re.compile(r"\b(perf_counter|process_time|timeit)\b")
TIMED_ASSERT = re.compile(r"^\s*assert .*\b(p50|p90|p99|elapsed|latency|median_ms|speed_?up|total_time)\b")
RECORDS_TIMES = {"support/nbgrader_harness.py"}


def clock_reads(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if TIMERS.search(line) or TIMED_ASSERT.search(line)]


def test_no_test_times_anything():
    found = {
        str(p.relative_to(TESTS)): hits
        for p in sorted(TESTS.rglob("*.py"))
        if p != Path(__file__)
        and str(p.relative_to(TESTS)) not in RECORDS_TIMES
        and (hits := clock_reads(p.read_text()))
    }
    assert not found, f"tests that time something (move the limit to a benchmark's --check): {found}"


TIMED = "    t0 = time.perf_counter()\n    assert elapsed < 30\n    assert p99 <= 5.0\n"  # what the check must see


def test_the_check_sees_a_timed_assertion():
    assert clock_reads(TIMED) == [
        "t0 = time.perf_counter()",
        "assert elapsed < 30",
        "assert p99 <= 5.0",
    ]
    assert clock_reads("deadline = time.monotonic() + 5\nassert state.seq > 0\n") == []


@pytest.fixture
def bench_run(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    import run

    yield run
    sys.modules.pop("run", None)


def test_every_limit_that_left_the_suite_has_a_benchmark_with_check(bench_run):
    """The limits the suite once asserted, each in a benchmark that ``./run.sh bench --check`` runs."""
    with_limits = {p.stem for p in bench_run.scripts() if bench_run.has_limits(p)}
    assert {
        "bench_kinematics",  # import time
        "bench_viz_chapters",  # chapters 03, 06, 08 widgets
        "bench_viz_jacobians",  # chapter 04
        "bench_statics",  # chapter 05
        "bench_viz",  # the IK explorer
        "bench_resources",  # time per notebook
        "bench_lagrange",  # the symbolic PUMA560
        "bench_identification",  # 20k samples
        "bench_lab",  # the stalled stream's hold
        "bench_lab_load",  # a class on the simulator and through the gate
        "bench_grading",  # the homework batch
        "bench_browser",  # slider to pixels
    } <= with_limits
