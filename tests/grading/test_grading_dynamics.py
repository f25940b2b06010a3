"""armlab.grading.dynamics: the hw06 checkers pass right answers, fail wrong ones naming the mistake (the
factor ½, Coriolis counted once, the gravity sign, angles from the horizontal, ...), and their plain-math
references agree with armlab.dynamics (Lagrange and RNE) on Example 3.9's arm."""

from pathlib import Path

import nbformat
import numpy as np
import pytest

from armlab import dynamics as dy
from armlab.dynamics.rne import rne_steps
from armlab.grading import dynamics as g
from armlab.kinematics.scalar import NumpyBackend
from armlab.models import planar2r

from support.verdicts import raises_verdict

pytestmark = pytest.mark.homework("hw06_dynamics")  # its checkers

REPO = Path(__file__).resolve().parents[2]


# --- right answers (as in solutions/hw06) ---------------------------------------------------------
def K_ok(q, qd, m1, m2, d1, d2):
    return (
        0.5 * (m1 + m2) * d1**2 * qd[0] ** 2
        + 0.5 * m2 * d2**2 * (qd[0] + qd[1]) ** 2
        + m2 * d1 * d2 * np.cos(q[1]) * (qd[0] ** 2 + qd[0] * qd[1])
    )


def h_ok(q, qd, m1, m2, d1, d2):
    k = m2 * d1 * d2 * np.sin(q[1])
    return np.array([-k * (qd[1] ** 2 + 2 * qd[0] * qd[1]), k * qd[0] ** 2])


def G_ok(q, m1, m2, d1, d2, g):
    s12 = np.sin(q[0] + q[1])
    return np.array([(m1 + m2) * g * d1 * np.sin(q[0]) + m2 * g * d2 * s12, m2 * g * d2 * s12])


def step_ok(R, P, w, wd, vd, qd, qdd):
    z = np.array([0.0, 0.0, 1.0])
    w1 = R.T @ w + qd * z
    wd1 = R.T @ wd + np.cross(R.T @ w, qd * z) + qdd * z
    vd1 = R.T @ (np.cross(wd, P) + np.cross(w, np.cross(w, P)) + vd)
    return w1, wd1, vd1


def M_ok(q, m1, m2, d1, d2):
    c2 = np.cos(q[1])
    D12 = m2 * (d2**2 + d1 * d2 * c2)
    return np.array([[(m1 + m2) * d1**2 + m2 * d2**2 + 2 * m2 * d1 * d2 * c2, D12], [D12, m2 * d2**2]])


def spd_ok(M, tol=1e-9):
    M = np.asarray(M, dtype=float)
    eps = tol * np.abs(M).max()
    return bool(np.abs(M - M.T).max() <= eps and np.linalg.eigvalsh((M + M.T) / 2).min() > eps)


CHECKS = [
    (g.check_kinetic_energy_function, K_ok),
    (g.check_velocity_torques_function, h_ok),
    (g.check_gravity_function, G_ok),
    (g.check_outward_step_function, step_ok),
    (g.check_mass_matrix_function, M_ok),
    (g.check_spd_function, spd_ok),
]


@pytest.mark.parametrize("check, fn", CHECKS, ids=[c.__name__ for c, _ in CHECKS])
def test_right_answers_pass(check, fn):
    check(fn, seed=6, n=80)


def fails(check, fn, match):
    with raises_verdict(match):
        check(fn, seed=7, n=10)


def test_kinetic_energy_names_the_mistake():
    c = g.check_kinetic_energy_function
    fails(c, lambda *a: 2 * K_ok(*a), "missing the factor ½")
    fails(
        c,
        lambda q, qd, m1, m2, d1, d2: 0.5 * (m1 + m2) * d1**2 * qd[0] ** 2 + 0.5 * m2 * d2**2 * (qd[0] + qd[1]) ** 2,
        "cross term of v2² is missing",
    )
    fails(
        c,
        lambda q, qd, m1, m2, d1, d2: (
            K_ok(q, qd, m1, m2, d1, d2) - 0.5 * m2 * d1 * d2 * np.cos(q[1]) * (qd[0] ** 2 + qd[0] * qd[1])
        ),
        "half what it should be",
    )
    fails(
        c,
        lambda q, qd, m1, m2, d1, d2: (
            0.5 * (m1 + m2) * d1**2 * qd[0] ** 2
            + 0.5 * m2 * d2**2 * qd[1] ** 2
            + m2 * d1 * d2 * np.cos(q[1] - q[0]) * qd[0] * qd[1]
        ),
        "θ2 taken as link 2's absolute angle",
    )
    fails(
        c,
        lambda q, qd, m1, m2, d1, d2: K_ok(q, qd, m1, m2, d1, d2) - 0.5 * m2 * d1**2 * qd[0] ** 2,
        "m2 moves with link 1 too",
    )
    fails(c, lambda *a: [K_ok(*a), 0.0], "expected one number")
    fails(c, lambda *a: None, "forget to `return`")


def test_velocity_torques_names_the_mistake():
    c = g.check_velocity_torques_function

    def once(q, qd, m1, m2, d1, d2):
        k = m2 * d1 * d2 * np.sin(q[1])
        return np.array([-k * (qd[1] ** 2 + qd[0] * qd[1]), k * qd[0] ** 2])

    fails(c, once, "Coriolis counted once instead of twice")
    fails(c, lambda *a: -h_ok(*a), "sign flipped")
    fails(c, lambda *a: h_ok(*a) * [1, -1], "D211 has the wrong sign")
    fails(
        c,
        lambda q, qd, m1, m2, d1, d2: np.array([-2 * m2 * d1 * d2 * np.sin(q[1]) * qd[0] * qd[1], 0.0]),
        "centripetal terms are missing",
    )


def test_gravity_names_the_mistake():
    c = g.check_gravity_function
    fails(c, lambda *a: -G_ok(*a), "gravity sign")
    fails(
        c,
        lambda q, m1, m2, d1, d2, gg: G_ok([q[0] + np.pi / 2, q[1]], m1, m2, d1, d2, gg),
        "angles measured from the horizontal",
    )
    fails(
        c,
        lambda q, m1, m2, d1, d2, gg: G_ok(q, m1, m2, d1, d2, gg) - [m2 * gg * d1 * np.sin(q[0]), 0],
        "joint 1 holds m2 too",
    )
    fails(
        c,
        lambda q, m1, m2, d1, d2, gg: np.array(
            [(m1 + m2) * gg * d1 * np.sin(q[0]) + m2 * gg * d2 * np.sin(q[1]), m2 * gg * d2 * np.sin(q[1])]
        ),
        "θ2 taken as absolute",
    )


def test_outward_step_names_the_mistake():
    c = g.check_outward_step_function
    z = np.array([0.0, 0.0, 1.0])

    def no_cross(R, P, w, wd, vd, qd, qdd):
        w1, _, vd1 = step_ok(R, P, w, wd, vd, qd, qdd)
        return w1, R.T @ wd + qdd * z, vd1

    def no_centripetal(R, P, w, wd, vd, qd, qdd):
        w1, wd1, _ = step_ok(R, P, w, wd, vd, qd, qdd)
        return w1, wd1, R.T @ (np.cross(wd, P) + vd)

    def frame_i(R, P, w, wd, vd, qd, qdd):
        w1, wd1, _ = step_ok(R, P, w, wd, vd, qd, qdd)
        return w1, wd1, np.cross(wd, P) + np.cross(w, np.cross(w, P)) + vd

    fails(c, no_cross, r"ω̇ misses \(Rᵀω\) × θ̇ẑ")
    fails(c, no_centripetal, "centripetal term")
    fails(c, lambda R, *a: step_ok(R.T, *a), "rotated the wrong way")
    fails(c, frame_i, r"v̇ left in frame \{i\}")
    fails(c, lambda *a: np.zeros(4), "expected the three 3-vectors")


def test_mass_matrix_names_the_mistake():
    c = g.check_mass_matrix_function
    fails(c, lambda *a: np.triu(M_ok(*a)), "not symmetric")
    fails(c, lambda *a: M_ok(*a) / 2, "missing the factor 2")
    fails(c, lambda q, m1, m2, d1, d2: M_ok(q, m1, m2, d1, d2) - [[m2 * d1**2, 0], [0, 0]], "m2 moves with link 1")
    fails(
        c,
        lambda q, m1, m2, d1, d2: M_ok(q, m1, m2, d1, d2) - [[m2 * d1 * d2 * np.cos(q[1]), 0], [0, 0]],
        "cross term is 2m2d1d2cosθ2",
    )


def test_spd_names_the_mistake():
    c = g.check_spd_function
    fails(c, lambda M: bool(np.all(np.linalg.eigvals(M).real > 1e-9)), "not symmetric")
    fails(c, lambda M: bool(np.linalg.det(M) > 0), "not symmetric|negative definite")
    fails(c, lambda M: bool(np.allclose(M, M.T) and np.linalg.det(M) > 0), "negative definite")
    fails(c, lambda M: bool(np.allclose(M, M.T) and np.all(np.diag(M) > 0)), "indefinite")
    fails(c, lambda M: bool(np.allclose(M, M.T) and np.linalg.eigvalsh(M).min() >= 0), "singular")
    fails(c, lambda M: np.linalg.eigvalsh(M), "expected True or False")

    def cholesky(M):
        try:
            np.linalg.cholesky(M)
            return True
        except np.linalg.LinAlgError:
            return False

    fails(c, cholesky, "not symmetric")


def _hw06_cell(grade_id):
    nb = nbformat.read(REPO / "solutions/hw06_dynamics/hw06_dynamics.ipynb", as_version=4)
    (cell,) = [c for c in nb.cells if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == grade_id]
    return nb, cell


def _old_is_spd(M):
    """hw06's solution before the three agreed: an absolute floor of 1e-9 and the lower triangle's eigenvalues."""
    M = np.asarray(M, dtype=float)
    tol = 1e-9 * max(np.abs(M).max(), 1.0)
    return bool(np.abs(M - M.T).max() <= tol and np.linalg.eigvalsh(M).min() > tol)


#: matrices on both sides of each threshold of the rule (ε = 1e-9·max|M|)
SPD_THRESHOLD_CASES = [
    (np.diag([1.0, 2e-9]), True),  # smallest eigenvalue 2ε
    (np.diag([1.0, 0.5e-9]), False),  # ε/2
    (1e-6 * np.diag([1.0, 2e-9]), True),  # the same in other units: the rule is scale-free
    (np.diag([1e-3, 5e-10]), True),  # ε = 1e-12: SPD, only badly scaled
    (np.array([[1.0, 0.5e-9], [0.0, 1.0]]), True),  # asymmetric by ε/2: symmetric to rounding
    (np.array([[1.0, 2e-9], [0.0, 1.0]]), False),  # asymmetric by 2ε
    # symmetric to ε, and the lower triangle alone has λ_min = 1.2e-9 > ε, but the symmetric part has 0.75e-9
    (np.array([[1.0, 1 - 1.2e-9 + 0.9e-9], [1 - 1.2e-9, 1.0]]), False),
    (np.zeros((3, 3)), False),
    (np.array([[2.0, 0.5], [0.5, 1.0]]), True),
]


def test_hw06_is_spd_statement_solution_and_grader_agree():
    """hw06 part 5 states one rule (ε = 1e-9·max|M|: |M − Mᵀ| ≤ ε, eigenvalues of (M + Mᵀ)/2 above ε); the
    solution computes it and the grader's reference (LDLᵀ pivots of (M + Mᵀ)/2 − εE) decides by it, on both
    sides of every threshold. The solution as it was (an absolute floor of 1e-9, the lower triangle's
    eigenvalues) disagrees with the rule, and the grader now fails it."""
    nb, _ = _hw06_cell("p5_spd")
    (statement,) = [c.source for c in nb.cells if c.cell_type == "markdown" and "`is_spd(M)`" in c.source]
    assert r"\varepsilon = 10^{-9}\max_{ij}|M_{ij}|" in statement and r"\tfrac12(M + M^T)" in statement
    assert "grader applies exactly this rule" in statement
    namespace = {"np": np}
    exec(_hw06_cell("p5_spd")[1].source, namespace)
    solution = namespace["is_spd"]
    for M, expected in SPD_THRESHOLD_CASES:
        n = len(M)
        assert solution(M) is expected, M
        assert g.reference_is_spd([float(x) for x in M.ravel()], n) is expected, M
        assert spd_ok(M) is expected, M
    # the old solution: wrong in other units, on the badly scaled matrix, and on the lower triangle's eigenvalues
    assert [i for i, (M, expected) in enumerate(SPD_THRESHOLD_CASES) if _old_is_spd(M) != expected] == [2, 3, 6]
    g.check_spd_function(solution, seed=6506, n=60)
    with pytest.raises(AssertionError, match="badly scaled"):
        g.check_spd_function(_old_is_spd, seed=6506, n=60)


def test_references_equal_armlab_dynamics():
    """The plain-math references are Example 3.9 as armlab computes it (gravity (g, 0, 0): θ from the
    downward vertical, see tests/sources/test_textbook_ch6.py)."""
    rng = np.random.default_rng(8)
    for _ in range(10):
        m1, m2, d1, d2, gg = rng.uniform(0.3, 3, 5)
        q, qd, qdd = rng.uniform(-2, 2, (3, 2))
        arm = planar2r(l1=d1, l2=d2, m1=m1, m2=m2)
        model = dy.lagrange(arm, gravity=(gg, 0, 0))
        assert g.reference_kinetic_energy(q, qd, m1, m2, d1, d2) == pytest.approx(model.energy_fn(q, qd)[0])
        np.testing.assert_allclose(np.reshape(g.reference_mass_matrix(q, m1, m2, d1, d2), (2, 2)), arm.inertia(q))
        np.testing.assert_allclose(
            g.reference_velocity_torques(q, qd, m1, m2, d1, d2), arm.coriolis(q, qd) @ qd, atol=1e-12
        )
        np.testing.assert_allclose(g.reference_gravity(q, m1, m2, d1, d2, gg), arm.gravload(q, (gg, 0, 0)))
        assert g.reference_is_spd(g.reference_mass_matrix(q, m1, m2, d1, d2), 2)


def test_outward_step_reference_is_a_step_of_rne():
    """One outward step of armlab's RNE (modified DH, link 2 of a random arm) is the reference step."""
    from armlab import DHLink, DHRobot

    rng = np.random.default_rng(9)
    links = [DHLink(a=a, alpha=al, d=d, m=1.0) for a, al, d in rng.uniform(-1, 1, (2, 3))]
    robot = DHRobot(links, convention="modified")
    q, qd, qdd = rng.uniform(-2, 2, (3, 2))
    gvec = np.array([0.3, -0.2, -9.81])
    _, steps = rne_steps(robot, q, qd, qdd, gvec, [0.0] * 6, NumpyBackend)
    T2 = robot.links[1]
    A = np.asarray(__import__("armlab").link_transform_modified(T2.alpha, T2.a, q[1], T2.d))
    s1, s2 = steps[0], steps[1]
    ref = g.reference_outward_step(
        A[:3, :3].ravel().tolist(), A[:3, 3].tolist(), s1["w"], s1["wd"], s1["vd"], qd[1], qdd[1]
    )
    np.testing.assert_allclose(ref, np.concatenate([s2["w"], s2["wd"], s2["vd"]]), atol=1e-12)
