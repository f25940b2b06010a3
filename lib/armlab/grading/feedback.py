"""What a student sees when a test cell fails: the checker's message and the test cell's line,
not the checkers' own code.

:func:`install` (called when :mod:`armlab.grading` is imported inside IPython: the student's
JupyterLab, and the kernel nbgrader runs, whose first cell imports it) registers an IPython
custom exception handler for ``AssertionError``, ``NameError`` and ``NotImplementedError`` that

* drops the frames of ``armlab.grading`` from the traceback, and the "During handling of the above
  exception" part of an error a checker raised;
* says what a blank answer means: in a test cell (a cell that imports from ``armlab.grading``)
  ``NameError: T_AB is not defined yet — fill in the cell above and run it`` instead of
  ``name 'T_AB' is not defined``; ``my_Rot is not written yet — ...`` for a function that still
  raises nbgrader's ``NotImplementedError()``, and where the answer goes in a blank answer cell.

The error is then shown by IPython as usual, so it stays an error output and nbgrader still scores
the cell zero; if explaining fails, the original error is shown unchanged.
"""

from __future__ import annotations

from ._builtins import *  # noqa: F403  (the captured builtins shadow the live ones)
from ._frozen import TracebackType, freeze, getlines, modules, path_sep

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

PACKAGE_DIR = __file__.rpartition(path_sep)[0] + path_sep
HANDLED = (AssertionError, NameError, NotImplementedError)


def install(shell: Any = None) -> bool:
    """Register :func:`handle` with the running IPython shell (or ``shell``); False outside IPython."""
    if shell is None:
        ipython = modules.get("IPython")
        shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return False
    shell.set_custom_exc(HANDLED, handle)
    return True


def handle(shell: Any, etype: Any, value: Any, tb: Any, tb_offset: Any = None) -> None:
    """IPython's custom exception handler: show the explained error instead of the raw one."""
    shown = (etype, value, tb)
    try:
        shown = explain(etype, value, tb)
    except BaseException:  # never lose the student's error over a failed explanation
        pass
    shell.showtraceback(shown, tb_offset=tb_offset)


def explain(etype: Any, value: Any, tb: Any) -> Any:
    """(type, value, traceback) as the student should see them."""
    frames = []
    while tb is not None:
        frames.append(tb)
        tb = tb.tb_next
    if frames and in_grader(frames[-1]):
        value.__suppress_context__ = True  # a checker's verdict: its internal causes are noise
    clearer = reworded(value, frames)
    if clearer is not None:
        etype, value = type(clearer), clearer
    kept = [t for t in frames if not in_grader(t)]
    new_tb = None
    for t in reversed(kept):
        new_tb = TracebackType(new_tb, t.tb_frame, t.tb_lasti, t.tb_lineno)
    return etype, value.with_traceback(new_tb), new_tb


def reworded(value: Any, frames: Any) -> Any:
    """The error a blank answer causes, said for a beginner; None for any other error."""
    cell = next((t for t in frames if t.tb_frame.f_code.co_name == "<module>"), None)  # the cell's own code
    if cell is None or in_grader(frames[-1]):
        return None
    raised_by_cell = frames[-1] is cell
    if isinstance(value, NotImplementedError) and not str(value):  # nbgrader's `raise NotImplementedError()`
        if raised_by_cell:
            return NotImplementedError("your answer goes here: replace `raise NotImplementedError()` with your code")
        function = frames[-1].tb_frame.f_code.co_name
        return NotImplementedError(
            f"{function} is not written yet — fill in the cell above (replace "
            "`raise NotImplementedError()` with your code) and run it"
        )
    name = getattr(value, "name", None)
    if isinstance(value, NameError) and name is not None and raised_by_cell and is_test_cell(cell):
        return NameError(f"{name} is not defined yet — fill in the cell above and run it")
    return None


def in_grader(tb: Any) -> Any:
    return tb.tb_frame.f_code.co_filename.startswith(PACKAGE_DIR)


def is_test_cell(tb: Any) -> bool:
    """A cell whose source imports the checkers (every test cell does, in its first lines)."""
    source = "".join(getlines(tb.tb_frame.f_code.co_filename))
    return len(source) > 0 and ("from armlab.grading" in source or "import armlab.grading" in source)


freeze(__name__)
