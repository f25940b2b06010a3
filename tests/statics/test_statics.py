"""Statics (armlab.statics): the inward recursion (5-1)–(5-4) equals τ = JᵀF (5-6) equals pinocchio,
wrench transforms against the adjoint and power invariance, inverse statics, load envelope, bad input.

The chapter's worked examples (002 Examples 1–6, textbook Example 3.10) are in tests/sources/test_textbook_ch5.py.
"""

from __future__ import annotations

import numpy as np
import pinocchio as pin
import pytest

import armlab
from armlab import statics
from armlab.transforms import Tinv, twist_transform, wrench_in_frame, wrench_transform
from support import random_inertial, random_q, random_robots, random_transform, to_pin

TOL = 1e-9
RNG = np.random.default_rng(505)
ROBOTS = [random_inertial(RNG, r) for r in random_robots(505, 25)]


def test_recursion_equals_jt_f_in_both_frames_and_pinocchio():
    assert {r.convention for r in ROBOTS} == {"standard", "modified"} and any("P" in r.joint_types for r in ROBOTS)
    rng = np.random.default_rng(1)
    g = np.array([0.0, 0.0, -9.81])
    for robot in ROBOTS:
        model, ee, _ = to_pin(robot)
        model.gravity.linear = g
        data = model.createData()
        for q in random_q(rng, robot, 3):
            F = rng.normal(size=6)
            rec = statics.link_forces(robot, q, F, frame="tool")
            np.testing.assert_allclose(rec.tau, statics.joint_torques(robot, q, F, frame="tool"), atol=TOL)
            np.testing.assert_allclose(rec.tau, robot.jacobe(q).T @ F, atol=TOL)
            Fb = np.concatenate([robot.fkine(q)[:3, :3] @ F[:3], robot.fkine(q)[:3, :3] @ F[3:]])
            np.testing.assert_allclose(statics.link_forces(robot, q, Fb, frame="base").tau, rec.tau, atol=TOL)
            np.testing.assert_array_equal(
                statics.link_forces(robot, q, Fb).tau,  # "base" is the default frame
                statics.link_forces(robot, q, Fb, frame="base").tau,
            )
            np.testing.assert_allclose(statics.joint_torques(robot, q, Fb, frame="base"), rec.tau, atol=TOL)
            assert rec.f.shape == rec.m.shape == (robot.n + 1, 3)
            np.testing.assert_allclose(rec.f[-1], F[:3]) and np.testing.assert_allclose(rec.m[-1], F[3:])
            # with the links' weight: pinocchio's rnea at rest with the reaction −F on the last body
            frame = model.frames[ee]
            fext = [pin.Force.Zero() for _ in range(model.njoints)]
            fext[frame.parentJoint] = frame.placement.act(pin.Force(-F[:3], -F[3:]))
            zero = np.zeros(robot.n)
            np.testing.assert_allclose(
                statics.link_forces(robot, q, F, frame="tool", gravity=g).tau,
                pin.rnea(model, data, q, zero, zero, fext),
                atol=TOL,
            )
            np.testing.assert_allclose(
                statics.gravity_load(robot, q, gravity=g), pin.computeGeneralizedGravity(model, data, q), atol=TOL
            )


def test_each_link_step_balances_forces_and_moments():
    """(5-1) link by link: what link i−1 exerts on link i balances what link i+1 pushes back and the weight."""
    robot = armlab.models.puma560()
    robot = armlab.DHRobot(
        [armlab.DHLink(a=L.a, alpha=L.alpha, d=L.d, m=2.0, r=(0.05, 0.02, -0.03)) for L in robot.links],
        convention="modified",
    )
    q, F, g = (
        np.radians([10, -30, -50, 20, 40, 60]),
        np.array([3.0, -2.0, 5.0, 0.1, 0.2, -0.3]),
        np.array([0, 0, -9.81]),
    )
    res = statics.link_forces(robot, q, F, frame="tool", gravity=g)
    frames = robot.fkine_all(q)
    for i in range(robot.n):
        Ri = frames[i + 1][:3, :3]
        T_next = robot.link_transform(i + 2, q[i + 1]) if i + 1 < robot.n else np.eye(4)
        R_next, P_next = T_next[:3, :3], T_next[:3, 3]
        G = Ri.T @ (robot.links[i].m * g)
        f_next, m_next = R_next @ res.f[i + 1], R_next @ res.m[i + 1]
        np.testing.assert_allclose(res.f[i], f_next - G, atol=1e-12)
        np.testing.assert_allclose(
            res.m[i], m_next + np.cross(P_next, f_next) - np.cross(robot.links[i].r, G), atol=1e-12
        )
        assert np.isclose(res.tau[i], res.m[i][2])  # (5-3)


def test_wrench_transform_is_the_transposed_inverse_adjoint_and_keeps_power():
    rng = np.random.default_rng(2)
    for _ in range(50):
        T = random_transform(rng, scale=2.0)
        w, v = rng.normal(size=(2, 6))
        np.testing.assert_allclose(wrench_transform(T), twist_transform(Tinv(T)).T, atol=1e-12)
        assert np.isclose(wrench_transform(T, w) @ (twist_transform(T) @ v), w @ v)
        np.testing.assert_allclose(wrench_in_frame(T, wrench_transform(T, w)), w, atol=1e-12)


def test_free_force_pure_torque_and_moment_of_a_force():
    T = armlab.Trans(0.0, 0.0, 1.0)  # {B} one metre above {A}
    np.testing.assert_allclose(wrench_transform(T, [0, 0, 0, 0, 0, 2.0]), [0, 0, 0, 0, 0, 2.0])  # a torque only rotates
    np.testing.assert_allclose(wrench_transform(T, [3.0, 0, 0, 0, 0, 0]), [3.0, 0, 0, 0, 3.0, 0])  # p × f = (0,3,0)
    np.testing.assert_allclose(
        wrench_transform(armlab.Rot("z", np.pi / 2), [3.0, 0, 0, 0, 0, 0]), [0, 3.0, 0, 0, 0, 0], atol=1e-15
    )


def test_inverse_statics_cases_ok_only_for_the_one_wrench_that_holds_tau():
    puma = armlab.models.puma560()
    q = np.radians([20, -30, -50, 10, 30, 50])
    F = np.random.default_rng(3).normal(size=6)
    res = statics.inverse_statics(puma, q, puma.jacob0(q).T @ F)
    assert res.method == "exact" and np.allclose(res.wrench, F) and res.residual < 1e-9
    assert res.ok is True and res.reason == ""  # the one wrench: ok, and nothing to explain
    # 7 joints: the book's (JJᵀ)⁻¹Jτ is the least-squares solution
    robot7 = random_robots(9, 1, conventions=("standard",), n_range=(7, 7), prismatic_prob=0.0)[0]
    q7 = random_q(np.random.default_rng(4), robot7, 1)[0]
    tau7 = np.random.default_rng(5).normal(size=7)
    res = statics.inverse_statics(robot7, q7, tau7)
    assert res.method == "least-squares"
    np.testing.assert_allclose(res.wrench, np.linalg.lstsq(robot7.jacob0(q7).T, tau7, rcond=None)[0], atol=1e-9)
    assert not res.ok and "no exact solution" in res.reason and f"{res.residual:.3g}" in res.reason
    held = statics.inverse_statics(robot7, q7, robot7.jacob0(q7).T @ F)  # torques some wrench gives: that one
    assert held.method == "least-squares" and held.ok and held.reason == "" and np.allclose(held.wrench, F)
    # singular: reported, no crash, no NaN
    qs = q.copy()
    qs[4] = 0.0
    res = statics.inverse_statics(puma, qs, np.ones(6))
    assert res.method == "min-norm" and "singular" in res.reason and np.isfinite(res.wrench).all()
    assert not res.ok and "exactly" not in res.reason  # θ5 = 0: axes 4 and 6 coincide, τ4 = τ6 is held, many ways
    res = statics.inverse_statics(puma, qs, [1.0, 1.0, 1.0, 1.0, 1.0, 2.0])  # τ4 ≠ τ6: held by no wrench
    assert not res.ok and "no wrench gives them exactly" in res.reason and res.residual > 0.1
    # fewer joints than wrench components
    res = statics.inverse_statics(armlab.models.planar2r(), [0.3, 0.8], [1.0, 0.5])
    assert res.method == "min-norm" and "only 2 joints" in res.reason and res.residual < 1e-9
    assert not res.ok and "exactly" not in res.reason  # many wrenches hold these torques: F is one of them


def test_max_payload_and_tip_force_meet_the_limit_exactly():
    arm = random_inertial(np.random.default_rng(6), armlab.models.planar3r())
    arm = arm.replace(base=armlab.Rot("x", np.pi / 2))  # the arm's plane vertical
    q, tau_max = np.array([0.3, 0.5, -0.4]), np.array([200.0, 100.0, 40.0])
    assert statics.max_payload(arm, q, tau_max / 10) == 0.0  # cannot even hold itself
    m = statics.max_payload(arm, q, tau_max)
    tau = statics.gravity_load(arm, q) + arm.jacob0(q)[:3].T @ (m * np.array([0, 0, 9.81]))
    assert np.isclose(np.abs(tau / tau_max).max(), 1.0)
    s = statics.max_tip_force(arm, q, [1.0, 0, 0], tau_max)
    assert np.isclose(np.abs(arm.jacob0(q)[:3].T @ [s, 0, 0] / tau_max).max(), 1.0)
    Q = np.array([q, q + 0.1])
    assert statics.max_payload(arm, Q, tau_max).shape == (2,)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda r: statics.link_forces(r, np.zeros(6), np.zeros(5)), r"wrench must have shape"),
        (lambda r: statics.joint_torques(r, np.zeros(6), [0, 0, np.nan, 0, 0, 0]), "NaN or infinity"),
        (lambda r: statics.joint_torques(r, np.zeros(6), np.zeros(6), frame="world"), "frame must be 'base' or 'tool'"),
        (lambda r: statics.inverse_statics(r, np.zeros(6), np.zeros(6), frame="flange"), "frame must be"),
        (lambda r: statics.max_payload(r, np.zeros(6), [1, 1, 1, 1, 1, 0]), "tau_max must be positive"),
        (lambda r: wrench_transform(np.eye(4), [1, 2, 3]), r"wrench_B must have shape"),
    ],
)
def test_bad_input_gets_a_clear_error(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call(armlab.models.puma560())


def test_compiled_link_forces_equal_the_scalar_recursion_row_by_row():
    """link_forces runs traced straight-line code; every row equals rne_steps run on plain numbers."""
    from armlab.dynamics.rne import rne_steps
    from armlab.kinematics.scalar import NumpyBackend

    rng = np.random.default_rng(7)
    for robot in ROBOTS[:10]:
        q, F = random_q(rng, robot, 1)[0], rng.normal(size=6)
        Fb = np.concatenate([robot.fkine(q)[:3, :3] @ F[:3], robot.fkine(q)[:3, :3] @ F[3:]])
        for g in (np.array([0.3, -0.2, -9.81]), None):
            zero = [0] * robot.n
            tau, steps = rne_steps(
                robot, list(q), zero, zero, [0, 0, 0] if g is None else list(g), list(F), NumpyBackend
            )
            for frame, w in (("tool", F), ("base", Fb)):
                res = statics.link_forces(robot, q, w, frame=frame, gravity=g)
                np.testing.assert_allclose(res.tau, np.array(tau, float), atol=TOL)
                np.testing.assert_allclose(res.f, np.array([s["f"] for s in steps] + [F[:3]], float), atol=TOL)
                np.testing.assert_allclose(res.m, np.array([s["n"] for s in steps] + [F[3:]], float), atol=TOL)
