"""Controllers for simulated arms (chapter 08): small objects with ``step(t, q, qd, ref) -> τ``.

* joint space (:mod:`.joint`): :class:`PD`, :class:`PID` (and ``PID.cascade``, an assumed nesting of
  the youBot drives' position/velocity/current loops; lab report §4 names one PID per set point),
  :class:`GravityCompensation`, :class:`PDGravity`, :class:`ComputedTorque`;
* task space (:mod:`.task_space`): :class:`ResolvedRate`;
* :func:`pd_gains`: independent-joint gains from a natural frequency and the inertia of a pose;
* every controller clips its torque to ``limits`` (e.g. ``models.YOUBOT_ACTUATORS["effort"]``) and
  records it in ``.saturation``; ``a + b`` adds controllers; ``.reset()`` forgets their state;
* :func:`perturbed`: a model whose inertial parameters are off by a given fraction.

``armlab.sim.simulate(..., controller=c, reference=ref)`` and ``armlab.sim.run_task`` step them. A simulator
uses two public methods besides ``output``/``step``/``reset``, and neither changes the controller it is
given: ``c.bind(n)`` (the controller for n joints: itself, or a sized copy of one built from numbers alone)
and ``c.with_model(model)`` (the same controller believing in another model, e.g. with the payload it holds).

>>> import numpy as np
>>> from armlab import control, models
>>> arm = models.paper_3r()
>>> ct = control.ComputedTorque(arm, kp=400.0, kd=40.0, gravity=models.PAPER_GRAVITY)
>>> q = np.radians([0.0, 90.0, 0.0])                     # stretched out horizontally, at rest, on target
>>> ct.step(0.0, q, np.zeros(3), (q, np.zeros(3), np.zeros(3))).round(3) + 0.0   # = G(q): holding torques
array([  0. , -39.2,  -9.8])
"""

from .base import Controller, Saturation, Sum, gains, split_reference
from .joint import PD, PID, ComputedTorque, GravityCompensation, PDGravity, pd_gains
from .model_error import perturbed
from .task_space import ResolvedRate

__all__ = [
    "Controller",
    "Sum",
    "Saturation",
    "gains",
    "split_reference",
    "PD",
    "PID",
    "GravityCompensation",
    "PDGravity",
    "ComputedTorque",
    "ResolvedRate",
    "perturbed",
    "pd_gains",
]
