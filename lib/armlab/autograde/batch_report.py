"""What ``armlab-grade`` tells the instructor: progress while it grades, a summary when it is done.

:class:`Summary` is what :func:`armlab.autograde.batch.grade_assignment` returns: counts, the mean score, the
failures and timeouts with their reasons, and where the feedback is. Its ``repr`` is those few lines (the last
line of a notebook cell shows it), never the graded notebooks, which hold the hidden tests.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator


__all__ = ["Progress", "Summary"]


class Progress:
    """done/total, rate, ETA and the slowest submissions so far, in a terminal or a notebook cell."""

    def __init__(self, total: int, stream: Any = None, every: float = 1.0) -> None:
        self.total, self.done, self.failed = total, 0, 0
        self.t0 = time.perf_counter()
        self.slowest: list[tuple[float, str]] = []
        self.stream = sys.stderr if stream is None else stream
        self.every, self._last = every, 0.0
        self._handle = _notebook_handle() if total else None
        self._tty = hasattr(self.stream, "isatty") and self.stream.isatty()

    def update(self, result: Any) -> None:
        self.done += 1
        self.failed += not result.ok
        self.slowest = sorted(self.slowest + [(result.seconds, result.student)], reverse=True)[:3]
        now = time.perf_counter()
        if now - self._last >= self.every or self.done == self.total:
            self._last = now
            self.show()

    def line(self) -> str:
        elapsed = time.perf_counter() - self.t0
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else float("nan")
        slow = ", ".join(f"{s} {t:.1f} s" for t, s in self.slowest)
        return (
            f"{self.done}/{self.total} graded ({self.failed} failed), {rate * 60:.1f} per minute, "
            f"ETA {eta:.0f} s; slowest: {slow or '-'}"
        )

    def show(self) -> None:
        text = self.line()
        if self._handle is not None:
            self._handle.update({"text/plain": text}, raw=True)
        elif self._tty:
            print("\r" + text, end="\n" if self.done == self.total else "", file=self.stream, flush=True)
        else:
            print(text, file=self.stream, flush=True)


def _notebook_handle() -> Any:
    """A display handle when running in a Jupyter kernel, else None."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None or type(shell).__name__ != "ZMQInteractiveShell":
        return None
    from IPython.display import display

    return display({"text/plain": "starting…"}, raw=True, display_id=True)


@dataclass(repr=False)
class Summary:
    """One run of ``armlab-grade``: who was graded, with which score, what failed and why, where the feedback is.

    Iterating over it gives the run's :class:`~armlab.autograde.batch.Result` objects (one per graded student).
    """

    assignment: str
    results: list[Any]
    scores: dict[str, float]  # student -> score of this run, from the course's gradebook
    max_score: float
    feedback: dict[str, Path] = field(default_factory=dict)  # student -> their feedback folder (this run or before)
    skipped: int = 0  # submissions graded already (not graded again without force)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.results)

    def __len__(self) -> int:
        return len(self.results)

    @property
    def mean(self) -> float:
        """Mean score of the students graded in this run (a failure counts as its zero); nan when none was."""
        return sum(self.scores.values()) / len(self.scores) if self.scores else float("nan")

    @property
    def timeouts(self) -> list[tuple[str, str]]:
        return [(r.student, r.reason) for r in self.results if not r.ok and r.timed_out]

    @property
    def failures(self) -> list[tuple[str, str]]:
        """Submissions that got zero for another reason than the time limit (a dead kernel, a killed worker)."""
        return [(r.student, r.reason) for r in self.results if not r.ok and not r.timed_out]

    def lines(self) -> list[str]:
        a = self.assignment
        if self.results:
            out = [
                f"{a}: {_n(len(self.results), 'student')} graded, mean score {self.mean:.1f} / {self.max_score:g}"
                + (f" ({self.skipped} graded before, not again)" if self.skipped else "")
            ]
            for what, rows in (("failures", self.failures), ("timeouts", self.timeouts)):
                out.append(f"  {what}: {len(rows)}" + (" (zero, flagged for manual grading)" if rows else ""))
                out += [f"    {student}: {reason}" for student, reason in rows]
        else:
            out = [f"{a}: nothing to grade ({self.skipped} submissions graded already; --force grades them again)"]
        if self.feedback:
            where = Path(next(iter(self.feedback.values()))).parents[1]
            out.append(
                f"  feedback of {_n(len(self.feedback), 'student')}: {where}/<student>/{a}/ (give students only these HTML"
                f" files; after manual grading: nbgrader generate_feedback {a} --force)"
            )
        else:
            out.append(f"  feedback: none yet (nbgrader generate_feedback {a} writes it)")
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def __repr__(self) -> str:
        return f"<armlab-grade {self}>"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:  # IPython: the last line of a cell
        p.text(str(self))


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"
