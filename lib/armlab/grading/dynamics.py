"""Comparisons for the dynamics homework (hw06) that are not plain closeness: one number (the kinetic energy; hw08's torque),
the three vectors (ω, ω̇, v̇) of an outward Newton–Euler step, True/False answers. The expected answers and the
usual mistakes (a missing factor ½, the Coriolis term counted once, the gravity sign, ...) are computed by
``armlab.dynamics`` in the answer key cells of ``solutions/hw06_dynamics``.

>>> one_number([1.5], 1.5, name="K", atol=1e-9)
>>> true_or_false("yes", True, name="is_spd(M)", atol=0.0)
Traceback (most recent call last):
    ...
AssertionError: is_spd: expected True or False, got str 'yes'
in is_spd(M)
"""

from __future__ import annotations

from ._base import check_finite, fail, read
from ._builtins import *  # noqa: F403  (the captured builtins shadow the live ones)
from ._frozen import freeze, np_generic
from .checks import check_close

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

__all__ = ["one_number", "w_wd_vd", "true_or_false"]


def one_number(answer: Any, expected: Any, name: str, atol: float, hints: Any = None) -> None:
    """One number (a 1-element array is fine: the energy, a torque), within atol + 1e-9 relative of the key's."""
    shape, flat = read(answer, name)
    if shape != () and len(flat) != 1:
        fail(name, f"expected one number, got shape {shape}")
    check_finite(flat, name)
    check_close(flat[0], expected, name=name, atol=atol, rtol=1e-9, hints=hints)


def w_wd_vd(answer: Any, expected: Any, name: str, atol: float, hints: Any = None) -> None:
    """An outward step's (ω, ω̇, v̇): three 3-vectors (or their nine numbers), within atol + 1e-9 relative."""
    shape, flat = read(answer, name)
    if shape not in ((3, 3), (9,)):
        fail(name, f"expected the three 3-vectors (w, wd, vd), got shape {shape} (return w, wd, vd)")
    check_close([flat[0:3], flat[3:6], flat[6:9]], expected, name=name, atol=atol, rtol=1e-9, hints=hints)


def true_or_false(answer: Any, expected: bool, name: str, atol: float = 0.0, hints: Any = None) -> None:
    """A bool (Python or numpy) equal to the key's; a wrong one gets the key's message for that input."""
    if not isinstance(answer, (bool, np_generic)) or isinstance(answer, np_generic) and answer.dtype.kind != "b":
        text = f"{answer!r}"
        fail(
            name, f"expected True or False, got {type(answer).__name__} {text if len(text) < 60 else text[:57] + '...'}"
        )
    if bool(answer) != expected:
        for message in hints or ():  # the one known mistake of a True/False answer: the other value
            fail(name, message)
        fail(name, f"returned {bool(answer)}, expected {expected}")


freeze(__name__)
