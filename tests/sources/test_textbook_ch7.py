"""Lab report (sources/001) §2.2.2–§3, the youBot model: every equation the chapter uses, recomputed, and its errata."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

import armlab
from armlab import dynamics
from armlab.dynamics import params as P
from support import random_inertial, random_q, random_robots

YOUBOT = armlab.models.youbot()
RNG = np.random.default_rng(2025)


@pytest.fixture(scope="module")
def symbolic_youbot():
    return dynamics.symbolic_regressor(YOUBOT)


def _link_jacobians(robot, q):
    """J_vi (origin of frame i) and J_ωi in the base frame, (2.38)–(2.45) for standard DH."""
    F = robot.fkine_all(q)
    out = []
    for i in range(1, robot.n + 1):
        Jv, Jw = np.zeros((3, robot.n)), np.zeros((3, robot.n))
        for k in range(i):
            z, o = F[k][:3, 2], F[k][:3, 3]
            Jv[:, k], Jw[:, k] = np.cross(z, F[i][:3, 3] - o), z
        out.append((Jv, Jw, F[i][:3, :3]))
    return out


def test_eq_2_47_lagrangian_terms_of_link_5(symbolic_youbot):
    """L_{5,5..10} are ½ω_x², ½ω_y², ½ω_z², ω_xω_y, ω_xω_z, ω_yω_z of ω_5 in frame 5 (2.35), (2.42)."""
    m = symbolic_youbot
    q = RNG.uniform(-1, 1, 5)
    qd = RNG.normal(size=5)
    Jv, Jw, R = _link_jacobians(YOUBOT, q)[4]
    w = R.T @ Jw @ qd
    v = R.T @ Jv @ qd
    subs = dict(zip(m.q + m.qd, np.r_[q, qd]))
    L = [float(m.L(5, k).xreplace(subs)) for k in range(1, 11)]
    np.testing.assert_allclose(
        L[4:], [w[0] ** 2 / 2, w[1] ** 2 / 2, w[2] ** 2 / 2, w[0] * w[1], w[0] * w[2], w[1] * w[2]], atol=1e-12
    )
    g5 = R.T @ np.array(dynamics.GRAVITY)
    np.testing.assert_allclose(L[1:4], np.cross(v, w) + g5, atol=1e-12)


def test_eq_2_51_2_55_xi_is_block_upper_triangular_symbolically(symbolic_youbot):
    """𝓛_j{L_{i,k}} = 0 for j > i comes out of the derivation as exact zeros, before any number."""
    S = symbolic_youbot.structure()
    for j in range(5):
        assert not S[j, : 10 * j].any()
        assert S[j, 10 * j :].any()


def test_eq_2_53_2_56_symbolic_xi_equals_numeric_regressor_and_rne(symbolic_youbot):
    q, qd, qdd = random_q(RNG, YOUBOT, 20), RNG.normal(size=(20, 5)), RNG.normal(size=(20, 5))
    np.testing.assert_allclose(symbolic_youbot.xi_fn(q, qd, qdd), P.regressor(YOUBOT, q, qd, qdd), atol=1e-10)
    chi = P.dynamic_params(YOUBOT)
    np.testing.assert_allclose(symbolic_youbot.tau_fn(q, qd, qdd, chi), YOUBOT.rne(q, qd, qdd), atol=1e-10)


def test_symbolic_regressor_is_fast_and_compact():
    """All 50 parameters as symbols: built in seconds, τ = ξχ a program of ≤ 3000 operations."""
    robot = armlab.models.youbot()  # a fresh robot: no cached model
    model = dynamics.symbolic_regressor(robot)
    assert model.build_time < 10
    assert model.operations("tau") <= 3000
    reps, outs = model.cse("tau")
    used = set().union(*(e.free_symbols for _, e in reps), *(o.free_symbols for o in outs)) & set(model.chi)
    live = {s for s, col in zip(model.chi, model.structure().any(axis=0)) if col}
    assert live <= used and len(live) == 43  # link 1 turns about the vertical only: 7 of its 10 never act


def test_symbolic_regressor_of_random_arms_both_conventions():
    rng = np.random.default_rng(9)
    for robot in [random_inertial(rng, r) for r in random_robots(9, 4, n_range=(1, 4))]:
        model = dynamics.symbolic_regressor(robot)
        q, qd, qdd = random_q(rng, robot, 5), rng.normal(size=(5, robot.n)), rng.normal(size=(5, robot.n))
        np.testing.assert_allclose(model.xi_fn(q, qd, qdd), P.regressor(robot, q, qd, qdd), atol=1e-9)


def test_eq_2_56_one_row_of_xi_for_the_last_link(symbolic_youbot):
    """ξ_{5,5}: the wrist joint sees link 5's inertias about its own axis z_4 = y_5 (α5 = 0: z_4 = z_5)."""
    row = symbolic_youbot.xi(5, 5)
    assert row.shape == (1, 10)
    # Izz5's entry is q̈_5 plus nothing else at rest (the axis is z5)
    at_rest = {s: 0 for s in symbolic_youbot.qd}
    assert (
        sp.simplify(row[0, 6].xreplace(at_rest) - symbolic_youbot.qdd[4]).xreplace(
            {s: 0 for s in symbolic_youbot.qdd[:4]}
        )
        == 0
    )


def test_eq_2_54_fourth_entry_is_m_zc_not_m_yc_again():
    """(2.54) prints χ_i = (m, m·xc, m·yc, m·yc, …): with m·yc in the fourth slot ξχ misses the torque of
    the centres of mass off the z axes; with m·zc it is RNE's τ."""
    q, qd, qdd = RNG.normal(size=(3, 5))
    xi, chi = P.regressor(YOUBOT, q, qd, qdd), P.dynamic_params(YOUBOT)
    printed = chi.reshape(5, 10).copy()
    printed[:, 3] = printed[:, 2]  # m·yc twice
    assert np.abs(xi @ printed.reshape(-1) - YOUBOT.rne(q, qd, qdd)).max() > 1e-3
    np.testing.assert_allclose(xi @ chi, YOUBOT.rne(q, qd, qdd), atol=1e-12)


def test_eq_2_30_products_of_inertia_are_tensor_entries_minus_the_textbooks_I_xy():
    """χ's I_xy, I_xz, I_yz (2.54) are the report's tensor entries (2.30), −∫xy dm, −∫xz dm, −∫yz dm about the
    frame origin; the textbook's (3.120) (chapter 06) calls ∫xy dm itself I_xy. A body of point masses, where
    both integrals are plain sums."""
    rng = np.random.default_rng(230)
    mk, xk = rng.uniform(0.2, 1.0, 4), rng.uniform(-0.3, 0.3, (4, 3))  # four point masses in the link frame
    m = mk.sum()
    c = mk @ xk / m
    rho = xk - c
    I_c = sum(mi * (r @ r * np.eye(3) - np.outer(r, r)) for mi, r in zip(mk, rho))  # tensor about the c.o.m.
    robot = armlab.DHRobot([armlab.DHLink(m=m, r=tuple(c), I=I_c)])
    chi = dict(zip(dynamics.PARAM_NAMES, P.dynamic_params(robot)))
    products = {"Ixy": (0, 1), "Ixz": (0, 2), "Iyz": (1, 2)}
    book = np.array(dynamics.pseudo_inertia(m, c, I_c), dtype=float)  # (3.120)
    for name, (i, j) in products.items():
        integral = float(np.sum(mk * xk[:, i] * xk[:, j]))  # ∫ x_i x_j dm about the frame origin
        assert abs(integral) > 1e-5  # a real product, not a zero whose sign cannot tell
        assert chi[name] == pytest.approx(-integral, abs=1e-12)  # the report's I_xy: the tensor entry
        assert book[i, j] == pytest.approx(integral, abs=1e-12)  # the textbook's I_xy


def test_eq_2_46_inertia_is_about_the_frame_origin():
    """K (2.46) = ½ q̇ᵀ D q̇ holds with 𝓘_i about O_i (the origin of frame i), not about the centre of mass."""
    q, qd = RNG.uniform(-1, 1, 5), RNG.normal(size=5)
    chi = P.dynamic_params(YOUBOT).reshape(5, 10)
    K_origin = K_com = 0.0
    for (Jv, Jw, R), link, c in zip(_link_jacobians(YOUBOT, q), YOUBOT.links, chi):
        v, w = R.T @ Jv @ qd, R.T @ Jw @ qd
        Io = dynamics.pseudo_inertia_matrix(c)
        Io = np.trace(Io[:3, :3]) * np.eye(3) - Io[:3, :3]
        common = 0.5 * c[0] * v @ v + c[1:4] @ np.cross(v, w)
        K_origin += common + 0.5 * w @ Io @ w
        K_com += common + 0.5 * w @ np.asarray(link.I, float) @ w
    K = 0.5 * qd @ YOUBOT.inertia(q) @ qd
    assert K_origin == pytest.approx(K, rel=1e-12)
    assert abs(K_com - K) > 1e-4 * K


def test_eq_2_74_cross_term_needs_Jx_plus_Jx_transpose():
    """(2.74) puts x{m r⁰_ci}·J_x (2.76) inside ½q̇ᵀ(…)q̇; D must be symmetric and K's third term is
    q̇ᵀJ_x q̇·x{…} without the ½, so the term is x{m r⁰_ci}·(J_x + J_xᵀ)."""
    q = RNG.uniform(-1, 1, 5)
    chi = P.dynamic_params(YOUBOT).reshape(5, 10)
    D_fixed, D_printed = np.zeros((5, 5)), np.zeros((5, 5))
    for (Jv, Jw, R), c in zip(_link_jacobians(YOUBOT, q), chi):
        Io = dynamics.pseudo_inertia_matrix(c)
        Io = np.trace(Io[:3, :3]) * np.eye(3) - Io[:3, :3]
        base = c[0] * Jv.T @ Jv + Jw.T @ R @ Io @ R.T @ Jw
        h0 = R @ c[1:4]  # m·r⁰_ci
        Jx = -np.outer(Jv[2], Jw[1]) + np.outer(Jv[1], Jw[2])  # (2.76)
        Jy = np.outer(Jv[2], Jw[0]) - np.outer(Jv[0], Jw[2])  # (2.77)
        Jz = -np.outer(Jv[1], Jw[0]) + np.outer(Jv[0], Jw[1])  # (2.78)
        D_fixed += base + sum(h * (J + J.T) for h, J in zip(h0, (Jx, Jy, Jz)))
        D_printed += base + sum(h * J for h, J in zip(h0, (Jx, Jy, Jz)))
    M = YOUBOT.inertia(q)
    np.testing.assert_allclose(D_fixed, M, atol=1e-12)
    assert np.abs(D_printed - M).max() > 1e-3


def test_eq_2_64_2_66_xi_bar_blocks_are_1x14_with_joint_i_columns():
    """ξ̄'s zero blocks are O_{1×14} (printed O_{1×10}); on the diagonal (2.66) appends q̈_i, q̇_i, sign(q̇_i), 1
    — joint i's own values, printed as the vectors q̈, q̇ — and zeros off it (the case i ≠ j lost)."""
    q, qd, qdd = RNG.normal(size=(3, 5))
    xb = P.regressor_full(YOUBOT, q, qd, qdd)
    assert xb.shape == (5, 70)
    for j in range(5):
        assert not xb[j, : 14 * j].any()
        for i in range(j, 5):
            block = xb[j, 14 * i : 14 * i + 14]
            expected = [qdd[i], qd[i], np.sign(qd[i]), 1.0] if i == j else [0, 0, 0, 0]
            np.testing.assert_array_equal(block[10:], expected)


def test_eq_2_67_xi_bar_chi_bar_is_tau_e():
    q, qd, qdd = RNG.normal(size=(3, 5))
    Ia, fv, fc, fo = RNG.uniform(0.01, 0.2, (4, 5))
    chib = np.concatenate(
        [np.r_[c, Ia[i], fv[i], fc[i], fo[i]] for i, c in enumerate(P.dynamic_params(YOUBOT).reshape(5, 10))]
    )
    tau_e = YOUBOT.rne(q, qd, qdd) + Ia * qdd + fv * qd + fc * np.sign(qd) + fo  # (2.63)
    np.testing.assert_allclose(P.regressor_full(YOUBOT, q, qd, qdd) @ chib, tau_e, atol=1e-12)


def test_eq_2_70_to_2_73_m_c_g_from_the_regressor():
    """D (2.70), C by Christoffel (2.71)–(2.72) and G (2.73) are the dynamics chapter's M, C, G: ξ with
    q̇ = 0, q̈ = e_j and no gravity gives D's columns, and ξχ = Dq̈ + Cq̇ + G."""
    q, qd, qdd = RNG.normal(size=(3, 5))
    chi = P.dynamic_params(YOUBOT)
    D = np.column_stack([P.regressor(YOUBOT, q, np.zeros(5), e, (0, 0, 0)) @ chi for e in np.eye(5)])
    np.testing.assert_allclose(D, YOUBOT.inertia(q), atol=1e-12)
    G = P.regressor(YOUBOT, q, np.zeros(5), np.zeros(5)) @ chi
    np.testing.assert_allclose(G, YOUBOT.gravload(q), atol=1e-12)
    np.testing.assert_allclose(
        P.regressor(YOUBOT, q, qd, qdd) @ chi, D @ qdd + YOUBOT.coriolis(q, qd) @ qd + G, atol=1e-10
    )


def test_eq_3_2_xi_transpose_xi_is_singular_for_every_trajectory():
    """(3.2) inverts ΞᵀΞ, but ξ̄'s 70 columns have rank 47 for the youBot whatever the motion: 7 of link 1's
    columns are identically zero, 16 more are combinations of others. (3.2) holds for the base parameters."""
    q, qd, qdd = random_q(RNG, YOUBOT, 300), RNG.normal(size=(300, 5)), RNG.normal(size=(300, 5))
    X = P.regressor_full(YOUBOT, q, qd, qdd).reshape(-1, 70)
    assert np.linalg.matrix_rank(X) == 47
    bp = dynamics.base_parameters(YOUBOT, friction=True)
    assert np.linalg.matrix_rank(X[:, list(bp.columns)]) == bp.count == 47


def test_youbot_base_parameters_29_of_chi_and_47_of_chibar():
    """The torques determine 29 combinations of the rigid-body χ ∈ R⁵⁰ (2.54) and 47 of χ̄ ∈ R⁷⁰ (2.65), which
    adds I_a, f_v, f_c, f_off per joint: the ranks of ξ and ξ̄ stacked over random states. 47 = 29 + 15
    friction columns + I_a3…I_a5; I_a1 and I_a2 (q̈₁, q̈₂ on their own rows) join the inertia groups of links
    1 and 2. (tests/dynamics/test_identification.py checks the 29 against pinocchio's regressor.)"""
    q, qd, qdd = random_q(RNG, YOUBOT, 300), RNG.normal(size=(300, 5)), RNG.normal(size=(300, 5))
    assert np.linalg.matrix_rank(P.regressor(YOUBOT, q, qd, qdd).reshape(-1, 50)) == 29
    assert np.linalg.matrix_rank(P.regressor_full(YOUBOT, q, qd, qdd).reshape(-1, 70)) == 47
    bp, bpf = dynamics.base_parameters(YOUBOT), dynamics.base_parameters(YOUBOT, friction=True)
    assert (bp.count, bpf.count) == (29, 47)
    added = [nm for nm in bpf.names if nm.rstrip("0123456789") in ("Ia", "fv", "fc", "foff")]
    assert len(added) == 18 and set(bp.names) <= set(bpf.names)
    assert [f"Ia{i}" for i in range(1, 6) if f"Ia{i}" not in bpf.names] == ["Ia1", "Ia2"]


def _prose_paragraphs():
    """(file, paragraph) of the README, docs/*.md, course/*.md and the course's markdown cells; a table row is
    a paragraph of its own."""
    import re
    from pathlib import Path

    import nbformat

    root = Path(__file__).resolve().parents[2]
    files = [root / "README.md", *sorted((root / "docs").glob("*.md")), *sorted((root / "course").glob("*.md"))]
    texts = [(f.name, f.read_text(encoding="utf-8")) for f in files]
    for nb in sorted((root / "course").glob("*.ipynb")):
        cells = nbformat.read(nb, as_version=4).cells
        texts += [(nb.name, c.source) for c in cells if c.cell_type == "markdown"]
    for name, text in texts:
        for block in re.split(r"\n\s*\n", text):
            lines = block.strip().splitlines()
            if lines and all(line.startswith("|") for line in lines):
                yield from ((name, line) for line in lines)
            else:
                yield name, block


def test_every_youbot_base_parameter_count_in_the_course_gives_29_and_47():
    """Wherever the course counts the youBot's base parameters it says both: 47 with actuator inertia and
    friction (χ̄), 29 for the rigid-body χ (issue #23: the README said "47 base parameters" alone)."""
    import re

    counted = [
        (name, para)
        for name, para in _prose_paragraphs()
        if re.search(r"(?<![\d.])47(?![\d.])", para) and "param" in para
    ]
    assert len(counted) >= 5  # README, chapter 07 (three places), lab 3, errata
    for name, para in counted:
        assert re.search(r"(?<![\d.])29(?![\d.])", para), f"{name}: gives 47 without 29: {para[:160]}…"


def test_section_3_1_qdd_is_not_measured_and_needs_filtered_differences():
    """§3.1 a) lists no measured quantities (the list is empty in the text); the driver gives q, q̇ and τ_e
    (§4.1) but Ξ needs q̈ too. Differencing quantised encoder angles twice without a filter ruins the fit;
    the zero-phase low-pass before central differences recovers it."""
    robot = armlab.models.planar2r(0.4, 0.3, 1.2, 0.8)
    t = np.arange(0, 10, 1e-3)
    w = 2 * np.pi * 0.3
    q = np.column_stack([0.8 * np.sin(w * t) + 0.3 * np.sin(3 * w * t), 0.9 * np.cos(2 * w * t)])
    qd = np.gradient(q, t, axis=0, edge_order=2)
    qdd = np.gradient(qd, t, axis=0, edge_order=2)
    chib = np.concatenate([np.r_[c, 0.01, 0.1, 0.05, 0.0] for c in P.dynamic_params(robot).reshape(2, 10)])
    tau = P.regressor_full(robot, q, qd, qdd, (0, -9.81, 0)) @ chib
    q_meas = np.round(q / 1e-4) * 1e-4  # encoder quantisation
    raw_qd = np.gradient(q_meas, t, axis=0)
    raw = dynamics.identify(robot, q_meas, raw_qd, np.gradient(raw_qd, t, axis=0), tau, gravity=(0, -9.81, 0))
    d = dynamics.prepare(t, q_meas, tau, cutoff=5.0)
    good = dynamics.identify(robot, d["q"], d["qd"], d["qdd"], d["tau"], gravity=(0, -9.81, 0))
    truth = good.params.of(chib)
    err = lambda res: np.linalg.norm(res.base - truth) / np.linalg.norm(truth)  # noqa: E731
    assert err(good) < 0.01 < 0.1 < err(raw)
