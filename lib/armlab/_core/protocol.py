"""The small robot interface that the algorithm packages are typed against, and the robot's description key.

Algorithms (``ik``, ``jacobians``, ``statics``, ``dynamics``, ``sim``, ``control``) take any object with these
members and never import :class:`armlab.robot.DHRobot` itself. Every member is read-only: a robot is an
immutable description (a changed robot is a new one, ``robot.replace(...)``), which is what lets
:func:`armlab._core.codegen.cached_kernel` compile each description once.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Protocol, TypeAlias, runtime_checkable

import numpy as np

__all__ = ["Scalar", "LinkLike", "RobotLike", "link_key", "make_description_key", "description_key"]

#: A DH parameter: a float, or a sympy expression in a symbolic model.
Scalar: TypeAlias = Any


@runtime_checkable
class LinkLike(Protocol):
    """One DH row with its mass properties (what :class:`armlab.kinematics.links.DHLink` provides)."""

    @property
    def a(self) -> Scalar: ...

    @property
    def alpha(self) -> Scalar: ...

    @property
    def d(self) -> Scalar: ...

    @property
    def theta(self) -> Scalar: ...

    @property
    def offset(self) -> Scalar: ...

    @property
    def qlim(self) -> tuple[float, float] | None: ...

    @property
    def m(self) -> Scalar: ...

    @property
    def r(self) -> tuple[Scalar, Scalar, Scalar]: ...

    @property
    # the (3, 3) inertia about the centre of mass, or None
    def I(self) -> Any: ...  # noqa: E743

    @property
    def symbolic(self) -> bool: ...

    @property
    def revolute(self) -> bool: ...

    def replace(self, **changes: Any) -> Any:
        """A new link with these fields changed (a link is never changed in place)."""


@runtime_checkable
class RobotLike(Protocol):
    """A serial DH robot: its links, convention, fixed base/tool, kinematics, and the dynamics and IK
    methods that hand off to the algorithm packages; ``replace``/``replace_link`` make changed copies.

    ``base`` and ``tool`` are (4, 4) arrays (sympy matrices in a symbolic model) or None. ``fkine``,
    ``fkine_all``, ``jacob0`` and ``jacobe`` take q (n,) or a batch (..., n), or sympy symbols.
    """

    @property
    def links(self) -> Sequence[LinkLike]: ...

    @property
    def name(self) -> str: ...

    @property
    def convention(self) -> str: ...

    @property
    def base(self) -> Any: ...

    @property
    def tool(self) -> Any: ...

    @property
    def symbolic(self) -> bool: ...

    @property
    def n(self) -> int: ...

    @property
    def modified(self) -> bool: ...

    @property
    def qlim(self) -> np.ndarray: ...

    def fkine(self, q: Any) -> Any: ...

    def fkine_all(self, q: Any) -> Any: ...

    def jacob0(self, q: Any) -> Any: ...

    def jacobe(self, q: Any) -> Any: ...

    # dynamics and inverse kinematics, as DHRobot's methods (which hand off to armlab.dynamics / armlab.ik)
    def rne(self, q: Any, qd: Any, qdd: Any, gravity: Any = ..., f_tip: Any = ...) -> Any: ...

    def inertia(self, q: Any) -> Any: ...

    def coriolis(self, q: Any, qd: Any) -> Any: ...

    def gravload(self, q: Any, gravity: Any = ...) -> Any: ...

    def ikine_all(self, T: Any, q0: Any = ..., **kw: Any) -> Any: ...

    def ikine(self, T: Any, q0: Any = ..., weights: Any = ..., **kw: Any) -> Any: ...

    def replace(
        self, *, links: Any = ..., base: Any = ..., tool: Any = ..., name: str = ..., convention: str = ...
    ) -> Any:
        """A new robot with these parts changed (a robot is never changed in place)."""

    def replace_link(self, i: int, link: Any = None, /, **changes: Any) -> Any:
        """A new robot whose link i (0-based) is ``link``, or link i with ``changes``."""


def _matrix_key(M: Any) -> tuple | None:
    """A (possibly symbolic) matrix as nested tuples of its entries: hashable, equal for equal entries."""
    if M is None:
        return None
    rows = M.tolist() if hasattr(M, "tolist") else M
    return tuple(tuple(row) for row in rows)


def link_key(link: LinkLike) -> tuple:
    """Everything about a link that any computation reads, as a hashable tuple: joint type, the DH
    parameters, limits, mass, centre of mass and inertia (floats, or sympy expressions). A link that
    keeps its own (a :class:`~armlab.kinematics.links.DHLink`, immutable) gives that one."""
    key = getattr(link, "key", None)
    if isinstance(key, tuple) and key:  # () while a DHLink is being built
        return key
    return (
        "R" if link.revolute else "P",
        link.a,
        link.alpha,
        link.d,
        link.theta,
        link.offset,
        None if link.qlim is None else tuple(link.qlim),
        link.m,
        tuple(link.r),
        _matrix_key(link.I),
    )


def make_description_key(convention: str, links: Sequence[LinkLike], base: Any, tool: Any) -> tuple:
    """The description key of a robot made of these parts (see :func:`description_key`)."""
    return (convention, tuple(link_key(link) for link in links), _matrix_key(base), _matrix_key(tool))


def description_key(robot: RobotLike) -> Hashable:
    """The hashable description of a robot: convention, every link's :func:`link_key`, base and tool.

    Two robots with equal keys have the same kinematics and dynamics (the name is not part of it). A
    :class:`~armlab.robot.DHRobot` computes its key once, when it is built (``robot.description_key``);
    for any other robot-like object it is computed here, from the object's current members.
    """
    key = getattr(robot, "description_key", None)
    if key is not None:
        return key
    convention = getattr(robot, "convention", None) or ("modified" if robot.modified else "standard")
    return make_description_key(convention, robot.links, robot.base, robot.tool)
