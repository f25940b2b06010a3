"""Resolved-rate motion control (armlab.jacobians.resolved_rate) never reports success while it diverges.

The plain pseudo-inverse makes ‖J·q̇ − ẋ‖ zero even beside a singularity, so that test alone sees nothing;
the run also watches the joint rates and the hand's distance from the path the velocities describe."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from armlab import jacobians as jb
from support.course_setups import PUMA_FLANGE as ARM
from support.course_setups import puma_line_through_the_wrist

OFF = dict(give_up_error=np.inf, give_up_rate=np.inf, give_up_path=np.inf)  # never give up


def _line_through_the_wrist_singularity(theta5_deg=0.5):
    """Chapter 04's line through θ5 = theta5_deg, without feedback: the path is the straight line itself."""
    q0, T_start, _, v = puma_line_through_the_wrist(theta5_deg)
    return q0, T_start, (lambda t, q: np.r_[v, 0.0, 0.0, 0.0]), v


def test_pseudo_inverse_stops_at_the_puma_wrist_singularity():
    q0, _, vel, _ = _line_through_the_wrist_singularity()
    blind = jb.resolved_rate(ARM, q0, vel, 1.0, 0.005, damped=False, **OFF)
    # what the old give-up test saw: ok, no tracking error, while the wrist spins at over 100 rad/s
    assert blind.ok and np.abs(blind.qd).max() > 100.0
    res = jb.resolved_rate(ARM, q0, vel, 1.0, 0.005, damped=False)
    assert not res.ok and "joint 4 would move at" in res.reason and "give_up_rate = 20" in res.reason
    assert "use damping" in res.reason and res.steps < 100
    assert np.abs(res.qd[:-1]).max() <= 20.0 < np.abs(res.qd[-1]).max()  # it stops at the first step over
    assert res.sigma_min[-1] < 0.01 and np.isfinite(res.q).all()
    damped = jb.resolved_rate(ARM, q0, vel, 1.0, 0.005, damped=True)
    assert damped.ok and damped.reason == "" and damped.steps == 200
    assert np.abs(damped.qd).max() < 1.0 and damped.path_error.max() < 0.005  # m and rad


def test_path_error_is_the_distance_from_the_integral_of_the_requested_velocity():
    q0, T_start, vel, v = _line_through_the_wrist_singularity()
    res = jb.resolved_rate(ARM, q0, vel, 1.0, 0.005, damped=True)
    line = T_start[:3, 3] + np.outer(res.t, v)  # ẋ is constant: the path is this line, the orientation T_start's
    np.testing.assert_allclose(res.path_error[:, 0], np.linalg.norm(res.T[:, :3, 3] - line, axis=1), atol=1e-12)
    turn = [np.arccos(np.clip((np.trace(T[:3, :3] @ T_start[:3, :3].T) - 1) / 2, -1, 1)) for T in res.T]
    np.testing.assert_allclose(res.path_error[:, 1], turn, atol=1e-6)


def test_pseudo_inverse_stops_when_the_hand_leaves_the_path_at_the_elbow_singularity():
    """Chapter 04's outward run: with the rates not watched, the path error stops it (without it the hand
    ends about 1 m off the line, and the run used to say ok)."""
    q = np.radians([0, -30, -60, 0, 30, 0])
    out = ARM.fkine(q)[:3, 3] / np.linalg.norm(ARM.fkine(q)[:3, 3])
    vel = lambda t, qq: np.r_[0.2 * out, 0.0, 0.0, 0.0]  # noqa: E731
    blind = jb.resolved_rate(ARM, q, vel, 5.0, 0.01, damped=False, **OFF)
    assert blind.ok and blind.path_error[:, 0].max() > 0.5
    res = jb.resolved_rate(ARM, q, vel, 5.0, 0.01, damped=False, give_up_rate=np.inf)
    assert not res.ok and "off the path the velocities describe, over give_up_path = 0.05" in res.reason
    assert res.path_error[:-1].max() <= 0.05 < res.path_error[-1].max()


@settings(max_examples=30, deadline=None, derandomize=True, database=None)
@given(
    theta5=st.floats(-2.0, 2.0),
    turn=st.floats(0.0, 2 * math.pi),
    damped=st.booleans(),
)
def test_property_a_run_that_says_ok_stayed_on_the_path_at_bounded_rates(theta5, turn, damped):
    """Lines near the wrist singularity in random directions (the fastest θ5 direction turned about a
    horizontal axis normal to it): ok means every recorded rate and path error was within its bound."""
    q0, _, vel, v = _line_through_the_wrist_singularity(theta5)
    k = np.cross(v, [0.0, 0.0, 1.0])
    k /= np.linalg.norm(k)
    w = v * math.cos(turn) + np.cross(k, v) * math.sin(turn)
    res = jb.resolved_rate(ARM, q0, lambda t, q: np.r_[w, 0.0, 0.0, 0.0], 1.0, 0.005, damped=damped)
    assert np.isfinite(res.q).all() and np.isfinite(res.path_error).all()
    if res.ok:
        assert np.abs(res.qd).max() <= 20.0 and res.path_error.max() <= 0.05
    else:
        assert res.reason.startswith("t = ")


def test_give_up_bounds_must_be_positive():
    q0, _, vel, _ = _line_through_the_wrist_singularity()
    for name in ("give_up_rate", "give_up_path", "give_up_error"):
        with pytest.raises(ValueError, match=f"{name} must be a positive number"):
            jb.resolved_rate(ARM, q0, vel, 0.1, 0.01, **{name: 0.0})
