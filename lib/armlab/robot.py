"""DHRobot: a serial robot given by a DH table, with thin methods that hand off to the algorithm
packages (``kinematics``, ``ik``, ``jacobians``, ``dynamics``). Those are imported on first use, so
``import armlab`` stays fast for a student who only needs kinematics.

A robot is an immutable description, the :class:`~armlab._core.protocol.RobotLike` that every algorithm
reads: its links (a tuple of frozen :class:`DHLink`), convention, base and tool never change, so
everything compiled from it (:mod:`armlab.kinematics.chain`'s kernels when the robot is built, the
dynamics, statics and IK kernels on first use) stays true. A changed robot is a new one:
:meth:`DHRobot.replace`, :meth:`DHRobot.replace_link`, :meth:`DHLink.replace`. DHRobot adds what needs the
layers above ``_core``: the compiled kinematics, and the dynamics and IK methods.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ._core.codegen import cached_kernel, kernel_entry, run_kernel
from ._core.constants import GRAVITY
from ._core.deprecation import renamed_kwargs
from ._core.protocol import Links, RobotLike
from ._core.symbolic import is_symbolic
from ._core.validation import check_finite, joint_vector
from .kinematics.chain import compile_chain
from .kinematics.frames import axis_frames
from .kinematics.links import ImmutableError, link_matrix
from .kinematics.scalar import SympyBackend, forward, geometric_columns, to_matrix, to_transform

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["DHRobot", "Links", "ImmutableError"]


class DHRobot(RobotLike):
    """A serial robot given by DH links: an immutable description.

    The table is compiled into straight-line kernels when the robot is built; to change it, make a
    new robot with :meth:`replace` or :meth:`replace_link` (an attempt to edit a robot or a link in
    place raises :class:`ImmutableError`, which says how).

    >>> from armlab.models import puma560
    >>> robot = puma560()
    >>> robot.fkine(np.radians([90, 0, -90, 0, 0, 0])).round(4)[:3] + 0.0
    array([[ 0.    ,  1.    ,  0.    , -0.1491],
           [ 0.    ,  0.    ,  1.    ,  0.8649],
           [ 1.    ,  0.    ,  0.    ,  0.0203]])
    >>> longer = robot.replace_link(2, a=0.5)      # a new robot: link 2 (0-based, robot.links[2]) changed
    >>> robot.links[2].a, longer.links[2].a
    (0.4318, 0.5)
    """

    _kernels: Any  # this description's entry in the one kernel cache (_core.codegen)
    _fk: Callable[..., Any]  # the compiled chain (kinematics.chain), resolved once
    _fk_all: Callable[..., Any]
    _jac: Callable[..., Any]

    def _prepare(self) -> None:
        # this description's entry in the one kernel cache, and the compiled chain, resolved once here:
        # fkine/jacob0 look nothing up per call
        object.__setattr__(self, "_kernels", kernel_entry(self.description_key))
        if self.symbolic:
            return
        fk, fk_all, jac = cached_kernel(
            self, "kinematics.chain", lambda r: compile_chain(r.links, r.modified, r.base, r.tool)
        )
        for attr, value in (("_fk", fk), ("_fk_all", fk_all), ("_jac", jac)):
            object.__setattr__(self, attr, value)

    # --- kinematics --------------------------------------------------------------
    def fkine(self, q: Any) -> Any:
        if self.symbolic or is_symbolic(q):
            return self._fkine_sym(q)[-1]
        return run_kernel(self._fk, self._fast_q(q), (4, 4))

    def _fast_q(self, q: Any) -> np.ndarray:
        # fkine is called in tight loops: skip the generic checks for a plain 1-D array.
        if type(q) is np.ndarray and q.shape == (self.n,) and q.dtype == float:
            check_finite(q, "q")
            return q
        return self._check_q(q)

    def fkine_all(self, q: Any) -> Any:
        if self.symbolic or is_symbolic(q):
            frames = self._fkine_sym(q)
            return frames[: self.n + 1]
        q = self._fast_q(q)
        F = run_kernel(self._fk_all, q, (self.n + 1, 3, 4))
        bottom = np.broadcast_to([0.0, 0.0, 0.0, 1.0], F.shape[:-2] + (1, 4))
        return np.concatenate([F, bottom], axis=-2)

    def jacob0(self, q: Any) -> Any:
        if self.symbolic or is_symbolic(q):
            return self._jacob0_sym(q)
        return run_kernel(self._jac, self._fast_q(q), (6, self.n))

    def manipulability(self, q: ArrayLike, part: str = "trans") -> np.ndarray:
        """Yoshikawa's manipulability √det(J·Jᵀ) of jacob0's ``part``, "trans" or "rot":
        :func:`armlab.jacobians.manipulability` (of a Jacobian: ``jacobians.manipulability_of_J``)."""
        from . import jacobians

        return jacobians.manipulability(self, q, part)

    # --- dynamics (armlab.dynamics) ---------------------------------------------------
    def rne(self, q: Any, qd: Any, qdd: Any, gravity: Any = GRAVITY, f_tip: Any = None) -> Any:
        """Inverse dynamics τ by recursive Newton–Euler. See armlab.dynamics.rne."""
        from . import dynamics

        return dynamics.rne(self, q, qd, qdd, gravity, f_tip)

    def inertia(self, q: Any) -> Any:
        """M(q), the joint-space inertia matrix (..., n, n)."""
        from . import dynamics

        return dynamics.inertia(self, q)

    def coriolis(self, q: Any, qd: Any) -> Any:
        """C(q, q̇) from the Christoffel symbols, with Ṁ − 2C skew (..., n, n)."""
        from . import dynamics

        return dynamics.coriolis(self, q, qd)

    def gravload(self, q: Any, gravity: Any = GRAVITY) -> Any:
        """G(q), the torques that hold the arm against gravity (..., n)."""
        from . import dynamics

        return dynamics.gravload(self, q, gravity=gravity)

    def dynamic_params(self) -> np.ndarray:
        """χ (10n,): per link (m, m·c, I about the frame origin), lab report (2.54). See armlab.dynamics."""
        from . import dynamics

        return dynamics.dynamic_params(self)

    def fdyn(self, q: Any, qd: Any, tau: Any, gravity: Any = GRAVITY, **kw: Any) -> Any:
        """Forward dynamics q̈ = M⁻¹(τ − C q̇ − G). See armlab.dynamics.fdyn."""
        from . import dynamics

        return dynamics.fdyn(self, q, qd, tau, gravity, **kw)

    # --- inverse kinematics (armlab.ik) --------------------------------------------
    @renamed_kwargs(q_current="q0")
    def ikine_all(self, T: ArrayLike, q0: ArrayLike | None = None, **kw: Any) -> Any:
        """All closed-form IK solutions of T (4×4) → IKSolutions; T (N, 4, 4) → IKBatch. See armlab.ik.

        ``q0``, the start pose (formerly ``q_current``), orders the solutions and fixes free joints.
        """
        from . import ik

        return ik.ikine_all.__wrapped__(self, T, q0, **kw)  # type: ignore[attr-defined]  # old names: done above

    @renamed_kwargs(q_current="q0")
    def ikine(self, T: ArrayLike, q0: ArrayLike | None = None, weights: ArrayLike | None = None, **kw: Any) -> Any:
        """One closed-form IK solution: least weighted joint motion Σ kᵢ|Δθᵢ| from the start pose ``q0``
        (formerly ``q_current``). See armlab.ik."""
        from . import ik

        return ik.ikine.__wrapped__(self, T, q0, weights, **kw)  # type: ignore[attr-defined]  # (one check)

    def ikine_numeric(self, T: ArrayLike, q0: ArrayLike | None = None, **kw: Any) -> Any:
        """Damped-least-squares IK for any robot (mask, limits, restarts). See armlab.ik_numeric."""
        from . import ik

        return ik.ikine_numeric(self, T, q0, **kw)

    # --- symbolic ----------------------------------------------------------------
    def _sym_q(self, q: Any) -> list:
        return joint_vector(q, self.n, "q", symbolic=True)

    def link_transform(self, i: int, qi: Any) -> Any:
        """Link transform of link i (1-based) at joint value qi: ^{i-1}_iT (3.23) or A_i (2.4).

        Numeric for a number, a sympy Matrix for a symbol.
        """
        if not 1 <= i <= self.n:
            raise ValueError(f"i must be a link number from 1 to {self.n}, got {i!r}")
        return link_matrix(self.links[i - 1], qi, self.modified)

    def _fkine_sym(self, q: Any) -> list:
        """Base, every link frame and (if any) the tool frame, as sympy matrices: the scalar forward
        recursion (:func:`armlab.kinematics.scalar.forward`) run on exact sympy scalars."""
        frames, end = self._forward_sym(q)
        out = [to_transform(F, True) for F in frames]
        return out + [to_transform(end, True)] if self.tool is not None else out

    def _forward_sym(self, q):
        return forward(self.links, self.modified, self._sym_q(q), SympyBackend, self.base, self.tool)

    def _jacob0_sym(self, q: Any) -> Any:
        """jacob0 on sympy scalars: the one geometric Jacobian (:func:`armlab.kinematics.scalar.geometric_columns`)."""
        frames, end = self._forward_sym(q)
        cols = geometric_columns(self.links, axis_frames(frames, self.modified), end[1])
        return to_matrix([[c[r] for c in cols] for r in range(6)], True)
