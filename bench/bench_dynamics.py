"""Benchmark of armlab.dynamics and armlab.sim against roboticstoolbox, pinocchio and MuJoCo, ratios in
the same run.

    .venv/bin/python bench/bench_dynamics.py

Targets (issue 12): RNE PUMA560 one call <= 20 us; RNE batched over 100k states <= 1 us per state;
M(q) one call <= 30 us; forward dynamics one call <= 50 us; youBot simulation at 1 kHz >= 50x real
time with semi-implicit Euler (RK4, four dynamics evaluations a step, is reported beside it). The
reference libraries are test-only dependencies: a missing one is reported and skipped.
Times are medians; on a loaded machine every number grows, the ratios much less.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

import armlab
from armlab import sim
from armlab.export import to_mjcf

from _harness import per_call, to_pin

SIM_SECONDS, SIM_DT = 2.0, 1e-3


def once(fn, repeat=3):
    """Median seconds of `repeat` calls of fn()."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def rtb_puma(robot):
    """roboticstoolbox's Puma560 in Corke's frames with our lengths and mass properties, no actuator
    dynamics; q_Corke = q + (π, π, 0, 0, 0, 0) (tests/models/test_models_inertia.py checks it equals ours)."""
    import roboticstoolbox as rtb

    from armlab.models import PUMA560, PUMA560_AKB, PUMA560_MOMENT_CORRECTIONS

    r = rtb.models.DH.Puma560()
    r.links[0].d = 0.0
    r.links[1].a, r.links[2].a, r.links[2].d, r.links[3].d = PUMA560["a2"], PUMA560["a3"], PUMA560["d2"], PUMA560["d4"]
    for k, link in enumerate(r.links):
        link.I = np.diag(PUMA560_MOMENT_CORRECTIONS.get(k, PUMA560_AKB[k][2]))
        link.Jm, link.G, link.B, link.Tc = 0.0, 1.0, 0.0, np.zeros(2)
    return r


def dynamics_rows(robot, q, qd, qdd, Q, QD, QDD):
    g = dict(robot=robot, q=q, qd=qd, qdd=qdd, Q=Q, QD=QD, QDD=QDD)
    robot.rne(Q[:10], QD[:10], QDD[:10])
    ours = {
        "armlab robot.rne(q, qd, qdd)": (per_call("robot.rne(q, qd, qdd)", g), 20),
        "armlab robot.rne, batched N=100k, per state": (once(lambda: robot.rne(Q, QD, QDD)) / len(Q), 1),
        "armlab robot.inertia(q)": (per_call("robot.inertia(q)", g), 30),
        "armlab robot.fdyn(q, qd, tau)": (per_call("robot.fdyn(q, qd, qdd)", g), 50),
        "armlab robot.gravload(q)": (per_call("robot.gravload(q)", g), None),
        "armlab robot.coriolis(q, qd)": (per_call("robot.coriolis(q, qd)", g, number=500), None),
    }
    ref = {}
    try:
        r = rtb_puma(robot)
        shift = np.array([np.pi, np.pi, 0, 0, 0, 0])
        g.update(r=r, qr=q + shift)
        assert np.allclose(r.rne(q + shift, qd, qdd, gravity=(0, 0, -9.81)), robot.rne(q, qd, qdd), atol=1e-9)
        ref["RTB rne (C)"] = (per_call("r.rne(qr, qd, qdd)", g, number=500), "armlab robot.rne(q, qd, qdd)")
        ref["RTB rne_python"] = (
            per_call("r.rne_python(qr, qd, qdd)", g, number=20, repeat=3),
            "armlab robot.rne(q, qd, qdd)",
        )
    except ImportError as e:
        print("roboticstoolbox not available:", e)
    try:
        import pinocchio as pin

        model, _, _ = to_pin(robot)
        data = model.createData()
        g.update(pin=pin, model=model, data=data)
        assert np.allclose(pin.rnea(model, data, q, qd, qdd), robot.rne(q, qd, qdd), atol=1e-9)
        ref["pinocchio rnea"] = (
            per_call("pin.rnea(model, data, q, qd, qdd)", g, number=20000),
            "armlab robot.rne(q, qd, qdd)",
        )

        def loop(n=20_000):
            for i in range(n):
                pin.rnea(model, data, Q[i], QD[i], QDD[i])

        ref["pinocchio rnea loop, per state"] = (once(loop) / 20_000, "armlab robot.rne, batched N=100k, per state")
        ref["pinocchio crba"] = (per_call("pin.crba(model, data, q)", g, number=20000), "armlab robot.inertia(q)")
        ref["pinocchio aba"] = (
            per_call("pin.aba(model, data, q, qd, qdd)", g, number=20000),
            "armlab robot.fdyn(q, qd, tau)",
        )
    except ImportError as e:
        print("pinocchio not available:", e)
    return ours, ref


def simulation_rows(robot):
    rng = np.random.default_rng(1)
    q0, qd0 = robot.qlim.mean(axis=1), rng.normal(size=robot.n) * 0.5
    ours = {}
    for method in ("euler", "rk4"):
        sim.simulate(robot, q0, qd0, 0.01, SIM_DT, method=method)
        t = once(lambda: sim.simulate(robot, q0, qd0, SIM_SECONDS, SIM_DT, method=method, events="ignore"))
        ours[f"armlab sim youBot 1 kHz, {method}"] = SIM_SECONDS / t
    ref = {}
    try:
        import mujoco

        for integrator in ("Euler", "RK4"):
            model = mujoco.MjModel.from_xml_string(to_mjcf(robot, timestep=SIM_DT, integrator=integrator))
            data = mujoco.MjData(model)
            steps = int(round(SIM_SECONDS / SIM_DT))

            def run():
                data.qpos[:], data.qvel[:], data.time = q0, qd0, 0.0
                for _ in range(steps):
                    mujoco.mj_step(model, data)

            ref[f"MuJoCo youBot 1 kHz, {integrator}, mj_step loop in Python"] = SIM_SECONDS / once(run)
    except ImportError as e:
        print("mujoco not available:", e)
    return ours, ref


def main():
    robot = armlab.models.puma560()
    rng = np.random.default_rng(0)
    q, qd, qdd = rng.uniform(-np.pi, np.pi, 6), rng.normal(size=6), rng.normal(size=6)
    Q = rng.uniform(-np.pi, np.pi, (100_000, 6))
    QD, QDD = rng.normal(size=(2, 100_000, 6))
    ours, ref = dynamics_rows(robot, q, qd, qdd, Q, QD, QDD)
    print(f"PUMA560 (Armstrong–Khatib–Burdick inertias)\n{'operation':52s} {'median':>10s}   target")
    for name, (t, target) in ours.items():
        mark = "" if target is None else f"<= {target} us " + ("OK" if t * 1e6 <= target else "MISSED")
        print(f"{name:52s} {t * 1e6:8.2f} us   {mark}")
    for name, (t, _) in ref.items():
        print(f"{name:52s} {t * 1e6:8.2f} us")
    print("\nratios (reference time / armlab time; > 1 means armlab is faster)")
    for name, (t, against) in ref.items():
        print(f"  {name:40s} vs {against:44s} {t / ours[against][0]:8.2f}x")

    youbot = armlab.models.youbot()
    speed, mj = simulation_rows(youbot)
    print(f"\nyouBot, {SIM_SECONDS:g} s at {1 / SIM_DT:g} Hz, zero torque (speed = simulated s per wall-clock s)")
    for name, x in speed.items():  # the target is for the simulator's step, semi-implicit Euler (as MuJoCo's default)
        mark = (">= 50x " + ("OK" if x >= 50 else "MISSED")) if name.endswith("euler") else "(4 dynamics calls a step)"
        print(f"{name:52s} {x:8.1f}x real time   {mark}")
    for name, x in mj.items():
        print(f"{name:52s} {x:8.1f}x real time")
    for name, x in mj.items():
        kind = "euler" if "Euler" in name else "rk4"
        print(f"  MuJoCo / armlab ({kind}): {x / speed[f'armlab sim youBot 1 kHz, {kind}']:8.1f}x")


if __name__ == "__main__":
    main()
