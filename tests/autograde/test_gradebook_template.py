"""The gradebook each graded submission starts from (armlab.autograde.gradebook.gradebook_template): the course's
assignment and nbgrader's schema version, made without running ``alembic heads`` (a subprocess of a second)."""

from __future__ import annotations

import pytest

pytest.importorskip("nbgrader")


@pytest.mark.integration  # the course's own new gradebook runs alembic once
def test_the_template_holds_the_courses_cells_and_schema_version_without_asking_alembic(tmp_path, monkeypatch):
    import nbgrader.api
    from nbgrader.api import Gradebook
    from sqlalchemy import text

    from armlab.autograde.gradebook import gradebook_template

    version_of = "SELECT version_num FROM alembic_version"
    course = f"sqlite:///{tmp_path / 'course.db'}"
    with Gradebook(course, "robotics") as gb:  # new: nbgrader asks alembic for the version
        gb.update_or_create_assignment("hw01")
        gb.update_or_create_notebook("hw01", "hw01")
        gb.update_or_create_grade_cell("p1", "hw01", "hw01", max_score=2.0, cell_type="code")
        version = gb.db.execute(text(version_of)).scalar()

    def alembic_heads():
        raise AssertionError("the template ran alembic heads")

    monkeypatch.setattr(nbgrader.api, "get_alembic_version", alembic_heads)
    (tmp_path / "template.db").write_bytes(gradebook_template(course, "robotics", "hw01"))
    with Gradebook(f"sqlite:///{tmp_path / 'template.db'}", "robotics") as gb:
        assert version and gb.db.execute(text(version_of)).scalar() == version
        assert gb.find_grade_cell("p1", "hw01", "hw01").max_score == 2.0
