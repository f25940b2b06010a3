"""Property tests (hypothesis) for armlab.transforms and DHRobot.

* Tinv(T) is a two-sided inverse of T (textbook eq. (3.72));
* every rotation constructor returns an orthonormal matrix with det +1;
* angle extraction round trips reproduce the rotation matrix (angles are not
  unique, so matrices are compared, not angles);
* batched calls equal looped calls, for robots and transforms;
* symbolic fkine / jacob0 (sympy) substituted with numbers equal numeric ones.

Examples are derandomized (same examples every run) and nothing is stored in
a hypothesis database, so the suite is deterministic.
"""

from __future__ import annotations

import math
import zlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import armlab
from armlab import transforms as tf
from support import COURSE_MODELS, random_dh_robot, random_q, random_robots

TOL = 1e-9
PROPS = settings(max_examples=100, deadline=None, derandomize=True, database=None)
FEW = settings(max_examples=30, deadline=None, derandomize=True, database=None)

PI = math.pi
SPECIAL = [0.0, PI / 2, -PI / 2, PI, -PI, PI / 4]
angles = st.one_of(st.floats(-2 * PI, 2 * PI, allow_nan=False), st.sampled_from(SPECIAL))
lengths = st.floats(-10.0, 10.0, allow_nan=False)
translations = st.tuples(lengths, lengths, lengths)
nonzero_axes = st.tuples(*[st.floats(-1.0, 1.0, allow_nan=False)] * 3).filter(lambda k: np.linalg.norm(k) > 1e-3)
seeds = st.integers(0, 2**32 - 1)
conventions = st.sampled_from(["standard", "modified"])


def assert_rotation(Rm):
    Rm = np.asarray(Rm)
    np.testing.assert_allclose(np.swapaxes(Rm, -1, -2) @ Rm, np.broadcast_to(np.eye(3), Rm.shape), rtol=0, atol=TOL)
    np.testing.assert_allclose(np.linalg.det(Rm), 1.0, rtol=0, atol=TOL)


def _transforms():
    """T from roll–pitch–yaw or from axis–angle, with a translation."""
    from_rpy = st.builds(
        lambda a, p: tf.homogeneous(tf.rpy_to_R(*a), p), st.tuples(angles, angles, angles), translations
    )
    from_axis = st.builds(
        lambda k, t, p: tf.homogeneous(tf.axis_angle_to_R(k, t), p), nonzero_axes, angles, translations
    )
    return st.one_of(from_rpy, from_axis)


# --- Tinv, eq. (3.72) ----------------------------------------------------------------
@PROPS
@given(_transforms())
def test_Tinv_is_a_two_sided_inverse_eq_3_72(T):
    np.testing.assert_allclose(T @ tf.Tinv(T), np.eye(4), rtol=0, atol=TOL)
    np.testing.assert_allclose(tf.Tinv(T) @ T, np.eye(4), rtol=0, atol=TOL)
    np.testing.assert_allclose(tf.Tinv(tf.Tinv(T)), T, rtol=0, atol=TOL)


# --- rotation constructors are rotations --------------------------------------------
@PROPS
@given(st.sampled_from("xyzXYZ"), angles, st.booleans())
def test_R_and_Rot_are_rotations_eqs_3_6_to_3_8_and_3_19_to_3_21(axis, theta, deg):
    theta = math.degrees(theta) if deg else theta
    assert_rotation(tf.R(axis, theta, deg=deg))
    Rot = tf.Rot(axis, theta, deg=deg)
    np.testing.assert_array_equal(Rot[:3, :3], tf.R(axis, theta, deg=deg))
    np.testing.assert_array_equal(Rot[3], [0, 0, 0, 1])
    np.testing.assert_array_equal(Rot[:3, 3], [0, 0, 0])


@PROPS
@given(angles, angles, angles)
def test_rpy_and_euler_give_rotations(a, b, c):
    assert_rotation(tf.rpy_to_R(a, b, c))
    assert_rotation(tf.euler_to_R(a, b, c))


@PROPS
@given(nonzero_axes, angles)
def test_axis_angle_gives_rotation_with_that_axis(k, theta):
    Rm = tf.axis_angle_to_R(k, theta)
    assert_rotation(Rm)
    k = np.array(k) / np.linalg.norm(k)
    np.testing.assert_allclose(Rm @ k, k, rtol=0, atol=TOL)  # the axis is fixed


# --- round trips (compare matrices) ----------------------------------------------------
@PROPS
@given(angles, angles, angles)
def test_R_to_rpy_round_trip(roll, pitch, yaw):
    Rm = tf.rpy_to_R(roll, pitch, yaw)
    r, p, y = tf.R_to_rpy(Rm)
    assert -PI / 2 <= p <= PI / 2
    np.testing.assert_allclose(tf.rpy_to_R(r, p, y), Rm, rtol=0, atol=TOL)


@PROPS
@given(angles, angles, angles)
def test_R_to_euler_round_trip(phi, theta, psi):
    Rm = tf.euler_to_R(phi, theta, psi)
    f, t, s = tf.R_to_euler(Rm)
    assert 0 <= t <= PI
    np.testing.assert_allclose(tf.euler_to_R(f, t, s), Rm, rtol=0, atol=TOL)


axis_angles = st.one_of(st.floats(0, PI), st.just(0.0), st.just(PI))


@PROPS
@given(nonzero_axes, axis_angles)
def test_R_to_axis_angle_round_trip(k, theta):
    Rm = tf.axis_angle_to_R(k, theta)
    axis, t = tf.R_to_axis_angle(Rm)
    assert 0 <= t <= PI
    np.testing.assert_allclose(np.linalg.norm(axis), 1.0, rtol=0, atol=TOL)
    np.testing.assert_allclose(tf.axis_angle_to_R(axis, t), Rm, rtol=0, atol=TOL)


@pytest.mark.parametrize("theta", [1e-6, 1e-7, PI - 1e-7, PI])
def test_R_to_axis_angle_round_trip_near_0_and_pi(theta):
    Rm = tf.axis_angle_to_R([0.0, 1.0, 1.0], theta)
    np.testing.assert_allclose(tf.axis_angle_to_R(*tf.R_to_axis_angle(Rm)), Rm, rtol=0, atol=TOL)


@pytest.mark.parametrize("pitch", [PI / 2, -PI / 2])
def test_R_to_rpy_round_trip_at_gimbal_lock(pitch):
    for roll, yaw in [(0.3, 1.2), (-2.0, 2.9), (3.0, -3.0)]:
        Rm = tf.rpy_to_R(roll, pitch, yaw)
        r, p, y = tf.R_to_rpy(Rm)
        assert y == 0.0 and p == pytest.approx(pitch, abs=1e-9)  # documented choice: yaw = 0
        np.testing.assert_allclose(tf.rpy_to_R(r, p, y), Rm, rtol=0, atol=TOL)


@pytest.mark.parametrize("theta", [0.0, PI])
def test_R_to_euler_round_trip_at_gimbal_lock(theta):
    for phi, psi in [(0.3, 1.2), (-2.0, 2.9), (3.0, -3.0)]:
        Rm = tf.euler_to_R(phi, theta, psi)
        f, t, s = tf.R_to_euler(Rm)
        assert f == 0.0 and t == pytest.approx(theta, abs=1e-9)  # documented choice: φ = 0
        np.testing.assert_allclose(tf.euler_to_R(f, t, s), Rm, rtol=0, atol=TOL)


@PROPS
@given(translations)
def test_skew_unskew_round_trip_and_cross_product_eq_3_87(p):
    S = tf.skew(p)
    np.testing.assert_allclose(S, -S.T, rtol=0, atol=0)
    np.testing.assert_allclose(tf.unskew(S), p, rtol=0, atol=0)
    v = np.array([0.3, -1.2, 2.0])
    np.testing.assert_allclose(S @ v, np.cross(p, v), rtol=0, atol=TOL)


# --- batched == looped: transforms --------------------------------------------------------
batch_shapes = st.sampled_from([(1,), (4,), (2, 3)])


@FEW
@given(seeds, batch_shapes)
def test_transforms_batched_equal_looped(seed, shape):
    rng = np.random.default_rng(seed)
    a, b, c = rng.uniform(-PI, PI, size=(3,) + shape)
    p = rng.uniform(-2, 2, size=shape + (3,))
    k = rng.normal(size=shape + (3,))
    idx = list(np.ndindex(*shape))

    def looped(f, *args, tail=()):
        return np.array([f(*(x[i] for x in args)) for i in idx]).reshape(shape + tail)

    Rx = tf.R("x", a)
    cases = {
        "R": (Rx, looped(lambda t: tf.R("x", t), a, tail=(3, 3))),
        "Rot": (tf.Rot("y", b), looped(lambda t: tf.Rot("y", t), b, tail=(4, 4))),
        "Trans": (tf.Trans(p), looped(tf.Trans, p, tail=(4, 4))),
        "rpy_to_R": (tf.rpy_to_R(a, b, c), looped(tf.rpy_to_R, a, b, c, tail=(3, 3))),
        "euler_to_R": (tf.euler_to_R(a, b, c), looped(tf.euler_to_R, a, b, c, tail=(3, 3))),
        "axis_angle_to_R": (tf.axis_angle_to_R(k, a), looped(tf.axis_angle_to_R, k, a, tail=(3, 3))),
        "skew": (tf.skew(p), looped(tf.skew, p, tail=(3, 3))),
    }
    Rm = cases["rpy_to_R"][0]
    T = tf.homogeneous(Rm, p)
    cases.update(
        {
            "homogeneous": (T, looped(tf.homogeneous, Rm, p, tail=(4, 4))),
            "Tinv": (tf.Tinv(T), looped(tf.Tinv, T, tail=(4, 4))),
            "compose": (
                tf.compose(T, tf.Trans(p), frame="current"),
                looped(lambda x, y: tf.compose(x, tf.Trans(y), frame="current"), T, p, tail=(4, 4)),
            ),
            "R_to_rpy": (tf.R_to_rpy(Rm), looped(tf.R_to_rpy, Rm, tail=(3,))),
            "R_to_euler": (tf.R_to_euler(Rm), looped(tf.R_to_euler, Rm, tail=(3,))),
            "R_to_axis_angle axis": (
                tf.R_to_axis_angle(Rm)[0],
                looped(lambda x: tf.R_to_axis_angle(x)[0], Rm, tail=(3,)),
            ),
            "R_to_axis_angle angle": (tf.R_to_axis_angle(Rm)[1], looped(lambda x: tf.R_to_axis_angle(x)[1], Rm)),
            "unskew": (tf.unskew(tf.skew(p)), looped(lambda x: tf.unskew(tf.skew(x)), p, tail=(3,))),
            "point": (tf.point(p), looped(tf.point, p, tail=(4,))),
        }
    )
    for name, (batched, loop) in cases.items():
        assert batched.shape == loop.shape, name
        np.testing.assert_allclose(batched, loop, rtol=0, atol=1e-12, err_msg=name)


# --- batched == looped: robots -----------------------------------------------------------
@FEW
@given(seeds, conventions, st.integers(1, 7), batch_shapes)
def test_robot_kinematics_batched_equal_looped(seed, convention, n, shape):
    rng = np.random.default_rng(seed)
    robot = random_dh_robot(rng, n, convention, prismatic_prob=0.4, with_base_tool=bool(seed % 2))
    Q = random_q(rng, robot, int(np.prod(shape))).reshape(shape + (n,))
    for name, tail in (("fkine", (4, 4)), ("fkine_all", (n + 1, 4, 4)), ("jacob0", (6, n)), ("jacobe", (6, n))):
        f = getattr(robot, name)
        batched = f(Q)
        looped = np.array([f(Q[i]) for i in np.ndindex(*shape)]).reshape(shape + tail)
        assert batched.shape == shape + tail, name
        np.testing.assert_allclose(batched, looped, rtol=0, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("name", sorted(COURSE_MODELS))
def test_course_model_batched_equal_looped(name):
    robot = COURSE_MODELS[name]()
    Q = random_q(np.random.default_rng(zlib.crc32(name.encode())), robot, 20)
    for method in ("fkine", "fkine_all", "jacob0", "jacobe"):
        f = getattr(robot, method)
        np.testing.assert_allclose(f(Q), np.array([f(q) for q in Q]), rtol=0, atol=1e-12, err_msg=method)


# --- symbolic == numeric ---------------------------------------------------------------------
def _symbolic_cases():
    cases = {
        name: COURSE_MODELS[name]
        for name in (
            "puma560",
            "puma560_standard_flange",
            "youbot",
            "stanford_modified",
            "stanford_standard",
            "rpr",
            "planar2r",
            "planar3r",
        )
    }
    for i, robot in enumerate(random_robots(77, 3, n_range=(2, 4), prismatic_prob=0.4)):
        cases[f"random_{robot.convention}_{i}_{robot.joint_types}"] = lambda r=robot: r
    return cases


SYMBOLIC_CASES = _symbolic_cases()


def _lambdified(robot, method):
    import sympy as sp

    qs = sp.symbols(f"q1:{robot.n + 1}")
    M = getattr(robot, method)(qs)
    assert isinstance(M, sp.MatrixBase)
    return sp.lambdify([qs], M, modules="numpy")


@pytest.mark.parametrize("name", sorted(SYMBOLIC_CASES))
def test_symbolic_fkine_equals_numeric(name):
    robot = SYMBOLIC_CASES[name]()
    f = _lambdified(robot, "fkine")  # built once, evaluated at many configurations
    for q in random_q(np.random.default_rng(zlib.crc32(name.encode())), robot, 10):
        np.testing.assert_allclose(np.array(f(q), dtype=float), robot.fkine(q), rtol=0, atol=TOL)


@pytest.mark.parametrize("convention", ["standard", "modified"])
def test_symbolic_jacob0_equals_numeric_on_3_link_robot(convention):
    from armlab import DHLink, DHRobot

    links = [
        DHLink(a=0.3, alpha=PI / 2, d=0.2, offset=0.1),
        DHLink(a=0.25, alpha=-0.7, theta=0.4, joint="P"),
        DHLink(a=0.1, alpha=0.0, d=-0.15),
    ]
    robot = DHRobot(links, convention=convention, base=armlab.Trans(0.1, 0.0, 0.5), tool=armlab.Rot("y", 0.3))
    f = _lambdified(robot, "jacob0")
    for q in np.random.default_rng(3).uniform([-PI, -0.5, -PI], [PI, 1.0, PI], size=(10, 3)):
        np.testing.assert_allclose(np.array(f(q), dtype=float), robot.jacob0(q), rtol=0, atol=TOL)
