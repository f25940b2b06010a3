"""The fixed-step loops in CasADi (armlab.sim.closed_loop, armlab._core.graphs): the generated kernels evaluated
as CasADi graphs, and run_task / simulate run through them, agree with the plain Python path to a relative
1e-12 — the motion, the torques, the saturation record and the error of an unstable run — for the labs'
controllers."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from armlab import control, models, sim
from armlab._core.graphs import function
from armlab.control.kernels import computed_torque, pd_gravity
from armlab.dynamics.model import euler_step_kernel
from armlab.sim import closed_loop, task
from armlab.sim.simulate import CASADI_STEPS
from armlab.viz.control import _task

RTOL = 1e-12
GRAVITY = [0.0, 0.0, -9.81]


def assert_agree(got, expected, what=""):
    """Agreement to a relative 1e-12 of the array's scale (entries near zero are compared at that scale)."""
    got, expected = np.asarray(got, dtype=float), np.asarray(expected, dtype=float)
    scale = max(1.0, float(np.abs(expected).max())) if expected.size else 1.0
    np.testing.assert_allclose(got, expected, rtol=RTOL, atol=RTOL * scale, err_msg=what)


@pytest.fixture(scope="module")
def kernels():
    """(kernel, argument sizes) of the youBot's and the paper arm's Euler step and two control laws."""
    out = []
    for robot in (models.youbot(), models.paper_3r()):
        n = robot.n
        out += [
            (euler_step_kernel(robot), [n, n, n, 3, 6, n, 0]),
            (computed_torque(robot, GRAVITY), [n] * 7),
            (pd_gravity(robot, GRAVITY), [n] * 7),
        ]
    return out


@settings(max_examples=60, deadline=None)
@given(values=st.lists(st.floats(-3, 3), min_size=40, max_size=40))
def test_the_kernels_as_casadi_graphs_agree_with_the_python_kernels(kernels, values):
    for kernel, sizes in kernels:
        it = iter(values)
        args = [next(it) * 1e-3 if size == 0 else [next(it) for _ in range(size)] for size in sizes]
        expected = kernel(*args, math.cos, math.sin)
        got = function(kernel, sizes)(*args)
        got = got if isinstance(got, tuple) else (got,)
        groups = expected if isinstance(expected, tuple) else (expected,)
        assert len(got) == len(groups)
        for g, e in zip(got, groups):
            assert_agree(np.ravel(g.full()), e, kernel.__name__)


def test_a_division_by_zero_gives_inf_in_the_graph():
    """A singular M(q): CasADi gives inf or nan where Python raises; the loops check for it (below)."""
    arm = models.planar2r(1.0, 1.0, 0.0, 0.0)  # massless links: M(q) = 0
    step = euler_step_kernel(arm)
    with pytest.raises(ZeroDivisionError):
        step([0.1, 0.2], [0.0, 0.0], [1.0, 1.0], GRAVITY, [0.0] * 6, [0.0, 0.0], 0.01, math.cos, math.sin)
    qdd, _, _ = function(step, [2, 2, 2, 3, 6, 2, 0])(
        [0.1, 0.2], [0.0, 0.0], [1.0, 1.0], GRAVITY, [0.0] * 6, [0, 0], 0.01
    )
    assert not np.isfinite(qdd.full()).all()


def _cases():
    robot, plan, dt, _, gravity = _task("paper")
    yield "paper, computed torque", plan, control.ComputedTorque(robot, 400.0, 40.0, gravity=gravity), dt
    off = control.perturbed(robot, 0.3, seed=8)
    yield "paper, a model 30 % off", plan, control.ComputedTorque(off, 400.0, 40.0, gravity=gravity), dt
    robot, plan, dt, limits, gravity = _task("youbot")
    heavy = sim.plan_pick_and_place(
        robot, plan.pick, plan.place, t_pick=1.0, t_place=2.0, t_end=2.4, payload=1.5, q0=plan.q0
    )
    kp, kd = control.pd_gains(robot, plan.q_pick, 20.0, 1.0)
    yield (
        "youbot, computed torque",
        plan,
        control.ComputedTorque(robot, 400.0, 40.0, gravity=gravity, limits=limits),
        dt,
    )
    yield "youbot, PD + gravity saturating", heavy, control.PDGravity(robot, kp, kd, gravity=gravity, limits=limits), dt
    yield "youbot, unstable", plan, control.ComputedTorque(robot, 1e6, 10.0, gravity=gravity), dt


def _run(plan, controller, dt):
    try:
        r = sim.run_task(plan, controller, dt=dt)
    except ValueError as e:
        return f"ValueError: {e}"
    s = controller.saturation
    record = None if s is None else (s.calls, s.steps, s.first, s.per_joint, s.times)
    return r, record, None if s is None else s.peak


def test_run_task_in_casadi_agrees_with_the_python_loop(monkeypatch):
    compiled = [_run(plan, c, dt) for _, plan, c, dt in _cases()]
    monkeypatch.setattr(task, "_in_casadi", lambda c, step, refs, start, stop, q, qd, h, rows: (start, q, qd))
    python = [_run(plan, c, dt) for _, plan, c, dt in _cases()]
    for name, a, b in zip([c[0] for c in _cases()], compiled, python):
        if isinstance(b, str):  # the unstable run: the same error, raised by the Python loop
            assert a == b and "the state became non-finite" in b, name
            continue
        (ra, rec_a, peak_a), (rb, rec_b, peak_b) = a, b
        for field in ("q", "qd", "qdd", "tau"):
            assert_agree(getattr(ra, field), getattr(rb, field), f"{name}: {field}")
        assert np.array_equal(ra.saturated, rb.saturated) and rec_a == rec_b, name
        if peak_b is not None:
            assert_agree(peak_a, peak_b, f"{name}: peak")
    assert "saturated in" in python[3][0].saturation


def test_the_labs_controllers_run_in_casadi(monkeypatch):
    robot, plan, dt, limits, gravity = _task("youbot")
    calls = []
    real = closed_loop.run_stretch

    def spy(*args, **kwargs):
        calls.append(real(*args, **kwargs))
        return calls[-1]

    monkeypatch.setattr(closed_loop, "run_stretch", spy)
    r = sim.run_task(plan, control.ComputedTorque(robot, 400.0, 40.0, gravity=gravity, limits=limits), dt=dt)
    assert [k for k, *_ in calls] == [r.pick_step, r.place_step, len(r.t) - 1]  # every step in CasADi
    assert np.isfinite(r.q).all()


def test_a_subclass_that_changes_the_law_keeps_its_own():
    class Softer(control.ComputedTorque):
        def law(self, t, q, qd, qr, qdr, qddr):
            return [0.5 * x for x in super().law(t, q, qd, qr, qdr, qddr)]

    robot, plan, dt, _, gravity = _task("paper")
    assert control.ComputedTorque(robot, 1.0, 1.0, gravity=gravity).compiled_law() is not None
    assert Softer(robot, 1.0, 1.0, gravity=gravity).compiled_law() is None


@pytest.mark.parametrize("method", ["euler", "rk4"])
def test_simulate_in_casadi_agrees_with_the_python_loop(monkeypatch, method):
    """Torques given in advance (none, or a table): the steps in CasADi, the same trajectory as Python's."""
    yb = models.youbot()
    q0, qd0 = yb.qlim.mean(axis=1), np.linspace(-0.5, 0.5, yb.n)
    steps = CASADI_STEPS  # the shortest run that goes to CasADi
    table = np.sin(np.arange(steps)[:, None] * 0.05 + np.arange(yb.n)) * 2.0
    runs = {}
    for path in ("casadi", "python"):
        if path == "python":
            monkeypatch.setattr(closed_loop, "run_stretch", lambda law, step, inputs, lim, start, stop, q, qd, m: (
                start, list(q), list(qd), tuple(np.empty((0, yb.n)) for _ in range(5))
            ))  # fmt: skip
        runs[path] = [
            sim.simulate(yb, q0, qd0, steps * 1e-3, 1e-3, method=method, events="ignore"),
            sim.simulate(yb, q0, qd0, steps * 1e-3, 1e-3, tau=table, method=method, events="ignore"),
        ]
    for a, b in zip(runs["casadi"], runs["python"]):
        for field in ("t", "q", "qd", "qdd", "tau", "energy", "work"):
            assert_agree(getattr(a, field), getattr(b, field), field)


def test_a_singular_step_in_casadi_is_left_to_python_which_says_so():
    arm = models.planar2r(1.0, 1.0, 1.0, 0.0)  # the outer link without mass: M(q) singular
    with pytest.raises(ValueError, match=r"M\(q0\) is singular"):
        sim.simulate(arm, [0.1, 0.2], [0.0, 0.0], 10.0, 0.01, method="euler")  # 1000 steps: CasADi's
