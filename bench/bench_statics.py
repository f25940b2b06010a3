"""Benchmark of armlab.statics against pinocchio, ratios in the same run.

    .venv/bin/python bench/bench_statics.py [--check]

Targets (issue: Statics chapter): the link recursion (5-1)–(5-4) for a 6-DOF arm, one call, <= 30 us
(compared with pinocchio's rnea at rest with an external force on the last body); the gravity load over
100k configurations, batched, <= 2 us per configuration; the statics widgets' redraw, median <= 50 ms.
The arm is the textbook PUMA560 with random mass properties (pinocchio needs them; so does G(q)).
pinocchio is a test-only dependency: if it is missing it is reported and skipped.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import timeit

import numpy as np

import armlab
from armlab import statics

from _harness import per_call, to_pin  # noqa: E402  (also puts tests/ on sys.path, for support)
from support import random_inertial  # noqa: E402

TARGETS_US = {"recursion": 30.0, "gravity": 2.0}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    args = ap.parse_args(argv)

    rng = np.random.default_rng(0)
    robot = random_inertial(rng, armlab.models.puma560())
    q = rng.uniform(-np.pi, np.pi, 6)
    F = rng.normal(size=6)
    grav = np.array([0.0, 0.0, -9.81])
    Q = rng.uniform(-np.pi, np.pi, (100_000, 6))
    g = dict(robot=robot, q=q, F=F, grav=grav, Q=Q, statics=statics)
    statics.link_forces(robot, q, F, frame="tool")  # trace and compile once
    statics.gravity_load(robot, Q[:10])
    ours = {
        "link_forces(robot, q, F), tool frame": (
            per_call("statics.link_forces(robot, q, F, frame='tool')", g),
            "recursion",
        ),
        "link_forces(robot, q, F, gravity=g)": (
            per_call("statics.link_forces(robot, q, F, frame='tool', gravity=grav)", g),
            "recursion",
        ),
        "link_forces(robot, q, F, frame='base')": (
            per_call("statics.link_forces(robot, q, F, frame='base')", g),
            "recursion",
        ),
        "joint_torques(robot, q, F) (τ = JᵀF)": (per_call("statics.joint_torques(robot, q, F)", g), None),
        "gravity_load(robot, Q), per config, N=100k": (
            statistics.median(timeit.repeat("statics.gravity_load(robot, Q)", globals=g, number=1, repeat=5)) / len(Q),
            "gravity",
        ),
    }
    ref = {}
    try:
        import pinocchio as pin

        model, ee, _ = to_pin(robot)
        model.gravity.linear = grav
        data = model.createData()
        frame = model.frames[ee]
        fext = [pin.Force.Zero() for _ in range(model.njoints)]
        fext[frame.parentJoint] = frame.placement.act(pin.Force(-F[:3], -F[3:]))  # the reaction on the arm
        zero = np.zeros(6)
        g.update(pin=pin, model=model, data=data, fext=fext, zero=zero)
        model_g0 = model.copy()
        model_g0.gravity.linear = np.zeros(3)
        g.update(model_g0=model_g0, data_g0=model_g0.createData())
        assert np.allclose(
            pin.rnea(model_g0, g["data_g0"], q, zero, zero, fext), statics.link_forces(robot, q, F, frame="tool").tau
        )
        assert np.allclose(
            pin.rnea(model, data, q, zero, zero, fext), statics.link_forces(robot, q, F, frame="tool", gravity=grav).tau
        )
        ref["pinocchio rnea(q, 0, 0, fext), no gravity"] = per_call(
            "pin.rnea(model_g0, data_g0, q, zero, zero, fext)", g, number=20000
        )
        ref["pinocchio rnea(q, 0, 0, fext), gravity"] = per_call(
            "pin.rnea(model, data, q, zero, zero, fext)", g, number=20000
        )

        def pin_gravity(Qs):
            return np.array([pin.computeGeneralizedGravity(model, data, qq) for qq in Qs])

        g["pin_gravity"], g["Qs"] = pin_gravity, Q[:20_000]
        assert np.allclose(pin_gravity(Q[:50]), statics.gravity_load(robot, Q[:50]))
        ref["pinocchio computeGeneralizedGravity loop, per config"] = statistics.median(
            timeit.repeat("pin_gravity(Qs)", globals=g, number=1, repeat=3)
        ) / len(g["Qs"])
    except ImportError as e:
        print("pinocchio not available:", e)

    missed = []
    print(f"{'operation':58s} {'median':>10s}   target")
    for name, (t, key) in ours.items():
        target = TARGETS_US.get(key)
        verdict = "" if target is None else ("OK" if t * 1e6 <= target else "MISSED")
        if verdict == "MISSED":
            missed.append(name)
        print(f"{name:58s} {t * 1e6:8.2f} us   {'' if target is None else f'<= {target:g} us'} {verdict}")
    for name, t in ref.items():
        print(f"{name:58s} {t * 1e6:8.2f} us")
    if ref:
        print("\nratios (armlab time / pinocchio time; pinocchio is compiled C++)")
        rec, rec_g = ours["link_forces(robot, q, F), tool frame"][0], ours["link_forces(robot, q, F, gravity=g)"][0]
        pin0, pin_g = ref["pinocchio rnea(q, 0, 0, fext), no gravity"], ref["pinocchio rnea(q, 0, 0, fext), gravity"]
        print(f"  link_forces / rnea with fext (no gravity): {rec / pin0:6.1f}x")
        print(f"  link_forces / rnea with fext (gravity):    {rec_g / pin_g:6.1f}x")
        grav_t = ours["gravity_load(robot, Q), per config, N=100k"][0]
        print(
            f"  gravity_load batched / computeGeneralizedGravity loop: "
            f"{grav_t / ref['pinocchio computeGeneralizedGravity loop, per config']:6.2f}x"
        )
    for name, ms in _widget_updates().items():
        verdict = "OK" if ms <= 50.0 else "MISSED"
        if verdict == "MISSED":
            missed.append(name)
        print(f"{name:58s} {ms:8.2f} ms   <= 50 ms {verdict}")
    if args.check and missed:
        sys.exit(f"missed: {missed}")


def _widget_updates(moves=100):
    """Median kernel-side update (ms) of each statics widget per slider move: the callback (statics, the
    artists moved in place) and the scene sent to the browser (SceneView.sync: payload and JSON)."""
    import matplotlib

    matplotlib.use("Agg")
    from armlab import viz

    out = {}
    for name, make in (
        ("tip_force_explorer", viz.tip_force_explorer),
        ("static_mapping_explorer", viz.static_mapping_explorer),
        ("payload_explorer", viz.payload_explorer),
        ("wrist_sensor_demo", viz.wrist_sensor_demo),
    ):
        panel = make()
        times = []
        for k in range(moves):
            s = panel.sliders[k % len(panel.sliders)]
            value = float(s.min + (k * 7919 % 97) / 97 * (s.max - s.min))
            t = timeit.default_timer()
            s.value = value
            times.append(timeit.default_timer() - t)
        out[f"widget update: {name}, median of {moves} moves"] = 1e3 * statistics.median(times)
    return out


if __name__ == "__main__":
    main()
