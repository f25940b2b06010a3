"""Shared generators and reference-library builders for the kinematics cross-checks.

* ``random_dh_robot`` / ``random_q`` / ``random_transform``: random DH robots in
  either convention (revolute and prismatic joints, offsets, base and tool).
* ``to_rtb``: the same table as a roboticstoolbox ``DHRobot``.
* ``to_pin``: the same chain as a pinocchio ``Model`` with one operational frame
  per DH link frame and one for the end effector (tool).
* ``fd_jacobians``: central finite-difference geometric Jacobians (jacob0, jacobe).

The reference builders use their own elementary transforms (below), not
armlab.transforms, so a bug there cannot hide in both sides of a comparison.
"""
from __future__ import annotations

import math

import numpy as np

from armlab.dh import DHLink, DHRobot
from armlab import models

# Course models, by name, as zero-argument factories.
COURSE_MODELS = {
    "puma560": models.puma560,
    "puma560_flange": lambda: models.puma560(flange=True),
    "puma560_standard": models.puma560_standard,
    "puma560_standard_flange": lambda: models.puma560_standard(flange=True),
    "youbot": models.youbot,
    "stanford_modified": lambda: models.stanford_arm(convention="modified"),
    "stanford_standard": lambda: models.stanford_arm(convention="standard"),
    "rpr": models.rpr,
    "planar2r": models.planar2r,
    "planar3r": models.planar3r,
}

# Prismatic joint range used for random robots (m): reasonable strokes, including negative d.
PRISMATIC_QLIM = (-0.5, 1.0)


# --- elementary transforms, written out independently of armlab ---------------
def rotx(t):
    c, s = math.cos(t), math.sin(t)
    return np.array([[1, 0, 0, 0], [0, c, -s, 0], [0, s, c, 0], [0, 0, 0, 1.0]])


def rotz(t):
    c, s = math.cos(t), math.sin(t)
    return np.array([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])


def tx(a):
    T = np.eye(4)
    T[0, 3] = a
    return T


def tz(d):
    T = np.eye(4)
    T[2, 3] = d
    return T


def vee(S):
    """Vector of the antisymmetric part of a 3×3 matrix."""
    return 0.5 * np.array([S[2, 1] - S[1, 2], S[0, 2] - S[2, 0], S[1, 0] - S[0, 1]])


# --- random inputs ----------------------------------------------------------------
def random_rotation(rng):
    """Uniform random rotation matrix from a unit quaternion."""
    qv = rng.normal(size=4)
    w, x, y, z = qv / np.linalg.norm(qv)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def random_transform(rng, scale=0.5):
    T = np.eye(4)
    T[:3, :3] = random_rotation(rng)
    T[:3, 3] = rng.uniform(-scale, scale, size=3)
    return T


_SPECIAL_ALPHAS = (0.0, math.pi / 2, -math.pi / 2, math.pi)


def random_dh_robot(rng, n, convention, prismatic_prob=0.3, with_base_tool=True):
    """A random n-joint DH robot.

    Lengths in [−0.8, 0.8] m (sometimes exactly 0), α either a special value
    (0, ±90°, 180°, which exercise the compiled kernels' constant folding) or
    uniform in (−π, π], random offsets, and for prismatic joints a random
    constant θ. With ``with_base_tool`` the robot gets random rigid base and tool
    transforms.
    """
    links = []
    for _ in range(n):
        prismatic = rng.random() < prismatic_prob
        a = 0.0 if rng.random() < 0.2 else rng.uniform(-0.8, 0.8)
        alpha = (_SPECIAL_ALPHAS[rng.integers(len(_SPECIAL_ALPHAS))] if rng.random() < 0.5
                 else rng.uniform(-math.pi, math.pi))
        d = 0.0 if rng.random() < 0.2 else rng.uniform(-0.8, 0.8)
        if prismatic:
            links.append(DHLink(a=a, alpha=alpha, theta=rng.uniform(-math.pi, math.pi),
                                offset=rng.uniform(-0.3, 0.3), joint="P", qlim=PRISMATIC_QLIM))
        else:
            offset = 0.0 if rng.random() < 0.3 else rng.uniform(-math.pi, math.pi)
            links.append(DHLink(a=a, alpha=alpha, d=d, offset=offset, qlim=(-math.pi, math.pi)))
    base = random_transform(rng) if with_base_tool else None
    tool = random_transform(rng) if with_base_tool else None
    return DHRobot(links, convention=convention, base=base, tool=tool, name=f"random {convention}")


def random_q(rng, robot, size=None):
    """Joint values inside the robot's limits (±π where a joint has none): (n,) or (size, n)."""
    lim = robot.qlim.copy()
    lim[~np.isfinite(lim[:, 0]), 0] = -math.pi
    lim[~np.isfinite(lim[:, 1]), 1] = math.pi
    shape = (robot.n,) if size is None else (size, robot.n)
    return rng.uniform(lim[:, 0], lim[:, 1], size=shape)


def random_robots(seed, count, conventions=("standard", "modified"), n_range=(1, 7), **kw):
    """``count`` random robots per convention, n drawn from n_range (inclusive)."""
    rng = np.random.default_rng(seed)
    return [random_dh_robot(rng, int(rng.integers(n_range[0], n_range[1] + 1)), conv, **kw)
            for conv in conventions for _ in range(count)]


# --- roboticstoolbox --------------------------------------------------------------
def to_rtb(robot):
    """The robot as ``roboticstoolbox.DHRobot`` (same a, α, d, θ/offset, base, tool)."""
    import roboticstoolbox as rtb
    from spatialmath import SE3

    links = []
    for L in robot.links:
        if robot.modified:
            link = (rtb.RevoluteMDH(d=L.d, a=L.a, alpha=L.alpha, offset=L.offset) if L.revolute
                    else rtb.PrismaticMDH(theta=L.theta, a=L.a, alpha=L.alpha, offset=L.offset))
        else:
            link = (rtb.RevoluteDH(d=L.d, a=L.a, alpha=L.alpha, offset=L.offset) if L.revolute
                    else rtb.PrismaticDH(theta=L.theta, a=L.a, alpha=L.alpha, offset=L.offset))
        links.append(link)
    kw = {}
    if robot.base is not None:
        kw["base"] = SE3(np.array(robot.base, dtype=float), check=False)
    if robot.tool is not None:
        kw["tool"] = SE3(np.array(robot.tool, dtype=float), check=False)
    return rtb.DHRobot(links, name=robot.name or "armlab", **kw)


# --- pinocchio --------------------------------------------------------------------
def _joint_fixed_part(L):
    """The fixed part of a link transform that sits next to the joint motion Rz(q) or Tz(q).

    Revolute: Rz(q + offset)·Tz(d) = [Rz(offset)·Tz(d)]·Rz(q)  (Rz and Tz commute).
    Prismatic: Rz(θ)·Tz(q + offset) = [Rz(θ)·Tz(offset)]·Tz(q).
    """
    return rotz(L.offset) @ tz(L.d) if L.revolute else rotz(L.theta) @ tz(L.offset)


def to_pin(robot):
    """The robot as a pinocchio Model: returns (model, ee_frame_id, link_frame_ids).

    Joint i's frame J_i is the frame in which its motion Rz(q_i) or Tz(q_i) acts.
    Modified DH: T_i = T_{i-1}·Rx(α_{i-1})·Tx(a_{i-1})·F_i·M(q_i) and J_i = T_i,
    so joint i is placed at Rx(α_{i-1})·Tx(a_{i-1})·F_i relative to J_{i-1}.
    Standard DH: T_i = T_{i-1}·F_i·M(q_i)·Tx(a_i)·Rx(α_i), J_i = T_{i-1}·F_i·M(q_i),
    so joint i is placed at Tx(a_{i-1})·Rx(α_{i-1})·F_i relative to J_{i-1}
    (link i−1's fixed part comes first) and T_i = J_i·Tx(a_i)·Rx(α_i).
    F_i is :func:`_joint_fixed_part`. The base precedes joint 1; the tool follows frame n.
    ``link_frame_ids[i]`` is the frame of DH frame i (0 = base), to compare with fkine_all.
    """
    import pinocchio as pin

    def se3(T):
        return pin.SE3(np.array(T[:3, :3]), np.array(T[:3, 3]))

    model = pin.Model()
    base = np.eye(4) if robot.base is None else np.array(robot.base, dtype=float)
    tool = np.eye(4) if robot.tool is None else np.array(robot.tool, dtype=float)
    link_frames = [model.addFrame(pin.Frame("dh0", 0, 0, se3(base), pin.FrameType.OP_FRAME))]
    parent, prev_fixed = 0, base
    for i, L in enumerate(robot.links, start=1):
        fixed = _joint_fixed_part(L)
        if robot.modified:
            placement = prev_fixed @ rotx(L.alpha) @ tx(L.a) @ fixed
            after = np.eye(4)  # DH frame i is the joint frame
        else:
            placement = prev_fixed @ fixed
            after = tx(L.a) @ rotx(L.alpha)
        jmodel = pin.JointModelRZ() if L.revolute else pin.JointModelPZ()
        parent = model.addJoint(parent, jmodel, se3(placement), f"joint{i}")
        link_frames.append(model.addFrame(pin.Frame(f"dh{i}", parent, 0, se3(after), pin.FrameType.OP_FRAME)))
        prev_fixed = after
    ee = model.addFrame(pin.Frame("ee", parent, 0, se3(prev_fixed @ tool), pin.FrameType.OP_FRAME))
    return model, ee, link_frames


def pin_kinematics(model, data, q, ee, link_frames=()):
    """(T_ee 4×4, J (6×n) LOCAL_WORLD_ALIGNED rows (v, ω), [4×4 link frames])."""
    import pinocchio as pin

    pin.forwardKinematics(model, data, q)
    pin.updateFramePlacements(model, data)
    T = data.oMf[ee].homogeneous.copy()
    # eigenpy hands a 6×1 Jacobian back as a 1-D array: restore the column.
    J = np.array(pin.computeFrameJacobian(model, data, q, ee, pin.LOCAL_WORLD_ALIGNED)).reshape(6, model.nv)
    frames = [data.oMf[f].homogeneous.copy() for f in link_frames]
    return T, J, frames


# --- finite differences -----------------------------------------------------------
def fd_jacobians(fkine, q, h=1e-6):
    """Central-difference (J0, Je) of a pose function fkine(q) -> 4×4.

    Column j: linear part ∂p/∂q_j; angular part vee(Ṙ·Rᵀ) in the base frame
    (J0) and vee(Rᵀ·Ṙ) in the end-effector frame (Je), with Ṙ = ∂R/∂q_j.
    The (v) rows of Je are Rᵀ·∂p/∂q_j.
    """
    q = np.asarray(q, dtype=float)
    T = fkine(q)
    Rm = T[:3, :3]
    n = q.size
    J0, Je = np.zeros((6, n)), np.zeros((6, n))
    for j in range(n):
        dq = np.zeros(n)
        dq[j] = h
        dT = (fkine(q + dq) - fkine(q - dq)) / (2 * h)
        dp, dR = dT[:3, 3], dT[:3, :3]
        J0[:3, j], J0[3:, j] = dp, vee(dR @ Rm.T)
        Je[:3, j], Je[3:, j] = Rm.T @ dp, vee(Rm.T @ dR)
    return J0, Je
