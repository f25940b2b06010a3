"""hw03_inverse_kinematics through the nbgrader pipeline: release, autograde, feedback.

tests/test_homework.py grades hw01 and hw02 in its own batch; this file reuses its helpers
(config loading, cell editing, scores, leak detection, the monkeypatching prelude) for hw03,
in one batch of its own: honest, partly wrong and adversarial submissions.
"""
from __future__ import annotations

import copy
import os
import shutil
import time
from pathlib import Path

import nbformat
import pytest

import test_homework as hw  # noqa: E402  (tests/ is on sys.path under pytest)

A = "hw03_inverse_kinematics"
MAX = 15.0
REPO = hw.REPO


def hw03_submissions(solution, blank):
    """{student: (notebook, expected score)}: parts are worth 3 points each (visible 1 + hidden 2)."""
    subs = {"solution": (solution, MAX), "blank": (blank, 0.0)}

    nb = copy.deepcopy(solution)  # atan2 arguments swapped (part 1), degrees (part 2)
    hw._set(nb, "p1_theta1", "def theta1(px, py, d2):\n"
                             "    s = np.sqrt(px**2 + py**2 - d2**2)\n"
                             "    return [np.arctan2(px, py) - np.arctan2(d2, s), np.arctan2(px, py) - np.arctan2(d2, -s)]")
    hw._set(nb, "p2_theta3", "def theta3(px, py, pz, a2, a3, d2, d4):\n"
                             "    k = (px**2 + py**2 + pz**2 - a2**2 - a3**2 - d2**2 - d4**2) / (2 * a2)\n"
                             "    D = a3**2 + d4**2 - k**2\n"
                             "    if D < 0:\n        return []\n"
                             "    return list(np.degrees([np.arctan2(a3, d4) - np.arctan2(k, s) for s in (np.sqrt(D), -np.sqrt(D))]))")
    subs["wrong"] = (nb, MAX - 3 - 3)

    nb = copy.deepcopy(solution)  # passes the visible tests of part 5, not the hidden ones: no ±360° shift
    hw._set(nb, "p5_count", "RANGES_DEG = [(-160, 160), (-225, 45), (-45, 225), (-110, 170), (-100, 100), (-266, 266)]\n"
                            "def in_range(theta, lo, hi):\n"
                            "    x = lo + (theta - lo) % (2 * np.pi)\n"
                            "    return bool(x <= hi + 1e-9 or abs(x - 2 * np.pi - lo) <= 1e-9)\n"
                            "def count_valid(T):\n"
                            "    lims = np.radians(RANGES_DEG)\n"
                            "    n = 0\n"
                            "    for q in puma.ikine_all(T).q:\n"
                            "        q = (q + np.pi) % (2 * np.pi) - np.pi\n"
                            "        n += all(lo <= x <= hi for x, (lo, hi) in zip(q, lims))\n"
                            "    return n")
    subs["partial"] = (nb, MAX - 2)

    nb = copy.deepcopy(blank)  # monkeypatching, no setup cell, wrong well-shaped answers: nothing to earn
    (setup,) = hw._cells(nb, "setup")
    nb.cells = [c for c in nb.cells if c is not setup]
    hw._set(nb, "p1_theta1", "import numpy as np\nfrom armlab import models\npuma = models.puma560()\n"
                             + hw.PATCH_EVERYTHING + "\nimport math\nmath.atan2 = lambda y, x: 0.0\n"
                             "numpy.arctan2 = lambda y, x: 0.0\n"
                             "def theta1(px, py, d2):\n    return [0.0, 0.0]")
    hw._set(nb, "p2_theta3", "def theta3(*args):\n    return [0.0, 0.0]")
    hw._set(nb, "p3_solve_2r", "def solve_2r(x, y, l1, l2):\n    return numpy.zeros((2, 2))")
    hw._set(nb, "p4_choose", "def motion_cost(q, q_current, k):\n    return 0.0\n"
                             "def choose(solutions, q_current, k):\n    return numpy.asarray(solutions[-1])")
    hw._set(nb, "p5_count", "def in_range(theta, lo, hi):\n    return True\ndef count_valid(T):\n    return 0")
    subs["monkeypatch"] = (nb, 0.0)

    # (test cells edited or deleted, stripped metadata, huge outputs, dead kernels: the same pipeline
    # hardening is exercised on hw01 by tests/test_homework.py)
    nb = copy.deepcopy(solution)  # part 4 never finishes: that part is lost, the rest is graded
    hw._prepend(nb, "p4_choose", "while True:\n    pass")
    subs["infinite_loop"] = (nb, MAX - 3)
    return subs


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    from nbgrader.apps import NbGraderAPI
    from traitlets.config import Config

    mp = pytest.MonkeyPatch()
    mp.setenv("PATH", hw.BIN + os.pathsep + os.environ.get("PATH", ""))  # nbgrader runs `alembic`
    root = tmp_path_factory.mktemp("course_hw03")
    shutil.copytree(REPO / "solutions" / A, root / "solutions" / A)
    cfg = hw.load_config()
    cfg.merge(Config({"CourseDirectory": {"root": str(root)}, "Exchange": {"root": str(root / "_exchange")},
                      "Execute": {"timeout": hw.TEST_TIMEOUT}}))
    api = NbGraderAPI(config=cfg)
    t0 = time.perf_counter()
    res = api.generate_assignment(A)
    assert res["success"], res.get("error")
    solution = nbformat.read(root / "solutions" / A / f"{A}.ipynb", as_version=4)
    blank = nbformat.read(root / "exercises" / A / f"{A}.ipynb", as_version=4)
    expected, graded = {}, {}
    for student, (nb, score) in hw03_submissions(solution, blank).items():
        dest = root / "submitted" / student / A / f"{A}.ipynb"
        dest.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, str(dest))
        expected[student] = score
    for student in expected:
        graded[student] = (api.autograde(A, student), hw._scores(api, A, student))
    yield {"root": root, "api": api, "expected": expected, "graded": graded, "time": time.perf_counter() - t0}
    mp.undo()


def test_committed_exercise_is_up_to_date(batch):
    fresh = batch["root"] / "exercises" / A
    committed = REPO / "exercises" / A
    assert sorted(p.name for p in fresh.iterdir()) == sorted(p.name for p in committed.iterdir()) == [f"{A}.ipynb"]
    assert (fresh / f"{A}.ipynb").read_bytes() == (committed / f"{A}.ipynb").read_bytes(), (
        f"exercises/{A} is stale: run  nbgrader generate_assignment {A} --no-db --force")


def test_no_solution_or_hidden_test_leaks():
    solution = nbformat.read(REPO / "solutions" / A / f"{A}.ipynb", as_version=4)
    sol, hidden = hw._solution_lines(solution)
    assert len(sol) >= 5 and len(hidden) >= 5
    text = (REPO / "exercises" / A / f"{A}.ipynb").read_text()
    body = "\n".join(c.source for c in nbformat.reads(text, as_version=4).cells)
    for line in sol + hidden:
        assert line not in body, f"leaked into exercises/{A}: {line!r}"
    for marker in ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS"):
        assert marker not in text


@pytest.mark.parametrize("folder", ["solutions", "exercises"])
def test_outputs_are_cleared(folder):
    nb = nbformat.read(REPO / folder / A / f"{A}.ipynb", as_version=4)
    assert all(c.outputs == [] and c.execution_count is None for c in nb.cells if c.cell_type == "code")


def test_every_part_has_visible_and_hidden_tests():
    nb = nbformat.read(REPO / "solutions" / A / f"{A}.ipynb", as_version=4)
    meta = [c.metadata.get("nbgrader", {}) for c in nb.cells]
    solutions = [m["grade_id"] for m in meta if m.get("solution")]
    assert len(solutions) == 5
    for sid in solutions:
        part = sid.split("_")[0]
        tests = {m["grade_id"]: m for m in meta if m.get("grade") and m["grade_id"].startswith(part + "_")}
        assert set(tests) == {f"{part}_visible", f"{part}_hidden"}, sid
        assert tests[f"{part}_visible"]["points"] == 1 and tests[f"{part}_hidden"]["points"] == 2
        assert all(t["locked"] for t in tests.values())
    setup = nb.cells[1]
    assert setup.metadata["nbgrader"]["locked"] and "import armlab.grading" in setup.source.splitlines()[1]


def test_solution_full_marks_blank_zero(batch):
    score, mx, cells = batch["graded"]["solution"][1]
    assert (score, mx) == (MAX, MAX), cells
    score, mx, cells = batch["graded"]["blank"][1]
    assert (score, mx) == (0.0, MAX), cells


def test_every_submission_gets_its_honest_score(batch):
    wrong = {s: (batch["graded"][s][1][0], e, batch["graded"][s][1][2]) for s, e in batch["expected"].items()
             if batch["graded"][s][1][0] != e}
    assert not wrong, wrong
    assert all(batch["graded"][s][1][1] == MAX for s in batch["expected"])  # points restored
    print(f"\nhw03: {len(batch['expected'])} submissions graded in {batch['time']:.1f} s: "
          + ", ".join(f"{s} {batch['graded'][s][1][0]:g}" for s in batch["expected"]))


def test_partial_credit_is_per_cell(batch):
    cells = batch["graded"]["partial"][1][2]
    assert cells["p5_visible"] == (1.0, 1.0) and cells["p5_hidden"] == (0.0, 2.0)
    cells = batch["graded"]["wrong"][1][2]
    assert cells["p1_hidden"][0] == cells["p2_hidden"][0] == 0.0 and cells["p3_hidden"] == (2.0, 2.0)


def test_feedback_names_the_mistake_but_hides_the_tests(batch):
    api = batch["api"]
    res = api.generate_feedback(A, "wrong")
    assert res["success"], res.get("error")
    raw = (batch["root"] / "feedback" / "wrong" / A / f"{A}.html").read_text()
    text = hw._visible_text(raw)
    _, hidden = hw._solution_lines(nbformat.read(REPO / "solutions" / A / f"{A}.ipynb", as_version=4))
    for line in hidden:
        assert line not in text, f"hidden test in feedback: {line!r}"
    assert "grading_ik.py" not in text and "grading.py" not in text
    assert "atan2 takes (y, x)" in text  # part 1: the hint for swapped atan2 arguments
    assert "degrees were used" in text  # part 2
