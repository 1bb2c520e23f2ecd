"""The kept dice photos carried off the tablet, and the model trained on them brought back:
a link that a computer on the table's network opens, for ten minutes, to download the
photos as one zip and to send the tablet a model (issue 28).

Why a link: a group trains the camera on its own dice on a computer (training/README.md),
and on Android the app's data folder, where the photos are kept, is out of its owner's
reach, both to take the photos out and to put the trained model in.  Why its own server
and pass rather than the phone host's: the photos are the group's, not a player's, so a
phone that joined the game is not let at them, and Settings shares them with no game open.

The pass is typed on the computer (or comes in the QR code's link) and travels in the
query, so the site is HTTPS with the table's own
certificate (`tls.py`) and no one else on the network reads it; the computer's browser
warns once that it does not know the certificate, and the tablet shows the certificate's
code to compare.  As with a phone's pass, the pass is kept by its hash, a wrong one is
slowed per address (`safety.Throttle`) and refused in words, it runs out, and it goes
when the sharing stops.  The host listens on the tablet's private address only.
"""

from __future__ import annotations

import asyncio
import hmac
import html
import io
import secrets
import tempfile
import time
import zipfile
from collections.abc import Awaitable, Callable
from pathlib import PurePath
from typing import IO

from aiohttp import web

from companion.host.safety import Throttle, same_origin
from companion.host.server import is_local
from companion.host.tls import TableCertificate
from companion.host.tokens import MAX_TOKEN, digest
from companion.table.dice_model import MODEL_FILE, ModelChoice
from companion.table.dice_photos import DicePhotos, size_words

LASTS = 10 * 60.0  # seconds a share link works: long enough to walk to the computer
ZIP_NAME = "dice-photos.zip"
CHUNK = 1 << 20  # bytes sent at a time: the loop serves other requests in between
# The pass is read off the tablet and typed on a computer: four groups of four from letters
# and digits no one mistakes for another (no 0/O, 1/I/L), in either case; 79 bits, for ten
# minutes, with wrong guesses slowed to one in two seconds a device.
LETTERS = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
AGAIN = "Tap Share the photos in the tablet's Settings for a new pass."
MAX_MODEL = 40 * 1024 * 1024  # bytes sent as a model: the shipped one is 1 MB, the cap 15

HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    # the pass never leaves in a Referer; same-origin, not no-referrer: a browser then names
    # the page as the Origin of its own form post (no-referrer makes it "null")
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}


class PhotoShare:
    """Serves the photos in `photos` on `address:port` while started, to the one pass it
    made.  `certificate` None serves plain HTTP (tests, and `--plain` tables)."""

    def __init__(
        self,
        photos: DicePhotos,
        address: str,
        certificate: TableCertificate | None = None,
        port: int = 0,
        clock: Callable[[], float] = time.time,
        lasts: float = LASTS,
        throttle: Throttle | None = None,
        model: ModelChoice | None = None,
    ) -> None:
        if not is_local(address):
            raise ValueError(f"{address} is not a local network address: photos stay on the LAN")
        self.photos = photos
        self.address = address
        self.certificate = certificate
        self.port = port
        self.clock = clock
        self.lasts = lasts
        self.throttle = throttle or Throttle()
        self.model = model  # None: no model is taken in
        self.installed: Callable[[], object] = lambda: None  # told when a model is put in place
        self.expires = clock() + lasts
        self.secret = "-".join("".join(secrets.choice(LETTERS) for _ in range(4)) for _ in range(4))
        self._hash = digest(self.secret)
        self._runner: web.AppRunner | None = None

    @property
    def scheme(self) -> str:
        return "https" if self.certificate is not None else "http"

    @property
    def site(self) -> str:
        """The address a person types on a computer; its page asks for the pass."""
        return f"{self.scheme}://{self.address}:{self.port}"

    @property
    def url(self) -> str:
        """The whole link, pass and all, for the QR code."""
        return f"{self.site}/?t={self.secret}"

    def expired(self) -> bool:
        return self.clock() >= self.expires

    async def start(self) -> None:
        app = web.Application(middlewares=[self._guard], client_max_size=MAX_MODEL)
        app.router.add_get("/", self._index)
        app.router.add_get(f"/{ZIP_NAME}", self._zip)
        app.router.add_post("/model", self._model)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        context = self.certificate.context() if self.certificate is not None else None
        try:
            await web.TCPSite(runner, self.address, self.port, ssl_context=context).start()
        except OSError:
            await runner.cleanup()
            raise
        self._runner = runner
        self.port = int(runner.addresses[0][1])

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    # -- who gets in -------------------------------------------------------------------

    def refusal(self, address: str, secret: str | None) -> str | None:
        """Why `secret` from `address` is not let in, in words; None lets it in."""
        wait = self.throttle.wait(address)
        if wait > 0:
            return f"Too many wrong passes from this device: wait {max(1, round(wait))} seconds."
        good = (
            secret is not None
            and len(secret) <= MAX_TOKEN
            and hmac.compare_digest(digest(secret.strip().upper()), self._hash)
        )
        if not good:
            self.throttle.failed(address)
            return f"This is not the pass the tablet shows for its dice photos. {AGAIN}"
        if self.expired():
            minutes = round(self.lasts / 60)
            return f"This pass has run out: it works for {minutes} minutes. {AGAIN}"
        return None

    @web.middleware
    async def _guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if request.path == "/" and "t" not in request.query and request.method == "GET":
            return self._ask()  # the address typed alone: the pass is asked, not refused
        why = self.refusal(request.remote or "", request.query.get("t"))
        if why is None and not same_origin(
            request.headers.get("Origin"), request.host, self.scheme
        ):
            why = "This page may be opened only from the tablet's own link."
        if why is not None:
            response: web.StreamResponse = web.Response(
                status=403,
                text=_page("Not let in", f"<p id='refused'>{html.escape(why, quote=False)}</p>"),
            )
            response.content_type = "text/html"
        else:
            response = await handler(request)
        for key, value in HEADERS.items():
            response.headers.setdefault(key, value)
        return response

    # -- what it serves ----------------------------------------------------------------

    def _ask(self) -> web.Response:
        body = (
            "<p>Type the pass the tablet's Settings show under Share the photos.</p>"
            "<form id='ask' method='get' action='/'><p><label>Pass "
            "<input id='pass' name='t' autocomplete='off' autocapitalize='characters' "
            "spellcheck='false' size='20'></label> <button id='open' type='submit'>Open"
            "</button></p></form>"
        )
        response = web.Response(
            text=_page("Your table's dice photos", body), content_type="text/html"
        )
        response.headers.update(HEADERS)
        return response

    async def _index(self, _request: web.Request) -> web.Response:
        rows = self.photos.rows()
        dice = sum(len(r["dice"]) for r in rows)
        link = html.escape(f"{ZIP_NAME}?t={self.secret}", quote=True)
        body = (
            f"<p id='what'>{len(rows)} photos of this table's rolls ({dice} dice, "
            f"{size_words(self.photos.size())}), each with the faces the table took.</p>"
            f"<p><a id='download' href='{link}' download='{ZIP_NAME}'>Download the photos "
            f"({ZIP_NAME})</a></p>"
            "<p>To train the camera on your own dice, follow training/README.md in a copy "
            "of the Table Companion repository: "
            f"<code>python -m training.dice.import_table --photos {ZIP_NAME} "
            "--name ourtable</code>.</p>"
        )
        if self.model is not None:
            action = html.escape(f"model?t={self.secret}", quote=True)
            body += (
                "<h2>Send the tablet your own model</h2>"
                "<p>Choose the files of the folder the training wrote (dice_detector.onnx "
                "and .json, dice_faces.onnx and .json), or a zip of them. The camera reads "
                "with them from the app's next start.</p>"
                f"<form id='send' method='post' action='{action}' enctype='multipart/form-data'>"
                "<p><input id='files' type='file' name='model' multiple "
                "accept='.onnx,.json,.zip'></p>"
                "<p><button id='go' type='submit'>Send the model</button></p></form>"
            )
        return web.Response(text=_page("Your table's dice photos", body), content_type="text/html")

    async def _model(self, request: web.Request) -> web.Response:
        """A trained model's files, put in place only whole and only when they load."""
        if self.model is None:
            return _said(404, "Not taken", "This tablet takes no model here.")
        try:
            files = await _files(request)
            count = await asyncio.to_thread(self.model.install, files)
        except ValueError as exc:
            return _said(400, "Not taken", f"{exc}. The tablet's model is unchanged.")
        self.installed()
        return _said(
            200,
            "Model taken",
            f"The tablet has your model ({count} files). The camera reads with it from the "
            "app's next start; the tablet's Settings say which model reads.",
        )

    async def _zip(self, request: web.Request) -> web.StreamResponse:
        """Packed afresh for each download, in a worker thread (a few hundred photos take
        a moment to read), into a temporary file, then sent a chunk at a time."""
        with tempfile.TemporaryFile() as packed:
            await asyncio.to_thread(self._pack, packed)
            response = web.StreamResponse(
                headers={
                    "Content-Type": "application/zip",
                    "Content-Disposition": f'attachment; filename="{ZIP_NAME}"',
                    "Content-Length": str(packed.seek(0, 2)),
                }
            )
            for key, value in HEADERS.items():
                response.headers[key] = value
            await response.prepare(request)
            packed.seek(0)
            while chunk := await asyncio.to_thread(packed.read, CHUNK):
                await response.write(chunk)
            await response.write_eof()
        return response

    def _pack(self, out: IO[bytes]) -> None:
        self.photos.pack(out)
        out.flush()


async def _files(request: web.Request) -> dict[str, bytes]:
    """The files sent, by name: each file as it is, a zip's model files unpacked (no name
    chooses a folder); ValueError in words when none came."""
    files: dict[str, bytes] = {}
    try:
        form = await request.post()
    except web.HTTPRequestEntityTooLarge:
        raise ValueError(
            f"the files are larger than a model is ({MAX_MODEL // 2**20} MB)"
        ) from None
    except ValueError as exc:
        raise ValueError(f"the files could not be read ({exc})") from None
    for part in form.getall("model", []):
        if not isinstance(part, web.FileField):
            continue
        name, data = PurePath(part.filename or "").name, part.file.read()
        if name.lower().endswith(".zip"):
            try:
                with zipfile.ZipFile(io.BytesIO(data)) as z:
                    for member in z.infolist():
                        leaf = PurePath(member.filename).name
                        if MODEL_FILE.fullmatch(leaf) and not member.is_dir():
                            files[leaf] = z.read(member)
            except zipfile.BadZipFile:
                raise ValueError(f"{name} is not a zip") from None
        elif name:
            files[name] = data
    if not files:
        raise ValueError("no files came: choose the model's files, then Send")
    return files


def _said(status: int, title: str, words: str) -> web.Response:
    body = f"<p id='said'>{html.escape(words, quote=False)}</p>"
    return web.Response(status=status, text=_page(title, body), content_type="text/html")


def _page(title: str, body: str) -> str:
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>Table Companion: {html.escape(title, quote=False)}</title></head>"
        "<body style='font:20px sans-serif;padding:16px;max-width:40em'>"
        f"<h1>{html.escape(title, quote=False)}</h1>{body}</body></html>"
    )
