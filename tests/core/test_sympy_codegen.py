"""The one sympy → Python compiler (armlab._core.sympy_codegen): straight-line programs over sympy compiled
through _core.codegen.make_function, for the Lagrange model (textbook (3.111)–(3.132)) and the lab report's
symbolic regressor τ = ξχ (2.53)–(2.56)."""

import math

import numpy as np
import pytest
import sympy as sp

from armlab import dynamics
from armlab._core.sympy_codegen import compile_program, python_source
from armlab.models import planar2r


def test_compiled_program_equals_sympy_on_floats_and_batches():
    x, y = sp.symbols("x y", real=True)
    t0, t1 = sp.Dummy("t0"), sp.Dummy("t1")
    entries = [(t0, sp.cos(x) * y + sp.Rational(1, 3)), (t1, t0**2 - sp.sin(y) / 2 + sp.pi)]
    outputs = [t1, t0 * x, sp.Integer(0)]
    names = {x: "x", y: "y", t0: "t0", t1: "t1"}
    f = compile_program("prog", ["x", "y"], entries, outputs, names)
    exact = [e.xreplace({t1: entries[1][1]}).xreplace({t0: entries[0][1]}) for e in outputs]
    for xv, yv in ((0.3, -1.2), (2.0, 0.5)):
        want = [float(e.subs({x: xv, y: yv})) for e in exact]
        assert f(xv, yv, math.cos, math.sin) == pytest.approx(want, rel=1e-15, abs=1e-15)
    X, Y = np.linspace(-1, 1, 7), np.linspace(2, 3, 7)  # numpy columns: one function for batches too
    got = f(X, Y, np.cos, np.sin)
    np.testing.assert_allclose(got[0], [float(exact[0].subs({x: a, y: b})) for a, b in zip(X, Y)], rtol=1e-14)
    assert "def prog(x, y, cos, sin):" in f.source  # straight-line code, kept for inspection


def test_printer_keeps_full_precision_and_refuses_what_it_cannot_compile():
    x = sp.Symbol("x")
    assert python_source(sp.Float(0.1) * x, {x: "x"}) == "(0.1*x)"
    assert eval(python_source(sp.Rational(1, 3), {})) == 1 / 3  # noqa: S307
    with pytest.raises(TypeError, match="cannot compile"):
        python_source(sp.tan(x), {x: "x"})


def test_lagrange_and_the_symbolic_regressor_compile_through_the_one_compiler():
    robot = planar2r()
    model = dynamics.lagrange(robot)
    q, qd, qdd = np.array([0.3, -0.7]), np.array([0.5, 1.1]), np.array([-0.2, 0.4])
    np.testing.assert_allclose(model.tau_fn(q, qd, qdd), robot.rne(q, qd, qdd), atol=1e-12)
    reg = dynamics.symbolic_regressor(robot)
    chi = dynamics.dynamic_params(robot)
    np.testing.assert_allclose(reg.tau_fn(q, qd, qdd, chi), robot.rne(q, qd, qdd), atol=1e-12)
    for fn in (model._fns["tau"], reg._fns["tau"]):  # both printed by compile_program: cos and sin are arguments
        assert fn.source.splitlines()[0].endswith(", cos, sin):")
