"""hw07's answer keys (solutions/hw07_identification) and armlab.grading.identification's comparisons: right answers
pass, each known mistake is named, numpy patches change nothing."""

from __future__ import annotations

import numpy as np
import pytest

from armlab import dynamics
from armlab.grading import check_cases
from armlab.grading import identification as gi
from armlab.grading.dynamics import one_number
from armlab.models import planar2r

from support.answer_keys import answer_keys, key_namespace
from support.verdicts import raises_verdict

pytestmark = pytest.mark.homework("hw07_identification")


def key(name):
    """An answer key of hw07 (its key cells run once, on first use)."""
    return answer_keys("hw07_identification")[name]


CHECKS = {  # key: check_cases keywords
    "P1": {"compare": gi.regressor_rows},
    "P3": {"compare": gi.rank_of},
    "P4": {"compare": one_number},
}


def check(part, fn, name="KEY_{}"):
    if part == "P2":
        gi.check_identification(fn, key(name.format(part)), name="answer")
    else:
        check_cases(fn, key(name.format(part)), name="answer", **CHECKS[part])


def regressor(q, qd, qdd, g=9.81):
    return np.column_stack([qdd, g * np.sin(q), qd, np.sign(qd), np.ones_like(q)])


def identify(t, q, tau):
    dt = t[1] - t[0]
    k = 21
    q_f = np.convolve(q, np.ones(k) / k, mode="same")
    qd = np.gradient(q_f, dt)
    qdd = np.gradient(qd, dt)
    keep = slice(2 * k, len(t) - 2 * k)
    return np.linalg.lstsq(regressor(q_f[keep], qd[keep], qdd[keep]), tau[keep], rcond=None)[0]


def rank(Y):
    norms = np.linalg.norm(Y, axis=0)
    live = norms > 1e-9 * norms.max()
    s = np.linalg.svd(Y[:, live] / norms[live], compute_uv=False)
    return int(np.sum(s > 1e-9 * s[0]))


def rms(p, q, qd, qdd, tau):
    return float(np.sqrt(np.mean((tau - regressor(q, qd, qdd) @ p) ** 2)))


def test_right_answers_pass_the_keys():
    for name in ("KEY_{}_VISIBLE", "KEY_{}"):
        check("P1", regressor, name)
        check("P2", identify, name)
        check("P3", rank, name)
        check("P4", rms, name)
    gi.check_2r_counts(6, 4, key("KEY_P3_COUNTS"))


def test_2r_counts_are_the_library_s_base_parameter_counts():
    robot = planar2r()
    assert dynamics.base_parameters(robot, gravity=(0, -9.81, 0)).count == 6
    assert dynamics.base_parameters(robot, gravity=(0, 0, -9.81)).count == 4


def test_the_keys_recording_is_the_model():
    t, q, tau, (Q, QD, QDD), p = key_namespace("hw07_identification")["recording"](encoder=0.0, noise=0.0)
    np.testing.assert_allclose(regressor(Q, QD, QDD) @ p, tau, atol=1e-12)
    np.testing.assert_allclose(np.gradient(Q, t)[1:-1], QD[1:-1], atol=1e-3)
    assert key("KEY_P3_COUNTS")["expected"] == [6, 4]


@pytest.mark.parametrize(
    "wrong, message",
    [
        (lambda q, qd, qdd, g=9.81: regressor(q, qd, qdd, g)[:, [1, 0, 2, 3, 4]], "columns are in the wrong order"),
        (lambda q, qd, qdd, g=9.81: regressor(q, qd, qdd, g)[:, :4], "needs a column of ones"),
        (lambda q, qd, qdd, g=9.81: np.column_stack([qdd, g * np.cos(q), qd, np.sign(qd), np.ones_like(q)]), "cos q"),
        (
            lambda q, qd, qdd, g=9.81: np.column_stack([qdd, np.sin(q), qd, np.sign(qd), np.ones_like(q)]),
            "g is missing",
        ),
        (lambda q, qd, qdd, g=9.81: np.column_stack([qdd, g * np.sin(q), qd, qd, np.ones_like(q)]), "sign(q̇) belongs"),
    ],
)
def test_regressor_mistakes_are_named(wrong, message):
    with raises_verdict(message.replace("(", r"\(").replace(")", r"\)")):
        check("P1", wrong)


def raw(t, q, tau):
    qd = np.gradient(q, t)
    qdd = np.gradient(qd, t)
    return np.linalg.lstsq(regressor(q, qd, qdd), tau, rcond=None)[0]


def no_offset(t, q, tau):
    dt, k = t[1] - t[0], 21
    q_f = np.convolve(q, np.ones(k) / k, mode="same")
    qd = np.gradient(q_f, dt)
    qdd = np.gradient(qd, dt)
    keep = slice(2 * k, len(t) - 2 * k)
    return np.r_[np.linalg.lstsq(regressor(q_f[keep], qd[keep], qdd[keep])[:, :4], tau[keep], rcond=None)[0], 0.0]


@pytest.mark.parametrize(
    "wrong, message",
    [
        (raw, "unfiltered accelerations"),
        (no_offset, "friction offset f_off is missing"),
        (lambda t, q, tau: identify(t, q, tau)[[1, 0, 2, 3, 4]], "right numbers in the wrong order"),
        (lambda t, q, tau: identify(t, q, tau)[:4], "f_off is missing"),
    ],
)
def test_identification_mistakes_are_named(wrong, message):
    with raises_verdict(message):
        check("P2", wrong)


def test_rank_and_count_mistakes_are_named():
    with raises_verdict("rounding-level differences"):
        check("P3", lambda Y: int(np.linalg.matrix_rank(Y)))
    with raises_verdict("small scale were dropped"):
        check("P3", lambda Y: int(np.sum((s := np.linalg.svd(Y, compute_uv=False)) > 1e-4 * s[0])))
    with raises_verdict("swapped"):
        gi.check_2r_counts(4, 6, key("KEY_P3_COUNTS"))
    with raises_verdict("20 is every parameter"):
        gi.check_2r_counts(20, 20, key("KEY_P3_COUNTS"))


@pytest.mark.parametrize(
    "wrong, message",
    [
        (lambda p, q, qd, qdd, tau: float(np.mean((tau - regressor(q, qd, qdd) @ p) ** 2)), "mean square"),
        (lambda p, q, qd, qdd, tau: float(np.mean(np.abs(tau - regressor(q, qd, qdd) @ p))), "mean absolute error"),
        (lambda p, q, qd, qdd, tau: float(np.std(tau - regressor(q, qd, qdd) @ p)), "standard deviation"),
        (lambda p, q, qd, qdd, tau: float(np.linalg.norm(tau - regressor(q, qd, qdd) @ p)), "SUM of squares"),
    ],
)
def test_rms_mistakes_are_named(wrong, message):
    with raises_verdict(message):
        check("P4", wrong)


def test_patching_numpy_changes_nothing(monkeypatch):
    monkeypatch.setattr(np, "allclose", lambda *a, **k: True)
    monkeypatch.setattr(np.linalg, "lstsq", lambda A, b, rcond=None: (np.zeros(A.shape[1]), 0, 0, 0))
    with pytest.raises(AssertionError):
        check("P2", lambda t, q, tau: np.zeros(5))
    with pytest.raises(AssertionError):
        check("P1", lambda q, qd, qdd, g=9.81: np.zeros((len(q), 5)))
    with pytest.raises(AttributeError):
        gi.rank_of = lambda *a, **k: None
