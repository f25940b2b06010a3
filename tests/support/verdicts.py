"""A checker's verdict as the tests read it: its words whatever the line breaks, in lines that ``nbgrader validate``
shows whole (:func:`armlab.grading._base.verdict`)."""

from __future__ import annotations

import contextlib
import re

import pytest

from armlab.grading._base import FIRST_LINE, LINE


def one_line(message) -> str:
    """The verdict with its line breaks undone: "<what>: <message> in <call>"."""
    return " ".join(str(message).split())


@contextlib.contextmanager
def raises_verdict(match: str):
    """``pytest.raises(AssertionError, match=match)`` for a checker's verdict: ``match`` is searched in the verdict
    read as one line, and the verdict's first line and every other line must fit (a word longer than a line alone
    may not)."""
    with pytest.raises(AssertionError) as info:
        yield info
    lines = str(info.value).split("\n")
    assert len(lines[0]) <= FIRST_LINE, f"first line longer than {FIRST_LINE}: {lines[0]!r}"
    too_long = [line for line in lines[1:] if len(line) > LINE and " " in line]
    assert not too_long, f"lines longer than {LINE}: {too_long}"
    assert re.search(match, one_line(info.value)), f"{match!r} not in the verdict:\n{info.value}"
