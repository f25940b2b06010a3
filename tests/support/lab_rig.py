"""Stand-ins for the lab's real robot side, on 127.0.0.1: the simulator with its name taken away.

The real youBot's rosbridge never answers ``/armlab/identify``: with the runbook's ``services_glob`` it drops the
call without a word, and without a whitelist it answers that the service does not exist. :class:`NamelessSimulator`
does the same, so that a test sees what a notebook sees in front of the real robot (the banner says REAL ROBOT).
"""

from __future__ import annotations

from armlab.lab import Simulator
from armlab.lab.protocol import IDENTIFY, encode

__all__ = ["NamelessSimulator"]


class NamelessSimulator(Simulator):
    """``NamelessSimulator(port=0, identify="silent" | "missing")``: the simulator, answering ``/armlab/identify``
    as the real robot's rosbridge does (``silent``: not at all, as behind a whitelist; ``missing``: a failure)."""

    def __init__(self, *args, identify: str = "silent", **kw):
        if identify not in ("silent", "missing"):
            raise ValueError(f"identify must be 'silent' or 'missing', got {identify!r}")
        super().__init__(*args, **kw)
        self.identify = identify

    def _on_service(self, conn, frame):
        if frame.get("service") != IDENTIFY:
            return super()._on_service(conn, frame)
        if self.identify == "missing":
            resp = {"op": "service_response", "service": IDENTIFY, "result": False}
            resp["values"] = f"Service {IDENTIFY} does not exist"
            if "id" in frame:
                resp["id"] = frame["id"]
            self._send(conn, encode(resp))
        return None
