"""The session log: append-only JSON lines, one ``os.write`` per record, and its reader.

Every frame sent (``tx``) and received (``rx``) is logged as its exact text, and every arm state as
a ``state`` record with the commanded set point beside the measured one. Each record is one
unbuffered write on an ``O_APPEND`` descriptor, so a process killed with SIGKILL loses at most the
record it was writing; :func:`read_log` skips a torn last line and says so.

:func:`load_states` turns a log into arrays, and :func:`identification_data` into the
(t, q, q̇, q̈, τ) samples the identification of chapter 7 takes (DH angles and signs).
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..models import youbot_driver_to_q

__all__ = ["SessionLog", "LogContents", "read_log", "load_states", "identification_data", "default_log_path"]

FORMAT = "armlab-lab-log/1"


def default_log_path(directory="lab-logs") -> Path:
    """A new timestamped file name under ``directory`` (e.g. lab-logs/2025-03-01T10-15-02.123.jsonl)."""
    stamp = _dt.datetime.now().strftime("%Y-%m-%dT%H-%M-%S.%f")[:-3]
    return Path(directory) / f"{stamp}.jsonl"


class SessionLog:
    """Append-only writer. ``SessionLog(path).write("event", msg="...")``; thread-safe."""

    def __init__(self, path, meta: dict | None = None):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        self._lock = threading.Lock()
        self.records = 0
        self.write("open", format=FORMAT, **(meta or {}))

    def write(self, kind: str, **fields) -> None:
        """One record, written through to the kernel before this returns."""
        line = json.dumps({"t": time.time(), "kind": kind, **fields}, separators=(",", ":")) + "\n"
        data = line.encode("utf-8")
        with self._lock:
            if self._fd is None:
                return
            view = memoryview(data)
            while view:  # os.write may write less than asked (signals, full pipes)
                view = view[os.write(self._fd, view):]
            self.records += 1

    def frame(self, direction: str, text: str) -> None:
        """A wire frame, ``direction`` "tx" or "rx", exactly as sent or received."""
        self.write(direction, frame=text)

    def close(self) -> None:
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


@dataclass
class LogContents:
    """The records of a log, and whether its last line was torn (the process died mid-write)."""

    records: list
    truncated: bool
    path: Path

    def of_kind(self, kind: str) -> list:
        return [r for r in self.records if r.get("kind") == kind]


def read_log(path) -> LogContents:
    """All complete records of a session log. A torn last line is skipped; a bad line elsewhere raises."""
    path = Path(path)
    lines = path.read_bytes().split(b"\n")
    tail = lines.pop()  # b"" when the file ends in a newline
    records = []
    for i, line in enumerate(lines, 1):
        try:
            records.append(json.loads(line))
        except ValueError:
            raise ValueError(f"{path}:{i}: not a log record (the log was edited or is not a session log)") from None
    truncated = bool(tail.strip())
    if records and records[0].get("format") != FORMAT:
        raise ValueError(f"{path}: not an armlab lab log (first record has format {records[0].get('format')!r})")
    return LogContents(records, truncated, path)


def load_states(path) -> dict:
    """The ``state`` records as arrays: t (receipt, s), stamp (robot, s), q_driver, q (DH), qd and effort
    (DH signs: every driver axis turns the other way), and the set point in force, q_cmd_driver / q_cmd
    (NaN before the first command)."""
    states = read_log(path).of_kind("state")
    if not states:
        raise ValueError(f"{path}: the log has no arm states")
    t = np.array([s["t"] for s in states])
    stamp = np.array([s["stamp"] for s in states])
    q_driver = np.array([s["q_driver"] for s in states], dtype=float)
    qd_driver = np.array([s["qd_driver"] for s in states], dtype=float)
    effort_driver = np.array([s["effort_driver"] for s in states], dtype=float)
    cmd = np.array([s["q_cmd_driver"] if s.get("q_cmd_driver") is not None else [np.nan] * 5 for s in states])
    return {"t": t, "stamp": stamp, "q_driver": q_driver, "q": youbot_driver_to_q(q_driver),
            "qd": -qd_driver, "effort": -effort_driver, "q_cmd_driver": cmd, "q_cmd": youbot_driver_to_q(cmd)}


def identification_data(path, t_start=None, t_end=None) -> dict:
    """(t, q, qd, qdd, tau) from a log, in DH angles and signs, for a least-squares identification.

    ``t_start``/``t_end`` select states by their arrival time on this machine (``time.time()`` before
    and after a motion); q̈ is the symmetric difference of the measured q̇ over the robot's own stamps
    (q̇ₖ₊₁ − q̇ₖ₋₁)/(tₖ₊₁ − tₖ₋₁), and the first and last samples are dropped. ``t`` is returned from the robot's stamps.
    """
    s = load_states(path)
    keep = np.ones(s["t"].shape, bool)
    if t_start is not None:
        keep &= s["t"] >= t_start
    if t_end is not None:
        keep &= s["t"] <= t_end
    t, q, qd, tau = s["stamp"][keep], s["q"][keep], s["qd"][keep], s["effort"][keep]
    if t.size < 3:
        raise ValueError(f"{path}: fewer than 3 states between t_start and t_end")
    # symmetric difference over both neighbours: two states stamped close together (a late tick and its
    # catch-up) would make a one-sided difference blow up
    qdd = (qd[2:] - qd[:-2]) / (t[2:] - t[:-2])[:, None]
    return {"t": t[1:-1] - t[0], "q": q[1:-1], "qd": qd[1:-1], "qdd": qdd, "tau": tau[1:-1]}
