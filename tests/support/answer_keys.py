"""The answer keys of a homework, computed in this process: its solutions notebook's key cells run in order in
one namespace, as ``BakeAnswerKey`` runs them in a fresh process at release."""

from __future__ import annotations

import functools
from typing import Any

import nbformat

from armlab.autograde.bake import is_key_cell

from .nbgrader_harness import REPO


@functools.cache
def answer_keys(assignment: str) -> dict[str, Any]:
    """{KEY_name: value} of ``solutions/<assignment>``'s answer key cells."""
    return {k: v for k, v in key_namespace(assignment).items() if k.startswith("KEY_")}


@functools.cache
def key_namespace(assignment: str) -> dict[str, Any]:
    """Everything ``solutions/<assignment>``'s answer key cells define (their helper functions too)."""
    nb = nbformat.read(REPO / "solutions" / assignment / f"{assignment}.ipynb", as_version=4)
    namespace: dict[str, Any] = {}
    exec("\n".join(c.source for c in nb.cells if is_key_cell(c)), namespace)  # noqa: S102 (the course's own code)
    return namespace


def check_part(assignment: str, part: str, fn: Any, **kw: Any) -> int:
    """``fn`` passes ``KEY_<part>_VISIBLE`` and ``KEY_<part>`` of the assignment's answer keys (``check_cases``
    with ``kw``); returns the number of hidden inputs."""
    from armlab.grading import check_cases

    keys = answer_keys(assignment)
    for name in (f"KEY_{part}_VISIBLE", f"KEY_{part}"):
        check_cases(fn, keys[name], name=getattr(fn, "__name__", "answer"), **kw)
    return len(keys[f"KEY_{part}"]["inputs"])
