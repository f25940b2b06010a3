"""Kinematics benchmarks: armlab against roboticstoolbox-python and pinocchio, in one run.

    python bench/bench_kinematics.py [--check]

Prints the median time per call and the ratio to each reference. Targets (issue #2):
fkine <= 10 us (>= 5x faster than RTB), batched FK <= 1 us/config over 100k,
jacob0 <= 20 us, import armlab <= 0.3 s. Limit (``--check``; the test suite's until issue 29): ``import armlab``
costs <= 0.1 s of CPU over ``import numpy`` (CPU, not wall time: a throttled machine's clock steps by 50 ms).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import timeit

import numpy as np

from _harness import Limits, add_check, per_call, pin_puma

# CPU seconds that `import armlab` costs once numpy, its one required dependency, is loaded
_IMPORT_CPU = "import time, numpy; t = time.process_time(); import armlab; print(time.process_time() - t)"


def import_time(module, runs=7):
    """Median wall time of `python -c "import module"` minus a bare interpreter start."""

    def run(code):
        return statistics.median(
            float(
                subprocess.run(
                    [sys.executable, "-c", f"import time; t=time.perf_counter(); {code}; print(time.perf_counter()-t)"],
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
            )
            for _ in range(runs)
        )

    return run(f"import {module}")


def import_cpu(runs=7):
    """Median CPU seconds of `import armlab` over `import numpy`, each in a fresh interpreter (one warm-up run)."""
    runs_s = [
        float(subprocess.run([sys.executable, "-c", _IMPORT_CPU], capture_output=True, text=True, check=True).stdout)
        for _ in range(runs + 1)
    ][1:]
    print(f"  import armlab over numpy, CPU s of each run: {[round(t, 3) for t in runs_s]}")
    return statistics.median(runs_s)


def rtb_puma(robot):
    """Our textbook PUMA560 as an RTB modified-DH robot (same table, same numbers)."""
    import roboticstoolbox as rtb

    return rtb.DHRobot([rtb.RevoluteMDH(a=lk.a, alpha=lk.alpha, d=lk.d) for lk in robot.links])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_check(ap)
    args = ap.parse_args(argv)
    from armlab.models import puma560

    robot = puma560()
    rng = np.random.default_rng(0)
    q = rng.uniform(-np.pi, np.pi, 6)
    Q = rng.uniform(-np.pi, np.pi, (100_000, 6))
    rows = []

    ours_fk = per_call("robot.fkine(q)", locals())
    ours_jac = per_call("robot.jacob0(q)", locals())
    ours_batch = statistics.median(timeit.repeat("robot.fkine(Q)", globals=locals(), number=1, repeat=5)) / len(Q)
    ours_batch_jac = statistics.median(timeit.repeat("robot.jacob0(Q)", globals=locals(), number=1, repeat=3)) / len(Q)

    A = [robot.link_transform(i + 1, q[i]) for i in range(6)]
    numpy_chain = per_call("A[0] @ A[1] @ A[2] @ A[3] @ A[4] @ A[5]", locals())

    ref = {}
    try:
        r = rtb_puma(robot)
        assert np.allclose(r.fkine(q).A, robot.fkine(q)) and np.allclose(r.jacob0(q), robot.jacob0(q))
        ref["RTB DHRobot.fkine"] = per_call("r.fkine(q)", locals(), number=300)
        ref["RTB DHRobot.jacob0"] = per_call("r.jacob0(q)", locals(), number=200)
        Qs = Q[:2000]
        ref["RTB fkine(Q) per config"] = statistics.median(
            timeit.repeat("r.fkine(Qs)", globals=locals(), number=1, repeat=3)
        ) / len(Qs)
    except ImportError as e:
        print("roboticstoolbox not available:", e)
    try:
        import pinocchio as pin

        model = pin_puma(robot)
        data = model.createData()
        fid = model.getFrameId("ee")
        pin.framesForwardKinematics(model, data, q)
        assert np.allclose(data.oMf[fid].homogeneous, robot.fkine(q))
        ref["pinocchio forwardKinematics"] = per_call("pin.forwardKinematics(model, data, q)", locals(), number=20000)
        ref["pinocchio computeFrameJacobian"] = per_call(
            "pin.computeFrameJacobian(model, data, q, fid, pin.LOCAL_WORLD_ALIGNED)", locals(), number=20000
        )
    except ImportError as e:
        print("pinocchio not available:", e)

    imp = import_time("armlab")
    imp_rtb = import_time("roboticstoolbox", runs=3)

    us = 1e6
    rows += [
        ("armlab puma560().fkine(q)", ours_fk * us, "<= 10 us"),
        ("armlab jacob0(q)", ours_jac * us, "<= 20 us"),
        ("armlab fkine(Q), per config, N=100k", ours_batch * us, "<= 1 us"),
        ("armlab jacob0(Q), per config, N=100k", ours_batch_jac * us, ""),
        ("plain numpy chain of 6 4x4 matmuls", numpy_chain * us, ""),
    ] + [(k, v * us, "") for k, v in ref.items()]
    print(f"{'operation':45s} {'median':>10s}   target")
    for name, t, target in rows:
        print(f"{name:45s} {t:8.2f} us   {target}")
    print(f"{'import armlab':45s} {imp * 1e3:8.1f} ms   <= 300 ms")
    print(f"{'import roboticstoolbox':45s} {imp_rtb * 1e3:8.1f} ms")
    print("\nratios (reference time / armlab time; > 1 means armlab is faster)")
    print(f"  fkine  vs numpy chain : {numpy_chain / ours_fk:6.1f}x")
    for k, v in ref.items():
        mine = ours_jac if "acobian" in k or "jacob0" in k else ours_batch if "per config" in k else ours_fk
        print(f"  vs {k:34s}: {v / mine:6.2f}x")
    print(f"  import vs roboticstoolbox : {imp_rtb / imp:6.1f}x")
    limits = Limits()
    limits.at_most("import armlab over numpy, CPU (s)", import_cpu(), 0.1)
    return limits.exit_code(args.check)


if __name__ == "__main__":
    sys.exit(main())
