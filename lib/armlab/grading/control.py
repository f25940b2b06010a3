"""The check of hw08's part 4, a choice among the IK solutions of the simulation paper's arm by eq. (12): the
answer key (``solutions/hw08_control``, computed by armlab) holds each point's four solutions, their costs, the
best one and the one each usual mistake chooses. The other parts of hw08 are plain ``check_cases``.

>>> key = {"inputs": [[[1.0, 0.0, 0.0], [0.0, 0.0, 0.0]]], "expected": [{"solutions": [[0.0, 1.0, 1.0], [0.0, 2.0, -1.0]],
...        "costs": [3.0, 3.0 + 1e-2], "best": 0, "mistakes": {"chose the LARGEST J": 1}}]}
>>> check_choice(lambda p, q: [0.0, 1.0, 1.0], key, name="best")
>>> check_choice(lambda p, q: [0.0, 2.0, -1.0], key, name="best")
Traceback (most recent call last):
    ...
AssertionError: best: chose the LARGEST J
in best([1, 0, 0], [0, 0, 0])
"""

from __future__ import annotations

from ._base import call, check_finite, decode, fail, fmt, fmt_list, read, wrap
from ._builtins import *  # noqa: F403  (the captured builtins shadow the live ones)
from ._frozen import freeze
from .checks import argument_label

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable

__all__ = ["check_choice"]


def check_choice(fn: Callable[..., Any], key: Any, name: str = "best_solution", atol: float = 1e-6) -> None:
    """Assert ``fn(point, q_current)`` returns the key's best solution (three angles, equal modulo 2π) on every
    input. A wrong choice is explained by the usual mistake whose choice it is; where several mistakes would
    choose alike, the next inputs decide (the first input that tells them apart)."""
    inputs, expected = key["inputs"], key["expected"]
    del key  # not in this frame while the student's function runs
    ambiguous = None
    for args, want in zip(inputs, expected):
        args = [decode(a) for a in args]
        label = f"{name}({', '.join(argument_label(a) for a in args)})"
        got = call(fn, args, name)
        if isinstance(got, int) and not isinstance(got, bool):
            fail(label, f"returned the index {got}; return the chosen solution itself (three angles)")
        shape, a = read(got, label)
        if shape != (3,):
            fail(label, f"expected one solution (three angles), got shape {shape}")
        check_finite(a, label)
        sols, costs, best = want["solutions"], want["costs"], want["best"]
        same = [k for k, s in enumerate(sols) if all(abs(wrap(x - y)) <= atol for x, y in zip(a, s))]
        if same and same[0] == best:
            continue
        if not same:
            fail(label, f"{fmt_list(a)} does not reach the point: it is none of its four IK solutions")
        why = [message for message, choice in want["mistakes"].items() if choice == same[0]]
        if len(why) == 1:
            fail(label, why[0])
        verdict = (
            label,
            f"chose J = {fmt(costs[same[0]])}; another solution has J = {fmt(costs[best])}"
            + (f" (one of: {'; '.join(why)})" if why else ""),
        )
        if not why:
            fail(*verdict)
        ambiguous = ambiguous or verdict
    if ambiguous:
        fail(*ambiguous)


freeze(__name__)
