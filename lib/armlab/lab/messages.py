"""What the lab's client tells a student about the arm: every latched fault with the action that clears it, and
the name a student claims the arm under. One table, so the exception, the pendant and the docs say the same.
"""

from __future__ import annotations

import getpass
import os
import socket

__all__ = ["ADVICE", "HELD", "fault_text", "default_claim_name"]

#: The fault text of a hold latched on purpose (the pendant's hold button, :meth:`YoubotArm.latch_hold`).
HELD = "held"
_RESUME = "arm.resume() (or the pendant's resume)"
#: What to do about a latched fault, by its kind (the gate's kinds: ``armlab.lab.protocol.GATE_REASONS``).
ADVICE = {
    "held": f"nothing moves it until {_RESUME}",
    "connection": f"streaming stopped and nothing will be replayed; the client reconnects by itself, then {_RESUME}",
    "stale": f"streaming stopped and the arm holds; once /joint_states is back, {_RESUME}",
    "fault": f"check the arm, then {_RESUME}",
    "policy": f"the arm holds where it is; check the command, then {_RESUME}",
    "no_holder": f"nothing moved; {_RESUME} claims the arm and holds it where it is",
    "not_holder": f"nothing moved; once the holder has run close_session(...) (or released the arm), {_RESUME} "
    "claims it for you",
    "takeover": f"your commands are refused while the TA holds the arm; when the TA releases it (close_session or "
    f"arm.release()), {_RESUME} claims it back",
    "lease": f"{_RESUME} claims it again (if nobody else holds it)",
    "gate_hold": f"when it is safe, {_RESUME} lifts the gate's hold",
}


def default_claim_name() -> str:
    """How the gate and other students see you: the JupyterHub user, else ``login@host``."""
    user = os.environ.get("JUPYTERHUB_USER")
    if user:
        return user
    try:
        login = getpass.getuser()
    except (OSError, KeyError):  # no login name (a container without one)
        login = "unknown user"
    return f"{login}@{socket.gethostname()}"


def fault_text(fault: str, kind: str | None, connected: bool) -> str:
    """The message for a latched ``fault`` of ``kind`` (a key of :data:`ADVICE`; None: a fault of the arm)."""
    if not connected:
        lost = fault if fault == "connection lost" else f"connection lost ({fault})"
        return f"{lost}; {ADVICE['connection']}"
    if fault == HELD:
        return f"the arm is held (a latched stop): {ADVICE['held']}"
    if kind in (None, "fault"):
        return f"the arm is held after a fault ({fault}): {ADVICE['fault']}"
    return f"{fault}; {ADVICE[kind]}"
