"""The simulation paper's 3-R arm (003): model, FK of the start/pick/place poses, the IK by norm
equations with 4 labelled solutions, and the optimal choice of eq. (12) (Table 2)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from armlab.ik import PAPER_WEIGHTS
from armlab.models import PAPER_3R, paper_3r

ARM = paper_3r()
DEG = np.pi / 180


def test_section_5_3_start_pick_and_place_poses():
    np.testing.assert_allclose(ARM.fkine([0, 0, 0])[:3, 3], PAPER_3R["start_tip"], atol=1e-12)
    np.testing.assert_allclose(ARM.fkine(np.radians([0, 90, 90]))[:3, 3], PAPER_3R["pick"], atol=1e-12)
    np.testing.assert_allclose(ARM.fkine(np.radians([45, 45, 90]))[:3, 3], PAPER_3R["place"], atol=1e-12)


def test_table_2_optimal_solutions_by_eq_12():
    """From the start (q = 0) the optimum for the pick is (0°, 90°, 90°); from there, the place is
    (45°, 45°, 90°) — the joint motion §5.3 narrates (θ2, θ3 0°→90°; then θ1 0°→45°, θ2 90°→45°)."""
    pick = ARM.ikine(np.array(PAPER_3R["pick"]), q0=np.zeros(3), weights=PAPER_WEIGHTS)
    np.testing.assert_allclose(pick.q[0] / DEG, [0, 90, 90], atol=1e-9)
    assert pick.labels == ["front-up"]
    place = ARM.ikine(np.array(PAPER_3R["place"]), q0=pick.q[0], weights=PAPER_WEIGHTS)
    np.testing.assert_allclose(place.q[0] / DEG, [45, 45, 90], atol=1e-9)
    assert np.isclose(place.cost, 3 * 45 * DEG + 2 * 45 * DEG)


def test_four_labelled_solutions_and_their_geometry():
    sols = ARM.ikine_all(np.array(PAPER_3R["pick"]))
    assert sols.labels == ["front-up", "front-down", "back-up", "back-down"]
    np.testing.assert_allclose(sols.q / DEG, [[0, 90, 90], [0, 180, -90], [180, -90, -90], [180, 180, 90]], atol=1e-9)
    for q in sols.q:  # the elbow of an "up" solution is above the shoulder-to-target line
        elbow = ARM.fkine_all(q)[2][:3, 3]
        assert (elbow[2] > 0.5) == ("up" in sols.labels[list(map(tuple, sols.q)).index(tuple(q))])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-np.pi, np.pi), min_size=3, max_size=3))
def test_ik_round_trip(q):
    p = ARM.fkine(q)[:3, 3]
    sols = ARM.ikine_all(p, q0=q)  # on the base axis θ1 is free and keeps its current value
    assert len(set(sols.labels)) == len(sols) == 4
    for r in sols.q:
        np.testing.assert_allclose(ARM.fkine(r)[:3, 3], p, atol=1e-9)
    # √ε ≈ 2e-8 at the workspace boundary, where the two elbow roots coincide
    assert min(np.abs(np.angle(np.exp(1j * (r - np.array(q))))).max() for r in sols.q) < 1e-7


def test_a_pose_and_a_batch_of_points_work_too():
    T = ARM.fkine(np.radians([10, 20, 30]))
    assert len(ARM.ikine_all(T)) == 4
    batch = ARM.ikine_all(np.array([PAPER_3R["pick"], PAPER_3R["place"]]))
    assert batch.q.shape == (2, 4, 3) and batch.valid.all()


def test_unreachable_and_on_axis_targets():
    far = ARM.ikine_all(np.array([3.0, 0.0, 0.0]))
    assert len(far) == 0 and "farther than" in far.reason
    top = ARM.ikine_all(np.array([0.0, 0.0, 3.0]), q0=np.radians([30, 0, 0]))
    assert top.singular.all() and np.isclose(top.q[0, 0], 30 * DEG)


def test_mass_properties_are_the_papers():
    assert [link.m for link in ARM.links] == [2.0, 2.0, 2.0]
    # holding the arm stretched horizontally toward the pick: joint 2 carries both outer links
    tau = ARM.gravload(np.radians([0, 90, 0]), (0, 0, -9.8))
    assert np.isclose(abs(tau[1]), 9.8 * (2.0 * 0.5 + 2.0 * 1.5))
    with pytest.raises(ValueError, match="point contains NaN"):
        ARM.ikine_all(np.array([1.0, np.nan, 0.0]))
