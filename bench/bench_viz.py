"""Slider-to-redrawn-figure latency of the arm viewers (armlab.viz).

One "move" = set a joint slider's value (as a drag does) → the viewer's callback
runs fkine, moves the artists in place and asks for a redraw → the figure is
rendered with the Agg canvas (``fig.canvas.draw()``, what ipympl does before it
sends the image to the browser). Target: median ≤ 50 ms.

    python bench/bench_viz.py            # 200 moves per arm
    python bench/bench_viz.py --moves 50 --check   # exit 1 if a median is over target
"""
from __future__ import annotations

import argparse
import sys
import time

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402

from armlab import models, viz  # noqa: E402

TARGET_MS = 50.0


def bench(name, robot, q0, moves, seed=0):
    panel = viz.arm_viewer(robot, q0)
    canvas = panel.fig.canvas
    canvas.draw()  # first draw builds caches; not a slider move
    rng = np.random.default_rng(seed)
    times = []
    for k in range(moves):
        slider = panel.sliders[k % robot.n]
        value = float(rng.uniform(slider.min, slider.max))
        t0 = time.perf_counter()
        slider.value = value
        canvas.draw()
        times.append(time.perf_counter() - t0)
    ms = np.array(times) * 1e3
    T_ok = np.allclose(panel.T, robot.fkine(panel.q))
    return {"name": name, "median": float(np.median(ms)), "p90": float(np.percentile(ms, 90)),
            "max": float(ms.max()), "moves": moves, "T_ok": T_ok}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--check", action="store_true", help=f"exit 1 if a median exceeds {TARGET_MS:g} ms")
    args = ap.parse_args(argv)
    cases = [("PUMA560", models.puma560(), np.radians([90, 0, -90, 0, 0, 0])),
             ("youBot", models.youbot(), np.array([0, 0, 0, np.pi / 2, 0]))]
    print(f"slider change -> callback -> Agg redraw, {args.moves} moves each (target median <= {TARGET_MS:g} ms)")
    ok = True
    for name, robot, q0 in cases:
        r = bench(name, robot, q0, args.moves)
        verdict = "OK" if r["median"] <= TARGET_MS else "OVER TARGET"
        ok &= r["median"] <= TARGET_MS and r["T_ok"]
        print(f"{name:8s} median {r['median']:6.1f} ms   p90 {r['p90']:6.1f} ms   max {r['max']:6.1f} ms   "
              f"T==fkine: {r['T_ok']}   {verdict}")
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
