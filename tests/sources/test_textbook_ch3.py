"""Worked examples and exercises of textbook ch. 3 (sources/000), recomputed.

Each test is named after its example or equation. Where the printed answer is
wrong, the test asserts the correct value and the comment says what was printed.
"""

import functools

import numpy as np
import pytest
import sympy as sp

import armlab
from armlab import R, Rot, Trans, compose, point
from armlab.models import PUMA560, planar2r, puma560, rpr, stanford_arm
from support.textbook import EXAMPLE_3_4_J

deg = np.pi / 180


def test_example_3_1_rotation_then_translation():
    # {B} turns 30° about Z_A, then moves 10 along X_A and 20 along Y_A; BP = (4, 8, 0).
    R_AB = R("z", 30, deg=True)
    p_B = np.array([10.0, 20.0, 0.0])
    AP = R_AB @ np.array([4.0, 8.0, 0.0]) + p_B  # eq. (3.14)
    c, s = np.cos(30 * deg), np.sin(30 * deg)
    assert np.allclose(R_AB, [[c, -s, 0], [s, c, 0], [0, 0, 1]], atol=1e-15)
    assert np.allclose(AP, [4 * c - 8 * s + 10, 4 * s + 8 * c + 20, 0], atol=1e-12)
    assert np.allclose(AP, [9.464, 28.928, 0], atol=5e-4)  # printed answer: right


def test_example_3_2_homogeneous_form():
    T = compose(Rot("z", 30, deg=True), Trans(10, 20, 0), frame="fixed")
    AP2 = T @ point(4, 8, 0)
    assert np.allclose(T, Trans(10, 20, 0) @ Rot("z", 30 * deg))
    # Same motion as Example 3.1, so the same point (eq. (3.16) vs (3.14)).
    assert np.allclose(AP2[:3], R("z", 30 * deg) @ [4, 8, 0] + [10, 20, 0], atol=1e-12)
    assert AP2[3] == 1.0
    assert np.allclose(AP2, [9.464, 28.928, 0, 1], atol=5e-4)  # printed answer: right


def test_section_3_1_5_item_2_A_B_R_describes_B_relative_to_A():
    # ERRATUM (§3.1.5, item 2): "可用旋转矩阵^A_B R描述{A}相对于{B}的姿态" swaps {A} and {B}. As §3.1.2 and the
    # next sentence (^B_A R describes {A} relative to {B}) say, ^A_B R describes {B} relative to {A}.
    R_AB = R("z", 30, deg=True)  # {B} is {A} turned 30° about z_A (Example 3.1)
    c, s = np.cos(30 * deg), np.sin(30 * deg)
    x_B, y_B = np.array([c, s, 0]), np.array([-s, c, 0])  # {B}'s axes, written in {A}
    assert np.allclose(R_AB[:, 0], x_B) and np.allclose(R_AB[:, 1], y_B)  # its columns: {B} in {A}, (3.2)
    assert np.allclose(R_AB @ [4, 8, 0], 4 * x_B + 8 * y_B)  # (3.12): B-coordinates in, A-coordinates out
    # {A} relative to {B} is the transpose (3.13): its first column is x_A seen from {B}, turned −30°
    assert np.allclose(R_AB.T[:, 0], [c, -s, 0])


def test_section_3_1_5_item_3_origin_is_0001_and_0000_is_undefined():
    # ERRATUM (§3.1.5, item 3): "坐标原点的矢量,即零矢量表示为[0,0,0,1],它是没有定义的". [0, 0, 0, 1] is the
    # origin (x = X/W = 0/1); [0, 0, 0, 0] is the undefined one (0/0). [a, b, c, 0] ≠ 0 is a direction.
    T = Trans(10, 20, 0) @ Rot("z", 30 * deg)  # Example 3.2
    origin = point(0, 0, 0)
    assert origin.tolist() == [0, 0, 0, 1]
    assert np.allclose(T @ origin, [10, 20, 0, 1])  # {B}'s origin lands on ^A P_BO: a well-defined point
    x_axis = np.array([1.0, 0, 0, 0])
    assert np.allclose(T @ x_axis, [np.cos(30 * deg), np.sin(30 * deg), 0, 0])  # turned, not moved
    with np.errstate(invalid="ignore"):
        assert np.isnan(np.zeros(3) / 0.0).all()  # [0, 0, 0, 0]: X/W, Y/W, Z/W are all 0/0


def test_exercise_1_fixed_axis_sequence():
    # Z0 45°, then X0 60°, then Y0 30°, all about the FIXED frame: T = Rot(y,30)·Rot(x,60)·Rot(z,45).
    T = compose(Rot("z", 45 * deg), Rot("x", 60 * deg), Rot("y", 30 * deg), frame="fixed")
    assert np.allclose(T, Rot("y", 30 * deg) @ Rot("x", 60 * deg) @ Rot("z", 45 * deg))
    c45, s45, c60, s60, c30, s30 = (np.cos(45 * deg), np.sin(45 * deg), 0.5, np.sin(60 * deg), np.cos(30 * deg), 0.5)
    expected_first_row = [c30 * c45 + s30 * s60 * s45, -c30 * s45 + s30 * s60 * c45, s30 * c60]
    assert np.allclose(T[0, :3], expected_first_row, atol=1e-12)
    assert np.allclose(
        T[:3, :3], [[0.9186, -0.3062, 0.25], [0.3536, 0.3536, -0.8660], [0.1768, 0.8839, 0.4330]], atol=1e-4
    )
    # ERRATUM: the book prints r12 = +0.306. Its magnitude is right but the sign is wrong:
    # r12 = −c30·s45 + s30·s60·c45 = −0.612 + 0.306 = −0.306.
    assert T[0, 1] == pytest.approx(-0.30619, abs=1e-5)
    assert armlab.is_rotation(T[:3, :3])


def test_exercise_2_point_after_motion():
    # About Z_A 60°, then 3 along X_A and 4 along Y_A; AP1 = (1, 2, 0).
    T = compose(Rot("z", 60 * deg), Trans(3, 4, 0), frame="fixed")
    AP2 = T @ point(1, 2, 0)
    c, s = 0.5, np.sin(60 * deg)
    assert np.allclose(AP2, [c * 1 - s * 2 + 3, s * 1 + c * 2 + 4, 0, 1], atol=1e-12)
    assert np.allclose(AP2[:3], [1.768, 5.866, 0], atol=5e-4)
    # ERRATUM: the book prints AP2 = (1.768, 6.732, 0); y = 0.866 + 1 + 4 = 5.866, not 6.732.
    assert abs(AP2[1] - 6.732) > 0.8


def test_eq_3_23_modified_link_transform():
    alpha, a, theta, d = sp.symbols("alpha a theta d")
    A = armlab.link_transform_modified(alpha, a, theta, d)
    ct, st, ca, sa = sp.cos(theta), sp.sin(theta), sp.cos(alpha), sp.sin(alpha)
    printed = sp.Matrix(
        [[ct, -st, 0, a], [st * ca, ct * ca, -sa, -d * sa], [st * sa, ct * sa, ca, d * ca], [0, 0, 0, 1]]
    )
    assert sp.simplify(A - printed) == sp.zeros(4, 4)
    # eq. (3.22): Rot(x, α)·Trans(a, 0, 0)·Rot(z, θ)·Trans(0, 0, d)
    assert sp.simplify(A - Rot("x", alpha) * Trans(a, 0, 0) * Rot("z", theta) * Trans(0, 0, d)) == sp.zeros(4, 4)


def test_section_3_2_2_step_1_origin_is_where_a_i_meets_axis_i():
    # ERRATUM (§3.2.2, step (1)): the origin of {i} is printed at "轴i-1和i的公垂线与关节i轴线的交点", where the
    # normal a_{i−1} (the x_{i−1} axis) meets axis i. There d_i, the distance from x_{i−1} to x_i along z_i, is
    # 0 for every i; Table 3.2 has d2 = 149.09 mm and d4 = 433.07 mm. The origin of {i} is where the normal
    # a_i of axes i and i+1 meets axis i (the printed rule for parallel axes, d_{i+1} = 0, is right).
    robot = puma560()
    F = robot.fkine_all(np.random.default_rng(22).uniform(-np.pi, np.pi, 6))
    O, x, z = F[:, :3, 3], F[:, :3, 0], F[:, :3, 2]
    printed_to_true = []
    for i in range(1, 7):
        # where the line of x_{i−1} crosses axis i: O_{i−1} + u·x_{i−1} = O_i + t·z_i
        (u, t), *_ = np.linalg.lstsq(np.column_stack([x[i - 1], -z[i]]), O[i] - O[i - 1], rcond=None)
        assert np.allclose(O[i - 1] + u * x[i - 1], O[i] + t * z[i], atol=1e-12)
        printed_to_true.append(-t)
    assert np.allclose(printed_to_true, [0, PUMA560["d2"], 0, PUMA560["d4"], 0, 0], atol=1e-12)
    # the true origin: x_i is the common normal of z_i and z_{i+1}, of length a_i (the a of row i+1)
    for i in range(1, 6):
        assert abs(x[i] @ z[i]) < 1e-12 and abs(x[i] @ z[i + 1]) < 1e-12
        a_i = robot.links[i].a
        assert np.allclose(np.cross(O[i] + a_i * x[i] - O[i + 1], z[i + 1]), 0, atol=1e-12)  # lands on axis i+1


def test_section_3_2_2_four_motions_the_origins_meet_only_after_step_4():
    # ERRATUM (§3.2.2, the four motions): after step (2), Trans(x, a_{i−1}), the book says "这时两个坐标系的原点处在
    # 同一位置". Then z_{i−1} and z_i are one line, but the origins are still d_i apart along it; they meet after step
    # (4), Trans(z, d_i). (The motions lead to frame {i}, x_i–z_i; the book prints "xn-zn".) PUMA560, link 2:
    robot = puma560()
    link, theta = robot.links[1], 0.4
    target = robot.link_transform(2, theta)  # (3.23): frame {2} in frame {1}
    motions = [Rot("x", link.alpha), Trans(link.a, 0, 0), Rot("z", theta), Trans(0, 0, link.d)]
    after = [functools.reduce(np.matmul, motions[: k + 1]) for k in range(4)]
    z_i, x_i, O_i = target[:3, 2], target[:3, 0], target[:3, 3]
    np.testing.assert_allclose(after[0][:3, 2], z_i, atol=1e-15)  # (1): z parallel to z_i
    gap = O_i - after[1][:3, 3]
    np.testing.assert_allclose(np.cross(gap, z_i), 0, atol=1e-15)  # (2): z on the line of z_i ...
    assert np.linalg.norm(gap) == pytest.approx(PUMA560["d2"], abs=1e-12)  # ... 149.09 mm from O_2, not at it
    np.testing.assert_allclose(after[2][:3, 0], x_i, atol=1e-15)  # (3): x parallel to x_i
    np.testing.assert_allclose(after[3], target, atol=1e-15)  # (4): frame {i}


c = {i: sp.cos(sp.Symbol(f"q{i}")) for i in range(1, 7)}
s = {i: sp.sin(sp.Symbol(f"q{i}")) for i in range(1, 7)}
q1, q2, q3, q4, q5, q6 = sp.symbols("q1:7")
a2, a3, d2, d4 = sp.symbols("a2 a3 d2 d4")
c23, s23 = sp.cos(q2 + q3), sp.sin(q2 + q3)


def _same(expr, book):
    """Equal as trigonometric polynomials (sum angles expanded), exactly."""
    return sp.expand(sp.expand_trig(expr - book)) == 0


def test_table_3_2_link_matrices():
    robot = puma560(symbolic=True)
    q = sp.symbols("q1:7")
    A = [robot.link_transform(i, q[i - 1]) for i in range(1, 7)]
    printed = [  # the six matrices printed after Table 3.2
        [[c[1], -s[1], 0, 0], [s[1], c[1], 0, 0], [0, 0, 1, 0]],
        [[c[2], -s[2], 0, 0], [0, 0, 1, d2], [-s[2], -c[2], 0, 0]],
        [[c[3], -s[3], 0, a2], [s[3], c[3], 0, 0], [0, 0, 1, 0]],
        [[c[4], -s[4], 0, a3], [0, 0, 1, d4], [-s[4], -c[4], 0, 0]],
        [[c[5], -s[5], 0, 0], [0, 0, -1, 0], [s[5], c[5], 0, 0]],
        [[c[6], -s[6], 0, 0], [0, 0, 1, 0], [-s[6], -c[6], 0, 0]],
    ]
    for Ai, rows in zip(A, printed):
        assert Ai == sp.Matrix(rows + [[0, 0, 0, 1]])


@functools.cache
def _puma_products():
    robot = puma560(symbolic=True)
    q = sp.symbols("q1:7")
    A = [None] + [robot.link_transform(i, q[i - 1]) for i in range(1, 7)]
    T46 = A[5] * A[6]
    T36 = A[4] * T46
    # Joints 2 and 3 are parallel: the book multiplies them first and uses the sum angle (3.28).
    T13 = (A[2] * A[3]).applyfunc(sp.trigsimp)
    T16 = (T13 * T36).applyfunc(sp.expand)
    T06 = (A[1] * T16).applyfunc(sp.expand)
    return robot, q, T46, T36, T13, T16, T06


def test_eq_3_26_to_3_28_intermediate_products():
    _, _, T46, T36, T13, _, _ = _puma_products()
    # (3.26)
    assert T46 == sp.Matrix(
        [[c[5] * c[6], -c[5] * s[6], -s[5], 0], [s[6], c[6], 0, 0], [s[5] * c[6], -s[5] * s[6], c[5], 0], [0, 0, 0, 1]]
    )
    # (3.27). ERRATUM: entry (1,2) is printed −c4c5c6 − s4c6; it is −c4c5s6 − s4c6.
    book_T36 = sp.Matrix(
        [
            [c[4] * c[5] * c[6] - s[4] * s[6], -c[4] * c[5] * s[6] - s[4] * c[6], -c[4] * s[5], a3],
            [s[5] * c[6], -s[5] * s[6], c[5], d4],
            [-s[4] * c[5] * c[6] - c[4] * s[6], s[4] * c[5] * s[6] - c[4] * c[6], s[4] * s[5], 0],
            [0, 0, 0, 1],
        ]
    )
    assert (T36 - book_T36).applyfunc(sp.expand) == sp.zeros(4, 4)
    misprint = -c[4] * c[5] * c[6] - s[4] * c[6]
    assert sp.expand(T36[0, 1] - misprint) != 0
    # (3.28), in sum-angle form exactly as printed
    assert T13 == sp.Matrix([[c23, -s23, 0, a2 * c[2]], [0, 0, 1, d2], [-s23, -c23, 0, -a2 * s[2]], [0, 0, 0, 1]])


# Eq. (3.30): ¹T₆ entries, and eq. (3.32): ⁰T₆ entries, with c23 = cos(θ2+θ3).
C456 = c[4] * c[5] * c[6] - s[4] * s[6]
S456 = c[4] * c[5] * s[6] + s[4] * c[6]
BOOK_T16 = {
    "nx": c23 * C456 - s23 * s[5] * c[6],
    "ny": -s[4] * c[5] * c[6] - c[4] * s[6],
    "nz": -s23 * C456 - c23 * s[5] * c[6],
    "ox": -c23 * S456 + s23 * s[5] * s[6],
    "oy": s[4] * c[5] * s[6] - c[4] * c[6],
    "oz": s23 * S456 + c23 * s[5] * s[6],
    "ax": -c23 * c[4] * s[5] - s23 * c[5],
    "ay": s[4] * s[5],
    "az": s23 * c[4] * s[5] - c23 * c[5],
    "px": a2 * c[2] + a3 * c23 - d4 * s23,
    "py": d2,
    "pz": -a3 * s23 - a2 * s[2] - d4 * c23,
}
# The extraction lost the square brackets: nx = c1[c23(...) − s23s5c6] + s1(...), px = c1[...] − d2s1.
BOOK_T06 = {
    "nx": c[1] * (c23 * C456 - s23 * s[5] * c[6]) + s[1] * (s[4] * c[5] * c[6] + c[4] * s[6]),
    "ny": s[1] * (c23 * C456 - s23 * s[5] * c[6]) - c[1] * (s[4] * c[5] * c[6] + c[4] * s[6]),
    "nz": -s23 * C456 - c23 * s[5] * c[6],
    "ox": c[1] * (c23 * -S456 + s23 * s[5] * s[6]) + s[1] * (c[4] * c[6] - s[4] * c[5] * s[6]),
    # ERRATUM: printed "... − c1(c4c6 − s4c5c6)"; the last factor is s6, not c6.
    "oy": s[1] * (c23 * -S456 + s23 * s[5] * s[6]) - c[1] * (c[4] * c[6] - s[4] * c[5] * s[6]),
    "oz": -s23 * -S456 + c23 * s[5] * s[6],
    "ax": -c[1] * (c23 * c[4] * s[5] + s23 * c[5]) - s[1] * s[4] * s[5],
    "ay": -s[1] * (c23 * c[4] * s[5] + s23 * c[5]) + c[1] * s[4] * s[5],
    "az": s23 * c[4] * s[5] - c23 * c[5],
    "px": c[1] * (a2 * c[2] + a3 * c23 - d4 * s23) - d2 * s[1],
    "py": s[1] * (a2 * c[2] + a3 * c23 - d4 * s23) + d2 * c[1],
    "pz": -a3 * s23 - a2 * s[2] - d4 * c23,
}
ENTRY = {f"{v}{ax}": (i, j) for j, v in enumerate("noap") for i, ax in enumerate("xyz")}


@pytest.mark.parametrize("name", sorted(BOOK_T16))
def test_eq_3_30_T16_entries(name):
    _, _, _, _, _, T16, _ = _puma_products()
    i, j = ENTRY[name]
    # Sum-angle form exactly: no expansion of c23 needed.
    assert sp.expand(T16[i, j] - BOOK_T16[name]) == 0


@pytest.mark.parametrize("name", sorted(BOOK_T06))
def test_eq_3_31_3_32_T06_entries(name):
    robot, q, _, _, _, _, T06 = _puma_products()
    i, j = ENTRY[name]
    assert sp.expand(T06[i, j] - BOOK_T06[name]) == 0
    # and robot.fkine itself (plain product, no grouping) is the same function
    assert _same(robot.fkine(q)[i, j], BOOK_T06[name])


def test_eq_3_32_misprint_of_oy_is_really_wrong():
    printed_oy = s[1] * (c23 * -S456 + s23 * s[5] * s[6]) - c[1] * (c[4] * c[6] - s[4] * c[5] * c[6])
    T06 = puma560(symbolic=True).fkine(sp.symbols("q1:7"))
    assert not _same(T06[1, 1], printed_oy)


def test_eq_3_32_numeric_fkine_equals_book_formula():
    rng = np.random.default_rng(32)
    lengths = {a2: PUMA560["a2"], a3: PUMA560["a3"], d2: PUMA560["d2"], d4: PUMA560["d4"]}
    book = sp.lambdify(
        [sp.symbols("q1:7")],
        sp.Matrix(3, 4, lambda i, j: BOOK_T06[next(k for k, v in ENTRY.items() if v == (i, j))]).subs(lengths),
        "numpy",
    )
    robot = puma560()
    for q in rng.uniform(-np.pi, np.pi, (50, 6)):
        assert np.allclose(robot.fkine(q)[:3], book(q), atol=1e-12)


def test_check_pose_after_eq_3_32():
    T = puma560().fkine(np.radians([90, 0, -90, 0, 0, 0]))
    a2_, a3_, d2_, d4_ = (PUMA560[k] for k in ("a2", "a3", "d2", "d4"))
    expected = [[0, 1, 0, -d2_], [0, 0, 1, a2_ + d4_], [1, 0, 0, a3_], [0, 0, 0, 1]]
    assert np.allclose(T, expected, atol=1e-12)
    # symbolically too, with the book's symbols
    Ts = puma560(symbolic=True).fkine([sp.pi / 2, 0, -sp.pi / 2, 0, 0, 0])
    assert Ts == sp.Matrix([[0, 1, 0, -d2], [0, 0, 1, a2 + d4], [1, 0, 0, a3], [0, 0, 0, 1]])


def test_d6_is_the_tool_flange():
    q = np.random.default_rng(6).uniform(-1, 1, 6)
    T06, Tflange = puma560().fkine(q), puma560(flange=True).fkine(q)
    assert np.allclose(Tflange, T06 @ Trans(0, 0, PUMA560["d6"]))
    # the flange sits d6 further along the approach vector a
    assert np.allclose(Tflange[:3, 3] - T06[:3, 3], PUMA560["d6"] * T06[:3, 2])


def test_exercises_3_4_stanford_arm_tables():
    # ERRATUM (Table 3.4): the printed α column (−90°, 90°, 0, −90°, 90°, 0) is the standard
    # convention's α_i, printed under the modified heading α_{i−1}. Read in its own convention
    # it describes the same arm as the modified table (0, −90°, 90°, 0, −90°, 90°).
    mod, std = stanford_arm(convention="modified"), stanford_arm(convention="standard")
    assert [round(link.alpha / deg) for link in mod.links] == [0, -90, 90, 0, -90, 90]
    assert [round(link.alpha / deg) for link in std.links] == [-90, 90, 0, -90, 90, 0]
    rng = np.random.default_rng(3)
    Q = rng.uniform(-np.pi, np.pi, (100, 6))
    Q[:, 2] = rng.uniform(0, 1, 100)  # prismatic d3
    assert np.allclose(mod.fkine(Q), std.fkine(Q), atol=1e-12)
    # The printed α column read as modified DH is a different (wrong) arm.
    wrong = armlab.DHRobot(
        [armlab.DHLink(alpha=lk.alpha, d=lk.d, joint=lk.joint) for lk in std.links], convention="modified"
    )
    assert not np.allclose(wrong.fkine(Q[0]), mod.fkine(Q[0]))


def test_exercise_5_rpr_T03():
    L1, L2, d2_ = sp.symbols("L1 L2 d2")
    th1, th3 = sp.symbols("theta1 theta3")
    T = rpr(L1, L2).fkine([th1, d2_, th3])
    c1, s1, c3, s3 = sp.cos(th1), sp.sin(th1), sp.cos(th3), sp.sin(th3)
    printed = sp.Matrix(
        [
            [c1 * c3, -c1 * s3, s1, s1 * L2 + s1 * d2_],
            [s1 * c3, -s1 * s3, -c1, -c1 * L2 - c1 * d2_],
            [s3, c3, 0, L1],
            [0, 0, 0, 1],
        ]
    )  # printed answer: right
    assert (T - printed).applyfunc(sp.expand) == sp.zeros(4, 4)


def test_exercise_5_printed_ik_belongs_to_a_planar_2r_not_the_rpr():
    # ERRATUM (exercise 5 answer): the inverse kinematics printed under the RPR's 0_3T solves
    # x = L2c2 + L3c23, y = L2s2 + L3s23: an arm with two revolute joints 2, 3 and links L2, L3. The RPR
    # has no θ2 (joint 2 slides), and its hand position does not depend on θ3 at all.
    L1, L2, d2_, th1, th3 = sp.symbols("L1 L2 d2 theta1 theta3")
    p = rpr(L1, L2).fkine([th1, d2_, th3])[:3, 3]
    assert all(sp.diff(pk, th3) == 0 for pk in p)
    assert sp.simplify(p[0] ** 2 + p[1] ** 2 - (L2 + d2_) ** 2) == 0 and p[2] == L1  # reach set by the slide
    # The printed formulas do solve the planar two-link arm with links L2, L3:
    l2, l3, q = 0.5, 0.3, np.array([0.4, 0.9])
    x, y = planar2r(l2, l3).fkine(q)[:2, 3]
    t3 = np.arccos((x**2 + y**2 - l2**2 - l3**2) / (2 * l2 * l3))
    t2 = np.arctan(y / x) - np.arctan(l3 * np.sin(t3) / (l2 + l3 * np.cos(t3)))
    assert np.allclose([t2, t3], q)


def test_exercise_5_printed_arctan_y_over_x_loses_the_quadrant():
    # ERRATUM (exercise 5 answer): θ2 = arctan(y/x) − arctan(L3 s3 / (L2 + L3 c3)) is 180° off when x < 0;
    # atan2(y, x) keeps the quadrant.
    l2, l3, q = 0.5, 0.3, np.array([2.0, 0.9])
    x, y = planar2r(l2, l3).fkine(q)[:2, 3]
    assert x < 0
    beta = np.arctan2(l3 * np.sin(q[1]), l2 + l3 * np.cos(q[1]))
    assert np.arctan2(y, x) - beta == pytest.approx(q[0])
    assert abs(armlab.ik.wrap_angle(np.arctan(y / x) - beta - q[0])) == pytest.approx(np.pi)


def test_exercise_6_2r_joint_rates():
    # 2R, l1 = l2 = 0.5 m, θ1 = 30°, θ2 = 60°; the hand moves along +X0 at 1 m/s.
    robot = planar2r(0.5, 0.5)
    J = robot.jacob0(np.radians([30, 60]))[:2]
    qd = np.linalg.solve(J, [1.0, 0.0])
    assert np.allclose(qd, [0.0, -2.0], atol=1e-12)
    # ERRATUM: the book answers "30°, −60°; −2 rad/s, 4 rad/s" — that is the solution for θ2 = −60°.
    J_neg = robot.jacob0(np.radians([30, -60]))[:2]
    assert np.allclose(np.linalg.solve(J_neg, [1.0, 0.0]), [-2.0, 4.0], atol=1e-12)


def test_exercise_6_printed_jacobian_entry_l1_s12_should_be_l2_s12():
    # ERRATUM (exercise 6 answer): v_X is printed −(l1s1 + l1s12)θ̇1 − l2s12θ̇2; the bracket is l1s1 + l2s12,
    # as in the matrix printed just above it. Harmless here only because l1 = l2 = 0.5 m.
    l1, l2, t1, t2 = sp.symbols("l1 l2 theta1 theta2")
    X = l1 * sp.cos(t1) + l2 * sp.cos(t1 + t2)
    dX_dt1 = sp.diff(X, t1)
    assert sp.simplify(dX_dt1 + l1 * sp.sin(t1) + l2 * sp.sin(t1 + t2)) == 0
    printed = -(l1 * sp.sin(t1) + l1 * sp.sin(t1 + t2))
    assert sp.simplify(dX_dt1 - printed) != 0 and sp.simplify((dX_dt1 - printed).subs(l2, l1)) == 0
    J = planar2r(0.5, 0.7).jacob0(np.radians([30, 60]))
    assert J[0, 0] == pytest.approx(-(0.5 * np.sin(30 * deg) + 0.7 * np.sin(90 * deg)))


def test_example_3_4_differential_motion():
    J = EXAMPLE_3_4_J
    D = J @ [0.1, 0, -0.1, 0, 0, 0.1]  # eq. (3.57)
    assert np.allclose(D, [0.1, -0.2, 0, 0, -0.1, 0.1])  # printed answer: right


def test_table_3_2_theta3_range_is_lees_theta3_shifted_by_180():
    # ERRATUM (Table 3.2): the ranges come with d6 = 56.25 mm from Fu, Gonzalez & Lee's standard-DH PUMA
    # table, whose θ3 is this table's θ3 + 180° (their drawn pose has θ3 = +90°, the book's −90°). The
    # frames were converted, the range column was not: in this table's θ3 it is −225°…45°, not −45°…225°.
    lee = armlab.DHRobot(
        [
            armlab.DHLink(alpha=al * deg, a=a, d=d)
            for al, a, d in [
                (-90, 0, 0),
                (0, PUMA560["a2"], PUMA560["d2"]),
                (90, -PUMA560["a3"], 0),
                (-90, 0, PUMA560["d4"]),
                (90, 0, 0),
                (0, 0, 0),
            ]
        ],
        convention="standard",
    )
    robot = puma560()
    shift = np.array([0, 0, np.pi, 0, 0, 0])
    for q in np.random.default_rng(32).uniform(-np.pi, np.pi, (50, 6)):
        # the same arm, frame {6} turned by a constant 180° about z6
        assert np.allclose(lee.fkine(q + shift), robot.fkine(q) @ Rot("z", np.pi), atol=1e-12)
    assert np.allclose(robot.qlim[2], np.radians([-45, 225]) - np.pi)
    assert np.allclose(
        np.degrees(robot.qlim), [[-160, 160], [-225, 45], [-225, 45], [-110, 170], [-100, 100], [-266, 266]]
    )
    # The corrected range is centred on θ3 = −90°, the stretched forearm of the check pose, which is
    # now within the ranges (the earlier "the real arm cannot reach its own check pose" was wrong).
    assert robot.within_limits(np.radians([90, 0, -90, 0, 0, 0]))
    # The printed range read as this θ3 is centred on θ3 = +90°: the forearm folded back onto the upper
    # arm, the wrist centre 20 mm from the shoulder (stretched: 865 mm), which no arm can do.
    for t3, dist in (
        (90, np.hypot(PUMA560["a2"] - PUMA560["d4"], PUMA560["a3"])),
        (-90, np.hypot(PUMA560["a2"] + PUMA560["d4"], PUMA560["a3"])),
    ):
        F = robot.fkine_all(np.radians([0, 0, t3, 0, 0, 0]))
        assert np.linalg.norm(F[4, :3, 3] - F[2, :3, 3]) == pytest.approx(dist, abs=1e-12)
    assert np.hypot(PUMA560["a2"] - PUMA560["d4"], PUMA560["a3"]) < 0.021
