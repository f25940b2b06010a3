"""The gradebook side of a batch (:mod:`armlab.autograde.batch`): the fresh gradebook each submission is graded in,
holding the course's assignment, and the rows nbgrader wrote there, read back as plain data for the one writer."""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["gradebook_template", "submission_rows"]


def _cell_fields(cell: Any) -> dict[str, Any]:
    """A cell's own columns (max_score, source, checksum, …), without ids, names and links."""
    from sqlalchemy import inspect

    mapper = inspect(cell).mapper
    return {
        c.key: getattr(cell, c.key)
        for table in mapper.tables
        for c in table.columns
        if not (c.primary_key or c.foreign_keys) and c.key not in ("name", "type")
    }


def gradebook_template(db_url: str, course_id: str, assignment: str) -> bytes:
    """A fresh SQLite gradebook that holds ``assignment`` exactly as the course's gradebook does."""
    from nbgrader.api import Gradebook

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "gradebook.db"
        with Gradebook(db_url, course_id) as src:
            _stamp_schema_version(src, path)
            with Gradebook(f"sqlite:///{path}", course_id) as dst:
                _copy_assignment(src, dst, assignment)
        return path.read_bytes()


def _stamp_schema_version(src: Any, path: Path) -> None:
    """Start the SQLite file at ``path`` with ``src``'s schema version: nbgrader's Gradebook then finds a database
    and does not ask ``alembic heads`` (a subprocess of about a second) for the version a new one gets."""
    import sqlite3

    from sqlalchemy import text

    try:
        version = src.db.execute(text("SELECT version_num FROM alembic_version")).scalar()
    except Exception:  # no version table: nbgrader stamps the new file itself
        src.db.rollback()
        return
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL)")
        db.execute("INSERT INTO alembic_version (version_num) VALUES (?)", (version,))


def _copy_assignment(src: Any, dst: Any, assignment: str) -> None:
    """``assignment``, its notebooks and their cells, from gradebook ``src`` into ``dst``."""
    a = src.find_assignment(assignment)
    dst.update_or_create_assignment(a.name, duedate=a.duedate)
    for nb in a.notebooks:
        dst.update_or_create_notebook(nb.name, a.name, kernelspec=nb.kernelspec)
        for kind in ("grade_cell", "solution_cell", "task_cell", "source_cell"):
            make = getattr(dst, f"update_or_create_{kind}")
            for cell in getattr(nb, f"{kind}s"):
                make(cell.name, nb.name, a.name, **_cell_fields(cell))


def submission_rows(gb: Any, assignment: str, student: str) -> tuple[Any, dict[str, dict[str, Any]]]:
    """The autograde's results for one submission, as plain data."""
    sub = gb.find_submission(assignment, student)
    notebooks: dict[str, dict[str, Any]] = {}
    for nb in sub.notebooks:
        notebooks[nb.name] = {
            "flagged": nb.flagged,
            "late_submission_penalty": nb.late_submission_penalty,
            "grades": {
                g.name: {"auto_score": g.auto_score, "needs_manual_grade": g.needs_manual_grade} for g in nb.grades
            },
            "comments": {c.name: {"auto_comment": c.auto_comment} for c in nb.comments},
        }
    return sub.timestamp, notebooks
