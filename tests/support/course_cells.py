"""The course's notebooks as the tests of what their prose says read them (tests/integration/test_course_statements.py,
test_lab_statements.py): a cell's text by its id, the number a sentence quotes, and cells' own code run in a namespace."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat

COURSE = Path(__file__).resolve().parents[2] / "course"


def cell_lines(notebook: str, cell_id: str) -> str:
    """The source of the cell with this id in course/<notebook>."""
    nb = nbformat.read(COURSE / notebook, as_version=4)
    (found,) = [c.source for c in nb.cells if c.get("id") == cell_id]
    return found


def cell(notebook: str, cell_id: str) -> str:
    """The source of the cell with this id in course/<notebook>, with its lines joined."""
    return " ".join(cell_lines(notebook, cell_id).split())


def quoted(text: str, pattern: str) -> float:
    """The number captured by ``pattern`` (one group) in ``text``; fails if the sentence is gone."""
    m = re.search(pattern, text)
    assert m, f"no {pattern!r} in: {text}"
    return float(m.group(1))


def run_cells(notebook: str, *ids: str, namespace: dict | None = None) -> dict:
    """Run the code cells with these ids of course/<notebook>, in order, in one namespace (``namespace``, filled
    as they run), and return it: the cells' own computations, with IPython's magics dropped, ``display`` doing
    nothing and the figures closed."""
    import matplotlib.pyplot as plt

    nb = nbformat.read(COURSE / notebook, as_version=4)
    code = {c.get("id"): c.source for c in nb.cells if c.cell_type == "code"}
    namespace = {} if namespace is None else namespace
    namespace["display"] = lambda *a, **k: None
    try:
        for i in ids:
            source = re.sub(r"(?m)^\s*[%!].*$", "", code[i])
            exec(compile(source, f"{notebook}, cell {i}", "exec"), namespace)
    finally:
        plt.close("all")
    return namespace
