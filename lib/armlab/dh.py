"""Denavit–Hartenberg links and serial robots, in both conventions.

* standard (lab report eqs. (2.1)–(2.4)):  A_i = Rz(θ_i)·Tz(d_i)·Tx(a_i)·Rx(α_i)
* modified / Craig (textbook eqs. (3.22)–(3.23)):
  ^{i-1}_iT = Rx(α_{i-1})·Tx(a_{i-1})·Rz(θ_i)·Tz(d_i)

In the modified convention a link's ``a`` and ``alpha`` are the row's a_{i-1},
α_{i-1} as printed in the textbook's tables.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ._chain import compile_chain
from ._backend import as_float_array, check_finite, check_rigid, exact_angle, exact_number, is_symbolic, sym_matrix, sympy

__all__ = ["link_transform_standard", "link_transform_modified", "DHLink", "DHRobot"]

CONVENTIONS = ("standard", "modified")


def link_transform_standard(theta, d, a, alpha):
    """Standard DH link matrix A = Rz(θ)·Tz(d)·Tx(a)·Rx(α), lab report eq. (2.4).

    >>> link_transform_standard(0.0, 0.147, 0.033, np.pi / 2).round(3) + 0.0  # + 0.0 drops the sign of -0.
    array([[ 1.   ,  0.   ,  0.   ,  0.033],
           [ 0.   ,  0.   , -1.   ,  0.   ],
           [ 0.   ,  1.   ,  0.   ,  0.147],
           [ 0.   ,  0.   ,  0.   ,  1.   ]])
    """
    if is_symbolic(theta, d, a, alpha):
        sp = sympy()
        ct, st, ca, sa = sp.cos(theta), sp.sin(theta), sp.cos(alpha), sp.sin(alpha)
        return sp.Matrix([[ct, -st * ca, st * sa, a * ct],
                          [st, ct * ca, -ct * sa, a * st],
                          [0, sa, ca, d],
                          [0, 0, 0, 1]])
    return _numeric_link(theta, d, a, alpha, _standard_entries)


def link_transform_modified(alpha, a, theta, d):
    """Modified (Craig) DH link matrix ^{i-1}_iT, textbook eq. (3.23).

    Arguments in the textbook's order: α_{i-1}, a_{i-1}, θ_i, d_i.

    >>> link_transform_modified(-np.pi / 2, 0.0, 0.0, 0.14909).round(3) + 0.0
    array([[ 1.   ,  0.   ,  0.   ,  0.   ],
           [ 0.   ,  0.   ,  1.   ,  0.149],
           [ 0.   , -1.   ,  0.   ,  0.   ],
           [ 0.   ,  0.   ,  0.   ,  1.   ]])
    """
    if is_symbolic(theta, d, a, alpha):
        sp = sympy()
        ct, st, ca, sa = sp.cos(theta), sp.sin(theta), sp.cos(alpha), sp.sin(alpha)
        return sp.Matrix([[ct, -st, 0, a],
                          [st * ca, ct * ca, -sa, -sa * d],
                          [st * sa, ct * sa, ca, ca * d],
                          [0, 0, 0, 1]])
    return _numeric_link(theta, d, a, alpha, _modified_entries)


def _standard_entries(ct, st, d, a, ca, sa):
    return {(0, 0): ct, (0, 1): -st * ca, (0, 2): st * sa, (0, 3): a * ct,
            (1, 0): st, (1, 1): ct * ca, (1, 2): -ct * sa, (1, 3): a * st,
            (2, 1): sa, (2, 2): ca, (2, 3): d}


def _modified_entries(ct, st, d, a, ca, sa):
    return {(0, 0): ct, (0, 1): -st, (0, 3): a,
            (1, 0): st * ca, (1, 1): ct * ca, (1, 2): -sa, (1, 3): -sa * d,
            (2, 0): st * sa, (2, 1): ct * sa, (2, 2): ca, (2, 3): ca * d}


def _numeric_link(theta, d, a, alpha, entries):
    args = [as_float_array(v, n) for v, n in ((theta, "theta"), (d, "d"), (a, "a"), (alpha, "alpha"))]
    try:
        theta, d, a, alpha = np.broadcast_arrays(*args)
    except ValueError:
        shapes = ", ".join(f"{n} {v.shape}" for n, v in zip(("theta", "d", "a", "alpha"), args))
        raise ValueError(f"theta, d, a and alpha must broadcast to one shape, got {shapes}") from None
    A = np.zeros(theta.shape + (4, 4))
    A[..., 3, 3] = 1.0
    for (i, j), v in entries(np.cos(theta), np.sin(theta), d, a, np.cos(alpha), np.sin(alpha)).items():
        A[..., i, j] = v
    return A


@dataclass
class DHLink:
    """One row of a DH table, with optional limits and mass properties.

    Revolute (``joint="R"``): θ = q + offset, d constant.
    Prismatic (``joint="P"``): d = q + offset, θ = ``theta`` constant.
    ``m`` is the link mass (kg), ``r`` its centre of mass and ``I`` its 3×3
    inertia about the centre of mass, both in the link's own frame.
    Parameters may be sympy expressions, for symbolic derivations.
    """

    a: float = 0.0
    alpha: float = 0.0
    d: float = 0.0
    theta: float = 0.0
    offset: float = 0.0
    joint: str = "R"
    qlim: tuple | None = None
    m: float = 0.0
    r: tuple = (0.0, 0.0, 0.0)
    I: np.ndarray | None = None  # noqa: E741
    symbolic: bool = field(init=False, repr=False, default=False)

    def __post_init__(self):
        if self.joint not in ("R", "P"):
            raise ValueError(f"joint must be 'R' (revolute) or 'P' (prismatic), got {self.joint!r}")
        params = {"a": self.a, "alpha": self.alpha, "d": self.d, "theta": self.theta, "offset": self.offset}
        self.symbolic = is_symbolic(*params.values())
        if not self.symbolic:
            for name, v in params.items():
                if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
                    raise TypeError(f"DHLink {name} must be a real number, got {type(v).__name__}: {v!r}")
                if not math.isfinite(v):
                    raise ValueError(f"DHLink {name} must be finite, got {v!r}")
                setattr(self, name, float(v))
        if self.qlim is not None:
            lo, hi = as_float_array(self.qlim, "qlim", (2,), allow_batch=False)
            if not lo <= hi:
                raise ValueError(f"qlim must be (lower, upper) with lower <= upper, got {self.qlim!r}")
            self.qlim = (float(lo), float(hi))
        self.r = tuple(as_float_array(self.r, "r", (3,), allow_batch=False)) if not is_symbolic(self.r) else tuple(self.r)
        if self.I is not None and not is_symbolic(self.I):
            self.I = as_float_array(self.I, "I", (3, 3), allow_batch=False)

    @property
    def revolute(self) -> bool:
        return self.joint == "R"

    def theta_d(self, q):
        """(θ, d) of this link for joint value q."""
        if self.revolute:
            return q + self.offset, self.d
        return self.theta, q + self.offset


class DHRobot:
    """A serial robot given by DH links.

    The table is compiled into straight-line kernels when the robot is built,
    so build a new DHRobot rather than editing ``robot.links`` in place.

    >>> from armlab.models import puma560
    >>> robot = puma560()
    >>> robot.fkine(np.radians([90, 0, -90, 0, 0, 0])).round(4)[:3] + 0.0
    array([[ 0.    ,  1.    ,  0.    , -0.1491],
           [ 0.    ,  0.    ,  1.    ,  0.8649],
           [ 1.    ,  0.    ,  0.    ,  0.0203]])
    """

    def __init__(self, links, convention="standard", base=None, tool=None, name=""):
        if convention not in CONVENTIONS:
            raise ValueError(f"convention must be 'standard' or 'modified', got {convention!r}")
        links = list(links)
        if not links or not all(isinstance(link, DHLink) for link in links):
            raise TypeError("links must be a non-empty sequence of DHLink")
        self.links = links
        self.convention = convention
        self.name = name
        self.base = None if base is None else self._fixed(base, "base")
        self.tool = None if tool is None else self._fixed(tool, "tool")
        self.symbolic = any(link.symbolic for link in links) or is_symbolic(base, tool)
        if not self.symbolic:
            self._prepare()

    @staticmethod
    def _fixed(T, name):
        if is_symbolic(T):
            return sympy().Matrix(T)
        T = as_float_array(T, name, (4, 4), allow_batch=False)
        check_rigid(T, name)
        return T

    def _prepare(self):
        self._fk, self._fk_all, self._jac, self.fkine_source = compile_chain(
            self.links, self.modified, self.base, self.tool)

    # --- description -------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.links)

    @property
    def modified(self) -> bool:
        return self.convention == "modified"

    @property
    def qlim(self) -> np.ndarray:
        """(n, 2) joint limits in radians / metres; ±inf where a joint has none."""
        return np.array([link.qlim if link.qlim is not None else (-np.inf, np.inf) for link in self.links])

    @property
    def joint_types(self) -> str:
        return "".join(link.joint for link in self.links)

    def within_limits(self, q, tol=1e-9):
        """True where every joint of q (…, n) is inside its limits."""
        q = self._check_q(q)
        lim = self.qlim
        return np.all((q >= lim[:, 0] - tol) & (q <= lim[:, 1] + tol), axis=-1)

    def __repr__(self):
        cols = "alpha_{i-1} a_{i-1} theta_i d_i" if self.modified else "theta_i d_i a_i alpha_i"
        rows = []
        for link in self.links:
            th = "q" if link.revolute else link.theta
            d = link.d if link.revolute else "q"
            vals = (link.alpha, link.a, th, d) if self.modified else (th, d, link.a, link.alpha)
            rows.append("  " + "  ".join(f"{v:.5g}" if isinstance(v, float) else str(v) for v in vals))
        head = f"DHRobot({self.name!r}, {self.n} joints {self.joint_types}, {self.convention} DH: {cols})"
        return "\n".join([head] + rows)

    # --- kinematics --------------------------------------------------------------
    def _check_q(self, q):
        q = as_float_array(q, "q")
        if q.ndim == 0 or q.shape[-1] != self.n:
            raise ValueError(f"q must have {self.n} joint values (shape (..., {self.n})), got shape {q.shape}")
        return q

    def _run(self, kernel, q, shape):
        """Run a compiled kernel on one configuration (floats) or a batch (numpy columns)."""
        if q.ndim == 1:
            return np.array(kernel(q.tolist(), math.cos, math.sin)).reshape(shape)
        batch = q.shape[:-1]
        values = kernel(np.moveaxis(q, -1, 0), np.cos, np.sin)
        out = np.empty(batch + (len(values),))
        for k, v in enumerate(values):
            out[..., k] = v
        return out.reshape(batch + shape)

    def fkine(self, q):
        """End-effector pose T = base · A₁···Aₙ · tool.

        q (n,) → (4, 4); q (N, n) → (N, 4, 4); sympy symbols → sympy Matrix.
        """
        if self.symbolic or is_symbolic(q):
            return self._fkine_sym(q)[-1]
        return self._run(self._fk, self._fast_q(q), (4, 4))

    def _fast_q(self, q):
        # fkine is called in tight loops: skip the generic checks for a plain 1-D array.
        if type(q) is np.ndarray and q.shape == (self.n,) and q.dtype == float:
            check_finite(q, "q")
            return q
        return self._check_q(q)

    def fkine_all(self, q):
        """Base frame and every link frame: (..., n+1, 4, 4), base first.

        Frame i is link i's DH frame (without the tool transform).
        """
        if self.symbolic or is_symbolic(q):
            frames = self._fkine_sym(q)
            return frames[:self.n + 1]
        q = self._fast_q(q)
        F = self._run(self._fk_all, q, (self.n + 1, 3, 4))
        bottom = np.broadcast_to([0.0, 0.0, 0.0, 1.0], F.shape[:-2] + (1, 4))
        return np.concatenate([F, bottom], axis=-2)

    def jacob0(self, q):
        """Geometric Jacobian (6×n) in the base (world) frame, rows (vx, vy, vz, ωx, ωy, ωz).

        Column i is [zᵢ × (p_e − pᵢ); zᵢ] for a revolute joint and [zᵢ; 0] for a
        prismatic one, where zᵢ, pᵢ are the axis and origin of joint i (frame i
        in the modified convention, frame i−1 in the standard one).
        q (N, n) gives (N, 6, n).
        """
        if self.symbolic or is_symbolic(q):
            return self._jacob0_sym(q)
        return self._run(self._jac, self._fast_q(q), (6, self.n))

    def jacobe(self, q):
        """Geometric Jacobian (6×n) in the end-effector frame: diag(Rᵀ, Rᵀ)·J₀."""
        J0 = self.jacob0(q)
        T = self.fkine(q)
        if self.symbolic or is_symbolic(q):
            sp = sympy()
            Rt = T[:3, :3].T
            return sp.Matrix.vstack(Rt * J0[:3, :], Rt * J0[3:, :])
        Rt = np.swapaxes(T[..., :3, :3], -1, -2)
        return np.concatenate([Rt @ J0[..., :3, :], Rt @ J0[..., 3:, :]], axis=-2)

    # --- inverse kinematics (armlab.ik) --------------------------------------------
    def ikine_all(self, T, q_current=None, **kw):
        """All closed-form IK solutions of T (4×4) → IKSolutions; T (N, 4, 4) → IKBatch. See armlab.ik."""
        from . import ik

        return ik.ikine_all(self, T, q_current, **kw)

    def ikine(self, T, q_current=None, weights=None, **kw):
        """One closed-form IK solution: least weighted joint motion Σ kᵢ|Δθᵢ| from q_current. See armlab.ik."""
        from . import ik

        return ik.ikine(self, T, q_current, weights, **kw)

    def ikine_numeric(self, T, q0=None, **kw):
        """Damped-least-squares IK for any robot (mask, limits, restarts). See armlab.ik_numeric."""
        from . import ik

        return ik.ikine_numeric(self, T, q0, **kw)

    # --- symbolic ----------------------------------------------------------------
    def _sym_q(self, q):
        sp = sympy()
        q = list(q)
        if len(q) != self.n:
            raise ValueError(f"q must have {self.n} joint values, got {len(q)}")
        return [sp.sympify(x) for x in q]

    def link_transform(self, i, qi):
        """Link transform of link i (1-based) at joint value qi: ^{i-1}_iT (3.23) or A_i (2.4).

        Numeric for a number, a sympy Matrix for a symbol.
        """
        if not 1 <= i <= self.n:
            raise ValueError(f"i must be a link number from 1 to {self.n}, got {i!r}")
        link = self.links[i - 1]
        if self.symbolic or is_symbolic(qi):
            return self._sym_link(link, sympy().sympify(qi))
        th, d = link.theta_d(as_float_array(qi, "qi"))
        if self.modified:
            return link_transform_modified(link.alpha, link.a, th, d)
        return link_transform_standard(th, d, link.a, link.alpha)

    def _sym_link(self, link, qi):
        if link.revolute:
            th, d = qi + exact_angle(link.offset), exact_number(link.d)
        else:
            th, d = exact_angle(link.theta), qi + exact_number(link.offset)
        a, alpha = exact_number(link.a), exact_angle(link.alpha)
        if self.modified:
            return link_transform_modified(alpha, a, th, d)
        return link_transform_standard(th, d, a, alpha)

    def _fkine_sym(self, q):
        """List of base, every link frame and (if any) the tool frame, as sympy matrices."""
        sp = sympy()
        q = self._sym_q(q)
        T = sp.eye(4) if self.base is None else sym_matrix(self.base)
        frames = [T]
        for link, qi in zip(self.links, q):
            T = T * self._sym_link(link, qi)
            frames.append(T)
        if self.tool is not None:
            frames.append(T * sym_matrix(self.tool))
        return frames

    def _jacob0_sym(self, q):
        sp = sympy()
        frames = self._fkine_sym(q)
        pe = frames[-1][:3, 3]
        F = frames[1:self.n + 1] if self.modified else frames[:self.n]
        cols = []
        for link, Fi in zip(self.links, F):
            z, o = Fi[:3, 2], Fi[:3, 3]
            cols.append(sp.Matrix.vstack(z.cross(pe - o), z) if link.revolute
                        else sp.Matrix.vstack(z, sp.zeros(3, 1)))
        return sp.Matrix.hstack(*cols)

