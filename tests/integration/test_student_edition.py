"""The student edition (deploy/student_edition.py): what students get, and how updates reach them.

It holds the course, the released exercises and armlab as a wheel, and nothing of the instructor's:
no solutions, no hidden tests, no grader harness. Updates arrive with nbgitpuller, which must never
overwrite a student's own work.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "deploy"))
import student_edition as se  # noqa: E402


@pytest.fixture(scope="module")
def edition(tmp_path_factory):
    return se.build(tmp_path_factory.mktemp("edition") / "armlab-student", git=True)


def test_student_edition_holds_the_course_and_a_built_wheel_only(edition):
    names = {p.name for p in edition.iterdir()}
    assert names == {".git", ".gitignore", "README.md", "course", "docs", "exercises", "requirements.txt", "wheels"}
    assert {p.name for p in (edition / "course").glob("*.ipynb")} == {p.name for p in (REPO / "course").glob("*.ipynb")}
    assert sorted(p.name for p in (edition / "exercises").iterdir()) == sorted(
        p.name for p in (REPO / "exercises").iterdir()
    )
    assert sorted(p.name for p in (edition / "docs").iterdir()) == ["errata.md", "youbot-interface.md"]
    (wheel,) = (edition / "wheels").glob("armlab-*-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as z:
        members = z.namelist()
    assert "armlab/grading/checks.py" in members and not any(m.startswith(("tests/", "solutions/")) for m in members)
    assert (edition / "requirements.txt").read_text().startswith(f"armlab[{se.EXTRAS}] @ file:./wheels/{wheel.name}")


def test_student_edition_has_no_solution_hidden_test_or_grader_harness(edition):
    se.check_edition(edition)  # raises on any finding
    text = "\n".join(t for _, t in se._texts(edition))
    for marker in se.FORBIDDEN_MARKERS:
        assert marker not in text
    names = {Path(name).name for name, _ in se._texts(edition)}
    assert not names & {"nbgrader_harness.py", "gradebook.db", "instructor.md", "conftest.py"}
    secret = se.solution_lines() - se._course_lines(edition)
    assert len(secret) > 50  # the check looks for something: the solutions' own lines


def test_the_check_finds_a_leaked_solution_and_a_hidden_test(edition, tmp_path):
    leaky = tmp_path / "leaky"
    shutil.copytree(edition, leaky, ignore=shutil.ignore_patterns(".git"))
    line = sorted(se.solution_lines() - se._course_lines(edition))[0]
    (leaky / "docs" / "notes.md").write_text(f"a helpful note\n{line}\n")
    with pytest.raises(SystemExit, match="solution line"):
        se.check_edition(leaky)
    (leaky / "docs" / "notes.md").write_text("### BEGIN HIDDEN TESTS\n")
    with pytest.raises(SystemExit, match="marker"):
        se.check_edition(leaky)
    shutil.copytree(REPO / "solutions" / "hw01_transforms", leaky / "solutions")
    with pytest.raises(SystemExit, match="forbidden file solutions"):
        se.check_edition(leaky)


def _git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def _pull(upstream, home):
    gitpuller = shutil.which("gitpuller", path=str(Path(sys.executable).parent))
    assert gitpuller, "nbgitpuller is in the hub extra"
    subprocess.run([gitpuller, upstream.as_uri(), "student", str(home)], check=True, capture_output=True, timeout=120)


def _edit_cell(path, index, text, outputs=None):
    nb = json.loads(path.read_text())
    nb["cells"][index]["source"] = text
    if outputs is not None:
        nb["cells"][index]["outputs"] = outputs
        nb["cells"][index]["execution_count"] = 1
    path.write_text(json.dumps(nb, indent=1) + "\n")


def test_an_update_pulled_with_nbgitpuller_never_overwrites_a_students_work(edition, tmp_path):
    upstream = tmp_path / "upstream"
    shutil.copytree(edition, upstream)
    home = tmp_path / "home" / "armlab"
    _pull(upstream, home)
    hw = home / "exercises" / "hw01_transforms" / "hw01_transforms.ipynb"
    ch1 = home / "course" / "01_poses_and_transforms.ipynb"
    code = next(i for i, c in enumerate(json.loads(ch1.read_text())["cells"]) if c["cell_type"] == "code")
    answer = next(
        i
        for i, c in enumerate(json.loads(hw.read_text())["cells"])
        if c.get("metadata", {}).get("nbgrader", {}).get("solution")
    )
    # the student answers hw01 and runs chapter 01 (outputs saved)
    _edit_cell(hw, answer, "def my_Rot(axis, theta):\n    return 'my own answer'")
    _edit_cell(
        ch1,
        code,
        json.loads(ch1.read_text())["cells"][code]["source"],
        outputs=[{"output_type": "stream", "name": "stdout", "text": "the student's run\n"}],
    )
    mine_hw, mine_ch1 = hw.read_text(), ch1.read_text()
    # the instructor updates: a fixed typo in chapter 02's first cell, the same chapter 01 cell, a new file
    ch2_up = upstream / "course" / "02_dh_forward_kinematics.ipynb"
    _edit_cell(ch2_up, 0, "# 2 Forward kinematics (updated)")
    _edit_cell(upstream / "course" / "01_poses_and_transforms.ipynb", code, "print('upstream changed this cell')")
    (upstream / "docs" / "announcement.md").write_text("hw02 is out\n")
    _git(upstream, "add", "-A")
    _git(upstream, "-c", "user.name=i", "-c", "user.email=i@localhost", "commit", "-qm", "update")
    _pull(upstream, home)
    assert hw.read_text() == mine_hw  # the student's answer: untouched
    assert json.loads(ch1.read_text())["cells"][code]["outputs"][0]["text"] == "the student's run\n"
    assert "the student's run" in ch1.read_text() and ch1.read_text() == mine_ch1  # their version wins
    assert (
        json.loads((home / "course" / ch2_up.name).read_text())["cells"][0]["source"]
        == "# 2 Forward kinematics (updated)"
    )  # a file they did not touch is updated
    assert (home / "docs" / "announcement.md").read_text() == "hw02 is out\n"
