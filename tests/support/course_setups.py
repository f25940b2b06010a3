"""Set-ups that a course notebook and the tests of the library share, written once."""

from __future__ import annotations

import numpy as np

from armlab import models

PUMA_FLANGE = models.puma560(flange=True)


def puma_line_through_the_wrist(theta5_deg: float = 0.5):
    """Chapter 04's resolved-rate line (cell a9a9c44a): the PUMA with its flange moves its hand at 0.1 m/s for 1 s
    through the pose (10°, −60°, −30°, 30°, θ5, −20°), along the hand direction that moves θ5 fastest.
    Returns (q0, T_start, T_mid, v): the start joints, the start and middle poses, the line's velocity."""
    q_mid = np.radians([10, -60, -30, 30, theta5_deg, -20])
    T_mid = PUMA_FLANGE.fkine(q_mid)
    g5 = np.linalg.pinv(PUMA_FLANGE.jacob0(q_mid))[4, :3]  # how θ5 responds to a hand velocity
    v = 0.1 * g5 / np.linalg.norm(g5)
    T_start = T_mid.copy()
    T_start[:3, 3] -= v * 0.5
    q0 = PUMA_FLANGE.ikine(T_start, q_mid).q[0]
    return q0, T_start, T_mid, v
