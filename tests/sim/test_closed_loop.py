"""The closed loop in C (armlab.sim.closed_loop): run_task gives the Python loop's results to the bit — the
motion, the torques, the saturation record and the error of an unstable run — for the labs' controllers."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from support.native_builds import require_native

from armlab import control, sim
from armlab._core import native
from armlab.sim import closed_loop


@pytest.fixture(autouse=True, scope="module")
def _native_builds():
    require_native()


# Each case prints a digest of the run, its saturation record, or the error it raised.
_RUN = """
import hashlib, sys, numpy as np
from armlab import control, sim
from armlab._core import native
from armlab.viz.control import _task

def cases():
    robot, plan, dt, _, gravity = _task("paper")
    yield "paper, computed torque", plan, control.ComputedTorque(robot, 400.0, 40.0, gravity=gravity), dt
    yield "paper, a model 30 % off", plan, control.ComputedTorque(control.perturbed(robot, 0.3, seed=8), 400.0, 40.0, gravity=gravity), dt
    robot, plan, dt, limits, gravity = _task("youbot")
    heavy = sim.plan_pick_and_place(robot, plan.pick, plan.place, t_pick=1.0, t_place=2.0, t_end=2.4, payload=1.5, q0=plan.q0)
    kp, kd = control.pd_gains(robot, plan.q_pick, 20.0, 1.0)
    yield "youbot, computed torque", plan, control.ComputedTorque(robot, 400.0, 40.0, gravity=gravity, limits=limits), dt
    yield "youbot, PD + gravity saturating", heavy, control.PDGravity(robot, kp, kd, gravity=gravity, limits=limits), dt
    yield "youbot, unstable", plan, control.ComputedTorque(robot, 1e6, 10.0, gravity=gravity), dt

for warm in (0, 1):
    for name, plan, c, dt in cases():
        try:
            r = sim.run_task(plan, c, dt=dt)
        except ValueError as e:
            out = f"ValueError: {e}"
        else:
            rows = b"".join(np.ascontiguousarray(a).tobytes() for a in (r.q, r.qd, r.qdd, r.tau, r.saturated))
            s = c.saturation
            record = None if s is None else (s.calls, s.steps, s.first, s.per_joint, s.peak, s.times)
            out = hashlib.sha256(rows + repr(record).encode()).hexdigest() + " " + r.saturation
        if warm:
            print(name, "|", out)
    native.settle(120)
from armlab.sim import closed_loop
print("loop in C:", closed_loop._driver is not None)
"""


def _results(flag: str) -> list[str]:
    env = {**os.environ, "ARMLAB_NATIVE": flag}
    out = subprocess.run([sys.executable, "-c", _RUN], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()


def test_run_task_in_c_gives_the_python_loops_results_to_the_bit():
    python, c = _results("0"), _results("1")
    assert python.pop() == "loop in C: False" and c.pop() == "loop in C: True"
    assert len(python) == 5 and python == c
    assert "saturated in" in python[3] and "| ValueError: the state became non-finite" in python[4]


def test_the_labs_controllers_run_in_c():
    robot, plan, dt, limits, gravity = __import__("armlab.viz.control", fromlist=["_task"])._task("youbot")
    c = control.ComputedTorque(robot, 400.0, 40.0, gravity=gravity, limits=limits)
    sim.run_task(plan, c, dt=dt)
    assert native.settle(120)
    calls = []
    real = closed_loop.run_stretch

    def spy(*args, **kwargs):
        calls.append(real(*args, **kwargs))
        return calls[-1]

    closed_loop_run = sim.task.run_stretch
    sim.task.run_stretch = spy
    try:
        r = sim.run_task(plan, control.ComputedTorque(robot, 400.0, 40.0, gravity=gravity, limits=limits), dt=dt)
    finally:
        sim.task.run_stretch = closed_loop_run
    assert [k for k, *_ in calls] == [r.pick_step, r.place_step, len(r.t) - 1]  # every step in C
    assert np.isfinite(r.q).all()


def test_a_subclass_that_changes_the_law_keeps_its_own():
    class Softer(control.ComputedTorque):
        def law(self, t, q, qd, qr, qdr, qddr):
            return [0.5 * x for x in super().law(t, q, qd, qr, qdr, qddr)]

    robot, plan, dt, _, gravity = __import__("armlab.viz.control", fromlist=["_task"])._task("paper")
    assert control.ComputedTorque(robot, 1.0, 1.0, gravity=gravity).compiled_law() is not None
    assert Softer(robot, 1.0, 1.0, gravity=gravity).compiled_law() is None


def test_the_loop_in_c_refuses_what_would_read_past_a_buffer():
    """Arguments that do not fit the kernels (another arm's kernel, a short reference, limits of another
    length, a state the law cannot see) leave the stretch to Python: C never reads past a buffer."""
    from armlab.dynamics.model import euler_step_kernel
    from armlab.models import paper_3r, youbot

    arm, other, g = paper_3r(), youbot(), [0.0, 0.0, -9.81]

    def parts():  # the kernels as the cache holds them now
        ct = control.ComputedTorque(arm, 100.0, 20.0, gravity=g)
        return (
            ct.compiled_law(),
            control.ComputedTorque(other, 100.0, 20.0, gravity=g).compiled_law(),
            euler_step_kernel(arm),
        )

    parts(), closed_loop._loop_module()  # asks for their C builds
    assert native.settle(120)
    law, other_law, euler = parts()
    assert all(native.kernel_abi(f) is not None for f in (law[0], other_law[0], euler))
    step = (euler, ("q", "qd", "tau", g, [0.0] * 6, [0.0] * 3, 0.01))
    refs, q = [np.zeros((11, 3))] * 3, [0.1, 0.2, 0.3]
    k, *_ = closed_loop.run_stretch(law, step, refs, None, 0, 10, q, q)
    assert k == 10  # all fits: C runs the stretch
    refused = [
        (other_law, step, refs, None, 0, 10, q, q),  # a 5-joint law on a 3-joint arm
        ((law[0], ("q", "qd", "tau", "qdr", "qddr", *law[1][5:])), step, refs, None, 0, 10, q, q),  # τ in the law
        (law, step, [np.zeros((5, 3))] * 3, None, 0, 10, q, q),  # a reference shorter than the stretch
        (law, step, refs, [1.0, 2.0], 0, 10, q, q),  # limits of two joints
    ]
    for args in refused:
        assert closed_loop.run_stretch(*args) is None
