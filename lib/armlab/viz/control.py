"""Chapter 08 views: a pick-and-place player and the closed-loop control lab.

* :class:`TaskPlayer` (:func:`task_player`) — steps the arm and the ball through a simulated task
  (:class:`armlab.sim.TaskResult`) with a ``Play`` button and a time slider: the animation of the whole
  pick-and-place;
* :class:`ControlLab` (:func:`control_lab`) — the paper's task (or the youBot's) under a controller chosen
  from a menu, with sliders for the gains (natural frequency ω and damping ζ, and the integral gain), the
  payload's mass and the error of the controller's model; every change re-simulates the task and redraws
  the tracking-error and torque plots and the arm;
* the tracking-error and torque plots are :func:`armlab.viz.plots.time_plot` s, drawn on canvases.

Every number comes from :mod:`armlab.sim` and :mod:`armlab.control`; this module only draws.
"""

from __future__ import annotations

import html
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from .. import control, ik, sim
from .._core.constants import GRAVITY
from ..models import PAPER_3R, PAPER_GRAVITY, YOUBOT_ACTUATORS, paper_3r, youbot
from .scene import ArmView, figure3d, spoken_vector, strided_path, trace_stride
from .browser import Artist, Widget, add_description
from .plots import TimePlots, time_plot
from .widgets import Panel, load_widgets, panel_layout, player, side_column, slider

if TYPE_CHECKING:
    from ..robot import DHRobot

__all__ = ["TaskPlayer", "task_player", "ControlLab", "control_lab", "CONTROLLERS"]

CONTROLLERS = ("computed torque", "PD + gravity", "PID", "PID cascade (assumed drives)")
BALL_COLOR = "#d62728"


class _Animated(Panel):
    """An arm and its payload in a 3-D scene, shown at step k of a :class:`~armlab.sim.TaskResult`."""

    result: Any  # the sim.TaskResult shown
    frame: Widget  # the step's readout

    def _scene(self, robot: DHRobot, q0: ArrayLike, figsize: tuple[float, float]) -> Artist:
        self.fig, (ax,) = figure3d(figsize=figsize, show_axes=False)
        self.redraws = 0
        self.robot = robot
        self.view = ArmView(robot, ax, q0, frames=False)
        (self.trace,) = ax.plot([], [], [], color="tab:purple", lw=1.5)
        (self.ball,) = ax.plot([], [], [], ls="", marker="o", ms=9, color=BALL_COLOR)
        add_description(ax, self._describe_step)
        return ax

    def _describe_step(self) -> str:
        """The step shown and where the ball is, for the scene's text alternative."""
        if getattr(self, "result", None) is None:
            return ""
        r, k = self.result, self.k
        return f"step {k}, t = {r.t[k]:.3f} s, ball at {spoken_vector(r.ball[k])} m"

    def show(self, k: int, draw: bool = True) -> None:
        """Show step ``k``: the arm, the tool's path so far, the ball."""
        r = self.result
        k = int(np.clip(k, 0, len(r.t) - 1))
        self.view.update(r.q[k])
        path = strided_path(r.tool, k, trace_stride(len(r.t)))
        self.trace.set_data_3d(path[:, 0], path[:, 1], path[:, 2])
        self.ball.set_data_3d([r.ball[k, 0]], [r.ball[k, 1]], [r.ball[k, 2]])
        self.k = k
        self.frame_text(k)
        if draw:
            self.redraw()

    def phase(self, k: int) -> str:
        """What the task does at step ``k``."""
        r = self.result
        return "approach" if k < r.pick_step else "carrying the ball" if k < r.place_step else "ball released"

    def frame_text(self, k: int) -> None:
        """Write step ``k``'s time, phase, q and τ into the readout."""
        r = self.result
        self.frame.value = (
            f"<small>step {k} (t = {r.t[k]:.3f} s), {self.phase(k)}<br>θ = "
            f"{(np.degrees(r.q[k]).round(1) + 0.0).tolist()}°<br>τ = {(r.tau[k].round(2) + 0.0).tolist()} N·m</small>"
        )


class TaskPlayer(_Animated):
    """Play a simulated pick-and-place: ``Play`` steps through it every ``every`` steps; the slider picks a step."""

    def __init__(self, robot: DHRobot, result: Any, every: int = 5, figsize: tuple[float, float] = (4.6, 4.4)) -> None:
        w = load_widgets()
        self._scene(robot, result.q[0], figsize)
        self.result = result
        last = len(result.t) - 1
        self.step = slider(0, 0, last, 1, "step", ".0f")
        self.play = player(0, last, int(every), 40, "the task")
        self.play.observe(self._follow(self.play, lambda k: setattr(self.step, "value", float(k))), names="value")
        self.step.observe(lambda ch: self.show(int(round(ch["new"]))), names="value")
        self.frame = w.HTML()
        self.show(0, draw=False)
        self.widget = panel_layout(side_column([self.play, self.step, self.frame]), self._figure_widget())

    def news(self) -> str:
        """The step shown, its time and phase, and the tool's position."""
        r, k = self.result, self.k
        return f"step {k}, t = {r.t[k]:.3f} s, {self.phase(k)}; tool at {spoken_vector(r.tool[k], 3)} m"


def task_player(robot: DHRobot, result: Any, **kwargs: Any) -> TaskPlayer:
    """An animation of a simulated task (see :class:`TaskPlayer`)."""
    return TaskPlayer(robot, result, **kwargs)


class ControlLab(_Animated):
    """The paper's pick-and-place (``arm="paper"``, 0.002 s steps) or the youBot's (``arm="youbot"``, its
    effort limits; 0.004 s steps) under a chosen controller.

    Controls: the controller; ω (rad/s) and ζ — computed torque uses Kp = ω², Kd = 2ζω, the independent-joint
    ones the same per unit of each joint's inertia at the pick (:func:`armlab.control.pd_gains`); the
    integral gain Ki/Kp (1/s) of the PIDs; the payload (kg); the model error (%, the controller's inertial
    parameters off by ±that, :func:`armlab.control.perturbed`); whether the controller knows the payload.
    Each change re-runs the task; ``result`` and ``readings`` hold the outcome, ``update_ms`` the time the
    last update took in the kernel. The task's loop runs in CasADi's virtual machine
    (:mod:`armlab.sim.closed_loop`): an update takes a few ms, against 20–30 ms in Python
    (``bench/bench_viz_chapters.py``); nothing is compiled, a new payload or model error included.
    """

    def __init__(
        self,
        arm: str = "paper",
        controller: str = "computed torque",
        omega: float = 20.0,
        zeta: float = 1.0,
        ki: float = 1.0,
        payload: float | None = None,
        error: float = 0.0,
        informed: bool = True,
        figsize: tuple[float, float] = (4.4, 4.2),
    ) -> None:
        w = load_widgets()
        if arm not in ("paper", "youbot"):
            raise ValueError(f"arm must be 'paper' or 'youbot', got {arm!r}")
        if controller not in CONTROLLERS:
            raise ValueError(f"controller must be one of {CONTROLLERS}, got {controller!r}")
        self.arm = arm
        self.robot, self.plan, self.dt, self.limits, self.gravity = _task(arm)
        self._models = {0.0: self.robot}
        self._gains: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        payload = self.plan.payload if payload is None else payload
        self._scene(self.robot, self.plan.q0, figsize)
        self.result = None
        self.choice = w.Dropdown(
            options=CONTROLLERS, value=controller, description="controller", layout=w.Layout(width="100%")
        )
        self.omega = slider(omega, 2.0, 40.0, 0.5, "ω (rad/s)", ".1f", "100px")
        self.zeta = slider(zeta, 0.2, 2.0, 0.05, "ζ", ".2f", "100px")
        self.ki = slider(ki, 0.0, 5.0, 0.1, "Ki/Kp (1/s)", ".1f", "100px")
        self.payload = slider(payload, 0.0, 2.0, 0.1, "payload (kg)", ".1f", "100px")
        self.error = slider(error, 0.0, 50.0, 5.0, "model error %", ".0f", "100px")
        self.informed = w.Checkbox(value=informed, description="controller knows the payload", indent=False)
        self.sliders = [self.omega, self.zeta, self.ki, self.payload, self.error]
        # the outcome and its two plots in one widget: an update is one message to the browser, not three
        self.plots, self.frame = TimePlots(width=380), w.HTML()
        steps = self.plan.step_of(self.plan.t_end, self.dt)
        self.play = player(0, steps, 10, 40, "the run")
        self.play.observe(self._follow(self.play, self.show), names="value")
        for s in self.sliders:
            s.observe(lambda _: self.update(), names="value")
        self.choice.observe(lambda _: self.update(), names="value")
        self.informed.observe(lambda _: self.update(), names="value")
        self.update(draw=False)
        side = side_column([self.choice, *self.sliders, self.informed, self.play, self.frame])
        self.widget = panel_layout(side, self._figure_widget(), self.plots.widget)

    def model(self, error_percent: float) -> DHRobot:
        """The controller's model with ±``error_percent`` % inertial error (one per value, kernels reused)."""
        key = round(float(error_percent), 6)
        if key not in self._models:
            self._models[key] = control.perturbed(self.robot, key / 100.0, seed=8)
        return self._models[key]

    def make_controller(self) -> control.Controller:
        """The selected controller with the sliders' gains, its model and limits."""
        kind, w, z = self.choice.value, self.omega.value, self.zeta.value
        model = self.model(self.error.value)
        common = dict(limits=self.limits)
        if kind == "computed torque":
            return control.ComputedTorque(model, w**2, 2 * z * w, gravity=self.gravity, **common)
        key = (self.error.value, w, z)  # the independent-joint gains of a model and (ω, ζ), computed once
        if key not in self._gains:
            self._gains[key] = control.pd_gains(model, self.plan.q_pick, w, z)
        kp, kd = self._gains[key]
        if kind == "PD + gravity":
            return control.PDGravity(model, kp, kd, gravity=self.gravity, **common)
        if kind == "PID":
            return control.PID(kp, kp * self.ki.value, kd, **common)
        # the cascade: position P then velocity PI; equal to the PD above when Ki = 0 and the lag is 0
        return control.PID.cascade(kp / kd, kd, kd * self.ki.value, current_lag=1e-3, **common)

    def update(self, draw: bool = True) -> None:
        """Re-run the task with the controls' values and redraw everything."""
        t0 = time.perf_counter()
        plan = replace(self.plan, payload=float(self.payload.value))
        try:
            self.result = sim.run_task(plan, self.make_controller(), dt=self.dt, informed=self.informed.value)
            failed = ""
        except ValueError as e:  # an unstable loop: say so, keep the last good run
            failed = str(e)
            if self.result is None:
                raise
        r = self.result
        steps = np.arange(len(r.t))
        marks = (r.pick_step, r.place_step)
        names = [f"θ{i + 1}" for i in range(self.robot.n)]
        hl = () if self.limits is None else tuple(self.limits[[1]]) + tuple(-self.limits[[1]])
        self.readings = {
            "max_error_deg": np.degrees(r.max_error),
            "rms_error_deg": np.degrees(r.rms_error),
            "saturated": bool(r.saturated.any()),
            "saturation": r.saturation,
            "failed": failed,
        }
        worst = np.degrees(r.max_error)
        caption = (
            (f"<b role='alert' style='color:#c62828'>unstable: {html.escape(failed)}</b><br>" if failed else "")
            + f"{html.escape(r.controller)}<br>max |error| (°): {worst.round(3).tolist()}<br>"
            + f"{html.escape(r.saturation)}<br>pick at step {r.pick_step}, place at step {r.place_step}"
        )
        error = time_plot(
            steps, np.degrees(r.error).T, labels=names, ylabel="q_r − q (°)", vlines=marks, title="tracking error (°)"
        )
        torque = time_plot(
            steps,
            r.tau.T,
            labels=[f"τ{i + 1}" for i in range(self.robot.n)],
            ylabel="τ (N·m)",
            hlines=hl,
            vlines=marks,
            title="joint torques (N·m)",
            note="dashed: joint 2's limit" if hl else "",
        )
        self.plots.show(caption, [error, torque])
        self._said = (f"unstable: {failed}. " if failed else "") + (
            f"max tracking error {', '.join(f'{v:.2f}' for v in worst)} degrees. {r.saturation}"
        )
        self.play.max = len(r.t) - 1
        self.show(self.play.value, draw=draw)
        self.update_ms = 1e3 * (time.perf_counter() - t0)

    def news(self) -> str:
        """The run's largest tracking error per joint and its saturation, or why the loop is unstable."""
        return self._said


def _task(arm):
    """(robot, plan, dt, limits, gravity) of the lab's task."""
    if arm == "paper":
        robot = paper_3r()
        paper: dict[str, Any] = PAPER_3R  # the paper's table: points, masses and the time step side by side
        times: dict[str, Any] = sim.PAPER_TASK
        plan = sim.plan_pick_and_place(
            robot,
            paper["pick"],
            paper["place"],
            **times,
            payload=paper["ball_mass"],
            gravity=PAPER_GRAVITY,
            weights=ik.PAPER_WEIGHTS,
        )
        return robot, plan, PAPER_3R["dt"], None, PAPER_GRAVITY
    robot = youbot()
    pick = robot.fkine(np.array([-0.644, -0.56, -1.087, 0.076, 2.498]))
    place = robot.fkine(np.array([0.9, -0.3, -1.3, 0.4, 2.0]))
    plan = sim.plan_pick_and_place(
        robot, pick, place, t_pick=1.0, t_place=2.0, t_end=2.4, payload=0.5, q0=np.array([0.0, 0.0, 0.0, 0.5, 0.0])
    )
    return robot, plan, 4e-3, YOUBOT_ACTUATORS["effort"], GRAVITY


def control_lab(arm: str = "paper", **kwargs: Any) -> ControlLab:
    """The closed-loop control lab (see :class:`ControlLab`)."""
    return ControlLab(arm, **kwargs)
