"""Protocol fidelity, proven with a client nobody here wrote: roslibpy drives the simulator.

roslibpy's Twisted reactor cannot restart inside one process, so it runs in a subprocess; the
simulator runs in this process on a free loopback port.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("websockets")
pytest.importorskip("roslibpy")

from armlab.lab import Simulator  # noqa: E402
from armlab.lab.sim.server import HOME_DRIVER  # noqa: E402

ROSLIBPY_CLIENT = r"""
import json, sys, time
import roslibpy

port, goal = int(sys.argv[1]), float(sys.argv[2])
ros = roslibpy.Ros(host="127.0.0.1", port=port)
ros.run(timeout=10)
states = []
listener = roslibpy.Topic(ros, "/joint_states", "sensor_msgs/JointState")
listener.subscribe(lambda m: states.append(m))
t_end = time.time() + 5
while len(states) < 5 and time.time() < t_end:
    time.sleep(0.02)
first = dict(zip(states[0]["name"], states[0]["position"]))
on = roslibpy.Service(ros, "/arm_1/switchOnMotors", "std_srvs/Empty").call(roslibpy.ServiceRequest(), timeout=5)
cmd = roslibpy.Topic(ros, "/arm_1/arm_controller/position_command", "brics_actuator/JointPositions")
cmd.publish(roslibpy.Message({"positions": [{"joint_uri": "arm_joint_1", "unit": "rad", "value": goal}]}))
t_end = time.time() + 5
while time.time() < t_end:
    last = dict(zip(states[-1]["name"], states[-1]["position"]))
    if abs(last["arm_joint_1"] - goal) < 1e-3:
        break
    time.sleep(0.02)
listener.unsubscribe()
print(json.dumps({"first": first["arm_joint_1"], "last": last["arm_joint_1"], "n": len(states),
                  "service": dict(on), "names": states[-1]["name"],
                  "seqs": [s["header"]["seq"] for s in states]}))
ros.terminate()
"""


def test_roslibpy_subscribes_publishes_calls_a_service_and_sees_the_arm_move():
    goal = HOME_DRIVER[0] + 0.5
    with Simulator(port=0, record=True) as sim:
        proc = subprocess.run(
            [sys.executable, "-c", ROSLIBPY_CLIENT, str(sim.port), str(goal)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        out = json.loads(proc.stdout.strip().splitlines()[-1])
        ops = [json.loads(text)["op"] for _, _, text in sim.received]
    assert out["first"] == pytest.approx(HOME_DRIVER[0], abs=1e-3)
    assert out["last"] == pytest.approx(goal, abs=1e-3), "the simulated arm did not reach roslibpy's set point"
    assert out["service"] == {}
    assert {"subscribe", "call_service", "advertise", "publish"} <= set(ops)
    assert "wheel_joint_fl" in out["names"] and out["names"].index("arm_joint_1") > 0  # interleaved
    seqs = out["seqs"]
    assert np.all(np.diff(seqs) == 1), "roslibpy missed /joint_states messages"
