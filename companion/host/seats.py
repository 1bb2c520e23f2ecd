"""Phone seats: the phone server's life at the table, which the Phones panel only shows.

One `PhoneSeats` per session screen opens the table to the players' phones (the phone
host on the tablet's local network address, and, over HTTPS, the trust door that takes a
new phone through trusting the table's certificate), hands out the join link, takes a
phone's pass back, and closes it all when the table stops or another session opens.

Why here and not in the panel: starting and stopping a server, choosing a port when the
usual one is busy and the words for what went wrong are no drawing, and the panel, a Kivy
widget, could not be tested without a window while it held them.  Why in the host and not
the table layer (`companion/table/`): the table layer sits below the host, which serves
it; the seats are the host's own lifecycle.  Everything runs on the app's asyncio loop,
so the session is only ever touched from one thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from companion.host.server import PhoneHost, lan_address
from companion.host.table import Phone
from companion.host.tls import table_certificate
from companion.host.trust import TrustDoor

if TYPE_CHECKING:
    from companion.core.session import Session

PORT = 8765  # the usual port; another free one is taken if it is busy

DicePhoto = Callable[[str, bytes], Awaitable[dict[str, object]]]


class PhoneSeats:
    """The phone host and trust door of one table, and what to say about them."""

    def __init__(self, on_change: Callable[[], None] | None = None) -> None:
        self.host: PhoneHost | None = None
        self.door: TrustDoor | None = None
        self.status = "Let the players' phones join this game from their browsers."
        self._on_change = on_change or (lambda: None)
        self.starting = False

    @property
    def hosting(self) -> bool:
        return self.host is not None

    async def start(
        self,
        session: Session,
        address: str | None = None,
        secure: bool = True,
        dice_photo: DicePhoto | None = None,
    ) -> bool:
        """Open the table to phones on `address` (None: this tablet's LAN address), over
        HTTPS with the tablet's own certificate when `secure` (phones then get their live
        camera).  False, with `status` saying why, when phones cannot join."""
        self.starting = True
        address = address or lan_address()
        try:
            certificate = table_certificate(address) if secure else None
            context = certificate.context() if certificate is not None else None
            host = PhoneHost(session, address=address, port=PORT, ssl_context=context)
            try:
                await host.start()
            except OSError:
                host = PhoneHost(session, address=address, port=0, ssl_context=context)
                await host.start()
            door = None
            if certificate is not None:
                door = TrustDoor(certificate, address, host.port, host.port + 1)
                try:
                    await door.start()
                except OSError:
                    door = TrustDoor(certificate, address, host.port, 0)
                    await door.start()
        except (OSError, ValueError) as exc:
            self.status = f"Phones cannot join: {exc}"
            return False
        finally:
            self.starting = False
        self.host, self.door = host, door
        host.listeners.append(self._on_change)
        if dice_photo is not None:  # a phone's photo of its dice (issue 28)
            host.dice_photo = dice_photo
        if address.startswith("127."):
            self.status = "No local network found: only this device can open the link."
        else:
            self.status = "Scan the code with a phone's camera. The link works for 10 minutes."
        if door is not None:
            self.status += (
                " The first time, the phone shows how to trust this table: its "
                f"certificate's code is {door.certificate.fingerprint()}."
            )
        return True

    def stop(self) -> None:
        """Close the host and the door (on the running loop); every pass goes with them."""
        host, self.host = self.host, None
        door, self.door = self.door, None
        self.status = "Phones are not connected. Tap to let them join again."
        if host is not None:
            asyncio.get_running_loop().create_task(host.stop())
        if door is not None:
            asyncio.get_running_loop().create_task(door.stop())

    def join_link(self) -> str:
        """The link the QR code carries: the door, which takes a new phone through
        trusting the table, or the host's own join link over plain HTTP; '' when closed."""
        if self.host is None:
            return ""
        token = self.host.tokens.join.token
        return self.door.url(token) if self.door is not None else self.host.join_url

    def new_link(self) -> None:
        if self.host is not None:
            self.host.new_link()
            self._on_change()

    def remove(self, phone_id: str) -> None:
        """Take the phone's pass back at once."""
        if self.host is not None:
            self.host.remove_phone(phone_id)

    def phones(self) -> list[tuple[Phone, bool]]:
        """Each phone that came in, and whether it is connected now."""
        return self.host.phones() if self.host is not None else []
