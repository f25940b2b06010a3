"""Trigonometric polynomials in one canonical form, for symbolic results a student can read.

The textbook prints Example 3.9's effective inertia (after (3.110)) as

    D11 = (m1 + m2)d1² + m2d2² + 2m2d1d2 cos θ2,

a sum of cosines and sines of whole combinations of the joint angles (cos θ2, sin(θ1 + θ2)), each with
the masses gathered in one bracket. :func:`trig_form` writes any polynomial in the sines and cosines of
some angles that way, deterministically:

1. multiply out, in sympy's sparse polynomials over the rationals, with sin θ and cos θ as variables
   and sin²θ → 1 − cos²θ after every product: the remainder modulo the ideal of sin² + cos² − 1 is
   unique, so intermediates stay small. A float input is taken at its decimal value (0.155 → 31/200),
   so the arithmetic is exact and sin² + cos² = 1 cancels exactly, with no rounding residue; the
   result's coefficients are then floats again;
2. write each product of sines and cosines as a sum of cos(k·θ) and sin(k·θ), k integer (through
   e^{iθ}): the trigonometric polynomial's Fourier form, which is unique too, so two expressions that
   are equal as functions print the same and an identity is exactly 0;
3. gather the terms that differ only in the ``group`` symbols (the masses and inertias):
   m1·d1² + m2·d1² → d1²·(m1 + m2).

:class:`TrigProgram` does the same for the outputs of a straight-line program (the Lagrange model's
tape), evaluating each intermediate once: the back-substituted expression, expanded, would be far larger.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb
from typing import Any, Iterable, Sequence

from .symbolic import sympy

__all__ = ["trig_form", "TrigProgram", "polynomial_form"]


@lru_cache(maxsize=None)
def _series(a: int, b: int) -> tuple[tuple[int, int, int], ...]:
    """sin^a θ · cos^b θ = 2^−(a+b) Σ_k (x_k + i·y_k) e^{ikθ}: the (k, x_k, y_k), integers
    (sin = (z − 1/z)/2i, cos = (z + 1/z)/2, z = e^{iθ})."""
    c: dict[int, tuple[int, int]] = {0: (1, 0)}
    for factor in ("sin",) * a + ("cos",) * b:
        new: dict[int, tuple[int, int]] = {}
        for k, (x, y) in c.items():
            if factor == "cos":
                parts = ((k + 1, x, y), (k - 1, x, y))
            else:  # −i·z + i/z: −i(x + iy) = y − ix, i(x + iy) = −y + ix
                parts = ((k + 1, y, -x), (k - 1, -y, x))
            for j, u, v in parts:
                p, q = new.get(j, (0, 0))
                new[j] = (p + u, q + v)
        c = {k: v for k, v in new.items() if v != (0, 0)}
    return tuple((k, x, y) for k, (x, y) in sorted(c.items()))


def _leading_positive(k: tuple[int, ...]) -> bool:
    """k = 0, or its first non-zero entry is positive: one of each pair ±k."""
    for x in k:
        if x:
            return x > 0
    return True


class TrigProgram:
    """A straight-line program evaluated as polynomials in the sines and cosines of ``angles``.

    ``defs``: (symbol, expression) pairs in program order, each expression over earlier symbols, the
    angles and other symbols; ``symbols``: any further symbols the expressions passed to :meth:`form`
    use. Sums, products and positive integer powers are multiplied out; sin and cos of a combination of
    angles are expanded; anything else that does not involve an angle (sin α of a symbolic twist, √x)
    is kept as one variable. Each program entry is evaluated once, when first needed.

    >>> import sympy as sp
    >>> q1, q2, v, w = sp.symbols("q1 q2 v w")
    >>> program = TrigProgram([(v, sp.cos(q1) * sp.cos(q2)), (w, sp.sin(q1) * sp.sin(q2))], (q1, q2))
    >>> program.form(v - w), program.form(v + w)
    (cos(q1 + q2), cos(q1 - q2))
    """

    def __init__(
        self, defs: Sequence[tuple[Any, Any]] = (), angles: Iterable[Any] = (), symbols: Iterable[Any] = ()
    ) -> None:
        sp = self.sp = sympy()
        from sympy.polys.domains import QQ
        from sympy.polys.rings import ring

        self._defs = dict(defs)
        self._position = {s: i for i, (s, _) in enumerate(defs)}
        self.angles = tuple(angles)
        index = {a: i for i, a in enumerate(self.angles)}
        plain: set = set(symbols) - set(index)
        opaque: set = set()
        exact = True
        seen: set = set()
        stack = [e for _, e in defs] + list(symbols)
        while stack:
            node = stack.pop()
            if node in seen or node in self._defs:
                continue
            seen.add(node)
            if node.is_Add or node.is_Mul:
                stack.extend(node.args)
            elif node.is_Pow and node.exp.is_Integer and node.exp > 0:
                stack.append(node.base)
            elif node.is_Symbol:
                if node not in index:
                    plain.add(node)
            elif node.is_number:
                exact &= bool(node.is_Rational)
            elif isinstance(node, (sp.sin, sp.cos)) and node.args[0] in index:
                continue
            elif node.free_symbols & set(index):
                if not isinstance(node, (sp.sin, sp.cos)):
                    raise ValueError(f"not a polynomial in the sines and cosines of {self.angles}: {node}")
                stack.append(sp.expand_trig(node))
            else:
                opaque.add(node)  # free of the angles: one more variable
        self._plain = sorted(plain, key=lambda s: s.name) + sorted(opaque, key=str)
        self.exact = exact  # else the result's coefficients are floats
        self.domain = QQ
        names = [f"{f}{i}" for i in range(len(self.angles)) for f in ("s", "c")]
        names += [f"x{i}" for i in range(len(self._plain))]
        self.ring, *gens = ring(names, self.domain)
        self._gens: dict = {}
        for i, a in enumerate(self.angles):
            self._gens[sp.sin(a)], self._gens[sp.cos(a)] = gens[2 * i], gens[2 * i + 1]
        self._gens.update(zip(self._plain, gens[2 * len(self.angles) :]))
        self._values: dict = {}

    def _reduce(self, p):
        """p with every sin² → 1 − cos²: the remainder modulo sin² + cos² − 1 (unique: no sine squared is left),
        written out term by term, sin^e = sin^(e mod 2)·(1 − cos²)^(e // 2) binomially, as the generic division
        ``p.rem(ideal)`` gives it, far faster."""
        n = len(self.angles)
        if not any(m[2 * i] >= 2 for m in p.itermonoms() for i in range(n)):
            return p
        out: dict = {}
        for monom, coeff in p.items():
            terms = {monom: coeff}
            for i in range(n):
                half, odd = divmod(monom[2 * i], 2)
                if half == 0:
                    continue
                expanded: dict = {}
                for m, c in terms.items():
                    for j in range(half + 1):  # (1 − cos²)^half = Σ_j C(half, j) (−cos²)^j
                        key = m[: 2 * i] + (odd, m[2 * i + 1] + 2 * j) + m[2 * i + 2 :]
                        expanded[key] = expanded.get(key, 0) + c * (-1) ** j * comb(half, j)
                terms = expanded
            for m, c in terms.items():
                out[m] = out.get(m, 0) + c
        return self.ring.from_dict({m: c for m, c in out.items() if c})

    def _convert(self, e):
        sp = self.sp
        if e in self._values:
            return self._values[e]
        if e in self._gens:
            return self._gens[e]
        if e.is_Add:
            return self.ring.add(*[self._convert(a) for a in e.args])
        if e.is_Mul:
            p = self.ring.one
            for a in e.args:
                p = self._reduce(p * self._convert(a))
            return p
        if e.is_Pow and e.exp.is_Integer and e.exp > 0:
            return self._reduce(self._convert(e.base) ** int(e.exp))
        if e.is_Rational:
            return self.ring.ground_new(self.domain.from_sympy(e))
        if e.is_number:  # a float (or √3, π) at its shortest decimal: exact arithmetic from here on
            return self.ring.ground_new(self.domain.from_sympy(sp.Rational(repr(float(e)))))
        if isinstance(e, (sp.sin, sp.cos)):
            return self._convert(sp.expand_trig(e))
        raise ValueError(f"not a polynomial in the sines and cosines of {self.angles}: {e}")

    def polynomial(self, expr: Any) -> Any:
        """``expr`` as a reduced polynomial (a sympy ``PolyElement`` of :attr:`ring`)."""
        e = self.sp.sympify(expr)
        need, stack = set(), [s for s in e.free_symbols if s in self._defs and s not in self._values]
        while stack:
            s = stack.pop()
            if s not in need:
                need.add(s)
                stack.extend(x for x in self._defs[s].free_symbols if x in self._defs and x not in self._values)
        for s in sorted(need, key=lambda s: self._position[s]):
            self._values[s] = self._convert(self._defs[s])
        return self._convert(e)

    def form(self, expr: Any, group: Iterable[Any] = ()) -> Any:
        """``expr`` in the canonical Fourier form of the module docstring, the ``group`` symbols gathered."""
        sp, dom, n = self.sp, self.domain, len(self.angles)
        acc: dict = {}  # (sin or cos, k, exponents of the other variables) → coefficient
        for monom, coeff in self.polynomial(expr).items():
            series: dict = {(): (1, 0)}
            for i in range(n):
                series = {
                    k + (j,): (re * x - im * y, re * y + im * x)
                    for k, (re, im) in series.items()
                    for j, x, y in _series(monom[2 * i], monom[2 * i + 1])
                }
            denominator = dom(2 ** sum(monom[: 2 * n]))
            rest = monom[2 * n :]
            # a real term's series is conjugate-symmetric: c_k e^{ikθ} + c_−k e^{−ikθ} = 2Re c_k cos kθ − 2Im c_k sin kθ
            for k, (re, im) in series.items():
                if not _leading_positive(k):
                    continue
                scale = 2 if any(k) else 1
                for kind, part in ((sp.cos, scale * re), (sp.sin, -scale * im if any(k) else 0)):
                    if part:
                        key = (kind, k, rest)
                        acc[key] = acc.get(key, dom.zero) + coeff * dom(part) / denominator
        grouped = set(group)
        gathered: dict = {}
        for (kind, k, rest), v in acc.items():
            if not v:
                continue
            inside, outside = [dom.to_sympy(v) if self.exact else sp.Float(dom.to_sympy(v))], []
            if any(k):
                outside.append(kind(sp.Add(*[c * a for c, a in zip(k, self.angles)])))
            for x, e in zip(self._plain, rest):
                if e:
                    (inside if x.free_symbols & grouped else outside).append(x**e)
            gathered.setdefault(sp.Mul(*outside), []).append(sp.Mul(*inside))
        return sp.Add(*[outside * sp.factor_terms(sp.Add(*inside)) for outside, inside in gathered.items()])


def trig_form(expr: Any, angles: Iterable[Any] | None = None, group: Iterable[Any] = ()) -> Any:
    """``expr`` as a sum of cos(k·θ) and sin(k·θ) over the ``angles``, coefficients grouped by ``group``.

    ``angles``: the symbols θ_i (default: every symbol inside a sin or cos); ``group``: symbols (the
    masses and inertias) gathered into one bracket per remaining factor, as the textbook prints its
    D-coefficients after (3.110). The steps are in the module docstring.

    >>> import sympy as sp
    >>> t1, t2, d1, d2, m1, m2 = sp.symbols("theta1 theta2 d1 d2 m1 m2")
    >>> x = m1 * d1**2 + m2 * ((d1 * sp.cos(t1) + d2 * sp.cos(t1 + t2)) ** 2 + (d1 * sp.sin(t1) + d2 * sp.sin(t1 + t2)) ** 2)
    >>> trig_form(x, (t1, t2), group=(m1, m2))
    d1**2*(m1 + m2) + 2*d1*d2*m2*cos(theta2) + d2**2*m2
    >>> trig_form(sp.sin(t1) * sp.cos(t2) + sp.cos(t1) * sp.sin(t2) - 2 * sp.sin(t1) ** 2)
    sin(theta1 + theta2) + cos(2*theta1) - 1
    """
    sp = sympy()
    e = sp.sympify(expr)
    if angles is None:
        angles = sorted(set().union(*(f.args[0].free_symbols for f in e.atoms(sp.sin, sp.cos))), key=lambda s: s.name)
    x = sp.Dummy("x")
    return TrigProgram([(x, e)], angles).form(x, group)


def polynomial_form(expr: Any) -> Any:
    """A polynomial in sines and cosines, expanded, with sin² → 1 − cos²: canonical for functions of
    independent angles (an identity becomes exactly 0), but keeps powers and products of single angles.

    >>> import sympy as sp
    >>> q1, q2 = sp.symbols("q1 q2")
    >>> polynomial_form(sp.sin(q1) ** 2 * sp.cos(q2) + sp.cos(q1) ** 2 * sp.cos(q2))
    cos(q2)
    """
    sp = sympy()
    e = sp.expand(expr, trig=True)
    sines = set(e.atoms(sp.sin))
    return sp.expand(
        e.replace(
            lambda x: x.is_Pow and x.base in sines and x.exp.is_Integer and x.exp >= 2,
            lambda x: x.base ** (x.exp % 2) * (1 - sp.cos(x.base.args[0]) ** 2) ** (x.exp // 2),
        )
    )
