"""Base parameters, excitation, identification (lab report §3, (3.1)–(3.2)) and the data pipeline."""

from __future__ import annotations

import json

import numpy as np
import pinocchio as pin
import pytest

import armlab
from armlab import dynamics
from armlab.dynamics import params as P
from armlab.models import YOUBOT_ACTUATORS, youbot_driver_to_q, youbot_q_to_driver
from support import random_inertial, random_q, random_robots, to_pin

YOUBOT = armlab.models.youbot()
FRICTION = np.array(
    [
        [0.02, 0.30, 0.10, 0.02],
        [0.03, 0.30, 0.07, -0.02],
        [0.01, 0.15, 0.04, 0.01],
        [0.005, 0.05, 0.04, 0.0],
        [0.004, 0.02, 0.3, 0.0],
    ]
)  # (I_a, f_v, f_c, f_off) per joint
CHIBAR = np.concatenate([P.dynamic_params(YOUBOT).reshape(5, 10), FRICTION], axis=1).reshape(-1)
#: a fixed (not optimised) Fourier excitation about a pose that loads joints 2–4
EXCITATION = dynamics.Excitation(
    a=[[0.3, 0.1, 0.05], [0.25, -0.1, 0.05], [0.3, 0.15, -0.05], [0.3, -0.2, 0.1], [0.5, 0.2, 0.1]],
    b=[[0.1, -0.1, 0.05], [-0.1, 0.1, 0.05], [0.2, -0.1, 0.05], [-0.2, 0.1, 0.05], [0.3, -0.2, 0.1]],
    q0=[0.0, 0.3, -0.8, 1.5, 0.0],
    f0=0.1,
)


def _simulate(excitation, rate=200.0, periods=1.0, robot=YOUBOT, chibar=CHIBAR):
    t, q, qd, qdd = excitation.sample(rate, periods)
    return t, q, qd, qdd, P.regressor_full(robot, q, qd, qdd) @ chibar


# --- base parameters ---------------------------------------------------------------------------------


def _pin_rank(robot, gravity, samples=120, seed=11):
    """Rank of pinocchio's stacked joint-torque regressor: an independent count of the base parameters."""
    model, _, _ = to_pin(robot)
    model.gravity.linear = np.asarray(gravity, float)
    data = model.createData()
    rng = np.random.default_rng(seed)
    Y = [
        pin.computeJointTorqueRegressor(model, data, q, *rng.normal(size=(2, robot.n)))
        for q in random_q(rng, robot, samples)
    ]
    return np.linalg.matrix_rank(np.vstack(Y))


@pytest.mark.parametrize(
    "robot, gravity, count",
    [
        (YOUBOT, dynamics.GRAVITY, 29),
        (armlab.models.planar2r(), (0, 0, -9.81), 4),  # the arm's plane is horizontal: gravity does no work
        (armlab.models.planar2r(), (0, -9.81, 0), 6),  # a vertical plane: link 1's first moments appear too
        (armlab.models.puma560(), dynamics.GRAVITY, 36),
    ],
)
def test_base_parameter_count_agrees_with_an_independent_rank(robot, gravity, count):
    bp = dynamics.base_parameters(robot, gravity=gravity)
    assert bp.count == count == _pin_rank(robot, gravity)
    assert dynamics.base_parameters(robot, friction=True, gravity=gravity).count == count + 3 * robot.n + sum(
        1 for c in bp.columns if False
    ) + (robot.n - _absorbed_armatures(robot, gravity))


def _absorbed_armatures(robot, gravity):
    """Joints whose I_a column equals an inertia column (joint 1 about the vertical, a joint whose axis stays
    perpendicular to all before it): counted by rank of ξ̄ directly."""
    q, qd, qdd = dynamics.base_params.random_states(robot, 150, 5)
    X = P.regressor_full(robot, q, qd, qdd, gravity).reshape(-1, 14 * robot.n)
    return robot.n - (np.linalg.matrix_rank(X) - dynamics.base_parameters(robot, gravity=gravity).count - 3 * robot.n)


def test_youbot_link_1_turns_about_the_vertical_only():
    """7 of link 1's 10 parameters never reach a torque; the other 3 act only as the inertia about z₀:
    Iyy1 + a1²·m1 + 2a1·mx1 (z₀ is y₁ since α1 = π/2; frame 1's origin sits a1 = 33 mm off the axis)."""
    bp = dynamics.base_parameters(YOUBOT)
    assert [bp.all_names[c] for c in bp.zero] == ["my1", "mz1", "Ixx1", "Izz1", "Ixy1", "Ixz1", "Iyz1"]
    first = bp.symbolic[0]
    m1, mx1, Iyy1 = (next(s for s in bp.symbols if s.name == n) for n in ("m1", "mx1", "Iyy1"))
    assert first.coeff(Iyy1) == 1
    assert float(first.coeff(m1)) == pytest.approx(0.033**2)
    assert float(first.coeff(mx1)) == pytest.approx(2 * 0.033)
    assert bp.names[0] == "Iyy1" and sum(n.endswith("1") for n in bp.names) == 1


def test_base_combination_reproduces_the_full_regressor():
    """ξ_B·(β·χ) = ξ·χ for any χ: the grouping loses nothing."""
    rng = np.random.default_rng(4)
    for robot in [YOUBOT] + [random_inertial(rng, r) for r in random_robots(4, 2, n_range=(2, 4))]:
        for friction in (False, True):
            bp = dynamics.base_parameters(robot, friction)
            chi = rng.normal(size=bp.combination.shape[1])
            q, qd, qdd = random_q(rng, robot, 6), rng.normal(size=(6, robot.n)), rng.normal(size=(6, robot.n))
            full = (P.regressor_full if friction else P.regressor)(robot, q, qd, qdd)
            np.testing.assert_allclose(bp.regressor(q, qd, qdd) @ bp.of(chi), full @ chi, atol=1e-9)


# --- identification ------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", dynamics.METHODS)
def test_noise_free_identification_recovers_base_parameters_to_1e_6(method):
    t, q, qd, qdd, tau = _simulate(EXCITATION)
    res = dynamics.identify(YOUBOT, q, qd, qdd, tau, method=method)
    truth = res.params.of(CHIBAR)
    err = np.abs(res.base - truth) / np.maximum(np.abs(truth), 1e-3 * np.abs(truth).max())
    assert err.max() <= 1e-6
    assert np.linalg.norm(res.base - truth) <= 1e-6 * np.linalg.norm(truth)
    assert (res.chi is not None) == (method == "constrained")
    assert res.ok is True and res.reason == ""  # the result objects' shared ok/reason


def test_identification_with_noise_stays_within_the_stated_bound():
    """Effort noise σ = 0.02 N·m and 0.1 mrad encoder steps over two periods at 200 Hz: every base parameter
    within 4 of the fit's own standard deviations of the truth (and the vector within 20 %), and on a fresh
    trajectory (step д of §3.1) the torque RMS within 1.5 σ + 1 % of the torque's spread per joint."""
    rng = np.random.default_rng(7)
    t, q, qd, qdd, tau = _simulate(EXCITATION, periods=2)
    q_meas = np.round(q / 1e-4) * 1e-4
    tau_meas = tau + rng.normal(0, 0.02, tau.shape)
    d = dynamics.prepare(t, q_meas, tau_meas, cutoff=3.0)
    res = dynamics.identify(YOUBOT, d["q"], d["qd"], d["qdd"], d["tau"], method="wls")
    truth = res.params.of(CHIBAR)
    assert np.all(np.abs(res.base - truth) <= 4 * res.std)
    assert np.linalg.norm(res.base - truth) <= 0.2 * np.linalg.norm(truth)
    fresh = dynamics.Excitation(0.8 * EXCITATION.b, 0.8 * EXCITATION.a, EXCITATION.q0, 0.13)
    _, q2, qd2, qdd2, tau2 = _simulate(fresh)
    noisy = tau2 + rng.normal(0, 0.02, tau2.shape)
    rms = res.validate(q2, qd2, qdd2, noisy)
    assert np.all(rms <= 1.5 * 0.02 + 0.01 * np.ptp(tau2, axis=0))
    Y2 = res.params.regressor(q2, qd2, qdd2)  # a caller that has ξ_B already passes it
    np.testing.assert_allclose(res.validate(q2, qd2, qdd2, noisy, regressor=Y2), rms, rtol=1e-12)
    with pytest.raises(ValueError, match="regressor must have shape"):
        res.validate(q2, qd2, qdd2, noisy, regressor=Y2[:, :, 1:])


def test_error_table_gives_the_absolute_error_where_the_true_base_parameter_is_zero():
    """Chapter 07's table of true against identified base parameters: the youBot has no friction offset on
    joints 4 and 5 and no first moment m·x of link 5, so those true base parameters are 0 and a relative
    error (once printed as 10⁸ %, a division by a floor of 1e-12) is undefined. relative_error says NaN
    there; the table shows the absolute error, marked "abs", and says why."""
    rng = np.random.default_rng(7)
    t, q, qd, qdd, tau = _simulate(EXCITATION, periods=2)
    res = dynamics.identify(YOUBOT, q, qd, qdd, tau + rng.normal(0, 0.02, tau.shape), method="wls")
    truth = res.params.of(CHIBAR)
    zero = np.abs(truth) <= 1e-12 * np.abs(truth).max()
    names = np.asarray(res.params.names)
    assert {"foff4", "foff5"} <= set(names[zero])
    rel = res.relative_error(CHIBAR)
    assert np.isnan(rel[zero]).all()
    np.testing.assert_allclose(rel[~zero], np.abs(res.base - truth)[~zero] / np.abs(truth[~zero]))
    table = res.error_table(CHIBAR).splitlines()
    assert len(table) == 1 + res.params.count + 1  # header, one line a parameter, the note
    rows = {line.split()[0]: line for line in table[1:-1]}
    for k in np.flatnonzero(zero):
        assert rows[names[k]].endswith(f"{abs(res.base[k] - truth[k]):7.1e} abs"), rows[names[k]]
    for k in np.flatnonzero(~zero):
        assert rows[names[k]].endswith(f"{rel[k]:.1%}"), rows[names[k]]
    assert "true value is 0" in table[-1] and "foff4" in table[-1]
    big = [line.split()[0] for line in table[1:4]]  # largest true value first
    assert big == list(names[np.argsort(-np.abs(truth), kind="stable")[:3]])


def test_wls_weights_each_joint_by_its_noise():
    rng = np.random.default_rng(8)
    t, q, qd, qdd, tau = _simulate(EXCITATION, periods=2)
    noise = np.array([0.2, 0.02, 0.02, 0.02, 0.002])
    tau_meas = tau + rng.normal(size=tau.shape) * noise
    ols = dynamics.identify(YOUBOT, q, qd, qdd, tau_meas, method="ols")
    wls = dynamics.identify(YOUBOT, q, qd, qdd, tau_meas, method="wls")
    np.testing.assert_allclose(wls.sigma, noise, rtol=0.25)
    truth = wls.params.of(CHIBAR)
    assert np.linalg.norm(wls.base - truth) < np.linalg.norm(ols.base - truth)


def test_constrained_fit_is_physically_consistent_where_least_squares_is_not():
    """A short, weak record with noise: OLS may return a negative mass or inertia combination; the
    constrained fit is consistent (masses > 0, triangle inequality, pseudo-inertias and M(q) positive
    definite, friction ≥ 0) and costs little residual."""
    rng = np.random.default_rng(3)
    weak = dynamics.Excitation(0.3 * EXCITATION.a, 0.3 * EXCITATION.b, EXCITATION.q0, 0.1)
    t, q, qd, qdd, tau = _simulate(weak, rate=50.0)
    tau_meas = tau + rng.normal(0, 0.05, tau.shape)
    ols = dynamics.identify(YOUBOT, q, qd, qdd, tau_meas, method="wls")
    con = dynamics.identify(YOUBOT, q, qd, qdd, tau_meas, method="constrained")
    report = con.consistency()
    assert report["consistent"] and report["M_positive_definite"] and report["friction_nonnegative"]
    assert all(L["mass_positive"] and L["triangle"] for L in report["links"])
    np.testing.assert_allclose(con.base, con.params.of(con.chi))
    assert np.all(con.rms <= 1.2 * ols.rms + 1e-3)
    assert (ols.consistency()["consistent"] is False) or np.linalg.norm(con.base - ols.base) < 0.1 * np.linalg.norm(
        ols.base
    )


def test_constrained_fit_is_optimal_among_consistent_neighbours():
    """No small consistent perturbation of χ̄ lowers the weighted residual (the fit is a minimum of the
    convex problem on the consistent set)."""
    rng = np.random.default_rng(5)
    robot = armlab.models.planar2r(0.4, 0.3, 1.2, 0.8)
    ex = dynamics.Excitation([[0.5, 0.2], [0.6, -0.3]], [[0.2, 0.1], [-0.3, 0.2]], [0.0, 0.5], 0.2)
    chib = np.concatenate([np.r_[c, 0.01, 0.1, 0.05, 0.0] for c in P.dynamic_params(robot).reshape(2, 10)])
    t, q, qd, qdd, tau = _simulate(ex, rate=100.0, robot=robot, chibar=chib)
    tau = tau + rng.normal(0, 0.3, tau.shape)
    res = dynamics.identify(robot, q, qd, qdd, tau, method="constrained", pull=0.0)
    X = P.regressor_full(robot, q, qd, qdd).reshape(-1, 28)
    w = np.repeat(1 / res.sigma[None], len(q), axis=0).reshape(-1)
    cost = lambda c: np.sum((w * (X @ c - tau.reshape(-1))) ** 2)  # noqa: E731
    best = cost(res.chi)
    for _ in range(200):
        c = res.chi + 1e-4 * rng.normal(size=28) * np.abs(res.chi).clip(1e-3)
        links_ok = all(dynamics.link_consistency(c[14 * k : 14 * k + 10])["consistent"] for k in range(2))
        if links_ok and (c.reshape(2, 14)[:, 10:13] >= 0).all():
            assert cost(c) >= best * (1 - 1e-9)


# --- bad input -----------------------------------------------------------------------------------------


def test_mismatched_lengths_are_named():
    t, q, qd, qdd, tau = _simulate(EXCITATION, rate=20.0)
    with pytest.raises(ValueError, match=r"one length.*'tau': 199"):
        dynamics.identify(YOUBOT, q, qd, qdd, tau[:-1])
    with pytest.raises(ValueError, match=r"qd must be an \(N, 5\)"):
        dynamics.identify(YOUBOT, q, qd[:, :4], qdd, tau)
    with pytest.raises(ValueError, match="t has 199 samples but q and tau have 200"):
        dynamics.prepare(t[:-1], q, tau)
    with pytest.raises(ValueError, match="method must be one of"):
        dynamics.identify(YOUBOT, q, qd, qdd, tau, method="ml")
    with pytest.raises(TypeError, match="qdd must be real numbers"):  # not cast to its real part
        dynamics.identify(YOUBOT, q, qd, qdd + 1e-3j, tau)
    with pytest.raises(TypeError, match="tau must be real numbers"):
        dynamics.prepare(t, q, tau + 1e-3j)


def test_nan_is_an_error_or_an_explicit_mask_never_a_silent_fit():
    t, q, qd, qdd, tau = _simulate(EXCITATION, rate=200.0)
    tau_bad = tau.copy()
    tau_bad[500:503, 2] = np.nan
    with pytest.raises(ValueError, match="tau has NaN or inf in 3 of 2000 samples"):
        dynamics.identify(YOUBOT, q, qd, qdd, tau_bad)
    with pytest.raises(ValueError, match="nan='drop'"):
        dynamics.prepare(t, q, tau_bad)
    d = dynamics.prepare(t, q, tau_bad, nan="drop", cutoff=5.0)
    assert np.isfinite(d["tau"]).all() and not np.isin(t[500:503], d["t"]).any()
    # the two stretches are filtered apart: no sample near the gap is smoothed across it
    res = dynamics.identify(YOUBOT, d["q"], d["qd"], d["qdd"], d["tau"])
    truth = res.params.of(CHIBAR)
    assert np.linalg.norm(res.base - truth) < 1e-3 * np.linalg.norm(truth)


def test_a_hole_in_the_stamps_splits_the_record_as_nan_does_never_a_made_up_motion():
    """0.3 s of states missing at the lab's 50 Hz (a busy machine's late ticks): the stretches on each side are
    filtered and differentiated apart, exactly as if the hole were NaN, and the fit is as good as the whole
    record's. Interpolated across, the hole's made-up q̈ puts the fit off by half."""
    t, q, _, _, tau = _simulate(EXCITATION, rate=50.0)
    hole = np.zeros(t.size, bool)
    hole[200:215] = True
    assert 15 > dynamics.pipeline.GAP
    d = dynamics.prepare(t[~hole], q[~hole], tau[~hole], cutoff=5.0)
    as_nan = dynamics.prepare(t, q, np.where(hole[:, None], np.nan, tau), nan="drop", cutoff=5.0)
    assert d.keys() == as_nan.keys() and all(np.array_equal(d[k], as_nan[k]) for k in d)

    def error(d):
        res = dynamics.identify(YOUBOT, d["q"], d["qd"], d["qdd"], d["tau"])
        truth = res.params.of(CHIBAR)
        return np.linalg.norm(res.base - truth) / np.linalg.norm(truth)

    assert error(d) < 1.1 * error(dynamics.prepare(t, q, tau, cutoff=5.0))


def test_rank_deficient_trajectory_is_detected_and_explained():
    t, q, qd, qdd, tau = _simulate(EXCITATION, rate=50.0)
    q[:, 4], qd[:, 4], qdd[:, 4] = 0.3, 0.0, 0.0  # the wrist never turns
    with pytest.raises(ValueError, match=r"rank-deficient.*never excite.*fv5.*joint 5 never moves"):
        dynamics.identify(YOUBOT, q, qd, qdd, tau)
    one = dynamics.Excitation(np.c_[EXCITATION.a[:, :1]], np.zeros((5, 1)), EXCITATION.q0, 0.1)
    _, q, qd, qdd, tau = _simulate(one, rate=50.0)  # one sine per joint, all in phase: too poor
    with pytest.raises(ValueError, match=r"rank-deficient \(condition number .*cannot tell"):
        dynamics.identify(YOUBOT, q, qd, qdd, tau)


def test_base_parameters_rejects_a_wrong_chi():
    with pytest.raises(ValueError, match="chi must have 70 entries"):
        dynamics.base_parameters(YOUBOT, True).of(np.zeros(50))


# --- excitation ----------------------------------------------------------------------------------------


def test_fourier_excitation_derivatives_are_exact():
    t = np.linspace(0, 10, 2001)
    q, qd, qdd = EXCITATION(t)
    np.testing.assert_allclose(np.gradient(q, t, axis=0)[1:-1], qd[1:-1], atol=2e-4)
    np.testing.assert_allclose(np.gradient(qd, t, axis=0)[1:-1], qdd[1:-1], atol=2e-4)
    np.testing.assert_allclose(EXCITATION(t + EXCITATION.period)[0], q, atol=1e-12)  # periodic


def test_designed_excitation_is_inside_the_limits_and_better_conditioned():
    ex = dynamics.design_excitation(
        YOUBOT,
        harmonics=2,
        max_speed=YOUBOT_ACTUATORS["max_speed"],
        max_effort=YOUBOT_ACTUATORS["effort"],
        margin=0.1,
        maxiter=15,
        starts=2,
    )
    peaks = ex.peaks(YOUBOT)
    lo, hi = YOUBOT.qlim.T
    assert np.all(peaks["q_min"] >= lo + 0.05 * (hi - lo) - 1e-6) and np.all(
        peaks["q_max"] <= hi - 0.05 * (hi - lo) + 1e-6
    )
    assert np.all(peaks["qd_max"] <= 0.9 * YOUBOT_ACTUATORS["max_speed"] + 1e-6)
    assert np.all(peaks["tau_max"] <= 0.9 * YOUBOT_ACTUATORS["effort"] + 1e-3)
    assert ex.cond == pytest.approx(dynamics.regressor_condition(YOUBOT, ex, samples=50))
    assert ex.cond < ex.start_cond and ex.cond < 1e3


# --- lab logs ------------------------------------------------------------------------------------------


def _write_log(path, t, q, tau, mapping=True, rate=50.0):
    """A session log as armlab.lab writes it: driver angles and signs, robot stamps, arrival times."""
    sign = youbot_driver_to_q(np.ones(5)) - youbot_driver_to_q(np.zeros(5))
    meta = {"kind": "open", "t": 0.0, "format": "armlab-lab-log/1", "rate": rate}
    if mapping:
        meta["driver_to_dh"] = {"sign": sign.tolist(), "offset": youbot_driver_to_q(np.zeros(5)).tolist()}
    lines = [json.dumps(meta)]
    rng = np.random.default_rng(1)
    for tk, qk, ek in zip(t, q, tau):
        lines.append(
            json.dumps(
                {
                    "kind": "state",
                    "t": 1000.0 + tk + 0.002,
                    "stamp": 500.0 + tk + rng.normal(0, 1e-4),
                    "q_driver": youbot_q_to_driver(qk).tolist(),
                    "qd_driver": [0.0] * 5,
                    "effort_driver": (sign * ek).tolist(),
                    "q_cmd_driver": None,
                }
            )
        )
    path.write_text("\n".join(lines) + "\n")


def test_identify_log_maps_driver_angles_and_recovers_the_model(tmp_path):
    from armlab.lab.ident import identify_log
    from armlab.lab.log import identification_data, load_states

    t, q, qd, qdd, tau = _simulate(EXCITATION, rate=50.0, periods=2)
    log = tmp_path / "session.jsonl"
    _write_log(log, t, np.round(q / 1e-4) * 1e-4, tau)
    states = load_states(log)  # the log's own driver_to_dh record maps driver angles and signs to DH
    np.testing.assert_allclose(states["q"], q, atol=1e-4)
    np.testing.assert_allclose(states["effort"], tau, atol=1e-12)
    res = identify_log(log, YOUBOT, cutoff=2.0)
    _, q2, qd2, qdd2, tau2 = _simulate(dynamics.Excitation(EXCITATION.b, EXCITATION.a, EXCITATION.q0, 0.12), rate=50.0)
    assert np.all(res.validate(q2, qd2, qdd2, tau2) <= 0.02 * np.ptp(tau2, axis=0) + 0.01)
    assert res.data["q"].shape[0] == res.samples
    # the one path: identify_log fits exactly the arrays identification_data makes of the log
    data = identification_data(log, cutoff=2.0)
    np.testing.assert_array_equal(data["qdd"], res.data["qdd"])
    np.testing.assert_allclose(
        res.base, dynamics.identify(YOUBOT, data["q"], data["qd"], data["qdd"], data["tau"], method="wls").base
    )
    # a time window (arrival times on the lab machine)
    part = identify_log(log, YOUBOT, t_start=1000.0, t_end=1015.0, cutoff=2.0)
    assert part.samples < res.samples


def test_identify_log_without_the_driver_map_asks_for_it(tmp_path):
    from armlab.lab.ident import identify_log

    t, q, qd, qdd, tau = _simulate(EXCITATION, rate=50.0)
    log = tmp_path / "old.jsonl"
    _write_log(log, t, q, tau, mapping=False)
    with pytest.raises(ValueError, match="to_dh=armlab.models.youbot_driver_to_q"):
        identify_log(log, YOUBOT)
    res = identify_log(log, YOUBOT, to_dh=youbot_driver_to_q, cutoff=2.0)
    assert res.samples > 300


def test_identify_log_hands_each_option_to_identification_data_or_identify(tmp_path):
    from armlab.lab.ident import identify_log
    from armlab.lab.log import identification_data

    t, q, qd, qdd, tau = _simulate(EXCITATION, rate=50.0)
    log = tmp_path / "session.jsonl"
    _write_log(log, t, q, tau)
    res = identify_log(log, YOUBOT, cutoff=2.0, t_end=1006.0, method="ols", friction=False, pull=0.5)
    data = identification_data(log, t_end=1006.0, cutoff=2.0)
    fit = dynamics.identify(YOUBOT, data["q"], data["qd"], data["qdd"], data["tau"], method="ols", friction=False)
    np.testing.assert_array_equal(res.data["tau"], data["tau"])
    np.testing.assert_allclose(res.base, fit.base)
    with pytest.raises(TypeError, match=r"unknown option\(s\) \['cutof'\].*'cutoff'.*identify.*'prior'"):
        identify_log(log, YOUBOT, cutof=2.0)


# --- the chapter's widget ------------------------------------------------------------------------------


def test_excitation_explorer_sliders_update_condition_error_and_plots():
    from armlab.viz import excitation_explorer

    ex = excitation_explorer(harmonics=3, amplitude=0.8, noise=0.0)
    assert ex.errors.max() < 1e-6 and 10 < ex.cond < 1e4  # noise-free: the truth, whatever the trajectory
    before = ex.updates
    ex.sliders["noise"].value = 0.05
    assert ex.updates == before + 1 and np.median(ex.errors) > 1e-4
    assert "cond(Ξ)" in ex.readout.value and "Iyy1" in ex.bars.value
    (shown,) = ex.plot.shown  # the excitation, one series per joint, drawn over the whole period
    assert shown.title.startswith("the excitation") and shown.points.shape == (
        6,
        len(ex.t[::3]),
    )  # 1000 samples: every 3rd
    ex.sliders["harmonics"].value = 1.0  # one sine per joint: rank-deficient, said so
    assert ex.result is None and "rank-deficient" in ex.readout.value
    lo, hi = ex.robot.qlim.T
    p = ex.excitation.peaks(ex.robot)
    assert np.all(p["q_min"] >= lo) and np.all(p["q_max"] <= hi)
