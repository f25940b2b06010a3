"""The immutable DH link: one row of a robot's description, the data every algorithm reads.

:class:`DHLink` is a frozen dataclass (a changed link is a new one, ``link.replace(...)``; a changed robot
``robot.replace_link(i, ...)``); an attempt to change one in place raises :class:`ImmutableError`, whose
message says how to make the change instead. Each link keeps its :attr:`DHLink.key`, everything about it
that a computation reads, so a robot's description key (:func:`armlab._core.protocol.description_key`) is
a tuple of these. It lives in ``_core``, below every package that reads links; :mod:`armlab.kinematics.links`
re-exports it with the link transforms.
"""

from __future__ import annotations

import dataclasses
import linecache
import math
import re
import sys
from dataclasses import FrozenInstanceError, dataclass, field, fields
from typing import Any, TypeAlias

import numpy as np

from .symbolic import is_symbolic
from .validation import as_float_array

__all__ = ["Scalar", "CONVENTIONS", "DHLink", "ImmutableError", "FIELDS", "check_inertia", "matrix_key"]

#: A DH parameter: a float, or a sympy expression in a symbolic model.
Scalar: TypeAlias = Any
#: The two DH conventions: standard (lab report (2.4)) and modified, Craig's (textbook (3.23)).
CONVENTIONS = ("standard", "modified")


def matrix_key(M: Any) -> tuple | None:
    """A (possibly symbolic) matrix as nested tuples of its entries: hashable, equal for equal entries."""
    if M is None:
        return None
    rows = M.tolist() if hasattr(M, "tolist") else M
    return tuple(tuple(row) for row in rows)


class ImmutableError(FrozenInstanceError, TypeError):
    """Raised on an attempt to change a robot or a link in place. It is an AttributeError (as for any
    frozen dataclass: ``link.a = 1``, ``robot.links = ...``) and a TypeError (as for a tuple:
    ``robot.links[0] = ...``); its message says how to make the changed robot instead."""


_EDIT = re.compile(
    r"^\s*(?P<robot>[A-Za-z_][\w.]*(?:\[[^\]]*\])?)\.links\[\s*(?P<i>-?\d+)\s*\]\s*\."
    r"(?P<field>\w+)\s*(?:[-+*/@%]|//|\*\*)?="
)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 and "\n" not in text else "..."


def _link_edit_hint(field_name: str, value: Any, depth: int = 2) -> str:
    """How to make the change ``link.<field_name> = value`` without editing in place. When the statement
    that tried it reads ``<robot>.links[<i>].<field> = …`` (in a file or a notebook cell), the hint names
    that robot and index."""
    arg = f"{field_name}={_short(value)}"
    try:
        frame = sys._getframe(depth)
        line = linecache.getline(frame.f_code.co_filename, frame.f_lineno, frame.f_globals)
        m = _EDIT.match(line)
    except (ValueError, AttributeError):  # no such frame, or no source
        m = None
    if m and m["field"] == field_name:
        robot = m["robot"]
        return (
            f"robots are immutable: use {robot} = {robot}.replace_link({m['i']}, {arg}) "
            f"(a new robot whose link {m['i']} has {arg})"
        )
    return (
        f"robots are immutable: use robot.replace_link(i, {arg}) for a new robot whose link i (as in "
        f"robot.links[i]) has {arg}, or link.replace({arg}) for a new link"
    )


@dataclass(frozen=True, eq=False)
class DHLink:
    """One row of a DH table, with optional limits and mass properties. Immutable: ``link.replace(a=0.5)``
    is a new link, ``robot.replace_link(i, a=0.5)`` a new robot.

    Revolute (``joint="R"``): θ = q + offset, d constant.
    Prismatic (``joint="P"``): d = q + offset, θ = ``theta`` constant.
    ``m`` is the link mass (kg), ``r`` its centre of mass and ``I`` its 3×3
    inertia about the centre of mass, both in the link's own frame (``I`` is kept as a read-only array).
    Parameters may be sympy expressions, for symbolic derivations.

    >>> link = DHLink(a=0.4318, alpha=-np.pi / 2)
    >>> link.replace(a=0.5).a, link.a
    (0.5, 0.4318)
    >>> link.a = 0.5
    Traceback (most recent call last):
    ...
    armlab._core.dhlink.ImmutableError: robots are immutable: use robot.replace_link(i, a=0.5) for a new \
robot whose link i (as in robot.links[i]) has a=0.5, or link.replace(a=0.5) for a new link
    """

    a: Scalar = 0.0
    alpha: Scalar = 0.0
    d: Scalar = 0.0
    theta: Scalar = 0.0
    offset: Scalar = 0.0
    joint: str = "R"
    qlim: tuple[float, float] | None = None
    m: Scalar = 0.0
    r: tuple[Scalar, Scalar, Scalar] = (0.0, 0.0, 0.0)
    I: Any = None  # noqa: E741
    symbolic: bool = field(init=False, repr=False, default=False)
    _key: tuple = field(init=False, repr=False, default=())
    _hash: int = field(init=False, repr=False, default=0)

    def __post_init__(self) -> None:
        def put(name: str, value: Any) -> None:
            object.__setattr__(self, name, value)

        if self.joint not in ("R", "P"):
            raise ValueError(f"joint must be 'R' (revolute) or 'P' (prismatic), got {self.joint!r}")
        params = {"a": self.a, "alpha": self.alpha, "d": self.d, "theta": self.theta, "offset": self.offset}
        put("symbolic", is_symbolic(*params.values()))
        if not self.symbolic:
            for name, v in params.items():
                if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
                    raise TypeError(f"DHLink {name} must be a real number, got {type(v).__name__}: {v!r}")
                if not math.isfinite(v):
                    raise ValueError(f"DHLink {name} must be finite, got {v!r}")
                put(name, float(v))
        if self.qlim is not None:
            lo, hi = as_float_array(self.qlim, "qlim", (2,), allow_batch=False)
            if not lo <= hi:
                raise ValueError(f"qlim must be (lower, upper) with lower <= upper, got {self.qlim!r}")
            put("qlim", (float(lo), float(hi)))
        if is_symbolic(self.r):
            r = tuple(self.r)
            if len(r) != 3:
                raise ValueError(f"r must have 3 entries, got {len(r)}")
            put("r", r)
        else:
            put("r", tuple(as_float_array(self.r, "r", (3,), allow_batch=False).tolist()))
        if not is_symbolic(self.m):
            if (
                isinstance(self.m, bool)
                or not isinstance(self.m, (int, float, np.integer, np.floating))
                or not math.isfinite(self.m)
                or self.m < 0
            ):
                raise ValueError(f"DHLink m must be a mass >= 0 (kg), got {self.m!r}")
            put("m", float(self.m))
        if self.I is not None:
            if is_symbolic(self.I):
                I = np.array(self.I.tolist() if hasattr(self.I, "tolist") else self.I, dtype=object)  # noqa: E741
                if I.shape != (3, 3):
                    raise ValueError(f"I must have shape (3, 3), got shape {I.shape}")
            else:
                I = np.array(as_float_array(self.I, "I", (3, 3), allow_batch=False))  # noqa: E741 - a copy
                check_inertia(I)
            I.setflags(write=False)  # the link is immutable, its inertia too
            put("I", I)
        dh = (self.a, self.alpha, self.d, self.theta, self.offset)  # as stored: floats, or sympy
        put("_key", (self.joint, *dh, self.qlim, self.m, self.r, matrix_key(self.I)))
        put("_hash", hash(self._key))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DHLink):
            return NotImplemented
        return self._key == other._key

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple:
        return (type(self), tuple(getattr(self, f.name) for f in fields(self) if f.init))

    def replace(self, **changes: Any) -> DHLink:
        """A new link with ``changes`` (field=value) applied, checked like any new link.

        >>> DHLink(a=1.0, m=2.0).replace(m=3.0)
        DHLink(a=1.0, alpha=0.0, d=0.0, theta=0.0, offset=0.0, joint='R', qlim=None, m=3.0, r=(0.0, 0.0, 0.0), I=None)
        """
        unknown = sorted(set(changes) - set(FIELDS))
        if unknown:
            raise TypeError(f"DHLink has no field {', '.join(map(repr, unknown))}; its fields are {', '.join(FIELDS)}")
        return dataclasses.replace(self, **changes)

    __replace__ = replace  # copy.replace (Python 3.13)

    @property
    def key(self) -> tuple:
        """Everything about this link that any computation reads, as a hashable tuple: joint type, the DH
        parameters, limits, mass, centre of mass and inertia (floats, or sympy expressions). Equal keys,
        equal links."""
        return self._key

    @property
    def revolute(self) -> bool:
        return self.joint == "R"


def _link_setattr(self: DHLink, name: str, value: Any) -> None:
    raise ImmutableError(_link_edit_hint(name, value))


def _link_delattr(self: DHLink, name: str) -> None:
    raise ImmutableError(
        f"robots are immutable: a link's {name} cannot be deleted; use link.replace({name}=...) "
        f"for a new link, robot.replace_link(i, {name}=...) for a new robot"
    )


# after @dataclass, which refuses a frozen class's own __setattr__: the helpful message instead of
# dataclasses' "cannot assign to field 'a'"
setattr(DHLink, "__setattr__", _link_setattr)
setattr(DHLink, "__delattr__", _link_delattr)

#: The fields a link is made of, in the constructor's order.
FIELDS = tuple(f.name for f in fields(DHLink) if f.init)


def check_inertia(I: np.ndarray, tol: float = 1e-9) -> None:
    """Raise ValueError unless I (3×3, about the centre of mass) is a physical inertia: symmetric,
    positive semi-definite, and its principal moments satisfy the triangle inequality
    I1 ≤ I2 + I3 (a real body's do; some published tables violate it)."""
    scale = max(float(np.abs(I).max()), 1e-300)
    if np.abs(I - I.T).max() > tol * scale:
        raise ValueError(f"I must be symmetric, got {I.tolist()}")
    moments = np.linalg.eigvalsh(I)
    if moments[0] < -tol * scale:
        raise ValueError(f"I must be positive semi-definite (principal moments >= 0), got moments {moments.tolist()}")
    if moments[2] > moments[0] + moments[1] + tol * scale:
        raise ValueError(
            f"I's principal moments {moments.round(9).tolist()} break the triangle inequality "
            "I_max <= I_1 + I_2: no real body has this inertia"
        )
