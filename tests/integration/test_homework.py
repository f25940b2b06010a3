"""nbgrader homework pipeline: release, autograde (honest and adversarial students), feedback.

Everything runs on a temporary copy of the course (docs/instructor.md, "Testing and benchmarking"):
``nbgrader.apps.NbGraderAPI`` releases, and ``armlab-grade`` on a 2-worker Dask cluster autogrades all
submissions of every homework in one batch, in a module-scoped fixture; the tests below assert on its results. The
course copy, the batch, the homework (every folder of solutions/), the students of each (``SUBMISSIONS``; a
homework without its own gets its solution and its blank) and the table of what each must get (``OUTCOMES``: its
score and the words of its feedback, one row per student) are in ``tests/support/nbgrader_harness.py``, which
bench/bench_grading.py runs too.
"""

from __future__ import annotations

import copy
import html
import json
import os
import re
import sys

import nbformat
import pytest

from support.nbgrader_harness import BIN, HOMEWORK, OUTCOMES, REPO, load_config, max_score, run_batch

ASSIGNMENTS = HOMEWORK  # every folder of solutions/: a new homework is tested without editing this file
MAX_SCORE = {a: max_score(a) for a in ASSIGNMENTS}
TEST_TIMEOUT = 5  # per-cell Execute timeout used in these tests (committed config: 10 s)


# --- config -------------------------------------------------------------------------------------
def test_config_loads_and_is_hardened():
    from nbgrader.preprocessors import ClearHiddenTests, LimitOutput

    from armlab.autograde.preprocessors import InjectGradingImport, LimitOutputChars, ShortenTracebacks

    cfg = load_config()
    assert cfg.CourseDirectory.source_directory == "solutions"
    assert cfg.CourseDirectory.release_directory == "exercises"
    assert 5 <= cfg.Execute.timeout <= 15  # per-cell timeout, ~10 s
    assert cfg.OverwriteCells.add_missing_cells is True
    pre = cfg.Autograde.autograde_preprocessors
    assert pre[0] is InjectGradingImport
    assert pre.index(LimitOutputChars) == pre.index(LimitOutput) + 1
    from armlab.autograde.preprocessors import BakeAnswerKey

    assert cfg.GenerateAssignment.preprocessors[0] is BakeAnswerKey  # before SaveCells stores the hidden tests
    fb = cfg.GenerateFeedback.preprocessors
    assert ClearHiddenTests in fb and ShortenTracebacks in fb
    assert fb.index(ClearHiddenTests) < fb.index(ShortenTracebacks)


def test_config_finds_hardening_without_armlab_installed(tmp_path):
    """The config puts <repo>/lib on sys.path itself, so it works where armlab is not installed."""
    import subprocess

    import site

    packages = [p for p in site.getsitepackages() if os.path.isdir(p)]
    code = f"""
import sys
sys.path += {packages!r}  # without processing .pth files: the editable armlab is invisible
import importlib.util
assert importlib.util.find_spec("armlab") is None, "armlab should not be importable here"
from traitlets.config.loader import PyFileConfigLoader
PyFileConfigLoader("nbgrader_config.py", path={str(REPO)!r}).load_config()
import armlab.autograde.preprocessors as h
assert h.__file__.startswith({str(REPO / "lib")!r}), h.__file__
print("ok")
"""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # lib/ on PYTHONPATH is not "installed" either
    out = subprocess.run([sys.executable, "-S", "-c", code], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "ok"


def test_limit_output_chars_keeps_errors_and_caps_size():
    """Unit test of the character limit (no kernel): huge text, a huge image and an error."""
    from nbformat.v4 import new_code_cell, new_output

    from armlab.autograde.preprocessors import LimitOutputChars

    cell = new_code_cell("x")
    cell.outputs = [
        new_output("stream", name="stdout", text="x" * 10_000_000),
        new_output("display_data", data={"image/png": "A" * 2_000_000, "text/plain": "<Figure>"}),
        new_output(
            "execute_result", data={"text/html": "<img src='data:image/png;base64," + "B" * 14_000 + "' alt='P'>"}
        ),
        *[new_output("stream", name="stdout", text="y" * 9_000) for _ in range(20)],
        new_output("error", ename="AssertionError", evalue="m" * 100_000, traceback=["t" * 50_000] * 200),
    ]
    pp = LimitOutputChars()
    out, _ = pp.preprocess_cell(cell, {}, 0)
    size = len(json.dumps(out))
    assert size < 100_000
    assert out.outputs[0].text.startswith("x" * 100) and "truncated" in out.outputs[0].text
    assert "image/png" not in out.outputs[1].data
    # a figure's <img> cut in half would leave the feedback page's markup open: it goes whole
    assert "text/html" not in out.outputs[2].data and "characters removed" in out.outputs[2].data["text/plain"]
    errors = [o for o in out.outputs if o.output_type == "error"]
    assert len(errors) == 1 and errors[0].ename == "AssertionError"  # the cell still scores zero
    assert "removed by the autograder" in out.outputs[-1].text


def test_shorten_tracebacks_only_in_graded_cells():
    from nbformat.v4 import new_code_cell, new_output

    from armlab.autograde.preprocessors import ShortenTracebacks

    err = dict(
        ename="AssertionError",
        evalue="T_AB: wrong composition order",
        traceback=["----> 3 check_transform(T_AB, [('Rot', 'x', 25, 'deg')])", "AssertionError: ..."],
    )
    graded = new_code_cell(
        "hidden",
        metadata={"nbgrader": {"grade": True, "grade_id": "t", "points": 1, "solution": False, "locked": True}},
    )
    graded.outputs = [new_output("error", **copy.deepcopy(err))]
    student = new_code_cell("mine")
    student.outputs = [new_output("error", **copy.deepcopy(err))]
    pp = ShortenTracebacks()
    g, _ = pp.preprocess_cell(graded, {}, 0)
    s, _ = pp.preprocess_cell(student, {}, 1)
    assert g.outputs[0].traceback == ["AssertionError: T_AB: wrong composition order"]
    assert s.outputs[0].traceback == err["traceback"]


@pytest.fixture(scope="module")
def course(tmp_path_factory, monkeypatch_module, selected_homework):
    """Every submission of every assignment (of those ``--homework`` names, if it does), autograded in one batch by
    ``armlab-grade --workers 2``: nbgrader's own autograde per submission, with the scores serial
    ``nbgrader autograde`` gives (test_batch_grading.py)."""
    monkeypatch_module.setenv("PATH", BIN + os.pathsep + os.environ.get("PATH", ""))  # nbgrader runs `alembic`
    pytest.importorskip("distributed")
    assignments = [a for a in ASSIGNMENTS if not selected_homework or a in selected_homework]
    return run_batch(tmp_path_factory.mktemp("course"), assignments, timeout=TEST_TIMEOUT, workers=2)


# --- release ---------------------------------------------------------------------------------------
NUMBER = re.compile(r"-?\d+\.\d*(?:e[-+]?\d+)?|-?\d+e[-+]?\d+")


def same_release(fresh: str, committed: str) -> bool:
    """The same text, byte for byte, or but for the last bits of the answer keys' numbers (another machine's libm
    or BLAS may round a sin or a solve one ulp differently): relative 1e-13, far below any test's tolerance."""
    if fresh == committed:
        return True
    a, b = NUMBER.split(fresh), NUMBER.split(committed)
    x, y = NUMBER.findall(fresh), NUMBER.findall(committed)
    return (
        a == b
        and len(x) == len(y)
        and all(abs(float(u) - float(v)) <= 1e-13 * max(1.0, abs(float(v))) for u, v in zip(x, y))
    )


def test_same_release_tolerates_the_last_bits_only():
    assert same_release("[0.1, 2.0000000000000004]", "[0.1, 2.0]")
    assert not same_release("[0.1, 2.001]", "[0.1, 2.0]") and not same_release("[0.1, 2.0] x", "[0.1, 2.0] y")


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_committed_exercises_are_up_to_date(course, assignment):
    """`nbgrader generate_assignment` output equals the committed exercises/ (byte for byte on this machine)."""
    fresh = course["root"] / "exercises" / assignment
    committed = REPO / "exercises" / assignment
    names = sorted(p.name for p in fresh.iterdir())
    assert names == sorted(p.name for p in committed.iterdir())
    for name in names:
        assert same_release((fresh / name).read_text(), (committed / name).read_text()), (
            f"exercises/{assignment}/{name} is stale: run  nbgrader generate_assignment '*' --no-db --force"
        )


def _solution_lines(nb):
    """Lines between BEGIN/END SOLUTION and BEGIN/END HIDDEN TESTS markers (non-trivial ones), and those of the
    answer key cells, which count as hidden: but not a key line the statement or the solution shows too, an
    import, or a key's message naming a mistake (visible tests name mistakes)."""
    sol, hidden, key, shown = [], [], [], set()
    for c in nb.cells:
        if c.source.startswith("### ANSWER KEY"):
            key += [line.strip() for line in c.source.splitlines() if len(line.strip()) > 12]
            continue
        region = None
        for line in c.source.splitlines():
            if "BEGIN SOLUTION" in line:
                region = sol
            elif "BEGIN HIDDEN TESTS" in line:
                region = hidden
            elif "END SOLUTION" in line or "END HIDDEN TESTS" in line:
                region = None
            elif region is not None and len(line.strip()) > 12 and not line.strip().startswith("#"):
                region.append(line.strip())
            elif region is None:
                shown.add(line.split("  #")[0].strip())
    public = ("#", '"', "'", 'f"', "import ", "from ")
    # a key line the solution has too (comments aside) is the student's own to write (a wrong submission keeps it)
    own = shown | {line.split("  #")[0].strip() for line in sol}
    return sol, hidden + [
        line for line in key if line.split("  #")[0].strip() not in own and not line.startswith(public)
    ]


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_no_solution_or_hidden_test_leaks_into_exercises(assignment):
    solution = nbformat.read(REPO / "solutions" / assignment / f"{assignment}.ipynb", as_version=4)
    sol, hidden = _solution_lines(solution)
    assert len(sol) >= 5 and len(hidden) >= 5
    text = (REPO / "exercises" / assignment / f"{assignment}.ipynb").read_text()
    body = "\n".join(c.source for c in nbformat.reads(text, as_version=4).cells)
    for line in sol + hidden:
        assert line not in body, f"leaked into exercises/{assignment}: {line!r}"
    for marker in ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS", "ANSWER KEY", "KEY_"):
        assert marker not in text
    # nothing else (answer keys, data) is copied along with the notebook
    assert sorted(p.name for p in (REPO / "exercises" / assignment).iterdir()) == [f"{assignment}.ipynb"]


@pytest.mark.parametrize("folder", ["solutions", "exercises"])
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_outputs_are_cleared(folder, assignment):
    nb = nbformat.read(REPO / folder / assignment / f"{assignment}.ipynb", as_version=4)
    for c in nb.cells:
        if c.cell_type == "code":
            assert c.outputs == [] and c.execution_count is None


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_part_has_visible_and_hidden_tests(assignment):
    nb = nbformat.read(REPO / "solutions" / assignment / f"{assignment}.ipynb", as_version=4)
    meta = [c.metadata.get("nbgrader", {}) for c in nb.cells]
    solutions = [m["grade_id"] for m in meta if m.get("solution")]
    assert 4 <= len(solutions) <= 6
    for sid in solutions:
        part = sid.split("_")[0]
        tests = {m["grade_id"]: m for m in meta if m.get("grade") and m["grade_id"].startswith(part + "_")}
        assert set(tests) == {f"{part}_visible", f"{part}_hidden"}, sid
        assert all(t["locked"] and t["points"] > 0 for t in tests.values())
    setup = nb.cells[1]
    assert setup.metadata["nbgrader"]["locked"] and "import armlab.grading" in setup.source.splitlines()[1]


@pytest.mark.homework("hw03_inverse_kinematics")
def test_hw03_parts_are_worth_one_visible_and_two_hidden_points():
    a = "hw03_inverse_kinematics"
    nb = nbformat.read(REPO / "solutions" / a / f"{a}.ipynb", as_version=4)
    meta = [c.metadata.get("nbgrader", {}) for c in nb.cells]
    assert len([m for m in meta if m.get("solution")]) == 5
    points = {m["grade_id"]: m["points"] for m in meta if m.get("grade")}
    assert points == {f"p{i}_{kind}": p for i in range(1, 6) for kind, p in (("visible", 1), ("hidden", 2))}


# --- autograde ------------------------------------------------------------------------------------
def test_every_submission_was_graded_in_one_batch(course):
    assert len(course["graded"]) == len(course["expected"]) >= 23
    for key, (res, (score, most, cells)) in course["graded"].items():
        assert score is not None and most > 0, key
        assert cells, key


@pytest.mark.homework("hw01_transforms")
def test_dead_kernel_is_reported_and_batch_continues(course):
    res, _ = course["graded"][("hw01_transforms", "os_exit")]
    assert not res["success"]
    # students graded after it still got their scores (the batch did not stop)
    keys = list(course["expected"])
    after = keys[keys.index(("hw01_transforms", "os_exit")) + 1 :]
    assert after and all(course["graded"][k][1][0] is not None for k in after)


@pytest.mark.homework("hw01_transforms")
@pytest.mark.parametrize("student", ["million_lines", "huge_line"])
def test_graded_notebook_stays_small(course, student):
    a = "hw01_transforms"
    path = course["root"] / "autograded" / student / a / f"{a}.ipynb"
    assert path.stat().st_size < 1_000_000
    text = path.read_text()
    assert "truncated" in text


@pytest.mark.homework("hw03_inverse_kinematics")
def test_partial_credit_is_per_cell(course):
    cells = course["graded"][("hw03_inverse_kinematics", "partial")][1][2]
    assert cells["p5_visible"] == (1.0, 1.0) and cells["p5_hidden"] == (0.0, 2.0)
    cells = course["graded"][("hw03_inverse_kinematics", "wrong")][1][2]
    assert cells["p1_hidden"][0] == cells["p2_hidden"][0] == 0.0 and cells["p3_hidden"] == (2.0, 2.0)
    cells = course["graded"][("hw03_inverse_kinematics", "old_ranges")][1][2]  # θ3 range of the first release
    assert cells["p5_visible"] == (0.0, 1.0) and cells["p5_hidden"] == (0.0, 2.0) and cells["p4_hidden"] == (2.0, 2.0)


@pytest.mark.homework("hw01_transforms")
def test_grading_import_runs_before_student_code(course):
    a = "hw01_transforms"
    nb = nbformat.read(course["root"] / "autograded" / "monkeypatch" / a / f"{a}.ipynb", as_version=4)
    assert nb.cells[0].source.endswith("import armlab.grading")


# --- feedback -------------------------------------------------------------------------------------
def _visible_text(html_text):
    return html.unescape(re.sub(r"<[^>]+>", "", html_text))


@pytest.mark.homework("hw01_transforms")
@pytest.mark.parametrize(
    "student", ["solution", "blank", "wrong", "monkeypatch", "deleted_tests", "stripped_blank", "huge_line"]
)
def test_feedback_hides_hidden_tests_and_tracebacks(course, student):
    a = "hw01_transforms"
    api = course["api"]
    res = api.generate_feedback(a, student)
    assert res["success"], res.get("error")
    path = course["root"] / "feedback" / student / a / f"{a}.html"
    raw = path.read_text()
    assert path.stat().st_size < 1_000_000
    text = _visible_text(raw)
    solution = nbformat.read(REPO / "solutions" / a / f"{a}.ipynb", as_version=4)
    _, hidden = _solution_lines(solution)
    for line in hidden:
        assert line not in text, f"hidden test in feedback: {line!r}"
    assert "['z', 3.5]" not in text  # an input of the hidden tests' answer key
    assert "grading.py" not in text  # no traceback frames from inside the checkers
    if student in ("wrong", "blank"):
        assert "AssertionError" in text or "NotImplementedError" in text  # students still see why
    if student == "blank":  # armlab.grading.feedback, active in the grading kernel too
        assert "NameError: T_AB is not defined yet — fill in the cell above and run it" in text


@pytest.mark.parametrize("outcome", OUTCOMES, ids=lambda o: f"{o.homework}-{o.student}")
def test_submission_gets_its_expected_outcome(course, outcome):
    """One row of the table of expected outcomes (``OUTCOMES`` in tests/support/nbgrader_harness.py): the
    autograded score (points restored to the released maximum), and for the rows that list words, the
    feedback names those mistakes but shows no hidden test and no traceback frame of the checkers."""
    a, student = outcome.homework, outcome.student
    res, (score, mx, cells) = course["graded"][(a, student)]
    assert mx == MAX_SCORE[a]  # points restored
    assert score == outcome.score, (score, outcome.score, cells, res.get("error"))  # and the batch's reason
    if student == "solution":
        assert outcome.score == MAX_SCORE[a]  # full marks
    elif student == "blank":
        assert outcome.score == 0.0
    if not outcome.feedback:
        return
    res = course["api"].generate_feedback(a, student)
    assert res["success"], res.get("error")
    text = _visible_text((course["root"] / "feedback" / student / a / f"{a}.html").read_text())
    _, hidden = _solution_lines(nbformat.read(REPO / "solutions" / a / f"{a}.ipynb", as_version=4))
    for line in hidden:
        assert line not in text, f"hidden test in feedback: {line!r}"
    assert "grading.py" not in text and "armlab/grading/" not in text  # no traceback frames of the checkers
    one_line = " ".join(text.split())  # a checker's verdict is broken into lines that `nbgrader validate` shows whole
    for words in outcome.feedback:
        assert words in one_line, f"{a}/{student}: the feedback does not say {words!r}"


def test_every_submission_has_one_row_in_the_table(course):
    assert set(course["expected"]) == {(o.homework, o.student) for o in OUTCOMES if o.homework in ASSIGNMENTS}


CELL_SCORES = json.loads((REPO / "tests" / "support" / "cell_scores.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("row", sorted(k for k in CELL_SCORES if not k.startswith("_")))
def test_every_test_cell_scores_as_recorded(course, row):
    """The points of each test cell, recorded for hw01–hw04 before they moved to answer keys: not only the total."""
    a, student = row.split("/")
    if (a, student) not in course["graded"]:
        pytest.skip(f"{a} is not graded in this run")
    _, (_, _, cells) = course["graded"][(a, student)]
    assert {c: s for c, (s, _) in cells.items()} == CELL_SCORES[row]
