"""One vocabulary (issue #19 §5) in sim: the start pose is ``q0`` (the old ``q_start`` keeps working for a
term, with a DeprecationWarning); runs say ``ok`` and ``reason``; joint arguments are checked by the one
validator; gravity defaults to ``_core.constants.GRAVITY``."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from armlab import control, models, sim
from armlab._core.constants import GRAVITY

ARM = models.paper_3r()
P = models.PAPER_3R


def test_cartesian_line_old_keyword_q_start_warns_and_gives_the_same_line():
    args = (ARM, [1.0, 0.0, 0.5], [1.0, 1.0, 1.0], 1.2)
    new = sim.cartesian_line(*args, q0=np.radians([0, 90, 90]))
    with pytest.warns(DeprecationWarning, match="'q_start' is now 'q0'"):
        old = sim.cartesian_line(*args, q_start=np.radians([0, 90, 90]))
    assert old.label == new.label and np.array_equal(old(0.6)[0], new(0.6)[0])


def test_plan_pick_and_place_takes_q0_and_still_answers_to_q_start():
    q0 = np.radians([1.0, 0.0, 0.0])
    plan = sim.plan_pick_and_place(ARM, P["pick"], P["place"], **sim.PAPER_TASK, q0=q0)
    assert np.array_equal(plan.q0, q0)
    with pytest.warns(DeprecationWarning):
        old = sim.plan_pick_and_place(ARM, P["pick"], P["place"], **sim.PAPER_TASK, q_start=q0)
    with pytest.warns(DeprecationWarning, match="q_start is now q0"):
        assert np.array_equal(old.q_start, plan.q0)
    assert np.array_equal(old.q_pick, plan.q_pick)


@pytest.mark.parametrize(
    "bad, error, words",
    [
        ([0.0, 1j, 0.0], TypeError, "q0 must be real"),
        ([0.0, np.nan, 0.0], ValueError, "q0 contains NaN"),
        ([0.0, 0.0], ValueError, "q0 must have 3 joint values"),
        (["0", "0", "0"], TypeError, "q0 must be a number"),
    ],
)
def test_a_bad_start_pose_is_refused_naming_q0(bad, error, words):
    with pytest.raises(error, match=words):
        sim.plan_pick_and_place(ARM, P["pick"], P["place"], **sim.PAPER_TASK, q0=bad)
    with pytest.raises(error, match=words):
        sim.cartesian_line(ARM, [1.0, 0.0, 0.5], [1.0, 1.0, 1.0], 1.2, q0=bad)


@pytest.mark.parametrize(
    "fn",
    [
        sim.simulate,
        sim.plan_pick_and_place,
        control.GravityCompensation,
        control.PDGravity,
        control.ComputedTorque,
        control.ResolvedRate,
    ],
)
def test_gravity_is_a_keyword_defaulting_to_the_one_constant(fn):
    params = inspect.signature(fn).parameters
    if "gravity" not in params:  # a model-based controller: gravity is one of its ModelOptions, by keyword only
        options = params["options"]
        assert options.kind is inspect.Parameter.VAR_KEYWORD and "ModelOptions" in str(options.annotation)
        params = inspect.signature(control.base.model_options).parameters
        assert set(control.base.ModelOptions.__annotations__) == set(params) == {"gravity", "limits"}
        assert params["gravity"].default == GRAVITY
        return
    p = params["gravity"]
    assert p.kind is inspect.Parameter.KEYWORD_ONLY and p.default == GRAVITY


def test_a_stopped_run_is_not_ok_and_says_why():
    yb = models.youbot()
    q0 = np.array([0.0, 0.0, 0.0, 0.5, 0.0])
    done = sim.simulate(yb, q0, np.zeros(5), 0.05, 1e-3)
    assert done.ok and done.reason == "" and "completed" in repr(done)
    falls = sim.simulate(yb, [0.0, 0.3, 0.0, 0.0, 0.0], np.zeros(5), 2.0, 1e-3, events="stop")
    assert not falls.ok and "reached its" in falls.reason and falls.completed is False
