"""WCAG 2.1 AA in the course's widgets, without a browser (issue #31): the text alternatives written in Python
from the current state, the announcements, the still figures' alt text and the colours (contrast on white,
and lines that stay apart under simulated colour-vision deficiencies). The browser side (axe, keyboard,
names read from the page) is tests/integration/test_browser_accessibility.py."""

import re
import subprocess
import sys
from pathlib import Path

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from armlab import models, sim, viz  # noqa: E402
from armlab.viz import ik as viz_ik  # noqa: E402
from armlab.viz import jacobians as viz_jacobians  # noqa: E402
from armlab.viz import plots, scene  # noqa: E402
from armlab.viz.statics import panel as statics_panel  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from support.colour_vision import CVD, blend, closest_pair, contrast, delta_e  # noqa: E402

DEFICIENCIES = [None, *CVD]


def _numbers(text):
    return [float(v.replace("−", "-")) for v in re.findall(r"[−-]?\d+(?:\.\d+)?", text)]


# --- text alternatives that follow the state ---------------------------------------------------------------
def test_arm_viewer_scene_name_is_the_joint_angles_and_the_fkine_tool_position():
    """The PUMA viewer's scene name after a slider move: θ in degrees as set, the tool at fkine(q) (to 0.005 m)."""
    puma = models.puma560()
    viewer = viz.arm_viewer(puma)
    deg = [20.0, -30.0, 40.0, 0.0, 10.5, 0.0]
    viewer.joints.set_q(np.radians(deg))
    label = viewer.scenes[0].label
    assert viewer.scenes[0].widget.label == label and label.startswith("PUMA560 at θ = (")
    angles = re.search(r"θ = \(([^)]*)\)°", label).group(1)
    assert _numbers(angles) == pytest.approx(deg, abs=0.05)
    tool = re.search(r"tool at \(([^)]*)\) m", label).group(1)
    assert _numbers(tool) == pytest.approx(puma.fkine(np.radians(deg))[:3, 3], abs=0.005)
    assert "−30" in angles  # a minus sign a screen reader reads as "minus"


def test_prismatic_joints_are_read_in_metres():
    stanford = models.stanford_arm() if hasattr(models, "stanford_arm") else None
    if stanford is None:
        pytest.skip("no prismatic model")
    text = scene.joint_text(stanford, np.zeros(stanford.n) + 0.25)
    assert "d3 = 0.25 m" in text and "θ1 = 14.3°" in text


def test_ik_explorer_names_the_chosen_branch_and_announces_the_solution_count():
    explorer = viz.ik_explorer()
    explorer.set_pose(0.5, 0.1, 0.3)
    label = explorer.scenes[0].label
    chosen = explorer.chosen.labels[0]
    assert f"chosen solution, {chosen}" in label and f"{len(explorer.sols)} solutions drawn" in label
    assert "target at (0.5, 0.1, 0.3) m" in label
    assert explorer.scenes[0].widget.status.startswith(f"{len(explorer.sols)} solution(s)")
    explorer.set_pose(1.25, 1.25, 0.0)  # out of reach
    assert explorer.scenes[0].widget.status.startswith("No solution.")
    assert "no solution drawn" in explorer.scenes[0].label and "chosen solution" not in explorer.scenes[0].label


def test_wrist_close_up_names_each_wrist():
    explorer = viz.ik_explorer()
    close_up = explorer.scenes[1].label
    assert close_up.startswith("close-up of the wrist centre.") and close_up.count("flip") == 8


def test_jacobian_explorer_announces_singular():
    explorer = viz.jacobian_explorer(models.puma560())
    explorer.buttons["wrist"].click()
    assert explorer.readings["status"] == "singular"
    assert explorer.scenes[0].widget.status.startswith("singular")


def test_frame_playground_names_its_frames():
    play = viz.frame_playground([("rot", "z", 90.0)])
    label = play.scenes[0].label
    assert "frame {A} at (0, 0, 0) m" in label and "frame {B} at (0, 0, 0) m, x axis along (0, 1, 0)" in label
    play.set([30.0])
    assert play.scenes[0].widget.status == "T = Rot(z, 30°); its rows: 0.866, −0.5, 0, 0; 0.5, 0.866, 0, 0; 0, 0, 1, 0"


# --- every panel announces what a move changed (its live region, aria-live="polite") --------------------------
def _said(panel):
    return panel.scenes[0].widget.status


def _vector_after(text, key):
    """The numbers of the vector after ``key`` in an announcement: "tool at (0.1, −0.2, 0.3)" → [0.1, −0.2, 0.3]."""
    return _numbers(re.search(re.escape(key) + r" ?\(([^)]*)\)", text).group(1))


def test_arm_viewer_announces_the_tool_at_fkine_after_a_move():
    puma = models.puma560()
    viewer = viz.arm_viewer(puma)
    viewer.set_q(np.radians([20.0, -30.0, 40.0, 0.0, 10.0, 0.0]))
    assert _vector_after(_said(viewer), "tool at") == pytest.approx(viewer.robots[0].fkine(viewer.q)[:3, 3], abs=5e-4)


def test_link_animator_announces_the_step_and_where_link_transform_3_23_puts_the_frame():
    anim = viz.link_motion_animator(alpha=-90, a=0.3, theta=60, d=0.2)
    anim.param_sliders["d"].value = 0.25
    end = anim.link_transform()[:3, 3]  # Trans(x, a)·Rot(x, α)·Trans(z, d): (0.3, 0.25, 0)
    assert end == pytest.approx([0.3, 0.25, 0.0], abs=1e-12)
    assert _vector_after(_said(anim), "after all four at") == pytest.approx(end, abs=5e-4)
    anim.set_step(2.0)
    assert _said(anim).startswith("step 2 of 4: T = Rot(x, αᵢ₋₁) · Trans(x, aᵢ₋₁)")
    assert _vector_after(_said(anim), "origin at") == pytest.approx([0.3, 0.0, 0.0], abs=5e-4)


def test_torque_split_announces_each_joint_torque_and_its_largest_term():
    arm = models.planar2r(0.8, 0.6, 1.5, 0.7)
    panel = viz.torque_split_explorer(arm)
    panel.set_state(q=np.radians([30.0, 60.0]), qd=[3.0, 0.0])
    tau = arm.rne(panel.q, panel.qd, panel.qdd, gravity=(0.0, -9.81, 0.0))  # Newton–Euler, not the split's model
    said = re.findall(r"τ\d = ([−\d.]+) N·m, ([a-z ]+) dominates", _said(panel))
    assert [_numbers(v)[0] for v, _ in said] == pytest.approx(tau, abs=0.006)
    assert [name for _, name in said] == panel.dominant


def test_tip_force_announces_tau_equals_J_transpose_F_5_5_and_singular_when_stretched():
    arm = models.planar2r(0.5, 0.3)
    panel = viz.tip_force_explorer(arm, np.radians([30.0, 60.0]), magnitude=10.0, direction=60.0)
    panel.set_state(direction=90.0)
    tau = arm.jacob0(panel.q)[:2].T @ np.array([0.0, 10.0])
    assert _vector_after(_said(panel), "needs τ =") == pytest.approx(tau, abs=5e-4)
    assert "singular" not in _said(panel)
    panel.fig_5_7()
    assert "singular: forces along the arm cost no torque" in _said(panel)


def test_static_mapping_announces_the_rank_and_at_a_singular_pose_the_null_space_of_J_transpose():
    arm = models.planar2r(0.5, 0.3)
    panel = viz.static_mapping_explorer(arm, np.radians([30.0, 60.0]), direction=40.0)
    panel.set_state(direction=0.0)
    assert _vector_after(_said(panel), "maps to τ =") == pytest.approx(arm.jacob0(panel.q)[:2].T @ [1, 0], abs=5e-4)
    assert "rank Jᵀ = 2" in _said(panel)
    panel.stretch()  # θ2 = 0: forces along the arm (θ1 = 30°) need no torque
    null = _vector_after(_said(panel), "forces along ±")
    assert "rank Jᵀ = 1, singular" in _said(panel)
    assert abs(np.dot(null, [np.cos(np.pi / 6), np.sin(np.pi / 6)])) == pytest.approx(1.0, abs=0.01)


def test_payload_explorer_announces_the_largest_payload_and_its_joint():
    panel = viz.payload_explorer(models.youbot(), np.radians([0.0, 30.0, 40.0, 60.0, 0.0]), mass=0.3)
    panel.set_state(mass=0.5)
    best = panel.readings["max_payload"]
    assert 0 < best < panel.mass.max
    assert f"holds at most {best:.3f} kg, joint {panel.readings['limiting_joint']} limits it" in _said(panel)
    assert _vector_after(_said(panel), "τ =") == pytest.approx(panel.tau, abs=0.006)


def test_wrist_sensor_announces_the_tip_wrench_of_example_6():
    panel = viz.wrist_sensor_demo(force=(2.0, -1.0, -15.0), moment_z=0.0, length=0.2, bend=0.0)
    panel.set_state(length=0.1)
    # a straight tool: the same force, moment (O_W − O_T) × f = (0, 0, −0.1) × (2, −1, −15) = (−0.1, −0.2, 0)
    assert _vector_after(_said(panel), "force") == pytest.approx([2.0, -1.0, -15.0], abs=5e-4)
    assert _vector_after(_said(panel), "moment") == pytest.approx([-0.1, -0.2, 0.0], abs=5e-4)


def test_jacobian_explorer_announces_sigma_min_and_det_J():
    puma = models.puma560()
    explorer = viz.jacobian_explorer(puma)
    q = np.radians([30.0, -40.0, -60.0, 20.0, 45.0, -30.0])
    explorer.set_q(q)
    J = puma.jacob0(q)
    sigma = float(np.linalg.svd(J, compute_uv=False)[-1])
    said = _said(explorer)
    assert float(re.search(r"σmin ([\d.e−-]+)", said).group(1)) == pytest.approx(sigma, rel=1e-3)
    assert _numbers(re.search(r"det J (\S+)", said).group(1))[0] == pytest.approx(np.linalg.det(J), abs=1e-4)


def test_players_announce_the_first_and_last_frame_of_an_animation_not_those_between():
    arm = models.planar2r(0.8, 0.6, 1.5, 0.7)
    fall = sim.simulate(arm, [0.0, 0.0], [0.0, 0.0], 0.5, 1e-3, gravity=(0.0, -9.81, 0.0))
    player = viz.trajectory_player(arm, {"RK4": fall}, energy={"RK4": fall.energy})
    player.time.value = 0.25  # a student moves the time slider: announced
    assert _said(player).startswith("t = 0.250 s; RK4: E =")
    player.play.value = 100  # a frame of the animation: not announced (the region keeps what it said)
    assert player.k == 100 and _said(player).startswith("t = 0.250 s")
    player.play.value = player.play.max
    assert _said(player).startswith("t = 0.500 s")


def test_control_lab_announces_the_largest_tracking_error_of_the_new_run():
    from armlab.viz.control import control_lab

    lab = control_lab("paper")
    lab.omega.value = lab.omega.value + 2 * lab.omega.step
    worst = np.degrees(lab.result.max_error)
    said = re.search(r"max tracking error ([^d]*) degrees", _said(lab)).group(1)
    assert _numbers(said) == pytest.approx(worst, abs=0.006)


def test_time_plot_summary_and_table_are_the_data():
    t = np.linspace(0.0, 2.0, 201)
    y = np.vstack([np.sin(np.pi * t), -0.5 * t])
    p = plots.time_plot(t, y, labels=["θ1", "θ2"], ylabel="q (rad)", xlabel="t (s)", title="angles")
    assert p.alt.startswith("Plot of angles (q (rad)) against t (s) from 0 to 2")
    assert "θ1 from −1 to 1, last" in p.alt and "θ2 from −1 to 0, last −1" in p.alt
    head, rows = p.table
    assert head == ("t (s)", "θ1", "θ2") and len(rows) == plots.TABLE_ROWS
    for row in rows:
        k = int(round(float(row[0]) / 0.01))
        assert [float(v) for v in row[1:]] == pytest.approx(y[:, k], abs=5e-4)


def test_still_figure_alt_text_says_what_is_plotted():
    from matplotlib.figure import Figure

    fig = Figure()
    ax = fig.subplots()
    ax.plot([0, 10], [1, -2], label="joint 1")
    ax.legend()
    ax.set(xlabel="t (s)", ylabel="q (rad)", title="angles")
    shown = viz.shown(fig)
    html = shown._repr_mimebundle_()["text/html"]
    alt = re.search(r"alt='([^']*)'", html).group(1)
    assert alt == shown.alt and "angles, q (rad) from" in alt and "against t (s)" in alt and "(lines: joint 1)" in alt
    assert "max-width:100%" in html and "data-armlab-alt='generated'" in html  # the course's notebooks refuse it
    given = viz.shown(fig, alt="two joints, one rising")
    html = given._repr_mimebundle_()["text/html"]
    assert "alt='two joints, one rising'" in html and "generated" not in html
    with pytest.raises(ValueError, match="alt"):
        viz.describe_figure(fig, " ")


IPYTHON_SCRIPT = """
from IPython.testing.globalipapp import start_ipython
ip = start_ipython()
ip.display_formatter.active_types = ["text/plain", "text/html", "image/png"]
for formatter in ip.display_formatter.formatters.values():
    formatter.enabled = True
ip.run_cell("from armlab import viz")
ip.run_cell("%matplotlib inline")
ip.run_cell("import matplotlib.pyplot as plt\\nfig, ax = plt.subplots()\\nax.plot([0, 1])\\nax.set_title('the title')")
print(ip.display_formatter.format(ip.user_ns["fig"])[0].get("text/html", "no html"))
"""


@pytest.mark.integration  # runs a shell of its own
def test_every_figure_a_kernel_shows_is_an_img_with_alt_text_even_after_matplotlib_inline():
    """``%matplotlib inline`` after ``import armlab.viz`` drops every formatter of Figure; the next cell has ours
    back. In an IPython shell of its own (a shell stays for the process). The kernel's first figure, which sets
    the inline backend up too, is the browser test's."""
    out = subprocess.run([sys.executable, "-c", IPYTHON_SCRIPT], capture_output=True, text=True, timeout=120)
    assert re.search(r"<img src='data:image/png;base64,[^']+' alt='Figure. Plot, the title, ", out.stdout), (
        out.stdout[-500:] + out.stderr[-2000:]
    )


def test_results_table_is_html_with_headers_and_aligned_text():
    table = viz.Table(["case", "error (°)"], [["exact", "0.10"], ["payload unknown", "2.35"]], caption="c")
    assert "<th scope='col'>error (°)</th>" in table._repr_html_() and "<caption" in table._repr_html_()
    assert str(table).splitlines()[1:] == [
        "case             error (°)",
        "exact                 0.10",
        "payload unknown       2.35",
    ]
    with pytest.raises(ValueError, match="rows"):
        viz.Table(["a", "b"], [["1"]])


# --- colour ---------------------------------------------------------------------------------------------
def test_joint_colours_stay_apart_under_colour_vision_deficiencies():
    """The smallest ΔE76 between two joint colours is at least 15 with normal vision and under protanopia,
    deuteranopia and tritanopia (Machado 2009); the old tab10 colours failed (θ2 and θ3: 7.3 deuteranopic)."""
    for deficiency in DEFICIENCIES:
        d, a, b = closest_pair(list(plots.JOINT_COLORS), deficiency)
        assert d >= 15.0, f"{a} and {b} look alike ({deficiency}): ΔE {d:.1f}"
    assert delta_e("#d62728", "#2ca02c", "deuteranopia") == pytest.approx(7.3, abs=0.1)


def test_ik_arm_colours_stay_apart():
    arms = viz_ik._TAB20[::2]  # one colour per arm (the flipped wrist is a darker shade of it)
    for deficiency in DEFICIENCIES:
        d, a, b = closest_pair(list(arms), deficiency)
        assert d >= 10.0, f"{a} and {b} look alike ({deficiency}): ΔE {d:.1f}"


TEXT_COLOURS = {  # drawn as text (labels on canvases, coloured words): 4.5:1 on white
    "IK branch labels": viz_ik._TAB20,
    "IK outside": ["#737373"],
    "frame axis names": scene.AXIS_COLORS,
    "plot legend text": [plots.TEXT_COLOR],
}
GRAPHIC_COLOURS = {  # lines, arrows, bars: 3:1 on white
    "joint lines": plots.JOINT_COLORS,
    "plot marks": [plots.MARK_COLOR],
    "forces, moments, ellipses": [statics_panel.FORCE_COLOR, statics_panel.MOMENT_COLOR, statics_panel.ELLIPSE_COLOR],
    "load levels": [c for _, c in statics_panel.LEVELS],
    "faint frames": [blend(c, scene.FAINT_ALPHA) for c in scene.AXIS_COLORS],
    "IK arms drawn": [blend(c, viz_ik.SolutionArms.IN_ALPHA) for c in viz_ik._TAB20]
    + [blend("#737373", viz_ik.SolutionArms.OUT_ALPHA)],
}


@pytest.mark.parametrize("what", TEXT_COLOURS)
def test_text_colours_have_4_5_to_1_on_white(what):
    for c in TEXT_COLOURS[what]:
        assert contrast(c) >= 4.5, f"{what}: {c} is {contrast(c):.2f}:1"


@pytest.mark.parametrize("what", GRAPHIC_COLOURS)
def test_graphic_colours_have_3_to_1_on_white(what):
    for c in GRAPHIC_COLOURS[what]:
        assert contrast(c) >= 3.0, f"{what}: {c} is {contrast(c):.2f}:1"


def test_white_text_on_the_jacobian_badge_has_4_5_to_1():
    for status, c in viz_jacobians.STATUS_COLORS.items():
        assert contrast("#ffffff", c) >= 4.5, f"{status}: white on {c} is {contrast('#ffffff', c):.2f}:1"


def test_the_contrast_check_fails_the_colours_the_audit_found():
    assert contrast("#ffffff", "#e6a100") == pytest.approx(2.2, abs=0.05)  # 04's old badge
    assert contrast("#ffffff", "#f57c00") == pytest.approx(2.7, abs=0.05)  # lab 1's old "hold"
    assert contrast("#17becf") < 3.0  # 05's old cyan ellipse
