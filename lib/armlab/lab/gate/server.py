"""The gate's server: the proxy between the clients and rosbridge, and the state the policy needs."""

from __future__ import annotations

import asyncio
import collections
import itertools
import sys
import threading
import time
from pathlib import Path
from typing import Any, TextIO

import numpy as np
from websockets.asyncio.client import connect as ws_connect
from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from .. import protocol as P
from ..safety import (
    SafetyError,
    SafetyLimits,
    SpeedGovernor,
    check_step,
    check_workspace,
)
from .audit import AuditLog
from .clients import Client, exposed_warning
from .services import GATE_SERVICES, GateServices
from .commands import arm_set_point, gripper_command, is_moving, measured_now, policy_summary

__all__ = ["Gate", "GATE_SERVICES"]

#: What a client may publish (the commander only), subscribe to, and call through the gate.
PUBLISH_OK = (P.ARM_POSITION, P.GRIPPER_POSITION)
SUBSCRIBE_OK = (P.JOINT_STATES,)
#: A watcher with more than this many bytes not yet written to its socket misses states until it catches up.
SLOW_CLIENT = 1 << 20


class Gate(GateServices):
    """``Gate(upstream).start()`` serves in a background thread (``.url``); ``python -m armlab.lab.gate`` runs one.

    ``limits``: the policy (default :class:`SafetyLimits`, with ``workspace=`` for the session's box);
    ``token``: the TA's take-over token (None: no take-over); ``deadman``, ``lease`` in seconds;
    ``audit``: the audit log's path; ``console``: a stream that shows the log's events as lines for the TA
    (claims, take-overs, refusals, holds; ``python -m armlab.lab.gate`` shows them on its standard output).
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
        console: TextIO | None = None,
    ):
        if not isinstance(upstream, str) or not upstream.startswith(("ws://", "wss://")):
            raise ValueError(f"upstream must be rosbridge's ws:// address, got {upstream!r}")
        if not (0.05 <= deadman <= 5.0) or lease <= 0:
            raise ValueError(f"need 0.05 <= deadman <= 5 s and lease > 0 s, got deadman={deadman!r}, lease={lease!r}")
        self.upstream, self.host, self.port = upstream, host, int(port)
        self.token, self.deadman, self.lease = token, float(deadman), float(lease)
        self.limits = limits or SafetyLimits()
        self.audit = AuditLog(audit, console)
        self.robot: Any = None
        if self.limits.workspace is not None:
            from ...models import youbot

            self.robot = youbot()
        self.commander: Client | None = None
        self.held: str | None = None  # why the gate's hold latch is set
        self.upstream_identity: dict = {"kind": "unknown"}  # what rosbridge's side said it is
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
        self._conns: set[Client] = set()

    # --- lifetime -----------------------------------------------------------------------
    @property
    def url(self) -> str:
        return f"ws://{self.host}:{self.port}"

    def start(self, timeout: float = 10.0) -> Gate:
        """Connect to the upstream, listen, and return self (RuntimeError if either fails)."""
        if not P.is_loopback(self.host):
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
        self._monitor = await self._open_monitor()
        self._server = await serve(
            self._handler, self.host, self.port, compression=None, max_size=2**20, ping_interval=None, close_timeout=1.0
        )
        self.port = self._server.sockets[0].getsockname()[1]
        self.audit.write(
            "start",
            url=self.url,
            upstream=self.upstream,
            upstream_is=self.upstream_identity,
            token=self.token is not None,
            policy=policy_summary(self.limits, self.deadman, self.lease),
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

    async def _open_monitor(self) -> Any:
        """The gate's own rosbridge connection: ask what is there, advertise the arm's topic, watch the arm."""
        ws = await self._connect_up()
        self.upstream_identity = await self._identify_upstream(ws)
        await ws.send(P.encode({"op": "advertise", "topic": P.ARM_POSITION, "type": P.TOPICS[P.ARM_POSITION]}))
        js = {"op": "subscribe", "topic": P.JOINT_STATES, "type": P.TOPICS[P.JOINT_STATES], "queue_length": 1}
        await ws.send(P.encode(js))
        return ws

    async def _identify_upstream(self, ws: Any, timeout: float = 1.0) -> dict:
        """What rosbridge's side says it is (:data:`~armlab.lab.protocol.IDENTIFY`); no answer within ``timeout``
        (the real driver's rosbridge never answers it): the real robot."""
        fid = "armlab_gate_identify"
        await ws.send(P.encode({"op": "call_service", "id": fid, "service": P.IDENTIFY, "args": {}}))
        end = time.monotonic() + timeout
        while (left := end - time.monotonic()) > 0:
            try:
                frame = P.decode(await asyncio.wait_for(ws.recv(), left))
            except (TimeoutError, P.ProtocolError):
                continue
            if frame.get("op") == "service_response" and frame.get("id") == fid:
                if frame.get("result") and isinstance(frame.get("values"), dict):
                    return frame["values"]
                break
        return {"kind": "unknown", "why": f"no answer to {P.IDENTIFY}: taken to be the real robot"}

    def identity(self) -> dict:
        """The gate's answer to :data:`~armlab.lab.protocol.IDENTIFY`: itself, what is behind it, who holds the arm."""
        return {
            "kind": "gate",
            "name": "the armlab gate",
            "upstream_url": self.upstream,
            "upstream": self.upstream_identity,
            "holder": None if self.commander is None else self.commander.who,
        }

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
                    self._monitor = await self._open_monitor()
                    self.audit.write("upstream_back", upstream=self.upstream, upstream_is=self.upstream_identity)
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

    def _send(self, c: Client, text: str, t_rx: float = 0.0) -> None:
        """Queue a frame for a client; one that stops reading loses its oldest frames, not the gate's time."""
        if c.outbox.qsize() >= 200:
            c.outbox.get_nowait()
            self.stats["dropped"] += 1
        c.outbox.put_nowait((t_rx, text))

    async def _sender(self, c: Client) -> None:
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
        assert self.q_meas is not None
        return measured_now(self.q_meas, self.qd_meas, time.monotonic() - self.t_meas, self.limits)

    def _moving(self) -> bool:
        return self.q_meas is not None and is_moving(self.q_meas, self.qd_meas, self.q_target)

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
                    f"armlab gate: you lost the arm: no frame from you for {self.lease:g} s (the lease)",
                    reason="lease",
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
                    reason="gate_hold",
                )

    # --- clients ------------------------------------------------------------------------
    async def _handler(self, ws: ServerConnection) -> None:
        c = Client(ws, next(self._ids))
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

    async def _pump(self, c: Client, up: Any) -> None:
        """rosbridge → client on the client's own connection (service responses), frame for frame."""
        try:
            async for text in up:
                if isinstance(text, str):
                    self._send(c, text)
        except ConnectionClosed:
            pass
        if c.up is up:
            c.up = None  # opened again when the client next sends something upstream

    async def _up(self, c: Client) -> Any:
        """The client's own rosbridge connection, opened on first use (watchers never need one)."""
        if c.up is None:
            up = await self._connect_up()
            for topic, type_ in c.advertised.items():
                await up.send(P.encode({"op": "advertise", "topic": topic, "type": type_}))
            c.up, c.pump = up, asyncio.create_task(self._pump(c, up))
        return c.up

    async def _status(self, c: Client, msg: str, fid: Any = None, reason: str = "policy") -> None:
        frame: dict[str, Any] = {"op": "status", "level": "error", "msg": msg, "reason": reason}
        if fid is not None:
            frame["id"] = fid
        self._send(c, P.encode(frame))

    async def _refuse(
        self, c: Client, why: str, frame: dict | None = None, raw: Any = None, reason: str = "policy"
    ) -> None:
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
            reason,
        )
        if op == "call_service":  # the caller waits for an answer
            await self._answer(c, frame or {}, False, f"refused by the armlab gate: {why}")

    async def _answer(self, c: Client, frame: dict, ok: bool, values: Any) -> None:
        resp = {"op": "service_response", "service": frame.get("service"), "values": values, "result": ok}
        if "id" in frame:
            resp["id"] = frame["id"]
        self._send(c, P.encode(resp))

    async def _forward(self, c: Client, frame: dict) -> bool:
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

    async def _from_client(self, c: Client, text: str | bytes) -> None:
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

    async def _publish(self, c: Client, frame: dict, t_rx: float) -> None:
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
            await self._refuse(c, self._holder_text(), frame, reason=self._holder_reason())
            return
        if self.held is not None:
            await self._refuse(
                c,
                f"the gate holds the arm ({self.held}); call /armlab_gate/resume (arm.resume())",
                frame,
                reason="gate_hold",
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
        new, idx = arm_set_point(msg, self.q_target, self.limits, self._fresh())
        assert self.q_meas is not None and self.q_target is not None  # fresh: arm_set_point checked
        check_step(new, self._measured_now(), self.limits, "from the measured pose")
        if self.robot is not None:
            check_workspace(self.robot, new, self.limits, self.q_meas)
        self._governor.check(time.monotonic(), new, self.q_target)
        self.q_target = new
        self.last_cmd = time.monotonic()
        return P.positions_msg(new[idx], [i + 1 for i in idx])

    def _check_gripper(self, msg: Any) -> dict:
        return gripper_command(msg, self.limits)
