"""Fixtures shared by the tests in every folder of tests/ (helpers that are not fixtures: tests/support), and
the markers every test gets.

* ``monkeypatch_module``: a ``MonkeyPatch`` undone when the module's tests are done (for module-scoped fixtures);
* ``sim``: a youBot simulator on a free loopback port that records every frame it receives, fresh for each test
  (faults, restarts and stuck joints do not leak into the next test);
* ``module_sim``: the same, one for all the tests of a module (a module whose tests share a connected arm);
* ``browser``: the browser tests' one JupyterLab (on a copy of course/) and one Chromium, with the notebook pages
  they share (support.browser): started by the first browser test, closed after the last of a row of them.

Markers (docs/architecture.md, "Tests"), given here so that a new test needs none of its own:

* ``browser``: drives Chromium (tests/integration/test_browser*.py);
* ``integration``: starts processes, servers, kernels or a browser: tests/integration/, a module that says
  ``pytestmark = pytest.mark.integration``, and every test that uses a simulator;
* ``unit``: everything else. A unit test that starts a process or opens a network connection fails, naming
  what it did (``./run.sh test --quick`` runs this set: ``-m unit``).

Under pytest-xdist (``-n 3 --dist loadgroup``, what ``./run.sh test`` runs) the browser tests share one worker (one
JupyterLab and one Chromium), and each other integration module runs on one worker, so that its module-scoped
fixtures (a graded class, a hub) are built once; the working copy's and the student edition's modules share one
(``SHARED_GROUPS``: one JupyterLab and one Chromium open their notebooks). The browser tests run notebook by
notebook (a parameter ``name`` or a mark ``notebook(name)`` says which), so that each notebook's Run All serves all
of them (support.browser).

The lab's tests (those with a simulator, tests/lab, tests/integration/test_lab_*.py and the lab notebooks' headless
runs) run at a higher CPU priority where the tests run as root (CI): the lab's 50 Hz loops then get the CPU
before grading workers and browsers do, as they would on a lab PC of their own.
The lab's clients and gate in a test's own process hold the arm when /joint_states is older than 150 ms, and the
gate refuses a set point more than 0.12 rad from the measured pose and holds an arm still moving 0.5 s after the
last command (the deadman). On a machine shared with other jobs a simulator thread can wait that long for the CPU,
and its arm then lags a streamed trajectory: the hold or the refusal, right then, is not what the test is about.
There the watchdog waits 2 s, the gate's cap is 0.5 rad and its deadman 2 s instead. Tests of the watchdog itself
are marked ``stale_watchdog`` and keep the 150 ms; tests of the gate's step cap, speed governor (whose burst is the
cap) and deadman are marked ``gate_limits`` and keep 0.12 rad and 0.5 s.

``--homework NAME`` (``./run.sh test NAME``) keeps the tests that grade homework NAME: those whose id names it
and those marked ``@pytest.mark.homework("NAME")``.

``tests/support`` is importable as ``support`` from every folder (``pythonpath`` in pyproject.toml).
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from support.notebooks import PATIENT_STALE_AFTER  # s: the watchdog of a lab test that is not about it

PATIENT_MAX_STEP = 0.5  # rad: the gate's step cap in a lab test that is not about it
PATIENT_DEADMAN = 2.0  # s: the gate's deadman in a lab test that is not about it

TESTS = Path(__file__).resolve().parent
SIMULATORS = {"sim", "module_sim"}


def pytest_configure(config):
    # The tests stop the commands they start with Ctrl-C, as the docs do. A suite started in the background of a
    # non-interactive shell (``./run.sh test &``) has SIGINT ignored, and every child would inherit that.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_addoption(parser):
    parser.addoption(
        "--homework",
        action="append",
        default=[],
        metavar="NAME",
        help="only the tests that grade homework NAME (e.g. hw03_inverse_kinematics); may be given more than once",
    )


#: integration modules that share a session fixture run on one worker (the fixture is then made once)
SHARED_GROUPS = {
    "integration/test_working_copy.py": "jupyterlab_opener",
    "integration/test_student_edition.py": "jupyterlab_opener",
}


@pytest.hookimpl(wrapper=True)  # around xdist's, which reads the groups
def pytest_collection_modifyitems(config, items):
    for item in items:
        path = Path(str(item.path))
        if path.name.startswith("test_browser") or item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.integration)
            item.add_marker(pytest.mark.xdist_group("browser"))
        elif (
            TESTS / "integration" in path.parents
            or item.get_closest_marker("integration")
            or SIMULATORS & set(getattr(item, "fixturenames", ()))
        ):
            item.add_marker(pytest.mark.integration)
            module = path.relative_to(TESTS).as_posix()
            item.add_marker(pytest.mark.xdist_group(SHARED_GROUPS.get(module, module)))
        else:
            item.add_marker(pytest.mark.unit)
    _browser_tests_notebook_by_notebook(items)
    wanted = config.getoption("homework")
    if wanted:
        keep, drop = [], []
        for item in items:
            named = {n for m in item.iter_markers("homework") for n in m.args}
            (keep if named & set(wanted) or any(w in item.nodeid for w in wanted) else drop).append(item)
        if drop:
            config.hook.pytest_deselected(items=drop)
            items[:] = keep
    return (yield)


def _notebook_of(item):
    marked = item.get_closest_marker("notebook")
    params = getattr(getattr(item, "callspec", None), "params", {})
    return marked.args[0] if marked else params.get("name", "~")  # "~": after every notebook's name


def _browser_tests_notebook_by_notebook(items):
    """Reorder the browser tests (their places in ``items`` stay theirs) by notebook, stably."""
    places = [i for i, item in enumerate(items) if item.get_closest_marker("browser")]
    ordered = sorted((items[i] for i in places), key=_notebook_of)
    for i, item in zip(places, ordered):
        items[i] = item


@pytest.fixture(scope="session")
def jupyterlab_opener(tmp_path_factory):
    """One JupyterLab and one Chromium that open notebooks as a student does (support.jupyterlab.Opener)."""
    from support.jupyterlab import Opener

    opener = Opener(tmp_path_factory.mktemp("opening"))
    yield opener
    opener.close()


@pytest.fixture(scope="session")
def selected_homework(request):
    """The homework named with --homework (empty: this run tests all of them)."""
    return set(request.config.getoption("homework"))


def _refuse(what):
    def refused(*args, **kwargs):
        raise RuntimeError(
            f"a unit test {what}: mark its module `pytestmark = pytest.mark.integration` (tests/conftest.py)"
        )

    return refused


@contextlib.contextmanager
def _in_this_process(item):
    """A unit test starts no process and opens no network connection (the quick set must stay quick): not in its
    body, and not in the fixtures its setup makes, a module's or a session's too."""
    with pytest.MonkeyPatch.context() as mp:
        if item.get_closest_marker("unit"):
            mp.setattr(subprocess.Popen, "__init__", _refuse("started a process"))
            mp.setattr(socket.socket, "connect", _refuse("opened a network connection"))
            mp.setattr(socket.socket, "bind", _refuse("opened a server socket"))
        yield


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    with _in_this_process(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    with _in_this_process(item):
        return (yield)


def _is_lab_test(item) -> bool:
    path = Path(str(item.path))
    params = getattr(getattr(item, "callspec", None), "params", {})
    return bool(
        SIMULATORS & set(getattr(item, "fixturenames", ()))
        or TESTS / "lab" in path.parents
        or path.name.startswith("test_lab_")
        or Path(str(params.get("path", ""))).name.startswith("lab")
    )


@pytest.fixture(autouse=True)
def _lab_tests_first_on_the_cpu(request):
    """A lab test (and the threads and processes it starts) at nice -5 while it runs, where it may (root)."""
    if not (_is_lab_test(request.node) and hasattr(os, "setpriority") and os.geteuid() == 0):
        yield
        return
    before = os.getpriority(os.PRIO_PROCESS, 0)  # this thread's: Linux keeps a nice value per thread
    os.setpriority(os.PRIO_PROCESS, 0, min(before, -5))
    try:
        yield
    finally:
        os.setpriority(os.PRIO_PROCESS, 0, before)


@pytest.fixture(autouse=True)
def _patient_real_time_limits(request, monkeypatch):
    """The lab's clients and gate made in this test wait 2 s for /joint_states, unless it tests the watchdog; the
    gate's step cap from the measured pose is 0.5 rad and its deadman 2 s, unless it tests them (the clients keep
    their cap: they check one set point against the last, which no lag moves)."""
    if "armlab.lab.arm" in sys.modules:
        from armlab.lab import arm, safety
        from armlab.lab.gate import server

        real_gate = request.node.get_closest_marker("gate_limits") is not None
        stale = {} if request.node.get_closest_marker("stale_watchdog") else {"stale_after": PATIENT_STALE_AFTER}
        step = {} if real_gate else {"max_step": PATIENT_MAX_STEP}
        monkeypatch.setattr(arm, "SafetyLimits", functools.partial(safety.SafetyLimits, **stale))
        monkeypatch.setattr(server, "SafetyLimits", functools.partial(safety.SafetyLimits, **stale, **step))
        if not real_gate:  # Gate(..., deadman=) is keyword-only
            monkeypatch.setitem(server.Gate.__init__.__kwdefaults__, "deadman", PATIENT_DEADMAN)
    yield


@pytest.fixture(scope="module")
def monkeypatch_module():
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


def _recording_simulator():
    from armlab.lab import Simulator  # imported when a lab test asks: the other tests never load websockets

    with Simulator(port=0, record=True) as s:
        yield s


_browser_session = []  # the one BrowserSession of this process (support.browser)


@pytest.fixture
def browser(tmp_path_factory):
    from support.browser import BrowserSession, bb  # bench/bench_browser: the JupyterLab server and page helpers

    def skip_or_fail(reason):
        if os.environ.get("CI"):
            pytest.fail(f"{reason}, and CI is set: the browser tests must run in CI")
        pytest.skip(f"{reason}; skipped outside CI")

    if bb.chromium_path() is None:
        skip_or_fail("chromium not found (install it, e.g. apt-get install chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        skip_or_fail("playwright is not installed (pip install playwright)")
    if not _browser_session:
        _browser_session.append(BrowserSession(lambda: tmp_path_factory.mktemp("lab")))
    return _browser_session[0]


def pytest_runtest_teardown(item, nextitem):
    """Close the browser when the browser tests are done (the next test is not one, or there is none)."""
    if _browser_session and (nextitem is None or not nextitem.get_closest_marker("browser")):
        _browser_session[0].close()


sim = pytest.fixture(_recording_simulator, name="sim")
module_sim = pytest.fixture(_recording_simulator, scope="module", name="module_sim")
