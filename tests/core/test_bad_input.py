"""Bad input raises a clear ValueError or TypeError that names the offending argument.

Each case is (callable, expected exception, regex the message must match).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from armlab import models
from armlab import transforms as tf
from armlab import DHLink, DHRobot, link_transform_modified, link_transform_standard

NAN, INF = float("nan"), float("inf")
PUMA = models.puma560()
STANFORD = models.stanford_arm()


def _q(*replace):
    """A valid PUMA560 q with some entries replaced: _q((2, nan))."""
    q = np.zeros(6)
    for i, v in replace:
        q[i] = v
    return q


CASES = {
    # --- joint vectors -----------------------------------------------------------------
    "fkine q too short": (lambda: PUMA.fkine(np.zeros(5)), ValueError, r"q must have 6 joint values"),
    "fkine q too long list": (lambda: PUMA.fkine([0.0] * 7), ValueError, r"q must have 6 .*shape \(7,\)"),
    "fkine q scalar": (lambda: PUMA.fkine(0.0), ValueError, r"q must have 6"),
    "fkine q column vector": (lambda: PUMA.fkine(np.zeros((6, 1))), ValueError, r"q must have 6"),
    "fkine q batch wrong length": (lambda: PUMA.fkine(np.zeros((3, 5))), ValueError, r"q must have 6"),
    "fkine q NaN": (lambda: PUMA.fkine(_q((2, NAN))), ValueError, r"q contains NaN or inf"),
    "fkine q inf": (lambda: PUMA.fkine(_q((0, INF))), ValueError, r"q contains NaN or inf"),
    "fkine q -inf in batch": (lambda: PUMA.fkine(np.array([_q(), _q((5, -INF))])), ValueError, r"^q contains"),
    "fkine q NaN list": (lambda: PUMA.fkine([0, 0, NAN, 0, 0, 0]), ValueError, r"q contains NaN"),
    "fkine q string": (lambda: PUMA.fkine("zero"), TypeError, r"^q must be a number"),
    "fkine q list of strings": (lambda: PUMA.fkine(["0"] * 5 + ["a"]), TypeError, r"^q must be a number"),
    "fkine q None entry": (lambda: PUMA.fkine([0, None, 0, 0, 0, 0]), TypeError, r"^q must be a number"),
    "fkine_all q too short": (lambda: PUMA.fkine_all(np.zeros(4)), ValueError, r"q must have 6"),
    "fkine_all q NaN": (lambda: PUMA.fkine_all(_q((1, NAN))), ValueError, r"q contains NaN"),
    "jacob0 q too long": (lambda: PUMA.jacob0(np.zeros(7)), ValueError, r"q must have 6"),
    "jacob0 q NaN": (lambda: PUMA.jacob0(_q((3, NAN))), ValueError, r"q contains NaN"),
    "jacobe q too short": (lambda: PUMA.jacobe(np.zeros(4)), ValueError, r"q must have 6"),
    "jacobe q inf": (lambda: PUMA.jacobe(_q((4, INF))), ValueError, r"q contains NaN"),
    "within_limits q wrong length": (lambda: PUMA.within_limits(np.zeros(3)), ValueError, r"q must have 6"),
    "stanford fkine prismatic q NaN": (lambda: STANFORD.fkine([0, 0, NAN, 0, 0, 0]), ValueError, r"q contains"),
    "symbolic q wrong length": (
        lambda: PUMA.fkine(__import__("sympy").symbols("q1:6")),
        ValueError,
        r"q must have 6 joint values",
    ),
    # --- rotations: axis and angle ---------------------------------------------------------
    "R unknown axis w": (lambda: tf.R("w", 0.1), ValueError, r"axis must be 'x', 'y' or 'z', got 'w'"),
    "Rot unknown axis w": (lambda: tf.Rot("w", 0.1), ValueError, r"axis must be .*'w'"),
    "R axis as number": (lambda: tf.R(0, 0.1), ValueError, r"axis must be"),
    "R axis xy": (lambda: tf.R("xy", 0.1), ValueError, r"axis must be"),
    "R theta NaN": (lambda: tf.R("x", NAN), ValueError, r"theta contains NaN"),
    "R theta inf deg": (lambda: tf.R("x", INF, deg=True), ValueError, r"theta contains NaN or inf"),
    "Rot theta string": (lambda: tf.Rot("z", "ninety"), TypeError, r"theta must be a number"),
    "Rot theta batch with NaN": (lambda: tf.Rot("y", [0.1, NAN]), ValueError, r"theta contains NaN"),
    "rpy_to_R roll string": (lambda: tf.rpy_to_R("a", 0, 0), TypeError, r"^roll must be a number"),
    "rpy_to_R pitch NaN": (lambda: tf.rpy_to_R(0, NAN, 0), ValueError, r"^pitch contains NaN"),
    "rpy_to_R yaw inf": (lambda: tf.rpy_to_R(0, 0, INF), ValueError, r"^yaw contains NaN"),
    "euler_to_R phi NaN": (lambda: tf.euler_to_R(NAN, 0, 0), ValueError, r"^phi contains NaN"),
    "euler_to_R theta string": (lambda: tf.euler_to_R(0, "x", 0), TypeError, r"^theta must be a number"),
    "euler_to_R psi inf": (lambda: tf.euler_to_R(0, 0, -INF), ValueError, r"^psi contains NaN"),
    "axis_angle_to_R zero axis": (lambda: tf.axis_angle_to_R([0, 0, 0], 1.0), ValueError, r"axis must be a non-zero"),
    "axis_angle_to_R axis shape": (lambda: tf.axis_angle_to_R([0, 1], 1.0), ValueError, r"axis must have shape"),
    "axis_angle_to_R axis NaN": (lambda: tf.axis_angle_to_R([0, NAN, 1], 1.0), ValueError, r"axis contains NaN"),
    "axis_angle_to_R theta NaN": (lambda: tf.axis_angle_to_R([0, 0, 1], NAN), ValueError, r"theta contains NaN"),
    # --- matrices of the wrong shape or with NaN ---------------------------------------------
    "Tinv 3x3": (lambda: tf.Tinv(np.eye(3)), ValueError, r"T must have shape \(\.\.\., 4, 4\), got shape \(3, 3\)"),
    "Tinv 4x3": (lambda: tf.Tinv(np.zeros((4, 3))), ValueError, r"T must have shape"),
    "Tinv flat 16": (lambda: tf.Tinv(np.zeros(16)), ValueError, r"T must have shape"),
    "Tinv NaN": (lambda: tf.Tinv(np.full((4, 4), NAN)), ValueError, r"T contains NaN"),
    "Tinv inf translation": (lambda: tf.Tinv(_inf_T()), ValueError, r"T contains"),
    "Tinv string": (lambda: tf.Tinv("T"), TypeError, r"T must be a number"),
    "R_to_rpy 4x4": (lambda: tf.R_to_rpy(np.eye(4)), ValueError, r"R must have shape \(\.\.\., 3, 3\)"),
    "R_to_rpy NaN": (lambda: tf.R_to_rpy(np.full((3, 3), NAN)), ValueError, r"R contains NaN"),
    "R_to_euler 2x2": (lambda: tf.R_to_euler(np.eye(2)), ValueError, r"R must have shape"),
    "R_to_axis_angle vector": (lambda: tf.R_to_axis_angle(np.zeros(3)), ValueError, r"R must have shape"),
    "is_rotation 4x4": (lambda: tf.is_rotation(np.eye(4)), ValueError, r"R must have shape"),
    "homogeneous R 4x4": (lambda: tf.homogeneous(np.eye(4), [1, 2, 3]), ValueError, r"R must have shape"),
    "homogeneous p of 2": (lambda: tf.homogeneous(np.eye(3), [1, 2]), ValueError, r"p must have shape"),
    "homogeneous p NaN": (lambda: tf.homogeneous(np.eye(3), [1, NAN, 3]), ValueError, r"p contains NaN"),
    "skew p of 2": (lambda: tf.skew([1, 2]), ValueError, r"p must have shape"),
    "unskew 4x4": (lambda: tf.unskew(np.eye(4)), ValueError, r"S must have shape"),
    # --- Trans, compose, point ----------------------------------------------------------------
    "Trans two arguments": (lambda: tf.Trans(1, 2), TypeError, r"Trans takes three components"),
    "Trans dx and dz only": (lambda: tf.Trans(1, dz=2), TypeError, r"Trans takes three components"),
    "Trans vector of 4": (lambda: tf.Trans([1, 2, 3, 4]), ValueError, r"p must have shape \(\.\.\., 3\)"),
    "Trans dx string": (lambda: tf.Trans("a", 1, 2), TypeError, r"dx must be a number"),
    "Trans dz NaN": (lambda: tf.Trans(0, 0, NAN), ValueError, r"dz contains NaN"),
    "compose frame world": (
        lambda: tf.compose(np.eye(4), frame="world"),
        ValueError,
        r"frame must be 'fixed' or 'current', got 'world'",
    ),
    "compose nothing": (lambda: tf.compose(), ValueError, r"compose needs at least one transform"),
    "compose 4x4 with 3x3": (lambda: tf.compose(np.eye(4), np.eye(3)), ValueError, r"transforms must all be"),
    "compose string": (lambda: tf.compose(np.eye(4), "T"), TypeError, r"transforms\[\d\] must be a number"),
    "point x string": (lambda: tf.point("a", 1, 2), TypeError, r"x must be a number"),
    "vector of 2": (lambda: tf.vector([1, 2]), ValueError, r"vector must have shape"),
    # --- DH links ----------------------------------------------------------------------------------
    "link_transform_standard theta NaN": (
        lambda: link_transform_standard(NAN, 0, 0, 0),
        ValueError,
        r"theta contains NaN",
    ),
    "link_transform_modified alpha string": (
        lambda: link_transform_modified("x", 0, 0, 0),
        TypeError,
        r"alpha must be a number",
    ),
    "link_transform_modified d inf": (lambda: link_transform_modified(0, 0, 0, INF), ValueError, r"d contains"),
    "DHLink joint X": (lambda: DHLink(joint="X"), ValueError, r"joint must be 'R' .* or 'P' .*got 'X'"),
    "DHLink joint lower-case r": (lambda: DHLink(joint="r"), ValueError, r"joint must be"),
    "DHLink a string": (lambda: DHLink(a="0.1"), TypeError, r"DHLink a must be a real number"),
    "DHLink alpha bool": (lambda: DHLink(alpha=True), TypeError, r"DHLink alpha must be a real number"),
    "DHLink theta NaN": (lambda: DHLink(theta=NAN), ValueError, r"DHLink theta must be finite"),
    "DHLink d inf": (lambda: DHLink(d=INF), ValueError, r"DHLink d must be finite"),
    "DHLink offset NaN": (lambda: DHLink(offset=NAN), ValueError, r"DHLink offset must be finite"),
    "DHLink qlim lower > upper": (
        lambda: DHLink(qlim=(1.0, -1.0)),
        ValueError,
        r"qlim must be \(lower, upper\) with lower <= upper",
    ),
    "DHLink qlim three values": (lambda: DHLink(qlim=(0, 1, 2)), ValueError, r"qlim must have shape \(2,\)"),
    "DHLink qlim NaN": (lambda: DHLink(qlim=(NAN, 1.0)), ValueError, r"qlim contains NaN"),
    "DHLink qlim string": (lambda: DHLink(qlim=("lo", "hi")), TypeError, r"qlim must be a number"),
    "DHLink r of 2": (lambda: DHLink(r=(0, 0)), ValueError, r"r must have shape \(3,\)"),
    "DHLink I 2x2": (lambda: DHLink(I=np.eye(2)), ValueError, r"I must have shape \(3, 3\)"),
    # --- DH robots and models ----------------------------------------------------------------------
    "DHRobot unknown convention": (
        lambda: DHRobot([DHLink()], convention="craig"),
        ValueError,
        r"convention must be 'standard' or 'modified', got 'craig'",
    ),
    "DHRobot convention capitalised": (
        lambda: DHRobot([DHLink()], convention="Modified"),
        ValueError,
        r"convention must be",
    ),
    "DHRobot no links": (lambda: DHRobot([]), TypeError, r"links must be a non-empty sequence of DHLink"),
    "DHRobot links not DHLink": (lambda: DHRobot([(0, 0, 0, 0)]), TypeError, r"links must be"),
    "DHRobot base 3x3": (
        lambda: DHRobot([DHLink()], base=np.eye(3)),
        ValueError,
        r"base must have shape \(4, 4\), got shape \(3, 3\)",
    ),
    "DHRobot tool NaN": (lambda: DHRobot([DHLink()], tool=np.full((4, 4), NAN)), ValueError, r"tool contains NaN"),
    "DHRobot base batch": (
        lambda: DHRobot([DHLink()], base=np.stack([np.eye(4)] * 2)),
        ValueError,
        r"base must have shape \(4, 4\)",
    ),
    "stanford_arm unknown convention": (
        lambda: models.stanford_arm(convention="dh"),
        ValueError,
        r"convention must be",
    ),
    "planar2r length NaN": (lambda: models.planar2r(l1=NAN), ValueError, r"DHLink a must be finite"),
    "youbot d5 string": (lambda: models.youbot(d5="0.2"), TypeError, r"DHLink d must be a real number"),
}


def _inf_T():
    T = np.eye(4)
    T[1, 3] = math.inf
    return T


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_input_raises_clear_error_naming_the_argument(name):
    func, exc, pattern = CASES[name]
    with pytest.raises(exc, match=pattern):
        func()


@pytest.mark.parametrize(
    "call",
    [lambda: tf.Rot("z", "90"), lambda: PUMA.fkine(["0"] * 6), lambda: tf.Trans("1", "2", "3")],
    ids=["Rot theta", "fkine q", "Trans"],
)
def test_numeric_strings_are_rejected(call):
    with pytest.raises(TypeError, match="must be a number"):
        call()


def test_good_edge_inputs_are_accepted():
    """The checks do not reject valid edge cases."""
    assert DHLink(qlim=(0.5, 0.5)).qlim == (0.5, 0.5)  # equal limits are a locked joint, not an error
    assert tf.R("X", 0.1).shape == (3, 3)  # upper-case axis names are fine
    assert PUMA.fkine(np.zeros((1, 6))).shape == (1, 4, 4)  # a batch of one
    assert PUMA.fkine(np.zeros(6, dtype=int)).shape == (4, 4)  # integer joint values
    assert PUMA.fkine(np.zeros(6, dtype=np.float32)).shape == (4, 4)
    assert DHLink(a=np.float32(0.1), d=np.int64(2)).d == 2.0  # numpy scalars
