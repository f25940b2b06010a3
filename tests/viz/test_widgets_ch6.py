"""Chapter 06 widgets driven programmatically (armlab.viz.dynamics): the torque-split bars add up to RNE's τ,
each bar is its D-coefficient term (textbook (3.108)–(3.110)), the dominant term is named, the trajectory
player shows every run at the chosen time, and one redraw per slider move.
"""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from armlab import DHLink, DHRobot, models, sim  # noqa: E402
from armlab import dynamics as dy  # noqa: E402

viz = pytest.importorskip("armlab.viz")
from armlab.viz import dynamics as vd  # noqa: E402

G = np.array([0.0, -9.81, 0.0])  # the widget's vertical plane


@pytest.mark.parametrize("robot", [models.planar2r(0.8, 0.6, 1.5, 0.7), models.planar3r()], ids=["2R", "3R"])
def test_sliders_move_the_bars_and_they_sum_to_rne_tau(robot):
    ex = viz.torque_split_explorer(robot, np.radians([30, 60, -20][: robot.n]))
    n = robot.n
    moves = [(0, 40.0), (n, 2.5), (n + 1, -3.0), (2 * n, 8.0), (2 * n + 1, -12.0), (1, -75.0)]
    for k, v in moves:
        before = ex.redraws
        ex.sliders[k].value = v  # what a drag does
        assert ex.redraws == before + 1
        assert ex.split.shape == (n, 5)
        np.testing.assert_allclose(ex.split.sum(axis=1), robot.rne(ex.q, ex.qd, ex.qdd, gravity=G), atol=1e-10)
        np.testing.assert_allclose(ex.tau, robot.rne(ex.q, ex.qd, ex.qdd, gravity=G), atol=1e-10)
        for t in ex.tau:
            assert f"{t:+.2f} N·m" in ex.bars.value


def test_each_bar_is_its_d_coefficient_term():
    """Effective inertia D_ii q̈_i, coupling Σ_{j≠i} D_ij q̈_j (M's diagonal and off-diagonal), gravity D_i = G,
    and centripetal + Coriolis = C(q, q̇) q̇ with the Christoffel C, centripetal alone at one joint's speed."""
    robot = models.planar3r()
    ex = viz.torque_split_explorer(robot)
    q, qd, qdd = np.radians([25.0, 70.0, -40.0]), np.array([1.5, -2.0, 0.7]), np.array([3.0, -1.0, 4.0])
    split = ex.set_state(q, qd, qdd)
    M = robot.inertia(q)
    np.testing.assert_allclose(split[:, 0], np.diag(M) * qdd, atol=1e-12)
    np.testing.assert_allclose(split[:, 1], M @ qdd - np.diag(M) * qdd, atol=1e-12)
    np.testing.assert_allclose(split[:, 2] + split[:, 3], robot.coriolis(q, qd) @ qd, atol=1e-12)
    np.testing.assert_allclose(split[:, 4], robot.gravload(q, G), atol=1e-12)
    only_one = ex.set_state(qd=[0.0, 2.0, 0.0], qdd=[0.0, 0.0, 0.0])  # one joint moving: no Coriolis term
    np.testing.assert_allclose(only_one[:, 3], 0.0, atol=1e-12)
    np.testing.assert_allclose(only_one[:, 2], robot.coriolis(q, [0.0, 2.0, 0.0]) @ [0.0, 2.0, 0.0], atol=1e-12)


def test_example_3_9_terms_on_the_book_arm():
    """Example 3.9's coefficients at numbers: link 1 hanging down, link 2 horizontal, joint 1 spinning at
    5 rad/s: joint 2 feels the centripetal D211·θ̇1² = m2·d1·d2·sinθ2·θ̇1² = 8.4 N·m, more than its gravity
    torque m2·g·d2 = 4.1 N·m; joint 1 feels the Coriolis 2·D112·θ̇1θ̇2 once joint 2 turns too."""
    m1, m2, d1, d2 = 1.5, 0.7, 0.8, 0.6
    ex = viz.torque_split_explorer(models.planar2r(d1, d2, m1, m2))
    split = ex.set_state(np.radians([-90.0, 90.0]), [5.0, 0.0], [0.0, 0.0])
    assert split[1, 2] == pytest.approx(m2 * d1 * d2 * 25.0)
    assert split[1, 4] == pytest.approx(m2 * 9.81 * d2)  # holds link 2 up
    assert ex.dominant[1] == "centripetal" and "joint 2: centripetal dominates" in ex.readout.value
    split = ex.set_state(qd=[2.0, -1.5])
    assert split[0, 3] == pytest.approx(2 * (-m2 * d1 * d2) * 2.0 * -1.5)


def test_bars_html_has_one_row_per_joint_and_a_legend():
    ex = viz.torque_split_explorer(models.planar3r(), np.radians([10, 20, 30]), qd=[1, 1, 1], qdd=[1, -1, 1])
    html = ex.bars.value
    assert html.count("<tr>") == 3
    for name, color in zip(dy.TERMS, vd.TERM_COLORS):
        assert name in html and color in html
    assert f"±{ex.scale:g} N·m" in html and ex.scale == vd.nice_ceiling(ex.scale)


def test_a_rate_slider_move_redraws_once():
    """How fast: bench/bench_viz_chapters.py --check (median ≤ 50 ms)."""
    ex = viz.torque_split_explorer()
    rng = np.random.default_rng(0)
    for _ in range(30):
        before = ex.redraws
        ex.rates[0].value = float(rng.uniform(-5, 5))
        assert ex.redraws == before + 1


def test_prismatic_arms_are_refused():
    robot = DHRobot([DHLink(a=0.5, m=1.0), DHLink(joint="P", qlim=(0, 0.5), m=1.0)], convention="standard")
    with pytest.raises(ValueError, match="revolute joints only"):
        viz.torque_split_explorer(robot)


def test_trajectory_player_shows_each_run_at_the_chosen_time():
    arm = models.planar2r(0.8, 0.6, 1.5, 0.7)
    fast = sim.simulate(arm, [0.0, 0.0], [0.0, 0.0], 1.0, 1e-3, gravity=G)
    coarse = sim.simulate(arm, [0.0, 0.0], [0.0, 0.0], 1.0, 1e-3, gravity=G, method="euler")
    player = viz.trajectory_player(arm, {"RK4": fast, "Euler": coarse}, energy={"RK4": fast.energy}, view=(90, -90))
    before = player.redraws
    player.time.value = 0.5
    assert player.redraws == before + 1 and player.k == 500
    np.testing.assert_allclose(player.arms[0].q, fast.q[500])
    np.testing.assert_allclose(player.arms[1].q, coarse.q[500])
    trace = np.array(player.traces[0].get_data_3d()).T  # every stride-th tip up to t, and the tip at t
    stride = player.stride
    assert 1 < stride and len(fast.t) / stride <= player.TRACE_POINTS
    np.testing.assert_allclose(trace[:-1], arm.fkine(fast.q[:501:stride])[:, :3, 3])
    np.testing.assert_allclose(trace[-1], arm.fkine(fast.q[500])[:3, 3])
    assert "t = 0.500 s" in player.readout.value and "RK4: E =" in player.readout.value
    assert player.arms[1].line.get_linestyle() == "--"  # the ghost is dashed
    player.play.value = player.play.max  # Play drives the time slider
    assert player.k == len(fast.t) - 1
