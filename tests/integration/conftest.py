"""The browser tests' one JupyterLab and one Chromium per test run (``browser``; their pages: support.browser)."""

from __future__ import annotations

import os

import pytest

from support.browser import bb


def _skip_or_fail(reason):
    if os.environ.get("CI"):
        pytest.fail(f"{reason}, and CI is set: the browser tests must run in CI")
    pytest.skip(f"{reason}; skipped outside CI")


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    chromium = bb.chromium_path()
    if chromium is None:
        _skip_or_fail("chromium not found (install it, e.g. apt-get install chromium)")
    try:
        from playwright import sync_api
    except ImportError:
        _skip_or_fail("playwright is not installed (pip install playwright)")
    with bb.jupyter_lab(tmp_path_factory.mktemp("lab")) as lab, sync_api.sync_playwright() as pw:
        chrome = pw.chromium.launch(executable_path=chromium, args=bb.CHROMIUM_ARGS)
        try:
            yield {"lab": lab, "chrome": chrome, "pages": {}}
        finally:
            chrome.close()
