"""Cross-check of armlab's DH kinematics against pinocchio.

pinocchio knows nothing about DH: ``support.to_pin`` rebuilds each chain as
revolute-Z / prismatic-Z joints with fixed placements (the derivation for both
conventions is in its docstring), one operational frame per DH frame and one
for the end effector (base and tool included). Compared:

* fkine  ↔ ``data.oMf[ee]`` after forwardKinematics + updateFramePlacements;
* fkine_all ↔ the DH-frame operational frames;
* jacob0 ↔ ``computeFrameJacobian(..., LOCAL_WORLD_ALIGNED)``: velocity of the
  end-effector point and angular velocity, both in base (world) axes, rows (v, ω);
* jacobe ↔ ``computeFrameJacobian(..., LOCAL)`` (end-effector axes).

Tolerance 1e-9 absolute (observed differences are ~1e-15).
"""

from __future__ import annotations

import zlib

import numpy as np
import pinocchio as pin
import pytest

from support import COURSE_MODELS, pin_kinematics, random_q, random_robots, to_pin

TOL = 1e-9


def _close(actual, expected, what):
    np.testing.assert_allclose(actual, expected, rtol=0, atol=TOL, err_msg=what)


def _compare(robot, q_batch):
    model, ee, link_frames = to_pin(robot)
    data = model.createData()
    assert model.nq == model.nv == robot.n
    for q in q_batch:
        tag = f"{robot!r}\nq = {q!r}"
        T, J, frames = pin_kinematics(model, data, q, ee, link_frames)
        _close(robot.fkine(q), T, "fkine " + tag)
        _close(robot.fkine_all(q), np.array(frames), "fkine_all " + tag)
        _close(robot.jacob0(q), J, "jacob0 " + tag)
        Je = np.array(pin.computeFrameJacobian(model, data, q, ee, pin.LOCAL)).reshape(6, robot.n)
        _close(robot.jacobe(q), Je, "jacobe " + tag)


@pytest.mark.parametrize("convention", ["standard", "modified"])
def test_random_dh_robots_match_pinocchio(convention):
    seed = {"standard": 11, "modified": 22}[convention]
    robots = random_robots(seed, 40, conventions=(convention,))
    assert any("P" in r.joint_types for r in robots) and any(r.n == 7 for r in robots)
    rng = np.random.default_rng(seed + 1)
    for robot in robots:  # 40 robots × 10 configurations per convention
        _compare(robot, random_q(rng, robot, 10))


@pytest.mark.parametrize("convention", ["standard", "modified"])
def test_prismatic_heavy_robots_without_base_tool_match_pinocchio(convention):
    robots = random_robots(33, 10, conventions=(convention,), with_base_tool=False, prismatic_prob=0.6)
    rng = np.random.default_rng(34)
    for robot in robots:
        _compare(robot, random_q(rng, robot, 10))


@pytest.mark.parametrize("name", sorted(COURSE_MODELS))
def test_course_model_matches_pinocchio(name):
    robot = COURSE_MODELS[name]()
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    _compare(robot, random_q(rng, robot, 30))


def test_crosscheck_detects_a_convention_mixup():
    """The comparison has teeth: the same table read in the other convention must not match."""
    rng = np.random.default_rng(5)
    robot = random_robots(55, 1, conventions=("standard",), n_range=(4, 4))[0]
    other = robot.replace(convention="modified")
    model, ee, _ = to_pin(other)
    q = random_q(rng, robot)
    T, J, _ = pin_kinematics(model, model.createData(), q, ee)
    assert np.abs(robot.fkine(q) - T).max() > 1e-3
