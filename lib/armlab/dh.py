"""Old module path, kept because released notebooks import it: see armlab.kinematics and armlab.robot."""
from .kinematics.links import DHLink, link_transform_modified, link_transform_standard  # noqa: F401
from .robot import DHRobot  # noqa: F401
