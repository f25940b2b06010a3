"""Cross-check of armlab's DH kinematics against roboticstoolbox-python (Corke).

Same DH table on both sides (``support.to_rtb``), random robots in both
conventions with prismatic joints, offsets, base and tool, plus the course
models. Compared: fkine, fkine_all (rtb: base first, no tool, like armlab),
jacob0 and jacobe. rtb's Jacobian rows are (v, ω) like armlab's. Tolerance
1e-9 absolute (observed differences are ~1e-15).
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from support import COURSE_MODELS, random_q, random_robots, to_rtb

TOL = 1e-9
CONFIGS_PER_ROBOT = 10
ROBOTS_PER_CONVENTION = 30  # × 10 configurations = 300 per convention


def _close(actual, expected, what):
    np.testing.assert_allclose(actual, expected, rtol=0, atol=TOL, err_msg=what)


def _compare(robot, q_batch):
    ref = to_rtb(robot)
    for q in q_batch:
        tag = f"{robot!r}\nq = {q!r}"
        _close(robot.fkine(q), ref.fkine(q).A, "fkine " + tag)
        _close(robot.fkine_all(q), np.array([T.A for T in ref.fkine_all(q)]), "fkine_all " + tag)
        _close(robot.jacob0(q), ref.jacob0(q), "jacob0 " + tag)
        _close(robot.jacobe(q), ref.jacobe(q), "jacobe " + tag)


@pytest.mark.parametrize("convention", ["standard", "modified"])
def test_random_dh_robots_match_rtb(convention):
    seed = {"standard": 101, "modified": 202}[convention]
    robots = random_robots(seed, ROBOTS_PER_CONVENTION, conventions=(convention,))
    assert any("P" in r.joint_types for r in robots) and any(r.n == 7 for r in robots)
    rng = np.random.default_rng(seed + 1)
    for robot in robots:
        _compare(robot, random_q(rng, robot, CONFIGS_PER_ROBOT))


@pytest.mark.parametrize("convention", ["standard", "modified"])
def test_random_robots_without_base_tool_match_rtb(convention):
    robots = random_robots(303, 10, conventions=(convention,), with_base_tool=False, prismatic_prob=0.5)
    rng = np.random.default_rng(304)
    for robot in robots:
        _compare(robot, random_q(rng, robot, 5))


@pytest.mark.parametrize("name", sorted(COURSE_MODELS))
def test_course_model_matches_rtb(name):
    robot = COURSE_MODELS[name]()
    rng = np.random.default_rng(zlib.crc32(name.encode()))  # fixed seed per model
    _compare(robot, random_q(rng, robot, 30))


@pytest.mark.parametrize("convention", ["standard", "modified"])
def test_batched_fkine_matches_rtb(convention):
    """armlab's batched fkine (N, n) → (N, 4, 4) against rtb's fkine on the same batch."""
    rng = np.random.default_rng(405)
    for robot in random_robots(406, 5, conventions=(convention,)):
        Q = random_q(rng, robot, 50)
        _close(robot.fkine(Q), to_rtb(robot).fkine(Q).A, f"batched fkine {robot!r}")
