"""Benchmark of closed-loop simulation (chapter 08): the paper's whole pick-and-place under computed torque,
ours against MuJoCo in the same run, and the youBot at 1 kHz under PD + gravity.

    .venv/bin/python bench/bench_control.py

Targets (issue 14): the paper's task at 0.002 s with computed torque >= 100x real time (MuJoCo, same model
and controller, for comparison); the youBot at 1 kHz with PD+G >= 50x real time. Both sides step the same
controller object (Python) and integrate with semi-implicit Euler; MuJoCo also carries the ball as a free
body with a weld. Times are medians of the loop alone (planning and kernel compilation are one-off and
reported apart); on a loaded machine every number grows, the ratio much less.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from armlab import control, ik, models, sim
from armlab.export import to_mjcf

REPEAT = 7


def median_run(fn, repeat=REPEAT):
    """Median (result, wall seconds of the loop) over `repeat` runs; fn returns a TaskResult."""
    runs = [fn() for _ in range(repeat)]
    walls = [r.wall_time for r in runs]
    return runs[0], statistics.median(walls)


def paper_task():
    arm = models.paper_3r()
    P, g = models.PAPER_3R, models.PAPER_GRAVITY
    t0 = time.perf_counter()
    plan = sim.plan_pick_and_place(
        arm, P["pick"], P["place"], **sim.PAPER_TASK, payload=P["ball_mass"], gravity=g, weights=ik.PAPER_WEIGHTS
    )
    t_plan = time.perf_counter() - t0
    ct = control.ComputedTorque(arm, 400.0, 40.0, gravity=g)
    t0 = time.perf_counter()
    sim.run_task(plan, ct, dt=P["dt"])  # compiles the kernels (plant with and without the ball, controller)
    t_first = time.perf_counter() - t0
    ours, wall = median_run(lambda: sim.run_task(plan, ct, dt=P["dt"]))
    seconds = plan.t_end
    print(
        f"paper 3-R pick-and-place, {len(ours.t) - 1} steps of {P['dt']} s ({seconds:g} s simulated), computed torque"
    )
    print(f"  plan (IK of pick and place, eq. (12), quintics): {t_plan * 1e3:8.2f} ms")
    print(f"  first run incl. kernel compilation:               {t_first * 1e3:8.2f} ms")
    print(
        f"  armlab loop:  {wall * 1e3:8.2f} ms = {seconds / wall:7.1f}x real time  (target >= 100x)"
        f"   {wall / (len(ours.t) - 1) * 1e6:6.2f} us/step"
    )
    try:
        xml = to_mjcf(arm, gravity=g)
        mj, mj_wall = median_run(lambda: sim.run_task_mujoco(xml, plan, ct, dt=P["dt"]))
        print(
            f"  MuJoCo loop:  {mj_wall * 1e3:8.2f} ms = {seconds / mj_wall:7.1f}x real time   ({mj.plant}, same "
            f"controller in Python, ball + weld)"
        )
        print(
            f"  MuJoCo / armlab speed: {wall / mj_wall:5.2f}x;  max |q_armlab − q_MuJoCo| = "
            f"{np.abs(ours.q - mj.q).max():.2e} rad"
        )
    except ImportError as e:
        print("  mujoco not available:", e)
    return seconds / wall


def youbot_pdg():
    yb = models.youbot()
    limits = models.YOUBOT_ACTUATORS["effort"]
    pick = yb.fkine(np.array([-0.644, -0.56, -1.087, 0.076, 2.498]))
    place = yb.fkine(np.array([0.9, -0.3, -1.3, 0.4, 2.0]))
    q0 = np.array([0.0, 0.0, 0.0, 0.5, 0.0])
    plan = sim.plan_pick_and_place(yb, pick, place, t_pick=1.5, t_place=3.0, t_end=3.5, payload=0.5, q0=q0)
    kp, kd = control.pd_gains(yb, plan.q_pick, 20.0)
    pdg = control.PDGravity(yb, kp, kd, limits=limits)
    sim.run_task(plan, pdg, dt=1e-3)
    res, wall = median_run(lambda: sim.run_task(plan, pdg, dt=1e-3))
    print(f"youBot pick-and-place with 0.5 kg, 1 kHz ({plan.t_end:g} s), PD + gravity with its effort limits")
    print(
        f"  armlab loop:  {wall * 1e3:8.2f} ms = {plan.t_end / wall:7.1f}x real time  (target >= 50x)"
        f"   {wall / (len(res.t) - 1) * 1e6:6.2f} us/step;  max error {np.degrees(res.max_error).max():.2f}°, "
        f"{res.saturation}"
    )
    return plan.t_end / wall


if __name__ == "__main__":
    a = paper_task()
    b = youbot_pdg()
    print(
        f"\nsummary: paper task {a:.0f}x real time (>= 100x: {'met' if a >= 100 else 'NOT met'}), "
        f"youBot PD+G {b:.0f}x (>= 50x: {'met' if b >= 50 else 'NOT met'})"
    )
