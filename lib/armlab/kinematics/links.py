"""Denavit–Hartenberg links and their link transforms, in both conventions.

* standard (lab report eqs. (2.1)–(2.4)):  A_i = Rz(θ_i)·Tz(d_i)·Tx(a_i)·Rx(α_i)
* modified / Craig (textbook eqs. (3.22)–(3.23)):
  ^{i-1}_iT = Rx(α_{i-1})·Tx(a_{i-1})·Rz(θ_i)·Tz(d_i)

In the modified convention a link's ``a`` and ``alpha`` are the row's a_{i-1},
α_{i-1} as printed in the textbook's tables.

:func:`link_transform_standard` and :func:`link_transform_modified` are the teaching formulas and
the library's one link transform at once: both (and :func:`link_matrix`, ``robot.link_transform``,
``fkine``, ``jacob0``) evaluate :func:`armlab.kinematics.scalar.dh_link`. The tests check it entry by
entry against the printed (2.4)/(3.23) and against the elementary products (2.1)/(3.22).
"""

from __future__ import annotations

import math
import dataclasses
import linecache
import re
import sys
from dataclasses import FrozenInstanceError, dataclass, field, fields
from typing import Any

import numpy as np

from .._core.protocol import Scalar, link_key
from .._core.symbolic import is_symbolic, sympy
from .._core.validation import as_float_array
from .scalar import IDENTITY, NumpyBackend, SympyBackend, dh_link, link_Rp, to_transform

__all__ = [
    "link_transform_standard",
    "link_transform_modified",
    "DHLink",
    "ImmutableError",
    "link_matrix",
    "check_inertia",
    "CONVENTIONS",
    "FIELDS",
]

CONVENTIONS = ("standard", "modified")


def link_transform_standard(theta: Any, d: Any, a: Any, alpha: Any) -> Any:
    """Standard DH link matrix A = Rz(θ)·Tz(d)·Tx(a)·Rx(α), lab report eq. (2.4).

    Numbers (or arrays that broadcast) give a numpy array (…, 4, 4), sympy values a sympy Matrix.
    The entries come from the library's one link transform, :func:`armlab.kinematics.scalar.dh_link`.

    >>> link_transform_standard(0.0, 0.147, 0.033, np.pi / 2).round(3) + 0.0  # + 0.0 drops the sign of -0.
    array([[ 1.   ,  0.   ,  0.   ,  0.033],
           [ 0.   ,  0.   , -1.   ,  0.   ],
           [ 0.   ,  1.   ,  0.   ,  0.147],
           [ 0.   ,  0.   ,  0.   ,  1.   ]])
    """
    return _link_transform(theta, d, a, alpha, False)


def link_transform_modified(alpha: Any, a: Any, theta: Any, d: Any) -> Any:
    """Modified (Craig) DH link matrix ^{i-1}_iT = Rx(α)·Tx(a)·Rz(θ)·Tz(d), textbook eq. (3.23).

    Arguments in the textbook's order: α_{i-1}, a_{i-1}, θ_i, d_i. Numbers give a numpy array,
    sympy values a sympy Matrix (see :func:`link_transform_standard`).

    >>> link_transform_modified(-np.pi / 2, 0.0, 0.0, 0.14909).round(3) + 0.0
    array([[ 1.   ,  0.   ,  0.   ,  0.   ],
           [ 0.   ,  0.   ,  1.   ,  0.149],
           [ 0.   , -1.   ,  0.   ,  0.   ],
           [ 0.   ,  0.   ,  0.   ,  1.   ]])
    """
    return _link_transform(theta, d, a, alpha, True)


def _link_transform(theta: Any, d: Any, a: Any, alpha: Any, modified: bool) -> Any:
    if is_symbolic(theta, d, a, alpha):
        sp = sympy()
        theta, d, a, alpha = (sp.sympify(v) for v in (theta, d, a, alpha))
        return to_transform(dh_link(IDENTITY, theta, d, a, alpha, modified, sp.cos, sp.sin), True)
    args = [as_float_array(v, n) for v, n in ((theta, "theta"), (d, "d"), (a, "a"), (alpha, "alpha"))]
    try:
        np.broadcast_shapes(*(v.shape for v in args))
    except ValueError:
        shapes = ", ".join(f"{n} {v.shape}" for n, v in zip(("theta", "d", "a", "alpha"), args))
        raise ValueError(f"theta, d, a and alpha must broadcast to one shape, got {shapes}") from None
    theta, d, a, alpha = (v if v.ndim else float(v) for v in args)
    return to_transform(dh_link(IDENTITY, theta, d, a, alpha, modified, np.cos, np.sin), False)


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
    armlab.kinematics.links.ImmutableError: robots are immutable: use robot.replace_link(i, a=0.5) for a new \
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
        put("_key", link_key(self))
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
        """Everything about this link as a hashable tuple (:func:`armlab._core.protocol.link_key`):
        equal keys, equal links."""
        return self._key

    @property
    def revolute(self) -> bool:
        return self.joint == "R"

    def theta_d(self, q: Any) -> tuple[Any, Any]:
        """(θ, d) of this link for joint value q."""
        if self.revolute:
            return q + self.offset, self.d
        return self.theta, q + self.offset


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


def link_matrix(link: DHLink, qi: Any, modified: bool) -> Any:
    """The link transform of ``link`` at joint value ``qi``: (3.23) if ``modified`` else (2.4).

    A sympy ``qi`` (or a symbolic link) gives a sympy Matrix with exact constants
    (−π/2 stays exact, so no 6e-17 terms appear); numbers give a numpy array (…, 4, 4).
    """
    if link.symbolic or is_symbolic(qi):
        return to_transform(link_Rp(link, sympy().sympify(qi), modified, SympyBackend), True)
    return to_transform(link_Rp(link, as_float_array(qi, "qi"), modified, NumpyBackend), False)
