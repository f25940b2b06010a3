"""Answer keys baked into test cells at release (armlab.autograde.bake): the key cells run alone in a fresh process,
their KEY_... values are written into the test cells as exact literals, and the key cells are left out."""

from __future__ import annotations

import ast
import math

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from armlab.autograde.bake import AnswerKeyError, bake_notebook, bake_source, literal

GRADED = {"nbgrader": {"grade": True, "grade_id": "p1_hidden", "points": 2, "locked": True, "solution": False}}


def test_literal_is_exact_for_every_float():
    """repr of a float round-trips (IEEE 754 shortest repr), so the baked data is the key bit for bit."""
    values = {"expected": [[math.pi, -0.0, 6.123233995736766e-17, 1e300], [1 / 3, 2.0, -5e-324, 0.1]], "s": "it's"}
    text = literal(values, indent=4)
    assert ast.literal_eval(text) == values
    assert all(
        math.copysign(1, x) == math.copysign(1, y)
        for x, y in zip(ast.literal_eval(text)["expected"][0], values["expected"][0])
    )


def test_bake_source_replaces_key_names_by_their_data_only_where_read():
    source = "from armlab.grading import check_cases\n### BEGIN HIDDEN TESTS\ncheck_cases(f, KEY_P1, name='π·f')  # KEY_P1\n### END HIDDEN TESTS"
    baked = bake_source(source, {"KEY_P1": {"inputs": [[1.0]], "expected": [2.0]}})
    assert baked.splitlines()[2] == "check_cases(f, {'inputs': [[1.0]], 'expected': [2.0]}, name='π·f')  # KEY_P1"
    assert bake_source("x = 1", {}) == "x = 1"
    with pytest.raises(AnswerKeyError, match="KEY_P2, which no answer key cell computes"):
        bake_source("check_cases(f, KEY_P2)", {"KEY_P1": 1.0})
    with pytest.raises(AnswerKeyError, match="assigned in a cell that is not an answer key cell"):
        bake_source("KEY_P1 = 3", {"KEY_P1": 1.0})


def _notebook(key_source, test_source="check_answer(x, KEY_X, name='x')"):
    return new_notebook(
        cells=[
            new_markdown_cell("# hw"),
            new_code_cell("x = 0.5"),
            new_code_cell(key_source),
            new_code_cell(test_source, metadata=GRADED),
        ]
    )


@pytest.mark.integration  # runs the key cells in a python process
def test_key_cells_run_alone_in_a_fresh_process_and_are_left_out():
    nb = _notebook(
        "### ANSWER KEY\nimport sys, numpy as np\nfrom armlab.autograde.key import value\n"
        "KEY_X = value(np.sin(0.5), mistakes={'degrees': np.sin(np.radians(0.5))})\n"
        "KEY_SEEN = sorted(m for m in sys.modules if m.startswith('armlab.grading.'))\n"
        "helper = np.zeros(3)  # not a KEY_: never baked",
        "check_answer(x, KEY_X, name='x')\nprint(KEY_SEEN)",
    )
    bake_notebook(nb)
    assert len(nb.cells) == 3 and nb.cells[2].source.startswith("check_answer(x, {")  # the key cell is gone
    test = nb.cells[2].source
    baked = ast.literal_eval(test[len("check_answer(x, ") : test.index(", name='x')")])
    assert baked == {"expected": math.sin(0.5), "mistakes": {"degrees": math.sin(math.radians(0.5))}}
    seen = ast.literal_eval(test.rsplit("print(", 1)[1][:-1])
    assert "armlab.autograde.bake" not in seen  # the fresh process did not come from this one
    assert "np.zeros" not in test and "ANSWER KEY" not in "".join(c.source for c in nb.cells)


@pytest.mark.integration
def test_a_failing_key_or_a_misspelled_marker_stops_the_release():
    with pytest.raises(AnswerKeyError, match="ZeroDivisionError"):
        bake_notebook(_notebook("### ANSWER KEY\nKEY_X = 1 / 0"))
    with pytest.raises(AnswerKeyError, match="does not start with '### ANSWER KEY'"):
        bake_notebook(_notebook("## ANSWER KEY\nKEY_X = 1.0"))
    nb = _notebook("### ANSWER KEY\nKEY_X = 1.0")
    nb.cells[1].source = "y = KEY_X"  # an answer cell may not read the key: the students' copy has none
    with pytest.raises(AnswerKeyError, match="only test cells may use an answer key"):
        bake_notebook(nb)


def test_solutions_notebooks_write_keys_only_in_key_cells():
    """Every KEY_ name a solutions notebook reads is computed by one of its answer key cells."""
    from pathlib import Path

    from armlab.autograde.bake import is_key_cell, used_names

    root = Path(__file__).resolve().parents[2]
    for path in sorted(root.glob("solutions/*/*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        keys = "\n".join(c.source for c in nb.cells if is_key_cell(c))
        for c in nb.cells:
            if c.cell_type == "code" and not is_key_cell(c):
                for _, _, _, name in used_names(c.source):
                    assert f"\n{name} = " in "\n" + keys or f"{name}," in keys, (path.name, name)
