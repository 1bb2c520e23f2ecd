"""`companion host [SESSION] [--port N] [--address A] [--json] [--for SECONDS]`: serve a
session to phones without the tablet app, and print the join link.

The same host the app's Phones panel starts; useful on a laptop beside the table, and
for checking the phone page from a shell.  Stops on Ctrl-C, or after `--for` seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from companion.cli.errors import CliError


async def _serve(args: argparse.Namespace) -> int:
    from companion.core.library import Library
    from companion.host.server import PhoneHost, is_local, lan_address

    address = args.address or lan_address()
    if not is_local(address):
        raise CliError(f"{address} is not on the local network: phones join on the LAN only")
    with Library().open(args.session) as session:
        host = PhoneHost(session, address=address, port=args.port)
        try:
            await host.start()
        except OSError as exc:
            raise CliError(f"cannot listen on {address}:{args.port} ({exc.strerror})") from None
        try:
            if args.json:
                print(
                    json.dumps(
                        {
                            "url": host.join_url,
                            "address": address,
                            "port": host.port,
                            "session": session.id,
                            "expires_in": int(host.tokens.join_ttl),
                        }
                    ),
                    flush=True,
                )
            else:
                import segno

                segno.make(host.join_url).terminal(compact=True)
                print(f"Phones join at {host.join_url}", flush=True)
                print("(the link works for 10 minutes; Ctrl-C stops)", flush=True)
            if args.for_ is not None:
                await asyncio.sleep(args.for_)
            else:
                await asyncio.Event().wait()
        finally:
            await host.stop()
    return 0


def cmd_host(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise CliError("--port must be between 0 and 65535")
    try:
        return asyncio.run(_serve(args))
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
        return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("host", help="let phones join a session from their browsers")
    p.add_argument("session", nargs="?", help="session id or name (default: the latest)")
    p.add_argument("--port", type=int, default=8765, help="port to listen on (0: any free one)")
    p.add_argument("--address", help="local address to listen on (default: this LAN address)")
    p.add_argument("--json", action="store_true", help="print the join link as JSON")
    p.add_argument("--for", dest="for_", type=float, metavar="SECONDS", help="stop after this long")
    p.set_defaults(func=cmd_host)
