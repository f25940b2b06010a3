"""Checkers for homework test cells: tolerant, helpful, hard to fool.

Used by the nbgrader test cells in ``solutions/hw*`` (and so ``exercises/``):

>>> from armlab.grading import check_close
>>> check_close([[0, 1, 0], [-1, 0, 0], [0, 0, 1]], [[0, -1, 0], [1, 0, 0], [0, 0, 1]], name="R")
Traceback (most recent call last):
    ...
AssertionError: R: this is the transpose of the expected rotation (rows and columns swapped, or R(axis, −θ) instead of R(axis, θ))

Every failure raises ``AssertionError`` with a message that says *what kind*
of mistake it looks like: transpose, degrees for radians, sign flipped, off
by π, wrong shape, NaN, not orthonormal, right factors in the wrong order,
a DH table that is right at the home pose only, ...

Answers are compared with **answer keys**: in ``solutions/<hw>/<hw>.ipynb`` an ``### ANSWER KEY`` cell
computes, with armlab itself, the expected answers on fixed inputs and the answers of the usual mistakes
(:mod:`armlab.autograde.key`); when the assignment is generated they run in a fresh process and are written
into the test cells as literal data (:mod:`armlab.autograde.bake`). A test cell then calls
``check_cases(fn, KEY)``, ``check_answer(x, KEY)`` or ``check_mistakes(x, KEY)``: nothing here computes the
maths again.

This package is what runs in the student's kernel, beside student code: the checks, the diagnosis of a
miss and the comparison with the key. What runs on the instructor's side (building and baking the keys, the nbgrader
preprocessors, the batch grader, the feedback HTML) is :mod:`armlab.autograde`, which this package never
imports.

Modules: :mod:`.checks` (closeness and the diagnosis of a miss, the answer-key checkers), :mod:`.symbolic` (sympy
expressions), :mod:`.dh` (a student's DHRobot), and the comparisons that are not plain closeness:
:mod:`.ik`, :mod:`.jacobians`, :mod:`.statics`, :mod:`.dynamics`, :mod:`.identification` and :mod:`.control`
(hw03–hw08; ``armlab.grading_ik`` is the deprecated old path of :mod:`.ik`). :mod:`.feedback` shortens a
failing test cell's traceback in the kernel. The private ``_builtins`` and ``_frozen`` (captured
functions, read-only modules) and ``_base`` (reading answers, messages) serve them all. Nothing here
imports the rest of armlab.

Tamper resistance (nbgrader runs student code in the same kernel as the
tests, so this raises the bar, it is not a sandbox):

* Every numpy, sympy, math and builtin function the checkers use is captured
  when this package is imported. The autograder imports it before any
  student code runs (``armlab.autograde.preprocessors.InjectGradingImport``), so a
  student who reassigns ``np.allclose``, ``np.isclose``,
  ``np.testing.assert_allclose``, ``np.linalg.norm``, ``sympy.simplify`` or
  ``builtins.abs`` changes nothing here.
* Comparisons are plain Python arithmetic on ``float`` values (numpy arrays
  are read with ``ndarray.tolist``, a method of an immutable C type) against
  answer keys armlab computed at release, outside the student's kernel, that
  the test cell carries as literal data (not as a notebook variable the
  student's function could read).
* Every module of the package refuses attribute assignment
  (``armlab.grading.check_close = ...`` raises, and so does the same through
  ``armlab.grading.checks`` or ``armlab.grading._frozen``), and the test cells
  re-import the checkers at their top, so rebinding a name in the notebook
  does not reach the tests.

Limits: a student can still replace ``sys.modules["armlab.grading"]``,
write into a module's ``__dict__``, patch methods of sympy classes, read the
gradebook's files, or read the running test cell's source or the checkers'
frames, where the answer key is while the student's function runs. Such code is visible in the submitted notebook;
review flagged notebooks by hand (docs/instructor.md, "Hardening").
"""

from ._frozen import freeze
from .checks import (
    check_answer,
    check_cases,
    check_close,
    check_known_mistakes,
    check_mistakes,
    check_orthonormal,
    check_shape,
)
from .dh import check_dh_position, check_robot
from .symbolic import check_expr_equal, check_symbols

# bound before the package is frozen
from . import control, dynamics, feedback, identification, ik, jacobians, statics  # noqa: F401

__all__ = [
    "check_cases",
    "check_answer",
    "check_mistakes",
    "check_close",
    "check_shape",
    "check_symbols",
    "check_orthonormal",
    "check_dh_position",
    "check_expr_equal",
    "check_robot",
    "check_known_mistakes",
]

feedback.install()  # inside IPython: short, friendly tracebacks in test cells
freeze(__name__)
