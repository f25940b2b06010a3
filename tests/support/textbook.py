"""Data printed in the textbook (000) that several source tests use."""

from __future__ import annotations

import numpy as np

#: Example 3.4's Jacobian, as printed.
EXAMPLE_3_4_J = np.array(
    [
        [1, 0, 0, 0, 2, 0],
        [-1, 0, 1, 0, 0, 0],
        [0, 1, 0, 0, 0, 0],
        [0, 0, 0, 3, 0, 0],
        [0, 0, 1, 0, 0, 0],
        [0, 0, 0, 0, 0, 1],
    ],
    float,
)
