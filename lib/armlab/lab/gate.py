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
  forwarded, holds and deadman trips.

``/joint_states`` comes from the gate's one subscription, passed on unchanged to every client that
subscribed (rosbridge serves one connection however large the class); a client gets its own rosbridge
connection only once it sends something upstream (the commander). Commands are forwarded re-encoded from the
checked values (only ``joint_uri``, ``unit``, ``value``), so
what reaches the driver is exactly what was checked. It binds loopback unless ``--host`` says otherwise
and then warns loudly. Set-up and the policy: ``docs/lab.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import hmac
import ipaddress
import itertools
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
from websockets.asyncio.client import connect as ws_connect
from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from . import protocol as P
from .safety import (
    SafetyError,
    SafetyLimits,
    SpeedGovernor,
    check_gripper,
    check_service,
    check_set_point,
    check_step,
    check_workspace,
)

__all__ = ["Gate", "AuditLog", "GATE_SERVICES", "main"]

CLAIM, RELEASE, HOLD, RESUME = "/armlab_gate/claim", "/armlab_gate/release", "/armlab_gate/hold", "/armlab_gate/resume"
#: The gate's own services, answered by the gate.
GATE_SERVICES = (CLAIM, RELEASE, HOLD, RESUME)
#: What a client may publish (the commander only), subscribe to, and call through the gate.
PUBLISH_OK = (P.ARM_POSITION, P.GRIPPER_POSITION)
SUBSCRIBE_OK = (P.JOINT_STATES,)
FORWARD_SERVICES = ("/arm_1/switchOnMotors",)
#: A watcher with more than this many bytes not yet written to its socket misses states until it catches up.
SLOW_CLIENT = 1 << 20
#: The measured arm counts as at rest within these (rad, rad/s): the deadman only trips mid-motion.
AT_REST = (0.02, 0.05)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


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


class _Client:
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
        return f"{self.name or 'client'} (connection {self.id} from {self.peer})"


class Gate:
    """``Gate(upstream).start()`` serves in a background thread (``.url``); ``python -m armlab.lab.gate`` runs one.

    ``limits``: the policy (default :class:`SafetyLimits`, with ``workspace=`` for the session's box);
    ``token``: the TA's take-over token (None: no take-over); ``deadman``, ``lease`` in seconds;
    ``audit``: the audit log's path.
    """

    def __init__(
        self,
        upstream: str,
        host: str = "127.0.0.1",
        port: int = 9091,
        *,
        token: str | None = None,
        limits: SafetyLimits | None = None,
        deadman: float = 0.5,
        lease: float = 300.0,
        audit: str | Path = "armlab-gate-audit.jsonl",
    ):
        if not isinstance(upstream, str) or not upstream.startswith(("ws://", "wss://")):
            raise ValueError(f"upstream must be rosbridge's ws:// address, got {upstream!r}")
        if not (0.05 <= deadman <= 5.0) or lease <= 0:
            raise ValueError(f"need 0.05 <= deadman <= 5 s and lease > 0 s, got deadman={deadman!r}, lease={lease!r}")
        self.upstream, self.host, self.port = upstream, host, int(port)
        self.token, self.deadman, self.lease = token, float(deadman), float(lease)
        self.limits = limits or SafetyLimits()
        self.audit = AuditLog(audit)
        self.robot: Any = None
        if self.limits.workspace is not None:
            from ..models import youbot

            self.robot = youbot()
        self.commander: _Client | None = None
        self.held: str | None = None  # why the gate's hold latch is set
        self.q_meas: np.ndarray | None = None  # driver angles, from /joint_states
        self.qd_meas: np.ndarray | None = None
        self.t_meas = -1e9
        self.q_target: np.ndarray | None = None  # the set point in force (the last one forwarded)
        self.last_cmd = -1e9
        self.stats: dict[str, Any] = {"forwarded": 0, "refused": 0, "connections": 0, "holds": 0, "dropped": 0}
        self.cmd_latency: collections.deque = collections.deque(maxlen=200_000)  # s from receipt to sent
        self.state_latency: collections.deque = collections.deque(maxlen=200_000)  # s from rosbridge to a watcher
        self._governor = SpeedGovernor(self.limits)
        self._ids = itertools.count(1)
        self._monitor: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._stopping: asyncio.Event | None = None
        self._error: BaseException | None = None
        self._conns: set[_Client] = set()

    # --- lifetime -----------------------------------------------------------------------
    @property
    def url(self) -> str:
        return f"ws://{self.host}:{self.port}"

    def start(self, timeout: float = 10.0) -> Gate:
        """Connect to the upstream, listen, and return self (RuntimeError if either fails)."""
        if not _is_loopback(self.host):
            print(exposed_warning(self.host, self.port, self.token), file=sys.stderr, flush=True)
        self._thread = threading.Thread(target=self._main, name="armlab gate", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout) or self._error:
            raise RuntimeError(
                f"the gate did not start on {self.host}:{self.port} (upstream {self.upstream}): {self._error}"
            )
        return self

    def _main(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as e:  # reported to start()
            self._error = e
            self._ready.set()

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        self._monitor = await self._connect_up()
        await self._monitor.send(
            P.encode({"op": "advertise", "topic": P.ARM_POSITION, "type": P.TOPICS[P.ARM_POSITION]})
        )
        await self._monitor.send(
            P.encode(
                {
                    "op": "subscribe",
                    "topic": P.JOINT_STATES,
                    "type": P.TOPICS[P.JOINT_STATES],
                    "throttle_rate": 0,
                    "queue_length": 1,
                }
            )
        )
        self._server = await serve(
            self._handler, self.host, self.port, compression=None, max_size=2**20, ping_interval=None, close_timeout=1.0
        )
        self.port = self._server.sockets[0].getsockname()[1]
        self.audit.write(
            "start",
            url=self.url,
            upstream=self.upstream,
            token=self.token is not None,
            policy=_policy(self.limits, self.deadman, self.lease),
        )
        tasks = [asyncio.create_task(self._monitor_loop()), asyncio.create_task(self._watch_loop())]
        self._ready.set()
        await self._stopping.wait()
        for t in tasks:
            t.cancel()
        for c in list(self._conns):
            c.ws.transport.abort()
        self._server.close()
        await self._server.wait_closed()
        await self._monitor.close()
        self.audit.write("stop", stats=self.stats)

    def stop(self) -> None:
        """Stop serving, join the thread and close the audit log."""
        if self._loop is not None and self._stopping is not None:
            self._loop.call_soon_threadsafe(self._stopping.set)
        if self._thread is not None:
            self._thread.join(timeout=5.0)
        self.audit.close()

    def __enter__(self) -> Gate:
        return self.start() if self._thread is None else self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    async def _connect_up(self) -> Any:
        try:
            return await ws_connect(
                self.upstream, compression=None, max_size=2**24, ping_interval=None, close_timeout=1.0, open_timeout=5.0
            )
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as e:
            raise ConnectionError(f"cannot reach rosbridge at {self.upstream}: {e}") from None

    # --- the measured arm ---------------------------------------------------------------
    async def _monitor_loop(self) -> None:
        while True:
            try:
                async for text in self._monitor:
                    self._on_upstream_state(text, time.perf_counter())
            except ConnectionClosed:
                pass
            self.audit.write("upstream_lost", upstream=self.upstream)
            self.q_meas = None
            while True:  # rosbridge restarted: reconnect, re-announce
                await asyncio.sleep(0.5)
                try:
                    self._monitor = await self._connect_up()
                    await self._monitor.send(
                        P.encode({"op": "advertise", "topic": P.ARM_POSITION, "type": P.TOPICS[P.ARM_POSITION]})
                    )
                    await self._monitor.send(
                        P.encode({"op": "subscribe", "topic": P.JOINT_STATES, "type": P.TOPICS[P.JOINT_STATES]})
                    )
                    self.audit.write("upstream_back", upstream=self.upstream)
                    break
                except (ConnectionError, ConnectionClosed):
                    continue

    def _on_upstream_state(self, text: str | bytes, t_rx: float = 0.0) -> None:
        """One frame on the gate's own rosbridge connection: /joint_states, passed on unchanged to every
        client that subscribed (one upstream subscription for the whole class), and read for the measured pose."""
        try:
            frame = P.decode(text)
            if frame.get("op") != "publish" or frame.get("topic") != P.JOINT_STATES:
                return
        except P.ProtocolError:
            return
        if isinstance(text, str):
            self._fan_out(text, frame, t_rx)
        try:
            _, _, joints = P.parse_joint_state(frame.get("msg"))
        except P.ProtocolError:
            return
        if not all(j in joints for j in P.ARM_JOINTS):
            return
        q = np.array([joints[j][0] for j in P.ARM_JOINTS])
        if not np.all(np.isfinite(q)):
            return
        self.q_meas = q
        self.qd_meas = np.array([joints[j][1] for j in P.ARM_JOINTS])
        self.t_meas = time.monotonic()
        if self.q_target is None:
            self.q_target = self.limits.clip(q)

    def _fan_out(self, text: str, frame: dict, t_rx: float) -> None:
        now = time.monotonic()
        parts: list[str] | None = None
        plain = []
        for c in list(self._conns):
            opts = c.js
            if opts is None:
                continue
            if opts["throttle_rate"] and now - c.js_last < opts["throttle_rate"] / 1000.0:
                continue
            c.js_last = now
            size = opts["fragment_size"]
            if size:
                if parts is None:
                    seq = frame.get("msg", {}).get("header", {}).get("seq", int(now * 1000))
                    parts = [P.encode(f) for f in P.fragment(text, size, f"js{seq}")]
                for part in parts:
                    self._send(c, part)
            elif c.ws.transport.get_write_buffer_size() > SLOW_CLIENT:
                self.stats["dropped"] += 1
            else:
                plain.append(c.ws)
        if plain:  # written to every socket at once, in this call (no task per client)
            broadcast(plain, text)
            self.state_latency.append(time.perf_counter() - t_rx)

    def _send(self, c: _Client, text: str, t_rx: float = 0.0) -> None:
        """Queue a frame for a client; one that stops reading loses its oldest frames, not the gate's time."""
        if c.outbox.qsize() >= 200:
            c.outbox.get_nowait()
            self.stats["dropped"] += 1
        c.outbox.put_nowait((t_rx, text))

    async def _sender(self, c: _Client) -> None:
        try:
            while True:
                t_rx, text = await c.outbox.get()
                await c.ws.send(text)
                if t_rx:
                    self.state_latency.append(time.perf_counter() - t_rx)
        except ConnectionClosed:
            pass

    def _fresh(self) -> bool:
        return self.q_meas is not None and time.monotonic() - self.t_meas <= self.limits.stale_after

    def _measured_now(self) -> np.ndarray:
        """The measured pose carried forward by its measured velocity over its age (at most the stale limit)."""
        assert self.q_meas is not None
        qd = self.qd_meas if self.qd_meas is not None and np.all(np.isfinite(self.qd_meas)) else np.zeros(5)
        age = min(max(0.0, time.monotonic() - self.t_meas), self.limits.stale_after)
        return self.q_meas + qd * age

    def _moving(self) -> bool:
        if self.q_meas is None:
            return False
        off = 0.0 if self.q_target is None else float(np.max(np.abs(self.q_meas - self.q_target)))
        qd = self.qd_meas if self.qd_meas is not None and np.all(np.isfinite(self.qd_meas)) else np.zeros(5)
        return off > AT_REST[0] or float(np.max(np.abs(qd))) > AT_REST[1]

    async def _hold(self, why: str, latch: bool) -> None:
        """Command the measured pose (moved into the commandable band) from the gate's own connection."""
        if latch:
            self.held = why
        self.stats["holds"] += 1
        if self.q_meas is None:
            self.audit.write("hold", why=why, latched=latch, sent=False, reason="no measured pose")
            return
        q = self.limits.clip(self.q_meas)
        try:
            await self._monitor.send(
                P.encode({"op": "publish", "topic": P.ARM_POSITION, "msg": P.positions_msg(q, range(1, 6))})
            )
        except ConnectionClosed:
            self.audit.write("hold", why=why, latched=latch, sent=False, reason="rosbridge connection lost")
            return
        self.q_target = q
        self._governor = SpeedGovernor(self.limits)
        self.audit.write("hold", why=why, latched=latch, sent=True, q_driver=q.tolist())

    async def _watch_loop(self) -> None:
        """The deadman (a quiet commander mid-motion) and the lease, checked every 20 ms."""
        while True:
            await asyncio.sleep(0.02)
            c = self.commander
            if c is None:
                continue
            now = time.monotonic()
            if now - c.last_rx > self.lease:
                self.audit.write("lease_expired", who=c.who, quiet_s=round(now - c.last_rx, 3))
                await self._status(
                    c,
                    f"armlab gate: you lost the arm: no frame from you for {self.lease:g} s "
                    "(the lease); claim it again",
                )
                await self._hold(f"lease of {c.who} expired", latch=False)
                self.commander = None
            elif (
                self.held is None
                and now - self.last_cmd > self.deadman
                and self.last_cmd > c.last_claim
                and self._moving()
            ):
                await self._hold(f"deadman: {c.who} quiet for {now - self.last_cmd:.2f} s mid-motion", latch=True)
                await self._status(
                    c,
                    f"armlab gate: deadman: no command for {self.deadman:g} s while the arm was "
                    "moving; the gate holds it; call /armlab_gate/resume (arm.resume())",
                )

    # --- clients ------------------------------------------------------------------------
    async def _handler(self, ws: ServerConnection) -> None:
        c = _Client(ws, next(self._ids))
        self.stats["connections"] += 1
        self.audit.write("connect", conn=c.id, peer=c.peer)
        self._conns.add(c)
        sender = asyncio.create_task(self._sender(c))
        try:
            async for text in ws:
                c.last_rx = time.monotonic()
                await self._from_client(c, text)
        except ConnectionClosed:
            pass
        finally:
            self._conns.discard(c)
            sender.cancel()
            if c.pump is not None:
                c.pump.cancel()
            self.audit.write("disconnect", conn=c.id, peer=c.peer)
            if self.commander is c:
                self.commander = None
                await self._hold(f"deadman: the commander {c.who} disconnected", latch=False)
                self.audit.write("release", who=c.who, why="disconnected")
            if c.up is not None:
                await c.up.close()

    async def _pump(self, c: _Client, up: Any) -> None:
        """rosbridge → client on the client's own connection (service responses), frame for frame."""
        try:
            async for text in up:
                if isinstance(text, str):
                    self._send(c, text)
        except ConnectionClosed:
            pass
        if c.up is up:
            c.up = None  # opened again when the client next sends something upstream

    async def _up(self, c: _Client) -> Any:
        """The client's own rosbridge connection, opened on first use (watchers never need one)."""
        if c.up is None:
            up = await self._connect_up()
            for topic, type_ in c.advertised.items():
                await up.send(P.encode({"op": "advertise", "topic": topic, "type": type_}))
            c.up, c.pump = up, asyncio.create_task(self._pump(c, up))
        return c.up

    async def _status(self, c: _Client, msg: str, fid: Any = None) -> None:
        frame: dict[str, Any] = {"op": "status", "level": "error", "msg": msg}
        if fid is not None:
            frame["id"] = fid
        self._send(c, P.encode(frame))

    async def _refuse(self, c: _Client, why: str, frame: dict | None = None, raw: Any = None) -> None:
        self.stats["refused"] += 1
        op = frame.get("op") if frame else None
        target = (frame.get("topic") or frame.get("service")) if frame else None
        self.audit.write(
            "refuse",
            conn=c.id,
            who=c.who,
            op=op,
            target=target,
            why=why,
            frame=str(frame if frame is not None else raw)[:300],
        )
        await self._status(
            c,
            f"armlab gate: refused {op or 'frame'}{f' {target}' if target else ''}: {why}",
            frame.get("id") if frame else None,
        )
        if op == "call_service":  # the caller waits for an answer
            await self._answer(c, frame or {}, False, f"refused by the armlab gate: {why}")

    async def _answer(self, c: _Client, frame: dict, ok: bool, values: Any) -> None:
        resp = {"op": "service_response", "service": frame.get("service"), "values": values, "result": ok}
        if "id" in frame:
            resp["id"] = frame["id"]
        self._send(c, P.encode(resp))

    async def _forward(self, c: _Client, frame: dict) -> bool:
        for _ in range(2):  # a connection rosbridge dropped is opened again once
            try:
                up = await self._up(c)
            except ConnectionError as e:
                await self._refuse(c, f"rosbridge is not reachable behind the gate ({e})", frame)
                return False
            try:
                await up.send(P.encode(frame))
                return True
            except ConnectionClosed:
                c.up = None
        await self._refuse(c, "rosbridge keeps closing the connection behind the gate", frame)
        return False

    async def _from_client(self, c: _Client, text: str | bytes) -> None:
        t_rx = time.perf_counter()
        try:
            if isinstance(text, bytes):
                raise P.ProtocolError("binary frames are not rosbridge JSON")
            frame = c.defrag.decode(text)
        except P.ProtocolError as e:
            await self._refuse(c, f"malformed frame: {e}", raw=text)
            return
        if frame is None:  # a fragment of a frame not yet whole
            return
        op = frame["op"]
        topic = frame.get("topic")
        if op in ("advertise", "unadvertise"):
            if topic not in PUBLISH_OK:
                await self._refuse(c, f"only {', '.join(PUBLISH_OK)} may be published through the gate", frame)
            elif op == "advertise" and frame.get("type") != P.TOPICS[topic]:
                await self._refuse(c, f"{topic} has type {P.TOPICS[topic]}", frame)
            else:
                if op == "advertise":
                    c.advertised[topic] = P.TOPICS[topic]
                else:
                    c.advertised.pop(topic, None)
                if c.up is not None:
                    await self._forward(
                        c, {"op": op, "topic": topic, **({"type": P.TOPICS[topic]} if op == "advertise" else {})}
                    )
        elif op in ("subscribe", "unsubscribe"):
            if topic not in SUBSCRIBE_OK:
                await self._refuse(c, f"only {', '.join(SUBSCRIBE_OK)} can be watched through the gate", frame)
            elif op == "unsubscribe":
                c.js = None
            else:
                throttle, size = frame.get("throttle_rate") or 0, frame.get("fragment_size") or 0
                if not all(
                    isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 10**7 for v in (throttle, size)
                ):
                    await self._refuse(c, "throttle_rate and fragment_size must be whole numbers >= 0", frame)
                else:
                    c.js = {"throttle_rate": throttle, "fragment_size": size}
        elif op == "publish":
            await self._publish(c, frame, t_rx)
        elif op == "call_service":
            await self._service(c, frame)
        else:
            await self._refuse(c, f"op {op!r} is not allowed through the gate", frame)

    def _holder_text(self) -> str:
        if self.commander is None:
            return "nobody holds the arm: claim it first (call /armlab_gate/claim; arm.claim())"
        return f"the arm is held by {self.commander.who}; only the holder may command it"

    async def _publish(self, c: _Client, frame: dict, t_rx: float) -> None:
        topic = frame.get("topic")
        if topic not in PUBLISH_OK:
            await self._refuse(
                c,
                f"publishing on {topic!r} is not allowed through the gate (velocity commands "
                "have no watchdog on the robot)"
                if topic == P.ARM_VELOCITY
                else f"publishing on {topic!r} is not allowed through the gate",
                frame,
            )
            return
        if c is not self.commander:
            await self._refuse(c, self._holder_text(), frame)
            return
        if self.held is not None:
            await self._refuse(
                c, f"the gate holds the arm ({self.held}); call /armlab_gate/resume (arm.resume())", frame
            )
            return
        try:
            if topic == P.GRIPPER_POSITION:
                msg = self._check_gripper(frame.get("msg"))
            else:
                msg = self._check_arm(frame.get("msg"))
        except (SafetyError, P.ProtocolError) as e:
            await self._refuse(c, str(e), frame)
            return
        if not await self._forward(c, {"op": "publish", "topic": topic, "msg": msg}):
            return
        self.stats["forwarded"] += 1
        self.cmd_latency.append(time.perf_counter() - t_rx)
        self.audit.write(
            "forward", conn=c.id, topic=topic, values=[[e["joint_uri"], e["value"]] for e in msg["positions"]]
        )

    def _check_arm(self, msg: Any) -> dict:
        entries = P.parse_positions(msg)
        if not entries:
            raise SafetyError("an empty set point")
        if not self._fresh() or self.q_meas is None or self.q_target is None:
            raise SafetyError(
                f"the gate has no fresh /joint_states (limit {1000 * self.limits.stale_after:.0f} ms): "
                "it cannot check a set point against the measured pose"
            )
        new = self.q_target.copy()
        seen = set()
        for uri, unit, value in entries:
            if uri not in P.ARM_JOINTS or uri in seen:
                raise SafetyError(f"joint_uri {uri!r} is unknown or repeated (arm_joint_1 … arm_joint_5, once each)")
            if unit != P.UNIT_RAD:
                raise SafetyError(f"{uri}: unit {unit!r} is not {P.UNIT_RAD!r} (the driver would ignore it)")
            seen.add(uri)
            new[P.ARM_JOINTS.index(uri)] = value
        new = check_set_point(new, self.limits)
        check_step(new, self._measured_now(), self.limits, "from the measured pose")
        if self.robot is not None:
            check_workspace(self.robot, new, self.limits, self.q_meas)
        self._governor.check(time.monotonic(), new, self.q_target)
        self.q_target = new
        self.last_cmd = time.monotonic()
        idx = sorted(P.ARM_JOINTS.index(u) for u in seen)
        return P.positions_msg(new[idx], [i + 1 for i in idx])

    def _check_gripper(self, msg: Any) -> dict:
        entries = P.parse_positions(msg)
        if not entries:
            raise SafetyError("an empty gripper command")
        out = []
        for uri, unit, value in entries:
            if uri not in P.GRIPPER_JOINTS or unit != P.UNIT_M:
                raise SafetyError(f"gripper: {uri!r} in {unit!r} (needs {', '.join(P.GRIPPER_JOINTS)} in 'm')")
            out.append((uri, check_gripper(value, self.limits)))
        return P.positions_msg([v for _, v in out], [u for u, _ in out], unit=P.UNIT_M)

    async def _service(self, c: _Client, frame: dict) -> None:
        name = frame.get("service")
        raw_args = frame.get("args")
        args: dict = raw_args if isinstance(raw_args, dict) else {}
        if name == CLAIM:
            await self._claim(c, frame, args)
        elif name == RELEASE:
            if c is not self.commander:
                await self._refuse(c, self._holder_text(), frame)
                return
            await self._hold(f"{c.who} released the arm", latch=False)
            self.commander = None
            self.audit.write("release", who=c.who, why="asked")
            await self._answer(c, frame, True, {})
        elif name == HOLD:  # any seat may stop the arm
            await self._hold(f"hold asked by {c.who}", latch=True)
            await self._answer(c, frame, True, {"held": self.held})
            if self.commander is not None and self.commander is not c:
                await self._status(self.commander, f"armlab gate: {c.who} pressed hold; the gate holds the arm")
        elif name == RESUME:
            if c is not self.commander and not self._token_ok(args):
                await self._refuse(c, "only the holder of the arm (or the TA's token) may lift the hold", frame)
                return
            was, self.held = self.held, None
            if self.q_meas is not None:
                self.q_target = self.limits.clip(self.q_meas)
            self._governor = SpeedGovernor(self.limits)
            self.audit.write("resume", who=c.who, was=was)
            await self._answer(c, frame, True, {})
        elif name in P.DANGEROUS_SERVICES:
            try:
                check_service(name)
            except SafetyError as e:
                await self._refuse(c, str(e).replace("by the client", "by the gate"), frame)
        elif name in FORWARD_SERVICES:
            if c is not self.commander:
                await self._refuse(c, self._holder_text(), frame)
            else:
                self.audit.write("forward", conn=c.id, service=name)
                await self._forward(c, frame)
        else:
            await self._refuse(c, f"service {name!r} is not allowed through the gate", frame)

    def _token_ok(self, args: dict) -> bool:
        token = args.get("token")
        return self.token is not None and isinstance(token, str) and hmac.compare_digest(token, self.token)

    async def _claim(self, c: _Client, frame: dict, args: dict) -> None:
        name = args.get("name")
        if isinstance(name, str) and name.strip():
            c.name = name.strip()[:60]
        prev = self.commander
        if prev is not None and prev is not c:
            if not self._token_ok(args):
                why = "a wrong token" if "token" in args else "no token"
                await self._refuse(
                    c, f"{self._holder_text()} ({why}: the TA can take over with the gate's token)", frame
                )
                return
            await self._status(prev, f"armlab gate: the TA ({c.who}) took over the arm; you lost the arm")
            await self._hold(f"the TA {c.who} took over from {prev.who}", latch=False)
            self.audit.write("takeover", who=c.who, previous=prev.who)
        self.commander = c
        c.last_claim = time.monotonic()
        if self.q_meas is not None:
            self.q_target = self.limits.clip(self.q_meas)
        self._governor = SpeedGovernor(self.limits)
        self.audit.write("claim", conn=c.id, who=c.who, ta=self._token_ok(args))
        try:
            await self._up(c)  # ready before the first command
        except ConnectionError:
            pass
        await self._answer(
            c,
            frame,
            True,
            {
                "holder": c.who,
                "lease_s": self.lease,
                "held": self.held,
                "policy": _policy(self.limits, self.deadman, self.lease),
            },
        )


def _policy(limits: SafetyLimits, deadman: float, lease: float) -> dict:
    return {
        "margin": limits.margin,
        "max_step": limits.max_step,
        "max_speed": limits.max_speed,
        "stale_after": limits.stale_after,
        "workspace": limits.workspace,
        "deadman": deadman,
        "lease": lease,
    }


def exposed_warning(host: str, port: int, token: str | None) -> str:
    bar = "!" * 78
    return (
        f"{bar}\n!!  WARNING: the armlab gate listens on {host}:{port}, REACHABLE FROM THE NETWORK.\n"
        "!!  Anyone who reaches this port can watch the arm, and the holder of the claim can move it.\n"
        "!!  Use an isolated lab network only; bind rosbridge itself to 127.0.0.1.\n"
        + ("!!  No --token: the TA cannot take the arm over from another seat.\n" if token is None else "")
        + bar
    )


def _workspace(text: str) -> tuple:
    try:
        v = [float(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--workspace needs six numbers, got {text!r}") from None
    if len(v) != 6:
        raise argparse.ArgumentTypeError(
            f"--workspace needs six numbers x_min,y_min,z_min,x_max,y_max,z_max, got {text!r}"
        )
    return (tuple(v[:3]), tuple(v[3:]))


def main(argv: list[str] | None = None) -> int:
    """The command line: ``python -m armlab.lab.gate --help``."""
    ap = argparse.ArgumentParser(
        prog="python -m armlab.lab.gate", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--upstream", default="ws://127.0.0.1:9090", help="rosbridge (bound to loopback)")
    ap.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default loopback; the lab network's address exposes the gate, loudly)",
    )
    ap.add_argument("--port", type=int, default=9091)
    ap.add_argument(
        "--token",
        default=os.environ.get("ARMLAB_GATE_TOKEN"),
        help="the TA's take-over token (default: $ARMLAB_GATE_TOKEN; none: no take-over)",
    )
    ap.add_argument(
        "--workspace",
        type=_workspace,
        default=None,
        metavar="XMIN,YMIN,ZMIN,XMAX,YMAX,ZMAX",
        help="the session's box for the tool point, base frame, metres",
    )
    ap.add_argument("--max-speed", type=float, default=None, help="joint speed cap in rad/s (default: the client's)")
    ap.add_argument("--deadman", type=float, default=0.5, help="seconds of commander silence while the arm still moves")
    ap.add_argument("--lease", type=float, default=300.0, help="seconds of commander silence before the claim lapses")
    ap.add_argument("--audit", default="armlab-gate-audit.jsonl", help="the audit log (appended to)")
    ap.add_argument("--duration", type=float, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    kw: dict[str, Any] = {"workspace": args.workspace}
    if args.max_speed is not None:
        kw["max_speed"] = args.max_speed
    try:
        limits = SafetyLimits(**kw)
        if limits.max_speed > SafetyLimits().max_speed:
            raise ValueError(f"--max-speed {limits.max_speed} is above the client's cap {SafetyLimits().max_speed}")
        gate = Gate(
            args.upstream,
            args.host,
            args.port,
            token=args.token,
            limits=limits,
            deadman=args.deadman,
            lease=args.lease,
            audit=args.audit,
        ).start()
    except (ValueError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"listening on {gate.url} (upstream {args.upstream}; audit log {gate.audit.path})", flush=True)
    t_start = time.monotonic()
    try:
        threading.Event().wait(args.duration)
    except KeyboardInterrupt:
        pass
    finally:
        gate.stop()
        lat = np.array(gate.cmd_latency) * 1000 if gate.cmd_latency else np.zeros(1)
        js = np.array(gate.state_latency) * 1000 if gate.state_latency else np.zeros(1)
        print(
            json.dumps(
                {
                    **gate.stats,
                    "audit": dict(gate.audit.counts),
                    "cpu_s": time.process_time(),
                    "wall_s": time.monotonic() - t_start,
                    "cmd_latency_ms_p50": float(np.percentile(lat, 50)),
                    "cmd_latency_ms_p99": float(np.percentile(lat, 99)),
                    "state_latency_ms_p50": float(np.percentile(js, 50)),
                    "state_latency_ms_p99": float(np.percentile(js, 99)),
                }
            ),
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
