"""Issue #19 §1: a robot is an immutable description, and everything compiled from it follows it.

A student's in-place edit (``r.links[0].a = 5.0``) raises with the way to do it; every way of making a
changed robot (``replace``, ``replace_link``, ``link.replace`` + ``replace(links=…)``, building from
scratch) gives answers for the new geometry from fkine, jacob0, ikine_all, rne, statics and lagrange;
and the one kernel cache (``_core.codegen.cached_kernel``) is keyed on the description.
"""

from __future__ import annotations

import copy
import gc
import math
import pickle
from types import SimpleNamespace

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st

import armlab
from armlab import DHLink, DHRobot, dynamics, models, statics
from armlab._core import codegen
from armlab._core.codegen import cached_kernel, cached_kernels
from armlab._core.protocol import RobotLike
from armlab.control.model_error import perturbed
from armlab.kinematics.links import ImmutableError
from armlab.sim.payload import with_payload
from support import random_dh_robot, random_inertial, random_q

Q6 = np.array([0.3, -0.7, 0.4, 0.9, -0.5, 1.1])
A2_NEW = 0.5  # the PUMA560's a2 (link 3, index 2: 0.4318 m) edited


# --- independent references: no compiled kernel, no cache --------------------------------------
def fk_reference(robot, q):
    """base · ∏ link_transform(i, q_i) · tool, one numpy link matrix at a time (eq. (3.24) / (2.6))."""
    T = np.eye(4) if robot.base is None else np.asarray(robot.base, dtype=float)
    for i, qi in enumerate(q, start=1):
        T = T @ robot.link_transform(i, qi)
    return T if robot.tool is None else T @ np.asarray(robot.tool, dtype=float)


def jacobian_reference(robot, q, h=1e-6):
    """The geometric Jacobian by central differences of :func:`fk_reference`: v = ṗ, [ω]× = Ṙ·Rᵀ."""
    R = fk_reference(robot, q)[:3, :3]
    cols = []
    for e in np.eye(robot.n):
        Tp, Tm = fk_reference(robot, q + h * e), fk_reference(robot, q - h * e)
        W = (Tp[:3, :3] - Tm[:3, :3]) / (2 * h) @ R.T
        cols.append(np.r_[(Tp[:3, 3] - Tm[:3, 3]) / (2 * h), W[2, 1], W[0, 2], W[1, 0]])
    return np.array(cols).T


def rne_reference(robot, q, qd, qdd):
    """τ from the same recursion run on sympy numbers: the uncompiled path."""
    tau = dynamics.rne(robot, *([sp.Float(x) for x in v] for v in (q, qd, qdd)))
    return np.array(tau, dtype=float).ravel()


# --- the ways to make a changed robot ------------------------------------------------------------
def puma_table_with_a2(a2):
    """The PUMA560 built from scratch: Table 3.2 with a2 replaced, the model's limits, masses and tool."""
    ref = models.puma560()
    links = [
        DHLink(alpha=L.alpha, a=a2 if k == 2 else L.a, d=L.d, qlim=L.qlim, m=L.m, r=L.r, I=L.I)
        for k, L in enumerate(ref.links)
    ]
    return DHRobot(links, "modified", name="PUMA560 from scratch")


EDITS = {
    "replace_link": lambda r: r.replace_link(2, a=A2_NEW),
    "replace_link with a new link": lambda r: r.replace_link(2, r.links[2].replace(a=A2_NEW)),
    "link.replace + replace(links=...)": lambda r: r.replace(
        links=[L.replace(a=A2_NEW) if k == 2 else L for k, L in enumerate(r.links)]
    ),
    "replace_link(-4, ...)": lambda r: r.replace_link(-4, a=A2_NEW),
    "from scratch": lambda r: puma_table_with_a2(A2_NEW),
}


def prime(robot):
    """Compile (and cache) everything the tests read for this robot."""
    q = Q6[: robot.n]
    robot.fkine(q), robot.jacob0(q), robot.rne(q, q, q), robot.gravload(q)
    statics.link_forces(robot, q, np.ones(6), frame="tool", gravity=(0, 0, -9.81))
    if robot.n == 6:
        robot.ikine_all(robot.fkine(q))


@pytest.mark.parametrize("how", sorted(EDITS))
def test_every_edit_path_answers_for_the_new_geometry(how):
    original = models.puma560()
    prime(original)  # the original's kernels exist before the edit: an edited robot must not reuse them
    edited = EDITS[how](original)
    q, qd, qdd = Q6, 0.5 * Q6, -Q6
    assert edited.links[2].a == A2_NEW and original.links[2].a == models.PUMA560["a2"]

    # fkine, fkine_all and jacob0: the new table's, and not the old one's
    T = edited.fkine(q)
    np.testing.assert_allclose(T, fk_reference(edited, q), atol=1e-12)
    assert not np.allclose(T, original.fkine(q))
    np.testing.assert_allclose(edited.fkine_all(q)[-1], fk_reference(edited, q), atol=1e-12)
    np.testing.assert_allclose(edited.jacob0(q), jacobian_reference(edited, q), atol=1e-7)

    # ikine_all (the PUMA closed form (3.33)-(3.53)): 8 solutions, each reaching T on the new arm
    sols = edited.ikine_all(T)
    assert len(sols) == 8
    for qs in sols.q:
        np.testing.assert_allclose(fk_reference(edited, qs), T, atol=1e-9)
    assert min(np.abs(qs - q).max() for qs in sols.q) < 1e-9

    # rne, and statics' gravity load, link forces and JᵀF
    tau = edited.rne(q, qd, qdd)
    np.testing.assert_allclose(tau, rne_reference(edited, q, qd, qdd), atol=1e-9)
    assert not np.allclose(tau, original.rne(q, qd, qdd))
    g_ref = rne_reference(edited, q, 0 * q, 0 * q)
    np.testing.assert_allclose(statics.gravity_load(edited, q), g_ref, atol=1e-9)
    np.testing.assert_allclose(edited.gravload(q), g_ref, atol=1e-9)
    F = np.array([1.0, -2.0, 3.0, 0.1, -0.2, 0.3])
    np.testing.assert_allclose(statics.joint_torques(edited, q, F), jacobian_reference(edited, q).T @ F, atol=1e-6)
    forces = statics.link_forces(edited, q, F, frame="tool", gravity=(0, 0, -9.81))
    symbolic = statics.link_forces(edited, [sp.Float(x) for x in q], F, frame="tool", gravity=(0, 0, -9.81))
    np.testing.assert_allclose(forces.tau, np.array(symbolic.tau, dtype=float).ravel(), atol=1e-9)


@pytest.mark.parametrize("how", ["replace_link", "link.replace + replace(links=...)", "from scratch"])
def test_lagrange_answers_for_the_new_geometry(how):
    """dynamics.lagrange (textbook (3.111)-(3.132)) of an edited planar 2R arm equals RNE of that arm."""
    arm = models.planar2r()
    g = (0.0, -9.81, 0.0)
    dynamics.lagrange(arm, gravity=g)  # the original's model is built and cached first
    edited = {
        "replace_link": lambda: arm.replace_link(0, a=1.5, m=2.0),
        "link.replace + replace(links=...)": lambda: arm.replace(
            links=(arm.links[0].replace(a=1.5, m=2.0), arm.links[1])
        ),
        "from scratch": lambda: models.planar2r(l1=1.5, m1=2.0),
    }[how]()
    q, qd, qdd = np.array([0.4, -0.9]), np.array([0.3, 0.7]), np.array([-1.0, 0.5])
    tau = dynamics.lagrange(edited, gravity=g).tau_fn(q, qd, qdd)
    np.testing.assert_allclose(tau, dynamics.rne(edited, q, qd, qdd, gravity=g), atol=1e-9)
    assert not np.allclose(tau, dynamics.lagrange(arm, gravity=g).tau_fn(q, qd, qdd))


# --- hypothesis: edited == built from scratch ----------------------------------------------------
FIELD_VALUES = {
    "a": st.floats(-0.8, 0.8),
    "alpha": st.floats(-math.pi, math.pi),
    "d": st.floats(-0.8, 0.8),
    "offset": st.floats(-math.pi, math.pi),
    "m": st.floats(0.1, 5.0),
}


def from_scratch(robot, index, field, value):
    """The same robot typed in again, link by link, with one field of one link changed."""
    links = []
    for k, L in enumerate(robot.links):
        values = dict(
            a=L.a,
            alpha=L.alpha,
            d=L.d,
            theta=L.theta,
            offset=L.offset,
            joint=L.joint,
            qlim=L.qlim,
            m=L.m,
            r=tuple(L.r),
            I=None if L.I is None else np.array(L.I),
        )
        if k == index:
            values[field] = value
        links.append(DHLink(**values))
    base = None if robot.base is None else np.array(robot.base)
    tool = None if robot.tool is None else np.array(robot.tool)
    return DHRobot(links, robot.convention, base=base, tool=tool, name="typed in")


@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["standard", "modified"]), st.integers(1, 6), st.data())
def test_an_edited_robot_equals_the_same_robot_built_from_scratch(seed, convention, n, data):
    rng = np.random.default_rng(seed)
    robot = random_inertial(rng, random_dh_robot(rng, n, convention, with_base_tool=bool(seed % 2)))
    index = data.draw(st.integers(0, n - 1), label="link")
    field = data.draw(st.sampled_from(sorted(FIELD_VALUES)), label="field")
    value = data.draw(FIELD_VALUES[field], label="value")
    Q = random_q(rng, robot, 4)
    qd, qdd = rng.uniform(-1, 1, (2, 4, n))
    prime_all = (robot.fkine(Q), robot.jacob0(Q), robot.rne(Q, qd, qdd), robot.inertia(Q))  # noqa: F841

    edited = robot.replace_link(index, **{field: value})
    typed = from_scratch(robot, index, field, value)
    assert edited == typed.replace(name=edited.name) and edited.links[index] == typed.links[index]
    for name, f in (
        ("fkine", lambda r: r.fkine(Q)),
        ("fkine_all", lambda r: r.fkine_all(Q)),
        ("jacob0", lambda r: r.jacob0(Q)),
        ("rne", lambda r: r.rne(Q, qd, qdd)),
        ("inertia", lambda r: r.inertia(Q)),
        ("gravload", lambda r: r.gravload(Q)),
    ):
        np.testing.assert_allclose(f(edited), f(typed), rtol=0, atol=1e-12, err_msg=name)
    for q in Q:  # and both are the new table, not the old one's kernels
        np.testing.assert_allclose(edited.fkine(q), fk_reference(typed, q), atol=1e-12)


# --- mutation raises, with the way to do it ------------------------------------------------------
def test_issue_19_snippet_raises_with_the_helpful_message():
    from armlab.models import planar2r

    r = planar2r()
    with pytest.raises(AttributeError, match=r"robots are immutable: use r = r\.replace_link\(0, a=5\.0\)"):
        r.links[0].a = 5.0  # a student edits a link, as a DH exercise invites
    np.testing.assert_allclose(r.fkine([0, 0])[:3, 3], [2, 0, 0])
    r = r.replace_link(0, a=5.0)  # what the message says
    np.testing.assert_allclose(r.fkine([0, 0])[:3, 3], [6, 0, 0])


def test_editing_a_link_in_place_raises_and_names_replace():
    link = models.planar2r().links[0]
    with pytest.raises(dataclasses_frozen(), match=r"robot\.replace_link\(i, a=5\.0\).*link\.replace\(a=5\.0\)"):
        link.a = 5.0
    arm = models.planar2r()
    with pytest.raises(ImmutableError, match=r"use arm = arm\.replace_link\(-1, m=3\.0\)"):
        arm.links[-1].m += 2.0
    with pytest.raises(ImmutableError, match=r"link\.replace\(d=\.\.\.\)"):
        del link.d
    with pytest.raises(ValueError, match="read-only"):
        models.planar3r().links[0].I[0, 0] = 1.0
    assert link.a == 1.0


def dataclasses_frozen():
    import dataclasses

    return dataclasses.FrozenInstanceError


@pytest.mark.parametrize(
    "attr, value", [("links", ()), ("base", np.eye(4)), ("tool", np.eye(4)), ("name", "x"), ("convention", "modified")]
)
def test_setting_a_robot_attribute_raises_and_names_replace(attr, value):
    r = models.planar2r()
    with pytest.raises(AttributeError, match=rf"robots are immutable: use robot = robot\.replace\({attr}=\.\.\.\)"):
        setattr(r, attr, value)
    with pytest.raises(AttributeError, match="robots are immutable"):
        delattr(r, attr)
    with pytest.raises(AttributeError, match="robots are immutable"):
        r.anything_else = 1


def test_links_is_a_tuple_whose_list_edits_name_replace():
    r = models.planar2r()
    assert isinstance(r.links, tuple)
    with pytest.raises(TypeError, match=r"robots are immutable: robot\.links is a tuple; use robot\.replace_link\(0"):
        r.links[0] = DHLink(a=5.0)
    with pytest.raises(TypeError, match=r"robot\.replace\(links="):
        del r.links[0]
    for method in ("append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse"):
        with pytest.raises(AttributeError, match=rf"has no {method}\(\); use robot\.replace\(links="):
            getattr(r.links, method)
    assert not hasattr(r.links, "append") and r.links.count(r.links[0]) == 2  # tuple methods work; equal links
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        r.links.nonsense  # noqa: B018
    assert r.n == 2 and r.fkine([0, 0])[0, 3] == 2.0


def test_base_tool_and_inertia_are_read_only_copies():
    base, I = armlab.Trans(0, 0, 0.5), np.diag([0.1, 0.2, 0.25])
    r = DHRobot([DHLink(a=1.0, m=1.0, I=I)], base=base, tool=base)
    for arr in (r.base, r.tool, r.links[0].I):
        with pytest.raises(ValueError, match="read-only"):
            arr[0, 0] = 2.0
    base[2, 3] = 9.0  # the caller's arrays are copied, and stay theirs to change
    I[0, 0] = 0.3
    assert r.base[2, 3] == 0.5 and r.links[0].I[0, 0] == 0.1
    assert r.fkine([0.0])[2, 3] == 1.0


def test_replace_keeps_what_it_is_not_given_and_checks_what_it_is():
    r = models.puma560(flange=True)
    moved = r.replace(base=armlab.Trans(1, 0, 0))
    assert np.array_equal(moved.tool, r.tool) and moved.links == r.links and moved.name == r.name
    np.testing.assert_allclose(moved.fkine(Q6), armlab.Trans(1, 0, 0) @ r.fkine(Q6), atol=1e-12)
    np.testing.assert_allclose(r.replace(tool=None).fkine(Q6), models.puma560().fkine(Q6), atol=1e-12)
    with pytest.raises(ValueError, match="base"):
        r.replace(base=np.ones((4, 4)))
    with pytest.raises(TypeError, match="DHLink has no field 'length'"):
        r.replace_link(0, length=1.0)
    with pytest.raises(ValueError, match="joint must be"):
        r.replace_link(0, joint="X")
    with pytest.raises(IndexError, match="from 0 to 5"):
        r.replace_link(6, a=1.0)
    with pytest.raises(TypeError, match="link index"):
        r.replace_link(1.0, a=1.0)
    with pytest.raises(TypeError, match="not both"):
        r.replace_link(0, DHLink(), a=1.0)


def test_pickle_and_copy_give_an_equal_working_robot():
    r = models.youbot()
    for other in (pickle.loads(pickle.dumps(r)), copy.deepcopy(r), copy.copy(r)):
        assert other == r and hash(other) == hash(r) and other.links[0].I.flags.writeable is False
        np.testing.assert_allclose(other.fkine(Q6[:5]), r.fkine(Q6[:5]))
    assert r != r.replace(name="another") and r != r.replace_link(0, a=0.04)


def test_joint_values_go_through_the_one_validator():
    r = models.planar2r()
    with pytest.raises(TypeError, match="q must be real numbers"):
        r.fkine([1j, 0])
    with pytest.raises(ValueError, match=r"q must have 2 joint values \(shape \(\.\.\., 2\)\), got shape \(3,\)"):
        r.within_limits([0, 0, 0])
    with pytest.raises(TypeError, match="q must be"):
        r.fkine(["a", 0])


def test_payload_and_model_error_are_new_robots_and_leave_the_original():
    arm = models.paper_3r()
    tau = arm.gravload(Q6[:3])
    heavy = with_payload(arm, 1.0)
    wrong = perturbed(arm, 0.2, seed=3)
    assert heavy.links[-1].m == arm.links[-1].m + 1.0 and heavy.links[:-1] == arm.links[:-1]
    assert [L.a for L in wrong.links] == [L.a for L in arm.links] and wrong.links != arm.links
    assert not np.allclose(heavy.gravload(Q6[:3]), tau) and not np.allclose(wrong.gravload(Q6[:3]), tau)
    np.testing.assert_allclose(arm.gravload(Q6[:3]), tau)


# --- the one kernel cache ------------------------------------------------------------------------
def test_equal_descriptions_share_kernels_and_an_edited_one_does_not():
    a, b = models.puma560(), models.puma560()
    assert a is not b and a == b and a.description_key == b.description_key
    assert cached_kernels(a)["kinematics.chain"] is cached_kernels(b)["kinematics.chain"]
    assert a._fk is b._fk
    a.ikine_all(a.fkine(Q6))
    assert cached_kernels(b)["ik.solver"] is cached_kernels(a)["ik.solver"]  # b's IK is a's: nothing rebuilt

    renamed = a.replace(name="my PUMA")  # the name is not part of the description: same kernels
    assert cached_kernels(renamed)["kinematics.chain"] is cached_kernels(a)["kinematics.chain"]

    edited = a.replace_link(2, a=0.4321)  # a value no other test builds
    assert edited.description_key != a.description_key
    assert cached_kernels(edited)["kinematics.chain"] is not cached_kernels(a)["kinematics.chain"]
    assert "ik.solver" not in cached_kernels(edited)
    assert edited.replace_link(2, a=a.links[2].a)._fk is a._fk  # edited back: the original's kernels again

    limits = a.replace_link(0, qlim=(-1.0, 1.0))  # limits, masses and inertia are part of the description
    heavier = a.replace_link(5, m=1.0)
    assert len({a.description_key, limits.description_key, heavier.description_key}) == 3


def test_cached_kernel_builds_once_per_description():
    calls = []

    def build(robot):
        calls.append(robot)
        return object()

    a, b = models.planar3r(), models.planar3r()
    assert cached_kernel(a, ("tests.count", 1), build) is cached_kernel(b, ("tests.count", 1), build)
    assert len(calls) == 1
    cached_kernel(a.replace_link(1, d=0.1), ("tests.count", 1), build)
    assert len(calls) == 2


def test_a_mutable_robot_like_object_is_described_afresh_on_every_call():
    """Objects other than DHRobot may change: the cache keys them on what they are now, not on their id."""
    calls = []

    def build(robot):
        calls.append(1)
        return robot.links[0].a

    fake = SimpleNamespace(convention="standard", links=[DHLink(a=1.0)], base=None, tool=None)
    assert cached_kernel(fake, "tests.fake", build) == 1.0
    fake.links = [DHLink(a=2.0)]
    assert cached_kernel(fake, "tests.fake", build) == 2.0
    assert len(calls) == 2


def test_the_cache_is_bounded():
    """Robots that are gone leave at most RECENT_DESCRIPTIONS descriptions behind."""
    gc.collect()
    before = len(codegen._LIVE)
    for k in range(3 * codegen.RECENT_DESCRIPTIONS):
        models.planar2r(l1=1.0 + k / 100).fkine([0.1, 0.2])
    gc.collect()
    assert len(codegen._RECENT) <= codegen.RECENT_DESCRIPTIONS
    assert len(codegen._LIVE) <= before + codegen.RECENT_DESCRIPTIONS


def test_a_dhrobot_is_robot_like():
    r = models.puma560()
    assert isinstance(r, RobotLike) and all(isinstance(link, DHLink) for link in r.links)
