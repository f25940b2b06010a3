"""The lab notebooks' session helpers: connect visibly, confirm real motions, close without surprises.

* :func:`connect` connects to the URL the notebook names (or ``ARMLAB_ROBOT_URL``), and only when neither
  names one starts a simulator on this machine. It asks the other end what it is (``/armlab/identify``: the
  simulator and the gate answer, the real driver never does) and says so in large type: **simulator at …**
  only when the other end said it is the simulator (on its own or behind the gate), else **REAL ROBOT at …**.
  A URL that does not answer is an error; it never falls back to the simulator.
* :func:`confirm_motion` asks, on the real robot, before a cell moves the arm ("is the area clear?"), so
  *Run All* stops there until a person types ``yes``; on the simulator it only says what will move.
* :func:`close_session` holds the arm, disconnects, stops the simulator and greys out the panels that
  used the arm (they then say so), for the end of a session.
"""

from __future__ import annotations

import html
import os
import sys
from typing import Any

from .arm import YoubotArm
from .protocol import is_simulator
from .safety import SafetyError

__all__ = ["connect", "confirm_motion", "close_session", "ENV_URL", "RemoteSimulator"]

#: The environment variable a TA may set instead of editing the notebook.
ENV_URL = "ARMLAB_ROBOT_URL"


def _banner(text: str, color: str, detail: str = "") -> None:
    """``text`` in large type (HTML in a notebook, a framed line in a terminal), ``detail`` below it, one short
    line per ``;`` (a long printed line would wrap mid-word)."""
    lines = [part.strip() for part in detail.split(";") if part.strip()]
    try:
        from IPython import get_ipython
        from IPython.display import HTML, display

        if get_ipython() is not None:
            display(
                HTML(
                    f"<div style='font-size:200%;font-weight:bold;color:{color};border:3px solid {color};"
                    f"padding:6px 12px;margin:4px 0'>{html.escape(text)}<div style='font-size:50%;"
                    f"font-weight:normal'>{'<br>'.join(html.escape(line) for line in lines)}</div></div>"
                )
            )
    except ImportError:
        pass
    bar = "=" * (len(text) + 4)
    print(f"{bar}\n= {text} =\n{bar}", *lines, sep="\n", file=sys.stdout, flush=True)


class RemoteSimulator:
    """The simulator at ``url``, running elsewhere (it said so over the wire): what :func:`connect` returns as
    ``sim`` for it, so that motion cells say "simulator" instead of asking about the emergency stop. Its faults
    are set where it runs (``python -m armlab.lab.sim --fault …``); ``stop()`` leaves it running."""

    local = False  # a Simulator started by connect() is local

    def __init__(self, url: str, identity: dict):
        self.url, self.identity = url, identity

    def stop(self) -> None:
        """Nothing to stop here: it runs on, where it was started."""

    def __repr__(self) -> str:
        return f"RemoteSimulator({self.url!r})"


def _describe(arm: YoubotArm) -> str:
    """What the other end said it is, for the banner."""
    ident = arm.identity
    if arm.behind_gate:
        up = ident.get("upstream") or {}
        if is_simulator(ident):
            return f"behind the armlab gate; {ident.get('upstream_url', 'upstream')} says it is {up.get('name')}"
        return f"behind the armlab gate; {ident.get('upstream_url', 'upstream')} did not say it is a simulator"
    if is_simulator(ident):
        return f"it says it is {ident.get('name')}"
    return "it did not say it is a simulator; no armlab gate in front of it"


def connect(
    url: str | None = None, *, log: Any = None, claim: bool | None = None, name: str | None = None, timeout: float = 5.0
) -> tuple[YoubotArm, Any]:
    """``arm, sim = connect(ROBOT_URL)``: ``url`` (else ``$ARMLAB_ROBOT_URL``) is the robot's gate; with
    neither, a simulator starts on a free port of this machine (``sim``; None on the real robot).

    Behind the gate the arm is claimed (``claim``, default: yes, unless the other end is a simulator with no
    gate); ``name`` is how the gate's audit log and other students see you (default: the JupyterHub user, else
    ``login@host``). A simulator elsewhere comes back as ``sim``, a :class:`RemoteSimulator`. A URL that does not
    answer raises ConnectionError: no simulator is started in its place.
    """
    source = "given in the notebook"
    if url is None and os.environ.get(ENV_URL):
        url, source = os.environ[ENV_URL], f"from ${ENV_URL}"
    sim: Any = None
    if url is None:
        from .sim import Simulator

        sim = Simulator(port=0).start()
        try:
            arm = YoubotArm(sim.url, log=log, timeout=timeout)
        except BaseException:
            sim.stop()
            raise
        _banner(f"simulator at {sim.url}", "#06c", "on this machine; no robot moves")
        return arm, sim
    if not isinstance(url, str) or not url.startswith(("ws://", "wss://")):
        raise ValueError(f"ROBOT_URL must be the robot's address such as 'ws://192.168.50.10:9091', got {url!r}")
    try:
        arm = YoubotArm(url, log=log, timeout=timeout, claim_name=name)
    except (ConnectionError, SafetyError) as e:
        raise ConnectionError(
            f"the robot at {url} ({source}) does not answer: {e}. No simulator was started in its "
            "place. Check the address with your TA, the network, and that the robot's gate "
            "runs (docs/lab.md, troubleshooting); for the simulator set ROBOT_URL = None."
        ) from None
    if arm.simulated:
        sim = RemoteSimulator(url, arm.identity)
        _banner(f"simulator at {url}", "#06c", f"URL {source}; {_describe(arm)}; no robot moves")
    else:
        _banner(f"REAL ROBOT at {url}", "#b00", f"URL {source}; {_describe(arm)}")
    if claim or (claim is None and arm.behind_gate):
        try:
            values = arm.claim()
            print(
                f"you hold the arm at the gate ({url}) as {values.get('holder', arm.name)}; other students can "
                "watch but not command it"
            )
        except SafetyError as e:
            if claim:
                arm.close()
                raise
            print(
                f"you can watch the arm but not command it: {e}\nOnce the holder has run close_session(...), "
                "arm.resume() claims it for you.",
                file=sys.stderr,
            )
    elif not arm.simulated:
        print(
            f"WARNING: no armlab gate in front of {url}: nothing stops another connection from commanding the "
            "arm. The lab's robot is reached through its gate (port 9091; docs/lab.md).",
            file=sys.stderr,
        )
    return arm, sim


def confirm_motion(what: str, simulator: Any = None, *, answer: str | None = None) -> bool:
    """Before a cell moves the arm: on the real robot (``simulator`` None) ask whether the area is clear and a
    person is at the emergency stop, and raise SafetyError unless the answer is ``yes``; on the simulator,
    say what will move and go on. ``answer`` stands in for the typed answer (tests)."""
    if simulator is not None:
        print(f"simulator: {what}")
        return True
    prompt = (
        f"REAL ROBOT: this cell will {what}.\nIs the area around the arm clear, and is a person at the "
        "emergency stop? Type yes to move: "
    )
    reply = input(prompt) if answer is None else answer
    if reply.strip().lower() != "yes":
        raise SafetyError(f"not confirmed ({reply!r}): the arm did not move; run the cell again when it is safe")
    return True


def close_session(arm: YoubotArm, sim: Any = None, *panels: Any) -> None:
    """The end of a session: grey out ``panels`` (a teach pendant says "closed"), hold and disconnect the arm
    (releasing it at the gate), and stop the simulator."""
    for p in panels:
        p.close()
    try:
        arm.release()
    except Exception as e:  # noqa: BLE001 - closing goes on; the gate releases on disconnect anyway
        print(f"release at the gate failed ({e}); disconnecting releases it", file=sys.stderr)
    arm.close()
    if sim is not None:
        sim.stop()
    print("session closed: the arm holds where it is; re-run the Connect cell to start again")
