"""hw06's answer keys (solutions/hw06_dynamics, computed by armlab.dynamics on Example 3.9's arm) and
armlab.grading.dynamics' comparisons: the textbook's formulas pass, each known mistake is named (the factor ½,
Coriolis counted once, the gravity sign, angles from the horizontal, ...), and the outward step is RNE's."""

from pathlib import Path

import nbformat
import numpy as np
import pytest

from armlab.dynamics.rne import rne_steps
from armlab.grading import check_cases
from armlab.grading.dynamics import one_number, true_or_false, w_wd_vd
from armlab.autograde.key import cases
from armlab.kinematics.scalar import NumpyBackend

from support.answer_keys import answer_keys, check_part, key_namespace
from support.verdicts import raises_verdict

pytestmark = pytest.mark.homework("hw06_dynamics")

REPO = Path(__file__).resolve().parents[2]


def key(name):
    """An answer key of hw06 (its key cells run once, on first use)."""
    return answer_keys("hw06_dynamics")[name]


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


PARTS = {  # key: (right function, check_cases keywords)
    "P1": (K_ok, {"compare": one_number}),
    "P2": (h_ok, {"rtol": 1e-9}),
    "P3": (G_ok, {"rtol": 1e-9}),
    "P4": (step_ok, {"compare": w_wd_vd}),
    "P5": (M_ok, {"rtol": 1e-9}),
    "P5_SPD": (spd_ok, {"compare": true_or_false}),
}


@pytest.mark.parametrize("part", PARTS)
def test_example_3_9_formulas_pass_the_keys_armlab_computed(part):
    fn, kw = PARTS[part]
    assert check_part("hw06_dynamics", part, fn, **kw) >= 40


def fails(part, fn, match):
    with raises_verdict(match):
        check_cases(fn, key(f"KEY_{part}"), name="answer", **PARTS[part][1])


def test_kinetic_energy_names_the_mistake():
    c = "P1"
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
    c = "P2"

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
    c = "P3"
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
    c = "P4"
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
    c = "P5"
    fails(c, lambda *a: np.triu(M_ok(*a)), "not symmetric")
    fails(c, lambda *a: M_ok(*a) / 2, "missing the factor 2")
    fails(c, lambda q, m1, m2, d1, d2: M_ok(q, m1, m2, d1, d2) - [[m2 * d1**2, 0], [0, 0]], "m2 moves with link 1")
    fails(
        c,
        lambda q, m1, m2, d1, d2: M_ok(q, m1, m2, d1, d2) - [[m2 * d1 * d2 * np.cos(q[1]), 0], [0, 0]],
        "cross term is 2m2d1d2cosθ2",
    )


def test_spd_names_the_mistake():
    c = "P5_SPD"
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
    sides of every threshold, and so does the answer key's. The solution as it was (an absolute floor of 1e-9, the
    lower triangle's eigenvalues) disagrees with the rule, and the grader now fails it."""
    nb, _ = _hw06_cell("p5_spd")
    (statement,) = [c.source for c in nb.cells if c.cell_type == "markdown" and "`is_spd(M)`" in c.source]
    assert r"\varepsilon = 10^{-9}\max_{ij}|M_{ij}|" in statement and r"\tfrac12(M + M^T)" in statement
    assert "grader applies exactly this rule" in statement
    namespace = {"np": np}
    exec(_hw06_cell("p5_spd")[1].source, namespace)
    solution = namespace["is_spd"]
    for M, expected in SPD_THRESHOLD_CASES:
        assert solution(M) is expected, M
        assert spd_ok(M) is expected, M
        check_cases(
            lambda _, e=expected: e, cases(key_namespace("hw06_dynamics")["ref_is_spd"], [(M,)]), compare=true_or_false
        )
    # the old solution: wrong in other units, on the badly scaled matrix, and on the lower triangle's eigenvalues
    assert [i for i, (M, expected) in enumerate(SPD_THRESHOLD_CASES) if _old_is_spd(M) != expected] == [2, 3, 6]
    check_cases(solution, key("KEY_P5_SPD"), compare=true_or_false)
    fails("P5_SPD", _old_is_spd, "badly scaled")


def test_outward_step_is_a_step_of_rne():
    """One outward step of armlab's RNE (modified DH, link 2 of a random arm) passes the outward-step key's
    formula, and the key's own step equals it."""
    from armlab import DHLink, DHRobot, link_transform_modified

    rng = np.random.default_rng(9)
    links = [DHLink(a=a, alpha=al, d=d, m=1.0) for a, al, d in rng.uniform(-1, 1, (2, 3))]
    robot = DHRobot(links, convention="modified")
    q, qd, qdd = rng.uniform(-2, 2, (3, 2))
    _, steps = rne_steps(robot, q, qd, qdd, np.array([0.3, -0.2, -9.81]), [0.0] * 6, NumpyBackend)
    A = np.asarray(link_transform_modified(robot.links[1].alpha, robot.links[1].a, q[1], robot.links[1].d))
    s1, s2 = steps[0], steps[1]
    args = (A[:3, :3], A[:3, 3], np.asarray(s1["w"]), np.asarray(s1["wd"]), np.asarray(s1["vd"]), qd[1], qdd[1])
    rne = np.concatenate([s2["w"], s2["wd"], s2["vd"]])
    np.testing.assert_allclose(np.concatenate(step_ok(*args)), rne, atol=1e-12)
    np.testing.assert_allclose(np.concatenate(key_namespace("hw06_dynamics")["ref_step"](*args)), rne, atol=1e-12)


def test_comparisons_do_not_trust_patched_numpy(monkeypatch):
    monkeypatch.setattr(np, "allclose", lambda *a, **k: True)
    monkeypatch.setattr(np.linalg, "eigvalsh", lambda M: np.ones(len(M)))
    with pytest.raises(AssertionError):
        check_cases(lambda *a: np.zeros(2), key("KEY_P3"))
    with pytest.raises(AssertionError):
        check_cases(lambda M: True, key("KEY_P5_SPD"), compare=true_or_false)


def test_module_is_read_only():
    import armlab.grading.dynamics as g

    with pytest.raises(AttributeError, match="read-only"):
        g.one_number = lambda *a, **k: None
