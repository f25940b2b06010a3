"""Forward kinematics of DH chains: links and link transforms, chain compilation, and the per-link
frame iteration that the Jacobian, statics and dynamics algorithms share.

One DH link transform, one forward recursion and one geometric Jacobian live in :mod:`.scalar`;
``link_transform_standard``/``_modified``, ``compile_chain`` (numeric kernels) and the symbolic
``fkine``/``jacob0`` all evaluate them."""

from .chain import compile_chain
from .frames import axis_frames, joint_axis_frames, strip_base_tool
from .links import CONVENTIONS, DHLink, link_matrix, link_transform_modified, link_transform_standard

__all__ = [
    "DHLink",
    "link_transform_standard",
    "link_transform_modified",
    "link_matrix",
    "CONVENTIONS",
    "compile_chain",
    "axis_frames",
    "joint_axis_frames",
    "strip_base_tool",
]
