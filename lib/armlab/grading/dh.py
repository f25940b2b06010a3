"""Checkers of a student's DH table (textbook §3.2, lab report §2.1): the arm it describes, by its end poses.

A student's ``DHRobot`` is the answer, so it is evaluated through its own ``fkine`` and the end poses are compared
with an answer key (``armlab.autograde.key.cases`` of the reference robot's ``fkine`` on fixed joint vectors, plus
``"joints"``: its joint types), so equivalent tables (other valid frame choices, the other DH convention) pass.
"""

from __future__ import annotations

from ._base import call, close, decode, fail, fmt, read
from ._builtins import *  # noqa: F403  (the captured builtins shadow the live ones)
from ._frozen import freeze, ndarray_tolist, np_array
from .checks import check_close

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

KIND = {"R": "revolute (R)", "P": "prismatic (P)"}


def joints_of(robot: Any, name: str) -> str:
    """The joint types of a DHRobot-like object, e.g. ``"RRPR"``."""
    if not hasattr(robot, "links") or not hasattr(robot, "fkine"):
        fail(name, f"is a {type(robot).__name__}, expected a DHRobot (armlab.DHRobot([...], convention=...))")
    return "".join(str(getattr(link, "joint", "R")).upper() for link in robot.links)


def check_joints(robot: Any, joints: str, name: str) -> None:
    got = joints_of(robot, name)
    if len(got) != len(joints):
        fail(name, f"has {len(got)} joints; the arm described has {len(joints)} (one DH row per joint)")
    for i, (r, rr) in enumerate(zip(got, joints)):
        if r != rr:
            fail(name, f"joint {i + 1} should be {KIND.get(rr, rr)}, your table has {KIND.get(r, r)}")


def pose(robot: Any, q: Any, name: str) -> Any:
    """The robot's end pose at ``q`` as a flat list of 16 floats (its own ``fkine``)."""
    shape, flat = read(call(robot.fkine, (np_array(q, dtype=float),), f"{name}.fkine"), f"{name}.fkine(q)")
    if shape != (4, 4):
        fail(name, f"fkine(q) gave shape {shape}, expected a 4×4 transform")
    return flat


def origin(T: Any) -> Any:
    return [T[3], T[7], T[11]]


def rotation(T: Any) -> Any:
    return [T[i] for i in (0, 1, 2, 4, 5, 6, 8, 9, 10)]


def check_dh_position(
    robot: Any, q: Any, position: Any, name: str = "robot", joints: Any = None, atol: float = 1e-6
) -> None:
    """Assert the tool of a DH table is at ``position`` for joint values ``q`` (the table's own ``fkine``).

    ``joints`` (e.g. ``"RRPR"``) also checks the number and types of joints.
    """
    got = joints_of(robot, name)
    if joints is not None:
        if len(got) != len(joints):
            fail(name, f"has {len(got)} joints; the arm described has {len(joints)} (one DH row per joint)")
        if got != joints:
            fail(name, f"joint types are {got}, expected {joints} (R revolute, P prismatic)")
    if len(q) != len(got):
        fail(name, f"has {len(got)} joints but q has {len(q)} values")
    T = pose(robot, q, name)
    check_close(origin(T), position, name=f"{name}: tool position at q = {list(q)}", atol=atol)


def check_robot(robot: Any, key: Any, name: str = "robot", atol: float = 1e-6) -> None:
    """Assert a student's DH table describes the arm of the answer key: the same joint types, and the same end
    pose at each of the key's joint vectors (the first is q = 0), so equivalent tables pass."""
    check_joints(robot, key["joints"], name)
    bad_pos, bad_rot, poses = [], [], []
    for k, (args, Tr) in enumerate(zip(key["inputs"], key["expected"])):
        T = pose(robot, decode(args[0]), name)
        poses.append(T)
        Tr = read(Tr, "reference")[1]
        if not close(origin(T), origin(Tr), atol):
            bad_pos.append(k)
        if not close(rotation(T), rotation(Tr), atol):
            bad_rot.append(k)
    if not bad_pos and not bad_rot:
        return
    if not bad_pos:
        fail(
            name,
            "the tool POSITION is right for every q, but its ORIENTATION is not: check the twist "
            "angles α (which way each z axis points) and the θ offsets of the last joints",
        )
    k = bad_pos[0]
    q = ndarray_tolist(decode(key["inputs"][k][0]))
    got = ", ".join(fmt(x) for x in origin(poses[k]))
    want = ", ".join(fmt(x) for x in origin(read(key["expected"][k], "reference")[1]))
    if all(x == 0 for x in q):
        fail(
            name,
            f"wrong already at the home pose q = 0: tool at ({got}), expected ({want}). Check the "
            "constant lengths a and d, the twists α and the θ offsets",
        )
    qtxt = ", ".join(f"{x:.3f}" for x in q)
    fail(
        name,
        f"right at q = 0 but wrong when the joints move: at q = ({qtxt}) the tool is at ({got}), "
        f"expected ({want}). A joint variable may sit on the wrong parameter, or a joint axis "
        "(twist α) points the wrong way",
    )


freeze(__name__)
