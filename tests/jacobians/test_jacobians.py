"""Jacobians (armlab.jacobians): the three methods of textbook §3.3 / notes 004 agree with each other,
with jacob0/jacobe, with central finite differences, with pinocchio and with roboticstoolbox;
per-link Jacobians, J̇, manipulability, singular sets, resolved rate, and bad input.

Worked examples of the sources (Examples 3.4–3.8, exercises 6–7) are in tests/sources/test_textbook_ch4.py.
"""

from __future__ import annotations

import numpy as np
import pinocchio as pin
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import armlab
from armlab import jacobians as jb
from armlab.jacobians import analysis
from support import COURSE_MODELS, fd_jacobians, random_q, random_robots, to_pin, to_rtb

TOL = 1e-9
ROBOTS = random_robots(404, 60)  # 120 random robots, both conventions, P joints, base and tool


def _methods(robot, q):
    return {
        "differential (tool)": (jb.jacob_differential(robot, q), robot.jacobe(q)),
        "velocity (base)": (jb.jacob_velocity(robot, q), robot.jacob0(q)),
        "velocity (tool)": (jb.jacob_velocity(robot, q, frame="tool"), robot.jacobe(q)),
        "geometric (base)": (jb.jacob_geometric(robot, q), robot.jacob0(q)),
        "geometric (tool)": (jb.jacob_geometric(robot, q, frame="tool"), robot.jacobe(q)),
    }


def test_three_methods_equal_jacob0_and_jacobe_on_random_robots():
    assert any("P" in r.joint_types for r in ROBOTS) and {r.convention for r in ROBOTS} == {"standard", "modified"}
    rng = np.random.default_rng(1)
    worst = 0.0
    for robot in ROBOTS:
        for q in random_q(rng, robot, 3):
            for name, (ours, ref) in _methods(robot, q).items():
                err = np.abs(ours - ref).max()
                worst = max(worst, err)
                assert err <= TOL, f"{name}\n{robot!r}\nq = {q!r}"
    assert worst < 1e-12


@pytest.mark.parametrize("name", sorted(COURSE_MODELS))
def test_three_methods_on_course_models_match_finite_differences(name):
    robot = COURSE_MODELS[name]()
    rng = np.random.default_rng(2)
    for q in random_q(rng, robot, 5):
        J0_fd, Je_fd = fd_jacobians(robot.fkine, q)
        np.testing.assert_allclose(jb.jacob_velocity(robot, q), J0_fd, atol=1e-7)
        np.testing.assert_allclose(jb.jacob_geometric(robot, q), J0_fd, atol=1e-7)
        np.testing.assert_allclose(jb.jacob_differential(robot, q), Je_fd, atol=1e-7)


@pytest.mark.parametrize("method", ["jacob_differential", "jacob_velocity", "jacob_geometric"])
def test_batched_equals_looped(method):
    f = getattr(jb, method)
    for robot in ROBOTS[::10]:
        Q = random_q(np.random.default_rng(3), robot, 12).reshape(3, 4, robot.n)
        batch = f(robot, Q)
        assert batch.shape == (3, 4, 6, robot.n)
        for idx in np.ndindex(3, 4):
            np.testing.assert_allclose(batch[idx], f(robot, Q[idx]), atol=1e-14)


@pytest.mark.parametrize("convention", ["standard", "modified"])
def test_methods_match_pinocchio_local_world_aligned_and_local(convention):
    rng = np.random.default_rng(4)
    for robot in random_robots(5, 15, conventions=(convention,)):
        model, ee, _ = to_pin(robot)
        data = model.createData()
        for q in random_q(rng, robot, 4):
            pin.computeJointJacobians(model, data, q)
            pin.updateFramePlacements(model, data)
            lwa = np.array(pin.getFrameJacobian(model, data, ee, pin.LOCAL_WORLD_ALIGNED)).reshape(6, robot.n)
            local = np.array(pin.getFrameJacobian(model, data, ee, pin.LOCAL)).reshape(6, robot.n)
            np.testing.assert_allclose(jb.jacob_velocity(robot, q), lwa, atol=TOL)
            np.testing.assert_allclose(jb.jacob_geometric(robot, q), lwa, atol=TOL)
            np.testing.assert_allclose(jb.jacob_differential(robot, q), local, atol=TOL)
            np.testing.assert_allclose(jb.jacob_velocity(robot, q, frame="tool"), local, atol=TOL)


def test_methods_match_roboticstoolbox():
    rng = np.random.default_rng(6)
    for robot in ROBOTS[::4]:
        r = to_rtb(robot)
        for q in random_q(rng, robot, 2):
            np.testing.assert_allclose(jb.jacob_geometric(robot, q), r.jacob0(q), atol=TOL)
            np.testing.assert_allclose(jb.jacob_differential(robot, q), r.jacobe(q), atol=TOL)


def test_velocity_propagation_of_the_004_2r_arm_symbolically():
    """Notes 004: modified-DH 2R with {3} at the tip; ³v₃ = (l1 s2 θ̇1, l1 c2 θ̇1 + l2(θ̇1 + θ̇2), 0)
    and ⁰J = [[−l1 s1 − l2 s12, −l2 s12], [l1 c1 + l2 c12, l2 c12]]. The notes print
    l2·c12·(θ̇1 + θ̇1) in ⁰v₃ (erratum, docs/errata.md): the second rate is θ̇2."""
    l1, l2 = sp.symbols("l1 l2", positive=True)
    t1, t2, w1, w2 = sp.symbols("theta1 theta2 thetadot1 thetadot2")
    arm = armlab.DHRobot([armlab.DHLink(), armlab.DHLink(a=l1)], convention="modified", tool=armlab.Trans(l2, 0, 0))
    steps = jb.velocity_propagation(arm, [t1, t2], [w1, w2])
    (_, w_1, v_1), (_, _, v_2), (_, w_3, v_3) = steps[1], steps[2], steps[3]
    assert list(w_1) == [0, 0, w1] and list(v_1) == [0, 0, 0]
    assert sp.simplify(v_2 - sp.Matrix([l1 * sp.sin(t2) * w1, l1 * sp.cos(t2) * w1, 0])) == sp.zeros(3, 1)
    assert sp.simplify(v_3 - sp.Matrix([l1 * sp.sin(t2) * w1, l1 * sp.cos(t2) * w1 + l2 * (w1 + w2), 0])) == sp.zeros(
        3, 1
    )
    assert list(w_3) == [0, 0, w1 + w2]
    s1, c1, s12, c12 = sp.sin(t1), sp.cos(t1), sp.sin(t1 + t2), sp.cos(t1 + t2)
    expected = sp.Matrix([[-l1 * s1 - l2 * s12, -l2 * s12], [l1 * c1 + l2 * c12, l2 * c12]])
    for f in (jb.jacob_velocity, jb.jacob_geometric):
        assert sp.simplify(f(arm, [t1, t2])[:2, :] - expected) == sp.zeros(2, 2)
    Je = jb.jacob_differential(arm, [t1, t2])
    assert sp.simplify(
        sp.Matrix(sp.BlockDiagMatrix(*[sp.rot_axis3(-(t1 + t2))] * 2)) * Je - jb.jacob_velocity(arm, [t1, t2])
    ) == sp.zeros(6, 2)


def test_symbolic_equals_numeric_for_every_method():
    for robot in ROBOTS[:12]:
        q = random_q(np.random.default_rng(7), robot, 1)[0]
        qs = sp.Matrix(q)
        for name, f in (
            ("differential", jb.jacob_differential),
            ("velocity", jb.jacob_velocity),
            ("geometric", jb.jacob_geometric),
        ):
            sym = np.array(f(robot, list(qs)).evalf(), dtype=float)
            np.testing.assert_allclose(sym, f(robot, q), atol=1e-12, err_msg=name)


def test_link_jacobians_of_coms_match_finite_differences_of_the_point():
    rng = np.random.default_rng(8)
    for robot in ROBOTS[::6]:
        pts = rng.uniform(-0.3, 0.3, (robot.n, 3))
        q = random_q(rng, robot, 1)[0]
        J = jb.link_jacobians(robot, q, pts)
        assert J.shape == (robot.n, 6, robot.n)
        frames = robot.fkine_all(q)
        for k in range(robot.n):

            def point(qq, k=k):
                F = robot.fkine_all(qq)[k + 1]
                return F[:3, :3] @ pts[k] + F[:3, 3]

            h = 1e-6
            fd = np.column_stack([(point(q + h * e) - point(q - h * e)) / (2 * h) for e in np.eye(robot.n)])
            np.testing.assert_allclose(J[k, :3], fd, atol=1e-7)
            assert np.all(J[k, :, k + 1 :] == 0)  # later joints do not move link k
        # the origin of the last frame without a tool is the end of jacob0's chain
        assert np.allclose(
            jb.link_jacobians(robot, q)[-1][:, :], jb.jacob_geometric(robot.replace(tool=None), q), atol=1e-12
        )
        assert frames.shape == (robot.n + 1, 4, 4)


def test_jdot_matches_finite_differences_of_jacob0():
    rng = np.random.default_rng(9)
    for robot in ROBOTS[::5]:
        q, qd = random_q(rng, robot, 1)[0], rng.uniform(-1, 1, robot.n)
        h = 1e-6
        fd = (robot.jacob0(q + h * qd) - robot.jacob0(q - h * qd)) / (2 * h)
        np.testing.assert_allclose(analysis.jdot(robot, q, qd), fd, atol=1e-7)


# --- manipulability, singularities -------------------------------------------------------------------


def test_manipulability_equals_svd_product_and_rtb():
    import roboticstoolbox as rtb  # noqa: F401 - to_rtb needs it

    robot = armlab.models.puma560()
    r = to_rtb(robot)
    Q = random_q(np.random.default_rng(10), robot, 50)
    w = robot.manipulability(Q)
    for q, wq in zip(Q, w):
        s = np.linalg.svd(robot.jacob0(q)[:3], compute_uv=False)
        assert np.isclose(wq, np.prod(s), rtol=1e-9)
        assert np.isclose(wq, r.manipulability(q, axes="trans"), rtol=1e-9)
        assert np.isclose(robot.manipulability(q, part="rot"), r.manipulability(q, axes="rot"), rtol=1e-9)


def test_planar_2r_manipulability_is_l1_l2_sin_theta2():
    arm = armlab.models.planar2r(0.7, 0.4)
    q = np.random.default_rng(11).uniform(-3, 3, (20, 2))
    np.testing.assert_allclose(arm.manipulability(q), 0.28 * np.abs(np.sin(q[:, 1])), atol=1e-12)


def test_puma560_det_closed_form_and_snapped_singularities():
    robot = armlab.models.puma560()
    g = armlab.models.PUMA560
    Q = random_q(np.random.default_rng(12), robot, 30)
    np.testing.assert_allclose(np.linalg.det(robot.jacob0(Q)), jb.puma560_det(Q, g["a2"], g["a3"], g["d4"]), atol=1e-12)
    for q in Q[:5]:
        for kind in ("wrist", "elbow", "shoulder"):
            qs = jb.snap_to_singularity(robot, q, kind)
            assert abs(jb.singularity_conditions(robot, qs)[kind]) < 1e-10
            assert analysis.jacobian_rank(robot.jacob0(qs), tol=1e-7) == 5
            null, lost = jb.lost_directions(robot.jacob0(qs), tol=1e-7)
            assert null.shape == (6, 1) and lost.shape == (6, 1)
            assert np.allclose(robot.jacob0(qs) @ null, 0, atol=1e-7)
            assert np.allclose(lost.T @ robot.jacob0(qs), 0, atol=1e-7)


def test_youbot_singular_sets():
    robot = armlab.models.youbot()
    q = np.array([0.3, 0.4, -0.8, 1.0, 0.2])
    qe = jb.snap_to_singularity(robot, q, "elbow")
    assert analysis.jacobian_rank(robot.jacob0(qe)) == 4
    qb = jb.snap_to_singularity(robot, q, "base-axis")
    assert analysis.jacobian_rank(robot.jacob0(qb), part="trans", tol=1e-8) == 2
    assert analysis.jacobian_rank(robot.jacob0(q)) == 5
    with pytest.raises(ValueError, match="kind must be one of"):
        jb.snap_to_singularity(robot, q, "wrist")


def test_ellipsoid_axes_are_the_singular_values():
    J = armlab.models.puma560().jacob0(np.radians([10, -40, 70, 20, 50, 0]))
    s, U = jb.ellipsoid(J, "trans", "velocity")
    sf, Uf = jb.ellipsoid(J, "trans", "force")
    np.testing.assert_allclose(s, np.linalg.svd(J[:3], compute_uv=False))
    np.testing.assert_allclose(sf * s, 1.0)
    np.testing.assert_allclose(U, Uf)
    # the force ellipsoid of a planar arm at its stretched pose is infinitely long along the arm
    s2, _ = jb.ellipsoid(armlab.models.planar2r().jacob0([0.3, 0.0])[:2], "all", "force")
    assert np.isinf(s2).any()


def test_frame_change_and_analytic_jacobian():
    robot = armlab.models.puma560()
    q = np.radians([15, -35, 50, 20, 40, 60])
    T = robot.fkine(q)
    np.testing.assert_allclose(jb.frame_change(robot.jacobe(q), T[:3, :3]), robot.jacob0(q), atol=1e-12)
    rpy = armlab.R_to_rpy(T[:3, :3])
    Ja = jb.analytic_jacobian(robot.jacob0(q), rpy)
    h, qd = 1e-6, np.random.default_rng(13).uniform(-1, 1, 6)
    rates = (armlab.R_to_rpy(robot.fkine(q + h * qd)[:3, :3]) - armlab.R_to_rpy(robot.fkine(q - h * qd)[:3, :3])) / (
        2 * h
    )
    np.testing.assert_allclose(Ja[3:] @ qd, rates, atol=1e-7)
    with pytest.raises(ValueError, match="pitch = ±90°"):
        jb.analytic_jacobian(robot.jacob0(q), [0.1, np.pi / 2, 0.2])


# --- resolved rate --------------------------------------------------------------------------------


def _through_the_wrist_singularity():
    robot = armlab.models.puma560(flange=True)
    q0 = np.radians([0, -45, 135, 0, 8, 0])  # close to s5 = 0
    return robot, q0, (lambda t, q: np.array([0.0, 0.05, 0.0, 0.0, 0.3, 0.0]))


def test_resolved_rate_damping_bounds_the_joint_rates_near_a_singularity():
    robot, q0, vel = _through_the_wrist_singularity()
    kw = dict(give_up_error=np.inf, joint_limits=False)  # damping alone, no limit clamping
    plain = jb.resolved_rate(robot, q0, vel, 1.0, 0.005, damped=False, **kw)
    damped = jb.resolved_rate(robot, q0, vel, 1.0, 0.005, damped=True, **kw)
    for res in (plain, damped):
        assert np.isfinite(res.q).all() and np.isfinite(res.qd).all() and np.isfinite(res.sigma_min).all()
    assert np.abs(damped.qd).max() < 0.5 * np.abs(plain.qd).max()
    assert damped.lam.max() > 0 and plain.lam.max() == 0
    away = damped.sigma_min > 0.04  # no damping away from the singularity: exact tracking
    assert np.all(damped.tracking_error[away] < 1e-9)


def test_resolved_rate_reports_when_it_gives_up():
    robot = armlab.models.planar2r()
    res = jb.resolved_rate(robot, [0.0, 0.5], lambda t, q: np.array([1.0, 0, 0, 0, 0, 0]), 5.0, 0.01, part="all")
    assert not res.ok and "cannot follow" in res.reason
    assert np.isfinite(res.q).all() and res.steps < 500
    limited = armlab.DHRobot([armlab.DHLink(a=1.0, qlim=(-0.1, 0.1)), armlab.DHLink(a=1.0, qlim=(-0.1, 0.1))])
    res = jb.resolved_rate(limited, [0.0, 0.05], lambda t, q: np.array([0.0, 1.0, 0.0]), 2.0, 0.01, part="trans")
    assert not res.ok and "limits" in res.reason
    assert np.all(res.q <= 0.1 + 1e-12)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.floats(-3, 3), min_size=6, max_size=6))
def test_property_all_methods_agree_on_the_puma(q):
    robot = armlab.models.puma560_standard(flange=True)
    J0 = robot.jacob0(q)
    assert np.allclose(jb.jacob_velocity(robot, q), J0, atol=1e-12)
    assert np.allclose(jb.jacob_geometric(robot, q), J0, atol=1e-12)
    assert np.allclose(jb.frame_change(jb.jacob_differential(robot, q), robot.fkine(q)[:3, :3]), J0, atol=1e-12)


# --- bad input --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda r: jb.jacob_velocity(r, np.zeros(5)), r"q must have 6 joint values"),
        (lambda r: jb.jacob_geometric(r, [0, 0, np.nan, 0, 0, 0]), "NaN or infinity"),
        (lambda r: jb.jacob_differential(r, np.full(6, 1 + 1j)), "real numbers"),
        (lambda r: jb.jacob_velocity(r, np.zeros(6), frame="world"), "frame must be 'base' or 'tool'"),
        (lambda r: jb.link_jacobians(r, np.zeros(6), points=np.zeros((5, 3))), r"points must have shape"),
        (lambda r: r.manipulability(np.zeros(6), part="all"), "part must be 'trans' or 'rot'"),
        (lambda r: jb.resolved_rate(r, np.zeros(6), lambda t, q: np.zeros(6), -1.0, 0.01), "t_end must be"),
        (lambda r: jb.resolved_rate(r, np.zeros(6), lambda t, q: np.zeros(3), 1.0, 0.01), r"velocity\(t, q\) must"),
        (lambda r: jb.ellipsoid(r.jacob0(np.zeros(6)), kind="power"), "kind must be 'velocity' or 'force'"),
    ],
)
def test_bad_input_gets_a_clear_error(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call(armlab.models.puma560())


# --- notes 004 §5: the MATLAB lines at qn and qz --------------------------------------------------------


def _jsingu(J):
    """What roboticstoolbox's jsingu prints, parsed: [(j, {i: c})], 0-based, terms above 1e-9 only."""
    import contextlib
    import io
    import re

    from roboticstoolbox import jsingu

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        jsingu(J)
    found = []
    for line in out.getvalue().splitlines():
        j = int(re.match(r"column (\d+) =", line).group(1))
        terms = re.findall(r"([+-]?)\s*([\d.e+-]+) column_(\d+)", line.split("=", 1)[1])
        coeffs = {int(i): (-1 if sign == "-" else 1) * float(c) for sign, c, i in terms}
        found.append((j, {i: c for i, c in coeffs.items() if abs(c) > 1e-9}))
    return found


def test_notes_004_section_5_jacob0_jacobe_rank_and_jsingu_at_qn_and_qz():
    """Notes 004 §5: J = p560.jacob0(qn), Jn = jacobe(qn), rank(J), jsingu(J) "q6 can be expressed by q4".
    With the Toolbox's own Puma560: qn is regular (rank 6, jsingu prints nothing); the notes' sentence is
    what jsingu prints at qz (and qr, qs), where θ5 = 0. dependent_columns gives the same, and so does the
    textbook's arm at the same poses (models.PUMA560_POSES: Corke's angles minus CORKE_OFFSET)."""
    rtb = pytest.importorskip("roboticstoolbox")
    p560 = rtb.models.DH.Puma560()
    ours = armlab.models.puma560()
    for name in ("qn", "qz", "qr", "qs"):
        q_corke = getattr(p560, name)
        J = p560.jacob0(q_corke)
        expected = _jsingu(J)
        got = jb.dependent_columns(J)
        assert [j for j, _ in got] == [j for j, _ in expected], name
        for (_, c), (_, e) in zip(got, expected):
            assert c.keys() == e.keys() and all(abs(c[i] - e[i]) < 1e-3 for i in c), name  # jsingu prints 3 digits
        assert jb.jacobian_rank(J) == np.linalg.matrix_rank(J) == (6 if name == "qn" else 5)
        q = np.array(armlab.models.PUMA560_POSES[name])
        wrapped = np.angle(np.exp(1j * (q - (np.asarray(q_corke) - armlab.models.CORKE_OFFSET))))  # qn: ±π for q3
        np.testing.assert_allclose(wrapped, 0.0, atol=1e-12)
        mine = jb.dependent_columns(ours.jacob0(q))
        assert [(j, sorted(c)) for j, c in mine] == [(j, sorted(c)) for j, c in expected], name
    assert _jsingu(p560.jacob0(p560.qz)) == [(5, {3: 1.0})]  # column 6 = column 4: "q6 can be expressed by q4"
    qn = armlab.models.PUMA560_POSES["qn"]  # the notes' Jn = jacobe(qn) on the textbook's arm, by both
    np.testing.assert_allclose(to_rtb(ours).jacobe(qn), ours.jacobe(qn), atol=1e-12)


def test_puma560_is_corkes_arm_with_the_joint_offset():
    """The Toolbox's Puma560 and Table 3.2's arm with the Toolbox's lengths are one rigid arm: with
    q_textbook = q_Corke − CORKE_OFFSET every link position and orientation differ by fixed transforms."""
    rtb = pytest.importorskip("roboticstoolbox")
    from armlab.kinematics.structure import PUMA_MODIFIED_ALPHA

    p560 = rtb.models.DH.Puma560()
    lengths = [(0, 0), (0, 0.15005), (0.4318, 0), (0.0203, 0.4318), (0, 0), (0, 0)]
    same = armlab.DHRobot(
        [armlab.DHLink(alpha=np.radians(al), a=a, d=d) for al, (a, d) in zip(PUMA_MODIFIED_ALPHA, lengths)],
        convention="modified",
    )
    Q = np.random.default_rng(12).uniform(-3, 3, (20, 6))
    ours = np.array([same.fkine(q - np.array(armlab.models.CORKE_OFFSET)) for q in Q])
    theirs = np.array([p560.fkine(q).A for q in Q])
    B = theirs[0] @ np.linalg.inv(ours[0])  # the base transform (Corke's d1 = 0.672 m and frame 0's axes)
    for To, Tt in zip(ours, theirs):  # one B for every pose: the same arm, the same hand frame
        np.testing.assert_allclose(B @ To, Tt, atol=1e-12)
