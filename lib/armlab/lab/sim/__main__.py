"""``python -m armlab.lab.sim``: run the youBot simulator until Ctrl-C (or ``--duration``).

Faults, each ``KIND[:ARG[:ARG]][@SECONDS]`` (at that time after start; default at once)::

    --fault drop@10          cut every connection at t = 10 s
    --fault stall:2@5        no /joint_states for 2 s, from t = 5 s
    --fault delay:0.02:0.005 delay every frame 20 ± 5 ms
    --fault malformed:3@4    three malformed frames to every client
    --fault restart:1@8      restart the server (1 s down) at t = 8 s
    --fault stuck:3@6        joint 3 sticks at t = 6 s (a collision)

The first line printed is ``listening on ws://HOST:PORT`` (port 0 picks a free port).
"""

from __future__ import annotations

import argparse
import logging
import sys
import threading
from collections.abc import Callable
from typing import Any

from .server import Simulator, dumps_stats

FAULTS: dict[str, tuple[int, Callable[..., Any]]] = {
    "drop": (0, lambda sim: sim.drop_connections()),
    "stall": (1, lambda sim, s: sim.stall(float(s))),
    "delay": (2, lambda sim, d, j="0": sim.set_delay(float(d), float(j))),
    "malformed": (1, lambda sim, n="1": sim.send_malformed(int(n))),
    "restart": (1, lambda sim, down="0.5": sim.restart(float(down))),
    "stuck": (1, lambda sim, j: sim.stick_joint(int(j))),
}


def parse_fault(spec: str) -> tuple[float, Callable[[Any], Any]]:
    """'stall:2@5' → (5.0, callable(sim)); raises argparse.ArgumentTypeError naming the problem."""
    body, _, at = spec.partition("@")
    kind, *args = body.split(":")
    if kind not in FAULTS:
        raise argparse.ArgumentTypeError(f"unknown fault {kind!r}; one of {', '.join(FAULTS)}")
    nmax, fn = FAULTS[kind]
    if len(args) > nmax:
        raise argparse.ArgumentTypeError(f"fault {kind!r} takes at most {nmax} argument(s), got {spec!r}")
    try:
        t = float(at) if at else 0.0
        for a in args:
            float(a)
    except ValueError:
        raise argparse.ArgumentTypeError(f"fault {spec!r}: arguments and @time must be numbers") from None
    return t, lambda sim: fn(sim, *args)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m armlab.lab.sim", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--port", type=int, default=9090)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow a non-loopback --host (the simulator is then reachable from the network)",
    )
    ap.add_argument("--rate", type=float, default=50.0, help="/joint_states rate in Hz (default 50)")
    ap.add_argument("--ros2", action="store_true", help="ROS 2 time stamps {sec, nanosec}")
    ap.add_argument("--fault", action="append", type=parse_fault, default=[], metavar="SPEC")
    ap.add_argument("--duration", type=float, default=None, help="stop after this many seconds")
    ap.add_argument("--quiet", action="store_true", help="do not print the driver's warnings")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.ERROR if args.quiet else logging.WARNING, format="sim: %(message)s")
    try:
        sim = Simulator(args.host, args.port, rate=args.rate, allow_remote=args.allow_remote, ros2=args.ros2).start()
    except (ValueError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    timers = [threading.Timer(t, fn, args=(sim,)) for t, fn in args.fault]
    try:  # from here on Ctrl-C, however early, stops the simulator and prints its counters
        print(f"listening on {sim.url}", flush=True)
        for timer in timers:
            timer.daemon = True
            timer.start()
        threading.Event().wait(args.duration)
    except KeyboardInterrupt:
        pass
    finally:
        for timer in timers:
            timer.cancel()
        sim.stop()
        print(dumps_stats(sim), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
