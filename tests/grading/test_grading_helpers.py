"""armlab.grading: every helpful message, and the checkers' resistance to tampering."""

import builtins
import contextlib
import dis
import importlib
import math
import pkgutil
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

import armlab
import armlab.grading as g
from armlab.autograde import key
from armlab import Rot, Trans, point
from armlab.grading import (
    check_close,
    check_dh_position,
    check_expr_equal,
    check_orthonormal,
    check_robot,
    check_shape,
    check_symbols,
)

from support.verdicts import raises_verdict

pytestmark = pytest.mark.homework("hw01_transforms", "hw02_forward_kinematics")  # their checkers


def fails(fn, *args, match, **kwargs):
    with raises_verdict(match):
        fn(*args, **kwargs)


# --- check_close ---------------------------------------------------------------------------------
def test_check_close_passes_within_tolerance():
    check_close([1.0, 2.0], [1.0 + 1e-8, 2.0])
    check_close(np.eye(3), np.eye(3).tolist())
    check_close(sp.Matrix([[1, 0], [0, 1]]), np.eye(2))
    check_close(np.float32(0.5), 0.5)
    check_close(2 * np.pi + 0.1, 0.1, angle=True)
    fails(check_close, 1.001, 1.0, match="is off by up to", atol=1e-6)
    check_close(1.001, 1.0, atol=1e-2)


def test_message_transpose_of_rotation():
    fails(check_close, R := armlab.R("z", 0.4), R.T, name="R", match="transpose of the expected rotation")


def test_message_degrees_for_radians():
    fails(check_close, 30.0, np.radians(30), match="degrees were used where radians were expected")
    fails(check_close, [np.radians(10), np.radians(20)], [10, 20], match="radians were used where degrees")


def test_message_not_orthonormal():
    R = armlab.R("x", 0.7).copy()
    R[0, 0] = 1.3
    fails(check_close, R, armlab.R("x", 0.7), match="not orthonormal")
    fails(check_orthonormal, R, match="not orthonormal")
    fails(check_orthonormal, np.diag([1.0, 1.0, -1.0]), match="det")
    check_orthonormal(Rot("y", 1.0))


def test_message_wrong_shape():
    fails(check_close, armlab.R("x", 0.2), Rot("x", 0.2), match="wrong shape.*3×3 rotation where the 4×4")
    fails(check_close, point(1, 2, 3), [1, 2, 3], match="homogeneous point")
    fails(check_close, [[1, 2], [3]], [[1, 2], [3, 4]], match="ragged")
    fails(check_shape, np.zeros(4), (3,), match="wrong shape")
    check_shape(sp.Matrix([sp.Symbol("a"), 0, 1]), (3, 1))


def test_message_nan_inf_none():
    fails(check_close, [1.0, np.nan], [1.0, 2.0], match="NaN")
    fails(check_close, [1.0, np.inf], [1.0, 2.0], match="infinity")
    fails(check_close, None, [1.0], match="None")
    fails(check_close, sp.Symbol("x"), 1.0, match="symbols")


def test_message_sign_flipped_and_off_by_pi():
    fails(check_close, [-1.0, -2.0, 3.0], [1.0, 2.0, -3.0], match="sign flipped")
    fails(check_close, [1.0, -2.0, 3.0], [1.0, 2.0, 3.0], match=r"sign is flipped at index \(1,\)")
    fails(check_close, 0.3 + np.pi, 0.3, match="off by π")
    fails(check_close, 0.3 - np.pi, 0.3, angle=True, match="off by π")


def test_message_translation_vs_rotation_part():
    T = Trans(1, 2, 3) @ Rot("z", 0.3)
    fails(check_close, Trans(1, 2, 4) @ Rot("z", 0.3), T, match="rotation part is right but the translation")
    fails(check_close, Trans(1, 2, 3) @ Rot("z", 0.2), T, match="position is right but the rotation")


def test_hints_name_known_mistakes():
    fails(check_close, 5.0, 3.0, hints={"you added instead of subtracting": 5.0}, match="added instead")


# --- answer keys: a student's function or value against data armlab computed ---------------------------
def rot_mistakes(axis, theta):
    return {
        **{
            f"this is a rotation about {o}, expected a rotation about {axis}": Rot(o, theta) for o in "xyz" if o != axis
        },
        "looks like degrees were used where radians were expected": Rot(axis, np.degrees(theta)),
        "looks like the angle was converted to radians twice": Rot(axis, np.radians(theta)),
    }


ROT_KEY = key.cases(Rot, [(axis, t) for axis in "xyz" for t in (0.0, 0.7, -2.0)], mistakes=rot_mistakes)


def test_check_cases_passes_eq_3_19_to_3_21_and_names_the_rotation_mistakes():
    """hw01 part 1: my_Rot against Rot on the key's inputs; the key's wrong variants are named, the transpose
    (R(axis, −θ)) without a key entry."""
    g.check_cases(Rot, ROT_KEY, name="my_Rot")
    g.check_cases(lambda a, t: armlab.Rot(a, t).tolist(), ROT_KEY, name="my_Rot")  # nested lists are answers too
    fails(g.check_cases, lambda a, t: Rot(a, -t), ROT_KEY, name="my_Rot", match="transpose of the expected rotation")
    fails(g.check_cases, lambda a, t: Rot(a, t, deg=True), ROT_KEY, name="my_Rot", match="radians twice")
    fails(g.check_cases, lambda a, t: Rot(a, np.degrees(t)), ROT_KEY, match="degrees were used where radians")
    fails(g.check_cases, lambda a, t: Rot("x", t), ROT_KEY, match="rotation about x, expected a rotation about y")
    fails(g.check_cases, lambda a, t: None, ROT_KEY, match="None")
    fails(g.check_cases, lambda a, t: armlab.R(a, t), ROT_KEY, match="3×3 rotation where the 4×4")
    fails(g.check_cases, lambda a, t: (_ for _ in ()).throw(NotImplementedError()), ROT_KEY, match="not implemented")


def test_check_cases_gives_arrays_to_eq_3_16_and_names_a_mistake_of_another_shape():
    """hw01 part 4: the key's ``{"ndarray": ...}`` inputs reach the function as float arrays; the homogeneous
    4-vector, a known mistake of shape (4,), is named before the shape is."""
    T, p = Rot("z", 0.4) @ Trans(1, 2, 3), np.array([3.0, -5.0, 2.0])
    k = key.cases(lambda T, p: (T @ np.append(p, 1.0))[:3], [(T, p)], mistakes=[{"the 4-vector": T @ np.append(p, 1)}])
    assert k["inputs"][0][0] == {"ndarray": T.tolist()}
    g.check_cases(lambda T, p: T[:3, :3] @ p + T[:3, 3], k, name="to_frame_A")
    fails(g.check_cases, lambda T, p: T @ np.append(p, 1.0), k, name="to_frame_A", match="the 4-vector")
    fails(g.check_cases, lambda T, p: T[:3, :3] @ p, k, name="to_frame_A", match="is off by up to")


def test_check_answer_and_check_mistakes_name_a_wrong_composition_order():
    """hw01 part 3: fixed-frame motions pre-multiply (Example 3.1); the other orders are known mistakes."""
    A, B, C = Rot("x", np.radians(25)), Trans(6, -3, 0), Rot("z", np.radians(40))
    k = key.value(A @ B @ C, mistakes={**key.wrong_orders([A, B, C]), "degrees": Rot("x", 25) @ B @ Rot("z", 40)})
    g.check_answer(A @ B @ C, k, name="T_AB")
    g.check_mistakes(A @ B @ C, k, name="T_AB")
    g.check_mistakes(np.eye(4), k, name="T_AB")  # not a known mistake: the visible screen passes, the hidden test fails
    fails(g.check_answer, np.eye(4), k, name="T_AB", match="T_AB: ")
    for check in (g.check_answer, g.check_mistakes):
        fails(check, C @ B @ A, k, name="T_AB", match="multiplied them in reverse")
        fails(check, B @ A @ C, k, name="T_AB", match=r"in the order \[2, 1, 3\]")
        fails(check, Rot("x", 25) @ B @ Rot("z", 40), k, name="T_AB", match="degrees")


def test_check_answer_compares_expressions_of_an_answer_key():
    a, b, th = sp.symbols("a b theta", real=True)
    k = key.value(sp.simplify(armlab.Tinv(Trans(a, 0, 0) @ Rot("z", th) @ Trans(0, b, 0))[:3, 3]))
    assert k["expected"]["symbols"] == ["a", "b", "theta"]
    g.check_answer(sp.Matrix([-a * sp.cos(th), a * sp.sin(th) - b, 0]), k, name="p_inv")
    fails(g.check_answer, sp.Matrix([a * sp.cos(th), a * sp.sin(th) - b, 0]), k, name="p_inv", match="p_inv")


def test_answer_key_refuses_what_it_cannot_write_as_data():
    with pytest.raises(ValueError, match="not a finite number"):
        key.value(np.array([1.0, np.nan]))
    with pytest.raises(ValueError, match="cannot write a function"):
        key.value(lambda: 0)
    with pytest.raises(ValueError, match="2 dicts of mistakes for 1 inputs"):
        key.cases(abs, [(1.0,)], mistakes=[{}, {}])


# --- symbolic -------------------------------------------------------------------------------------
def test_check_expr_equal_passes_equivalent_forms():
    q2, q3, a2, a3, d4 = sp.symbols("q2 q3 a2 a3 d4", real=True)
    px = a2 * sp.cos(q2) + a3 * sp.cos(q2 + q3) - d4 * sp.sin(q2 + q3)
    expanded = sp.expand_trig(px)  # a3(c2c3 − s2s3) − d4(s2c3 + c2s3) + a2c2
    names = ["q2", "q3", "a2", "a3", "d4"]
    check_expr_equal(expanded, "a2*cos(q2) + a3*cos(q2 + q3) - d4*sin(q2 + q3)", symbols=names)
    # symbols with other assumptions (no real=True) are matched by name
    check_expr_equal(sp.sin(sp.Symbol("x")) ** 2 + sp.cos(sp.Symbol("x")) ** 2, 1)
    # numeric fallback: simplify switched off, still equal
    check_expr_equal(expanded, px, simplify=False)


def test_check_expr_equal_messages():
    q = sp.Symbol("q")
    fails(check_expr_equal, -sp.sin(q), "sin(q)", symbols=["q"], match="sign flipped")
    fails(check_expr_equal, sp.cos(q), "sin(q)", symbols=["q"], match="sin and cos are swapped")
    fails(check_expr_equal, sp.sin(sp.Symbol("theta")), "sin(q)", symbols=["q"], match=r"uses symbol\(s\) \['theta'\]")
    M = sp.Matrix([[sp.cos(q), -sp.sin(q)], [sp.sin(q), sp.cos(q)]])
    fails(check_expr_equal, M.T, M, match="transpose")
    fails(check_expr_equal, M[:, 0], M, match="wrong shape")
    fails(check_expr_equal, sp.sin(q) + 1, "sin(q)", symbols=["q"], match="not equal")
    check_symbols(M, ["q"])
    fails(check_symbols, M, ["x"], match=r"also uses \['q'\]")


# --- DH tables -------------------------------------------------------------------------------------
DL, DR = armlab.DHLink, armlab.DHRobot
SCARA_ROBOT = DR([DL(d=0.5), DL(a=0.4), DL(alpha=np.pi, a=0.3, joint="P"), DL()], convention="modified")
_rng = np.random.default_rng(0)
SCARA = {
    "joints": "RRPR",
    **key.cases(
        SCARA_ROBOT.fkine,
        [(np.zeros(4),)]
        + [(np.array([*_rng.uniform(-3, 3, 2), _rng.uniform(0, 0.3), _rng.uniform(-3, 3)]),) for _ in range(8)],
    ),
}


def test_check_robot_accepts_equivalent_tables():
    standard = DR([DL(d=0.5, a=0.4), DL(a=0.3, alpha=np.pi), DL(joint="P"), DL()], convention="standard")
    # another valid choice: twist −π instead of π
    flipped = DR([DL(d=0.5), DL(a=0.4), DL(alpha=-np.pi, a=0.3, joint="P"), DL()], convention="modified")
    for robot in (SCARA_ROBOT, standard, flipped):
        check_robot(robot, SCARA)
    check_dh_position(SCARA_ROBOT, [0, 0, 0, 0], [0.7, 0, 0.5], joints="RRPR")


def test_check_robot_messages():
    fails(
        check_robot,
        DR([DL(d=0.5), DL(a=0.4), DL(alpha=np.pi, a=0.3, joint="P")], convention="modified"),
        SCARA,
        match="has 3 joints",
    )
    fails(
        check_robot,
        DR([DL(d=0.5), DL(a=0.4), DL(alpha=np.pi, a=0.3), DL()], convention="modified"),
        SCARA,
        match="joint 3 should be prismatic",
    )
    fails(
        check_robot,
        DR([DL(d=0.4), DL(a=0.4), DL(alpha=np.pi, a=0.3, joint="P"), DL()], convention="modified"),
        SCARA,
        match="home pose",
    )
    fails(
        check_robot,
        DR([DL(d=0.5), DL(a=0.4), DL(a=0.3, joint="P"), DL()], convention="modified"),
        SCARA,
        match="right at q = 0 but wrong when the joints move",
    )
    fails(
        check_robot,
        DR([DL(d=0.5), DL(a=0.4), DL(alpha=np.pi, a=0.3, joint="P"), DL(offset=0.5)], convention="modified"),
        SCARA,
        match="POSITION is right .* ORIENTATION is not",
    )
    fails(check_robot, "not a robot", SCARA, match="expected a DHRobot")
    fails(
        check_dh_position, DR([DL(), DL()], convention="modified"), [0, 0], [1, 0, 0], joints="RP", match="joint types"
    )


# --- tamper resistance -----------------------------------------------------------------------------
@contextlib.contextmanager
def patched(monkeypatch):
    """What a cheating notebook does: make numpy/sympy/builtins comparisons always succeed. Undone when the
    ``with`` block ends, inside the test: pytest-xdist's worker serialises the test's report with them undone."""
    try:
        with monkeypatch.context() as m:
            m.setattr(np, "allclose", lambda *a, **k: True)
            m.setattr(np, "isclose", lambda a, b, *r, **k: np.ones(np.shape(a), dtype=bool))
            m.setattr(np, "array_equal", lambda *a, **k: True)
            m.setattr(np.testing, "assert_allclose", lambda *a, **k: None)
            m.setattr(np.linalg, "norm", lambda *a, **k: 0.0)
            m.setattr(np.linalg, "det", lambda *a, **k: 1.0)
            m.setattr(np, "eye", lambda n, *a, **k: np.ones((n, n)))
            m.setattr(np, "asarray", lambda *a, **k: np.zeros(3))
            m.setattr(sp, "simplify", lambda e, *a, **k: sp.Integer(0))
            m.setattr(sp, "cos", sp.sin)
            m.setattr(math, "cos", lambda x: 0.0)
            m.setattr(math, "isclose", lambda *a, **k: True)
            m.setattr(builtins, "abs", lambda x: 0)
            m.setattr(builtins, "sum", lambda *a, **k: 0)
            m.setattr(armlab, "Rot", lambda *a, **k: np.zeros((4, 4)))
            yield
    finally:  # sympy's cache keeps what was built under the patches (cos as sin): none of it for the next test
        sp.core.cache.clear_cache()


ROT_Z, I4 = key.value(Rot("z", 0.3)), np.eye(4)


def test_checkers_still_fail_wrong_answers_when_numpy_sympy_builtins_are_patched(monkeypatch):
    with patched(monkeypatch):
        assert builtins.abs(-5) == 0 and np.allclose(1, 2)  # the patches are active
        fails(check_close, [[0.0, 1.0], [1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]], match="is off by up to")
        fails(check_close, 30.0, 0.5235987755982988, match="degrees")
        fails(g.check_answer, np.zeros((4, 4)), ROT_Z, match="last row")
        fails(g.check_cases, lambda a, t: I4, ROT_KEY, match="is off by up to|rotation")
        fails(check_orthonormal, np.diag([1.0, 1.0, -1.0]), match="det")  # numpy's det and eye are patched
        fails(check_orthonormal, np.diag([1.0, 2.0, 1.0]), match="not orthonormal")
        q = sp.Symbol("q")
        fails(check_expr_equal, sp.sin(q), "cos(q)", symbols=["q"], match="swapped|not equal")
        fails(check_expr_equal, sp.Integer(0), "a*cos(q)", symbols=["a", "q"], match="not equal")
        # and right answers still pass
        check_close([[1.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]])
        g.check_answer(ROT_Z["expected"], ROT_Z)


GRADING_MODULES = ["armlab.grading"] + sorted(m.name for m in pkgutil.walk_packages(g.__path__, "armlab.grading."))
# all of it runs beside student code (armlab.autograde, the instructor's side, is another package)
KERNEL_MODULES = GRADING_MODULES


def test_grading_module_is_read_only():
    with pytest.raises(AttributeError, match="read-only"):
        g.check_close = lambda *a, **k: None
    with pytest.raises(AttributeError, match="read-only"):
        del g.check_close
    from armlab.grading import check_close as again

    assert again is check_close
    fails(again, 1.0, 2.0, match="is off by up to")


@pytest.mark.parametrize("name", GRADING_MODULES)
def test_every_grading_module_is_read_only(name):
    """No module path lets a student swap a checker, a helper or a captured function."""
    module = importlib.import_module(name)
    for attr in [a for a in vars(module) if not a.startswith("__")][:40] + ["brand_new_name"]:
        with pytest.raises(AttributeError, match="read-only"):
            setattr(module, attr, None)
    with pytest.raises(AttributeError, match="read-only"):
        delattr(module, "freeze" if hasattr(module, "freeze") else "__doc__")


def _global_lookups(code):
    """Names a code object (and every function nested in it) looks up as globals at run time."""
    for ins in dis.get_instructions(code):
        if ins.opname == "LOAD_GLOBAL":
            yield ins.argval
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _global_lookups(const)


@pytest.mark.parametrize("name", KERNEL_MODULES)
def test_grading_functions_use_only_frozen_builtins(name):
    """Every builtin a checker calls is the one captured at import (bound in the module), so
    reassigning builtins.len, builtins.isinstance, ... in the notebook cannot reach it."""
    module = importlib.import_module(name)
    source = Path(module.__file__).read_text(encoding="utf-8")
    code = compile(source, module.__file__, "exec")
    functions = [c for c in code.co_consts if isinstance(c, types.CodeType)]  # run time, not import time
    live = {n for c in functions for n in _global_lookups(c) if n in vars(builtins) and n not in vars(module)}
    assert not live, f"{name} looks up live builtins {sorted(live)}: capture them in ._builtins"


def test_ndarray_subclass_cannot_fake_its_values():
    class Liar(np.ndarray):
        def tolist(self):
            return [1.0, 0.0, 0.0]

    fake = np.zeros(3).view(Liar)
    fails(check_close, fake, [1.0, 0.0, 0.0], match="is off by up to")


def test_sympy_subclass_cannot_fake_equality():
    class Zero(sp.Symbol):  # "anything minus me is zero"
        def __sub__(self, other):
            return sp.Integer(0)

        def __rsub__(self, other):
            return sp.Integer(0)

    fails(check_expr_equal, Zero("z"), "a*cos(q)", symbols=["a", "q"], match="symbol|not equal")
    fails(
        check_expr_equal,
        sp.Matrix([Zero("z"), 0, 0]),
        "Matrix([-a*cos(theta), a*sin(theta) - b, 0])",
        symbols=["a", "b", "theta"],
        match="symbol|not equal",
    )


def test_sympy_number_subclass_cannot_fake_equality():
    class Zero(sp.Integer):  # a "number" that claims to live in sympy, so it was not re-read
        __module__ = "sympy.core.fake"

        def __sub__(self, other):
            return sp.Integer(0)

    class Num(sp.Symbol):  # any Expr can claim to be a number
        __module__ = "sympy.core.fake"
        is_Number = True

        def __sub__(self, other):
            return sp.Integer(0)

    for fake in (Zero(7), Num("z")):
        fails(check_expr_equal, fake, "a*cos(q)", symbols=["a", "q"], match="not equal|symbol")
    check_expr_equal(sp.Rational(1, 3), "1/3")
    check_expr_equal(sp.Integer(0), "0")


def test_ndarray_subclass_cannot_fake_its_dtype():
    class Liar(np.ndarray):
        def astype(self, *a, **k):
            return np.array([1.0, 0.0, 0.0])

    fails(check_close, np.zeros(3, dtype=int).view(Liar), [1.0, 0.0, 0.0], match="is off by up to")


@pytest.mark.integration  # starts a process
def test_import_armlab_does_not_import_grading_or_nbgrader():
    code = "import sys, armlab; print('armlab.grading' in sys.modules, 'nbgrader' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


# --- visible tests that name the usual mistakes (issue #9) ------------------------------------------
def test_check_known_mistakes_and_transposed_transform():
    from armlab.grading import check_known_mistakes

    check_known_mistakes(np.pi / 2, {"degrees were used": 90.0}, name="theta")
    fails(check_known_mistakes, 90.0, {"degrees were used": 90.0}, name="theta", match="theta: degrees were used")
    fails(check_orthonormal, (Trans(1, 2, 3) @ Rot("z", 0.3)).T, name="T", match="transposed")


# --- what a student sees in JupyterLab (a real kernel, no nbgrader) -------------------------------
def _run_notebook(nb):
    """Execute ``nb`` like a student's Run All: {grade_id: [(output type, text)]} with ANSI colours removed, and each
    cell's printed text in one piece, as JupyterLab shows it (the kernel may send one print in two messages: a
    busy machine's flush timer can fire between the text and its newline)."""
    import re

    from nbclient import NotebookClient

    NotebookClient(nb, timeout=60, kernel_name="python3", allow_errors=True, coalesce_streams=True).execute()
    out = {}
    for c in nb.cells:
        gid = c.metadata.get("nbgrader", {}).get("grade_id")
        if c.cell_type == "code" and gid:
            texts = []
            for o in c.outputs:
                text = "\n".join(o.traceback) if o.output_type == "error" else o.get("text", "")
                texts.append((o.output_type, re.sub(r"\x1b\[[0-9;]*m", "", text)))
            out[gid] = texts
    return out


def _grader_lines():
    """Every non-trivial source line of the grading package."""
    lines = set()
    for path in Path(g.__file__).parent.glob("*.py"):
        lines |= {line.strip() for line in path.read_text(encoding="utf-8").splitlines() if len(line.strip()) > 25}
    return lines


def _errors(outputs):
    return "\n".join(text for kind, text in outputs if kind == "error")


@pytest.fixture(scope="module")
def hw01_runs():
    import nbformat

    root = Path(__file__).resolve().parents[2]
    blank = nbformat.read(root / "exercises/hw01_transforms/hw01_transforms.ipynb", as_version=4)
    wrong = nbformat.read(root / "solutions/hw01_transforms/hw01_transforms.ipynb", as_version=4)
    edits = {  # the usual mistakes: R(axis, −θ), degrees fed to Rot, fixed-frame motions post-multiplied
        "p1_my_Rot": "def my_Rot(axis, theta):\n    return armlab.Rot(axis, -theta)",
        "p3_T_AB": "T_AB = Rot('x', 25) @ Trans(6, -3, 0) @ Rot('z', 40)",
        "p5_fixed_current": "Rz, Rx, Ry = Rot('z', np.radians(35)), Rot('x', np.radians(70)), Rot('y', np.radians(-20))\n"
        "T_fixed = Rz @ Rx @ Ry\nT_current = Rz @ Rx @ Ry",
    }
    for c in wrong.cells:
        gid = c.metadata.get("nbgrader", {}).get("grade_id")
        if gid in edits:
            c.source = edits[gid]
    return _run_notebook(blank), _run_notebook(wrong)


@pytest.mark.integration  # hw01_runs starts kernels
def test_blank_answer_says_fill_in_the_cell_above(hw01_runs):
    blank, _ = hw01_runs
    assert "NameError: T_AB is not defined yet — fill in the cell above and run it" in _errors(blank["p3_visible"])
    assert "to_frame_A: is not implemented yet\n(it still raises NotImplementedError)" in _errors(blank["p4_visible"])
    assert (
        "NotImplementedError: my_Rot is not written yet — fill in the cell above (replace "
        "`raise NotImplementedError()` with your code)"
    ) in _errors(blank["p1_visible"])
    assert "NotImplementedError: your answer goes here" in _errors(blank["p3_T_AB"])
    assert "name 'T_AB' is not defined" not in _errors(blank["p3_visible"])


@pytest.mark.integration  # hw01_runs starts kernels
def test_wrong_answer_shows_the_message_and_the_test_line_only(hw01_runs):
    _, wrong = hw01_runs
    p3 = _errors(wrong["p3_visible"])
    assert "AssertionError: T_AB: looks like degrees were used where radians were expected" in p3
    assert "----> 4 check_mistakes(T_AB" in p3  # the line of the test cell
    assert "multiplied them in reverse" in _errors(wrong["p5_visible"])
    assert "transpose of the expected rotation" in _errors(wrong["p1_visible"])
    tracebacks = _errors([o for outs in wrong.values() for o in outs])
    assert "armlab/grading" not in tracebacks and "During handling" not in tracebacks
    leaked = [line for line in _grader_lines() if line in tracebacks]
    assert not leaked, leaked
    assert len(p3.splitlines()) < 12


@pytest.mark.integration  # hw01_runs starts kernels
def test_passing_visible_tests_say_so(hw01_runs):
    blank, wrong = hw01_runs
    for gid in ("p2_visible", "p6_visible"):
        assert wrong[gid] == [("stream", "✓ visible tests passed\n")], (gid, wrong[gid])
    # part 4 is graded on its own transforms: right, it passes although part 3 is wrong (it once inherited the mistake)
    assert wrong["p4_visible"] == [("stream", "✓ visible tests passed\n")]

    def printed(run):
        return {gid for gid, outs in run.items() for kind, text in outs if kind == "stream" and "✓" in text}

    assert printed(blank) == set() and printed(wrong) == {"p2_visible", "p4_visible", "p6_visible"}  # failing: silent


def test_feedback_handler_never_loses_the_error():
    """If explaining fails, IPython still shows the original error (so nbgrader still scores zero)."""
    from armlab.grading import feedback

    shown = []

    class Shell:
        def showtraceback(self, exc_tuple, tb_offset=None):
            shown.append(exc_tuple)

    err = AssertionError("x")
    feedback.handle(Shell(), AssertionError, err, "not a traceback")
    assert shown == [(AssertionError, err, "not a traceback")]
    assert feedback.install() is False  # plain Python, no IPython shell: nothing to install
