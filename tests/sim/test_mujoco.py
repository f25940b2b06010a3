"""armlab.export.to_mjcf against MuJoCo (a test-only dependency): the exported arm has our M(q) and
C q̇ + G, and MuJoCo's RK4 motion from it is armlab.sim's RK4 motion."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from armlab import models, sim
from armlab.export import to_mjcf
from support import random_inertial, random_q, random_robots

mujoco = pytest.importorskip("mujoco")

GRAVITY = np.array([0.4, -1.3, -9.7])  # tilted on purpose


def load(robot, **kw):
    model = mujoco.MjModel.from_xml_string(to_mjcf(robot, **kw))
    return model, mujoco.MjData(model)


def full_m(model, data):
    M = np.zeros((model.nv, model.nv))
    try:
        mujoco.mj_fullM(model, data, M)  # MuJoCo ≥ 3.3
    except TypeError:
        mujoco.mj_fullM(model, M, data.qM)
    return M


def mujoco_m_and_bias(model, data, q, qd):
    data.qpos[:], data.qvel[:] = q, qd
    mujoco.mj_forward(model, data)
    return full_m(model, data), data.qfrc_bias.copy()


def test_exported_random_robots_have_our_mass_matrix_and_bias_forces():
    rng = np.random.default_rng(8)
    robots = [random_inertial(rng, r) for r in random_robots(808, 8)]
    assert {r.convention for r in robots} == {"standard", "modified"} and any("P" in r.joint_types for r in robots)
    assert all(r.base is not None and r.tool is not None for r in robots)
    for robot in robots:
        model, data = load(robot, gravity=GRAVITY)
        for q in random_q(rng, robot, 3):
            qd = rng.normal(size=robot.n)
            M, bias = mujoco_m_and_bias(model, data, q, qd)
            np.testing.assert_allclose(M, robot.inertia(q), atol=1e-9, err_msg=repr(robot))
            np.testing.assert_allclose(
                bias, robot.rne(q, qd, np.zeros(robot.n), GRAVITY), atol=1e-9, err_msg=repr(robot)
            )


@pytest.mark.parametrize("factory", [models.puma560, models.puma560_standard, models.youbot, models.planar3r])
def test_exported_course_models_have_our_dynamics(factory):
    robot = factory()
    model, data = load(robot, min_inertia=1e-9)  # PUMA link 1 has m = 0 (on its axis: no effect)
    rng = np.random.default_rng(9)
    for q in random_q(rng, robot, 5):
        qd = rng.normal(size=robot.n)
        M, bias = mujoco_m_and_bias(model, data, q, qd)
        np.testing.assert_allclose(M, robot.inertia(q), atol=1e-9)
        np.testing.assert_allclose(bias, robot.rne(q, qd, np.zeros(robot.n)), atol=1e-9)


def mujoco_rollout(robot, q0, qd0, t_end, dt, **kw):
    model, data = load(robot, timestep=dt, integrator="RK4", **kw)
    data.qpos[:], data.qvel[:] = q0, qd0
    steps = int(round(t_end / dt))
    Q = np.empty((steps + 1, robot.n))
    Q[0] = q0
    for k in range(steps):
        mujoco.mj_step(model, data)
        Q[k + 1] = data.qpos
    return Q


@pytest.mark.parametrize("factory, dt", [(models.youbot, 1e-3), (models.puma560, 1e-3)])
def test_free_motion_for_2_s_agrees_with_mujoco_rk4(factory, dt):
    """Zero torque, 2 s from a random state: both integrate the same equations with the same RK4, so the
    joint trajectories agree to rounding (measured ≤ 1e-10 rad), far inside 1e-6 rad."""
    robot = factory()
    rng = np.random.default_rng(10)
    q0, qd0 = rng.uniform(-1, 1, robot.n), rng.normal(size=robot.n)
    ours = sim.simulate(robot, q0, qd0, 2.0, dt, events="ignore")
    theirs = mujoco_rollout(robot, q0, qd0, 2.0, dt, min_inertia=1e-9)
    assert ours.completed and np.ptp(ours.q, axis=0).max() > 1.0  # it really moved
    assert np.abs(ours.q - theirs).max() < 1e-6


@pytest.mark.slow
def test_free_motion_at_a_small_step_agrees_with_mujoco_rk4_random_robot():
    rng = np.random.default_rng(11)
    robot = random_inertial(rng, random_robots(12, 1, conventions=("standard",), n_range=(4, 4))[0])
    q0, qd0 = random_q(rng, robot), rng.normal(size=4)
    ours = sim.simulate(robot, q0, qd0, 2.0, 1e-4, gravity=GRAVITY, events="ignore")
    theirs = mujoco_rollout(robot, q0, qd0, 2.0, 1e-4, gravity=GRAVITY)
    assert np.abs(ours.q - theirs).max() < 1e-6


def test_armature_is_exported_as_in_fdyn():
    robot = models.youbot()
    arm = np.array([0.05, 0.05, 0.02, 0.01, 0.01])
    model, data = load(robot, armature=arm)
    q, qd, tau = np.full(5, 0.3), np.full(5, 0.5), np.ones(5)
    data.qpos[:], data.qvel[:], data.qfrc_applied[:] = q, qd, tau
    mujoco.mj_forward(model, data)
    np.testing.assert_allclose(data.qacc, robot.fdyn(q, qd, tau, armature=arm), atol=1e-9)


def test_mjcf_text_joint_kinds_limits_and_options():
    xml = to_mjcf(models.stanford_arm(), min_inertia=1e-6, joint_limits=True, timestep=5e-4, integrator="Euler")
    assert xml.count('type="hinge"') == 5 and xml.count('type="slide"') == 1
    assert 'range="0.0 1.0"' in xml and 'timestep="0.0005"' in xml and 'integrator="Euler"' in xml
    assert "<contact" not in xml and "<geom" not in xml and 'name="tool"' in xml
    load(models.stanford_arm(), min_inertia=1e-6)  # it loads


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: to_mjcf(models.planar2r()), r"link 1 has a mass but no inertia \(I=None, a point mass\)"),
        (lambda: to_mjcf(models.puma560()), "link 1 has no mass"),
        (lambda: to_mjcf(models.rpr()), "link 1 has no mass"),
        (lambda: to_mjcf(models.puma560(symbolic=True)), "needs a numeric robot"),
        (lambda: to_mjcf(models.youbot(), integrator="RK45"), "integrator must be one of"),
        (lambda: to_mjcf(models.youbot(), timestep=0), "timestep must be > 0"),
        (lambda: to_mjcf(models.youbot(), gravity=(0, 9.81)), r"gravity must have shape"),
        (lambda: to_mjcf(models.youbot(), armature=[1, 2]), r"armature must have shape"),
        (lambda: to_mjcf(models.youbot(), min_inertia=-1.0), "min_inertia must be > 0"),
    ],
)
def test_bad_input_gets_a_clear_error(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


def test_point_masses_load_with_a_tiny_inertia_floor_and_move_like_ours():
    robot = models.planar2r()
    q0, qd0 = np.array([0.4, -0.3]), np.array([0.0, 1.0])
    ours = sim.simulate(robot, q0, qd0, 1.0, 1e-3)
    theirs = mujoco_rollout(robot, q0, qd0, 1.0, 1e-3, min_inertia=1e-12)
    assert np.abs(ours.q - theirs).max() < 1e-6


@pytest.mark.integration  # starts a process
def test_armlab_never_imports_mujoco():
    code = (
        "import sys, armlab, armlab.export, armlab.sim; armlab.export.to_mjcf(armlab.models.youbot()); "
        "print('mujoco' in sys.modules)"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(p) for p in sys.path if p]))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True, timeout=120)
    assert out.stdout.strip() == "False"
