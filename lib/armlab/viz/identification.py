"""Chapter 07 view: how the excitation decides what identification can recover (lab report §3).

:class:`ExcitationExplorer` (:func:`excitation_explorer`) — sliders for the number of harmonics of the
youBot's Fourier excitation, its amplitude and the effort noise. Every change builds the trajectory (shrunk
into the driver's position, speed and effort limits if it would leave them; drawn in 3-D as the arm at the
start and its tool's path over one period), simulates the efforts of the
true model with friction plus the noise, identifies the base parameters by weighted least squares and
validates them on a fresh motion; the readout shows cond(Ξ), the trajectory, each base parameter's error
against the truth and the validation RMS per joint.

Every number comes from :mod:`armlab.dynamics`; this module only draws.

>>> ex = excitation_explorer(harmonics=3, amplitude=0.8, noise=0.02)
>>> 10 < ex.cond < 1e4 and ex.result.base.shape == (47,)
True
>>> ex.set(harmonics=1); bool(ex.cond > 1e4 or ex.failure)   # one sine per joint cannot separate them
True
"""

from __future__ import annotations

import html
from typing import Any, Sequence

import numpy as np

from .. import dynamics
from ..models import YOUBOT_ACTUATORS, youbot
from .plots import JOINT_COLORS, TimePlots, time_plot
from .scene import ArmView, figure3d, fit_points, reach
from .widgets import Panel, SliderSpec, SliderTable, load_widgets, panel_layout, side_column

__all__ = ["ExcitationExplorer", "excitation_explorer", "error_bars"]

#: the simulated arm's friction per joint: (I_a, f_v, f_c, f_off) — assumed, f_c from youbot-interface.md
TRUE_FRICTION = np.array(
    [
        [0.02, 0.30, 0.065, 0.02],
        [0.03, 0.30, 0.065, -0.02],
        [0.01, 0.15, 0.042, 0.01],
        [0.005, 0.05, 0.039, 0.0],
        [0.004, 0.02, 0.313, 0.0],
    ]
)


def error_bars(errors: np.ndarray, names: Sequence[str], width: int = 400, cap: float = 1.0) -> str:
    """HTML bars of |relative error| per parameter in two columns, on a log scale from 1e-6 to ``cap`` (green
    < 1 %, ochre < 10 %, red beyond; each 3:1 or more on white), the value written beside each bar in 12 px."""
    track = width // 2 - 118
    rows = []
    for e, name in zip(errors, names):
        frac = (np.log10(max(min(e, cap), 1e-6)) + 6) / (6 + np.log10(cap))
        color = "#2e7d32" if e < 0.01 else "#8a6d00" if e < 0.1 else "#c62828"
        rows.append(
            f"<div style='display:flex;align-items:center;min-height:16px;font-size:12px;line-height:16px'>"
            f"<span style='width:46px;overflow-wrap:anywhere'>{html.escape(name)}</span>"
            f"<span style='width:{track}px'><span style='display:inline-block;background:{color};height:9px;"
            f"width:{frac * track:.0f}px'></span></span>"
            f"<span style='margin-left:3px'>{e:.0e}</span></div>"
        )
    return (
        f"<div style='display:grid;grid-template-columns:1fr 1fr;width:{width}px;column-gap:6px'>"
        + "".join(rows)
        + "</div>"
    )


class ExcitationExplorer(Panel):
    """See :func:`excitation_explorer`. ``cond``, ``excitation``, ``result`` (the identification, or None when
    the trajectory is rank-deficient: ``failure`` says why), ``errors`` and ``validation_rms`` follow the sliders.

    The sliders' start values are keyword options (:attr:`SLIDERS`): ``harmonics`` (1…8, default 3),
    ``amplitude`` (0.05…1.5, 0.8) and ``noise`` (N·m, 0…0.2, 0.02); an unknown or out-of-range one is an
    error naming it. ``f0`` (Hz) is the excitation's base frequency."""

    RATE, SEED = 100.0, 3
    SLIDERS = SliderTable(
        SliderSpec("harmonics", 1, 8, 1, 3, "harmonics", ".0f"),
        SliderSpec("amplitude", 0.05, 1.5, 0.05, 0.8, "amplitude", ".2f"),
        SliderSpec("noise", 0.0, 0.2, 0.005, 0.02, "noise N·m", ".3f"),
    )

    def __init__(self, f0: float = 0.1, figsize: tuple[float, float] = (3.6, 3.6), **start: float) -> None:
        start = self.SLIDERS.starts(start, type(self).__name__)
        self.robot = youbot()
        self.truth = np.concatenate([dynamics.dynamic_params(self.robot).reshape(5, 10), TRUE_FRICTION], axis=1).ravel()
        self.f0 = f0
        rng = np.random.default_rng(self.SEED)
        self._pattern = rng.normal(size=(2, 5, 8)) / np.arange(1, 9)  # a falling spectrum, 8 harmonics at most
        self._noise = rng.normal(size=(2, int(self.RATE / f0), 5))
        self.q0 = np.array([0.0, 0.3, -0.8, 1.5, 0.0])
        self.updates = 0
        self.harmonics, self.amplitude, self.noise = int(round(start["harmonics"])), start["amplitude"], start["noise"]
        self._params = dynamics.base_parameters(self.robot, True)
        self._trajectories: dict[tuple, dict[str, Any]] = {}
        self._fresh = self._samples(self._excitation(4, 0.8, self._pattern[::-1, :, ::-1])[0])  # validation motion
        self.widget = None
        self._compute()
        self.fig, (ax,) = figure3d(figsize=figsize, show_axes=False)
        self.redraws = 0
        self.view = ArmView(self.robot, ax, self.q[0], frames=False)
        (self.path,) = ax.plot([], [], [], color="tab:purple", lw=1.5)
        size = reach(self.robot)
        fit_points(ax, np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (0, 1)]) * 0.8 * size)
        try:
            self._build()
        except ImportError:  # no ipywidgets: the numbers still work
            pass

    def _excitation(self, H, amplitude, pattern):
        """The excitation shrunk into the limits (10 % margins), and its peaks."""
        a, b = amplitude * pattern[0, :, :H], amplitude * pattern[1, :, :H]
        lo, hi = self.robot.qlim.T
        margin = 0.1 * (hi - lo) / 2
        for _ in range(60):  # shrink into the limits (10 % margins)
            ex = dynamics.Excitation(a, b, self.q0, self.f0)
            p = ex.peaks(self.robot, samples=200)
            if (
                np.all(p["q_min"] >= lo + margin)
                and np.all(p["q_max"] <= hi - margin)
                and np.all(p["qd_max"] <= 0.9 * YOUBOT_ACTUATORS["max_speed"])
                and np.all(p["tau_max"] <= 0.9 * YOUBOT_ACTUATORS["effort"])
            ):
                return ex, p
            a, b = 0.85 * a, 0.85 * b
        return ex, p

    def _samples(self, ex):
        """(t, q, q̇, q̈, τ without noise, ξ̄_B) of one period at RATE; τ = ξ̄·χ̄_true."""
        t, q, qd, qdd = ex.sample(self.RATE)
        full = dynamics.regressor_full(self.robot, q, qd, qdd)
        return t, q, qd, qdd, full @ self.truth, full[..., list(self._params.columns)]

    def _trajectory(self):
        """What the harmonics and the amplitude decide (not the noise): remembered per pair of values."""
        key = (self.harmonics, round(self.amplitude, 9))
        if key not in self._trajectories:
            if len(self._trajectories) >= 32:
                self._trajectories.clear()
            ex, peaks = self._excitation(self.harmonics, self.amplitude, self._pattern)
            t, q, qd, qdd, tau, _ = self._samples(ex)
            tip = self.robot.fkine(q[::2])[:, :3, 3]
            self._trajectories[key] = dict(excitation=ex, peaks=peaks, t=t, q=q, qd=qd, qdd=qdd, tau=tau, tip=tip)
        return self._trajectories[key]

    def _compute(self, draw=None):
        """Trajectory → (``draw()``: the picture, before the slow part) → cond(Ξ), identification, validation."""
        self.updates += 1
        tr = self._trajectory()
        self.excitation, self.peaks, self.tip = tr["excitation"], tr["peaks"], tr["tip"]
        self.t, self.q = tr["t"], tr["q"]
        if draw is not None:
            draw()
        if "cond" not in tr:
            tr["cond"] = dynamics.regressor_condition(self.robot, self.excitation)
        self.cond = tr["cond"]
        tau = tr["tau"] + self.noise * self._noise[0, : len(self.t)]
        self.result, self.failure = None, ""
        try:
            self.result = dynamics.identify(self.robot, tr["q"], tr["qd"], tr["qdd"], tau, method="wls")
        except ValueError as e:
            self.failure = str(e)
            self.errors = self.validation_rms = None
            return
        truth = self.result.params.of(self.truth)
        self.errors = np.abs(self.result.base - truth) / np.maximum(np.abs(truth), 1e-3 * np.abs(truth).max())
        # step д of §3.1 on another motion, fixed: its regressor is computed once
        _, q2, qd2, qdd2, tau2, Y2 = self._fresh
        tau2 = tau2 + self.noise * self._noise[1, : len(q2)]
        self.validation_rms = self.result.validate(q2, qd2, qdd2, tau2, regressor=Y2)

    def set(self, harmonics: int | None = None, amplitude: float | None = None, noise: float | None = None) -> None:
        """Change any setting and recompute (what the sliders do)."""
        if harmonics is not None:
            self.harmonics = int(round(harmonics))
        if amplitude is not None:
            self.amplitude = float(amplitude)
        if noise is not None:
            self.noise = float(noise)
        self._compute(draw=self._draw if self.widget is not None else None)
        self._show()

    # --- widgets ---------------------------------------------------------------------------------------
    def _build(self):
        w = load_widgets()
        self.sliders = self.SLIDERS.build(
            {"harmonics": self.harmonics, "amplitude": self.amplitude, "noise": self.noise}
        )
        for name, s in self.sliders.items():
            s.observe(lambda change, name=name: self.set(**{name: change["new"]}), names="value")
        self.readout, self.plot, self.bars = w.HTML(), TimePlots(width=400), w.HTML()
        self.widget = panel_layout(
            side_column([*self.sliders.values(), self.readout]),
            self._figure_widget(),
            w.VBox([self.plot.widget, self.bars]),  # as wide as the 400 px plot and bars with their margins
        )
        self._draw()
        self._show()

    def _draw(self):
        """The pictures: the arm at the start with its tool's path, and the q(t) plot."""
        self.view.update(self.q[0])
        self.path.set_data_3d(self.tip[:, 0], self.tip[:, 1], self.tip[:, 2])
        self.redraw()
        excitation = time_plot(
            self.t,
            (self.q - self.q0).T,
            labels=[f"q{i}" for i in range(1, 6)],
            colors=JOINT_COLORS,
            xlabel="t (s)",
            width=400,
            height=150,
            title="the excitation q(t) − q0 (rad)",
        )
        self.plot.show("", [excitation])

    def _show(self):
        """The readout and the error bars (after the identification)."""
        if self.widget is None:
            return
        p = self.peaks
        lines = [
            f"cond(Ξ) = <b>{self.cond:.3g}</b> ({self.harmonics} harmonics, f0 = {self.f0:g} Hz, "
            f"{len(self.t)} samples)",
            "peak |q̇| / limit: " + ", ".join(f"{v:.0%}" for v in p["qd_max"] / YOUBOT_ACTUATORS["max_speed"]),
            "peak |τ| / limit: " + ", ".join(f"{v:.0%}" for v in p["tau_max"] / YOUBOT_ACTUATORS["effort"]),
        ]
        if self.result is None or self.errors is None or self.validation_rms is None:
            lines.append(f"<span style='color:#d62728'>{html.escape(self.failure)}</span>")
            self.bars.value = ""
        else:
            lines.append("validation RMS (N·m): " + ", ".join(f"{v:.3f}" for v in self.validation_rms))
            lines.append(f"median base-parameter error: {np.median(self.errors):.1e}")
            self.bars.value = "<b>|identified − true| / true, per base parameter</b>" + error_bars(
                self.errors, self.result.params.names
            )
        self.readout.value = "<small>" + "<br>".join(lines) + "</small>"
        said = f"cond(Ξ) = {self.cond:.3g} with {self.harmonics} harmonics; "
        if self.validation_rms is None:
            said += self.failure
        else:
            said += f"validation RMS {', '.join(f'{v:.3f}' for v in self.validation_rms)} N·m"
        self.announce(said)

    def __repr__(self):
        return f"ExcitationExplorer(harmonics={self.harmonics}, amplitude={self.amplitude}, cond={self.cond:.3g})"


def excitation_explorer(**kwargs: Any) -> ExcitationExplorer:
    """The youBot's excitation, its condition number and what identification recovers (see the module); the
    options ``harmonics``, ``amplitude`` and ``noise`` start the sliders (see :class:`ExcitationExplorer`)."""
    return ExcitationExplorer(**kwargs)
