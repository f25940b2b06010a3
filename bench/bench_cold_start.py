"""Cold start of chapter 07's and chapter 08's widgets: a fresh Python with an empty $HOME (so no cache of any
library's), `import armlab`, build the widget, move its first slider by one step. Each case runs in its own
process, so every kernel is traced and every loop built inside the time measured.

    python bench/bench_cold_start.py            # each case once
    python bench/bench_cold_start.py --repeat 3 # the median of 3 fresh processes per case

Target (issue 34): build + first slider move <= 2 s per widget, any compilation included.
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


def run(case: str) -> dict[str, float]:
    """One fresh process with an empty home and cache directories."""
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "HOME": home, "XDG_CACHE_HOME": str(Path(home) / ".cache"), "MPLCONFIGDIR": home}
        out = subprocess.run(
            [sys.executable, "-c", CASE, case], env=env, capture_output=True, text=True, timeout=600, check=True
        )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args(argv)
    print(f"{'widget':28s} {'import':>8s} {'build':>8s} {'1st move':>9s} {'total':>8s}  (s, median of {args.repeat})")
    for case in CASES:
        runs = [run(case) for _ in range(args.repeat)]
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        mark = "OK" if med["total"] <= 2.0 else "over 2 s"
        print(f"{case:28s} {med['import']:8.2f} {med['build']:8.2f} {med['move']:9.3f} {med['total']:8.2f}  {mark}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
