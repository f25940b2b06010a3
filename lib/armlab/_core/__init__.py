"""Cross-cutting foundations of armlab: argument checks, the symbolic switch, angles, code generation
and the robot protocol. Nothing here knows about a particular robot or algorithm."""
