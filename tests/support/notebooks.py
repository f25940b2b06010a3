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
