"""The door: a plain-HTTP page beside the HTTPS host that walks a new phone through
trusting the table, once.

The join QR code opens the door, not the game: a phone that does not trust the table yet
would otherwise meet a full-screen "connection is not private" warning with no word of
why.  The door says in a player's words what to do (install the table's certificate, or
tap through the warning) and offers the certificate to download.  A phone that already
trusts the table goes straight on: the door's script tries the HTTPS host and, when the
connection is trusted, opens the game at once.

The join token travels in the link's fragment (`#t=`), which a browser never sends, so
it never crosses the network in plain text; the door serves only public things (its
page, its script and the table's certificate) and needs no token.
"""

from __future__ import annotations

import html
from importlib import resources
from typing import TYPE_CHECKING

from aiohttp import web

from companion.host.tls import TableCertificate

if TYPE_CHECKING:
    from companion.host.server import PhoneHost

CERT_NAME = "table-companion.crt"


def _static(name: str) -> bytes:
    return (resources.files("companion.host") / "static" / name).read_bytes()


def page_url(host: PhoneHost) -> str:
    """The game's own link (HTTPS when the host has a certificate)."""
    url = str(host.join_url)
    if host.ssl_context is not None and url.startswith("http://"):
        url = "https://" + url[len("http://") :]
    return url


class TrustDoor:
    """Serves the door on `address:port` (plain HTTP) for the HTTPS host on `https_port`."""

    def __init__(
        self, certificate: TableCertificate, address: str, https_port: int, port: int = 0
    ) -> None:
        self.certificate = certificate
        self.address = address
        self.https_port = https_port
        self.port = port
        self._runner: web.AppRunner | None = None
        self._script = _static("trust.js")
        self._page = (
            _static("trust.html")
            .decode()
            .replace("{{ORIGIN}}", html.escape(f"https://{address}:{https_port}", quote=True))
            .replace("{{ADDRESS}}", html.escape(address))
            .replace("{{FINGERPRINT}}", html.escape(certificate.fingerprint()))
            .replace("{{CERT}}", CERT_NAME)
        )
        self._headers = {
            "Content-Security-Policy": (
                f"default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; "
                f"connect-src https://{address}:{https_port}; base-uri 'none'; "
                "form-action 'none'; frame-ancestors 'none'"
            ),
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
            "Cache-Control": "no-store",
        }

    def url(self, token: str) -> str:
        """What the join QR code holds: the door, with the join token out of the request."""
        return f"http://{self.address}:{self.port}/#t={token}"

    async def start(self) -> None:
        app = web.Application(client_max_size=4096)
        app.router.add_get("/", self._index)
        app.router.add_get("/trust.js", self._js)
        app.router.add_get(f"/{CERT_NAME}", self._cert)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.address, self.port).start()
        self.port = int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _index(self, _request: web.Request) -> web.Response:
        return web.Response(text=self._page, content_type="text/html", headers=self._headers)

    async def _js(self, _request: web.Request) -> web.Response:
        return web.Response(
            body=self._script,
            headers={**self._headers, "Content-Type": "text/javascript; charset=utf-8"},
        )

    async def _cert(self, _request: web.Request) -> web.Response:
        return web.Response(
            body=self.certificate.ca_der(),
            headers={
                **self._headers,
                "Content-Type": "application/x-x509-ca-cert",
                "Content-Disposition": f'attachment; filename="{CERT_NAME}"',
            },
        )
