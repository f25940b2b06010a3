"""The manipulator Jacobian three independent ways, plus the per-link Jacobians.

* :func:`jacob_differential` — differential transforms (Paul), textbook (3.88)–(3.93): column i
  from the n, o, a, p of the transform from joint i's frame to the tool, built backwards.
* :func:`jacob_velocity` — outward velocity propagation (Craig, notes 004):
  ^{i+1}ω_{i+1} = ^{i+1}_iR·^iω_i + θ̇_{i+1}·ẑ,  ^{i+1}v_{i+1} = ^{i+1}_iR·(^iv_i + ^iω_i × ^iP_{i+1}),
  for a prismatic joint ḋ_{i+1}·ẑ is added to v instead; :func:`velocity_propagation` shows each step.
* :func:`jacob_geometric` — z_{i} × (p_n − p_{i}) from the forward frames (lab report (2.37)–(2.45)).
  This one is the library's own algorithm (:func:`armlab.kinematics.scalar.geometric_columns`, which
  ``robot.jacob0`` compiles), offered here in either frame.

The differential and velocity methods are separate derivations on purpose: the tests check them
against ``robot.jacob0`` / ``robot.jacobe``, and the library never computes a Jacobian with them.

Each is one scalar recursion over the chain (:mod:`armlab.kinematics.scalar`). On sympy input it
runs on symbols; on numbers it is traced once per robot into straight-line code that runs on one
configuration (floats) or a batch (…, n). Rows are (vx, vy, vz, ωx, ωy, ωz) throughout.

>>> import armlab
>>> from armlab import jacobians
>>> robot = armlab.models.puma560()
>>> q = np.radians([20, -30, 40, 10, 30, 50])
>>> all(np.allclose(J, robot.jacob0(q), atol=1e-12) for J in
...     (jacobians.jacob_velocity(robot, q), jacobians.jacob_geometric(robot, q)))
True
>>> np.allclose(jacobians.jacob_differential(robot, q), robot.jacobe(q), atol=1e-12)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._core import smallmat as sm
from .._core.codegen import Tracer, cached_kernel, run_kernel
from .._core.protocol import RobotLike
from .._core.symbolic import is_symbolic, sympy
from .._core.validation import as_float_array, joint_vector
from ..kinematics.frames import axis_frames
from ..kinematics.scalar import TracerBackend, backend_for, chain, compose, forward, geometric_columns, to_matrix

__all__ = [
    "jacob_differential",
    "jacob_velocity",
    "jacob_geometric",
    "link_jacobians",
    "velocity_propagation",
    "FRAMES",
]

FRAMES = ("base", "tool")


# --- the three recursions, on scalars ----------------------------------------------------------------


def _differential(robot, q, B):
    """^T J by differential transforms: column i from U = (frame of joint i) → tool, (3.92)–(3.93)."""
    _, links, tool = chain(robot, q, B)
    n = len(links)
    after: list[Any] = [None] * (n + 1)  # after[k] = links k+1 … n, then the tool: ^{k}T_tool
    after[n] = tool
    for k in range(n - 1, -1, -1):
        after[k] = compose(links[k], after[k + 1])
    U = axis_frames(after, robot.modified)  # joint i's axis: frame i (modified) or i−1 (standard)
    cols = []
    for link, (R, p) in zip(robot.links, U):
        n_, o_, a_ = sm.columns(R)
        if link.revolute:  # (3.92): ((p×n)_z, (p×o)_z, (p×a)_z, n_z, o_z, a_z)
            cols.append([sm.cross(p, n_)[2], sm.cross(p, o_)[2], sm.cross(p, a_)[2], n_[2], o_[2], a_[2]])
        else:  # (3.93)
            cols.append([n_[2], o_[2], a_[2], 0, 0, 0])
    return cols


def _propagate(robot, q, B, rates):
    """Outward ω/v recursion. ``rates[i]`` is joint i's rate for each of k columns (k-lists).

    Returns (frames, R_world): for the base, every link frame and the tool, the lists of k
    (ω, v) in that frame's own coordinates; and the world rotation of the tool frame.
    """
    base, links, tool = chain(robot, q, B)
    k = len(rates[0])
    zero = [0, 0, 0]
    w, v = [zero] * k, [zero] * k
    steps = [(w, v)]
    R_world = base[0]
    for link, (R, P), rate in zip(robot.links, links, rates):
        if not robot.modified:  # standard DH: joint i acts about z_{i−1}, before the link's fixed part
            w = [[x[0], x[1], x[2] + r] if link.revolute else x for x, r in zip(w, rate)]
            v = [[x[0], x[1], x[2] + r] if not link.revolute else x for x, r in zip(v, rate)]
        v = [sm.mtv(R, sm.add(vj, sm.cross(wj, P))) for wj, vj in zip(w, v)]
        w = [sm.mtv(R, wj) for wj in w]
        if robot.modified:  # modified DH: joint i acts about z_i, after the link's fixed part
            w = [[x[0], x[1], x[2] + r] if link.revolute else x for x, r in zip(w, rate)]
            v = [[x[0], x[1], x[2] + r] if not link.revolute else x for x, r in zip(v, rate)]
        R_world = sm.mm(R_world, R)
        steps.append((w, v))
    Rt, pt = tool
    steps.append(([sm.mtv(Rt, wj) for wj in w], [sm.mtv(Rt, sm.add(vj, sm.cross(wj, pt))) for wj, vj in zip(w, v)]))
    return steps, sm.mm(R_world, Rt)


def _velocity(robot, q, B, frame):
    n = robot.n
    steps, R = _propagate(robot, q, B, [[1 if i == j else 0 for j in range(n)] for i in range(n)])
    w, v = steps[-1]
    if frame == "base":
        w, v = [sm.mv(R, x) for x in w], [sm.mv(R, x) for x in v]
    return [vj + wj for wj, vj in zip(w, v)]


def _forward(robot, q, B):
    """World (R, p) of the base and every link frame, and of the tool: the library's one recursion."""
    return forward(robot.links, robot.modified, q, B, robot.base, robot.tool)


def _geometric(robot, q, B, frame):
    """The geometric method is the library's own Jacobian (lab report (2.37)–(2.45)); "tool" rotates
    it into the tool frame. It is checked against the two independent derivations above."""
    frames, (Re, pe) = _forward(robot, q, B)
    cols = geometric_columns(robot.links, axis_frames(frames, robot.modified), pe)
    if frame == "tool":
        cols = [sm.mtv(Re, col[:3]) + sm.mtv(Re, col[3:]) for col in cols]
    return cols


def _link_jacobians(robot, q, B, points):
    """Per link k, the columns (J_v; J_ω) of the point ``points[k]`` (link frame k), in the world:
    the geometric Jacobian of that point over joints 1..k, zero for the joints beyond k."""
    frames, _ = _forward(robot, q, B)
    axes = axis_frames(frames, robot.modified)
    out = []
    for k in range(robot.n):
        Rk, pk = frames[k + 1]
        c = sm.add(sm.mv(Rk, points[k]), pk)
        out.append(geometric_columns(robot.links[: k + 1], axes[: k + 1], c) + [[0] * 6] * (robot.n - k - 1))
    return out


# --- evaluation: symbols directly, numbers through a compiled kernel --------------------------------


def _check(robot, q, frame=None):
    if frame is not None and frame not in FRAMES:
        raise ValueError(f"frame must be 'base' or 'tool', got {frame!r}")
    q = joint_vector(q, robot.n, "q", symbolic=True if robot.symbolic else None)
    return q, isinstance(q, list)


def _columns_to_J(cols, symbolic):
    """n columns of 6 scalars → 6×n (sympy Matrix or (..., 6, n) array)."""
    return to_matrix([[c[r] for c in cols] for r in range(6)], symbolic)


def _evaluate(name, algorithm, robot, q, *extra):
    q, symbolic = _check(robot, q, *extra[:1])
    if symbolic:
        return _columns_to_J(algorithm(robot, q, backend_for(True), *extra), True)

    def build(robot):
        tr = Tracer()
        cols = algorithm(robot, tr.inputs("q", robot.n), TracerBackend(tr), *extra)
        return tr.kernel(name, "q", [c[r] for r in range(6) for c in cols])

    kernel = cached_kernel(robot, ("jacobians." + name, *extra), build)
    return run_kernel(kernel, q, (6, robot.n))


def jacob_differential(robot: RobotLike, q: Any) -> Any:
    """^T J, the Jacobian in the tool frame, by differential transforms: textbook (3.88)–(3.93).

    Equals ``robot.jacobe(q)``. q (n,) → (6, n); (..., n) → (..., 6, n); sympy → Matrix.
    """
    return _evaluate("jacob_differential", _differential, robot, q)


def jacob_velocity(robot: RobotLike, q: Any, frame: str = "base") -> Any:
    """The Jacobian by outward ω/v propagation (Craig; notes 004), in the ``frame`` "base" or "tool".

    Equals ``robot.jacob0(q)`` ("base") and ``robot.jacobe(q)`` ("tool").
    """
    return _evaluate("jacob_velocity", _velocity, robot, q, frame)


def jacob_geometric(robot: RobotLike, q: Any, frame: str = "base") -> Any:
    """The Jacobian from columns z_i × (p_n − p_i) (revolute) or z_i (prismatic), lab report (2.37)–(2.45)."""
    return _evaluate("jacob_geometric", _geometric, robot, q, frame)


def link_jacobians(robot: RobotLike, q: Any, points: ArrayLike | None = None) -> Any:
    """(J_vi; J_ωi) of a point on every link, in the base frame: (..., n, 6, n); sympy: list of Matrices.

    ``points`` (n, 3): the point of link k in link frame k (e.g. its centre of mass, lab report
    (2.37)–(2.45)); default the frame origins. Columns of joints beyond link k are zero.
    """
    q, symbolic = _check(robot, q)
    n = robot.n
    if symbolic:
        pts = [[0, 0, 0]] * n if points is None else [list(p) for p in sympy().Matrix(points).tolist()]
        return [_columns_to_J(cols, True) for cols in _link_jacobians(robot, q, backend_for(True), pts)]
    arr = np.zeros((n, 3)) if points is None else as_float_array(points, "points", (n, 3), allow_batch=False)

    def build(robot):
        tr = Tracer()
        qv, r = tr.inputs("q", n), tr.inputs("r", 3 * n)
        per_link = _link_jacobians(robot, qv, TracerBackend(tr), [r[3 * k : 3 * k + 3] for k in range(n)])
        return tr.kernel("link_jacobians", "q, r", [c[row] for cols in per_link for row in range(6) for c in cols])

    kernel = cached_kernel(robot, "jacobians.link_jacobians", build)
    r = np.broadcast_to(arr.reshape(-1), q.shape[:-1] + (3 * n,))
    return run_kernel(kernel, q, (n, 6, n), np.ascontiguousarray(r))


def velocity_propagation(robot: RobotLike, q: Any, qd: Any) -> list[tuple[int | str, Any, Any]]:
    """Each step of the outward recursion for joint rates ``qd``: a list of (i, ^iω_i, ^iv_i).

    i runs over the base (0), the link frames 1..n and the tool ("tool"); each vector is in frame
    i's own coordinates, as numpy arrays or sympy Matrices, so a notebook can print the steps
    (notes 004's 2R example: ^1ω_1, ^1v_1, ^2ω_2, ^2v_2, ...).
    """
    symbolic = robot.symbolic or is_symbolic(q, qd)
    q = joint_vector(q, robot.n, "q", symbolic=symbolic, batch=False)
    qd = joint_vector(qd, robot.n, "qd", symbolic=symbolic, batch=False)
    steps, _ = _propagate(robot, list(q), backend_for(symbolic), [[x] for x in qd])
    labels = list(range(robot.n + 1)) + ["tool"]
    vec = (lambda x: sympy().Matrix(x).applyfunc(sympy().trigsimp)) if symbolic else np.array
    return [(i, vec(w[0]), vec(v[0])) for i, (w, v) in zip(labels, steps)]
