"""Issue #19 §5: result objects share ``ok: bool`` and ``reason: str`` ("" when ok), across packages
(docs/architecture.md, "a result's outcome"). IK has its own detailed test (tests/ik/), the simulator
its own (tests/sim/test_vocabulary.py); this one holds every result class to the same two members."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import armlab
from armlab import dynamics, ik, jacobians, models, sim, statics
from armlab.dynamics import params as P
from armlab.autograde import batch

RESULT_CLASSES = [
    ik.IKSolutions,
    jacobians.RateResult,
    sim.Trajectory,
    sim.TaskResult,
    dynamics.Identification,
    statics.InverseStatics,
    batch.Result,
]


def _members(cls):
    names = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
    return names | {k for k, v in vars(cls).items() if isinstance(v, property)}


@pytest.mark.parametrize("cls", RESULT_CLASSES, ids=lambda c: c.__name__)
def test_every_result_class_has_ok_and_reason(cls):
    if cls is dynamics.Identification:  # a plain class: both are set in __init__
        import inspect

        assert {"ok", "reason"} <= set(inspect.signature(cls).parameters)
        return
    assert {"ok", "reason"} <= _members(cls)


def _results():
    puma = models.puma560()
    q = np.radians([20, -30, -50, 10, 30, 50])
    yield "ik", puma.ikine_all(puma.fkine(q)), True
    yield "ik", puma.ikine_all(armlab.Trans(5.0, 0.0, 0.0)), False
    arm = models.planar2r()
    yield (
        "rate",
        jacobians.resolved_rate(arm, [0.3, 0.8], lambda t, q: [0.05, 0.0, 0.0], 0.05, 0.01, part="trans"),
        True,
    )
    yield (
        "rate",
        jacobians.resolved_rate(arm, [0.3, 0.8], lambda t, q: [0.0, 0.0, 0.1], 0.05, 0.01, part="trans"),
        False,
    )
    yb = models.youbot()
    yield "simulate", sim.simulate(yb, [0.0, 0.0, 0.0, 0.5, 0.0], np.zeros(5), 0.02, 1e-3), True
    yield "inverse statics", statics.inverse_statics(puma, q, np.ones(6)), True
    yield "inverse statics", statics.inverse_statics(models.planar2r(), [0.3, 0.8], [1.0, 0.5]), False
    two = models.planar2r(0.4, 0.3, 1.2, 0.8)
    Q, QD, QDD = dynamics.base_params.random_states(two, 200, 7)
    tau = P.regressor_full(two, Q, QD, QDD) @ np.concatenate(
        [np.r_[c, 0.01, 0.1, 0.05, 0.0] for c in P.dynamic_params(two).reshape(2, 10)]
    )
    yield "identify", dynamics.identify(two, Q, QD, QDD, tau), True


@pytest.mark.parametrize("what, result, ok", list(_results()), ids=lambda x: x if isinstance(x, str) else "")
def test_ok_is_a_bool_and_reason_is_empty_exactly_when_ok(what, result, ok):
    assert isinstance(result.ok, bool) and isinstance(result.reason, str)
    assert result.ok is ok and (result.reason == "") is ok, (what, result.reason)
