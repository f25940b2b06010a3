"""DHRobot: a serial robot given by a DH table, with thin methods that hand off to the algorithm
packages (``kinematics``, ``ik``, ``jacobians``, ``dynamics``). Those are imported on first use, so
``import armlab`` stays fast for a student who only needs kinematics.

The table is compiled once, when the robot is built, into straight-line kernels
(:mod:`armlab.kinematics.chain`).
"""
from __future__ import annotations


import numpy as np

from ._core.constants import GRAVITY
from ._core.codegen import run_kernel
from ._core.symbolic import is_symbolic, sym_matrix, sympy
from ._core.validation import as_float_array, check_finite, check_rigid
from .kinematics.chain import compile_chain
from .kinematics.frames import axis_frames
from .kinematics.links import CONVENTIONS, DHLink, link_matrix

__all__ = ["DHRobot"]


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
        self._fk, self._fk_all, self._jac = compile_chain(self.links, self.modified, self.base, self.tool)

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

    def fkine(self, q):
        """End-effector pose T = base · A₁···Aₙ · tool.

        q (n,) → (4, 4); q (N, n) → (N, 4, 4); sympy symbols → sympy Matrix.
        """
        if self.symbolic or is_symbolic(q):
            return self._fkine_sym(q)[-1]
        return run_kernel(self._fk, self._fast_q(q), (4, 4))

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
        F = run_kernel(self._fk_all, q, (self.n + 1, 3, 4))
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
        return run_kernel(self._jac, self._fast_q(q), (6, self.n))

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

    def manipulability(self, q, part="trans"):
        """Yoshikawa's manipulability of jacob0's ``part``, "trans" or "rot". See armlab.jacobians."""
        from . import jacobians

        return jacobians.manipulability(self, q, part)

    # --- dynamics (armlab.dynamics) ---------------------------------------------------
    def rne(self, q, qd, qdd, gravity=GRAVITY, f_tip=None):
        """Inverse dynamics τ by recursive Newton–Euler. See armlab.dynamics.rne."""
        from . import dynamics

        return dynamics.rne(self, q, qd, qdd, gravity, f_tip)

    def inertia(self, q):
        """M(q), the joint-space inertia matrix (..., n, n)."""
        from . import dynamics

        return dynamics.inertia(self, q)

    def coriolis(self, q, qd):
        """C(q, q̇) from the Christoffel symbols, with Ṁ − 2C skew (..., n, n)."""
        from . import dynamics

        return dynamics.coriolis(self, q, qd)

    def gravload(self, q, gravity=GRAVITY):
        """G(q), the torques that hold the arm against gravity (..., n)."""
        from . import dynamics

        return dynamics.gravload(self, q, gravity=gravity)

    def dynamic_params(self):
        """χ (10n,): per link (m, m·c, I about the frame origin), lab report (2.54). See armlab.dynamics."""
        from . import dynamics

        return dynamics.dynamic_params(self)

    def fdyn(self, q, qd, tau, gravity=GRAVITY, **kw):
        """Forward dynamics q̈ = M⁻¹(τ − C q̇ − G). See armlab.dynamics.fdyn."""
        from . import dynamics

        return dynamics.fdyn(self, q, qd, tau, gravity, **kw)

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
        return link_matrix(self.links[i - 1], qi, self.modified)

    def _fkine_sym(self, q):
        """List of base, every link frame and (if any) the tool frame, as sympy matrices."""
        sp = sympy()
        q = self._sym_q(q)
        T = sp.eye(4) if self.base is None else sym_matrix(self.base)
        frames = [T]
        for link, qi in zip(self.links, q):
            T = T * link_matrix(link, qi, self.modified)
            frames.append(T)
        if self.tool is not None:
            frames.append(T * sym_matrix(self.tool))
        return frames

    def _jacob0_sym(self, q):
        sp = sympy()
        frames = self._fkine_sym(q)
        pe = frames[-1][:3, 3]
        F = axis_frames(frames[:self.n + 1], self.modified)
        cols = []
        for link, Fi in zip(self.links, F):
            z, o = Fi[:3, 2], Fi[:3, 3]
            cols.append(sp.Matrix.vstack(z.cross(pe - o), z) if link.revolute
                        else sp.Matrix.vstack(z, sp.zeros(3, 1)))
        return sp.Matrix.hstack(*cols)

