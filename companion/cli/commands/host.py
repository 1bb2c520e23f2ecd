"""`companion host [SESSION] [--port N] [--address A] [--plain] [--door-port N] [--json]
[--for SECONDS]`: serve a session to phones without the tablet app, and print the join
link.

The same host the app's Phones panel starts; useful on a laptop beside the table, and
for checking the phone page from a shell.  By default the page is served over HTTPS with
this install's own certificate (`companion.host.tls`), so a phone's live camera works on
the LAN address, and the join link opens the door beside it (`companion.host.trust`),
which walks a new phone through trusting the table once.  Stops on Ctrl-C, or after
`--for` seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import TYPE_CHECKING

from companion.failures import CliError

if TYPE_CHECKING:
    import ssl

    from companion.core.session import Session
    from companion.host.server import PhoneHost
    from companion.host.tls import TableCertificate
    from companion.host.trust import TrustDoor


async def _serve(args: argparse.Namespace) -> int:
    from companion.core.library import Library
    from companion.host.server import PhoneHost, is_local, lan_address

    address = args.address or lan_address()
    if not is_local(address):
        raise CliError(f"{address} is not on the local network: phones join on the LAN only")
    with Library().open(args.session) as session:
        certificate, context = _certificate(args, address)
        host = PhoneHost(session, address=address, port=args.port, ssl_context=context)
        try:
            await host.start()
        except OSError as exc:
            raise CliError(f"cannot listen on {address}:{args.port} ({exc.strerror})") from None
        door: TrustDoor | None = None
        try:
            if certificate is not None:
                from companion.host.trust import TrustDoor

                door_port = args.door_port if args.door_port is not None else _next(args.port)
                door = TrustDoor(certificate, address, host.port, door_port)
                try:
                    await door.start()
                except OSError as exc:
                    raise CliError(
                        f"cannot listen on {address}:{door_port} for the trust page "
                        f"({exc.strerror}): pick another with --door-port"
                    ) from None
            _announce(args, host, door, session, address)
            if args.for_ is not None:
                await asyncio.sleep(args.for_)
            else:
                await asyncio.Event().wait()
        finally:
            if door is not None:
                await door.stop()
            await host.stop()
    return 0


def _next(port: int) -> int:
    return port + 1 if port else 0


def _certificate(
    args: argparse.Namespace, address: str
) -> tuple[TableCertificate | None, ssl.SSLContext | None]:
    """This install's certificate and a server context for it, or none with --plain."""
    if args.plain:
        return None, None
    from companion.host.tls import table_certificate

    try:
        certificate = table_certificate(address)
        return certificate, certificate.context()
    except (OSError, ValueError) as exc:
        raise CliError(f"cannot make or read this tablet's certificate: {exc}") from None


def _announce(
    args: argparse.Namespace,
    host: PhoneHost,
    door: TrustDoor | None,
    session: Session,
    address: str,
) -> None:
    from companion.host.trust import page_url

    page = page_url(host)
    join = door.url(host.tokens.join.token) if door is not None else page
    if args.json:
        info = {
            "url": join,
            "page": page,
            "address": address,
            "port": host.port,
            "https": door is not None,
            "door_port": door.port if door is not None else None,
            "fingerprint": door.certificate.fingerprint() if door is not None else None,
            "certificate": str(door.certificate.ca_pem) if door is not None else None,
            "session": session.id,
            "expires_in": int(host.tokens.join_ttl),
        }
        print(json.dumps(info), flush=True)
        return
    import segno

    segno.make(join).terminal(compact=True)
    print(f"Phones join at {join}", flush=True)
    if door is not None:
        print(
            "(the first time, that page shows the phone how to trust this table; "
            f"the certificate's code is {door.certificate.fingerprint()})",
            flush=True,
        )
    print("(the link works for 10 minutes; Ctrl-C stops)", flush=True)


def cmd_host(args: argparse.Namespace) -> int:
    for name in ("port", "door_port"):
        value = getattr(args, name)
        if value is not None and not 0 <= value <= 65535:
            raise CliError(f"--{name.replace('_', '-')} must be between 0 and 65535")
    try:
        return asyncio.run(_serve(args))
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
        return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("host", help="let phones join a session from their browsers")
    p.add_argument("session", nargs="?", help="session id or name (default: the latest)")
    p.add_argument("--port", type=int, default=8765, help="port to listen on (0: any free one)")
    p.add_argument("--address", help="local address to listen on (default: this LAN address)")
    p.add_argument(
        "--plain",
        action="store_true",
        help="plain http, no certificate (phones then get no live camera, only photos)",
    )
    p.add_argument(
        "--door-port",
        type=int,
        metavar="N",
        help="port of the plain-http page that helps a phone trust the table (default: port + 1)",
    )
    p.add_argument("--json", action="store_true", help="print the join link as JSON")
    p.add_argument("--for", dest="for_", type=float, metavar="SECONDS", help="stop after this long")
    p.set_defaults(func=cmd_host)
