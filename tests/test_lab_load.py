"""Load: 10 clients on one simulator, each streaming position commands at 50 Hz for 30 s.

The simulator runs as its own process (``python -m armlab.lab.sim --port 0``) so its deadlines are
its own; the ten clients run here, one reader and one streaming thread each. Checked: no client
misses a single /joint_states message (seq has no gap), the simulator publishes every tick on time
and drops nothing, every client streams on time. The state latency (receipt − stamp, same clock)
is printed as p50/p99.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("websockets")

from armlab.lab import YoubotArm  # noqa: E402
from armlab.lab.sim.server import HOME_DRIVER  # noqa: E402

LIB = Path(__file__).resolve().parents[1] / "lib"
CLIENTS, SECONDS = 10, 30.0


@pytest.fixture(scope="module")
def sim_process():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(LIB), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.Popen([sys.executable, "-m", "armlab.lab.sim", "--port", "0", "--quiet", "--duration", "120"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    line = proc.stdout.readline().strip()
    assert line.startswith("listening on ws://127.0.0.1:"), (line, proc.stderr.read() if proc.poll() else "")
    box = {"url": line.split()[-1]}
    yield proc, box
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.mark.load
@pytest.mark.timeout(120)
def test_ten_clients_streaming_at_50_hz_for_30_s_lose_no_state(sim_process):
    proc, box = sim_process
    arms = [YoubotArm(box["url"], log=False) for _ in range(CLIENTS)]
    seqs = [[] for _ in arms]
    latency = [[] for _ in arms]
    for i, arm in enumerate(arms):
        # latency: wall-clock receipt (when recv returned) minus the simulator's stamp
        arm.on_state.append(lambda s, i=i: (seqs[i].append(s.seq), latency[i].append(
            time.time() - (time.monotonic() - s.received) - s.stamp)))
    goal = HOME_DRIVER + [0.3, 0.3, -0.3, 0.3, 0.3]
    start = threading.Barrier(CLIENTS)
    errors = []

    def run(arm):
        try:
            start.wait(timeout=10)
            arm.move_joints(goal, frame="driver", duration=SECONDS, tol=0.05)
        except Exception as e:  # reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=run, args=(a,), daemon=True) for a in arms]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=SECONDS + 30)
    elapsed = time.monotonic() - t0
    for arm in arms:
        arm.close()
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=10)
    stats = json.loads(out.strip().splitlines()[-1])

    ticks = 50 * SECONDS * CLIENTS
    missed = sum(a.missed_ticks for a in arms)
    lat = np.concatenate([np.array(x) for x in latency]) * 1000
    p50, p99 = np.percentile(lat, [50, 99])
    print(f"\nload: {CLIENTS} clients × 50 Hz × {SECONDS:.0f} s: {lat.size} states, none lost; "
          f"state latency p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {lat.max():.1f} ms; "
          f"client ticks late {missed}/{ticks:.0f}; simulator ticks {stats['ticks']}, "
          f"late (> half a period) {stats['late_ticks']}, max late {1000 * stats['max_late']:.1f} ms, dropped {stats['dropped']}")
    assert not errors, errors
    assert elapsed < SECONDS + 5
    for i, s in enumerate(seqs):
        assert len(s) >= 0.95 * 50 * SECONDS, f"client {i} got {len(s)} states"
        gaps = np.flatnonzero(np.diff(s) != 1)
        assert gaps.size == 0, f"client {i} lost /joint_states after seq {[s[g] for g in gaps[:5]]}"
    assert stats["dropped"] == 0
    assert stats["late_ticks"] <= 0.01 * stats["ticks"], "the simulator missed its 50 Hz deadlines"
    assert missed <= 0.01 * ticks, "clients missed their 50 Hz streaming deadlines"
    assert p99 <= 20.0, f"state latency p99 {p99:.1f} ms is above one 50 Hz period"
