"""armlab.viz widgets driven programmatically: sliders → callbacks → displayed T and artists.

Runs on the Agg backend; the same callbacks run under ipympl in the notebooks
(tests/integration/test_notebooks.py) and in a real browser (tests/integration/test_browser.py).
"""

import subprocess
import sys

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from armlab import Rot, Trans, link_transform_modified, link_transform_standard, models  # noqa: E402

viz = pytest.importorskip("armlab.viz")

DECIMALS = 3
TOL_DISPLAY = 0.5 * 10**-DECIMALS + 1e-12

ARMS = {
    "puma560": (models.puma560, [90, 0, -90, 0, 0, 0], [30, -40, -120, 45, -60, 90]),
    "youbot": (models.youbot, [0, 0, 0, 90, 0], [40, 20, -70, 30, 100]),
}


def displayed(panel):
    return viz.parse_matrix(panel.matrix_widget.value)


@pytest.mark.parametrize("name", sorted(ARMS))
def test_arm_viewer_sliders_move_arm_and_T_matches_fkine(name):
    make, start_deg, new_deg = ARMS[name]
    robot = make()
    arm_joints = 3 if name == "puma560" else 4
    panel = viz.arm_viewer(robot, np.radians(start_deg), decimals=DECIMALS)
    line, triad_lines = panel.view.line, list(panel.view.triads.lines)
    n_artists = len(panel.view.ax.get_children())
    assert np.allclose(panel.T, robot.fkine(np.radians(start_deg)))
    for k, value in enumerate(new_deg):
        before_line = panel.view.line_data().copy()
        before_triads = np.concatenate([np.ravel(ln.get_data_3d()) for ln in panel.view.triads.lines])
        before_redraws = panel.redraws
        panel.sliders[k].value = value  # what a student's drag does
        q = np.radians(np.r_[new_deg[: k + 1], start_deg[k + 1 :]])
        T = robot.fkine(q)
        assert np.allclose(panel.q, q, atol=1e-12)
        assert np.allclose(panel.T, T, atol=1e-12)  # numeric T follows fkine
        assert np.abs(displayed(panel) - T).max() <= TOL_DISPLAY  # shown T, to display precision
        assert panel.redraws == before_redraws + 1
        if k < arm_joints:  # PUMA joints 4–6 / youBot joint 5 turn frames about the wrist, not the skeleton
            assert not np.allclose(panel.view.line_data(), before_line, equal_nan=True)
        triads_now = np.concatenate([np.ravel(ln.get_data_3d()) for ln in panel.view.triads.lines])
        assert not np.allclose(triads_now, before_triads, equal_nan=True)
    # moved in place: same artists, nothing added to the axes
    assert panel.view.line is line and panel.view.triads.lines == triad_lines
    assert len(panel.view.ax.get_children()) == n_artists


@pytest.mark.parametrize("name", sorted(ARMS))
def test_arm_viewer_set_q_redraws_once_and_sliders_show_degrees(name):
    make, start_deg, new_deg = ARMS[name]
    robot = make()
    panel = viz.arm_viewer(robot, np.radians(start_deg))
    redraws = panel.redraws
    T = panel.set_q(np.radians(new_deg))
    assert panel.redraws == redraws + 1
    assert np.allclose([s.value for s in panel.sliders], new_deg)
    assert np.allclose(T, robot.fkine(np.radians(new_deg)))
    assert "°" in panel.sliders[0].description


def test_arm_view_tip_is_fkine_and_skeleton_passes_through_frames():
    robot = models.puma560(flange=True)  # with a tool: the skeleton ends at the flange
    q = np.radians([10, -20, 30, 40, 50, 60])
    view = viz.ArmView(robot, q=q)
    data = view.line_data()
    assert np.allclose(data[:, -1], robot.fkine(q)[:3, 3])
    origins = robot.fkine_all(q)[:, :3, 3]
    for o in origins:
        assert np.min(np.linalg.norm(data.T - o, axis=1)) < 1e-12


def test_youbot_check_pose_in_viewer():
    """Lab report (2.7): q = (0, 0, 0, π/2, 0) → R = diag(−1, −1, 1), p = (0.033, 0, 0.655)."""
    panel = viz.arm_viewer(models.youbot(), [0, 0, 0, np.pi / 2, 0])
    shown = displayed(panel)
    assert np.allclose(shown[:3, :3], np.diag([-1, -1, 1]))
    assert np.allclose(shown[:3, 3], [0.033, 0, 0.655])


def test_prismatic_slider_is_metres():
    robot = models.stanford_arm()
    panel = viz.arm_viewer(robot, [0, 0, 0.3, 0, 0, 0])
    assert "(m)" in panel.sliders[2].description
    panel.sliders[2].value = 0.45
    assert panel.q[2] == pytest.approx(0.45)
    assert np.allclose(panel.T, robot.fkine([0, 0, 0.45, 0, 0, 0]))


def test_joint_sliders_convert_explicitly():
    revolute = np.array([True, False, True])
    assert np.allclose(viz.JointSliders.to_q([180, 0.25, -90], revolute), [np.pi, 0.25, -np.pi / 2])
    assert np.allclose(viz.JointSliders.from_q([np.pi, 0.25, -np.pi / 2], revolute), [180, 0.25, -90])


def test_compare_viewer_same_T_different_frames():
    """puma560 (modified DH) and puma560_standard: one T, different link frames."""
    panel = viz.compare_viewer([models.puma560(), models.puma560_standard()], np.radians([90, 0, -90, 0, 0, 0]))
    panel.set_q(np.radians([20, -30, 40, 10, 70, -20]))
    a, b = panel.views
    assert np.allclose(a.T, b.T, atol=1e-12)
    assert not np.allclose(a.frames[2], b.frames[2])
    assert "largest difference" in panel.note.value


def test_frame_playground_fixed_is_BA_current_is_AB():
    """Textbook §3.1.5 item 6: fixed frame → left-multiply, current frame → right-multiply."""
    play = viz.frame_playground([("rot", "z", 90.0), ("trans", "x", 1.0)], frame="fixed")
    A, B = Rot("z", np.pi / 2), Trans(1, 0, 0)
    assert np.allclose(play.T, B @ A)
    assert np.abs(displayed(play) - B @ A).max() <= TOL_DISPLAY
    final_before = play.final.lines[0].get_data_3d()[0].copy()
    play.frame_toggle.value = "current"  # the toggle a student clicks
    assert np.allclose(play.T, A @ B)
    assert np.abs(displayed(play) - A @ B).max() <= TOL_DISPLAY
    assert not np.allclose(play.final.lines[0].get_data_3d()[0], final_before, equal_nan=True)
    assert "Rot(z, 90°) · Trans(x, 1)" in play.formula_widget.value
    play.sliders[0].value = 45.0
    assert np.allclose(play.T, Rot("z", np.pi / 4) @ B)


def test_frame_view_limits_fit_the_frames():
    """Example 3.2 at trans_range ±25: the view is fitted to the frames (origin to (10, 20)), not to ±25."""
    ex = viz.frame_playground(
        [("rot", "z", 30.0), ("trans", "x", 10.0), ("trans", "y", 20.0)], point=(4, 8, 0), trans_range=(-25, 25)
    )
    lo, hi = np.array([ex.ax.get_xlim3d(), ex.ax.get_ylim3d(), ex.ax.get_zlim3d()]).T
    assert (hi - lo).max() < 40 and lo[0] > -10 and hi[1] > 20
    assert ex.final.length > 0.1 * (hi - lo).max()  # frames are not lost in a big box


def test_frame_playground_exercise_1_and_example_3_2():
    play = viz.frame_playground()  # exercise 1: z 45°, x 60°, y 30° about the fixed frame
    expected = Rot("y", np.pi / 6) @ Rot("x", np.pi / 3) @ Rot("z", np.pi / 4)
    assert np.allclose(play.T, expected)
    assert play.T[0, 1] == pytest.approx(-0.3062, abs=1e-4)  # the book prints +0.306 (erratum)
    ex = viz.frame_playground(
        [("rot", "z", 30.0), ("trans", "x", 10.0), ("trans", "y", 20.0)], point=(4, 8, 0), trans_range=(-25, 25)
    )
    assert np.allclose((ex.T @ [4, 8, 0, 1])[:3], [9.464, 28.928, 0], atol=5e-4)
    assert "9.464" in ex.point_widget.value


# (factory, options): a start value no slider has, or outside its slider's range, or not a real number
BAD_STARTS = [
    (viz.link_motion_animator, {"alfa": 10.0}, TypeError, "alfa"),
    (viz.link_motion_animator, {"alpha": 200.0}, ValueError, "alpha"),
    (viz.link_motion_animator, {"d": float("nan")}, ValueError, "d ="),
    (viz.tip_force_explorer, {"magnitude": 25.0}, ValueError, "magnitude"),
    (viz.payload_explorer, {"mass": 2.5}, ValueError, "mass"),
    (viz.wrist_sensor_demo, {"bend": 95.0}, ValueError, "bend"),
    (viz.wrist_sensor_demo, {"force": (0.0, 25.0, 0.0)}, ValueError, "f_y"),
    (viz.wrist_sensor_demo, {"length": "0.2"}, ValueError, "length"),
    (viz.excitation_explorer, {"harmonics": 9}, ValueError, "harmonics"),
    (viz.excitation_explorer, {"amplitud": 0.5}, TypeError, "amplitud"),
]


@pytest.mark.parametrize("factory, options, error, name", BAD_STARTS, ids=lambda x: getattr(x, "__name__", None))
def test_slider_table_refuses_an_unknown_or_out_of_range_start_option_by_name(factory, options, error, name):
    with pytest.raises(error, match=name):
        factory(**options)


def test_slider_table_start_options_are_the_sliders_values_and_its_defaults_fill_the_rest():
    anim = viz.link_motion_animator(alpha=-90, d=0.1)
    values = {k: s.value for k, s in anim.param_sliders.items()}
    assert values == {"alpha": -90.0, "a": 0.3, "theta": 45.0, "d": 0.1}
    table = anim.slider_table("modified")
    assert [(r.name, r.lo, r.hi) for r in table.rows] == [(k, s.min, s.max) for k, s in anim.param_sliders.items()]
    ws = viz.wrist_sensor_demo(force=(2.0, -1.0, -15.0), bend=-45.0, max_force=30.0)
    assert [s.value for s in ws.sliders] == [2.0, -1.0, -15.0, 0.2, 0.18, -45.0]
    assert ws.sliders[0].min == -30.0


@pytest.mark.parametrize("convention", ["modified", "standard"])
def test_link_motion_animator_final_step_is_link_transform(convention):
    anim = viz.link_motion_animator(alpha=-90, a=0.3, theta=60, d=0.2, convention=convention)
    assert np.allclose(anim.T, np.eye(4))
    al, th = np.radians(-90), np.radians(60)
    expected = (
        link_transform_modified(al, 0.3, th, 0.2)
        if convention == "modified"
        else link_transform_standard(th, 0.2, 0.3, al)
    )
    assert np.allclose(anim.set_step(4), expected)
    assert np.allclose(anim.link_transform(), expected)
    assert np.abs(displayed(anim) - expected).max() <= TOL_DISPLAY
    # half-way through the first motion: half the angle / length
    first = {"modified": Rot("x", al / 2), "standard": Rot("z", th / 2)}[convention]
    assert np.allclose(anim.set_step(0.5), first)
    # the play widget drives the step slider
    anim.play.value = 2 * anim.STEPS_PER_MOTION
    two = {"modified": Rot("x", al) @ Trans(0.3, 0, 0), "standard": Rot("z", th) @ Trans(0, 0, 0.2)}[convention]
    assert anim.step_slider.value == pytest.approx(2.0)
    assert np.allclose(anim.T, two)
    # changing a parameter at step 4 keeps showing the link transform
    anim.set_step(4)
    anim.param_sliders["theta"].value = 10
    assert np.allclose(anim.T, anim.link_transform())


def test_format_and_parse_matrix_round_trip():
    T = np.array([[1e-9, -0.5], [-1e-9, 12.3456]])
    text = viz.format_matrix(T, 3)
    assert "-0.000" not in text
    assert np.allclose(viz.parse_matrix(text, (2, 2)), [[0, -0.5], [0, 12.346]])
    with pytest.raises(ValueError, match="need 16"):
        viz.parse_matrix("1.0 2.0")


@pytest.mark.integration  # starts a process
def test_import_armlab_does_not_load_viz_or_matplotlib():
    code = (
        "import sys, armlab; bad = [m for m in ('armlab.viz', 'matplotlib', 'ipywidgets') if m in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.parametrize("name", sorted(ARMS))
def test_slider_limits_on_step_grid(name):
    """The browser snaps a slider to min + k·step; with min on the grid, 0° and whole degrees stay exact."""
    make, start_deg, _ = ARMS[name]
    robot = make()
    panel = viz.arm_viewer(robot, np.radians(start_deg))
    lim_deg = np.degrees(robot.qlim)
    for s, (lo, hi), v in zip(panel.sliders, lim_deg, start_deg):
        for end in (s.min, s.max):
            assert abs(end / s.step - round(end / s.step)) < 1e-9, (s.description, end)
        assert (v - s.min) / s.step == pytest.approx(round((v - s.min) / s.step), abs=1e-9)
        if lo <= v <= hi:  # inside the joint range, the slider stays inside it too
            assert lo - 1e-9 <= s.min and s.max <= hi + 1e-9


# the public names of armlab.viz before it became a package: notebooks and homework call them
OLD_VIZ_NAMES = [
    "format_matrix",
    "parse_matrix",
    "MatrixDisplay",
    "Triads",
    "ArmView",
    "JointSliders",
    "ArmViewer",
    "arm_viewer",
    "compare_viewer",
    "FramePlayground",
    "frame_playground",
    "LinkMotionAnimator",
    "link_motion_animator",
    "trig_shorthand",
    "figure3d",
    "frames_figure",
    "shown",
    "dh_table",
    "AXIS_COLORS",
]


def test_old_viz_names_still_exported():
    missing = [name for name in OLD_VIZ_NAMES if not hasattr(viz, name)]
    assert not missing
    assert set(viz.__all__) >= set(OLD_VIZ_NAMES) - {"AXIS_COLORS"}
    assert all(hasattr(viz, name) for name in viz.__all__)


@pytest.mark.integration  # starts a process
def test_import_viz_loads_neither_matplotlib_nor_ipywidgets():
    """Both are imported when a figure or a widget is built, so ``from armlab import viz`` stays cheap."""
    code = (
        "import sys, armlab.viz; bad = [m for m in ('matplotlib', 'ipywidgets') if m in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_elementary_motion_rejects_bad_kind_and_axis():
    assert np.allclose(viz.elementary_motion("trans", "y", 2.0), Trans(0, 2, 0))
    assert np.allclose(viz.elementary_motion("rot", "x", 90.0, deg=True), Rot("x", np.pi / 2))
    with pytest.raises(ValueError, match="axis"):
        viz.elementary_motion("rot", "w", 1.0)
    with pytest.raises(ValueError, match="kind"):
        viz.elementary_motion("spin", "x", 1.0)


def test_latex_of_link_transform_equation_and_lists():
    """Textbook (3.23) for link 1 of the RPR arm (α0 = a0 = d1 = 0): ⁰T₁ = Rot(z, θ1), set as LaTeX."""
    sp = pytest.importorskip("sympy")
    th = sp.Symbol("theta1")
    T01 = sp.Matrix(link_transform_modified(0, 0, th, 0))
    eq = sp.Eq(sp.Symbol("{}^0T_1"), T01, evaluate=False)
    text = viz.latex(eq)
    assert text.startswith("{}^0T_1 = \\left[\\begin{matrix}\\cos{\\left(\\theta_{1} \\right)}")
    # a list is one item a line, a tuple one line; a str passes through; an array becomes a matrix
    assert viz.latex([th, th]) == "\\begin{gathered}\\theta_{1} \\\\ \\theta_{1}\\end{gathered}"
    assert viz.latex((th, "=", 1)) == "\\theta_{1} \\quad = \\quad 1"
    assert viz.latex(np.eye(2)) == sp.latex(sp.Matrix(np.eye(2)))


def test_latex_breaks_a_long_sum_into_lines_that_fit_the_column():
    """Chapter 07's kinetic term ½ω_z² of link 5 (2.47), once one line 12 093 px wide: set by viz.latex, every
    line fits in LINE characters, and the lines hold the same terms with the same signs as sympy's one line."""
    sp = pytest.importorskip("sympy")
    from armlab import dynamics, models
    from armlab.viz import text

    model = dynamics.symbolic_regressor(models.youbot())
    # (the canonical form now writes L(5, 7) in 49 characters: its expanded form, and L(5, 8), are the long ones)
    for term in (dynamics.simplify_trig(model.L(5, 7), combine=False), dynamics.simplify_trig(model.L(5, 8))):
        one_line = sp.latex(term)
        assert text._width(one_line) > text.LINE  # too wide as one line
        tex = viz.latex(sp.Eq(sp.Symbol("L"), term))
        assert tex.startswith(r"\begin{aligned}[t]L &= ") and tex.endswith(r"\end{aligned}")
        lines = tex[len(r"\begin{aligned}[t]") : -len(r"\end{aligned}")].split(r" \\ ")
        assert all(text._width(line) <= text.LINE for line in lines), [text._width(line) for line in lines]
        body = [lines[0].split(" &= ", 1)[1]] + [line.removeprefix(r"&\quad ") for line in lines[1:]]
        assert " ".join(body) == one_line  # nothing lost, no sign changed
    # short ones stay on one line, tuples too wide for one line go one item a line
    x = sp.Symbol("x")
    assert viz.latex(sp.Eq(x, x + 1, evaluate=False)) == "x = x + 1"
    wide = tuple(
        sp.Eq(sp.Symbol(f"J_{k}"), sp.Matrix([[sum(sp.symbols("a1:9"))] * 2]), evaluate=False) for k in range(3)
    )
    assert viz.latex(wide).startswith(r"\begin{gathered}") and viz.latex(wide).count(r" \\ ") == 2


def test_show_math_prints_text_without_ipython(capsys):
    sp = pytest.importorskip("sympy")
    q2, q3 = sp.symbols("q2 q3")
    viz.show_math([sp.Eq(sp.Symbol("c23"), sp.cos(q2 + q3)), sp.Matrix([[1, 0], [0, 1]])])
    out = capsys.readouterr().out
    assert "c₂₃ = cos(q₂ + q₃)" in out
    assert "⎡1  0⎤" in out  # the matrix, drawn by sympy's pretty printer on the lines below


def test_show_math_displays_latex_in_ipython(monkeypatch):
    sp = pytest.importorskip("sympy")
    display = pytest.importorskip("IPython.display")
    shown = []
    monkeypatch.setattr(viz.text, "in_ipython", lambda: True)
    monkeypatch.setattr(display, "display", shown.append)
    x = sp.Symbol("x")
    assert viz.show_math(sp.Eq(x, 2)) is None  # displayed, not returned (no second copy as the cell's value)
    assert len(shown) == 1 and isinstance(shown[0], display.Math)
    assert shown[0].data == "x = 2"


# --- the browser renderer: what travels to the page ---------------------------------------------------
def _items(panel, kind, k=0):
    return [it for it in panel.scenes[k].payload["items"] if it["t"] == kind]


def test_scene_payload_follows_the_sliders_and_is_small():
    """A slider move sends the moved skeleton (fkine_all of the new q) to the canvas, a few kB of data."""
    robot = models.puma560()
    panel = viz.arm_viewer(robot, np.radians([90, 0, -90, 0, 0, 0]))
    panel.sliders[1].value = -30.0
    q = np.radians([90, -30, -90, 0, 0, 0])
    skeleton = next(it for it in _items(panel, "line") if it["w"] > 5 and it.get("m") == "o")  # the arm
    pts = np.array(skeleton["p"], dtype=float).reshape(-1, 3)
    assert np.allclose(pts, panel.view.skeleton(robot.fkine_all(q)), atol=1e-5)
    assert len(panel.scenes[0].widget.scene) < 20_000
    # frame axes carry arrowheads; the limits and fit points are plain numbers
    assert sum(bool(it.get("arrow")) for it in _items(panel, "line")) == 3
    assert len(panel.scenes[0].payload["fit"]) % 3 == 0


def test_labels_of_coincident_frames_are_set_side_by_side():
    """PUMA560 frames {4}, {5}, {6} share the wrist centre: their labels get different screen offsets."""
    panel = viz.arm_viewer(models.puma560(), np.radians([90, 0, -90, 0, 0, 0]))
    texts = {it["s"]: it for it in _items(panel, "text")}
    assert texts["4"]["p"] == texts["5"]["p"] == texts["6"]["p"]
    assert len({texts[s]["dx"] for s in "456"}) == 3


def test_default_view_sees_no_axis_end_on():
    """At the starting view, no axis of a frame turned about z by a multiple of 15° (e.g. the ch00 demo's
    Rot(z, 30°)) points at the eye: each projects to at least 40 % of its length."""
    elev, azim = np.radians(viz.VIEW)
    toward = np.array([np.cos(elev) * np.cos(azim), np.cos(elev) * np.sin(azim), np.sin(elev)])  # scene.js camera
    for deg in range(0, 360, 15):
        axes = Rot("z", np.radians(deg))[:3, :3].T  # rows: the frame's x, y, z
        projected = np.sqrt(1 - (axes @ toward) ** 2)
        assert projected.min() >= 0.4, (deg, projected)


def test_slider_keeps_values_set_from_code_exactly():
    """No rounding to the step grid on the kernel side; the value stays within [min, max]."""
    s = viz.slider(0.0, -180, 180, 0.5, "θ (°)")
    s.value = 12.3456789
    assert s.value == 12.3456789
    s.value = 500
    assert s.value == 180
    s.min, s.max = 0.0, 90.0
    assert s.value == 90.0
    with pytest.raises(Exception, match="finite"):
        s.value = float("nan")


def test_a_slider_value_from_the_browser_is_not_echoed_back():
    """The browser that moved a slider shows the value already: no echo_update message (one message fewer per
    move); ipywidgets' own slider echoes it (so the check can fail)."""
    import ipywidgets

    class Comm:
        kernel, comm_id = object(), "test"

        def __init__(self):
            self.sent = []

        def send(self, data=None, buffers=None, **kwargs):
            self.sent.append(data["method"])

        def on_msg(self, callback):
            pass

    ours, theirs = viz.slider(0.0, -180, 180, 0.5, "θ (°)"), ipywidgets.FloatSlider()
    for w in (ours, theirs):
        w.comm = Comm()
        w.set_state({"value": 10.0})
        assert w.value == 10.0
    assert ours.comm.sent == [] and theirs.comm.sent == ["echo_update"]


def test_shown_draws_a_3d_figure_in_the_browser_with_a_still_image(monkeypatch):
    fig = viz.frames_figure([np.eye(4), Rot("z", 0.5)], labels=["A", "B"], axis_names="noa")
    view = viz.shown(fig)
    assert isinstance(view, viz.FigureView)
    names = {it["s"] for it in view.scenes[0].payload["items"] if it["t"] == "text"}
    assert names >= {"A", "B", "n", "o", "a"}
    monkeypatch.setattr(viz.widgets, "in_ipython", lambda: True)
    bundle = view._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle  # JupyterLab draws the canvas
    assert bundle["image/png"]  # exported HTML and headless runs show the image


def test_ik_explorer_sends_the_picture_before_the_text_and_chooses_as_ikine():
    robot = models.puma560()
    ex = viz.ik_explorer(robot, follow=False)
    order = []
    ex.message.observe(lambda _: order.append("message"), names="value")
    ex.table.observe(lambda _: order.append("table"), names="value")
    ex.scenes[0].widget.observe(lambda _: order.append("scene"), names="scene")
    T = robot.fkine(np.radians([30, -40, 60, 20, 45, -30]))
    chosen = ex.set_T(T)
    assert order[0] == "scene" and {"message", "table"} <= set(order[1:])
    direct = robot.ikine(ex.T, ex.q_used, None)
    assert chosen.labels == direct.labels and np.allclose(chosen.q, direct.q) and chosen.cost == direct.cost
    assert direct.labels[0] in ex.message.value and "<table" in ex.table.value


def test_server_connection_class_sets_nodelay(monkeypatch):
    server = pytest.importorskip("armlab.viz.server")
    from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

    calls = []
    monkeypatch.setattr(ZMQChannelsWebsocketConnection, "connect", lambda self: calls.append("connect"))
    conn = server.NoDelayKernelConnection.__new__(server.NoDelayKernelConnection)
    handler = type("Handler", (), {"set_nodelay": lambda self, v: calls.append(("nodelay", v))})()
    monkeypatch.setattr(server.NoDelayKernelConnection, "websocket_handler", handler, raising=False)
    conn.connect()
    assert calls == [("nodelay", True), "connect"]
    assert server.SERVER_OPTION.endswith("=armlab.viz.server.NoDelayKernelConnection")


def test_joint_sliders_take_their_table_and_refuse_one_of_another_length():
    robot = models.planar2r(1.0, 0.6)
    js = viz.JointSliders(robot, np.radians([30, -45]), table=viz.joint_table(robot, step_deg=1.0, names=["a", "b"]))
    assert [s.description for s in js.sliders] == ["a (°)", "b (°)"]
    assert [s.step for s in js.sliders] == [1.0, 1.0]
    assert np.allclose(js.q, np.radians([30, -45]))
    with pytest.raises(ValueError, match="table"):
        viz.JointSliders(robot, table=viz.joint_table(models.puma560()))
