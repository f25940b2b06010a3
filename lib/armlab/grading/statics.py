"""Comparisons for the statics homework (hw05) that are not plain closeness: the pair (f_i, n_i) of a
recursion step, and a force direction that is right up to its sign. The expected answers and the usual
mistakes are computed by ``armlab`` in the answer key cells of ``solutions/hw05_statics``.

>>> free_direction_of([0.0, -1.0], {"along": [0.0, 1.0], "J": [[-1.0, -0.5], [0.0, 0.0]]}, name="u", atol=1e-7)
>>> free_direction_of([1.0, 0.0], {"along": [0.0, 1.0], "J": [[-1.0, -0.5], [0.0, 0.0]]}, name="u", atol=1e-7)
Traceback (most recent call last):
    ...
AssertionError: u: this direction is ACROSS the stretched-out arm:
a force across it needs the largest torques. The free direction is the one
Jᵀ maps to zero (its null space)
"""

from __future__ import annotations

from ._base import fail, fmt, fmt_list, read, vector
from ._builtins import *  # noqa: F403  (the captured builtins shadow the live ones)
from ._frozen import freeze, sqrt
from .checks import check_close

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

__all__ = ["f_and_n", "free_direction_of"]


def f_and_n(answer: Any, expected: Any, name: str, atol: float, hints: Any = None) -> None:
    """A recursion step's ``(f_i, n_i)``: two 3-vectors (or the six numbers of both) against the key's."""
    shape, flat = read(answer, name)
    if shape not in ((2, 3), (6,)):
        fail(name, f"expected the two 3-vectors (f_i, n_i), got shape {shape} (return f, n)")
    check_close([flat[:3], flat[3:]], expected, name=name, atol=atol, hints=hints)


def free_direction_of(answer: Any, expected: Any, name: str, atol: float, hints: Any = None) -> None:
    """A unit force ``u`` (2,) that costs no joint torque at a singular pose, either sign: Jᵀu = 0 for the
    key's ``J`` (2×2); a miss across the key's direction ``along`` the arm is named."""
    u = vector(answer, 2, name)
    J, along = expected["J"], expected["along"]
    tau = [J[0][k] * u[0] + J[1][k] * u[1] for k in range(2)]
    norm = sqrt(u[0] * u[0] + u[1] * u[1])
    if norm < 1e-12:
        fail(name, "is the zero vector; a direction must have length 1")
    if abs(tau[0]) <= atol * norm * 10 and abs(tau[1]) <= atol * norm * 10:
        if abs(norm - 1.0) > 1e-6:
            fail(name, f"right direction, but not a unit vector (length {fmt(norm)}): divide by its norm")
        return
    if abs(u[0] * along[0] + u[1] * along[1]) < 1e-6 * norm:
        fail(
            name,
            "this direction is ACROSS the stretched-out arm: a force across it needs the largest "
            "torques. The free direction is the one Jᵀ maps to zero (its null space)",
        )
    fail(
        name,
        f"Jᵀu = {fmt_list(tau)} ≠ 0: this force needs joint torque. Look for u with Jᵀu = 0 (the null space of Jᵀ)",
    )


freeze(__name__)
