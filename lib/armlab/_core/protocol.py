"""The robot the algorithm packages are typed against: :class:`RobotLike`, an immutable DH description.

Algorithms (``ik``, ``jacobians``, ``statics``, ``dynamics``, ``sim``, ``control``) take a RobotLike and never
import :class:`armlab.robot.DHRobot`, which is one. A RobotLike is concrete, not a protocol that restates a
robot's members: its links (a tuple of frozen :class:`~armlab._core.dhlink.DHLink`), convention, base, tool
and name, checked when it is made, and what follows from them (``n``, ``modified``, ``symbolic``, ``qlim``),
written once, here. It never changes: a changed robot is a new one (:meth:`RobotLike.replace`,
:meth:`RobotLike.replace_link`), which is what lets :func:`armlab._core.codegen.cached_kernel` compile each
description once (:attr:`RobotLike.description_key`).

Its forward kinematics (``fkine``, ``fkine_all``, ``jacob0``) are compiled from the table by
:mod:`armlab.kinematics`, a layer above: :class:`~armlab.robot.DHRobot` implements them, and ``jacobe``
follows from them here.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, Self

import numpy as np

from .dhlink import CONVENTIONS, DHLink, ImmutableError, matrix_key
from .symbolic import is_symbolic, sympy
from .validation import as_float_array, check_rigid, joint_vector

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["RobotLike", "Links", "make_description_key", "description_key"]

_UNCHANGED: Any = object()  # replace()'s "keep this one" (None is a value: no base, no tool)
#: The list methods a student may try on ``robot.links`` (a tuple).
_LIST_METHODS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse"})


class Links(tuple):
    """A robot's links: a tuple (it cannot change), whose list-style edits explain what to do instead."""

    __slots__ = ()

    def __setitem__(self, i: Any, value: Any) -> NoReturn:
        raise ImmutableError(
            f"robots are immutable: robot.links is a tuple; use robot.replace_link({i!r}, a=...) "
            f"for a new robot with link {i!r} changed, or robot.replace(links=...) for a new "
            "table"
        )

    def __delitem__(self, i: Any) -> NoReturn:
        raise ImmutableError(
            "robots are immutable: robot.links is a tuple; use robot.replace(links=...) with the "
            "links you want for a new robot"
        )

    def __getattr__(self, name: str) -> Any:
        if name in _LIST_METHODS:
            raise ImmutableError(
                f"robots are immutable: robot.links is a tuple and has no {name}(); use "
                f"robot.replace(links=robot.links + (DHLink(...),)) or robot.replace(links=[...]) "
                "for a new robot"
            )
        raise AttributeError(f"'tuple' object has no attribute {name!r}")

    def __reduce__(self) -> tuple:
        return (tuple, (tuple(self),))


class RobotLike:
    """A serial robot given by DH links: the immutable description every algorithm reads.

    ``base`` and ``tool`` are (4, 4) read-only arrays (sympy matrices in a symbolic model) or None.
    ``fkine``, ``fkine_all``, ``jacob0`` and ``jacobe`` take q (n,) or a batch (..., n), or sympy symbols.
    """

    links: tuple[DHLink, ...]
    convention: str
    name: str
    base: Any  # (4, 4) read-only array, sympy ImmutableMatrix, or None
    tool: Any
    symbolic: bool
    description_key: Hashable
    _hash: int

    def __init__(
        self,
        links: Iterable[DHLink],
        convention: str = "standard",
        base: ArrayLike | None = None,
        tool: ArrayLike | None = None,
        name: str = "",
    ) -> None:
        if convention not in CONVENTIONS:
            raise ValueError(f"convention must be 'standard' or 'modified', got {convention!r}")
        links = Links(links)
        if not links or not all(isinstance(link, DHLink) for link in links):
            raise TypeError("links must be a non-empty sequence of DHLink")
        if not isinstance(name, str):
            raise TypeError(f"name must be a string, got {type(name).__name__}: {name!r}")
        base = None if base is None else self._fixed(base, "base")
        tool = None if tool is None else self._fixed(tool, "tool")
        symbolic = any(link.symbolic for link in links) or is_symbolic(base, tool)
        key = make_description_key(convention, links, base, tool)
        put = object.__setattr__
        for attr, value in (
            ("links", links),
            ("convention", convention),
            ("name", name),
            ("base", base),
            ("tool", tool),
            ("symbolic", symbolic),
            ("description_key", key),
            ("_hash", hash((key, name))),
        ):
            put(self, attr, value)
        self._prepare()

    def _prepare(self) -> None:
        """What a subclass builds from the description once, when the robot is made (DHRobot: its
        compiled kinematics). Nothing here."""

    @staticmethod
    def _fixed(T: Any, name: str) -> Any:
        if is_symbolic(T):
            return sympy().ImmutableMatrix(T)
        T = np.array(as_float_array(T, name, (4, 4), allow_batch=False))  # a copy: the caller's stays writable
        check_rigid(T, name)
        T.setflags(write=False)
        return T

    # --- immutability --------------------------------------------------------------
    def __setattr__(self, name: str, value: Any) -> NoReturn:
        if name in ("links", "base", "tool", "name", "convention"):
            what = "other links" if name == "links" else f"another {name}"
            raise ImmutableError(
                f"robots are immutable: use robot = robot.replace({name}=...) for a new robot with {what}"
            )
        raise ImmutableError(
            f"robots are immutable: {name!r} cannot be set on a {type(self).__name__}; make a new robot with "
            "robot.replace(links=..., base=..., tool=..., name=...) or robot.replace_link(i, ...)"
        )

    def __delattr__(self, name: str) -> NoReturn:
        raise ImmutableError(
            f"robots are immutable: {name!r} cannot be deleted from a {type(self).__name__}; make a new robot with robot.replace(...)"
        )

    def __eq__(self, other: object) -> bool:
        """Robots are equal when they are the same description (:attr:`description_key`) with the same name."""
        if not isinstance(other, RobotLike):
            return NotImplemented
        return self is other or (
            self._hash == other._hash and self.description_key == other.description_key and self.name == other.name
        )

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple:
        return (type(self)._rebuild, (tuple(self.links), self.convention, self.base, self.tool, self.name))

    @classmethod
    def _rebuild(cls, links: Iterable[DHLink], convention: str, base: Any, tool: Any, name: str) -> Self:
        return cls(links, convention, base=base, tool=tool, name=name)

    def replace(
        self,
        *,
        links: Iterable[DHLink] = _UNCHANGED,
        base: ArrayLike | None = _UNCHANGED,
        tool: ArrayLike | None = _UNCHANGED,
        name: str = _UNCHANGED,
        convention: str = _UNCHANGED,
    ) -> Self:
        """A new robot with the given parts changed and the others kept (``base=None`` removes the base).

        >>> from armlab.models import planar2r
        >>> r = planar2r()
        >>> r.replace(links=[link.replace(a=0.5) for link in r.links]).fkine([0, 0])[:3, 3].tolist()
        [1.0, 0.0, 0.0]
        >>> r.replace(name="short arm").name
        'short arm'
        """
        return type(self)._rebuild(
            self.links if links is _UNCHANGED else links,
            self.convention if convention is _UNCHANGED else convention,
            self.base if base is _UNCHANGED else base,
            self.tool if tool is _UNCHANGED else tool,
            self.name if name is _UNCHANGED else name,
        )

    def replace_link(self, i: int, link: DHLink | None = None, /, **changes: Any) -> Self:
        """A new robot whose link ``i`` (0-based, as in ``robot.links[i]``; −1 is the last) is ``link``, or
        this robot's link i with ``changes`` applied (:meth:`DHLink.replace`).

        >>> from armlab.models import planar2r
        >>> r = planar2r()
        >>> r2 = r.replace_link(0, a=5.0)
        >>> r2.fkine([0, 0])[:3, 3].tolist(), r.fkine([0, 0])[:3, 3].tolist()
        ([6.0, 0.0, 0.0], [2.0, 0.0, 0.0])
        """
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
            raise TypeError(f"i must be a link index (0-based, as in robot.links[i]), got {type(i).__name__}: {i!r}")
        if not -self.n <= i < self.n:
            raise IndexError(f"i must be a link index from 0 to {self.n - 1} (or -{self.n} to -1), got {i}")
        if link is None:
            new = self.links[i].replace(**changes)
        elif changes:
            raise TypeError("replace_link takes a new DHLink or field changes, not both")
        elif not isinstance(link, DHLink):
            raise TypeError(f"link must be a DHLink, got {type(link).__name__}")
        else:
            new = link
        links = list(self.links)
        links[i] = new
        return self.replace(links=links)

    # --- description -------------------------------------------------------------
    @property
    def n(self) -> int:
        """The number of joints."""
        return len(self.links)

    @property
    def modified(self) -> bool:
        """True in the modified (Craig) convention, False in the standard one."""
        return self.convention == "modified"

    @property
    def qlim(self) -> np.ndarray:
        """(n, 2) joint limits in radians / metres; ±inf where a joint has none."""
        return np.array([link.qlim if link.qlim is not None else (-np.inf, np.inf) for link in self.links])

    @property
    def joint_types(self) -> str:
        """ "R" or "P" per joint, e.g. "RRPRRR"."""
        return "".join(link.joint for link in self.links)

    def within_limits(self, q: ArrayLike, tol: float = 1e-9) -> Any:
        """True where every joint of q (…, n) is inside its limits."""
        q = self._check_q(q)
        lim = self.qlim
        return np.all((q >= lim[:, 0] - tol) & (q <= lim[:, 1] + tol), axis=-1)

    def __repr__(self) -> str:
        cols = "alpha_{i-1} a_{i-1} theta_i d_i" if self.modified else "theta_i d_i a_i alpha_i"
        rows = []
        for link in self.links:
            th = "q" if link.revolute else link.theta
            d = link.d if link.revolute else "q"
            vals = (link.alpha, link.a, th, d) if self.modified else (th, d, link.a, link.alpha)
            rows.append("  " + "  ".join(f"{v:.5g}" if isinstance(v, float) else str(v) for v in vals))
        head = f"{type(self).__name__}({self.name!r}, {self.n} joints {self.joint_types}, {self.convention} DH: {cols})"
        return "\n".join([head] + rows)

    def _check_q(self, q: ArrayLike) -> np.ndarray:
        return joint_vector(q, self.n, "q", symbolic=False)

    # --- kinematics: compiled from the table by armlab.kinematics (DHRobot) -------------
    def fkine(self, q: Any) -> Any:
        """End-effector pose T = base · A₁···Aₙ · tool.

        q (n,) → (4, 4); q (N, n) → (N, 4, 4); sympy symbols → sympy Matrix.
        """
        raise NotImplementedError

    def fkine_all(self, q: Any) -> Any:
        """Base frame and every link frame: (..., n+1, 4, 4), base first.

        Frame i is link i's DH frame (without the tool transform).
        """
        raise NotImplementedError

    def jacob0(self, q: Any) -> Any:
        """Geometric Jacobian (6×n) in the base (world) frame, rows (vx, vy, vz, ωx, ωy, ωz).

        Column i is [zᵢ × (p_e − pᵢ); zᵢ] for a revolute joint and [zᵢ; 0] for a
        prismatic one, where zᵢ, pᵢ are the axis and origin of joint i (frame i
        in the modified convention, frame i−1 in the standard one).
        q (N, n) gives (N, 6, n).
        """
        raise NotImplementedError

    def jacobe(self, q: Any) -> Any:
        """Geometric Jacobian (6×n) in the end-effector frame: diag(Rᵀ, Rᵀ)·J₀."""
        J0 = self.jacob0(q)
        T = self.fkine(q)
        if self.symbolic or is_symbolic(q):
            sp = sympy()
            Rt = T[:3, :3].T
            return sp.Matrix.vstack(Rt * J0[:3, :], Rt * J0[3:, :])
        Rt = np.swapaxes(T[..., :3, :3], -1, -2)
        return np.concatenate([Rt @ J0[..., :3, :], Rt @ J0[..., 3:, :]], axis=-2)


def make_description_key(convention: str, links: Sequence[DHLink], base: Any, tool: Any) -> tuple:
    """The description key of a robot made of these parts (see :func:`description_key`)."""
    return (convention, tuple(link.key for link in links), matrix_key(base), matrix_key(tool))


def description_key(robot: Any) -> Hashable:
    """The hashable description of a robot: convention, every link's :attr:`~armlab._core.dhlink.DHLink.key`,
    base and tool.

    Two robots with equal keys have the same kinematics and dynamics (the name is not part of it). A
    :class:`RobotLike` computes its key once, when it is made (``robot.description_key``); for any other
    robot-like object (a test's stand-in) it is computed here, from the object's current members.
    """
    key = getattr(robot, "description_key", None)
    if key is not None:
        return key
    convention = getattr(robot, "convention", None) or ("modified" if robot.modified else "standard")
    return make_description_key(convention, robot.links, robot.base, robot.tool)
