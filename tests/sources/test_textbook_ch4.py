"""Worked examples and exercises of textbook §3.3 (sources/000), the Jacobian notes (004) and the lab
report's per-link Jacobians (001, (2.37)–(2.45)), recomputed.

Each test is named after its example, exercise or equation. Where the printed answer is wrong, the test
asserts the correct value and says what was printed (docs/errata.md lists each one).
"""

import functools

import numpy as np
import pytest
import sympy as sp
from sympy.polys.rings import ring

import armlab
from armlab import jacobians as jb
from armlab.jacobians import differential as dm
from armlab.models import PUMA560, planar2r, puma560, youbot
from support.textbook import EXAMPLE_3_4_J

q_sym = sp.symbols("q1:7")
a2, a3, d2, d4 = sp.symbols("a2 a3 d2 d4")
c = {i: sp.cos(q_sym[i - 1]) for i in range(1, 7)}
s = {i: sp.sin(q_sym[i - 1]) for i in range(1, 7)}
c23, s23 = sp.cos(q_sym[1] + q_sym[2]), sp.sin(q_sym[1] + q_sym[2])


def _trig_zero(expr):
    """expr(q1..q6) is identically zero: sum angles expanded, then reduced modulo cᵢ² + sᵢ² = 1.

    With cᵢ, sᵢ as independent variables these relations are a Gröbner basis (their leading terms
    cᵢ² are coprime), so the remainder is zero exactly when expr is zero as a function. sympy's sparse
    polynomial ring does the expansion (much faster than sp.expand on ^TJ's entries).
    """
    C, S = sp.symbols("C1:7"), sp.symbols("S1:7")
    to_cs = {**{sp.sin(x): v for x, v in zip(q_sym, S)}, **{sp.cos(x): v for x, v in zip(q_sym, C)}}
    e = sp.sympify(expr)
    e = e.xreplace({f: sp.expand_trig(f).xreplace(to_cs) for f in e.atoms(sp.sin, sp.cos)})
    R, *_ = ring([*C, *S, *sorted(e.free_symbols - set(C) - set(S), key=str)], sp.QQ)
    return R.from_expr(e).rem([R(c**2 + s**2 - 1) for c, s in zip(C, S)]) == 0


# --- §3.3.1: the Jacobian maps joint motion to hand motion -----------------------------------------


def test_example_3_4_hand_motion_from_joint_motion():
    J = EXAMPLE_3_4_J
    Dq = np.array([0.1, 0, -0.1, 0, 0, 0.1])
    D = J @ Dq  # (3.57): D = J·Dθ, rows (dx, dy, dz, δx, δy, δz)
    assert np.allclose(D, [0.1 + 2 * 0, -0.1 - 0.1, 0, 0, -0.1, 0.1])
    assert np.allclose(D, [0.1, -0.2, 0, 0, -0.1, 0.1])  # printed answer: right


def test_eq_3_58_jacobian_is_the_derivative_of_the_position_equations():
    # (3.54)–(3.58): ẋ = J(q)·q̇; for the translational rows J = ∂p/∂q, checked on the PUMA560.
    robot = puma560(flange=True)
    q = np.radians([20, -30, 40, 10, 30, 50])
    h = 1e-6
    dp = np.column_stack([(robot.fkine(q + h * e)[:3, 3] - robot.fkine(q - h * e)[:3, 3]) / (2 * h) for e in np.eye(6)])
    assert np.allclose(robot.jacob0(q)[:3], dp, atol=1e-8)


# --- §3.3.2: differential translation, rotation, the operator Δ --------------------------------------


def test_eq_3_60_to_3_63_differential_rotations_commute_to_first_order():
    dx, dy, dz = sp.symbols("delta_x delta_y delta_z")
    eps = sp.Symbol("epsilon")
    Rx = dm.diff_rot([dx, 0, 0])  # (3.60)
    Ry, Rz = dm.diff_rot([0, dy, 0]), dm.diff_rot([0, 0, dz])  # (3.61), (3.62)
    assert Rx == sp.Matrix([[1, 0, 0, 0], [0, 1, -dx, 0], [0, dx, 1, 0], [0, 0, 0, 1]])
    assert Rz[:3, :3] == sp.Matrix([[1, -dz, 0], [dz, 1, 0], [0, 0, 1]])
    # sin δ ≈ δ, cos δ ≈ 1: the exact rotation agrees to first order
    exact = armlab.Rot("x", eps * dx)
    assert (exact - Rx.subs(dx, eps * dx)).applyfunc(lambda e: sp.series(e, eps, 0, 2).removeO()) == sp.zeros(4)
    # (3.63): Rot(x, δx)·Rot(y, δy) = Rot(y, δy)·Rot(x, δx) once δxδy is dropped
    assert (Rx * Ry - Ry * Rx).applyfunc(lambda e: e.subs(dx * dy, 0)) == sp.zeros(4)


def test_eq_3_64_entry_2_1_is_dx_dy_plus_dz():
    # ERRATUM (3.64): entry (2,1) of Rot(x,δx)·Rot(y,δy)·Rot(z,δz) is printed δxδy; the product gives
    # δxδy + δz. Without the δz, (3.65) could not have δz at (2,1).
    dx, dy, dz = sp.symbols("delta_x delta_y delta_z")
    P = dm.diff_rot([dx, 0, 0]) * dm.diff_rot([0, dy, 0]) * dm.diff_rot([0, 0, dz])
    assert P[:3, :3] == sp.Matrix(
        [[1, -dz, dy], [dx * dy + dz, -dx * dy * dz + 1, -dx], [-dy + dx * dz, dx + dy * dz, 1]]
    )  # (3.64) as it should read
    assert P[1, 0] != dx * dy
    first_order = P.applyfunc(
        lambda e: sp.Poly(e, dx, dy, dz).as_expr().subs({dx * dy: 0, dx * dz: 0, dy * dz: 0, dx * dy * dz: 0})
    )
    assert first_order == dm.diff_rot([dx, dy, dz])  # (3.65)


def test_example_3_5_small_rotation_about_three_axes():
    Rq = dm.diff_rot([0.05, 0.1, 0.05])  # (3.65)
    assert np.allclose(Rq, [[1, -0.05, 0.1, 0], [0.05, 1, -0.05, 0], [-0.1, 0.05, 1, 0], [0, 0, 0, 1]])
    # printed answer: right. It is the first-order form of the true rotation R_x·R_y·R_z:
    true = armlab.Rot("x", 0.05) @ armlab.Rot("y", 0.1) @ armlab.Rot("z", 0.05)
    assert np.abs(true - Rq).max() < 0.1**2  # second-order terms only


def test_eq_3_66_to_3_70_delta_operator():
    d, delta = np.array([0.01, -0.02, 0.03]), np.array([0.002, -0.001, 0.003])
    Delta = dm.delta_operator(d, delta)
    # (3.68): Δ = Trans(d)·Rot(k, dθ) − I, to first order
    assert np.allclose(armlab.Trans(*d) @ dm.diff_rot(delta) - np.eye(4), Delta, atol=1e-4)
    assert np.allclose(Delta[:3, :3] @ [1.0, 2.0, 3.0], np.cross(delta, [1.0, 2.0, 3.0]))  # (3.69): S(δ)
    T = armlab.Trans(1, 2, 3) @ armlab.Rot("z", 0.4) @ armlab.Rot("x", -0.7)
    dT = dm.differential_change(T, d, delta)  # (3.67): dT = Δ·T
    R = np.eye(4)
    R[:3, :3] = armlab.axis_angle_to_R(delta, np.linalg.norm(delta))
    T_moved = armlab.Trans(*d) @ R @ T
    assert np.abs(T + dT - T_moved).max() < 1e-4
    # (3.70): the operator about the current frame, with its own ^Td, ^Tδ
    Td, Tdelta = dm.motion_in_frame(T, d, delta)
    assert np.allclose(dm.operator_in_frame(T, Delta), dm.delta_operator(Td, Tdelta), atol=1e-15)


def test_example_3_6_differential_change_of_frame_A():
    A = np.array([[0, 0, 1, 8], [1, 0, 0, 4], [0, 1, 0, 0], [0, 0, 0, 1.0]])
    d, delta = [0.8, 0, 0.6], [0, 0.2, 0]
    Delta = dm.delta_operator(d, delta)  # (3.69)
    assert np.allclose(Delta, [[0, 0, 0.2, 0.8], [0, 0, 0, 0], [-0.2, 0, 0, 0.6], [0, 0, 0, 0]])  # printed: right
    dA = dm.differential_change(A, d, delta)  # dA = Δ·A
    assert np.allclose(dA, [[0, 0.2, 0, 0.8], [0, 0, 0, 0], [0, 0, -0.2, -1], [0, 0, 0, 0]])  # printed: right


# --- §3.3.2 item 5: the same motion seen from another frame, (3.71)–(3.87) ----------------------------


def _random_pose(seed):
    rng = np.random.default_rng(seed)
    T = np.eye(4)
    T[:3, :3], T[:3, 3] = armlab.rpy_to_R(*rng.uniform(-3, 3, 3)), rng.uniform(-1, 1, 3)
    return T


def test_eq_3_71_to_3_84_motion_in_frame():
    T = _random_pose(71)
    n, o, a, p = T[:3, 0], T[:3, 1], T[:3, 2], T[:3, 3]
    d, delta = np.array([0.3, -0.2, 0.5]), np.array([0.1, 0.4, -0.3])
    TDelta = np.linalg.inv(T) @ dm.delta_operator(d, delta) @ T  # (3.71)
    Td, Tdelta = dm.motion_in_frame(T, d, delta)
    assert np.allclose(Tdelta, [delta @ n, delta @ o, delta @ a])  # (3.80), (3.84)
    assert np.allclose(Td, [delta @ np.cross(p, v) + d @ v for v in (n, o, a)])  # (3.81)
    assert np.allclose(Td, [v @ (np.cross(delta, p) + d) for v in (n, o, a)])  # (3.83)
    assert np.allclose(TDelta, dm.delta_operator(Td, Tdelta))  # (3.70) = (3.79), entry by entry
    # (3.72): the inverse in n, o, a, p form
    assert np.allclose(np.linalg.inv(T)[:3], np.column_stack([T[:3, :3].T, -T[:3, :3].T @ p]))


def test_eq_3_74_second_row_is_dz_nx_minus_dx_nz():
    # ERRATUM (3.74): the second row of Δ·T is printed δz·n_x + δx·n_z (likewise for o, a, p); row 2 of Δ is
    # (δz, 0, −δx, dy), so it is δz·n_x − δx·n_z = (δ × n)_y, as (3.75) says.
    T = _random_pose(74)
    d, delta = np.array([0.3, -0.2, 0.5]), np.array([0.1, 0.4, -0.3])
    DT = dm.delta_operator(d, delta) @ T
    for j in range(3):
        v = T[:3, j]
        assert DT[1, j] == pytest.approx(delta[2] * v[0] - delta[0] * v[2])
        assert DT[1, j] == pytest.approx(np.cross(delta, v)[1])  # (3.75)
        assert DT[1, j] != pytest.approx(delta[2] * v[0] + delta[0] * v[2])  # as printed
    assert np.allclose(DT[:3, 3], np.cross(delta, T[:3, 3]) + d)


def test_eq_3_82_3_85_six_by_six_map():
    T = _random_pose(82)
    R, p = T[:3, :3], T[:3, 3]
    M = dm.motion_map(T)
    rows = [np.r_[v, np.cross(p, v)] for v in R.T] + [np.r_[np.zeros(3), v] for v in R.T]
    assert np.allclose(M, rows)  # (3.82): rows (n, p×n), (o, p×o), (a, p×a), (0, n), (0, o), (0, a)
    S = armlab.skew(p)
    assert np.allclose(M, np.block([[R.T, -R.T @ S], [np.zeros((3, 3)), R.T]]))  # (3.85)
    d, delta = np.array([0.3, -0.2, 0.5]), np.array([0.1, 0.4, -0.3])
    assert np.allclose(M @ np.r_[d, delta], np.concatenate(dm.motion_in_frame(T, d, delta)))


def test_eq_3_86_R_is_n_o_a():
    # ERRATUM (3.86): R is printed [[nx, nx, ax], [ny, nz, ay], [nz, oz, az]]; R = [n o a] (3.31), whose
    # first row is (nx, ox, ax) and second (ny, oy, ay). The printed matrix is not even a rotation.
    T = _random_pose(86)
    n, o, a = T[:3, 0], T[:3, 1], T[:3, 2]
    R = np.column_stack([n, o, a])
    assert np.allclose(dm.motion_map(T)[:3, :3], R.T) and np.isclose(np.linalg.det(R), 1)
    printed = np.array([[n[0], n[0], a[0]], [n[1], n[2], a[1]], [n[2], o[2], a[2]]])
    assert not np.allclose(printed.T @ printed, np.eye(3), atol=1e-3)


def test_eq_3_87_S_p_first_row_is_0_minus_pz_py():
    # ERRATUM (3.87): S(p)'s first row is printed (0, −px, py); it is (0, −pz, py), so that S(p)·v = p × v
    # and S(p) is skew-symmetric (the printed S(p) + S(p)ᵀ has −px + pz at (1,2)).
    px, py, pz = sp.symbols("p_x p_y p_z")
    S = sp.Matrix([[0, -pz, py], [pz, 0, -px], [-py, px, 0]])
    v = sp.Matrix(sp.symbols("v1:4"))
    assert S * v == sp.Matrix([px, py, pz]).cross(v) and S + S.T == sp.zeros(3)
    assert sp.Matrix(armlab.skew([px, py, pz])) == S
    printed = sp.Matrix([[0, -px, py], [pz, 0, -px], [-py, px, 0]])
    assert printed + printed.T != sp.zeros(3) and printed * v != sp.Matrix([px, py, pz]).cross(v)


def test_example_3_7_motion_about_frame_A():
    A = np.array([[0, 0, 1, 8], [1, 0, 0, 4], [0, 1, 0, 0], [0, 0, 0, 1.0]])
    d, delta = np.array([0.8, 0, 0.6]), np.array([0, 0.2, 0])
    assert np.allclose(np.cross(delta, A[:3, 3]), [0, 0, -1.6])  # printed δ×p: right
    assert np.allclose(np.cross(delta, A[:3, 3]) + d, [0.8, 0, -1])  # printed: right
    Ad, Adelta = dm.motion_in_frame(A, d, delta)  # (3.83)–(3.84)
    assert np.allclose(Ad, [0, -1, 0.8]) and np.allclose(Adelta, [0.2, 0, 0])  # printed: right
    ADelta = dm.delta_operator(Ad, Adelta)  # (3.70)
    assert np.allclose(ADelta, [[0, 0, 0, 0], [0, 0, -0.2, -1], [0, 0.2, 0, 0.8], [0, 0, 0, 0]])  # printed: right
    # the check dA = A·^AΔ reproduces Example 3.6's dA = Δ·A
    assert np.allclose(A @ ADelta, dm.differential_change(A, d, delta))


# --- §3.3.3: the Jacobian by differential transforms, Example 3.8 ------------------------------------


def test_eq_3_89_3_91_last_row_is_T_delta_z():
    # ERRATUM (3.89), (3.91): the left-hand vector is printed (Tdx, Tdy, Tdz, Tδx, Tδy, Tδy); the last entry
    # is Tδz. For a revolute joint the hand's rotation about its own z axis is a_z·dθ (3.89), and it is
    # the sixth row of the column.
    robot = puma560()
    q = np.radians([20, -30, 40, 10, 30, 50])
    T16 = np.linalg.inv(robot.fkine_all(q)[1]) @ robot.fkine(q)  # ¹T₆: joint 1's frame to the tool
    Td, Tdelta = dm.motion_in_frame(T16, [0, 0, 0], [0, 0, 1.0])  # (3.88): δ = (0, 0, 1)·dθ1
    n, o, a, p = T16[:3, 0], T16[:3, 1], T16[:3, 2], T16[:3, 3]
    assert np.allclose(Td, [np.cross(p, n)[2], np.cross(p, o)[2], np.cross(p, a)[2]])
    assert np.allclose(Tdelta, [n[2], o[2], a[2]])
    assert np.allclose(robot.jacobe(q)[:, 0], np.r_[Td, Tdelta])
    Tdelta_z = Tdelta[2]
    assert Tdelta_z == pytest.approx(a[2]) and Tdelta_z != pytest.approx(Tdelta[1])


def test_eq_3_92_3_93_columns_build_the_jacobian():
    # Step (3) of the procedure points to (3.90)–(3.91) for the columns; they come from (3.92)–(3.93).
    # The recipe on a robot with a prismatic joint: columns from ^iT_n (modified DH) equal jacobe.
    robot = armlab.models.stanford_arm()
    q = np.array([0.3, -0.5, 0.4, 0.2, 0.7, -0.1])
    frames, Tn = robot.fkine_all(q), robot.fkine(q)
    cols = []
    for i, link in enumerate(robot.links):
        U = np.linalg.inv(frames[i + 1]) @ Tn  # ^iT_n
        n, o, a, p = U[:3, 0], U[:3, 1], U[:3, 2], U[:3, 3]
        if link.revolute:  # (3.92)
            cols.append([np.cross(p, n)[2], np.cross(p, o)[2], np.cross(p, a)[2], n[2], o[2], a[2]])
        else:  # (3.93)
            cols.append([n[2], o[2], a[2], 0, 0, 0])
    assert "P" in robot.joint_types and robot.modified
    assert np.allclose(np.array(cols).T, robot.jacobe(q), atol=1e-12)
    assert np.allclose(np.array(cols).T, jb.jacob_differential(robot, q), atol=1e-12)


P = a2 * c[2] + a3 * c23 - d4 * s23  # ¹p_x of (3.30), the factor that recurs in ^TJ1
C456, S456 = c[4] * c[5] * c[6] - s[4] * s[6], c[4] * c[5] * s[6] + s[4] * c[6]
# Example 3.8 as printed, with the brackets the extraction lost put back (d2[...], a2[...]).
PRINTED_3_94_TO_3_99 = [
    [
        -d2 * (c23 * C456 - s23 * s[5] * c[6]) - P * (s[4] * c[5] * c[6] + c[4] * s[6]),
        -d2 * (-c23 * S456 + s23 * s[5] * s[6]) + P * (s[4] * c[5] * s[6] - c[4] * c[6]),
        d2 * (c23 * c[5] * s[5] + s23 * c[5]) + P * s[4] * s[5],
        -s23 * C456 - c23 * s[5] * c[6],
        s23 * S456 + c23 * s[5] * c[6],
        -s23 * c[4] * s[5] - c23 * c[5],
    ],
    [
        a3 * s[5] * c[6] - d4 * C456 + a2 * (s[3] * C456 + c[3] * s[5] * c[6]),
        -a3 * s[5] * s[6] - d4 * (-S456) + a2 * (s[3] * (-S456) + c[3] * s[5] * s[6]),
        a3 * c[6] + d4 * c[4] * s[5] + a2 * (-s[3] * c[4] * s[5] + c[3] * c[6]),
        -s[4] * c[5] * c[6] - c[4] * s[6],
        s[4] * c[5] * s[6] - c[4] * c[6],
        s[4] * s[5],
    ],
    [
        -d4 * C456 + a3 * s[5] * c[6],
        d4 * S456 - a3 * s[5] * s[6],
        d4 * c[4] * s[5] + a3 * c[6],
        -s[4] * c[5] * c[6] - c[4] * s[6],
        s[4] * c[5] * s[6] - c[4] * c[6],
        s[4] * s[5],
    ],
    [0, 0, 0, s[5] * c[6], -s[5] * s[6], c[5]],
    [0, 0, 0, -s[6], -c[6], 0],
    [0, 0, 0, 0, 0, 1],
]
# The misprints, (column, row) → what it should be; every other printed entry is right.
CORRECTIONS_3_94_TO_3_99 = {
    (1, 3): d2 * (c23 * c[4] * s[5] + s23 * c[5]) + P * s[4] * s[5],  # TJ1z: c23c4s5, printed c23c5s5
    (1, 5): s23 * S456 + c23 * s[5] * s[6],  # TJ1 ω_y: c23s5s6 (= ¹o_z of (3.30)), printed c23s5c6
    (1, 6): s23 * c[4] * s[5] - c23 * c[5],  # TJ1 ω_z: +s23c4s5 (= ¹a_z of (3.30)), printed −s23c4s5
    (2, 2): -a3 * s[5] * s[6] - d4 * (-S456) + a2 * (s[3] * (-S456) - c[3] * s[5] * s[6]),  # TJ2y: −c3s5s6
    (2, 3): a3 * c[5] + d4 * c[4] * s[5] + a2 * (-s[3] * c[4] * s[5] + c[3] * c[5]),  # TJ2z: a3c5, c3c5
    (3, 3): d4 * c[4] * s[5] + a3 * c[5],  # TJ3z: a3c5, printed a3c6
}


@functools.cache
def _puma_TJ():
    return jb.jacob_differential(puma560(symbolic=True), q_sym)


@functools.cache
def _book_recipe_TJ():
    """^TJ by the book's own steps (1)–(3) of §3.3.3 on the link matrices printed after Table 3.2."""
    robot = puma560(symbolic=True)
    A = [robot.link_transform(i, q_sym[i - 1]) for i in range(1, 7)]
    U = [sp.eye(4)] * 7  # U[i] = ^iT_6
    for i in range(5, -1, -1):
        U[i] = A[i] * U[i + 1]
    cols = []
    for i in range(1, 7):
        n, o, a, p = (U[i][:3, k] for k in range(4))
        cols.append([p.cross(n)[2], p.cross(o)[2], p.cross(a)[2], n[2], o[2], a[2]])  # (3.92)
    return sp.Matrix(cols).T


@pytest.mark.parametrize("col", range(1, 7))
def test_example_3_8_puma560_columns_3_94_to_3_99(col):
    TJ, recipe = _puma_TJ(), _book_recipe_TJ()
    for row in range(1, 7):
        printed = PRINTED_3_94_TO_3_99[col - 1][row - 1]
        correct = CORRECTIONS_3_94_TO_3_99.get((col, row), printed)
        assert _trig_zero(TJ[row - 1, col - 1] - correct), f"^TJ{col}, row {row}"
        assert _trig_zero(recipe[row - 1, col - 1] - correct), f"recipe ^TJ{col}, row {row}"
        if (col, row) in CORRECTIONS_3_94_TO_3_99:  # the printed entry really is a different function
            assert not _trig_zero(TJ[row - 1, col - 1] - printed), f"^TJ{col}, row {row}"


def test_example_3_8_eq_3_94_omega_part_is_the_z_row_of_T16():
    # ERRATUM (3.94): TJ1's ω part is printed (…, s23(c4c5s6 + s4c6) + c23s5c6, −s23c4s5 − c23c5). By (3.92)
    # it is (¹n_z, ¹o_z, ¹a_z) of ¹T₆, which (3.30) prints correctly: ¹o_z ends in c23s5s6, ¹a_z = s23c4s5 − c23c5.
    robot = puma560(symbolic=True)
    T16 = functools.reduce(sp.Matrix.__mul__, [robot.link_transform(i, q_sym[i - 1]) for i in range(2, 7)])
    TJ = _puma_TJ()
    for row, k in ((3, 0), (4, 1), (5, 2)):
        assert _trig_zero(TJ[row, 0] - T16[2, k])
    assert not _trig_zero(TJ[4, 0] - PRINTED_3_94_TO_3_99[0][4])
    assert not _trig_zero(TJ[5, 0] - PRINTED_3_94_TO_3_99[0][5])
    # numerically, at a generic pose, both printed entries are off
    robot, qn = puma560(), np.radians([20, -30, 40, 10, 30, 50])
    lengths = {a2: PUMA560["a2"], a3: PUMA560["a3"], d2: PUMA560["d2"], d4: PUMA560["d4"]}
    book = sp.lambdify([q_sym], [PRINTED_3_94_TO_3_99[0][4].subs(lengths), PRINTED_3_94_TO_3_99[0][5]])
    assert np.abs(np.array(book(qn)) - robot.jacobe(qn)[4:6, 0]).min() > 0.05


def test_example_3_8_eq_3_95_3_96_z_rows_have_a3c5():
    # ERRATA (3.94)–(3.96), the translational z rows, (p × a)_z of ^iT_6: TJ1z has d2·c23c4s5 (printed c23c5s5);
    # TJ2y ends in a2[s3(…) − c3s5s6] (printed +c3s5s6); TJ2z and TJ3z have a3c5 and a2c3c5 (printed a3c6, c3c6).
    robot, qn = puma560(), np.radians([20, -30, 40, 10, 30, 50])
    Je = robot.jacobe(qn)
    lengths = {a2: PUMA560["a2"], a3: PUMA560["a3"], d2: PUMA560["d2"], d4: PUMA560["d4"]}
    for (col, row), correct in CORRECTIONS_3_94_TO_3_99.items():
        f = sp.lambdify([q_sym], correct.subs(lengths))
        assert f(qn) == pytest.approx(Je[row - 1, col - 1], abs=1e-12)
        g = sp.lambdify([q_sym], PRINTED_3_94_TO_3_99[col - 1][row - 1].subs(lengths))
        assert g(qn) != pytest.approx(Je[row - 1, col - 1], abs=1e-4)
    # TJ3z = (p × a)_z of ³T₆ with p = (a3, d4, 0) and a = (−c4s5, c5, s4s5), (3.27)
    assert sp.expand(a3 * c[5] - d4 * (-c[4] * s[5]) - (d4 * c[4] * s[5] + a3 * c[5])) == 0


def test_example_3_8_three_methods_equal_symbolically():
    robot = puma560(symbolic=True)
    TJ = _puma_TJ()
    R06 = robot.fkine(q_sym)[:3, :3]
    for J in (jb.jacob_velocity(robot, q_sym, frame="tool"), jb.jacob_geometric(robot, q_sym, frame="tool")):
        assert all(_trig_zero(e) for e in (J - TJ))
    J0 = jb.jacob_velocity(robot, q_sym)
    assert all(_trig_zero(e) for e in (jb.frame_change(TJ, R06) - J0))


# --- exercises 6 and 7 -------------------------------------------------------------------------------


def test_exercise_6_joint_rates_by_each_method_and_the_printed_pose():
    # 2R, l1 = l2 = 0.5 m, θ = (30°, 60°), hand along +X0 at 1 m/s. See also test_textbook_ch3.py.
    robot = planar2r(0.5, 0.5)
    for theta2, expected in ((60, [0.0, -2.0]), (-60, [-2.0, 4.0])):  # stated θ2; the printed answer's θ2
        q = np.radians([30, theta2])
        for J in (robot.jacob0(q), jb.jacob_velocity(robot, q), jb.jacob_geometric(robot, q)):
            assert np.allclose(np.linalg.solve(J[:2], [1.0, 0.0]), expected, atol=1e-12)
    # ERRATUM (answer): "30°, −60°; −2 rad/s, 4 rad/s" solves θ2 = −60°; at the stated θ2 = 60° it is (0, −2).
    # θ̇1 = 0 there: θ1 + θ2 = 90° puts link 2 straight up, so joint 2 alone moves the hand along x
    # (column 2 of J is (−l2, 0)), while joint 1 would also move it along y.
    J = robot.jacob0(np.radians([30, 60]))
    assert np.allclose(J[:2, 1], [-0.5, 0.0], atol=1e-15) and abs(J[1, 0]) > 0.4


T_EX7 = np.array([[0, 1, 0, 2], [1, 0, 0, 2], [0, 0, -1, 5], [0, 0, 0, 1.0]])
JINV_EX7 = np.array(
    [
        [4, 0, 0, 0, 0, 0],
        [1, 0, -1, 0, 0, 0],
        [0, -0.2, 0, 0, 0, 0],
        [0, -0.5, 0, 0, 1, 0],
        [0, 0, 0, 1, 0, 0],
        [1, 0, 0, 0, 0, 1],
    ],
    float,
)


def exercise_7(D, T=T_EX7, Jinv=JINV_EX7):
    """Exercise 7 for a hand motion D = (dx, dy, dz, δx, δy, δz) about the base frame, Paul's (d, δ) in all
    four parts (so J⁻¹ is the inverse of Paul's base-frame J, whose d is the motion of the point at the base
    origin): (1) Dθ = J⁻¹·D; (2) dT = Δ·T (3.67); (3) T + dT; (4) ^TD, the same motion about the frame T (3.82)."""
    D = np.asarray(D, float)
    Dq = Jinv @ D
    dT = dm.differential_change(T, D[:3], D[3:])
    return Dq, dT, T + dT, dm.motion_map(T) @ D


def test_exercise_7_differential_motion():
    """(1) asks which joint (哪一个关节), one: Dθ = J⁻¹D has a single nonzero entry exactly when D is a multiple of
    a column of J. The extraction has T and J⁻¹ but not D (and no printed answer, "略"); chapter 04 answers for
    joint 3 alone turning by 0.02 rad. Niku's D = (0.05, 0, −0.1, 0, 0.1, 0.03), which goes with this T and
    J⁻¹ in his "Introduction to Robotics", moves four joints: it is not this exercise's D."""
    J = np.linalg.inv(JINV_EX7)
    for k in range(6):  # each column of J moves its joint alone
        np.testing.assert_allclose(JINV_EX7 @ (0.1 * J[:, k]), 0.1 * np.eye(6)[k], atol=1e-12)
    D = 0.02 * J[:, 2]
    np.testing.assert_allclose(D, [0, -0.1, 0, 0, -0.05, 0], atol=1e-12)
    Dq, dT, T_new, TD = exercise_7(D)
    np.testing.assert_allclose(Dq, [0, 0, 0.02, 0, 0, 0], atol=1e-12)  # (1): joint 3 alone, 0.02 rad
    np.testing.assert_allclose(dT, [[0, 0, 0.05, -0.25], [0, 0, 0, -0.1], [0, 0.05, 0, 0.1], [0, 0, 0, 0]], atol=1e-12)
    np.testing.assert_allclose(
        T_new, [[0, 1, 0.05, 1.75], [1, 0, 0, 1.9], [0, 0.05, -1, 5.1], [0, 0, 0, 1]], atol=1e-12
    )
    np.testing.assert_allclose(TD, [-0.1, -0.25, -0.1, -0.05, 0, 0], atol=1e-12)  # (4): Rᵀ(δ×p + d), Rᵀδ
    assert np.allclose(T_EX7 @ dm.delta_operator(TD[:3], TD[3:]), dT)  # (3.71): T·^TΔ = Δ·T
    # the two D's differ: Paul's d moves the hand's origin by d + δ × p, jacob0's D[:3] is that motion itself
    assert not np.allclose(dT[:3, 3], D[:3])
    # Niku's D moves joints 1, 2, 4 and 6
    niku = np.array([0.05, 0, -0.1, 0, 0.1, 0.03])
    np.testing.assert_allclose(JINV_EX7 @ niku, [0.2, 0.15, 0, 0.1, 0, 0.08], atol=1e-12)
    # the new frame is rigid only to first order
    R_new = T_new[:3, :3]
    assert 0 < np.abs(R_new.T @ R_new - np.eye(3)).max() < 0.01
    # each part is linear in D
    D2 = np.array([0.01, -0.02, 0.03, 0.002, 0.0, -0.001])
    assert all(
        np.allclose(x + y, z) for x, y, z in zip(exercise_7(D)[::3], exercise_7(D2)[::3], exercise_7(D + D2)[::3])
    )


# --- notes 004: velocity propagation on the 2R arm -----------------------------------------------------


def _arm_004():
    l1, l2 = sp.symbols("l1 l2", positive=True)
    return (
        armlab.DHRobot([armlab.DHLink(), armlab.DHLink(a=l1)], convention="modified", tool=armlab.Trans(l2, 0, 0)),
        l1,
        l2,
    )


def test_notes_004_second_3omega3_is_3v3():
    # ERRATUM (004): after "³ω₃ = ²ω₂" the notes print "³ω₃ = (l1s2θ̇1, l1c2θ̇1 + l2(θ̇1 + θ̇2), 0)": that vector
    # is ³v₃, the tip's linear velocity; ³ω₃ = (0, 0, θ̇1 + θ̇2).
    arm, l1, l2 = _arm_004()
    t1, t2, w1, w2 = sp.symbols("theta1 theta2 thetadot1 thetadot2")
    *_, (_, w3, v3) = jb.velocity_propagation(arm, [t1, t2], [w1, w2])
    printed = sp.Matrix([l1 * sp.sin(t2) * w1, l1 * sp.cos(t2) * w1 + l2 * (w1 + w2), 0])
    assert sp.simplify(v3 - printed) == sp.zeros(3, 1)
    assert w3 == sp.Matrix([0, 0, w1 + w2])


def test_notes_004_2_1_R_has_1_in_the_corner():
    # ERRATUM (004): in ²v₂ = ²₁R·(0, l1θ̇1, 0) the rotation is printed [[c2, s2, 0], [−s2, c2, 0], [0, 0, 0]];
    # ²₁R = (¹₂R)ᵀ has 1 at (3,3). The product is unaffected (the vector's z is 0), but the printed matrix is singular.
    arm, l1, _ = _arm_004()
    t1, t2, w1, w2 = sp.symbols("theta1 theta2 thetadot1 thetadot2")
    R21 = arm.link_transform(2, t2)[:3, :3].T
    assert R21 == sp.Matrix([[sp.cos(t2), sp.sin(t2), 0], [-sp.sin(t2), sp.cos(t2), 0], [0, 0, 1]])
    printed = sp.Matrix([[sp.cos(t2), sp.sin(t2), 0], [-sp.sin(t2), sp.cos(t2), 0], [0, 0, 0]])
    assert printed.det() == 0 and sp.simplify(R21.det()) == 1
    v2 = jb.velocity_propagation(arm, [t1, t2], [w1, w2])[2][2]
    assert sp.simplify(v2 - R21 * sp.Matrix([0, l1 * w1, 0])) == sp.zeros(3, 1)


def test_notes_004_jacobian_frame_change():
    # ^AJ = diag(^A_BR, ^A_BR)·^BJ: the tool-frame Jacobian taken to the base is jacob0.
    robot = puma560()
    q = np.radians([20, -30, 40, 10, 30, 50])
    assert np.allclose(jb.frame_change(robot.jacobe(q), robot.fkine(q)[:3, :3]), robot.jacob0(q), atol=1e-12)


def test_notes_004_jacobe_is_the_tool_frame_jacobian():
    # ERRATUM (004, MATLAB part): "Jn = jaconb(qn);" — the call is p560.jacobe(qn), the Jacobian in the
    # end-effector frame (jacob0 is the world frame). Ours: robot.jacobe, equal to Rᵀ-rotated jacob0.
    robot = puma560()
    qn = np.array([0, np.pi / 4, np.pi, 0, np.pi / 4, 0])  # RTB's "nominal" qn, in its own angle convention
    R = robot.fkine(qn)[:3, :3]
    assert np.allclose(robot.jacobe(qn), jb.frame_change(robot.jacob0(qn), R.T), atol=1e-12)
    assert not hasattr(robot, "jaconb")


# --- lab report §2.2: per-link Jacobians (2.37)–(2.45) ----------------------------------------------


def _report_link_jacobians(robot, q, last_origin):
    """(2.38)–(2.45) as printed, with J_v5's last column z₄ × (r₅ − r_{last_origin})."""
    F = robot.fkine_all(q)
    z, r = F[:, :3, 2], F[:, :3, 3]
    out = []
    for i in range(1, 6):
        Jv = np.zeros((3, 5))
        Jw = np.zeros((3, 5))
        for j in range(i):
            origin = last_origin if (i, j) == (5, 4) else j
            Jv[:, j] = np.cross(z[j], r[i] - r[origin])
            Jw[:, j] = z[j]
        out.append(np.vstack([Jv, Jw]))
    return np.array(out)


def test_eq_2_41_Jv5_last_column_uses_r4():
    # ERRATUM (2.41): J_v5's last column is printed z₄⁰ × (r₀,₅ − r₀,₃); the pattern of (2.38)–(2.41) gives
    # z₄⁰ × (r₀,₅ − r₀,₄). On the youBot they are equal, because frames 3 and 4 share their origin (a4 = d4 = 0).
    robot = youbot()
    q = np.array([0.3, 0.4, -0.8, 1.0, 0.2])
    ours = jb.link_jacobians(robot, q)
    assert np.allclose(_report_link_jacobians(robot, q, last_origin=4), ours, atol=1e-12)  # (2.37)–(2.45)
    assert np.allclose(_report_link_jacobians(robot, q, last_origin=3), ours, atol=1e-12)  # harmless here
    F = robot.fkine_all(q)
    assert np.allclose(F[3, :3, 3], F[4, :3, 3])
    # on an arm whose frames 3 and 4 are apart, the printed column is wrong
    other = armlab.DHRobot(
        [
            armlab.DHLink(a=l.a, alpha=l.alpha, d=l.d + (0.1 if i == 3 else 0.0), offset=l.offset)
            for i, l in enumerate(robot.links)
        ]
    )
    assert np.allclose(_report_link_jacobians(other, q, 4), jb.link_jacobians(other, q), atol=1e-12)
    assert not np.allclose(_report_link_jacobians(other, q, 3), jb.link_jacobians(other, q), atol=1e-3)
    assert np.allclose(ours[-1], robot.jacob0(q), atol=1e-12)  # J_5 is the arm's Jacobian at the tool


def test_eq_2_43_Jw1_Jw2_have_five_columns():
    # (2.43) as extracted: J_ω1 = [z₀⁰ 0 0 0] and J_ω2 = [z₀⁰ z₁⁰ 0 0] have four columns; with q̇ ∈ R⁵ (2.42)
    # they have five, like J_ω3–J_ω5 (2.44)–(2.45) and J_v1, J_v2 (2.38)–(2.39).
    robot = youbot()
    q = np.array([0.3, 0.4, -0.8, 1.0, 0.2])
    J = jb.link_jacobians(robot, q)
    z = robot.fkine_all(q)[:, :3, 2]
    assert J.shape == (5, 6, 5)
    assert np.allclose(J[0, 3:], np.column_stack([z[0]] + [np.zeros(3)] * 4))
    assert np.allclose(J[1, 3:], np.column_stack([z[0], z[1]] + [np.zeros(3)] * 3))


def test_eq_3_82_maps_pauls_base_jacobian_not_jacob0_to_the_tool_frame():
    # (3.82) converts a motion (d, δ) about the base frame, d the velocity of the point at the base origin.
    # jacob0's rows are the tool point's velocity ṗ = d + δ × p, so it needs diag(Rᵀ, Rᵀ) instead.
    robot = puma560()
    q = np.radians([20, -30, 40, 10, 30, 50])
    T, J0, Je = robot.fkine(q), robot.jacob0(q), robot.jacobe(q)
    J_paul = np.vstack([J0[:3] - np.cross(J0[3:].T, T[:3, 3]).T, J0[3:]])  # d = ṗ − δ × p
    assert np.allclose(dm.motion_map(T) @ J_paul, Je, atol=1e-12)
    assert np.allclose(jb.frame_change(J0, T[:3, :3].T), Je, atol=1e-12)
    assert not np.allclose(dm.motion_map(T) @ J0, Je, atol=1e-3)
