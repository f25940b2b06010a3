"""``nbgrader validate`` on the command line, as a student runs it in the course root (issue 22 §6).

nbgrader prints each line of a failing cell's error indented by 4 columns and cut at 87 ("..."), so a checker's
verdict puts the diagnosis in a short first line (:func:`armlab.grading._base.verdict`); and the course's
``nbgrader_config.py`` starts the kernel with CurveZMQ keys, so ipykernel's "Kernel is running over TCP without
encryption" warning is not printed above the report.
"""

from __future__ import annotations

import pytest
import os
import re
import shutil
import subprocess

import nbformat

from support.nbgrader_harness import BIN, REPO

pytestmark = pytest.mark.homework("hw04_jacobians")  # validates it

HW = "hw04_jacobians"


def _answered_with_transposed_j():
    """The released hw04 with the solution's answers in its answer cells, but joint_rates solves Jᵀ·q̇ = ẋ."""
    solution = nbformat.read(REPO / "solutions" / HW / f"{HW}.ipynb", as_version=4)
    answers = {
        c.metadata["nbgrader"]["grade_id"]: re.sub(r"\n?[ \t]*### (BEGIN|END) SOLUTION", "", c.source)
        for c in solution.cells
        if c.metadata.get("nbgrader", {}).get("solution")
    }
    nb = nbformat.read(REPO / "exercises" / HW / f"{HW}.ipynb", as_version=4)
    for cell in nb.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if cell.metadata.get("nbgrader", {}).get("solution") and grade_id in answers:
            cell.source = answers[grade_id]
    (cell,) = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "p3_joint_rates"]
    assert "np.linalg.solve(J, " in cell.source
    cell.source = cell.source.replace("np.linalg.solve(J, ", "np.linalg.solve(J.T, ")
    return nb


def _validate(tmp_path, nb):
    """Run ``nbgrader validate`` in a copy of the course root; its output (stdout and stderr, as a terminal shows)."""
    shutil.copy(REPO / "nbgrader_config.py", tmp_path / "nbgrader_config.py")
    (tmp_path / "lib").symlink_to(REPO / "lib")
    path = tmp_path / "exercises" / HW / f"{HW}.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(nb, path)
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    out = subprocess.run(
        [f"{BIN}/nbgrader", "validate", str(path.relative_to(tmp_path))],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
    )
    return out.stdout


def test_validate_names_the_mistake_in_its_first_line_and_prints_no_kernel_warning(tmp_path):
    output = _validate(tmp_path, _answered_with_transposed_j())
    assert "VALIDATION FAILED ON 1 CELL(S)" in output, output
    assert "without encryption" not in output and "WARNING" not in output, output
    error = output[output.index("The error was:") :].splitlines()
    (first,) = [line for line in error if line.strip().startswith("AssertionError:")]
    assert first.strip() == "AssertionError: joint_rates: transposed J: solve J·q̇ = ẋ, not Jᵀ·q̇ = ẋ", output
    after = error[error.index(first) + 1 :]
    assert after[0].strip().startswith("in joint_rates(q=[0.523599, 1.0472, 0], lengths=[0.5, 0.5, 0]"), output
    assert not any(line.endswith("...") for line in [first, *after[:2]]), output  # nothing cut
