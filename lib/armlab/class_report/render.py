"""The class report as one self-contained HTML page (figures as inline SVG, no script, nothing fetched) and as
CSV rows for the instructor's own tools. Neither shows a student's id or name.

The page reads the same for 7 students or 200: counts and shares, the most frequent mistakes first (the
rest summed up in one line and listed in the CSV), examples cut to a few lines. Each figure is an image
with a name that says its numbers, and the table of the same numbers follows it.
"""

from __future__ import annotations

import csv
import io
from html import escape

from .summary import ClassReport, Count, QuestionSummary, TestCount, histogram

__all__ = ["page", "csv_text", "bar_chart"]

#: Okabe–Ito blue (5:1 on white), the course's first series colour (armlab.viz.plots.JOINT_COLORS)
BAR = "#0072b2"
TEXT, MUTED, GRID = "#222222", "#595959", "#d9d9d9"
TOP_MISTAKES = 8  #: rows of a question's mistakes table; the others are counted in one line (all are in the CSV)
TOP_TESTS = 10
EXAMPLE_CHARS = 400
CSS = """
body { font: 16px/1.45 system-ui, sans-serif; color: #222; background: #fff; margin: 0; }
main { max-width: 62rem; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.3rem; margin-top: 2.5rem; border-top: 1px solid #d9d9d9;
  padding-top: 1rem; } h3 { font-size: 1.05rem; margin-top: 1.5rem; }
table { border-collapse: collapse; margin: 0.5rem 0; width: 100%; }
th, td { border-bottom: 1px solid #d9d9d9; padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }
td.n, th.n { text-align: right; white-space: nowrap; }
caption { text-align: left; font-weight: 600; padding: 0.3rem 0; }
.example { white-space: pre-wrap; font: 0.85rem/1.35 ui-monospace, monospace; margin: 0; }
.note { color: #595959; }
figure { margin: 0.5rem 0; } svg { max-width: 100%; height: auto; }
details > summary { cursor: pointer; color: #00538a; }
"""


def _pct(n: int, of: int) -> str:
    return f"{100.0 * n / of:.0f} %" if of else "–"


def _students(n: int) -> str:
    return f"{n} student{'' if n == 1 else 's'}"


def bar_chart(bars: list[tuple[str, float, int]], title: str, xlabel: str) -> str:
    """An SVG bar chart of (label, _, count): an image named with every bar's count, in the course's blue."""
    w, h, left, bottom, top = 640, 240, 48, 44, 16
    top_count = max([c for _, _, c in bars] + [1])
    step = max(1, -(-top_count // 5))  # about five gridlines
    ymax = step * -(-top_count // step)
    plot_w, plot_h = w - left - 12, h - top - bottom
    slot = plot_w / len(bars)
    name = f"{title}: " + "; ".join(f"{label}: {_students(c)}" for label, _, c in bars)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
        f'aria-label="{escape(name)}"><title>{escape(name)}</title>'
    ]
    for k in range(0, ymax + 1, step):
        y = top + plot_h - plot_h * k / ymax
        out.append(f'<line x1="{left}" x2="{w - 12}" y1="{y:.1f}" y2="{y:.1f}" stroke="{GRID}"/>')
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="12" fill="{TEXT}">{k}</text>')
    label_every = max(1, -(-len(bars) * 40 // plot_w))  # labels at least 40 px apart
    for i, (label, _, count) in enumerate(bars):
        x = left + i * slot
        bh = plot_h * count / ymax
        y = top + plot_h - bh
        out.append(
            f'<rect x="{x + slot * 0.12:.1f}" y="{y:.1f}" width="{slot * 0.76:.1f}" height="{bh:.1f}" fill="{BAR}"/>'
        )
        if count:
            out.append(
                f'<text x="{x + slot / 2:.1f}" y="{y - 3:.1f}" text-anchor="middle" font-size="11" fill="{TEXT}">'
                f"{count}</text>"
            )
        if i % label_every == 0:
            out.append(
                f'<text x="{x + slot / 2:.1f}" y="{top + plot_h + 16}" text-anchor="middle" font-size="12" '
                f'fill="{TEXT}">{escape(label)}</text>'
            )
    out.append(
        f'<line x1="{left}" x2="{w - 12}" y1="{top + plot_h}" y2="{top + plot_h}" stroke="{MUTED}"/>'
        f'<text x="{left + plot_w / 2}" y="{h - 6}" text-anchor="middle" font-size="12" fill="{TEXT}">'
        f"{escape(xlabel)}</text>"
        f'<text x="12" y="{top + plot_h / 2}" text-anchor="middle" font-size="12" fill="{TEXT}" '
        f'transform="rotate(-90 12 {top + plot_h / 2})">students</text></svg>'
    )
    return "".join(out)


def _figure(fid: str, scores: list[float], max_score: float, what: str) -> str:
    bars = histogram(scores, max_score)
    title = f"Score distribution of {what} ({_students(len(scores))}, out of {max_score:g} points)"
    rows = "".join(f'<tr><th scope="row">{escape(label)}</th><td class="n">{c}</td></tr>' for label, _, c in bars)
    return (
        f'<figure id="{fid}">{bar_chart(bars, title, "score (points)")}'
        f"<figcaption>{escape(title)}</figcaption></figure>"
        f"<details><summary>The numbers of this figure</summary><table><caption>{escape(title)}</caption>"
        f'<thead><tr><th scope="col">Score</th><th scope="col" class="n">Students</th></tr></thead>'
        f"<tbody>{rows}</tbody></table></details>"
    )


def _example(text: str) -> str:
    text = text if len(text) <= EXAMPLE_CHARS else text[: EXAMPLE_CHARS - 1].rstrip() + "…"
    return f'<pre class="example">{escape(text)}</pre>' if text else '<span class="note">(no message)</span>'


def _counts_table(caption: str, counts: list[Count], students: int, top: int) -> str:
    if not counts:
        return ""
    rows = "".join(
        f'<tr><td>{escape(c.title)}</td><td class="n">{len(c.students)} ({_pct(len(c.students), students)})</td>'
        f'<td class="n">{c.cells}</td><td>{_example(c.example)}</td></tr>'
        for c in counts[:top]
    )
    more = counts[top:]
    tail = (
        f'<p class="note">{len(more)} more, each made by {_students(max(len(c.students) for c in more))} or fewer '
        "(all are in the CSV).</p>"
        if more
        else ""
    )
    return (
        f"<table><caption>{escape(caption)}</caption><thead><tr><th scope='col'>What the feedback said</th>"
        "<th scope='col' class='n'>Students</th><th scope='col' class='n'>Test cells</th>"
        f"<th scope='col'>One example (anonymised)</th></tr></thead><tbody>{rows}</tbody></table>{tail}"
    )


def _tests_table(caption: str, tests: list[TestCount], students: int) -> str:
    rows = []
    for tc in tests[:TOP_TESTS]:
        cause = tc.causes.most_common(1)
        why = f"{cause[0][0]} ({cause[0][1]})" if cause else "–"
        rows.append(
            f"<tr><td>{escape(tc.test.name)}<br><span class='note'>{escape(tc.test.comment)}</span></td>"
            f'<td class="n">{tc.test.points:g}</td>'
            f'<td class="n">{len(tc.failed)} ({_pct(len(tc.failed), students)})</td><td>{escape(why)}</td></tr>'
        )
    return (
        f"<table><caption>{escape(caption)}</caption><thead><tr>"
        "<th scope='col'>Test cell</th><th scope='col' class='n'>Points</th>"
        "<th scope='col' class='n'>Failed by</th><th scope='col'>Most frequent cause (test cells)</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _question(i: int, qs: QuestionSummary, students: int) -> str:
    q = qs.question
    top = qs.mistakes[0].title if qs.mistakes else "–"
    graded = _students(len(qs.scores)) + (f"; {qs.ungraded} not fully graded yet" if qs.ungraded else "")
    return (
        f'<section aria-labelledby="q{i}"><h2 id="q{i}">{escape(q.title)} <span class="note">({escape(q.id)})</span></h2>'
        f"<p>Mean {qs.mean:.2f} of {q.points:g} points over {graded}; full marks: {qs.full_marks} "
        f"({_pct(qs.full_marks, len(qs.scores))}). Most frequent mistake: {escape(top)}{'' if top.endswith('…') else '.'}</p>"
        + _figure(f"fig-q{i}", qs.scores, q.points, q.title)
        + "<h3>Most frequent mistakes</h3>"
        + (
            _counts_table(f"Mistakes the feedback named in {q.title}", qs.mistakes, students, TOP_MISTAKES)
            or "<p>No diagnosed mistake.</p>"
        )
        + (
            "<h3>Failures without a diagnosis</h3>"
            + _counts_table(f"Other failures in {q.title}", qs.undiagnosed, students, TOP_MISTAKES)
            if qs.undiagnosed
            else ""
        )
        + "<h3>Tests that failed most often</h3>"
        + _tests_table("Tests of this question, the most failed first", qs.tests, students)
        + "</section>"
    )


def _overview(report: ClassReport) -> str:
    rows = "".join(
        f'<tr><th scope="row"><a href="#q{i}">{escape(qs.question.title)}</a></th>'
        f'<td class="n">{qs.mean:.2f} / {qs.question.points:g}</td>'
        f'<td class="n">{_pct(qs.full_marks, len(qs.scores))}</td>'
        f"<td>{escape(qs.mistakes[0].title) if qs.mistakes else '–'}"
        f"{f' ({len(qs.mistakes[0].students)})' if qs.mistakes else ''}</td></tr>"
        for i, qs in enumerate(report.questions, 1)
    )
    return (
        "<table><caption>Questions</caption><thead><tr><th scope='col'>Question</th>"
        "<th scope='col' class='n'>Mean</th><th scope='col' class='n'>Full marks</th>"
        f"<th scope='col'>Most frequent mistake (students)</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def page(report: ClassReport) -> str:
    """The report as one HTML page."""
    a, n = report.assignment, report.students
    mean = sum(report.totals) / len(report.totals) if report.totals else float("nan")
    failed = (
        f" {report.not_graded} submission{'s' if report.not_graded != 1 else ''} could not be graded "
        "(zero; flagged for manual grading)."
        if report.not_graded
        else ""
    )
    body = (
        f"<h1>What the class got wrong: {escape(a)}</h1>"
        f"<p>{_students(n)} in the gradebook; mean score {mean:.2f} of {report.max_score:g}.{failed} "
        "Counts are of students: one who made a mistake in several tests of a question counts once. "
        f"Every mistake, undiagnosed failure and test is also in <code>{escape(a)}.csv</code> next to this page. "
        "No student's id or name is shown; examples are the feedback students saw.</p>"
        + _overview(report)
        + _tests_table(
            "The tests failed most often in the whole assignment",
            sorted((tc for qs in report.questions for tc in qs.tests), key=lambda tc: -len(tc.failed)),
            n,
        )
        + '<h2 id="total">Total score</h2>'
        + _figure("fig-total", report.totals, report.max_score, f"{a} (total)")
        + "".join(_question(i, qs, n) for i, qs in enumerate(report.questions, 1))
    )
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Class report: {escape(a)}</title><style>{CSS}</style></head>"
        f"<body><main>{body}</main></body></html>\n"
    )


CSV_FIELDS = ["assignment", "question", "question_title", "row", "item", "students", "share", "test_cells", "example"]


def csv_text(report: ClassReport) -> str:
    """One row per question × score, mistake, undiagnosed failure and test (all of them), with counts."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_FIELDS)
    n = report.students
    for qs in report.questions:
        q = qs.question
        head = [report.assignment, q.id, q.title]
        for label, _, count in histogram(qs.scores, q.points):
            w.writerow(head + ["score", label, count, _share(count, len(qs.scores)), "", ""])
        for c in qs.mistakes + qs.undiagnosed:
            kind = "mistake" if c in qs.mistakes else "undiagnosed"
            w.writerow(head + [kind, c.title, len(c.students), _share(len(c.students), n), c.cells, c.example])
        for tc in qs.tests:
            w.writerow(head + ["test", tc.test.name, len(tc.failed), _share(len(tc.failed), n), len(tc.failed), ""])
    return out.getvalue()


def _share(k: int, n: int) -> str:
    return f"{k / n:.3f}" if n else ""
