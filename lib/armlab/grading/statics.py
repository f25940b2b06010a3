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
from ._frozen import cos, freeze, pi, sin, sqrt
from ._plain import matmul, rot
from .checks import check_close

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any
    from random import Random

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


# --- still used by jacobians.py (hw04) until it is an answer key too ------------------------------------
def random_rotation(rng: Random) -> Any:
    """A rotation R(z, a)·R(y, b)·R(x, c) with random angles (flat 3×3)."""
    return matmul(
        matmul(rot("z", rng.uniform(-pi, pi), 3), rot("y", rng.uniform(-pi, pi), 3), 3),
        rot("x", rng.uniform(-pi, pi), 3),
        3,
    )


def jacobian_planar(q: Any, lengths: Any) -> Any:
    """Rows (x, y) of the tip velocity Jacobian of a planar arm with revolute joints (flat 2×n)."""
    n = len(q)
    angles, total = [], 0.0
    for qi in q:
        total += qi
        angles.append(total)
    row_x = [-sum(lengths[j] * sin(angles[j]) for j in range(k, n)) for k in range(n)]
    row_y = [sum(lengths[j] * cos(angles[j]) for j in range(k, n)) for k in range(n)]
    return row_x + row_y


freeze(__name__)
