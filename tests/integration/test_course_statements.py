"""What the course's prose says about the library's numbers is what the library computes (issue #32).

Each test reads the sentence from its notebook cell (by the cell's id), takes the number it quotes, and computes
that number with armlab, so the text cannot drift from the code. The computations are the cells' own, written out
here or run from the cells themselves (``run_cells``), without executing the notebooks. The labs' are in
test_lab_statements.py."""

from __future__ import annotations

import inspect
import re

import numpy as np
import pytest

import armlab
from armlab import jacobians as jb
from armlab import models
from support.course_cells import cell, cell_lines, quoted, run_cells
from support.course_setups import PUMA_FLANGE as ARM
from support.course_setups import puma_line_through_the_wrist


# --- chapters 02 and 03 --------------------------------------------------------------------------------------------


def test_ch02_the_measured_offsets_are_table_3_2s():
    """Cell c004c: "149.09 mm for link 2 and 433.07 mm for link 4", the d column cell c004b measures."""
    text = cell("02_dh_forward_kinematics.ipynb", "c004c")
    assert quoted(text, r"([\d.]+) mm for link 2") == round(1000 * models.PUMA560["d2"], 2)
    assert quoted(text, r"([\d.]+) mm for link 4") == round(1000 * models.PUMA560["d4"], 2)


def test_ch03_the_joint_ranges_the_text_quotes_are_the_models():
    """Cells 1426de0e and c6ea8316 quote the PUMA's ranges of θ2, θ3, θ6 and θ1."""
    qlim = np.degrees(models.puma560().qlim).round(6)
    ranges = cell("03_inverse_kinematics.ipynb", "1426de0e")
    lo, hi = re.search(r"\$\\theta_3\$'s ranges are (−?\d+)°…(−?\d+)°", ranges).groups()
    assert [float(x.replace("−", "-")) for x in (lo, hi)] == qlim[1].tolist() == qlim[2].tolist()
    assert quoted(ranges, r"\$\\theta_6\$'s ±(\d+)°") == qlim[5, 1] == -qlim[5, 0]
    short_way = cell("03_inverse_kinematics.ipynb", "c6ea8316")
    assert quoted(short_way, r"\$\\theta_6\$ of the PUMA \(±(\d+)°\) can") == qlim[5, 1]
    assert quoted(short_way, r"\$\\theta_1\$ \(±(\d+)°\) cannot") == qlim[0, 1] == -qlim[0, 0]


def test_ch03_the_nearest_solution_swings_joint_1_the_weighted_one_the_wrist():
    """Cell dbe3edb2 on cell 715c1770's two choices from q_now."""
    text = cell("03_inverse_kinematics.ipynb", "dbe3edb2")
    ns = run_cells("03_inverse_kinematics.ipynb", "b2e2c3d5", "354c82b3", "715c1770")
    q_now, puma, T_ex, k6 = ns["q_now"], ns["puma"], ns["T_ex"], ns["k6"]
    nearest, weighted = (np.degrees(np.abs(puma.ikine(T_ex, q_now, weights=w).q[0] - q_now)) for w in (None, k6))
    assert quoted(text, r"the nearest solution swings joint 1 by (\d+)°") == round(nearest[0])
    assert "keeps joint 1 almost still and turns the wrist further" in text
    assert weighted[0] < 10 and weighted[3:].sum() > nearest[3:].sum()


# --- chapter 04 ----------------------------------------------------------------------------------------------------


CH04 = "04_jacobians.ipynb"


def _ch04_line_runs():
    """Cell a9a9c44a: the PUMA's hand along a line at 0.1 m/s through θ5 = 0.5°, both runs to the end."""
    q0, T_start, T_mid, v_line = puma_line_through_the_wrist(0.5)

    def line_velocity(t, qq):
        T = ARM.fkine(qq)
        e_p = T_start[:3, 3] + v_line * t - T[:3, 3]
        R_err = T_mid[:3, :3] @ T[:3, :3].T
        return np.r_[v_line + 5.0 * e_p, 2.5 * armlab.unskew(R_err - R_err.T)]

    off = dict(give_up_error=np.inf, give_up_rate=np.inf, give_up_path=np.inf)
    runs = {d: jb.resolved_rate(ARM, q0, line_velocity, 1.0, 0.005, damped=d, **off) for d in (False, True)}
    dist = {
        d: np.linalg.norm(r.T[:, :3, 3] - (T_start[:3, 3] + np.outer(r.t, v_line)), axis=1) for d, r in runs.items()
    }
    return runs, dist


def test_ch04_cell_73_the_damped_hand_stays_within_the_quoted_distance_of_the_line():
    text = cell(CH04, "35e868ae")
    runs, dist = _ch04_line_runs()
    assert quoted(text, r"stays within ([\d.]+) mm of its point on the line") == round(1000 * dist[True].max(), 1)
    assert quoted(text, r"rates stay below (\d+) rad/s") > np.abs(runs[True].qd).max()
    spin = np.abs(runs[False].qd).max(axis=0)
    assert "joints 4 and 6 spin at over 100 rad/s" in text and min(spin[3], spin[5]) > 100.0
    limit = -quoted(text, r"into its limit \(−(\d+)°\)")
    assert limit == np.degrees(ARM.qlim[3, 0]) and np.degrees(runs[False].q[:, 3]).min() == pytest.approx(limit, abs=1)
    assert "misses the line by centimetres" in text and 0.01 < dist[False].max() < 0.1


def test_ch04_cells_70_and_75_quote_resolved_rates_give_up_bounds():
    defaults = {k: p.default for k, p in inspect.signature(jb.resolved_rate).parameters.items()}
    intro = cell(CH04, "ea63a7b9")
    assert quoted(intro, r"`give_up_rate` \((\d+) rad/s\)") == defaults["give_up_rate"]
    assert quoted(intro, r"`give_up_path` \((\d+) cm\)") / 100 == defaults["give_up_path"]
    outward = cell(CH04, "e6ad1f81")
    assert quoted(outward, r"a joint would pass (\d+) rad/s") == defaults["give_up_rate"]
    assert quoted(outward, r"leaves the path by more than (\d+) cm") / 100 == defaults["give_up_path"]


def test_ch04_cell_75_the_outward_runs_stop_as_the_text_says():
    text = cell(CH04, "e6ad1f81")
    q = np.radians([0, -30, -60, 0, 30, 0])
    out = ARM.fkine(q)[:3, 3] / np.linalg.norm(ARM.fkine(q)[:3, 3])

    def run(**kw):
        return jb.resolved_rate(ARM, q, lambda t, qq: np.r_[0.2 * out, 0, 0, 0], 5.0, 0.01, **kw)

    assert "half of the velocity" in text and "cannot follow" in run(damped=True).reason
    assert "give_up_rate" in run(damped=False).reason
    assert "give_up_path" in run(damped=False, give_up_rate=np.inf).reason
    blind = run(damped=False, give_up_error=np.inf, give_up_rate=np.inf, give_up_path=np.inf)
    assert blind.ok and quoted(text, r"end about (\d+) m off the line") == round(blind.path_error[:, 0].max())


def test_ch04_cell_57_corkes_puma_lengths_and_base():
    """The textbook's lengths against the Toolbox's Puma560, and where his frame {0} is."""
    rtb = pytest.importorskip("roboticstoolbox")
    text = cell(CH04, "64150c2d")
    p560 = rtb.models.DH.Puma560()
    d2, d4 = 1000 * models.PUMA560["d2"], 1000 * models.PUMA560["d4"]
    d2_c, d4_c = 1000 * p560.links[2].d, 1000 * p560.links[3].d  # Corke's shoulder offset and forearm
    here, his = re.search(r"\$d_2\$: ([\d.]+) mm here, ([\d.]+) mm his", text).groups()
    assert (float(here), float(his)) == (round(d2, 2), round(d2_c, 2))
    assert quoted(text, r"by ([\d.]+) mm \(\$d_2\$") == round(abs(d2 - d2_c), 1)
    here, his = re.search(r"\$d_4\$: ([\d.]+) mm, ([\d.]+) mm\)", text).groups()
    assert (float(here), float(his)) == (round(d4, 2), round(d4_c, 2))
    assert quoted(text, r"and ([\d.]+) mm \(\$d_4\$") == round(abs(d4 - d4_c), 1)
    # with his lengths, one fixed Trans(0, 0, h) takes the textbook's hand pose to his, h > 0: his {0} is lower
    ours = models.puma560().replace_link(1, d=p560.links[2].d).replace_link(3, d=p560.links[3].d, a=p560.links[2].a)
    q = np.random.default_rng(3).uniform(-2, 2, (5, 6))
    B = [p560.fkine(x).A @ np.linalg.inv(ours.fkine(x - np.array(models.CORKE_OFFSET))) for x in q]
    for b in B:
        np.testing.assert_allclose(b, armlab.Trans(0, 0, quoted(text, r"\\text\{Trans\}\(0, 0, ([\d.]+)\)")), atol=5e-4)
    assert "is 0.672 m lower" in text
    assert "`qn`, `qs` and `q0`" in text and set(p560.configs) == {"qz", "qr", "qs", "qn"}


# --- chapter 05 ----------------------------------------------------------------------------------------------------

CH05 = "05_statics.ipynb"


def test_ch05_far_out_joint_2_limits_closer_in_joint_3_and_the_grip_is_weakest_far_out():
    """Cell 00fbffcc on cell 679944fa's sweep."""
    text = cell(CH05, "00fbffcc")
    ns = run_cells(CH05, "e5d32589", "679944fa")
    ok, first, s_max = ns["ok"], ns["first"], ns["s_max"]
    r = np.hypot(ns["tip"][..., 0], ns["tip"][..., 1])[ok]
    first, s_max = first[ok], s_max[ok]
    effort = models.YOUBOT_ACTUATORS["effort"]
    assert quoted(text, r"Far out, joint 2 \(([\d.]+) N·m") == effort[1]
    assert quoted(text, r"closer in, joint 3 \(([\d.]+) N·m\) does") == effort[2]
    outer, inner = r > 0.8 * r.max(), r < 0.5 * r.max()  # the outer fifth of the reach, its inner half
    assert np.all(first[outer] == 2) and np.mean(first[inner] == 3) > 0.5
    assert "The grip is weakest far from the base" in text and outer[np.argmin(s_max)]


def test_ch05_opening_ellipse_is_the_widgets_tau_ref():
    from armlab.viz.statics.mapping import TipForce2R

    text = cell(CH05, "c563daf3")
    tau_ref = inspect.signature(TipForce2R).parameters["tau_ref"].default
    assert quoted(text, r"\\le\$ ([\d.]+) N·m \(the widget's `tau_ref`\)") == tau_ref


def test_ch05_fig_5_6_cell_unit_tau2_tip_acceleration():
    from armlab import statics

    text = cell(CH05, "c4fb74b9")
    arm = models.planar2r(0.5, 0.3)  # chapter 05's arm (cell 354bcaee), 1 kg at each link's end
    q = np.array([0.5, 0.0])
    J = arm.jacob0(q)[:2]
    tau2 = statics.static_mapping(J).complement[:, 0]
    tip = np.linalg.norm(J @ np.linalg.solve(arm.inertia(q), tau2))
    assert quoted(text, r"tip accelerates at ([\d.]+) m/s² under a unit") == round(tip, 1)
    youbot = statics.static_mapping(models.youbot().jacob0(np.radians([20, 30, -40, 25, 10])))
    assert "$6\\times 5$" in text and youbot.null.shape[1] == 1


def test_ch05_the_youbots_effort_limits_are_the_models():
    text = cell(CH05, "10a85805")
    quoted_limits = re.search(r"are ([\d., and]+) N·m", text).group(1).replace(" and ", ", ")
    assert [float(x) for x in quoted_limits.split(", ")] == models.YOUBOT_ACTUATORS["effort"].tolist()


# --- chapter 06 ----------------------------------------------------------------------------------------------------


def test_ch06_cells_13_and_14_the_book_prints_d12_twice_and_no_d21():
    """After (3.110) the book prints "D12=m2d22+m2d1d2cosθ2=m2(d22+d1d2cosθ2)" and no D21 (tests/sources/
    test_textbook_ch6.py checks both forms against the model)."""
    code, prose = cell("06_dynamics.ipynb", "b626a970"), cell("06_dynamics.ipynb", "35d6fb22")
    assert "(2, 1):" not in code.split('"centripetal"')[0]  # no D21 row among the inertias
    assert "It prints no $D_{21}$" in prose and "The book prints $D_{12}$ twice" in prose


def test_ch06_the_youbots_shoulder_frequency_changes_by_almost_three():
    """Cell 35386a38: "its natural frequency changes by a factor of almost three between folded and stretched out"
    (joint 2 of the youBot, k = 200 N·m/rad, over q2 and q3 within their ranges; cell ecd704a7)."""
    text = cell("06_dynamics.ipynb", "35386a38")
    yb = models.youbot()
    Q2, Q3 = np.meshgrid(np.linspace(*yb.qlim[1], 91), np.linspace(*yb.qlim[2], 91))
    Qg = np.zeros(Q2.shape + (5,))
    Qg[..., 1], Qg[..., 2] = Q2, Q3
    f2 = np.sqrt(200.0 / yb.inertia(Qg)[..., 1, 1]) / (2 * np.pi)
    assert "by a factor of almost three" in text and 2.5 < f2.max() / f2.min() < 3.0


def test_ch06_the_pumas_lagrange_model_and_rne_agree_to_about_1e_14():
    """Cell 8e2bb152: "on the PUMA above, `tau_fn` and `rne` differ by about 10⁻¹⁴ N·m" (cell fdb6afe7's state)."""
    from armlab.dynamics import lagrange

    text = cell("06_dynamics.ipynb", "8e2bb152")
    exponent = quoted(text, r"differ by about \$10\^\{(-\d+)\}\$ N·m")
    puma = models.puma560()
    q, qd = np.radians([20, -30, -50, 10, 30, 50]), np.array([0.5, -1.0, 0.8, 1.5, -0.4, 2.0])
    qdd = np.array([1.0, 0.5, -2.0, 0.0, 3.0, -1.0])
    diff = np.abs(lagrange(puma).tau_fn(q, qd, qdd) - puma.rne(q, qd, qdd)).max()
    assert 10 ** (exponent - 2) < diff < 10 ** (exponent + 1)


def test_ch06_the_pumas_readable_m_and_c_term_counts():
    """Cell 1caf819a: "its readable M has about 400 terms (54 in D11 alone), its C about 1800"; D33 (cell 320ff50f)
    depends only on q4 and q5."""
    import sympy as sp

    from armlab.dynamics import lagrange

    text = cell("06_dynamics.ipynb", "1caf819a")
    model = lagrange(models.puma560(), simplify=True)

    def terms(matrix):
        return sum(len(sp.Add.make_args(e)) for e in matrix)

    assert quoted(text, r"\(([\d]+) in \$D_\{11\}\$ alone\)") == len(sp.Add.make_args(model.D(1, 1)))
    assert quoted(text, r"readable \$M\$ has about (\d+) terms") == round(terms(model.M), -2)
    assert quoted(text, r"its \$C\$ about (\d+)") == round(terms(model.C), -2)
    d33 = model.D(3, 3)
    assert "depends only on the wrist angles $q_4$, $q_5$" in text
    assert {s.name for s in d33.free_symbols} & {f"q{i}" for i in range(1, 7)} == {"q4", "q5"}


def test_ch06_energy_drift_falls_as_dt_to_the_4_for_rk4_and_as_dt_for_euler():
    """Cell df345a6b on cell 64bd0c7c's drifts (the 2R of cell 7aa43043 released from horizontal, 4 s)."""
    from armlab import sim

    text = cell("06_dynamics.ipynb", "df345a6b")
    arm, g_plane = models.planar2r(0.8, 0.6, 1.5, 0.7), (0.0, -9.81, 0.0)

    def decades(method):  # of drift per decade of step, from 10 ms to 1 ms
        drift = [
            sim.simulate(arm, [0.0, 0.0], [0.0, 0.0], 4.0, h, gravity=g_plane, method=method, events="ignore")
            for h in (1e-2, 1e-3)
        ]
        return np.log10(drift[0].relative_drift / drift[1].relative_drift)

    assert "RK4's drift falls as $dt^4$ (four decades of accuracy per decade of step)" in text
    assert decades("rk4") == pytest.approx(4.0, abs=0.3)
    assert "the semi-implicit Euler's only as $dt$" in text and decades("euler") == pytest.approx(1.0, abs=0.1)


def test_ch06_the_youbots_repeatability_against_its_encoders_share():
    """Cells 064deaa8 and e87bd920 on cell 72d9bbea: 4000 counts per motor turn and the gears give the youBot's
    rounding miss; the data sheet's 1 mm is "some 150 times" its largest; far out it is coarsest."""
    from armlab import jacobians

    counts = quoted(cell("06_dynamics.ipynb", "064deaa8"), r"the youBot's motors count (\d+) per")
    gears = re.search(r"gears ([\d, ]+); for the PUMA560", cell("06_dynamics.ipynb", "064deaa8")).group(1)
    assert [float(g) for g in gears.split(", ")] == models.YOUBOT_ACTUATORS["gear"].tolist()
    yb = models.youbot()
    G2, G3 = np.meshgrid(np.linspace(*yb.qlim[1], 81), np.linspace(*yb.qlim[2], 81))
    Q = np.zeros(G2.shape + (5,))
    Q[..., 1], Q[..., 2] = G2, G3
    worst = jacobians.tip_resolution(yb, Q, jacobians.joint_resolution(counts, models.YOUBOT_ACTUATORS["gear"])).worst
    text = cell("06_dynamics.ipynb", "e87bd920")
    assert quoted(text, r"gives 1 mm, some (\d+) times its encoders' share") == round(1e-3 / worst.max(), -1)
    reach = np.hypot(*yb.fkine(Q)[..., :2, 3].transpose(2, 0, 1))
    assert "Far out the lever arms are longest and the resolution coarsest" in text
    assert reach.ravel()[worst.argmax()] > 0.8 * reach.max() and reach.ravel()[worst.argmin()] < 0.5 * reach.max()


# --- chapter 07 ----------------------------------------------------------------------------------------------------


def test_ch07_true_against_identified_base_parameters():
    """Cell 6c649690 reads cell 4a1ce175's table: the ten largest within 7 %, most within 2 %; the smallest are
    products of inertia of links 3 and 4, a few 1e-6 kg·m², below their own σ."""
    text = cell("07_youbot_model.ipynb", "6c649690")
    ids = ["222d3781", "b341b52d", "af9852d9", "4b1b8da5", "1cc3aa8a", "3b264e84", "ccb634e1", "4a1ce175"]
    ns = run_cells("07_youbot_model.ipynb", *ids)
    fit, truth = ns["fits"]["wls"], ns["truth"]
    big = np.argsort(-np.abs(truth))[:10]
    error = np.abs(fit.base[big] - truth[big]) / np.abs(truth[big])
    assert error.max() < quoted(text, r"come out within (\d+) %") / 100
    assert (error < quoted(text, r"most of them within (\d+) %") / 100).sum() > 5
    nonzero = np.flatnonzero(np.abs(truth) > 1e-12)
    smallest = nonzero[np.argsort(np.abs(truth[nonzero]))[:4]]
    names = [fit.params.names[k] for k in smallest]
    assert "products of inertia of links 3 and 4, a few $10^{-6}$ kg·m²" in text
    assert all(re.fullmatch(r"I(xy|xz|yz)[34]", n) for n in names), names
    assert np.all((1e-6 <= np.abs(truth[smallest])) & (np.abs(truth[smallest]) < 1e-5))
    assert np.all(fit.std[smallest] > np.abs(truth[smallest]))  # the fit's own σ says it cannot resolve them
    # cell 9619ea71 on cell 9790acf5's table: the median error of the ten largest, case by case
    degrades = cell("07_youbot_model.ipynb", "9619ea71")
    run_cells("07_youbot_model.ipynb", "9790acf5", namespace=ns)
    median = {row[0]: float(row[3].rstrip("%")) / 100 for row in ns["rows"]}
    base, noisy, coarse, raw, poor = median.values()
    assert "The poor trajectory costs by far the most" in degrades and poor > 10 * max(base, noisy, coarse, raw)
    assert "five times the effort noise costs something" in degrades and noisy > 2 * base
    assert "hardly change the result" in degrades and max(coarse, raw) < 1.5 * base + 0.005


def test_ch07_how_many_base_parameters():
    """Cells ff8aece0 and 6e28224c: 29 of the 50 rigid-body parameters, 29 + 3 + 15 = 47 of the 70 with actuators
    and friction; the λ's are the DH lengths squared; a 2R arm has 6 in a vertical plane, 4 in a horizontal one."""
    from armlab import dynamics

    intro, why = cell("07_youbot_model.ipynb", "ff8aece0"), cell("07_youbot_model.ipynb", "6e28224c")
    yb = models.youbot()
    rigid, full = dynamics.base_parameters(yb).count, dynamics.base_parameters(yb, True).count
    assert quoted(intro, r"\*\*(\d+) base parameters\*\*") == rigid and quoted(intro, r"\*\*(\d+)\*\* of") == full
    assert quoted(why, r"That leaves (\d+) of the 50") == rigid
    assert re.search(rf"\${rigid} \+ 3 \+ 15 = {full}\$ of the 70", why) and rigid + 3 + 15 == full
    for length, square in re.findall(r"\$([\d.]+)\^2 = ([\d.]+)\$", why):
        assert float(length) in (yb.links[1].a, yb.links[2].a) and float(square) == pytest.approx(float(length) ** 2)
    arm = models.planar2r()
    vertical, horizontal = (dynamics.base_parameters(arm, gravity=g).count for g in ((0, -9.81, 0), (0, 0, -9.81)))
    assert quoted(why, r"A 2R arm in a vertical plane has (\d+)") == vertical
    assert quoted(why, r"\((\d+) if its plane is horizontal\)") == horizontal


def test_ch07_the_simulated_experiments_settings_are_the_cells():
    """Cell 136a11e9 describes cell 1cc3aa8a's simulated experiment: two periods of the 0.1 Hz excitation (20 s), RK4
    at 500 Hz, /joint_states at 50 Hz, 0.1 mrad encoder steps, 0.03 N·m of effort noise; the youBot's own encoders
    (4000 counts per motor turn) would give about 10 µrad at joint 1."""
    import ast

    from armlab import sim

    text, code = cell("07_youbot_model.ipynb", "136a11e9"), cell_lines("07_youbot_model.ipynb", "1cc3aa8a")
    record = next(f for f in ast.parse(code).body if isinstance(f, ast.FunctionDef) and f.name == "record")
    defaults = {
        a.arg: ast.literal_eval(d) for a, d in zip(record.args.args[-len(record.args.defaults) :], record.args.defaults)
    }
    dt = float(re.search(r"periods \* excitation\.period, ([\d.]+), controller", code).group(1))
    assert (
        quoted(text, r"integrated by RK4 at (\d+) Hz") == round(1 / dt)
        and inspect.signature(sim.simulate).parameters["method"].default == "rk4"
    )
    assert quoted(text, r"for two periods \((\d+) s\)") == 2 / quoted(
        cell("07_youbot_model.ipynb", "6e28224c"), r"periodic with \$f_0 = ([\d.]+)\$ Hz"
    )
    assert "run = run_arm(excitation, 2)" in code
    assert quoted(text, r"`/joint_states` gives at (\d+) Hz") == defaults["rate"]
    assert quoted(text, r"we take a coarser ([\d.]+) mrad") == 1000 * defaults["encoder"]
    assert quoted(text, r"here with ([\d.]+) N·m of noise") == defaults["effort_noise"]
    counts = quoted(text, r"about (\d+) counts per motor turn")
    step = 2 * np.pi / (counts * models.YOUBOT_ACTUATORS["gear"][0])
    assert quoted(text, r"\\approx (\d+)\$ µrad at joint 1") == round(1e6 * step)


# --- chapter 08 ----------------------------------------------------------------------------------------------------


def test_ch08_fig_8_row_the_torque_step_at_the_pick():
    """Cell 1b0ea52a's table: τ2 of the Euler run (cell 7b699efb) at steps 379 → 380, and its gravity part."""
    from armlab import control, ik, sim

    text = cell("08_simulation_and_control.ipynb", "1b0ea52a")
    arm, P, g = models.paper_3r(), models.PAPER_3R, models.PAPER_GRAVITY
    args = dict(sim.PAPER_TASK, payload=P["ball_mass"], gravity=g, weights=ik.PAPER_WEIGHTS)
    plan = sim.plan_pick_and_place(arm, P["pick"], P["place"], **args)
    run = sim.run_task(plan, control.ComputedTorque(arm, 400.0, 40.0, gravity=g), dt=P["dt"])
    before, after = re.search(r"from (−[\d.]+) to (−[\d.]+) N·m \(its gravity", text).groups()
    assert [float(x.replace("−", "-")) for x in (before, after)] == [round(run.tau[k, 1], 1) for k in (379, 380)]
    q_pick = np.radians([0, 90, 90])
    G2 = arm.gravload(q_pick, g)[1]
    G2_ball = G2 + arm.jacob0(q_pick)[:3, 1] @ [0.0, 0.0, P["ball_mass"] * 9.8]
    assert f"its gravity part from {G2:.1f} to {G2_ball:.1f})".replace("-", "−") in text
    assert quoted(text, r"jumps at the pick by about (\d+) N·m") == round(run.tau[379, 1] - run.tau[380, 1])


def test_ch08_joint_1s_inertia_upright_and_stretched_out():
    """Cell 2721041a: 0.0048 kg·m² upright, 2.7 kg·m² at the pick, "over 500 times more"."""
    text = cell("08_simulation_and_control.ipynb", "2721041a")
    arm = models.paper_3r()
    upright, stretched = (arm.inertia(np.radians(q))[0, 0] for q in ([0, 0, 0], [0, 90, 90]))
    assert quoted(text, r"upright \(([\d.]+) kg·m²\)") == round(upright, 4)
    assert quoted(text, r"and a ([\d.]+) kg·m²") == round(stretched, 1)
    assert quoted(text, r"over (\d+) times more") == 100 * (stretched / upright // 100)


def test_ch08_the_youbot_controllers_as_the_text_reads_their_table():
    """Cell 8a88e3fb reads cell f34526e8's table (max |error| over the joints and the run) and its saturations."""
    text = cell("08_simulation_and_control.ipynb", "8a88e3fb")
    ns = run_cells("08_simulation_and_control.ipynb", "673f5221", "33881702", "f34526e8")
    table = {row[0]: dict(zip(ns["nominal"], row[1:])) for row in ns["rows"]}
    err = {case: {k: float(v.split("°")[0]) for k, v in row.items()} for case, row in table.items()}
    exact, unknown, wrong = err["0.5 kg, exact model"], err["0.5 kg, payload unknown"], err["0.5 kg, ±20 % model error"]
    assert "tracks to hundredths of a degree" in text and 0.005 <= exact["computed torque"] < 0.1
    assert quoted(text, r"PD \+ gravity lags by about (\d+)°") == round(exact["PD + gravity"])
    assert quoted(text, r"sags by (\d+)° in the first") == round(exact["PID"])
    pid = ns["nominal"]["PID"]
    worst = np.degrees(np.abs(pid.error)).max(axis=1)
    assert quoted(text, r"in the first ([\d.]+) s, until") == round(pid.t[worst.argmax()], 1)
    low, high = re.search(r"costs computed torque ([\d.]+)–([\d.]+)°", text).groups()
    assert float(low) <= min(unknown["computed torque"], wrong["computed torque"]) + 0.05
    assert max(unknown["computed torque"], wrong["computed torque"]) <= float(high) + 0.05
    extra = [case["PD + gravity"] - exact["PD + gravity"] for case in (unknown, wrong)]
    assert quoted(text, r"and PD \+ gravity (\d+)° on top of its lag") == pytest.approx(np.mean(extra), abs=0.5)
    heavy = table["1.5 kg (3× rated)"]
    saturated = [re.search(r"sat\. (\d+)", v).group(1) for v in heavy.values()]  # every controller's joints
    assert "joint 2 (and 3, 4) hit their effort limits" in text
    assert all("2" in joints for joints in saturated) and set("".join(saturated)) == {"2", "3", "4"}
    low, high = re.search(r"falls behind by (\d+)° to over (\d+)°", text).groups()
    behind = list(err["1.5 kg (3× rated)"].values())
    assert float(low) <= min(behind) < float(low) + 10 and max(behind) > float(high)


def test_ch08_the_costs_of_eq_12_that_cell_c16797ff_quotes():
    """Cell c16797ff quotes cell 3cb13271's costs J (degrees) of every solution, from where the arm is and from q = 0."""
    from armlab import ik

    text = cell("08_simulation_and_control.ipynb", "c16797ff")
    ns = run_cells("08_simulation_and_control.ipynb", "673f5221", "3cb13271")
    plan, arm = ns["plan"], ns["arm"]

    def costs(name, q_from):
        J, _ = ik.joint_motion(plan.solutions[name].q, q_from, ik.PAPER_WEIGHTS, arm.qlim)
        return sorted(np.degrees(J).round(6).tolist())

    def said(pattern):
        return sorted(float(x) for x in re.findall(r"(\d+)°", re.search(pattern, text).group(1)))

    pick = said(r"the arm starts at \$q = 0\$\): (.*?)\. For the place")
    assert pick == costs("pick", plan.q0) == costs("pick", np.zeros(3))
    from_pick = said(r"from the pick: (.*?); from zero")
    tie = quoted(text, r"the two back solutions tie at (\d+)°")
    assert sorted(from_pick + [tie]) == costs("place", plan.q_pick)
    assert said(r"from zero: (.*?), no tie") == costs("place", np.zeros(3))


def test_ch08_the_runs_miss_at_the_pick_and_its_theta3_and_tau1():
    """Cell 1b0ea52a on the Euler run of cell 7b699efb: the tool misses the pick point by 2.5 mm at step 380, θ3
    stays within 0.1° of 90° after it, and joint 1's torque is 0 to 1e-12 until the pick."""
    text = cell("08_simulation_and_control.ipynb", "1b0ea52a")
    ns = run_cells("08_simulation_and_control.ipynb", "673f5221", "3cb13271", "7b699efb")
    run, arm, P = ns["run"], ns["arm"], ns["P"]
    miss = np.linalg.norm(arm.fkine(run.q[380])[:3, 3] - np.asarray(P["pick"], float))
    assert quoted(text, r"over the ([\d.]+) mm by which the tool misses the pick point") == round(1000 * miss, 1)
    assert np.degrees(np.abs(run.q[380:, 2] - np.pi / 2)).max() < quoted(text, r"stays within ([\d.]+)° of 90°")
    assert "(its torque is 0 to 1e-12)" in text and np.abs(run.tau[:380, 0]).max() < 1e-12


def test_ch08_the_controllers_on_the_papers_task():
    """Cells b50b10ca and 0add8e4a on cell c9c1e2b0's table: joint 1's inertia at the pick and upright and K_d h/m
    upright; PD + gravity and PID tens of centimetres from the ball at step 380; computed torque's two degrees."""
    from armlab import control

    design, after = (
        cell("08_simulation_and_control.ipynb", "b50b10ca"),
        cell("08_simulation_and_control.ipynb", "0add8e4a"),
    )
    ns = run_cells("08_simulation_and_control.ipynb", "673f5221", "3cb13271", "7b699efb", "c9c1e2b0")
    arm, P, runs = ns["arm"], ns["P"], ns["runs"]
    q_pick = np.radians([0, 90, 90])
    m_pick, m_up = arm.inertia(q_pick)[0, 0], arm.inertia(np.zeros(3))[0, 0]
    assert quoted(design, r"joint 1 gets \$m \\approx ([\d.]+)\$ kg·m²") == round(m_pick, 1)
    assert quoted(design, r"upright it has ([\d.]+), and") == round(m_up, 4)
    kd = control.pd_gains(arm, q_pick, 20.0)[1][0]  # ω = 20 rad/s, the computed torque's
    assert quoted(design, r"upright it is (\d+) here") == round(kd * P["dt"] / m_up)
    for name in ("PD + gravity", "PID (Ki = 2·Kp)"):
        r = runs[name]
        assert np.degrees(r.max_error).max() > 1.0 and 0.1 < np.linalg.norm(r.tool[380] - P["pick"]) < 1.0
    assert "lag the fast quintic by degrees" in after and "tens of centimetres from the ball" in after
    worst = [
        np.degrees(runs[k].max_error).max()
        for k in ("computed torque, ball unknown", "computed torque, 30 % model error")
    ]
    assert "costs it two degrees or so" in after and all(1.5 <= w < 2.5 for w in worst)
