"""The Lagrange model of a robot as a straight-line program over sympy (textbook (3.111)–(3.132)).

Every compound intermediate — an entry of T_p, of ∂T_p/∂q_j, of a trace — gets its own symbol, so common
subexpressions are shared by construction and nothing is expanded. Two identities keep it small without
changing a formula. (3.133) in base coordinates: ∂T_p/∂q_j = W_j·T_p, where W_j = T_a·Q_j·T_a⁻¹ is joint j's
axis as a 4×4 twist (T_a the frame whose z is the axis: {j} in modified DH, {j−1} in standard DH; Q_j
rotates about or slides along z), and ∂²T_p/∂q_j∂q_k = W_j·W_k·T_p for j ≤ k. Then the sums over p go
inside the traces: D_ij = Trace(W_j·S_m·W_iᵀ) with S_m = Σ_{p ≥ m} T_p·I_p·T_pᵀ, the links m…n as one
pseudo-inertia in the base frame. :mod:`armlab.dynamics.lagrange` turns the program into sympy
expressions (by substitution) and into compiled code (:func:`armlab._core.sympy_codegen.compile_program`).
"""

from __future__ import annotations

from typing import Any

from .._core.protocol import RobotLike
from .._core.inertia import shift_inertia
from .._core.symbolic import sympy
from ..kinematics.scalar import SympyBackend, chain

__all__ = ["pseudo_inertia", "Tape", "frames_and_twists", "coefficients"]


def pseudo_inertia(m: Any, r: Any, I: Any = None) -> Any:  # noqa: E741
    """The 4×4 pseudo-inertia matrix ∫ ʳʳᵀ dm of a link about its frame origin (3.119), as sympy.

    From the mass m, the centre of mass r (in the link frame) and the 3×3 inertia tensor I about the
    centre of mass (``None``: a point mass). The top-left block is ½·tr(I)·E − I + m·r·rᵀ: the second
    moments ∫xx dm, ∫xy dm, … about the frame origin (parallel-axis theorem). In the book's
    notation (3.120) with moments I_xx = ∫(y² + z²)dm about the frame origin, its diagonal is
    (−I_xx + I_yy + I_zz)/2, … and its off-diagonal the products ∫xy dm (minus the tensor's entries).

    >>> pseudo_inertia(2, (0.5, 0, 0))
    Matrix([
    [0.5, 0, 0, 1.0],
    [  0, 0, 0,   0],
    [  0, 0, 0,   0],
    [1.0, 0, 0,   2]])
    """
    sp = sympy()
    m = sp.sympify(m)
    r = sp.Matrix(list(r)).applyfunc(_exact)
    I = sp.zeros(3, 3) if I is None else sp.Matrix(I).applyfunc(_exact)  # noqa: E741
    I_o = shift_inertia(I, m, r)  # about the frame origin (parallel-axis theorem)
    E = I_o.trace() / 2 * sp.eye(3) - I_o  # = ½·tr(I)·E − I + m·r·rᵀ
    h = m * r
    return sp.Matrix(sp.BlockMatrix([[E, h], [h.T, sp.Matrix([[m]])]]))


def _exact(x):
    sp = sympy()
    if isinstance(x, sp.Basic):
        return x
    return sp.Integer(int(x)) if float(x) == int(x) else sp.Float(float(x))


class Tape:
    """A straight-line program over sympy: each compound intermediate gets its own symbol."""

    def __init__(self) -> None:
        self.sp = sympy()
        self.defs: list = []  # (Dummy, expression over earlier Dummies, joint symbols and parameters)

    def __call__(self, e):
        e = self.sp.sympify(e)
        if e.is_Atom or (e.is_Mul and len(e.args) == 2 and e.args[0] == -1 and e.args[1].is_Atom):
            return e
        s = self.sp.Dummy(f"v{len(self.defs)}")
        self.defs.append((s, e))
        return s

    def needed(self, outputs: list) -> list[tuple[Any, Any]]:
        """The entries (symbol, expression) the outputs depend on, in program order."""
        index = {s for s, _ in self.defs}
        need = {x for o in outputs for x in self.sp.sympify(o).free_symbols if x in index}
        keep = []
        for s, e in reversed(self.defs):
            if s in need:
                keep.append((s, e))
                need.update(x for x in e.free_symbols if x in index)
        return keep[::-1]

    def mul(self, a: Any, b: Any) -> Any:
        """a·b, with 0 and 1 folded and numbers multiplied, else left unevaluated (sympy's Mul
        canonicalisation dominates the build time otherwise; back-substitution evaluates)."""
        if a == 0 or b == 0:
            return 0
        if a == 1 or b == 1:
            return b if a == 1 else a
        if getattr(a, "is_Number", True) and getattr(b, "is_Number", True):
            return a * b
        return self.sp.Mul(a, b, evaluate=False)

    def add(self, terms: list) -> Any:
        """Σ terms, numbers summed, the rest left unevaluated."""
        number = sum(t for t in terms if getattr(t, "is_Number", True))
        terms = [t for t in terms if not getattr(t, "is_Number", True)] + ([number] if number != 0 else [])
        if len(terms) < 2:
            return terms[0] if terms else 0
        return self.sp.Add(*terms, evaluate=False)

    def mm(self, A: list, B: list) -> list[list]:
        """A·B for nested lists; exact zeros drop out."""
        return [
            [self(self.add([self.mul(A[i][k], B[k][j]) for k in range(len(B))])) for j in range(len(B[0]))]
            for i in range(len(A))
        ]

    def trace_abt(self, A: list, B: list) -> Any:
        """Trace(A·Bᵀ) = Σ A_ab·B_ab."""
        return self(self.add([self.mul(a, b) for ra, rb in zip(A, B) for a, b in zip(ra, rb)]))


def frames_and_twists(robot: RobotLike, q: Any, tape: Tape) -> tuple[list, list]:
    """T_p of every link (base included) as 4×4 nested lists, and each joint's twist W_j."""
    base, links, _ = chain(robot, q, SympyBackend)

    def hom(Rp):
        R, p = Rp
        return [list(R[0]) + [p[0]], list(R[1]) + [p[1]], list(R[2]) + [p[2]], [0, 0, 0, 1]]

    T = [[[tape(x) for x in row] for row in hom(base)]]
    for Rp in links:
        T.append(tape.mm(T[-1], hom(Rp)))
    W = []
    for j, link in enumerate(robot.links):
        Ta = T[j + 1] if robot.modified else T[j]  # the frame whose z is joint j's axis
        z, o = [Ta[i][2] for i in range(3)], [Ta[i][3] for i in range(3)]
        if link.revolute:  # [[S(z), o × z], [0, 0]]: rotation about the axis through o
            v = [tape(o[1] * z[2] - o[2] * z[1]), tape(o[2] * z[0] - o[0] * z[2]), tape(o[0] * z[1] - o[1] * z[0])]
            W.append([[0, -z[2], z[1], v[0]], [z[2], 0, -z[0], v[1]], [-z[1], z[0], 0, v[2]], [0, 0, 0, 0]])
        else:  # [[0, z], [0, 0]]: sliding along the axis
            W.append([[0, 0, 0, z[0]], [0, 0, 0, z[1]], [0, 0, 0, z[2]], [0, 0, 0, 0]])
    return T, W


def coefficients(
    robot: RobotLike, T: list, W: list, pseudo: list, gravity: Any, tape: Tape
) -> tuple[list, list, list, Any]:
    """The book's D_ij (3.130), D_ijk (3.131) and D_i (3.132), and P (3.127), as tape entries."""
    n = robot.n
    # S[m] = Σ_{p ≥ m} T_p·I_p·T_pᵀ: links m…n as one pseudo-inertia in the base frame (1-based m)
    S: list[Any] = [None] * (n + 2)
    for p in range(n, 0, -1):
        J = tape.mm(tape.mm(T[p], pseudo[p - 1]), [list(r) for r in zip(*T[p])])
        S[p] = J if p == n else [[tape(a + b) for a, b in zip(ra, rb)] for ra, rb in zip(J, S[p + 1])]
    AS = {}

    def a_s(A, key, m):  # A·S_m, rows 0–2 (a twist's last row is zero)
        if (key, m) not in AS:
            AS[key, m] = tape.mm(A[:3], S[m])
        return AS[key, m]

    # D_ij = Trace(W_j·S_m·W_iᵀ), m = max(i, j); symmetric
    D2 = [[None] * n for _ in range(n)]
    for i in range(n):
        for j in range(i, n):
            D2[i][j] = D2[j][i] = tape.trace_abt(a_s(W[j], j, j + 1), W[i][:3])
    # D_ijk = Trace(W_j·W_k·S_m·W_iᵀ) for j ≤ k, m = max(i, j, k); D_ijk = D_ikj
    D3 = [[[None] * n for _ in range(n)] for _ in range(n)]
    for j in range(n):
        for k in range(j, n):
            A = tape.mm(W[j], W[k])
            for i in range(n):
                D3[i][j][k] = D3[i][k][j] = tape.trace_abt(a_s(A, (j, k), max(i, j, k) + 1), W[i][:3])
    # D_i = −gᵀ·W_i·S_i[:, 3]: S_i's last column is Σ_{p ≥ i} m_p·T_p·r̄_p (homogeneous)
    g = list(gravity)
    D1 = [
        tape(
            -tape.add(
                [tape.mul(g[a], tape.add([tape.mul(W[i][a][b], S[i + 1][b][3]) for b in range(4)])) for a in range(3)]
            )
        )
        for i in range(n)
    ]
    P = tape(-tape.add([tape.mul(g[a], S[1][a][3]) for a in range(3)]))
    return D2, D3, D1, P
