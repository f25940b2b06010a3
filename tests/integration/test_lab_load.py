"""A class on the lab's servers loses nothing: clients streaming at 50 Hz on one simulator, and watchers and a
commander through the gate.

Every client, the simulator and the gate are processes of their own (``bench/lab_clients.py``), as in a class.
Checked: no client misses a single ``/joint_states`` (its ``seq`` has no gap), every watcher behind the gate
gets every state the reference watcher on the simulator got, neither server drops a frame, every command the
commander sent is forwarded and none refused, and no client holds on a fault other than a stale stream (which a
machine too busy to schedule a client in time causes, and the safety layer is right to hold on). How late the states come (p99
≤ 20 ms on the simulator, ≤ 5 ms added by the gate) and the 50 Hz deadlines, with ten clients for 30 s:
bench/bench_lab_load.py --check.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("websockets")

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from lab_clients import class_on_simulator, class_through_gate  # noqa: E402

CLIENTS, SECONDS = 4, 4.0


def _faults(reports):
    """The faults clients held on, but for a stale state stream: on a machine shared with other jobs a client's
    process can wait longer than the watchdog's 150 ms for the CPU, and holding then is the safety layer's job."""
    return [r["fault"] for r in reports if r["fault"] and "stale" not in r["fault"].lower()]


def _no_gaps(reports):
    for i, r in enumerate(reports):
        s = r["seqs"]
        assert len(s) > 0, f"client {i} got no state"
        gaps = np.flatnonzero(np.diff(s) != 1)
        assert gaps.size == 0, f"client {i} lost /joint_states after seq {[s[g] for g in gaps[:5]]}"


@pytest.mark.timeout(120)
def test_clients_streaming_at_50_hz_on_the_simulator_lose_no_state():
    run = class_on_simulator(CLIENTS, SECONDS)
    reports = run["reports"]
    assert _faults(reports) == []
    _no_gaps(reports)
    assert all(r["sent"] > 0 or r["fault"] for r in reports), "a client streamed nothing"
    assert run["sim"]["dropped"] == 0


@pytest.mark.timeout(150)
def test_watchers_behind_the_gate_get_every_state_and_every_command_is_forwarded(tmp_path):
    run = class_through_gate(CLIENTS, SECONDS, tmp_path / "audit.jsonl")
    ref, watchers, commander, gate = run["ref"], run["watchers"], run["commander"], run["gate"]
    assert _faults([ref, *watchers, commander]) == []
    _no_gaps([ref, *watchers])
    for i, w in enumerate(watchers):  # the states the reference saw from the first to the last the watcher saw
        seen, want = set(w["seqs"]), {s for s in ref["seqs"] if w["seqs"][0] <= s <= w["seqs"][-1]}
        assert want <= seen, f"watcher {i} missed states {sorted(want - seen)[:5]} that reached the reference"
        assert len(want) >= 0.5 * len(ref["seqs"]), f"watcher {i} watched a part of the run only"
    assert all(np.isfinite(w["at_socket"]).all() for w in watchers), "a state without its receive stamp"
    assert commander["sent"] > 0 or "stale" in commander["fault"].lower()
    assert gate["refused"] == 0 and gate["forwarded"] == commander["sent"], gate
    assert gate["dropped"] == 0, "the gate dropped frames for a watcher"
