"""The nbgrader homework pipeline as tests/integration/test_homework.py and bench/bench_grading.py run it.

A temporary copy of the course, released with nbgrader's ``NbGraderAPI`` and autograded with it one by one,
or with ``armlab-grade`` in parallel (docs/instructor.md, "Testing and benchmarking"). ``SUBMISSIONS`` maps each
homework to a builder that derives students from the solution and the blank (released) notebook:
``{student: notebook}``, honest, wrong, partial and adversarial; ``OUTCOMES`` is the table of what each
must get: its score and the words its feedback shows. The pipeline
hardening (edited, deleted or stripped test cells, huge outputs, dead kernels) is exercised on
hw01; hw02–hw06 add their own wrong, partial and monkeypatching students.
"""

from __future__ import annotations

import copy
import shutil
import sys
import time
from pathlib import Path
from typing import NamedTuple

import nbformat

from armlab.autograde.bake import is_key_cell

REPO = Path(__file__).resolve().parents[2]
BIN = str(Path(sys.executable).parent)  # nbgrader runs `alembic`, which must be on PATH


def load_config():
    """The committed nbgrader_config.py, loaded so that any error in it raises."""
    from traitlets.config.loader import PyFileConfigLoader

    return PyFileConfigLoader("nbgrader_config.py", path=str(REPO)).load_config()


# --- editing submissions -------------------------------------------------------------------------
def cells_by_id(nb, grade_id):
    return [c for c in nb.cells if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == grade_id]


def set_source(nb, grade_id, source):
    (cell,) = cells_by_id(nb, grade_id)
    cell.source = source


def prepend(nb, grade_id, code):
    (cell,) = cells_by_id(nb, grade_id)
    cell.source = code + "\n" + cell.source


def graded_cells(nb):
    return [c for c in nb.cells if c.get("metadata", {}).get("nbgrader", {}).get("grade")]


# --- students --------------------------------------------------------------------------------------
PATCH_EVERYTHING = """
import builtins, numpy, sympy, armlab
import sympy as sp
from armlab import Rot, Trans, Tinv, point
numpy.allclose = lambda *a, **k: True
numpy.isclose = lambda a, b, *r, **k: numpy.ones(numpy.shape(a), dtype=bool)
numpy.testing.assert_allclose = lambda *a, **k: None
numpy.testing.assert_array_almost_equal = lambda *a, **k: None
numpy.linalg.norm = lambda *a, **k: 0.0
sympy.simplify = lambda e, *a, **k: 0
builtins.abs = lambda x: 0
armlab.Rot = lambda *a, **k: numpy.zeros((4, 4))
try:
    import armlab.grading
    armlab.grading.check_close = lambda *a, **k: None
except AttributeError:
    pass
"""


def hw01_submissions(solution, blank):
    """{student: notebook} for hw01 (18 points)."""
    subs = {"solution": solution, "blank": blank}

    nb = copy.deepcopy(solution)  # subtly wrong: Rot(z, −θ) (transpose), degrees, reversed order
    set_source(nb, "p1_my_Rot", "def my_Rot(axis, theta):\n    return armlab.Rot(axis, -theta)")
    set_source(nb, "p3_T_AB", "T_AB = Rot('x', 25) @ Trans(6, -3, 0) @ Rot('z', 40)")
    set_source(nb, "p4_to_frame_A", "def to_frame_A(T_AB, BP):\n    return T_AB[:3, :3] @ BP + T_AB[:3, 3]")  # right
    set_source(
        nb,
        "p5_fixed_current",
        "Rz, Rx, Ry = Rot('z', np.radians(35)), Rot('x', np.radians(70)), Rot('y', np.radians(-20))\n"
        "T_fixed = Rz @ Rx @ Ry\nT_current = Rz @ Rx @ Ry",
    )
    subs["wrong"] = nb

    nb = copy.deepcopy(solution)  # one mistake in part 3 (degrees): part 4, right, is graded on its own inputs
    set_source(nb, "p3_T_AB", "T_AB = Rot('x', 25) @ Trans(6, -3, 0) @ Rot('z', 40)")
    subs["part3_wrong_only"] = nb

    nb = copy.deepcopy(solution)
    prepend(nb, "p6_p_inv", "while True:\n    pass")
    subs["infinite_loop"] = nb

    nb = copy.deepcopy(blank)  # test cells edited to pass, points raised to 100
    for c in graded_cells(nb):
        c.source = "pass"
        c.metadata.nbgrader["points"] = 100
    subs["edited_tests"] = nb

    nb = copy.deepcopy(solution)  # every test cell deleted (answers right: restored tests give full marks)
    nb.cells = [c for c in nb.cells if c not in graded_cells(nb)]
    subs["deleted_tests"] = nb

    for name, base in (("stripped_blank", blank), ("stripped_solution", solution)):
        nb = copy.deepcopy(base)  # nbgrader metadata stripped everywhere, test cells replaced by `pass`
        for c in graded_cells(nb):
            c.source = "pass"
        for c in nb.cells:
            c.metadata.pop("nbgrader", None)
        subs[name] = nb

    nb = copy.deepcopy(solution)
    prepend(nb, "p1_my_Rot", "print('\\n'.join(map(str, range(1_000_000))))")
    subs["million_lines"] = nb

    nb = copy.deepcopy(solution)
    prepend(nb, "p2_my_Trans", "print('x' * 100_000_000)")
    subs["huge_line"] = nb

    nb = copy.deepcopy(blank)  # monkeypatching + wrong (well-shaped) answers: only the honest 3 visible points;
    (setup,) = cells_by_id(nb, "setup")  # ... and the locked setup cell deleted, so only the injected import
    nb.cells = [c for c in nb.cells if c is not setup]  # freezes the checkers before the patches run
    set_source(nb, "p1_my_Rot", PATCH_EVERYTHING + "def my_Rot(axis, theta):\n    return numpy.zeros((4, 4))")
    set_source(nb, "p2_my_Trans", "def my_Trans(dx, dy, dz):\n    return numpy.zeros((4, 4))")
    set_source(nb, "p3_T_AB", "T_AB = numpy.eye(4)")
    set_source(nb, "p4_to_frame_A", "def to_frame_A(T_AB, BP):\n    return numpy.zeros(3)")
    set_source(nb, "p5_fixed_current", "T_fixed = T_current = numpy.eye(4)")
    set_source(nb, "p6_p_inv", "a, b, theta = sp.symbols('a b theta', real=True)\np_inv = sp.Matrix([a, b, 0])")
    subs["monkeypatch"] = nb

    nb = copy.deepcopy(solution)
    prepend(nb, "p3_T_AB", "import os\nos._exit(1)")
    subs["os_exit"] = nb

    nb = copy.deepcopy(solution)
    # it waits rather than spins (hw01's infinite_loop spins): what it tests is the ignored interrupt, and a spinning
    # kernel the grader cannot interrupt would take a core from the rest of the suite until it is killed
    prepend(
        nb,
        "p6_p_inv",
        "import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    time.sleep(1)",
    )
    subs["ignores_sigint"] = nb
    return subs


def hw02_submissions(solution, blank):
    """{student: notebook} for hw02 (15 points)."""
    subs = {"solution": solution, "blank": blank}
    nb = copy.deepcopy(solution)  # standard-convention link, transposed T34, degrees, wrong twist
    set_source(
        nb,
        "p1_my_link",
        "def my_link(alpha, a, theta, d):\n"
        "    return Rot('z', theta) @ Trans(0, 0, d) @ Trans(a, 0, 0) @ Rot('x', alpha)",
    )
    set_source(
        nb,
        "p2_T34",
        "th4, a3, d4 = sp.symbols('th4 a3 d4', real=True)\nT34 = link_transform_modified(-sp.pi / 2, a3, th4, d4).T",
    )
    set_source(nb, "p4_T06", "q_deg = [20, -50, 75, 30, -40, 60]\nT06 = puma560().fkine(q_deg)")
    set_source(
        nb,
        "p5_scara",
        "scara = DHRobot([DHLink(d=0.5), DHLink(a=0.4), DHLink(a=0.3, joint='P'), DHLink()], convention='modified')",
    )
    subs["wrong"] = nb
    nb = copy.deepcopy(solution)  # an equivalent table in the standard convention gets full marks
    set_source(
        nb,
        "p5_scara",
        "scara = DHRobot([DHLink(d=0.5, a=0.4), DHLink(a=0.3, alpha=np.pi),"
        " DHLink(joint='P'), DHLink()], convention='standard')",
    )
    subs["equivalent_table"] = nb
    return subs


def hw03_submissions(solution, blank):
    """{student: notebook} for hw03 (15 points: 5 parts, visible 1 + hidden 2 each)."""
    subs = {"solution": solution, "blank": blank}

    nb = copy.deepcopy(solution)  # atan2 arguments swapped (part 1), degrees (part 2)
    set_source(
        nb,
        "p1_theta1",
        "def theta1(px, py, d2):\n"
        "    s = np.sqrt(px**2 + py**2 - d2**2)\n"
        "    return [np.arctan2(px, py) - np.arctan2(d2, s), np.arctan2(px, py) - np.arctan2(d2, -s)]",
    )
    set_source(
        nb,
        "p2_theta3",
        "def theta3(px, py, pz, a2, a3, d2, d4):\n"
        "    k = (px**2 + py**2 + pz**2 - a2**2 - a3**2 - d2**2 - d4**2) / (2 * a2)\n"
        "    D = a3**2 + d4**2 - k**2\n"
        "    if D < 0:\n        return []\n"
        "    return list(np.degrees([np.arctan2(a3, d4) - np.arctan2(k, s) for s in (np.sqrt(D), -np.sqrt(D))]))",
    )
    subs["wrong"] = nb

    nb = copy.deepcopy(solution)  # passes the visible tests of part 5, not the hidden ones: no ±360° shift
    set_source(
        nb,
        "p5_count",
        "RANGES_DEG = [(-160, 160), (-225, 45), (-225, 45), (-110, 170), (-100, 100), (-266, 266)]\n"
        "def in_range(theta, lo, hi):\n"
        "    x = lo + (theta - lo) % (2 * np.pi)\n"
        "    return bool(x <= hi + 1e-9 or abs(x - 2 * np.pi - lo) <= 1e-9)\n"
        "def count_valid(T):\n"
        "    lims = np.radians(RANGES_DEG)\n"
        "    n = 0\n"
        "    for q in puma.ikine_all(T).q:\n"
        "        q = (q + np.pi) % (2 * np.pi) - np.pi\n"
        "        n += all(lo <= x <= hi for x, (lo, hi) in zip(q, lims))\n"
        "    return n",
    )
    subs["partial"] = nb

    nb = copy.deepcopy(solution)  # the release before the θ3 erratum: right code, θ3 in −45°…225° (docs/instructor.md)
    (cell,) = cells_by_id(nb, "p5_count")
    cell.source = cell.source.replace("(-225, 45), (-225, 45)", "(-225, 45), (-45, 225)", 1)
    subs["old_ranges"] = nb

    nb = copy.deepcopy(blank)  # monkeypatching, no setup cell, wrong well-shaped answers: nothing to earn
    (setup,) = cells_by_id(nb, "setup")
    nb.cells = [c for c in nb.cells if c is not setup]
    set_source(
        nb,
        "p1_theta1",
        "import numpy as np\nfrom armlab import models\npuma = models.puma560()\n"
        + PATCH_EVERYTHING
        + "\nimport math\nmath.atan2 = lambda y, x: 0.0\n"
        "numpy.arctan2 = lambda y, x: 0.0\n"
        "def theta1(px, py, d2):\n    return [0.0, 0.0]",
    )
    set_source(nb, "p2_theta3", "def theta3(*args):\n    return [0.0, 0.0]")
    set_source(nb, "p3_solve_2r", "def solve_2r(x, y, l1, l2):\n    return numpy.zeros((2, 2))")
    set_source(
        nb,
        "p4_choose",
        "def motion_cost(q, q_current, k):\n    return 0.0\n"
        "def choose(solutions, q_current, k):\n    return numpy.asarray(solutions[-1])",
    )
    set_source(nb, "p5_count", "def in_range(theta, lo, hi):\n    return True\ndef count_valid(T):\n    return 0")
    subs["monkeypatch"] = nb

    nb = copy.deepcopy(solution)  # part 4 never finishes: that part is lost, the rest is graded (a wait: hw01's spins)
    prepend(nb, "p4_choose", "import time\nwhile True:\n    time.sleep(1)")
    subs["infinite_loop"] = nb
    return subs


def hw05_submissions(solution, blank):
    """{student: notebook} for hw05 (18 points: 6 parts, visible 1 + hidden 2 each)."""
    subs = {"solution": solution, "blank": blank}

    nb = copy.deepcopy(solution)  # moment of the force forgotten, reaction sign, transposed J, wrong frame
    set_source(nb, "p1_recursion_step", "def recursion_step(R, P, f_next, n_next):\n    return R @ f_next, R @ n_next")
    set_source(
        nb,
        "p2_tau_tip",
        "def tau_tip(theta1, theta2, l1, l2, f):\n"
        "    M = np.array([[l1 * np.sin(theta2), l1 * np.cos(theta2) + l2], [0.0, l2]])\n"
        "    return -M @ f",
    )
    set_source(
        nb,
        "p3_tau_base",
        "def tau_base(theta1, theta2, l1, l2, F):\n"
        "    s1, c1 = np.sin(theta1), np.cos(theta1)\n"
        "    s12, c12 = np.sin(theta1 + theta2), np.cos(theta1 + theta2)\n"
        "    J = np.array([[-l1 * s1 - l2 * s12, -l2 * s12], [l1 * c1 + l2 * c12, l2 * c12]])\n"
        "    return J @ F",
    )
    set_source(
        nb,
        "p5_wrench_at_tool",
        "def wrench_at_tool(T_WT, F_W):\n"
        "    R, p = T_WT[:3, :3], T_WT[:3, 3]\n"
        "    return np.concatenate([R @ F_W[:3], R @ (F_W[3:] - np.cross(p, F_W[:3]))])",
    )
    subs["wrong"] = nb

    nb = copy.deepcopy(solution)  # the force across the arm, the moment of the force forgotten, two joints only
    set_source(
        nb,
        "p4_free_direction",
        "def free_direction(theta1, theta2, l1, l2):\n    return np.array([-np.sin(theta1), np.cos(theta1)])",
    )
    set_source(
        nb,
        "p5_wrench_at_tool",
        "def wrench_at_tool(T_WT, F_W):\n"
        "    R = T_WT[:3, :3]\n"
        "    return np.concatenate([R.T @ F_W[:3], R.T @ F_W[3:]])",
    )
    set_source(
        nb,
        "p6_tip_force",
        "def tip_force(q, lengths, tau):\n"
        "    phi, l = np.cumsum(q), np.asarray(lengths)\n"
        "    J = np.array([[-np.sum(l[k:] * np.sin(phi[k:])) for k in range(3)],\n"
        "                  [np.sum(l[k:] * np.cos(phi[k:])) for k in range(3)]])\n"
        "    return np.linalg.solve(J[:, :2].T, tau[:2])",
    )
    subs["wrong_more"] = nb

    nb = copy.deepcopy(blank)  # monkeypatching, no setup cell, wrong well-shaped answers: nothing to earn
    (setup,) = cells_by_id(nb, "setup")
    nb.cells = [c for c in nb.cells if c is not setup]
    set_source(
        nb,
        "p1_recursion_step",
        "import numpy as np\n"
        + PATCH_EVERYTHING
        + "numpy.cross = lambda a, b: numpy.zeros(3)\nnumpy.linalg.solve = lambda A, b: numpy.zeros(2)\n"
        "def recursion_step(R, P, f_next, n_next):\n    return numpy.zeros(3), numpy.zeros(3)",
    )
    set_source(nb, "p2_tau_tip", "def tau_tip(*args):\n    return numpy.zeros(2)")
    set_source(nb, "p3_tau_base", "def tau_base(*args):\n    return numpy.zeros(2)")
    set_source(nb, "p4_free_direction", "def free_direction(*args):\n    return numpy.array([1.0, 0.0])")
    set_source(nb, "p5_wrench_at_tool", "def wrench_at_tool(T_WT, F_W):\n    return numpy.zeros(6)")
    set_source(nb, "p6_tip_force", "def tip_force(q, lengths, tau):\n    return numpy.zeros(2)")
    subs["monkeypatch"] = nb
    return subs


def hw04_submissions(solution, blank):
    """{student: notebook} for hw04 (15 points: 5 parts, visible 1 + hidden 2 each)."""
    subs = {"solution": solution, "blank": blank}
    rows = (
        "    phi, l = np.cumsum(q), np.asarray(lengths)\n"
        "    Jv = [[-np.sum(l[k:] * np.sin(phi[k:])) for k in range(3)],\n"
        "          [np.sum(l[k:] * np.cos(phi[k:])) for k in range(3)]]\n"
    )

    nb = copy.deepcopy(solution)  # tip-frame J, (v, ω) returned, deg/s, rotated the wrong way
    set_source(
        nb,
        "p1_J2",
        'th1, th2, l1, l2 = sp.symbols("th1 th2 l1 l2", real=True)\n'
        "J2 = sp.Matrix([[l1 * sp.sin(th2), 0], [l1 * sp.cos(th2) + l2, l2]])",
    )
    set_source(
        nb,
        "p2_propagate",
        "def propagate(R, P, w, v, qd, joint):\n"
        "    z = np.array([0.0, 0.0, 1.0])\n"
        "    w1 = R.T @ w + (qd * z if joint == 'R' else 0)\n"
        "    v1 = R.T @ (v + np.cross(w, P)) + (qd * z if joint == 'P' else 0)\n"
        "    return v1, w1",
    )
    set_source(
        nb,
        "p3_joint_rates",
        "def joint_rates(q, lengths, xdot):\n"
        + rows
        + "    return np.degrees(np.linalg.solve(np.array(Jv + [[1.0, 1.0, 1.0]]), xdot))",
    )
    set_source(
        nb,
        "p5_jacobian_in_base",
        "def jacobian_in_base(J_tool, T):\n    R = T[:3, :3].T\n    return np.vstack([R @ J_tool[:3], R @ J_tool[3:]])",
    )
    subs["wrong"] = nb

    nb = copy.deepcopy(solution)  # J2 transposed, the ω row first, the null space of J, the halves swapped
    set_source(
        nb,
        "p1_J2",
        'th1, th2, l1, l2 = sp.symbols("th1 th2 l1 l2", real=True)\n'
        "x = l1 * sp.cos(th1) + l2 * sp.cos(th1 + th2)\n"
        "y = l1 * sp.sin(th1) + l2 * sp.sin(th1 + th2)\n"
        "J2 = sp.Matrix([x, y]).jacobian([th1, th2]).T",
    )
    set_source(
        nb,
        "p3_joint_rates",
        "def joint_rates(q, lengths, xdot):\n"
        + rows
        + "    return np.linalg.solve(np.array([[1.0, 1.0, 1.0]] + Jv), xdot)",
    )
    set_source(
        nb,
        "p4_singular_pose",
        "def singular_pose(q, lengths):\n"
        "    q = np.array(q, dtype=float)\n"
        "    q[1] = 0.0 if np.cos(q[1]) >= 0 else np.pi\n"
        "    lengths = np.asarray(lengths, dtype=float)\n"
        + rows
        + "    return q, np.linalg.svd(np.array(Jv + [[1.0, 1.0, 1.0]]))[2][-1]",
    )
    set_source(
        nb,
        "p5_jacobian_in_base",
        "def jacobian_in_base(J_tool, T):\n    R = T[:3, :3]\n    return np.vstack([R @ J_tool[3:], R @ J_tool[:3]])",
    )
    subs["wrong_more"] = nb

    nb = copy.deepcopy(blank)  # monkeypatching, no setup cell, wrong well-shaped answers: nothing to earn
    (setup,) = cells_by_id(nb, "setup")
    nb.cells = [c for c in nb.cells if c is not setup]
    set_source(
        nb,
        "p1_J2",
        "import numpy as np\n" + PATCH_EVERYTHING + "numpy.linalg.solve = lambda A, b: numpy.zeros(3)\n"
        'th1, th2, l1, l2 = sp.symbols("th1 th2 l1 l2", real=True)\nJ2 = sp.Matrix([[th1, 0], [0, th2]])',
    )
    set_source(nb, "p2_propagate", "def propagate(*args):\n    return numpy.zeros(3), numpy.zeros(3)")
    set_source(nb, "p3_joint_rates", "def joint_rates(q, lengths, xdot):\n    return numpy.zeros(3)")
    set_source(
        nb, "p4_singular_pose", "def singular_pose(q, lengths):\n    return numpy.zeros(3), numpy.array([1.0, 0, 0])"
    )
    set_source(
        nb, "p5_jacobian_in_base", "def jacobian_in_base(J_tool, T):\n    return numpy.zeros((6, J_tool.shape[1]))"
    )
    subs["monkeypatch"] = nb
    return subs


def hw06_submissions(solution, blank):
    """{student: notebook} for hw06 (15 points: 5 parts, visible 1 + hidden 2 each)."""
    subs = {"solution": solution, "blank": blank}

    nb = copy.deepcopy(solution)  # the factor ½ missing, Coriolis counted once, the gravity sign, R for Rᵀ
    set_source(
        nb,
        "p1_kinetic_energy",
        "def kinetic_energy(q, qd, m1, m2, d1, d2):\n"
        "    w1, w2 = qd\n"
        "    v2_sq = d1**2 * w1**2 + d2**2 * (w1 + w2)**2 + 2 * d1 * d2 * np.cos(q[1]) * (w1**2 + w1 * w2)\n"
        "    return m1 * (d1 * w1)**2 + m2 * v2_sq",
    )
    set_source(
        nb,
        "p2_velocity_torques",
        "def velocity_torques(q, qd, m1, m2, d1, d2):\n"
        "    k = m2 * d1 * d2 * np.sin(q[1])\n"
        "    return np.array([-k * qd[1]**2 - k * qd[0] * qd[1], k * qd[0]**2])",
    )
    set_source(
        nb,
        "p3_gravity_torques",
        "def gravity_torques(q, m1, m2, d1, d2, g):\n"
        "    s1, s12 = np.sin(q[0]), np.sin(q[0] + q[1])\n"
        "    return -np.array([(m1 + m2) * g * d1 * s1 + m2 * g * d2 * s12, m2 * g * d2 * s12])",
    )
    set_source(
        nb,
        "p4_outward_step",
        "def outward_step(R, P, w, wd, vd, qd, qdd):\n"
        "    z = np.array([0.0, 0.0, 1.0])\n"
        "    return (R @ w + qd * z, R @ wd + np.cross(R @ w, qd * z) + qdd * z,\n"
        "            R @ (np.cross(wd, P) + np.cross(w, np.cross(w, P)) + vd))",
    )
    subs["wrong"] = nb

    nb = copy.deepcopy(solution)  # no cross term, angles from the horizontal, no centripetal term, eigenvalues only
    set_source(
        nb,
        "p1_kinetic_energy",
        "def kinetic_energy(q, qd, m1, m2, d1, d2):\n"
        "    return 0.5 * (m1 + m2) * (d1 * qd[0])**2 + 0.5 * m2 * d2**2 * (qd[0] + qd[1])**2",
    )
    set_source(
        nb,
        "p3_gravity_torques",
        "def gravity_torques(q, m1, m2, d1, d2, g):\n"
        "    c1, c12 = np.cos(q[0]), np.cos(q[0] + q[1])\n"
        "    return np.array([(m1 + m2) * g * d1 * c1 + m2 * g * d2 * c12, m2 * g * d2 * c12])",
    )
    set_source(
        nb,
        "p4_outward_step",
        "def outward_step(R, P, w, wd, vd, qd, qdd):\n"
        "    z = np.array([0.0, 0.0, 1.0])\n"
        "    return (R.T @ w + qd * z, R.T @ wd + np.cross(R.T @ w, qd * z) + qdd * z,\n"
        "            R.T @ (np.cross(wd, P) + vd))",
    )
    set_source(
        nb,
        "p5_spd",
        "def mass_matrix(q, m1, m2, d1, d2):\n"
        "    c2 = np.cos(q[1])\n"
        "    D12 = m2 * (d2**2 + d1 * d2 * c2)\n"
        "    return np.array([[(m1 + m2) * d1**2 + m2 * d2**2 + 2 * m2 * d1 * d2 * c2, D12], [D12, m2 * d2**2]])\n"
        "def is_spd(M):\n"
        "    return bool(np.all(np.linalg.eigvals(M).real > 1e-9))",
    )
    subs["wrong_more"] = nb

    nb = copy.deepcopy(blank)  # monkeypatching, no setup cell, wrong well-shaped answers: nothing to earn
    (setup,) = cells_by_id(nb, "setup")
    nb.cells = [c for c in nb.cells if c is not setup]
    set_source(
        nb,
        "p1_kinetic_energy",
        "import numpy as np\n"
        + PATCH_EVERYTHING
        + "numpy.cross = lambda a, b: numpy.zeros(3)\nnumpy.linalg.eigvalsh = lambda M: numpy.ones(len(M))\n"
        "def kinetic_energy(*args):\n    return 0.0",
    )
    set_source(nb, "p2_velocity_torques", "def velocity_torques(*args):\n    return numpy.zeros(2)")
    set_source(nb, "p3_gravity_torques", "def gravity_torques(*args):\n    return numpy.zeros(2)")
    set_source(
        nb, "p4_outward_step", "def outward_step(*args):\n    return numpy.zeros(3), numpy.zeros(3), numpy.zeros(3)"
    )
    set_source(nb, "p5_spd", "def mass_matrix(*args):\n    return numpy.eye(2)\ndef is_spd(M):\n    return True")
    subs["monkeypatch"] = nb
    return subs


def hw07_submissions(solution, blank):
    """{student: notebook} for hw07 (12 points: 4 parts, visible 1 + hidden 2 each)."""
    subs = {"solution": solution, "blank": blank}

    nb = copy.deepcopy(solution)  # columns swapped, unfiltered accelerations, numpy's default rank, the mean square
    set_source(
        nb,
        "p1_regressor",
        "def pendulum_regressor(q, qd, qdd, g=9.81):\n"
        "    return np.column_stack([g * np.sin(q), qdd, qd, np.sign(qd), np.ones_like(q)])",
    )
    set_source(
        nb,
        "p2_identify",
        "def identify_pendulum(t, q, tau):\n"
        "    qd = np.gradient(q, t)\n    qdd = np.gradient(qd, t)\n"
        "    Y = np.column_stack([qdd, 9.81 * np.sin(q), qd, np.sign(qd), np.ones_like(q)])\n"
        "    return np.linalg.lstsq(Y, tau, rcond=None)[0]",
    )
    set_source(
        nb,
        "p3_base",
        "def numeric_rank(Y):\n    return int(np.linalg.matrix_rank(Y))\n"
        "robot = armlab.models.planar2r()\nrng = np.random.default_rng(1)\n"
        "Q, QD, QDD = rng.uniform(-3, 3, (3, 50, 2))\n"
        "COUNT_VERTICAL = numeric_rank(armlab.dynamics.regressor(robot, Q, QD, QDD, (0, -9.81, 0)).reshape(-1, 20))\n"
        "COUNT_HORIZONTAL = numeric_rank(armlab.dynamics.regressor(robot, Q, QD, QDD, (0, 0, -9.81)).reshape(-1, 20))",
    )
    set_source(
        nb,
        "p4_rms",
        "def validation_rms(p, q, qd, qdd, tau):\n"
        "    Y = np.column_stack([qdd, 9.81 * np.sin(q), qd, np.sign(qd), np.ones_like(q)])\n"
        "    return float(np.mean((tau - Y @ p) ** 2))",
    )
    subs["wrong"] = nb

    nb = copy.deepcopy(solution)  # the friction offset forgotten twice, the two counts swapped
    set_source(
        nb,
        "p1_regressor",
        "def pendulum_regressor(q, qd, qdd, g=9.81):\n"
        "    return np.column_stack([qdd, g * np.sin(q), qd, np.sign(qd)])",
    )
    set_source(
        nb,
        "p2_identify",
        "def identify_pendulum(t, q, tau):\n"
        "    dt = t[1] - t[0]\n    k = 21\n"
        "    q_f = np.convolve(q, np.ones(k) / k, mode='same')\n"
        "    qd = np.gradient(q_f, dt)\n    qdd = np.gradient(qd, dt)\n"
        "    keep = slice(2 * k, len(t) - 2 * k)\n"
        "    return np.linalg.lstsq(pendulum_regressor(q_f[keep], qd[keep], qdd[keep]), tau[keep], rcond=None)[0]",
    )
    set_source(
        nb,
        "p3_base",
        "def numeric_rank(Y):\n"
        "    norms = np.linalg.norm(Y, axis=0)\n    live = norms > 1e-9 * norms.max()\n"
        "    s = np.linalg.svd(Y[:, live] / norms[live], compute_uv=False)\n"
        "    return int(np.sum(s > 1e-9 * s[0]))\n"
        "COUNT_VERTICAL, COUNT_HORIZONTAL = 4, 6",
    )
    subs["wrong_more"] = nb

    nb = copy.deepcopy(blank)  # monkeypatching, no setup cell, wrong well-shaped answers: nothing to earn
    (setup,) = cells_by_id(nb, "setup")
    nb.cells = [c for c in nb.cells if c is not setup]
    set_source(
        nb,
        "p1_regressor",
        "import numpy as np\n"
        + PATCH_EVERYTHING
        + "numpy.linalg.lstsq = lambda A, b, rcond=None: (numpy.zeros(A.shape[1]), 0, 0, 0)\n"
        "def pendulum_regressor(q, qd, qdd, g=9.81):\n    return numpy.zeros((len(q), 5))",
    )
    set_source(nb, "p2_identify", "def identify_pendulum(t, q, tau):\n    return numpy.zeros(5)")
    set_source(nb, "p3_base", "def numeric_rank(Y):\n    return 1\nCOUNT_VERTICAL = COUNT_HORIZONTAL = 1")
    set_source(nb, "p4_rms", "def validation_rms(*args):\n    return 0.0")
    subs["monkeypatch"] = nb
    return subs


def hw08_submissions(solution, blank):
    """{student: notebook} for hw08 (12 points: 4 parts, visible 1 + hidden 2 each)."""
    subs = {"solution": solution, "blank": blank}

    nb = copy.deepcopy(solution)  # time scaling, the error's sign, gravity left out; part 4 right
    set_source(
        nb,
        "p1_quintic",
        "def quintic_coefficients(q0, q1, T, v0=0.0, v1=0.0, a0=0.0, a1=0.0):\n"
        "    h = q1 - q0  # solved once for T = 1 s\n"
        "    return [q0, v0, a0 / 2, 10 * h - 6 * v0 - 4 * v1 - 1.5 * a0 + 0.5 * a1,\n"
        "            -15 * h + 8 * v0 + 7 * v1 + 1.5 * a0 - a1, 6 * h - 3 * (v0 + v1) - 0.5 * a0 + 0.5 * a1]",
    )
    set_source(
        nb,
        "p2_pdg",
        "def pd_gains(inertia, settling_time, zeta=1.0):\n"
        "    w = 4.0 / (zeta * settling_time)\n"
        "    return inertia * w**2, 2.0 * zeta * w * inertia\n"
        "def pdg_torque(theta, dtheta, theta_ref, kp, kd, m, l, g=9.81):\n"
        "    return kp * (theta - theta_ref) - kd * dtheta + m * g * l * np.cos(theta)",
    )
    set_source(
        nb,
        "p3_ct_step",
        "def ct_step(M, h, G, q, qd, q_ref, qd_ref, qdd_ref, kp, kd):\n"
        "    return M @ (qdd_ref + kd * (qd_ref - qd) + kp * (q_ref - q)) + h",
    )
    subs["wrong"] = nb

    nb = copy.deepcopy(solution)  # reversed order, gains without the inertia, PD outside M, equal weights
    set_source(
        nb,
        "p1_quintic",
        "def quintic_coefficients(q0, q1, T, v0=0.0, v1=0.0, a0=0.0, a1=0.0):\n"
        "    M = np.array([[0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 1, 0], [0, 0, 0, 2, 0, 0],  # c5 first\n"
        "                  [T**5, T**4, T**3, T**2, T, 1], [5 * T**4, 4 * T**3, 3 * T**2, 2 * T, 1, 0],\n"
        "                  [20 * T**3, 12 * T**2, 6 * T, 2, 0, 0]], dtype=float)\n"
        "    return np.linalg.solve(M, [q0, v0, a0, q1, v1, a1])",
    )
    set_source(
        nb,
        "p2_pdg",
        "def pd_gains(inertia, settling_time, zeta=1.0):\n"
        "    w = 4.0 / (zeta * settling_time)\n"
        "    return w**2, 2.0 * zeta * w\n"
        "def pdg_torque(theta, dtheta, theta_ref, kp, kd, m, l, g=9.81):\n"
        "    return kp * (theta_ref - theta) - kd * dtheta + m * g * l * np.cos(theta)",
    )
    set_source(
        nb,
        "p3_ct_step",
        "def ct_step(M, h, G, q, qd, q_ref, qd_ref, qdd_ref, kp, kd):\n"
        "    return M @ qdd_ref + kd * (qd_ref - qd) + kp * (q_ref - q) + h + G",
    )
    set_source(
        nb,
        "p4_best",
        "def best_solution(point, q_current):\n"
        "    sols = arm.ikine_all(np.asarray(point, dtype=float)).q\n"
        "    return sols[int(np.argmin(np.abs(sols - np.asarray(q_current)).sum(axis=1)))]",
    )
    subs["wrong_more"] = nb

    nb = copy.deepcopy(blank)  # monkeypatching, no setup cell, wrong well-shaped answers: nothing to earn
    (setup,) = cells_by_id(nb, "setup")
    nb.cells = [c for c in nb.cells if c is not setup]
    set_source(
        nb,
        "p1_quintic",
        "import numpy as np\n" + PATCH_EVERYTHING + "numpy.linalg.solve = lambda A, b: numpy.zeros(len(b))\n"
        "def quintic_coefficients(*args, **kw):\n    return numpy.zeros(6)",
    )
    set_source(nb, "p2_pdg", "def pd_gains(*args):\n    return 1.0, 1.0\ndef pdg_torque(*args):\n    return 0.0")
    set_source(nb, "p3_ct_step", "def ct_step(M, h, G, *args):\n    return numpy.zeros(len(h))")
    set_source(nb, "p4_best", "def best_solution(point, q_current):\n    return numpy.zeros(3)")
    subs["monkeypatch"] = nb
    return subs


def honest_and_blank(solution, blank):
    """The students of a homework without a builder of its own: the solution (full marks) and the blank."""
    return {"solution": solution, "blank": blank}


#: Every homework: each folder of solutions/ with its notebook (a new homework is found, nothing to add here).
HOMEWORK = sorted(p.name for p in (REPO / "solutions").iterdir() if (p / f"{p.name}.ipynb").is_file())


def max_score(homework):
    """The points of the homework's test cells, as its solutions notebook gives them."""
    nb = nbformat.read(REPO / "solutions" / homework / f"{homework}.ipynb", as_version=4)
    return float(sum(c.metadata.get("nbgrader", {}).get("points", 0) for c in graded_cells(nb)))


#: The students of each homework that has more than ``honest_and_blank`` (optional for a new homework).
SUBMISSIONS = {
    "hw01_transforms": hw01_submissions,
    "hw02_forward_kinematics": hw02_submissions,
    "hw03_inverse_kinematics": hw03_submissions,
    "hw04_jacobians": hw04_submissions,
    "hw05_statics": hw05_submissions,
    "hw06_dynamics": hw06_submissions,
    "hw07_identification": hw07_submissions,
    "hw08_control": hw08_submissions,
}


# --- expected outcomes ---------------------------------------------------------------------------
class Outcome(NamedTuple):
    """What one submission must get: its autograded score, and the words its feedback must show (the
    mistakes named; empty: the feedback of this student is not generated by the tests)."""

    homework: str
    student: str
    score: float
    feedback: tuple[str, ...] = ()


#: One row per submission that ``SUBMISSIONS`` builds (a builder's student without a row is an error).
OUTCOMES = [
    Outcome("hw01_transforms", "solution", 18.0),
    Outcome("hw01_transforms", "blank", 0.0),
    # the visible tests of parts 3 and 5 name these mistakes too
    Outcome(
        "hw01_transforms",
        "wrong",
        18.0 - 3 - 3 - 4,
        (
            "transpose of the expected rotation",
            "wrong composition order",
            "degrees were used where radians were expected",
        ),
    ),
    # part 4 is graded on its own transforms: the part 3 mistake costs part 3's points only
    Outcome("hw01_transforms", "part3_wrong_only", 15.0, ("degrees were used where radians were expected",)),
    Outcome("hw01_transforms", "infinite_loop", 15.0),
    Outcome("hw01_transforms", "edited_tests", 0.0),
    Outcome("hw01_transforms", "deleted_tests", 18.0),
    Outcome("hw01_transforms", "stripped_blank", 0.0),
    Outcome("hw01_transforms", "stripped_solution", 18.0),
    Outcome("hw01_transforms", "million_lines", 18.0),
    Outcome("hw01_transforms", "huge_line", 18.0),
    Outcome("hw01_transforms", "monkeypatch", 3.0),
    Outcome("hw01_transforms", "os_exit", 0.0),
    Outcome("hw01_transforms", "ignores_sigint", 0.0),
    Outcome("hw02_forward_kinematics", "solution", 15.0),
    Outcome("hw02_forward_kinematics", "blank", 0.0),
    # the visible tests of parts 1 and 4 name these mistakes too
    Outcome("hw02_forward_kinematics", "wrong", 15.0 - 3 - 2 - 3 - 2),
    Outcome("hw02_forward_kinematics", "equivalent_table", 15.0),
    Outcome("hw03_inverse_kinematics", "solution", 15.0),
    Outcome("hw03_inverse_kinematics", "blank", 0.0),
    Outcome(
        "hw03_inverse_kinematics",
        "wrong",
        15.0 - 3 - 3,
        (
            "atan2 takes (y, x)",  # part 1: the hint for swapped atan2 arguments
            "degrees were used",
        ),
    ),  # part 2
    Outcome("hw03_inverse_kinematics", "partial", 15.0 - 2),
    Outcome("hw03_inverse_kinematics", "old_ranges", 15.0 - 3),
    Outcome("hw03_inverse_kinematics", "monkeypatch", 0.0),
    Outcome("hw03_inverse_kinematics", "infinite_loop", 15.0 - 3),
    Outcome("hw04_jacobians", "solution", 15.0),
    Outcome("hw04_jacobians", "blank", 0.0),
    Outcome(
        "hw04_jacobians",
        "wrong",
        15.0 - 4 * 3,
        (
            "Jacobian in the tip frame {3}",  # part 1: wrong frame
            "returned (v, ω)",  # part 2: [ω; v] order
            "degrees per second",  # part 3
            "rotated the wrong way",
        ),
    ),  # part 5
    Outcome(
        "hw04_jacobians",
        "wrong_more",
        15.0 - 4 * 3,
        (
            "transpose of the expected matrix",  # part 1
            "[ω; v] row order: ẋ is (vx, vy, ωz)",  # part 3
            "transposed: this is the joint motion that moves nothing",  # part 4
            "[ω; v] row order: the rows are (v; ω)",
        ),
    ),  # part 5
    Outcome("hw04_jacobians", "monkeypatch", 0.0),
    Outcome("hw05_statics", "solution", 18.0),
    Outcome("hw05_statics", "blank", 0.0),
    Outcome(
        "hw05_statics",
        "wrong",
        18.0 - 4 * 3,
        (
            "forgot the moment of the force",  # part 1
            "sign flipped: this balances the force the environment applies",  # part 2: reaction
            "transposed J",  # part 3
            "wrong frame: the result must be in {T}'s axes",
        ),
    ),  # part 5
    Outcome(
        "hw05_statics",
        "wrong_more",
        18.0 - 3 * 3,
        ("ACROSS the stretched-out arm", "only two of the three joint equations", "forgot the moment of the force"),
    ),  # part 5
    Outcome("hw05_statics", "monkeypatch", 0.0),
    Outcome("hw06_dynamics", "solution", 15.0),
    Outcome("hw06_dynamics", "blank", 0.0),
    Outcome(
        "hw06_dynamics",
        "wrong",
        15.0 - 4 * 3,
        (
            "missing the factor ½",  # part 1
            "Coriolis counted once instead of twice",  # part 2
            "gravity sign",  # part 3
            "rotated the wrong way",
        ),
    ),  # part 4
    Outcome(
        "hw06_dynamics",
        "wrong_more",
        15.0 - 4 * 3,
        (
            "cross term of v2² is missing",  # part 1
            "angles measured from the horizontal",  # part 3
            "centripetal term ω × (ω × P)",  # part 4
            "not symmetric (M ≠ Mᵀ)",
        ),
    ),  # part 5
    Outcome("hw06_dynamics", "monkeypatch", 0.0),
    Outcome("hw07_identification", "solution", 12.0),
    Outcome("hw07_identification", "blank", 0.0),
    # only part 3's visible test: numpy's rank is right on the two small matrices
    Outcome(
        "hw07_identification",
        "wrong",
        1.0,
        (
            "columns are in the wrong order",  # part 1
            "unfiltered accelerations",  # part 2
            "this is the mean square",
        ),
    ),  # part 4
    # part 3's visible test only: part 4 uses its 4-column regressor too
    Outcome(
        "hw07_identification",
        "wrong_more",
        1.0,
        (
            "friction offset f_off needs a column of ones",  # part 1
            "friction offset f_off is missing",
        ),
    ),  # part 2
    Outcome("hw07_identification", "monkeypatch", 0.0),
    Outcome("hw08_control", "solution", 12.0),
    Outcome("hw08_control", "blank", 0.0),
    Outcome(
        "hw08_control",
        "wrong",
        3.0,
        (
            "time scaling: this solves the conditions for T = 1 s",  # part 1
            "wrong sign of the error",  # part 2
            "the gravity term G is missing",
        ),
    ),  # part 3
    # part 4's visible cases do not tell equal weights apart: its visible point
    Outcome(
        "hw08_control",
        "wrong_more",
        1.0,
        (
            "reverse order",
            "the inertia is missing",  # parts 1 and 2
            "the feedback is not multiplied by M",
            "equal weights",
        ),
    ),  # parts 3 and 4
    Outcome("hw08_control", "monkeypatch", 0.0),
]
OUTCOMES += [  # a homework without rows of its own: its solution gets full marks, its blank nothing
    Outcome(hw, student, score)
    for hw in HOMEWORK
    if hw not in {o.homework for o in OUTCOMES}
    for student, score in (("solution", max_score(hw)), ("blank", 0.0))
]
EXPECTED = {(o.homework, o.student): o.score for o in OUTCOMES}
assert len(EXPECTED) == len(OUTCOMES), "one row per (homework, student)"


# --- one batch -----------------------------------------------------------------------------------
def scores(api, assignment, student):
    """(score, max score, {cell: (score, max score)}) of one autograded submission."""
    with api.gradebook as gb:
        sub = gb.find_submission(assignment, student)
        cells = {g.name: (g.score, g.max_score) for nb in sub.notebooks for g in nb.grades}
        return sub.score, sub.max_score, cells


def run_batch(root, assignments=None, builders=None, timeout=None, select=None, workers=None):
    """Release ``assignments`` (default: every homework) in a temporary course at ``root`` and
    autograde every submission ``builders`` (default ``SUBMISSIONS``) make of them, or those
    ``select``ed by (assignment, student), as one batch. ``timeout``: per-cell Execute timeout (default:
    the committed config's). ``workers``: None grades one after another with ``NbGraderAPI.autograde``,
    as ``nbgrader autograde`` does; N grades with ``armlab-grade`` on one Dask cluster of N workers (the same
    scores: tests/integration/test_batch_grading.py), and ``graded`` holds its ``success`` and reason."""
    from nbgrader.apps import NbGraderAPI
    from traitlets.config import Config

    builders = SUBMISSIONS if builders is None else builders
    assignments = HOMEWORK if assignments is None else list(assignments)
    root = Path(root)
    for a in assignments:  # only these assignments (other homework may be work in progress)
        shutil.copytree(REPO / "solutions" / a, root / "solutions" / a)
    config = (REPO / "nbgrader_config.py").read_text()  # the course's own, for armlab-grade's workers
    (root / "nbgrader_config.py").write_text(config + (f"\nc.Execute.timeout = {timeout}\n" if timeout else ""))
    cfg = load_config()
    overrides = {"CourseDirectory": {"root": str(root)}, "Exchange": {"root": str(root / "_exchange")}}
    if timeout is not None:
        overrides["Execute"] = {"timeout": timeout}
    cfg.merge(Config(overrides))
    api = NbGraderAPI(config=cfg)
    result = {"root": root, "api": api, "generated": {}, "graded": {}, "expected": {}, "times": {}}
    t0 = time.perf_counter()
    for a in assignments:
        res = api.generate_assignment(a)
        assert res["success"], res.get("error")
        result["generated"][a] = res
    for a in assignments:
        solution = nbformat.read(root / "solutions" / a / f"{a}.ipynb", as_version=4)
        solution.cells = [c for c in solution.cells if not is_key_cell(c)]  # a student's copy has no answer key
        blank = nbformat.read(root / "exercises" / a / f"{a}.ipynb", as_version=4)
        for student, nb in builders.get(a, honest_and_blank)(solution, blank).items():
            if select is not None and (a, student) not in select:
                continue
            dest = root / "submitted" / student / a / f"{a}.ipynb"
            dest.parent.mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, str(dest))
            result["expected"][(a, student)] = EXPECTED[(a, student)]  # KeyError: add the student to OUTCOMES
    if workers is None:
        for a, student in result["expected"]:
            t = time.perf_counter()
            res = api.autograde(a, student)  # never raises; success=False for a dead kernel
            result["times"][(a, student)] = time.perf_counter() - t
            result["graded"][(a, student)] = (res, scores(api, a, student))
    else:
        _grade_in_parallel(
            root, api, sorted({a for a, _ in result["expected"]}, key=assignments.index), workers, result
        )
    result["total_time"] = time.perf_counter() - t0
    return result


def _grade_in_parallel(root, api, assignments, workers, result):
    """armlab-grade, assignment after assignment, on one LocalCluster (its workers keep their warm kernels)."""
    import io

    import dask
    from distributed import LocalCluster

    from armlab.autograde.batch import grade_assignment

    with (
        dask.config.set({"distributed.scheduler.worker-saturation": 1.0}),  # one submission per worker at a time
        LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None, host="127.0.0.1"
        ) as cluster,
    ):
        for a in assignments:
            for r in grade_assignment(
                a, root, scheduler=cluster.scheduler_address, feedback=False, stream=io.StringIO()
            ):
                result["times"][(a, r.student)] = r.seconds
                res = {"success": r.ok, "error": r.reason, "log": r.log}
                result["graded"][(a, r.student)] = (res, scores(api, a, r.student))
