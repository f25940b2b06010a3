"""Chapter 08 widgets driven programmatically (armlab.viz.control): every control re-runs the task and the
outcome equals armlab.sim.run_task with the same controller; the plots and the animation show that run;
the kernel-side update takes at most 50 ms."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from armlab import control, models, sim  # noqa: E402

pytest.importorskip("ipywidgets")
from armlab.viz.control import CONTROLLERS, ControlLab, task_player  # noqa: E402

G = models.PAPER_GRAVITY


@pytest.fixture
def lab():
    """A fresh lab for each test: tests move its sliders, and the next one must find the defaults (any order)."""
    return ControlLab("paper")


def test_the_default_is_the_papers_task_under_computed_torque(lab):
    r = lab.result
    assert (r.pick_step, r.place_step, len(r.t)) == (380, 760, 1001)
    direct = sim.run_task(lab.plan, control.ComputedTorque(models.paper_3r(), 400.0, 40.0, gravity=G), dt=0.002)
    np.testing.assert_allclose(r.q, direct.q, atol=1e-12)
    assert "ComputedTorque(kp=400, kd=40)" in lab.plots.caption


@pytest.mark.parametrize("kind, cls", list(zip(CONTROLLERS, ["ComputedTorque", "PDGravity", "PID", "PID.cascade"])))
def test_the_selector_picks_the_controller_and_the_gains_follow_omega_and_zeta(lab, kind, cls):
    lab.choice.value = kind
    lab.omega.value, lab.zeta.value = 15.0, 0.8
    c = lab.make_controller()
    assert repr(c).startswith(cls) and lab.result.controller == repr(c)
    if kind == "computed torque":
        assert c.kp == [225.0] * 3 and c.kd == pytest.approx([24.0] * 3)
    else:
        kp, kd = control.pd_gains(lab.robot, lab.plan.q_pick, 15.0, 0.8)
        equivalent = (
            (c.pd.kp, c.pd.kd)
            if kind == "PD + gravity"
            else (c.kp, c.kd)
            if kind == "PID"
            else (np.multiply(c.kp, c.kv), c.kv)
        )  # the cascade's P·(velocity P) is the PD's Kp
        np.testing.assert_allclose(equivalent[0], kp, rtol=1e-12)
        np.testing.assert_allclose(equivalent[1], kd, rtol=1e-12)
    lab.choice.value, lab.omega.value, lab.zeta.value = "computed torque", 20.0, 1.0


def test_payload_and_model_error_reach_the_simulation(lab):
    lab.payload.value = 2.0
    assert lab.result.tau[380, 1] == pytest.approx(-29.4 - 2.0 * 9.8, abs=1.5)  # the ball's weight at 1 m (+ feedback)
    lab.error.value = 30.0
    model = lab.make_controller().model
    ratios = {round(a.m / b.m, 9) for a, b in zip(model.links, lab.robot.links)}
    assert ratios <= {0.7, 1.3} and lab.model(30.0) is model  # one model per value: kernels reused
    carrying = np.abs(lab.result.error[380:760]).max()
    lab.informed.value = False  # now the ball is a surprise to the controller: worse while carrying it
    assert np.abs(lab.result.error[380:760]).max() > 2 * carrying
    lab.informed.value, lab.error.value, lab.payload.value = True, 0.0, 1.0


def test_plots_and_animation_show_the_run(lab):
    r = lab.result
    error, torque = lab.plots.shown  # one widget, one message per update: the caption and both plots
    assert error.title == "tracking error (°)" and torque.title == "joint torques (N·m)"
    assert error.points.shape == torque.points.shape == (4, 334) and "max |error|" in lab.plots.caption  # every 3rd
    # joint 1's error in degrees at the plot's scale: y in tenths of a pixel down from the top, over the range
    # padded by 6 % on each side
    left, top, W, H = error.box
    shown = np.degrees(r.error[::3])
    e, lo, hi = shown[:, 0], shown.min(), shown.max()
    lo, hi = lo - 0.06 * (hi - lo), hi + 0.06 * (hi - lo)
    expected = np.rint(10 * (top + H * (hi - e) / (hi - lo)))
    np.testing.assert_array_equal(error.points[1], expected)
    lab.show(500)
    np.testing.assert_allclose(lab.view.T, lab.robot.fkine(r.q[500]), atol=1e-12)
    np.testing.assert_allclose(np.array(lab.ball.get_data_3d()).ravel(), r.ball[500], atol=1e-12)
    assert "step 500" in lab.frame.value and "carrying the ball" in lab.frame.value
    lab.play.value = 900
    assert lab.k == 900 and "ball released" in lab.frame.value


def test_youbot_lab_shows_its_effort_limits_and_saturation():
    yb = ControlLab("youbot", payload=1.5, controller="PD + gravity")
    assert yb.readings["saturated"] and "saturated in" in yb.plots.caption
    torque = yb.plots.shown[1]
    (zero,) = [line[1] for line in torque.lines if line[4] == "#cccccc"]
    plus, minus = [line[1] for line in torque.lines if line[5] == "dashed"]  # ± joint 2's limit, about τ = 0
    assert plus < zero < minus and abs((plus + minus) / 2 - zero) <= 0.1 and "joint 2's limit" in torque.note
    assert np.all(np.abs(yb.result.tau) <= models.YOUBOT_ACTUATORS["effort"] * (1 + 1e-12))


def test_each_slider_move_simulates_again(lab):
    """How fast: bench/bench_viz_chapters.py --check (median ≤ 50 ms)."""
    rng = np.random.default_rng(0)
    for k in range(16):  # gains and payloads / model errors from a few values
        s = [lab.omega, lab.zeta, lab.payload, lab.error][k % 4]
        grid = np.arange(s.min, s.max + 1e-9, s.step)
        before = lab.result
        s.value = float(
            rng.choice(
                [v for v in grid[:4] if v != s.value]
                if s in (lab.payload, lab.error)
                else [v for v in grid if v != s.value]
            )
        )
        assert lab.result is not before  # callback: simulate 1000 steps, two plots, the arm redrawn


def test_task_player_steps_through_a_run():
    arm = models.paper_3r()
    r = ControlLab("paper").result
    player = task_player(arm, r, every=10)
    player.step.value = 380
    np.testing.assert_allclose(player.view.T, arm.fkine(r.q[380]), atol=1e-12)
    assert player.redraws == 1 and "step 380" in player.frame.value


def test_an_unknown_arm_is_refused():
    with pytest.raises(ValueError, match="arm must be"):
        ControlLab("puma")
