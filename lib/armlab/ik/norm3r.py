"""The simulation paper's general inverse kinematics of a 3-R arm by norm equations, 003 §2.4 eqs. (4)–(11).

For any three revolute joints in the standard DH convention (frame i in frame i−1: Rz(θ)·Tz(d)·Tx(a)·Rx(α))
and a tool point r₄ fixed in frame 3, the positioning equation (4) is

    Q₁ᵀ(p − r₁) = r₂ + Q₂(r₃ + Q₃r₄),   rᵢ = Rz(θᵢ)(aᵢ, 0, dᵢ),  Qᵢ = Rz(θᵢ)Rx(αᵢ).

Its two sides have equal norms, and θ₂ drops out of them, which leaves (5)

    A·cos θ₁ + B·sin θ₁ + C·cos θ₃ + D·sin θ₃ + E = 0,  A = 2a₁x, B = 2a₁y,

and its third rows do not contain θ₂ either, (6)–(7): F·cos θ₁ + G·sin θ₁ + H·cos θ₃ + I·sin θ₃ + J = 0.
The two are linear in (cos θ₁, sin θ₁); solved, (8), and put into cos² + sin² = 1, (9), they give with
τ = tan(θ₃/2) a quartic in τ, (10): up to four θ₃, each with its θ₁ from (8) and θ₂ from the first two
rows of (4), (11). (The coefficients are derived here from (4); the extraction of the paper garbles them.)

When a₁ = 0 (the shoulder on the base axis, as on the paper's own arm) A = B = 0: (5) holds θ₃ alone and
(10) degenerates into the quadratic of the law of cosines; θ₁ then follows from (6). Both cases are solved.
Near a₁ = 0 the quartic's roots come in two nearly double pairs, split by O(a₁): below √ε times the arm's
size that split is lost in rounding and the a₁ = 0 form is used. Either way every θ₃ is tried with both θ₁
of (6) (and, for the quartic, the θ₁ of (8)), and each start is refined on the position equations by
:func:`ikine_numeric`, so neither a rounded root nor the a₁ = 0 form's O(a₁) error loses a solution.
Singular targets (on the base axis, where θ₁ is free; or sin α₁ = 0) raise a ``ValueError`` that says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike

from .._core.angles import wrap_angle
from .._core.protocol import RobotLike
from .._core.validation import as_float_array
from .numeric import ikine_numeric

__all__ = ["norm_equation_ik", "NormEquations"]


@dataclass
class NormEquations:
    """The norm-equation route for one target point (see the module docstring).

    ``coefficients``: A … E of (5) and F … J of (6)–(7); ``quartic``: the 5 coefficients of (10) in τ,
    highest first (None when a₁ = 0 leaves a quadratic); ``case``: "quartic" or "a1 = 0" (also when
    |a₁| is below √ε times the arm's size, the solutions then refined with the true a₁);
    ``q`` (k, 3): the solutions in the robot's joint values (offsets removed), k ≤ 4; ``reason``:
    why there are none ('' otherwise)."""

    coefficients: dict[str, float]
    quartic: np.ndarray | None
    case: str
    q: np.ndarray
    reason: str = ""
    theta3_roots: list[float] = field(default_factory=list)


def _rx(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def _rz(t: float) -> np.ndarray:
    c, s = math.cos(t), math.sin(t)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def _check(robot: RobotLike) -> np.ndarray:
    if robot.n != 3 or robot.modified or robot.symbolic or not all(link.revolute for link in robot.links):
        raise ValueError(
            "robot: the norm-equation route (003 eqs. (4)-(11)) needs 3 revolute joints in the standard DH "
            f"convention with numbers, got {robot.n} joints "
            f"{''.join('R' if link.revolute else 'P' for link in robot.links)!r}, "
            f"{'modified' if robot.modified else 'standard'} DH"
        )
    tool = np.eye(4) if robot.tool is None else np.asarray(robot.tool, dtype=float)
    return tool[:3, 3]


def norm_equation_ik(robot: RobotLike, p: ArrayLike) -> NormEquations:
    """All joint values that put the tool point of a 3-R standard-DH ``robot`` at ``p`` (3,), base
    frame, by the paper's norm equations (5)–(11); see :class:`NormEquations`.

    >>> from armlab.models import paper_3r
    >>> sol = norm_equation_ik(paper_3r(), [1.0, 0.0, 0.0])            # the paper's pick point
    >>> sol.case, (np.degrees(sol.q).round(6) + 0.0).tolist()   # the four of chapter 08's Table 2
    ('a1 = 0', [[0.0, 90.0, 90.0], [0.0, 180.0, -90.0], [180.0, -90.0, -90.0], [180.0, 180.0, 90.0]])
    """
    r4 = _check(robot)
    target = pt = as_float_array(p, "p", (3,), allow_batch=False)
    if robot.base is not None:
        B = np.asarray(robot.base, dtype=float)
        pt = B[:3, :3].T @ (pt - B[:3, 3])
    x, y, z = pt
    L1, L2, L3 = robot.links
    a1, d1, al1 = float(L1.a), float(L1.d), float(L1.alpha)
    a2, d2, al2 = float(L2.a), float(L2.d), float(L2.alpha)
    w = np.array([float(L3.a), 0.0, float(L3.d)]) + _rx(float(L3.alpha)) @ r4  # r₃ + Q₃r₄ = Rz(θ₃)·w
    u = _rx(al2).T @ np.array([a2, 0.0, d2])
    rho2 = x * x + y * y
    s1a, c1a, s2a, c2a = math.sin(al1), math.cos(al1), math.sin(al2), math.cos(al2)
    k = {
        "A": 2 * a1 * x,
        "B": 2 * a1 * y,
        "C": 2 * (u[0] * w[0] + u[1] * w[1]),
        "D": 2 * (u[1] * w[0] - u[0] * w[1]),
        "E": a2 * a2 + d2 * d2 + float(w @ w) + 2 * u[2] * w[2] - (rho2 + (z - d1) ** 2 + a1 * a1),
        "F": -s1a * y,
        "G": s1a * x,
        "H": -s2a * w[1],
        "I": -s2a * w[0],
        "J": c1a * (z - d1) - d2 - c2a * w[2],
    }
    scale = max(abs(a1) + abs(a2) + abs(d1) + abs(d2) + float(np.linalg.norm(w)), 1e-12)
    if abs(s1a) < 1e-12:
        raise ValueError("robot: sin α1 = 0 (axes 1 and 2 parallel): (6) holds no θ1; this route does not apply")
    if rho2 <= (1e-12 * scale) ** 2:
        raise ValueError(
            "p is on the axis of joint 1: θ1 is free there (a singularity); choose it, then solve the rest"
        )
    roots: list[float] = []
    starts: list = []
    quartic = None
    # Near a₁ = 0 the quartic has two near-double roots, split by O(a₁); below √ε·scale the split is
    # lost in rounding, so the a₁ = 0 form gives the starts there, and every start is refined below.
    if abs(a1) > math.sqrt(np.finfo(float).eps) * scale:
        case = "quartic"
        delta = k["A"] * k["G"] - k["B"] * k["F"]  # = 2·a1·sin α1·(x² + y²)
        # (8): cos θ1 = P1/Δ, sin θ1 = P2/Δ, with P1, P2 linear in (cos θ3, sin θ3, 1)
        U = np.array([k["C"], k["D"], k["E"]])
        W = np.array([k["H"], k["I"], k["J"]])
        P1, P2 = -k["G"] * U + k["B"] * W, k["F"] * U - k["A"] * W
        # (9)–(10): P1² + P2² = Δ², with cos θ3 = (1 − τ²)/(1 + τ²), sin θ3 = 2τ/(1 + τ²)
        quad1 = np.array([P1[2] - P1[0], 2 * P1[1], P1[2] + P1[0]])
        quad2 = np.array([P2[2] - P2[0], 2 * P2[1], P2[2] + P2[0]])
        # np.convolve, not np.polymul: polymul drops a zero leading coefficient and the shapes no longer add
        quartic = np.convolve(quad1, quad1) + np.convolve(quad2, quad2) - delta**2 * np.array([1.0, 0, 2, 0, 1])
        big = np.abs(quartic).max()
        lead = np.flatnonzero(np.abs(quartic) > 1e-12 * big)
        # a near-double root comes out of np.roots with an imaginary part of order √ε or more (at the edge
        # of the workspace): every root's real part is a start; the check and the refinement below sort them
        tau = np.roots(quartic[lead[0] :])
        roots = [2 * math.atan(t.real) for t in tau if abs(t.imag) <= 1e-4 * (1 + abs(t))]  # the real ones
        t3_starts = [2 * math.atan(t.real) for t in tau]
        v = np.array([-1.0, 0.0, 1.0])  # τ = ∞ (θ3 = π): the quartic's degree drops
        if abs((P1 @ v) ** 2 + (P2 @ v) ** 2 - delta**2) <= 1e-9 * delta**2:
            roots.append(math.pi)
            t3_starts.append(math.pi)
        sign = 1.0 if delta > 0 else -1.0  # cos θ1 = P1/Δ, sin θ1 = P2/Δ: Δ's sign matters
        for t3 in t3_starts:
            v = np.array([math.cos(t3), math.sin(t3), 1.0])
            starts += [(math.atan2(sign * (P2 @ v), sign * (P1 @ v)), t3)] + _theta1_from_6(k, t3, x, y, s1a, rho2)
    else:
        case = "a1 = 0"
    # A = B = 0: (5) is C cos θ3 + D sin θ3 + E = 0, (6) gives θ1. For a small a₁ these are starts too: a
    # pair of the quartic's roots that rounding has merged into a complex pair lies near them.
    if case == "a1 = 0" or abs(a1) < 1e-2 * scale:
        R = math.hypot(k["C"], k["D"])
        if R > 0 and abs(k["E"]) <= R * (1 + 1e-6):
            phi3, spread = math.atan2(k["D"], k["C"]), math.acos(max(-1.0, min(1.0, -k["E"] / R)))
            for t3 in sorted({phi3 + spread, phi3 - spread}):
                roots += [t3] if case == "a1 = 0" else []
                starts += _theta1_from_6(k, t3, x, y, s1a, rho2)
    out: list[list[float]] = []
    T = np.eye(4)
    T[:3, 3] = target
    for t1, t3 in starts:
        # (11): the first two rows of (4) give θ2: Rz(θ2)·m = n
        g = _rz(t1).T @ pt - np.array([a1, 0.0, d1])
        n = _rx(al1).T @ g
        m = np.array([a2, 0.0, d2]) + _rx(al2) @ _rz(t3) @ w
        t2 = math.atan2(m[0] * n[1] - m[1] * n[0], m[0] * n[0] + m[1] * n[1])
        q = [float(t - link.offset) for t, link in zip((t1, t2, t3), robot.links)]
        if np.linalg.norm(robot.fkine(q)[:3, 3] - target) > 1e-3 * scale:
            continue  # not a start near a solution (the other θ1 of (6), or a spurious root)
        # refine: a near-double root is off by ~√ε, the a₁ = 0 form by O(a₁); no step when already exact
        fit = ikine_numeric(robot, T, q, mask=(1, 1, 1, 0, 0, 0), tol=1e-13 * scale, restarts=0, joint_limits=False)
        # at a stretched or folded pose (the edge of the workspace) Newton stalls: the error is second order
        # in the singular direction, and the a₁ = 0 form's start is off by O(√a₁) there. A fit within 1e-9 of
        # the arm's size still reaches the point; "out of reach" would be the wrong answer.
        miss = fit.residual[0] if fit.residual is not None else math.inf
        best = fit.q[0] if fit.success else fit.best_q if miss <= 1e-9 * scale else None
        if best is not None:
            q = [float(wrap_angle(t)) for t in best]
            if not any(np.allclose(np.angle(np.exp(1j * (np.array(q) - o))), 0.0, atol=1e-5) for o in out):
                out.append(q)
    reason = "" if out else "p is out of reach: (9) has no real root for θ3"
    return NormEquations(k, quartic, case, np.array(sorted(out)).reshape(-1, 3), reason, roots)


def _theta1_from_6(k: dict[str, float], t3: float, x: float, y: float, s1a: float, rho2: float) -> list:
    """The two θ1 of (6) for this θ3 (it holds for any a1): F cos θ1 + G sin θ1 = −W ⇔
    sin α1 · ρ · sin(θ1 − φ) = −W, φ = atan2(y, x). None when |−W / (sin α1 · ρ)| > 1."""
    Wt = k["H"] * math.cos(t3) + k["I"] * math.sin(t3) + k["J"]
    ratio = -Wt / (s1a * math.sqrt(rho2))
    if abs(ratio) > 1 + 1e-6:
        return []
    base, off = math.atan2(y, x), math.asin(max(-1.0, min(1.0, ratio)))
    return [(base + off, t3), (base + math.pi - off, t3)]
