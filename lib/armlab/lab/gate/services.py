"""The gate's own services: claim (and the TA's take-over), release, hold and resume; the dangerous
services refused and the harmless ones forwarded for the holder of the arm."""

from __future__ import annotations

import hmac
import time
from typing import Any

import numpy as np

from .. import protocol as P
from ..safety import SafetyError, SafetyLimits, SpeedGovernor, check_service
from .audit import AuditLog
from .clients import Client
from .commands import policy_summary

__all__ = ["GateServices", "GATE_SERVICES", "FORWARD_SERVICES"]

CLAIM, RELEASE, HOLD, RESUME = "/armlab_gate/claim", "/armlab_gate/release", "/armlab_gate/hold", "/armlab_gate/resume"
#: The gate's own services, answered by the gate.
GATE_SERVICES = (CLAIM, RELEASE, HOLD, RESUME)
#: The driver's services the holder of the arm may call through the gate.
FORWARD_SERVICES = ("/arm_1/switchOnMotors",)


class GateServices:
    """The service calls of :class:`~armlab.lab.gate.Gate` (which holds this state and these methods)."""

    commander: Client | None
    held: str | None
    token: str | None
    limits: SafetyLimits
    lease: float
    deadman: float
    audit: AuditLog
    q_meas: np.ndarray | None
    q_target: np.ndarray | None
    _governor: SpeedGovernor

    async def _refuse(
        self, c: Client, why: str, frame: dict | None = None, raw: Any = None, reason: str = "policy"
    ) -> None:
        raise NotImplementedError

    async def _answer(self, c: Client, frame: dict, ok: bool, values: Any) -> None:
        raise NotImplementedError

    async def _status(self, c: Client, msg: str, fid: Any = None, reason: str = "policy") -> None:
        raise NotImplementedError

    def identity(self) -> dict:
        raise NotImplementedError

    async def _hold(self, why: str, latch: bool) -> None:
        raise NotImplementedError

    async def _forward(self, c: Client, frame: dict) -> bool:
        raise NotImplementedError

    async def _up(self, c: Client) -> Any:
        raise NotImplementedError

    def _holder_text(self) -> str:
        if self.commander is None:
            return "nobody holds the arm: claim it first (/armlab_gate/claim)"
        return f"the arm is held by {self.commander.who}; only the holder may command it"

    def _holder_reason(self) -> str:
        return "no_holder" if self.commander is None else "not_holder"

    async def _service(self, c: Client, frame: dict) -> None:
        name = frame.get("service")
        raw_args = frame.get("args")
        args: dict = raw_args if isinstance(raw_args, dict) else {}
        if name == P.IDENTIFY:  # anyone may ask what is behind the gate (and say who they are)
            self._name(c, args)
            await self._answer(c, frame, True, self.identity())
        elif name == CLAIM:
            await self._claim(c, frame, args)
        elif name == RELEASE:
            if c is not self.commander:
                await self._refuse(c, self._holder_text(), frame, reason=self._holder_reason())
                return
            await self._hold(f"{c.who} released the arm", latch=False)
            self.commander = None
            self.audit.write("release", who=c.who, why="asked")
            await self._answer(c, frame, True, {})
        elif name == HOLD:  # any seat may stop the arm
            await self._hold(f"hold asked by {c.who}", latch=True)
            await self._answer(c, frame, True, {"held": self.held})
            if self.commander is not None and self.commander is not c:
                await self._status(
                    self.commander, f"armlab gate: {c.who} pressed hold; the gate holds the arm", reason="gate_hold"
                )
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
                await self._refuse(c, self._holder_text(), frame, reason=self._holder_reason())
            else:
                self.audit.write("forward", conn=c.id, service=name)
                await self._forward(c, frame)
        else:
            await self._refuse(c, f"service {name!r} is not allowed through the gate", frame)

    def _token_ok(self, args: dict) -> bool:
        token = args.get("token")
        return self.token is not None and isinstance(token, str) and hmac.compare_digest(token, self.token)

    @staticmethod
    def _name(c: Client, args: dict) -> None:
        name = args.get("name")
        if isinstance(name, str) and name.strip():
            c.name = name.strip()[:60]

    async def _claim(self, c: Client, frame: dict, args: dict) -> None:
        self._name(c, args)
        prev = self.commander
        if prev is not None and prev is not c:
            if not self._token_ok(args):
                why = "; a wrong token was given" if "token" in args else ""
                await self._refuse(
                    c,
                    f"{self._holder_text()} (the TA may take it over with the gate's token{why})",
                    frame,
                    reason="not_holder",
                )
                return
            await self._status(
                prev, f"armlab gate: the TA ({c.who}) took over the arm; you no longer hold it", reason="takeover"
            )
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
                "policy": policy_summary(self.limits, self.deadman, self.lease),
            },
        )
