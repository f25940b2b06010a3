"""Cross-cutting foundations of armlab: argument checks, the symbolic switch, angles, code generation,
and the immutable robot description (DHLink, RobotLike) the algorithms read. Nothing here knows about a
particular robot or algorithm."""
