"""docs/instructor.md, "Writing or changing an assignment", followed word for word in a temporary course: the cells
its code blocks give, with the cell types, grade ids and points its text gives, one notebook; its commands release
it; a right and a wrong submission are autograded and get the points and the feedback the walk-through says."""

from __future__ import annotations

import html
import os
import re
import shlex
import shutil
import subprocess
import sys

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from support.nbgrader_harness import BIN, REPO

pytestmark = pytest.mark.integration  # runs nbgrader and kernels

HW = "hw09_rotations"


def walkthrough():
    """(cells, commands) of the section: each python block with the text before it, and the bash block's lines."""
    doc = (REPO / "docs" / "instructor.md").read_text(encoding="utf-8")
    section = doc.split("## Writing or changing an assignment", 1)[1].split("\n## ", 1)[0]
    blocks = list(re.finditer(r"```(python|bash)\n(.*?)```", section, re.S))
    cells, commands, start = [], [], 0
    for b in blocks:
        text, code = section[start : b.start()], "\n".join(line[3:] for line in b.group(2).rstrip().split("\n"))
        start = b.end()
        if b.group(1) == "bash":
            commands += [line.split("#")[0].strip() for line in code.split("\n") if line.startswith("nbgrader ")]
        else:
            cells.append((text, code))
    return cells, commands


def cell_for(text, code, kind):
    """The cell the text before a block asks for: the type in bold (else ``kind``, the one before), the grade id
    and the points it names."""
    grade_id = re.search(r"grade id `(\w+)`", text)
    points = re.search(r"(\d+) points?\)", text)
    cell = new_code_cell(code)
    if kind != "answer key":
        meta = {"grade_id": grade_id.group(1), "locked": kind != "Autograded answer", "schema_version": 3}
        meta.update(solution=kind == "Autograded answer", grade=kind == "Autograder tests", task=False)
        if kind == "Autograder tests":
            meta["points"] = int(points.group(1))
        cell.metadata["nbgrader"] = meta
    return cell


def run(cmd, cwd, env):
    out = subprocess.run(shlex.split(cmd), cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, f"{cmd}:\n{out.stderr[-3000:]}"
    return out


def test_the_walkthrough_releases_a_new_homework_and_grades_it(tmp_path):
    cells, commands = walkthrough()
    assert len(cells) == 5 and cells[2][1].startswith("### ANSWER KEY")
    assert f"nbgrader generate_assignment {HW} --force" in commands
    course = tmp_path / "course"
    (course / "solutions" / HW).mkdir(parents=True)
    shutil.copy(REPO / "nbgrader_config.py", course / "nbgrader_config.py")
    nb = new_notebook(cells=[new_markdown_cell("# Homework 9 — Rotations\n\nWrite `my_R`. 3 points.")])
    kind = None
    for text, code in cells:
        kind = (re.findall(r"\*\*(Read-only|Autograded answer|answer key|Autograder tests)\*\*", text) or [kind])[-1]
        nb.cells.append(cell_for(text, code, kind))
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, course / "solutions" / HW / f"{HW}.ipynb")
    env = dict(os.environ, PATH=BIN + os.pathsep + os.environ["PATH"], PYTHONPATH=str(REPO / "lib"))

    for cmd in commands:  # step 3, as written
        run(cmd, course, env)
    released = (course / "exercises" / HW / f"{HW}.ipynb").read_text(encoding="utf-8")
    for hidden in ("ANSWER KEY", "KEY_P1", "check_cases(my_R", "return R(axis, theta)", "(R takes radians)"):
        assert hidden not in released
    assert "raise NotImplementedError()" in released

    blank = nbformat.reads(released, as_version=4)
    answers = {
        "right": "def my_R(axis, theta):\n    return R(axis, theta)",
        "wrong": "def my_R(axis, theta):\n    return R(axis, np.degrees(theta))",
    }  # fed degrees
    for student, source in answers.items():
        sub = nbformat.from_dict(blank)
        (answer,) = [c for c in sub.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "p1_my_R"]
        answer.source = source
        (course / "submitted" / student / HW).mkdir(parents=True)
        nbformat.write(sub, course / "submitted" / student / HW / f"{HW}.ipynb")
    run(f"nbgrader autograde {HW}", course, env)  # step 4
    run(f"nbgrader generate_feedback {HW}", course, env)

    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        scores = {s: gb.find_submission(HW, s).score for s in answers}
    assert scores == {"right": 3.0, "wrong": 1.0}
    feedback = html.unescape(re.sub(r"<[^>]+>", "", (course / "feedback" / "wrong" / HW / f"{HW}.html").read_text()))
    assert "looks like degrees were used where radians were expected (R takes radians)" in " ".join(feedback.split())
    assert "KEY_P1" not in feedback and "0.3, -1.2, 2.5" not in feedback


def test_the_walkthrough_says_what_the_repository_does():
    """The section's claims about discovery: the harness finds every homework by its folder."""
    from support.nbgrader_harness import HOMEWORK

    assert HOMEWORK == sorted(p.parent.name for p in REPO.glob("solutions/*/*.ipynb") if p.stem == p.parent.name)
    assert sys.executable  # the commands run with this interpreter's nbgrader (BIN)
