"""Why a test cell failed, as a key that groups the same mistake across students.

The checkers' messages (``armlab.grading``) read ``<what>: <diagnosis>[: or ; details] [(remark)]`` over lines
of at most 83 columns, then ``in <the call that failed>``. The key is the diagnosis clause with the numbers,
quoted strings and lists normalised, so "T_AB: looks like degrees were used … (got 90, expected 1.5708)" and
the same words with other numbers are one mistake. It is derived from the text alone: a checker reworded,
or a hint an instructor writes in a test cell, groups with no change here.

Undiagnosed failures are kept apart: a time-out, an error other than a checker's verdict, a plain mismatch
("is off by up to …", "got …, expected …") and a test that failed without an error output.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["Cause", "cause_of_error", "anonymised", "diagnosis_clause", "normalised", "TIMED_OUT", "NO_OUTPUT"]

MISTAKE, UNDIAGNOSED = "mistake", "undiagnosed"
#: error names of a cell that ran past nbgrader's per-cell time limit (it interrupts, then reports the timeout)
TIMEOUT_ERRORS = ("CellTimeoutError", "TimeoutError")
#: a checker's words for "wrong" with no diagnosis of why
PLAIN_MISMATCH = re.compile(r"^(?:is )?off by up to\b|^got\b.*\bexpected\b|^is not equal to the expected\b")
#: the quantity a checker names first: "T_AB: …", "J2 at th1: …" (a verdict keeps it to 30 characters)
WHAT = re.compile(r"^([^\s:]+(?: [^\s:]+){0,3}): (.+)$", re.S)
NUMBER = re.compile(r"(?<![\w.])[-−+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?(?![\w])")
QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")
LIST_OF_NUMBERS = re.compile(r"[\[(]\s*#(?:\s*,\s*#)*\s*,?\s*[\])]")
RUN_OF_NUMBERS = re.compile(r"#(?:\s*,\s*#)+")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@dataclass(frozen=True)
class Cause:
    """Why one test cell failed: ``kind`` (``mistake`` or ``undiagnosed``), the grouping ``key``, the ``label``
    the report shows, the ``message`` the student saw (one example of it) and ``what`` it names ("T_AB")."""

    kind: str
    key: str
    label: str
    message: str
    what: str = ""


TIMED_OUT = Cause(UNDIAGNOSED, "timed out", "timed out (a cell ran past the time limit)", "")
NO_OUTPUT = Cause(UNDIAGNOSED, "no error", "lost points without an error output (partial or manual score)", "")


def cause_of_error(ename: str, evalue: str) -> Cause:
    """The cause of a failed test cell whose error output is ``ename: evalue``."""
    text = ANSI.sub("", evalue or "").strip()
    if ename in TIMEOUT_ERRORS:
        return TIMED_OUT
    if ename != "AssertionError":
        head = diagnosis_clause(" ".join(text.split()))
        key = f"{ename}: {normalised(head)}" if head else ename
        return Cause(UNDIAGNOSED, key, readable(key), text)
    if not text:
        return Cause(UNDIAGNOSED, "assert", "a plain assert failed (no message)", text)
    lines = text.splitlines()
    call = [i for i, line in enumerate(lines) if i > 0 and line.startswith("in ")]
    if call:  # "in <the call that failed>": the inputs, not the mistake
        lines = lines[: call[-1]]
    joined = " ".join(" ".join(lines).split())
    m = WHAT.match(joined)
    head = diagnosis_clause(m.group(2) if m else joined)
    key = normalised(head)
    if PLAIN_MISMATCH.search(key):
        return Cause(UNDIAGNOSED, "mismatch", "wrong value, no diagnosis (a plain mismatch)", text)
    return Cause(MISTAKE, key, readable(key), text, m.group(1) if m else "")


def _outside_brackets(message: str) -> Iterator[tuple[int, str]]:
    """(index, character) of ``message`` outside brackets, with the brackets of the outermost groups."""
    depth = 0
    for i, ch in enumerate(message):
        if ch in ")]}":
            depth = max(depth - 1, 0)
        if depth == 0:
            yield i, ch
        if ch in "([{":
            depth += 1


def diagnosis_clause(message: str) -> str:
    """The diagnosis of ``message``: up to its first ": ", "; ", ". " or " — " outside brackets, else without a
    final remark in parentheses ("returned (v, ω): …" keeps its parenthesis, which is inside the clause)."""
    top = list(_outside_brackets(message))
    for i, ch in top:
        if i > 0 and (ch in ":;." and message[i + 1 : i + 2] == " " or message[i - 1 : i + 2] == " — "):
            return message[:i].strip()
    opens = [i for i, ch in top if ch == "(" and message[i - 1 : i] == " " and message[i - 2 : i - 1] != ","]
    if opens:
        end = next((i for i, ch in top if ch == ")" and i > opens[-1]), len(message))
        if message[end + 1 :].strip(" .") == "":
            return message[: opens[-1]].strip(" .")
    return message.strip(" .")


def normalised(clause: str) -> str:
    """``clause`` with its numbers as ``#``, quoted strings as ``'…'`` and lists of numbers as one ``#``."""
    out = QUOTED.sub("'…'", clause)
    out = NUMBER.sub("#", out)
    for _ in range(3):  # [[#, #], [#, #]] → [#, #] → #
        out = LIST_OF_NUMBERS.sub("#", out)
    return RUN_OF_NUMBERS.sub("#", " ".join(out.split()))


def readable(key: str) -> str:
    """A key as the report shows it: ``#`` as ``…``."""
    return key.replace("#", "…")


def anonymised(message: str, who: tuple[str, ...]) -> str:
    """``message`` without ``who`` (a student's id, names and e-mail) where they stand as words of their own."""
    for word in sorted({w for w in who if w and len(w.strip()) > 1}, key=len, reverse=True):
        message = re.sub(rf"(?<![\w@.]){re.escape(word)}(?![\w@])", "[student]", message, flags=re.I)
    return message
