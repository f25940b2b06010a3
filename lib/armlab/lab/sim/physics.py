"""The simulated youBot arm: a joint-level position servo on the Newton–Euler model.

* Motors on: each joint ramps to its set point at up to the firmware speed (acceleration-limited,
  like the joint firmware), or follows a velocity command until it nears a limit (no watchdog).
* Efforts are the inverse dynamics of the measured motion, τ = rne(q, q̇, q̈) + friction — what the
  real driver reports as current·Kt·gear. A stuck joint (a collision) stops; its motor pushes
  toward the set point up to its peak torque.
* Motors off (``switchOffMotors``): free dynamics q̈ = fdyn(q, q̇, −friction) under gravity, with the
  joint-limit stops, by semi-implicit Euler.

All angles here are the DH angles of :func:`armlab.models.youbot`; the server converts to driver angles.
"""
from __future__ import annotations

import math

import numpy as np

from ...kinematics.links import DHLink
from ...models import youbot
from ...robot import DHRobot

__all__ = ["YOUBOT_JOINTS", "youbot_with_inertia", "ArmPhysics"]

# ------------------------------------------------------------------------------------------------
# The youBot's drive and inertial data (shared/docs/youbot-interface.md). Interim: kept here, in
# one place, until armlab.models.youbot carries them; then this block imports from there.
# ------------------------------------------------------------------------------------------------
YOUBOT_JOINTS = {
    "firmware_speed": np.array([2.685, 2.685, 4.189, 5.900, 5.900]),  # rad/s
    "effort_limit": np.array([9.5, 9.5, 6.0, 2.0, 1.0]),  # N·m (URDF)
    "gear": np.array([156.0, 156.0, 100.0, 71.0, 71.0]),
    "kt": np.array([0.0335, 0.0335, 0.0335, 0.051, 0.049]),  # N·m/A
    # identified Coulomb friction, joints 2–5; joint 1 assumed equal to joint 2 (not published)
    "coulomb": np.array([0.065, 0.065, 0.042, 0.039, 0.313]),  # N·m
    # back-driven gearbox damping with the motors off: assumed (no published viscous values)
    "viscous_off": np.array([0.5, 0.5, 0.3, 0.1, 0.05]),  # N·m·s/rad
}
# youBot-store bodies: mass, COM and principal inertia in a frame at the joint, axes along the
# world's in the candle pose (an assumption: the source does not give x, y). Gripper joins link 5.
_BODIES = [  # (m, COM, (Ix, Iy, Iz), frame origin above the joint's DH origin in the candle, m)
    (2.351, (0.01516, 0.00359, -0.03105), (0.0029525, 0.0060091, 0.0058821), 0.0),
    (1.318, (-0.01903, 0.0150, 0.11397), (0.0031145, 0.0005843, 0.0031631), 0.0),
    (0.821, (0.00013, 0.02022, 0.10441), (0.00172767, 0.00041967, 0.0018468), 0.0),
    (0.769, (0.00015, -0.02464, 0.05353), (0.0006764, 0.0010573, 0.0006610), 0.0),
    (0.687, (0.0, 0.0012, 0.01648), (0.0001934, 0.0001602, 0.0000689), 0.13),
    (0.219, (0.0, 0.0, 0.0289), (0.0002324, 0.0003629, 0.0002067), 0.175),  # gripper, on link 5
]
_CANDLE = np.array([0.0, 0.0, 0.0, math.pi / 2, 0.0])


def youbot_with_inertia() -> DHRobot:
    """The youBot of :func:`armlab.models.youbot` with the youBot-store masses and inertias, moved
    into its DH link frames through the candle pose (gripper lumped into link 5)."""
    base = youbot()
    F = base.fkine_all(_CANDLE)  # F[k]: frame k in the candle pose
    world = []  # (m, COM in world, inertia about COM in world) per body, candle pose
    for k, (m, c, I, up) in enumerate(_BODIES):
        joint = min(k, 4)  # link k+1 starts at joint k+1, the origin of frame k
        origin = F[joint][:3, 3] + np.array([0.0, 0.0, up])
        world.append((m, origin + np.array(c), np.diag(I)))
    (m5, c5, I5), (mg, cg, Ig) = world[4], world.pop()
    m = m5 + mg
    com = (m5 * c5 + mg * cg) / m
    shift = lambda mass, d: mass * (d @ d * np.eye(3) - np.outer(d, d))  # noqa: E731 - parallel axis
    world[4] = (m, com, I5 + shift(m5, c5 - com) + Ig + shift(mg, cg - com))
    links = []
    for k, (link, (mk, ck, Ik)) in enumerate(zip(base.links, world)):
        R, o = F[k + 1][:3, :3], F[k + 1][:3, 3]
        links.append(DHLink(a=link.a, alpha=link.alpha, d=link.d, offset=link.offset, qlim=link.qlim,
                            m=mk, r=tuple(R.T @ (ck - o)), I=R.T @ Ik @ R))
    return DHRobot(links, convention="standard", name="youBot arm (with inertia)")


class ArmPhysics:
    """State and integration of the simulated arm (DH angles, SI units).

    ``advance(t)`` integrates from the last time to t in fixed ``dt`` steps (the remainder carries);
    ``efforts()`` gives τ of the motion since the previous call.
    """

    #: joint acceleration limit of the servo ramp (rad/s²); the firmware's is not published
    ACCEL = 10.0
    #: stiffness of a stuck joint's motor pushing toward its set point (N·m/rad), and its peak torque
    STUCK_GAIN = 200.0
    PEAK = 2.0

    def __init__(self, q0, dt_servo=0.002, dt_free=0.005):
        self.robot = youbot_with_inertia()
        self.lo, self.hi = self.robot.qlim[:, 0], self.robot.qlim[:, 1]
        self.vmax = YOUBOT_JOINTS["firmware_speed"]
        self.q = np.array(q0, dtype=float)
        self.qd = np.zeros(5)
        self.target = self.q.copy()
        self.vel_cmd = np.full(5, np.nan)  # NaN: position mode
        self.stuck = np.zeros(5, bool)
        self.motors_on = True
        self.gripper = np.array([0.0, 0.0])
        self.gripper_target = self.gripper.copy()
        self.dt_servo, self.dt_free = dt_servo, dt_free
        self.t = None
        self._acc = 0.0
        self._qd_prev, self._t_prev = self.qd.copy(), None

    # --- commands --------------------------------------------------------------------------------
    def set_target(self, j, value):
        self.target[j] = value
        self.vel_cmd[j] = np.nan

    def set_velocity(self, j, value):
        self.vel_cmd[j] = value

    def hold_here(self):
        self.target = self.q.copy()
        self.vel_cmd[:] = np.nan

    def switch_motors(self, on: bool):
        if on and not self.motors_on:
            self.qd[:] = 0.0
        self.motors_on = on
        self.hold_here()

    # --- integration -----------------------------------------------------------------------------
    def advance(self, t):
        if self.t is None:
            self.t = self._t_prev = t
            return
        elapsed, self.t = t - self.t, t
        self._acc += elapsed
        dt = self.dt_servo if self.motors_on else self.dt_free
        while self._acc >= dt:
            self._acc -= dt
            (self._servo_step if self.motors_on else self._free_step)(dt)
        step = 0.02 * elapsed  # fingers move at 20 mm/s
        self.gripper += np.clip(self.gripper_target - self.gripper, -step, step)

    def _servo_step(self, dt):
        e = self.target - self.q
        v_des = np.sign(e) * np.minimum(np.minimum(self.vmax, np.sqrt(2 * self.ACCEL * np.abs(e))), np.abs(e) / dt)
        vel_mode = ~np.isnan(self.vel_cmd)
        if vel_mode.any():
            # velocity mode: no watchdog, but the firmware stops a joint near its limit
            v = np.clip(np.nan_to_num(self.vel_cmd), -self.vmax, self.vmax)
            brake = self.qd**2 / (2 * self.ACCEL) + 0.02  # stopping distance, plus a margin
            near = ((v < 0) & (self.q <= self.lo + brake)) | ((v > 0) & (self.q >= self.hi - brake))
            v_des = np.where(vel_mode, np.where(near, 0.0, v), v_des)
            self.target = np.where(vel_mode, self.q, self.target)
        self.qd = self.qd + np.clip(v_des - self.qd, -self.ACCEL * dt, self.ACCEL * dt)
        self.qd[self.stuck] = 0.0
        self.q = self.q + self.qd * dt

    def _friction(self, qd):
        return YOUBOT_JOINTS["coulomb"] * np.tanh(qd / 0.01) + 0.01 * qd

    def _free_step(self, dt):
        M = self.robot.inertia(self.q)
        qdd = np.linalg.solve(M, -self.robot.rne(self.q, self.qd, np.zeros(5)))  # τ = 0: −(C q̇ + G)
        qd = self.qd + qdd * dt
        # Coulomb friction as an impulse that can stop a joint but never reverse it (an explicit
        # tanh law is too stiff for the light wrist at this step)
        m = np.diag(M)
        qd = qd / (1.0 + YOUBOT_JOINTS["viscous_off"] / m * dt)  # implicit viscous damping
        self.qd = np.sign(qd) * np.maximum(np.abs(qd) - YOUBOT_JOINTS["coulomb"] / m * dt, 0.0)
        self.q = self.q + self.qd * dt
        low, high = self.q < self.lo, self.q > self.hi  # the end stops: inelastic
        self.q = np.clip(self.q, self.lo, self.hi)
        self.qd[low] = np.maximum(self.qd[low], 0.0)
        self.qd[high] = np.minimum(self.qd[high], 0.0)

    def efforts(self):
        """τ (DH signs) of the motion since the last call: rne(q, q̇, mean q̈) + friction, a stuck joint's
        push added, clipped to the peak torque; zero with the motors off."""
        if not self.motors_on:
            self._qd_prev, self._t_prev = self.qd.copy(), self.t
            return np.zeros(5)
        span = (self.t - self._t_prev) if self._t_prev is not None else 0.0
        qdd = (self.qd - self._qd_prev) / span if span > 0 else np.zeros(5)
        self._qd_prev, self._t_prev = self.qd.copy(), self.t
        tau = self.robot.rne(self.q, self.qd, qdd) + self._friction(self.qd)
        tau = tau + np.where(self.stuck, self.STUCK_GAIN * (self.target - self.q), 0.0)
        peak = self.PEAK * YOUBOT_JOINTS["effort_limit"]
        return np.clip(tau, -peak, peak)
