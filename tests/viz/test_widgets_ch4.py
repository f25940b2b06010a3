"""Chapter 04 widgets driven programmatically (armlab.viz.jacobians): sliders → readouts equal to the
armlab.jacobians values, ellipsoids drawn at the tool, snap buttons → rank deficiency, one redraw per slider move.
"""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from armlab import jacobians as jb  # noqa: E402
from armlab import models  # noqa: E402

viz = pytest.importorskip("armlab.viz")

ARMS = {  # robot, start (deg), slider moves (joint index, value in the slider's unit), task rows of J
    "puma560": (models.puma560, [20, -30, -60, 40, 35, 50], [(0, 45.0), (2, -120.0), (4, 10.0)], slice(0, 6)),
    "youbot": (models.youbot, [17, 23, -46, 57, 11], [(1, 10.0), (2, 60.0), (3, -3.0)], slice(0, 6)),
    "planar2r": (lambda: models.planar2r(1.0, 0.6), [30, 60], [(0, -20.0), (1, 120.0)], [0, 1]),
}
KINDS = {"puma560": ["wrist", "elbow", "shoulder"], "youbot": ["elbow", "base-axis"], "planar2r": ["elbow"]}


def _expected(robot, q, rows):
    J0 = robot.jacob0(q)
    J = J0[rows]
    s = jb.singular_values(J)
    return {
        "det": np.linalg.det(J) if J.shape[0] == J.shape[1] else None,
        "sigma_min": s[-1],
        "manipulability": robot.manipulability(q),
        "condition": jb.condition_number(J),
        "rank": jb.jacobian_rank(J),
    }


@pytest.mark.parametrize("name", sorted(ARMS))
def test_sliders_update_readouts_to_the_library_values(name):
    make, start, moves, rows = ARMS[name]
    robot = make()
    ex = viz.jacobian_explorer(robot, np.radians(start))
    assert sorted(ex.buttons) == sorted(KINDS[name])
    values = list(start)
    for k, v in moves:
        before = ex.redraws
        ex.sliders[k].value = v  # what a drag does
        values[k] = v
        q = np.radians(values)
        assert np.allclose(ex.q, q, atol=1e-12) and ex.redraws == before + 1
        want, got = _expected(robot, q, rows), ex.readings
        for key in ("sigma_min", "manipulability", "condition"):
            assert got[key] == pytest.approx(want[key], rel=1e-9), key
        assert got["rank"] == want["rank"]
        assert (got["det"] is None) == (want["det"] is None)
        if want["det"] is not None:
            assert got["det"] == pytest.approx(want["det"], rel=1e-9, abs=1e-15)
        if name != "planar2r":
            assert got["manipulability_rot"] == pytest.approx(robot.manipulability(q, part="rot"), rel=1e-9)
        shown = ex.readout.value
        assert f"{got['sigma_min']:.4g}" in shown and f"{got['manipulability']:.4g}" in shown


@pytest.mark.parametrize("name", sorted(ARMS))
def test_ellipsoids_are_drawn_at_the_tool_along_the_singular_vectors(name):
    make, start, _, _ = ARMS[name]
    robot = make()
    q = np.radians(start)
    ex = viz.jacobian_explorer(robot, q)
    p = robot.fkine(q)[:3, 3]
    J0 = robot.jacob0(q)
    Jt = J0[[0, 1]] if name == "planar2r" else J0[:3]
    for line, kind, scale in (
        (ex.velocity_line, "velocity", ex.velocity_scale),
        (ex.force_line, "force", ex.force_scale),
    ):
        pts = np.array(line.get_data_3d()).T
        lengths, U = jb.ellipsoid(Jt, "all", kind)
        first = p + scale * min(lengths[0], ex.clip / scale) * np.r_[U[:, 0], np.zeros(3 - len(U))]
        assert np.allclose(pts[0], first, atol=1e-12)  # ring 1 starts at the tip plus the first half-axis
        rings = np.split(pts, np.flatnonzero(~np.isfinite(pts).all(axis=1)))
        rings = [r[np.isfinite(r).all(axis=1)] for r in rings]
        assert len(rings) == (1 if name == "planar2r" else 3)  # an ellipse, or the ellipsoid's principal rings
        for ring in rings:
            assert np.allclose(ring[0], ring[-1]) and np.allclose(ring[:-1].mean(axis=0), p, atol=1e-9)  # centred
        if name == "planar2r":
            assert np.allclose(pts[:, 2], p[2])  # in the plane of the arm


@pytest.mark.parametrize("name", sorted(ARMS))
def test_snap_buttons_reach_rank_deficiency(name):
    make, start, _, rows = ARMS[name]
    robot = make()
    for kind in KINDS[name]:
        ex = viz.jacobian_explorer(robot, np.radians(start))
        full = min(robot.jacob0(ex.q)[rows].shape)
        assert ex.readings["rank"] == full and ex.readings["status"] != "singular"
        before = ex.redraws
        ex.buttons[kind].click()
        q = ex.q
        assert abs(jb.singularity_conditions(robot, q)[kind]) < 1e-9
        J = robot.jacob0(q)
        if kind == "base-axis":  # the youBot keeps rank 5 overall; its position rows lose one
            assert jb.jacobian_rank(J, "trans", tol=1e-7) == 2
        else:
            assert jb.jacobian_rank(J[rows], tol=1e-7) == full - 1
            assert ex.readings["status"] == "singular" and ex.readings["rank"] == full - 1
        assert ex.redraws == before + 1
        assert kind in ex.message.value


def test_colour_cue_follows_sigma_min():
    robot = models.puma560()
    ex = viz.jacobian_explorer(robot, np.radians([20, -30, -60, 40, 35, 50]))
    seen = {}
    for theta5 in (35.0, 3.0, 1.0, 0.0):
        ex.sliders[4].value = theta5
        r = ex.readings
        seen[theta5] = r["status"]
        want = (
            "singular"
            if r["rank"] < 6
            else "near"
            if r["sigma_min"] < viz.jacobians.NEAR
            else "close"
            if r["sigma_min"] < 2 * viz.jacobians.NEAR
            else "regular"
        )
        assert r["status"] == want
        assert viz.jacobians.STATUS_COLORS[r["status"]] in ex.readout.value
    assert seen[0.0] == "singular" and seen[1.0] == "near"
    assert ex.velocity_line.get_color() == viz.jacobians.STATUS_COLORS["singular"]


def test_a_slider_move_redraws_once_at_the_new_pose():
    """How fast: bench/bench_viz_jacobians.py --check (median ≤ 50 ms)."""
    robot = models.puma560()
    ex = viz.jacobian_explorer(robot, np.radians([20, -30, -60, 40, 35, 50]))
    rng = np.random.default_rng(0)
    for k in range(40):
        s = ex.sliders[k % robot.n]
        before = ex.redraws
        s.value = float(rng.uniform(s.min, s.max))  # callback: jacob0, SVDs, ellipsoids, readout, scene sent
        assert ex.redraws == before + 1
    np.testing.assert_allclose(ex.view.T, robot.fkine(ex.q), rtol=0, atol=1e-12)


def test_rate_player_steps_through_the_runs():
    robot = models.planar2r(1.0, 0.6)
    vel = lambda t, q: np.array([0.0, 0.3, 0, 0, 0, 0])  # noqa: E731
    runs = {
        name: jb.resolved_rate(robot, [0.3, 1.2], vel, 0.5, 0.01, damped=d, part="all", give_up_error=np.inf)
        for name, d in (("plain", False), ("damped", True))
    }
    player = viz.rate_player(robot, runs, path=np.array([[1.0, 0, 0], [1.0, 1.0, 0]]))
    assert player.steps == len(runs["plain"].t)
    player.time.value = 20 * player.dt
    assert player.k == 20
    for view, res in zip(player.views, runs.values()):
        assert np.allclose(view.q, res.q[20])
    trace = np.array(player.traces[1].get_data_3d()).T
    assert np.allclose(trace, runs["damped"].T[:21, :3, 3])
    assert f"{np.abs(runs['damped'].qd[20]).max():.2f}" in player.readout.value
    player.play.value = 30  # the Play widget drives the time slider
    assert player.k == 30


def _segments(line):
    """The (start, end) pairs of a line artist drawn as NaN-separated segments."""
    pts = np.array(line.get_data_3d()).T
    parts = np.split(pts, np.flatnonzero(np.isnan(pts[:, 0])))
    return [p[~np.isnan(p[:, 0])] for p in parts if (~np.isnan(p[:, 0])).sum() == 2]


def test_fig_3_10_example_3_6_frame_and_its_differential_change():
    """Fig. 3.10: frame A of Example 3.6 and A + dA, dA = Δ·A (3.67); the origin moves by dA's last column,
    the book's (0.8, 0, −1)."""
    A = np.array([[0, 0, 1, 8], [1, 0, 0, 4], [0, 1, 0, 0], [0, 0, 0, 1.0]])
    d, delta = [0.8, 0, 0.6], [0, 0.2, 0]
    fig = viz.differential_motion_figure(A, d, delta)
    ax = fig.axes[0]
    moved = A + jb.differential.differential_change(A, d, delta)
    x_axis, y_axis, z_axis = ax.lines[6:9]  # the third triad: A + dA
    for k, line in enumerate((x_axis, y_axis, z_axis)):
        (seg,) = _segments(line)
        np.testing.assert_allclose(seg[0], moved[:3, 3], atol=1e-12)
        direction = (seg[1] - seg[0]) / np.linalg.norm(seg[1] - seg[0])
        np.testing.assert_allclose(direction, moved[:3, k] / np.linalg.norm(moved[:3, k]), atol=1e-12)
    dp = np.array(ax.lines[9].get_data_3d()).T
    np.testing.assert_allclose(dp[1] - dp[0], [0.8, 0.0, -1.0], atol=1e-12)
    assert {"A", "A + dA", "dp = d + δ×p", "δ"} <= {t.get_text() for t in ax.texts}


@pytest.mark.parametrize(
    "make, q", [(models.puma560, [20, -30, -60, 40, 35, 50]), (lambda: models.planar2r(1.0, 0.6), [30, 60])]
)
def test_fig_3_11_each_joint_frame_to_the_hand_gives_column_i_of_tJ(make, q):
    """Fig. 3.11: a dashed line from each joint frame to the hand, labelled ⁱₙT; (3.92) applied to that
    transform is column i of ᵀJ (jacob_differential)."""
    robot, q = make(), np.radians(q)
    fig = viz.differential_jacobian_figure(robot, q)
    ax = fig.axes[0]
    dashed = [line for line in ax.lines if line.get_linestyle() == "--"]
    axes = robot.fkine_all(q)[1:] if robot.modified else robot.fkine_all(q)[:-1]
    hand = robot.fkine(q)
    assert len(dashed) == robot.n
    TJ = jb.jacob_differential(robot, q)
    for i, (line, A) in enumerate(zip(dashed, axes)):
        ends = np.array(line.get_data_3d()).T
        np.testing.assert_allclose(ends, [A[:3, 3], hand[:3, 3]], atol=1e-12)
        U = np.linalg.inv(A) @ hand  # ⁱₙT
        n_, o_, a_, p_ = U[:3, 0], U[:3, 1], U[:3, 2], U[:3, 3]
        column = [np.cross(p_, n_)[2], np.cross(p_, o_)[2], np.cross(p_, a_)[2], n_[2], o_[2], a_[2]]  # (3.92)
        np.testing.assert_allclose(column, TJ[:, i], atol=1e-12)
    first = 1 if robot.modified else 0
    labels = [t.get_text() for t in ax.texts if t.get_text().endswith("T")]
    assert labels[0].startswith("¹" if first else "⁰") and len(labels) == robot.n


def test_jacobian_explorer_refuses_a_scale_that_is_not_positive():
    """A zero scale was silently replaced by the automatic one; now it is an error naming the option."""
    robot = models.planar2r(1.0, 0.6)
    for bad in (0.0, -0.1, float("nan")):
        with pytest.raises(ValueError, match="velocity_scale"):
            viz.jacobian_explorer(robot, np.radians([30, 60]), velocity_scale=bad)
    assert viz.jacobian_explorer(robot, np.radians([30, 60]), force_scale=0.02).force_scale == 0.02
