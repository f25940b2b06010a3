"""What every controller shares: the ``step(t, q, q̇, ref) -> τ`` interface, gains, references, torque
saturation that is recorded, and composition by ``+``.

A controller is a small object. Its control law :meth:`Controller.law` works on Python lists (one call
per simulation step, so no numpy in the loop); :meth:`Controller.output` adds the saturation, and
:meth:`Controller.step` is the checked public entry for numpy arrays. ``a + b`` adds two controllers'
torques (e.g. ``PD(...) + GravityCompensation(model)``).
"""

from __future__ import annotations

import copy
from typing import Any, Sequence, TypedDict, cast

import numpy as np
from numpy.typing import ArrayLike

from .._core.constants import GRAVITY
from .._core.protocol import RobotLike
from .._core.validation import as_float_array, joint_vector

__all__ = [
    "Controller",
    "Sum",
    "Saturation",
    "WithGains",
    "WithModel",
    "ModelBased",
    "ModelOptions",
    "model_options",
    "gains",
    "split_reference",
]


def gains(value: ArrayLike, name: str, n: int | None = None) -> np.ndarray:
    """A gain as a float array: a number (every joint) or one value per joint; finite and >= 0."""
    try:
        arr = as_float_array(value, name)
    except (TypeError, ValueError) as e:  # NaN, inf, strings: say it is a gain
        raise type(e)(f"gain {e}") from None
    if np.any(arr < 0):
        raise ValueError(f"gain {name} must be >= 0, got {arr.tolist()}")
    if arr.ndim > 1 or (n is not None and arr.ndim == 1 and len(arr) != n):
        raise ValueError(f"gain {name} must be a number or one value per joint ({n}), got shape {arr.shape}")
    return arr


def split_reference(ref: Any, size: int) -> list[list[float]]:
    """``ref`` as three float lists (q_r, q̇_r, q̈_r): a tuple/list of two or three vectors, or one vector
    (a setpoint: zero velocity and acceleration)."""
    if ref is None:
        raise ValueError("ref is None: give the reference (q_r, qd_r, qdd_r) or a setpoint q_r")
    if isinstance(ref, (tuple, list)) and len(ref) in (2, 3) and np.ndim(ref[0]) == 1:
        parts = [as_float_array(r, f"ref[{k}]", (size,), allow_batch=False).tolist() for k, r in enumerate(ref)]
        return parts + [[0.0] * size] * (3 - len(parts))
    return [as_float_array(ref, "ref", (size,), allow_batch=False).tolist(), [0.0] * size, [0.0] * size]


class Saturation:
    """The record of torque saturation: which joints hit their limits, how often, when, how far.

    ``steps`` outputs saturated on some joint out of ``calls``; ``per_joint`` (n,) counts; ``first`` the
    time of the first; ``peak`` (n,) the largest |demanded τ| / limit; ``times`` every saturated call's t.
    """

    def __init__(self, limits: Sequence[float]):
        self.limits = limits
        self.clear()

    def clear(self) -> None:
        n = len(self.limits)
        self.calls, self.steps = 0, 0
        self.first: float | None = None
        self.per_joint: list[int] = [0] * n
        self.peak: list[float] = [0.0] * n
        self.times: list[float] = []

    def __bool__(self) -> bool:
        return self.steps > 0

    def add(self, times: Sequence[float], demanded: np.ndarray) -> None:
        """Record outputs clipped elsewhere (the closed loop in CasADi, :mod:`armlab.sim.closed_loop`) as
        :meth:`Controller.output` records them: one call per row of ``demanded`` (m, n), at ``times`` (m,)."""
        lim = np.asarray(self.limits, dtype=float)
        over = (demanded > lim) | (demanded < -lim)
        self.calls += len(demanded)
        for i in np.flatnonzero(over.any(axis=0)):
            self.per_joint[i] += int(over[:, i].sum())
            self.peak[i] = max(self.peak[i], float((np.abs(demanded[over[:, i], i]) / lim[i]).max()))
        hit = [times[r] for r in np.flatnonzero(over.any(axis=1)).tolist()]
        if hit:
            self.steps += len(hit)
            self.times.extend(hit)
            if self.first is None:
                self.first = hit[0]

    def report(self) -> str:
        if not self.steps:
            return f"no saturation in {self.calls} steps"
        parts = [
            f"joint {i + 1}: {c} steps, up to {self.peak[i] * 100:.0f} % of {self.limits[i]:.3g} N·m"
            for i, c in enumerate(self.per_joint)
            if c
        ]
        return f"saturated in {self.steps} of {self.calls} steps (first at t = {self.first:.4g} s); " + "; ".join(parts)

    __repr__ = report


class Controller:
    """Base class. Subclasses set ``n`` (or leave it None until the first call) and implement :meth:`law`.

    ``limits``: the actuators' effort limits (N·m, a number or (n,)), e.g. ``models.YOUBOT_ACTUATORS
    ["effort"]``; the output is clipped to ±limits and every clip is recorded in :attr:`saturation`.
    ``space`` is "joint" (ref = joint q_r, q̇_r, q̈_r) or "task" (ref = tool position and velocity).
    """

    space = "joint"
    n: int | None = None
    limits: list[float] | None
    saturation: Saturation | None

    def __init__(self, limits: ArrayLike | None = None):
        self._limits_arg = limits
        self.limits = None
        self.saturation = None
        if self.n is not None:
            self._bind(self.n)

    # --- the protocol a simulator uses: new controllers, never a changed shared one -----------
    def bind(self, n: int) -> Controller:
        """This controller for ``n`` joints: itself if it is for n joints already, else a new one (its
        per-joint gains and limits expanded to n); ``self`` is left as it was. A simulator calls this
        before a run with a controller built from numbers alone, e.g. ``PD(100.0, 20.0)``."""
        n = int(n)
        if self.n == n:
            return self
        if self.n is not None:
            raise ValueError(f"the controller is for {self.n} joints, not {n}")
        new = copy.copy(self)
        new._bind(n)
        return new

    def with_model(self, model: Any) -> Controller:
        """This controller believing in another model: a new controller whose model-based parts use
        ``model`` (a robot with inertia, or a function old model → new model, e.g. adding a payload
        to each part's own model), and which shares everything else — gains, the state of integrators,
        the saturation record — with ``self``; ``self`` keeps its model. A controller without a model
        returns itself. A simulator switches between the two when the arm picks up a payload."""
        return self

    # --- sizes --------------------------------------------------------------------------------
    def _bind(self, n: int) -> None:
        """Fix the number of joints (from a model, a gain vector or the first state), in place: for a
        controller being built or stepped for the first time (:meth:`bind` is the public copy)."""
        self.n = n
        if self._limits_arg is not None:
            lim = gains(self._limits_arg, "limits", n)
            lim = np.broadcast_to(lim, (n,))
            if np.any(lim <= 0):
                raise ValueError(f"limits must be > 0 N·m, got {lim.tolist()}")
            self.limits = lim.tolist()
            self.saturation = Saturation(self.limits)
        self._expand(n)

    def _expand(self, n: int) -> None:
        """Subclass hook: expand per-joint parameters to n joints."""

    @property
    def ref_size(self) -> int | None:
        return self.n

    # --- the law ------------------------------------------------------------------------------
    def law(self, t: float, q: list, qd: list, qr: list, qdr: list, qddr: list) -> list:
        """Torques (list of n floats) before saturation; all arguments are lists (t a float)."""
        raise NotImplementedError

    def compiled_law(self) -> tuple[Any, tuple] | None:
        """(kernel, (kp, kd)) when :meth:`law` is exactly one call of a generated kernel
        ``law(q, qd, qr, qdr, qddr, kp, kd, cos, sin)`` and the output is this class's clip. A simulator may
        then run the loop in CasADi (:mod:`armlab.sim.closed_loop`). None otherwise."""
        return None

    def _is_own(self, cls: type) -> bool:
        """Whether law and output are ``cls``'s and Controller's: a subclass that changes them has its own law."""
        return type(self).law is cls.law and type(self).output is Controller.output  # type: ignore[attr-defined]

    def output(self, t: float, q: list, qd: list, qr: list, qdr: list, qddr: list) -> list:
        """The law, clipped to the limits (each clip recorded): what a simulator applies."""
        tau = self.law(t, q, qd, qr, qdr, qddr)
        lims = self.limits
        if lims is None:
            return tau
        sat: Saturation = self.saturation  # type: ignore[assignment]  # a record whenever there are limits
        sat.calls += 1
        for x, lim in zip(tau, lims):  # the common case, nothing clipped, in one cheap pass
            if x > lim or x < -lim:
                break
        else:
            return tau
        for i, (x, lim) in enumerate(zip(tau, lims)):  # something clips: record and clip each joint that does
            if x > lim or x < -lim:
                sat.per_joint[i] += 1
                sat.peak[i] = max(sat.peak[i], abs(x) / lim)
                tau[i] = lim if x > 0 else -lim
        sat.steps += 1
        sat.times.append(t)
        if sat.first is None:
            sat.first = t
        return tau

    def step(self, t: float, q: ArrayLike, qd: ArrayLike, ref: Any) -> np.ndarray:
        """τ (n,) for the state (q, q̇) at time t and the reference ``ref`` (see :func:`split_reference`)."""
        n = self.n
        if n is None:  # the first state sets the number of joints
            first = as_float_array(q, "q")
            if first.ndim != 1:
                raise ValueError(f"q must be a vector of joint values, got shape {first.shape}")
            n = len(first)
            self._bind(n)
        qs = joint_vector(q, n, "q", symbolic=False, batch=False).tolist()
        vs = joint_vector(qd, n, "qd", symbolic=False, batch=False).tolist()
        qr, qdr, qddr = split_reference(ref, cast(int, self.ref_size))
        return np.array(self.output(float(t), qs, vs, qr, qdr, qddr))

    __call__ = step

    def reset(self) -> None:
        """Forget the state (integrators, filters) and the saturation record: ready for a new run."""
        if self.saturation is not None:
            self.saturation.clear()

    def __add__(self, other: Controller) -> Controller:
        if not isinstance(other, Controller):
            return NotImplemented
        return Sum([self, other])


class Sum(Controller):
    """The sum of several controllers' torques (each part's own limits are ignored; the sum's apply)."""

    parts: list[Controller]

    def __init__(self, parts: Sequence[Controller], limits: ArrayLike | None = None):
        parts = [p for part in parts for p in (part.parts if type(part) is Sum else [part])]
        spaces = {p.space for p in parts}
        if spaces != {"joint"}:
            raise ValueError(f"only joint-space controllers can be added, got {sorted(spaces)}")
        self.parts = parts
        sizes = {p.n for p in parts if p.n is not None}
        if len(sizes) > 1:
            raise ValueError(f"the parts are for different numbers of joints: {sorted(sizes)}")
        self.n = sizes.pop() if sizes else None
        super().__init__(limits)

    def _expand(self, n: int) -> None:
        self.parts = [p.bind(n) for p in self.parts]

    def with_model(self, model: Any) -> Controller:
        parts = [p.with_model(model) for p in self.parts]
        if all(a is b for a, b in zip(parts, self.parts)):
            return self
        new = copy.copy(self)
        new.parts = parts
        return new

    def law(self, t: float, q: list, qd: list, qr: list, qdr: list, qddr: list) -> list:
        total = [0.0] * len(q)
        for p in self.parts:
            total = [a + b for a, b in zip(total, p.law(t, q, qd, qr, qdr, qddr))]
        return total

    def reset(self) -> None:
        super().reset()
        for p in self.parts:
            p.reset()

    def __repr__(self) -> str:
        return " + ".join(repr(p) for p in self.parts)


class WithGains(Controller):
    """Gains given as numbers or per joint: the number of joints comes from a gain vector, the model or
    the first call; each becomes a list of n floats."""

    def __init__(self, limits: ArrayLike | None = None, n: int | None = None, **values: ArrayLike):
        self._gains = {k: gains(v, k) for k, v in values.items()}
        sizes = {len(v) for v in self._gains.values() if v.ndim == 1}
        if n is not None:
            sizes.add(n)
        if len(sizes) > 1:
            shapes = ", ".join(f"{k} {v.shape}" for k, v in self._gains.items())
            raise ValueError(
                "each gain must be a number or have one value per joint"
                + (f" ({n} for this model)" if n is not None else "")
                + f": got {shapes}"
            )
        self.n = sizes.pop() if sizes else None
        super().__init__(limits)

    def _expand(self, n: int) -> None:
        for k, v in self._gains.items():
            setattr(self, k, np.broadcast_to(gains(v, k, n), (n,)).tolist())

    def _gain_repr(self) -> str:
        def show(v):
            return f"{float(v):g}" if v.ndim == 0 else str(np.round(v, 4).tolist())

        return ", ".join(f"{k}={show(v)}" for k, v in self._gains.items())


class WithModel(Controller):
    """A controller that holds a model (a robot with inertia) and gravity, compiled into its law;
    :meth:`with_model` gives the same controller with another model."""

    gravity: list[float]

    def _set_model(self, model: RobotLike, gravity: ArrayLike | None) -> None:
        self.gravity = (
            [0.0] * 3 if gravity is None else as_float_array(gravity, "gravity", (3,), allow_batch=False).tolist()
        )
        self._use(model)

    @property
    def model(self) -> RobotLike:
        """The robot the controller believes in (read-only: :meth:`with_model` makes a controller with another)."""
        return self._model

    def _use(self, robot: RobotLike) -> None:
        if self.n is not None and robot.n != self.n:
            raise ValueError(f"the model has {robot.n} joints, the controller {self.n}")
        self._model = robot
        self._compile(robot)

    def _compile(self, robot: RobotLike) -> None:
        """Subclass hook: compile the model terms of the law for ``robot``."""

    def with_model(self, model: Any) -> Controller:
        new = copy.copy(self)
        new._use(_new_model(model, self._model))
        return new


class ModelOptions(TypedDict, total=False):
    """The keyword options of every model-based controller: ``gravity`` (m/s², base frame; default
    :data:`armlab._core.constants.GRAVITY`, None for none) and ``limits`` (see :class:`Controller`)."""

    gravity: ArrayLike | None
    limits: ArrayLike | None


def model_options(gravity: ArrayLike | None = GRAVITY, limits: ArrayLike | None = None) -> tuple[Any, Any]:
    """(gravity, limits) from a model-based controller's :class:`ModelOptions`, defaults filled in; any
    other option is a TypeError that names it."""
    return gravity, limits


class ModelBased(WithGains, WithModel):
    """A controller with gains and a model (computed torque, resolved rate): built from the model, its
    :class:`ModelOptions` and its gains by name, with one joint per joint of the model."""

    def __init__(self, model: RobotLike, options: ModelOptions, **gains: ArrayLike) -> None:
        gravity, limits = model_options(**options)
        super().__init__(limits, n=model.n, **gains)
        self._set_model(model, gravity)


def _new_model(model: Any, old: RobotLike) -> RobotLike:
    """``model``, or ``model(old)`` if it is a function of the old model (robots are not callable)."""
    return model(old) if callable(model) and not hasattr(model, "links") else model
