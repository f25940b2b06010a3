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

Every intermediate is one entry of a straight-line program (:mod:`armlab.dynamics.lagrange_program`:
common subexpressions shared by construction, nothing expanded or simplified), which is both the
numeric code, compiled once per robot through :mod:`armlab._core.codegen`, and the sympy expressions.

**Readable or raw.** For an arm of up to :data:`SIMPLIFY_JOINTS` joints (the 2R, the R-P-R, the
simulation paper's 3-R) the sympy results come back in the book's form: Example 3.9's D11 is
``d1**2*(m1 + m2) + 2*d1*d2*m2*cos(theta2) + d2**2*m2``, the printed (m1 + m2)d1² + m2d2² + 2m2d1d2 cos θ2.
That form (:func:`armlab._core.trigpoly.trig_form`) is a sum of cos and sin of whole combinations of the
joint angles, the link masses and inertias gathered in brackets; it is unique, so equal functions print
the same. Each entry is computed once, when first asked for (a 3-R's M, C and G: well under a second).
A larger arm's results are the program substituted back, unexpanded, because the readable form is
neither short nor quick there: the PUMA560's readable M has some 400 terms (54 in D11 alone), its C
some 1800 and takes seconds; the youBot's M some 200, its C some 700. One entry is quick:
``lagrange(puma560()).D(2, 2, simplify=True)`` (also D(i) and D(i, j, k)). ``lagrange(robot,
simplify=True)`` (or ``False``) sets the default for a whole model.
"""

from __future__ import annotations

from typing import Any

import weakref

import numpy as np
from numpy.typing import ArrayLike

from .._core.protocol import RobotLike
from .._core.codegen import cached_kernel, run_kernel
from .._core.symbolic import sympy
from .._core.sympy_codegen import compile_program
from .._core.trigpoly import TrigProgram, polynomial_form, trig_form
from .._core.validation import joint_vector
from .lagrange_program import Tape, coefficients, frames_and_twists, pseudo_inertia
from .model import GRAVITY

__all__ = ["lagrange", "LagrangeModel", "pseudo_inertia", "simplify_trig", "TERMS", "SIMPLIFY_JOINTS"]

#: The parts of a joint torque, named as in Example 3.9 (3.108)–(3.110).
TERMS = ("effective inertia", "coupling inertia", "centripetal", "Coriolis", "gravity")

#: Arms with at most this many joints return their sympy results simplified (in the book's form) by default.
SIMPLIFY_JOINTS = 3


class LagrangeModel:
    """The Lagrange equations of motion of one robot; build it with :func:`lagrange`.

    Symbols (tuples of sympy Symbols, one per joint): ``q`` = (q1, …, qn), ``qd`` = (qdot1, …) and
    ``qdd`` = (qddot1, …), printed q̇₁, q̈₁; with ``symbol="theta"``: θ1, θ̇1, θ̈1 as in Example 3.9.
    ``parameters``: the other free symbols (symbolic masses, lengths, g), sorted by name.
    ``pseudo_inertias``: each link's I_i (3.120).

    Sympy (built on first use): ``M`` (n×n: D_ij (3.130) plus any armature), ``C`` (n×n,
    Christoffel), ``G`` (n: D_i (3.132)), ``tau`` (n: (3.129)), ``K``, ``P``; the book's coefficients
    by 1-based index: ``D(i, j)``, ``D(i, j, k)``, ``D(i)``; ``cse(key)`` the program behind one.
    ``simplify``: whether these come back in the book's readable form (the module docstring says
    which arms do by default, and why the others do not); ``D(..., simplify=True)`` gives one entry so.

    Numbers (compiled once, floats or batches (..., n); parameters as keywords):
    ``M_fn(q)``, ``C_fn(q, qd)``, ``G_fn(q)``, ``tau_fn(q, qd, qdd)``, ``energy_fn(q, qd)`` → (K, P),
    ``terms_fn(q, qd, qdd)`` → (..., n, 5): each joint's torque split into :data:`TERMS`.
    """

    def __init__(
        self, robot: RobotLike, gravity: Any, armature: Any, symbol: str, simplify: bool | None = None
    ) -> None:
        sp = sympy()
        n = self.n = robot.n
        self.simplify = n <= SIMPLIFY_JOINTS if simplify is None else bool(simplify)
        self._robot = weakref.ref(robot)  # the model is cached on the robot: no strong reference back
        self.q = tuple(sp.symbols(f"{symbol}1:{n + 1}", real=True))
        self.qd = qd = tuple(sp.symbols(f"{symbol}dot1:{n + 1}", real=True))
        self.qdd = qdd = tuple(sp.symbols(f"{symbol}ddot1:{n + 1}", real=True))
        self.gravity = tuple(sp.sympify(g) for g in gravity)
        self.pseudo_inertias = [pseudo_inertia(L.m, L.r, L.I) for L in robot.links]
        tape = self._tape = Tape()
        T, W = frames_and_twists(robot, self.q, tape)
        D2, D3, D1, P = coefficients(robot, T, W, [I.tolist() for I in self.pseudo_inertias], self.gravity, tape)
        arm = [0] * n if armature is None else [sp.sympify(a) for a in armature]
        M = [[tape(D2[i][j] + (arm[i] if i == j else 0)) for j in range(n)] for i in range(n)]
        C = [[tape(sp.Add(*[D3[i][j][k] * qd[k] for k in range(n)])) for j in range(n)] for i in range(n)]
        tau = [tape(sp.Add(*[M[i][j] * qdd[j] + C[i][j] * qd[j] for j in range(n)]) + D1[i]) for i in range(n)]
        K = tape(sp.Add(*[M[i][j] * qd[i] * qd[j] for i in range(n) for j in range(n)]) / 2)
        # the torque split of (3.108)–(3.110):
        # D_ii q̈_i, Σ_{j≠i} D_ij q̈_j, Σ_j D_ijj q̇_j², Σ_{j≠k} D_ijk q̇_j q̇_k, D_i
        terms = [
            [
                tape(M[i][i] * qdd[i]),
                tape(sp.Add(*[D2[i][j] * qdd[j] for j in range(n) if j != i])),
                tape(sp.Add(*[D3[i][j][j] * qd[j] ** 2 for j in range(n)])),
                tape(sp.Add(*[D3[i][j][k] * qd[j] * qd[k] for j in range(n) for k in range(n) if j != k])),
                D1[i],
            ]
            for i in range(n)
        ]
        self._out = {"M": M, "C": C, "G": D1, "tau": tau, "K": K, "P": P, "D2": D2, "D3": D3}
        self._flat = {
            "M": sum(M, []),
            "C": sum(C, []),
            "G": D1,
            "tau": tau,
            "energy": [K, P],
            "terms": sum(terms, []),
        }  # the outputs of the compiled functions
        joint = set(self.q + qd + qdd)
        free = set().union(
            set(),
            *(e.free_symbols for _, e in tape.defs),
            *(sp.sympify(x).free_symbols for x in self.gravity + tuple(arm)),
        )
        self.parameters = tuple(
            sorted((s for s in free if s not in joint and not isinstance(s, sp.Dummy)), key=lambda s: s.name)
        )
        # the symbols gathered in brackets by the readable form: masses, inertias, actuator inertias
        inertial = [L.m for L in robot.links] + [x for L in robot.links if L.I is not None for x in np.ravel(L.I)]
        self._group = set().union(*(sp.sympify(x).free_symbols for x in inertial + arm))
        self._revolute = tuple(q for q, L in zip(self.q, robot.links) if L.revolute)
        self._full: dict | None = None
        self._program: TrigProgram | None = None
        self._readable: dict = {}
        self._src: dict | None = None
        self._fns: dict = {}

    @property
    def robot(self) -> Any:
        return self._robot()

    # --- sympy -----------------------------------------------------------------------
    def _expand(self, x):
        """An output of the tape as one sympy expression in the joint symbols (not simplified)."""
        if self._full is None:
            full: dict = {}
            for s, e in self._tape.defs:
                full[s] = e.xreplace(full)
            self._full = full
        return self.sp.sympify(x).xreplace(self._full)

    def _form(self, x):
        """An output of the tape (or an expression over it) in the readable form, computed once."""
        if x not in self._readable:
            if self._program is None:
                symbols = self.q + self.qd + self.qdd + self.parameters
                self._program = TrigProgram(self._tape.defs, self._revolute, symbols)
            self._readable[x] = self._program.form(x, self._group)
        return self._readable[x]

    def _entry(self, x, simplify=None):
        return self._form(x) if (self.simplify if simplify is None else simplify) else self._expand(x)

    @property
    def sp(self) -> Any:
        return sympy()

    def _matrix(self, key):
        return self.sp.Matrix([[self._entry(x) for x in row] for row in self._out[key]])

    @property
    def M(self) -> Any:
        """M(q) = [D_ij] (3.130), plus the actuator inertias I_ai on the diagonal (3.129)."""
        return self._matrix("M")

    @property
    def C(self) -> Any:
        """C(q, q̇) with C_ij = Σ_k D_ijk q̇_k (lab report (2.72)); C q̇ is the velocity-product torque."""
        return self._matrix("C")

    @property
    def G(self) -> Any:
        """G(q) = [D_i] (3.132), the gravity torques (a column)."""
        return self.sp.Matrix([self._entry(x) for x in self._out["G"]])

    @property
    def tau(self) -> Any:
        """τ = M q̈ + C q̇ + G, (3.129) (a column); readable: as :meth:`simplified`."""
        if self.simplify:
            return self.simplified()
        return self.sp.Matrix([self._expand(x) for x in self._out["tau"]])

    @property
    def K(self) -> Any:
        """Kinetic energy ½ q̇ᵀ M q̇ (3.121), (3.124)."""
        return self._entry(self._out["K"])

    @property
    def P(self) -> Any:
        """Potential energy −Σ m_p gᵀ T_p r̄_p (3.127), zero at the base origin."""
        return self._entry(self._out["P"])

    def simplified(self) -> Any:
        """τ in the book's form (3.106)–(3.109): Σ_j D_ij q̈_j + Σ_j D_ijj q̇_j² + Σ_{j<k} 2·D_ijk q̇_j q̇_k + D_i,
        every coefficient in the readable form (whatever ``simplify`` says; a 2R takes ~0.1 s)."""
        sp, n = self.sp, self.n
        M, D3 = self._out["M"], self._out["D3"]
        rows = []
        for i in range(n):
            terms = [self._form(M[i][j]) * self.qdd[j] for j in range(n)]
            for j in range(n):
                for k in range(j, n):
                    coefficient = self._form(sp.sympify(D3[i][j][k]) * (1 if j == k else 2))
                    terms.append(coefficient * self.qd[j] * self.qd[k])
            terms.append(self._form(self._out["G"][i]))
            rows.append(sp.Add(*terms))
        return sp.Matrix(rows)

    def D(self, *index: int, simplify: bool | None = None) -> Any:
        """The book's coefficient with 1-based indices: D(i, j) (3.130), D(i, j, k) (3.131), D(i) (3.132);
        ``simplify`` overrides the model's choice for this entry (e.g. one readable entry of the PUMA560)."""
        if not index or len(index) > 3 or not all(isinstance(i, int) and 1 <= i <= self.n for i in index):
            raise ValueError(f"D takes 1 to 3 joint indices in 1..{self.n}, got {index}")
        i = [k - 1 for k in index]
        if len(i) == 1:
            return self._entry(self._out["G"][i[0]], simplify)
        if len(i) == 2:
            return self._entry(self._out["D2"][i[0]][i[1]], simplify)
        return self._entry(self._out["D3"][i[0]][i[1]][i[2]], simplify)

    # --- numbers ---------------------------------------------------------------------
    def _kernel(self, key, args):
        """Compile the outputs ``key`` of the tape into straight-line code (once per model)."""
        if key not in self._fns:
            self._fns[key] = self._compile(key, args)
        return self._fns[key]

    def _compile(self, key, args):
        n = self.n
        names = {s: f"q{i}" for i, s in enumerate(self.q)}
        names.update({s: f"qd{i}" for i, s in enumerate(self.qd)})
        names.update({s: f"qdd{i}" for i, s in enumerate(self.qdd)})
        names.update({s: f"p{i}" for i, s in enumerate(self.parameters)})
        names.update({s: f"v{k}" for k, (s, _) in enumerate(self._tape.defs)})
        prologue = [f"{', '.join(f'{a}{i}' for i in range(n))}, = {a}" for a in args]
        if self.parameters:
            prologue.append(f"{', '.join(f'p{i}' for i in range(len(self.parameters)))}, = p")
        if self._src is None:
            self._src = {}  # each tape entry printed once, for all kernels
        outputs = self._flat[key]
        return compile_program(
            f"lagrange_{key}",
            [*args, "p"],
            self._tape.needed(outputs),
            outputs,
            names,
            prologue=prologue,
            printed=self._src,
        )

    def cse(self, key: str = "tau") -> tuple[list, list]:
        """The straight-line program behind an output, as ``sympy.cse`` returns it:
        (replacements [(x_k, expression)], outputs), for ``key`` in M, C, G, tau, energy."""
        sp = self.sp
        pairs = self._tape.needed(self._flat[key])
        rename = {s: sp.Symbol(f"x{k}") for k, (s, _) in enumerate(pairs)}
        return (
            [(rename[s], e.xreplace(rename)) for s, e in pairs],
            [sp.sympify(x).xreplace(rename) for x in self._flat[key]],
        )

    def _run(self, key, shape, values, params):
        args = ("q", "qd", "qdd")[: len(values)]
        arrays = [joint_vector(v, self.n, name, symbolic=False) for v, name in zip(values, args)]
        missing = [s.name for s in self.parameters if s.name not in params]
        unknown = set(params) - {s.name for s in self.parameters}
        if missing or unknown:
            raise TypeError(
                f"this model's parameters are {[s.name for s in self.parameters]}: "
                f"missing {missing}, unknown {sorted(unknown)}"
            )
        p = np.array([float(params[s.name]) for s in self.parameters])
        batch = np.broadcast_shapes(*(a.shape[:-1] for a in arrays))
        arrays = [np.ascontiguousarray(np.broadcast_to(a, batch + a.shape[-1:])) for a in arrays]
        p = np.ascontiguousarray(np.broadcast_to(p, batch + p.shape))
        return run_kernel(self._kernel(key, args), arrays[0], shape, *arrays[1:], p)

    def M_fn(self, q: ArrayLike, **params: float) -> np.ndarray:
        """M(q), (..., n, n)."""
        return self._run("M", (self.n, self.n), (q,), params)

    def C_fn(self, q: ArrayLike, qd: ArrayLike, **params: float) -> np.ndarray:
        """C(q, q̇), (..., n, n)."""
        return self._run("C", (self.n, self.n), (q, qd), params)

    def G_fn(self, q: ArrayLike, **params: float) -> np.ndarray:
        """G(q), (..., n)."""
        return self._run("G", (self.n,), (q,), params)

    def tau_fn(self, q: ArrayLike, qd: ArrayLike, qdd: ArrayLike, **params: float) -> np.ndarray:
        """τ(q, q̇, q̈), (..., n)."""
        return self._run("tau", (self.n,), (q, qd, qdd), params)

    def energy_fn(self, q: ArrayLike, qd: ArrayLike, **params: float) -> np.ndarray:
        """(K, P), (..., 2)."""
        return self._run("energy", (2,), (q, qd), params)

    def terms_fn(self, q: ArrayLike, qd: ArrayLike, qdd: ArrayLike, **params: float) -> np.ndarray:
        """Each joint's torque split into :data:`TERMS`, (..., n, 5); the rows sum to τ."""
        return self._run("terms", (self.n, len(TERMS)), (q, qd, qdd), params)

    def __repr__(self):
        name = getattr(self.robot, "name", "") or "robot"
        return f"LagrangeModel({name!r}, n={self.n}, parameters={self.parameters})"


def lagrange(
    robot: RobotLike,
    gravity: Any = GRAVITY,
    *,
    armature: Any = None,
    symbol: str = "q",
    simplify: bool | None = None,
) -> LagrangeModel:
    """The symbolic Lagrange model of ``robot`` (textbook (3.111)–(3.132)); see :class:`LagrangeModel`.

    ``gravity``: gravitational acceleration in the world frame (numbers or sympy, e.g. ``(g, 0, 0)``);
    ``armature``: actuator inertias I_ai (3.122), added to M's diagonal as in (3.129);
    ``symbol``: the joint symbols' stem, "q" (q1, qdot1, qddot1) or e.g. "theta";
    ``simplify``: sympy results in the book's readable form; ``None``: for arms of up to
    :data:`SIMPLIFY_JOINTS` joints (the module docstring says why not for larger ones).
    The model is built once per robot and arguments and kept in memory (as code, never pickled).


    >>> from armlab.models import planar2r
    >>> model = lagrange(planar2r(), gravity=(0, GRAVITY[2], 0))  # g along −y: the arm's plane is vertical
    >>> model.M_fn([0.0, 0.0]).round(6)
    array([[5., 2.],
           [2., 1.]])

    Example 3.9's effective inertia, as the book prints it, (m1 + m2)d1² + m2d2² + 2m2d1d2 cos θ2:

    >>> import sympy as sp
    >>> d1, d2, m1, m2, g = sp.symbols("d1 d2 m1 m2 g", positive=True)
    >>> lagrange(planar2r(d1, d2, m1, m2), gravity=(g, 0, 0), symbol="theta").D(1, 1)
    d1**2*(m1 + m2) + 2*d1*d2*m2*cos(theta2) + d2**2*m2
    """
    if not robot.symbolic and not any(link.m for link in robot.links):
        raise ValueError(
            f"{robot.name or 'this robot'!r} has no link masses: the Lagrange model needs each "
            "DHLink's m, r (centre of mass) and I (inertia about it)"
        )
    if not isinstance(symbol, str) or not symbol.isidentifier():
        raise ValueError(f"symbol must be a name such as 'q' or 'theta', got {symbol!r}")
    g = tuple(gravity)
    if len(g) != 3:
        raise ValueError(f"gravity must have 3 entries, got {len(g)}")
    if armature is not None:
        armature = tuple(armature)
        if len(armature) != robot.n:
            raise ValueError(f"armature must have {robot.n} entries (one per joint), got {len(armature)}")
    key = (
        "dynamics.lagrange",
        tuple(_hashable(x) for x in g),
        None if armature is None else tuple(map(_hashable, armature)),
        symbol,
        simplify,
    )
    return cached_kernel(robot, key, lambda r: LagrangeModel(r, g, armature, symbol, simplify))


def _hashable(x):
    sp = sympy()
    return x if isinstance(x, sp.Basic) else float(x)


def simplify_trig(expr: Any, combine: bool = True) -> Any:
    """A polynomial in sines and cosines in canonical form, for showing a small expression.

    With ``combine`` (the default): :func:`armlab._core.trigpoly.trig_form`, a sum of cos and sin of
    whole combinations of the angles (sin q1·cos q2 + cos q1·sin q2 → sin(q1 + q2), sin²q → (1 − cos 2q)/2),
    the form the Lagrange model returns for small arms. Without: expanded, sin² → 1 − cos²
    (:func:`armlab._core.trigpoly.polynomial_form`), cheaper and enough to see that an identity is exactly 0.
    Either way two expressions that are equal as functions of independent angles print the same.

    >>> import sympy as sp
    >>> q1, q2 = sp.symbols("q1 q2")
    >>> simplify_trig(sp.sin(q1) ** 2 * sp.cos(q2) + sp.cos(q1) ** 2 * sp.cos(q2))
    cos(q2)
    >>> simplify_trig(sp.sin(q1) * sp.cos(q2) + sp.cos(q1) * sp.sin(q2) + sp.sin(q1) ** 2, combine=False)
    sin(q1)*cos(q2) + sin(q2)*cos(q1) - cos(q1)**2 + 1
    """
    return trig_form(expr) if combine else polynomial_form(expr)
