"""The fixed-step integrators, written once: semi-implicit (symplectic) Euler and classic Runge–Kutta.

Every simulator of armlab takes its step from here: :func:`armlab.sim.simulate`, :func:`armlab.sim.run_task`
(:class:`~armlab.sim.KernelEngine`) and the lab's simulated youBot (:mod:`armlab.lab.sim.physics`). A step
works on a state (q, q̇) of n joints and an acceleration function; the state is a list of floats (the
simulators' loops, no numpy per step) or a numpy array (the lab's vectorised servo), and comes back the same.

* :func:`semi_implicit_euler` — q̇' = q̇ + h·q̈(q, q̇), then q' = q + h·q̇' (the new velocity moves the
  position): ODE's and MuJoCo's default integrator. An optional ``impulse`` acts on q̇' before it moves
  q (friction that can stop a joint but never reverse it, a stuck joint).
* :func:`rk4` — the classic fourth-order Runge–Kutta step, its stages at 0, h/2, h/2 and h.

The fast paths keep their compiled kernel: :func:`armlab.dynamics.model.euler_step_kernel` is
:func:`semi_implicit_euler` with the robot's forward dynamics traced into one straight-line function (the
same two updates, the same rounding; ``tests/sim/test_integrators.py`` checks they agree), and the loops
call it directly.

>>> a, q, qd = semi_implicit_euler(lambda q, qd: [-q[0]], [1.0], [0.0], 0.1)   # a unit spring
>>> a, q, qd
([-1.0], [0.99], [-0.1])
>>> rk4(lambda c, q, qd: [-q[0]], [1.0], [0.0], 0.1)[1][0]            # cos(0.1) = 0.99500416...
0.9950041666666667
"""

from __future__ import annotations

from typing import Any, Callable, Sequence, TypeVar

import numpy as np

__all__ = ["semi_implicit_euler", "rk4", "METHODS"]

#: The fixed-step methods, by the name the simulators take (``method=``).
METHODS = ("euler", "rk4")

V = TypeVar("V", list, np.ndarray)

#: q̈ of a state: ``accel(q, qd) -> qdd``.
Accel = Callable[[Any, Any], Any]
#: q̈ of a stage: ``accel(c, q, qd) -> qdd`` with c the stage's time as a fraction of the step (0.5 or 1.0).
StageAccel = Callable[[float, list, list], Sequence[float]]


def _axpy(x: Any, h: float, y: Any) -> Any:
    """x + h·y, elementwise: lists stay lists (one comprehension), arrays stay arrays (y then an array too)."""
    if isinstance(x, np.ndarray):
        return x + h * y
    return [a + h * b for a, b in zip(x, y)]


def semi_implicit_euler(
    accel: Accel, q: V, qd: V, h: float, *, impulse: Callable[[Any], Any] | None = None
) -> tuple[Any, V, V]:
    """One semi-implicit Euler step: (q̈, q', q̇') with q̈ = ``accel(q, qd)``, q̇' = q̇ + h·q̈ and
    q' = q + h·q̇'.

    ``impulse(q̇') -> q̇'``, if given, changes the new velocity before it moves the position (an impulse
    over the step: Coulomb friction that stops a joint, damping taken implicitly, a blocked joint).
    """
    a = accel(q, qd)
    v = _axpy(qd, h, a)
    if impulse is not None:
        v = impulse(v)
    return a, _axpy(q, h, v), v


def rk4(
    accel: StageAccel, q: list, qd: list, h: float, a1: Sequence[float] | None = None
) -> tuple[Sequence[float], list, list]:
    """One classic Runge–Kutta step of q̈ = f(t, q, q̇) from (q, q̇) (lists): (q̈ at the start, q', q̇').

    ``accel(c, q, qd)`` is q̈ at the stage time t + c·h (c = 0.5, 0.5, 1.0: a caller that holds its torque
    over the step ignores c); ``a1``, q̈ at the start, if the caller has it already (else ``accel(0.0, q, qd)``).
    Raises what ``accel`` raises (ZeroDivisionError for a singular M(q), OverflowError).
    """
    if a1 is None:
        a1 = accel(0.0, q, qd)
    h2 = 0.5 * h
    q2 = [x + h2 * v for x, v in zip(q, qd)]
    v2 = [v + h2 * a for v, a in zip(qd, a1)]
    a2 = accel(0.5, q2, v2)
    q3 = [x + h2 * v for x, v in zip(q, v2)]
    v3 = [v + h2 * a for v, a in zip(qd, a2)]
    a3 = accel(0.5, q3, v3)
    q4 = [x + h * v for x, v in zip(q, v3)]
    v4 = [v + h * a for v, a in zip(qd, a3)]
    a4 = accel(1.0, q4, v4)
    h6 = h / 6.0
    return (
        a1,
        [x + h6 * (v + 2 * (b + c) + d) for x, v, b, c, d in zip(q, qd, v2, v3, v4)],
        [v + h6 * (a + 2 * (b + c) + d) for v, a, b, c, d in zip(qd, a1, a2, a3, a4)],
    )
