"""Plain-math references for the inverse-kinematics homework (hw03): the PUMA560 solutions of
textbook eqs. (3.38)–(3.53), the planar 2R arm, and the choice rule of paper 003 eq. (12).

Computed with arithmetic and the frozen ``math`` functions only (atan2 from :mod:`._plain`),
never with ``armlab.ik`` or numpy.
"""

from __future__ import annotations

from ._base import read
from ._builtins import *  # noqa: F403  (the captured builtins shadow the live ones)
from ._frozen import cos, freeze, pi, radians, sin, sqrt
from ._plain import TAU, as_nested, atan2, fk, wrap

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Sequence
    from random import Random

#: Table 3.2 joint ranges (degrees), θ3 corrected: the book prints −45°…225°, which is Fu–Gonzalez–Lee's
#: θ3 (this θ3 + 180°), docs/errata.md. Equal to armlab.models.puma560().qlim.
PUMA_RANGES_DEG = ((-160.0, 160.0), (-225.0, 45.0), (-225.0, 45.0), (-110.0, 170.0), (-100.0, 100.0), (-266.0, 266.0))
PUMA = {"a2": 0.4318, "a3": 0.02032, "d2": 0.14909, "d4": 0.43307}
#: Table 3.2 as DH rows (joint, a, α, d, θ, offset), modified convention
PUMA_ROWS = (
    ("R", 0.0, 0.0, 0.0, 0.0, 0.0),
    ("R", 0.0, -0.5 * pi, PUMA["d2"], 0.0, 0.0),
    ("R", PUMA["a2"], 0.0, 0.0, 0.0, 0.0),
    ("R", PUMA["a3"], -0.5 * pi, PUMA["d4"], 0.0, 0.0),
    ("R", 0.0, 0.5 * pi, 0.0, 0.0, 0.0),
    ("R", 0.0, -0.5 * pi, 0.0, 0.0, 0.0),
)


def plus_minus(phi: float, D: Any, term: Any) -> list[Any]:
    """[φ − term(+√D), φ − term(−√D)]: the two roots of the ± in eqs. (3.38) and (3.42); [] when D < 0."""
    if D < 0.0:
        return []
    s = sqrt(D)
    return [phi - term(s), phi - term(-s)]


def theta3_k(px: float, py: float, pz: float, a2: float, a3: float, d2: float, d4: float) -> Any:
    """k of eq. (3.41)."""
    return (px * px + py * py + pz * pz - a2 * a2 - a3 * a3 - d2 * d2 - d4 * d4) / (2.0 * a2)


def reference_theta1(px: float, py: float, d2: float) -> list[float]:
    """Both roots of textbook eq. (3.38), [+ root, − root]; [] when px² + py² < d2²."""
    return plus_minus(atan2(py, px), px * px + py * py - d2 * d2, lambda s: atan2(d2, s))


def reference_theta3(px: float, py: float, pz: float, a2: float, a3: float, d2: float, d4: float) -> list[float]:
    """Both roots of eqs. (3.40)–(3.42), [+ root, − root]; [] when a3² + d4² − k² < 0."""
    k = theta3_k(px, py, pz, a2, a3, d2, d4)
    return plus_minus(atan2(a3, d4), a3 * a3 + d4 * d4 - k * k, lambda s: atan2(k, s))


def reference_2r(x: float, y: float, l1: float, l2: float) -> list[Any]:
    """Planar 2R solutions [[θ1, θ2], ...] (elbow with θ2 ≥ 0 first); [] when out of reach."""
    D = (x * x + y * y - l1 * l1 - l2 * l2) / (2.0 * l1 * l2)
    if abs(D) > 1.0:
        return []
    s = sqrt(1.0 - D * D)
    return [[atan2(y, x) - atan2(l2 * sin(t2), l1 + l2 * cos(t2)), t2] for t2 in (atan2(s, D), atan2(-s, D))]


def fk2r(q: Sequence[float], l1: float, l2: float) -> tuple[float, float]:
    """Hand position (x, y) of the planar 2R arm."""
    return (l1 * cos(q[0]) + l2 * cos(q[0] + q[1]), l1 * sin(q[0]) + l2 * sin(q[0] + q[1]))


def reference_motion_cost(q: Sequence[float], q_current: Sequence[float], k: Sequence[float]) -> float:
    """J = Σ kᵢ |wrap(qᵢ − q_currentᵢ)|, paper 003 eq. (12), each Δθ the short way round."""
    return sum(ki * abs(wrap(a - b)) for a, b, ki in zip(q, q_current, k))


def reference_choice(solutions: Sequence[Sequence[float]], q_current: Sequence[float], k: Sequence[float]) -> int:
    """Index of the least-J row of ``solutions``."""
    costs = [reference_motion_cost(q, q_current, k) for q in solutions]
    return min(range(len(costs)), key=lambda i: costs[i])


def reference_in_range(theta: float, lo: float, hi: float) -> bool:
    """True if some θ + 2πm lies in [lo, hi] (all in radians)."""
    x = lo + (theta - lo) % TAU  # the equivalent of θ in [lo, lo + 2π)
    return x <= hi + 1e-12 or abs(x - TAU - lo) <= 1e-12


def puma_rows(T: Any, a2: float, a3: float, d2: float, d4: float) -> Any:
    """The 8 PUMA560 solutions of T (nested 4×4), textbook eqs. (3.38)–(3.53), or []."""
    nx, ax, px = T[0][0], T[0][2], T[0][3]
    ny, ay, py = T[1][0], T[1][2], T[1][3]
    nz, az, pz = T[2][0], T[2][2], T[2][3]
    t1s = reference_theta1(px, py, d2)
    t3s = reference_theta3(px, py, pz, a2, a3, d2, d4)
    if not t1s or not t3s:
        return []
    out = []
    for t1 in t1s:
        c1, s1 = cos(t1), sin(t1)
        u = c1 * px + s1 * py
        for t3 in t3s:
            c3, s3 = cos(t3), sin(t3)
            t23 = atan2(-(a3 + a2 * c3) * pz + u * (a2 * s3 - d4), (-d4 + a2 * s3) * pz + u * (a2 * c3 + a3))
            c23, s23 = cos(t23), sin(t23)
            t4 = atan2(-ax * s1 + ay * c1, -ax * c1 * c23 - ay * s1 * c23 + az * s23)
            c4, s4 = cos(t4), sin(t4)
            s5 = -(ax * (c1 * c23 * c4 + s1 * s4) + ay * (s1 * c23 * c4 - c1 * s4) - az * s23 * c4)
            c5 = -ax * c1 * s23 - ay * s1 * s23 - az * c23
            t5 = atan2(s5, c5)
            s6 = -nx * (c1 * c23 * s4 - s1 * c4) - ny * (s1 * c23 * s4 + c1 * c4) + nz * s23 * s4
            c6 = (
                nx * ((c1 * c23 * c4 + s1 * s4) * c5 - c1 * s23 * s5)
                + ny * ((s1 * c23 * c4 - c1 * s4) * c5 - s1 * s23 * s5)
                - nz * (s23 * c4 * c5 + c23 * s5)
            )
            t6 = atan2(s6, c6)
            out.append([t1, t23 - t3, t3, t4, t5, t6])
            out.append([t1, t23 - t3, t3, t4 + pi, -t5, t6 + pi])
    return out


def reference_puma_solutions(T: Any, lengths: Any = None) -> list[Any]:
    """The 8 PUMA560 solutions of T, angles wrapped to (−π, π] (plain math; T nested or array)."""
    _, flat = read(T, "T")
    L = dict(PUMA, **(lengths or {}))
    rows = [flat[0:4], flat[4:8], flat[8:12]]
    return [[wrap(x) for x in q] for q in puma_rows(rows, L["a2"], L["a3"], L["d2"], L["d4"])]


def reference_puma_count(T: Any, ranges_deg: Any = PUMA_RANGES_DEG, shift: bool = True) -> Any:
    """How many PUMA560 solutions of T lie in the joint ranges (±2π shifts allowed when ``shift``)."""
    lims = [(radians(lo), radians(hi)) for lo, hi in ranges_deg]
    count = 0
    for q in reference_puma_solutions(T):
        if shift:
            count += all(reference_in_range(x, lo, hi) for x, (lo, hi) in zip(q, lims))
        else:
            count += all(lo <= x <= hi for x, (lo, hi) in zip(q, lims))
    return count


def random_puma_pose(rng: Random) -> Any:
    """A PUMA560 pose (nested 4×4) = fkine of random joint values, away from the wrist singularity
    and the workspace boundary, so that its 8 solutions are distinct. ``rng``: a random.Random."""
    a2, a3, d2, d4 = PUMA["a2"], PUMA["a3"], PUMA["d2"], PUMA["d4"]
    while True:
        q = [rng.uniform(-pi, pi) for _ in range(6)]
        if abs(sin(q[4])) < 0.2:
            continue
        T = fk("modified", PUMA_ROWS, None, None, q)
        px, py, pz = T[3], T[7], T[11]
        k = theta3_k(px, py, pz, a2, a3, d2, d4)
        if a3 * a3 + d4 * d4 - k * k < 0.01 or px * px + py * py - d2 * d2 < 0.01:
            continue
        return as_nested(T, (4, 4))


freeze(__name__)
