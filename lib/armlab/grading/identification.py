"""Comparisons for the identification homework (hw07): the pendulum's regressor (its columns in any wrong order
named), parameters identified from a noisy recording (within a tolerance of the truth, the usual ways to miss
named), a numerical rank and the 2R arm's base-parameter counts. The expected answers (the truth, what the
unfiltered accelerations or a missing offset give, the ranks) are computed by armlab and numpy in the answer
key cells of ``solutions/hw07_identification``.

The pendulum: τ = [q̈, g·sin q, q̇, sign(q̇), 1]·(J, ml, f_v, f_c, f_off), the lab report's τ_e = ξ̄χ̄ (2.67).

>>> rank_of(2.0, 2, name="numeric_rank(Y)", atol=0.0)
>>> rank_of(3, 2, name="numeric_rank(Y)", atol=0.0)
Traceback (most recent call last):
    ...
AssertionError: numeric_rank: rank 3, expected 2:
rounding-level differences (1e-13 relative) were counted as new directions.
Normalise the columns and count singular values above a relative tolerance
(e.g. 1e-9·the largest)
in numeric_rank(Y)
"""

from __future__ import annotations

from ._base import call, check_finite, fail, fmt, fmt_list, read
from ._builtins import *  # noqa: F403  (the captured builtins shadow the live ones)
from ._frozen import freeze, np_array, permutations
from .checks import check_close

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

__all__ = ["regressor_rows", "parameters_near", "check_identification", "rank_of", "check_2r_counts", "PARAMETERS"]

#: the column order of the regressor and of the parameter vector
PARAMETERS = ("J", "ml", "fv", "fc", "foff")


def regressor_rows(answer: Any, expected: Any, name: str, atol: float, hints: Any = None) -> None:
    """ξ̄ (N, 5) against the key's rows; a missing column, the transpose and columns in another order are named."""
    rows, cols = len(expected), len(PARAMETERS)
    shape, flat = read(answer, name)
    if shape == (rows, cols - 1):
        fail(
            name,
            f"shape {shape}: one column is missing — the friction offset f_off needs a column of ones "
            "(τ = … + f_off: its regressor entry is 1)",
        )
    if shape == (cols, rows) and rows != cols:
        fail(name, f"shape {shape}: this is the transpose — one row per sample, one column per parameter")
    if shape != (rows, cols):
        fail(
            name,
            f"expected an array of shape ({rows}, {cols}) — one row per sample, columns "
            f"{', '.join(PARAMETERS)} — got shape {shape}",
        )
    check_finite(flat, name)
    got = [flat[i * cols : (i + 1) * cols] for i in range(rows)]
    orders: dict[str, Any] = {}
    for perm in permutations(range(cols)):
        if list(perm) != list(range(cols)):
            order = ", ".join(PARAMETERS[i] for i in perm)
            orders.setdefault(
                f"the columns are in the wrong order (this is {order}): the parameter vector is "
                f"({', '.join(PARAMETERS)}), so the columns must be q̈, g·sin q, q̇, sign(q̇), 1",
                [[row[i] for i in perm] for row in expected],
            )
    check_close(got, expected, name=name, atol=atol, rtol=1e-9, hints={**orders, **(hints or {})})


def parameters_near(answer: Any, expected: Any, name: str, atol: float = 0.12, hints: Any = None) -> None:
    """Five identified parameters within ``atol`` (relative: of max(|p|, 0.2·largest)) of the key's ``truth``;
    a miss that is the truth in another order, what unfiltered accelerations give (``raw``) or the fit without
    the offset (``no_offset``) is named."""
    rtol, truth, raw, no_offset = atol, expected["truth"], expected["raw"], expected["no_offset"]
    size = len(PARAMETERS)
    shape, got = read(answer, name)
    if shape == (size - 1,):
        fail(
            name,
            f"{size - 1} numbers: the friction offset f_off is missing — identify all of "
            f"{', '.join(PARAMETERS)} (a constant torque the model lacks shifts the others)",
        )
    if shape != (size,):
        fail(name, f"expected {size} numbers ({', '.join(PARAMETERS)}), got shape {shape}")
    check_finite(got, name)
    scale = [max(abs(p), 0.2 * max(abs(x) for x in truth)) for p in truth]
    if all(abs(a - b) <= rtol * s for a, b, s in zip(got, truth, scale)):
        return
    for perm in permutations(range(size)):
        if list(perm) != list(range(size)) and all(
            abs(got[k] - truth[perm[k]]) <= rtol * scale[perm[k]] for k in range(size)
        ):
            fail(
                name,
                "these are the right numbers in the wrong order: return ("
                + ", ".join(PARAMETERS)
                + f") — yours are ({', '.join(PARAMETERS[i] for i in perm)})",
            )
    if all(abs(a - b) <= 0.3 * abs(b - c) + rtol * s for a, b, c, s in zip(got, raw, truth, scale)):
        fail(
            name,
            "this is what unfiltered accelerations give: differencing encoder steps twice makes q̈ mostly "
            "noise (steps of 0.5 mrad at 200 Hz → ±80 rad/s²). Low-pass q first (a moving average over "
            "~0.1 s, applied before differencing), then take central differences",
        )
    if abs(got[4]) <= 1e-9 or all(abs(a - b) <= rtol * s for a, b, s in zip(got[:4], no_offset[:4], scale)):
        fail(
            name,
            "the friction offset f_off is missing (or fixed at 0): include the column of ones, else the "
            "constant torque leaks into the other parameters",
        )
    worst = max(range(size), key=lambda k: abs(got[k] - truth[k]) / scale[k])
    fail(
        name,
        f"{PARAMETERS[worst]} = {fmt(got[worst])}, expected ≈ {fmt(truth[worst])} (within "
        f"{rtol:.0%}); got {fmt_list(got)}, expected ≈ {fmt_list(truth)}",
    )


def check_identification(fn: Any, key: Any, name: str = "identify_pendulum", rtol: float = 0.12) -> None:
    """Assert ``fn(t, q, tau)`` identifies each of the key's recordings (:func:`parameters_near`). A recording is
    three strings of space-separated numbers: thousands of samples as one literal each, quick to run in a test cell."""
    recordings, expected = key["inputs"], key["expected"]
    del key  # not in this frame while the student's function runs
    for k, (recording, want) in enumerate(zip(recordings, expected)):
        args = [np_array([float(x) for x in text.split()], dtype=float) for text in recording]
        got = call(fn, args, name)
        parameters_near(got, want, name=f"{name}(t, q, tau) on recording {k + 1}", atol=rtol)


def number_answer(value: Any, name: str) -> Any:
    shape, flat = read(value, name)
    if len(flat) != 1:
        fail(name, f"expected one number, got shape {shape}")
    check_finite(flat, name)
    return flat[0]


def rank_of(answer: Any, expected: int, name: str, atol: float = 0.0, hints: Any = None) -> None:
    """A numerical rank (a whole number) equal to the key's; too many or too few directions are explained."""
    got = number_answer(answer, name)
    if got != int(got):
        fail(name, f"a rank is a whole number, got {fmt(got)}")
    if int(got) == expected:
        return
    if int(got) > expected:
        fail(
            name,
            f"rank {int(got)}, expected {expected}: rounding-level differences (1e-13 relative) were counted as "
            "new directions. Normalise the columns and count singular values above a relative tolerance "
            "(e.g. 1e-9·the largest)",
        )
    fail(
        name,
        f"rank {int(got)}, expected {expected}: independent columns of small scale were dropped — normalise each "
        "column to unit length before deciding what is zero",
    )


def check_2r_counts(vertical: Any, horizontal: Any, key: Any, name: str = "base parameters of the 2R arm") -> None:
    """The planar 2R arm's base-parameter counts in a vertical and a horizontal plane against the key's (armlab's
    ``base_parameters``: 6 and 4; 20 is every inertial parameter of both links)."""
    want = tuple(float(x) for x in key["expected"])
    got = (number_answer(vertical, f"{name} (vertical plane)"), number_answer(horizontal, f"{name} (horizontal plane)"))
    if got == want:
        return
    if got == want[::-1]:
        fail(name, "swapped: gravity does work only in the vertical plane, where it reveals link 1's first moments too")
    if 20.0 in got:
        fail(
            name,
            "20 is every parameter of both links, but most never reach a torque or only act in fixed "
            "combinations: count the independent columns of ξ stacked over many states",
        )
    fail(
        name,
        f"got {fmt(got[0])} (vertical) and {fmt(got[1])} (horizontal): stack ξ at many random states for "
        "each gravity and count its numerical rank",
    )


freeze(__name__)
