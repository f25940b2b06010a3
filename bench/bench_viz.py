"""Kernel side of a slider move in the viewers (armlab.viz): callback and scene data, and the still image.

One "move" = set a slider's value (as a drag does) → the panel's callback runs (fkine or IK, moves the
artists in place, updates the matrix / table text) and sends its scene to the browser canvas
(:meth:`armlab.viz.Panel.redraw`: :func:`armlab.viz.browser.axes_payload` of each 3-D axes). That is all
the kernel does for the live view; the browser draws. Reported per move: the callback including the scene
data, and, for comparison, what an Agg render of the same figure costs (the still image of headless runs,
and what the ipympl route had to do on every move). Target for the kernel part: median ≤ 10 ms, leaving
the rest of the 50 ms slider-to-pixels budget to messaging and drawing (bench/bench_browser.py measures
that end to end in Chromium).

    python bench/bench_viz.py            # 200 moves per case
    python bench/bench_viz.py --moves 50 --check   # exit 1 if a median is over target
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from armlab import models, viz

TARGET_MS = 10.0


def _time(move, panel, moves):
    """(callback ms, Agg draw ms) of each move; a move must send the scene exactly once."""
    canvas = panel.fig.canvas
    canvas.draw()  # the first draw builds caches; not a move
    out = np.zeros((moves, 2))
    for k in range(moves):
        before = panel.redraws
        t0 = time.perf_counter()
        move(k)
        t1 = time.perf_counter()
        canvas.draw()
        out[k] = t1 - t0, time.perf_counter() - t1
        assert panel.redraws == before + 1, "a move must send its scene once"
    return 1e3 * out


def bench_arm(robot, q0, moves, seed=0):
    panel = viz.arm_viewer(robot, q0)
    rng = np.random.default_rng(seed)

    def move(k):
        slider = panel.sliders[k % robot.n]
        slider.value = float(rng.uniform(slider.min, slider.max))

    ms = _time(move, panel, moves)
    return ms, np.allclose(panel.T, robot.fkine(panel.q))


def bench_ik(robot, moves, seed=0):
    panel = viz.ik_explorer(robot, follow=False)
    rng = np.random.default_rng(seed)
    targets = robot.fkine(rng.uniform(robot.qlim[:, 0], robot.qlim[:, 1], (moves, robot.n)))
    ms = _time(lambda k: panel.set_T(targets[k]), panel, moves)
    ok = len(panel.sols) > 0 and np.allclose(robot.fkine(panel.chosen.q[0]), panel.T, atol=1e-9)
    return ms, ok


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--check", action="store_true", help=f"exit 1 if a median exceeds {TARGET_MS:g} ms")
    args = ap.parse_args(argv)
    cases = [
        ("PUMA560", lambda: bench_arm(models.puma560(), np.radians([90, 0, -90, 0, 0, 0]), args.moves)),
        ("youBot", lambda: bench_arm(models.youbot(), np.array([0, 0, 0, np.pi / 2, 0]), args.moves)),
        ("IK PUMA", lambda: bench_ik(models.puma560(), args.moves)),
    ]
    print(
        f"slider change -> callback + scene data (the live path); Agg draw (the still image), "
        f"{args.moves} moves each (target: callback median <= {TARGET_MS:g} ms)"
    )
    ok = True
    for name, run in cases:
        ms, T_ok = run()
        live = ms[:, 0]
        median = float(np.median(live))
        verdict = "OK" if median <= TARGET_MS else "OVER TARGET"
        ok &= median <= TARGET_MS and T_ok
        print(
            f"{name:8s} callback + scene {median:5.1f} ms (p90 {np.percentile(live, 90):5.1f}, max {live.max():5.1f})"
            f"   Agg draw {np.median(ms[:, 1]):5.1f} ms   T==fkine: {T_ok}   {verdict}"
        )
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
