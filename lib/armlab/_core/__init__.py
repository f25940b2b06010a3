"""Cross-cutting foundations of armlab: argument checks, the symbolic switch, angles, code generation,
the immutable DH link and the robot protocol. Nothing here knows about a particular robot or algorithm."""
