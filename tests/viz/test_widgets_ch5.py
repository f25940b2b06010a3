"""Chapter 05 widgets driven programmatically (armlab.viz.statics): sliders → torques equal to the
armlab.statics values, the force arrow and ellipse at the tip, Fig. 5.7's singular pose, the youBot's
payload against its effort limits, Example 6's sensor-to-tool wrench, and one scene sent per slider move.
"""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from armlab import Tinv, models, statics  # noqa: E402
from armlab import jacobians as jb  # noqa: E402
from armlab.transforms import wrench_transform  # noqa: E402

viz = pytest.importorskip("armlab.viz")
from armlab.viz.statics import panel as vs  # noqa: E402  (the chapter's palette and load colours)
from armlab.viz.browser import axes_payload  # noqa: E402

EFFORT = np.array([9.5, 9.5, 6.0, 2.0, 1.0])  # N·m, docs/youbot-interface.md


def test_2r_sliders_give_tau_equal_to_jt_f_one_redraw_per_move():
    arm = models.planar2r(0.5, 0.3)
    ex = viz.tip_force_explorer(arm, np.radians([30, 60]), magnitude=10.0, direction=60.0)
    for k, v in [(0, -20.0), (1, 120.0), (2, 17.5), (3, -135.0), (1, 5.0)]:
        before = ex.redraws
        ex.sliders[k].value = v  # what a drag does
        assert ex.redraws == before + 1
        phi = np.radians(ex.direction.value)
        F = ex.magnitude.value * np.array([np.cos(phi), np.sin(phi)])
        np.testing.assert_allclose(ex.force, F, atol=1e-12)
        np.testing.assert_allclose(ex.tau, statics.joint_torques(arm, ex.q, [*F, 0, 0, 0, 0]), atol=1e-12)
        np.testing.assert_allclose(ex.tau, arm.jacob0(ex.q)[:2].T @ F, atol=1e-12)
        for t in ex.tau:
            assert f"{t:+.3f} N·m" in ex.bars.value


def test_2r_force_arrow_and_ellipse_are_drawn_at_the_tip():
    arm = models.planar2r(0.5, 0.3)
    ex = viz.tip_force_explorer(arm, np.radians([20, 70]), magnitude=12.0, direction=-30.0, tau_ref=4.0)
    p = arm.fkine(ex.q)[:3, 3]
    arrow = np.array(ex.arrow.get_data_3d()).T
    np.testing.assert_allclose(arrow[0], p, atol=1e-12)
    np.testing.assert_allclose(arrow[1], p + ex.force_scale * np.r_[ex.force, 0], atol=1e-12)
    ring = np.array(ex.ellipse.get_data_3d()).T
    F_ring = (ring[:, :2] - p[:2]) / ex.force_scale  # every point of the ellipse needs ‖τ‖ = tau_ref exactly
    np.testing.assert_allclose(np.linalg.norm(F_ring @ arm.jacob0(ex.q)[:2], axis=1), 4.0, rtol=1e-9)
    items = axes_payload(ex.view.ax)["items"]  # the browser draws the arrow with its head
    assert any(it.get("arrow") and it["c"] == vs.FORCE_COLOR for it in items)


def test_fig_5_7_button_holds_a_huge_force_with_no_torque():
    arm = models.planar2r(0.5, 0.3)
    ex = viz.tip_force_explorer(arm, np.radians([40, 60]))
    before = ex.redraws
    ex.button.click()
    assert ex.redraws == before + 1  # one update for the three controls
    assert ex.q[1] == 0.0 and ex.magnitude.value == ex.magnitude.max
    np.testing.assert_allclose(ex.tau, 0.0, atol=1e-12)
    assert ex.readings["singular"] and "singular" in ex.readout.value
    lengths, _ = jb.ellipsoid(arm.jacob0(ex.q)[:2], "all", "force")
    assert np.isinf(lengths).any()  # unbounded along the arm: drawn clipped
    assert np.isfinite(np.array(ex.ellipse.get_data_3d())).any()
    ex.direction.value = ex.direction.value + 90.0  # the same force across the arm costs torque again
    assert np.abs(ex.tau).max() > 1.0


def test_fig_5_6_explorer_maps_unit_forces_and_shows_the_subspaces_of_jt():
    arm = models.planar2r(0.5, 0.3)
    ex = viz.static_mapping_explorer(arm, np.radians([30, 60]), direction=40.0)
    for k, v in [(0, -50.0), (1, 110.0), (2, 75.0)]:
        before = ex.redraws
        ex.sliders[k].value = v
        assert ex.redraws == before + 1
        J = arm.jacob0(ex.q)[:2]
        phi = np.radians(ex.direction.value)
        np.testing.assert_allclose(ex.force, [np.cos(phi), np.sin(phi)], atol=1e-12)
        np.testing.assert_allclose(ex.tau, J.T @ ex.force, atol=1e-12)
        arrow = np.array(ex.t_arrow.get_data_3d()).T
        np.testing.assert_allclose(arrow[1, :2], ex.tau, atol=1e-12)
        image = np.array(ex.image.get_data_3d()).T[:, :2]  # the unit circle through Jᵀ
        F = np.linalg.solve(J.T, image.T).T
        np.testing.assert_allclose(np.linalg.norm(F, axis=1), 1.0, atol=1e-9)
        assert ex.mapping.rank == 2 and "F₁ = {0}" in ex.readout.value
    before = ex.redraws
    ex.button.click()  # Fig. 5.7: stretched out, the force along the arm
    assert ex.redraws == before + 1 and ex.q[1] == 0.0
    np.testing.assert_allclose(ex.tau, 0.0, atol=1e-12)
    assert ex.mapping.rank == 1 and "singular" in ex.readout.value
    null = np.array(ex.null_line.get_data_3d()).T[:, :2]
    along = np.array([np.cos(ex.q[0]), np.sin(ex.q[0])])
    assert abs(abs((null[1] - null[0]) @ along) - np.linalg.norm(null[1] - null[0])) < 1e-9  # F₁ along the arm
    rng_line = np.array(ex.range_line.get_data_3d()).T[:, :2]
    rest = np.array(ex.rest_line.get_data_3d()).T[:, :2]
    assert abs((rng_line[1] - rng_line[0]) @ (rest[1] - rest[0])) < 1e-9  # τ₁ ⟂ τ₂
    ex.direction.value = ex.direction.value + 90.0  # across the arm: a torque on the τ₁ line
    t = ex.tau / np.linalg.norm(ex.tau)
    d = (rng_line[1] - rng_line[0]) / np.linalg.norm(rng_line[1] - rng_line[0])
    assert abs(abs(t @ d) - 1) < 1e-9


def test_payload_torques_are_own_weight_plus_payload_and_match_the_recursion():
    yb = models.youbot()
    q = np.radians([10, 25, 40, 50, 0])
    ex = viz.payload_explorer(yb, q, mass=0.4)
    g = np.array([0, 0, -9.81])
    want = statics.gravity_load(yb, q, gravity=g) + yb.jacob0(q)[:3].T @ (0.4 * -g)
    np.testing.assert_allclose(ex.tau, want, atol=1e-12)
    # the same by the link recursion: the tip pushes up on the payload with m·|g|, the links carry their weight
    rec = statics.link_forces(yb, q, [0, 0, 0.4 * 9.81, 0, 0, 0], frame="base", gravity=g)
    np.testing.assert_allclose(ex.tau, rec.tau, atol=1e-12)
    np.testing.assert_allclose(ex.effort, EFFORT)
    for t, e in zip(ex.tau, EFFORT):
        assert f"{t:+.3f} N·m ({abs(t) / e * 100:.0f} %)" in ex.bars.value
        assert vs.load_color(abs(t) / e) in ex.bars.value


def test_payload_at_its_maximum_puts_one_joint_exactly_at_its_limit():
    yb = models.youbot()
    q = np.radians([0, 30, 40, 60, 0])
    ex = viz.payload_explorer(yb, q, max_mass=3.0)
    m = ex.readings["max_payload"]
    assert m == pytest.approx(statics.max_payload(yb, q, EFFORT)) and 0 < m < 3.0
    ex.set_state(mass=m)
    frac = np.abs(ex.tau) / EFFORT
    assert frac.max() == pytest.approx(1.0, abs=1e-9)
    assert int(np.argmax(frac)) + 1 == ex.readings["limiting_joint"]
    assert "over the limit" not in ex.readout.value
    ex.set_state(mass=m + 0.1)
    assert "over the limit: joint " + str(ex.readings["limiting_joint"]) in ex.readout.value
    assert vs.load_color(1.05) in ex.bars.value  # red
    assert [vs.load_color(f) for f in (0.1, 0.8, 0.95, 1.2)] == ["#2e7d32", "#8a6d00", "#c44e00", "#c62828"]


def test_payload_explorer_sliders_move_the_arm_and_the_weight_arrow():
    yb = models.youbot()
    ex = viz.payload_explorer(yb, np.radians([0, 30, 40, 60, 0]), mass=0.5)
    before = ex.redraws
    ex.sliders[1].value = 10.0
    assert ex.redraws == before + 1
    p = yb.fkine(ex.q)[:3, 3]
    arrow = np.array(ex.arrow.get_data_3d()).T
    np.testing.assert_allclose(arrow[0], p, atol=1e-12)
    assert arrow[1][2] < p[2] and np.allclose(arrow[1][:2], p[:2])  # the weight points down


def test_wrist_sensor_moves_the_wrench_to_the_tool_tip():
    ws = viz.wrist_sensor_demo(force=(2.0, -1.0, -15.0), moment_z=0.05, length=0.18, bend=30.0)
    T_WT = ws.T_WT
    np.testing.assert_allclose(
        T_WT[:3, 3], [0.18 * np.sin(np.radians(30)), 0, 0.18 * np.cos(np.radians(30))], atol=1e-12
    )
    np.testing.assert_allclose(ws.F_T, wrench_transform(Tinv(T_WT), ws.F_W), atol=1e-12)
    f, m = ws.F_W[:3], ws.F_W[3:]
    m_tip = T_WT[:3, :3].T @ (m + np.cross(-T_WT[:3, 3], f))  # m + (O_W − O_T) × f, in {T}'s axes
    np.testing.assert_allclose(ws.F_T[3:], m_tip, atol=1e-12)
    assert not np.allclose(ws.F_T_printed[3:], ws.F_T[3:])  # Example 6 as printed differs (erratum)
    ws.set_state(bend=0.0)  # a straight tool: R = I, and R·S(P) = S(P)·R
    np.testing.assert_allclose(ws.F_T_printed, ws.F_T, atol=1e-12)
    moments = np.array(ws.m_lines.get_data_3d()).T
    np.testing.assert_allclose(moments[0], 0.0, atol=1e-12)
    np.testing.assert_allclose(moments[3], ws.T_WT[:3, 3], atol=1e-12)  # m_T starts at the tip
    np.testing.assert_allclose(moments[4] - moments[3], ws.moment_scale * ws.T_WT[:3, :3] @ ws.F_T[3:], atol=1e-12)
    assert "Example 6 as printed" in ws.readout.value


def _move(ex, k):
    """Move slider k (cyclically) to a spread-out value, as a drag does."""
    s = ex.sliders[k % len(ex.sliders)]
    s.value = float(s.min + (k * 7919 % 97) / 97 * (s.max - s.min))


@pytest.mark.parametrize(
    "make",
    [viz.tip_force_explorer, viz.static_mapping_explorer, viz.payload_explorer, viz.wrist_sensor_demo],
    ids=["tip_force", "static_mapping", "payload", "wrist_sensor"],
)
def test_a_slider_move_sends_the_scene_once(make):
    """A slider move runs the callback and sends the scene (SceneView.sync: payload + JSON) once; how fast:
    bench/bench_statics.py --check (≤ 50 ms)."""
    ex = make()
    for k in range(40):
        before = ex.redraws
        _move(ex, k)
        assert ex.redraws == before + 1
