"""Mass properties of the course models (armlab.models): where they come from and that they were
moved into our DH frames correctly.

* PUMA560: Armstrong–Khatib–Burdick as used by Corke, in the modified (Table 3.2) and standard frames:
  both give the same τ, and both equal roboticstoolbox's rne on Corke's own table and frames.
* youBot: the store's values (youbot-interface.md) moved into the lab report's DH frames, checked
  against pinocchio bodies built directly in the store frames (no use of our transformation).
* Every model: physical links (triangle inequality), M symmetric positive definite.
"""

from __future__ import annotations

import math

import numpy as np
import pinocchio as pin
import pytest

from armlab import DHLink, models
from armlab.models import inertial
from armlab.models.puma560 import PUMA560, PUMA560_AKB, PUMA560_MOMENT_CORRECTIONS
from armlab.models.youbot import YOUBOT_ACTUATORS, YOUBOT_STORE, YOUBOT_WRIST, _YOUBOT_Q_CANDLE, youbot_store_frames
from support import random_q

WITH_INERTIA = {
    "puma560": models.puma560,
    "puma560_standard": models.puma560_standard,
    "youbot": models.youbot,
    "planar2r": models.planar2r,
    "planar3r": models.planar3r,
}


@pytest.mark.parametrize("name", WITH_INERTIA)
def test_every_link_is_a_physical_body_triangle_inequality(name):
    for k, link in enumerate(WITH_INERTIA[name]().links, start=1):
        assert link.m >= 0
        if link.I is not None:
            I1, I2, I3 = np.linalg.eigvalsh(link.I)
            assert I1 >= -1e-15 and I3 <= I1 + I2 + 1e-12, f"{name} link {k}: moments {I1, I2, I3}"


@pytest.mark.parametrize("name", WITH_INERTIA)
def test_mass_matrix_is_symmetric_positive_definite_over_the_workspace(name):
    robot = WITH_INERTIA[name]()
    M = robot.inertia(random_q(np.random.default_rng(1), robot, 500))
    assert np.allclose(M, np.swapaxes(M, -1, -2), atol=1e-12)
    assert np.linalg.eigvalsh(M).min() > 0


# --- PUMA560 -------------------------------------------------------------------------------------------


def test_puma560_standard_and_modified_give_the_same_tau_and_M():
    mod, std = models.puma560(), models.puma560_standard()
    rng = np.random.default_rng(2)
    Q = random_q(rng, mod, 200)
    QD, QDD = rng.normal(size=(2, 200, 6)) * 2
    np.testing.assert_allclose(mod.rne(Q, QD, QDD), std.rne(Q, QD, QDD), atol=1e-11)
    np.testing.assert_allclose(mod.inertia(Q), std.inertia(Q), atol=1e-12)
    assert mod.name != std.name and mod.modified and not std.modified


def _rtb_puma(moments_of_link3=None):
    """roboticstoolbox's Puma560 (Corke's frames), with our lengths, no pedestal, our mass properties
    (Corke's with PUMA560_MOMENT_CORRECTIONS) and no actuator dynamics (motor inertia, friction)."""
    rtb = pytest.importorskip("roboticstoolbox")
    robot = rtb.models.DH.Puma560()
    robot.links[0].d = 0.0
    robot.links[1].a, robot.links[2].a = PUMA560["a2"], PUMA560["a3"]
    robot.links[2].d, robot.links[3].d = PUMA560["d2"], PUMA560["d4"]
    for k, (link, (m, r, moments)) in enumerate(zip(robot.links, PUMA560_AKB)):
        assert np.isclose(link.m, m) and np.allclose(link.r, r)  # the published set is Corke's
        moments = PUMA560_MOMENT_CORRECTIONS.get(k, moments)
        if k == 2 and moments_of_link3 is not None:
            moments = moments_of_link3
        link.I = np.diag(moments)
        link.Jm, link.G, link.B, link.Tc = 0.0, 1.0, 0.0, np.zeros(2)
    return robot


RTB_SHIFT = np.array([math.pi, math.pi, 0, 0, 0, 0])  # q_Corke = q + shift (tests/ik/test_ik_puma.py)


def test_puma560_equals_roboticstoolbox_rne_in_corkes_frames():
    theirs, ours = _rtb_puma(), models.puma560()
    rng = np.random.default_rng(3)
    for q in random_q(rng, ours, 20):
        qd, qdd = rng.normal(size=(2, 6)) * 2
        np.testing.assert_allclose(
            ours.rne(q, qd, qdd), theirs.rne(q + RTB_SHIFT, qd, qdd, gravity=(0, 0, -9.81)), atol=1e-9
        )


def test_puma560_published_moments_break_the_triangle_inequality_and_the_correction_is_small():
    I1, I2, I3 = sorted(PUMA560_AKB[2][2])
    assert I3 > I1 + I2  # Corke's link 3: 0.086 > 0.066 + 0.0125
    fixed = sorted(PUMA560_MOMENT_CORRECTIONS[2])
    assert math.isclose(fixed[2], fixed[0] + fixed[1])  # on the bound, the nearest physical body
    assert np.allclose(np.abs(np.subtract(PUMA560_MOMENT_CORRECTIONS[2], PUMA560_AKB[2][2])), 0.0025)
    with pytest.raises(ValueError, match="triangle inequality"):
        DHLink(I=np.diag(PUMA560_AKB[2][2]))
    # the link-3 correction changes τ by < 0.01 N·m (measured 0.009) for |q̇|, |q̈| ≤ 2; link 1's changes nothing
    published, ours = _rtb_puma(moments_of_link3=PUMA560_AKB[2][2]), _rtb_puma()
    rng = np.random.default_rng(4)
    worst = 0.0
    for q in rng.uniform(-math.pi, math.pi, (50, 6)):
        qd, qdd = rng.uniform(-2, 2, (2, 6))
        worst = max(worst, np.abs(published.rne(q, qd, qdd) - ours.rne(q, qd, qdd)).max())
    assert 0.001 < worst < 0.01


def test_puma560_link_1_mass_is_on_its_axis_so_it_enters_no_torque():
    robot = models.puma560()
    assert robot.links[0].m == 0 and np.allclose(robot.links[0].r, 0)
    heavy = inertial.with_bodies(
        robot,
        [inertial.Body(5.0, (0, 0, 0), robot.links[0].I)] + [inertial.Body(L.m, L.r, L.I) for L in robot.links[1:]],
    )
    rng = np.random.default_rng(5)
    q, qd, qdd = random_q(rng, robot), *rng.normal(size=(2, 6))
    np.testing.assert_allclose(heavy.rne(q, qd, qdd), robot.rne(q, qd, qdd), atol=1e-12)


# --- youBot --------------------------------------------------------------------------------------------


def _youbot_in_pinocchio():
    """The youBot built directly from the store frames: in the candle pose every frame is the base
    frame moved to its joint; each joint turns about its DH axis there, by q − q_candle; the gripper
    is its own body, not lumped."""
    dh = models.youbot()
    F = dh.fkine_all(_YOUBOT_Q_CANDLE)
    S = youbot_store_frames(dh)
    model, parent, prev = pin.Model(), 0, np.zeros(3)
    for k, key in enumerate(("link1", "link2", "link3", "link4", "link5")):
        axis = F[k][:3, 2]  # standard DH: joint k+1 turns about z_k
        origin = S[k][:3, 3]
        parent = model.addJoint(
            parent, pin.JointModelRevoluteUnaligned(axis), pin.SE3(np.eye(3), origin - prev), f"joint{k + 1}"
        )
        m, r, moments = YOUBOT_STORE[key]
        model.appendBodyToJoint(parent, pin.Inertia(m, np.array(r), np.diag(moments)), pin.SE3.Identity())
        prev = origin
    m, r, moments = YOUBOT_STORE["gripper"]
    model.appendBodyToJoint(
        parent,
        pin.Inertia(m, np.array(r), np.diag(moments)),
        pin.SE3(np.eye(3), np.array([0, 0, YOUBOT_WRIST["gripper_above_joint5"]])),
    )
    return model


def test_youbot_store_values_moved_into_dh_frames_equal_bodies_built_in_the_store_frames():
    robot, model = models.youbot(), _youbot_in_pinocchio()
    data = model.createData()
    rng = np.random.default_rng(6)
    poses = np.vstack([_YOUBOT_Q_CANDLE, [0, 0, 0, 0, 0], [0.3, 1.0, -0.5, 1.2, 2.0], random_q(rng, robot, 5)])
    for q in poses:
        qd, qdd = rng.normal(size=(2, 5))
        x = q - _YOUBOT_Q_CANDLE
        np.testing.assert_allclose(robot.rne(q, qd, qdd), pin.rnea(model, data, x, qd, qdd), atol=1e-12)
        M = pin.crba(model, data, x)
        np.testing.assert_allclose(robot.inertia(q), np.triu(M) + np.triu(M, 1).T, atol=1e-12)


def test_youbot_links_and_gripper_lumped_into_link_5():
    robot = models.youbot()
    masses = [YOUBOT_STORE[k][0] for k in ("link1", "link2", "link3", "link4")]
    assert np.allclose([L.m for L in robot.links], masses + [0.687 + 0.219])
    # the candle pose holds itself; the outstretched arm needs ≈ 10 N·m at joint 2 (youbot-interface.md)
    assert np.abs(robot.gravload(_YOUBOT_Q_CANDLE)[1:]).max() < 0.3
    G = robot.gravload([0, math.pi / 2, 0, math.pi / 2, 0])
    assert 9.5 < abs(G[1]) < 10.5 and abs(G[1]) > YOUBOT_ACTUATORS["effort"][1]


def test_youbot_actuator_constants_from_the_interface_notes():
    a = YOUBOT_ACTUATORS
    assert a["effort"].tolist() == [9.5, 9.5, 6, 2, 1]
    assert a["gear"].tolist() == [156, 156, 100, 71, 71]
    assert np.allclose(a["kt"], [0.0335, 0.0335, 0.0335, 0.051, 0.049])
    assert np.isnan(a["coulomb"][0]) and np.allclose(a["coulomb"][1:], [0.065, 0.042, 0.039, 0.313])
    assert a["watchdog"].tolist() == [10, 13, 7, 3, 0.6]
    assert np.allclose(a["max_speed"], [2.685, 2.685, 4.189, 5.9, 5.9])


# --- planar arms and the helpers -------------------------------------------------------------------------


def test_planar3r_links_are_uniform_rods():
    robot = models.planar3r(1.0, 0.8, 0.3, m1=2.0, m2=1.0, m3=0.5, radius=0.01)
    L = robot.links[1]
    assert L.m == 1.0 and np.allclose(L.r, (-0.4, 0, 0))
    assert np.allclose(np.diag(L.I), [0.5e-4, (3e-4 + 0.64) / 12, (3e-4 + 0.64) / 12])
    # about joint 2's axis: m l²/3 (rod about its end) + the rest of the arm, at q = 0
    M = robot.inertia(np.zeros(3))
    I_rods = 1.0 * (3e-4 + 0.64) / 12 + 1.0 * 0.4**2 + 0.5 * (3e-4 + 0.09) / 12 + 0.5 * 0.95**2
    assert np.isclose(M[1, 1], I_rods)


def test_planar2r_keeps_point_masses_at_the_link_ends():
    robot = models.planar2r(1.0, 0.5, 2.0, 3.0)
    assert [L.I for L in robot.links] == [None, None] and [L.m for L in robot.links] == [2.0, 3.0]
    assert np.isclose(robot.inertia(np.zeros(2))[0, 0], 2.0 * 1.0 + 3.0 * 1.5**2)


def test_lump_is_the_parallel_axis_theorem():
    a = inertial.Body(1.0, (0, 0, 0), (1e-3, 1e-3, 1e-3))
    b = inertial.Body(1.0, (0, 0, 0.2), (1e-3, 1e-3, 1e-3))
    c = inertial.lump(a, b)
    assert c.m == 2.0 and np.allclose(c.r, (0, 0, 0.1))
    assert np.allclose(np.diag(c.I), [2e-3 + 2 * 0.01, 2e-3 + 2 * 0.01, 2e-3])
