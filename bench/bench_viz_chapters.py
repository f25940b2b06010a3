"""Kernel side of one slider step in the chapter 03, 06, 07 and 08 widgets, as bench_browser presses them.

One "step" = a slider's value moved by one step (as an arrow key does) → the panel's callback runs and
sends its figures. Reported per widget: median and p90 of the whole callback and of the time until the
first figure (the canvas's scene or an SVG plot) was sent: the excitation explorer draws before it
identifies. The explorer is timed on values it has not seen (its trajectories are remembered per
harmonics and amplitude) and on the two values a key press goes back and forth between.

    python bench/bench_viz_chapters.py            # 20 steps per case
    python bench/bench_viz_chapters.py --steps 50
    python bench/bench_viz_chapters.py --check    # exit 1 if a widget's first picture takes over 50 ms

Limit (``--check``): the median time until a widget's first figure is sent ≤ 50 ms, the whole slider-to-pixels
budget (the test suite's limit on the kernel side until issue 29; the browser adds about 35 ms: bench_browser.py).
"""

from __future__ import annotations

import argparse
import sys
import time

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402

from armlab import models, sim, viz  # noqa: E402

from _harness import Limits, add_check  # noqa: E402

LIMIT_MS = 50.0


def _steps(panel, slider, values, plots=()):
    """(callback ms, ms until the first figure was sent: the canvas's scene or a plot column in ``plots``) of
    each value set on ``slider``."""
    sent = []
    for widget, trait in [(panel.scenes[0].widget, "scene")] + [(p.widget, "points") for p in plots]:
        widget.observe(lambda _: sent.append(time.perf_counter()), names=trait)
    out = []
    for v in values:
        sent.clear()
        t0 = time.perf_counter()
        slider.value = float(v)
        t1 = time.perf_counter()
        out.append((t1 - t0, (sent[0] if sent else t1) - t0))
    return 1e3 * np.array(out)


def back_and_forth(slider, n, start=None):
    v0 = slider.value if start is None else start
    return [v0 + slider.step if k % 2 == 0 else v0 for k in range(n)]


def cases(n):
    puma = models.puma560()
    q_ex = np.radians([30, -40, -60, 20, 45, -30])
    ik = viz.ik_explorer(puma, pose=puma.fkine(q_ex), q_current=q_ex)
    ik.set_T(puma.fkine(np.radians([20, -30, 40, 0, 0, 0])))  # where chapter 03's Run All leaves it
    yield "03 IK explorer: x", _steps(ik, ik.pose_sliders["x"], back_and_forth(ik.pose_sliders["x"], n))
    yield "03 IK explorer: yaw", _steps(ik, ik.pose_sliders["yaw"], back_and_forth(ik.pose_sliders["yaw"], n))

    arm = models.planar2r(0.8, 0.6, 1.5, 0.7)
    fall = sim.simulate(arm, [0.0, 0.0], [0.0, 0.0], t_end=4.0, dt=1e-3, gravity=(0.0, -9.81, 0.0))
    player = viz.trajectory_player(arm, {"a": fall, "b": fall}, energy={"a": fall.energy}, view=(90.0, -90.0))
    yield "06 trajectory player: t = 2 s", _steps(player, player.time, back_and_forth(player.time, n, 2.0))
    split = viz.torque_split_explorer()
    rates = np.random.default_rng(0).uniform(-5, 5, n)
    yield "06 torque split: joint 1's rate", _steps(split, split.rates[0], rates)

    ex = viz.excitation_explorer(harmonics=3, amplitude=0.8, noise=0.02)
    s = ex.sliders["amplitude"]
    new = [v for v in np.round(np.arange(0.05, 1.5001, 0.05), 2) if v != 0.8][:n]
    yield "07 excitation: amplitude, new values", _steps(ex, s, new, (ex.plot,))
    s = ex.sliders["harmonics"]
    s.value = 3.0
    yield "07 excitation: harmonics 3 <-> 4", _steps(ex, s, back_and_forth(s, n, 3.0), (ex.plot,))

    lab = viz.control_lab("paper")
    plots = (lab.plots,)
    yield "08 control lab (paper): ω", _steps(lab, lab.omega, back_and_forth(lab.omega, n), plots)
    task = viz.task_player(models.paper_3r(), lab.result, every=5)
    yield "08 task player: step 500", _steps(task, task.step, back_and_forth(task.step, n, 500.0))
    yb = viz.control_lab("youbot", controller="PD + gravity", payload=1.0)
    plots = (yb.plots,)
    yield "08 control lab (youBot): ω", _steps(yb, yb.omega, back_and_forth(yb.omega, n), plots)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=20)
    add_check(ap)
    args = ap.parse_args(argv)
    limits = Limits()
    print(f"{'widget: slider':40s} {'callback p50':>12s} {'p90':>7s} {'picture p50':>12s} {'p90':>7s}  (ms)")
    for name, ms in cases(args.steps):
        print(
            f"{name:40s} {np.median(ms[:, 0]):12.1f} {np.percentile(ms[:, 0], 90):7.1f} "
            f"{np.median(ms[:, 1]):12.1f} {np.percentile(ms[:, 1], 90):7.1f}"
        )
        limits.at_most(f"{name}: first picture, median (ms)", float(np.median(ms[:, 1])), LIMIT_MS)
    return limits.exit_code(args.check)


if __name__ == "__main__":
    sys.exit(main())
