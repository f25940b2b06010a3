"""What the lab notebooks' prose says is what the lab client, its safety layer and the simulator do (issue #32).

As in test_course_statements.py: each test reads a sentence from its cell by the cell's id and checks the number or
the property it states against the code; lab 3's against a run of the whole lab in a kernel on a simulator of its own,
which is lab 3's headless run too (test_notebooks.py leaves it to this file)."""

from __future__ import annotations

import ast
import inspect
import re

import numpy as np
import pytest

pytest.importorskip("websockets")

from armlab import models  # noqa: E402
from armlab.lab import SafetyLimits, Simulator, YoubotArm, safety  # noqa: E402  (imported: the lab's test fixtures see it)
from support.course_cells import cell, cell_lines, quoted  # noqa: E402

LAB1, LAB2, LAB3 = "lab1_connect_and_move.ipynb", "lab2_pick_and_place.ipynb", "lab3_identification.ipynb"


def test_lab1_the_safety_numbers_are_the_clients():
    """Cells a458c562 and 108de53d quote the firmware speeds, the stream rate, the margin and the stale limit."""
    limits, rate = SafetyLimits(), inspect.signature(YoubotArm).parameters["rate"].default
    intro, fault = cell(LAB1, "a458c562"), cell(LAB1, "108de53d")
    slow, fast = re.search(r"at up to ([\d.]+)–([\d.]+) rad/s", intro).groups()
    firmware = models.YOUBOT_ACTUATORS["max_speed"]
    assert (float(slow), float(fast)) == (round(firmware.min(), 1), round(firmware.max(), 1))
    assert quoted(intro, r"trajectory at (\d+) Hz") == rate
    assert quoted(intro, r"\(with a ([\d.]+) rad margin\)") == limits.margin
    assert quoted(intro, r"stops for more than (\d+) ms") == 1000 * limits.stale_after
    # the client trips when the last state is older than the limit and no state came in one more tick (arm.py)
    assert quoted(fault, r"no state has come for (\d+) ms") == 1000 * limits.stale_after
    assert quoted(fault, r"one more tick \((\d+) ms at") == 1000 / rate and quoted(fault, r"ms at (\d+) Hz\)") == rate
    assert quoted(fault, r"some (\d+) ms after the last state") == 1000 * limits.stale_after + 1000 / rate


def test_lab1_the_candle_geometry_is_the_models():
    text, yb = cell(LAB1, "3a4476b9"), models.youbot()
    a1, d1, a2, a3, d5 = yb.links[0].a, yb.links[0].d, yb.links[1].a, yb.links[2].a, yb.links[4].d
    assert quoted(text, r"\$a_1 = ([\d.]+)\$ m in front") == a1
    *lengths, height = map(
        float, re.search(r"= ([\d.]+) \+ ([\d.]+) \+ ([\d.]+) \+ ([\d.]+) = ([\d.]+)\$", text).groups()
    )
    assert lengths == [d1, a2, a3, d5] and height == pytest.approx(sum(lengths), abs=1e-12)
    tool = yb.fkine(models.youbot_driver_to_q(models.YOUBOT_DRIVER["candle"]))[:3, 3]
    np.testing.assert_allclose(tool, [a1, 0.0, height], atol=1e-12)


def test_lab1_each_refusal_says_what_it_refused_and_why():
    """Cell c1510a2c, for the five commands of cell 86f6bf3f (the checks arm.move_joints, .gripper and
    .call_service run before sending)."""
    text, limits = cell(LAB1, "c1510a2c"), safety.SafetyLimits()

    def refusal(check, *args):
        with pytest.raises(safety.SafetyError) as e:
            check(*args)
        assert str(e.value).endswith("nothing was sent")
        return str(e.value)

    assert "the joint, its value and the limit for a joint angle" in text
    assert "joint 2 value 30 in q is larger than 2π" in refusal(safety.check_joint_vector, [0, 30, 60, 90, 0])
    upper = models.YOUBOT_DRIVER["upper"]
    beyond = refusal(safety.check_set_point, upper, limits)
    assert f"joint 1 set point {upper[0]:.4f} rad" in beyond and f"safe range [{limits.safe_lower[0]:.4f}, " in beyond
    assert "the value and the cap or range for a speed or a gripper opening" in text
    assert f"speed 3 rad/s is above the cap {limits.max_speed} rad/s" in refusal(safety.check_speed, 3.0, limits)
    assert "gripper opening 10 m is outside 0 … 0.0115 m" in refusal(safety.check_gripper, 10)
    assert "what the service would do" in text
    assert "it cuts motor current: the arm falls" in refusal(safety.check_service, "/arm_1/switchOffMotors")


def _lab2_constants():
    """PICK, PLACE, ABOVE as cell 9d8872af sets them."""
    line = re.search(r"^PICK, PLACE, ABOVE = (.*)$", cell_lines(LAB2, "9d8872af"), re.M).group(1)
    return ast.literal_eval(line)


def test_lab2_the_poses_speeds_and_carry_distance_are_the_cells():
    from armlab import transforms as tf

    pick, place, above = _lab2_constants()
    poses_text, line_text, task = cell(LAB2, "1e5d2714"), cell(LAB2, "745aa4c4"), cell(LAB2, "244ee13e")
    robot = models.youbot()
    assert quoted(poses_text, r"\(\$d_5 = ([\d.]+)\$ m\)") == robot.links[4].d
    assert quoted(poses_text, r"approach pose\s+(\d+) cm above it") == round(100 * above)
    assert quoted(task, r"carry it ([\d.]+) m") == round(float(np.hypot(pick[0] - place[0], pick[1] - place[1])), 2)
    # the line's speeds: line()'s default and the carry's, and the smooth start and stop of cartesian_path
    code = cell(LAB2, "04ea3909")
    assert quoted(line_text, r"at (\d+) cm/s on average") == 100 * quoted(code, r"def line\(name_to, speed=([\d.]+)\)")
    assert quoted(line_text, r"\((\d+) cm/s when carrying") == 100 * quoted(
        task, r'line\("above place", speed=([\d.]+)\)'
    )
    assert (
        "s = (1 - np.cos(np.pi * np.arange(1, n + 1) / n)) / 2" in code
        and "the peak is $\\pi/2$ times that" in line_text
    )
    n = 1000
    s = (1 - np.cos(np.pi * np.arange(0, n + 1) / n)) / 2
    assert np.diff(s).max() * n == pytest.approx(np.pi / 2, rel=1e-5)
    # ψ = π keeps joint 5 near the middle of its range at every spot
    lo5, hi5 = robot.qlim[4]
    for x, y, z in (pick, place, (*pick[:2], above), (*place[:2], above)):
        T = tf.Rot("z", np.arctan2(y, x)) @ tf.Rot("y", np.pi) @ tf.Rot("z", np.pi)
        T[:3, 3] = [x, y, z]
        q5 = robot.ikine(T, q0=models.youbot_driver_to_q(models.YOUBOT_DRIVER["candle"])).q[0, 4]
        assert abs(q5 - (lo5 + hi5) / 2) < 0.05 * (hi5 - lo5)
    assert "keeps joint 5 near the middle of its range" in poses_text


#: the values lab 3's statements are about, printed by a cell appended to the lab's run (JSON, one line)
LAB3_VALUES = """\
import json as _json
import numpy as np
from armlab.lab.ident import model_terms as _terms
from armlab.lab.sim.physics import COULOMB as _coulomb
_Mqdd, _Cqd, _G = _terms(robot, valid["q"], valid["qd"], valid["qdd"])
print(_json.dumps({
    "count": full.params.count, "theta": theta.tolist(), "err": list(map(float, err)),
    "err_full": list(map(float, err_full)), "coulomb_5": float(_coulomb[4]),
    "rms_inertial_5": float(np.sqrt(np.mean((_Mqdd + _Cqd) ** 2, axis=0))[4]),
    "rms_gravity_5": float(np.sqrt(np.mean(_G**2, axis=0))[4]),
}))"""


def run_lab3(tmp_path, monkeypatch):
    """Lab 3 run whole in a kernel on a simulator of its own (about 15 s of motion), as test_notebooks.py runs the
    other notebooks headless (test_notebooks.py leaves lab 3 to this test: one run of it), with the run's values
    printed by a last cell; the executed notebook without that cell, and the values."""
    import json

    import nbformat

    from support.course_cells import COURSE
    from support.notebooks import run_whole

    nb = nbformat.read(COURSE / LAB3, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(LAB3_VALUES))
    monkeypatch.delenv("ARMLAB_ROBOT_URL", raising=False)
    run_whole(nb, tmp_path, COURSE)  # raises CellExecutionError with the failing cell and its traceback
    values = json.loads("".join(o.get("text", "") for o in nb.cells.pop().outputs))
    return nb, values


@pytest.mark.timeout(240)
def test_lab3_runs_whole_on_the_simulator_and_its_scaling_fit_reads_as_the_text_says(tmp_path, monkeypatch):
    """Lab 3 run whole (the headless check of test_notebooks.py: no error, no printed markup, no generated alt text),
    then cell 2ba627df against the run's values."""
    from support.notebooks import run_problems

    nb, v = run_lab3(tmp_path, monkeypatch)
    assert not run_problems(nb), f"{LAB3}: {run_problems(nb)}"
    text = cell(LAB3, "2ba627df")
    theta, err, err_full = np.array(v["theta"]), np.array(v["err"]), np.array(v["err_full"])
    assert quoted(text, r"\(([\d]+) for the youBot") == v["count"]
    assert "predicts the unseen motion better than the 47-parameter fit" in text
    assert np.sum(err**2) < np.sum(err_full**2)
    assert np.abs(theta[1:4, 1] - 1).max() < quoted(text, r"joints 2–4 comes back within some (\d+) % of 1") / 100, (
        theta
    )
    assert np.abs(theta[:4, 0] - 1).max() < quoted(text, r"but \$\\alpha\$ only within some (\d+) %") / 100, theta
    assert "tiny beside its friction" in text
    assert max(v["rms_inertial_5"], v["rms_gravity_5"]) < 0.1 * v["coulomb_5"]


def test_lab3_the_excitation_and_the_smoothing_are_the_codes():
    """Cells 4737b49c, 2f03506f and 0efe1657 quote excitation_trajectory's frequencies and speed, the lab's cap, the
    run's length (cell 5fa1f3db's durations) and identify_scaling's moving average."""
    from armlab.lab.ident import excitation_trajectory, identify_scaling

    text, run, fit = cell(LAB3, "4737b49c"), cell(LAB3, "2f03506f"), cell(LAB3, "0efe1657")
    ex = inspect.signature(excitation_trajectory).parameters
    base, harmonics, peak = ex["base_hz"].default, ex["harmonics"].default, ex["max_speed"].default
    freqs = re.search(r"sum of three sines \(([\d.]+), ([\d.]+) and ([\d.]+) Hz\)", text).groups()
    assert len(harmonics) == 3 and [float(f) for f in freqs] == [base * k for k in harmonics]
    assert quoted(text, r"peak\s+joint speed of ([\d.]+) rad/s") == peak
    assert quoted(text, r"below the lab's (\d+) rad/s cap") == SafetyLimits().max_speed
    durations = [float(d) for d in re.findall(r"duration=([\d.]+)", cell(LAB3, "5fa1f3db"))]
    assert quoted(run, r"then run (\d+) s of excitation") == sum(durations)
    assert quoted(run, r"excitation up to ([\d.]+) rad/s") == peak
    smooth = inspect.signature(identify_scaling).parameters["smooth"].default
    rate = inspect.signature(Simulator).parameters["rate"].default  # /joint_states, as the driver publishes it
    assert quoted(fit, r"the same (\d+)-sample") == smooth and quoted(fit, r"-sample \(([\d.]+) s\)") == smooth / rate
