"""run_task's fast loop against the task's definition written out step by step: the controller's torque held
over each step of semi-implicit Euler (the robot's compiled step), the payload in the plant from the pick to
the place (and in the controller's model, if informed), the energy of each stretch with its own robot. The
two must agree to a relative 1e-12 (the fast loop runs in CasADi), for both arms of chapter 08's control lab."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest

from armlab import control, ik, models, sim
from armlab.dynamics.model import GRAVITY, euler_step_kernel, kinetic_energy, potential_energy
from armlab.sim.task import loaded

PAPER, YOUBOT = models.paper_3r(), models.youbot()


def paper_plan():
    P = models.PAPER_3R
    return sim.plan_pick_and_place(
        PAPER, P["pick"], P["place"], **sim.PAPER_TASK, payload=P["ball_mass"], gravity=models.PAPER_GRAVITY,
        weights=ik.PAPER_WEIGHTS,
    )  # fmt: skip


def youbot_plan(payload):
    pick = YOUBOT.fkine(np.array([-0.644, -0.56, -1.087, 0.076, 2.498]))
    place = YOUBOT.fkine(np.array([0.9, -0.3, -1.3, 0.4, 2.0]))
    return sim.plan_pick_and_place(
        YOUBOT, pick, place, t_pick=1.0, t_place=2.0, t_end=2.4, payload=payload, q0=[0.0, 0.0, 0.0, 0.5, 0.0]
    )


def step_by_step(plan, controller, dt, informed):
    """(q, q̇, q̈, τ, energy, saturation report) of the task by its definition, one step at a time."""
    robot, n = plan.robot, plan.robot.n
    bare = controller.bind(n)
    heavy = bare.with_model(lambda m: loaded(m, plan.payload)) if informed and plan.payload else bare
    bare.reset()
    heavy.reset()
    N, k_pick, k_place = (plan.step_of(t, dt) for t in (plan.t_end, plan.t_pick, plan.t_place))
    ref = [a.tolist() for a in plan.reference(np.arange(N + 1) * dt)]
    g, w, arm = list(plan.gravity), [0.0] * 6, [0.0] * n
    q, qd, rows = plan.q0.tolist(), [0.0] * n, []
    for k in range(N + 1):
        holding = k_pick <= k < k_place
        c = heavy if holding else bare
        tau = c.output(k * dt, q, qd, ref[0][k], ref[1][k], ref[2][k])
        plant = euler_step_kernel(loaded(robot, plan.payload) if holding else robot)
        a, q2, qd2 = plant(q, qd, tau, g, w, arm, dt if k < N else 0.0, math.cos, math.sin)
        rows.append((q, qd, a, tau))
        q, qd = q2, qd2
    Q, QD, QDD, TAU = (np.array([r[i] for r in rows]) for i in range(4))
    energy = np.concatenate(
        [
            kinetic_energy(r, Q[a:b], QD[a:b]) + potential_energy(r, Q[a:b], g)
            for r, a, b in ((robot, 0, k_pick), (loaded(robot, plan.payload), k_pick, k_place), (robot, k_place, N + 1))
        ]
    )  # fmt: skip
    return Q, QD, QDD, TAU, energy, bare.saturation.report() if bare.saturation is not None else "no limits"


def pd_gravity(robot, plan, omega, limits=None, gravity=models.PAPER_GRAVITY):
    kp, kd = control.pd_gains(robot, plan.q_pick, omega)
    return lambda: control.PDGravity(robot, kp, kd, gravity=gravity, limits=limits)


CASES = {
    "paper, computed torque": (
        paper_plan,
        lambda plan: lambda: control.ComputedTorque(PAPER, 400.0, 40.0, gravity=models.PAPER_GRAVITY),
        0.002,
        True,
    ),
    "paper, PID with its integral": (
        paper_plan,
        lambda plan: lambda: control.PID([10.0, 400.0, 100.0], [20.0, 800.0, 200.0], [2.0, 60.0, 15.0]),
        0.002,
        True,
    ),
    "paper, PD + gravity, payload unknown": (paper_plan, lambda plan: pd_gravity(PAPER, plan, 20.0), 0.002, False),
    "youBot, PD + gravity, 1 kg, effort limits": (
        lambda: youbot_plan(1.0),
        lambda plan: pd_gravity(YOUBOT, plan, 20.0, models.YOUBOT_ACTUATORS["effort"], GRAVITY),
        0.004,
        True,
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_run_task_agrees_with_the_task_stepped_by_its_definition(case):
    make_plan, make_controller, dt, informed = CASES[case]
    plan = make_plan()
    make = make_controller(plan)
    run = sim.run_task(plan, make(), dt=dt, informed=informed)
    Q, QD, QDD, TAU, energy, saturation = step_by_step(plan, make(), dt, informed)
    for name, want in (("q", Q), ("qd", QD), ("qdd", QDD), ("tau", TAU), ("energy", energy)):
        scale = max(1.0, float(np.abs(want).max()))  # relative 1e-12 of the quantity's scale
        np.testing.assert_allclose(getattr(run, name), want, rtol=1e-12, atol=1e-12 * scale, err_msg=name)
    assert run.saturation == saturation
    if "limits" in case:
        assert run.saturated.any()  # the case exercises the clipping


def test_the_energy_balance_is_computed_when_first_read():
    """A widget re-running the task never reads the energy: run_task leaves it to the first reader, who gets
    the same four arrays as from the definition above."""
    plan = paper_plan()
    r = sim.run_task(plan, control.ComputedTorque(PAPER, 400.0, 40.0, gravity=models.PAPER_GRAVITY), dt=0.002)
    assert all(
        isinstance(r.trajectory.__dict__[k], sim.trajectory.Energies) for k in ("energy", "work", "drift", "kinetic")
    )
    sent = pickle.loads(pickle.dumps(r))  # to another process: the balance goes computed
    energy = r.energy
    assert energy is r.trajectory.energy and isinstance(r.trajectory.__dict__["energy"], np.ndarray)
    assert np.array_equal(sent.drift, r.drift) and np.array_equal(sent.energy, energy)
    assert r.drift[0] == 0.0 and np.array_equal(r.kinetic, r.trajectory.kinetic) and r.work.shape == energy.shape
