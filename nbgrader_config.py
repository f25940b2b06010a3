"""nbgrader configuration for ArmLab homework (see docs/instructor.md).

solutions/<hw>/  instructor sources (solutions + hidden tests)
exercises/<hw>/  generated student versions (committed):
                 nbgrader generate_assignment '*' --no-db --force

Hardening (each item fixes a reproduced pitfall; table in docs/instructor.md):
per-cell timeout, deleted/stripped test cells are put back, outputs capped by
characters as well as lines, the checkers are imported before student code,
and feedback never shows hidden tests or their tracebacks.
"""
import os
import sys

c = get_config()  # noqa: F821  (provided by traitlets when it loads this file)

# the preprocessors live in lib/armlab/grading; find them relative to this file, even if armlab is not installed.
try:
    _root = os.path.dirname(os.path.abspath(__file__))
except NameError:  # exec'd without __file__: fall back to the course root, then the working directory
    _root = os.path.abspath(c.CourseDirectory.root if "root" in c.CourseDirectory else os.getcwd())
_lib = os.path.join(_root, "lib")
if os.path.isdir(os.path.join(_lib, "armlab")) and _lib not in sys.path:
    sys.path.insert(0, _lib)

from nbconvert.preprocessors import CSSHTMLHeaderPreprocessor  # noqa: E402
from nbgrader.converters import Autograde, GenerateAssignment  # noqa: E402
from nbgrader.preprocessors import ClearHiddenTests, GetGrades, LimitOutput, OverwriteCells  # noqa: E402

from armlab.autograde.preprocessors import (  # noqa: E402
    BakeAnswerKey, InjectGradingImport, LimitOutputChars, RobustOverwriteCells, ShortenTracebacks,
)
from armlab.autograde.offline_html import OfflineHTMLExporter, TypesetMath  # noqa: E402
from armlab.notebooks import StampKernelMetadata  # noqa: E402

# --- layout ----------------------------------------------------------------------------------
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "exercises"
c.CourseDirectory.ignore = [".ipynb_checkpoints", "*.pyc", "__pycache__", "feedback", ".*"]

# --- execution: the timeout is PER CELL; an infinite loop costs one timeout, then the kernel is interrupted
c.Execute.timeout = 10
c.Execute.interrupt_on_timeout = True
c.Execute.startup_timeout = 60
# output still arriving after a cell's reply (a submission printing megabytes, on a machine busy grading a class)
# is waited for this long: nbclient's 4 s default can fail the whole submission ("Timeout waiting for IOPub
# output"). Not longer: a kernel that ignored the timeout's interrupt burns a core for this long too.
c.Execute.iopub_timeout = 10
c.Execute.shutdown_kernel = "immediate"

# --- the kernels nbgrader starts (validate, autograde) talk to it over CurveZMQ-encrypted TCP when the kernelspec
# supports it (ipykernel 7), instead of printing "Kernel is running over TCP without encryption" above every
# `nbgrader validate` report. jupyter_client < 8.10 has no such option (and its kernels no such warning).
from jupyter_client.manager import KernelManager  # noqa: E402

if "transport_encryption" in KernelManager.class_trait_names():
    c.KernelManager.transport_encryption = "auto"

# --- deleted or metadata-stripped test cells are added back and graded
# (RobustOverwriteCells: stock OverwriteCells crashes when the cell before a missing one is gone too)
c.OverwriteCells.add_missing_cells = True
c.Autograde.sanitize_preprocessors = [
    RobustOverwriteCells if p is OverwriteCells else p
    for p in Autograde.class_traits()["sanitize_preprocessors"].default()
]

# --- outputs: lines (LimitOutput) and characters (LimitOutputChars, for one huge line)
c.LimitOutput.max_lines = 1000
c.LimitOutput.max_traceback = 100
c.LimitOutputChars.max_chars = 10_000
c.LimitOutputChars.max_cell_chars = 50_000

_pre = list(Autograde.class_traits()["autograde_preprocessors"].default())
_i = _pre.index(LimitOutput) + 1
c.Autograde.autograde_preprocessors = [InjectGradingImport] + _pre[:_i] + [LimitOutputChars] + _pre[_i:]

# --- feedback HTML: no hidden tests, no tracebacks of test cells (give students only the HTML); its maths typeset
# as MathML when written, so it reads offline: no MathJax from a CDN (armlab.autograde.offline_html)
c.GenerateFeedback.preprocessors = [
    GetGrades, ClearHiddenTests, ShortenTracebacks, TypesetMath, CSSHTMLHeaderPreprocessor,
]
c.GenerateFeedback.exporter_class = OfflineHTMLExporter

# --- released notebooks carry the students' kernel metadata (armlab.notebooks), so that opening a fetched homework
# changes nothing (no unsaved mark, no autosave). Off here: the committed exercises/ name no machine's Python (the
# student edition stamps its own copy). Where homework is released to students (the hub's course directory),
# turn it on, run with the Python version of the students' kernels: c.StampKernelMetadata.enabled = True
# --- answer keys, first: the solutions' `### ANSWER KEY` cells run in a fresh process and their KEY_... values are
# written into the test cells as data before the gradebook stores them (armlab.autograde.key); the key cells are left out
c.GenerateAssignment.preprocessors = [
    BakeAnswerKey, *GenerateAssignment.class_traits()["preprocessors"].default(), StampKernelMetadata,
]
