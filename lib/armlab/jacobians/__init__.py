"""Jacobians and differential motion: textbook §3.3 (eqs. (3.54)–(3.99)), the Jacobian notes (004)
and the lab report's per-link Jacobians (2.37)–(2.45).

* three independent methods, equal to ``robot.jacob0`` / ``robot.jacobe``: :func:`jacob_differential`
  (Paul's differential transforms), :func:`jacob_velocity` (Craig's outward propagation, with
  :func:`velocity_propagation` for the steps) and :func:`jacob_geometric`; per-link
  :func:`link_jacobians`;
* differential motion (3.59)–(3.87): :mod:`armlab.jacobians.differential`;
* analysis: :func:`manipulability` of a robot at q and :func:`manipulability_of_J` of a Jacobian
  (Yoshikawa's √det(J·Jᵀ), translational and rotational parts apart),
  singular values, rank, condition number, :func:`lost_directions`, :func:`ellipsoid`,
  :func:`frame_change`, :func:`analytic_jacobian`, :func:`jdot`;
* closed-form singular sets of the PUMA560, youBot and planar arms: :func:`singularity_conditions`,
  :func:`snap_to_singularity`;
* resolved-rate motion control with damped least squares: :func:`resolved_rate`;
* the control resolution at the tip and its share of the accuracy (textbook §3.5.2, Fig. 3.15):
  :func:`joint_resolution`, :func:`tip_resolution`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._core.protocol import RobotLike
from .._core.validation import joint_vector
from . import differential
from . import analysis
from .analysis import *  # noqa: F403  (the names in analysis.__all__)
from . import methods
from .methods import *  # noqa: F403  (the names in methods.__all__)
from .resolved_rate import RateResult, damping, dls_rates, resolved_rate
from .resolution import TipResolution, joint_resolution, tip_resolution
from .singular import puma560_det, singularity_conditions, snap_to_singularity


def manipulability(robot: RobotLike, q: ArrayLike, part: str = "trans") -> np.ndarray:
    """Yoshikawa's manipulability √det(J_p·J_pᵀ) of the base-frame Jacobian's ``part`` ("trans" or "rot"),
    at q (n,) → a number or q (..., n) → (...). Of a Jacobian you already have: :func:`manipulability_of_J`.

    >>> import armlab, numpy as np
    >>> arm = armlab.models.planar2r(0.5, 0.5)
    >>> bool(np.isclose(manipulability(arm, [0.3, 1.0]), 0.25 * np.sin(1.0)))   # |l1·l2·sin θ2|
    True
    """
    return analysis.manipulability_of_J(robot.jacob0(joint_vector(q, robot.n, "q", symbolic=False)), part)


__all__ = [
    *methods.__all__,
    "differential",
    "manipulability",
    *analysis.__all__,
    "singularity_conditions",
    "snap_to_singularity",
    "puma560_det",
    "resolved_rate",
    "RateResult",
    "damping",
    "dls_rates",
    "joint_resolution",
    "tip_resolution",
    "TipResolution",
]
