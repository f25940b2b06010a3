"""Benchmark of armlab.jacobians against roboticstoolbox and pinocchio, ratios in the same run.

    .venv/bin/python bench/bench_jacobians.py

Targets (issue: Jacobians chapter): jacob0 <= 10 us; each of the three methods <= 30 us;
manipulability over 100k configurations <= 2 us per configuration. The reference libraries are
test-only dependencies: a missing one is reported and skipped.
"""

from __future__ import annotations

import statistics
import timeit

import numpy as np

import armlab
from armlab import jacobians as jb

from _harness import per_call, pin_puma
from bench_kinematics import rtb_puma


def main():
    robot = armlab.models.puma560()
    rng = np.random.default_rng(0)
    q = rng.uniform(-np.pi, np.pi, 6)
    Q = rng.uniform(-np.pi, np.pi, (100_000, 6))
    g = dict(robot=robot, q=q, Q=Q, jb=jb)
    ours = {
        "armlab robot.jacob0(q)": (per_call("robot.jacob0(q)", g), "<= 10 us"),
        "armlab jacob_differential(robot, q)": (per_call("jb.jacob_differential(robot, q)", g), "<= 30 us"),
        "armlab jacob_velocity(robot, q)": (per_call("jb.jacob_velocity(robot, q)", g), "<= 30 us"),
        "armlab jacob_geometric(robot, q)": (per_call("jb.jacob_geometric(robot, q)", g), "<= 30 us"),
    }
    jb.manipulability(robot, Q[:100])
    manip = statistics.median(timeit.repeat("jb.manipulability(robot, Q)", globals=g, number=1, repeat=5)) / len(Q)
    ours["armlab manipulability(robot, Q), per config, N=100k"] = (manip, "<= 2 us")
    ref = {}
    try:
        r = rtb_puma(robot)
        assert np.allclose(r.jacob0(q), robot.jacob0(q))
        g["r"] = r
        ref["RTB DHRobot.jacob0(q)"] = per_call("r.jacob0(q)", g, number=200)
        ref["RTB manipulability(q) in a loop, per config"] = per_call(
            "r.manipulability(q, axes='trans')", g, number=200
        )
    except ImportError as e:
        print("roboticstoolbox not available:", e)
    try:
        import pinocchio as pin

        model = pin_puma(robot)
        data = model.createData()
        fid = model.getFrameId("ee")
        g.update(pin=pin, model=model, data=data, fid=fid)
        J = pin.computeFrameJacobian(model, data, q, fid, pin.LOCAL_WORLD_ALIGNED)
        assert np.allclose(J, robot.jacob0(q))
        ref["pinocchio computeFrameJacobian(q)"] = per_call(
            "pin.computeFrameJacobian(model, data, q, fid, pin.LOCAL_WORLD_ALIGNED)", g, number=20000
        )

        def pin_manip(Qs):
            out = np.empty(len(Qs))
            for i, qq in enumerate(Qs):
                Jt = pin.computeFrameJacobian(model, data, qq, fid, pin.LOCAL_WORLD_ALIGNED)[:3]
                out[i] = np.sqrt(np.linalg.det(Jt @ Jt.T))
            return out

        g["pin_manip"], g["Qs"] = pin_manip, Q[:20_000]
        assert np.allclose(pin_manip(Q[:50]), jb.manipulability(robot, Q[:50]))
        ref["pinocchio loop: frame Jacobian + det, per config"] = (
            statistics.median(timeit.repeat("pin_manip(Qs)", globals=g, number=1, repeat=3)) / 20_000
        )
    except ImportError as e:
        print("pinocchio not available:", e)

    print(f"{'operation':58s} {'median':>10s}   target")
    for name, (t, target) in ours.items():
        ok = "" if not target else ("OK" if t * 1e6 <= float(target.split()[1]) else "MISSED")
        print(f"{name:58s} {t * 1e6:8.2f} us   {target} {ok}")
    for name, t in ref.items():
        print(f"{name:58s} {t * 1e6:8.2f} us")
    print("\nratios (reference time / armlab time; > 1 means armlab is faster)")
    jac = ours["armlab robot.jacob0(q)"][0]
    for name, t in ref.items():
        if "manipulability" in name or "det" in name:
            print(f"  {name:52s} vs batched manipulability: {t / manip:8.1f}x")
        else:
            print(f"  {name:52s} vs jacob0: {t / jac:8.2f}x")
            for m in ("differential", "velocity", "geometric"):
                mine = ours[f"armlab jacob_{m}(robot, q)"][0]
                print(f"  {name:52s} vs jacob_{m}: {t / mine:8.2f}x")


if __name__ == "__main__":
    main()
