"""A pick-and-place task, planned and simulated in closed loop (the simulation paper's experiment, 003 §5).

:func:`plan_pick_and_place` chooses the joint targets by the paper's rule (all IK solutions, the least
weighted joint motion of eq. (12)) and builds a reference through them; :func:`run_task` simulates the arm
under a controller. The payload (the paper's ball) is attached at the pick and released at the place, so
the arm's dynamics change twice during the run; with ``informed=True`` the controller's model changes
with it (the controller knows what it holds).

The loop steps the compiled forward dynamics on plain floats with the controller's torque held over each
step (a digital controller). Methods: "euler" — semi-implicit Euler, q̇ ← q̇ + h·q̈ then q ← q + h·q̇, the
integrator of ODE (the paper's engine) and MuJoCo — and "rk4". With ``hold="stage"`` (RK4 only) the
controller is evaluated at every Runge–Kutta stage instead: a continuous-time controller.
"""

from __future__ import annotations

import math
import time
import warnings
import weakref
from array import array
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike

from .._core.deprecation import renamed_kwargs
from .._core.protocol import RobotLike
from .._core.validation import as_float_array, joint_vector
from .._core.constants import GRAVITY
from ..dynamics.model import euler_step_kernel, kinetic_energy, potential_energy
from .integrators import rk4
from .payload import with_payload
from .trajectories import cartesian_line, cubic, hold, quintic, sequence, trapezoidal
from .trajectory import Energies, Trajectory

__all__ = [
    "PickAndPlace",
    "TaskResult",
    "KernelEngine",
    "plan_pick_and_place",
    "run_task",
    "loaded",
    "KINDS",
    "PAPER_TASK",
]

KINDS = ("quintic", "cubic", "trapezoidal", "cartesian")
#: Our timing of the paper's task (s). Its narrative (003 §5.3) has the pick at step 380 of 0.002 s, so the
#: first move takes 0.76 s; the paper does not say when the ball is released: we give the second move as
#: long (place at step 760) and hold still to step 1000.
PAPER_TASK = {"t_pick": 0.76, "t_place": 1.52, "t_end": 2.0}


@dataclass
class PickAndPlace:
    """A planned pick-and-place: targets, joint solutions, times (s) and the joint reference.

    ``solutions`` holds every IK solution of the pick and of the place (``IKSolutions``, labelled), from
    which eq. (12) chose ``q_pick`` (from the start pose ``q0``) and ``q_place`` (from ``q_pick``).
    """

    robot: RobotLike
    pick: np.ndarray
    place: np.ndarray
    q0: np.ndarray
    q_pick: np.ndarray
    q_place: np.ndarray
    t_pick: float
    t_place: float
    t_end: float
    payload: float
    gravity: tuple
    reference: Any
    solutions: dict = field(default_factory=dict)
    kind: str = "quintic"

    @property
    def q_start(self) -> np.ndarray:
        """Old name of :attr:`q0` (kept for one term)."""
        warnings.warn("PickAndPlace.q_start is now q0", DeprecationWarning, stacklevel=2)
        return self.q0

    def step_of(self, t: float, dt: float) -> int:
        """The step index of time t on the grid of step dt (t must lie on it)."""
        k = t / dt
        if abs(k - round(k)) > 1e-6:
            raise ValueError(f"t = {t:g} s is not a whole number of steps dt = {dt:g} s (choose times that are)")
        return int(round(k))


def _target(robot, target, q0, weights, what):
    from ..ik import ikine, ikine_all  # on first use: importing sim stays light

    sols = ikine_all(robot, target, q0)
    best = ikine(robot, target, q0, weights=weights)
    if len(best) == 0:
        raise ValueError(
            f"the {what} {np.round(np.asarray(target), 6).tolist()} is out of reach"
            + (f": {best.reason}" if best.reason else "")
        )
    if not best.within_limits[0]:
        raise ValueError(
            f"the {what} can be reached only outside the joint limits (solution {np.round(best.q[0], 4).tolist()} rad)"
        )
    return best.q[0], sols


@renamed_kwargs(q_start="q0")
def plan_pick_and_place(
    robot: RobotLike,
    pick: ArrayLike,
    place: ArrayLike,
    *,
    t_pick: float,
    t_place: float,
    t_end: float | None = None,
    q0: ArrayLike | None = None,
    payload: float = 0.0,
    gravity: ArrayLike | None = GRAVITY,
    weights: ArrayLike | None = None,
    kind: str = "quintic",
    qd_max: ArrayLike | None = None,
    qdd_max: ArrayLike | None = None,
) -> PickAndPlace:
    """Plan the motion start → pick (at ``t_pick``) → place (at ``t_place``) → rest until ``t_end``.

    ``pick`` and ``place``: points (3,) for a position-only IK (the paper's arm) or poses (4, 4). The joint
    targets are the solutions of least weighted joint motion (paper eq. (12), ``weights`` e.g.
    ``armlab.ik.PAPER_WEIGHTS``), each from where the arm is. ``kind``: "quintic" or "cubic" joint
    polynomials, "trapezoidal" (needs ``qd_max`` and ``qdd_max``), or "cartesian" (straight lines of the
    tool, position-only IK). Velocity and acceleration limits, if given, are checked: an infeasible
    plan, an unreachable target or a target outside the joint limits is a ValueError.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    q0 = np.zeros(robot.n) if q0 is None else joint_vector(q0, robot.n, "q0", symbolic=False, batch=False)
    t_pick, t_place = float(t_pick), float(t_place)
    t_end = t_place if t_end is None else float(t_end)
    if not 0 < t_pick < t_place <= t_end:
        raise ValueError(f"times must satisfy 0 < t_pick < t_place <= t_end, got {t_pick}, {t_place}, {t_end}")
    m = float(as_float_array(payload, "payload", ()))
    if m < 0:
        raise ValueError(f"payload must be a mass >= 0 kg, got {payload!r}")
    q_pick, sols_pick = _target(robot, pick, q0, weights, "pick")
    q_place, sols_place = _target(robot, place, q_pick, weights, "place")
    limits: dict[str, Any] = {"qd_max": qd_max, "qdd_max": qdd_max}
    segments = [(q0, q_pick, t_pick, pick), (q_pick, q_place, t_place - t_pick, place)]
    if kind == "trapezoidal":
        if qd_max is None or qdd_max is None:
            raise ValueError("kind='trapezoidal' needs qd_max and qdd_max")
        parts: list[Any] = [trapezoidal(a, b, T=T, **limits) for a, b, T, _ in segments]
    elif kind == "cartesian":
        start = robot.fkine(q0)[:3, 3]
        pts = [
            start,
            np.asarray(pick, float)[:3] if np.ndim(pick) == 1 else np.asarray(pick)[:3, 3],
            np.asarray(place, float)[:3] if np.ndim(place) == 1 else np.asarray(place)[:3, 3],
        ]
        parts = [cartesian_line(robot, pts[0], pts[1], t_pick, q0=q0, **limits)]
        parts.append(cartesian_line(robot, pts[1], pts[2], t_place - t_pick, q0=parts[0](parts[0].t1)[0], **limits))
        q_pick, q_place = parts[0](parts[0].t1)[0], parts[1](parts[1].t1)[0]
    else:
        make = quintic if kind == "quintic" else cubic
        parts = [make(a, b, T, **limits) for a, b, T, _ in segments]
    if t_end > t_place:
        parts.append(hold(q_place, t_end - t_place))
    return PickAndPlace(
        robot,
        np.asarray(pick, float),
        np.asarray(place, float),
        q0,
        np.asarray(q_pick),
        np.asarray(q_place),
        t_pick,
        t_place,
        t_end,
        m,
        _gravity(gravity),
        sequence(*parts),
        {"pick": sols_pick, "place": sols_place},
        kind,
    )


def _gravity(gravity: ArrayLike | None) -> tuple:
    """The gravity vector (m/s², base frame) as a tuple of 3 floats; None: no gravity."""
    if gravity is None:
        return (0.0, 0.0, 0.0)
    return tuple(as_float_array(gravity, "gravity", (3,), allow_batch=False).tolist())


def _of_trajectory(name: str, doc: str) -> Any:
    """A read-only attribute of :class:`TaskResult` that is its trajectory's ``name``."""
    return property(lambda self: getattr(self.trajectory, name), doc=f"The trajectory's {name}: {doc}.")


@dataclass
class TaskResult:
    """A simulated task: the motion (:class:`~armlab.sim.Trajectory`, with q̈ and τ), the reference, the
    tracking error ``error = q_r − q`` (N, n), per-step saturation (N, n) bool, the tool and ball positions
    (N, 3), the pick and place steps, and the wall time the run took."""

    trajectory: Trajectory
    q_ref: np.ndarray
    qd_ref: np.ndarray
    qdd_ref: np.ndarray
    saturated: np.ndarray
    tool: np.ndarray
    ball: np.ndarray
    pick_step: int
    place_step: int
    controller: str
    plant: str
    informed: bool
    wall_time: float
    saturation: str = ""

    # the motion's samples, read from the trajectory (named, not forwarded by __getattr__)
    t = _of_trajectory("t", "sample times (N,), s")
    q = _of_trajectory("q", "joint positions (N, n)")
    qd = _of_trajectory("qd", "joint velocities (N, n)")
    qdd = _of_trajectory("qdd", "joint accelerations (N, n)")
    tau = _of_trajectory("tau", "applied joint torques (N, n)")
    energy = _of_trajectory("energy", "K + P (N,), J")
    work = _of_trajectory("work", "work of the applied torques since t = 0 (N,), J")
    drift = _of_trajectory("drift", "energy − energy[0] − work (N,), J")
    kinetic = _of_trajectory("kinetic", "K (N,), J")
    dt = _of_trajectory("dt", "the step, s")
    method = _of_trajectory("method", "the integrator")

    @property
    def ok(self) -> bool:
        """The run completed and no torque was clipped (the result every package's results share)."""
        return self.trajectory.ok and not self.saturated.any()

    @property
    def reason(self) -> str:
        """Why the run is not ok ("" when it is): the trajectory's reason, or the controller's saturation."""
        if not self.trajectory.ok:
            return self.trajectory.reason
        return "" if self.ok else f"the controller saturated: {self.saturation}"

    @property
    def error(self) -> np.ndarray:
        return self.q_ref - self.trajectory.q

    @property
    def max_error(self) -> np.ndarray:
        """Largest |q_r − q| per joint over the run (rad)."""
        return np.abs(self.error).max(axis=0)

    @property
    def rms_error(self) -> np.ndarray:
        return np.sqrt((self.error**2).mean(axis=0))

    @property
    def realtime_factor(self) -> float:
        """Simulated seconds per wall-clock second."""
        return self.trajectory.t[-1] / self.wall_time if self.wall_time > 0 else math.inf

    def __repr__(self) -> str:
        return (
            f"TaskResult({self.controller} on {self.plant}, {len(self.trajectory)} samples, dt = "
            f"{self.trajectory.dt:g} s, {self.trajectory.method}; pick at step {self.pick_step}, place at step "
            f"{self.place_step}; max |error| {np.degrees(self.max_error).round(4).tolist()}°; {self.saturation})"
        )


_LOADED: weakref.WeakKeyDictionary[Any, dict[float, Any]] = weakref.WeakKeyDictionary()


def loaded(robot: RobotLike, mass: float) -> RobotLike:
    """``with_payload(robot, mass)``, one robot per (robot, mass), so its compiled kernels are reused run to run."""
    per = _LOADED.setdefault(robot, {})
    if mass not in per:
        per[mass] = with_payload(robot, mass)
    return per[mass]


class KernelEngine:
    """What :func:`run_task` steps: our compiled forward dynamics of ``robot``, with the payload attached or
    not. Another engine (e.g. :class:`~armlab.sim.mujoco_task.MujocoEngine`) offers the same members:
    ``hold(bool)``, ``accel(q, q̇, τ)``, ``advance(h, method, q, q̇, τ, torque_at)``, ``bare`` / ``loaded``
    (the robot without / with the payload, for the energy balance), ``g``, ``arm``, ``name`` and
    ``ball()`` (the payload's recorded path, or None to compute it)."""

    def __init__(self, robot: RobotLike, payload: float, gravity: Sequence[float], armature: ArrayLike | None = None):
        self.name = robot.name or "robot"
        self.bare, self.loaded = robot, loaded(robot, payload)
        self.g = list(map(float, gravity))
        self.arm = (
            [0.0] * robot.n
            if armature is None
            else as_float_array(armature, "armature", (robot.n,), allow_batch=False).tolist()
        )
        self.w = [0.0] * 6
        self.steps = {False: euler_step_kernel(self.bare), True: euler_step_kernel(self.loaded)}
        self.hold(False)

    def hold(self, holding: bool) -> None:
        self.holding = holding
        self.euler = self.steps[holding]

    def ball(self) -> np.ndarray | None:
        return None

    def accel(self, q: list, qd: list, tau: list) -> list:
        return self.euler(q, qd, tau, self.g, self.w, self.arm, 0.0, math.cos, math.sin)[0]  # h = 0: q̈ alone

    def advance(
        self,
        h: float,
        method: str,
        q: list,
        qd: list,
        tau: list,
        torque_at: Callable[[int, list, list], list] | None = None,
    ) -> tuple:
        """(q̈ at the start, next q, next q̇) over one step with torque ``tau`` held, or with
        ``torque_at(stage, q, q̇)`` evaluated at the RK4 stages."""
        if method == "euler":  # semi-implicit, in one compiled call
            return self.euler(q, qd, tau, self.g, self.w, self.arm, h, math.cos, math.sin)
        if torque_at is None:
            return rk4(lambda c, qs, vs: self.accel(qs, vs, tau), q, qd, h)
        return rk4(lambda c, qs, vs: self.accel(qs, vs, torque_at(int(2 * c), qs, vs) if c else tau), q, qd, h)


def run_task(
    plan: PickAndPlace,
    controller: Any,
    *,
    dt: float,
    method: str = "euler",
    plant: RobotLike | None = None,
    informed: bool = True,
    hold: str = "step",
    armature: ArrayLike | None = None,
    engine: Any = None,
    max_steps: int = 2_000_000,
) -> TaskResult:
    """Simulate ``plan`` under ``controller`` (an :mod:`armlab.control` object) with step ``dt``.

    ``plant``: the robot that is simulated (default ``plan.robot``; the controller may believe another
    model). ``informed``: the controller's model carries the payload while the arm holds it. ``hold``:
    "step" (torque held over each step) or "stage" (RK4 only: evaluated at every stage). A state that
    stops being finite raises a ValueError saying when — no half-simulated result is returned.
    ``engine``: what integrates the arm (default :class:`KernelEngine` of ``plant``; see
    :func:`armlab.sim.mujoco_task.run_task_mujoco` for MuJoCo).
    """
    robot = plan.robot if plant is None else plant
    if method not in ("euler", "rk4"):
        raise ValueError(f"method must be 'euler' or 'rk4', got {method!r}")
    if hold not in ("step", "stage") or (hold == "stage" and method != "rk4"):
        raise ValueError(f"hold must be 'step', or 'stage' with method='rk4'; got hold={hold!r}, method={method!r}")
    if not callable(getattr(controller, "output", None)):
        raise TypeError("controller must be an armlab.control controller (with .output and .step)")
    if controller.n not in (None, robot.n):
        raise ValueError(f"the controller is for {controller.n} joints, the robot has {robot.n}")
    controller = controller.bind(robot.n)  # a new controller if it was built without a size
    dt = float(as_float_array(dt, "dt", ()))
    if not dt > 0:
        raise ValueError(f"dt must be > 0 s, got {dt!r}")
    N = plan.step_of(plan.t_end, dt)
    if N > max_steps:
        raise ValueError(f"t_end / dt = {N} steps exceeds max_steps = {max_steps}")
    k_pick, k_place = plan.step_of(plan.t_pick, dt), plan.step_of(plan.t_place, dt)
    sim = KernelEngine(robot, plan.payload, plan.gravity, armature) if engine is None else engine
    refs, sub = _references(plan, controller, N, dt, hold == "stage")
    # the controller that knows it holds the ball: its model-based parts use their model with the payload
    # (a new controller sharing gains, state and saturation record; built, and compiled, before the clock)
    heavy = controller.with_model(lambda m: loaded(m, plan.payload)) if informed and plan.payload else controller
    controller.reset()
    if heavy is not controller:
        heavy.reset()
    t0 = time.perf_counter()
    rows = _loop(sim, (controller, heavy), refs, sub, N, dt, method, k_pick, k_place, plan.q0.tolist())
    wall = time.perf_counter() - t0
    return _result(plan, robot, sim, controller, rows, refs, sub, dt, method, k_pick, k_place, informed, wall)


_GRIDS: weakref.WeakKeyDictionary[Any, dict] = (
    weakref.WeakKeyDictionary()
)  # joint reference -> {(steps, dt, sub): sampled reference}


def _references(plan, controller, N, dt, stages):
    """The reference on the step grid (and on the half-step grid for stage evaluation): lists for the loop,
    and the arrays. A joint reference's grid is sampled once (a widget re-runs one plan with new gains)."""
    sub = 2 if stages else 1
    per = _GRIDS.setdefault(plan.reference, {})
    if (N, dt, sub) not in per:
        t = np.arange(N * sub + 1) * (dt / sub)
        arrays = plan.reference(t)
        for a in arrays:
            a.flags.writeable = False  # shared by the runs on this grid, so read-only (tuples below)
        per[N, dt, sub] = [list(map(tuple, a.tolist())) for a in arrays] + [arrays]
    refs = per[N, dt, sub]
    if controller.space == "task":  # the tool position and velocity along the joint reference
        robot = plan.robot
        q, qd, _ = refs[3]
        x = robot.fkine(q)[:, :3, 3]
        xd = np.einsum("kij,kj->ki", robot.jacob0(q)[:, :3, :], qd)
        refs = [x.tolist(), xd.tolist(), np.zeros_like(x).tolist(), refs[3]]
    return refs, sub


def _loop(sim, controllers, refs, sub, N, h, method, k_pick, k_place, q0):
    """The rows (q, q̇, q̈, τ) of steps 0…N. The gripper closes at step ``k_pick`` and opens at ``k_place``:
    three stretches, each with its plant (``sim.hold``) and its controller (the payload in its model or not),
    so that a step is the controller's torque and one integrator step, with no test of which stretch it is.
    A stretch runs in CasADi where it can (:func:`_in_casadi`); Python goes on from where that stops."""
    R, RD, RDD, _ = refs
    bare, heavy = controllers  # without and with the payload in the controller's model
    # our own engine's Euler step is called here directly: one Python call less on every step
    direct = method == "euler" and type(sim) is KernelEngine
    g, w, arm = (sim.g, sim.w, sim.arm) if direct else (None, None, None)
    advance, cos, sin, isfinite = sim.advance, math.cos, math.sin, math.isfinite
    # flat rows of doubles: a step's floats are copied, not kept alive (the kernels' temporaries then reuse them)
    Q, QD, QDD, TAU = array("d"), array("d"), array("d"), array("d")
    q, qd = list(q0), [0.0] * len(q0)
    for start, stop, holding in ((0, k_pick, False), (k_pick, k_place, True), (k_place, N, False)):
        if start:  # the gripper closes (pick) or opens (place)
            sim.hold(holding)
        controller = heavy if holding else bare
        out = controller.output
        euler = sim.euler if direct else None
        if euler is not None and sub == 1 and start < stop:  # the stretch in CasADi, if it can run there
            start, q, qd = _in_casadi(
                controller, (euler, (g, w, arm), h), refs[3], start, stop, q, qd, h, (Q, QD, QDD, TAU)
            )
        for k in range(start, stop):
            t = k * h
            j = k * sub
            tau = out(t, q, qd, R[j], RD[j], RDD[j])
            try:
                if euler is not None:
                    a, q2, qd2 = euler(q, qd, tau, g, w, arm, h, cos, sin)
                else:
                    a, q2, qd2 = advance(h, method, q, qd, tau, _stage_torque(out, t, h, j, refs) if sub == 2 else None)
            except (ZeroDivisionError, OverflowError):
                raise ValueError(
                    f"the simulation failed at t = {t:.6g} s (step {k}): M(q) singular or the state overflowed"
                ) from None
            Q.fromlist(q)
            QD.fromlist(qd)
            QDD.fromlist(a)
            TAU.extend(tau)  # any sequence a controller returns
            if not isfinite(sum(q2) + sum(qd2)):
                raise ValueError(
                    f"the state became non-finite after t = {t:.6g} s (step {k}): the closed loop is "
                    "unstable at this step size or with these gains"
                )
            q, qd = q2, qd2
    j = N * sub  # the last sample: its q̈ under its torque
    tau = out(N * h, q, qd, R[j], RD[j], RDD[j])
    Q.fromlist(q)
    QD.fromlist(qd)
    QDD.fromlist(sim.accel(q, qd, tau))
    TAU.extend(tau)
    n = len(q0)
    return [np.frombuffer(r, float).reshape(-1, n) for r in (Q, QD, QDD, TAU)]


def _in_casadi(controller, step, references, start, stop, q, qd, h, rows):
    """Steps ``start``… of a stretch in CasADi (:func:`armlab.sim.closed_loop.run_stretch`) when the controller's
    law is one generated kernel: the rows appended, the saturation recorded. Returns (the step the Python loop
    goes on from, q, q̇ there): ``stop`` when CasADi ran them all, ``start`` when it ran none."""
    law = controller.compiled_law()
    if law is None:
        return start, q, qd
    from .closed_loop import run_stretch  # casadi on first use: importing armlab stays light

    k, q, qd, (Qc, QDc, QDDc, TAUc, demanded) = run_stretch(
        law, step, references, controller.limits, start, stop, q, qd
    )
    for r, a in zip(rows, (Qc, QDc, QDDc, TAUc)):
        r.frombytes(a.tobytes())
    if controller.saturation is not None:
        controller.saturation.add([j * h for j in range(start, k)], demanded)
    return k, q, qd


def _stage_torque(out, t, h, j, refs):
    """The controller's torque at the RK4 stages of the step from time t (reference samples j, j + 1, j + 2)."""
    R, RD, RDD, _ = refs

    def torque_at(stage, qs, vs):
        return out(t + 0.5 * stage * h, qs, vs, R[j + stage], RD[j + stage], RDD[j + stage])

    return torque_at


def _result(plan, robot, sim, controller, rows, refs, sub, dt, method, k_pick, k_place, informed, wall):
    Q, QD, QDD, TAU = rows
    t = np.arange(len(Q)) * dt
    g = sim.g
    balance: Any = Energies(lambda: _energies(sim, Q, QD, TAU, dt, sub, k_pick, k_place))  # the four, when read
    traj = Trajectory(
        t=t, q=Q, qd=QD, qdd=QDD, tau=TAU, energy=balance, work=balance, drift=balance, kinetic=balance, reason="",
        method=method, dt=dt
    )  # fmt: skip
    tool = robot.fkine(Q)[:, :3, 3]
    ball = sim.ball()
    ball = _ball(plan, robot, Q, QD, t, tool, k_pick, k_place, g) if ball is None else ball
    qr, qdr, qddr = (a[::sub].copy() for a in refs[3])
    sat = (
        np.zeros(Q.shape, bool)
        if controller.limits is None
        else np.abs(TAU) >= np.asarray(controller.limits) * (1 - 1e-12)
    )  # a clipped torque sits on its limit
    return TaskResult(
        traj,
        qr,
        qdr,
        qddr,
        sat,
        tool,
        ball,
        k_pick,
        k_place,
        repr(controller),
        sim.name,
        informed,
        wall,
        controller.saturation.report() if controller.saturation is not None else "no limits",
    )


def _energies(sim, Q, QD, TAU, dt, sub, k_pick, k_place):
    """(energy, work, drift, kinetic) of a run: the arm without the payload before the pick and after the
    place, with it between."""
    arm = np.asarray(sim.arm)
    K, E = np.empty(len(Q)), np.empty(len(Q))
    # one call of each energy kernel per robot (a kernel call costs about as much for 2 rows as for 600)
    for r, rows in ((sim.bare, np.r_[0:k_pick, k_place : len(Q)]), (sim.loaded, slice(k_pick, k_place))):
        q, qd = Q[rows], QD[rows]
        K[rows] = kinetic_energy(r, q, qd) + 0.5 * np.einsum("ki,i,ki->k", qd, arm, qd)
        E[rows] = K[rows] + potential_energy(r, q, sim.g)
    if sub == 1:  # a torque held over a step does the work τ·Δq exactly
        step_work = np.einsum("ki,ki->k", TAU[:-1], np.diff(Q, axis=0))
    else:
        power = np.einsum("ki,ki->k", QD, TAU)
        step_work = 0.5 * (power[1:] + power[:-1]) * dt
    work = np.concatenate([[0.0], np.cumsum(step_work)])
    drift = E - E[0] - work
    for b in (k_pick, k_place):  # the payload's energy enters or leaves at a switch: not drift
        drift[b:] -= (E[b] - E[b - 1]) - (work[b] - work[b - 1])
    return E, work, drift, K


def _ball(plan, robot, Q, QD, t, tool, k_pick, k_place, g):
    """Where the payload is: at the pick point, then in the gripper, then falling freely from the release."""
    ball = np.empty_like(tool)
    ball[:k_pick] = plan.pick[:3] if plan.pick.ndim == 1 else plan.pick[:3, 3]  # lying at the pick point
    ball[k_pick:k_place] = tool[k_pick:k_place]
    p0 = tool[k_place - 1]
    v0 = robot.jacob0(Q[k_place - 1])[:3] @ QD[k_place - 1]
    s = (t[k_place - 1 :] - t[k_place - 1])[:, None]
    ball[k_place - 1 :] = p0 + v0 * s + 0.5 * np.asarray(g) * s**2
    return ball
