"""WCAG 2.1 AA in the browser (issue #31): JupyterLab + headless Chromium (Playwright) + axe-core, after Run All.

The browser tests' JupyterLab (a copy of course/) and Chromium serve the test (the ``browser`` fixture and
support.browser: each notebook is opened at 1366×768 with the file browser open and run with Run ▸ Run All Cells
once, as the audit did, and the layout tests of test_browser.py look at it first); then, in the course's own
content (outputs, widgets, rendered markdown; JupyterLab's chrome left aside), one test per notebook checks:

* axe-core's WCAG 2.1 A and AA rules find no violation (with ``body { height: 100vh }``: JupyterLab's body is
  0 px high, which makes axe skip its contrast rules);
* every armlab slider reads its value with its unit (aria-valuetext "θ2 = 35.0°"), every scene and plot
  canvas is role="img" with a name that says what it shows, every image has alt text written for it (not only
  generated from its axes), and no label of a 3-D view is drawn over another (issue #33: "noflip / flip / noflip");
* a keyboard walk finds no trap: from the first control of each output, Tab leaves the output, and so does
  Shift+Tab from its last;
* every widget with a slider and a 3-D view: → on its first slider changes its live region's text, and in each
  notebook some widget's view is renamed (in chapter 03 the IK explorer's, whose region says how many
  solutions); then the slider's old value is typed back into its number box (the tests after this one find the
  widgets as Run All left them);
* the first such widget: Enter in its number box returns to the slider; its view turns with the arrow keys while
  JupyterLab keeps its cells, and 0 turns it back;
* at 683 px wide (200 % zoom) no widget or figure output is wider than the notebook column, and no display
  equation is either, but for those with a matrix (WCAG 1.4.10's two-dimensional layout).

axe-core comes from npm: tests/browser/package.json, installed by ``./run.sh test`` (``npm ci``). Skipped when
chromium, playwright or axe-core is missing, unless CI is set: then it fails.
"""

import os
import time
from pathlib import Path

import pytest

from support.browser import NOTEBOOKS, moving

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "tests" / "browser" / "node_modules" / "axe-core" / "axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


@pytest.fixture(scope="module")
def axe():
    if not AXE.exists():
        reason = "axe-core is not installed (cd tests/browser && npm ci; ./run.sh test does it)"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}, and CI is set: the browser tests must run in CI")
        pytest.skip(f"{reason}; skipped outside CI")
    return AXE


# axe needs a body with a height (JupyterLab's is 0 px: axe would skip its contrast rules); offscreen cells are
# laid out too (JupyterLab's windowing skips them)
PAGE_CSS = "body { height: 100vh !important; } .jp-Cell, .jp-Cell * { content-visibility: visible !important; }"

# The course's own content: outputs and rendered markdown (axe checks their contrast against what is behind).
CONTENT = [[".jp-OutputArea-output"], [".jp-MarkdownOutput"]]

AXE_JS = """async ([include, tags]) => {
  const r = await axe.run({include}, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map(n => `${n.target.join(' ')}: ${n.html.slice(0, 160)} — ${n.failureSummary.slice(0, 200)}`),
    count: v.nodes.length}));
}"""


def axe_violations(page):
    """axe's WCAG 2.1 A/AA violations in the course's content, one text each (rule, impact, count, first nodes)."""
    return [
        f"{v['id']} ({v['impact']}, {v['count']}×): {v['help']}\n    " + "\n    ".join(v["nodes"])
        for v in page.evaluate(AXE_JS, [CONTENT, WCAG_TAGS])
    ]


NAMES_JS = """() => {
  const problems = [];
  const outs = '.jp-OutputArea-output';
  for (const t of document.querySelectorAll(`${outs} .armlab-slider-track`)) {
    const v = t.getAttribute('aria-valuetext') || '';
    if (!/ = \\S/.test(v)) problems.push(`slider ${t.id}: aria-valuetext ${JSON.stringify(v)}`);
    if (!t.labels || !t.labels.length || !t.labels[0].textContent.trim()) problems.push(`slider ${t.id}: no label`);
  }
  for (const c of document.querySelectorAll(`${outs} canvas.armlab-scene-canvas`)) {
    const n = c.getAttribute('aria-label') || '';
    if (c.getAttribute('role') !== 'img' || n.length < 12 || n === '3-D view')
      problems.push(`scene canvas: role ${c.getAttribute('role')}, name ${JSON.stringify(n)}`);
    if (!c.parentElement.querySelector('[aria-live]')) problems.push('scene canvas without a live region');
    if (c.dataset.overlaps && c.dataset.overlaps !== '0')  // scene.js moves labels apart; these it could not
      problems.push(`${c.dataset.overlaps} labels drawn over others in ${JSON.stringify(n.slice(0, 60))}`);
  }
  for (const c of document.querySelectorAll(`${outs} canvas.armlab-plots-canvas`)) {
    const n = c.getAttribute('aria-label') || '';
    if (c.getAttribute('role') !== 'img' || !n.startsWith('Plot of')) problems.push(`plot canvas: name ${JSON.stringify(n)}`);
  }
  for (const i of document.querySelectorAll(`${outs} img`)) {
    if (!(i.getAttribute('alt') || '').trim()) problems.push(`image without alt: ${i.src.slice(0, 40)}`);
    if (i.dataset.armlabAlt === 'generated')  // written from the axes only: say what it shows (viz.shown(fig, alt=…))
      problems.push(`image with a generated alt: ${i.getAttribute('alt').slice(0, 80)}`);
  }
  if (document.querySelector(`${outs} .jupyter-matplotlib, ${outs} .jupyter-matplotlib-canvas-div`))
    problems.push('an ipympl figure (it keeps the keyboard focus)');
  return problems;
}"""


def unnamed(page):
    """Sliders without a label or a value text, views, plots and images without a name, ipympl figures."""
    return page.evaluate(NAMES_JS)


# Each output with focusable controls: [its first, its last] control, as handles.
FOCUSABLE = (
    "a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), "
    "[tabindex]:not([tabindex='-1'])"
)
ENDS_JS = """(sel) => [...document.querySelectorAll('.jp-OutputArea-output')].map(o => {
  const f = [...o.querySelectorAll(sel)].filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden');
  return f.length ? [o, f[0], f[f.length - 1], f.length] : null;
}).filter(x => x)"""


def keyboard_traps(page):
    """From the first control of each output, Tab (at most one press per control and two more) leaves the output;
    from its last, Shift+Tab does too. The outputs where they do not."""
    ends = page.evaluate_handle(ENDS_JS, FOCUSABLE)
    count = page.evaluate("(e) => e.length", ends)
    traps = []
    for k in range(count):
        for start, key in ((1, "Tab"), (2, "Shift+Tab")):
            page.evaluate(
                "([e, k, i]) => { e[k][i].scrollIntoView({block: 'center'}); e[k][i].focus(); }", [ends, k, start]
            )
            presses = page.evaluate("([e, k]) => e[k][3]", [ends, k]) + 2
            for _ in range(presses):
                page.keyboard.press(key)
                if not page.evaluate("([e, k]) => e[k][0].contains(document.activeElement)", [ends, k]):
                    break
            else:
                where = page.evaluate("() => document.activeElement.outerHTML.slice(0, 120)")
                traps.append(f"output {k}: {presses} × {key} stay inside it (at {where})")
    return traps


def widgets_with_sliders(page):
    """The outputs with a 3-D view (and so a live region) and a slider that is not greyed out."""
    return page.locator(".jp-OutputArea-output", has=page.locator("canvas.armlab-scene-canvas")).filter(
        has=page.locator(".armlab-slider-track:not([disabled])")
    )


def waited(page, element, attribute, value, same, timeout=30_000):
    """Wait until ``element``'s ``attribute`` (its text, for None) is ``value`` (``same``) or is not; whether it came."""
    try:
        page.wait_for_function(
            "([e, a, v, same]) => ((a ? e.getAttribute(a) : e.textContent) === v) === same",
            arg=[element.element_handle(), attribute, value, same],
            timeout=timeout,
        )
        return True
    except Exception:
        return False


def live_region_problems(page, name):
    """Every widget with a slider: ten steps of its first slider change its live region's text, and in each
    notebook some widget's view is renamed too (in 03 the IK explorer's, and its region says how many solutions).
    The slider is then put back to its value (typed into its number box), for the tests that come after."""
    panels = widgets_with_sliders(page)
    problems, renamed = [], 0
    for k in range(panels.count()):
        panel = panels.nth(k)
        panel.scroll_into_view_if_needed()
        canvas, live = panel.locator("canvas.armlab-scene-canvas").first, panel.locator("[aria-live]").first
        if panel.locator("[aria-live]").count() == 0:
            problems.append(f"widget {k}: no live region")
            continue
        track = panel.locator(".armlab-slider-track:not([disabled])").first
        what = f"widget {k} ({track.evaluate('(t) => t.labels[0].textContent')})"
        before, said, value = canvas.get_attribute("aria-label"), live.text_content(), track.input_value()
        lo, hi = float(track.get_attribute("min")), float(track.get_attribute("max"))
        track.focus()
        for _ in range(10):  # ten steps, towards the farther end: a change the rounded texts show
            page.keyboard.press("ArrowRight" if hi - float(value) >= float(value) - lo else "ArrowLeft")
        try:
            if not waited(page, live, None, said, same=False):
                problems.append(f"{what}: its live region still says {said!r} after a slider move")
            elif canvas.get_attribute("aria-label") != before:
                renamed += 1
            moved = live.text_content()
            if name.startswith("03_") and k == 0:  # the IK explorer renames its view, says how many solutions
                if canvas.get_attribute("aria-label") == before:
                    problems.append("the IK explorer's view kept its name after a slider move")
                if "solution" not in live.text_content():
                    problems.append(f"the IK explorer's live region says {live.text_content()!r}")
        finally:  # back to where it was, for the tests that come after
            readout = track.locator("xpath=following-sibling::input[1]")
            readout.fill(value)
            readout.press("Enter")
        # the kernel has taken it when the view has its old name again, or the region speaks again (the IK
        # explorer's pose at a wrist singularity depends on the way there: its name may not come back)
        try:
            page.wait_for_function(
                "([c, before, l, moved]) => c.getAttribute('aria-label') === before || l.textContent !== moved",
                arg=[canvas.element_handle(), before, live.element_handle(), moved],
                timeout=15_000,
            )
        except Exception:
            pass  # the check below says what is wrong
        if track.input_value() != value:
            problems.append(f"{what}: typing its old value {value} back left it at {track.input_value()}")
    if panels.count() and not renamed:
        problems.append("no slider move renamed its widget's view")
    return problems


def keys_problems(page):
    """The first widget with a slider: Enter in the slider's number box returns to the slider; the arrow keys turn
    its view, and JupyterLab's active cell stays."""
    panels = widgets_with_sliders(page)
    if panels.count() == 0:
        return []
    panel = panels.first
    panel.scroll_into_view_if_needed()
    problems = []
    track, canvas = panel.locator(".armlab-slider-track").first, panel.locator("canvas.armlab-scene-canvas").first
    panel.locator(".armlab-slider-readout").first.focus()
    page.keyboard.press("Enter")
    if not track.evaluate("(t) => document.activeElement === t"):
        problems.append("Enter in the number box did not return the focus to its slider")
    active = page.evaluate("() => window.jupyterapp.shell.currentWidget.content.activeCellIndex")
    pixels = canvas.evaluate("(c) => c.toDataURL()")
    canvas.focus()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("0")  # and back: "0 0" would restart the kernel if JupyterLab saw it
    page.keyboard.press("ArrowLeft")
    if canvas.evaluate("(c) => c.toDataURL()") == pixels:
        problems.append("the arrow keys did not turn the view")
    page.keyboard.press("0")  # the view as it was
    if page.evaluate("() => window.jupyterapp.shell.currentWidget.content.activeCellIndex") != active:
        problems.append("the arrow keys on the view moved JupyterLab's active cell")
    return problems


REFLOW_JS = """() => [...document.querySelectorAll('.jp-OutputArea-output')]
  .filter(o => o.querySelector('.armlab-scene, .armlab-plots, img, .armlab-slider'))
  .filter(o => o.scrollWidth > o.clientWidth + 1)
  .map(o => `${o.scrollWidth - o.clientWidth} px too wide: ${(o.textContent || '').trim().slice(0, 60)}`)"""


# Display equations wider than their column, measured: the typeset maths (mjx-math) against the rendered cell or
# output. WCAG 1.4.10 exempts "parts of the content which require two-dimensional layout": a matrix (a table of
# MathJax's assistive MathML between fences) may scroll inside its box; a long sum must break into lines.
EQUATIONS_JS = """() => [...document.querySelectorAll('mjx-container[display="true"]')]
  .filter(m => m.closest('.jp-MarkdownOutput, .jp-OutputArea-output') && m.getClientRects().length)
  .filter(m => ![...m.querySelectorAll('mjx-assistive-mml mtable')].some(t => {
    const before = t.previousElementSibling;
    return before && before.tagName.toLowerCase() === 'mo';
  }))
  .map(m => {
    const column = m.closest('.jp-MarkdownOutput, .jp-OutputArea-output');
    const math = m.querySelector('mjx-math') || m;
    return [math.getBoundingClientRect().width - column.clientWidth, m];
  })
  .filter(([over]) => over > 1)
  .map(([over, m]) => {
    const cell = m.closest('.jp-Cell'), cells = [...document.querySelectorAll('.jp-Notebook .jp-Cell')];
    const tex = (m.querySelector('mjx-assistive-mml') || m).textContent.replace(/\\s+/g, ' ').slice(0, 70);
    return `an equation in cell ${cells.indexOf(cell)} is ${Math.round(over)} px wider than its column: ${tex}`;
  })"""


def reflow_problems(page):
    """Widget and figure outputs, and display equations (matrices aside), wider than the column at 683 px (1366 px
    at 200 % zoom)."""
    page.set_viewport_size({"width": 683, "height": 384})
    try:
        time.sleep(1.0)  # JupyterLab lays the panels out again
        return page.evaluate(REFLOW_JS) + page.evaluate(EQUATIONS_JS)
    finally:
        page.set_viewport_size({"width": 1366, "height": 768})


def audit(page, name):
    """Every check on the page of ``name`` after Run All: {check: [problems]}."""
    style = page.add_style_tag(content=PAGE_CSS)
    page.add_script_tag(path=str(AXE))
    try:
        return {
            "axe WCAG 2.1 A/AA": axe_violations(page),
            "names": unnamed(page),
            "keyboard traps": keyboard_traps(page),
            "live regions": live_region_problems(page, name),
            "number box and view keys": keys_problems(page),
            "reflow at 683 px": reflow_problems(page),
        }
    finally:
        style.evaluate("(s) => s.remove()")  # the page as the other tests see it


@pytest.mark.timeout(900)
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_meets_wcag_2_1_aa_after_run_all(browser, axe, name):
    with moving(browser, name) as page:  # it moves a slider and turns a view
        found = audit(page, name)
    failed = {check: problems for check, problems in found.items() if problems}
    assert not failed, f"{name}:\n" + "\n".join(f"{check}:\n  " + "\n  ".join(p) for check, p in failed.items())
