"""The robot-side safety gate: a rosbridge-protocol proxy in front of the youBot's rosbridge.

``python -m armlab.lab.gate --upstream ws://127.0.0.1:9090 --port 9091 [--token T]`` runs on the robot's PC;
rosbridge is bound to the robot's loopback, so every client (our notebooks, a raw roslibpy script, a second
notebook) reaches the arm only through the gate. The gate speaks rosbridge v2 to both sides and depends on
``websockets`` only, not on ROS. On every frame, whoever sends it, it enforces:

* **one commander**: a client takes the arm by calling the gate's service ``/armlab_gate/claim`` (args
  ``{"name": …}``; :meth:`YoubotArm.claim`, or ``YoubotArm(url, claim=True)``) and gets a lease, renewed by
  every frame it sends and lost after ``lease`` s of silence. Others may watch ``/joint_states``; their
  commands are dropped with a ``status`` frame naming the holder. The TA takes the arm over from any seat
  with ``{"token": T}`` (the token given at start-up);
* **the client's own policy**, from the one definition in :mod:`armlab.lab.safety` (:class:`SafetyLimits`
  and its check functions): limits less the margin, a set point at most ``max_step`` from the *measured*
  pose (a far step is refused, never ramped), the speed cap ``max_speed`` on the set point's travel
  (:class:`~armlab.lab.safety.SpeedGovernor`), the gripper's range, and the session's **workspace box**
  for the tool point (forward kinematics of the commanded pose);
* a **hold latch** (``/armlab_gate/hold``, from any seat; ``/armlab_gate/resume`` by the commander or with
  the token) and a **deadman**: when the commander's connection drops, or it goes quiet for ``deadman`` s
  while the arm is still moving, the gate commands the measured pose (quiet: and latches the hold);
* **dangerous services** (``switchOffMotors``, ``calibrate``) and everything not on its own short list
  (velocity commands, other topics and services, unknown ops) refused, whatever rosbridge's whitelist says;
* an **append-only audit log** (JSON lines): connections, claims, every refusal and why, every command
  forwarded, holds and deadman trips; the same events but the forwarded commands on its console, a line each;
* **what is behind it**: ``/armlab/identify`` answers ``{"kind": "gate", "upstream": …}`` with what rosbridge's
  side said it is when asked (the simulator names itself; the real driver never answers: the real robot).

``/joint_states`` comes from the gate's one subscription, passed on unchanged to every client that
subscribed (rosbridge serves one connection however large the class); a client gets its own rosbridge
connection only once it sends something upstream (the commander). Commands are forwarded re-encoded from the
checked values (only ``joint_uri``, ``unit``, ``value``), so
what reaches the driver is exactly what was checked. It binds loopback unless ``--host`` says otherwise
and then warns loudly. Set-up and the policy: ``docs/lab.md``.
"""

from .audit import AuditLog
from .cli import main
from .clients import exposed_warning
from .server import GATE_SERVICES, Gate

__all__ = ["Gate", "AuditLog", "GATE_SERVICES", "exposed_warning", "main"]
