"""Physical constants shared by the algorithm packages."""

#: Standard gravity in the world frame (m/s²), z up.
GRAVITY = (0.0, 0.0, -9.81)
