"""The session log: append-only JSON lines, one ``os.write`` per record, and its reader.

Every frame sent (``tx``) and received (``rx``) is logged as its exact text, and every arm state as
a ``state`` record with the commanded set point beside the measured one. Each record is one
unbuffered write on an ``O_APPEND`` descriptor, so a process killed with SIGKILL loses at most the
record it was writing; :func:`read_log` skips a torn last line and says so.

:func:`load_states` turns a log into arrays (DH angles and signs, by the driver → DH map the log records),
and :func:`identification_data` into the (t, q, q̇, q̈, τ) samples that lab 3's fit and chapter 7's
identification take: the one path from a log to identification data (the dynamics package takes arrays
and never reads a log).
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ..dynamics.pipeline import prepare

__all__ = ["SessionLog", "LogContents", "read_log", "load_states", "identification_data", "default_log_path"]

FORMAT = "armlab-lab-log/1"


def default_log_path(directory: str | os.PathLike = "lab-logs") -> Path:
    """A new timestamped file name under ``directory`` (e.g. lab-logs/2025-03-01T10-15-02.123.jsonl)."""
    stamp = _dt.datetime.now().strftime("%Y-%m-%dT%H-%M-%S.%f")[:-3]
    return Path(directory) / f"{stamp}.jsonl"


class SessionLog:
    """Append-only writer. ``SessionLog(path).write("event", msg="...")``; thread-safe."""

    def __init__(self, path: str | os.PathLike, meta: dict | None = None) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fd: int | None = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
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
                view = view[os.write(self._fd, view) :]
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


def read_log(path: str | os.PathLike) -> LogContents:
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


def _mapping(contents: LogContents, to_dh: Callable[[np.ndarray], Any] | None, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(sign, offset) of the affine driver → DH map: from ``to_dh``, else from the log's own ``open`` record."""
    if to_dh is not None:
        offset = np.asarray(to_dh(np.zeros(n)), float)
        return np.asarray(to_dh(np.ones(n)), float) - offset, offset
    opened: dict = next((r for r in contents.records if r.get("kind") == "open"), {})
    mapping = opened.get("driver_to_dh")
    if mapping is None:
        raise ValueError(
            f"{contents.path}: this log does not say how driver angles map to DH angles: pass "
            "to_dh=armlab.models.youbot_driver_to_q"
        )
    return np.asarray(mapping["sign"], float), np.asarray(mapping["offset"], float)


def load_states(
    log: str | os.PathLike | LogContents, *, to_dh: Callable[[np.ndarray], Any] | None = None
) -> dict[str, np.ndarray]:
    """The ``state`` records of a session log (a path or :func:`read_log`'s contents) as arrays: t (receipt,
    s), stamp (robot, s), q_driver, q (DH), qd and effort (DH signs), and the set point in force,
    q_cmd_driver / q_cmd (NaN before the first command).

    The driver → DH map is affine (each youBot driver axis turns against the report's, so velocities and
    efforts change sign too): the log's own ``driver_to_dh`` record (every log :class:`~armlab.lab.YoubotArm`
    writes has it), or ``to_dh`` (e.g. ``armlab.models.youbot_driver_to_q``) for a log without one."""
    contents = log if isinstance(log, LogContents) else read_log(log)
    states = contents.of_kind("state")
    if not states:
        raise ValueError(f"{contents.path}: the log has no arm states")
    q_driver = np.array([s["q_driver"] for s in states], dtype=float)
    n = q_driver.shape[1]
    sign, offset = _mapping(contents, to_dh, n)
    qd_driver = np.array([s["qd_driver"] for s in states], dtype=float)
    effort_driver = np.array([s["effort_driver"] for s in states], dtype=float)
    cmd = np.array(
        [s["q_cmd_driver"] if s.get("q_cmd_driver") is not None else [np.nan] * n for s in states], dtype=float
    )
    return {
        "t": np.array([s["t"] for s in states], dtype=float),
        "stamp": np.array([s["stamp"] for s in states], dtype=float),
        "q_driver": q_driver,
        "q": offset + sign * q_driver,
        "qd": sign * qd_driver,
        "effort": sign * effort_driver,
        "q_cmd_driver": cmd,
        "q_cmd": offset + sign * cmd,
    }


def identification_data(
    log: str | os.PathLike | LogContents,
    t_start: float | None = None,
    t_end: float | None = None,
    *,
    to_dh: Callable[[np.ndarray], Any] | None = None,
    cutoff: float | None = 5.0,
    nan: str = "raise",
    filter_tau: bool = False,
) -> dict[str, np.ndarray]:
    """The one path from a session log to identification data: dict(t, q, qd, qdd, tau), arrays in DH angles
    and signs, ready for :func:`armlab.dynamics.identify` (chapter 7) or :func:`armlab.lab.ident.identify_scaling`
    (lab 3).

    ``t_start``/``t_end`` select states by their arrival time on this machine (``time.time()`` before and
    after a motion); the states are then put on the robot's own stamps and go through
    :func:`armlab.dynamics.prepare`: uniform grid, zero-phase low-pass of q at ``cutoff`` Hz, q̇ and q̈ by
    central differences, the filter's ends trimmed, each stretch between NaN states or holes in the stamps
    (states lost, or published late by a busy machine) on its own (``nan``, ``filter_tau``: as there). ``t``
    counts from the first selected state's stamp. ``to_dh``: see :func:`load_states`."""
    s = load_states(log, to_dh=to_dh)
    keep = np.ones(s["t"].shape, bool)
    if t_start is not None:
        keep &= s["t"] >= t_start
    if t_end is not None:
        keep &= s["t"] <= t_end
    if keep.sum() < 3:
        raise ValueError(f"{_path(log)}: fewer than 3 states between t_start and t_end")
    stamp = s["stamp"][keep]
    data = prepare(stamp - stamp[0], s["q"][keep], s["effort"][keep], cutoff=cutoff, nan=nan, filter_tau=filter_tau)
    return data


def _path(log: str | os.PathLike | LogContents) -> object:
    return log.path if isinstance(log, LogContents) else log
