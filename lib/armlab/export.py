"""Export a DHRobot with inertia to MJCF, MuJoCo's model format, so that MuJoCo simulates the same arm.

Only XML is written here: ``mujoco`` is a test and teaching dependency, never imported by armlab.

Each body is its DH link frame i. Modified DH: frame i = frame i−1 · Rx(α)·Tx(a)·Rz(θ)·Tz(d) and joint i
moves about (along) z_i through O_i, so the body sits at Rx(α)·Tx(a)·[Rz(offset)·Tz(d) or Rz(θ)·Tz(offset)]
with its joint at its origin along z. Standard DH: frame i = frame i−1 · Rz(θ)·Tz(d)·Tx(a)·Rx(α) and joint
i moves about z_{i−1} through O_{i−1}; with F the link's fixed part at q = 0, the joint sits at
F⁻¹·O_{i−1} along F⁻¹·z. So MuJoCo's qpos is our q. A link's inertial element is its mass, centre of
mass and principal moments and axes (from I, about the centre of mass, in the link frame).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING
from xml.sax.saxutils import quoteattr

import numpy as np

from ._core.constants import GRAVITY
from ._core.protocol import RobotLike
from ._core.validation import as_float_array

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["to_mjcf"]

INTEGRATORS = ("Euler", "RK4", "implicit", "implicitfast")


def to_mjcf(
    robot: RobotLike,
    *,
    gravity: ArrayLike = GRAVITY,
    timestep: float = 1e-3,
    integrator: str = "RK4",
    armature: ArrayLike | None = None,
    min_inertia: float | None = None,
    joint_limits: bool = False,
    name: str | None = None,
) -> str:
    """The robot as an MJCF XML string (one body per link, hinge/slide joints, no contacts, no damping).

    ``gravity`` is in the world frame (the frame the robot's base transform is given in), as in
    :func:`armlab.dynamics.rne`; ``armature`` (n,) the reflected actuator inertia per joint.
    MuJoCo needs a positive mass and inertia on every moving body: a link without them (a point mass,
    ``I=None``; or ``m=0``) is an error unless ``min_inertia`` (e.g. 1e-9) is given, which raises every
    mass and principal moment below it to it — a perturbation of that size. ``joint_limits=True`` writes
    the limits as MuJoCo joint ranges (limit constraints change the motion where they are reached).
    """
    if robot.symbolic:
        raise ValueError("to_mjcf needs a numeric robot (this one has sympy parameters)")
    if integrator not in INTEGRATORS:
        raise ValueError(f"integrator must be one of {INTEGRATORS}, got {integrator!r}")
    timestep = float(as_float_array(timestep, "timestep", ()))
    if not timestep > 0:
        raise ValueError(f"timestep must be > 0 s, got {timestep!r}")
    g = as_float_array(gravity, "gravity", (3,), allow_batch=False)
    arm = np.zeros(robot.n) if armature is None else as_float_array(armature, "armature", (robot.n,), allow_batch=False)
    if np.any(arm < 0):
        raise ValueError(f"armature must be >= 0, got {arm.tolist()}")
    floor = None if min_inertia is None else float(as_float_array(min_inertia, "min_inertia", ()))
    if floor is not None and not floor > 0:
        raise ValueError(f"min_inertia must be > 0, got {min_inertia!r}")

    title = name or robot.name or "armlab robot"
    lines = [
        f"<mujoco model={quoteattr(title)}>",
        '  <compiler angle="radian" autolimits="true"/>',
        f'  <option gravity="{_nums(g)}" timestep="{_num(timestep)}" integrator="{integrator}"/>',
        "  <worldbody>",
    ]
    base = np.eye(4) if robot.base is None else np.asarray(robot.base, dtype=float)
    lines.append(f'    <body name="base" {_pose(base)}>')
    depth = 3
    for k, link in enumerate(robot.links, start=1):
        placement, joint_pos, joint_axis = _joint(link, robot.modified)
        pad = "  " * depth
        lines.append(f'{pad}<body name="link{k}" {_pose(placement)}>')
        kind = "hinge" if link.revolute else "slide"
        extra = ""
        if joint_limits and link.qlim is not None and all(map(math.isfinite, link.qlim)):
            extra = f' range="{_nums(link.qlim)}"'
        lines.append(
            f'{pad}  <joint name="joint{k}" type="{kind}" pos="{_nums(joint_pos)}" '
            f'axis="{_nums(joint_axis)}" damping="0" armature="{_num(arm[k - 1])}"{extra}/>'
        )
        lines.append(f"{pad}  {_inertial(link, k, floor)}")
        depth += 1
    tool = np.eye(4) if robot.tool is None else np.asarray(robot.tool, dtype=float)
    lines.append(f'{"  " * depth}<site name="tool" {_pose(tool)}/>')
    for d in range(depth - 1, 1, -1):
        lines.append(f"{'  ' * d}</body>")
    lines += ["  </worldbody>", "</mujoco>", ""]
    return "\n".join(lines)


def _joint(link, modified):
    """(body placement at q = 0 relative to the parent frame, joint position, joint axis in the body)."""
    fixed = _rotz(link.offset) @ _tz(link.d) if link.revolute else _rotz(link.theta) @ _tz(link.offset)
    z = np.array([0.0, 0.0, 1.0])
    if modified:
        return _rotx(link.alpha) @ _tx(link.a) @ fixed, np.zeros(3), z
    F = fixed @ _tx(link.a) @ _rotx(link.alpha)
    R, p = F[:3, :3], F[:3, 3]
    return F, -R.T @ p, R.T @ z


def _inertial(link, k, floor):
    m = float(link.m)
    I = np.zeros((3, 3)) if link.I is None else np.asarray(link.I, dtype=float)  # noqa: E741
    moments, axes = np.linalg.eigh(0.5 * (I + I.T))
    if floor is None and (m <= 0 or link.I is None or moments.min() <= 0):
        what = (
            "has a mass but no inertia (I=None, a point mass)"
            if m > 0 and link.I is None
            else "has no mass"
            if m <= 0
            else f"has a zero principal moment {moments.round(12).tolist()}"
        )
        raise ValueError(
            f"link {k} {what}: MuJoCo needs a positive mass and inertia on every moving body. "
            "Give the DHLink m and I, or pass min_inertia (e.g. 1e-9) to raise them to that floor"
        )
    if floor is not None:
        m, moments = max(m, floor), np.maximum(moments, floor)
    moments[2] = min(moments[2], moments[0] + moments[1])  # rounding must not break MuJoCo's A + B >= C
    if np.linalg.det(axes) < 0:
        axes[:, 0] = -axes[:, 0]
    return (
        f'<inertial pos="{_nums(link.r)}" quat="{_nums(_quat(axes))}" mass="{_num(m)}" diaginertia="{_nums(moments)}"/>'
    )


def _pose(T):
    return f'pos="{_nums(T[:3, 3])}" quat="{_nums(_quat(T[:3, :3]))}"'


def _quat(R):
    """Unit quaternion (w, x, y, z) of a rotation matrix (Shepperd's method: the largest pivot)."""
    t = np.trace(R)
    if t > max(R[0, 0], R[1, 1], R[2, 2]):
        w = math.sqrt(1.0 + t) / 2
        q = [w, (R[2, 1] - R[1, 2]) / (4 * w), (R[0, 2] - R[2, 0]) / (4 * w), (R[1, 0] - R[0, 1]) / (4 * w)]
    else:
        i = int(np.argmax(np.diag(R)))
        j, k = (i + 1) % 3, (i + 2) % 3
        s = math.sqrt(max(1.0 + R[i, i] - R[j, j] - R[k, k], 0.0)) * 2
        q = [0.0] * 4
        q[0] = (R[k, j] - R[j, k]) / s
        q[1 + i], q[1 + j], q[1 + k] = s / 4, (R[j, i] + R[i, j]) / s, (R[k, i] + R[i, k]) / s
    quat = np.array(q)
    return quat / np.linalg.norm(quat)


def _num(x):
    return repr(float(x) + 0.0)  # full precision; + 0.0 drops the sign of −0


def _nums(v):
    return " ".join(_num(x) for x in v)


def _rotx(t):
    c, s = math.cos(t), math.sin(t)
    return np.array([[1, 0, 0, 0], [0, c, -s, 0], [0, s, c, 0], [0, 0, 0, 1.0]])


def _rotz(t):
    c, s = math.cos(t), math.sin(t)
    return np.array([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])


def _tx(a):
    T = np.eye(4)
    T[0, 3] = a
    return T


def _tz(d):
    T = np.eye(4)
    T[2, 3] = d
    return T
