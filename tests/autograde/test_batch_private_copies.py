"""A worker killed mid-grade leaves its private copy of the course behind; the next task, or the batch at its end,
removes it, and never touches a live worker's copy."""

from __future__ import annotations

import pytest
import os
import subprocess
import sys

from armlab.autograde.worker import PRIVATE_PREFIX, sweep_private_copies


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


@pytest.mark.integration  # starts a process
def test_sweep_removes_only_the_copies_of_dead_workers(tmp_path):
    dead = tmp_path / f"{PRIVATE_PREFIX}{_dead_pid()}-abc123"
    live = tmp_path / f"{PRIVATE_PREFIX}{os.getpid()}-def456"
    other = tmp_path / f"{PRIVATE_PREFIX}notapid"  # not ours to judge
    for d in (dead, live, other):
        (d / "submitted").mkdir(parents=True)
    assert sweep_private_copies(str(tmp_path)) == [dead]
    assert not dead.exists() and live.is_dir() and other.is_dir()
