"""Checkers for the Jacobian homework (hw04): the 2R Jacobian as a sympy matrix, one step of the outward
velocity propagation (notes 004), joint rates for a tip velocity, a singular configuration and its lost
direction, and a Jacobian's frame change (004 §3).

Same rules as the rest of :mod:`armlab.grading`: every failure is an ``AssertionError`` that names the kind
of mistake (wrong frame, transposed, degrees, the [ω; v] row order, ...), and the references are computed
here with plain Python arithmetic, never with ``armlab.jacobians`` or numpy. Rows of a Jacobian are
(v; ω), translation first, as in the textbook's (3.57).

>>> from armlab.grading.jacobians import reference_propagation_step
>>> w, v = reference_propagation_step([1, 0, 0, 0, 1, 0, 0, 0, 1], [1.0, 0, 0], [0, 0, 2.0], [0, 0, 0], 0.5, "R")
>>> w, v
([0.0, 0.0, 2.5], [0.0, 2.0, 0.0])

Checkers call the student's functions on fixed cases and on seeded random cases:
:func:`check_jacobian_2r_expr`, :func:`check_propagation_step_function`, :func:`check_joint_rates_function`,
:func:`check_singular_pose_function`, :func:`check_frame_change_function`.
"""

from __future__ import annotations

from ._base import Run, arrays, call, cases_of, check_finite, fail, fmt, fmt_list, function_checker, read, vector
from ._builtins import *  # noqa: F403  (the captured builtins shadow the live ones)
from ._frozen import cos, degrees, freeze, np_array, pi, sin, sqrt
from ._plain import cross, det3, matvec, transpose, wrap
from .checks import check_close
from .statics import jacobian_planar, random_rotation
from .symbolic import entries, evaluate, rebuild, sym

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable, Sequence
    from random import Random

__all__ = [
    "check_jacobian_2r_expr",
    "check_propagation_step_function",
    "check_joint_rates_function",
    "check_singular_pose_function",
    "check_frame_change_function",
    "reference_jacobian_2r",
    "reference_propagation_step",
    "reference_jacobian_planar3",
    "reference_joint_rates",
    "reference_singular_pose",
    "reference_frame_change",
]

SYMBOLS_2R = ("th1", "th2", "l1", "l2")
Z = [0.0, 0.0, 1.0]


# --- plain-math references -------------------------------------------------------------------------
def add(a: Any, b: Any) -> list[Any]:
    return [x + y for x, y in zip(a, b)]


def scale(k: Any, v: Any) -> list[Any]:
    return [k * x for x in v]


def norm(v: Any) -> Any:
    return sqrt(sum(x * x for x in v))


def reference_jacobian_2r(t1: float, t2: float, l1: float, l2: float) -> list[float]:
    """The planar 2R arm's J, rows (ẋ, ẏ), flat 2×2 (notes 004, exercise 6)."""
    return jacobian_planar([t1, t2], [l1, l2])


def reference_propagation_step(
    R: Sequence[float], P: Sequence[float], w: Sequence[float], v: Sequence[float], qd: float, joint: str
) -> Any:
    """Notes 004, one outward step. R = ⁱR_{i+1} (flat 3×3), P = ⁱP_{i+1}, w = ⁱω_i, v = ⁱv_i in {i}; joint
    i+1 is "R" (rate θ̇) or "P" (rate ḋ). Returns (^{i+1}ω_{i+1}, ^{i+1}v_{i+1}) in {i+1}."""
    Rt = transpose(R, 3)
    w1 = matvec(Rt, w, 3)
    v1 = matvec(Rt, add(v, cross(w, P)), 3)
    if joint == "R":
        w1 = add(w1, scale(qd, Z))
    else:
        v1 = add(v1, scale(qd, Z))
    return w1, v1


def reference_jacobian_planar3(q: Sequence[float], lengths: Sequence[float]) -> list[float]:
    """J of a planar 3R arm with rows (vx, vy, ωz), flat 3×3."""
    return jacobian_planar(q, lengths) + [1.0, 1.0, 1.0]


def solve3(A: Any, b: Any) -> Any:
    """A·x = b for a flat 3×3 A (Cramer's rule)."""
    d = det3(A)
    out = []
    for k in range(3):
        Ak = list(A)
        for r in range(3):
            Ak[3 * r + k] = b[r]
        out.append(det3(Ak) / d)
    return out


def reference_joint_rates(q: Sequence[float], lengths: Sequence[float], xdot: Sequence[float]) -> Any:
    """q̇ = J⁻¹·ẋ for the planar 3R arm, ẋ = (vx, vy, ωz) of the tip in the base frame."""
    return solve3(reference_jacobian_planar3(q, lengths), xdot)


def left_null(J: Any) -> Any:
    """A unit u with uᵀJ = 0 for a flat 3×3 J of rank 2: the cross product of its two most independent columns."""
    cols = [[J[c], J[3 + c], J[6 + c]] for c in range(3)]
    best = [0.0, 0.0, 0.0]
    for i, j in ((0, 1), (0, 2), (1, 2)):
        u = cross(cols[i], cols[j])
        if norm(u) > norm(best):
            best = u
    return scale(1.0 / norm(best), best)


def right_null(J: Any) -> Any:
    """A unit q̇ with J·q̇ = 0 for a flat 3×3 J of rank 2 (the cross product of its two most independent rows)."""
    return left_null(transpose(J, 3))


def nearest_singular_theta2(t2: float) -> Any:
    """θ2 ∈ {0, π} nearest to t2 (modulo 2π), kept on t2's turn."""
    return min((t2 - wrap(t2), t2 - wrap(t2 - pi)), key=lambda s: abs(s - t2))


def reference_singular_pose(q: Sequence[float], lengths: Sequence[float]) -> Any:
    """The planar 3R arm (rows vx, vy, ωz) is singular where det J = l1·l2·sin θ2 = 0. The singular pose nearest
    to q that moves θ2 only, and a unit lost direction u (uᵀJ = 0, sign free) there."""
    qs = [q[0], nearest_singular_theta2(q[1]), q[2]]
    return qs, left_null(reference_jacobian_planar3(qs, lengths))


def reference_frame_change(J: Sequence[float], R: Sequence[float], n: int) -> list[float]:
    """⁰J = diag(R, R)·ᵀJ for a flat 6×n ᵀJ and R = ⁰R_T (flat 3×3)."""
    out = [0.0] * (6 * n)
    for half in (0, 3):
        for r in range(3):
            for c in range(n):
                out[(half + r) * n + c] = sum(R[3 * r + k] * J[(half + k) * n + c] for k in range(3))
    return out


# --- reading answers -------------------------------------------------------------------------------
def nested(flat: Any, rows: Any, cols: int) -> Any:
    return np_array([flat[r * cols : (r + 1) * cols] for r in range(rows)], dtype=float)


def pair(value: Any, label: str, what: str) -> Any:
    """A function's two results (a tuple/list of two things)."""
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        fail(label, f"expected two results {what} (return them as a tuple), got {str(type(value).__name__)}")
    return value


# --- part 1: the 2R Jacobian, symbolically ------------------------------------------------------------
def check_jacobian_2r_expr(
    answer: Any, points: Any = None, seed: int | None = None, n: int = 8, name: str = "J2", atol: float = 1e-9
) -> None:
    """``answer``: the planar 2R arm's Jacobian as a 2×2 sympy Matrix in the symbols th1, th2, l1, l2 (rows
    ẋ, ẏ). Compared at the given ``points`` ((th1, th2, l1, l2) tuples) and at ``n`` seeded random points."""
    mat = sym(answer, name, list(SYMBOLS_2R))
    shape, items = entries(mat)
    if shape != (2, 2):
        if shape in ((3, 2), (6, 2)):
            fail(name, f"wrong shape {shape}: J2 is the 2×2 of the tip's (ẋ, ẏ) only; drop the other rows")
        if shape == (2,) or shape == (2, 1) or shape == ():
            fail(name, f"wrong shape {shape}: J2 is the 2×2 matrix of ∂(x, y)/∂(θ1, θ2), not the position (x, y)")
        fail(name, f"wrong shape: got {shape}, expected (2, 2)")
    items = [rebuild(x, name) for x in items]
    used = {s.name for x in items for s in x.free_symbols}
    extra = [s for s in used if s not in SYMBOLS_2R]
    if extra:
        fail(name, f"uses symbol(s) {extra}; write J2 with the symbols th1, th2, l1, l2 defined in the cell")
    if not used:
        fail(name, "has no symbols: J2 must be a sympy Matrix in th1, th2, l1, l2 (not numbers)")
    for t1, t2, l1, l2 in cases_of(
        points,
        seed,
        n,
        lambda rng: (rng.uniform(-pi, pi), rng.uniform(-pi, pi), rng.uniform(0.2, 1.5), rng.uniform(0.2, 1.5)),
    ):
        values = {"th1": t1, "th2": t2, "l1": l1, "l2": l2}
        got = evaluate(items, values)
        label = f"{name} at th1={fmt(t1)}, th2={fmt(t2)}, l1={fmt(l1)}, l2={fmt(l2)}"
        if got is None:
            fail(label, "could not be evaluated to real numbers")
        J = reference_jacobian_2r(t1, t2, l1, l2)
        hints = {
            "this is the Jacobian in the tip frame {3} (³v₃ of the notes, [[l1·s2, 0], [l1·c2 + l2, l2]]); "
            "the base-frame J is ⁰₃R times it": [l1 * sin(t2), 0.0, l1 * cos(t2) + l2, l2],
            "θ2 is measured from link 1: the second link's direction is θ1 + θ2 (s12, c12), not θ2": [
                -l1 * sin(t1) - l2 * sin(t2),
                -l2 * sin(t2),
                l1 * cos(t1) + l2 * cos(t2),
                l2 * cos(t2),
            ],
            "rows swapped: row 1 is ∂x/∂θ, row 2 is ∂y/∂θ": J[2:] + J[:2],
            "columns swapped: column k is the derivative with respect to θk": [J[1], J[0], J[3], J[2]],
        }
        check_close(
            [got[:2], got[2:]],
            [J[:2], J[2:]],
            name=label,
            atol=atol,
            rtol=1e-9,
            hints={k: [h[:2], h[2:]] for k, h in hints.items()},
        )


# --- part 2: one velocity-propagation step ------------------------------------------------------------
def propagation_case(rng: Random) -> Any:
    vec = [[rng.uniform(-2.0, 2.0) for _ in range(3)] for _ in range(3)]
    return (random_rotation(rng), *vec, rng.uniform(-2.0, 2.0), "R" if rng.random() < 0.7 else "P")


@function_checker("propagate", atol=1e-9)
def check_propagation_step_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(R, P, w, v, qd, joint)`` must return (^{i+1}ω_{i+1}, ^{i+1}v_{i+1}) of notes 004, with R = ⁱR_{i+1}
    (3×3: {i+1}'s axes in {i}), P = ⁱP_{i+1}, w = ⁱω_i, v = ⁱv_i, qd the rate of joint i+1 and joint "R" or "P".
    Cases are (R flat 3×3, P, w, v, qd, joint)."""
    for R, P, w, v, qd, joint in run.each(propagation_case):
        label = f"{run.name}(R, P={fmt_list(P)}, w={fmt_list(w)}, v={fmt_list(v)}, qd={fmt(qd)}, joint={joint!r})"
        got = call(
            fn,
            (
                nested(R, 3, 3),
                *arrays(P, w, v),
                float(qd),
                str(joint),
            ),
            run.name,
        )
        shape, flat = read(got, label)
        if shape not in ((2, 3), (6,)):
            fail(label, f"expected the two 3-vectors (ω, v), got shape {shape} (return w_next, v_next)")
        check_finite(flat, label)
        w1, v1 = reference_propagation_step(R, P, w, v, qd, joint)
        Rt = transpose(R, 3)
        other = "P" if joint == "R" else "R"
        zq = scale(qd, Z)
        hints = {
            "returned (v, ω): the order asked is (ω, v), the angular velocity first": [v1, w1],
            "rotated the wrong way: ⁱ⁺¹ᵢR = (ⁱR_{i+1})ᵀ takes {i}'s components to {i+1}'s, so use R.T": reference_propagation_step(
                transpose(R, 3), P, w, v, qd, joint
            ),
            "wrong frame: the result is still in frame {i}; rotate it into {i+1} with R.T": [
                add(w, matvec(R, zq, 3)) if joint == "R" else w,
                add(add(v, cross(w, P)), matvec(R, zq, 3)) if joint == "P" else add(v, cross(w, P)),
            ],
            "the joint rate was added before rotating: θ̇·ẑ (or ḋ·ẑ) is already in {i+1}, add it after R.T": [
                matvec(Rt, add(w, zq), 3),
                v1,
            ]
            if joint == "R"
            else [w1, matvec(Rt, add(add(v, cross(w, P)), zq), 3)],
            "cross product in the wrong order: it is ⁱω_i × ⁱP_{i+1}, not P × ω": [
                w1,
                add(matvec(Rt, add(v, cross(P, w)), 3), zq if joint == "P" else [0.0, 0.0, 0.0]),
            ],
            "forgot ω × P: link i's rotation carries the origin of {i+1} around, v_{i+1} = R.T·(v_i + ω_i × P)": [
                w1,
                add(matvec(Rt, v, 3), zq if joint == "P" else [0.0, 0.0, 0.0]),
            ],
            f"treated the {'revolute' if joint == 'R' else 'prismatic'} joint as "
            f"{'prismatic' if joint == 'R' else 'revolute'}: a revolute joint adds θ̇·ẑ to ω, a prismatic one "
            "ḋ·ẑ to v": list(reference_propagation_step(R, P, w, v, qd, other)),
        }
        check_close([flat[:3], flat[3:]], [w1, v1], name=label, atol=run.atol, hints=hints)


# --- part 3: joint rates for a tip velocity -----------------------------------------------------------
def arm3_case(rng: Random, singular_ok: bool = False) -> Any:
    while True:
        q = [rng.uniform(-pi, pi) for _ in range(3)]
        lengths = [rng.uniform(0.2, 1.0) for _ in range(3)]
        if singular_ok or abs(sin(q[1])) > 0.25:
            return q, lengths


@function_checker("joint_rates", atol=1e-7)
def check_joint_rates_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(q, lengths, xdot)`` must return q̇ (rad/s) of a planar 3R arm with J·q̇ = ẋ, ẋ = (vx, vy, ωz) of the tip in
    the base frame. Cases are (q, lengths, xdot)."""

    def make(rng):
        q, lengths = arm3_case(rng)
        return q, lengths, [rng.uniform(-1.0, 1.0) for _ in range(3)]

    for q, lengths, xdot in run.each(make):
        label = f"{run.name}(q={fmt_list(q)}, lengths={fmt_list(lengths)}, xdot={fmt_list(xdot)})"
        got = vector(
            call(fn, arrays(q, lengths, xdot), run.name),
            3,
            label,
        )
        J = reference_jacobian_planar3(q, lengths)
        qd = solve3(J, xdot)
        phi = q[0] + q[1] + q[2]
        c, s = cos(phi), sin(phi)
        hints = {
            "looks like degrees per second: the joint rates are wanted in rad/s": [degrees(x) for x in qd],
            "transposed J: solve J·q̇ = ẋ, not Jᵀ·q̇ = ẋ": solve3(transpose(J, 3), xdot),
            "J·ẋ is not the joint rates: solve J·q̇ = ẋ (q̇ = J⁻¹·ẋ)": matvec(J, xdot, 3),
            "[ω; v] row order: ẋ is (vx, vy, ωz), so J's rows must be (ẋ, ẏ, ω) in that order, not ω first": solve3(
                J[6:] + J[:6], xdot
            ),
            "wrong frame: ẋ is given in the base frame {0}; this treats (vx, vy) as tip-frame components": solve3(
                J, [c * xdot[0] - s * xdot[1], s * xdot[0] + c * xdot[1], xdot[2]]
            ),
            "the joint angles are relative: link k points along q1 + … + qk, not qk": solve3(
                jacobian_planar([q[0], q[1] - q[0], q[2] - q[1]], lengths) + [1.0, 1.0, 1.0], xdot
            ),
        }
        check_close(got, qd, name=label, atol=run.atol, rtol=1e-7, hints=hints)


# --- part 4: a singular configuration and its lost direction -----------------------------------------
@function_checker("singular_pose", atol=1e-7)
def check_singular_pose_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(q, lengths)`` must return (q_s, u) for a planar 3R arm (J rows vx, vy, ωz): q_s the singular pose
    nearest to q that changes θ2 only, and u a unit vector with uᵀJ(q_s) = 0 (either sign). Cases are (q, lengths)."""
    for q, lengths in run.each(lambda rng: arm3_case(rng, singular_ok=True)):
        label = f"{run.name}(q={fmt_list(q)}, lengths={fmt_list(lengths)})"
        qs_got, u_got = pair(call(fn, arrays(q, lengths), run.name), label, "(q_s, u)")
        qs = vector(qs_got, 3, f"{label}: q_s")
        u = vector(u_got, 3, f"{label}: u")
        qs_ref, u_ref = reference_singular_pose(q, lengths)
        t2 = qs_ref[1]
        if abs(abs(qs[1]) - 180.0) < 1e-6:
            fail(f"{label}: q_s", "looks like degrees: the singular θ2 is π radians, not 180")
        only = "det J = l1·l2·sin θ2 depends on θ2 only; keep θ1 and θ3 and move θ2"
        hints = {
            "the other singular value of θ2 is nearer: sin θ2 = 0 at θ2 = 0 and at θ2 = π; take the one closest to "
            "q's θ2": [q[0], t2 + pi, q[2]],
            "q_s is q itself: move θ2 to where det J = l1·l2·sin θ2 = 0": list(q),
            f"moved θ1 instead of θ2: {only}": [0.0, q[1], q[2]],
            f"moved θ3 instead of θ2: {only}": [q[0], q[1], 0.0],
        }
        check_close(qs, qs_ref, name=f"{label}: q_s", atol=run.atol, angle=True, hints=hints)
        length = norm(u)
        if length < 1e-9:
            fail(f"{label}: u", "is the zero vector; the lost direction must have length 1")
        J = reference_jacobian_planar3(qs_ref, lengths)
        uJ = [sum(u[r] * J[3 * r + c] for r in range(3)) for c in range(3)]
        if max(abs(x) for x in uJ) <= run.atol * 10 * length:
            if abs(length - 1.0) > 1e-6:
                fail(
                    f"{label}: u", f"right direction, but not a unit vector (length {fmt(length)}): divide by its norm"
                )
            continue
        unit = scale(1.0 / length, u)
        null = right_null(J)
        if abs(abs(sum(x * y for x, y in zip(unit, null))) - 1.0) < 1e-6:
            fail(
                f"{label}: u",
                "transposed: this is the joint motion that moves nothing (J·q̇ = 0, the null space of J); the "
                "lost task direction satisfies uᵀJ = 0 (the null space of Jᵀ)",
            )
        at_q = left_null_or_none(reference_jacobian_planar3(q, lengths))
        if at_q is not None and abs(abs(sum(x * y for x, y in zip(unit, at_q))) - 1.0) < 1e-6:
            fail(f"{label}: u", "this is computed at q, not at the singular pose q_s")
        fail(
            f"{label}: u",
            f"uᵀJ(q_s) = {fmt_list(uJ)} ≠ 0: u is not a direction the arm has lost (expected ±{fmt_list(u_ref)})",
        )


def left_null_or_none(J: Any) -> Any:
    """The smallest-|uᵀJ| unit direction of a flat 3×3 J if it is (nearly) singular, else None."""
    return left_null(J) if abs(det3(J)) < 1e-6 else None


# --- part 5: a Jacobian's frame change -----------------------------------------------------------------
def frame_case(rng: Random) -> Any:
    n = rng.randint(2, 7)
    R = random_rotation(rng)
    T = (
        R[0:3]
        + [rng.uniform(-1.0, 1.0)]
        + R[3:6]
        + [rng.uniform(-1.0, 1.0)]
        + R[6:9]
        + [rng.uniform(-1.0, 1.0)]
        + [0.0, 0.0, 0.0, 1.0]
    )
    return [rng.uniform(-1.0, 1.0) for _ in range(6 * n)], T


@function_checker("jacobian_in_base", atol=1e-9)
def check_frame_change_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(J_tool, T)`` must return ⁰J = diag(R, R)·ᵀJ (6×n) for the tool-frame Jacobian ᵀJ (6×n, rows v then ω)
    and the tool's pose T = ⁰T_T (4×4, R its rotation). Cases are (J flat 6×n, T flat 4×4)."""
    for J, T in run.each(frame_case):
        cols = len(J) // 6
        label = f"{run.name}(J_tool of shape (6, {cols}), T with p = ({fmt(T[3])}, {fmt(T[7])}, {fmt(T[11])}))"
        got = call(fn, (nested(J, 6, cols), nested(T, 4, 4)), run.name)
        R = [T[0], T[1], T[2], T[4], T[5], T[6], T[8], T[9], T[10]]
        p = [T[3], T[7], T[11]]
        ref = reference_frame_change(J, R, cols)
        wrong_way = reference_frame_change(J, transpose(R, 3), cols)
        v_only = ref[: 3 * cols] + J[3 * cols :]
        w_only = J[: 3 * cols] + ref[3 * cols :]
        moved = list(ref)  # the 6×6 motion map with the −R·S(p)… block: a reference-point change on top
        for c in range(cols):
            w = [ref[(3 + k) * cols + c] for k in range(3)]
            dv = cross(p, w)
            for k in range(3):
                moved[k * cols + c] -= dv[k]
        hints = {
            "rotated the wrong way: R = ⁰R_T takes the tool's components to the base's; diag(Rᵀ, Rᵀ) goes from the "
            "base to the tool": wrong_way,
            "[ω; v] row order: the rows are (v; ω), translation first; keep that order": ref[3 * cols :]
            + ref[: 3 * cols],
            "only the translational rows were rotated: ω is a vector too, rotate both halves": v_only,
            "only the rotational rows were rotated: v is a vector too, rotate both halves": w_only,
            "moved the reference point as well: ⁰J = diag(R, R)·ᵀJ only re-expresses the tool point's velocity in "
            "other axes (no p × ω term)": moved,
        }
        check_close(
            got,
            [ref[r * cols : (r + 1) * cols] for r in range(6)],
            name=label,
            atol=run.atol,
            hints={k: [v[r * cols : (r + 1) * cols] for r in range(6)] for k, v in hints.items()},
        )


freeze(__name__)
