"""The inverse-kinematics views (armlab.viz.ik, armlab.viz.pose_explorer; old path armlab.viz_ik), driven from code.

The pose sliders are set to fkine(q) of known configurations; the drawn ghost arms must be the
solutions of robot.ikine_all, the coloured ones exactly those within the joint limits, the
chosen one what robot.ikine picks, and an unreachable target must hide every arm and say why.
"""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from armlab import models  # noqa: E402
from armlab import viz as viz_ik  # noqa: E402  (the IK views of armlab.viz.ik and armlab.viz.pose_explorer)
from armlab.ik import PUMA_LABELS, joint_motion, wrap_angle  # noqa: E402

deg = np.radians


@pytest.fixture(scope="module")
def robot():
    return models.puma560()


@pytest.fixture(scope="module")
def explorer(robot):
    return viz_ik.ik_explorer(robot, follow=False)


def _skeleton_of(view_or_ghost, robot, q):
    """The skeleton through the link frames of q, and the tool tip when the drawn robot has a tool."""
    drawn = view_or_ghost.robot
    pts = view_or_ghost.skeleton(robot.fkine_all(q))
    return np.vstack([pts, drawn.fkine(q)[:3, 3]]) if drawn.tool is not None else pts


Q_KNOWN = [deg([30, -40, 60, 20, 45, -30]), deg([-50, -100, 150, -60, -70, 100]), deg([90, -30, 10, 0, 30, 0])]


@pytest.mark.parametrize("q", Q_KNOWN, ids=["q_a", "q_b", "q_c"])
def test_ghost_arms_are_the_solutions(explorer, robot, q):
    T = robot.fkine(q)
    explorer.set_current(np.zeros(6))
    explorer.set_T(T)
    assert np.allclose(explorer.T, T, atol=1e-12)
    sols = robot.ikine_all(T, np.zeros(6))
    arms = explorer.arms
    assert arms.shown.sum() == len(sols) == 8
    # each slot holds the solution of its branch label, drawn through fkine_all of that solution
    for k, label in enumerate(sols.labels):
        s = PUMA_LABELS.index(label)
        assert arms.shown[s] and arms.labels[s] == label
        # the same joint position: the explorer solves its own T (1e-16 off), and where θ6 of the flipped
        # wrist is ±180° the sign of a 1e-17 residue picks the one or the other
        assert np.abs(wrap_angle(arms.q[s] - sols.q[k])).max() < 1e-9
        ghost = arms.ghosts[s]
        assert np.allclose(ghost.frames, robot.fkine_all(sols.q[k]), atol=1e-12)
        drawn = ghost.line_data().T
        assert np.allclose(drawn, _skeleton_of(ghost, robot, sols.q[k]), atol=1e-12)
        assert ghost.line.get_visible()
        # and every drawn arm ends at the target
        assert np.allclose(robot.fkine(arms.q[s]), T, atol=1e-9)
    # highlighted (coloured, solid) exactly the within-limits ones; the others grey and dashed
    expect = np.zeros(8, bool)
    for k, label in enumerate(sols.labels):
        expect[PUMA_LABELS.index(label)] = sols.within_limits[k]
    assert np.array_equal(arms.highlighted, expect)
    for s, ghost in enumerate(arms.ghosts):
        if expect[s]:
            assert ghost.line.get_linestyle() == "-" and ghost.line.get_alpha() == arms.IN_ALPHA
            assert matplotlib.colors.same_color(ghost.line.get_color(), arms.colors[s])
        else:
            assert ghost.line.get_linestyle() == "--" and ghost.line.get_alpha() == arms.OUT_ALPHA
    # the wrist stubs lie along z5 of each solution: the flipped wrist points the other way
    stubs = arms.stub_segments()
    for s in np.flatnonzero(arms.shown):
        F5 = arms.ghosts[s].frames[5]
        seg = stubs[s]
        assert np.allclose(seg[0], F5[:3, 3]) and np.allclose(seg[1] - seg[0], arms.stub_length * F5[:3, 2])
    # labels: one text per distinct arm (flip and noflip share their links)
    texts = [t.get_text() for t in arms.texts if t.get_visible()]
    assert sorted(texts) == sorted({viz_ik.arm_label(l) for l in sols.labels})


@pytest.mark.parametrize("mode", ["nearest", "weighted"])
@pytest.mark.parametrize("q_current", [np.zeros(6), deg([-60, -120, 140, 0, 0, 0])], ids=["home", "other"])
def test_selector_picks_what_ikine_picks(explorer, robot, mode, q_current):
    explorer.mode.value = mode
    for q in Q_KNOWN:
        T = robot.fkine(q)
        explorer.set_current(q_current)
        explorer.set_T(T)
        weights = None if mode == "nearest" else explorer.weights
        best = robot.ikine(T, q_current, weights)
        assert explorer.chosen.labels == best.labels
        assert np.allclose(explorer.chosen.q, best.q)
        assert np.allclose(explorer.chosen_view.frames, robot.fkine_all(best.q[0]), atol=1e-12)
        assert explorer.chosen_view.line.get_visible()
        # the choice is the least J among the within-limit solutions
        sols = explorer.sols
        J, _ = joint_motion(sols.q, q_current, weights, robot.qlim, [True] * 6)
        pool = sols.within_limits if sols.within_limits.any() else np.ones(len(sols), bool)
        assert np.isclose(best.cost, J[pool].min())
    explorer.mode.value = "nearest"


def test_weighted_mode_uses_the_weights_text(explorer, robot):
    explorer.weights_text.value = "3, 2, 1, 1, 1, 1"
    assert np.allclose(explorer.weights, [3, 2, 1, 1, 1, 1])
    explorer.weights_text.value = "3, 2"
    with pytest.raises(ValueError, match="weights"):
        explorer.weights
    explorer.mode.value = "weighted"
    explorer.set_T(robot.fkine(Q_KNOWN[0]))  # a bad text falls back to equal weights and says so
    assert "using equal weights" in explorer.message.value
    explorer.weights_text.value = "3, 2, 1, 1, 1, 1"
    explorer.mode.value = "nearest"


def test_follow_moves_the_current_configuration(robot):
    ex = viz_ik.ik_explorer(robot, follow=True)
    q = Q_KNOWN[1]
    ex.set_T(robot.fkine(q))
    assert np.allclose(robot.fkine(ex.q_current), robot.fkine(q), atol=1e-9)
    ex.home_button.click()
    assert np.allclose(ex.q_used, ex.home)


@pytest.mark.parametrize(
    "pose, words", [((1.0, 0.0, 0.0), "outside the reach"), ((0.0, 0.05, 0.3), "shoulder offset d2")]
)
def test_unreachable_hides_all_arms_and_says_why(explorer, robot, pose, words):
    explorer.set_T(robot.fkine(Q_KNOWN[0]))
    assert explorer.arms.shown.any()
    explorer.set_pose(*pose)
    assert len(explorer.sols) == 0
    assert not explorer.arms.shown.any()
    assert not any(g.line.get_visible() for g in explorer.arms.ghosts)
    assert not any(t.get_visible() for t in explorer.arms.texts)
    assert not explorer.arms.stubs.get_visible()
    assert not explorer.chosen_view.line.get_visible()
    assert "No solution" in explorer.message.value and words in explorer.message.value
    assert explorer.table.value == ""
    # and back: a reachable pose shows them again
    explorer.set_T(robot.fkine(Q_KNOWN[0]))
    assert explorer.arms.shown.all() and explorer.chosen_view.line.get_visible()


def test_wrist_singularity_is_reported(explorer, robot):
    explorer.set_T(robot.fkine(deg([20, -30, 40, 0, 0, 0])))
    sing = dict(zip(explorer.sols.labels, explorer.sols.singular))
    # θ5 = 0 on the branch the pose came from (and its flip, the same wrist); the other arms see
    # the wrist from elsewhere, with θ5 ≠ 0
    assert sing["left-up-noflip"] and sing["left-up-flip"] and not sing["right-down-noflip"]
    assert "Singular" in explorer.message.value


def test_message_text_is_the_message_without_markup(explorer, robot):
    """Chapter 03 prints what the explorer says: the words, never "<div style=…>"."""
    explorer.set_T(robot.fkine(deg([20, -30, 40, 0, 0, 0])))
    text = explorer.message_text
    assert text.startswith("8 solution(s), 4 within the joint limits") and "Singular (wrist" in text
    assert "<" not in text and ">" not in text and "&" not in text
    assert text.splitlines()[1].startswith("chosen (nearest (k = 1)): left-up-noflip")
    explorer.set_pose(1.25, 0.0, 0.0)  # out of reach
    assert explorer.message_text.startswith("No solution.")


def test_updates_in_place(explorer, robot):
    """No new artists per update (how fast: bench/bench_viz.py --check).

    With the Agg canvas of a test, ``draw_idle`` draws at once, so one ``set_T`` is the whole
    slider-to-picture path: IK, moving the artists, the table, and a full redraw.
    """
    ax = explorer.ax
    n_lines, n_texts, n_coll = len(ax.lines), len(ax.texts), len(ax.collections)
    rng = np.random.default_rng(3)
    for _ in range(12):
        q = rng.uniform(robot.qlim[:, 0], robot.qlim[:, 1])
        explorer.set_T(robot.fkine(q))
    assert (len(ax.lines), len(ax.texts), len(ax.collections)) == (n_lines, n_texts, n_coll)


def test_show_solutions_youbot_and_planar():
    yb = models.youbot()
    q = np.array([0.3, 0.4, -0.8, 0.6, 0.2])
    sols = yb.ikine_all(yb.fkine(q))
    fig = viz_ik.show_solutions(yb, sols)
    assert fig.arms.shown.sum() == len(sols) >= 2
    for s in np.flatnonzero(fig.arms.shown):
        assert np.allclose(yb.fkine(fig.arms.q[s]), yb.fkine(q), atol=1e-9)
    assert fig.arms.stubs is None  # no wrist flip on the youBot
    p2 = models.planar2r(1.0, 1.0)
    s2 = p2.ikine_all(p2.fkine([0.4, 0.9]))
    f2 = viz_ik.show_solutions(p2, s2)
    assert f2.arms.labels[:2] == ["up", "down"]


def test_bad_pose_values_raise(explorer):
    with pytest.raises(ValueError, match="outside the slider range"):
        explorer.set_pose(5.0, 0, 0)
    with pytest.raises(ValueError, match="joint values"):
        explorer.set_current([0, 0])


def test_rejected_pose_leaves_sliders_and_drawing_unchanged(explorer, robot):
    """A pose with one value outside its slider is refused as a whole: no slider moves."""
    explorer.set_T(robot.fkine(Q_KNOWN[0]))
    pose, T = explorer.pose.copy(), explorer.T.copy()
    with pytest.raises(ValueError, match="outside the slider range"):
        explorer.set_pose(0.1, 0.2, 5.0)  # x and y fit, z does not
    assert np.array_equal(explorer.pose, pose)
    assert np.allclose(explorer.T, T) and np.allclose(explorer.target.Ts[0], T)


def test_pose_set_from_code_is_kept_exactly(explorer, robot):
    """Sliders keep the exact values set from code, off their step grid: the singular pose stays singular.

    (The browser side of this, no snapped echo after Run All, is tests/integration/test_browser.py.)
    """
    T_s = robot.fkine(deg([20, -30, 40, 0, 0, 0]))
    explorer.set_current(np.zeros(6))
    explorer.set_T(T_s)
    x = explorer.pose_sliders["x"]
    assert abs((x.value - x.min) / x.step - round((x.value - x.min) / x.step)) > 1e-6  # off the grid
    assert np.allclose(explorer.T, T_s, atol=1e-12)
    assert explorer.sols.singular.any() and "Singular" in explorer.message.value
    redraws = explorer.redraws
    x.value = x.value + x.step  # a move by the student (one step) is a new target
    assert explorer.redraws == redraws + 1
    assert explorer.T[0, 3] == pytest.approx(T_s[0, 3] + x.step)
    assert np.allclose(explorer.T[1:3, 3], T_s[1:3, 3], atol=1e-12)


def test_preset_where_nearest_and_weighted_differ(robot):
    """Paper 003 eq. (12): from the preset's current configuration, equal weights and k = (3, 2, 1, 1, 1, 1)
    choose different branches; with follow on, switching the rule decides again from the same start."""
    ex = viz_ik.ik_explorer(robot, follow=True)
    ex.load_preset("nearest ≠ weighted")
    start = ex.q_used.copy()
    nearest = ex.chosen.labels[0]
    ex.mode.value = "weighted"
    assert np.allclose(ex.q_used, start)  # not the arm's new place after following the nearest choice
    weighted = ex.chosen.labels[0]
    assert nearest != weighted
    T = ex.T
    assert robot.ikine(T, start).labels[0] == nearest
    assert robot.ikine(T, start, [3, 2, 1, 1, 1, 1]).labels[0] == weighted
    assert ex.chosen.cost > 0  # J is the motion from where the arm was, not 0
    with pytest.raises(ValueError, match="preset"):
        ex.load_preset("no such preset")


def test_tool_option_makes_orientation_move_the_arm(robot):
    """Frame {6} sits at the wrist centre: turning the target about it moves only the wrist. With the target
    on a tool tip 0.15 m along z6, the same turn moves the wrist centre, i.e. the whole arm."""
    ex = viz_ik.ik_explorer(robot, follow=False)
    ex.set_T(robot.fkine(Q_KNOWN[0]))
    wrist = {}
    for use_tool in (False, True):
        ex.use_tool.value = use_tool
        centres = []
        for yaw in (0.0, 40.0):
            pose = ex.pose.copy()
            pose[5] = yaw
            ex.set_pose(*pose)
            assert np.allclose(ex.ik_robot.fkine(ex.chosen.q[0]), ex.T, atol=1e-9)  # the target is that frame
            centres.append(ex.chosen_view.frames[4][:3, 3].copy())
        wrist[use_tool] = np.linalg.norm(centres[1] - centres[0])
    assert wrist[False] < 1e-9 and wrist[True] > 0.05


def test_wrist_inset_tells_the_two_wrists_of_each_arm_apart(explorer, robot):
    explorer.set_current(np.zeros(6))
    explorer.set_T(robot.fkine(Q_KNOWN[0]))
    inset = explorer.inset
    stubs = inset.arms.stub_segments()
    assert len(stubs) == 8
    assert np.allclose([seg[0] for seg in stubs.values()], inset.centre, atol=1e-9)  # one wrist centre
    for noflip in range(0, 8, 2):  # PUMA_LABELS pairs each arm's noflip and flip
        a, b = stubs[noflip], stubs[noflip + 1]
        assert np.dot(a[1] - a[0], b[1] - b[0]) < -0.99 * inset.arms.stub_length**2  # opposite ways
    texts = [t.get_text() for t in inset.texts if t.get_visible()]
    assert sorted(texts) == sorted(["noflip", "flip"] * 4)
    lo, hi = inset.ax.get_xlim3d()
    assert hi - lo == pytest.approx(2 * inset.radius) and (lo + hi) / 2 == pytest.approx(inset.centre[0])


def test_chosen_arm_is_drawn_distinctly(explorer, robot):
    explorer.set_current(np.zeros(6))
    explorer.set_T(robot.fkine(Q_KNOWN[0]))
    chosen = explorer.chosen_view.line
    slot = PUMA_LABELS.index(explorer.chosen.labels[0])
    assert matplotlib.colors.same_color(chosen.get_color(), explorer.arms.colors[slot])
    assert chosen.get_linewidth() >= 2 * max(g.line.get_linewidth() for g in explorer.arms.ghosts)
    assert explorer.chosen_view.triads.lines[0].get_visible()
    assert "follow" in explorer.help.value and "previous pose" in explorer.help.value


def test_view_holds_every_pose_within_the_joint_limits(robot):
    """The browser's starting view is fitted to the arm's reach above the floor: no drawn point of any
    pose within the limits falls outside the reach sphere (so none is clipped, and nothing rescales)."""
    from armlab import viz

    ex = viz_ik.ik_explorer(robot, follow=False, use_tool=True)
    size = viz.reach(ex.tool_robot)
    rng = np.random.default_rng(5)
    for q in rng.uniform(robot.qlim[:, 0], robot.qlim[:, 1], (50, 6)):
        ex.chosen_view.update(q)
        pts = ex.chosen_view.line_data().T
        assert np.linalg.norm(pts, axis=1).max() <= size + 1e-9
    fit = ex.ax._armlab_fit
    assert np.isclose(fit[:, 2].max(), size) and np.isclose(np.hypot(fit[:, 0], fit[:, 1]).max(), size)


def test_wrist_stub_is_the_joint5_axis_in_both_conventions():
    """PUMA560 in modified DH (textbook Table 3.2) and standard DH: joint 5's axis is z5 of the one and
    z4 of the other (kinematics.joint_axis_frames); the stubs drawn are the same segments."""
    q = deg([30, -40, 60, 20, 45, -30])
    stubs = {}
    for make, frame in ((models.puma560, 5), (models.puma560_standard, 4)):
        arm = make()
        fig = viz_ik.show_solutions(arm, arm.ikine_all(arm.fkine(q)))
        stubs[arm.convention] = fig.arms.stub_segments()
        for s, seg in stubs[arm.convention].items():
            F = arm.fkine_all(fig.arms.q[s])[frame]
            assert np.allclose(seg[0], F[:3, 3]) and np.allclose(seg[1] - seg[0], fig.arms.stub_length * F[:3, 2])
    assert stubs["modified"].keys() == stubs["standard"].keys() and len(stubs["modified"]) == 8
    for s in stubs["modified"]:
        assert np.allclose(stubs["modified"][s], stubs["standard"][s], atol=1e-9)


def test_old_path_viz_ik_is_the_viz_package():
    from armlab import viz

    for name in (
        "ik_explorer",
        "show_solutions",
        "arm_label",
        "slot_of",
        "GhostArm",
        "SolutionArms",
        "SolutionsFigure",
        "IKExplorer",
        "OUTSIDE_COLOR",
    ):
        assert getattr(viz_ik, name) is getattr(viz, name)


def test_solutions_table_colours_follow_the_slots(robot):
    """A row's colour is its arm's: a solution keeps its slot (and colour) whatever its place in the result."""
    from armlab import viz

    sols = robot.ikine_all(robot.fkine(Q_KNOWN[0]))
    fig = viz_ik.show_solutions(robot, sols)
    slots = fig.arms.slots(sols.labels)
    assert slots == [PUMA_LABELS.index(label) for label in sols.labels]
    table = viz.solutions_table(sols, fig.arms.colors, slots)
    for k, ok in enumerate(sols.within_limits):
        color = fig.arms.colors[slots[k]] if ok else viz_ik.OUTSIDE_COLOR
        assert table.split("<tr")[k + 2].count(f"color:{color}'") == 1
