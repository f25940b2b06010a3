"""The class's results, counted: per question the score distribution, the mistakes and undiagnosed failures
(how many students, one anonymised example each) and the tests that failed most often.

A student counts once per mistake and question, however many of the question's tests said it. Students
are kept here (sets of ids, to check the counts); the report written from it shows none.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from .collect import ClassData, Question, Submission, GradeCell
from .diagnoses import MISTAKE, anonymised

__all__ = ["Count", "TestCount", "QuestionSummary", "ClassReport", "summarise", "histogram"]

MAX_BARS = 21  #: more possible scores than this are put into ranges


@dataclass
class Count:
    """One mistake (or undiagnosed failure) of one question: who made it, in how many test cells, an example."""

    kind: str
    key: str
    label: str
    students: set[str] = field(default_factory=set)
    cells: int = 0
    example: str = ""
    whats: Counter[str] = field(default_factory=Counter)

    @property
    def title(self) -> str:
        """The label, with the quantities it was said of ("T_fixed, T_current: wrong composition order")."""
        names = [w for w, _ in self.whats.most_common(3)]
        return f"{', '.join(names)}: {self.label}" if names else self.label


@dataclass
class TestCount:
    test: GradeCell
    failed: set[str] = field(default_factory=set)
    causes: Counter[str] = field(default_factory=Counter)  # label → cells


@dataclass
class QuestionSummary:
    question: Question
    scores: list[float]  # one per student whose every cell of the question is graded
    ungraded: int  # students with a cell of it not graded yet (manual grading)
    mistakes: list[Count]  # most students first
    undiagnosed: list[Count]
    tests: list[TestCount]  # most failures first

    @property
    def mean(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else math.nan

    @property
    def full_marks(self) -> int:
        return sum(1 for s in self.scores if s >= self.question.points - 1e-9)


@dataclass
class ClassReport:
    assignment: str
    students: int
    max_score: float
    totals: list[float]  # each fully graded student's score
    questions: list[QuestionSummary]
    not_graded: int  # submissions with no graded notebook (a failure of the batch or of nbgrader)


def _score(sub: Submission, tests: list[GradeCell]) -> float | None:
    values = [sub.scores.get(t.name) for t in tests]
    return None if any(v is None for v in values) else sum(values)  # type: ignore[arg-type]


def _count(counts: dict[str, Count], sub: Submission, kind: str, key: str, label: str, message: str, what: str) -> None:
    c = counts.setdefault(key, Count(kind, key, label))
    c.students.add(sub.student)
    c.cells += 1
    if what:
        c.whats[what] += 1
    # the example: a message that does not contain its student's id or names, if any does (ids can be words)
    clean = anonymised(message, sub.who)
    if message and (not c.example or ("[student]" in c.example and "[student]" not in clean)):
        c.example = clean


def summarise(data: ClassData) -> ClassReport:
    """Count ``data`` (:func:`armlab.class_report.collect.read_class`) for the report."""
    questions = []
    for q in data.questions:
        scores = [s for s in (_score(sub, q.tests) for sub in data.submissions) if s is not None]
        counts: dict[str, Count] = {}
        tests = {t.name: TestCount(t) for t in q.tests}
        for sub in data.submissions:
            for t in q.tests:
                cause = sub.causes.get(t.name)
                if cause is None:
                    continue
                tests[t.name].failed.add(sub.student)
                tests[t.name].causes[cause.label if cause.kind != MISTAKE else cause.key] += 1
                _count(counts, sub, cause.kind, cause.key, cause.label, cause.message, cause.what)
        ranked = sorted(counts.values(), key=lambda c: (-len(c.students), -c.cells, c.label))
        titles = {c.key: c.title for c in ranked if c.kind == MISTAKE}
        for tc in tests.values():  # a mistake's cause is shown as its title
            tc.causes = Counter({titles.get(k, k): n for k, n in tc.causes.items()})
        questions.append(
            QuestionSummary(
                q,
                scores,
                len(data.submissions) - len(scores),
                [c for c in ranked if c.kind == MISTAKE],
                [c for c in ranked if c.kind != MISTAKE],
                sorted(tests.values(), key=lambda tc: (-len(tc.failed), q.tests.index(tc.test))),
            )
        )
    all_tests = [t for q in data.questions for t in q.tests]
    totals = [s for s in (_score(sub, all_tests) for sub in data.submissions) if s is not None]
    not_graded = sum(1 for sub in data.submissions if any(c.key.startswith("not graded") for c in sub.causes.values()))
    return ClassReport(data.assignment, len(data.submissions), data.max_score, totals, questions, not_graded)


def histogram(scores: list[float], max_score: float, step: float | None = None) -> list[tuple[str, float, int]]:
    """(label, lowest score, students) per bar: one bar per possible score from 0 to ``max_score`` in steps of
    ``step`` (default: the finest step of the scores and the maximum), or at most :data:`MAX_BARS` ranges."""
    if step is None:
        fractions = [Fraction(v).limit_denominator(100) for v in [*scores, max_score] if v]
        denominator = math.lcm(*(f.denominator for f in fractions)) if fractions else 1
        step = 1.0 / denominator
    n = int(round(max_score / step)) + 1 if max_score > 0 else 1
    if n <= MAX_BARS:
        bars = [(f"{k * step:g}", k * step, 0) for k in range(n)]
        counts = Counter(min(int(round(s / step)), n - 1) for s in scores)
        return [(label, low, counts.get(k, 0)) for k, (label, low, _) in enumerate(bars)]
    width = max_score / (MAX_BARS - 1)
    edges = [round(k * width, 6) for k in range(MAX_BARS)]
    out = []
    for k, low in enumerate(edges[:-1]):
        high = edges[k + 1]
        last = k == len(edges) - 2
        count = sum(1 for s in scores if low <= s < high or (last and s >= high - 1e-9))
        out.append((f"{low:g}–{high:g}", low, count))
    return out
