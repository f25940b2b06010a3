"""The same DH table built in the reference libraries: roboticstoolbox-python and pinocchio
(test-only dependencies, imported on use)."""

from __future__ import annotations

import numpy as np

from .elementary import rotx, rotz, tx, tz


def to_rtb(robot):
    """The robot as ``roboticstoolbox.DHRobot`` (same a, α, d, θ/offset, base, tool)."""
    import roboticstoolbox as rtb
    from spatialmath import SE3

    links = []
    for L in robot.links:
        if robot.modified:
            link = (
                rtb.RevoluteMDH(d=L.d, a=L.a, alpha=L.alpha, offset=L.offset)
                if L.revolute
                else rtb.PrismaticMDH(theta=L.theta, a=L.a, alpha=L.alpha, offset=L.offset)
            )
        else:
            link = (
                rtb.RevoluteDH(d=L.d, a=L.a, alpha=L.alpha, offset=L.offset)
                if L.revolute
                else rtb.PrismaticDH(theta=L.theta, a=L.a, alpha=L.alpha, offset=L.offset)
            )
        links.append(link)
    kw = {}
    if robot.base is not None:
        kw["base"] = SE3(np.array(robot.base, dtype=float), check=False)
    if robot.tool is not None:
        kw["tool"] = SE3(np.array(robot.tool, dtype=float), check=False)
    return rtb.DHRobot(links, name=robot.name or "armlab", **kw)


def _joint_fixed_part(L):
    """The fixed part of a link transform that sits next to the joint motion Rz(q) or Tz(q).

    Revolute: Rz(q + offset)·Tz(d) = [Rz(offset)·Tz(d)]·Rz(q)  (Rz and Tz commute).
    Prismatic: Rz(θ)·Tz(q + offset) = [Rz(θ)·Tz(offset)]·Tz(q).
    """
    return rotz(L.offset) @ tz(L.d) if L.revolute else rotz(L.theta) @ tz(L.offset)


def to_pin(robot):
    """The robot as a pinocchio Model: returns (model, ee_frame_id, link_frame_ids), with each link's
    mass, centre of mass and inertia (given in DH frame i) moved into pinocchio's joint frame.

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
        if L.m or L.I is not None:  # DH frame i = joint frame · after: move the COM and inertia over
            I = np.zeros((3, 3)) if L.I is None else np.array(L.I, dtype=float)
            Ra = after[:3, :3]
            com = after[:3, :3] @ np.array(L.r, dtype=float) + after[:3, 3]
            model.appendBodyToJoint(parent, pin.Inertia(float(L.m), com, Ra @ I @ Ra.T), pin.SE3.Identity())
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
