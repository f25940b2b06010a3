"""The pick-and-place task in MuJoCo: the cross-check of :func:`armlab.sim.run_task` by a physics engine.

The paper simulated its arm in ODE; MuJoCo is the maintained engine of the same kind (rigid bodies,
joints, constraints). The arm is the MJCF of :func:`armlab.export.to_mjcf` (``qpos`` = our q); this
module adds the ball as a free body (a sphere of the payload's mass) and grasps it with a **weld**
equality constraint between the gripper's ``tool`` site and the ball's centre:

* before the pick the ball floats at the pick point (gravity compensated: it lies on a support that is
  not modelled) and the weld is off;
* at the pick the weld switches on and the ball's weight is back: the arm carries it;
* at the place the weld switches off and the ball falls.

The same controller object is stepped with MuJoCo's state, its torques applied as generalised forces.
``mujoco`` is imported only here, when a MuJoCo run is asked for (a test and teaching dependency).

A weld is a soft constraint (``solref``: MuJoCo's default time constant 0.02 s): where our simulation
puts the ball rigidly at the tool the moment the gripper closes, the weld pulls it there from where it
lay — the tool misses the pick point by the tracking error, a millimetre or two — and holds it with a
slight give. That is why the two runs differ at all after the pick (tests/test_paper_task.py states the
tolerance); before it they agree to rounding.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any, Sequence

import numpy as np

from .._core.validation import as_float_array
from .task import PickAndPlace, TaskResult, loaded, run_task

__all__ = ["task_mjcf", "MujocoEngine", "run_task_mujoco"]


def _mujoco():
    try:
        import mujoco
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError("the MuJoCo cross-check needs the mujoco package: pip install mujoco") from None
    return mujoco


def task_mjcf(
    mjcf: str, plan: PickAndPlace, *, ball_radius: float = 0.015, solref: Sequence[float] = (0.02, 1.0)
) -> str:
    """``mjcf`` (an arm from :func:`armlab.export.to_mjcf`) with the ball at the pick point and the weld
    ``grip`` (inactive) between the ``tool`` site and the ball. The ball's frame is the tool's orientation
    at the pick, so the weld closes without twisting it."""
    mujoco = _mujoco()
    root = ET.fromstring(mjcf)
    world = root.find("worldbody")
    if world is None or root.find(".//site[@name='tool']") is None:
        raise ValueError("mjcf must be an arm exported by armlab.export.to_mjcf (a worldbody with a 'tool' site)")
    T = plan.robot.fkine(plan.q_pick)
    quat = np.zeros(4)
    mujoco.mju_mat2Quat(quat, np.ascontiguousarray(T[:3, :3]).ravel())
    pick = plan.pick[:3] if plan.pick.ndim == 1 else plan.pick[:3, 3]
    r = float(as_float_array(ball_radius, "ball_radius", ()))
    ball = ET.SubElement(world, "body", name="ball", pos=_nums(pick), quat=_nums(quat), gravcomp="1")
    ET.SubElement(ball, "freejoint", name="ball")
    ET.SubElement(
        ball,
        "geom",
        type="sphere",
        size=_nums([r]),
        mass=_nums([max(plan.payload, 1e-9)]),
        contype="0",
        conaffinity="0",
        rgba="0.85 0.1 0.1 1",
    )
    ET.SubElement(ball, "site", name="ball")
    eq = root.find("equality")
    eq = ET.SubElement(root, "equality") if eq is None else eq
    ET.SubElement(eq, "weld", name="grip", site1="tool", site2="ball", active="false", solref=_nums(solref))
    return ET.tostring(root, encoding="unicode")


def _nums(v):
    return " ".join(repr(float(x) + 0.0) for x in v)


class MujocoEngine:
    """MuJoCo stepping the arm and the ball, with the interface :func:`armlab.sim.run_task` expects."""

    def __init__(self, mjcf: str, plan: PickAndPlace, dt: float, method: str = "euler", **ball: Any):
        mujoco = _mujoco()
        self.mj = mujoco
        self.model = mujoco.MjModel.from_xml_string(task_mjcf(mjcf, plan, **ball))
        self.data = mujoco.MjData(self.model)
        m, n = self.model, plan.robot.n
        if m.njnt != n + 1:
            raise ValueError(f"the MJCF has {m.njnt - 1} arm joints, the plan's robot {n}")
        m.opt.timestep = float(dt)
        m.opt.gravity[:] = plan.gravity
        m.opt.integrator = {"euler": mujoco.mjtIntegrator.mjINT_EULER, "rk4": mujoco.mjtIntegrator.mjINT_RK4}[method]
        self.n, self.ball_id, self.ball_q = n, m.body("ball").id, m.jnt_qposadr[m.joint("ball").id]
        self.grip = m.equality("grip").id
        self.data.qpos[:n] = plan.q0
        mujoco.mj_forward(m, self.data)
        self.name = "MuJoCo " + mujoco.__version__
        self.bare, self.loaded = plan.robot, loaded(plan.robot, plan.payload)
        self.g, self.arm = list(map(float, plan.gravity)), m.dof_armature[:n].tolist()
        self.path: list[np.ndarray] = []

    def hold(self, holding: bool) -> None:
        if holding:
            self.model.body_gravcomp[self.ball_id] = 0.0  # off its support: its weight is the arm's now
        self.data.eq_active[self.grip] = holding

    def accel(self, q: list, qd: list, tau: list) -> list:
        d = self.data
        d.qfrc_applied[: self.n] = tau
        self.mj.mj_forward(self.model, d)
        self.path.append(d.qpos[self.ball_q : self.ball_q + 3].copy())  # xpos lags a step
        return d.qacc[: self.n].tolist()

    def advance(self, h: float, method: str, q: list, qd: list, tau: list, torque_at: Any = None) -> tuple:
        if torque_at is not None:
            raise ValueError("MuJoCo runs hold the torque over each step (hold='step')")
        d, n = self.data, self.n
        self.path.append(d.qpos[self.ball_q : self.ball_q + 3].copy())  # xpos lags a step
        d.qfrc_applied[:n] = tau
        self.mj.mj_step(self.model, d)
        return d.qacc[:n].tolist(), d.qpos[:n].tolist(), d.qvel[:n].tolist()

    def ball(self) -> np.ndarray:
        return np.array(self.path)


def run_task_mujoco(
    mjcf: str,
    plan: PickAndPlace,
    controller: Any,
    *,
    dt: float,
    method: str = "euler",
    ball_radius: float = 0.015,
    solref: Sequence[float] = (0.02, 1.0),
    **options: Any,
) -> TaskResult:
    """:func:`armlab.sim.run_task` with MuJoCo as the engine: ``mjcf`` is the arm's model,
    ``armlab.export.to_mjcf(plan.robot)`` (gravity, step and integrator are set from the plan and the
    arguments; "euler" is MuJoCo's semi-implicit Euler, as ours). ``options`` are run_task's (``informed``,
    ``max_steps``, ...)."""
    if method not in ("euler", "rk4"):
        raise ValueError(f"method must be 'euler' or 'rk4', got {method!r}")
    engine = MujocoEngine(mjcf, plan, dt, method, ball_radius=ball_radius, solref=solref)
    return run_task(plan, controller, dt=dt, method=method, engine=engine, **options)
