"""Benchmark of the symbolic Lagrange engine (armlab.dynamics.lagrange), ratios in the same run.

    .venv/bin/python bench/bench_lagrange.py [--check]

Targets (issue 12): symbolic τ for the 2R with the book's form <= 1 s; symbolic τ for the PUMA560 with
numeric inertias <= 10 s. Each build starts from a new robot and an empty sympy cache (models are
cached per robot), so it is the first-call time. For scale the same run times the textbook's formulas
written out literally ((3.130)–(3.132) with sympy.diff and traces) and RNE run on sympy symbols, and
the compiled functions against the compiled RNE. Times are medians; a loaded machine slows them all.

Limits (``--check``; they were the test suite's until issue 29): the PUMA560's model and τ as sympy ≤ 30 s in
either convention, one entry D22 in the readable (simplified) form ≤ 20 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import timeit

import numpy as np
import sympy as sp
from sympy.core.cache import clear_cache

from armlab.dynamics import lagrange, pseudo_inertia
from armlab.models import planar2r, puma560, puma560_standard

from _harness import Limits, add_check

d1, d2, m1, m2, g = sp.symbols("d1 d2 m1 m2 g", positive=True)


def cold(build, repeat=3):
    """Median seconds of build(), each time on a fresh robot with sympy's cache cleared."""
    times = []
    for _ in range(repeat):
        clear_cache()
        t0 = time.perf_counter()
        build()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def literal_2r():
    """(3.130)–(3.132) as printed, ∂T/∂q by sympy.diff, every coefficient simplified."""
    robot = planar2r(l1=d1, l2=d2, m1=m1, m2=m2)
    q = sp.symbols("q1:3", real=True)
    T = [sp.Matrix(Tp) for Tp in robot.fkine_all(list(q))][1:]
    Ip = [pseudo_inertia(L.m, L.r, L.I) for L in robot.links]
    U = [[Tp.diff(x) for x in q] for Tp in T]
    D2 = [
        [sp.simplify(sum((U[p][j] * Ip[p] * U[p][i].T).trace() for p in range(max(i, j), 2))) for j in range(2)]
        for i in range(2)
    ]
    D3 = [
        [
            [
                sp.simplify(sum((U[p][j].diff(q[k]) * Ip[p] * U[p][i].T).trace() for p in range(max(i, j, k), 2)))
                for k in range(2)
            ]
            for j in range(2)
        ]
        for i in range(2)
    ]
    g4 = sp.Matrix([[g, 0, 0, 0]])
    D1 = [
        sp.simplify(sum((-robot.links[p].m * g4 * U[p][i] * sp.Matrix([0, 0, 0, 1]))[0] for p in range(i, 2)))
        for i in range(2)
    ]
    return D2, D3, D1


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_check(ap)
    args = ap.parse_args(argv)
    limits = Limits()
    print("symbolic Lagrange (first call: fresh robot, empty sympy cache)")
    fresh = iter(sp.symbols("g0:9", positive=True))  # a new gravity symbol each time: a new model, nothing cached
    t_2r = cold(
        lambda: lagrange(planar2r(l1=d1, l2=d2, m1=m1, m2=m2), (next(fresh), 0, 0), symbol="theta").simplified()
    )
    t_2r_lit = cold(literal_2r, repeat=1)
    print(f"  2R, τ in the book's form (3.106)-(3.107)    {t_2r:7.2f} s   (target <= 1 s)")
    print(f"  2R, (3.130)-(3.132) literally + simplify   {t_2r_lit:7.2f} s   ({t_2r_lit / t_2r:.0f}x)")
    for name, make in (("PUMA560 (modified DH)", puma560), ("PUMA560 (standard DH)", puma560_standard)):
        t_build = cold(lambda: lagrange(make()))
        t_tau = cold(lambda: lagrange(make()).tau)
        steps = len(lagrange(make()).cse("tau")[0])
        print(
            f"  {name}: model {t_build:5.2f} s, model and τ as sympy {t_tau:5.2f} s   (target <= 10 s); "
            f"τ's program: {steps} steps"
        )
        limits.at_most(f"{name}: model and τ as sympy (s)", t_tau, 30.0)
    t_d22 = cold(lambda: lagrange(puma560()).D(2, 2, simplify=True), repeat=1)
    print(f"  PUMA560 D22 in the readable form            {t_d22:7.2f} s   (about 1 s alone)")
    limits.at_most("PUMA560 D22, simplified (s)", t_d22, 20.0)
    robot = puma560()
    q6 = sp.symbols("q1:7", real=True)
    t_rne = cold(lambda: robot.rne(q6, sp.symbols("qd1:7"), sp.symbols("qdd1:7")), repeat=1)
    print(f"  PUMA560 τ by RNE on sympy symbols           {t_rne:7.2f} s   (for scale)")

    print("compiled numbers, PUMA560, one call")
    model = lagrange(robot)
    rng = np.random.default_rng(0)
    q, qd, qdd = rng.normal(size=(3, 6))
    glob = {"model": model, "robot": robot, "q": q, "qd": qd, "qdd": qdd}
    for label, stmt in (
        ("lagrange tau_fn", "model.tau_fn(q, qd, qdd)"),
        ("rne (compiled)", "robot.rne(q, qd, qdd)"),
        ("lagrange M_fn", "model.M_fn(q)"),
        ("inertia (RNE columns)", "robot.inertia(q)"),
    ):
        t = statistics.median(x / 500 for x in timeit.repeat(stmt, globals=glob, number=500, repeat=5))
        print(f"  {label:24s} {t * 1e6:8.1f} us")
    err = np.abs(model.tau_fn(q, qd, qdd) - robot.rne(q, qd, qdd)).max()
    print(f"  |tau_fn - rne| = {err:.1e}")
    return limits.exit_code(args.check)


if __name__ == "__main__":
    sys.exit(main())
