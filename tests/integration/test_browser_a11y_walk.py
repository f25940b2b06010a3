"""A scripted screen-reader walk through lab 1 and chapter 03 (issue #31), read from Chromium's accessibility tree.

No person with NVDA or Orca can walk the course here; this is the closest honest thing. After Run All, the walk
goes through the notebook in reading order, as a screen reader's virtual cursor would: each markdown heading, each
image (its role and name), and in each output with controls, Tab from its first control until the focus leaves the
output. Each stop is what Chromium exposes to assistive technology (CDP ``Accessibility.getPartialAXTree`` of the
focused element): its role, name and value. CDP reports a slider's value as its number and leaves out its
aria-valuetext ("x = 0.578 m"; so it does for an ARIA slider, in Chromium 156), so the attribute is read from the
page beside it: whether NVDA or Orca say it is for the walk by a person to confirm. At the first slider of each widget the walk presses → once and waits
for the widget's live region (aria-live) to say something new, which is what a screen reader would announce; it
then types the slider's old value back into its number box, so the widget is left as Run All left it.

The test asserts that every control of the outputs (slider, number box, button, dropdown, checkbox) is reached
by Tab and has a role and a name, that each slider has a value and an aria-valuetext with its name and unit, and
that each move was announced. The transcript
is written to the test's temporary directory, and to ``ARMLAB_A11Y_WALK`` (a directory) if set:
docs/a11y-walk/ holds one (``ARMLAB_A11Y_WALK=docs/a11y-walk ./run.sh test tests/integration/test_browser_a11y_walk.py``).
"""

import os
import re
from pathlib import Path

import pytest

from support.browser import moving

WALKED = ["03_inverse_kinematics.ipynb", "lab1_connect_and_move.ipynb"]
CONTROLS = "input:not([disabled]), button:not([disabled]), select:not([disabled]), textarea:not([disabled])"
FOCUSABLE = f"{CONTROLS}, summary, a[href], [tabindex]:not([tabindex='-1'])"

# the reading order: headings of the rendered markdown, images and scene/plot canvases, and the outputs with controls
STOPS_JS = """(controls) => {
  const out = [];
  document.querySelectorAll('.jp-Notebook .jp-Cell').forEach((cell, k) => {
    cell.querySelectorAll('.jp-MarkdownOutput h1, .jp-MarkdownOutput h2, .jp-MarkdownOutput h3, .jp-OutputArea-output')
      .forEach(e => {
        if (!e.classList.contains('jp-OutputArea-output')) { out.push(['heading', k, e]); return; }
        e.querySelectorAll('img, canvas[role="img"]').forEach(i => out.push(['image', k, i]));
        if ([...e.querySelectorAll(controls)].some(c => c.getClientRects().length)) out.push(['controls', k, e]);
      });
  });
  return out;
}"""


def read_node(cdp, expression):
    """(role, name, value, description) that Chromium's accessibility tree gives the element ``expression`` is."""
    ref = cdp.send("Runtime.evaluate", {"expression": expression})["result"]["objectId"]
    node = cdp.send("Accessibility.getPartialAXTree", {"objectId": ref, "fetchRelatives": False})["nodes"][0]
    return tuple(str((node.get(k) or {}).get("value", "")) for k in ("role", "name", "value", "description"))


def ax_node(cdp, page, handle):
    # brought into view first, as a screen reader's cursor brings it: JupyterLab lays out the cells out of view
    # lazily (content-visibility), and Chromium leaves such content out of the accessibility tree
    handle.scroll_into_view_if_needed()
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.evaluate("(e) => { window.__armlabWalk = e; }", handle)
    return read_node(cdp, "window.__armlabWalk")


def focused_node(cdp):
    return read_node(cdp, "document.activeElement")


LIVE_JS = "(o) => [...o.querySelectorAll('[aria-live]')].map(l => l.textContent).filter(t => t).join(' | ')"


def live_text(output):
    return output.evaluate(LIVE_JS)


def walk(page):
    """The transcript (lines), the controls Tab did not reach, the stops without a role or name, and the moves
    that were not announced."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Accessibility.enable")
    lines, missed, unnamed, silent = [], [], [], []
    stops = page.evaluate_handle(STOPS_JS, CONTROLS)
    count = page.evaluate("(s) => s.length", stops)
    for i in range(count):
        kind, cell = page.evaluate("([s, i]) => [s[i][0], s[i][1]]", [stops, i])
        element = page.evaluate_handle("([s, i]) => s[i][2]", [stops, i]).as_element()
        if kind == "heading":
            role, name, _, _ = ax_node(cdp, page, element)
            lines.append(f"[cell {cell}] {role}: {name}")
            continue
        if kind == "image":
            role, name, _, _ = ax_node(cdp, page, element)
            lines.append(f"[cell {cell}] {role}: {name}")
            if role not in ("img", "image") or not name.strip():
                unnamed.append(f"cell {cell}: an image read as {role!r} {name!r}")
            continue
        lines.append(f"[cell {cell}] output with controls; Tab through it:")
        element.scroll_into_view_if_needed()
        element.evaluate(
            "(o, sel) => [...o.querySelectorAll(sel)].filter(c => c.getClientRects().length)[0].focus()", CONTROLS
        )
        stops_here = element.evaluate(
            "(o, sel) => [...o.querySelectorAll(sel)].filter(c => c.getClientRects().length).length", FOCUSABLE
        )
        reached, moved = set(), False
        for _ in range(stops_here + 2):  # the controls, and the views and disclosures Tab also stops at
            if not element.evaluate("(o) => o.contains(document.activeElement)"):
                break
            index = element.evaluate(
                "(o, sel) => [...o.querySelectorAll(sel)].indexOf(document.activeElement)", CONTROLS
            )
            reached.add(index)
            role, name, value, description = focused_node(cdp)
            # CDP gives a slider's value as its number, not its aria-valuetext ("x = 0.578 m", what the slider's
            # code sets for screen readers to say): the attribute is read from the page and shown beside it
            spoken = page.evaluate("() => document.activeElement.getAttribute('aria-valuetext') || ''")
            lines.append(
                f"    {role}: {name}"
                + (f", value {value}" if value else "")
                + (f" (aria-valuetext {spoken!r})" if spoken else "")
                + (f" ({description})" if description else "")
            )
            if not role or not name.strip():
                unnamed.append(f"cell {cell}: a control read as {role!r} {name!r}")
            if role == "slider" and (not value or " = " not in spoken):
                unnamed.append(f"cell {cell}: the slider {name!r} has value {value!r} and aria-valuetext {spoken!r}")
            if role == "slider" and not moved:
                moved = True
                announced = move_and_listen(page, element)
                lines.append(
                    f"    → pressed: announced {announced!r}" if announced else "    → pressed: nothing announced"
                )
                if not announced:
                    silent.append(f"cell {cell}: moving {name!r} announced nothing")
            page.keyboard.press("Tab")
        all_controls = set(range(element.evaluate("(o, sel) => o.querySelectorAll(sel).length", CONTROLS)))
        hidden = set(
            element.evaluate(
                "(o, sel) => [...o.querySelectorAll(sel)].map((c, k) => c.getClientRects().length ? -1 : k)"
                ".filter(k => k >= 0)",
                CONTROLS,
            )
        )
        for k in sorted(all_controls - hidden - reached):
            missed.append(f"cell {cell}: control {k} of its output is not reached by Tab")
    cdp.detach()
    return lines, missed, unnamed, silent


def move_and_listen(page, output):
    """Press → on the focused slider; the live region's new text (or "" after 30 s), then the old value back."""
    track = page.evaluate_handle("() => document.activeElement").as_element()
    old, said = track.input_value(), live_text(output)
    page.keyboard.press("ArrowRight")
    try:
        page.wait_for_function(f"([o, said]) => ({LIVE_JS})(o) !== said", arg=[output, said], timeout=30_000)
        announced = live_text(output)
    except Exception:
        announced = ""
    readout = track.evaluate_handle("(t) => t.nextElementSibling").as_element()
    readout.fill(old)
    readout.press("Enter")  # back on the slider, at its old value
    return announced


@pytest.mark.timeout(900)
@pytest.mark.parametrize("name", WALKED)
def test_screen_reader_walk_reaches_every_control_with_name_role_value_and_hears_each_move(browser, name, tmp_path):
    with moving(browser, name) as page:  # it presses → on each widget's first slider
        lines, missed, unnamed, silent = walk(page)
    transcript = f"# Accessibility-tree walk of {name} after Run All (Chromium, CDP)\n\n" + "\n".join(lines) + "\n"
    (tmp_path / f"{Path(name).stem}.txt").write_text(transcript, encoding="utf-8")
    if os.environ.get("ARMLAB_A11Y_WALK"):
        out = Path(os.environ["ARMLAB_A11Y_WALK"])
        out.mkdir(parents=True, exist_ok=True)
        (out / f"{Path(name).stem}.txt").write_text(transcript, encoding="utf-8")
    sliders = [line for line in lines if re.match(r"\s+slider: ", line)]
    assert sliders, f"{name}: the walk met no slider:\n{transcript}"
    assert not (missed or unnamed or silent), "\n".join(missed + unnamed + silent) + f"\n\n{transcript}"
