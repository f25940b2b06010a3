"""The DH chain as scalar recursions: link rotations and origins as nested lists of scalars.

This module holds the library's one definition of the DH link transform (:func:`dh_link`), the one
forward recursion (:func:`forward`) and the one geometric Jacobian (:func:`geometric_columns`).
Everything else is built from them: ``robot.fkine``/``fkine_all``/``jacob0`` numeric (traced into
straight-line code by :mod:`armlab.kinematics.chain`) and symbolic, ``link_transform_standard`` /
``link_transform_modified``, and the Jacobian, statics and Newton–Euler recursions, which walk the
chain link by link with :func:`chain`.

A *backend* supplies cos/sin and the link constants: :class:`SympyBackend` gives exact symbolic
results, :class:`NumpyBackend` numbers (floats or batches), and :class:`TracerBackend` (over an
:class:`armlab._core.codegen.Tracer`) records straight-line code that is compiled once per robot.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol, Sequence

import numpy as np

from .._core import smallmat as sm
from .._core.codegen import Tracer, snap
from .._core.dhlink import DHLink
from .._core.protocol import RobotLike
from .._core.symbolic import exact_angle, exact_number, sym_matrix, sympy
from .frames import axis_frames

#: A rigid transform as (R, p): R three rows of three scalars, p three scalars.
Frame = tuple[list[list[Any]], list[Any]]

# ints, not floats: exact in sympy, and floats or numpy promote them as usual
IDENTITY: Frame = ([[1, 0, 0], [0, 1, 0], [0, 0, 1]], [0, 0, 0])


class Backend(Protocol):
    """What the recursions need of a scalar type: cos, sin, link constants and fixed transforms."""

    def cos(self, x: Any) -> Any: ...

    def sin(self, x: Any) -> Any: ...

    def angle(self, x: Any) -> Any: ...

    def length(self, x: Any) -> Any: ...

    def fixed(self, T: Any) -> Frame: ...


class NumpyBackend:
    """Numbers: cos/sin of numpy (works on floats and on batches)."""

    cos, sin = staticmethod(np.cos), staticmethod(np.sin)

    @staticmethod
    def angle(x: Any) -> float:
        return float(x)

    length = angle

    @staticmethod
    def fixed(T: Any) -> Frame:
        T = np.asarray(T, dtype=float)
        return [[float(T[i][j]) for j in range(3)] for i in range(3)], [float(T[i][3]) for i in range(3)]


class SympyBackend:
    """Exact symbols: −π/2 stays exact, integers stay integers."""

    @staticmethod
    def cos(x: Any) -> Any:
        return sympy().cos(x)

    @staticmethod
    def sin(x: Any) -> Any:
        return sympy().sin(x)

    angle = staticmethod(exact_angle)
    length = staticmethod(exact_number)

    @staticmethod
    def fixed(T: Any) -> Frame:
        M = sym_matrix(T)
        return [[M[i, j] for j in range(3)] for i in range(3)], [M[i, 3] for i in range(3)]


class TracerBackend:
    """Adapts a Tracer: constants stay floats (0, ±1 snapped exact) and fold away."""

    def __init__(self, tracer: Tracer):
        self.cos, self.sin = tracer.cos, tracer.sin

    angle = length = staticmethod(float)

    @staticmethod
    def fixed(T: Any) -> Frame:
        R, p = NumpyBackend.fixed(T)
        return [[snap(x) for x in row] for row in R], [snap(x) for x in p]


# --- the DH link transform: the one definition ---------------------------------------------------


def _screw(frame: Frame, axis: int, c: Any, s: Any, t: Any) -> Frame:
    """frame · Rot(axis, φ) · Trans(t along axis), with (c, s) = (cos φ, sin φ); axis 0 (x) or 2 (z).

    Written as column operations: the rotation turns two columns of R (x: y toward z, z: x toward
    y) and the translation adds t times the axis column, which that rotation leaves alone.
    """
    R, p = frame
    i, j = (1, 2) if axis == 0 else (0, 1)
    p = [p[r] + t * R[r][axis] for r in range(3)]
    rows = []
    for row in R:
        x, y = row[i], row[j]
        row = list(row)
        row[i], row[j] = c * x + s * y, c * y - s * x
        rows.append(row)
    return rows, p


def dh_link(
    frame: Frame,
    theta: Any,
    d: Any,
    a: Any,
    alpha: Any,
    modified: bool,
    cos: Callable[[Any], Any],
    sin: Callable[[Any], Any],
) -> Frame:
    """frame · (the link transform of one DH row): the library's one DH link transform.

    * standard, lab report (2.1)–(2.4):      A_i = Rz(θ)·Tz(d) · Tx(a)·Rx(α)
    * modified, textbook (3.22)–(3.23): ^{i-1}_iT = Rx(α)·Tx(a) · Rz(θ)·Tz(d)

    Each half is one screw about one axis (a rotation and a translation along the same axis
    commute). From :data:`IDENTITY` it gives the matrices (2.4) and (3.23) entry by entry, e.g.
    standard R = [[cθ, −sθ·cα, sθ·sα], [sθ, cθ·cα, −cθ·sα], [0, sα, cα]], p = (a·cθ, a·sθ, d).
    """
    if modified:
        return _screw(_screw(frame, 0, cos(alpha), sin(alpha), a), 2, cos(theta), sin(theta), d)
    return _screw(_screw(frame, 2, cos(theta), sin(theta), d), 0, cos(alpha), sin(alpha), a)


def link_values(link: DHLink, qi: Any, B: Backend) -> tuple[Any, Any, Any, Any]:
    """(θ, d, a, α) of ``link`` at joint value qi: θ = qi + offset (revolute) or d = qi + offset (prismatic)."""
    if link.revolute:
        th, d = qi + B.angle(link.offset), B.length(link.d)
    else:
        th, d = B.angle(link.theta), qi + B.length(link.offset)
    return th, d, B.length(link.a), B.angle(link.alpha)


def link_Rp(link: DHLink, qi: Any, modified: bool, B: Backend) -> Frame:
    """(R, p) of one link transform at joint value qi: textbook (3.23) if ``modified``, else (2.4)."""
    return dh_link(IDENTITY, *link_values(link, qi, B), modified, B.cos, B.sin)


def compose(A: Frame, B: Frame) -> Frame:
    """(R, p) of A·B."""
    (Ra, pa), (Rb, pb) = A, B
    return sm.mm(Ra, Rb), sm.add(sm.mv(Ra, pb), pa)


def chain(robot: RobotLike, q: Sequence[Any], B: Backend) -> tuple[Frame, list[Frame], Frame]:
    """Base, every link transform and the tool of ``robot`` at ``q``, as (R, p) pairs:
    (base, [link 1 … link n], tool); base and tool are IDENTITY when the robot has none."""
    base = IDENTITY if robot.base is None else B.fixed(robot.base)
    tool = IDENTITY if robot.tool is None else B.fixed(robot.tool)
    return base, [link_Rp(link, qi, robot.modified, B) for link, qi in zip(robot.links, q)], tool


# --- forward kinematics and the geometric Jacobian: the one recursion ---------------------------


def forward(
    links: Sequence[DHLink], modified: bool, q: Sequence[Any], B: Backend, base: Any = None, tool: Any = None
) -> tuple[list[Frame], Frame]:
    """The world (R, p) of the base and every link frame (n + 1 frames), and of the tool.

    ``base`` and ``tool`` are 4×4 transforms or None. Each frame is the previous one times the
    link transform (:func:`dh_link`), written out on the scalars of the backend ``B``.
    """
    frames = [IDENTITY if base is None else B.fixed(base)]
    for link, qi in zip(links, q):
        frames.append(dh_link(frames[-1], *link_values(link, qi, B), modified, B.cos, B.sin))
    end = frames[-1] if tool is None else compose(frames[-1], B.fixed(tool))
    return frames, end


def geometric_columns(links: Sequence[DHLink], axes: Sequence[Frame], point: list[Any]) -> list[list[Any]]:
    """The columns (v; ω) of the geometric Jacobian of ``point`` (world coordinates), one per joint:
    [z_i × (point − o_i); z_i] for a revolute joint, [z_i; 0] for a prismatic one, where z_i and o_i
    are the axis and origin of joint i's frame (``axes``, :func:`~armlab.kinematics.frames.axis_frames`). Lab report
    (2.37)–(2.45); with the tool point it is ``robot.jacob0``."""
    cols = []
    for link, (R, o) in zip(links, axes):
        z = [R[0][2], R[1][2], R[2][2]]
        cols.append(sm.cross(z, sm.sub(point, o)) + z if link.revolute else z + [0, 0, 0])
    return cols


def backend_for(symbolic: bool) -> Any:
    """The backend for exact symbols (:class:`SympyBackend`) or numbers (:class:`NumpyBackend`)."""
    return SympyBackend if symbolic else NumpyBackend


def to_matrix(rows: Sequence[Sequence[Any]], symbolic: bool) -> Any:
    """A nested list of scalars as a sympy Matrix or a numpy array (batch axes last → first)."""
    if symbolic:
        return sympy().Matrix(rows)
    arr = np.array(np.broadcast_arrays(*[np.asarray(x, float) for r in rows for x in r]))
    shape = (len(rows), len(rows[0]))
    return np.moveaxis(arr.reshape(shape + arr.shape[1:]), (0, 1), (-2, -1)) if arr.ndim > 1 else arr.reshape(shape)


def to_transform(frame: Frame, symbolic: bool) -> Any:
    """(R, p) as a 4×4 homogeneous transform: a sympy Matrix, or a numpy array (…, 4, 4)."""
    R, p = frame
    return to_matrix([R[0] + [p[0]], R[1] + [p[1]], R[2] + [p[2]], [0, 0, 0, 1]], symbolic)


__all__ = [
    "Frame",
    "Backend",
    "IDENTITY",
    "dh_link",
    "link_values",
    "link_Rp",
    "compose",
    "chain",
    "forward",
    "axis_frames",
    "geometric_columns",
    "NumpyBackend",
    "SympyBackend",
    "TracerBackend",
    "backend_for",
    "to_matrix",
    "to_transform",
]
