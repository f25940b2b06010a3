"""Checkers of DH link transforms and DH tables (textbook §3.2, lab report §2.1).

A table is graded by the end pose it gives, computed here with plain math (never with
``robot.fkine``), so equivalent tables pass. A reference table is a dict
``{"convention": "modified", "links": [{"joint": "R", "a": .., "alpha": .., "d": .., "theta": ..,
"offset": ..}, ...], "base": 4×4 or None, "tool": ...}`` or a DHRobot.
"""

from __future__ import annotations

from ._base import call, close, fail, fmt, read
from ._builtins import *  # noqa: F403  (the captured builtins shadow the live ones)
from ._frozen import Random, freeze, pi, radians
from ._plain import as_nested, fk, link_modified, link_standard, rot_block, translation
from .checks import check_close

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable


def check_link_function(
    fn: Callable[..., Any],
    convention: str = "modified",
    name: str = "my_link",
    atol: float = 1e-9,
    cases: Any = (
        (0.0, 0.0, 0.0, 0.0),
        (-1.5707963267948966, 0.2, 0.4, 0.15),
        (0.7, 0.43, -1.1, -0.05),
        (1.5707963267948966, 0.0, 2.8, 0.43),
    ),
) -> None:
    """Assert ``fn`` is the one-link DH transform.

    modified: ``fn(alpha, a, theta, d)`` = textbook eq. (3.23);
    standard: ``fn(theta, d, a, alpha)`` = lab report eq. (2.4).
    """
    for p in cases:
        T = call(fn, p, name)
        if convention == "modified":
            alpha, a, theta, d = p
            expected, other = link_modified(alpha, a, theta, d), link_standard(theta, d, a, alpha)
            other_msg = (
                "this is the STANDARD-convention link matrix Rz(θ)Tz(d)Tx(a)Rx(α); eq. (3.23) is Rx(α)Tx(a)Rz(θ)Tz(d)"
            )
        else:
            theta, d, a, alpha = p
            expected, other = link_standard(theta, d, a, alpha), link_modified(alpha, a, theta, d)
            other_msg = "this is the MODIFIED-convention link matrix; lab report (2.4) is Rz(θ)Tz(d)Tx(a)Rx(α)"
        check_close(
            T,
            as_nested(expected, (4, 4)),
            name=f"{name}{tuple(p)}",
            atol=atol,
            hints={other_msg: as_nested(other, (4, 4))},
        )


def links_of(robot: Any, name: str) -> Any:
    """(convention, rows, base, tool) from a DHRobot-like object or a reference dict."""
    if isinstance(robot, dict):
        conv = robot.get("convention", "modified")
        rows = [
            (
                str(r.get("joint", "R")).upper(),
                float(r.get("a", 0.0)),
                float(r.get("alpha", 0.0)),
                float(r.get("d", 0.0)),
                float(r.get("theta", 0.0)),
                float(r.get("offset", 0.0)),
            )
            for r in robot["links"]
        ]
        base, tool = robot.get("base"), robot.get("tool")
    else:
        if not hasattr(robot, "links"):
            fail(name, f"is a {type(robot).__name__}, expected a DHRobot (armlab.DHRobot([...], convention=...))")
        conv = getattr(robot, "convention", "standard")
        rows = []
        for i, link in enumerate(robot.links):
            row = None
            try:
                row = (
                    str(link.joint).upper(),
                    float(link.a),
                    float(link.alpha),
                    float(link.d),
                    float(link.theta),
                    float(link.offset),
                )
            except (TypeError, ValueError, AttributeError):
                pass
            if row is None:
                fail(name, f"link {i + 1} has non-numeric parameters (use numbers, not symbols)")
            rows.append(row)
        base, tool = getattr(robot, "base", None), getattr(robot, "tool", None)
    base = None if base is None else read(base, f"{name}.base")[1]
    tool = None if tool is None else read(tool, f"{name}.tool")[1]
    return conv, rows, base, tool


def reference_fkine(table: Any, q: Any, deg: bool = False) -> Any:
    """End pose (nested 4×4 lists) of a DH table given as a dict or DHRobot, with plain math.

    ``deg=True``: the revolute joints' values are in degrees (prismatic ones stay in metres).
    """
    conv, rows, base, tool = links_of(table, "table")
    if len(q) != len(rows):
        raise ValueError(f"q has {len(q)} values, the table {len(rows)} joints")
    q = [radians(float(x)) if deg and row[0] == "R" else float(x) for x, row in zip(q, rows)]
    return as_nested(fk(conv, rows, base, tool, q), (4, 4))


def check_dh_position(
    robot: Any, q: Any, position: Any, name: str = "robot", joints: Any = None, atol: float = 1e-6
) -> None:
    """Assert the tool of a DH table is at ``position`` for joint values ``q`` (plain-math FK).

    ``joints`` (e.g. ``"RRPR"``) also checks the number and types of joints.
    """
    conv, rows, base, tool = links_of(robot, name)
    if joints is not None:
        got = "".join(r[0] for r in rows)
        if len(got) != len(joints):
            fail(name, f"has {len(got)} joints; the arm described has {len(joints)} (one DH row per joint)")
        if got != joints:
            fail(name, f"joint types are {got}, expected {joints} (R revolute, P prismatic)")
    if len(q) != len(rows):
        fail(name, f"has {len(rows)} joints but q has {len(q)} values")
    T = fk(conv, rows, base, tool, [float(x) for x in q])
    check_close(translation(T), position, name=f"{name}: tool position at q = {list(q)}", atol=atol)


def check_dh_robot(
    robot: Any,
    reference: Any,
    name: str = "robot",
    trials: int = 12,
    seed: int = 0,
    atol: float = 1e-6,
    prismatic_range: Any = (0.0, 0.3),
) -> None:
    """Assert a student's DH table describes the same arm as ``reference`` (a dict or a DHRobot).

    Both are evaluated with plain math at q = 0 and at ``trials`` random joint vectors, so
    equivalent tables (other but valid frame choices that give the same tool frame) pass.
    """
    conv, rows, base, tool = links_of(robot, name)
    rconv, rrows, rbase, rtool = links_of(reference, "reference")
    if conv not in ("modified", "standard"):
        fail(name, f"unknown convention {conv!r}")
    if len(rows) != len(rrows):
        fail(name, f"has {len(rows)} joints; the arm described has {len(rrows)} (one DH row per joint)")
    kind = {"R": "revolute (R)", "P": "prismatic (P)"}
    for i, (r, rr) in enumerate(zip(rows, rrows)):
        if r[0] != rr[0]:
            fail(name, f"joint {i + 1} should be {kind.get(rr[0], rr[0])}, your table has {kind.get(r[0], r[0])}")
    rng = Random(seed)
    qs = [[0.0] * len(rows)]
    for _ in range(trials):
        qs.append([rng.uniform(-pi, pi) if j[0] == "R" else rng.uniform(*prismatic_range) for j in rrows])
    bad_pos, bad_rot = [], []
    for k, q in enumerate(qs):
        T, Tr = fk(conv, rows, base, tool, q), fk(rconv, rrows, rbase, rtool, q)
        if not close(translation(T), translation(Tr), atol):
            bad_pos.append(k)
        if not close(rot_block(T, 4), rot_block(Tr, 4), atol):
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
    q = qs[k]
    got = ", ".join(fmt(x) for x in translation(fk(conv, rows, base, tool, q)))
    want = ", ".join(fmt(x) for x in translation(fk(rconv, rrows, rbase, rtool, q)))
    if k == 0:
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
