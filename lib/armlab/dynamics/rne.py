"""Recursive Newton–Euler inverse dynamics, the one algorithm M, C, G and statics build on.

Outward (link k = 1..n, each vector in link frame {k}): angular velocity ω_k, angular acceleration
ω̇_k, acceleration of the frame origin v̇_k and of the centre of mass v̇_ck. Gravity enters as an
upward acceleration of the base, v̇_0 = −g. Inward (k = n..1), the force and moment that link k−1
exerts on link k, about O_k, in {k}:

    f_k = ^kR_{k+1}·f_{k+1} + m_k·v̇_ck
    n_k = ^kR_{k+1}·n_{k+1} + ^kP_{k+1} × ^kR_{k+1}·f_{k+1} + c_k × m_k·v̇_ck + I_k·ω̇_k + ω_k × I_k·ω_k

and the joint torque is n_k (or the force f_k) along joint k's axis. With q̇ = q̈ = 0 the inward pass
is exactly the statics recursion (5-1)–(5-2) of the statics chapter. f_{n+1}, n_{n+1} are the
wrench the tip exerts on the environment, in the tool frame. Modified DH: joint k's axis is z_k
(through O_k); standard DH: z_{k−1} (through O_{k−1}), handled in the same pass.

Like the Jacobians, the recursion is written once on scalars: it runs on sympy symbols, and on
numbers through straight-line code traced and compiled once per robot (floats or batches).
"""

from __future__ import annotations

from typing import Any

from .._core import smallmat as sm
from ..kinematics.scalar import chain

__all__ = ["rne_steps", "link_inertia"]


def link_inertia(link: Any, B: Any) -> tuple[Any, list, list]:
    """(m, c, I) of a link for backend B: mass, centre of mass in the link frame, 3×3 inertia about it."""
    m = link.m
    c = list(link.r)
    I = [[0, 0, 0], [0, 0, 0], [0, 0, 0]] if link.I is None else [[link.I[i][j] for j in range(3)] for i in range(3)]
    return m, c, I


def _origin_wrench(chi, s):
    """Inertial force and moment about the frame origin of a link with barycentric parameters chi."""
    m, hx, hy, hz, ixx, iyy, izz, ixy, ixz, iyz = chi
    h = [hx, hy, hz]
    I = [[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]]
    w, wd, vd = s["w"], s["wd"], s["vd"]
    F = sm.add(sm.add(sm.scale(m, vd), sm.cross(wd, h)), sm.cross(w, sm.cross(w, h)))
    N = sm.add(sm.add(sm.mv(I, wd), sm.cross(w, sm.mv(I, w))), sm.cross(h, vd))
    return F, N


def _zplus(v, x):
    """v + x·ẑ."""
    return [v[0], v[1], v[2] + x]


def rne_steps(
    robot: Any, q: Any, qd: Any, qdd: Any, g: Any, f_tip: Any, B: Any, params: Any = None
) -> tuple[list, list[dict]]:
    """Run the recursion; returns (tau, steps) with steps a list per link k of dicts with
    w, wd, vd, vcd (outward) and f, n (inward), each a 3-list in frame {k}.

    ``g`` is gravity in the world frame (3-list), ``f_tip`` the 6-list (f, n) in the tool frame.
    ``params``: instead of the links' own m, r, I, per link the 10 barycentric parameters about the
    frame origin, (m, m·cx, m·cy, m·cz, Ixx, Iyy, Izz, Ixy, Ixz, Iyz) (lab report (2.54), corrected) —
    τ is linear in them, which is what the regressor uses.
    """
    base, links, tool = chain(robot, q, B)
    n = robot.n
    zero = [0, 0, 0]
    w, wd = zero, zero
    vd = sm.mtv(base[0], [-g[0], -g[1], -g[2]])  # the base accelerates upwards: gravity for every link
    steps = []
    for k in range(n):
        link, (R, P) = robot.links[k], links[k]
        if robot.modified:  # the link's fixed part first, then joint k about z_k
            vd = sm.mtv(R, sm.add(sm.add(sm.cross(wd, P), sm.cross(w, sm.cross(w, P))), vd))
            w, wd = sm.mtv(R, w), sm.mtv(R, wd)
            if link.revolute:
                wd = _zplus(sm.add(wd, sm.cross(w, [0, 0, qd[k]])), qdd[k])
                w = _zplus(w, qd[k])
            else:
                vd = _zplus(sm.add(vd, sm.cross(w, [0, 0, 2 * qd[k]])), qdd[k])
        else:  # standard DH: joint k about z_{k−1} first, then the fixed part
            if link.revolute:
                wd = _zplus(sm.add(wd, sm.cross(w, [0, 0, qd[k]])), qdd[k])
                w = _zplus(w, qd[k])
                vd = sm.add(sm.add(sm.cross(wd, P), sm.cross(w, sm.cross(w, P))), vd)
            else:
                vd = _zplus(
                    sm.add(
                        sm.add(sm.add(sm.cross(wd, P), sm.cross(w, sm.cross(w, P))), vd), sm.cross(w, [0, 0, 2 * qd[k]])
                    ),
                    qdd[k],
                )
            vd, w, wd = sm.mtv(R, vd), sm.mtv(R, w), sm.mtv(R, wd)
        step = {"w": w, "wd": wd, "vd": vd}
        if params is None:
            _, c, _ = link_inertia(link, B)
            step["vcd"] = sm.add(sm.add(sm.cross(wd, c), sm.cross(w, sm.cross(w, c))), vd)
        steps.append(step)
    R_next, P_next = tool
    f, nn = list(f_tip[:3]), list(f_tip[3:])
    tau = [0] * n
    for k in range(n - 1, -1, -1):
        link, s = robot.links[k], steps[k]
        if params is None:  # about the centre of mass
            m, c, I = link_inertia(link, B)
            F = sm.scale(m, s["vcd"])
            N = sm.add(sm.add(sm.mv(I, s["wd"]), sm.cross(s["w"], sm.mv(I, s["w"]))), sm.cross(c, F))
        else:  # about the frame origin: F = m·v̇ + ω̇×h + ω×(ω×h), N = I_o·ω̇ + ω×I_o·ω + h×v̇
            F, N = _origin_wrench(params[k], s)
        Rf = sm.mv(R_next, f)
        nn = sm.add(sm.add(sm.mv(R_next, nn), sm.cross(P_next, Rf)), N)
        f = sm.add(Rf, F)
        s["f"], s["n"] = f, nn
        R, P = links[k]
        if robot.modified:
            tau[k] = nn[2] if link.revolute else f[2]
        else:  # axis z_{k−1} in frame k is Rᵀẑ, through O_{k−1}; about it: n + (Rᵀp) × f
            z = [R[2][0], R[2][1], R[2][2]]
            tau[k] = sm.dot(sm.add(nn, sm.cross(sm.mtv(R, P), f)), z) if link.revolute else sm.dot(f, z)
        R_next, P_next = R, P
    return tau, steps
