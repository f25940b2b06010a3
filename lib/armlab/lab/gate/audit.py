"""The gate's append-only audit log."""

from __future__ import annotations

import collections
import json
import os
import time
from pathlib import Path
from typing import Any

__all__ = ["AuditLog"]


class AuditLog:
    """JSON lines, opened for appending only and flushed line by line (a killed gate loses at most a line)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self._f = os.fdopen(fd, "a", buffering=1, encoding="utf-8")
        self.counts: collections.Counter = collections.Counter()

    def write(self, event: str, **fields: Any) -> None:
        self.counts[event] += 1
        self._f.write(json.dumps({"t": round(time.time(), 6), "event": event, **fields}, default=str) + "\n")

    def close(self) -> None:
        self._f.close()
