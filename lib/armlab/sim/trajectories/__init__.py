"""Reference trajectories: ``reference(t) -> (q, q̇, q̈)``, vectorised in t, for controllers and plots.

* :mod:`~armlab.sim.trajectories.profiles`, point to point in joint space: :func:`quintic` and :func:`cubic`
  polynomials between two states, :func:`trapezoidal` (linear segments with parabolic blends, LSPB) from
  velocity and acceleration limits, :func:`hold`; :class:`Reference` and :class:`JointReference`, what
  every reference is;
* :mod:`~armlab.sim.trajectories.paths`, through several points or along a line: :func:`via_points`
  (quintic segments through several points), :func:`sequence` to run references one after another, and in
  task space :func:`cartesian_line`, a straight line of the tool through the robot's closed-form IK,
  refused where it passes a singularity or leaves the workspace.

Every reference is called with a time t (s): a number gives three (n,) arrays, an array (N,) gives three
(N, n) arrays. Before its start a reference holds its first position, after its end it continues with
its final velocity (zero for rest-to-rest motions) and no acceleration. Limits given as ``qd_max`` /
``qdd_max`` are checked when the reference is built: an infeasible one raises a ValueError that names
the joint, the peak and the shortest feasible duration.

>>> ref = quintic([0.0, 0.0], [1.0, -0.5], T=2.0)
>>> q, qd, qdd = ref(1.0)                 # half way: half the distance, peak velocity 1.875·Δq/T
>>> q.tolist(), qd.round(6).tolist(), bool(abs(qdd).max() < 1e-12)
([0.5, -0.25], [0.9375, -0.46875], True)
>>> ref(np.linspace(0, 2, 5))[0].shape
(5, 2)
"""

from . import paths, profiles
from .paths import *  # noqa: F403  (the names in paths.__all__)
from .profiles import *  # noqa: F403  (the names in profiles.__all__)

__all__ = [*profiles.__all__, *paths.__all__]
