"""PUMA560 closed-form inverse kinematics, textbook §3.2.3, eqs. (3.33)–(3.53).

Frames are the textbook's modified-DH frames (Table 3.2, ``armlab.models.puma560()``), with
{6} at the wrist centre. Steps, with (u = c1·px + s1·py):

* θ1, eq. (3.38): θ1 = atan2(py, px) − atan2(d2, ±√(px² + py² − d2²))        2 roots
* θ3, eqs. (3.40)–(3.42): a3·c3 − d4·s3 = k,
  k = (px² + py² + pz² − a2² − a3² − d2² − d4²) / (2·a2),
  θ3 = atan2(a3, d4) − atan2(k, ±√(a3² + d4² − k²))                            2 roots
* θ23, eq. (3.46): θ23 = atan2(−(a3 + a2c3)·pz − u·(d4 − a2s3), (a2s3 − d4)·pz + u·(a2c3 + a3)),
  θ2 = θ23 − θ3 (3.47)
* θ4, eq. (3.48): θ4 = atan2(−ax·s1 + ay·c1, −ax·c1c23 − ay·s1c23 + az·s23) (= atan2(s4s5, c4s5))
* θ5, eqs. (3.50)–(3.51), θ6, eqs. (3.52)–(3.53)
* the flipped wrist (θ4 + π, −θ5, θ6 + π) gives the same T06: 2·2·2 = 8 solutions.

Errata in the printed §3.2.3 (derived with sympy and checked numerically in tests/test_ik_puma.py):

* (3.39), second line: printed "−px = a3·s23 + d4·c23 + a2·s2"; it is the (3,4) element of (3.35),
  so it reads −pz = a3·s23 + d4·c23 + a2·s2 (compare pz in (3.30)/(3.32)).
* (3.45), second line: printed "−c1s23px − s1s23py − c23px + a2s3 = d4"; row 2 of ⁰₃T⁻¹ in
  (3.44) is (−c1s23, −s1s23, −c23, a2s3), so the term is −c23·pz.
* (3.32) (the FK the IK inverts) prints oy = s1[…] − c1(c4c6 − s4c5**c6**); it is s4c5**s6**
  (compare ox). Its brackets are also lost in the text (nx, ny, px, py: c1[c23(…) − s23s5c6] …).
* (3.46) and the s23/c23 expressions above it are right once the fraction bars are restored;
  (3.49)'s ⁰₄T⁻¹, (3.50) and (3.52)–(3.53) are right.
* The book says a wrist singularity "can be detected by both atan2 arguments of (3.48) being
  near zero": those arguments are s4·s5 and c4·s5, so this is exactly s5 ≈ 0.

* Table 3.2 prints θ3's range as −45°…225°, which is Fu–Gonzalez–Lee's θ3 (this θ3 + 180°);
  in the book's frames it is −225°…45° (docs/errata.md), and the check pose is inside it.

Branch labels (geometric, independent of frame choices):

* shoulder ``left`` / ``right``: facing from the base towards the wrist centre, the shoulder offset
  d2 (along y1) lies to the left / right. ``left`` ⇔ the + root of (3.38) ⇔ u > 0.
  (The book's check pose θ = (90°, 0, −90°, 0, 0, 0) is a left arm.)
* elbow ``up`` / ``down``: the elbow (origin of {3}) is above / below the line from the shoulder to
  the wrist centre, seen with the wrist in front. The cross product of the two works out to
  a2·(a3s3 + d4c3) = ±a2·√(a3² + d4² − k²) in the (x1, z1) plane, so ``up`` ⇔ the + root of
  (3.42) for a left arm and the − root for a right arm.
* wrist ``noflip`` / ``flip``: noflip is (3.48) as printed (s5 ≥ 0, θ5 ∈ [0, π]); flip is
  (θ4 + π, −θ5, θ6 + π).

roboticstoolbox-python's ``Puma560.ikine_a`` (Paul's frames; with d1 = 0 and these lengths it is
the same arm, q_rtb = q + (π, π, 0, 0, 0, 0)) agrees on l/r and u/d; its n/f are our flip/noflip.

Slots, in this fixed order: left-up-noflip, left-up-flip, left-down-noflip, left-down-flip,
right-up-noflip, right-up-flip, right-down-noflip, right-down-flip.
"""

from __future__ import annotations

import ast
import math
from typing import Any, Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike

from .._core.angles import PI, TAU
from .._core.codegen import Tracer, Var, make_function
from .._core.protocol import RobotLike
from .._core.validation import (
    check_joint_batch,
    check_joint_values,
    check_pose,
    check_poses,
    raise_if_not_rigid,
    rigid_error,
)
from ..kinematics.frames import strip_base_tool
from ..kinematics.structure import puma560_geometry
from .results import IKBatch, IKSolutions
from .solver import Solver, register

__all__ = ["PUMA_LABELS", "SINGULAR_TOL", "BOUNDARY_TOL", "PumaSolver", "closed_form", "compile_kernels", "FloatOps"]

#: Branch labels, in the fixed slot order of the single-pose and batched solvers.
PUMA_LABELS = (
    "left-up-noflip",
    "left-up-flip",
    "left-down-noflip",
    "left-down-flip",
    "right-up-noflip",
    "right-up-flip",
    "right-down-noflip",
    "right-down-flip",
)

# (θ1 root sign, θ3 root sign) of each elbow/shoulder pair, in slot order (see the module docstring)
_ARM_BRANCHES = ((1.0, 1.0), (1.0, -1.0), (-1.0, -1.0), (-1.0, 1.0))

#: |s5| below this is a wrist singularity (θ4 is then chosen, θ6 compensates).
SINGULAR_TOL = 1e-10
#: Tolerance on the radicands of (3.38) and (3.42), relative to the squared arm length
#: (|a2| + |a3| + |d2| + |d4|)²: a pose on the workspace boundary computed by fkine is reachable
#: (a slightly negative radicand is taken as 0 and the double root collapses).
BOUNDARY_TOL = 1e-10

#: The inputs of :func:`closed_form`: the n, a and p columns of T06, and cos/sin of the free joint angles
#: (θ1 where the wrist centre is on axis 1, θ4 at the wrist singularity: their values in q0, else 0).
INPUTS = ("nx", "ax", "px", "ny", "ay", "py", "nz", "az", "pz", "c1_free", "s1_free", "c4_free", "s4_free")

#: Poses per chunk of the batched kernel: every temporary stays in cache.
CHUNK = 4096

Limits = Sequence[tuple[float, float, bool]]


# --- the closed form, written once -------------------------------------------------------------------


def closed_form(
    x: Sequence[Any], a2: float, a3: float, d2: float, d4: float, eps2: float, lims: Limits, ops: Any
) -> tuple[list, list, list, list]:
    """The PUMA560 closed form, eqs. (3.38)–(3.53), on scalars: the one place these equations are written.

    ``x`` holds the :data:`INPUTS`; ``ops`` supplies the elementary operations (``sqrt``, ``atan2``,
    ``where(c, a, b)``, ``lt``, ``le``, ``and_``, ``or_``). :class:`FloatOps` runs it
    on Python floats as written; :func:`compile_kernels` runs it once per robot on tracer variables
    and compiles the trace into a single-pose function (floats) and a batch function (numpy columns).

    Returns ``(q, inside, singular, status)``: the 48 angles of the 8 slots (slot order of
    :data:`PUMA_LABELS`, each wrapped to (−π, π] and moved ±2π into its joint range where possible),
    8 within-limits flags, 8 singular flags, and ``[bad1, bad3, rho2, k]`` (the radicand of (3.38)
    or of (3.42) is negative: unreachable; ρ² = px² + py², k of (3.40)).

    The sines and cosines of θ1, θ3 and θ23 are taken algebraically instead of through atan2 then
    cos/sin (the same equations; trig is the cost of this solver):

    * θ1 = Φ − β (3.38) with cos Φ = px/ρ, sin Φ = py/ρ, cos β = u/ρ, sin β = d2/ρ, u = ±√(ρ² − d2²):
      c1 = (px·u + py·d2)/ρ², s1 = (py·u − px·d2)/ρ²
    * θ3 = γ − ψ (3.42) with cos γ = d4/m, sin γ = a3/m, cos ψ = v/m, sin ψ = k/m, v = ±√(m² − k²):
      c3 = (d4·v + a3·k)/m², s3 = (a3·v − d4·k)/m²
    * c23, s23: the two fractions above (3.46), whose common denominator is u² + pz²
    * θ2 = atan2(s23·c3 − c23·s3, c23·c3 + s23·s3) (3.47): θ23 − θ3 as an atan2, nothing to wrap.
    """
    nx, ax, px, ny, ay, py, nz, az, pz, c1f, s1f, c4f, s4f = x
    sqrt, atan2 = ops.sqrt, ops.atan2
    where, lt, le, and_, or_ = ops.where, ops.lt, ops.le, ops.and_, ops.or_

    def wrap(angle: Any) -> Any:
        """An angle in [−π, π] (an atan2 result) in (−π, π]."""
        return where(le(angle, -PI), angle + TAU, angle)

    def fit(angle: Any, lim: tuple[float, float, bool]) -> tuple[Any, Any]:
        """An angle in (−π, π] moved ±2π into [lo, hi] where possible; and whether it is inside.

        The tests that cannot fail for x in (−π, π] are left out (θ6's ±266° needs none)."""
        lo, hi, _ = lim
        if lo < -PI and hi < PI:  # e.g. θ2, θ3 (−225°…45°): x > hi with lo ≤ x − 2π ≤ hi moves down
            down = le(lo + TAU, angle) if lo + TAU > hi else lt(hi, angle)
            if hi <= -PI:  # a range below −π: x − 2π may overshoot it
                down = and_(down, le(angle, hi + TAU))
            angle = where(down, angle - TAU, angle)
        if hi > PI and lo > -PI:  # a range above π: x < lo with lo ≤ x + 2π ≤ hi moves up
            up = le(angle, hi - TAU) if hi - TAU < lo else lt(angle, lo)
            if lo >= PI:
                up = and_(up, le(lo - TAU, angle))
            angle = where(up, angle + TAU, angle)
        inside: Any = True
        if lo > -PI:  # else x ≥ lo: from (−π, π], or moved down only as far as lo
            inside = le(lo, angle)
        if hi < PI:
            inside = and_(inside, le(angle, hi))
        return angle, inside

    # θ1, eq. (3.38): two roots u = ±√(px² + py² − d2²)
    rho2 = px * px + py * py
    D1 = rho2 - d2 * d2
    bad1 = lt(D1, -eps2)
    u2 = where(lt(D1, 0.0), 0.0, D1)  # a slightly negative radicand on the boundary is 0
    s_1 = sqrt(u2)
    shoulder = le(rho2, eps2)  # wrist centre on axis 1 (only possible when d2 = 0): θ1 is free
    inv_rho2 = 1.0 / where(lt(0.0, rho2), rho2, 1.0)
    roots1 = {}
    for i1 in (1.0, -1.0):
        u = i1 * s_1  # = c1·px + s1·py for this root
        c1 = where(shoulder, i1 * c1f, (px * u + py * d2) * inv_rho2)
        s1 = where(shoulder, i1 * s1f, (py * u - px * d2) * inv_rho2)
        roots1[i1] = (u, c1, s1, *fit(wrap(atan2(s1, c1)), lims[0]))

    # θ3, eqs. (3.40)–(3.42): a3·c3 − d4·s3 = k, two roots v = ±√(a3² + d4² − k²)
    k = (rho2 + pz * pz - (a2 * a2 + a3 * a3 + d2 * d2 + d4 * d4)) / (2.0 * a2)
    mm = a3 * a3 + d4 * d4
    D3 = mm - k * k
    bad3 = lt(D3, -eps2)
    s_3 = sqrt(where(lt(D3, 0.0), 0.0, D3))
    roots3 = {}
    for i3 in (1.0, -1.0):
        v = i3 * s_3
        c3 = (d4 * v + a3 * k) / mm
        s3 = (a3 * v - d4 * k) / mm
        roots3[i3] = (c3, s3, *fit(wrap(atan2(s3, c3)), lims[2]))

    D = u2 + pz * pz  # u² + pz², the denominator of s23 and c23
    inv_D = 1.0 / where(lt(0.0, D), D, 1.0)
    q: list = []
    inside: list = []
    singular: list = []
    for i1, i3 in _ARM_BRANCHES:
        u, c1, s1, th1, ok1 = roots1[i1]
        c3, s3, th3, ok3 = roots3[i3]
        # θ23, eq. (3.46) (with (3.45) corrected: −c23·pz), θ2 = θ23 − θ3 (3.47)
        A = a3 + a2 * c3
        B = d4 - a2 * s3
        c23 = (u * A - pz * B) * inv_D
        s23 = (-(u * B) - pz * A) * inv_D
        th2, ok2 = fit(wrap(atan2(s23 * c3 - c23 * s3, c23 * c3 + s23 * s3)), lims[1])
        arm = and_(and_(ok1, ok2), ok3)
        # θ4, eq. (3.48): atan2(s4·s5, c4·s5); both ≈ 0 is the wrist singularity s5 ≈ 0, where θ4 is
        # free (it keeps its value in q0) and θ6 compensates
        m1 = c1 * c23
        m2 = s1 * c23
        X = az * s23 - ax * m1 - ay * m2  # c4·s5
        Y = ay * c1 - ax * s1  # s4·s5
        h2 = X * X + Y * Y
        wrist_singular = lt(h2, SINGULAR_TOL * SINGULAR_TOL)
        inv_h = 1.0 / sqrt(where(wrist_singular, 1.0, h2))
        c4 = where(wrist_singular, c4f, X * inv_h)
        s4 = where(wrist_singular, s4f, Y * inv_h)
        th4 = wrap(atan2(s4, c4))
        # θ5, eqs. (3.50)–(3.51)
        e1 = m1 * c4 + s1 * s4
        e2 = m2 * c4 - c1 * s4
        e3 = s23 * c4
        s5 = az * e3 - ax * e1 - ay * e2
        c5 = -(s23 * (ax * c1 + ay * s1) + az * c23)
        th5 = wrap(atan2(s5, c5))
        # θ6, eqs. (3.52)–(3.53)
        s6 = nz * s23 * s4 - nx * (m1 * s4 - s1 * c4) - ny * (m2 * s4 + c1 * c4)
        c6 = nx * (e1 * c5 - c1 * s23 * s5) + ny * (e2 * c5 - s1 * s23 * s5) - nz * (e3 * c5 + c23 * s5)
        th6 = wrap(atan2(s6, c6))
        # the flipped wrist (θ4 ± π, −θ5, θ6 ± π) gives the same T06; where singular it is the same wrist
        # (θ ± π of a θ in (−π, π] is in (−π, π] again; −θ5 is −π for θ5 = π)
        f4 = where(wrist_singular, th4, where(lt(0.0, th4), th4 - PI, th4 + PI))
        f5 = where(wrist_singular, th5, wrap(-th5))
        f6 = where(wrist_singular, th6, where(lt(0.0, th6), th6 - PI, th6 + PI))
        flag = or_(wrist_singular, shoulder)
        for wrist in ((th4, th5, th6), (f4, f5, f6)):
            (t4, o4), (t5, o5), (t6, o6) = (fit(t, lims[j]) for t, j in zip(wrist, (3, 4, 5)))
            q += [th1, th2, th3, t4, t5, t6]
            inside.append(and_(arm, and_(and_(o4, o5), o6)))
            singular.append(flag)
    return q, inside, singular, [bad1, bad3, rho2, k]


class FloatOps:
    """The operations of :func:`closed_form` on Python floats: the equations run as written."""

    sqrt = staticmethod(math.sqrt)
    atan2 = staticmethod(math.atan2)

    @staticmethod
    def where(c: bool, a: float, b: float) -> float:
        return a if c else b

    @staticmethod
    def lt(a: float, b: float) -> bool:
        return a < b

    @staticmethod
    def le(a: float, b: float) -> bool:
        return a <= b

    @staticmethod
    def and_(a: bool, b: bool) -> bool:
        return a and b

    @staticmethod
    def or_(a: bool, b: bool) -> bool:
        return a or b


class _TraceOps:
    """The operations of :func:`closed_form` on :class:`~armlab._core.codegen.Var`: recorded as calls
    (folded where every operand is a constant)."""

    def __init__(self, tracer: Tracer):
        self.tr = tracer

    def _call(self, fn: str, *args: Any) -> Var:
        return self.tr.new(f"{fn}({', '.join(map(repr, args))})")

    def sqrt(self, x: Any) -> Any:
        return math.sqrt(x) if isinstance(x, float) else self._call("sqrt", x)

    def atan2(self, y: Any, x: Any) -> Any:
        return math.atan2(y, x) if isinstance(y, float) and isinstance(x, float) else self._call("atan2", y, x)

    def where(self, c: Any, a: Any, b: Any) -> Any:
        if isinstance(c, bool):
            return a if c else b
        return self._call("where", c, a, b)

    def lt(self, a: Any, b: Any) -> Any:
        return a < b if isinstance(a, float) and isinstance(b, float) else self._call("lt", a, b)

    def le(self, a: Any, b: Any) -> Any:
        return a <= b if isinstance(a, float) and isinstance(b, float) else self._call("le", a, b)

    def _logic(self, fn: str, a: Any, b: Any, neutral: bool) -> Any:
        """a and b (neutral True) or a or b (neutral False), folded where one operand is a constant."""
        for x, y in ((a, b), (b, a)):
            if isinstance(x, bool):
                return y if x == neutral else x
        return self._call(fn, a, b)

    def and_(self, a: Any, b: Any) -> Any:
        return self._logic("and_", a, b, True)

    def or_(self, a: Any, b: Any) -> Any:
        return self._logic("or_", a, b, False)


# the operations that become Python syntax in the single-pose function (their numpy forms are functions)
_COMPARE: dict[str, type[ast.cmpop]] = {"lt": ast.Lt, "le": ast.LtE}
_BOOL: dict[str, type[ast.boolop]] = {"and_": ast.And, "or_": ast.Or}
_SYNTAX = {"where", *_COMPARE, *_BOOL}
_BATCH_ARGS = "rows, c1_free, s1_free, c4_free, s4_free, atan2, sqrt, where, lt, le, and_, or_"


class _ToSyntax(ast.NodeTransformer):
    """where(c, a, b) → (a if c else b), lt(a, b) → a < b, and_(a, b) → a and b: no call, and lazy."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name not in _SYNTAX:
            return node
        a = node.args
        if name == "where":
            return ast.IfExp(test=a[0], body=a[1], orelse=a[2])
        if name in _COMPARE:
            return ast.Compare(left=a[0], ops=[_COMPARE[name]()], comparators=[a[1]])
        x, y = a
        if (
            name == "and_"
            and isinstance(x, ast.Compare)
            and isinstance(y, ast.Compare)
            and len(x.ops) == 1
            and ast.dump(x.comparators[0]) == ast.dump(y.left)
            and isinstance(y.left, ast.Name)
        ):
            return ast.Compare(left=x.left, ops=x.ops + y.ops, comparators=x.comparators + y.comparators)  # a <= x <= b
        return ast.BoolOp(op=_BOOL[name](), values=list(a))

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        self.generic_visit(node)
        node.args.args = [a for a in node.args.args if a.arg not in _SYNTAX]
        return node


def compile_kernels(a2: float, a3: float, d2: float, d4: float, eps2: float, lims: Limits) -> tuple[Callable, Callable]:
    """:func:`closed_form` traced once with these lengths and joint ranges folded in, compiled twice from
    the one trace:

    * ``single(rows, c1_free, s1_free, c4_free, s4_free, atan2, sqrt, cos, sin)`` on the rows of T06 as
      Python floats (``where``/``lt``/``and_`` become Python conditionals, comparisons and ``and``: no
      calls, and the branch not taken is not computed);
    * ``batch(rows, c1_free, s1_free, c4_free, s4_free, *NUMPY_OPS)`` on the (4, 4, N) columns of a batch.

    Both return the lists of :func:`closed_form`.
    """
    tr = Tracer()
    # T06 comes in as its rows (lists of floats, or the (4, 4, N) columns of a batch), unpacked in line one
    tr.lines.append("    (nx, _, ax, px), (ny, _, ay, py), (nz, _, az, pz), _ = rows")
    x = [Var(tr, name) for name in INPUTS]
    g = [float(v) for v in (a2, a3, d2, d4, eps2)]
    folded = [(float(lo), float(hi), rev) for lo, hi, rev in lims]
    outputs = closed_form(x, g[0], g[1], g[2], g[3], g[4], folded, _TraceOps(tr))
    batch = tr.kernel("puma560_ik", _BATCH_ARGS, tuple(outputs))
    tree = _ToSyntax().visit(ast.parse(getattr(batch, "source")))  # .source: set by make_function
    single = make_function("puma560_ik", ast.unparse(ast.fix_missing_locations(tree)) + "\n", {})
    return single, batch


def _np_where(c, a, b):
    """np.where, skipped when no entry takes ``a`` (singularities and wraps at ±π are rare)."""
    return np.where(c, a, b) if c.any() else b


#: The batch kernel's operations, in its argument order after ``x``.
NUMPY_OPS = (np.arctan2, np.sqrt, _np_where, np.less, np.less_equal, np.logical_and, np.logical_or, np.cos, np.sin)
_FLOAT_OPS = (math.atan2, math.sqrt, math.cos, math.sin)
_NO_FREE = (1.0, 0.0, 1.0, 0.0)  # cos/sin of the free angles without q0: θ1 = θ4 = 0
_NO_FREE_FLOAT_OPS = _NO_FREE + _FLOAT_OPS


def _reach_text(a2: float, a3: float, d2: float, d4: float) -> str:
    m = math.hypot(a3, d4)
    lo, hi = abs(a2 - m), a2 + m
    return f"{math.hypot(lo, d2):.4g} … {math.hypot(hi, d2):.4g} m"


_REASON1 = (
    "unreachable: the wrist centre is closer to the axis of joint 1 than the shoulder offset d2 "
    "(px² + py² − d2² < 0 in eq. (3.38))"
)
_REASON3 = "unreachable: outside the reach of the arm (a3² + d4² − k² < 0 in eq. (3.42))"


# --- the solver ----------------------------------------------------------------------------------------


@register
class PumaSolver(Solver):
    """Closed-form IK for a PUMA560-type arm (lengths a2, a3, d2, d4 read from the DH table)."""

    method = "puma560"

    def __init__(self, robot: RobotLike, a2: float, a3: float, d2: float, d4: float, tool_d: float):
        super().__init__(robot)
        self.a2, self.a3, self.d2, self.d4 = a2, a3, d2, d4
        self.tool_d = tool_d  # d6 written in the DH table: a translation along z6 after θ6
        L = abs(a2) + abs(a3) + abs(d2) + abs(d4)
        self.eps2 = BOUNDARY_TOL * L * L
        self.single, self.batch = compile_kernels(a2, a3, d2, d4, self.eps2, self.lims)
        self.strip = robot.base is not None or robot.tool is not None or bool(tool_d)
        self.labels = list(PUMA_LABELS)

    @classmethod
    def match(cls, robot: RobotLike) -> PumaSolver | None:
        """A solver if robot's DH table has the PUMA560 structure, else None."""
        g = puma560_geometry(robot)
        return None if g is None else cls(robot, g["a2"], g["a3"], g["d2"], g["d4"], g["d6"])

    def _t06(self, rows: list) -> list:
        rows = strip_base_tool(self.robot, rows)
        if self.tool_d:
            # T06 = T · Trans(0, 0, d6)⁻¹: move p back along a (the z6 axis)
            d = self.tool_d
            rows = [r[:] for r in rows]
            for i in range(3):
                rows[i][3] -= d * rows[i][2]
        return rows

    def solve(self, T: ArrayLike, q0: ArrayLike | None = None) -> IKSolutions:
        """The 8 solutions of one pose (Python floats: a numpy call costs ~1 µs)."""
        rows = check_pose(T)
        if self.strip:
            rows = self._t06(rows)
        if q0 is None:
            args = _NO_FREE_FLOAT_OPS
        else:
            qc = check_joint_values(q0, 6)
            args = (math.cos(qc[0]), math.sin(qc[0]), math.cos(qc[3]), math.sin(qc[3]), *_FLOAT_OPS)
        q, ok, sing, (bad1, bad3, rho2, k) = self.single(rows, *args)
        if bad1 or bad3:
            return IKSolutions.empty(6, self._reason(bad1, rho2, rows[2][3], k), self.method)
        return IKSolutions(
            np.array(q).reshape(8, 6),
            self.labels[:],
            np.array(ok, dtype=bool),
            np.array(sing, dtype=bool),
            method=self.method,
        )

    def _reason(self, bad1: bool, rho2: float, pz: float, k: float) -> str:
        if bad1:
            return (
                f"unreachable: the wrist centre is {math.sqrt(rho2):.4g} m from the axis of joint 1, "
                f"closer than the shoulder offset d2 = {abs(self.d2):.4g} m, so px² + py² − d2² < 0 "
                "in eq. (3.38)"
            )
        r = math.sqrt(rho2 + pz * pz)
        return (
            f"unreachable: the wrist centre is {r:.4g} m from the origin, outside the reach of the "
            f"arm (a3² + d4² − k² < 0 in eq. (3.42), k = {k:.4g} m); reachable distances are "
            f"{_reach_text(self.a2, self.a3, self.d2, self.d4)}"
        )

    def solve_batch(self, T: ArrayLike, q0: ArrayLike | None = None, fill: float = 0.0) -> IKBatch:
        """The 8 solutions of each of N poses T (N, 4, 4), in fixed slots: the compiled kernel on numpy
        columns, in chunks of :data:`CHUNK` poses (whole-batch temporaries would fall out of cache)."""
        poses = strip_base_tool(self.robot, check_poses(T, rigid=False))  # rigid: tested per chunk below
        N = len(poses)
        if self.tool_d:
            poses = poses.copy()
            poses[:, :3, 3] -= self.tool_d * poses[:, :3, 2]
        qc = check_joint_batch(q0, N, 6)
        Q = np.empty((48, N))  # filled row by row, returned as the (N, 8, 6) view
        inside = np.empty((8, N), bool)
        sing = np.empty((8, N), bool)
        bad1 = np.empty(N, bool)
        bad3 = np.empty(N, bool)
        err = np.empty(N)
        with np.errstate(all="ignore"):  # a non-rigid T is reported below, not as a numpy warning
            for lo in range(0, N, CHUNK):
                hi = min(N, lo + CHUNK)
                # contiguous copies: arithmetic on strided columns of T is ~10× slower
                cols = np.ascontiguousarray(poses[lo:hi].transpose(1, 2, 0))  # (4 rows, n/o/a/p, poses)
                err[lo:hi] = rigid_error(cols)
                if qc is None:
                    free: tuple = _NO_FREE
                else:
                    q1, q4 = qc[lo:hi, 0], qc[lo:hi, 3]
                    free = (np.cos(q1), np.sin(q1), np.cos(q4), np.sin(q4))
                q, ok, sg, (b1, b3, _, _) = self.batch(cols, *free, *NUMPY_OPS)
                for j, v in enumerate(q):
                    Q[j, lo:hi] = v
                for j in range(8):
                    inside[j, lo:hi] = ok[j]
                    sing[j, lo:hi] = sg[j]
                bad1[lo:hi], bad3[lo:hi] = b1, b3
        raise_if_not_rigid(err)
        good = ~(bad1 | bad3)
        valid = np.repeat(good[:, None], 8, axis=1)
        reason = np.full(N, "", dtype=object)
        q = Q.reshape(8, 6, N).transpose(2, 0, 1)
        if not good.all():
            reason[bad3] = _REASON3
            reason[bad1] = _REASON1
            q[~valid] = fill
        return IKBatch(q, valid, inside.T & valid, sing.T & valid, reason, self.labels[:], self.method)
