"""The gate's append-only audit log, and the same events, one readable line each, on the gate's console."""

from __future__ import annotations

import collections
import json
import os
import time
from pathlib import Path
from typing import Any, TextIO

__all__ = ["AuditLog", "console_line"]

#: A run of identical refusals from one connection is shown once a second on the console (all are logged).
REPEAT_S = 1.0


def console_line(event: str, f: dict[str, Any]) -> str | None:
    """One event as the TA reads it on the gate's console; None for those only the log keeps (forwarded commands)."""
    who = f.get("who", f"connection {f.get('conn')}")
    lines = {
        "connect": lambda: f"connection {f.get('conn')} from {f.get('peer')}",
        "disconnect": lambda: f"connection {f.get('conn')} from {f.get('peer')} closed",
        "claim": lambda: f"{who} holds the arm{' (with the TA token)' if f.get('ta') else ''}",
        "takeover": lambda: f"TAKE-OVER: {who} took the arm from {f.get('previous')}",
        "release": lambda: f"{who} released the arm ({f.get('why')})",
        "refuse": lambda: f"REFUSED {f.get('op') or 'frame'} {f.get('target') or ''} from {who}: {f.get('why')}",
        "hold": lambda: f"HOLD: {f.get('why')}" + ("" if f.get("sent") else f" (not sent: {f.get('reason')})"),
        "resume": lambda: f"{who} lifted the gate's hold ({f.get('was')})",
        "lease_expired": lambda: f"the claim of {who} lapsed ({f.get('quiet_s')} s quiet)",
        "upstream_lost": lambda: f"LOST rosbridge at {f.get('upstream')}; reconnecting",
        "upstream_back": lambda: f"rosbridge at {f.get('upstream')} is back",
    }
    return lines[event]() if event in lines else None


class AuditLog:
    """JSON lines, opened for appending only and flushed line by line (a killed gate loses at most a line);
    ``console``: a stream that also gets each event worth a TA's eye (:func:`console_line`)."""

    def __init__(self, path: str | Path, console: TextIO | None = None):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self._f = os.fdopen(fd, "a", buffering=1, encoding="utf-8")
        self.counts: collections.Counter = collections.Counter()
        self.console = console
        self._repeats: dict[tuple, list[float]] = {}  # (conn, why) → [last shown, refusals not shown since]

    def write(self, event: str, **fields: Any) -> None:
        self.counts[event] += 1
        now = time.time()
        self._f.write(json.dumps({"t": round(now, 6), "event": event, **fields}, default=str) + "\n")
        if self.console is not None:
            self._echo(event, fields, now)

    def _echo(self, event: str, fields: dict[str, Any], now: float) -> None:
        line = console_line(event, fields)
        if line is None:
            return
        if event == "refuse":
            seen = self._repeats.setdefault((fields.get("conn"), fields.get("why")), [-1e9, 0])
            if now - seen[0] < REPEAT_S:
                seen[1] += 1
                return
            if seen[1]:
                line += f" (and {int(seen[1])} more like it before)"
            seen[:] = [now, 0]
        stamp = time.strftime("%H:%M:%S", time.localtime(now))
        print(f"{stamp} {line}", file=self.console, flush=True)

    def close(self) -> None:
        self._f.close()
