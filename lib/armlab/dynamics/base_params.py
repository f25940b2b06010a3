"""Base parameters: the combinations of χ (or χ̄) that the joint torques can reveal.

Not every column of the regressor is independent. Some are identically zero (link 1 of the youBot turns
only about the vertical z₀, so its m, m·c, and every inertia but the one about that axis never enter a
torque); others are linear combinations of earlier columns (the mass of link k acts on the joints before
it exactly like a point mass at O_k, i.e. like a change of link k−1's first moments and inertias). The
torques then determine only χ_B = β·χ, one *base parameter* per independent column, and the
least-squares problem (3.2) is solvable only for them: ΞᵀΞ is singular for every trajectory
(docs/errata.md).

:func:`base_parameters` finds them numerically (Gautier's method): it stacks ξ at random states, runs a
QR decomposition of the column-normalised stack in the order of (2.54) and keeps a column when its
diagonal entry of R is not negligible — a column that lies in the span of the columns before it is
dependent (links in order, and within a link the inertias first, then the first moments, the mass, and
I_a, f_v, f_c, f_off: a group is led by its inertia). The dependent columns are written in the independent ones (ξ_D = ξ_B·K), which gives the
grouping χ_B = χ_I + K·χ_D, shown with sympy symbols in :attr:`BaseParameters.symbolic`.

>>> from armlab.models import planar2r
>>> bp = base_parameters(planar2r())          # the arm moves in the horizontal plane: gravity does no work
>>> bp.count, bp.names
(4, ('Izz1', 'mx2', 'my2', 'Izz2'))
>>> bp.symbolic.T
Matrix([[Izz1 + m1 + m2 + 2*mx1, m2 + mx2, my2, Izz2 - m2]])
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._core.protocol import RobotLike
from .._core.codegen import cached_kernel
from .._core.symbolic import sympy
from .model import GRAVITY
from .params import FULL_NAMES, PARAM_NAMES, regressor, regressor_full

__all__ = ["BaseParameters", "base_parameters", "parameter_names", "random_states"]


def parameter_names(robot: RobotLike, friction: bool = False) -> tuple[str, ...]:
    """Names of χ (friction=False) or χ̄ entries, link number appended: m1, mx1, …, Iyz1, (Ia1, fv1, fc1, foff1), m2, …"""
    names = FULL_NAMES if friction else PARAM_NAMES
    return tuple(f"{p}{k}" for k in range(1, robot.n + 1) for p in names)


def random_states(robot: RobotLike, count: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(q, q̇, q̈), each (count, n): q uniform within the joint limits (±π where there are none), q̇ and q̈
    standard normal — generic states, at which no accidental dependency survives."""
    rng = np.random.default_rng(seed)
    n = robot.n
    lim = getattr(robot, "qlim", None)
    lo, hi = (
        (np.full(n, -np.pi), np.full(n, np.pi))
        if lim is None
        else (np.asarray(lim, float)[:, 0], np.asarray(lim, float)[:, 1])
    )
    lo, hi = np.where(np.isfinite(lo), lo, -np.pi), np.where(np.isfinite(hi), hi, np.pi)
    return rng.uniform(lo, hi, (count, n)), rng.normal(size=(count, n)), rng.normal(size=(count, n))


class BaseParameters:
    """The base parameters of a robot (see :func:`base_parameters`).

    ``count``: how many; ``columns``: the indices of the independent columns of ξ (or ξ̄), in order;
    ``names``: the parameter each is led by (e.g. "Izz2"); ``combination``: β (count × p) with
    χ_B = β·χ; ``symbolic``: χ_B as sympy expressions of the parameter symbols; ``zero``: the
    columns that are identically zero; ``friction``: whether the 14n columns of ξ̄ were used.
    """

    def __init__(
        self, robot: Any, friction: bool, columns: Any, combination: np.ndarray, zero: Any, gravity: Any
    ) -> None:
        self.robot, self.friction, self.gravity = robot, friction, gravity
        self.columns = tuple(int(c) for c in columns)
        self.combination = combination
        self.zero = tuple(int(c) for c in zero)
        self.all_names = parameter_names(robot, friction)
        self.names = tuple(self.all_names[c] for c in self.columns)

    @property
    def count(self) -> int:
        return len(self.columns)

    @property
    def symbols(self) -> Any:
        """The sympy symbols of χ (or χ̄), in order."""
        sp = sympy()
        return sp.symbols(" ".join(self.all_names), real=True)

    @property
    def symbolic(self) -> Any:
        """χ_B as a sympy column: each base parameter its leading parameter plus the grouped ones,
        coefficients rounded to 9 significant digits (geometry such as a² = 0.155² = 0.024025)."""
        sp = sympy()
        syms = self.symbols
        rows = []
        for row in self.combination:
            rows.append(sp.Add(*[_coefficient(c) * s for c, s in zip(row, syms) if c != 0]))
        return sp.Matrix(rows)

    def of(self, chi: ArrayLike) -> np.ndarray:
        """χ_B = β·χ for a full parameter vector χ (p,) or a batch (..., p)."""
        chi = np.asarray(chi, float)
        if chi.shape[-1] != self.combination.shape[1]:
            raise ValueError(
                f"chi must have {self.combination.shape[1]} entries "
                f"({'14' if self.friction else '10'} per link), got shape {chi.shape}"
            )
        return chi @ self.combination.T

    def regressor(self, q: Any, qd: Any, qdd: Any, gravity: Any = None) -> np.ndarray:
        """ξ_B (..., n, count): the independent columns, so that ξ_B·χ_B = ξ·χ."""
        g = self.gravity if gravity is None else gravity
        full = (regressor_full if self.friction else regressor)(self.robot, q, qd, qdd, g)
        return full[..., list(self.columns)]

    def __repr__(self):
        return (
            f"BaseParameters({self.robot.name or 'robot'!r}, count={self.count} of "
            f"{self.combination.shape[1]}, friction={self.friction})"
        )


def base_parameters(
    robot: RobotLike,
    friction: bool = False,
    *,
    gravity: Any = GRAVITY,
    samples: int | None = None,
    seed: int = 0,
    tol: float = 1e-9,
) -> BaseParameters:
    """The base parameters of ``robot`` (:class:`BaseParameters`), numerically from ``samples``
    random states (default 40·n); ``friction=True`` uses the 14n columns of ξ̄ (2.64)–(2.66).

    A column is independent when the part of it (normalised) that the columns before it cannot explain
    exceeds ``tol`` (relative); the result is cached per robot, friction and gravity."""
    if robot.symbolic:
        raise ValueError("base_parameters needs a numeric robot (its geometry as numbers; the masses do not matter)")
    key = ("dynamics.base_parameters", bool(friction), tuple(float(x) for x in gravity), samples, seed, tol)
    return cached_kernel(robot, key, lambda r: _compute(r, bool(friction), gravity, samples, seed, tol))


#: Within a link the columns are tried in this order, so that a grouped base parameter is led by an inertia
#: (Izz1 + a1²·m1 + …), then a first moment, then the mass: position in this list of (m, mx, my, mz, Ixx, …).
_LEAD_ORDER = np.array([9, 6, 7, 8, 0, 1, 2, 3, 4, 5])


def _coefficient(c):
    sp = sympy()
    return sp.Integer(round(c)) if abs(c - round(c)) < 1e-12 else sp.Float(float(f"{c:.9g}"), 9)


def _compute(robot, friction, gravity, samples, seed, tol):
    n = robot.n
    q, qd, qdd = random_states(robot, samples or 40 * n, seed)
    xi = (regressor_full if friction else regressor)(robot, q, qd, qdd, gravity)
    W = xi.reshape(-1, xi.shape[-1])
    norms = np.linalg.norm(W, axis=0)
    scale = norms.max()
    zero = np.flatnonzero(norms <= tol * scale)
    live = np.flatnonzero(norms > tol * scale)
    per = W.shape[1] // n
    rank = np.tile(np.r_[_LEAD_ORDER, np.arange(10, per)], n) + per * np.repeat(np.arange(n), per)
    live = live[np.argsort(rank[live], kind="stable")]  # links in order; inertias lead within a link
    R = np.linalg.qr(W[:, live] / norms[live], mode="r")
    keep = np.sort(live[np.abs(np.diag(R)) > np.sqrt(tol)])  # |R_ii|: column i's part outside the span before it
    dep = np.setdiff1d(live, keep)
    B = W[:, keep]
    K = np.linalg.lstsq(B, W[:, dep], rcond=None)[0] if dep.size else np.zeros((keep.size, 0))
    K[np.abs(K) < 1e-10 * max(1.0, np.abs(K).max(initial=0.0))] = 0.0
    beta = np.zeros((keep.size, W.shape[1]))
    beta[np.arange(keep.size), keep] = 1.0
    beta[:, dep] = K
    return BaseParameters(robot, friction, keep, beta, zero, tuple(float(x) for x in gravity))
