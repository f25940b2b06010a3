"""The result of a simulation: one tidy object that plots, notebooks and tests read."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

__all__ = ["Trajectory", "LimitEvent", "Energies"]

_ENERGY = ("energy", "work", "drift", "kinetic")


class Energies:
    """A run's energy balance (energy, work, drift, kinetic), computed when first read: a widget that
    re-runs a task on every slider move never reads it. Give one to :class:`Trajectory` for all four."""

    def __init__(self, compute: Callable[[], tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]) -> None:
        self._compute: Callable[[], tuple[np.ndarray, ...]] | None = compute
        self._values: dict[str, np.ndarray] = {}

    def __getitem__(self, name: str) -> np.ndarray:
        if self._compute is not None:
            self._values = dict(zip(_ENERGY, self._compute()))
            self._compute = None
        return self._values[name]

    def __getstate__(self) -> dict:  # pickled (a result sent to another process): the values, computed now
        self["energy"]
        return {"_compute": None, "_values": self._values}


@dataclass(frozen=True)
class LimitEvent:
    """Joint ``joint`` (1-based) crossed its ``side`` ("lower" or "upper") limit ``limit`` at time ``t``."""

    t: float
    joint: int
    side: str
    limit: float


@dataclass
class Trajectory:
    """Samples of a simulated motion, one row per time step (N samples, n joints).

    ``t`` (N,) s; ``q``, ``qd``, ``qdd`` (N, n); ``tau`` (N, n) the joint torques applied over each step
    (input plus controller; friction not included). ``energy`` (N,) is K + P (kinetic with armature,
    potential with the run's gravity and payload), ``kinetic`` (N,) is K alone, ``work`` (N,) the work done on the arm by the applied
    torques and friction since t = 0, and ``drift`` = energy − energy[0] − work: what the integrator
    created or lost (zero for exact integration); one :class:`Energies` given for all four computes them
    when first read. ``events`` lists joint-limit crossings. ``ok``: the run
    went to its end; otherwise ``reason`` says what stopped it (a limit, a non-finite state, max_steps); it
    is "" when ok.
    """

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    tau: np.ndarray
    energy: np.ndarray
    work: np.ndarray
    drift: np.ndarray
    kinetic: np.ndarray
    events: list = field(default_factory=list)
    reason: str = ""
    method: str = "rk4"
    dt: float = 0.0

    @property
    def ok(self) -> bool:
        """The run went to its end (``reason`` is "")."""
        return not self.reason

    @property
    def completed(self) -> bool:
        """Same as :attr:`ok`."""
        return self.ok

    @property
    def max_drift(self) -> float:
        """Largest |drift| over the run (J)."""
        return float(np.abs(self.drift).max()) if self.drift.size else 0.0

    @property
    def relative_drift(self) -> float:
        """max |drift| over the largest kinetic energy of the run (dimensionless; 0 if it never moved)."""
        scale = float(self.kinetic.max(initial=0.0))
        return self.max_drift / scale if scale > 0 else 0.0

    def __len__(self) -> int:
        return len(self.t)

    def __repr__(self) -> str:
        n = self.q.shape[1] if self.q.ndim == 2 else 0
        return (
            f"Trajectory({len(self)} samples, {n} joints, t = 0…{self.t[-1] if len(self) else 0:g} s, "
            f"{self.method}, dt = {self.dt:g} s, max drift {self.max_drift:.3g} J, "
            f"{len(self.events)} limit events, {self.reason or 'completed'})"
        )


def _energy_field(name: str) -> property:
    """A field of the energy balance: an array, or read from the run's :class:`Energies` when first asked."""

    def get(self: Trajectory) -> np.ndarray:
        value = self.__dict__[name]
        if isinstance(value, Energies):
            value = self.__dict__[name] = value[name]
        return value  # type: ignore[no-any-return]

    def put(self: Trajectory, value: np.ndarray | Energies) -> None:
        self.__dict__[name] = value

    return property(get, put, doc=f"The run's {name} (N,), J.")


for _name in _ENERGY:  # after @dataclass: its __init__ assigns through these
    setattr(Trajectory, _name, _energy_field(_name))
