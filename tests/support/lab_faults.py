"""The stale-stream fault of the lab client, as tests/integration/test_lab_faults.py checks it and
bench/bench_lab.py --check times it."""

from __future__ import annotations

import json
import threading
import time

import numpy as np

from armlab.lab import StaleStateError
from armlab.lab.sim.server import HOME_DRIVER

AWAY = HOME_DRIVER + [1.0, 0.6, -0.6, 0.6, 0.6]  # a long move from the simulator's start pose


def wait_for(cond, timeout, what):
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.01)


def stale_stream_hold(sim, arm):
    """Stall ``sim``'s /joint_states 0.5 s into a long move of ``arm`` (a recording :class:`Simulator`): the move
    raises StaleStateError and the client sends one hold at the last measured pose. Returns (seconds from the
    last state the server sent to the hold it received, the hold's positions, the pose held at)."""
    timer = threading.Timer(0.5, sim.stall, args=(1.0,))
    timer.start()
    try:
        arm.move_joints(AWAY, frame="driver", speed=0.5)
    except StaleStateError:
        pass
    else:
        raise AssertionError("the move went on through a stalled state stream")
    finally:
        timer.join()
    held_at = arm.limits.clip(arm.state().q_driver)  # the state is stale: this is the last one measured

    def holds():
        return [
            (t, f)
            for t, f in ((t, json.loads(x)) for t, _, x in list(sim.received) if '"op":"publish"' in x)
            if np.allclose([p["value"] for p in f["msg"]["positions"]], held_at, atol=1e-12)
        ]

    wait_for(holds, 1.0, "the hold to arrive")
    t_hold, hold = holds()[0]
    last_state = max(t for t, _ in list(sim.published) if t < t_hold)
    return t_hold - last_state, np.array([p["value"] for p in hold["msg"]["positions"]]), held_at
