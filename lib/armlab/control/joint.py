"""Joint-space controllers: PD, PID (with the lab report's position/velocity/current cascade as an option),
gravity compensation, PD + gravity, and computed torque.

Errors are reference minus measurement, e = q_r − q and ė = q̇_r − q̇, so positive gains push toward
the reference. The model-based ones (gravity compensation, PD + G, computed torque) use ``model`` — the
robot the controller *believes* in, which may differ from the simulated one (a payload it does not know
about, or :func:`~armlab.control.model_error.perturbed` parameters). ``c.with_model(robot)`` is the same
controller believing in another model.
"""

from __future__ import annotations

import copy
import math
from typing import Any, Unpack, cast

import numpy as np
from numpy.typing import ArrayLike

from .._core.protocol import RobotLike
from .._core.validation import as_float_array, joint_vector
from ..dynamics.model import inertia
from .base import Controller, ModelBased, ModelOptions, Sum, WithGains, WithModel, gains, model_options
from .kernels import computed_torque, gravity_torques, pd_gravity

__all__ = ["PD", "PID", "GravityCompensation", "PDGravity", "ComputedTorque", "pd_gains"]


def pd_gains(robot: RobotLike, q: ArrayLike, omega: float, zeta: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Independent-joint gains (Kp, Kd) (n,) for the natural frequency ``omega`` (rad/s) and damping ratio
    ``zeta``, each joint seen as a lone inertia m_i at the pose q: Kp = m_i·ω², Kd = 2ζω·m_i.

    m_i = 1/(M(q)⁻¹)_ii is the inertia joint i feels when the other joints are free to move, as they are
    under torque control; it is smaller than M_ii (the one with the others locked), and gains designed with
    M_ii can make the coupled loop unstable at a step of a few ms. The same gains still meet a different
    inertia elsewhere (the paper arm's joint 1 has 0.0048 kg·m² upright and 2.7 stretched out): softer where
    it grows, stiffer — and for a discrete controller with step h, unstable once Kd·h/m_i nears 2 — where
    it shrinks. Computed torque scales its gains by M(q) and has no such problem.
    """
    w = float(gains(omega, "omega"))
    z = float(gains(zeta, "zeta"))
    m = 1.0 / np.diag(np.linalg.inv(inertia(robot, joint_vector(q, robot.n, "q", symbolic=False, batch=False))))
    return m * w**2, 2 * z * w * m


class PD(WithGains):
    """τ = Kp·e + Kd·ė: independent joint PD, no model."""

    kp: list[float]
    kd: list[float]

    def __init__(self, kp: ArrayLike, kd: ArrayLike, *, limits: ArrayLike | None = None):
        super().__init__(limits, kp=kp, kd=kd)

    def law(self, t: float, q: list, qd: list, qr: list, qdr: list, qddr: list) -> list:
        return [p * (a - b) + d * (c - e) for p, a, b, d, c, e in zip(self.kp, qr, q, self.kd, qdr, qd)]

    def __repr__(self) -> str:
        return f"PD({self._gain_repr()})"


class PID(WithGains):
    """Independent joint PID, τ = Kp·e + Ki·∫e dt + Kd·ė (the integral by the rectangle rule between calls;
    on a saturated joint it stops growing: anti-windup).

    :meth:`cascade` builds instead an assumed structure of the youBot drives (lab report §4.1 says only that
    each set point goes to "the corresponding PID regulator"; the nesting is ours): a position loop (P) sets a
    velocity, a velocity loop (PI) sets the torque (current), and the current loop follows with a first-order
    lag of time constant ``current_lag`` (s; 0 = instant, the report's assumption for torque commands).
    """

    kp: list[float]
    ki: list[float]
    kd: list[float]
    kv: list[float]
    kvi: list[float]
    current_lag: float = 0.0
    integral: list[float] | None
    tau_motor: list[float]
    t_last: float | None
    _clipped: list[bool]

    def __init__(self, kp: ArrayLike, ki: ArrayLike = 0.0, kd: ArrayLike = 0.0, *, limits: ArrayLike | None = None):
        super().__init__(limits, kp=kp, ki=ki, kd=kd)
        self.mode = "pid"
        self.reset()

    @classmethod
    def cascade(
        cls,
        kp: ArrayLike,
        kv: ArrayLike,
        kvi: ArrayLike = 0.0,
        *,
        current_lag: float = 0.0,
        limits: ArrayLike | None = None,
    ) -> PID:
        """Position P (kp, 1/s) → velocity PI (kv N·m·s/rad, kvi N·m/rad) → current loop (first-order lag)."""
        self = cls.__new__(cls)
        WithGains.__init__(self, limits, kp=kp, kv=kv, kvi=kvi)
        lag = float(as_float_array(current_lag, "current_lag", ()))
        if not lag >= 0:
            raise ValueError(f"current_lag must be >= 0 s, got {current_lag!r}")
        self.mode, self.current_lag = "cascade", lag
        self.reset()
        return self

    def reset(self) -> None:
        super().reset()
        self.integral, self.t_last, self.tau_motor, self._clipped = None, None, [], []

    def law(self, t: float, q: list, qd: list, qr: list, qdr: list, qddr: list) -> list:
        n = len(q)
        dt = 0.0 if self.t_last is None else t - self.t_last
        self.t_last = t
        integral = self.integral
        if integral is None:
            integral = self.integral = [0.0] * n
            self.tau_motor, self._clipped = [0.0] * n, [False] * n
        if self.mode == "pid":
            e = [a - b for a, b in zip(qr, q)]
            tau = [p * x + d * (c - v) for p, x, d, c, v in zip(self.kp, e, self.kd, qdr, qd)]
            ki = self.ki
        else:  # the position loop sets the velocity, the velocity loop (PI) the torque
            e = [vr + p * (a - b) - v for vr, p, a, b, v in zip(qdr, self.kp, qr, q, qd)]
            tau = [g * x for g, x in zip(self.kv, e)]
            ki = self.kvi
        for i in range(n):
            if not self._clipped[i]:  # anti-windup: no integration while the joint is clipped
                integral[i] += e[i] * dt
            tau[i] += ki[i] * integral[i]
        if self.mode == "cascade":  # the current loop: a first-order lag toward the demanded torque
            alpha = 1.0 if self.current_lag == 0.0 else 1.0 - math.exp(-dt / self.current_lag)
            self.tau_motor = [m + alpha * (x - m) for m, x in zip(self.tau_motor, tau)]
            tau = list(self.tau_motor)
        return tau

    def output(self, t: float, q: list, qd: list, qr: list, qdr: list, qddr: list) -> list:
        tau = super().output(t, q, qd, qr, qdr, qddr)
        if self.limits is not None:
            self._clipped = [abs(x) >= lim for x, lim in zip(tau, self.limits)]
        return tau

    def __repr__(self) -> str:
        kind = "PID" if self.mode == "pid" else f"PID.cascade(current_lag={self.current_lag:g}, "
        return f"{kind}({self._gain_repr()})" if self.mode == "pid" else f"{kind}{self._gain_repr()})"


class GravityCompensation(WithModel, Controller):
    """τ = G(q) of the model: holds the arm still against gravity, if the model is right. ``options``:
    :class:`~armlab.control.base.ModelOptions` (``gravity``, ``limits``)."""

    def __init__(self, model: RobotLike, **options: Unpack[ModelOptions]) -> None:
        gravity, limits = model_options(**options)
        self.n = model.n
        Controller.__init__(self, limits)
        self._set_model(model, gravity)

    def _compile(self, robot: RobotLike) -> None:
        self._G = gravity_torques(robot, self.gravity)

    def law(self, t: float, q: list, qd: list, qr: list, qdr: list, qddr: list) -> list:
        return self._G(q, math.cos, math.sin)

    def __repr__(self) -> str:
        return f"GravityCompensation({self.model.name or 'model'})"


class PDGravity(Sum):
    """PD plus gravity compensation, τ = Kp·e + Kd·ė + G(q): with a constant reference and a right model
    the arm converges to it (a Lyapunov argument: G cancels, Kd dissipates). A moving reference is
    followed with a lag. ``options``: :class:`~armlab.control.base.ModelOptions` (``gravity``, ``limits``)."""

    pd: PD
    gravity_comp: GravityCompensation

    def __init__(self, model: RobotLike, kp: ArrayLike, kd: ArrayLike, **options: Unpack[ModelOptions]) -> None:
        gravity, limits = model_options(**options)
        self.pd = PD(kp, kd)
        self.gravity_comp = GravityCompensation(model, gravity=gravity)
        super().__init__([self.pd, self.gravity_comp], limits)
        self.pd, self.gravity_comp = self.parts  # type: ignore[assignment]  # bound to the model's joints
        self._law = pd_gravity(model, self.gravity_comp.gravity)

    def law(self, t: float, q: list, qd: list, qr: list, qdr: list, qddr: list) -> list:  # one compiled call
        return self._law(q, qd, qr, qdr, qddr, self.pd.kp, self.pd.kd, math.cos, math.sin)

    def compiled_law(self) -> tuple[Any, tuple] | None:
        return (self._law, (self.pd.kp, self.pd.kd)) if self._is_own(PDGravity) else None

    @property
    def model(self) -> RobotLike:
        return self.gravity_comp.model

    def with_model(self, model: Any) -> PDGravity:
        new = copy.copy(self)
        new.gravity_comp = cast(GravityCompensation, self.gravity_comp.with_model(model))
        new.parts = [new.pd, new.gravity_comp]
        new._law = pd_gravity(new.gravity_comp.model, new.gravity_comp.gravity)
        return new

    def __repr__(self) -> str:
        return f"PDGravity({self.pd._gain_repr()})"


class ComputedTorque(ModelBased):
    """Computed torque (inverse dynamics): τ = M(q)·(q̈_r + Kd·ė + Kp·e) + C(q, q̇)·q̇ + G(q), one Newton–Euler
    pass of the model. With a perfect model the error obeys ë + Kd·ė + Kp·e = 0 for every joint,
    whatever the arm does: critically damped for Kd = 2·√Kp. ``options``:
    :class:`~armlab.control.base.ModelOptions` (``gravity``, ``limits``)."""

    kp: list[float]
    kd: list[float]

    def __init__(self, model: RobotLike, kp: ArrayLike, kd: ArrayLike, **options: Unpack[ModelOptions]) -> None:
        super().__init__(model, options, kp=kp, kd=kd)

    def _compile(self, robot: RobotLike) -> None:
        self._ct = computed_torque(robot, self.gravity)

    def law(self, t: float, q: list, qd: list, qr: list, qdr: list, qddr: list) -> list:
        return self._ct(q, qd, qr, qdr, qddr, self.kp, self.kd, math.cos, math.sin)

    def compiled_law(self) -> tuple[Any, tuple] | None:
        return (self._ct, (self.kp, self.kd)) if self._is_own(ComputedTorque) else None

    def __repr__(self) -> str:
        return f"ComputedTorque({self._gain_repr()})"
