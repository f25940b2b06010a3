"""armlab.grading.ik: the hw03 checkers pass right answers, fail wrong ones with the right hint,
and their plain-math references agree with armlab.ik."""

import math
import random

import numpy as np
import pytest

from armlab.grading import ik as g
from armlab.grading._plain import atan2
from armlab import models

from support.verdicts import raises_verdict

pytestmark = pytest.mark.homework("hw03_inverse_kinematics")  # its checkers

deg = np.radians
A2, A3, D2, D4 = 0.4318, 0.02032, 0.14909, 0.43307


# --- right answers (as in solutions/hw03) ----------------------------------------------------
def theta1_ok(px, py, d2):
    D = px**2 + py**2 - d2**2
    if D < 0:
        return []
    phi = np.arctan2(py, px)
    return [phi - np.arctan2(d2, np.sqrt(D)), phi - np.arctan2(d2, -np.sqrt(D))]


def theta3_ok(px, py, pz, a2, a3, d2, d4):
    k = (px**2 + py**2 + pz**2 - a2**2 - a3**2 - d2**2 - d4**2) / (2 * a2)
    D = a3**2 + d4**2 - k**2
    if D < 0:
        return []
    return [np.arctan2(a3, d4) - np.arctan2(k, s) for s in (np.sqrt(D), -np.sqrt(D))]


def solve_2r_ok(x, y, l1, l2):
    D = (x**2 + y**2 - l1**2 - l2**2) / (2 * l1 * l2)
    if abs(D) > 1:
        return np.zeros((0, 2))
    out = []
    for s in (1, -1):
        t2 = np.arctan2(s * np.sqrt(1 - D**2), D)
        out.append([np.arctan2(y, x) - np.arctan2(l2 * np.sin(t2), l1 + l2 * np.cos(t2)), t2])
    return np.array(out)


def cost_ok(q, qc, k):
    dq = (np.asarray(q) - np.asarray(qc) + np.pi) % (2 * np.pi) - np.pi
    return float(np.sum(np.asarray(k) * np.abs(dq)))


def choose_ok(sols, qc, k):
    return np.asarray(sols[int(np.argmin([cost_ok(q, qc, k) for q in sols]))])


def in_range_ok(theta, lo, hi):
    x = lo + (theta - lo) % (2 * np.pi)
    return bool(x <= hi + 1e-9 or abs(x - 2 * np.pi - lo) <= 1e-9)


PUMA = models.puma560()
T_HW03 = PUMA.fkine(deg([30, -40, -60, 20, 45, -30]))  # hw03 part 5's visible pose (chapter 03's example)


def count_ok(T):
    lims = np.radians([(-160, 160), (-225, 45), (-225, 45), (-110, 170), (-100, 100), (-266, 266)])
    return sum(all(in_range_ok(x, lo, hi) for x, (lo, hi) in zip(q, lims)) for q in PUMA.ikine_all(T).q)


def test_right_answers_pass():
    g.check_theta1_function(theta1_ok, cases=[(-D2, A2 + D4, D2), (0.05, 0.05, D2)], seed=1, n=60)
    g.check_theta3_function(theta3_ok, cases=[(-D2, A2 + D4, A3, A2, A3, D2, D4)], seed=2, n=60)
    g.check_2r_function(
        solve_2r_ok, cases=[(1.0, 1.0, 1.0, 1.0), (3.0, 0.0, 1.0, 1.0), (2.0, 0.0, 1.0, 1.0)], seed=3, n=80
    )
    g.check_motion_cost_function(cost_ok, seed=4, n=60)
    g.check_choose_function(choose_ok, seed=5, n=60)
    g.check_in_range_function(in_range_ok)
    g.check_count_function(count_ok, poses=[T_HW03], seed=6, n=10)


# --- wrong answers get the hint that names the mistake -------------------------------------------
def _fails(match, fn, *args, **kw):
    with raises_verdict(match):
        fn(*args, **kw)


def test_theta1_hints():
    def swapped_phi(px, py, d2):
        s = np.sqrt(px**2 + py**2 - d2**2)
        return [np.arctan2(px, py) - np.arctan2(d2, s), np.arctan2(px, py) - np.arctan2(d2, -s)]

    def in_degrees(px, py, d2):
        return list(np.degrees(theta1_ok(px, py, d2)))

    def one_root(px, py, d2):
        return theta1_ok(px, py, d2)[:1]

    def off_by_pi(px, py, d2):
        return [t + np.pi for t in theta1_ok(px, py, d2)]

    def no_empty(px, py, d2):  # forgets the unreachable case: clips the square root at 0
        phi, s = np.arctan2(py, px), np.sqrt(max(px**2 + py**2 - d2**2, 0.0))
        return [phi - np.arctan2(d2, s), phi - np.arctan2(d2, -s)]

    case = [(0.3, 0.4, D2)]
    _fails("atan2 takes \\(y, x\\)", g.check_theta1_function, swapped_phi, cases=case)
    _fails("degrees", g.check_theta1_function, in_degrees, cases=case)
    _fails("expected 2 root", g.check_theta1_function, one_root, cases=case)
    _fails("off by π", g.check_theta1_function, off_by_pi, cases=case)
    _fails("expected no solution", g.check_theta1_function, no_empty, cases=[(0.05, 0.05, D2)])
    _fails(
        "not implemented", g.check_theta1_function, lambda *a: (_ for _ in ()).throw(NotImplementedError()), cases=case
    )


def test_theta3_hints():
    def k_over_a2(px, py, pz, a2, a3, d2, d4):
        k = (px**2 + py**2 + pz**2 - a2**2 - a3**2 - d2**2 - d4**2) / a2
        s = np.sqrt(a3**2 + d4**2 - k**2)
        return [np.arctan2(a3, d4) - np.arctan2(k, s), np.arctan2(a3, d4) - np.arctan2(k, -s)]

    def swapped_gamma(px, py, pz, a2, a3, d2, d4):
        r = theta3_ok(px, py, pz, a2, a3, d2, d4)
        return [t - np.arctan2(a3, d4) + np.arctan2(d4, a3) for t in r]

    case = [(0.3, 0.2, -0.4, A2, A3, D2, D4)]
    _fails("2·a2", g.check_theta3_function, k_over_a2, cases=case)
    _fails("atan2\\(a3, d4\\) has its arguments swapped", g.check_theta3_function, swapped_gamma, cases=case)
    g.check_theta3_function(lambda *a: theta3_ok(*a)[::-1], cases=case)  # order does not matter


def test_2r_hints():
    def arctan_quadrant(x, y, l1, l2):
        out = solve_2r_ok(x, y, l1, l2)
        out[:, 0] += np.arctan(y / x) - np.arctan2(y, x)
        return out

    def nan_when_out(x, y, l1, l2):
        D = (x**2 + y**2 - l1**2 - l2**2) / (2 * l1 * l2)
        with np.errstate(invalid="ignore"):
            t2 = np.arccos(D)
        return np.array([[np.arctan2(y, x) - np.arctan2(l2 * np.sin(t2), l1 + l2 * np.cos(t2)), t2]] * 2)

    def same_twice(x, y, l1, l2):
        return solve_2r_ok(x, y, l1, l2)[[0, 0]]

    def flat(x, y, l1, l2):
        return solve_2r_ok(x, y, l1, l2)[0]

    _fails("atan2\\(y, x\\)", g.check_2r_function, arctan_quadrant, cases=[(-0.6, 1.1, 1.0, 0.8)])
    _fails("NaN", g.check_2r_function, nan_when_out, cases=[(3.0, 0.0, 1.0, 1.0)])
    _fails("same solution twice", g.check_2r_function, same_twice, cases=[(-0.6, 1.1, 1.0, 0.8)])
    _fails("shape \\(k, 2\\)", g.check_2r_function, flat, cases=[(-0.6, 1.1, 1.0, 0.8)])
    _fails("degrees", g.check_2r_function, lambda *a: np.degrees(solve_2r_ok(*a)), cases=[(-0.6, 1.1, 1.0, 0.8)])
    _fails("must be empty", g.check_2r_function, lambda *a: np.zeros((2, 2)), cases=[(3.0, 0.0, 1.0, 1.0)])


def test_cost_and_choice_hints():
    def unwrapped(q, qc, k):
        return float(np.sum(np.asarray(k) * np.abs(np.asarray(q) - np.asarray(qc))))

    _fails("not wrapped", g.check_motion_cost_function, unwrapped, cases=[([deg(-170)], [deg(170)], [1.0])])
    _fails(
        "weights k are missing",
        g.check_motion_cost_function,
        lambda q, qc, k: cost_ok(q, qc, [1] * len(q)),
        cases=[([0.1, 0.2, 0.3], [0, 0, 0], [3.0, 2.0, 1.0])],
    )
    sols = [[0.3, -1.4, 1.5], [-1.2, 1.4, 0.1]]
    _fails("index", g.check_choose_function, lambda s, qc, k: 0, cases=[(sols, [0, 0, 0], [3.0, 2.0, 1.0])])
    _fails(
        "equal weights",
        g.check_choose_function,
        lambda s, qc, k: choose_ok(s, qc, [1.0] * len(qc)),
        cases=[(sols, [0, 0, 0], [3.0, 2.0, 1.0])],
    )
    _fails(
        "without wrapping",
        g.check_choose_function,
        lambda s, qc, k: np.asarray(s[int(np.argmin([unwrapped(q, qc, k) for q in s]))]),
        cases=[([[3.0, 0.0, 0.0], [-2.0, 0.5, 0.5]], [-3.0, 0.0, 0.0], [3.0, 2.0, 1.0])],
    )


def test_in_range_and_count_hints():
    plain = lambda t, lo, hi: bool(lo <= t <= hi)  # noqa: E731 - no 360° equivalence
    _fails("360° = ", g.check_in_range_function, plain)

    def count_plain(T):
        lims = np.radians([(-160, 160), (-225, 45), (-225, 45), (-110, 170), (-100, 100), (-266, 266)])
        return sum(all(lo <= x <= hi for x, (lo, hi) in zip(q, lims)) for q in g.reference_puma_solutions(T))

    poses = [g.random_puma_pose(random.Random(s)) for s in range(40)]
    differ = [T for T in poses if g.reference_puma_count(T) != g.reference_puma_count(T, shift=False)]
    assert differ, "need a pose where the ±360° shift matters"
    _fails("360° away", g.check_count_function, count_plain, poses=differ[:1])
    _fails("counts every solution", g.check_count_function, lambda T: 8, poses=[T_HW03])


# --- references agree with armlab.ik and with math --------------------------------------------------
def test_plain_atan2_matches_math():
    rng = random.Random(0)
    pts = [(rng.uniform(-5, 5), rng.uniform(-5, 5)) for _ in range(5000)] + [(0, 1), (0, -1), (1, 0), (-1, 0), (0, 0)]
    assert max(abs(atan2(y, x) - math.atan2(y, x)) for y, x in pts) < 1e-14


def test_reference_puma_matches_armlab():
    """The same 8 solutions as armlab.ik, and the same count within the joint limits."""
    rng = random.Random(11)
    for _ in range(150):
        T = g.random_puma_pose(rng)
        sols = PUMA.ikine_all(np.array(T))
        assert g.reference_puma_count(T) == int(sols.within_limits.sum())
        ref = np.array(g.reference_puma_solutions(T))
        for q in sols.q:  # the same 8, as sets modulo 2π
            assert np.any(np.all(np.abs((ref - q + np.pi) % (2 * np.pi) - np.pi) < 1e-9, axis=1))


def test_table_3_2_ranges_with_theta3_corrected_are_armlab_qlim():
    """hw03 counts with Table 3.2's ranges, θ3's as corrected in docs/errata.md (−225°…45°, printed −45°…225°)."""
    assert g.PUMA_RANGES_DEG[2] == (-225.0, 45.0)
    assert np.array_equal(np.radians(g.PUMA_RANGES_DEG), PUMA.qlim)


def test_hw03_part_5_counts_under_the_corrected_theta3_range():
    """The visible pose has 4 solutions within the ranges (0 under the printed θ3 range, which is centred on the
    forearm folded back); the hidden poses (seed 9090, n = 12) have these counts, equal to armlab's within_limits."""
    printed = list(g.PUMA_RANGES_DEG)
    printed[2] = (-45.0, 225.0)
    T = T_HW03.tolist()
    assert (g.reference_puma_count(T), g.reference_puma_count(T, printed)) == (4, 0)
    rng = random.Random(9090)
    hidden = [g.random_puma_pose(rng) for _ in range(12)]
    counts = [2, 6, 6, 3, 2, 0, 0, 2, 0, 6, 1, 4]
    assert [g.reference_puma_count(T) for T in hidden] == counts
    assert [int(PUMA.ikine_all(np.array(T)).within_limits.sum()) for T in hidden] == counts
    assert [g.reference_puma_count(T, printed) for T in hidden] == [5, 6, 6, 3, 0, 0, 0, 2, 1, 0, 1, 0]


def test_reference_2r_and_angles_match_armlab():
    from armlab import ik

    rng = random.Random(12)
    for _ in range(100):
        x, y, l1, l2 = rng.uniform(-1.5, 1.5), rng.uniform(-1.5, 1.5), rng.uniform(0.3, 1), rng.uniform(0.3, 1)
        ref, lib = g.reference_2r(x, y, l1, l2), ik.planar2r_ikine(x, y, l1, l2)
        assert len(ref) == len(lib)
        for q in lib.q:
            assert any(np.allclose((q - np.array(r) + np.pi) % (2 * np.pi) - np.pi, 0, atol=1e-9) for r in ref)


def test_module_is_read_only():
    with pytest.raises(AttributeError, match="read-only"):
        g.check_angles = lambda *a, **k: None


def test_patched_dict_cannot_move_the_reference_arm(monkeypatch):
    """A dict subclass installed as builtins.dict that pushes d2 out of reach made every reference
    count 0, so `count_valid = lambda T: 0` got full marks."""
    import builtins

    class Dict(dict):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            if "d4" in self:
                self["d2"] = 100.0

    with monkeypatch.context() as m:  # undone inside the test: pytest-xdist serialises its report with dicts
        m.setattr(builtins, "dict", Dict)
        _fails("expected", g.check_count_function, lambda T: 0, seed=9090, n=12)
