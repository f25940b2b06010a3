"""A class on the youBot lab: ten clients on one simulator, and ten watchers and a commander through the gate.

    .venv/bin/python bench/bench_lab_load.py [--clients 10] [--seconds 30] [--check]

Every client, the simulator and the gate are processes of their own (bench/lab_clients.py), as in a class.

1. Ten clients each stream position commands at 50 Hz for 30 s on one simulator. The state latency (receipt −
   stamp, one clock) of the states received while they stream, after the first second (when all ten start in
   the same millisecond, which a class does not do): p99 ≤ 20 ms. The simulator keeps its 50 Hz ticks (at most
   1 % more than half a period late while they stream) and the clients theirs (at most 1 % late).
2. Ten watchers and one commander behind the gate for 30 s, and one reference watcher straight on the simulator.
   The latency the gate adds, per state, is when it reached a watcher's socket minus when it reached the
   reference's (the kernel's receive stamps): p99 ≤ 5 ms after the first second; the commander keeps its ticks
   (≤ 1 % late). Measured at the socket: on a 2-core machine the ten watching processes queue for the CPU after
   their states have arrived (that time is printed too).

These were the limits of tests/integration/test_lab_load.py and test_lab_gate_load.py until issue 29; the tests
still check, on a shorter run, that nothing is lost, dropped or refused.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

from _harness import Limits, add_check
from lab_clients import added_by_gate, class_on_simulator, class_through_gate, while_streaming

SETTLE = 1.0  # s after "go"


def on_simulator(clients, seconds, limits):
    run = class_on_simulator(clients, seconds)
    reports, (t_go, t_end), stats = run["reports"], run["window"], run["sim"]
    late = [dt for t, dt in stats["late"] if t_go <= t <= t_end]
    window_ticks = 50 * (t_end - t_go)
    ticks = 50 * seconds * clients
    missed = sum(r["missed_ticks"] for r in reports)
    lat = while_streaming(reports, (t_go + SETTLE, t_end)) * 1000
    start = while_streaming(reports, (t_go, t_go + SETTLE)) * 1000
    p50, p99 = np.percentile(lat, [50, 99])
    print(
        f"simulator: {clients} client processes × 50 Hz × {seconds:g} s: {lat.size} states; "
        f"state latency p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {lat.max():.1f} ms (first {SETTLE:g} s: "
        f"p99 {np.percentile(start, 99):.1f} ms, max {start.max():.1f} ms); "
        f"client ticks late {missed}/{ticks:.0f}; simulator while streaming: {window_ticks:.0f} ticks, "
        f"late (> half a period) {len(late)}, max late {1000 * max(late, default=0):.1f} ms; "
        f"whole run (with the clients' start): {stats['ticks']} ticks, {stats['late_ticks']} late, "
        f"max late {1000 * stats['max_late']:.1f} ms, dropped {stats['dropped']}; "
        f"faults {[r['fault'] for r in reports if r['fault']]}"
    )
    limits.at_most("simulator: state latency p99 (ms)", p99, 20.0)
    limits.at_most("simulator: its ticks late while streaming (fraction)", len(late) / window_ticks, 0.01)
    limits.at_most("simulator: clients' ticks late (fraction)", missed / ticks, 0.01)
    limits.at_most("simulator: clients that held on a fault", sum(bool(r["fault"]) for r in reports), 0)


def through_gate(watchers, seconds, limits):
    with tempfile.TemporaryDirectory() as tmp:
        run = class_through_gate(watchers, seconds, Path(tmp) / "audit.jsonl")
    (t_go, t_end), gate, commander = run["window"], run["gate"], run["commander"]
    compared = added_by_gate(run, -np.inf, np.inf).size
    start_ms, added_ms = added_by_gate(run, t_go, t_go + SETTLE), added_by_gate(run, t_go + SETTLE, t_end)
    in_process_ms = added_by_gate(run, t_go + SETTLE, t_end, key="latency")
    p50, p99 = np.percentile(added_ms, [50, 99])
    lat = np.concatenate([w["latency"] for w in run["watchers"]]) * 1000
    print(
        f"gate: {watchers} watchers + 1 commander × 50 Hz × {seconds:g} s: {compared} states compared; "
        f"added latency at the socket p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {added_ms.max():.1f} ms (the first "
        f"second: p99 {np.percentile(start_ms, 99) if start_ms.size else float('nan'):.1f} ms; seen by the "
        f"watching processes: p50 {np.percentile(in_process_ms, 50):.2f} ms, p99 "
        f"{np.percentile(in_process_ms, 99):.2f} ms); state latency through the gate p99 "
        f"{np.percentile(lat, 99):.2f} ms; commands sent {commander['sent']}, forwarded {gate.get('forwarded')}, "
        f"refused {gate.get('refused')}; inside the gate: per command p99 "
        f"{gate.get('cmd_latency_ms_p99', float('nan')):.3f} ms, per state to a watcher p50 "
        f"{gate.get('state_latency_ms_p50', float('nan')):.3f} ms p99 "
        f"{gate.get('state_latency_ms_p99', float('nan')):.3f} ms; the gate's CPU "
        f"{100 * gate.get('cpu_s', 0) / max(gate.get('wall_s', 1), 1e-9):.1f} % of one core over its "
        f"{gate.get('wall_s', 0):.0f} s; wall {t_end - t_go:.1f} s"
    )
    limits.at_most("gate: added latency at the socket p99 (ms)", p99, 5.0)
    limits.at_most("gate: commander's ticks late (fraction)", commander["missed_ticks"] / (50 * seconds), 0.01)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=10, help="clients on the simulator, watchers behind the gate")
    ap.add_argument("--seconds", type=float, default=30.0)
    add_check(ap)
    args = ap.parse_args(argv)
    limits = Limits()
    on_simulator(args.clients, args.seconds, limits)
    through_gate(args.clients, args.seconds, limits)
    return limits.exit_code(args.check)


if __name__ == "__main__":
    sys.exit(main())
