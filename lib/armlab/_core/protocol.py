"""The small robot interface that the algorithm packages are typed against, and the robot's description key.

Algorithms (``ik``, ``jacobians``, ``statics``, ``dynamics``, ``sim``, ``control``) take any object with these
members and never import :class:`armlab.robot.DHRobot` itself. Every member is read-only: a robot is an
immutable description (a changed robot is a new one, ``robot.replace(...)``), which is what lets
:func:`armlab._core.codegen.cached_kernel` compile each description once.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .dhlink import DHLink, matrix_key

__all__ = ["RobotLike", "make_description_key", "description_key"]


@runtime_checkable
class RobotLike(Protocol):
    """A serial DH robot as the algorithms read it: its links, fixed base and tool, kinematics, and
    ``replace`` to make a changed copy. Nothing more: a member is here because an algorithm reads it.

    ``base`` and ``tool`` are (4, 4) arrays (sympy matrices in a symbolic model) or None; ``qlim`` is
    (n, 2). ``fkine``, ``fkine_all``, ``jacob0`` and ``jacobe`` take q (n,) or a batch (..., n), or sympy
    symbols. The members are read-only properties because a robot is immutable (a Protocol's plain
    attribute would promise that it can be set).
    """

    @property
    def links(self) -> Sequence[DHLink]: ...

    @property
    def name(self) -> str: ...

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

    def replace(self, *, links: Any = ..., base: Any = ..., tool: Any = ..., name: str = ...) -> Any:
        """A new robot with these parts changed (a robot is never changed in place)."""


def make_description_key(convention: str, links: Sequence[DHLink], base: Any, tool: Any) -> tuple:
    """The description key of a robot made of these parts (see :func:`description_key`)."""
    return (convention, tuple(link.key for link in links), matrix_key(base), matrix_key(tool))


def description_key(robot: RobotLike) -> Hashable:
    """The hashable description of a robot: convention, every link's :attr:`~armlab._core.dhlink.DHLink.key`, base and tool.

    Two robots with equal keys have the same kinematics and dynamics (the name is not part of it). A
    :class:`~armlab.robot.DHRobot` computes its key once, when it is built (``robot.description_key``);
    for any other robot-like object it is computed here, from the object's current members.
    """
    key = getattr(robot, "description_key", None)
    if key is not None:
        return key
    convention = getattr(robot, "convention", None) or ("modified" if robot.modified else "standard")
    return make_description_key(convention, robot.links, robot.base, robot.tool)
