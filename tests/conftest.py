"""Fixtures shared by the tests in every folder of tests/ (helpers that are not fixtures: tests/support).

* ``monkeypatch_module``: a ``MonkeyPatch`` undone when the module's tests are done (for module-scoped fixtures);
* ``sim``: a youBot simulator on a free loopback port that records every frame it receives, fresh for each test
  (faults, restarts and stuck joints do not leak into the next test);
* ``module_sim``: the same, one for all the tests of a module (a module whose tests share a connected arm).

``tests/support`` is importable as ``support`` from every folder (``pythonpath`` in pyproject.toml).
"""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def monkeypatch_module():
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


def _recording_simulator():
    from armlab.lab import Simulator  # imported when a lab test asks: the other tests never load websockets

    with Simulator(port=0, record=True) as s:
        yield s


sim = pytest.fixture(_recording_simulator, name="sim")
module_sim = pytest.fixture(_recording_simulator, scope="module", name="module_sim")
