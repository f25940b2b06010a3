"""A thin rosbridge v2 client on ``websockets`` (sync API): one reader thread, no send queue.

What it does differently from roslibpy, on purpose:

* a publish while disconnected **raises** :class:`NotConnectedError`; nothing is queued, so nothing
  stale is replayed when the connection comes back;
* after a reconnect (back-off 0.05 s doubling to ``max_backoff``) it re-advertises and re-subscribes,
  bumps :attr:`RosbridgeClient.generation` and calls the ``on_reconnect`` hooks — and sends nothing else;
* a malformed frame is counted, reported to ``on_error`` and survived.

Every frame in and out goes to the ``on_frame(direction, text)`` hook (the session log).
"""

from __future__ import annotations

import inspect
import itertools
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import connect as ws_connect

from .protocol import Defragmenter, ProtocolError, encode

__all__ = ["RosbridgeClient", "NotConnectedError", "ServiceError"]

logger = logging.getLogger("armlab.lab")
# websockets >= 16 wants `legacy=True` to hand back a plain connection (we manage its lifetime ourselves)
_CONNECT_KW: dict[str, Any] = {"legacy": True} if "legacy" in inspect.signature(ws_connect).parameters else {}


class NotConnectedError(ConnectionError):
    """The websocket is down: the frame was not sent (and will never be sent later)."""


class ServiceError(RuntimeError):
    """A service call failed, was refused by the server, or timed out (``values``: the server's answer, if any)."""

    def __init__(self, msg: str, values: Any = None):
        super().__init__(msg)
        self.values = values


class RosbridgeClient:
    """``RosbridgeClient(url).connect()``; then advertise, publish, subscribe, call_service, close."""

    def __init__(
        self,
        url: str,
        *,
        on_frame: Callable[[str, str], Any] | None = None,
        on_error: Callable[[str, Any], Any] | None = None,
        reconnect: bool = True,
        max_backoff: float = 2.0,
        open_timeout: float = 5.0,
    ):
        if not isinstance(url, str) or not url.startswith(("ws://", "wss://")):
            raise ValueError(f"url must be a ws:// or wss:// address such as 'ws://127.0.0.1:9090', got {url!r}")
        self.url = url
        self.on_frame = on_frame
        self.on_error = on_error
        self.reconnect = reconnect
        self.max_backoff = max_backoff
        self.open_timeout = open_timeout
        self.generation = 0  # connections made so far
        self.malformed = 0  # frames received that were not valid rosbridge JSON
        self.on_reconnect: list[Callable[[int], Any]] = []
        self.on_disconnect: list[Callable[[], Any]] = []
        self.on_status: list[Callable[[dict], Any]] = []  # for each "status" op (the gate's refusals)
        self._ws: Any = None
        self._send_lock = threading.Lock()
        self._state_lock = threading.Lock()
        self._advertised: dict[str, str] = {}
        self._subs: dict[str, tuple[str, dict, list]] = {}
        self._pending: dict[str, list[Any]] = {}
        self._ids = itertools.count(1)
        self._defrag = Defragmenter()
        self._closed = threading.Event()
        self._connected = threading.Event()
        self._thread: threading.Thread | None = None

    # --- connection ---------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def connect(self) -> RosbridgeClient:
        """Open the websocket (raises ConnectionError) and start the reader thread."""
        self._open()
        self._thread = threading.Thread(target=self._run, name=f"rosbridge {self.url}", daemon=True)
        self._thread.start()
        return self

    def _open(self):
        try:
            ws = ws_connect(
                self.url,
                open_timeout=self.open_timeout,
                compression=None,
                proxy=None,
                max_size=2**24,
                close_timeout=1.0,
                **_CONNECT_KW,
            )
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as e:
            raise ConnectionError(f"cannot connect to {self.url}: {e}") from None
        with self._send_lock:
            self._ws = ws
            self.generation += 1
            self._defrag = Defragmenter()
            # re-announce what we had, before anyone may publish again
            for topic, type_ in self._advertised.items():
                self._send_locked({"op": "advertise", "topic": topic, "type": type_})
            for topic, (type_, opts, _) in self._subs.items():
                self._send_locked({"op": "subscribe", "topic": topic, "type": type_, **opts})
            self._connected.set()

    def _run(self):
        backoff = 0.05
        while not self._closed.is_set():
            ws = self._ws
            try:
                while True:
                    self._receive(ws.recv())
            except ConnectionClosed:
                pass
            except Exception as e:  # never let the reader die: report, reconnect
                logger.warning("rosbridge reader: %s", e)
            self._lost()
            while not self._closed.is_set():
                if not self.reconnect:
                    return
                if self._closed.wait(backoff):
                    return
                try:
                    self._open()
                except ConnectionError:
                    backoff = min(2 * backoff, self.max_backoff)
                    continue
                backoff = 0.05
                for hook in list(self.on_reconnect):
                    hook(self.generation)
                break

    def _lost(self):
        with self._send_lock:
            self._connected.clear()
            if self._ws is not None:
                self._ws.close()
        with self._state_lock:
            pending, self._pending = self._pending, {}
        for slot in pending.values():
            slot[1] = NotConnectedError(f"connection to {self.url} lost during the call")
            slot[0].set()
        if not self._closed.is_set():
            for hook in list(self.on_disconnect):
                hook()

    def close(self) -> None:
        """Close for good: no reconnection; the reader thread ends."""
        self._closed.set()
        with self._send_lock:
            self._connected.clear()
            if self._ws is not None:
                self._ws.close()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=3.0)

    # --- sending ------------------------------------------------------------------------
    def _send_locked(self, frame):
        text = encode(frame)
        try:
            self._ws.send(text)
        except ConnectionClosed:
            self._connected.clear()
            raise NotConnectedError(f"not connected to {self.url}: {frame['op']} not sent") from None
        if self.on_frame:
            self.on_frame("tx", text)

    def send(self, frame: dict) -> None:
        """Send one frame now, or raise NotConnectedError. Never queued."""
        with self._send_lock:
            if not self._connected.is_set() or self._ws is None:
                raise NotConnectedError(f"not connected to {self.url}: {frame.get('op')} not sent (never queued)")
            self._send_locked(frame)

    def advertise(self, topic: str, type_: str) -> None:
        self._advertised[topic] = type_
        if self.connected:
            self.send({"op": "advertise", "topic": topic, "type": type_})

    def unadvertise(self, topic: str) -> None:
        if self._advertised.pop(topic, None) is not None and self.connected:
            self.send({"op": "unadvertise", "topic": topic})

    def publish(self, topic: str, msg: dict) -> None:
        """Publish on an advertised topic now, or raise NotConnectedError."""
        if topic not in self._advertised:
            raise ValueError(f"topic {topic!r} is not advertised; call advertise(topic, type) first")
        self.send({"op": "publish", "topic": topic, "msg": msg})

    def subscribe(
        self,
        topic: str,
        type_: str,
        callback: Callable[[dict, float], Any],
        throttle_rate: int = 0,
        queue_length: int = 1,
        fragment_size: int | None = None,
    ) -> None:
        """callback(msg, t_received) runs on the reader thread; keep it short."""
        opts: dict[str, Any] = {"throttle_rate": throttle_rate, "queue_length": queue_length}
        if fragment_size:
            opts["fragment_size"] = int(fragment_size)
        self._subs[topic] = (type_, opts, [callback])
        if self.connected:
            self.send({"op": "subscribe", "topic": topic, "type": type_, **opts})

    def unsubscribe(self, topic: str) -> None:
        if self._subs.pop(topic, None) is not None and self.connected:
            self.send({"op": "unsubscribe", "topic": topic})

    def call_service(self, service: str, args: dict | None = None, timeout: float = 2.0) -> Any:
        """Call a service and wait for its response values; ServiceError on failure or timeout."""
        cid = f"call_service:{service}:{next(self._ids)}"
        done = threading.Event()
        slot: list[Any] = [done, None]
        with self._state_lock:
            self._pending[cid] = slot
        try:
            self.send({"op": "call_service", "id": cid, "service": service, "args": args or {}})
            if not done.wait(timeout):
                raise ServiceError(f"service {service} did not answer within {timeout} s")
        finally:
            with self._state_lock:
                self._pending.pop(cid, None)
        resp = slot[1]
        if isinstance(resp, Exception):
            raise resp
        if not resp.get("result", False):
            raise ServiceError(f"service {service} failed: {resp.get('values')!r}", resp.get("values"))
        return resp.get("values", {})

    # --- receiving ----------------------------------------------------------------------
    def _bad(self, text, why):
        self.malformed += 1
        logger.warning("rosbridge: malformed frame survived (%s): %.80r", why, text)
        if self.on_error:
            self.on_error(f"malformed frame ({why})", text)

    def _receive(self, text):
        t = time.monotonic()
        if self.on_frame:
            self.on_frame("rx", text if isinstance(text, str) else repr(text))
        try:
            frame = self._defrag.decode(text)
            if frame is not None:
                self._dispatch(frame, t)
        except ProtocolError as e:
            self._bad(text, str(e))

    def _dispatch(self, frame, t):
        op = frame["op"]
        if op == "publish":
            sub = self._subs.get(frame.get("topic"))
            if sub is None:
                return
            if not isinstance(frame.get("msg"), dict):
                raise ProtocolError("publish without a msg object")
            for cb in sub[2]:
                try:
                    cb(frame["msg"], t)
                except ProtocolError:
                    raise
                except Exception as e:  # a subscriber's bug must not kill the reader
                    logger.exception("subscriber of %s failed: %s", frame.get("topic"), e)
        elif op == "service_response":
            with self._state_lock:
                slot = self._pending.get(frame.get("id"))
            if slot is not None:
                slot[1] = frame
                slot[0].set()
        elif op == "status":
            logger.info("rosbridge status: %s", frame.get("msg"))
            for hook in list(self.on_status):
                try:
                    hook(frame)
                except Exception as e:  # a hook's bug must not kill the reader
                    logger.exception("status hook failed: %s", e)
