"""Bake answer keys into a notebook's test cells (:mod:`armlab.autograde.key` explains answer keys).

:func:`bake_notebook` runs the notebook's answer key cells, and nothing else, in a fresh Python process, then
replaces every ``KEY_...`` name a test cell uses by its value written as a literal (exact float reprs) and drops
the key cells. nbgrader's generate_assignment does this first (:class:`.preprocessors.BakeAnswerKey`), before its
gradebook stores the test cells, so the hidden tests autograde restores carry their key, and the student version
has neither the key cells nor, once the hidden tests are cleared, their data. Used at release only, never in a
grading kernel.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any


MARKER = "### ANSWER KEY"
PREFIX = "KEY_"

#: what the fresh process runs: the key cells' source (stdin) in one namespace, then its KEY_ names as data
RUNNER = (
    """
import sys
source, out = sys.stdin.read(), sys.argv[1]
namespace = {"__name__": "__answer_key__"}
exec(compile(source, "<answer key cells>", "exec"), namespace)
from armlab.autograde.key import plain
keys = {k: plain(v, k) for k, v in namespace.items() if k.startswith(%r)}
with open(out, "w", encoding="utf-8") as f:
    f.write(repr(keys))
"""
    % PREFIX
)


class AnswerKeyError(ValueError):
    """An answer key cell that fails, a test cell that uses a key nobody computed, a misspelled marker."""


def is_key_cell(cell: Any) -> bool:
    return cell.get("cell_type") == "code" and cell.get("source", "").lstrip().startswith(MARKER)


def is_grade_cell(cell: Any) -> bool:
    return bool(cell.get("metadata", {}).get("nbgrader", {}).get("grade"))


def run_keys(source: str, cwd: str | os.PathLike[str] | None = None, timeout: float = 300) -> dict[str, Any]:
    """{KEY_name: plain data} the key cells' ``source`` computes in a fresh ``python`` process that imports the
    same armlab as this one (its ``lib/`` first on ``PYTHONPATH``)."""
    lib = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (lib, os.environ.get("PYTHONPATH")) if p))
    env["MPLBACKEND"] = "Agg"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "key.txt"
        command = [sys.executable, "-c", RUNNER, str(out)]
        run = subprocess.run(command, input=source, capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout)
        if run.returncode != 0:
            raise AnswerKeyError(f"the answer key cells failed:\n{run.stderr[-3000:]}")
        return ast.literal_eval(out.read_text(encoding="utf-8"))


def literal(value: Any, indent: int = 0) -> str:
    """``value`` as Python source that evaluates to it exactly (floats by ``repr``): a vector or a matrix on one
    line, the entries of longer lists and dicts one a line, indented by ``indent``."""
    text = render(value, indent)
    if ast.literal_eval(text) != value:  # repr of a float is exact; check rather than trust
        raise AnswerKeyError("an answer key does not survive being written as a literal")
    return text


def render(value: Any, indent: int) -> str:
    flat = repr(value)
    if not isinstance(value, (dict, list, tuple)) or len(flat) + indent <= 110 or depth(value) <= 2:
        return flat
    pad = " " * (indent + 4)
    if isinstance(value, dict):
        items, brackets = [f"{k!r}: {render(v, indent + 4)}" for k, v in value.items()], "{}"
    else:
        items, brackets = [render(v, indent + 4) for v in value], "[]" if isinstance(value, list) else "()"
    return brackets[0] + "\n" + pad + (",\n" + pad).join(items) + ",\n" + " " * indent + brackets[1]


def depth(value: Any) -> int:
    """Nesting depth of lists and tuples of numbers (a matrix: 2); dicts and strings count as deep."""
    if isinstance(value, dict):
        return 99
    if isinstance(value, (list, tuple)):
        return 1 + max((depth(v) for v in value), default=0)
    return 99 if isinstance(value, str) else 0


def used_names(source: str) -> list[tuple[int, int, int, str]]:
    """(line, start column, end column, name) of every ``KEY_...`` name the cell reads; columns in characters."""
    masked = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.split("\n"))
    try:
        tree = ast.parse(masked)
    except SyntaxError:
        if re.search(rf"\b{PREFIX}\w+", source):
            raise AnswerKeyError(f"a cell that uses an answer key does not parse:\n{source[:500]}") from None
        return []
    lines = source.split("\n")
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id.startswith(PREFIX):
            if not isinstance(node.ctx, ast.Load) or node.end_lineno != node.lineno:
                raise AnswerKeyError(f"{node.id} is assigned in a cell that is not an answer key cell")
            raw = lines[node.lineno - 1].encode("utf-8")
            start = len(raw[: node.col_offset].decode("utf-8"))
            end = len(raw[: node.end_col_offset].decode("utf-8"))
            found.append((node.lineno, start, end, node.id))
    return sorted(found)


def bake_source(source: str, keys: dict[str, Any]) -> str:
    """``source`` with each ``KEY_...`` it reads replaced by the key's literal value."""
    lines = source.split("\n")
    for lineno, start, end, name in reversed(used_names(source)):
        if name not in keys:
            raise AnswerKeyError(f"a test cell uses {name}, which no answer key cell computes:\n{source[:500]}")
        line = lines[lineno - 1]
        lines[lineno - 1] = line[:start] + literal(keys[name], len(line) - len(line.lstrip())) + line[end:]
    return "\n".join(lines)


def bake_notebook(nb: Any, cwd: str | os.PathLike[str] | None = None) -> Any:
    """The notebook without its answer key cells, its test cells carrying the keys they use (in place)."""
    key_cells = [c for c in nb.cells if is_key_cell(c)]
    for c in nb.cells:
        if not is_key_cell(c) and "ANSWER KEY" in c.get("source", "").upper() and c.get("cell_type") == "code":
            raise AnswerKeyError(f"a cell mentions an answer key but does not start with {MARKER!r}:\n{c.source[:300]}")
    keys = run_keys("\n\n".join(c.source for c in key_cells), cwd=cwd) if key_cells else {}
    nb.cells = [c for c in nb.cells if not is_key_cell(c)]
    for c in nb.cells:
        if c.get("cell_type") != "code":
            continue
        if is_grade_cell(c):
            c.source = bake_source(c.source, keys)
        elif used_names(c.source):
            raise AnswerKeyError(f"only test cells may use an answer key:\n{c.source[:300]}")
    return nb
