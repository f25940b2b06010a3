"""The textbook's simplified inertia and gravity terms, §3.4.2 part 4, eqs. (3.133)–(3.148).

The book rewrites D_ij (3.130) and D_i (3.132) with §3.3's differential vectors: joint i's unit motion
moves link p's frame by ^pd_i (translation) and ^pδ_i (rotation), both in frame p. With n, o, a, p the
columns of ^{i−1}T_p, the pose of link p's frame in joint i's axis frame ({i−1} in Paul's standard DH,
which the section uses; {i} in the modified convention):

* revolute joint: ^pd_i = (−n_x p_y + n_y p_x, −o_x p_y + o_y p_x, −a_x p_y + a_y p_x) (3.134),
  ^pδ_i = (n_z, o_z, a_z) (3.135); prismatic joint: ^pd_i = (n_z, o_z, a_z), ^pδ_i = 0 (§3.3, (3.79));
* D_ij = Σ_{p ≥ max(i,j)} m_p[^pδ_iᵀ k_p ^pδ_j + ^pd_i·^pd_j + ^p r̄_p·(^pd_i × ^pδ_j + ^pd_j × ^pδ_i)] (3.138),
  m_p·k_p the inertia tensor of link p about its frame's origin; three groups of terms (3.139): the
  mass distribution, the "effective moment arm" ^pd_i·^pd_j, and the centre of mass off the origin;
* with k_p diagonal (the book's "normal assumption"), D_ii of a revolute joint is
  Σ_p m_p[n_z² k²_xx + o_z² k²_yy + a_z² k²_zz + p̄·p̄ + 2 r̄_p·(p̄·n, p̄·o, p̄·a)], p̄ = (p_x, p_y, 0)
  (3.140)–(3.141), and of a prismatic joint Σ_{p ≥ i} m_p (3.142);
* D_i = ^{i−1}g · Σ_{p ≥ i} m_p ^{i−1}r̄_p (3.148), ^{i−1}g = −gᵀ T_{i−1} ^{i−1}Δ_i: (−g·o, g·n, 0, 0) for a
  revolute joint (3.146), (0, 0, 0, −g·a) for a prismatic one (3.147), n, o, a the axis frame's columns.

docs/errata.md lists what the book prints differently in (3.138)–(3.141) (tests/sources/test_textbook_ch6.py).
Everything here is numeric, for one pose: the route is for insight into the terms; ``robot.inertia``
and ``robot.gravload`` compute the same numbers, faster.

>>> from armlab.models import planar2r
>>> arm = planar2r(0.8, 0.6, 1.5, 0.7)
>>> inertia_from_differential_vectors(arm, [0.3, 0.9]).round(4).tolist()
[[2.0777, 0.4609], [0.4609, 0.252]]
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._core.constants import GRAVITY
from .._core.inertia import shift_inertia
from .._core.protocol import RobotLike
from .._core.validation import as_float_array, joint_vector
from ..kinematics.frames import joint_axis_frames
from ..transforms import Tinv

__all__ = [
    "differential_vectors",
    "inertia_from_differential_vectors",
    "effective_inertia_from_differential_vectors",
    "gravity_from_axis_frames",
]


def _poses(robot: RobotLike, q: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """The link frames {1..n} and the joint axis frames, in the base frame, at one pose."""
    q = joint_vector(q, robot.n, "q", symbolic=False, batch=False)
    F = np.asarray(robot.fkine_all(q), dtype=float)
    return F[1:], joint_axis_frames(robot, F)


def differential_vectors(robot: RobotLike, q: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """^pd_i and ^pδ_i, (3.134)–(3.135) (prismatic joints: (3.79)): how joint i's unit motion moves
    link p's frame, in that frame. Two (n, n, 3) arrays indexed [i − 1, p − 1]; zero for p < i.

    >>> from armlab.models import planar2r
    >>> d, delta = differential_vectors(planar2r(0.8, 0.6), [0.0, np.pi / 2])
    >>> d[0, 1].round(3).tolist(), delta[0, 1].tolist()   # joint 1 turns link 2's frame about z0
    ([0.8, 0.6, 0.0], [0.0, 0.0, 1.0])
    """
    links, axes = _poses(robot, q)
    n = robot.n
    d, delta = np.zeros((n, n, 3)), np.zeros((n, n, 3))
    for i, link in enumerate(robot.links):
        for p in range(i, n):
            T = Tinv(axes[i]) @ links[p]  # ^{i−1}T_p
            nv, o, a, pos = T[:3, 0], T[:3, 1], T[:3, 2], T[:3, 3]
            z = np.array([nv[2], o[2], a[2]])
            if link.revolute:
                d[i, p] = [
                    -nv[0] * pos[1] + nv[1] * pos[0],
                    -o[0] * pos[1] + o[1] * pos[0],
                    -a[0] * pos[1] + a[1] * pos[0],
                ]
                delta[i, p] = z
            else:
                d[i, p] = z
    return d, delta


def _origin_inertia(link) -> np.ndarray:
    """m_p·k_p: the link's inertia tensor about its frame's origin (parallel axes)."""
    I_c = np.zeros((3, 3)) if link.I is None else np.asarray(link.I, dtype=float)
    return shift_inertia(I_c, float(link.m), np.asarray(link.r, dtype=float))


def inertia_from_differential_vectors(robot: RobotLike, q: ArrayLike, split: bool = False) -> np.ndarray:
    """M(q) = [D_ij] by (3.138); with ``split``, (3, n, n): the three groups of terms of (3.139), which
    add up to M — the links' mass distribution ^pδ_iᵀ(m_p k_p)^pδ_j, the effective moment arms
    m_p ^pd_i·^pd_j, and the centres of mass off the frame origins m_p ^p r̄_p·(^pd_i × ^pδ_j + ^pd_j × ^pδ_i).

    >>> from armlab.models import planar2r
    >>> arm = planar2r(0.8, 0.6, 1.5, 0.7)      # point masses at the frame origins: only moment arms
    >>> inertia_from_differential_vectors(arm, [0.3, 0.9], split=True)[[0, 2]].round(12).tolist()
    [[[0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]]]
    """
    if not robot.links or not all(link.m for link in robot.links):
        raise ValueError("robot: every link needs a mass m (with r and I) for (3.138)")
    d, delta = differential_vectors(robot, q)
    n = robot.n
    parts = np.zeros((3, n, n))
    for p, link in enumerate(robot.links):
        m, r, K = float(link.m), np.asarray(link.r, dtype=float), _origin_inertia(link)
        for i in range(p + 1):
            for j in range(p + 1):
                parts[0, i, j] += delta[i, p] @ K @ delta[j, p]
                parts[1, i, j] += m * d[i, p] @ d[j, p]
                parts[2, i, j] += m * r @ (np.cross(d[i, p], delta[j, p]) + np.cross(d[j, p], delta[i, p]))
    return parts if split else parts.sum(0)


def effective_inertia_from_differential_vectors(robot: RobotLike, q: ArrayLike) -> np.ndarray:
    """The effective inertias D_ii (n,): (3.141) for a revolute joint, from the columns n, o, a, p of
    ^{i−1}T_p, and (3.142), Σ_{p ≥ i} m_p, for a prismatic one.

    (3.140)–(3.141) assume the book's "normal" links: each inertia tensor about its frame's origin is
    diagonal. A link with products of inertia there raises a ``ValueError``: use
    :func:`inertia_from_differential_vectors` ((3.138), no assumption).

    >>> from armlab.models import planar2r
    >>> effective_inertia_from_differential_vectors(planar2r(0.8, 0.6, 1.5, 0.7), [0.3, 0.9]).round(4).tolist()
    [2.0777, 0.252]
    """
    for k, link in enumerate(robot.links, start=1):
        if not link.m:
            raise ValueError(f"robot: link {k} has no mass m; (3.141) needs each link's m, r and I")
        K = _origin_inertia(link)
        off = np.abs(K - np.diag(np.diag(K))).max()
        if off > 1e-12 * max(np.abs(K).max(), 1e-300):
            raise ValueError(
                f"robot: link {k}'s inertia about its frame origin has products of inertia (up to {off:.3g} kg·m²); "
                "(3.140)-(3.141) assume they are 0 (the book's normal assumption): use inertia_from_differential_vectors"
            )
    links, axes = _poses(robot, q)
    D = np.zeros(robot.n)
    for i, joint in enumerate(robot.links):
        for p in range(i, robot.n):
            link = robot.links[p]
            m = float(link.m)
            if not joint.revolute:
                D[i] += m  # (3.142)
                continue
            T = Tinv(axes[i]) @ links[p]
            nv, o, a, pos = T[:3, 0], T[:3, 1], T[:3, 2], T[:3, 3]
            k2 = np.diag(_origin_inertia(link)) / m  # k²_pxx, k²_pyy, k²_pzz
            pbar = np.array([pos[0], pos[1], 0.0])
            r = np.asarray(link.r, dtype=float)
            D[i] += m * (
                nv[2] ** 2 * k2[0]
                + o[2] ** 2 * k2[1]
                + a[2] ** 2 * k2[2]
                + pbar @ pbar
                + 2 * r @ [pbar @ nv, pbar @ o, pbar @ a]
            )
    return D


def gravity_from_axis_frames(robot: RobotLike, q: ArrayLike, gravity: ArrayLike = GRAVITY) -> np.ndarray:
    """The gravity terms D_i (n,) by (3.145)–(3.148): ^{i−1}g · Σ_{p ≥ i} m_p ^{i−1}r̄_p, with
    ^{i−1}g = (−g·o, g·n, 0, 0) (revolute, (3.146)) or (0, 0, 0, −g·a) (prismatic, (3.147)).

    >>> from armlab.models import planar2r
    >>> gravity_from_axis_frames(planar2r(0.8, 0.6, 1.5, 0.7), [0.0, 0.0], gravity=(0, -9.81, 0)).round(3).tolist()
    [21.386, 4.12]
    """
    g = as_float_array(gravity, "gravity", (3,), allow_batch=False)
    links, axes = _poses(robot, q)
    D = np.zeros(robot.n)
    for i, joint in enumerate(robot.links):
        nv, o, a = axes[i][:3, 0], axes[i][:3, 1], axes[i][:3, 2]
        row = np.array([-g @ o, g @ nv, 0.0, 0.0]) if joint.revolute else np.array([0.0, 0.0, 0.0, -g @ a])
        inverse = Tinv(axes[i])
        moment = sum(
            float(L.m) * inverse @ links[p] @ np.r_[np.asarray(L.r, dtype=float), 1.0]
            for p, L in enumerate(robot.links)
            if p >= i
        )
        D[i] = row @ moment
    return D
