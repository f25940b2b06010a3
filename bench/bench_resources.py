"""CPU and memory one student's kernel needs: every chapter and lab notebook run top to bottom.

    .venv/bin/python bench/bench_resources.py [--notebooks 03 lab1 ...] [--check]

For each notebook, a fresh kernel runs every cell (as Run All does) while this script samples the kernel
process tree's resident memory every 50 ms. It prints the peak memory, the CPU seconds used and the wall
time, the numbers docs/instructor.md turns into per-student limits. The lab notebooks start their own
simulator, whose process is counted with the kernel's.

Limit (``--check``; the test suite's until issue 29): a notebook's Run All takes ≤ 90 s of wall time (target
≤ 20 s each).
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path

from _harness import Limits, add_check

REPO = Path(__file__).resolve().parents[1]
PAGE = os.sysconf("SC_PAGE_SIZE")
TICK = os.sysconf("SC_CLK_TCK")


def _tree(pid: int) -> list[int]:
    found, todo = [pid], [pid]
    while todo:
        for task in Path(f"/proc/{todo.pop()}/task").glob("*"):
            try:
                kids = [int(k) for k in (task / "children").read_text().split()]
            except OSError:
                continue
            found += kids
            todo += kids
    return found


def _rss_and_cpu(pids: list[int]) -> tuple[int, float]:
    rss, cpu = 0, 0.0
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            rss += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
            cpu += (int(stat[11]) + int(stat[12])) / TICK  # utime + stime
        except (OSError, IndexError):
            continue
    return rss, cpu


def run(path: Path) -> tuple[float, float, float]:
    """(peak MB, CPU s, wall s) of one notebook in a fresh kernel."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}})
    peak, cpu_seen = [0], {}
    stop = threading.Event()

    def sample() -> None:
        while not stop.wait(0.05):
            km = client.km
            pid = getattr(getattr(km, "provisioner", None), "pid", None) if km else None
            if pid:
                pids = _tree(pid)
                rss, _ = _rss_and_cpu(pids)
                peak[0] = max(peak[0], rss)
                for p in pids:
                    # keep the largest: a process that is exiting reads as 0
                    cpu_seen[p] = max(cpu_seen.get(p, 0.0), _rss_and_cpu([p])[1])

    t0 = time.perf_counter()
    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        client.execute()
    finally:
        stop.set()
        thread.join()
    return peak[0] / 2**20, sum(cpu_seen.values()), time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--notebooks", nargs="*", help="name prefixes (default: every chapter and lab)")
    add_check(ap)
    args = ap.parse_args()
    limits = Limits()
    paths = sorted((REPO / "course").glob("*.ipynb"))
    if args.notebooks:
        paths = [p for p in paths if p.stem.startswith(tuple(args.notebooks))]
    print(f"{'notebook':32s} {'peak MB':>8s} {'CPU s':>7s} {'wall s':>7s}")
    rows = []
    for path in paths:
        peak, cpu, wall = run(path)
        rows.append((peak, cpu))
        print(f"{path.stem:32s} {peak:8.0f} {cpu:7.1f} {wall:7.1f}", flush=True)
        limits.at_most(f"{path.stem}: Run All (s)", wall, 90.0)
    print(f"largest peak {max(r[0] for r in rows):.0f} MB; most CPU {max(r[1] for r in rows):.1f} s for one Run All")
    return limits.exit_code(args.check)


if __name__ == "__main__":
    sys.exit(main())
