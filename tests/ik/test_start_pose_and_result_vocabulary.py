"""Issue #19 §5 in armlab.ik: the start pose is ``q0`` (the old ``q_current=`` works for one term with a
DeprecationWarning), and every IK result has ``ok`` and ``reason`` ('' when ok)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import armlab
from armlab import ik

PUMA = armlab.models.puma560()
Q = np.array([0.3, -0.5, 0.4, 0.2, 0.6, -0.1])
T = PUMA.fkine(Q)


@pytest.mark.parametrize(
    "call",
    [
        lambda **kw: PUMA.ikine_all(T, **kw),
        lambda **kw: PUMA.ikine(T, **kw),
        lambda **kw: ik.ikine_all(PUMA, T, **kw),
        lambda **kw: ik.ikine(PUMA, T, **kw),
        lambda **kw: ik.select(ik.ikine_all(PUMA, T), **kw),
        lambda **kw: ik.joint_motion(ik.ikine_all(PUMA, T).q, **kw)[0],
        lambda **kw: ik.planar2r_ikine(1.0, 1.0, **{k: v[:2] for k, v in kw.items()}),
        lambda **kw: ik.planar3r_ikine(1.0, 1.0, 0.3, **{k: v[:3] for k, v in kw.items()}),
    ],
    ids=[
        "robot.ikine_all",
        "robot.ikine",
        "ik.ikine_all",
        "ik.ikine",
        "select",
        "joint_motion",
        "planar2r",
        "planar3r",
    ],
)
def test_old_keyword_q_current_warns_and_gives_the_same_answer_as_q0(call):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        new = call(q0=Q)
    with pytest.warns(DeprecationWarning, match="'q_current' is now 'q0'"):
        old = call(q_current=Q)
    assert np.array_equal(np.asarray(getattr(old, "q", old)), np.asarray(getattr(new, "q", new)))
    with pytest.raises(TypeError, match="both 'q_current'"):
        call(q_current=Q, q0=Q)


def test_q0_picks_the_free_joint_at_the_wrist_singularity():
    """Example 3.3's check pose has s5 = 0: θ4 keeps its value in q0 and θ6 compensates."""
    Ts = PUMA.fkine(np.radians([90, 0, -90, 0, 0, 0]))
    q0 = np.radians([80, 5, -85, 40, 3, 0])
    sols = PUMA.ikine_all(Ts, q0=q0)
    assert sols.singular.any() and np.allclose(sols.q[sols.singular, 3], q0[3])


def test_a_bad_q0_is_refused_naming_q0():
    for bad, err in (
        ([0, 0, 0, 0, 0, 1j], TypeError),
        ([0.0] * 5, ValueError),
        ([0, 0, 0, 0, 0, np.nan], ValueError),
        (["0"] * 6, TypeError),
    ):
        with pytest.raises(err, match="q0"):
            PUMA.ikine_all(T, q0=bad)
        with pytest.raises(err, match="q0"):
            PUMA.ikine(T, q0=bad)
    with pytest.raises(TypeError, match="q0 must be real"):
        ik.planar2r_ikine(0.0, 0.0, q0=[1j, 0])


def test_closed_form_results_have_ok_and_an_empty_reason_when_ok():
    sols = PUMA.ikine_all(T)
    assert sols.ok is True and sols.reason == "" and len(sols) == 8
    best = PUMA.ikine(T, q0=Q)
    assert best.ok and best.reason == "" and np.allclose(best.q[0], Q)
    far = PUMA.ikine_all(armlab.Trans(2.0, 0.0, 0.0))
    assert far.ok is False and "unreachable" in far.reason and "(3.42)" in far.reason


def test_numeric_results_have_ok_and_reason():
    good = PUMA.ikine_numeric(T, q0=np.zeros(6))
    assert good.ok and good.reason == ""
    bad = PUMA.ikine_numeric(armlab.Trans(3.0, 0.0, 0.0), max_iter=20, restarts=1)
    assert not bad.ok and "did not converge" in bad.reason


def test_youbot_missing_branch_is_a_note_not_a_reason():
    """The candle pose is solved (ok) by branches I and II; why θ1ᴵᴵ has none is a note."""
    youbot = armlab.models.youbot()
    sols = youbot.ikine_all(youbot.fkine(np.array([0.0, 0.0, 0.0, np.pi / 2, 0.0])))
    assert sols.ok and sols.reason == "" and "θ1ᴵᴵ" in sols.note and len(sols) == 2
    assert sols.take([0]).note == sols.note


def test_batch_ok_per_pose_and_overall():
    TT = PUMA.fkine(np.stack([Q, Q + 0.1, Q - 0.1]))
    batch = PUMA.ikine_all(TT)
    assert batch.ok and batch.pose_ok.all() and all(batch[i].ok for i in range(3))
    TT[1, :3, 3] = [2.0, 0.0, 0.0]
    batch = PUMA.ikine_all(TT)
    assert not batch.ok and batch.pose_ok.tolist() == [True, False, True]
    assert not batch[1].ok and batch[1].reason.startswith("unreachable") and batch[0].reason == ""
