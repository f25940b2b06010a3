"""A class of students on one youBot simulator: N client processes, each a ``YoubotArm`` streaming at 50 Hz.

Each student is a process of its own, as each student's notebook kernel is. (Threads in one process
would share one interpreter lock, and the figure would measure that lock, not the simulator.) Used by
``bench/bench_lab.py``, ``bench/bench_lab_load.py`` and ``tests/integration/test_lab_load.py`` (the two classes,
:func:`class_on_simulator` and :func:`class_through_gate`, are run by the last two: the test checks that nothing
is lost, the benchmark how late it comes):

    python bench/lab_clients.py ws://127.0.0.1:9090 --clients 10 --seconds 30

Every worker connects, reports ready, and starts streaming when all are ready (one "go" line each on
stdin). It reports, as one JSON line: the ``seq`` of every ``/joint_states`` it received, the state
latency of each (wall-clock receipt − the simulator's stamp, one machine so one clock), when it arrived
(``received``, on the monotonic clock, which all processes share: see :func:`while_streaming`), its stream
ticks sent more than a period late, and the fault it held on, if any. ``--watch`` workers only watch (a class
behind the gate, where one student holds the arm); ``--claim`` workers claim the arm at the gate first.
``--socket-watch`` workers are bare rosbridge subscribers (:func:`socket_watcher`) that also report when each
state reached their socket (``at_socket``): what a server adds, apart from the watching process's own time.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: driver angles away from the end stops: HOME_DRIVER + (0.4, 0.4, −0.4, 0.4, 0.4)
MID_OFFSET = [0.4, 0.4, -0.4, 0.4, 0.4]


def worker(url, seconds, watch=False, claim=False):
    sys.path.insert(0, str(ROOT / "lib"))
    from armlab.lab import YoubotArm
    from armlab.lab.sim.server import HOME_DRIVER

    arm = YoubotArm(url, log=False, claim=claim, claim_name="load commander" if claim else None)
    seqs, lat, rx, sent = [], [], [], []
    arm.client.on_frame = lambda d, text: sent.append(1) if d == "tx" and '"op":"publish"' in text else None
    # receipt on the wall clock: taken when recv returned (s.received, monotonic), not when this runs
    arm.on_state.append(
        lambda s: (
            seqs.append(s.seq),
            rx.append(s.received),
            lat.append(time.time() - (time.monotonic() - s.received) - s.stamp),
        )
    )
    print("ready", flush=True)
    if sys.stdin.readline().strip() != "go":
        arm.close()
        return
    fault = None
    try:
        if watch:
            time.sleep(seconds)
            return _report(arm, seqs, lat, rx, sent, fault)
        arm.move_joints([h + d for h, d in zip(HOME_DRIVER, MID_OFFSET)], frame="driver", duration=seconds, tol=0.05)
    except Exception as e:  # a hold on a fault is a result, reported to the parent
        fault = f"{type(e).__name__}: {e}"
    _report(arm, seqs, lat, rx, sent, fault)


SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)  # Linux; the kernel stamps each received packet


def socket_watcher(url, seconds):
    """Subscribe to ``/joint_states`` as ``YoubotArm`` does, with one blocking socket and websockets' sans-I/O
    protocol, and note for every state the kernel's receive time of its packet (SO_TIMESTAMPNS, wall clock).

    On a 2-core machine shared by a dozen client processes, a state waits in a socket until its process is
    scheduled; the kernel's stamp is when it arrived, which is what the server sending it is responsible for."""
    from websockets.client import ClientProtocol
    from websockets.frames import Opcode
    from websockets.http11 import Response
    from websockets.uri import parse_uri

    from armlab.lab.protocol import ARM_JOINTS, JOINT_STATES, TOPICS, decode, parse_joint_state

    uri = parse_uri(url)
    sock = socket.create_connection((uri.host, uri.port), timeout=5.0)
    sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    proto = ClientProtocol(uri)
    proto.send_request(proto.connect())

    def events(until):
        """(event, kernel receive time) until the monotonic time ``until``; bounded by the socket's timeout."""
        while time.monotonic() < until:
            sock.sendall(b"".join(proto.data_to_send()))
            data, anc, _, _ = sock.recvmsg(1 << 16, socket.CMSG_SPACE(16))
            if not data:
                raise ConnectionError(f"{url} closed the connection")
            t_sock = next(
                (
                    s + ns * 1e-9
                    for lvl, typ, c in anc
                    if (lvl, typ) == (socket.SOL_SOCKET, SO_TIMESTAMPNS)
                    for s, ns in [struct.unpack("qq", c)]
                ),
                float("nan"),
            )
            proto.receive_data(data)
            for ev in proto.events_received():
                yield ev, t_sock

    ev, _ = next(events(time.monotonic() + 5.0))
    if not isinstance(ev, Response) or ev.status_code != 101:
        raise ConnectionError(f"{url} refused the websocket handshake: {ev}")
    print("ready", flush=True)
    if sys.stdin.readline().strip() != "go":
        return
    # subscribed at "go" with YoubotArm's options: a YoubotArm subscribes on connecting and reads on a thread of
    # its own; this reads from "go" on only, so that no state waits unread in its socket while the class starts
    sub = {
        "op": "subscribe",
        "topic": JOINT_STATES,
        "type": TOPICS[JOINT_STATES],
        "throttle_rate": 0,
        "queue_length": 1,
    }
    proto.send_text(json.dumps(sub).encode())
    seqs, lat, at_socket, rx = [], [], [], []
    for ev, t_sock in events(time.monotonic() + seconds):
        if getattr(ev, "opcode", None) is not Opcode.TEXT:
            continue
        now, t_rx = time.time(), time.monotonic()
        frame = decode(ev.data)
        if frame.get("op") != "publish" or frame.get("topic") != JOINT_STATES:
            continue
        stamp, seq, joints = parse_joint_state(frame["msg"])
        if not all(j in joints for j in ARM_JOINTS):
            continue  # a base-only state, skipped as YoubotArm skips it
        seqs.append(seq)
        rx.append(t_rx)
        lat.append(now - stamp)
        at_socket.append(t_sock - stamp)
    proto.send_close()
    sock.sendall(b"".join(proto.data_to_send()))
    sock.close()
    report = {"seqs": seqs, "latency": lat, "at_socket": at_socket, "received": rx}
    print(json.dumps({**report, "missed_ticks": 0, "fault": None, "sent": 0}), flush=True)


def _report(arm, seqs, lat, rx, sent, fault):
    arm.close()
    print(
        json.dumps(
            {
                "seqs": seqs,
                "latency": lat,
                "received": rx,
                "missed_ticks": arm.missed_ticks,
                "fault": fault or arm.fault,
                "sent": len(sent),
            }
        ),
        flush=True,
    )


def while_streaming(reports, window):
    """The state latencies (s) of every report's states received inside ``window`` (t_go, t_end): while the
    class streams. Before "go", the states of the first clients to connect wait behind the interpreters of the
    last ones starting up on this machine's cores (a class's kernels start over minutes, on their own machines)."""
    import numpy as np

    t_go, t_end = window
    return np.array(
        [x for r in reports for x, t in zip(r["latency"], r["received"]) if t_go <= t <= t_end], dtype=float
    )


def lib_env():
    """This environment with the repository's lib/ first on PYTHONPATH: for the simulator's and clients' processes."""
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "lib"), os.environ.get("PYTHONPATH")])),
    }


def run_clients(url, clients, seconds, timeout=None, args=None):
    """Start ``clients`` worker processes on ``url``, start them together, and return their reports
    (a list of dicts, see the module docstring) and the window (t_go, t_last_report) on the monotonic clock.
    ``url`` may be a list (one per client) and ``args`` a list of extra options per client (``["--watch"]``)."""
    timeout = seconds + 60 if timeout is None else timeout
    urls = [url] * clients if isinstance(url, str) else list(url)
    extra = args or [[] for _ in range(clients)]
    procs = [
        subprocess.Popen(
            [sys.executable, __file__, u, "--worker", "--seconds", str(seconds), *a],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=lib_env(),
        )
        for u, a in zip(urls, extra)
    ]
    try:
        for p in procs:
            line = p.stdout.readline().strip()
            if line != "ready":
                raise RuntimeError(f"a client did not connect (said {line!r}, exit code {p.poll()})")
        t0 = time.monotonic()
        for p in procs:
            p.stdin.write("go\n")
            p.stdin.flush()
        reports = []
        for p in procs:
            out, _ = p.communicate(timeout=max(1.0, t0 + timeout - time.monotonic()))
            reports.append(json.loads(out.strip().splitlines()[-1]))
        return reports, (t0, time.monotonic())
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()


def start_server(args):
    """Start ``python -m ARGS`` (the simulator or the gate, on port 0) and return (process, its URL)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=lib_env()
    )
    line = proc.stdout.readline().strip()
    if not line.startswith("listening on ws://127.0.0.1:"):
        proc.kill()
        raise RuntimeError(f"{args[0]} did not start: {line!r} {proc.communicate()[1]}")
    return proc, line.split()[2]


def stop_server(proc):
    """Stop a server of :func:`start_server` with Ctrl-C and return the statistics it prints last (JSON)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    try:
        out, _ = proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    return json.loads(out.strip().splitlines()[-1])


def class_on_simulator(clients, seconds):
    """``clients`` client processes streaming at 50 Hz for ``seconds`` on one simulator process: their reports,
    the window (t_go, t_end) and the simulator's statistics (``ticks``, ``late`` [(t, how late)], ``dropped`` …)."""
    sim, url = start_server(["armlab.lab.sim", "--port", "0", "--quiet", "--duration", str(seconds + 90)])
    try:
        reports, window = run_clients(url, clients, seconds, timeout=seconds + 40)
    finally:
        stats = stop_server(sim)
    return {"reports": reports, "window": window, "sim": stats}


def class_through_gate(watchers, seconds, audit):
    """The simulator standing in for rosbridge, the gate in front of it (audit log at ``audit``), ``watchers`` bare
    socket watchers and one commander (``--claim``) behind the gate, and a reference watcher straight on the
    simulator, for ``seconds``: their reports (``ref``, ``watchers``, ``commander``), the window and the gate's
    statistics (``forwarded``, ``refused``, ``dropped`` …)."""
    sim, sim_url = start_server(["armlab.lab.sim", "--port", "0", "--quiet", "--duration", str(seconds + 120)])
    gate = None
    try:
        gate, gate_url = start_server(
            ["armlab.lab.gate", "--upstream", sim_url, "--port", "0", "--audit", str(audit)]
            + ["--duration", str(seconds + 120)]
        )
        urls = [sim_url] + [gate_url] * (watchers + 1)
        args = [["--socket-watch"]] * (watchers + 1) + [["--claim"]]
        reports, window = run_clients(urls, len(urls), seconds, timeout=seconds + 60, args=args)
    finally:
        gate_stats = stop_server(gate) if gate is not None else {}
        stop_server(sim)
    return {
        "ref": reports[0],
        "watchers": reports[1:-1],
        "commander": reports[-1],
        "window": window,
        "gate": gate_stats,
    }


def added_by_gate(run, t0, t1, key="at_socket"):
    """ms the gate added to each state a watcher of ``run`` (:func:`class_through_gate`) received between t0 and
    t1: when it reached the watcher minus when it reached the reference (``key`` "at_socket": the kernel's receive
    stamps; "latency": when the watching process saw it)."""
    import numpy as np

    ref_lat = dict(zip(run["ref"]["seqs"], run["ref"][key]))
    return 1000 * np.array(
        [
            lat - ref_lat[s]
            for w in run["watchers"]
            for s, lat, t in zip(w["seqs"], w[key], w["received"])
            if s in ref_lat and t0 <= t <= t1
        ]
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("url")
    ap.add_argument("--clients", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--watch", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--claim", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--socket-watch", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker and args.socket_watch:
        sys.path.insert(0, str(ROOT / "lib"))
        socket_watcher(args.url, args.seconds)
        return
    if args.worker:
        worker(args.url, args.seconds, args.watch, args.claim)
        return
    import numpy as np

    reports, (t0, t1) = run_clients(args.url, args.clients, args.seconds)
    wall = t1 - t0
    lat = while_streaming(reports, (t0, t1)) * 1000
    print(
        f"{args.clients} clients × 50 Hz × {args.seconds:g} s in {wall:.1f} s: {lat.size} states, latency p50 "
        f"{np.percentile(lat, 50):.2f} ms, p99 {np.percentile(lat, 99):.2f} ms; "
        f"faults {[r['fault'] for r in reports if r['fault']]}"
    )


if __name__ == "__main__":
    main()
