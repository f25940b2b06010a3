"""The browser tests' JupyterLab and Chromium, one of each per test run (the ``browser`` fixture of
tests/conftest.py), and their notebook pages.

Every test that needs a notebook after Run All asks :func:`notebook`: the first asks JupyterLab to run it, the rest
of the run reuses that page, its kernel and its outputs (tests/conftest.py runs the browser tests notebook by
notebook, so that each notebook runs once). After Run All the notebook is saved and its outputs are checked as a
headless run's are (:func:`support.notebooks.run_problems`): the headless test runs only what no browser runs.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path

import nbformat

from .notebooks import run_problems

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
    ``["pages"]`` (notebook name → its page after Run All)."""

    def __init__(self, workdir):
        self.workdir, self.stack, self.parts = workdir, None, {}

    def __getitem__(self, key):
        if self.stack is None:
            self.start()
        return self.parts[key]

    def start(self):
        from playwright import sync_api

        with contextlib.ExitStack() as stack:
            lab = stack.enter_context(bb.jupyter_lab(self.workdir()))
            pw = stack.enter_context(sync_api.sync_playwright())
            chrome = pw.chromium.launch(executable_path=bb.chromium_path(), args=bb.CHROMIUM_ARGS)
            stack.callback(chrome.close)
            self.parts = {"lab": lab, "chrome": chrome, "pages": {}}
            self.stack = stack.pop_all()

    def close(self):
        if self.stack is not None:
            stack, self.stack, self.parts = self.stack, None, {}
            stack.close()


def notebook(browser, name):
    """The page of notebook ``name`` after Run All at 1366×768 (run once per session, while it is the current
    one), its outputs saved and checked."""
    pages = browser["pages"]
    if name not in pages:
        for other in list(pages):  # one kernel computing at a time: the machine may have two cores only
            pages.pop(other).close()
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
        pages[name] = page
    return pages[name]
