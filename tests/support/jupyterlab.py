"""Opening notebooks in JupyterLab (Chromium, through Playwright) and reading whether JupyterLab marks them unsaved.

The working copy's and the student edition's tests share one Lab and one Chromium (:class:`Opener`): their
notebooks must open unchanged.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import os
import re
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def chromium_or_skip():
    """bench/bench_browser (the project's JupyterLab and Chromium driver), or skip; in CI, fail instead."""
    if str(REPO / "bench") not in sys.path:
        sys.path.insert(0, str(REPO / "bench"))
    import bench_browser as bb

    reason = None
    if bb.chromium_path() is None:
        reason = "chromium not found"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            reason = "playwright is not installed"
    if reason and os.environ.get("CI"):
        pytest.fail(f"{reason}, and CI is set: the browser tests must run in CI")
    if reason:
        pytest.skip(f"{reason}; skipped outside CI")
    return bb


class Opener:
    """One JupyterLab on a copy of course/ (in ``workdir``) and one Chromium for every :meth:`dirty_on_opening` of
    this test process (tests/conftest.py's ``jupyterlab_opener``), started at the first call. They live on a thread
    of their own: the browser tests' session-wide Playwright runs its loop in the main one."""

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self._pool = concurrent.futures.ThreadPoolExecutor(1)
        self._stack: contextlib.ExitStack | None = None

    def _start(self, bb) -> None:
        from playwright import sync_api

        self._stack = contextlib.ExitStack()
        self.lab = self._stack.enter_context(bb.jupyter_lab(self.workdir))
        pw = self._stack.enter_context(sync_api.sync_playwright())
        self.chrome = pw.chromium.launch(executable_path=bb.chromium_path(), args=bb.CHROMIUM_ARGS)
        self._stack.callback(self.chrome.close)

    def dirty_on_opening(self, place: Callable[[Path], list[str]]) -> dict[str, bool]:
        """Let ``place(root)`` add files to the Lab's root and return the notebooks to open (paths under the root),
        open each as a student does, wait until its kernel's info has been applied and return whether JupyterLab
        marks it modified. Asserts that opening wrote nothing to a file."""
        bb = chromium_or_skip()
        return self._pool.submit(self._open_each, bb, place).result(timeout=600)

    def _open_each(self, bb, place: Callable[[Path], list[str]]) -> dict[str, bool]:
        if self._stack is None:
            self._start(bb)
        root = Path(self.lab["root"])
        dirty = {}
        for name in place(root):
            before = (root / name).read_bytes()
            page = self.chrome.new_page(viewport={"width": 1366, "height": 768})
            bb.open_notebook(page, self.lab, name, file_browser=False)
            # the kernel's info has arrived, and its handlers (language_info, kernelspec) have run; the tracked
            # start page, which they change, says whether this waited long enough
            page.evaluate(f"async () => {{ await {bb._KERNEL}.info; await new Promise(r => setTimeout(r, 300)); }}")
            dirty[name] = page.evaluate("() => window.jupyterapp.shell.currentWidget.context.model.dirty")
            page.close()
            bb.shutdown_kernels(self.lab)
            assert (root / name).read_bytes() == before, f"{name} was written to on opening"
        return dirty

    def close(self) -> None:
        if self._stack is not None:
            self._pool.submit(self._stack.close).result(timeout=120)
        self._pool.shutdown()


def student_tools(url: str, token: str) -> dict:
    """What a Lab at ``url`` offers of nbgrader's instructor tools: the formgrader page's HTTP status, and which of
    nbgrader's Lab plugins (formgrader, create-assignment, assignment-list, ...) its page config disables."""
    deadline = time.monotonic() + 30  # the URL is printed a moment before the server accepts connections
    while True:
        try:
            page = urllib.request.urlopen(f"{url}/lab?token={token}", timeout=30).read().decode()
            break
        except urllib.error.URLError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    try:
        status = urllib.request.urlopen(f"{url}/formgrader?token={token}", timeout=30).status
    except urllib.error.HTTPError as e:
        status = e.code
    config = json.loads(
        re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', page, re.S)[1]
    )
    return {"formgrader page": status, "disabled": {e for e in config["disabledExtensions"] if "nbgrader" in e}}
