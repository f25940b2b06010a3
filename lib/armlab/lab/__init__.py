"""The youBot lab: a safe rosbridge client, the session log, and a simulator that speaks the same protocol.

>>> from armlab.lab import YoubotArm, SafetyError            # doctest: +SKIP
>>> arm = YoubotArm("ws://127.0.0.1:9090")                    # doctest: +SKIP
>>> arm.move_joints(q, speed=0.5)                             # doctest: +SKIP

Needs the ``lab`` extra (``websockets``); ``import armlab`` does not load this package.
On the robot's side, ``python -m armlab.lab.gate`` (:mod:`armlab.lab.gate`) enforces the same policy on every
client; the notebooks connect through :func:`armlab.lab.notebook.connect`. The TA's runbook: ``docs/lab.md``.
"""

from .arm import DEFAULT_URL, ArmState, ConnectionLostError, YoubotArm, min_jerk
from .client import NotConnectedError, RosbridgeClient, ServiceError
from .log import SessionLog, identification_data, load_states, read_log
from .safety import SafetyError, SafetyLimits, StaleStateError, TrackingError, WatchdogError
from .sim import Simulator

__all__ = [
    "YoubotArm",
    "ArmState",
    "SafetyError",
    "SafetyLimits",
    "StaleStateError",
    "WatchdogError",
    "TrackingError",
    "ConnectionLostError",
    "NotConnectedError",
    "ServiceError",
    "RosbridgeClient",
    "Simulator",
    "SessionLog",
    "read_log",
    "load_states",
    "identification_data",
    "min_jerk",
    "DEFAULT_URL",
]
