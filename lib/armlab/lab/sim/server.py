"""The simulator server: a websocket that speaks rosbridge v2 like the youBot's ``rosbridge_server``.

It serves only the youBot arm driver's topics and services (:data:`~armlab.lab.protocol.TOPICS`,
:data:`~armlab.lab.protocol.SERVICES`), binds to loopback unless told otherwise, and behaves like
the real driver where that matters for safety: set points outside ``lo < q < hi`` or with a wrong
unit are dropped silently (a warning on the server's side only), velocity commands run with no
watchdog, and ``switchOffMotors`` lets the arm fall. Faults can be injected from the API or the CLI.

Runs its asyncio loop in a background thread: ``Simulator(port=0).start()`` → ``.url``.
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import random
import sys
import threading
import time
from typing import Any

import numpy as np
from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

from ...models import YOUBOT_DRIVER, youbot_driver_to_q, youbot_q_to_driver
from .. import protocol as P
from .physics import ArmPhysics

__all__ = ["Simulator", "HOME_DRIVER"]

logger = logging.getLogger("armlab.lab.sim")

#: The folded pose the simulator starts in, moved 0.05 rad off the end stops (driver angles).
HOME_DRIVER = np.array([0.06, 0.06, -0.066, 0.07, 0.16])
# Fields the driver's messages may carry (ROS 1 and ROS 2 names); anything else drops the message.
_MSG_FIELDS = {"positions", "velocities", "poisonStamp", "poison_stamp"}
_VALUE_FIELDS = {"joint_uri", "unit", "value", "timeStamp", "timestamp", "time_stamp"}
_MALFORMED = [
    "not json {",
    '{"no_op": 1}',
    '{"op":"publish","topic":"/joint_states","msg":{"header":{"stamp":{"secs":1,"nsecs":0}},"name":["arm_joint_1"],"position":[]}}',
    '{"op":"fragment","id":"x","num":5,"total":2,"data":"zz"}',
    '{"op":"publish","topic":"/joint_states","msg":"garbage"}',
]


class _Conn:
    def __init__(self, ws, cid):
        self.ws, self.id = ws, cid
        self.subs: dict[str, dict] = {}
        self.outbox: asyncio.Queue = asyncio.Queue()
        self.defrag = P.Defragmenter()
        self.last_sent: dict[str, float] = {}


class Simulator:
    """``with Simulator(port=0) as sim: YoubotArm(sim.url)``. Publishes /joint_states at ``rate`` Hz."""

    local = True  # runs in this process (a notebook's RemoteSimulator is one running elsewhere)

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 9090,
        *,
        rate: float = 50.0,
        allow_remote: bool = False,
        ros2: bool = False,
        record: bool = False,
        q0_driver: Any = None,
        seed: int = 0,
    ):
        if not P.is_loopback(host) and not allow_remote:
            raise ValueError(
                f"host {host!r} is not a loopback address: exposing the simulator on a network "
                "takes allow_remote=True (CLI: --allow-remote)"
            )
        if not 1.0 <= rate <= 1000.0:
            raise ValueError(f"rate must be 1 … 1000 Hz, got {rate!r}")
        self.host, self.port, self.rate = host, int(port), float(rate)
        self.allow_remote, self.ros2, self.record = allow_remote, ros2, record
        q0 = HOME_DRIVER if q0_driver is None else np.asarray(q0_driver, float)
        self.physics = ArmPhysics(youbot_driver_to_q(q0))
        self.received: collections.deque[tuple[float, int, Any]] = collections.deque(
            maxlen=500_000
        )  # (time, connection id, text) if record
        self.published: collections.deque[tuple[float, int]] = collections.deque(
            maxlen=500_000
        )  # (time, seq) of each /joint_states
        self.warnings: collections.deque[tuple[float, str]] = collections.deque(
            maxlen=10_000
        )  # what the real driver would only log
        self.stats = {"ticks": 0, "late_ticks": 0, "max_late": 0.0, "dropped": 0, "connections": 0}
        self.late: collections.deque[tuple[float, float]] = collections.deque(
            maxlen=10_000
        )  # (monotonic time, seconds late) of each late tick
        self._rng = random.Random(seed)
        self._conns: set[_Conn] = set()
        self._seq = 0
        self._stall_until = 0.0
        self._delay = (0.0, 0.0)
        self._malformed = 0
        self._grip_read = self.physics.gripper.copy()
        self._loop: Any = None
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._stopping: Any = None
        self._error: BaseException | None = None

    # --- lifetime -----------------------------------------------------------------------
    @property
    def url(self) -> str:
        return f"ws://{self.host}:{self.port}"

    def start(self, timeout: float = 5.0) -> Simulator:
        """Start serving in a background thread; returns self once listening."""
        if not P.is_loopback(self.host):
            print(
                f"WARNING: the youBot simulator listens on {self.host}:{self.port}, reachable from the network",
                file=sys.stderr,
            )
        self._thread = threading.Thread(target=self._main, name="youbot simulator", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout) or self._error:
            raise RuntimeError(f"simulator did not start on {self.host}:{self.port}: {self._error}")
        return self

    def _main(self):
        try:
            asyncio.run(self._serve_forever())
        except Exception as e:  # reported to start()
            self._error = e
            self._ready.set()

    async def _listen(self):
        self._server = await serve(
            self._handler, self.host, self.port, compression=None, max_size=2**22, ping_interval=None, close_timeout=1.0
        )
        self.port = self._server.sockets[0].getsockname()[1]

    async def _serve_forever(self):
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        await self._listen()
        ticker = asyncio.create_task(self._tick_loop())
        self._ready.set()
        await self._stopping.wait()
        ticker.cancel()
        await self._shutdown_server()

    async def _shutdown_server(self):
        for c in list(self._conns):
            c.ws.transport.abort()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    def stop(self) -> None:
        """Stop serving and join the thread."""
        if self._loop is not None and self._stopping is not None:
            self._loop.call_soon_threadsafe(self._stopping.set)
        if self._thread is not None:
            self._thread.join(timeout=5.0)

    def __enter__(self) -> Simulator:
        return self.start() if self._thread is None else self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _call(self, fn, *args):
        """Run fn on the server loop and wait for it (the fault API is called from other threads)."""
        if self._loop is None:
            raise RuntimeError("the simulator is not running; call start() first")
        done = threading.Event()
        out = []

        def run():
            try:
                out.append(fn(*args))
            finally:
                done.set()

        self._loop.call_soon_threadsafe(run)
        done.wait(5.0)
        return out[0] if out else None

    # --- state, as the driver reports it ------------------------------------------------
    def joint_positions(self) -> np.ndarray:
        """The simulated arm's driver angles now."""
        return youbot_q_to_driver(self.physics.q)

    @property
    def motors_on(self) -> bool:
        return self.physics.motors_on

    def _warn(self, msg):
        self.warnings.append((time.time(), msg))
        logger.warning(msg)

    # --- faults -------------------------------------------------------------------------
    def drop_connections(self) -> None:
        """Cut every connection abruptly (no close frame), as a pulled cable does."""
        self._call(lambda: [c.ws.transport.abort() for c in list(self._conns)])

    def stall(self, seconds: float) -> None:
        """Publish no /joint_states for ``seconds`` (EtherCAT lost)."""
        self._stall_until = time.monotonic() + float(seconds)

    def set_delay(self, delay: float, jitter: float = 0.0) -> None:
        """Delay every frame sent by ``delay`` ± ``jitter`` seconds (order kept, as on TCP)."""
        if delay < 0 or jitter < 0 or jitter > delay:
            raise ValueError(f"need 0 <= jitter <= delay, got delay={delay!r}, jitter={jitter!r}")
        self._delay = (float(delay), float(jitter))

    def send_malformed(self, n: int = 1) -> None:
        """Send ``n`` malformed frames to every client over the next ticks."""
        self._malformed += int(n)

    def restart(self, down: float = 0.5) -> None:
        """Stop listening and drop everyone, then listen again on the same port after ``down`` s.
        The arm holds where it is meanwhile, and ``seq`` restarts."""

        async def cycle():
            await self._shutdown_server()
            self.physics.hold_here()
            self._seq = 0
            await asyncio.sleep(down)
            await self._listen()

        self._call(lambda: asyncio.ensure_future(cycle()))

    def stick_joint(self, joint: int, stuck: bool = True) -> None:
        """Joint ``joint`` (1–5) stops where it is, as against an obstacle; its effort climbs."""
        if joint not in range(1, 6):
            raise ValueError(f"joint must be 1 … 5, got {joint!r}")
        self.physics.stuck[joint - 1] = bool(stuck)

    # --- connections --------------------------------------------------------------------
    async def _handler(self, ws):
        self.stats["connections"] += 1
        conn = _Conn(ws, self.stats["connections"])
        self._conns.add(conn)
        sender = asyncio.create_task(self._sender(conn))
        try:
            async for text in ws:
                if self.record:
                    self.received.append((time.time(), conn.id, text))
                self._on_text(conn, text)
        except ConnectionClosed:
            pass
        finally:
            self._conns.discard(conn)
            sender.cancel()

    async def _sender(self, conn):
        last_due = 0.0
        try:
            while True:
                due, text = await conn.outbox.get()
                due = max(due, last_due)  # jitter never reorders: TCP keeps order
                last_due = due
                wait = due - self._loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                await conn.ws.send(text)
        except (ConnectionClosed, asyncio.CancelledError):
            pass

    def _send(self, conn, text):
        delay, jitter = self._delay
        due = self._loop.time() + (delay + self._rng.uniform(-jitter, jitter) if delay else 0.0)
        if conn.outbox.qsize() > 100:  # a client that stopped reading: drop its oldest frame
            conn.outbox.get_nowait()
            self.stats["dropped"] += 1
        conn.outbox.put_nowait((due, text))

    def _on_text(self, conn, text):
        try:
            frame = conn.defrag.decode(text)
            if frame is not None:
                self._on_frame(conn, frame)
        except P.ProtocolError as e:
            self._warn(f"connection {conn.id}: dropped a malformed frame: {e}")

    def _on_frame(self, conn, frame):
        op, topic = frame["op"], frame.get("topic")
        if op in ("advertise", "unadvertise", "publish", "subscribe", "unsubscribe") and topic not in P.TOPICS:
            self._warn(f"connection {conn.id}: {op} on {topic!r}, which is not whitelisted")
            return
        if op == "publish":
            self._on_publish(topic, frame.get("msg"))
        elif op == "subscribe":
            if topic != P.JOINT_STATES:
                self._warn(f"connection {conn.id}: subscribe to {topic}, which the driver does not publish")
                return
            conn.subs[topic] = {
                "throttle_rate": frame.get("throttle_rate") or 0,
                "fragment_size": frame.get("fragment_size"),
            }
        elif op == "unsubscribe":
            conn.subs.pop(topic, None)
        elif op == "call_service":
            self._on_service(conn, frame)
        elif op not in ("advertise", "unadvertise"):
            self._warn(f"connection {conn.id}: op {op!r} not served")

    def _on_service(self, conn, frame):
        name = frame.get("service")
        resp = {"op": "service_response", "service": name, "values": {}, "result": True}
        if "id" in frame:
            resp["id"] = frame["id"]
        if name == P.IDENTIFY:  # what no real driver answers: a client can tell the simulator from the robot
            resp["values"] = {"kind": "simulator", "name": "the armlab youBot simulator", "url": self.url}
        elif name not in P.SERVICES:
            resp.update(result=False, values=f"service {name!r} is not whitelisted")
        else:
            self.physics.advance(time.monotonic())
            if name.endswith("switchOnMotors"):
                self.physics.switch_motors(True)
            elif name.endswith("switchOffMotors"):
                self._warn("switchOffMotors: the arm falls under gravity")
                self.physics.switch_motors(False)
            else:  # calibrate: the real arm drives into its end stops and back to the candle
                self.physics.switch_motors(True)
                self.physics.target = youbot_driver_to_q(YOUBOT_DRIVER["candle"])
        self._send(conn, P.encode(resp))

    def _on_publish(self, topic, msg):
        if topic == P.JOINT_STATES:
            self._warn("a client published on /joint_states; ignored")
            return
        field = "velocities" if topic == P.ARM_VELOCITY else "positions"
        try:
            entries = P.parse_positions(msg, field)
            unknown = set(msg) - _MSG_FIELDS | {k for e in msg[field] for k in e} - _VALUE_FIELDS
        except P.ProtocolError as e:
            self._warn(f"{topic}: message dropped: {e}")
            return
        if unknown:  # rosbridge cannot build the ROS message: the whole message is lost
            self._warn(f"{topic}: message dropped: unknown field(s) {sorted(unknown)}")
            return
        self.physics.advance(time.monotonic())
        if not self.physics.motors_on:
            self._warn(f"{topic}: motors are off; command ignored")
            return
        lo, hi = YOUBOT_DRIVER["lower"], YOUBOT_DRIVER["upper"]
        for uri, unit, value in entries:
            if topic == P.GRIPPER_POSITION:
                if uri not in P.GRIPPER_JOINTS or unit != P.UNIT_M or not 0.0 <= value <= 0.0115:
                    self._warn(f"gripper: {uri}={value} {unit!r} rejected")
                    continue
                self.physics.gripper_target[P.GRIPPER_JOINTS.index(uri)] = value
                continue
            if uri not in P.ARM_JOINTS:
                self._warn(f"{topic}: unknown joint {uri!r}")
                continue
            j = P.ARM_JOINTS.index(uri)
            if topic == P.ARM_VELOCITY:
                if unit != P.UNIT_RAD_PER_S or not np.isfinite(value):
                    self._warn(f"{uri}: velocity {value} {unit!r} rejected (unit must be {P.UNIT_RAD_PER_S!r})")
                    continue
                self.physics.set_velocity(j, -value)  # driver axis → DH axis
            elif unit != P.UNIT_RAD or not lo[j] < value < hi[j]:
                self._warn(f"{uri}: set point {value} {unit!r} rejected (needs {lo[j]} < q < {hi[j]} 'rad')")
            else:
                driver = youbot_q_to_driver(self.physics.target)
                driver[j] = value
                self.physics.set_target(j, youbot_driver_to_q(driver)[j])

    # --- the 50 Hz loop -----------------------------------------------------------------
    async def _tick_loop(self):
        period = 1.0 / self.rate
        next_t = self._loop.time()
        while True:
            next_t += period
            await asyncio.sleep(max(0.0, next_t - self._loop.time()))
            late = self._loop.time() - next_t
            self.stats["ticks"] += 1
            self.stats["max_late"] = max(self.stats["max_late"], late)
            if late > 0.5 * period:
                self.stats["late_ticks"] += 1
                self.late.append((next_t, late))
            if late > 5 * period:  # far behind (a stopped process): do not burst
                next_t = self._loop.time()
            try:
                self._tick()
            except Exception:  # the loop must survive anything a tick does
                logger.exception("simulator tick failed")

    def _tick(self):
        now = time.monotonic()
        self.physics.advance(now)
        tau = self.physics.efforts()
        if self._malformed > 0:
            self._malformed -= 1
            bad = _MALFORMED[self._malformed % len(_MALFORMED)]
            for c in list(self._conns):
                self._send(c, bad)
        if now < self._stall_until:
            return
        self._seq += 1
        text = P.encode({"op": "publish", "topic": P.JOINT_STATES, "msg": self._joint_state(tau)})
        wall = time.time()
        self.published.append((wall, self._seq))
        frag_cache: dict[int, list[str]] = {}
        for c in list(self._conns):
            opts = c.subs.get(P.JOINT_STATES)
            if opts is None:
                continue
            throttle = opts["throttle_rate"] / 1000.0
            if throttle and now - c.last_sent.get(P.JOINT_STATES, -1e9) < throttle:
                continue
            c.last_sent[P.JOINT_STATES] = now
            size = opts["fragment_size"]
            if size:
                parts = frag_cache.setdefault(size, [P.encode(f) for f in P.fragment(text, size, f"js{self._seq}")])
                for part in parts:
                    self._send(c, part)
            else:
                self._send(c, text)

    def _joint_state(self, tau):
        ph = self.physics
        q, qd, eff = youbot_q_to_driver(ph.q), -ph.qd, -tau  # DH → driver: every axis reversed
        names, pos, vel, effort = [], [], [], []
        arm = list(zip(P.ARM_JOINTS, q, qd, eff))
        base = [(b, 0.0, 0.0, 0.0) for b in P.BASE_JOINTS]
        for k in range(5):  # interleaved, as on the real robot: index by name
            for row in ((base[k],) if k < 4 else ()) + (arm[k],):
                names.append(row[0])
                pos.append(float(row[1]))
                vel.append(float(row[2]))
                effort.append(float(row[3]))
        if self._seq % 10 == 1:  # the driver reads the gripper at ~5 Hz
            self._grip_read = ph.gripper.copy()
        for name, value in zip(P.GRIPPER_JOINTS, self._grip_read):
            names.append(name)
            pos.append(float(value))
            vel.append(0.0)
            effort.append(0.0)
        return P.joint_state_msg(self._seq, time.time(), names, pos, vel, effort, self.ros2)


def dumps_stats(sim: Simulator) -> str:
    """The counters as one JSON line (the CLI prints it on exit); ``late`` lists each late tick as
    [due time on the monotonic clock, seconds late], so a caller can count those inside its own window."""
    return json.dumps(
        {
            **sim.stats,
            "published": len(sim.published),
            "warnings": len(sim.warnings),
            "late": [list(x) for x in sim.late],
        }
    )
