"""Slider-to-redrawn-figure latency of the viewers (armlab.viz), measured in the kernel.

One "move" = set a slider's value (as a drag does) → the panel's callback runs (fkine or IK, moves
the artists in place, updates the matrix / table text) and asks for ``draw_idle`` → the figure is
rendered once with the Agg canvas (``fig.canvas.draw()``, what ipympl does before it sends the
image to the browser). ``draw_idle`` is counted, not run, during the callback: under ipympl it only
schedules the one draw that follows. Reported per move: the callback, the draw, and their sum.
Target: median sum ≤ 50 ms.

    python bench/bench_viz.py            # 200 moves per case
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


def _deferred_draws(panel):
    """Make ``draw_idle`` only count requests, as ipympl's does until the event loop runs."""
    canvas = panel.fig.canvas
    canvas.draw()  # the first draw builds caches; not a move
    requests = []
    canvas.draw_idle = lambda *a, **k: requests.append(1)
    return canvas, requests


def _time(move, canvas, requests, moves):
    """(callback ms, draw ms) of each move; a move must request exactly one redraw."""
    out = np.zeros((moves, 2))
    for k in range(moves):
        before = len(requests)
        t0 = time.perf_counter()
        move(k)
        t1 = time.perf_counter()
        canvas.draw()
        out[k] = t1 - t0, time.perf_counter() - t1
        assert len(requests) == before + 1, "a move must ask for one redraw"
    return 1e3 * out


def bench_arm(robot, q0, moves, seed=0):
    panel = viz.arm_viewer(robot, q0)
    canvas, requests = _deferred_draws(panel)
    rng = np.random.default_rng(seed)

    def move(k):
        slider = panel.sliders[k % robot.n]
        slider.value = float(rng.uniform(slider.min, slider.max))

    ms = _time(move, canvas, requests, moves)
    return ms, np.allclose(panel.T, robot.fkine(panel.q))


def bench_ik(robot, moves, seed=0):
    panel = viz.ik_explorer(robot, follow=False)
    canvas, requests = _deferred_draws(panel)
    rng = np.random.default_rng(seed)
    targets = robot.fkine(rng.uniform(robot.qlim[:, 0], robot.qlim[:, 1], (moves, robot.n)))
    ms = _time(lambda k: panel.set_T(targets[k]), canvas, requests, moves)
    ok = len(panel.sols) > 0 and np.allclose(robot.fkine(panel.chosen.q[0]), panel.T, atol=1e-9)
    return ms, ok


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--check", action="store_true", help=f"exit 1 if a median exceeds {TARGET_MS:g} ms")
    args = ap.parse_args(argv)
    cases = [("PUMA560", lambda: bench_arm(models.puma560(), np.radians([90, 0, -90, 0, 0, 0]), args.moves)),
             ("youBot", lambda: bench_arm(models.youbot(), np.array([0, 0, 0, np.pi / 2, 0]), args.moves)),
             ("IK PUMA", lambda: bench_ik(models.puma560(), args.moves))]
    print(f"slider change -> callback -> one Agg draw, {args.moves} moves each, medians "
          f"(target: callback + draw <= {TARGET_MS:g} ms)")
    ok = True
    for name, run in cases:
        ms, T_ok = run()
        total = ms.sum(axis=1)
        median = float(np.median(total))
        verdict = "OK" if median <= TARGET_MS else "OVER TARGET"
        ok &= median <= TARGET_MS and T_ok
        print(f"{name:8s} callback {np.median(ms[:, 0]):5.1f} ms   draw {np.median(ms[:, 1]):5.1f} ms   "
              f"sum {median:5.1f} ms (p90 {np.percentile(total, 90):5.1f}, max {total.max():5.1f})   "
              f"T==fkine: {T_ok}   {verdict}")
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
