"""Autograde timings: one solution submission per homework notebook, then the adversarial set.

    PATH=.venv/bin:$PATH .venv/bin/python bench/bench_grading.py [--timeout 10] [--quick] [--check]

Uses the committed nbgrader_config.py (per-cell timeout 10 s unless --timeout is given) on a
temporary copy of the course, in-process via nbgrader's NbGraderAPI, with the harness and the
students of tests/integration/test_homework.py (tests/support/nbgrader_harness.py). ``--quick`` grades only
the solution submissions. Limit (``--check``; the test suite's until issue 29): the whole batch, every homework's
students, in ≤ 480 s on a shared 2-core machine; every score as expected.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
os.environ["PATH"] = str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")  # alembic

from _harness import Limits, add_check  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=int, default=None, help="per-cell Execute.timeout (default: the config's)")
    ap.add_argument("--quick", action="store_true", help="solution submissions only")
    add_check(ap)
    args = ap.parse_args()
    limits = Limits()
    logging.disable(logging.WARNING)
    warnings.filterwarnings("ignore", "Object of type .* not in session")  # nbgrader's SQLAlchemy noise, as in pytest

    from support import nbgrader_harness as h

    timeout = args.timeout if args.timeout is not None else h.load_config().Execute.timeout
    assignments = h.HOMEWORK
    select = [(a, "solution") for a in assignments] if args.quick else None
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        r = h.run_batch(Path(tmp) / "course", assignments, timeout=timeout, select=select)
        total = time.perf_counter() - t0
        print(f"nbgrader autograde, per-cell timeout {timeout} s, {len(r['graded'])} submissions")
        print(f"{'assignment':26s} {'student':20s} {'time (s)':>8s} {'score':>11s} {'expected':>8s}  ok")
        for key, (res, (score, mx, _)) in r["graded"].items():
            a, student = key
            exp = r["expected"][key]
            flag = "ok" if score == exp else "MISMATCH"
            dead = "" if res["success"] else "  (autograde reported failure: dead/unresponsive kernel)"
            print(f"{a:26s} {student:20s} {r['times'][key]:8.1f} {score:5.1f}/{mx:<5.1f} {exp:8.1f}  {flag}{dead}")
        sol = [r["times"][(a, "solution")] for a in assignments if (a, "solution") in r["times"]]
        adv = [t for k, t in r["times"].items() if k[1] != "solution"]
        print(f"solution notebooks: {', '.join(f'{t:.1f}' for t in sol)} s (mean {sum(sol) / len(sol):.1f} s)")
        if adv:
            print(f"adversarial + other submissions: {len(adv)} in {sum(adv):.1f} s (max {max(adv):.1f} s)")
        print(f"whole batch incl. generate_assignment: {total:.1f} s")
        if not args.quick:
            limits.at_most("whole batch (s)", total, 480.0)
        mismatches = sum(score != r["expected"][key] for key, (_, (score, _, _)) in r["graded"].items())
        limits.at_most("scores other than expected", mismatches, 0)
    return limits.exit_code(args.check)


if __name__ == "__main__":
    sys.exit(main())
