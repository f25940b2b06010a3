"""The small robot interface that the algorithm packages are typed against.

Algorithms (``ik``, ``jacobians``, ``statics``, ``dynamics``, ``sim``) take any object with these
members and never import :class:`armlab.robot.DHRobot` itself.
"""
from __future__ import annotations

from typing import Any, Protocol, Sequence, runtime_checkable

import numpy as np


@runtime_checkable
class LinkLike(Protocol):
    a: Any
    alpha: Any
    d: Any
    theta: Any
    offset: Any
    qlim: tuple | None
    m: Any
    r: tuple
    I: Any  # noqa: E741

    @property
    def revolute(self) -> bool: ...


@runtime_checkable
class RobotLike(Protocol):
    """A serial DH robot: its links, convention, fixed base/tool, and compiled kinematics."""

    links: Sequence[LinkLike]
    name: str
    base: Any  # (4, 4) or None
    tool: Any  # (4, 4) or None
    symbolic: bool

    @property
    def n(self) -> int: ...

    @property
    def modified(self) -> bool: ...

    @property
    def qlim(self) -> np.ndarray: ...

    def fkine(self, q): ...

    def fkine_all(self, q): ...

    def jacob0(self, q): ...
