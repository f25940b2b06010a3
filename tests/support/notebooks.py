"""What every executed notebook must show, whoever ran it: nbclient (tests/integration/test_notebooks.py) or
JupyterLab in Chromium (tests/support/browser.py)."""

from __future__ import annotations

import re

_MARKUP = re.compile(r"<(div|span|b|i|br|small|p|pre|table|tr|td)\b[^>]*>", re.I)


def printed_markup(nb):
    """The cells of an executed notebook whose printed text holds HTML tags (a widget's message printed as it
    is: chapter 03 once printed "<div style='line-height:1.35'>…")."""
    return [
        i
        for i, c in enumerate(nb.cells)
        if c.cell_type == "code" and any(o.output_type == "stream" and _MARKUP.search(o.text) for o in c.outputs)
    ]


def generated_alt(nb):
    """The cells of an executed notebook that show a figure whose alt text was only written from its axes (titles,
    labels, ranges): a figure's alt text says what it shows and its key values (``viz.shown(fig, alt=...)``)."""
    from armlab.viz.still import GENERATED

    return [
        i
        for i, c in enumerate(nb.cells)
        if c.cell_type == "code" and any(GENERATED in str(o.get("data", {}).get("text/html", "")) for o in c.outputs)
    ]


def run_problems(nb):
    """What is wrong with an executed notebook: error outputs, text printed with HTML tags in it, figures with only a
    generated alt text."""
    problems = []
    errors = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    if errors:
        problems.append(f"cells {errors} end in an error")
    if printed_markup(nb):
        problems.append(f"cells {printed_markup(nb)} print HTML as text (print the words)")
    if generated_alt(nb):
        problems.append(
            f"cells {generated_alt(nb)} show a figure with no alt text of its own (viz.shown(fig, alt=...))"
        )
    return problems


# The lab's clients and gate in the kernel wait 2 s for /joint_states, as in the tests' own process (tests/conftest.py:
# PATIENT_STALE_AFTER): on a machine shared with other jobs the simulator's thread can wait 150 ms for the CPU, and a
# hold then is not what the notebook's run is about. A notebook that shows the stale-stream hold keeps the 150 ms.
PATIENT_WATCHDOG = """\
import functools as _f
from armlab.lab import arm as _arm, safety as _safety
from armlab.lab.gate import server as _server
_arm.SafetyLimits = _server.SafetyLimits = _f.partial(_safety.SafetyLimits, stale_after=2.0)
del _f, _arm, _safety, _server"""


def with_patient_watchdog(nb):
    """``nb`` with PATIENT_WATCHDOG as its first cell where it connects to the lab and does not show the stale hold
    (the cell prints nothing); the notebook's own cells keep their indices + 1."""
    import nbformat

    text = "\n".join(c.source for c in nb.cells)
    if "connect(" in text and "stale" not in text.lower():
        nb.cells.insert(0, nbformat.v4.new_code_cell(PATIENT_WATCHDOG))
    return nb
