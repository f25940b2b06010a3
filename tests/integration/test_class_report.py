"""The class report (``armlab-grade report``, armlab.class_report) on a graded class: hw01's simulated
submissions autograded by armlab-grade (nbgrader's autograde, two workers), their counts checked against the
feedback files the students get; then a class of 200 made from them (the same graded notebooks and gradebook rows under 200 new ids, a few of them
failed by the batch), whose page is opened in Chromium: it renders, its figures are named images, and axe-core
finds no WCAG 2.1 A/AA violation."""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from support.nbgrader_harness import BIN, EXPECTED, run_batch

pytestmark = pytest.mark.homework("hw01_transforms")  # grades it

A = "hw01_transforms"
#: right, blank, wrong in three parts, wrong in one, a monkeypatcher, a time-out in part 6, a dead kernel
STUDENTS = ("solution", "blank", "wrong", "part3_wrong_only", "monkeypatch", "infinite_loop", "os_exit")
ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "tests" / "browser" / "node_modules" / "axe-core" / "axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
CLASS = 200
BATCH_FAILED = 5  # of the 200: armlab-grade could not grade them (timed out), as BATCH_FAILURE.txt says


@pytest.fixture(scope="module")
def graded(tmp_path_factory, monkeypatch_module):
    """hw01 released, the students' submissions autograded as an instructor grades them (armlab-grade, two workers,
    5 s a cell), their feedback written."""
    monkeypatch_module.setenv("PATH", BIN + os.pathsep + os.environ.get("PATH", ""))  # nbgrader runs `alembic`
    course = run_batch(tmp_path_factory.mktemp("class"), [A], timeout=5, select={(A, s) for s in STUDENTS}, workers=2)
    for student in STUDENTS:
        course["api"].generate_feedback(A, student)  # none for os_exit: it has no graded notebook
    return course


def _report(root):
    from armlab.class_report.collect import read_class
    from armlab.class_report.summary import summarise

    return summarise(read_class(A, root))


def _feedback_cells(root, student):
    """{grade id: (score, max score, the cell's text)} from a student's feedback HTML, as the student reads it."""
    path = root / "feedback" / student / A / f"{A}.html"
    if not path.exists():
        return {}
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", path.read_text())).split())
    cells = {}
    for part in text.split("Grade cell: ")[1:]:
        m = re.match(r"(\S+) Score: ([\d.]+) / ([\d.]+)", part)
        said = part.partition("Error: ")[2]  # what the cell printed, not its source (a visible test shows its key)
        cells[m.group(1)] = (float(m.group(2)), float(m.group(3)), said)
    return cells


def test_armlab_grade_report_writes_the_page_and_the_csv_into_the_course(graded):
    root = graded["root"]
    out = subprocess.run(
        [str(Path(BIN) / "armlab-grade"), "report", A],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        env={
            **os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "lib"), os.environ.get("PYTHONPATH")])),
        },
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"{A}: class report in {root / 'reports' / (A + '.html')} (and {A}.csv beside it)"
    page = (root / "reports" / f"{A}.html").read_text()
    table = (root / "reports" / f"{A}.csv").read_text()
    assert page.count("<svg") == 7 and "wrong composition order" in page and "timed out" in page
    assert table.splitlines()[0].startswith("assignment,question,question_title,row,item,students")
    bad = subprocess.run(
        [str(Path(BIN) / "armlab-grade"), "report", "hw99"], cwd=root, capture_output=True, text=True, timeout=300
    )
    assert bad.returncode != 0 and "'hw99' is not in the gradebook" in bad.stderr


def test_the_counts_are_those_of_the_feedback_files(graded):
    """Each mistake of each question: the students whose feedback says it in that question's test cells; each
    test: the students whose feedback shows it below full marks; each total: the expected score."""
    root = graded["root"]
    report = _report(root)
    feedback = {s: _feedback_cells(root, s) for s in STUDENTS}
    assert sorted(report.totals) == sorted(EXPECTED[(A, s)] for s in STUDENTS)
    for qs in report.questions:
        for c in qs.mistakes:
            words = [w.strip(" ,") for w in c.label.split("…") if w.strip(" ,")]
            said = {
                s
                for s, cells in feedback.items()
                for t in qs.question.tests
                if t.name in cells and all(w in cells[t.name][2] for w in words)
            }
            assert c.students == said, (qs.question.id, c.label)
        for tc in qs.tests:
            below = {
                s for s, cells in feedback.items() if tc.test.name in cells and cells[tc.test.name][0] < tc.test.points
            }
            assert tc.failed - {"os_exit"} == below, tc.test.name  # os_exit: no graded notebook, no feedback
    by_question = {qs.question.id: qs for qs in report.questions}

    def students(question, key):
        qs = by_question[question]
        return next((c.students for c in qs.mistakes + qs.undiagnosed if c.key.startswith(key)), set())

    # what tests/support/nbgrader_harness.py's OUTCOMES say these students' feedback names
    assert students("p1", "this is the transpose of the expected rotation") == {"wrong"}
    assert students("p3", "looks like degrees were used where radians were expected") == {"wrong", "part3_wrong_only"}
    assert students("p5", "right matrices, wrong composition order") == {"wrong"}
    assert students("p6", "timed out") == {"infinite_loop"}  # its answer cell ran past 5 s
    assert all(students(q, "not graded") == {"os_exit"} for q in by_question)  # its kernel died
    assert students("p3", "mismatch") == {"monkeypatch"}  # "is off by up to 6": no diagnosis
    assert [len(qs.scores) for qs in report.questions] == [len(STUDENTS)] * 6


def _class_of(root, dest, size):
    """A copy of the graded course whose gradebook and autograded folder hold ``size`` students s0001…, each
    the copy of one graded student in turn (the last BATCH_FAILED of them failed by armlab-grade, with zero);
    returns {new student: the student copied, or None}."""
    from nbgrader.api import Gradebook

    shutil.copytree(root, dest)
    made = {}
    with Gradebook(f"sqlite:///{dest / 'gradebook.db'}", "") as gb:
        scores = {
            s: {g.name: g.auto_score for nb in gb.find_submission(A, s).notebooks for g in nb.grades} for s in STUDENTS
        }
        for s in STUDENTS:
            gb.remove_submission(A, s)
            gb.remove_student(s)
        for i in range(1, size + 1):
            new = f"s{i:04d}"
            copied = STUDENTS[i % len(STUDENTS)] if i <= size - BATCH_FAILED else None
            gb.add_student(new, first_name=f"Ada{i}", last_name=f"Lovelace{i}", email=f"{new}@uni.example")
            sub = gb.add_submission(A, new)
            folder = dest / "autograded" / new / A
            if copied and (root / "autograded" / copied / A).is_dir():
                shutil.copytree(root / "autograded" / copied / A, folder)
            elif copied is None:
                folder.mkdir(parents=True)
                (folder / "BATCH_FAILURE.txt").write_text(f"{new}: timed out after 300 s\n")
            for nb in sub.notebooks:
                for g in nb.grades:
                    g.auto_score = scores[copied][g.name] if copied else 0.0
                    g.needs_manual_grade = copied is None
            made[new] = copied
        gb.db.commit()
    return made


@pytest.fixture(scope="module")
def class_of_200(graded, tmp_path_factory):
    from armlab.class_report import write_report

    root = tmp_path_factory.mktemp("class200") / "course"
    made = _class_of(graded["root"], root, CLASS)
    html_path, csv_path = write_report(A, root)
    return root, made, html_path, csv_path


def test_a_class_of_200_counts_each_mistake_as_its_students_made_it(graded, class_of_200):
    import csv

    root, made, html_path, csv_path = class_of_200
    small, big = _report(graded["root"]), _report(root)
    copies = Counter(made.values())
    assert big.students == CLASS and big.not_graded == BATCH_FAILED + copies["os_exit"]
    assert sorted(big.totals) == sorted(EXPECTED[(A, s)] if s else 0.0 for s in made.values())
    for q_small, q_big in zip(small.questions, big.questions):
        for c in q_small.mistakes:
            (b,) = [x for x in q_big.mistakes if x.key == c.key]
            assert len(b.students) == sum(copies[s] for s in c.students), c.label
            assert b.students == {new for new, s in made.items() if s in c.students}
        failed = [x for x in q_big.undiagnosed if x.key == "not graded: timed out after # s"]
        assert len(failed) == 1 and len(failed[0].students) == BATCH_FAILED
    rows = list(csv.DictReader(csv_path.open(encoding="utf-8")))
    degrees = [r for r in rows if r["question"] == "p3" and r["row"] == "mistake" and "degrees" in r["item"]]
    assert [r["students"] for r in degrees] == [str(copies["wrong"] + copies["part3_wrong_only"])]
    text = html_path.read_text() + csv_path.read_text()
    assert not re.search(r"\bs\d{4}\b|Ada\d|Lovelace\d|uni\.example", text)  # no id, name or e-mail
    assert len(html_path.read_text()) < 150_000


AXE_JS = """async (tags) => {
  const r = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  return r.violations.map(v => `${v.id} (${v.impact}, ${v.nodes.length}×): ${v.help}: ` +
    v.nodes.slice(0, 3).map(n => n.target.join(' ')).join('; '));
}"""


def test_the_page_of_200_renders_with_named_figures_and_no_wcag_violation(class_of_200):
    from support.browser import bb

    if bb.chromium_path() is None or not AXE.exists():
        reason = "chromium or axe-core is missing (apt-get install chromium; cd tests/browser && npm ci)"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}, and CI is set")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    root, made, html_path, _ = class_of_200
    with sync_playwright() as pw:
        chrome = pw.chromium.launch(executable_path=bb.chromium_path(), args=bb.CHROMIUM_ARGS)
        try:
            page = chrome.new_page(viewport={"width": 1366, "height": 768})
            errors = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("request", lambda r: errors.append(r.url) if not r.url.startswith("file:") else None)
            page.goto(html_path.as_uri())
            figures = page.evaluate(
                """() => [...document.querySelectorAll('figure svg')].map(s => ({
                  role: s.getAttribute('role'), name: s.getAttribute('aria-label'),
                  width: s.getBoundingClientRect().width, bars: s.querySelectorAll('rect').length}))"""
            )
            assert len(figures) == 1 + 6  # the total, then one per question
            for f in figures:
                assert f["role"] == "img" and f["name"].startswith("Score distribution of") and "students" in f["name"]
                assert f["width"] > 300 and f["bars"] >= 3  # part 2 (2 points): 0, 1, 2
            assert "200 students" in figures[0]["name"]
            assert page.locator("h2").count() == 1 + 6 and page.locator("table").count() >= 6 * 3 + 1
            page.add_script_tag(path=str(AXE))
            violations = page.evaluate(AXE_JS, WCAG_TAGS)
            assert violations == [], "\n".join(violations)
            assert errors == []  # nothing fetched, nothing failed
        finally:
            chrome.close()
