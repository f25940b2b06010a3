"""The controller protocol a simulator uses (control/base.py): ``bind(n)`` and ``with_model(model)`` give
new controllers and never change the one a student built; ``run_task`` uses only them."""

from __future__ import annotations

import numpy as np
import pytest

from armlab import control, models, sim

ARM = models.paper_3r()
G = models.PAPER_GRAVITY


def test_bind_gives_a_sized_copy_and_leaves_the_original_unbound():
    pd = control.PD(100.0, 20.0, limits=5.0)
    bound = pd.bind(3)
    assert bound is not pd and pd.n is None and pd.saturation is None and not hasattr(pd, "kp")
    assert bound.n == 3 and bound.kp == [100.0] * 3 and bound.limits == [5.0] * 3
    assert bound.bind(3) is bound
    with pytest.raises(ValueError, match="for 3 joints, not 2"):
        bound.bind(2)


def test_a_sum_binds_copies_of_its_parts():
    pd, pid = control.PD(1.0, 2.0), control.PID(3.0, 0.5)
    total = (pd + pid).bind(2)
    assert pd.n is None and pid.n is None and [p.n for p in total.parts] == [2, 2]


def test_with_model_makes_a_new_controller_that_shares_gains_state_and_saturation_record():
    heavy_arm = sim.with_payload(ARM, 1.0)
    ct = control.ComputedTorque(ARM, 400.0, 40.0, gravity=G, limits=100.0)
    heavy = ct.with_model(heavy_arm)
    assert ct.model is ARM and heavy.model is heavy_arm and heavy.saturation is ct.saturation
    q = np.radians([0.0, 90.0, 0.0])
    z = np.zeros(3)
    G_bare, G_heavy = ct.step(0.0, q, z, q), heavy.step(0.0, q, z, q)
    np.testing.assert_allclose(G_bare, ARM.gravload(q, G), atol=1e-12)
    np.testing.assert_allclose(G_heavy, heavy_arm.gravload(q, G), atol=1e-12)
    assert ct.saturation.calls == 2  # one record for the two


def test_with_model_of_a_function_changes_each_parts_own_model_and_shares_the_rest():
    wrong = control.perturbed(ARM, 0.2)
    pid = control.PID(10.0, 1.0, 2.0)
    c = pid + control.GravityCompensation(wrong, gravity=G)
    heavy = c.with_model(lambda m: sim.with_payload(m, 0.5))
    assert heavy is not c and heavy.parts[0] is c.parts[0]  # the PID, and its integral, is the same one
    assert c.parts[1].model is wrong and heavy.parts[1].model.links[-1].m == pytest.approx(wrong.links[-1].m + 0.5)
    assert control.PD(1.0, 1.0).with_model(ARM).__class__ is control.PD  # no model: itself
    pdg = control.PDGravity(ARM, 100.0, 20.0, gravity=G)
    other = pdg.with_model(wrong)
    assert pdg.model is ARM and other.model is wrong and other.pd is pdg.pd


def test_model_is_read_only():
    ct = control.ComputedTorque(ARM, 1.0, 1.0, gravity=G)
    with pytest.raises(AttributeError):
        ct.model = sim.with_payload(ARM, 1.0)


def test_run_task_informed_leaves_the_students_controller_as_it_was():
    P = models.PAPER_3R
    plan = sim.plan_pick_and_place(ARM, P["pick"], P["place"], **sim.PAPER_TASK, payload=P["ball_mass"], gravity=G)
    pdg = control.PDGravity(ARM, 400.0, 40.0, gravity=G)
    res = sim.run_task(plan, pdg, dt=0.002, informed=True)
    assert pdg.model is ARM and pdg.gravity_comp.model is ARM
    assert res.ok and res.reason == "" and res.trajectory.ok
    unbound = control.PD(400.0, 40.0, limits=1.0)
    weak = sim.run_task(plan, unbound, dt=0.002)
    assert unbound.n is None  # run_task bound a copy
    assert not weak.ok and weak.reason.startswith("the controller saturated: saturated in")
    assert weak.q is weak.trajectory.q and weak.t[-1] == pytest.approx(2.0)
