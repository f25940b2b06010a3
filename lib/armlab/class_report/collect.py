"""What the class report reads: nbgrader's gradebook (each student's score on each grade cell) and the
autograded notebooks (why each failed test cell failed: its error output).

A question is a part of the homework: the grade cells whose ids share a prefix ("p1_visible", "p1_hidden":
part ``p1``, the course's convention), titled by the heading above its first cell; where the ids have no
such prefix, each grade cell is a question of its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .diagnoses import NO_OUTPUT, TIMED_OUT, TIMEOUT_ERRORS, UNDIAGNOSED, Cause, cause_of_error, normalised

__all__ = ["GradeCell", "Question", "Submission", "ClassData", "read_class", "causes_in_notebook"]

PART = re.compile(r"^([A-Za-z]*\d+)_")
#: what ``armlab-grade`` writes into a submission's autograded folder when it could not grade it: "<student>: <why>"
FAILURE_FILE = "BATCH_FAILURE.txt"
HEADING = re.compile(r"^#+\s+(.+?)\s*#*\s*$", re.M)


@dataclass(frozen=True)
class GradeCell:
    """One grade cell: its ``name`` (its grade id; "notebook/grade id" in an assignment of several notebooks),
    notebook, question, points and what its first comment says."""

    name: str
    notebook: str
    question: str
    points: float
    comment: str = ""

    @property
    def grade_id(self) -> str:
        return self.name.rpartition("/")[2]


@dataclass
class Question:
    id: str
    title: str
    tests: list[GradeCell] = field(default_factory=list)

    @property
    def points(self) -> float:
        return sum(t.points for t in self.tests)


@dataclass
class Submission:
    """One student's graded submission: ``scores`` per grade cell (None: not graded yet) and the ``causes`` of
    the cells that lost points. ``who``: the id, names and e-mail that no report may show."""

    student: str
    who: tuple[str, ...]
    scores: dict[str, float | None]
    causes: dict[str, Cause]


@dataclass
class ClassData:
    assignment: str
    questions: list[Question]
    submissions: list[Submission]

    @property
    def max_score(self) -> float:
        return sum(q.points for q in self.questions)


def questions_of(tests: list[GradeCell], notebooks: dict[str, Any]) -> list[Question]:
    """``tests`` (in notebook order) grouped into questions, titled from the notebooks' headings."""
    prefixed = all(PART.match(t.grade_id) for t in tests)
    by_id: dict[str, Question] = {}
    for t in tests:
        part = PART.match(t.grade_id).group(1) if prefixed else t.grade_id  # type: ignore[union-attr]
        qid = t.name[: len(t.name) - len(t.grade_id)] + part
        by_id.setdefault(qid, Question(qid, _heading_above(notebooks.get(t.notebook), t.grade_id) or qid)).tests.append(
            GradeCell(t.name, t.notebook, qid, t.points, t.comment)
        )
    return list(by_id.values())


def _grade_id(cell: Any) -> str | None:
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return meta.get("grade_id") if meta.get("grade") else None


def _heading_above(nb: Any, grade_id: str) -> str:
    """The last markdown heading before the cell ``grade_id`` in ``nb``, without its markup."""
    title = ""
    for cell in nb.cells if nb is not None else ():
        if _grade_id(cell) == grade_id:
            return title
        if cell.cell_type == "markdown":
            found = HEADING.findall(cell.source)
            if found:
                title = found[-1].replace("`", "").replace("**", "")
    return ""


def _first_comment(source: str) -> str:
    for line in source.splitlines():
        if line.startswith("#") and not line.startswith("##"):
            return line.lstrip("# ").strip()
    return ""


def causes_in_notebook(nb: Any, failed: set[str], question_of: dict[str, str], prefix: str = "") -> dict[str, Cause]:
    """The cause of each failed grade cell of ``nb`` (autograded; its cells named ``prefix`` + grade id): its error
    output, or a time-out in its own question's cells before it (the answer cell ran past the limit, so the test
    found no answer)."""
    causes: dict[str, Cause] = {}
    timed_out_in: set[str] = set()
    pending = False  # a cell before the next grade cell timed out: an answer cell, in that cell's question
    for cell in nb.cells:
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        timed = any(o.get("ename") in TIMEOUT_ERRORS for o in errors)
        grade_id = _grade_id(cell)
        if grade_id is None:
            pending = pending or timed
            continue
        gid = prefix + grade_id
        question = question_of.get(gid, gid)
        if pending or timed:
            timed_out_in.add(question)
            pending = False
        if gid not in failed:
            continue
        if question in timed_out_in:
            causes[gid] = TIMED_OUT
        elif errors:
            causes[gid] = cause_of_error(errors[-1].get("ename", ""), errors[-1].get("evalue", ""))
        else:
            causes[gid] = NO_OUTPUT
    return causes


def not_graded(reason: str) -> Cause:
    """The cause of every lost point of a submission that has no graded notebook (``reason``: why, if known)."""
    text = reason.split(": ", 1)[1] if ": " in reason else reason  # BATCH_FAILURE.txt: "<student>: <reason>"
    text = text.strip() or "no autograded notebook (nbgrader could not run it: see its autograde log)"
    return Cause(UNDIAGNOSED, f"not graded: {normalised(text)}", f"not graded: {text}", text)


def course_directory(course: Path) -> Any:
    """nbgrader's ``CourseDirectory`` of the course at ``course``, as its ``nbgrader_config.py`` sets it."""
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config.loader import PyFileConfigLoader

    if not (course / "nbgrader_config.py").is_file():
        raise SystemExit(f"course: {course} has no nbgrader_config.py (run this in the course directory, or --course)")
    config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    config.CourseDirectory.root = str(course)
    return CourseDirectory(config=config)


def read_class(assignment: str, course: str | Path = ".") -> ClassData:
    """The gradebook rows and the autograded notebooks of ``assignment`` in the nbgrader course at ``course``.

    In an assignment of several notebooks a grade cell is "notebook/grade id" (nbgrader's ids are unique within a
    notebook only)."""
    import nbformat
    from nbgrader.api import Gradebook, MissingEntry

    coursedir = course_directory(Path(course).resolve())
    with Gradebook(coursedir.db_url, coursedir.course_id) as gb:
        try:
            a = gb.find_assignment(assignment)
        except MissingEntry:
            raise SystemExit(f"assignment: {assignment!r} is not in the gradebook ({coursedir.db_url})") from None
        points = {(nb.name, gc.name): float(gc.max_score or 0.0) for nb in a.notebooks for gc in nb.grade_cells}
        several = len(a.notebooks) > 1
        rows = []
        for sub in a.submissions:
            s = sub.student
            scores = {
                f"{nb.name}/{g.name}" if several else g.name: (None if g.score is None else float(g.score))
                for nb in sub.notebooks
                for g in nb.grades
            }
            rows.append((s.id, (s.id, s.first_name or "", s.last_name or "", s.email or ""), scores))
    source = Path(coursedir.format_path(coursedir.source_directory, ".", assignment))
    notebooks = {p.stem: nbformat.read(p, as_version=4) for p in sorted(source.glob("*.ipynb"))}
    order = {
        (name, _grade_id(c)): (i, k, _first_comment(c.source))
        for i, (name, nb) in enumerate(notebooks.items())
        for k, c in enumerate(nb.cells)
        if _grade_id(c)
    }
    tests = [
        GradeCell(f"{nb}/{cell}" if several else cell, nb, "", pts, order.get((nb, cell), (0, 0, ""))[2])
        for (nb, cell), pts in sorted(points.items(), key=lambda kv: (order.get(kv[0], (1 << 30, 0, "")), kv[0]))
    ]
    questions = questions_of(tests, notebooks)
    question_of = {t.name: q.id for q in questions for t in q.tests}
    submissions = []
    for student, who, scores in sorted(rows):
        failed = {t.name for t in tests if scores.get(t.name) is not None and scores[t.name] < t.points}  # type: ignore[operator]
        graded = Path(coursedir.format_path(coursedir.autograded_directory, student, assignment))
        causes: dict[str, Cause] = {}
        for nb_name in sorted({t.notebook for t in tests if t.name in failed}):
            path = graded / f"{nb_name}.ipynb"
            if path.is_file() and not (graded / FAILURE_FILE).is_file():
                mine = {t.name for t in tests if t.notebook == nb_name} & failed
                prefix = f"{nb_name}/" if several else ""
                causes.update(causes_in_notebook(nbformat.read(path, as_version=4), mine, question_of, prefix))
        if failed - set(causes):
            failure = graded / FAILURE_FILE
            cause = not_graded(failure.read_text(errors="replace") if failure.is_file() else "")
            causes.update({name: cause for name in failed - set(causes)})
        submissions.append(Submission(student, who, scores, causes))
    return ClassData(assignment, questions, submissions)
