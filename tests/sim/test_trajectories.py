"""Reference trajectories (armlab.sim.trajectories): boundary conditions, the textbook peak values,
limits and what is infeasible, via points, sequences, and straight Cartesian lines through IK."""

from __future__ import annotations

import numpy as np
import pytest

from armlab import models, sim

RNG = np.random.default_rng(2016)


def random_state(n=3):
    return RNG.uniform(-2, 2, n), RNG.uniform(-1, 1, n), RNG.uniform(-3, 3, n)


@pytest.mark.parametrize("trial", range(10))
def test_quintic_meets_six_boundary_conditions(trial):
    (q0, v0, a0), (q1, v1, a1) = random_state(), random_state()
    T, t0 = RNG.uniform(0.3, 3.0), RNG.uniform(-1, 1)
    ref = sim.quintic(q0, q1, T, qd0=v0, qd1=v1, qdd0=a0, qdd1=a1, t0=t0)
    for t, want in ((t0, (q0, v0, a0)), (t0 + T, (q1, v1, a1))):
        for got, w in zip(ref(t), want):
            np.testing.assert_allclose(got, w, atol=1e-9)


@pytest.mark.parametrize("trial", range(5))
def test_cubic_meets_four_boundary_conditions(trial):
    (q0, v0, _), (q1, v1, _) = random_state(), random_state()
    T = RNG.uniform(0.3, 3.0)
    ref = sim.cubic(q0, q1, T, qd0=v0, qd1=v1)
    for t, (q, v) in ((0.0, (q0, v0)), (T, (q1, v1))):
        np.testing.assert_allclose(ref(t)[0], q, atol=1e-9)
        np.testing.assert_allclose(ref(t)[1], v, atol=1e-9)


def test_rest_to_rest_peaks_quintic_15_over_8_and_10_over_sqrt3_cubic_3_over_2_and_6():
    """Rest to rest over Δq in T: quintic peak q̇ = 15Δq/(8T), peak q̈ = 10Δq/(√3·T²); cubic 3Δq/(2T), 6Δq/T²."""
    dq, T = np.array([1.0, -0.4]), 2.0
    v, a = sim.quintic([0, 0], dq, T).peaks()
    np.testing.assert_allclose(v, 15 * abs(dq) / (8 * T), rtol=1e-9)
    np.testing.assert_allclose(a, 10 * abs(dq) / (np.sqrt(3) * T**2), rtol=1e-4)  # sampled peak
    v, a = sim.cubic([0, 0], dq, T).peaks()
    np.testing.assert_allclose(v, 1.5 * abs(dq) / T, rtol=1e-9)
    np.testing.assert_allclose(a, 6 * abs(dq) / T**2, rtol=1e-9)


def test_derivatives_are_consistent_and_calls_are_vectorised():
    ref = sim.via_points([[0, 0], [1, 0.5], [0.5, 1.0], [0, 0]], [0, 1, 2.5, 3])
    t = np.linspace(0, 3, 30001)
    q, qd, qdd = ref(t)
    assert q.shape == qd.shape == qdd.shape == (30001, 2)
    np.testing.assert_allclose(np.gradient(q, t, axis=0)[1:-1], qd[1:-1], atol=2e-6)
    smooth = np.abs(t[:, None] - np.array([1.0, 2.5])).min(axis=1) > 2e-4  # the jerk jumps at via points
    np.testing.assert_allclose(np.gradient(qd, t, axis=0)[smooth][1:-1], qdd[smooth][1:-1], atol=1e-5)
    for k in (0, 7777, 30000):  # one time at a time gives the same rows
        for a, b in zip(ref(t[k]), (q[k], qd[k], qdd[k])):
            np.testing.assert_allclose(a, b, atol=1e-12)


def test_via_points_pass_through_with_continuous_velocity_and_acceleration():
    P = np.array([[0.0, 0.0], [1.0, 0.5], [0.5, 1.0], [0.0, 0.0]])
    times = np.array([0.0, 1.0, 2.5, 3.0])
    ref = sim.via_points(P, times)
    np.testing.assert_allclose(ref(times)[0], P, atol=1e-12)
    eps = 1e-7
    for t in times[1:-1]:
        for before, after in zip(ref(t - eps), ref(t + eps)):
            np.testing.assert_allclose(before, after, atol=1e-4)
    qd = ref(times)[1]
    np.testing.assert_allclose(qd[[0, -1]], 0.0, atol=1e-12)  # at rest at both ends
    assert qd[1, 0] == 0.0 and qd[1, 1] > 0  # joint 1 turns round at point 2: it stops there; joint 2 does not


def test_trapezoidal_least_time_limits_and_synchronised_arrival():
    q0, q1 = np.array([0.0, 0.0, 1.0]), np.array([2.0, -0.3, 1.0])
    vmax, amax = np.array([1.0, 1.0, 1.0]), np.array([2.0, 4.0, 1.0])
    ref = sim.trapezoidal(q0, q1, qd_max=vmax, qdd_max=amax)
    # joint 1 is the slowest: D/v + v/a = 2/1 + 1/2
    assert ref.duration == pytest.approx(2.5)
    v, a = ref.peaks()
    assert np.all(v <= vmax + 1e-12) and np.all(a <= amax + 1e-12)
    assert v[0] == pytest.approx(1.0)  # joint 1 cruises at its limit; joint 2 slower, to arrive with it
    np.testing.assert_allclose(ref(ref.t1)[0], q1, atol=1e-12)
    np.testing.assert_allclose(ref(ref.t1)[1], 0.0, atol=1e-12)
    tri = sim.trapezoidal([0.0], [0.1], qd_max=1.0, qdd_max=1.0)  # too short to reach cruise: a triangle
    assert tri.duration == pytest.approx(2 * np.sqrt(0.1)) and tri.peaks()[0][0] == pytest.approx(
        np.sqrt(0.1), rel=1e-3
    )
    slow = sim.trapezoidal(q0, q1, qd_max=vmax, qdd_max=amax, T=4.0)
    assert slow.duration == 4.0 and np.all(slow.peaks()[0] < vmax)


def test_infeasible_trajectories_are_refused_with_the_least_feasible_time():
    with pytest.raises(ValueError, match=r"joint 1 needs at least T = 2\.5 s"):
        sim.trapezoidal([0.0], [2.0], qd_max=1.0, qdd_max=2.0, T=2.0)
    with pytest.raises(
        ValueError, match=r"infeasible trajectory: joint 2 needs a peak velocity of 3\.75 .*at least T = 1\.875 s"
    ):
        sim.quintic([0.0, 0.0], [0.1, 2.0], 1.0, qd_max=2.0)
    with pytest.raises(ValueError, match="peak acceleration"):
        sim.cubic([0.0], [1.0], 0.5, qdd_max=1.0)
    ok = sim.quintic([0.0], [2.0], 1.875, qd_max=2.0)  # exactly at the limit is feasible
    assert ok.peaks()[0][0] == pytest.approx(2.0)


def test_before_the_start_hold_after_the_end_coast():
    ref = sim.quintic([0.0], [1.0], 1.0, qd1=0.5, t0=1.0)
    q, qd, qdd = ref(np.array([0.0, 3.0]))
    assert q[0, 0] == 0.0 and qd[0, 0] == 0.0
    assert q[1, 0] == pytest.approx(1.0 + 0.5 * 1.0) and qd[1, 0] == 0.5 and qdd[1, 0] == 0.0


def test_sequence_runs_parts_in_turn_and_refuses_a_jump():
    a = sim.quintic([0, 0], [1, 1], 1.0)
    b = sim.hold([1, 1], 0.5)
    c = sim.quintic([1, 1], [0, 2], 2.0)
    s = sim.sequence(a, b, c)
    assert s.duration == 3.5 and s.starts == [0.0, 1.0, 1.5]
    np.testing.assert_allclose(s(np.array([1.2, 3.5]))[0], [[1, 1], [0, 2]], atol=1e-12)
    t, q, qd, qdd = s.sample(0.01)
    assert len(t) == 351 and q.shape == (351, 2)
    with pytest.raises(ValueError, match="part 2 starts at q"):
        sim.sequence(a, sim.hold([0, 0], 1.0))


def test_cartesian_line_keeps_the_tool_on_the_line():
    arm = models.paper_3r()
    line = sim.cartesian_line(arm, [1.0, 0.0, 0.5], [1.0, 1.0, 1.0], 1.2, q0=np.radians([0, 90, 90]))
    t, q, qd, qdd = line.sample(0.001)
    p, pd, _ = line.x(t)
    np.testing.assert_allclose(arm.fkine(q)[:, :3, 3], p, atol=1e-9)
    np.testing.assert_allclose(np.einsum("kij,kj->ki", arm.jacob0(q)[:, :3], qd), pd, atol=1e-9)
    np.testing.assert_allclose(np.gradient(qd, t, axis=0)[2:-2], qdd[2:-2], atol=5e-4)
    # one branch all the way: the elbow stays up (front-up)
    assert line.label == "front-up" and np.all(arm.fkine_all(q)[:, 2, 2, 3] > 0.5)


def test_cartesian_line_refuses_singularities_and_unreachable_points():
    arm = models.paper_3r()
    with pytest.raises(ValueError, match="crosses a singularity"):  # through the base axis
        sim.cartesian_line(arm, [1.0, 0.0, 1.5], [-1.0, 0.0, 1.5], 1.0)
    with pytest.raises(ValueError, match="leaves the workspace"):
        sim.cartesian_line(arm, [1.0, 0.0, 1.0], [2.5, 0.0, 1.0], 1.0)
    with pytest.raises(ValueError, match="out of reach"):
        sim.cartesian_line(arm, [3.0, 0.0, 1.0], [1.0, 0.0, 1.0], 1.0)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: sim.quintic([0.0, np.nan], [1, 1], 1.0), "q0 contains NaN"),
        (lambda: sim.quintic([0.0], [1.0], 0.0), "T must be a duration > 0"),
        (lambda: sim.quintic([0.0, 0.0], [1.0, 1.0, 1.0], 1.0), "q1 must have 2"),
        (lambda: sim.via_points([[0.0], [1.0]], [1.0, 1.0]), "times must increase"),
        (lambda: sim.trapezoidal([0.0], [1.0], qd_max=0.0, qdd_max=1.0), "must be > 0"),
        (lambda: sim.quintic([0.0], [1.0], 1.0)(np.ones((2, 2))), "t must be a number or a 1-D array"),
    ],
)
def test_bad_input_names_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: sim.quintic([0.0], [1.0], 1.0, qd_mx=1.0), "qd_mx"),
        (lambda: sim.cubic([0.0], [1.0], 1.0, qdd0=1.0), "cubic.* takes no qdd0 or qdd1"),
        (lambda: sim.via_points([[0.0], [1.0]], [0.0, 1.0], qdd_mx=1.0), "qdd_mx"),
    ],
)
def test_an_option_a_trajectory_does_not_take_is_a_type_error_naming_it(call, match):
    with pytest.raises(TypeError, match=match):
        call()


def test_quintic_and_cubic_options_are_their_typed_dicts_and_limits_one_type():
    """The keyword options of the two polynomials, and the rate limits every reference is checked against."""
    assert set(sim.trajectories.RateLimits.__annotations__) == {"qd_max", "qdd_max"}
    assert set(sim.trajectories.CubicOptions.__annotations__) == {"qd0", "qd1", "t0", "qd_max", "qdd_max"}
    assert set(sim.trajectories.QuinticOptions.__annotations__) == {"qd0", "qd1", "qdd0", "qdd1", "t0"} | {
        "qd_max",
        "qdd_max",
    }
    ref = sim.cubic([0.0], [1.0], 2.0, qd0=0.5, qd1=-0.5, t0=1.0, qd_max=5.0, qdd_max=5.0)
    q, qd, _ = ref(np.array([1.0, 3.0]))
    np.testing.assert_allclose(q[:, 0], [0.0, 1.0])
    np.testing.assert_allclose(qd[:, 0], [0.5, -0.5])
