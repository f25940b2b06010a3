"""Benchmark: PUMA560 closed-form inverse kinematics, armlab vs roboticstoolbox-python (same run).

    python bench/bench_ik.py            # everything (RTB's analytic_ik derivation takes ~10–20 s)
    python bench/bench_ik.py --quick    # skip RTB's symbolic derivation

Prints the median µs per call and the ratio RTB / armlab:

* all 8 solutions of one pose: ``robot.ikine_all(T)`` (target ≤ 50 µs) vs RTB ``Puma560.ikine_a``
  called once per configuration (×8, on RTB's Puma560 given our lengths: the same arm, see
  tests/ik/test_ik_puma.py) and RTB ``analytic_ik().solve`` on our standard-DH table;
* batched: ``robot.ikine_all(T)`` with T (N, 4, 4) on 100 000 poses (target ≤ 2 µs per pose) vs RTB
  ``ikine_a`` on an (N, 4, 4) trajectory, per pose and configuration.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import timeit
import warnings

import numpy as np

import armlab

CONFIGS = ["lun", "luf", "ldn", "ldf", "run", "ruf", "rdn", "rdf"]


def median_us(fn, number, repeat=7, timer=time.perf_counter):
    """Median over `repeat` runs of the mean time per call (µs)."""
    return statistics.median(t / number * 1e6 for t in timeit.repeat(fn, number=number, repeat=repeat,
                                                                      timer=timer))


def cpu_us(fn, number, repeat=7):
    """Same, in CPU time of this process (less sensitive to other processes sharing the cores)."""
    return median_us(fn, number, repeat, time.process_time)


def rtb_puma_our_lengths(rtb):
    P = armlab.models.PUMA560
    robot = rtb.models.DH.Puma560()
    robot.links[0].d = 0.0
    robot.links[1].a, robot.links[2].a, robot.links[2].d, robot.links[3].d = P["a2"], P["a3"], P["d2"], P["d4"]
    return robot


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip RTB analytic_ik (symbolic derivation)")
    parser.add_argument("--poses", type=int, default=100_000, help="batch size (default 100000)")
    args = parser.parse_args(argv)

    robot = armlab.models.puma560()
    rng = np.random.default_rng(0)
    qlim = robot.qlim
    q = rng.uniform(qlim[:, 0], qlim[:, 1])
    T = robot.fkine(q)
    rows = []

    def report(name, us, target=None, ref=None, cpu=None):
        line = f"{name:<58} {us:10.2f} µs"
        if cpu is not None:
            line += f" (CPU {cpu:.2f} µs)"
        if target is not None:
            line += f"   target ≤ {target:g} µs: {'OK' if us <= target else 'MISSED'}"
        if ref is not None:
            line += f"   RTB/armlab = {us / ref:6.1f}×"
        print(line, flush=True)
        rows.append((name, us))
        return us

    print(f"armlab {armlab.__version__}, numpy {np.__version__}, python {sys.version.split()[0]}, "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    mm = median_us(lambda: T @ T, 20000)
    print(f"reference: one numpy 4×4 matmul = {mm:.2f} µs (CPU {cpu_us(lambda: T @ T, 20000):.2f} µs), "
          f"np.cos(0.3) = {median_us(lambda: np.cos(0.3), 20000):.2f} µs\n")

    assert len(robot.ikine_all(T)) == 8
    ours = report("armlab ikine_all(T), all 8 solutions, one pose", median_us(lambda: robot.ikine_all(T), 2000),
                  target=50, cpu=cpu_us(lambda: robot.ikine_all(T), 2000))
    print(f"{'   = in units of the matmul above':<58} {ours / mm:10.1f}    (target 50 / 2.8 = 17.9)")
    report("armlab ikine(T, q_current) (8 solutions + selection)",
           median_us(lambda: robot.ikine(T, q0=q), 1000))

    try:
        import roboticstoolbox as rtb
    except ImportError:
        rtb = None
        print("roboticstoolbox-python not installed: no comparison")
    if rtb is not None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            R = rtb_puma_our_lengths(rtb)
            assert all(R.ikine_a(T, c).success for c in CONFIGS)
            report("RTB Puma560.ikine_a(T, config) × 8 configurations",
                   median_us(lambda: [R.ikine_a(T, c) for c in CONFIGS], 20, repeat=5), ref=ours)
            if not args.quick:
                std = armlab.models.puma560_standard()
                links = [rtb.RevoluteDH(d=l.d, a=l.a, alpha=l.alpha, qlim=list(l.qlim)) for l in std.links]
                S = rtb.DHRobot(links, name="PUMA560 textbook")
                t0 = time.perf_counter()
                solver = S.analytic_ik()
                derive = time.perf_counter() - t0
                print(f"{'RTB analytic_ik() symbolic derivation (once per robot)':<58} {derive * 1e6:10.0f} µs"
                      f"   = {derive:.1f} s")
                assert len(solver.solve(T, joint_limits=False).q) == 8
                report("RTB analytic_ik().solve(T), all 8 solutions",
                       median_us(lambda: solver.solve(T, joint_limits=False), 50, repeat=5), ref=ours)

    print()
    N = args.poses
    Q = rng.uniform(qlim[:, 0], qlim[:, 1], (N, 6))
    TT = robot.fkine(Q)
    robot.ikine_all(TT[:1000])  # warm up
    times, cpu = [], []
    for _ in range(5):
        t0, c0 = time.perf_counter(), time.process_time()
        batch = robot.ikine_all(TT)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    assert batch.valid.all()
    per_pose = report(f"armlab robot.ikine_all(T batch), {N} poses → ({N}, 8, 6), per pose",
                      statistics.median(times) / N * 1e6, target=2, cpu=statistics.median(cpu) / N * 1e6)
    loop = median_us(lambda: robot.ikine_all(TT[7]), 1000)
    print(f"{'   (single-pose solver in a Python loop, per pose)':<58} {loop:10.2f} µs   "
          f"batch speed-up {loop / per_pose:.0f}×")
    if rtb is not None:
        M = 200
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t = statistics.median(timeit.repeat(lambda: [R.ikine_a(TT[:M], c) for c in CONFIGS],
                                                number=1, repeat=3))
        report(f"RTB ikine_a on a ({M}, 4, 4) trajectory × 8 configs, per pose", t / M * 1e6, ref=per_pose)
    return rows


if __name__ == "__main__":
    main()
