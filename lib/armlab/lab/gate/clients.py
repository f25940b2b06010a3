"""Who connects to the gate: a client connection, and whether the gate listens beyond loopback."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from websockets.asyncio.server import ServerConnection

from .. import protocol as P

__all__ = ["Client", "exposed_warning"]


def exposed_warning(host: str, port: int, token: str | None) -> str:
    bar = "!" * 78
    return (
        f"{bar}\n!!  WARNING: the armlab gate listens on {host}:{port}, REACHABLE FROM THE NETWORK.\n"
        "!!  Anyone who reaches this port can watch the arm, and the holder of the claim can move it.\n"
        "!!  Use an isolated lab network only; bind rosbridge itself to 127.0.0.1.\n"
        + ("!!  No --token: the TA cannot take the arm over from another seat.\n" if token is None else "")
        + bar
    )


class Client:
    """One client connection of the gate, and what the gate knows of it."""

    def __init__(self, ws: ServerConnection, cid: int):
        self.ws, self.id = ws, cid
        peer = ws.remote_address
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        self.name: str | None = None
        self.up: Any = None  # its own rosbridge connection, opened when it first sends something upstream
        self.pump: asyncio.Task | None = None
        self.outbox: asyncio.Queue[tuple[float, str]] = asyncio.Queue()  # (time received upstream or 0, text)
        self.js: dict[str, Any] | None = None  # its /joint_states subscription, served by the gate
        self.js_last = -1e9
        self.advertised: dict[str, str] = {}
        self.defrag = P.Defragmenter()
        self.last_rx = time.monotonic()
        self.last_claim = 0.0

    @property
    def who(self) -> str:
        return f"{self.name or 'an unnamed client'} (connection {self.id} from {self.peer})"
