"""Slider-to-scene latency of the chapter 04 Jacobian explorer (armlab.viz.jacobians), kernel side.

One "move" = set a joint slider's value (as a drag does) → the callback runs (fkine, jacob0, two SVDs for
the ellipsoids and one for the readouts, moves the artists, writes the readout) and sends the scene to
the canvas (``Panel.redraw``). The browser draws it; nothing is rendered in the kernel. Reported per
robot: median and 95th percentile of a move, and the size of the scene sent. Target: median ≤ 50 ms.

    python bench/bench_viz_jacobians.py                # 200 moves per robot
    python bench/bench_viz_jacobians.py --moves 50 --check
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402

from armlab import models, viz  # noqa: E402

TARGET_MS = 50.0
CASES = {
    "PUMA560": (models.puma560, np.radians([20, -30, -60, 40, 35, 50])),
    "youBot": (models.youbot, np.array([0.3, 0.4, -0.8, 1.0, 0.2])),
    "planar 2R": (lambda: models.planar2r(1.0, 0.6), np.radians([30, 60])),
}


def bench(make, q0, moves, seed=0):
    robot = make()
    panel = viz.jacobian_explorer(robot, q0)
    rng = np.random.default_rng(seed)
    ms = np.zeros(moves)
    for k in range(moves):
        s = panel.sliders[k % robot.n]
        value = float(rng.uniform(s.min, s.max))
        t0 = time.perf_counter()
        s.value = value
        ms[k] = 1e3 * (time.perf_counter() - t0)
    assert panel.redraws == moves, "a move must send the scene exactly once"
    kb = len(json.dumps(panel.scenes[0].widget.scene)) / 1024
    return ms, kb


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--check", action="store_true", help=f"exit 1 if a median exceeds {TARGET_MS:g} ms")
    args = ap.parse_args(argv)
    worst = 0.0
    print(f"{'robot':10s} {'median ms':>10s} {'p95 ms':>8s} {'scene kB':>9s}")
    for name, (make, q0) in CASES.items():
        ms, kb = bench(make, q0, args.moves)
        worst = max(worst, float(np.median(ms)))
        print(f"{name:10s} {np.median(ms):10.2f} {np.percentile(ms, 95):8.2f} {kb:9.1f}")
    print(f"target: median ≤ {TARGET_MS:g} ms — {'met' if worst <= TARGET_MS else 'MISSED'}")
    return 1 if args.check and worst > TARGET_MS else 0


if __name__ == "__main__":
    sys.exit(main())
