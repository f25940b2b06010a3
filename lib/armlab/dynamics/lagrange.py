"""Symbolic Lagrange dynamics by the textbook's pseudo-inertia route, §3.4.2 eqs. (3.111)–(3.132).

``lagrange(robot)`` returns a :class:`LagrangeModel`: M, C, G and τ as sympy expressions in the
joint symbols, the book's D-coefficients, and compiled numeric functions. The route is the book's:

* a point ʳ of link p is at T_p·ʳ (3.111); its velocity is Σ_j ∂T_p/∂q_j·q̇_j·ʳ (3.112);
* link p's kinetic energy is ½ Σ_jk Trace(∂T_p/∂q_j · I_p · ∂T_p/∂q_kᵀ)·q̇_j q̇_k (3.118), with the
  4×4 pseudo-inertia matrix I_p = ∫ ʳʳᵀ dm (3.119)–(3.120), see :func:`pseudo_inertia`;
* potential energy P = −Σ_p m_p·gᵀ·T_p·r̄_p (3.127), g = (g_x, g_y, g_z, 0);
* τ_i = Σ_j D_ij q̈_j + Σ_jk D_ijk q̇_j q̇_k + D_i (3.129) with
  D_ij = Σ_{p ≥ max(i,j)} Trace(∂T_p/∂q_j · I_p · ∂T_p/∂q_iᵀ) (3.130),
  D_ijk = Σ_{p ≥ max(i,j,k)} Trace(∂²T_p/∂q_j∂q_k · I_p · ∂T_p/∂q_iᵀ) (3.131),
  D_i = Σ_{p ≥ i} −m_p·gᵀ·∂T_p/∂q_i·r̄_p (3.132).

D_ijk is the Christoffel symbol of the lab report's (2.71) (D_kij = C_ijk there), so
C_ij = Σ_k D_ijk q̇_k (2.72) and Ṁ − 2C is skew-symmetric.

Two identities make it fast without changing a formula. (3.133) in base coordinates:
∂T_p/∂q_j = W_j·T_p, where W_j = T_a·Q_j·T_a⁻¹ is joint j's axis as a 4×4 twist (T_a the frame
whose z is the axis: {j} in modified DH, {j−1} in standard DH; Q_j rotates about or slides along
z), and ∂²T_p/∂q_j∂q_k = W_j·W_k·T_p for j ≤ k. Then the sums over p go inside the traces:
D_ij = Trace(W_j·S_m·W_iᵀ) with S_m = Σ_{p ≥ m} T_p·I_p·T_pᵀ, the links m…n as one pseudo-inertia
in the base frame. Every intermediate is one entry of a straight-line program (common
subexpressions shared by construction, nothing expanded or simplified), which is both the numeric
code, compiled once per robot through :mod:`armlab._core.codegen`, and, substituted back, the
sympy expressions.
"""
from __future__ import annotations

import math
import weakref

import numpy as np

from .._core.codegen import cached_kernel, make_function, run_kernel
from .._core.symbolic import sympy
from .._core.validation import as_float_array
from ..kinematics.scalar import SympyBackend, chain
from .model import GRAVITY

__all__ = ["lagrange", "LagrangeModel", "pseudo_inertia", "simplify_trig", "TERMS"]

#: The parts of a joint torque, named as in Example 3.9 (3.108)–(3.110).
TERMS = ("effective inertia", "coupling inertia", "centripetal", "Coriolis", "gravity")


def pseudo_inertia(m, r, I=None):
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
    E = I.trace() / 2 * sp.eye(3) - I + m * r * r.T
    h = m * r
    return sp.Matrix(sp.BlockMatrix([[E, h], [h.T, sp.Matrix([[m]])]]))


def _exact(x):
    sp = sympy()
    if isinstance(x, sp.Basic):
        return x
    return sp.Integer(int(x)) if float(x) == int(x) else sp.Float(float(x))


class _Tape:
    """A straight-line program over sympy: each compound intermediate gets its own symbol."""

    def __init__(self):
        self.sp = sympy()
        self.defs = []  # (Dummy, expression over earlier Dummies, joint symbols and parameters)

    def __call__(self, e):
        e = self.sp.sympify(e)
        if e.is_Atom or (e.is_Mul and len(e.args) == 2 and e.args[0] == -1 and e.args[1].is_Atom):
            return e
        s = self.sp.Dummy(f"v{len(self.defs)}")
        self.defs.append((s, e))
        return s

    def mul(self, a, b):
        """a·b, with 0 and 1 folded and numbers multiplied, else left unevaluated (sympy's Mul
        canonicalisation dominates the build time otherwise; back-substitution evaluates)."""
        if a == 0 or b == 0:
            return 0
        if a == 1 or b == 1:
            return b if a == 1 else a
        if getattr(a, "is_Number", True) and getattr(b, "is_Number", True):
            return a * b
        return self.sp.Mul(a, b, evaluate=False)

    def add(self, terms):
        """Σ terms, numbers summed, the rest left unevaluated."""
        number = sum(t for t in terms if getattr(t, "is_Number", True))
        terms = [t for t in terms if not getattr(t, "is_Number", True)] + ([number] if number != 0 else [])
        if len(terms) < 2:
            return terms[0] if terms else 0
        return self.sp.Add(*terms, evaluate=False)

    def mm(self, A, B):
        """A·B for nested lists; exact zeros drop out."""
        return [[self(self.add([self.mul(A[i][k], B[k][j]) for k in range(len(B))])) for j in range(len(B[0]))]
                for i in range(len(A))]

    def trace_abt(self, A, B):
        """Trace(A·Bᵀ) = Σ A_ab·B_ab."""
        return self(self.add([self.mul(a, b) for ra, rb in zip(A, B) for a, b in zip(ra, rb)]))


def _frames(robot, q, tape):
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


def _coefficients(robot, T, W, pseudo, gravity, tape):
    """The book's D_ij (3.130), D_ijk (3.131) and D_i (3.132), and P (3.127), as tape entries."""
    n = robot.n
    # S[m] = Σ_{p ≥ m} T_p·I_p·T_pᵀ: links m…n as one pseudo-inertia in the base frame (1-based m)
    S = [None] * (n + 2)
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
    D1 = [tape(-tape.add([tape.mul(g[a], tape.add([tape.mul(W[i][a][b], S[i + 1][b][3]) for b in range(4)]))
                          for a in range(3)])) for i in range(n)]
    P = tape(-tape.add([tape.mul(g[a], S[1][a][3]) for a in range(3)]))
    return D2, D3, D1, P


class LagrangeModel:
    """The Lagrange equations of motion of one robot; build it with :func:`lagrange`.

    Symbols (tuples of sympy Symbols, one per joint): ``q`` = (q1, …, qn), ``qd`` = (qdot1, …) and
    ``qdd`` = (qddot1, …), printed q̇₁, q̈₁; with ``symbol="theta"``: θ1, θ̇1, θ̈1 as in Example 3.9.
    ``parameters``: the other free symbols (symbolic masses, lengths, g), sorted by name.
    ``pseudo_inertias``: each link's I_i (3.120).

    Sympy (built on first use): ``M`` (n×n: D_ij (3.130) plus any armature), ``C`` (n×n,
    Christoffel), ``G`` (n: D_i (3.132)), ``tau`` (n: (3.129)), ``K``, ``P``; the book's coefficients
    by 1-based index: ``D(i, j)``, ``D(i, j, k)``, ``D(i)``; ``cse(key)`` the program behind one.

    Numbers (compiled once, floats or batches (..., n); parameters as keywords):
    ``M_fn(q)``, ``C_fn(q, qd)``, ``G_fn(q)``, ``tau_fn(q, qd, qdd)``, ``energy_fn(q, qd)`` → (K, P),
    ``terms_fn(q, qd, qdd)`` → (..., n, 5): each joint's torque split into :data:`TERMS`.
    """

    def __init__(self, robot, gravity, armature, symbol):
        sp = sympy()
        n = self.n = robot.n
        self._robot = weakref.ref(robot)  # the model is cached on the robot: no strong reference back
        self.q = tuple(sp.symbols(f"{symbol}1:{n + 1}", real=True))
        self.qd = qd = tuple(sp.symbols(f"{symbol}dot1:{n + 1}", real=True))
        self.qdd = qdd = tuple(sp.symbols(f"{symbol}ddot1:{n + 1}", real=True))
        self.gravity = tuple(sp.sympify(g) for g in gravity)
        self.pseudo_inertias = [pseudo_inertia(L.m, L.r, L.I) for L in robot.links]
        tape = self._tape = _Tape()
        T, W = _frames(robot, self.q, tape)
        D2, D3, D1, P = _coefficients(robot, T, W, [I.tolist() for I in self.pseudo_inertias], self.gravity, tape)
        arm = [0] * n if armature is None else [sp.sympify(a) for a in armature]
        M = [[tape(D2[i][j] + (arm[i] if i == j else 0)) for j in range(n)] for i in range(n)]
        C = [[tape(sp.Add(*[D3[i][j][k] * qd[k] for k in range(n)])) for j in range(n)] for i in range(n)]
        tau = [tape(sp.Add(*[M[i][j] * qdd[j] + C[i][j] * qd[j] for j in range(n)]) + D1[i]) for i in range(n)]
        K = tape(sp.Add(*[M[i][j] * qd[i] * qd[j] for i in range(n) for j in range(n)]) / 2)
        # the torque split of (3.108)–(3.110):
        # D_ii q̈_i, Σ_{j≠i} D_ij q̈_j, Σ_j D_ijj q̇_j², Σ_{j≠k} D_ijk q̇_j q̇_k, D_i
        terms = [[tape(M[i][i] * qdd[i]),
                  tape(sp.Add(*[D2[i][j] * qdd[j] for j in range(n) if j != i])),
                  tape(sp.Add(*[D3[i][j][j] * qd[j] ** 2 for j in range(n)])),
                  tape(sp.Add(*[D3[i][j][k] * qd[j] * qd[k] for j in range(n) for k in range(n) if j != k])),
                  D1[i]] for i in range(n)]
        self._out = {"M": M, "C": C, "G": D1, "tau": tau, "K": K, "P": P, "D2": D2, "D3": D3}
        self._flat = {"M": sum(M, []), "C": sum(C, []), "G": D1, "tau": tau, "energy": [K, P],
                      "terms": sum(terms, [])}  # the outputs of the compiled functions
        joint = set(self.q + qd + qdd)
        free = set().union(set(), *(e.free_symbols for _, e in tape.defs),
                           *(sp.sympify(x).free_symbols for x in self.gravity + tuple(arm)))
        self.parameters = tuple(sorted((s for s in free if s not in joint and not isinstance(s, sp.Dummy)),
                                       key=lambda s: s.name))
        self._full = self._src = None
        self._fns = {}

    @property
    def robot(self):
        return self._robot()

    # --- sympy -----------------------------------------------------------------------
    def _expand(self, x):
        """An output of the tape as one sympy expression in the joint symbols (not simplified)."""
        if self._full is None:
            full = {}
            for s, e in self._tape.defs:
                full[s] = e.xreplace(full)
            self._full = full
        return self.sp.sympify(x).xreplace(self._full)

    @property
    def sp(self):
        return sympy()

    def _matrix(self, key):
        return self.sp.Matrix([[self._expand(x) for x in row] for row in self._out[key]])

    @property
    def M(self):
        """M(q) = [D_ij] (3.130), plus the actuator inertias I_ai on the diagonal (3.129)."""
        return self._matrix("M")

    @property
    def C(self):
        """C(q, q̇) with C_ij = Σ_k D_ijk q̇_k (lab report (2.72)); C q̇ is the velocity-product torque."""
        return self._matrix("C")

    @property
    def G(self):
        """G(q) = [D_i] (3.132), the gravity torques (a column)."""
        return self.sp.Matrix([self._expand(x) for x in self._out["G"]])

    @property
    def tau(self):
        """τ = M q̈ + C q̇ + G, (3.129) (a column)."""
        return self.sp.Matrix([self._expand(x) for x in self._out["tau"]])

    @property
    def K(self):
        """Kinetic energy ½ q̇ᵀ M q̇ (3.121), (3.124)."""
        return self._expand(self._out["K"])

    @property
    def P(self):
        """Potential energy −Σ m_p gᵀ T_p r̄_p (3.127), zero at the base origin."""
        return self._expand(self._out["P"])

    def simplified(self):
        """τ in the book's form (3.106)–(3.109): Σ_j D_ij q̈_j + Σ_j D_ijj q̇_j² + Σ_{j<k} 2·D_ijk q̇_j q̇_k + D_i,
        every coefficient through :func:`simplify_trig` (for small arms: a 2R takes ~0.3 s)."""
        sp, n = self.sp, self.n
        rows = []
        for i in range(1, n + 1):
            terms = [simplify_trig(self._expand(self._out["M"][i - 1][j - 1])) * self.qdd[j - 1]
                     for j in range(1, n + 1)]
            for j in range(1, n + 1):
                for k in range(j, n + 1):
                    coefficient = simplify_trig(self.D(i, j, k)) * (1 if j == k else 2)
                    terms.append(coefficient * self.qd[j - 1] * self.qd[k - 1])
            terms.append(simplify_trig(self.D(i)))
            rows.append(sp.Add(*terms))
        return sp.Matrix(rows)

    def D(self, *index):
        """The book's coefficient with 1-based indices: D(i, j) (3.130), D(i, j, k) (3.131), D(i) (3.132)."""
        if not index or len(index) > 3 or not all(isinstance(i, int) and 1 <= i <= self.n for i in index):
            raise ValueError(f"D takes 1 to 3 joint indices in 1..{self.n}, got {index}")
        i = [k - 1 for k in index]
        if len(i) == 1:
            return self._expand(self._out["G"][i[0]])
        if len(i) == 2:
            return self._expand(self._out["D2"][i[0]][i[1]])
        return self._expand(self._out["D3"][i[0]][i[1]][i[2]])

    # --- numbers ---------------------------------------------------------------------
    def _kernel(self, key, args):
        """Compile the outputs ``key`` of the tape into straight-line code (once per model)."""
        if key not in self._fns:
            self._fns[key] = self._compile(key, args)
        return self._fns[key]

    def _needed(self, outputs):
        """The tape entries the outputs depend on, in order."""
        dummies = {s: k for k, (s, _) in enumerate(self._tape.defs)}
        need = {s for x in outputs for s in self.sp.sympify(x).free_symbols if s in dummies}
        keep = []
        for s, e in reversed(self._tape.defs):
            if s in need:
                keep.append((s, e))
                need.update(x for x in e.free_symbols if x in dummies)
        return keep[::-1]

    def _sources(self, names):
        """Each tape entry as Python source, printed once for all kernels."""
        if self._src is None:
            self._src = {s: _code(e, names) for s, e in self._tape.defs}
        return self._src

    def _compile(self, key, args):
        n = self.n
        names = {s: f"q{i}" for i, s in enumerate(self.q)}
        names.update({s: f"qd{i}" for i, s in enumerate(self.qd)})
        names.update({s: f"qdd{i}" for i, s in enumerate(self.qdd)})
        names.update({s: f"p{i}" for i, s in enumerate(self.parameters)})
        names.update({s: f"v{k}" for k, (s, _) in enumerate(self._tape.defs)})
        lines = [f"    {', '.join(f'{a}{i}' for i in range(n))}, = {a}" for a in args]
        if self.parameters:
            lines.append(f"    {', '.join(f'p{i}' for i in range(len(self.parameters)))}, = p")
        outputs = self._flat[key]
        src = self._sources(names)
        lines += [f"    {names[s]} = {src[s]}" for s, _ in self._needed(outputs)]
        lines.append(f"    return [{', '.join(_code(self.sp.sympify(x), names) for x in outputs)}]")
        name = f"lagrange_{key}"
        source = f"def {name}({', '.join(args)}, p, cos, sin):\n" + "\n".join(lines) + "\n"
        return make_function(name, source, env={"pi": math.pi, "sqrt": math.sqrt})

    def cse(self, key="tau"):
        """The straight-line program behind an output, as ``sympy.cse`` returns it:
        (replacements [(x_k, expression)], outputs), for ``key`` in M, C, G, tau, energy."""
        sp = self.sp
        pairs = self._needed(self._flat[key])
        rename = {s: sp.Symbol(f"x{k}") for k, (s, _) in enumerate(pairs)}
        return ([(rename[s], e.xreplace(rename)) for s, e in pairs],
                [sp.sympify(x).xreplace(rename) for x in self._flat[key]])

    def _run(self, key, shape, values, params):
        args = ("q", "qd", "qdd")[:len(values)]
        arrays = [as_float_array(v, name) for v, name in zip(values, args)]
        for a, name in zip(arrays, args):
            if a.ndim == 0 or a.shape[-1] != self.n:
                raise ValueError(f"{name} must have {self.n} joint values (shape (..., {self.n})), got shape {a.shape}")
        missing = [s.name for s in self.parameters if s.name not in params]
        unknown = set(params) - {s.name for s in self.parameters}
        if missing or unknown:
            raise TypeError(f"this model's parameters are {[s.name for s in self.parameters]}: "
                            f"missing {missing}, unknown {sorted(unknown)}")
        p = np.array([float(params[s.name]) for s in self.parameters])
        batch = np.broadcast_shapes(*(a.shape[:-1] for a in arrays))
        arrays = [np.ascontiguousarray(np.broadcast_to(a, batch + a.shape[-1:])) for a in arrays]
        p = np.ascontiguousarray(np.broadcast_to(p, batch + p.shape))
        return run_kernel(self._kernel(key, args), arrays[0], shape, *arrays[1:], p)

    def M_fn(self, q, **params):
        """M(q), (..., n, n)."""
        return self._run("M", (self.n, self.n), (q,), params)

    def C_fn(self, q, qd, **params):
        """C(q, q̇), (..., n, n)."""
        return self._run("C", (self.n, self.n), (q, qd), params)

    def G_fn(self, q, **params):
        """G(q), (..., n)."""
        return self._run("G", (self.n,), (q,), params)

    def tau_fn(self, q, qd, qdd, **params):
        """τ(q, q̇, q̈), (..., n)."""
        return self._run("tau", (self.n,), (q, qd, qdd), params)

    def energy_fn(self, q, qd, **params):
        """(K, P), (..., 2)."""
        return self._run("energy", (2,), (q, qd), params)

    def terms_fn(self, q, qd, qdd, **params):
        """Each joint's torque split into :data:`TERMS`, (..., n, 5); the rows sum to τ."""
        return self._run("terms", (self.n, len(TERMS)), (q, qd, qdd), params)

    def __repr__(self):
        name = getattr(self.robot, "name", "") or "robot"
        return f"LagrangeModel({name!r}, n={self.n}, parameters={self.parameters})"


def _code(e, names):
    """Python source of one tape entry (a small expression): our own names, floats at full precision,
    every compound in brackets (cheaper than sympy's printers, which order terms)."""
    if e in names:
        return names[e]
    if e.is_Number or e.is_NumberSymbol:
        return repr(int(e)) if e.is_Integer else repr(float(e))
    if e.is_Add or e.is_Mul:
        return "(" + (" + " if e.is_Add else "*").join(_code(a, names) for a in e.args) + ")"
    if e.is_Pow:
        return f"({_code(e.base, names)}**{_code(e.exp, names)})"
    if e.is_Function and e.func.__name__ in ("cos", "sin") :
        return f"{e.func.__name__}({_code(e.args[0], names)})"
    raise TypeError(f"cannot compile {e!r} ({type(e).__name__})")


def lagrange(robot, gravity=GRAVITY, *, armature=None, symbol="q"):
    """The symbolic Lagrange model of ``robot`` (textbook (3.111)–(3.132)); see :class:`LagrangeModel`.

    ``gravity``: gravitational acceleration in the world frame (numbers or sympy, e.g. ``(g, 0, 0)``);
    ``armature``: actuator inertias I_ai (3.122), added to M's diagonal as in (3.129);
    ``symbol``: the joint symbols' stem, "q" (q1, qdot1, qddot1) or e.g. "theta".
    The model is built once per robot and arguments and kept in memory (as code, never pickled).

    >>> from armlab.models import planar2r
    >>> model = lagrange(planar2r(), gravity=(0, -9.81, 0))
    >>> model.M_fn([0.0, 0.0]).round(6)
    array([[5., 2.],
           [2., 1.]])
    """
    if not robot.symbolic and not any(link.m for link in robot.links):
        raise ValueError(f"{robot.name or 'this robot'!r} has no link masses: the Lagrange model needs each "
                         "DHLink's m, r (centre of mass) and I (inertia about it)")
    if not isinstance(symbol, str) or not symbol.isidentifier():
        raise ValueError(f"symbol must be a name such as 'q' or 'theta', got {symbol!r}")
    g = tuple(gravity)
    if len(g) != 3:
        raise ValueError(f"gravity must have 3 entries, got {len(g)}")
    if armature is not None:
        armature = tuple(armature)
        if len(armature) != robot.n:
            raise ValueError(f"armature must have {robot.n} entries (one per joint), got {len(armature)}")
    key = ("lagrange", tuple(_hashable(x) for x in g), None if armature is None else tuple(map(_hashable, armature)),
           symbol)
    return cached_kernel(robot, key, lambda r: LagrangeModel(r, g, armature, symbol))


def _hashable(x):
    sp = sympy()
    return x if isinstance(x, sp.Basic) else float(x)


def simplify_trig(expr, combine=True):
    """A polynomial in sines and cosines in canonical form, for showing a small expression.

    Expands (sums of angles too), replaces sin²x by 1 − cos²x and expands again: two expressions
    that are equal as functions of independent angles then print the same, and an identity becomes
    exactly 0. With
    ``combine``, terms are then gathered by ``trigsimp`` (sin q1·cos q2 + cos q1·sin q2 → sin(q1 + q2))
    when they mix several angles. Meant for the few small expressions a notebook shows, never a
    whole arm's model.

    >>> import sympy as sp
    >>> q1, q2 = sp.symbols("q1 q2")
    >>> simplify_trig(sp.sin(q1) ** 2 * sp.cos(q2) + sp.cos(q1) ** 2 * sp.cos(q2))
    cos(q2)
    """
    sp = sympy()
    e = sp.expand(expr, trig=True)
    sines = set(e.atoms(sp.sin))
    e = sp.expand(e.replace(lambda x: x.is_Pow and x.base in sines and x.exp.is_Integer and x.exp >= 2,
                            lambda x: x.base ** (x.exp % 2) * (1 - sp.cos(x.base.args[0]) ** 2) ** (x.exp // 2)))
    if combine and any(len({f.args[0] for f in t.atoms(sp.sin, sp.cos)}) > 1 for t in sp.Add.make_args(e)):
        e = sp.trigsimp(e)
    return e
