"""The class report: what the class got wrong in one assignment, for the instructor.

``armlab-grade report ASSIGNMENT`` (or ``python -m armlab.class_report ASSIGNMENT``), run in the course directory
after grading, reads nbgrader's gradebook and the autograded notebooks and writes
``reports/ASSIGNMENT.html`` (open it from JupyterLab's file browser) and ``reports/ASSIGNMENT.csv``. For each
question: the score distribution, the mistakes the feedback named most often (students, one anonymised
example each), the failures without a diagnosis and the tests that failed most often
(docs/instructor.md, "What the class got wrong").

:mod:`~armlab.class_report.diagnoses` turns a feedback message into its mistake, :mod:`~.collect` reads the
course, :mod:`~.summary` counts, :mod:`~.render` writes the page and the CSV.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["write_report", "main"]


def write_report(assignment: str, course: str | Path = ".", out: str | Path | None = None) -> tuple[Path, Path]:
    """Write the report of ``assignment`` (HTML and CSV) into ``out`` (default ``<course>/reports``); returns
    their paths."""
    from .collect import read_class
    from .render import csv_text, page
    from .summary import summarise

    report = summarise(read_class(assignment, course))
    folder = Path(out) if out is not None else Path(course).resolve() / "reports"
    folder.mkdir(parents=True, exist_ok=True)
    html, table = folder / f"{assignment}.html", folder / f"{assignment}.csv"
    html.write_text(page(report), encoding="utf-8")
    table.write_text(csv_text(report), encoding="utf-8")
    return html, table


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        prog="armlab-grade report", description="Write the class report of a graded assignment (HTML and CSV)."
    )
    parser.add_argument("assignment")
    parser.add_argument("--course", default=".", help="the course directory (default: here)")
    parser.add_argument("--out", help="where to write ASSIGNMENT.html and ASSIGNMENT.csv (default: COURSE/reports)")
    args = parser.parse_args(argv)
    html, table = write_report(args.assignment, args.course, args.out)
    print(f"{args.assignment}: class report in {html} (and {table.name} beside it)", flush=True)
    return 0
