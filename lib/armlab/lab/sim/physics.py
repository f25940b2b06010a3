"""The simulated youBot arm: a joint-level position servo on the Newton–Euler model.

* Motors on: each joint ramps to its set point at up to the firmware speed (acceleration-limited,
  like the joint firmware), or follows a velocity command until it nears a limit (no watchdog).
* Efforts are the inverse dynamics of the measured motion, τ = rne(q, q̇, q̈) + friction — what the
  real driver reports as current·Kt·gear. A stuck joint (a collision) stops; its motor pushes
  toward the set point up to its peak torque.
* Motors off (``switchOffMotors``): free dynamics M q̈ = −(C q̇ + G) under gravity, friction as impulses, with the
  joint-limit stops, by semi-implicit Euler.

All angles here are the DH angles of :func:`armlab.models.youbot`; the server converts to driver angles.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
from numpy.typing import ArrayLike

from ..._core.validation import joint_vector
from ...models import youbot
from ...models.youbot import YOUBOT_ACTUATORS
from ...sim.integrators import semi_implicit_euler

__all__ = ["ArmPhysics", "COULOMB", "VISCOUS_OFF"]

# The simulator's own assumptions; everything else is the model's (armlab.models.youbot).
#: Coulomb friction (N·m): the identified values; joint 1's is not published, taken equal to joint 2's.
COULOMB = np.where(np.isnan(YOUBOT_ACTUATORS["coulomb"]), YOUBOT_ACTUATORS["coulomb"][1], YOUBOT_ACTUATORS["coulomb"])
#: back-driven gearbox damping with the motors off (N·m·s/rad): assumed, no published viscous values
VISCOUS_OFF = np.array([0.5, 0.5, 0.3, 0.1, 0.05])


class ArmPhysics:
    """State and integration of the simulated arm (DH angles, SI units).

    ``advance(t)`` integrates from the last time to t in fixed ``dt`` steps (the remainder carries);
    ``efforts()`` gives the joint torques of this instant.
    """

    #: joint acceleration limit of the servo ramp (rad/s²) and its position gain (1/s): assumed, the
    #: firmware's are not published
    ACCEL = 10.0
    GAIN = 25.0
    #: stiffness of a stuck joint's motor pushing toward its set point (N·m/rad), and its peak torque
    STUCK_GAIN = 200.0
    PEAK = 2.0

    def __init__(self, q0: ArrayLike, dt_servo: float = 0.002, dt_free: float = 0.005):
        self.robot = youbot()  # with the youBot-store inertias in DH frames
        self.lo, self.hi = self.robot.qlim[:, 0], self.robot.qlim[:, 1]
        self.vmax = YOUBOT_ACTUATORS["max_speed"]
        self.q = np.array(joint_vector(q0, self.robot.n, "q0", symbolic=False, batch=False))
        self.qd = np.zeros(5)
        self.target = self.q.copy()
        self.vel_cmd = np.full(5, np.nan)  # NaN: position mode
        self.stuck = np.zeros(5, bool)
        self.motors_on = True
        self.gripper = np.array([0.0, 0.0])
        self.gripper_target = self.gripper.copy()
        self.dt_servo, self.dt_free = dt_servo, dt_free
        self.t: float | None = None
        self._acc = 0.0
        self.qdd = np.zeros(5)  # of the last integration step
        self._qdd_mean = np.zeros(5)
        self._eff_at: tuple[float | None, np.ndarray | None] = (None, None)

    # --- commands --------------------------------------------------------------------------------
    def set_target(self, j: int, value: float) -> None:
        self.target[j] = value
        self.vel_cmd[j] = np.nan

    def set_velocity(self, j: int, value: float) -> None:
        self.vel_cmd[j] = value

    def hold_here(self) -> None:
        self.target = self.q.copy()
        self.vel_cmd[:] = np.nan

    def switch_motors(self, on: bool) -> None:
        if on and not self.motors_on:
            self.qd[:] = 0.0
        self.motors_on = on
        self.hold_here()

    # --- integration -----------------------------------------------------------------------------
    def advance(self, t: float) -> None:
        if self.t is None:
            self.t = t
            return
        elapsed, self.t = t - self.t, t
        self._acc += elapsed
        dt = self.dt_servo if self.motors_on else self.dt_free
        while self._acc >= dt:
            self._acc -= dt
            (self._servo_step if self.motors_on else self._free_step)(dt)
        step = 0.02 * elapsed  # fingers move at 20 mm/s
        self.gripper += np.clip(self.gripper_target - self.gripper, -step, step)

    def _servo_step(self, dt: float) -> None:
        e = self.target - self.q
        # first-order position loop, saturated at the firmware speed: a far set point is a ramp at full speed,
        # streamed set points are followed smoothly with a lag of 1/GAIN
        v_des = np.sign(e) * np.minimum(
            np.minimum(self.vmax, np.sqrt(2 * self.ACCEL * np.abs(e))), self.GAIN * np.abs(e)
        )
        vel_mode = ~np.isnan(self.vel_cmd)
        if vel_mode.any():
            # velocity mode: no watchdog, but the firmware stops a joint near its limit
            v = np.clip(np.nan_to_num(self.vel_cmd), -self.vmax, self.vmax)
            brake = self.qd**2 / (2 * self.ACCEL) + 0.02  # stopping distance, plus a margin
            near = ((v < 0) & (self.q <= self.lo + brake)) | ((v > 0) & (self.q >= self.hi - brake))
            v_des = np.where(vel_mode, np.where(near, 0.0, v), v_des)
            self.target = np.where(vel_mode, self.q, self.target)
        # the drive accelerates toward v_des at up to ACCEL; a stuck joint is stopped (an impulse)
        servo = np.clip(v_des - self.qd, -self.ACCEL * dt, self.ACCEL * dt) / dt
        self._step(lambda q, qd: servo, dt, self._stop_stuck if self.stuck.any() else None)

    def _stop_stuck(self, qd: np.ndarray) -> np.ndarray:
        return np.where(self.stuck, 0.0, qd)

    def _step(self, accel: Callable[[Any, Any], Any], dt: float, impulse: Callable[[Any], Any] | None) -> None:
        """One semi-implicit Euler step of the arm (:func:`armlab.sim.integrators.semi_implicit_euler`);
        ``qdd`` is the mean acceleration over it, impulses included."""
        _, q, qd = semi_implicit_euler(accel, self.q, self.qd, dt, impulse=impulse)
        self.qdd = (qd - self.qd) / dt
        self.q, self.qd = q, qd

    def _friction(self, qd: np.ndarray) -> np.ndarray:
        return COULOMB * np.tanh(qd / 0.01) + 0.01 * qd

    def _free_step(self, dt: float) -> None:
        M = self.robot.inertia(self.q)
        m = np.diag(M)

        def impulse(qd):
            # Coulomb friction as an impulse that can stop a joint but never reverse it (an explicit
            # tanh law is too stiff for the light wrist at this step); viscous damping taken implicitly
            qd = qd / (1.0 + VISCOUS_OFF / m * dt)
            return np.sign(qd) * np.maximum(np.abs(qd) - COULOMB / m * dt, 0.0)

        # τ = 0: M q̈ = −(C q̇ + G)
        self._step(lambda q, qd: np.linalg.solve(M, -self.robot.rne(q, qd, np.zeros(5))), dt, impulse)
        low, high = self.q < self.lo, self.q > self.hi  # the end stops: inelastic
        self.q = np.clip(self.q, self.lo, self.hi)
        self.qd[low] = np.maximum(self.qd[low], 0.0)
        self.qd[high] = np.minimum(self.qd[high], 0.0)

    def efforts(self) -> np.ndarray:
        """τ (DH signs): rne(q, q̇, q̈) + friction, with q̈ the mean acceleration since the last call (the driver's
        current reading is a filtered one; a call within 5 ms reuses the last mean), a stuck joint's push
        added, clipped to the peak torque; zero with the motors off."""
        if not self.motors_on:
            self._eff_at = (self.t, self.qd.copy())
            return np.zeros(5)
        t0, qd0 = self._eff_at
        now = self.t
        if t0 is not None and qd0 is not None and now is not None and now - t0 >= 0.005:
            self._qdd_mean = (self.qd - qd0) / (now - t0)
            self._eff_at = (self.t, self.qd.copy())
        elif t0 is None:
            self._eff_at = (self.t, self.qd.copy())
        tau = self.robot.rne(self.q, self.qd, self._qdd_mean) + self._friction(self.qd)
        tau = tau + np.where(self.stuck, self.STUCK_GAIN * (self.target - self.q), 0.0)
        peak = self.PEAK * YOUBOT_ACTUATORS["effort"]
        return np.clip(tau, -peak, peak)
