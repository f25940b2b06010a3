"""The native builds of the simulation kernels (armlab._core.native): the same floats as the Python kernels,
to the bit, and the Python kernel itself wherever the fast path does not apply."""

from __future__ import annotations

import math
import os

import numpy as np
import pytest
from support.native_builds import require_native
from hypothesis import given, settings
from hypothesis import strategies as st

from armlab._core import c_kernels, native
from armlab._core.codegen import Tracer, cached_kernel, cached_kernels
from armlab.control.kernels import computed_torque
from armlab.dynamics.model import euler_step_kernel
from armlab.models import paper_3r, youbot


@pytest.fixture(autouse=True, scope="module")
def _native_builds():
    require_native()


GRAVITY = [0.0, 0.0, -9.81]


@pytest.fixture(scope="module")
def cache(tmp_path_factory, monkeypatch_module):
    path = tmp_path_factory.mktemp("native")
    monkeypatch_module.setenv("ARMLAB_NATIVE_CACHE", str(path))
    return path


@pytest.fixture(scope="module")
def kernels(cache):
    """(Python kernel, its native build) of the youBot's and the paper arm's Euler step and computed torque."""
    out = {}
    for robot in (youbot(), paper_3r()):
        for python in (euler_step_kernel(robot), computed_torque(robot, GRAVITY)):
            python = native.python_of(python)
            out[robot.name, python.__name__] = (python, native.compile_now(python))
    return out


def _args(name, n, values):
    """The kernel's arguments from a flat list of floats."""
    v = iter(values)
    vec = lambda: [next(v) for _ in range(n)]  # noqa: E731
    if name == "euler_step":
        return [vec(), vec(), vec(), GRAVITY, [0.0] * 6, [0.0] * n, 0.004]
    return [vec() for _ in range(7)]


def _tracer_kernel(k: float = 1.0):
    """f(x) = [x0 / x1, cos(x0) · k·x1 − sin(x1)]: a division the inputs can make by zero (one kernel per k)."""
    tr = Tracer()
    x0, x1 = tr.inputs("x", 2)
    return tr.kernel("ratio", "x", [x0 / x1, tr.cos(x0) * (k * x1) - tr.sin(x1)])


@settings(max_examples=300, deadline=None)
@given(values=st.lists(st.floats(-20, 20), min_size=35, max_size=35))
def test_native_kernels_give_the_python_kernels_floats_to_the_bit(kernels, values):
    for (robot, name), (python, fast) in kernels.items():
        n = 5 if robot == youbot().name else 3
        args = _args(name, n, values)
        expected, got = python(*args, math.cos, math.sin), fast(*args, math.cos, math.sin)
        assert type(got) is type(expected)
        assert got == expected, (robot, name)  # == on floats: equal bit patterns (no NaN here)
        assert [math.copysign(1, x) for x in np.ravel(got)] == [math.copysign(1, x) for x in np.ravel(expected)]


def test_a_batch_keywords_and_other_types_run_the_python_kernel(kernels):
    python, fast = kernels[youbot().name, "computed_torque"]
    rng = np.random.default_rng(1)
    cols = [rng.uniform(-1, 1, (5, 8)) for _ in range(7)]  # a batch: numpy columns, numpy's cos and sin
    assert np.array_equal(fast(*cols, np.cos, np.sin), python(*cols, np.cos, np.sin))
    args = [rng.uniform(-1, 1, 5).tolist() for _ in range(7)]
    assert fast(*args, cos=math.cos, sin=math.sin) == python(*args, math.cos, math.sin)
    ints = [[1, 0, 0, 0, 0]] + args[1:]  # ints: Python's arithmetic, not C's conversions
    assert fast(*ints, math.cos, math.sin) == python(*ints, math.cos, math.sin)
    with pytest.raises(ValueError, match="too many values to unpack"):  # a wrong length: Python's own error
        fast([0.0] * 6, *args[1:], math.cos, math.sin)


def test_a_division_by_zero_raises_pythons_error(cache):
    python = _tracer_kernel()
    fast = native.compile_now(python)
    assert fast([1.0, 2.0], math.cos, math.sin) == python([1.0, 2.0], math.cos, math.sin)
    with pytest.raises(ZeroDivisionError):
        fast([1.0, 0.0], math.cos, math.sin)
    nan = fast([math.nan, 1.0], math.cos, math.sin)  # a NaN in: Python's NaNs out
    assert all(map(math.isnan, nan))
    with pytest.raises(ValueError, match="math domain error"):  # sin(inf): Python's error
        fast([1.0, math.inf], math.cos, math.sin)
    big = fast([1e308, 1e-300], math.cos, math.sin)  # an overflow: Python's infinity
    assert big == python([1e308, 1e-300], math.cos, math.sin) and math.isinf(big[0])


def test_only_plain_float_arithmetic_is_translated():
    src = "def f(x, cos, sin):\n    x0, = x\n    v0 = atan2(x0, 1.0)\n    return [v0]\n"
    with pytest.raises(ValueError, match="atan2"):
        c_kernels.translate(src)
    with pytest.raises(ValueError, match=r"x0 \*\* 2"):
        c_kernels.translate(src.replace("atan2(x0, 1.0)", "x0 ** 2"))
    k = c_kernels.translate(src.replace("atan2(x0, 1.0)", "(x0 - 1.5) - -x0"))
    assert (k.name, k.args, k.groups) == ("f", (("x", 1),), (1,))
    assert "const double n_v0 = ((n_x0 - 1.5) - (-n_x0));" in k.c


def test_a_kernel_builds_in_the_background_and_then_replaces_the_python_one(cache):
    base = youbot()
    robot = base.replace_link(0, m=base.links[0].m + 0.125)  # a new description: its kernels are not built yet
    step = euler_step_kernel(robot)
    assert step.__class__.__name__ == "function" and hasattr(step, "source")  # Python while it builds
    assert native.settle(timeout=120) and native.last_error() == ""
    fast = euler_step_kernel(robot)
    assert fast.__class__.__name__ == "builtin_function_or_method"
    assert cached_kernels(robot)["dynamics.euler_step"] is fast
    args = _args("euler_step", 5, np.linspace(-1, 1, 35).tolist())
    assert fast(*args, math.cos, math.sin) == step(*args, math.cos, math.sin)
    assert native.python_of(fast) is step
    assert native.native(step, lambda f: None)(*args, math.cos, math.sin) == fast(*args, math.cos, math.sin)


def test_a_kernel_asked_for_twice_is_built_once_and_both_callers_get_it(cache, monkeypatch):
    builds = []
    real = native._build
    monkeypatch.setattr(native, "_build", lambda c, path: (builds.append(path), real(c, path)))
    python, got = _tracer_kernel(7.75), []
    assert native.native(python, got.append) is python and native.native(python, got.append) is python
    assert native.settle(timeout=120) and len(builds) == 1 and len(got) == 2
    assert all(f([1.0, 2.0], math.cos, math.sin) == python([1.0, 2.0], math.cos, math.sin) for f in got)


def test_without_a_compiler_everything_stays_python(cache, monkeypatch):
    monkeypatch.setenv("CC", "/nonexistent/cc")
    assert "no C compiler" in native.available()
    python = _tracer_kernel()
    assert native.native(python, lambda f: None) is python
    with pytest.raises(OSError, match="no C compiler"):
        native.compile_now(python)
    monkeypatch.delenv("CC")
    monkeypatch.setenv("ARMLAB_NATIVE", "0")
    assert native.native(python, lambda f: None) is python
    monkeypatch.delenv("ARMLAB_NATIVE")  # the answer is kept per setting, not once for all
    assert native.available() == ""


def test_a_damaged_library_is_built_again(cache):
    python = _tracer_kernel(2.5)  # never loaded before (a loaded library must not be overwritten in place)
    path = native._library(c_kernels.translate(python.source).c)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"not a shared object")
    fast = native.compile_now(python)
    assert fast([3.0, 4.0], math.cos, math.sin) == python([3.0, 4.0], math.cos, math.sin)
    again = native.native(python, lambda f: None)  # in the cache now: loaded at once, nothing built
    assert again.__class__.__name__ == "builtin_function_or_method" and native.python_of(again) is python


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork")
def test_a_forked_child_builds_with_its_own_thread(cache):
    native.settle()
    pid = os.fork()
    if pid == 0:  # the child: a fresh kernel, built in its own background thread
        ok = False
        try:
            tr = Tracer()
            (x0,) = tr.inputs("x", 1)
            got = []
            python = tr.kernel("child", "x", [x0 * 3.25 + 0.5])
            native.native(python, got.append)
            ok = native.settle(timeout=60) and got and got[0]([2.0], math.cos, math.sin) == [7.0]
        finally:
            os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_cached_kernel_without_native_is_python(cache):
    robot = paper_3r()
    f = cached_kernel(robot, "tests.native.plain", lambda r: _tracer_kernel())
    assert hasattr(f, "source")
