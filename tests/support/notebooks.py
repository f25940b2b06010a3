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


# The lab's clients and gate in a notebook's kernel are patient, as in the tests' own process (tests/conftest.py:
# PATIENT_STALE_AFTER): on a machine shared with other jobs the kernel's simulator thread can wait 150 ms for the CPU,
# and a hold then is not what the run is about. Where lab 1's stall demo runs (a simulator of the notebook's own: no
# /joint_states for 0.6 s) the watchdog must still trip on it: 0.45 s there (DEMO_STALE_AFTER).
PATIENT_STALE_AFTER = 2.0  # s: a lab test's watchdog when the test is not about it (tests/conftest.py too)
DEMO_STALE_AFTER = 0.45
_STARTUP = """\
# made by tests/support/notebooks.py: the lab's stale-stream watchdog waits {after} s in this test run's kernels
import functools as _f
from armlab.lab import arm as _arm, safety as _safety
from armlab.lab.gate import server as _server
_arm.SafetyLimits = _server.SafetyLimits = _f.partial(_safety.SafetyLimits, stale_after={after})
del _f, _arm, _safety, _server
"""


def patient_ipython_dir(where, stale_after):
    """An IPYTHONDIR (under ``where``) whose startup file makes the lab's watchdog wait ``stale_after`` s in every
    kernel started with it in its environment: nothing shows in the notebook, its cells keep their indices."""
    from pathlib import Path

    startup = Path(where) / f"ipython-stale-{stale_after}" / "profile_default" / "startup"
    startup.mkdir(parents=True, exist_ok=True)
    (startup / "00-patient-watchdog.py").write_text(_STARTUP.format(after=stale_after))
    return str(startup.parents[1])


def shows_the_stall_demo(nb):
    """Whether a notebook demonstrates the stale-stream hold (lab 1)."""
    return any("sim.stall" in c.source for c in nb.cells if c.cell_type == "code")


def run_whole(nb, where, cwd, stale_after=None):
    """Run ``nb`` whole as Run All does, in place, with nbclient: the kernel "python3" in ``cwd``, 120 s a cell, its
    lab watchdog waiting ``stale_after`` s (default: DEMO_STALE_AFTER where the stall demo is, else
    PATIENT_STALE_AFTER; the startup file under ``where``). Raises CellExecutionError with the failing cell."""
    import os

    import nbclient

    if stale_after is None:
        stale_after = DEMO_STALE_AFTER if shows_the_stall_demo(nb) else PATIENT_STALE_AFTER
    env = {**os.environ, "IPYTHONDIR": patient_ipython_dir(where, stale_after)}
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(cwd)}})
    client.execute(env=env)
    return nb
