"""Chapter 05 views: a force at the tip of a 2R arm, the youBot holding a payload, a wrist force sensor.

* :class:`TipForce2R` (:func:`tip_force_explorer`) — joint sliders and a tip force (magnitude, direction)
  → the force arrow, the joint torques τ = JᵀF as live bars, and the force ellipse (the forces that
  ‖τ‖ ≤ ``tau_ref`` can hold); the "Fig. 5.7" button stretches the arm out and pushes along it;
* :class:`StaticMapping2R` (:func:`static_mapping_explorer`) — §5.3.2's Fig. 5.6 live for the 2R: the
  force plane and the torque plane side by side, the unit forces and their image under Jᵀ, and at a
  singular pose the null space F₁ of Jᵀ, its range τ₁ and the rest τ₂ (:func:`armlab.statics.static_mapping`);
* :class:`PayloadExplorer` (:func:`payload_explorer`) — youBot joint sliders and a payload mass → the
  torques from the arm's weight and the payload against each joint's effort limit (bars coloured as they
  approach it) and the largest payload this pose can hold (:func:`armlab.statics.max_payload`);
* :class:`WristSensor` (:func:`wrist_sensor_demo`) — statics chapter Example 6: a wrench measured at the
  wrist {W}, moved to the tool tip {T} (:func:`armlab.transforms.wrench_transform`), both drawn as arrows.

Convention as in :mod:`armlab.statics`: a tip force is what the tip exerts on the environment.
All drawing of the chapter's widgets is in this package; every number comes from :mod:`armlab.statics`.
The τ = JᵀF views of the 2R arm are in :mod:`~armlab.viz.statics.mapping`, the payload and the sensor in
:mod:`~armlab.viz.statics.loads`, what they share (palette, torque bars, panel base) in
:mod:`~armlab.viz.statics.panel`.

>>> from armlab import models
>>> ex = tip_force_explorer(models.planar2r(0.5, 0.3), np.radians([30, 60]), magnitude=10.0, direction=90.0)
>>> ex.tau.round(4)                              # 10 N straight up: τ = Jᵀ·(0, 10) = 10·(l1c1 + l2c12, l2c12)
array([4.3301, 0.    ])
>>> _ = ex.fig_5_7(); bool(np.abs(ex.tau).max() < 1e-9)      # stretched out, pushing along the arm
True
"""

from . import loads, mapping
from .loads import *  # noqa: F403  (the names in loads.__all__)
from .mapping import *  # noqa: F403  (the names in mapping.__all__)

__all__ = [*mapping.__all__, *loads.__all__]
