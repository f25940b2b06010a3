"""ik.puma560.compile_kernels: the joint-range fitting folded into the compiled closed form (only the tests
that can fail for an angle in (−π, π] are kept) equals solver.fit_row, for any joint ranges, ranges lying
wholly beyond ±π included (an angle moves by ±2π only where it then lands inside).

The single kernel runs on ``math`` as fit_row's input does, so the two agree exactly; the batch kernel runs on
numpy, whose vectorised ``arctan2`` may differ from libm's in the last bit (it does on some machines), so the
batch agrees to ``BATCH_ATOL``: a few units in the last place of an angle of up to 2π."""

from __future__ import annotations

import math

import numpy as np

import armlab
from armlab._core.validation import check_pose
from armlab.ik import puma560 as ik_puma
from armlab.ik.solver import fit_row

P = armlab.models.PUMA560
GEOMETRY = (P["a2"], P["a3"], P["d2"], P["d4"], 1e-10)
FLOATS = (math.atan2, math.sqrt, math.cos, math.sin)
NO_FREE = (1.0, 0.0, 1.0, 0.0)
BATCH_ATOL = 8 * np.spacing(2 * np.pi)  # 8 ulp of 2π, 7e-15 rad


def test_fitting_into_any_joint_ranges_equals_fit_row_single_and_batch():
    robot = armlab.models.puma560()
    rng = np.random.default_rng(19)
    unlimited, _ = ik_puma.compile_kernels(*GEOMETRY, [(-math.inf, math.inf, True)] * 6)
    poses = [check_pose(robot.fkine(rng.uniform(-3, 3, 6))) for _ in range(40)]
    cols = np.array(poses).transpose(1, 2, 0).copy()
    moved = 0
    for trial in range(12):
        # ranges below, above, inside and around (−π, π], some wider than 2π, one unlimited joint
        lo = np.radians(rng.uniform(-300, 10, 6))
        hi = lo + np.radians(rng.uniform(20, 420, 6))
        lims = [(float(a), float(b), True) for a, b in zip(lo, hi)]
        lims[trial % 6] = (-math.inf, math.inf, True)
        single, batch = ik_puma.compile_kernels(*GEOMETRY, lims)
        qb, okb, _, _ = batch(cols, *NO_FREE, *ik_puma.NUMPY_OPS)
        for i, rows in enumerate(poses):
            raw = unlimited(rows, *NO_FREE, *FLOATS)[0]
            q, ok, _, _ = single(rows, *NO_FREE, *FLOATS)
            for slot in range(8):
                want, inside = fit_row(raw[6 * slot : 6 * slot + 6], lims)
                assert q[6 * slot : 6 * slot + 6] == want and bool(ok[slot]) == inside
                got = [float(np.broadcast_to(v, (40,))[i]) for v in qb[6 * slot : 6 * slot + 6]]
                np.testing.assert_allclose(got, want, rtol=0, atol=BATCH_ATOL)
                assert bool(np.broadcast_to(okb[slot], (40,))[i]) == inside
                moved += want != raw[6 * slot : 6 * slot + 6]
    assert moved > 50  # the ±2π moves were exercised
