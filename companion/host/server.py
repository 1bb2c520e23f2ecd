"""The tablet's HTTP + WebSocket server for phones, on the app's own asyncio loop.

Routes: `/` the phone page, `/s/<name>` its few shipped files (looked up by name in a
fixed list, never as a path), `/ws` the live connection.  Every request carries a token
(`?t=`); the page and its files accept the join token or a phone's own, the socket
turns a join token into a phone's own on the first message.  Messages are JSON; see
`companion.host.table` for how commands apply once and `view` for what a phone shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import ipaddress
import json
import logging
import socket
import ssl
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING

from aiohttp import WSMsgType, web

from companion.core.rules import RuleError
from companion.core.store import SessionFileError
from companion.host.safety import Throttle, hide_tokens_in_logs, redact, same_origin, too_deep
from companion.host.table import Phone, Table
from companion.host.tokens import Grant, TokenRefused, Tokens
from companion.host.view import revision

if TYPE_CHECKING:
    from companion.core.session import Result, Session

log = logging.getLogger(__name__)
MAX_MESSAGE = 64 * 1024  # bytes in one phone message: a command is a few hundred
MAX_FRAME = 4 * MAX_MESSAGE  # read this much to refuse in words; beyond, closed with 1009
MAX_SOCKETS = 32  # open connections at once: a table has a handful of phones
UNSEATED_PER_ADDRESS = 16  # sockets from one address that have not said hello yet
HELLO_WITHIN = 5.0  # seconds a new socket has to say hello before it is closed
WATCH_EVERY = 0.1  # seconds between looks for another program's commit (budget: 250 ms)
MAX_PHOTO = 6 * 1024 * 1024  # bytes in a phone's photo of its dice (the page sends ~0.5 MB)

# The phone page's files: name -> (package folder, content type).
STATIC: dict[str, str] = {
    "app.js": "text/javascript; charset=utf-8",
    "app.css": "text/css; charset=utf-8",
    "zxing_reader.js": "text/javascript; charset=utf-8",
    "zxing_reader.wasm": "application/wasm",
}

HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
        "connect-src 'self'; img-src 'self' blob: data:; media-src 'self' blob: mediastream:; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def lan_address() -> str:
    """This machine's address on the local network, found without sending a packet (a
    UDP socket's connect only picks the route).  Loopback when there is no private one:
    the host never listens on a public address."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("10.255.255.255", 9))
        address = str(s.getsockname()[0])
        if is_local(address):
            return address
    return "127.0.0.1"


def is_local(address: str) -> bool:
    """Loopback or a private (RFC 1918, link-local) address: reachable from the table only."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if ip.is_unspecified:
        return False  # 0.0.0.0 or :: would listen on every interface, public ones too
    return ip.is_loopback or ip.is_private or ip.is_link_local


def _log_failure(task: asyncio.Task[object]) -> None:
    """A send that failed in the background is logged, never lost silently."""
    if not task.cancelled() and task.exception() is not None:
        log.warning("sending to a phone failed: %s", redact(repr(task.exception())))


def _static(name: str) -> bytes:
    return (resources.files("companion.host") / "static" / name).read_bytes()


@dataclass
class Link:
    """One open phone connection."""

    ws: web.WebSocketResponse
    token: str
    address: str = ""
    opened: float = 0.0
    phone: Phone | None = None


class PhoneHost:
    """Serves one session to phones.  `start()` and `stop()` run on the session's loop.

    The seats, passes, port and this table's name are kept in the session file (see
    `table.Table`), so a tablet that restarts on the same session takes its phones back:
    their passes still work, their seats keep name and hero, and their resent commands
    are answered from the record, never run twice."""

    def __init__(
        self,
        session: Session,
        address: str = "127.0.0.1",
        port: int = 0,
        tokens: Tokens | None = None,
        table: Table | None = None,
        ssl_context: ssl.SSLContext | None = None,
        throttle: Throttle | None = None,
    ) -> None:
        if not is_local(address):
            raise ValueError(
                f"{address} is not a local network address: phones join on the LAN only"
            )
        self.session = session
        self.address = address
        self.tokens = tokens or Tokens()
        self.table = table or Table(session)
        self.table.attach(self.tokens)
        self.port = port or self.table.port  # 0: the port this session had, if any
        self.ssl_context = ssl_context  # HTTPS on the LAN: browsers give the camera only then
        self.throttle = throttle or Throttle()
        self.links: list[Link] = []
        # called with no arguments when phones come or go
        self.listeners: list[Callable[[], object]] = []
        self._runner: web.AppRunner | None = None
        self._files = {name: _static(name) for name in STATIC}
        self._page = _static("index.html").decode()
        self._broadcast_due = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._watch: asyncio.Task[None] | None = None
        self._data_version = -1
        self._sent_rev = -1  # the revision every phone was last sent
        # Reads a phone's photo of its dice for the waiting roll (issue 28): given the
        # phone's name and the photo's bytes, it answers with {"ok", "text"} for the phone.
        # The app sets it (its camera dice); None: this host takes no photos.
        self.dice_photo: Callable[[str, bytes], Awaitable[dict[str, object]]] | None = None
        # This table's name, kept with the session: a phone holding unsent commands from
        # another table drops them, one from this table (even after a restart) resends them.
        self.epoch = self.table.epoch

    # -- life --------------------------------------------------------------------------

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        hide_tokens_in_logs()
        app = web.Application(middlewares=[self._headers], client_max_size=MAX_MESSAGE)
        app.router.add_get("/", self._index)
        app.router.add_get("/s/{name}", self._file)
        app.router.add_get("/ws", self._socket)
        app.router.add_post("/dice-photo", self._dice_photo)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        try:
            await self._listen(self.port)
        except OSError:
            if not self.port or self.port != self.table.port:
                await self._runner.cleanup()
                raise
            log.warning("port %s is taken: phones must scan the new QR code", self.port)
            await self._listen(0)
        self.port = int(self._runner.addresses[0][1])  # the port taken when asked for 0
        self.table.port = self.port
        self.table.save_table()
        self.session.subscribe(self._session_changed)
        self._data_version = self._version()
        self._watch = self._loop.create_task(self._watch_file())

    async def _listen(self, port: int) -> None:
        assert self._runner is not None
        site = web.TCPSite(self._runner, self.address, port, ssl_context=self.ssl_context)
        await site.start()

    async def stop(self) -> None:
        self.session.unsubscribe(self._session_changed)
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
            self._watch = None
        for link in list(self.links):
            with contextlib.suppress(Exception):
                await link.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def scheme(self) -> str:
        return "https" if self.ssl_context is not None else "http"

    @property
    def join_url(self) -> str:
        return f"{self.scheme}://{self.address}:{self.port}/?t={self.tokens.join.token}"

    def new_link(self) -> str:
        """A fresh join link (the old QR code stops working; joined phones stay)."""
        self.tokens.new_join()
        self.table.save_table()
        self._told()
        return self.join_url

    def phones(self) -> list[tuple[Phone, bool]]:
        """Each joined phone, and whether it is connected now."""
        live = {link.phone.id for link in self.links if link.phone is not None}
        return [(p, p.id in live) for p in self.table.phones.values()]

    def remove_phone(self, phone_id: str) -> None:
        """Take a phone out: its token is revoked and its connection closed."""
        self.table.remove(phone_id)
        self._close_seat(phone_id, "The tablet took this phone out of the game.")
        self._told()

    def _close_seat(self, phone_id: str, text: str) -> None:
        for link in [k for k in self.links if k.phone is not None and k.phone.id == phone_id]:
            self._spawn(self._refuse(link, text))

    def _told(self) -> None:
        for listener in list(self.listeners):
            listener()

    def _spawn(self, coro: Coroutine[object, object, object]) -> None:
        assert self._loop is not None
        task = self._loop.create_task(coro)
        task.add_done_callback(_log_failure)

    # -- other programs writing the same file -----------------------------------------------

    def _version(self) -> int:
        """SQLite's count of other connections' commits to the file (`PRAGMA data_version`):
        one cheap read, whatever the journal mode, no -wal file or file watch needed."""
        try:
            return int(self.session.store.db.execute("PRAGMA data_version").fetchone()[0])
        except Exception:  # a file gone away: the next look tries again
            return self._data_version

    async def _watch_file(self) -> None:
        """Look every WATCH_EVERY seconds; a commit by another program (`companion undo`,
        `companion do ... correct` beside the host) is taken in and sent to every phone."""
        while True:
            await asyncio.sleep(WATCH_EVERY)
            version = self._version()
            if version == self._data_version:
                continue
            self._data_version = version
            try:
                changed = self.session.refresh()
            except SessionFileError as exc:
                log.warning("the session file could not be read: %s", exc)
                continue
            if changed:
                # every listener, as for a move made here: the tablet's screens redraw too
                tell = getattr(self.session, "_notify", None)
                if tell is not None:
                    tell(None)
            if self._behind():
                self._session_changed(self.session, None)

    # -- HTTP --------------------------------------------------------------------------

    @web.middleware
    async def _headers(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if not same_origin(request.headers.get("Origin"), request.host, self.scheme):
            response: web.StreamResponse = web.Response(
                status=403, text="This page may be opened only from the tablet's own link."
            )
        else:
            response = await handler(request)
        for key, value in HEADERS.items():
            response.headers.setdefault(key, value)
        return response

    def _grant(self, request: web.Request) -> Grant:
        """The grant behind the request's token; TokenRefused in words otherwise, and
        after too many wrong ones from one address, without looking."""
        address = request.remote or ""
        wait = self.throttle.wait(address)
        if wait > 0:
            raise TokenRefused(
                f"Too many wrong links from this device: wait {max(1, round(wait))} seconds "
                "and scan the tablet's QR code."
            )
        try:
            return self.tokens.check(request.query.get("t"))
        except TokenRefused:
            self.throttle.failed(address)
            raise

    async def _index(self, request: web.Request) -> web.Response:
        try:
            grant = self._grant(request)
        except TokenRefused as refused:
            return web.Response(
                status=403, text=self._refusal_page(refused.message), content_type="text/html"
            )
        page = self._page.replace("{{TOKEN}}", html.escape(grant.token, quote=True))
        return web.Response(text=page, content_type="text/html")

    def _refusal_page(self, message: str) -> str:
        return (
            "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            "<title>Table Companion</title></head><body style='font:24px sans-serif;padding:16px'>"
            f"<h1>Not let in</h1><p id='refused'>{html.escape(message)}</p></body></html>"
        )

    async def _file(self, request: web.Request) -> web.Response:
        try:
            self._grant(request)
        except TokenRefused as refused:
            return web.Response(status=403, text=refused.message)
        name = request.match_info["name"]
        if name not in STATIC:
            return web.Response(status=404, text="No such file.")
        kind = STATIC[name]
        return web.Response(
            body=self._files[name],
            headers={"Content-Type": kind},
        )

    async def _dice_photo(self, request: web.Request) -> web.Response:
        """A seated phone's photo of the dice for the waiting roll: the tablet reads it and
        answers, or shows the unsure dice to the table.  Read in chunks up to MAX_PHOTO
        (the app's 64 KB limit is for messages, not photos)."""
        try:
            grant = self._grant(request)
        except TokenRefused as refused:
            return web.json_response({"ok": False, "text": refused.message}, status=403)
        phone = self.table.phones.get(grant.phone or "")
        if grant.joining or phone is None or not self.table.allowed(phone):
            return web.json_response(
                {"ok": False, "text": "Join the game first: then send the photo."}, status=403
            )
        if self.dice_photo is None:
            return web.json_response(
                {"ok": False, "text": "The tablet is not reading dice photos: use the keys."},
                status=503,
            )
        data = bytearray()
        async for chunk in request.content.iter_chunked(64 * 1024):
            data += chunk
            if len(data) > MAX_PHOTO:
                return web.json_response(
                    {"ok": False, "text": "That photo is too large for the tablet."}, status=413
                )
        phone.played = True
        reply = await self.dice_photo(phone.name, bytes(data))
        return web.json_response(reply)

    # -- WebSocket ---------------------------------------------------------------------

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=MAX_FRAME, heartbeat=20.0)
        await ws.prepare(request)
        link = Link(ws, "", request.remote or "", time.monotonic())
        try:
            grant = self._grant(request)
        except TokenRefused as refused:
            await self._refuse(link, refused.message)
            return ws
        link.token = request.query.get("t") or ""
        if not self._make_room(link):
            await self._refuse(link, "The tablet has too many connections: close a tab and retry.")
            return ws
        self.links.append(link)
        try:
            try:
                first = await ws.receive(timeout=HELLO_WITHIN)
            except TimeoutError:
                await self._refuse(link, "This page did not say hello in time: reload it.")
                return ws
            if first.type == WSMsgType.TEXT and await self._message(link, first.data, grant):
                async for msg in ws:
                    if msg.type != WSMsgType.TEXT:
                        continue
                    if not await self._message(link, msg.data):
                        break
        finally:
            if link in self.links:
                self.links.remove(link)
            if link.phone is not None:
                link.phone.connected = any(k.phone is link.phone for k in self.links)
                self._told()
        return ws

    def _make_room(self, link: Link) -> bool:
        """Room for one more socket.  Sockets that have not said hello give way first: from
        an address holding UNSEATED_PER_ADDRESS of them, its oldest; when every place is
        taken, the oldest from the address holding most; then a seated phone that never
        played.  So sockets opened and left silent, or made-up phones, never lock out a
        real phone.  False when every place holds a phone that played."""
        waiting = [k for k in self.links if k.phone is None]
        same = [k for k in waiting if k.address == link.address]
        if len(same) >= UNSEATED_PER_ADDRESS:
            self._drop(same[0])
            waiting.remove(same[0])
        if len(self.links) < MAX_SOCKETS:
            return True
        if waiting:
            counts = Counter(k.address for k in waiting)
            self._drop(next(k for k in waiting if counts[k.address] == max(counts.values())))
            return True
        idle = [k for k in self.links if k.phone is not None and not k.phone.played]
        if idle:
            self._drop(idle[0])
            return True
        return False

    def _drop(self, link: Link) -> None:
        if link in self.links:
            self.links.remove(link)
        self._spawn(self._refuse(link, "Too many pages opened without joining: reload this one."))

    async def _refuse(self, link: Link, text: str) -> None:
        if link in self.links:  # out of the count at once, not after the goodbye
            self.links.remove(link)
        with contextlib.suppress(Exception):
            await link.ws.send_json({"t": "refused", "text": text})
            await link.ws.close(code=4403, message=b"refused")

    async def _message(self, link: Link, data: str, grant: Grant | None = None) -> bool:
        """Handle one message; False when the connection must close."""
        if grant is None:
            try:
                grant = self.tokens.check(link.token)
            except TokenRefused as refused:
                await self._refuse(link, refused.message)
                return False
        if len(data) > MAX_MESSAGE or too_deep(data):
            await self._refuse(link, "The tablet was sent more than a phone ever sends: reload.")
            return False
        try:
            message = json.loads(data)
        except ValueError:
            await link.ws.send_json({"t": "error", "text": "The tablet could not read that."})
            return True
        if not isinstance(message, dict):
            return True
        kind = message.get("t")
        if kind == "hello":
            if link.phone is not None and not self.table.allowed(link.phone):
                return True  # a phone saying hello over and over is not served each time
            return await self._hello(link, grant, message)
        if link.phone is None:
            await self._refuse(link, "Say hello first: reload the page.")
            return False
        if kind == "cmd":
            if message.get("phone") not in (None, link.phone.id):
                await link.ws.send_json({"t": "error", "text": "That command is another phone's."})
                return True
            reply = self.table.command(link.phone, message)
            await link.ws.send_json(reply)
            if self._behind():  # a refused command took in another program's commits too
                self._broadcast_due = True
            await self._flush()
        elif kind == "seat" and self.table.allowed(link.phone):
            self.table.seat(link.phone, message.get("name"), message.get("hero"))
            await link.ws.send_json(self._welcome(link, link.phone))
            self._told()
        elif kind == "sync" and self.table.allowed(link.phone):
            await link.ws.send_json({"t": "state", **self.table.view()})
        return True

    async def _hello(self, link: Link, grant: Grant, message: Mapping[str, object]) -> bool:
        phone_id = message.get("phone")
        if not grant.joining and grant.phone != phone_id:
            await self._refuse(link, "This pass belongs to another phone. Scan the QR code.")
            return False
        try:
            phone = self.table.join(
                str(phone_id or ""),
                str(message.get("name") or ""),
                message.get("hero"),
                link.address,
            )
        except RuleError as exc:
            await self._refuse(link, exc.message)
            return False
        while self.table.evicted:
            gone = self.table.evicted.pop()
            self._close_seat(
                gone.id, "A new phone took this seat: this one had not played. Reload to join."
            )
        if grant.joining:
            link.token = self.tokens.issue_phone(phone.id).token
            self.table.save_table()
        link.phone = phone
        phone.connected = True
        await link.ws.send_json(self._welcome(link, phone))
        await link.ws.send_json({"t": "state", **self.table.view()})
        self._told()
        return True

    def _welcome(self, link: Link, phone: Phone) -> dict[str, object]:
        return {
            "t": "welcome",
            "phone": phone.id,
            "name": phone.name,
            "hero": phone.hero,
            "token": link.token,
            "seq": phone.floor,
            "done": phone.handled_above_floor(),
            "rev": revision(self.session),
            "table": self.epoch,
        }

    # -- updates -----------------------------------------------------------------------

    def _session_changed(self, _session: Session, _result: Result | None) -> None:
        """Any change, from a phone, the tablet or another program: every phone gets the
        new state once the current handler is done (several changes make one update)."""
        if not self._broadcast_due and self._loop is not None:
            self._broadcast_due = True
            self._loop.call_soon(lambda: self._spawn(self._flush()))

    def _behind(self) -> bool:
        """Whether the phones were last sent an older revision than the session holds."""
        try:
            return revision(self.session) != self._sent_rev
        except SessionFileError:
            return False

    async def _flush(self) -> None:
        if not self._broadcast_due:
            return
        self._broadcast_due = False
        view = self.table.view()
        state = {"t": "state", **view}
        self._sent_rev = view["rev"]
        for link in list(self.links):
            if link.phone is None or link.ws.closed:
                continue
            with contextlib.suppress(ConnectionError, RuntimeError):
                await link.ws.send_json(state)
