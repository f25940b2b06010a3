"""armlab.grading.ik: the hw03 comparisons (roots modulo 2π in any order, solution rows) pass right answers and name
the usual misses; hw03's answer key, computed by armlab, has the hidden cases of the first release."""

import math
from pathlib import Path

import nbformat
import numpy as np
import pytest

from armlab.autograde import key
from armlab.grading import check_cases, ik as g
from armlab.ik import planar2r_ikine

from support.verdicts import raises_verdict

pytestmark = pytest.mark.homework("hw03_inverse_kinematics")  # its checkers

REPO = Path(__file__).resolve().parents[2]


def fails(match, fn, *args, **kwargs):
    with raises_verdict(match):
        fn(*args, **kwargs)


def test_check_roots_accepts_either_order_and_names_the_misses():
    """Eq. (3.38)'s two roots, compared modulo 2π as a set."""
    check = g.check_roots
    check([0.5, -2.0], [-2.0, 0.5 + 2 * math.pi], name="theta1")
    check([], [], name="theta1")
    fails("off by π", check, [0.5 + math.pi, -2.0 + math.pi], [0.5, -2.0], name="theta1")
    fails("degrees were used", check, [math.degrees(0.5), math.degrees(-2.0)], [0.5, -2.0], name="theta1")
    fails("expected no solution", check, [0.1, 0.2], [], name="theta1")
    fails("got no solution", check, [], [0.1, 0.2], name="theta1")
    fails("all roots are the same angle", check, [0.5, 0.5], [0.5, -2.0], name="theta1")
    fails("atan2 takes", check, [1.0, 2.0], [0.5, -2.0], name="theta1", hints={"atan2 takes (y, x)": [2.0, 1.0]})
    g.check_angles([0.5, -2.0], [0.5, -2.0], name="t")  # in order
    fails("the roots are swapped", g.check_angles, [-2.0, 0.5], [0.5, -2.0], name="t")


def test_check_rows_is_the_planar_2r_solution_set():
    x, y, l1, l2 = -0.6, 1.1, 1.0, 0.8
    rows = planar2r_ikine(x, y, l1, l2).q
    expected = key.plain(rows)
    g.check_rows(rows[::-1], expected, name="solve_2r")
    g.check_rows(rows + 2 * np.pi, expected, name="solve_2r")
    g.check_rows(np.zeros((0, 2)), [], name="solve_2r")
    fails("mirrored through the base", g.check_rows, rows + [np.pi, 0.0], expected, name="s")
    fails("looks like degrees", g.check_rows, np.degrees(rows), expected, name="s")
    fails("only one solution", g.check_rows, rows[:1], expected, name="s")
    fails("the same solution twice", g.check_rows, rows[[0, 0]], expected, name="s")
    fails("out of reach", g.check_rows, rows, [], name="s")
    fails("got no solution", g.check_rows, np.zeros((0, 2)), expected, name="s")
    fails("contains NaN", g.check_rows, np.full((2, 2), np.nan), expected, name="s")
    fails("is not a solution", g.check_rows, rows + 0.1, expected, name="s")


def test_check_cases_with_compare_names_the_key_mistake():
    k = key.cases(
        lambda px, py: [math.atan2(py, px)],
        [(1.0, 2.0)],
        mistakes={"atan2 takes (y, x)": lambda px, py: [math.atan2(px, py)]},
    )
    check_cases(lambda px, py: [np.arctan2(py, px)], k, name="phi", compare=g.check_roots)
    fails("atan2 takes", check_cases, lambda px, py: [np.arctan2(px, py)], k, name="phi", compare=g.check_roots)


@pytest.mark.integration  # runs the solutions notebook's key cells in a python process
def test_hw03_key_has_the_first_releases_hidden_poses_and_counts():
    """Part 5's hidden poses are those of the first release's checker (random.Random(9090), n = 12), so every
    submission scores as before; their counts within Table 3.2's corrected ranges are armlab's within_limits."""
    from armlab.autograde.bake import is_key_cell, run_keys

    nb = nbformat.read(REPO / "solutions/hw03_inverse_kinematics/hw03_inverse_kinematics.ipynb", as_version=4)
    keys = run_keys("\n\n".join(c.source for c in nb.cells if is_key_cell(c)))
    assert keys["KEY_P5_COUNT"]["expected"] == [2, 6, 6, 3, 2, 0, 0, 2, 0, 6, 1, 4]
    assert keys["KEY_P5_COUNT_VISIBLE"]["expected"] == [4]
    assert len(keys["KEY_P1"]["inputs"]) == 4 + 40 and len(keys["KEY_P4_CHOICE"]["inputs"]) == 2 + 30
    assert keys["KEY_P1_VISIBLE"]["expected"][1] == []  # a target too close to axis 1: no root


def test_module_is_read_only():
    with pytest.raises(AttributeError, match="read-only"):
        g.check_angles = lambda *a, **k: None
