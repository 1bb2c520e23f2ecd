"""A scripted phone for the host's tests: the page's protocol, spoken from Python over a
real WebSocket on loopback."""

from __future__ import annotations

from typing import Any

import aiohttp

from companion.host.server import PhoneHost


class ScriptPhone:
    """Joins with a token, sends numbered commands, and keeps the newest state it saw."""

    def __init__(self, client: aiohttp.ClientSession, host: PhoneHost, phone_id: str, name: str):
        self.client, self.host, self.id, self.name = client, host, phone_id, name
        self.token = host.tokens.join.token
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.state: dict[str, Any] = {}
        self.seq = 0
        self.welcome: dict[str, Any] = {}

    async def join(self, rev: int | None = None) -> dict[str, Any]:
        url = f"http://127.0.0.1:{self.host.port}/ws?t={self.token}"
        self.ws = await self.client.ws_connect(url)
        await self.ws.send_json({"t": "hello", "phone": self.id, "name": self.name, "rev": rev})
        first = await self.ws.receive_json(timeout=5)
        if first["t"] != "welcome":
            return first
        self.welcome = first
        self.token = first["token"]
        self.seq = max(self.seq, first["seq"])
        self.state = await self.expect("state")
        return first

    async def expect(self, kind: str) -> dict[str, Any]:
        assert self.ws is not None
        while True:
            msg = await self.ws.receive_json(timeout=5)
            if msg["t"] == "state":
                self.state = msg
            if msg["t"] == kind:
                return msg

    async def until(self, wanted: Any) -> dict[str, Any]:
        """The first state (the newest seen, or one still to come) that `wanted` accepts."""
        while not (self.state and wanted(self.state)):
            await self.expect("state")
        return self.state

    def command(self, do: str, args: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
        self.seq += 1
        return {
            "t": "cmd",
            "phone": self.id,
            "seq": self.seq,
            "rev": self.state.get("rev"),
            "do": do,
            "with": args or {},
            **extra,
        }

    async def send(self, message: dict[str, Any]) -> dict[str, Any]:
        assert self.ws is not None
        await self.ws.send_json(message)
        return await self.expect("ack")

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
