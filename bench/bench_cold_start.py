"""Cold start of chapter 07's and chapter 08's widgets: a fresh Python with an empty $HOME (so no cache of any
library's), `import armlab`, build the widget, move its first slider by one step. Each case runs in its own
process, so every kernel is traced and every loop built inside the time measured.

    python bench/bench_cold_start.py            # each case once
    python bench/bench_cold_start.py --repeat 3 # the median of 3 fresh processes per case
    python bench/bench_cold_start.py --check    # exit 1 if a case takes over 2 s

Limit (issue 34, ``--check``): build + first slider move <= 2 s per widget, any compilation included (and
matplotlib's font cache, built on first use in an empty $HOME); the import is printed beside it.
Also printed: what each case wrote to its empty $HOME besides matplotlib's font cache (nothing: CasADi
compiles nothing and keeps no cache on disk, so a read-only site-packages and a fresh $HOME are all it needs).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _harness import Limits, add_check

CASE = r"""
import json, sys, time
t0 = time.perf_counter()
import matplotlib
matplotlib.use("Agg")
import armlab
from armlab import viz
t_import = time.perf_counter() - t0
which = sys.argv[1]
t1 = time.perf_counter()
if which == "07 excitation explorer":
    w = viz.excitation_explorer(harmonics=3, amplitude=0.8, noise=0.02)
    slider = w.sliders["amplitude"]
elif which == "08 control lab (paper)":
    w = viz.control_lab("paper")
    slider = w.omega
else:
    w = viz.control_lab("youbot", controller="PD + gravity", payload=1.0)
    slider = w.omega
t2 = time.perf_counter()
slider.value = slider.value + slider.step
t3 = time.perf_counter()
print(json.dumps({"import": t_import, "build": t2 - t1, "move": t3 - t2, "total": t3 - t0}))
"""

CASES = ("07 excitation explorer", "08 control lab (paper)", "08 control lab (youBot)")
LIMIT_S = 2.0


def run(case: str) -> tuple[dict[str, float], list[str]]:
    """One fresh process with an empty home and cache directories: its times, and the files it left there
    (matplotlib's own, in a directory of their own, aside)."""
    with tempfile.TemporaryDirectory() as home:
        mpl = Path(home) / "matplotlib"
        env = {**os.environ, "HOME": home, "XDG_CACHE_HOME": str(Path(home) / ".cache"), "MPLCONFIGDIR": str(mpl)}
        out = subprocess.run(
            [sys.executable, "-c", CASE, case], env=env, capture_output=True, text=True, timeout=600, check=True
        )
        written = [str(p.relative_to(home)) for p in Path(home).rglob("*") if p.is_file() and mpl not in p.parents]
    return json.loads(out.stdout.strip().splitlines()[-1]), written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=1)
    add_check(ap)
    args = ap.parse_args(argv)
    limits = Limits()
    print(f"{'widget':28s} {'import':>8s} {'build':>8s} {'1st move':>9s} {'total':>8s}  (s, median of {args.repeat})")
    for case in CASES:
        runs, written = zip(*(run(case) for _ in range(args.repeat)))
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        print(f"{case:28s} {med['import']:8.2f} {med['build']:8.2f} {med['move']:9.3f} {med['total']:8.2f}")
        print(f"  written to the empty $HOME: {sorted(set(sum(written, []))) or 'nothing'}")
        limits.at_most(f"{case}: build + first move (s)", med["build"] + med["move"], LIMIT_S)
    return limits.exit_code(args.check)


if __name__ == "__main__":
    sys.exit(main())
