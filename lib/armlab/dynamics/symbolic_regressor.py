"""The lab report's derivation of τ = ξχ (§2.2.2, (2.46)–(2.56)) done by the computer, symbolically.

For each link i the Lagrangian is split into ten terms L_{i,k}, one per parameter of χ_i (2.47):

    L_{i,1} = ½ vᵢᵀvᵢ + gᵢᵀ r_{0,i},   L_{i,2..4} = x, y, z of (vᵢ × ωᵢ + gᵢ),
    L_{i,5..7} = ½ω_x², ½ω_y², ½ω_z²,  L_{i,8..10} = ω_xω_y, ω_xω_z, ω_yω_z,

with vᵢ, ωᵢ the velocity of frame i's origin and its angular velocity, gᵢ gravity and r_{0,i} the
origin's position, all in frame i ((2.33)–(2.35); here by velocity propagation, equal to the Jacobians
(2.37)–(2.45) rotated into frame i). Then ξ_{j,(i,k)} = 𝓛_j{L_{i,k}} with the operator (2.50)

    𝓛_j{f} = d/dt ∂f/∂q̇_j − ∂f/∂q_j,

and 𝓛_j{L_{i,k}} = 0 for j > i (2.51), which makes ξ block upper triangular (2.55).

Nothing is ever expanded. Every intermediate is one entry of a straight-line program (a *tape*: a sympy
Dummy per entry, its expression over earlier entries), and the derivatives are taken on the tape in
forward mode — ∂/∂q̇_j, ∂/∂q_j, and d/dt as the derivative along (q̇, q̈) — entry by entry, each a new
entry: the program grows linearly, common subexpressions are shared by construction, and exact zeros
(such as (2.51)) drop out on the way. The program for τ = ξ·χ with all 10n parameters as symbols is
what :meth:`SymbolicRegressor.cse` returns and what is compiled into numeric code.

>>> from armlab.models import planar2r
>>> model = symbolic_regressor(planar2r())
>>> model.structure().astype(int)
array([[1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0],
       [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0]])
"""

from __future__ import annotations

from typing import Any

import math
import time

import numpy as np
from numpy.typing import ArrayLike

from .._core.protocol import RobotLike
from .._core import smallmat as sm
from .._core.codegen import cached_kernel, run_kernel
from .._core.symbolic import sympy
from .._core.sympy_codegen import compile_program
from .._core.validation import as_float_array, joint_vector
from ..kinematics.scalar import SympyBackend, chain
from .model import GRAVITY
from .params import PARAM_NAMES

__all__ = ["SymbolicRegressor", "symbolic_regressor"]


class _Tape:
    """A straight-line program over sympy: compound values get a Dummy; zeros and atoms stay as they are."""

    def __init__(self) -> None:
        self.sp = sympy()
        self.defs: dict = {}  # Dummy -> expression over earlier Dummies and the inputs
        self.order: list = []
        self._seen: dict = {}  # expression -> its Dummy: an expression met twice is one entry

    def __call__(self, e):
        e = self.sp.sympify(e)
        if e.is_Atom or (e.is_Mul and len(e.args) == 2 and e.args[0] == -1 and e.args[1].is_Atom):
            return e
        s = self._seen.get(e)
        if s is None:
            s = self._seen[e] = self.sp.Dummy(f"t{len(self.order)}")
            self.defs[s] = e
            self.order.append(s)
        return s

    def derive(self, memo: dict, entries: list | None = None) -> dict:
        """Forward mode: ``memo`` maps the inputs with a nonzero derivative (and any entry already derived)
        to their derivatives; derive ``entries`` (default: the whole tape as it is now) in order, adding
        to memo (zeros are not stored)."""
        for s in list(self.order if entries is None else entries):
            if s in memo:
                continue
            e = self.defs[s]
            terms = [e.diff(a) * memo[a] for a in e.free_symbols if memo.get(a, 0) != 0]
            if terms:
                d = self(self.sp.Add(*terms))
                if d != 0:
                    memo[s] = d
        return memo

    def of(self, memo: dict, e: Any) -> Any:
        """The derivative of any expression over the tape (an entry, −entry, an input) from a derived memo."""
        e = self.sp.sympify(e)
        if e in memo:
            return memo[e]
        return self(self.sp.Add(*[e.diff(a) * memo[a] for a in e.free_symbols if memo.get(a, 0) != 0]))

    def needed(self, outputs: list) -> list:
        """The entries the outputs depend on, in order."""
        need = {x for o in outputs for x in self.sp.sympify(o).free_symbols if x in self.defs}
        keep = []
        for s in reversed(self.order):
            if s in need:
                keep.append(s)
                need.update(x for x in self.defs[s].free_symbols if x in self.defs)
        return keep[::-1]

    def expand(self, e: Any) -> Any:
        """An entry as one expression of the inputs (for small pieces only)."""
        full: dict = {}
        for s in self.needed([e]):
            full[s] = self.defs[s].xreplace(full)
        return self.sp.sympify(e).xreplace(full)


def _lagrangian_terms(robot, q, qd, gravity, tape):
    """L[i][k] (2.47) as tape entries, from the velocity recursion in each link's own frame."""
    base, links, _ = chain(robot, q, SympyBackend)
    g = sm.mtv(base[0], list(gravity))  # gravity in the base frame {0}
    w, v, r = [0, 0, 0], [0, 0, 0], [0, 0, 0]
    L = []
    for i, (link, (R, p)) in enumerate(zip(robot.links, links)):
        R = [[tape(x) for x in row] for row in R]
        p = [tape(x) for x in p]
        z = [0, 0, qd[i]]
        if robot.modified:  # fixed part, then joint i about z_i
            v = sm.mtv(R, sm.add(v, sm.cross(w, p)))
            w = sm.mtv(R, w)
            w, v = (sm.add(w, z), v) if link.revolute else (w, sm.add(v, z))
        else:  # joint i about z_{i−1}, then the fixed part
            w, v = (
                (sm.add(w, z), sm.add(v, sm.cross(sm.add(w, z), p)))
                if link.revolute
                else (w, sm.add(sm.add(v, z), sm.cross(w, p)))
            )
            w, v = sm.mtv(R, w), sm.mtv(R, v)
        w, v = [tape(x) for x in w], [tape(x) for x in v]
        r = [tape(x) for x in sm.mtv(R, sm.add(r, p))]  # r_{0,i} in frame i, (2.33)
        g = [tape(x) for x in sm.mtv(R, g)]  # g_i, (2.35)
        vw = sm.add(sm.cross(v, w), g)
        half = tape.sp.Rational(1, 2)
        L.append(
            [
                tape(half * sm.dot(v, v) + sm.dot(g, r)),
                tape(vw[0]),
                tape(vw[1]),
                tape(vw[2]),
                tape(half * w[0] ** 2),
                tape(half * w[1] ** 2),
                tape(half * w[2] ** 2),
                tape(w[0] * w[1]),
                tape(w[0] * w[2]),
                tape(w[1] * w[2]),
            ]
        )
    return L


class SymbolicRegressor:
    """ξ(q, q̇, q̈) of one robot by the report's route; build it with :func:`symbolic_regressor`.

    ``q``, ``qd``, ``qdd``: the joint symbols; ``chi``: the 10n parameter symbols m1, mx1, …, Iyz_n (2.54);
    ``build_time``: seconds the derivation took. ``L(i, k)`` and ``xi(j, i)`` give the report's pieces as
    sympy expressions (1-based, small links only: they are expanded); ``structure()`` which entries of ξ
    are not identically zero; ``cse("xi")`` / ``cse("tau")`` the straight-line program (τ = ξχ in the
    symbols χ); ``operations(key)`` its size; ``xi_fn(q, qd, qdd)`` and ``tau_fn(q, qd, qdd, chi)`` the
    compiled numbers (floats or batches).
    """

    def __init__(self, robot: RobotLike, gravity: Any) -> None:
        start = time.perf_counter()
        sp = sympy()
        n = self.n = robot.n
        self.q = tuple(sp.symbols(f"q1:{n + 1}", real=True))
        self.qd = tuple(sp.symbols(f"qdot1:{n + 1}", real=True))
        self.qdd = tuple(sp.symbols(f"qddot1:{n + 1}", real=True))
        self.chi = tuple(sp.symbols(" ".join(f"{p}{i}" for i in range(1, n + 1) for p in PARAM_NAMES), real=True))
        tape = self._tape = _Tape()
        self._L = _lagrangian_terms(robot, self.q, self.qd, [sp.sympify(x) for x in gravity], tape)
        # d/dt along the motion: q → q̇, q̇ → q̈; derived once for the whole tape
        base = list(tape.order)
        dt = tape.derive({**dict(zip(self.q, self.qd)), **dict(zip(self.qd, self.qdd))}, base)
        outputs = [x for row in self._L for x in row]
        rows = []
        for j in range(n):
            dqd = tape.derive({self.qd[j]: 1}, base)  # ∂/∂q̇_j
            dq = tape.derive({self.q[j]: 1}, base)  # ∂/∂q_j
            # d/dt of the ∂L/∂q̇_j: their entries derived along the motion, on top of the base tape's
            partial = {x: tape.of(dqd, x) for x in outputs}
            ddt = tape.derive(dict(dt), tape.needed(list(partial.values())))
            row = []
            for i in range(n):
                for k in range(10):
                    Lik = self._L[i][k]
                    row.append(tape(tape.of(ddt, partial[Lik]) - tape.of(dq, Lik)) if i >= j else 0)
            rows.append(row)
        self._xi = rows
        self._tau = [tape(sp.Add(*[x * c for x, c in zip(row, self.chi) if x != 0])) for row in rows]
        self._fns: dict = {}
        self.build_time = time.perf_counter() - start

    def L(self, i: int, k: int) -> Any:
        """L_{i,k} of (2.47), 1-based, as one sympy expression."""
        return self._tape.expand(self._L[i - 1][k - 1])

    def xi(self, j: int, i: int) -> Any:
        """The row ξ_{j,i} (2.56): 𝓛_j{L_{i,1}}, …, 𝓛_j{L_{i,10}} (1-based), a 1×10 sympy Matrix."""
        return sympy().Matrix([[self._tape.expand(x) for x in self._xi[j - 1][10 * (i - 1) : 10 * i]]])

    def structure(self, samples: int = 5, seed: int = 0) -> np.ndarray:
        """(n, 10n) booleans: True where ξ is not identically zero (the picture of (2.55)): a nonzero entry of
        the program that is also nonzero at random states (some vanish only by sin² + cos² = 1)."""
        rng = np.random.default_rng(seed)
        values = self.xi_fn(*rng.normal(size=(3, samples, self.n)))
        return np.array([[x != 0 for x in row] for row in self._xi]) & (np.abs(values) > 1e-12).any(axis=0)

    def _outputs(self, key):
        if key == "xi":
            return [x for row in self._xi for x in row]
        if key == "tau":
            return list(self._tau)
        raise ValueError(f"key must be 'xi' or 'tau', got {key!r}")

    def cse(self, key: str = "tau") -> tuple[list, list]:
        """(replacements [(x_k, expression)], outputs), as ``sympy.cse`` returns them."""
        sp = sympy()
        entries = self._tape.needed(self._outputs(key))
        rename = {s: sp.Symbol(f"x{k}") for k, s in enumerate(entries)}
        return (
            [(rename[s], self._tape.defs[s].xreplace(rename)) for s in entries],
            [sp.sympify(o).xreplace(rename) for o in self._outputs(key)],
        )

    def operations(self, key: str = "tau") -> int:
        """Arithmetic operations and function calls of the program (sympy's count_ops)."""
        sp = sympy()
        reps, outs = self.cse(key)
        return int(sum(sp.count_ops(e) for _, e in reps) + sum(sp.count_ops(o) for o in outs))

    def _compile(self, key):
        names = {s: f"q[{i}]" for i, s in enumerate(self.q)}
        names.update({s: f"qd[{i}]" for i, s in enumerate(self.qd)})
        names.update({s: f"qdd[{i}]" for i, s in enumerate(self.qdd)})
        names.update({s: f"chi[{i}]" for i, s in enumerate(self.chi)})
        outputs = self._outputs(key)
        entries = self._tape.needed(outputs)
        names.update({s: f"t{k}" for k, s in enumerate(entries)})
        return compile_program(
            f"symbolic_{key}", ["q", "qd", "qdd", "chi"], [(s, self._tape.defs[s]) for s in entries], outputs, names
        )

    def _run(self, key, shape, q, qd, qdd, chi):
        if key not in self._fns:
            self._fns[key] = self._compile(key)
        arrays = [joint_vector(v, self.n, name, symbolic=False) for v, name in ((q, "q"), (qd, "qd"), (qdd, "qdd"))]
        chi = np.zeros(10 * self.n) if chi is None else as_float_array(chi, "chi", (10 * self.n,))
        batch = np.broadcast_shapes(*(a.shape[:-1] for a in arrays), chi.shape[:-1])
        arrays = [np.ascontiguousarray(np.broadcast_to(a, batch + a.shape[-1:])) for a in arrays + [chi]]
        fn = self._fns[key]
        if not batch:
            return np.array(fn(*(a.tolist() for a in arrays), math.cos, math.sin), dtype=float).reshape(shape)
        return run_kernel(
            lambda q_, qd_, qdd_, chi_, cos, sin: fn(q_, qd_, qdd_, chi_, cos, sin), arrays[0], shape, *arrays[1:]
        )

    def xi_fn(self, q: ArrayLike, qd: ArrayLike, qdd: ArrayLike) -> np.ndarray:
        """ξ (..., n, 10n) from the compiled program."""
        return self._run("xi", (self.n, 10 * self.n), q, qd, qdd, None)

    def tau_fn(self, q: ArrayLike, qd: ArrayLike, qdd: ArrayLike, chi: ArrayLike) -> np.ndarray:
        """τ = ξ·χ (..., n) from the compiled program."""
        return self._run("tau", (self.n,), q, qd, qdd, chi)

    def __repr__(self):
        return (
            f"SymbolicRegressor(n={self.n}, {len(self._tape.order)} program entries, built in {self.build_time:.2f} s)"
        )


def symbolic_regressor(robot: RobotLike, gravity: Any = GRAVITY) -> SymbolicRegressor:
    """The report's derivation of ξ for ``robot`` (:class:`SymbolicRegressor`), built once per robot and gravity."""
    g = tuple(gravity)
    if len(g) != 3:
        raise ValueError(f"gravity must have 3 entries, got {len(g)}")
    return cached_kernel(robot, ("dynamics.symbolic_regressor", tuple(map(str, g))), lambda r: SymbolicRegressor(r, g))
