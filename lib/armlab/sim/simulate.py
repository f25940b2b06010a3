"""Forward simulation of any robot with inertia: q̈ = M⁻¹(τ − C q̇ − G − friction), integrated in time.

Fixed steps: classic Runge–Kutta ("rk4") or semi-implicit (symplectic) Euler ("euler": q̇ first, then
q with the new q̇). Adaptive: scipy's ``solve_ivp`` ("adaptive" = RK45, or any of its method names),
reporting on the same grid. Each derivative is one call of the robot's compiled forward dynamics on plain
floats; an Euler step is one call of :func:`armlab.dynamics.model.euler_step_kernel`, whose q̈ the other
methods take (with h = 0). With torques known in advance (none, or a table), a long run's fixed steps run
in one CasADi call of the same kernel (:mod:`armlab.sim.closed_loop`).
"""

from __future__ import annotations

import math

from typing import Any, Callable

import numpy as np
from numpy.typing import ArrayLike

from .._core.validation import as_float_array, joint_vector
from .._core.constants import GRAVITY
from .._core.protocol import RobotLike
from ..dynamics.model import euler_step_kernel, kinetic_energy, potential_energy
from .integrators import rk4
from .payload import with_payload
from .trajectory import LimitEvent, Trajectory

__all__ = ["simulate", "FIXED", "ADAPTIVE", "EVENTS"]

FIXED = ("rk4", "euler")
ADAPTIVE = ("adaptive", "RK45", "RK23", "DOP853", "Radau", "BDF", "LSODA")
EVENTS = ("report", "stop", "ignore")
#: Runs with torques known in advance and at least this many steps go to CasADi: building a robot's graph
#: (once per robot and method) costs about as much as this many steps in Python.
CASADI_STEPS = 500


def simulate(
    robot: RobotLike,
    q0: ArrayLike,
    qd0: ArrayLike,
    t_end: float,
    dt: float,
    *,
    tau: Any = None,
    controller: Any = None,
    reference: Any = None,
    payload: float | None = None,
    method: str = "rk4",
    gravity: ArrayLike | None = GRAVITY,
    friction: Callable[[np.ndarray], ArrayLike] | None = None,
    armature: ArrayLike | None = None,
    events: str = "report",
    max_steps: int = 10_000_000,
    rtol: float = 1e-9,
    atol: float = 1e-9,
) -> Trajectory:
    """Simulate ``robot`` from (q0, q̇0) for ``t_end`` seconds, sampled every ``dt``; returns a
    :class:`Trajectory`.

    Torques (N·m, or N for prismatic joints), added together:

    * ``tau``: None (zero), an array (steps, n) held over each step, or a function ``tau(t, q, qd)``
      of continuous time (evaluated at every integrator stage);
    * ``controller``: ``controller(t, q, qd, ref)`` or an object with ``.step(t, q, qd, ref)``, called
      once per step and held over it (a digital controller at rate 1/dt); ``ref`` is
      ``reference(t)`` if ``reference`` is callable (e.g. returning (q, q̇, q̈)), else ``reference``.

    ``gravity`` (m/s², base frame; None: none). ``payload`` (kg): a point mass at the tool for the whole run. ``friction``: a function q̇ → (n,)
    friction torques; ``armature`` (n,): reflected actuator inertia. ``events``: what a joint-limit
    crossing does — "report" (listed in ``.events``), "stop" (the run ends there) or "ignore".
    The run never returns NaN: a non-finite state ends it (``.ok`` false), with the reason in ``.reason``.
    """
    n = robot.n
    if not any(link.m for link in robot.links):
        raise ValueError(
            f"{robot.name or 'this robot'!r} has no link masses: simulation needs each DHLink's m, r "
            "and I (see armlab.models for arms that have them)"
        )
    q0 = joint_vector(q0, n, "q0", symbolic=False, batch=False)
    qd0 = joint_vector(qd0, n, "qd0", symbolic=False, batch=False)
    t_end = float(as_float_array(t_end, "t_end", ()))
    dt = float(as_float_array(dt, "dt", ()))
    if not (t_end > 0 and dt > 0):
        raise ValueError(f"t_end and dt must be > 0 s, got t_end = {t_end!r}, dt = {dt!r}")
    if method not in FIXED + ADAPTIVE:
        raise ValueError(f"method must be one of {FIXED + ADAPTIVE}, got {method!r}")
    if events not in EVENTS:
        raise ValueError(f"events must be one of {EVENTS}, got {events!r}")
    steps = int(round(t_end / dt))
    if steps < 1:
        raise ValueError(f"t_end = {t_end!r} s is shorter than one step dt = {dt!r} s")
    if steps > max_steps:
        raise ValueError(f"t_end / dt = {steps} steps exceeds max_steps = {max_steps}")
    if controller is not None and not callable(controller) and not callable(getattr(controller, "step", None)):
        raise TypeError("controller must be a function (t, q, qd, ref) -> tau or have .step(t, q, qd, ref)")
    if friction is not None and not callable(friction):
        raise TypeError("friction must be a function qd -> (n,) friction torques")
    run = _Run(with_payload(robot, payload), gravity, friction, armature, tau, controller, reference, steps)
    if method in FIXED:
        t, Q, QD, QDD, TAU, stop = run.fixed(q0, qd0, dt, steps, method, events)
    else:
        t, Q, QD, QDD, TAU, stop = run.adaptive(q0, qd0, dt, steps, method, events, rtol, atol)
    found = _crossings(run.robot, t, Q) if events != "ignore" else []
    if events == "stop" and found and stop is None:  # (adaptive runs locate their own stops)
        stop = found[0]
    if isinstance(stop, LimitEvent):
        keep = int(np.searchsorted(t, stop.t, side="left")) + 1
        t, Q, QD, QDD, TAU = t[:keep], Q[:keep], QD[:keep], QDD[:keep], TAU[:keep]
        found = [e for e in found if e.t <= stop.t]
        stop = f"joint {stop.joint} reached its {stop.side} limit {stop.limit:.6g} at t = {stop.t:.6g} s"
    kinetic, energy, work = run.energy(Q, QD, TAU, t)
    return Trajectory(
        t=t,
        q=Q,
        qd=QD,
        qdd=QDD,
        tau=TAU,
        energy=energy,
        work=work,
        drift=energy - energy[0] - work,
        kinetic=kinetic,
        events=found,
        reason=stop or "",
        method=method,
        dt=dt,
    )


class _Run:
    """One run's robot, kernel, constant inputs and torque sources."""

    def __init__(self, robot, gravity, friction, armature, tau, controller, reference, steps):
        n = robot.n
        self.robot, self.n = robot, n
        self.step = euler_step_kernel(robot)  # the one compiled kernel: a whole Euler step, or q̈ alone with h = 0
        self.g = [0.0] * 3 if gravity is None else as_float_array(gravity, "gravity", (3,), allow_batch=False).tolist()
        self.arm = (
            [0.0] * n if armature is None else as_float_array(armature, "armature", (n,), allow_batch=False).tolist()
        )
        self.friction = friction
        self.zero, self.no_wrench = [0.0] * n, [0.0] * 6  # never mutated
        self.controller = getattr(controller, "step", controller)
        self.reference = reference
        self.tau_fn = tau if callable(tau) else None
        self.tau_table = None
        if tau is not None and not callable(tau):
            table = as_float_array(tau, "tau", (n,))
            if table.ndim != 2 or table.shape[0] not in (steps, steps + 1):
                raise ValueError(
                    f"tau must be a function tau(t, q, qd) or an array of shape ({steps}, {n}) "
                    f"(one row per step), got shape {table.shape}"
                )
            self.tau_table = table.tolist()

    def held(self, k, t, q, qd):
        """Torques held over step k: the table's row and the controller's output."""
        tau = self.zero if self.tau_table is None else self.tau_table[min(k, len(self.tau_table) - 1)]
        if self.controller is not None:
            ref = self.reference(t) if callable(self.reference) else self.reference
            out = as_float_array(self.controller(t, np.array(q), np.array(qd), ref), "controller output", (self.n,))
            tau = [a + b for a, b in zip(tau, out.tolist())]
        return tau

    def torques(self, t, q, qd, held):
        """(torques the dynamics see, applied τ) at one state: the held ones, ``tau(t, q, q̇)``, less friction."""
        tau = held
        if self.tau_fn is not None:
            extra = as_float_array(self.tau_fn(t, np.array(q), np.array(qd)), "tau(t, q, qd)", (self.n,))
            tau = [a + b for a, b in zip(tau, extra.tolist())]
        eff = tau
        if self.friction is not None:
            f = as_float_array(self.friction(np.array(qd)), "friction(qd)", (self.n,))
            eff = [a - b for a, b in zip(tau, f.tolist())]
        return eff, tau

    def accel(self, t, q, qd, held):
        """q̈ (list) at one state; ``held`` are this step's held torques; also returns the applied τ."""
        eff, tau = self.torques(t, q, qd, held)
        return self.step(q, qd, eff, self.g, self.no_wrench, self.arm, 0.0, math.cos, math.sin)[0], tau

    def fixed(self, q0, qd0, h, steps, method, events):
        n, accel, torques, held = self.n, self.accel, self.torques, self.held
        g, w, arm, zero, cos, sin = self.g, self.no_wrench, self.arm, self.zero, math.cos, math.sin
        step, euler = self.step, method == "euler"
        free = self.tau_fn is None and self.friction is None and self.controller is None and self.tau_table is None
        Q, QD, QDD, TAU = [], [], [], []  # rows as lists: cheaper per step than writing numpy rows
        q, qd = q0.tolist(), qd0.tolist()
        lo, hi = self.robot.qlim.T.tolist()
        watch = [i for i in range(n) if events == "stop" and (math.isfinite(lo[i]) or math.isfinite(hi[i]))]
        last, stop = steps, None
        t, hk = 0.0, zero

        def stage(c, qs, vs):  # RK4's q̈ at t + c·h, this step's torque held
            return accel(t + c * h, qs, vs, hk)[0]

        start = 0
        known = self.tau_fn is None and self.friction is None and self.controller is None
        if known and not watch and steps >= CASADI_STEPS:
            # torques known in advance: the steps in one CasADi call; Python goes on from where that stops
            table = np.zeros((steps, n)) if self.tau_table is None else np.array(self.tau_table)[:steps]
            from .closed_loop import run_stretch  # casadi on first use: importing armlab stays light

            start, q, qd, rows = run_stretch(None, (step, (g, w, arm), h), (table,), None, 0, steps, q, qd, method)
            Q, QD, QDD, TAU = (r.tolist() for r in rows[:4])

        for k in range(start, steps):
            t = k * h
            hk = zero if free else held(k, t, q, qd)  # the controller runs once per step
            eff, tau = (zero, zero) if free else torques(t, q, qd, hk)
            try:
                # semi-implicit Euler: the new velocity moves the position; RK4 takes the stage-1 q̈ from it
                a1, q_next, qd_next = step(q, qd, eff, g, w, arm, h, cos, sin)
            except ZeroDivisionError:
                if k == 0:
                    raise ValueError("M(q0) is singular: give every moving link mass and inertia") from None
                last, stop = k - 1, f"M(q) became singular at t = {t:.6g} s"
                break
            Q.append(q)
            QD.append(qd)
            QDD.append(a1)
            TAU.append(tau)
            if euler:
                q, qd = q_next, qd_next
            else:
                try:
                    _, q, qd = rk4(stage, q, qd, h, a1)
                except (ZeroDivisionError, OverflowError):
                    last, stop = k, f"M(q) became singular or the state overflowed during the step at t = {t:.6g} s"
                    break
            if not math.isfinite(sum(q) + sum(qd)):
                last, stop = k, f"the state became non-finite after t = {t:.6g} s (step too large, or unstable)"
                break
            if watch and any(not lo[i] <= q[i] <= hi[i] for i in watch):
                last = k + 1  # keep the first sample past the limit; simulate() reports the crossing
                break
        if stop is None:
            try:
                a, tau = accel(last * h, q, qd, self.held(last, last * h, q, qd))
            except ZeroDivisionError:
                last, stop = last - 1, f"M(q) became singular at t = {last * h:.6g} s"
            else:
                Q.append(q)
                QD.append(qd)
                QDD.append(a)
                TAU.append(tau)
        return _cut(h, last, *(np.array(rows, dtype=float).reshape(-1, n) for rows in (Q, QD, QDD, TAU))) + (stop,)

    def adaptive(self, q0, qd0, h, steps, method, events, rtol, atol):
        from scipy.integrate import solve_ivp  # scipy only when an adaptive method is asked for

        n = self.n
        name = "RK45" if method == "adaptive" else method
        t_grid = np.arange(steps + 1) * h
        X = np.empty((steps + 1, 2 * n))
        X[0] = np.concatenate([q0, qd0])
        lo, hi = self.robot.qlim.T
        limit_events = []
        if events == "stop":
            for i in range(n):
                for side, bound in (("lower", lo[i]), ("upper", hi[i])):
                    if math.isfinite(bound):
                        limit_events.append(_LimitCrossing(i, side, float(bound)))
        k = 0
        stop: str | LimitEvent | None = None
        while k < steps:  # one interval per step when torques are held, else one call for the run
            held = self.held(k, k * h, X[k, :n].tolist(), X[k, n:].tolist())
            last = k + 1 if (self.controller is not None or self.tau_table is not None) else steps

            def rhs(t, x, held=held):
                a, _ = self.accel(t, x[:n].tolist(), x[n:].tolist(), held)
                return np.concatenate([x[n:], a])

            try:
                sol = solve_ivp(
                    rhs,
                    (k * h, last * h),
                    X[k],
                    method=name,
                    t_eval=t_grid[k + 1 : last + 1],
                    rtol=rtol,
                    atol=atol,
                    events=limit_events or None,
                )
            except (ZeroDivisionError, OverflowError):
                sol = None
            if sol is None or not sol.success or not np.isfinite(sol.y).all():
                stop = f"the adaptive integrator failed after t = {k * h:.6g} s ({getattr(sol, 'message', 'overflow')})"
                break
            got = sol.y.shape[1]
            X[k + 1 : k + 1 + got] = sol.y.T
            k += got
            if sol.status == 1:  # a terminal limit event
                j = next(j for j, te in enumerate(sol.t_events) if len(te))
                i, side, bound = limit_events[j].meta
                stop = LimitEvent(float(sol.t_events[j][0]), i + 1, side, float(bound))
                break
        Q, QD = X[: k + 1, :n], X[: k + 1, n:]
        QDD, TAU = np.empty_like(Q), np.empty_like(Q)
        for j in range(k + 1):
            held = self.held(j, j * h, Q[j].tolist(), QD[j].tolist())
            a, tau = self.accel(j * h, Q[j].tolist(), QD[j].tolist(), held)
            QDD[j], TAU[j] = a, tau
        return t_grid[: k + 1], Q, QD, QDD, TAU, stop

    def energy(self, Q, QD, TAU, t):
        """(K, K + P, work of the applied torques and friction since t = 0 by the trapezoid rule)."""
        K = kinetic_energy(self.robot, Q, QD) + 0.5 * np.einsum("ki,i,ki->k", QD, np.asarray(self.arm), QD)
        E = K + potential_energy(self.robot, Q, self.g)
        power = np.einsum("ki,ki->k", QD, TAU)
        if self.friction is not None:
            power = power - np.array([np.dot(v, self.friction(v)) for v in QD])
        work = np.concatenate([[0.0], np.cumsum(0.5 * (power[1:] + power[:-1]) * np.diff(t))])
        return K, E, work


class _LimitCrossing:
    """A terminal event for ``solve_ivp``: joint i's value minus its limit."""

    terminal = True

    def __init__(self, i: int, side: str, bound: float):
        self.meta = (i, side, bound)

    def __call__(self, t, x):
        i, _, bound = self.meta
        return x[i] - bound


def _cut(h, k, Q, QD, QDD, TAU):
    return np.arange(k + 1) * h, Q[: k + 1], QD[: k + 1], QDD[: k + 1], TAU[: k + 1]


def _crossings(robot, t, Q):
    """Every time a joint leaves its range (lower or upper), interpolated between samples."""
    found = []
    lim = robot.qlim
    for i in range(robot.n):
        for side, bound, outside in (
            ("lower", lim[i, 0], Q[:, i] < lim[i, 0]),
            ("upper", lim[i, 1], Q[:, i] > lim[i, 1]),
        ):
            if not math.isfinite(bound):
                continue
            for k in np.flatnonzero(outside[1:] & ~outside[:-1]) + 1:
                a, b = Q[k - 1, i] - bound, Q[k, i] - bound
                found.append(LimitEvent(float(t[k - 1] + (t[k] - t[k - 1]) * a / (a - b)), i + 1, side, float(bound)))
    return sorted(found, key=lambda e: e.t)
