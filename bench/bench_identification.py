"""Benchmark of the youBot chapter (issue 13): regressor, symbolic derivation, identification; ratios in one run.

    .venv/bin/python bench/bench_identification.py [--check]

Targets: the symbolic youBot regressor with all 50 inertial parameters as symbols ≤ 10 s, its generated τ ≤ 3000
operations; the numeric regressor ξ(q, q̇, q̈) ≤ 50 µs for one sample and ≤ 5 µs per sample batched; identification
from 20k samples ≤ 2 s. The numeric regressor is compared with the algorithm it replaced (Newton–Euler traced once
per unit parameter, 10n passes sharing the outward pass), rebuilt here, and with pinocchio's
computeJointTorqueRegressor when pinocchio is installed (a test-only dependency). Times are the best of several
repeats (the machine is shared: medians wander with the load).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
import timeit

import numpy as np

import armlab
from armlab import dynamics
from armlab._core.codegen import Tracer, run_kernel
from armlab.dynamics.rne import rne_steps
from armlab.kinematics.scalar import TracerBackend

from _harness import to_pin

TARGETS = {
    "symbolic build (s)": 10.0,
    "τ operations": 3000,
    "single (µs)": 50.0,
    "batched (µs/sample)": 5.0,
    "identify 20k (s)": 2.0,
}


def best(fn, number, repeat=7):
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def unit_parameter_kernel(robot):
    """The previous dynamics.regressor: RNE once per unit parameter (10n inward passes), traced and compiled."""
    tr = Tracer()
    n = robot.n
    q, qd, qdd, g = (tr.inputs(name, size) for name, size in (("q", n), ("qd", n), ("qdd", n), ("g", 3)))
    B = TracerBackend(tr)
    cols = []
    for k in range(n):
        for j in range(10):
            params = [[1 if (kk == k and jj == j) else 0 for jj in range(10)] for kk in range(n)]
            cols.append(rne_steps(robot, q, qd, qdd, g, [0] * 6, B, params)[0])
    return tr.kernel("regressor_old", "q, qd, qdd, g", [cols[c][i] for i in range(n) for c in range(10 * n)])


def count_ops(source):
    return sum(source.count(c) for c in "+-*")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    args = ap.parse_args(argv)
    rows, results = [], {}

    # symbolic: a fresh robot, so nothing is cached
    robot = armlab.models.youbot()
    start = time.perf_counter()
    model = dynamics.symbolic_regressor(robot)
    results["symbolic build (s)"] = time.perf_counter() - start
    results["τ operations"] = model.operations("tau")
    start = time.perf_counter()
    lag = dynamics.lagrange(armlab.models.youbot())
    lag_time = time.perf_counter() - start
    rows.append(
        (
            "symbolic ξ, 50 parameters as symbols (report's route)",
            f"{results['symbolic build (s)']:.2f} s",
            f"dynamics.lagrange (pseudo-inertia, numeric parameters): {lag_time:.2f} s",
        )
    )
    rows.append(
        (
            "generated τ = ξχ (sympy count_ops of the program)",
            f"{results['τ operations']}",
            f"ξ alone: {model.operations('xi')}",
        )
    )
    del lag

    # numeric regressor
    rng = np.random.default_rng(0)
    q, qd, qdd = rng.normal(size=(3, 5))
    dynamics.regressor(robot, q, qd, qdd)
    from armlab._core.codegen import cached_kernel

    new_kernel = cached_kernel(robot, "regressor", None)
    old = unit_parameter_kernel(robot)
    g = [0.0, 0.0, -9.81]
    args_ = [q.tolist(), qd.tolist(), qdd.tolist(), g]
    t_new = best(lambda: dynamics.regressor(robot, q, qd, qdd), 500)
    t_old = best(lambda: np.array(old(*args_, math.cos, math.sin)).reshape(5, 50), 500)
    t_new_k = best(lambda: new_kernel(*args_, math.cos, math.sin), 500)
    from armlab.dynamics.model import batch_args, joint_args, vector_arg

    def old_call():  # the old regressor(): checked arguments, then the kernel through run_kernel
        a = [joint_args(robot, v, name, False) for v, name in ((q, "q"), (qd, "qd"), (qdd, "qdd"))]
        a = batch_args(a + [vector_arg(g, "gravity", 3, False)])
        return run_kernel(old, a[0], (5, 50), *a[1:])

    t_old_call = best(old_call, 500)
    results["single (µs)"] = t_new * 1e6
    rows.append(
        (
            "regressor(robot, q, qd, qdd), one sample",
            f"{t_new * 1e6:.1f} µs",
            f"the old call path: {t_old_call * 1e6:.1f} µs (×{t_old_call / t_new:.1f})",
        )
    )
    rows.append(
        (
            "  its kernel alone",
            f"{t_new_k * 1e6:.1f} µs",
            f"unit-parameter RNE kernel: {t_old * 1e6:.1f} µs "
            f"(×{t_old / t_new_k:.1f}); traced operations {count_ops(new_kernel.source)} vs {count_ops(old.source)}",
        )
    )
    N = 20000
    Q = rng.normal(size=(3, N, 5))
    G = np.broadcast_to(np.array(g), (N, 3)).copy()
    t_new_b = best(lambda: dynamics.regressor(robot, *Q), 1, 5) / N
    t_old_b = best(lambda: run_kernel(old, Q[0], (5, 50), Q[1], Q[2], G), 1, 5) / N
    results["batched (µs/sample)"] = t_new_b * 1e6
    rows.append(
        (
            "regressor, batched (20k)",
            f"{t_new_b * 1e6:.2f} µs/sample",
            f"unit-parameter RNE kernel: {t_old_b * 1e6:.2f} µs/sample (×{t_old_b / t_new_b:.1f})",
        )
    )
    try:
        import pinocchio as pin

        pm, _, _ = to_pin(robot)
        data = pm.createData()
        t_pin = best(lambda: pin.computeJointTorqueRegressor(pm, data, q, qd, qdd), 2000)
        rows.append(
            (
                "pinocchio computeJointTorqueRegressor, one sample (C++)",
                f"{t_pin * 1e6:.1f} µs",
                f"ours / pinocchio: ×{t_new / t_pin:.1f}",
            )
        )
    except ImportError:
        rows.append(("pinocchio", "not installed", "skipped"))

    # identification from 20k samples
    chi = np.concatenate([dynamics.dynamic_params(robot).reshape(5, 10), np.full((5, 4), 0.05)], axis=1).reshape(-1)
    q, qd, qdd = dynamics.base_params.random_states(robot, N, 1)
    tau = dynamics.regressor_full(robot, q, qd, qdd) @ chi + rng.normal(0, 0.02, (N, 5))
    dynamics.identify(robot, q[:300], qd[:300], qdd[:300], tau[:300])
    times = {m: best(lambda m=m: dynamics.identify(robot, q, qd, qdd, tau, method=m), 1, 3) for m in dynamics.METHODS}
    results["identify 20k (s)"] = max(times.values())
    rows.append(("identify, 20k samples × 5 joints", " / ".join(f"{m} {t:.2f} s" for m, t in times.items()), ""))

    width = max(len(r[0]) for r in rows)
    for name, value, note in rows:
        print(f"{name:<{width}}  {value:>22}  {note}")
    print()
    missed = []
    for key, target in TARGETS.items():
        ok = results[key] <= target
        missed += [] if ok else [key]
        print(
            f"target {key:<22} {results[key]:10.3f} ≤ {target:<8g} {'ok' if ok else 'MISSED'}  (ratio {results[key] / target:.2f})"
        )
    if args.check and missed:
        sys.exit(1)


if __name__ == "__main__":
    main()
