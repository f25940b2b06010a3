"""DHRobot: a serial robot given by a DH table, with thin methods that hand off to the algorithm
packages (``kinematics``, ``ik``, ``jacobians``, ``dynamics``). Those are imported on first use, so
``import armlab`` stays fast for a student who only needs kinematics.

A robot is an immutable description: its links (a tuple of frozen :class:`DHLink`), convention, base
and tool never change, so everything compiled from it (:mod:`armlab.kinematics.chain`'s kernels when
the robot is built, the dynamics, statics and IK kernels on first use) stays true. A changed robot is a
new one: :meth:`DHRobot.replace`, :meth:`DHRobot.replace_link`, :meth:`DHLink.replace`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING, Any, NoReturn

import numpy as np

from ._core.codegen import cached_kernel, kernel_entry, run_kernel
from ._core.constants import GRAVITY
from ._core.deprecation import renamed_kwargs
from ._core.protocol import RobotLike, make_description_key
from ._core.symbolic import is_symbolic, sympy
from ._core.validation import as_float_array, check_finite, check_rigid, joint_vector
from .kinematics.chain import compile_chain
from .kinematics.frames import axis_frames
from .kinematics.links import CONVENTIONS, DHLink, ImmutableError, link_matrix
from .kinematics.scalar import SympyBackend, forward, geometric_columns, to_matrix, to_transform

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["DHRobot", "Links", "ImmutableError"]

_UNCHANGED: Any = object()  # replace()'s "keep this one" (None is a value: no base, no tool)
#: The list methods a student may try on ``robot.links`` (a tuple).
_LIST_METHODS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse"})


class Links(tuple):
    """A robot's links: a tuple (it cannot change), whose list-style edits explain what to do instead."""

    __slots__ = ()

    def __setitem__(self, i: Any, value: Any) -> NoReturn:
        raise ImmutableError(
            f"robots are immutable: robot.links is a tuple; use robot.replace_link({i!r}, a=...) "
            f"for a new robot with link {i!r} changed, or robot.replace(links=...) for a new "
            "table"
        )

    def __delitem__(self, i: Any) -> NoReturn:
        raise ImmutableError(
            "robots are immutable: robot.links is a tuple; use robot.replace(links=...) with the "
            "links you want for a new robot"
        )

    def __getattr__(self, name: str) -> Any:
        if name in _LIST_METHODS:
            raise ImmutableError(
                f"robots are immutable: robot.links is a tuple and has no {name}(); use "
                f"robot.replace(links=robot.links + (DHLink(...),)) or robot.replace(links=[...]) "
                "for a new robot"
            )
        raise AttributeError(f"'tuple' object has no attribute {name!r}")

    def __reduce__(self) -> tuple:
        return (tuple, (tuple(self),))


class DHRobot:
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

    links: tuple[DHLink, ...]
    convention: str
    name: str
    base: Any  # (4, 4) read-only array, sympy ImmutableMatrix, or None
    tool: Any
    symbolic: bool
    description_key: Hashable
    _hash: int
    _kernels: Any  # this description's entry in the one kernel cache (_core.codegen)
    _fk: Callable[..., Any]  # the compiled chain (kinematics.chain), resolved once
    _fk_all: Callable[..., Any]
    _jac: Callable[..., Any]

    def __init__(
        self,
        links: Iterable[DHLink],
        convention: str = "standard",
        base: ArrayLike | None = None,
        tool: ArrayLike | None = None,
        name: str = "",
    ) -> None:
        if convention not in CONVENTIONS:
            raise ValueError(f"convention must be 'standard' or 'modified', got {convention!r}")
        links = Links(links)
        if not links or not all(isinstance(link, DHLink) for link in links):
            raise TypeError("links must be a non-empty sequence of DHLink")
        if not isinstance(name, str):
            raise TypeError(f"name must be a string, got {type(name).__name__}: {name!r}")
        base = None if base is None else self._fixed(base, "base")
        tool = None if tool is None else self._fixed(tool, "tool")
        symbolic = any(link.symbolic for link in links) or is_symbolic(base, tool)
        key = make_description_key(convention, links, base, tool)
        put = object.__setattr__
        for attr, value in (
            ("links", links),
            ("convention", convention),
            ("name", name),
            ("base", base),
            ("tool", tool),
            ("symbolic", symbolic),
            ("description_key", key),
            ("_hash", hash((key, name))),
            ("_kernels", kernel_entry(key)),
        ):
            put(self, attr, value)
        if not symbolic:
            self._prepare()

    @staticmethod
    def _fixed(T: Any, name: str) -> Any:
        if is_symbolic(T):
            return sympy().ImmutableMatrix(T)
        T = np.array(as_float_array(T, name, (4, 4), allow_batch=False))  # a copy: the caller's stays writable
        check_rigid(T, name)
        T.setflags(write=False)
        return T

    def _prepare(self) -> None:
        # the compiled chain, resolved once here: fkine/jacob0 look nothing up per call
        fk, fk_all, jac = cached_kernel(
            self, "kinematics.chain", lambda r: compile_chain(r.links, r.modified, r.base, r.tool)
        )
        for attr, value in (("_fk", fk), ("_fk_all", fk_all), ("_jac", jac)):
            object.__setattr__(self, attr, value)

    # --- immutability --------------------------------------------------------------
    def __setattr__(self, name: str, value: Any) -> NoReturn:
        if name in ("links", "base", "tool", "name", "convention"):
            what = "other links" if name == "links" else f"another {name}"
            raise ImmutableError(
                f"robots are immutable: use robot = robot.replace({name}=...) for a new robot with {what}"
            )
        raise ImmutableError(
            f"robots are immutable: {name!r} cannot be set on a DHRobot; make a new robot with "
            "robot.replace(links=..., base=..., tool=..., name=...) or robot.replace_link(i, ...)"
        )

    def __delattr__(self, name: str) -> NoReturn:
        raise ImmutableError(
            f"robots are immutable: {name!r} cannot be deleted from a DHRobot; make a new robot with robot.replace(...)"
        )

    def __eq__(self, other: object) -> bool:
        """Robots are equal when they are the same description (:attr:`description_key`) with the same name."""
        if not isinstance(other, DHRobot):
            return NotImplemented
        return self is other or (
            self._hash == other._hash and self.description_key == other.description_key and self.name == other.name
        )

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple:
        return (type(self)._rebuild, (tuple(self.links), self.convention, self.base, self.tool, self.name))

    @classmethod
    def _rebuild(cls, links: Iterable[DHLink], convention: str, base: Any, tool: Any, name: str) -> DHRobot:
        return cls(links, convention, base=base, tool=tool, name=name)

    def replace(
        self,
        *,
        links: Iterable[DHLink] = _UNCHANGED,
        base: ArrayLike | None = _UNCHANGED,
        tool: ArrayLike | None = _UNCHANGED,
        name: str = _UNCHANGED,
        convention: str = _UNCHANGED,
    ) -> DHRobot:
        """A new robot with the given parts changed and the others kept (``base=None`` removes the base).

        >>> from armlab.models import planar2r
        >>> r = planar2r()
        >>> r.replace(links=[link.replace(a=0.5) for link in r.links]).fkine([0, 0])[:3, 3].tolist()
        [1.0, 0.0, 0.0]
        >>> r.replace(name="short arm").name
        'short arm'
        """
        return type(self)._rebuild(
            self.links if links is _UNCHANGED else links,
            self.convention if convention is _UNCHANGED else convention,
            self.base if base is _UNCHANGED else base,
            self.tool if tool is _UNCHANGED else tool,
            self.name if name is _UNCHANGED else name,
        )

    def replace_link(self, i: int, link: DHLink | None = None, /, **changes: Any) -> DHRobot:
        """A new robot whose link ``i`` (0-based, as in ``robot.links[i]``; −1 is the last) is ``link``, or
        this robot's link i with ``changes`` applied (:meth:`DHLink.replace`).

        >>> from armlab.models import planar2r
        >>> r = planar2r()
        >>> r2 = r.replace_link(0, a=5.0)
        >>> r2.fkine([0, 0])[:3, 3].tolist(), r.fkine([0, 0])[:3, 3].tolist()
        ([6.0, 0.0, 0.0], [2.0, 0.0, 0.0])
        """
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
            raise TypeError(f"i must be a link index (0-based, as in robot.links[i]), got {type(i).__name__}: {i!r}")
        if not -self.n <= i < self.n:
            raise IndexError(f"i must be a link index from 0 to {self.n - 1} (or -{self.n} to -1), got {i}")
        if link is None:
            new = self.links[i].replace(**changes)
        elif changes:
            raise TypeError("replace_link takes a new DHLink or field changes, not both")
        elif not isinstance(link, DHLink):
            raise TypeError(f"link must be a DHLink, got {type(link).__name__}")
        else:
            new = link
        links = list(self.links)
        links[i] = new
        return self.replace(links=links)

    # --- description -------------------------------------------------------------
    @property
    def n(self) -> int:
        """The number of joints."""
        return len(self.links)

    @property
    def modified(self) -> bool:
        """True in the modified (Craig) convention, False in the standard one."""
        return self.convention == "modified"

    @property
    def qlim(self) -> np.ndarray:
        """(n, 2) joint limits in radians / metres; ±inf where a joint has none."""
        return np.array([link.qlim if link.qlim is not None else (-np.inf, np.inf) for link in self.links])

    @property
    def joint_types(self) -> str:
        """ "R" or "P" per joint, e.g. "RRPRRR"."""
        return "".join(link.joint for link in self.links)

    def within_limits(self, q: ArrayLike, tol: float = 1e-9) -> Any:
        """True where every joint of q (…, n) is inside its limits."""
        q = self._check_q(q)
        lim = self.qlim
        return np.all((q >= lim[:, 0] - tol) & (q <= lim[:, 1] + tol), axis=-1)

    def __repr__(self) -> str:
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
    def _check_q(self, q: ArrayLike) -> np.ndarray:
        return joint_vector(q, self.n, "q", symbolic=False)

    def fkine(self, q: Any) -> Any:
        """End-effector pose T = base · A₁···Aₙ · tool.

        q (n,) → (4, 4); q (N, n) → (N, 4, 4); sympy symbols → sympy Matrix.
        """
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
        """Base frame and every link frame: (..., n+1, 4, 4), base first.

        Frame i is link i's DH frame (without the tool transform).
        """
        if self.symbolic or is_symbolic(q):
            frames = self._fkine_sym(q)
            return frames[: self.n + 1]
        q = self._fast_q(q)
        F = run_kernel(self._fk_all, q, (self.n + 1, 3, 4))
        bottom = np.broadcast_to([0.0, 0.0, 0.0, 1.0], F.shape[:-2] + (1, 4))
        return np.concatenate([F, bottom], axis=-2)

    def jacob0(self, q: Any) -> Any:
        """Geometric Jacobian (6×n) in the base (world) frame, rows (vx, vy, vz, ωx, ωy, ωz).

        Column i is [zᵢ × (p_e − pᵢ); zᵢ] for a revolute joint and [zᵢ; 0] for a
        prismatic one, where zᵢ, pᵢ are the axis and origin of joint i (frame i
        in the modified convention, frame i−1 in the standard one).
        q (N, n) gives (N, 6, n).
        """
        if self.symbolic or is_symbolic(q):
            return self._jacob0_sym(q)
        return run_kernel(self._jac, self._fast_q(q), (6, self.n))

    def jacobe(self, q: Any) -> Any:
        """Geometric Jacobian (6×n) in the end-effector frame: diag(Rᵀ, Rᵀ)·J₀."""
        J0 = self.jacob0(q)
        T = self.fkine(q)
        if self.symbolic or is_symbolic(q):
            sp = sympy()
            Rt = T[:3, :3].T
            return sp.Matrix.vstack(Rt * J0[:3, :], Rt * J0[3:, :])
        Rt = np.swapaxes(T[..., :3, :3], -1, -2)
        return np.concatenate([Rt @ J0[..., :3, :], Rt @ J0[..., 3:, :]], axis=-2)

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


if TYPE_CHECKING:  # mypy checks that a DHRobot is the RobotLike the algorithms are typed against

    def _is_robot_like(robot: DHRobot) -> RobotLike:
        return robot
