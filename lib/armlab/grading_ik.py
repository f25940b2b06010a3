"""Checkers for the inverse-kinematics homework (hw03): angles, roots, solution sets, choices.

Same rules as :mod:`armlab.grading` (read its docstring): every failure is an ``AssertionError``
that names the kind of mistake; reference values are computed here with plain Python arithmetic,
never with ``armlab.ik`` or numpy at grading time; the builtins and math functions used are the ones
:mod:`armlab.grading` captured before any student code ran (the autograder imports it first), and
atan2 is computed here from them, so patching ``math.atan2`` or ``numpy.arctan2`` changes nothing.

>>> from armlab.grading_ik import check_angles
>>> check_angles([0.5, -2.0], [-2.0, 0.5], name="theta3", as_set=True)      # either order
>>> check_angles(2.0 + 3.141592653589793, 2.0, name="theta1")
Traceback (most recent call last):
    ...
AssertionError: theta1: off by π (180°): check the atan2 argument order and signs (atan2(y, x), y first), or which root you took

Checkers of student functions call them on fixed cases and on seeded random cases:
:func:`check_theta1_function` (textbook eq. (3.38)), :func:`check_theta3_function` ((3.40)–(3.42)),
:func:`check_2r_function` (planar 2R, law of cosines), :func:`check_motion_cost_function` and
:func:`check_choose_function` (paper 003 eq. (12)), :func:`check_in_range_function` and
:func:`check_count_function` (PUMA560 solutions within Table 3.2's ranges).
"""
from __future__ import annotations

import sys as _sys

from . import grading as _g
# shared plumbing, and the builtins and math functions armlab.grading captured before student code ran
from .grading import (
    _abs, _all, _any, _AssertionError, _bool, _call, _check_finite, _cos, _degrees, _dict, _enumerate,
    _Exception, _fail, _float, _fmt, _int, _isinstance, _isnan, _len, _list, _max, _min, _pi, _radians,
    _Random, _range, _read, _sin, _sorted, _sqrt, _sum, _tuple, _type, _zip,
)

_TAU = 2.0 * _pi

__all__ = [
    "check_angles", "check_theta1_function", "check_theta3_function", "check_2r_function",
    "check_motion_cost_function", "check_choose_function", "check_in_range_function",
    "check_count_function", "reference_theta1", "reference_theta3", "reference_2r",
    "reference_motion_cost", "reference_choice", "reference_in_range", "reference_puma_solutions",
    "reference_puma_count", "random_puma_pose", "PUMA_RANGES_DEG",
]

#: Table 3.2 joint ranges (degrees).
PUMA_RANGES_DEG = ((-160.0, 160.0), (-225.0, 45.0), (-45.0, 225.0), (-110.0, 170.0), (-100.0, 100.0),
                   (-266.0, 266.0))
_PUMA = {"a2": 0.4318, "a3": 0.02032, "d2": 0.14909, "d4": 0.43307}


# --- plain-math primitives ---------------------------------------------------------------------
def _atan(x):
    """arctan with plain arithmetic: two half-angle reductions, then the Taylor series (|err| < 1e-16)."""
    if x < 0.0:
        return -_atan(-x)
    if x > 1.0:
        return 0.5 * _pi - _atan(1.0 / x)
    for _ in _range(2):  # atan(x) = 2·atan(x / (1 + √(1 + x²)))
        x = x / (1.0 + _sqrt(1.0 + x * x))
    x2, term, total = x * x, x, x
    for k in _range(1, 30):
        term *= -x2
        total += term / (2 * k + 1)
    return 4.0 * total


def _atan2(y, x):
    if x > 0.0:
        return _atan(y / x)
    if x < 0.0:
        return _atan(y / x) + (_pi if y >= 0.0 else -_pi)
    if y > 0.0:
        return 0.5 * _pi
    if y < 0.0:
        return -0.5 * _pi
    return 0.0


def _wrap(x):
    """x wrapped into (−π, π]."""
    r = (x + _pi) % _TAU - _pi
    return r + _TAU if r <= -_pi else r


def _fmt_list(xs):
    return "[" + ", ".join(_fmt(x) for x in xs) + "]"


def _flat_angles(answer, name):
    shape, flat = _read(answer, name)
    if _len(shape) > 1:
        _fail(name, f"expected a number or a list of numbers, got shape {shape}")
    _check_finite(flat, name)
    return shape, flat


def _same_angle(a, b, tol):
    return _abs(_wrap(a - b)) <= tol


def _match_as_set(a, e, tol):
    """True if the angles a and e are equal as multisets modulo 2π."""
    if _len(a) != _len(e):
        return False
    used = [False] * _len(e)
    for x in a:
        for j, y in _enumerate(e):
            if not used[j] and _same_angle(x, y, tol):
                used[j] = True
                break
        else:
            return False
    return True


# --- angles ------------------------------------------------------------------------------------
def check_angles(answer, expected, name="angle", as_set=False, atol=1e-6, hints=None):
    """Assert angle(s) ``answer`` = ``expected`` modulo 2π (radians), explaining the usual misses.

    A number, or a list of roots; ``as_set=True`` accepts the roots in any order. ``hints`` maps a
    message to a known wrong answer (e.g. the result with the atan2 arguments swapped).
    Recognised: degrees for radians, off by π, sign flipped, the roots swapped (when order matters),
    the same root twice, a root missing, and a root off by π.
    """
    ashape, a = _flat_angles(answer, name)
    eshape, e = _flat_angles(expected, f"{name} (expected)")
    tol = atol + 1e-12
    if eshape == () and ashape != ():
        if _len(a) == 1:
            ashape = ()
        else:
            _fail(name, f"expected one angle, got {_len(a)} values {_fmt_list(a)}")
    if eshape != () and ashape == ():
        _fail(name, f"expected a list of {_len(e)} angle(s), got one number {_fmt(a[0])}")
    if _len(a) == _len(e):
        ok = _match_as_set(a, e, tol) if as_set else _all(_same_angle(x, y, tol) for x, y in _zip(a, e))
        if ok:
            return
    if hints:
        for message, wrong in hints.items():
            try:
                _, w = _read(wrong, "hint")
            except _AssertionError:
                continue
            if _len(w) == _len(a) and _len(w) and _match_as_set(a, w, tol) and not _match_as_set(w, e, tol):
                _fail(name, message)
    if _len(a) != _len(e):
        if _len(e) == 0:
            _fail(name, f"expected no solution (an empty list: the target cannot be reached), got {_fmt_list(a)}")
        if _len(a) == 0:
            _fail(name, f"got no solution, expected {_len(e)}: the target is reachable")
        _fail(name, f"expected {_len(e)} root(s), got {_len(a)}: {_fmt_list(a)} (expected {_fmt_list(e)} "
                    "in some order)")
    if _match_as_set(a, e, tol):
        _fail(name, f"the roots are swapped: got {_fmt_list(a)}, expected {_fmt_list(e)} (the + root of the "
                    "square root first)")
    if _len(a) > 1 and _all(_same_angle(x, a[0], tol) for x in a) and not _all(_same_angle(y, e[0], tol) for y in e):
        _fail(name, f"all roots are the same angle {_fmt(a[0])}: the ± of the square root must give two "
                    "different roots")
    if _match_as_set([_radians(x) for x in a], e, tol * 10):
        _fail(name, "looks like degrees were used where radians were expected "
                    f"(got {_fmt_list(a)}, expected {_fmt_list(e)})")
    if _match_as_set([x + _pi for x in a], e, tol):
        _fail(name, "off by π (180°): check the atan2 argument order and signs (atan2(y, x), y first), or "
                    "which root you took")
    if _match_as_set([-x for x in a], e, tol):
        _fail(name, "sign flipped: the answer is −1 times the expected angle(s)")
    right = [x for x in a if _any(_same_angle(x, y, tol) for y in e)]
    if right and _len(a) > 1:
        wrong = [x for x in a if x not in right]
        _fail(name, f"{_len(right)} of {_len(a)} roots are right; {_fmt_list(wrong)} is not one of the expected "
                    f"{_fmt_list(e)}")
    _fail(name, f"got {_fmt_list(a)} (rad), expected {_fmt_list(e)} (compared modulo 2π, tolerance {atol:g})")


# --- reference formulas ------------------------------------------------------------------------
def reference_theta1(px, py, d2):
    """Both roots of textbook eq. (3.38), [+ root, − root]; [] when px² + py² < d2²."""
    D = px * px + py * py - d2 * d2
    if D < 0.0:
        return []
    s = _sqrt(D)
    phi = _atan2(py, px)
    return [phi - _atan2(d2, s), phi - _atan2(d2, -s)]


def reference_theta3(px, py, pz, a2, a3, d2, d4):
    """Both roots of eqs. (3.40)–(3.42), [+ root, − root]; [] when a3² + d4² − k² < 0."""
    k = (px * px + py * py + pz * pz - a2 * a2 - a3 * a3 - d2 * d2 - d4 * d4) / (2.0 * a2)
    D = a3 * a3 + d4 * d4 - k * k
    if D < 0.0:
        return []
    s = _sqrt(D)
    g = _atan2(a3, d4)
    return [g - _atan2(k, s), g - _atan2(k, -s)]


def reference_2r(x, y, l1, l2):
    """Planar 2R solutions [[θ1, θ2], ...] (elbow with θ2 ≥ 0 first); [] when out of reach."""
    D = (x * x + y * y - l1 * l1 - l2 * l2) / (2.0 * l1 * l2)
    if _abs(D) > 1.0:
        return []
    s = _sqrt(1.0 - D * D)
    out = []
    for t2 in (_atan2(s, D), _atan2(-s, D)):
        out.append([_atan2(y, x) - _atan2(l2 * _sin(t2), l1 + l2 * _cos(t2)), t2])
    return out


def _fk2r(q, l1, l2):
    return (l1 * _cos(q[0]) + l2 * _cos(q[0] + q[1]), l1 * _sin(q[0]) + l2 * _sin(q[0] + q[1]))


def reference_motion_cost(q, q_current, k):
    """J = Σ kᵢ |wrap(qᵢ − q_currentᵢ)|, paper 003 eq. (12), each Δθ the short way round."""
    return _sum(ki * _abs(_wrap(a - b)) for a, b, ki in _zip(q, q_current, k))


def reference_choice(solutions, q_current, k):
    """Index of the least-J row of ``solutions``."""
    costs = [reference_motion_cost(q, q_current, k) for q in solutions]
    return _min(_range(_len(costs)), key=lambda i: costs[i])


def reference_in_range(theta, lo, hi):
    """True if some θ + 2πm lies in [lo, hi] (all in radians)."""
    x = lo + (theta - lo) % _TAU  # the equivalent of θ in [lo, lo + 2π)
    return x <= hi + 1e-12 or _abs(x - _TAU - lo) <= 1e-12


def _puma_rows(T, a2, a3, d2, d4):
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
        c1, s1 = _cos(t1), _sin(t1)
        u = c1 * px + s1 * py
        for t3 in t3s:
            c3, s3 = _cos(t3), _sin(t3)
            t23 = _atan2(-(a3 + a2 * c3) * pz + u * (a2 * s3 - d4), (-d4 + a2 * s3) * pz + u * (a2 * c3 + a3))
            c23, s23 = _cos(t23), _sin(t23)
            t4 = _atan2(-ax * s1 + ay * c1, -ax * c1 * c23 - ay * s1 * c23 + az * s23)
            c4, s4 = _cos(t4), _sin(t4)
            s5 = -(ax * (c1 * c23 * c4 + s1 * s4) + ay * (s1 * c23 * c4 - c1 * s4) - az * s23 * c4)
            c5 = -ax * c1 * s23 - ay * s1 * s23 - az * c23
            t5 = _atan2(s5, c5)
            s6 = -nx * (c1 * c23 * s4 - s1 * c4) - ny * (s1 * c23 * s4 + c1 * c4) + nz * s23 * s4
            c6 = (nx * ((c1 * c23 * c4 + s1 * s4) * c5 - c1 * s23 * s5)
                  + ny * ((s1 * c23 * c4 - c1 * s4) * c5 - s1 * s23 * s5) - nz * (s23 * c4 * c5 + c23 * s5))
            t6 = _atan2(s6, c6)
            out.append([t1, t23 - t3, t3, t4, t5, t6])
            out.append([t1, t23 - t3, t3, t4 + _pi, -t5, t6 + _pi])
    return out


def reference_puma_solutions(T, lengths=None):
    """The 8 PUMA560 solutions of T, angles wrapped to (−π, π] (plain math; T nested or array)."""
    _, flat = _read(T, "T")
    L = _dict(_PUMA, **(lengths or {}))
    rows = [flat[0:4], flat[4:8], flat[8:12]]
    return [[_wrap(x) for x in q] for q in _puma_rows(rows, L["a2"], L["a3"], L["d2"], L["d4"])]


def reference_puma_count(T, ranges_deg=PUMA_RANGES_DEG, shift=True):
    """How many PUMA560 solutions of T lie in the joint ranges (±2π shifts allowed when ``shift``)."""
    lims = [(_radians(lo), _radians(hi)) for lo, hi in ranges_deg]
    count = 0
    for q in reference_puma_solutions(T):
        if shift:
            ok = _all(reference_in_range(x, lo, hi) for x, (lo, hi) in _zip(q, lims))
        else:
            ok = _all(lo <= x <= hi for x, (lo, hi) in _zip(q, lims))
        count += ok
    return count


_PUMA_TABLE = {"convention": "modified", "links": [
    dict(alpha=0.0, a=0.0, d=0.0), dict(alpha=-0.5 * _pi, a=0.0, d=_PUMA["d2"]),
    dict(alpha=0.0, a=_PUMA["a2"], d=0.0), dict(alpha=-0.5 * _pi, a=_PUMA["a3"], d=_PUMA["d4"]),
    dict(alpha=0.5 * _pi, a=0.0, d=0.0), dict(alpha=-0.5 * _pi, a=0.0, d=0.0)]}


def random_puma_pose(rng):
    """A PUMA560 pose (nested 4×4) = fkine of random joint values, away from the wrist singularity
    and the workspace boundary, so that its 8 solutions are distinct. ``rng``: a random.Random."""
    while True:
        q = [rng.uniform(-_pi, _pi) for _ in _range(6)]
        if _abs(_sin(q[4])) < 0.2:
            continue
        T = _g.reference_fkine(_PUMA_TABLE, q)
        px, py, pz = T[0][3], T[1][3], T[2][3]
        a2, a3, d2, d4 = _PUMA["a2"], _PUMA["a3"], _PUMA["d2"], _PUMA["d4"]
        k = (px * px + py * py + pz * pz - a2 * a2 - a3 * a3 - d2 * d2 - d4 * d4) / (2.0 * a2)
        if a3 * a3 + d4 * d4 - k * k < 0.01 or px * px + py * py - d2 * d2 < 0.01:
            continue
        return T


# --- checkers of student functions ---------------------------------------------------------------
def _cases(cases, seed, n, make):
    out = [_tuple(c) for c in (cases or ())]
    if seed is not None:
        rng = _Random(seed)
        out += [make(rng) for _ in _range(n)]
    return out


def _as_roots(value, name):
    if value is None:
        _fail(name, "is None (did the function forget to `return` its result?)")
    shape, flat = _read(value, name)
    if _len(shape) > 1:
        _fail(name, f"expected a list of angles, got shape {shape}")
    return flat


def check_theta1_function(fn, cases=None, seed=None, n=20, name="theta1", atol=1e-6):
    """``fn(px, py, d2)`` must return both roots of eq. (3.38) (any order), [] when unreachable."""
    def make(rng):
        d2 = rng.uniform(0.05, 0.3)
        r = rng.uniform(0.0, 0.9) if rng.random() < 0.15 else rng.uniform(d2 * 1.05, 0.9)
        t = rng.uniform(-_pi, _pi)
        return (r * _cos(t), r * _sin(t), d2)

    for px, py, d2 in _cases(cases, seed, n, make):
        label = f"{name}(px={_fmt(px)}, py={_fmt(py)}, d2={_fmt(d2)})"
        got = _as_roots(_call(fn, (px, py, d2), name), label)
        want = reference_theta1(px, py, d2)
        hints = {}
        D = px * px + py * py - d2 * d2
        if D >= 0.0:
            s = _sqrt(D)
            hints["the arguments of atan2(py, px) are swapped: atan2 takes (y, x), so Φ = atan2(py, px)"] = \
                [_atan2(px, py) - _atan2(d2, s), _atan2(px, py) - _atan2(d2, -s)]
            hints["the arguments of atan2(d2, ±√(px² + py² − d2²)) are swapped: it is atan2(d2, ±√…), "
                  "sin(Φ − θ1) = d2/ρ"] = [_atan2(py, px) - _atan2(s, d2), _atan2(py, px) - _atan2(-s, d2)]
            hints["θ1 = Φ − atan2(…), not Φ + atan2(…) (eq. (3.38)); as it stands both roots are off by π"] = \
                [_atan2(py, px) + _atan2(d2, s), _atan2(py, px) + _atan2(d2, -s)]
            hints["the square root is missing: atan2(d2, ±√(px² + py² − d2²))"] = \
                [_atan2(py, px) - _atan2(d2, D), _atan2(py, px) - _atan2(d2, -D)]
        check_angles(got, want, name=label, as_set=True, atol=atol, hints=hints)


def check_theta3_function(fn, cases=None, seed=None, n=20, name="theta3", atol=1e-6):
    """``fn(px, py, pz, a2, a3, d2, d4)`` must return both roots of eq. (3.42) (any order), [] when
    a3² + d4² − k² < 0."""
    def make(rng):
        a2, a3, d2, d4 = (rng.uniform(0.3, 0.5), rng.uniform(0.0, 0.05), rng.uniform(0.05, 0.2),
                          rng.uniform(0.3, 0.5))
        far = a2 + _sqrt(a3 * a3 + d4 * d4)
        r = rng.uniform(far * 1.02, far * 1.3) if rng.random() < 0.15 else rng.uniform(0.3 * far, 0.98 * far)
        rho = _sqrt(r * r + d2 * d2)  # wrist-centre distance, including the shoulder offset
        t, e = rng.uniform(-_pi, _pi), rng.uniform(-1.2, 1.2)
        return (rho * _cos(e) * _cos(t), rho * _cos(e) * _sin(t), rho * _sin(e), a2, a3, d2, d4)

    for case in _cases(cases, seed, n, make):
        px, py, pz, a2, a3, d2, d4 = case
        label = f"{name}({', '.join(_fmt(v) for v in case)})"
        got = _as_roots(_call(fn, case, name), label)
        want = reference_theta3(*case)
        hints = {}
        k = (px * px + py * py + pz * pz - a2 * a2 - a3 * a3 - d2 * d2 - d4 * d4) / (2.0 * a2)
        D = a3 * a3 + d4 * d4 - k * k
        if D >= 0.0:
            s = _sqrt(D)
            hints["atan2(a3, d4) has its arguments swapped (eq. (3.42): atan2(a3, d4) − atan2(k, ±√(a3² + d4² − k²)))"] = \
                [_atan2(d4, a3) - _atan2(k, s), _atan2(d4, a3) - _atan2(k, -s)]
            hints["atan2(k, ±√…) has its arguments swapped (eq. (3.42))"] = \
                [_atan2(a3, d4) - _atan2(s, k), _atan2(a3, d4) - _atan2(-s, k)]
        k1 = 2.0 * k
        D1 = a3 * a3 + d4 * d4 - k1 * k1
        if D1 >= 0.0:
            s1 = _sqrt(D1)
            hints["k is divided by a2 instead of 2·a2 (eq. (3.41))"] = \
                [_atan2(a3, d4) - _atan2(k1, s1), _atan2(a3, d4) - _atan2(k1, -s1)]
        check_angles(got, want, name=label, as_set=True, atol=atol, hints=hints)


def _as_solution_rows(value, n, name):
    if value is None:
        _fail(name, "is None (did the function forget to `return` its result?)")
    shape, flat = _read(value, name)
    if shape == (0,):
        return []
    if _len(shape) != 2 or shape[1] != n:
        extra = ""
        if shape == (n,):
            extra = f" (one solution as a flat array; return all of them as rows, shape (k, {n}))"
        elif _len(shape) == 2 and shape[0] == 0:
            extra = f" (for no solution return an empty array of shape (0, {n}), e.g. np.zeros((0, {n})))"
        _fail(name, f"expected an array of shape (k, {n}), one solution per row, got shape {shape}{extra}")
    if _any(_isnan(x) for x in flat):
        _fail(name, "contains NaN: test |cos θ2| ≤ 1 before taking the square root (or arccos), and return an "
                    f"empty array of shape (0, {n}) when the target is out of reach")
    _check_finite(flat, name)
    return [flat[i * n:(i + 1) * n] for i in _range(shape[0])]


def check_2r_function(fn, cases=None, seed=None, n=20, name="solve_2r", atol=1e-6):
    """``fn(x, y, l1, l2)`` must return both planar 2R solutions as rows [θ1, θ2] (any order), an
    array of shape (0, 2) when (x, y) is out of reach; at the boundary one or two (equal) rows."""
    def make(rng):
        l1, l2 = rng.uniform(0.3, 1.2), rng.uniform(0.3, 1.2)
        lo, hi = _abs(l1 - l2), l1 + l2
        u = rng.random()
        if u < 0.1:
            r = rng.uniform(hi * 1.01, hi * 1.5)
        elif u < 0.15 and lo > 0.05:
            r = rng.uniform(0.0, lo * 0.95)
        else:
            r = rng.uniform(lo + 0.02 * hi, 0.98 * hi)
        t = rng.uniform(-_pi, _pi)
        return (r * _cos(t), r * _sin(t), l1, l2)

    for x, y, l1, l2 in _cases(cases, seed, n, make):
        label = f"{name}({_fmt(x)}, {_fmt(y)}, {_fmt(l1)}, {_fmt(l2)})"
        rows = _as_solution_rows(_call(fn, (x, y, l1, l2), name), 2, label)
        want = reference_2r(x, y, l1, l2)
        if not want:
            if rows:
                _fail(label, f"the target is out of reach (distance {_fmt(_sqrt(x * x + y * y))}, reach "
                             f"[{_fmt(_abs(l1 - l2))}, {_fmt(l1 + l2)}]), so the result must be empty (shape (0, 2)); "
                             f"got {_len(rows)} row(s)")
            continue
        if not rows:
            _fail(label, "got no solution, but the target is reachable")
        for i, q in _enumerate(rows):
            hx, hy = _fk2r(q, l1, l2)
            if _abs(hx - x) > 1e-6 or _abs(hy - y) > 1e-6:
                if _abs(hx + x) <= 1e-6 and _abs(hy + y) <= 1e-6:
                    _fail(label, f"row {i} puts the hand at ({_fmt(hx)}, {_fmt(hy)}), the target mirrored through "
                                 "the base: θ1 is off by π. arctan(y/x) loses the quadrant; use atan2(y, x)")
                rx, ry = _fk2r([_radians(v) for v in q], l1, l2)
                if _abs(rx - x) <= 1e-6 and _abs(ry - y) <= 1e-6:
                    _fail(label, f"row {i} = {_fmt_list(q)} looks like degrees; return radians")
                _fail(label, f"row {i} = {_fmt_list(q)} puts the hand at ({_fmt(hx)}, {_fmt(hy)}), not at the target "
                             f"({_fmt(x)}, {_fmt(y)})")
        distinct = _len(want) == 2 and not _all(_same_angle(a, b, 1e-9) for a, b in _zip(want[0], want[1]))
        if distinct and _len(rows) == 1:
            _fail(label, "only one solution returned; the other elbow (θ2 with the opposite sign) reaches the "
                         "target too")
        if distinct and _len(rows) == 2 and _all(_same_angle(a, b, 1e-9) for a, b in _zip(rows[0], rows[1])):
            _fail(label, "the same solution twice: elbow up and elbow down have θ2 of opposite signs")
        if _len(rows) > 2:
            _fail(label, f"{_len(rows)} rows; a planar 2R arm has at most 2 solutions")
        got = [x for q in rows for x in q]
        if _len(rows) == 2 and distinct:
            ok = ((_all(_same_angle(a, b, atol) for a, b in _zip(rows[0], want[0]))
                   and _all(_same_angle(a, b, atol) for a, b in _zip(rows[1], want[1])))
                  or (_all(_same_angle(a, b, atol) for a, b in _zip(rows[0], want[1]))
                      and _all(_same_angle(a, b, atol) for a, b in _zip(rows[1], want[0]))))
            if not ok:
                _fail(label, f"got {_fmt_list(got)}, expected the rows {want} (any order)")


def check_motion_cost_function(fn, cases=None, seed=None, n=20, name="motion_cost", atol=1e-9):
    """``fn(q, q_current, k)`` must return J = Σ kᵢ|Δθᵢ| with each Δθ wrapped to (−π, π]."""
    def make(rng):
        m = rng.choice((3, 6))
        return ([rng.uniform(-_pi, _pi) for _ in _range(m)], [rng.uniform(-_pi, _pi) for _ in _range(m)],
                [_float(rng.randint(1, 4)) for _ in _range(m)])

    for q, qc, k in _cases(cases, seed, n, make):
        label = f"{name}(q={_fmt_list(q)}, q_current={_fmt_list(qc)}, k={_fmt_list(k)})"
        got = _call(fn, (_list(q), _list(qc), _list(k)), name)
        shape, flat = _read(got, label)
        if shape != ():
            _fail(label, f"expected one number J, got shape {shape} (sum the weighted terms)")
        want = reference_motion_cost(q, qc, k)
        hints = {
            "Δθ is not wrapped: a joint at 170° going to −170° moves 20°, not 340° (wrap Δθ to (−π, π])":
                _sum(ki * _abs(a - b) for a, b, ki in _zip(q, qc, k)),
            "the weights k are missing (J = Σ kᵢ|Δθᵢ|)": reference_motion_cost(q, qc, [1.0] * _len(q)),
            "|Δθ| is missing: J adds absolute values": _sum(ki * _wrap(a - b) for a, b, ki in _zip(q, qc, k)),
        }
        _g.check_close(flat[0], want, name=label, atol=atol, hints=hints)


def check_choose_function(fn, cases=None, seed=None, n=20, name="choose", atol=1e-9):
    """``fn(solutions, q_current, k)`` must return the row of ``solutions`` with the least J."""
    def make(rng):
        while True:
            m, rows = rng.choice((2, 3, 6)), rng.randint(2, 8)
            sols = [[rng.uniform(-_pi, _pi) for _ in _range(m)] for _ in _range(rows)]
            qc = [rng.uniform(-_pi, _pi) for _ in _range(m)]
            k = [_float(rng.randint(1, 4)) for _ in _range(m)]
            costs = _sorted(reference_motion_cost(s, qc, k) for s in sols)
            if costs[1] - costs[0] > 1e-3:  # no ties
                return (sols, qc, k)

    for sols, qc, k in _cases(cases, seed, n, make):
        label = f"{name}(<{_len(sols)} solutions>, q_current={_fmt_list(qc)}, k={_fmt_list(k)})"
        got = _call(fn, ([_list(s) for s in sols], _list(qc), _list(k)), name)
        if _isinstance(got, _int) and not _isinstance(got, _bool):
            _fail(label, f"returned the index {got}; return the chosen row itself (solutions[i])")
        shape, flat = _read(got, label)
        if shape != (_len(qc),):
            _fail(label, f"expected one solution (a row of {_len(qc)} angles), got shape {shape}")
        best = reference_choice(sols, qc, k)
        if _all(_abs(a - b) <= atol for a, b in _zip(flat, sols[best])):
            continue
        for i, s in _enumerate(sols):
            if _all(_abs(a - b) <= atol for a, b in _zip(flat, s)):
                unwrapped = [_sum(ki * _abs(a - b) for a, b, ki in _zip(r, qc, k)) for r in sols]
                unweighted = [reference_motion_cost(r, qc, [1.0] * _len(qc)) for r in sols]
                worst = [reference_motion_cost(r, qc, k) for r in sols]
                if i == _min(_range(_len(sols)), key=lambda j: unwrapped[j]):
                    _fail(label, "chose by J without wrapping Δθ; the short way round is shorter")
                if i == _min(_range(_len(sols)), key=lambda j: unweighted[j]):
                    _fail(label, "chose the nearest solution with equal weights; J = Σ kᵢ|Δθᵢ| uses the weights k")
                if i == _max(_range(_len(sols)), key=lambda j: worst[j]):
                    _fail(label, "chose the solution with the LARGEST J; take the least")
                _fail(label, f"chose row {i} (J = {_fmt(worst[i])}); row {best} has the least J = {_fmt(worst[best])}")
        _fail(label, f"returned {_fmt_list(flat)}, which is not one of the rows of `solutions`")


def check_in_range_function(fn, cases=None, name="in_range"):
    """``fn(theta, lo, hi)`` (radians) must say whether some θ + 2πm lies in [lo, hi]."""
    d = _radians
    default = [(d(-200.0), d(-225.0), d(45.0)), (d(200.0), d(-225.0), d(45.0)), (d(100.0), d(-225.0), d(45.0)),
               (d(170.0), d(-160.0), d(160.0)), (d(-170.0), d(-160.0), d(160.0)), (d(-100.0), d(-45.0), d(225.0)),
               (d(-135.0), d(-45.0), d(225.0)), (d(300.0), d(-266.0), d(266.0)), (d(-300.0), d(-266.0), d(266.0)),
               (d(0.0), d(-100.0), d(100.0)), (d(100.0), d(-100.0), d(100.0)), (d(460.0), d(-100.0), d(100.0)),
               (d(-620.0), d(-110.0), d(170.0))]
    for theta, lo, hi in (cases or default):
        label = f"{name}({_fmt(theta)}, {_fmt(lo)}, {_fmt(hi)})  [{_fmt(_degrees(theta))}° in " \
                f"{_fmt(_degrees(lo))}°…{_fmt(_degrees(hi))}°]"
        got = _call(fn, (theta, lo, hi), name)
        if got is None:
            _fail(label, "is None (did the function forget to `return` its result?)")
        try:
            got = _bool(got)
        except _Exception:  # e.g. a numpy array of several values
            _fail(label, f"expected True or False, got {_type(got).__name__}")
        want = reference_in_range(theta, lo, hi)
        if got != want:
            if want and not lo <= theta <= hi:
                _fail(label, f"expected True: θ {'+' if theta < lo else '−'} 360° = "
                             f"{_fmt(_degrees(theta + (_TAU if theta < lo else -_TAU)))}° is in the range "
                             "(the same joint position)")
            _fail(label, f"expected {want}")


def check_count_function(fn, poses=None, seed=None, n=6, name="count_valid"):
    """``fn(T)`` must return how many PUMA560 solutions of T lie in Table 3.2's ranges (±360° allowed)."""
    import numpy as _numpy_for_input_only  # the student function gets a numpy array, as in the notebook

    cases = [p for p in (poses or ())]
    if seed is not None:
        rng = _Random(seed)
        cases += [random_puma_pose(rng) for _ in _range(n)]
    for T in cases:
        _, flat = _read(T, "T")
        Tn = _numpy_for_input_only.array([flat[0:4], flat[4:8], flat[8:12], flat[12:16]], dtype=_float)
        p = ", ".join(_fmt(flat[i]) for i in (3, 7, 11))
        label = f"{name}(T with p = ({p}))"
        got = _call(fn, (Tn,), name)
        shape, v = _read(got, label)
        if shape != ():
            _fail(label, f"expected one integer, got shape {shape}")
        want = reference_puma_count(T)
        if v[0] == want:
            continue
        if v[0] == reference_puma_count(T, shift=False):
            _fail(label, f"got {_fmt(v[0])}, expected {want}: an angle outside a range may still be valid "
                         "360° away (θ2's range is −225°…45°, θ3's −45°…225°, θ6's ±266°)")
        if v[0] == 8:
            _fail(label, "got 8: that counts every solution; count only those within the joint ranges")
        _fail(label, f"got {_fmt(v[0])}, expected {want}")


# --- read-only module, as armlab.grading -------------------------------------------------------
_sys.modules[__name__].__class__ = _g._ReadOnlyModule
