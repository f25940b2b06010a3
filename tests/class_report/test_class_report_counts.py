"""The class report's grouping and counting (armlab.class_report) on synthetic data: the feedback messages
of armlab.grading's checkers grouped by their diagnosis, students counted once per mistake and question, the
undiagnosed failures kept apart, and a page for 200 students that stays short and names nobody.
(tests/integration/test_class_report.py runs it on a graded class.)"""

from __future__ import annotations

import csv
import io
import os
import re

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from armlab.class_report.collect import ClassData, Question, Submission, GradeCell, causes_in_notebook, questions_of
from armlab.class_report.diagnoses import anonymised, cause_of_error, diagnosis_clause
from armlab.class_report.render import TOP_MISTAKES, csv_text, page
from armlab.class_report.summary import histogram, summarise

TRANSPOSE = (
    "my_Rot: this is the transpose of the expected rotation\n(rows and columns swapped, or R(axis, −θ) instead of "
    'R(axis, θ))\nin my_Rot("z", π/2)'
)
DEGREES = "T_AB: looks like degrees were used where radians were expected\n(got 90, 45, expected 1.5708, 0.785398)"


# --- one message → one mistake ------------------------------------------------------------------
def test_the_same_verdict_with_other_numbers_and_calls_is_one_mistake():
    a = cause_of_error("AssertionError", TRANSPOSE)
    b = cause_of_error("AssertionError", TRANSPOSE.replace('my_Rot("z", π/2)', "my_Rot('x', 0.4)"))
    c = cause_of_error("AssertionError", DEGREES)
    d = cause_of_error("AssertionError", DEGREES.replace("90, 45", "30").replace("1.5708, 0.785398", "0.523599"))
    assert a.kind == c.kind == "mistake"
    assert a.key == b.key == "this is the transpose of the expected rotation" and a.what == "my_Rot"
    assert c.key == d.key == "looks like degrees were used where radians were expected" and c.what == "T_AB"
    assert a.message == TRANSPOSE  # the example keeps the whole message


@pytest.mark.parametrize(
    "message, key",
    [
        # the diagnosis ends at ": " (details follow), at "; ", or before a final remark in parentheses
        ("T_fixed: right matrices, wrong composition order:\nyou multiplied them in reverse.", None),
        ("propagate: returned (v, ω): the order asked is (ω, v)", "returned (v, ω)"),
        ("my_Rot: the last row must be [0, 0, 0, 1], got [0, 0, 0, 0]", "the last row must be #, got #"),
        (
            "q: right magnitudes but the sign is flipped at index (0,), (2,)",
            "right magnitudes but the sign is flipped at index #",
        ),
        ("theta1: off by π (180°): check the atan2 argument order", "off by π (#°)"),
        # a hint an instructor writes in a test cell: grouped by its own words, with no list to update
        ("T_AB: used Rot(z, −θ); the rotation turns the wrong way", "used Rot(z, −θ)"),
    ],
)
def test_the_key_is_the_diagnosis_clause_with_numbers_normalised(message, key):
    cause = cause_of_error("AssertionError", message)
    assert cause.kind == "mistake"
    assert cause.key == (key or "right matrices, wrong composition order")


@pytest.mark.parametrize(
    "ename, evalue, label",
    [
        (
            "AssertionError",
            "T_AB: is off by up to 6 at index (0, 3)\n(got 0, expected 6; tolerance 1e-06)",
            "plain mismatch",
        ),
        ("AssertionError", "theta: got [0.1, 0.2] (rad), expected [0.3, 0.4] (compared modulo 2π)", "plain mismatch"),
        ("AssertionError", "p_inv: is not equal to the expected expression;\nat a=1 it gives 2", "plain mismatch"),
        ("AssertionError", "", "a plain assert failed"),
        ("CellTimeoutError", "", "timed out"),
        (
            "NameError",
            "p_inv is not defined yet — fill in the cell above and run it",
            "NameError: p_inv is not defined yet",
        ),
        ("ZeroDivisionError", "division by zero", "ZeroDivisionError: division by zero"),
    ],
)
def test_failures_without_a_diagnosis_are_counted_as_such(ename, evalue, label):
    cause = cause_of_error(ename, evalue)
    assert cause.kind == "undiagnosed" and label in cause.label


def test_the_clause_keeps_a_parenthesis_inside_it_and_drops_a_final_remark():
    assert diagnosis_clause("returned (v, ω): the order asked is (ω, v)") == "returned (v, ω)"
    assert diagnosis_clause("the translation is missing (use [x, y, z, 1])") == "the translation is missing"
    assert diagnosis_clause("expected 3 roots (sorted)") == "expected 3 roots"


def test_anonymised_removes_the_id_names_and_email_as_words_only():
    who = ("s0042", "Ada", "Lovelace", "ada@uni.example")
    text = "s0042: file /home/s0042/hw.ipynb by Ada Lovelace (ada@uni.example); s00420 and Adamant stay"
    out = anonymised(text, who)
    assert "s0042:" not in out and "/s0042/" not in out and "Ada " not in out and "ada@" not in out
    assert "s00420" in out and "Adamant" in out


# --- the causes in an autograded notebook -----------------------------------------------------------
def _cell(grade_id, *errors, grade=True):
    cell = new_code_cell("# a test\ncheck(x)")
    cell.metadata["nbgrader"] = {"grade_id": grade_id, "grade": grade, "points": 1, "solution": not grade}
    cell.outputs = [new_output("error", ename=e, evalue=v, traceback=[]) for e, v in errors]
    return cell


def test_a_time_out_in_an_answer_cell_is_the_cause_of_its_questions_failed_tests_only():
    nb = new_notebook(
        cells=[
            _cell("p1_answer", ("KeyboardInterrupt", ""), ("CellTimeoutError", ""), grade=False),
            _cell("p1_visible", ("NameError", "x is not defined yet — fill in the cell above")),
            _cell("p1_hidden", ("NameError", "x is not defined yet — fill in the cell above")),
            _cell("p2_answer", grade=False),
            _cell("p2_visible", ("AssertionError", TRANSPOSE)),
            _cell("p2_hidden"),  # lost points without an error (a manual score)
        ]
    )
    questions = {g: g[:2] for g in ("p1_visible", "p1_hidden", "p2_visible", "p2_hidden")}
    causes = causes_in_notebook(nb, set(questions), questions)
    assert causes["p1_visible"].key == causes["p1_hidden"].key == "timed out"
    assert causes["p2_visible"].key == "this is the transpose of the expected rotation"
    assert causes["p2_hidden"].key == "no error"


def test_questions_are_the_parts_of_the_grade_ids_titled_by_their_headings():
    nb = new_notebook(
        cells=[new_markdown_cell("## Part 1 — `my_Rot` (3 points)"), _cell("p1_visible"), _cell("p1_hidden")]
    )
    tests = [
        GradeCell("p1_visible", "hw", "", 1.0),
        GradeCell("p1_hidden", "hw", "", 2.0),
        GradeCell("p2_visible", "hw", "", 1.0),
    ]
    qs = questions_of(tests, {"hw": nb})
    assert [(q.id, q.title, q.points) for q in qs] == [("p1", "Part 1 — my_Rot (3 points)", 3.0), ("p2", "p2", 1.0)]
    # ids without the course's prefix: each grade cell is a question
    assert [q.id for q in questions_of([GradeCell("a", "hw", "", 1.0), GradeCell("b", "hw", "", 1.0)], {})] == [
        "a",
        "b",
    ]


# --- counting a class of 200 -------------------------------------------------------------------------
def _class_of_200() -> ClassData:
    """p1 (visible 1 + hidden 2 points): students 0–59 transpose both tests, 60–89 degrees in the hidden one,
    90–99 time out; 12 rare mistakes, by one student each; the rest right. p2: everybody right."""
    p1 = Question("p1", "Part 1", [GradeCell("p1_visible", "hw", "p1", 1.0), GradeCell("p1_hidden", "hw", "p1", 2.0)])
    p2 = Question("p2", "Part 2", [GradeCell("p2_visible", "hw", "p2", 1.0)])
    subs = []
    for i in range(200):
        student = f"s{i:04d}"
        scores, causes = {"p1_visible": 1.0, "p1_hidden": 2.0, "p2_visible": 1.0}, {}
        if i < 60:
            note = TRANSPOSE.replace("π/2", f"{i}") + (f" (student {student})" if i == 0 else "")
            scores.update(p1_visible=0.0, p1_hidden=0.0)
            causes = {t: cause_of_error("AssertionError", note) for t in ("p1_visible", "p1_hidden")}
        elif i < 90:
            scores["p1_hidden"] = 0.0
            causes = {"p1_hidden": cause_of_error("AssertionError", DEGREES.replace("90", str(i)))}
        elif i < 100:
            scores.update(p1_visible=0.0, p1_hidden=0.0)
            causes = {t: cause_of_error("CellTimeoutError", "") for t in ("p1_visible", "p1_hidden")}
        elif i < 112:
            scores["p1_hidden"] = 0.0
            causes = {
                "p1_hidden": cause_of_error("AssertionError", f"R: rare mistake number {chr(65 + i - 100)}x here")
            }
        subs.append(Submission(student, (student, f"First{i}", f"Last{i}", ""), scores, causes))
    return ClassData("hw", [p1, p2], subs)


def test_students_are_counted_once_per_mistake_and_question_and_ranked():
    report = summarise(_class_of_200())
    p1, p2 = report.questions
    top = p1.mistakes[0]
    assert (top.key, len(top.students), top.cells) == ("this is the transpose of the expected rotation", 60, 120)
    assert (p1.mistakes[1].key, len(p1.mistakes[1].students)) == (
        "looks like degrees were used where radians were expected",
        30,
    )
    assert len(p1.mistakes) == 2 + 12 and all(len(c.students) == 1 for c in p1.mistakes[2:])
    assert [(c.key, len(c.students)) for c in p1.undiagnosed] == [("timed out", 10)]
    assert "(student" not in top.example  # the example chosen is one without a student's id in it
    assert [(tc.test.name, len(tc.failed)) for tc in p1.tests] == [("p1_hidden", 112), ("p1_visible", 70)]
    assert p1.tests[0].causes.most_common(1) == [("my_Rot: this is the transpose of the expected rotation", 60)]
    # scores: 0 (70 students), 1 (42: visible only), 3 (88)
    assert histogram(p1.scores, 3.0) == [("0", 0.0, 70), ("1", 1.0, 42), ("2", 2.0, 0), ("3", 3.0, 88)]
    assert p2.mistakes == [] and p2.full_marks == 200
    assert report.max_score == 4.0 and len(report.totals) == 200


def test_the_page_for_200_students_is_short_and_names_nobody():
    data = _class_of_200()
    report = summarise(data)
    html, table = page(report), csv_text(report)
    for sub in data.submissions:  # no id, no name anywhere
        for word in sub.who:
            if word:
                assert not re.search(rf"\b{word}\b", html + table), word
    assert len(html) < 60_000
    # the top mistakes in full, the others summed up in one line; the CSV has them all
    rows = re.findall(r"<td>R: rare mistake number", html)
    assert len(rows) == TOP_MISTAKES - 2 and "6 more, each made by 1 student or fewer" in html
    records = list(csv.DictReader(io.StringIO(table)))
    mistakes = [r for r in records if r["question"] == "p1" and r["row"] == "mistake"]
    assert len(mistakes) == 14 and mistakes[0]["students"] == "60" and mistakes[0]["test_cells"] == "120"
    assert [r["students"] for r in records if r["question"] == "p1" and r["row"] == "score"] == ["70", "42", "0", "88"]
    # each figure is an image named with its numbers
    assert (
        'role="img" aria-label="Score distribution of Part 1 (200 students, out of 3 points): 0: 70 students;' in html
    )


def test_histogram_uses_half_points_and_ranges_for_long_scales():
    assert [b[0] for b in histogram([0.5, 1.0], 1.5)] == ["0", "0.5", "1", "1.5"]
    bars = histogram([0.0, 37.0, 100.0, 99.0], 100.0)
    assert len(bars) == 20 and bars[0] == ("0–5", 0.0, 1) and bars[-1][2] == 2 and sum(b[2] for b in bars) == 4


def test_an_unreadable_course_is_refused_with_its_path(tmp_path):
    from armlab.class_report.collect import read_class

    with pytest.raises(SystemExit, match="no nbgrader_config.py"):
        read_class("hw01", tmp_path)


def test_a_cell_not_graded_yet_leaves_its_student_out_of_the_distribution_and_says_so():
    data = _class_of_200()
    data.submissions[150].scores["p1_hidden"] = None  # a manual grade to come
    report = summarise(data)
    p1 = report.questions[0]
    assert (len(p1.scores), p1.ungraded) == (199, 1) and len(report.totals) == 199
    assert "over 199 students; 1 not fully graded yet" in page(report)
    assert "s0150" not in page(report)


@pytest.mark.integration  # nbgrader's Gradebook runs `alembic` to make its database
def test_an_assignment_of_two_notebooks_keeps_their_grade_cells_apart(tmp_path, monkeypatch):
    """The same grade id in two notebooks of one assignment: two tests, two questions, each its own cause."""
    from nbgrader.api import Gradebook

    from armlab.class_report.collect import read_class
    from support.nbgrader_harness import BIN

    monkeypatch.setenv("PATH", BIN + os.pathsep + os.environ.get("PATH", ""))

    (tmp_path / "nbgrader_config.py").write_text("c = get_config()\n")
    with Gradebook(f"sqlite:///{tmp_path / 'gradebook.db'}") as gb:
        gb.add_assignment("hw")
        for name, points in (("a", 1.0), ("b", 2.0)):
            gb.add_notebook(name, "hw")
            gb.add_grade_cell("p1_visible", name, "hw", max_score=points, cell_type="code")
        gb.add_student("s1")
        gb.add_submission("hw", "s1")
        gb.find_grade("p1_visible", "a", "hw", "s1").auto_score = 0.0
        gb.find_grade("p1_visible", "b", "hw", "s1").auto_score = 2.0
        gb.db.commit()
    for folder, errors in (("source/hw", ()), ("autograded/s1/hw", (("AssertionError", TRANSPOSE),))):
        (tmp_path / folder).mkdir(parents=True)
        for name in ("a", "b"):
            heading = new_markdown_cell(f"## Part 1 of {name}")
            nbformat.write(
                new_notebook(cells=[heading, _cell("p1_visible", *errors)]), tmp_path / folder / f"{name}.ipynb"
            )
    data = read_class("hw", tmp_path)
    assert [(q.id, q.title, q.points) for q in data.questions] == [
        ("a/p1", "Part 1 of a", 1.0),
        ("b/p1", "Part 1 of b", 2.0),
    ]
    (s1,) = data.submissions
    assert s1.scores == {"a/p1_visible": 0.0, "b/p1_visible": 2.0}
    assert {k: c.key for k, c in s1.causes.items()} == {
        "a/p1_visible": "this is the transpose of the expected rotation"
    }
