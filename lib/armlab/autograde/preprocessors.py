"""nbgrader preprocessors that close the gaps listed in docs/instructor.md ("Hardening").

Imported only by ``nbgrader_config.py`` (its old path ``armlab.nbgrader_hardening`` is a deprecated alias,
see ``armlab._core.deprecation``), never by ``armlab.grading``, so the grading kernel does not pull in nbgrader. The config puts
``lib/`` on ``sys.path`` itself, so this works even when armlab is not installed in the grading
environment (the *kernel* that runs the notebooks still needs armlab).

* :class:`BakeAnswerKey` (generate_assignment, first): runs the answer key cells in a fresh process and
  writes the keys into the test cells as data (:mod:`.bake`), before the gradebook stores them.
* :class:`InjectGradingImport` (autograde, first): prepends a cell that
  imports :mod:`armlab.grading` before any student code runs, so the
  checkers capture the real numpy/sympy/builtins even if the student deleted
  or edited the notebook's own setup cell.
* :class:`RobustOverwriteCells` (sanitize, replaces ``OverwriteCells``): with
  ``add_missing_cells = True`` stock nbgrader 0.9.6 re-inserts a deleted test
  cell after "the previous solution/grade cell" and crashes (KeyError, the
  notebook is not graded) when that cell is gone too, e.g. when a student
  stripped all nbgrader metadata. This version inserts after the nearest
  surviving earlier cell, else before the nearest later one, else at the end.
* :class:`LimitOutputChars` (autograde, after ``LimitOutput``): nbgrader's
  ``LimitOutput`` counts lines, so one 100 MB line survives it; this caps
  every output and every cell by characters. Error outputs are shortened,
  never dropped, because an error is what makes a test cell score zero.
* :class:`ShortenTracebacks` (feedback, after ``ClearHiddenTests``): the
  traceback of a failing test cell shows the source lines around the
  failing line, i.e. the hidden tests. Students get ``Error: message`` only.
"""

from __future__ import annotations

from nbformat.v4 import new_code_cell, new_output
from traitlets import Integer, Unicode

from nbgrader import utils
from nbgrader.preprocessors import NbGraderPreprocessor, OverwriteCells


from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

__all__ = ["BakeAnswerKey", "InjectGradingImport", "RobustOverwriteCells", "LimitOutputChars", "ShortenTracebacks"]

TRUNCATED = "\n... [output truncated by the autograder: {n} characters removed] ...\n"


class BakeAnswerKey(NbGraderPreprocessor):
    """Answer key cells out, their ``KEY_...`` values into the test cells as literals (:func:`.bake.bake_notebook`)."""

    def preprocess(self, nb: Any, resources: Any) -> Any:
        from .bake import bake_notebook

        path = resources.get("metadata", {}).get("path") or None
        return bake_notebook(nb, cwd=path), resources


class InjectGradingImport(NbGraderPreprocessor):
    """Prepend ``import armlab.grading`` so the checkers are frozen before student code runs."""

    source = Unicode(
        "# Added by the autograder (armlab.autograde.preprocessors): freeze the checkers before any student code.\n"
        "import armlab.grading",
        help="Source of the cell prepended to every notebook before execution.",
    ).tag(config=True)

    def preprocess(self, nb: Any, resources: Any) -> Any:
        cell = new_code_cell(self.source)
        cell.metadata["armlab_injected"] = True
        cell.pop("id", None)  # nbformat 4.5 ids are optional; keep the output deterministic
        if nb.get("nbformat_minor", 0) >= 5:
            cell["id"] = "armlab-injected-grading-import"
        nb.cells.insert(0, cell)
        return nb, resources


class RobustOverwriteCells(OverwriteCells):
    """``OverwriteCells`` whose re-insertion of missing grade cells never fails (see module docstring)."""

    def add_missing_grade_cells(self, nb: Any, resources: Any) -> Any:
        source_nb = self.gradebook.find_notebook(self.notebook_id, self.assignment_id)
        order = [cell.name for cell in source_nb.source_cells]
        solution_ids = {cell.name for cell in source_nb.solution_cells}
        grade_cells = sorted(
            source_nb.grade_cells, key=lambda g: order.index(g.name) if g.name in order else len(order)
        )

        def positions():
            return {
                cell.metadata["nbgrader"]["grade_id"]: i
                for i, cell in enumerate(nb.cells)
                if "grade_id" in cell.get("metadata", {}).get("nbgrader", {})
            }

        for grade_cell in grade_cells:
            present = positions()
            if grade_cell.name in present or grade_cell.name not in order:
                continue
            self.log.warning("Missing grade cell %s encountered, adding to notebook", grade_cell.name)
            k = order.index(grade_cell.name)
            source_cell = source_nb.source_cells[k]
            cell = self.missing_cell_transform(
                source_cell, grade_cell.max_score, is_solution=grade_cell.name in solution_ids
            )
            if nb.get("nbformat_minor", 0) >= 5:
                cell["id"] = f"restored-{grade_cell.name}"[:64]
            before = [present[n] for n in order[:k] if n in present]
            after = [present[n] for n in order[k + 1 :] if n in present]
            if before:
                nb.cells.insert(max(before) + 1, cell)
            elif after:
                nb.cells.insert(min(after), cell)
            else:
                nb.cells.append(cell)
        return nb, resources


def _cut(text, limit):
    if limit < 0 or len(text) <= limit:
        return text
    return text[:limit] + TRUNCATED.format(n=len(text) - limit)


class LimitOutputChars(NbGraderPreprocessor):
    """Cap outputs by characters (nbgrader's ``LimitOutput`` only counts lines)."""

    max_chars = Integer(10_000, help="Maximum characters kept per output text (-1: no limit).").tag(config=True)
    max_cell_chars = Integer(
        50_000, help="Maximum characters of all outputs of one cell; later non-error outputs are dropped."
    ).tag(config=True)
    max_traceback_chars = Integer(5_000, help="Maximum characters of one error's traceback.").tag(config=True)

    def _limit_output(self, out):
        kind = out.get("output_type")
        if kind == "stream":
            out["text"] = _cut(out.get("text", ""), self.max_chars)
        elif kind in ("execute_result", "display_data"):
            data = out.get("data", {})
            for mime in list(data):
                value = data[mime]
                if isinstance(value, list):
                    value = "".join(value)
                if not isinstance(value, str):
                    continue  # JSON payloads: small in practice
                if len(value) > self.max_chars:
                    if mime.startswith("text/") and mime != "text/html":
                        data[mime] = _cut(value, self.max_chars)
                    else:  # an image, or markup that a cut would leave open (a figure's <img>): all or nothing
                        del data[mime]
                        data.setdefault("text/plain", f"[{mime} output of {len(value)} characters removed]")
        elif kind == "error":
            out["evalue"] = _cut(str(out.get("evalue", "")), self.max_chars)
            tb, total = out.get("traceback", []), 0
            kept: list[str] = []
            for line in tb:
                line = _cut(line, self.max_chars)
                if total + len(line) > self.max_traceback_chars:
                    kept.append(f"... [traceback truncated by the autograder: {len(tb) - len(kept)} lines removed]")
                    break
                kept.append(line)
                total += len(line)
            out["traceback"] = kept
        return out

    @staticmethod
    def _size(out):
        kind = out.get("output_type")
        if kind == "stream":
            return len(out.get("text", ""))
        if kind == "error":
            return len(out.get("evalue", "")) + sum(len(t) for t in out.get("traceback", []))
        return sum(len(v) if isinstance(v, str) else 0 for v in out.get("data", {}).values())

    def preprocess_cell(self, cell: Any, resources: Any, cell_index: Any) -> Any:
        if cell.cell_type != "code":
            return cell, resources
        outputs, total, dropped = [], 0, 0
        for out in cell.outputs:
            out = self._limit_output(out)
            size = self._size(out)
            if out.get("output_type") == "error" or self.max_cell_chars < 0 or total + size <= self.max_cell_chars:
                outputs.append(out)
                total += size
            else:
                dropped += 1
        if dropped:
            outputs.append(
                new_output(
                    "stream", name="stdout", text=f"... [{dropped} more outputs removed by the autograder] ...\n"
                )
            )
        cell.outputs = outputs
        return cell, resources


class ShortenTracebacks(NbGraderPreprocessor):
    """In graded (test) cells keep only ``ErrorName: message`` of each error, not the traceback."""

    def preprocess_cell(self, cell: Any, resources: Any, cell_index: Any) -> Any:
        if cell.cell_type != "code" or not utils.is_grade(cell):
            return cell, resources
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                out["traceback"] = [f"{out.get('ename', 'Error')}: {out.get('evalue', '')}"]
        return cell, resources
