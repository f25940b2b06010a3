"""The browser tests' JupyterLab and Chromium, one of each per test run (the ``browser`` fixture of
tests/conftest.py), and their notebook pages.

Every test that needs a notebook after Run All asks :func:`notebook`: the first asks JupyterLab to run it, the rest
of the run reuses that page, its kernel and its outputs (tests/conftest.py runs the browser tests notebook by
notebook, so that each notebook runs once). After Run All the notebook is saved and its outputs are checked as a
headless run's are (:func:`support.notebooks.run_problems`): the headless test runs only what no browser runs.

A page is shared only as Run All left it, so that no test depends on the order of the others: the session keeps
what the page showed then (:func:`shown`: every slider's value, every view's name and drawing, every caption and
matrix) and runs the notebook again when a test finds it otherwise. A test that moves a widget puts it back
(:func:`put_back`: each slider's value typed back exactly, each view at its camera), which spares that Run All.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path

import nbformat
import pytest

from .notebooks import DEMO_STALE_AFTER, patient_ipython_dir, run_problems

REPO = Path(__file__).resolve().parents[2]
if str(REPO / "bench") not in sys.path:
    sys.path.insert(0, str(REPO / "bench"))
import bench_browser as bb  # noqa: E402  (the JupyterLab server and page helpers)

SIZES = {"1366x768": {"width": 1366, "height": 768}, "1920x1080": {"width": 1920, "height": 1080}}
#: what the browser tests run: the chapters, and the lab notebook with a widget (lab 1's teach pendant)
NOTEBOOKS = sorted(p.name for p in (REPO / "course").glob("[0-9][0-9]_*.ipynb")) + ["lab1_connect_and_move.ipynb"]


def browser_runs() -> bool:
    """Whether this run's browser tests run (under CI they must: they fail rather than skip)."""
    if os.environ.get("CI"):
        return True
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return False
    return bb.chromium_path() is not None


class BrowserSession:
    """JupyterLab on a copy of course/ and Chromium, started when a browser test first asks and closed when the
    run's browser tests are done (tests/conftest.py): Playwright's synchronous API keeps an event loop running in
    this thread, and a later test's ``asyncio.run`` must not find it. ``session["lab"]``, ``["chrome"]`` and
    ``["pages"]`` (notebook name → its page after Run All) and ``["shown"]`` (name → what that page showed then)."""

    def __init__(self, workdir):
        self.workdir, self.stack, self.parts = workdir, None, {}

    def __getitem__(self, key):
        if self.stack is None:
            self.start()
        return self.parts[key]

    def start(self):
        from playwright import sync_api

        with contextlib.ExitStack() as stack:
            # its kernels' lab watchdog: patient, but still tripped by lab 1's stall demo (support.notebooks)
            workdir = self.workdir()
            with pytest.MonkeyPatch.context() as mp:  # the server's environment, which its kernels inherit
                mp.setenv("IPYTHONDIR", patient_ipython_dir(workdir, DEMO_STALE_AFTER))
                lab = stack.enter_context(bb.jupyter_lab(workdir))
            pw = stack.enter_context(sync_api.sync_playwright())
            chrome = pw.chromium.launch(executable_path=bb.chromium_path(), args=bb.CHROMIUM_ARGS)
            stack.callback(chrome.close)
            self.parts = {"lab": lab, "chrome": chrome, "pages": {}, "shown": {}}
            self.stack = stack.pop_all()

    def close(self):
        if self.stack is not None:
            stack, self.stack, self.parts = self.stack, None, {}
            stack.close()


# What the page shows a student, in the order of its outputs: each armlab slider's value (the track's value is
# the model's number written in full, not the rounded readout), each 3-D view's name and drawn extent (which moves
# when the view turns), each caption, matrix and HTML text. Not a view's live region: it holds the last thing
# announced (empty after Run All, the put-back's own announcement after a move), not the state of the page.
SHOWN_JS = """() => {
  const shown = [];
  document.querySelectorAll('.jp-OutputArea-output').forEach((o, k) => {
    for (const t of o.querySelectorAll('.armlab-slider-track')) shown.push(`${k} slider ${t.labels[0]?.textContent}: ${t.value}`);
    for (const c of o.querySelectorAll('canvas.armlab-scene-canvas'))
      shown.push(`${k} view ${c.getAttribute('aria-label')} | ${c.dataset.extent}`);
    for (const e of o.querySelectorAll('.widget-html, .armlab-matrix-text, .armlab-plots-caption'))
      shown.push(`${k} text ${e.textContent.trim()}`);
  });
  return shown;
}"""


def shown(page) -> list[str]:
    """What the page shows (SHOWN_JS), one line per slider, view and text."""
    return page.evaluate(SHOWN_JS)


def _differences(page, wanted):
    now = shown(page)
    return [f"{a!r} ≠ {b!r}" for a, b in zip(now, wanted) if a != b] + (
        [f"{len(now)} items shown, {len(wanted)} after Run All"] if len(now) != len(wanted) else []
    )


def _idle(page, timeout_ms=30_000):
    time.sleep(0.3)  # the change's message is on its way to the kernel
    page.wait_for_function(f"() => {bb._KERNEL} && {bb._KERNEL}.status === 'idle'", timeout=timeout_ms)


def put_back(browser, name):
    """Put the page of ``name`` back as Run All left it: every 3-D view at the kernel's camera (a double-click),
    every moved slider at its value (typed into its number box in full, as a person could; the panel recomputes
    from it). A page that does not come back is dropped: the next test that asks runs the notebook again."""
    try:
        _put_back(browser["pages"][name], browser["shown"][name])
    except Exception:  # a control that no longer answers: the page is not as Run All left it
        drop(browser, name)
        return
    if _differences(browser["pages"][name], browser["shown"][name]):
        drop(browser, name)


def _put_back(page, wanted):
    page.evaluate(
        "() => document.querySelectorAll('.jp-OutputArea-output canvas.armlab-scene-canvas')"
        ".forEach(c => c.dispatchEvent(new MouseEvent('dblclick')))"
    )
    tracks = page.locator(".jp-OutputArea-output .armlab-slider-track")
    values = [line.rsplit(": ", 1)[1] for line in wanted if " slider " in line]
    for _ in range(len(values)):  # one slider at a time: putting one back may bring others back with it
        now = tracks.evaluate_all("(ts) => ts.map(t => t.value)")
        moved = [k for k, (a, b) in enumerate(zip(now, values)) if a != b]
        if len(now) != len(values) or not moved:
            break
        readout = tracks.nth(moved[0]).locator("xpath=..").locator(".armlab-slider-readout")
        readout.scroll_into_view_if_needed()
        readout.fill(values[moved[0]])
        readout.press("Enter")
        _idle(page)
    # the last redraws arrive: until the page shows what Run All left, or has stopped changing for a second (a
    # widget whose state depends on the way there, as the IK explorer's chosen branch does, may not come back)
    end, last, still = time.monotonic() + 20, None, time.monotonic()
    while time.monotonic() < end:
        now = shown(page)
        if now == wanted:
            break
        if now != last:
            last, still = now, time.monotonic()
        elif time.monotonic() - still > 1.0:
            break
        time.sleep(0.2)


@contextlib.contextmanager
def moving(browser, name):
    """The page of ``name`` (:func:`notebook`) for a test that moves its widgets, put back afterwards."""
    page = notebook(browser, name)
    try:
        yield page
    finally:
        put_back(browser, name)


def drop(browser, name):
    """Forget the page of ``name``: the next test that asks for it runs the notebook again."""
    page = browser["pages"].pop(name, None)
    browser["shown"].pop(name, None)
    if page is not None:
        page.close()


def notebook(browser, name):
    """The page of notebook ``name`` as Run All at 1366×768 left it (run once per session while it is the
    current one and nothing moved it), its outputs saved and checked."""
    pages = browser["pages"]
    if name in pages:
        moved = _differences(pages[name], browser["shown"][name])
        if moved:
            print(f"\n{name}: moved since Run All, run again ({len(moved)} changes, e.g. {moved[0][:300]})")
            drop(browser, name)
    if name not in pages:
        for other in list(pages):  # one kernel computing at a time: the machine may have two cores only
            drop(browser, other)
        bb.shutdown_kernels(browser["lab"])
        page = browser["chrome"].new_page(viewport=SIZES["1366x768"])
        page.set_default_timeout(120_000)
        bb.open_notebook(page, browser["lab"], name)
        bb.run_all(page)
        errors = bb.tracebacks(page)
        assert not errors, f"{name}: {errors[0][:2000]}"
        time.sleep(1.0)  # late widget messages
        page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
        saved = Path(browser["lab"]["root"]) / name
        end = time.monotonic() + 30
        while page.evaluate("() => window.jupyterapp.shell.currentWidget.context.model.dirty"):
            assert time.monotonic() < end, f"{name}: JupyterLab did not save it"
            time.sleep(0.1)
        problems = run_problems(nbformat.read(saved, as_version=4))
        assert not problems, f"{name} after Run All in JupyterLab: {problems}"
        pages[name], browser["shown"][name] = page, shown(page)
    return pages[name]
