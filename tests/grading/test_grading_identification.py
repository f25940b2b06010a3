"""armlab.grading.identification (hw07): right answers pass, each known mistake is named, numpy patches change nothing."""

from __future__ import annotations

import numpy as np
import pytest

from armlab import dynamics
from armlab.grading import identification as gi
from armlab.models import planar2r

from support.verdicts import raises_verdict

pytestmark = pytest.mark.homework("hw07_identification")  # its checkers


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


def test_right_answers_pass():
    gi.check_regressor_function(regressor, seed=1, n=30)
    gi.check_identify_function(identify, seeds=range(7000, 7010))
    gi.check_rank_function(rank, seed=3, n=20)
    gi.check_2r_counts(6, 4)
    gi.check_rms_function(rms, seeds=range(3))


def test_2r_counts_are_the_library_s_base_parameter_counts():
    robot = planar2r()
    assert dynamics.base_parameters(robot, gravity=(0, -9.81, 0)).count == 6
    assert dynamics.base_parameters(robot, gravity=(0, 0, -9.81)).count == 4


def test_pendulum_data_is_the_model():
    t, q, tau, exact, p = gi.pendulum_data(5, encoder=0.0, noise=0.0)
    Q, QD, QDD = np.array(exact).T
    np.testing.assert_allclose(regressor(Q, QD, QDD) @ p, tau, atol=1e-12)
    np.testing.assert_allclose(np.gradient(Q, t)[1:-1], QD[1:-1], atol=1e-3)


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
        gi.check_regressor_function(wrong, cases=[([0.3, -1.2, 2.0], [0.5, -1.0, 0.0], [1.0, 2.0, -1.0], 9.81)])


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
        gi.check_identify_function(wrong, seeds=[7000])


def test_rank_and_count_mistakes_are_named():
    with raises_verdict("rounding-level differences"):
        gi.check_rank_function(lambda Y: int(np.linalg.matrix_rank(Y)), seed=3, n=20)
    with raises_verdict("small scale were dropped"):
        gi.check_rank_function(
            lambda Y: int(np.sum((s := np.linalg.svd(Y, compute_uv=False)) > 1e-4 * s[0])), seed=3, n=20
        )
    with raises_verdict("swapped"):
        gi.check_2r_counts(4, 6)
    with raises_verdict("20 is every parameter"):
        gi.check_2r_counts(20, 20)


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
        gi.check_rms_function(wrong, seeds=[1])


def test_patching_numpy_changes_nothing(monkeypatch):
    monkeypatch.setattr(np, "allclose", lambda *a, **k: True)
    monkeypatch.setattr(np.linalg, "lstsq", lambda A, b, rcond=None: (np.zeros(A.shape[1]), 0, 0, 0))
    with pytest.raises(AssertionError):
        gi.check_identify_function(lambda t, q, tau: np.zeros(5), seeds=[7000])
    with pytest.raises(AttributeError):
        gi.check_rms_function = lambda *a, **k: None
