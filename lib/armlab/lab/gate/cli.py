"""``python -m armlab.lab.gate``: the gate's command line."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import threading
import time
from typing import Any

import numpy as np

from ..protocol import is_simulator
from ..safety import SafetyLimits
from .server import Gate

__all__ = ["main"]


def _workspace(text: str) -> tuple:
    try:
        v = [float(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--workspace needs six numbers, got {text!r}") from None
    if len(v) != 6:
        raise argparse.ArgumentTypeError(
            f"--workspace needs six numbers x_min,y_min,z_min,x_max,y_max,z_max, got {text!r}"
        )
    return (tuple(v[:3]), tuple(v[3:]))


def _numbers_as_values(argv: list[str]) -> list[str]:
    """``--workspace -0.40,…`` as ``--workspace=-0.40,…``: argparse takes a value that starts with '-' (and is
    not one plain negative number) for an option, so the runbook's own command line would fail."""
    out: list[str] = []
    for arg in argv:
        if out and out[-1] == "--workspace" and re.fullmatch(r"-[\d.][\d.,eE+-]*", arg):
            out[-1] = f"--workspace={arg}"
        else:
            out.append(arg)
    return out


def main(argv: list[str] | None = None) -> int:
    """The command line: ``python -m armlab.lab.gate --help``."""
    ap = argparse.ArgumentParser(
        prog="python -m armlab.lab.gate",
        description=sys.modules["armlab.lab.gate"].__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--upstream", default="ws://127.0.0.1:9090", help="rosbridge (bound to loopback)")
    ap.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default loopback; the lab network's address exposes the gate, loudly)",
    )
    ap.add_argument("--port", type=int, default=9091)
    ap.add_argument(
        "--token",
        default=os.environ.get("ARMLAB_GATE_TOKEN"),
        help="the TA's take-over token (default: $ARMLAB_GATE_TOKEN; none: no take-over)",
    )
    ap.add_argument(
        "--workspace",
        type=_workspace,
        default=None,
        metavar="XMIN,YMIN,ZMIN,XMAX,YMAX,ZMAX",
        help="the session's box for the tool point, base frame, metres",
    )
    ap.add_argument("--max-speed", type=float, default=None, help="joint speed cap in rad/s (default: the client's)")
    ap.add_argument("--deadman", type=float, default=0.5, help="seconds of commander silence while the arm still moves")
    ap.add_argument("--lease", type=float, default=300.0, help="seconds of commander silence before the claim lapses")
    ap.add_argument("--audit", default="armlab-gate-audit.jsonl", help="the audit log (appended to)")
    ap.add_argument("--duration", type=float, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(_numbers_as_values(sys.argv[1:] if argv is None else list(argv)))
    kw: dict[str, Any] = {"workspace": args.workspace}
    if args.max_speed is not None:
        kw["max_speed"] = args.max_speed
    try:
        limits = SafetyLimits(**kw)
        if limits.max_speed > SafetyLimits().max_speed:
            raise ValueError(f"--max-speed {limits.max_speed} is above the client's cap {SafetyLimits().max_speed}")
        gate = Gate(
            args.upstream,
            args.host,
            args.port,
            token=args.token,
            limits=limits,
            deadman=args.deadman,
            lease=args.lease,
            audit=args.audit,
            console=sys.stdout,
        ).start()
    except (ValueError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    t_start = time.monotonic()
    try:  # from here on Ctrl-C, however early, stops the gate and prints its counters
        print(f"listening on {gate.url} (upstream {args.upstream}; audit log {gate.audit.path})", flush=True)
        up = gate.upstream_identity
        what = (
            f"{up.get('name', 'a simulator')}: no robot moves"
            if is_simulator(up)
            else "did not say it is a simulator: the REAL ROBOT"
        )
        print(f"upstream {args.upstream}: {what}", flush=True)
        threading.Event().wait(args.duration)
    except KeyboardInterrupt:
        pass
    finally:
        gate.stop()
        lat = np.array(gate.cmd_latency) * 1000 if gate.cmd_latency else np.zeros(1)
        js = np.array(gate.state_latency) * 1000 if gate.state_latency else np.zeros(1)
        print(
            json.dumps(
                {
                    **gate.stats,
                    "audit": dict(gate.audit.counts),
                    "cpu_s": time.process_time(),
                    "wall_s": time.monotonic() - t_start,
                    "cmd_latency_ms_p50": float(np.percentile(lat, 50)),
                    "cmd_latency_ms_p99": float(np.percentile(lat, 99)),
                    "state_latency_ms_p50": float(np.percentile(js, 50)),
                    "state_latency_ms_p99": float(np.percentile(js, 99)),
                }
            ),
            flush=True,
        )
    return 0
