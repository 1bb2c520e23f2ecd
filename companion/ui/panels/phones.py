"""The Phones panel: a QR code with the join link, and the phones that came in.

The host runs on the app's own asyncio loop (Kivy runs under asyncio), so the session is
only ever touched from one thread.  It listens on the tablet's local network address and
nowhere else; when there is none, the panel says so instead of opening to the world.
Removing a phone takes its pass back at once.
"""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

from kivy.core.image import Image as CoreImage
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.utils import escape_markup

from companion.ui.widgets import BigButton, Body

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

PORT = 8765  # the usual port; another free one is taken if it is busy


def qr_texture(text: str) -> Any:
    import segno

    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="png", scale=8, border=2)
    buffer.seek(0)
    return CoreImage(buffer, ext="png").texture


class PhonesPanel(BoxLayout):
    hosting = BooleanProperty(False)
    link = StringProperty("")
    status = StringProperty("Let the players' phones join this game from their browsers.")
    qr = ObjectProperty(None, allownone=True)
    address: str | None = None  # None: this tablet's LAN address (tests set loopback)
    secure = True  # HTTPS with the tablet's certificate (a scripted phone test may turn it off)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.host: Any = None
        self.door: Any = None
        self._session: Any = None
        self._starting = False

    # -- hosting -------------------------------------------------------------------------

    def toggle(self) -> None:
        if self.host is not None:
            self.stop()
        elif self._session is not None and not self._starting:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                self.status = "Phones need the app started by 'companion app' (its network loop)."
                return
            self._starting = True
            loop.create_task(self.start(self._session))

    async def start(self, session: Any, address: str | None = None) -> None:
        from companion.host.server import PhoneHost, lan_address
        from companion.host.tls import table_certificate
        from companion.host.trust import TrustDoor

        address = address or self.address or lan_address()
        try:
            # HTTPS with this tablet's own certificate: phones get their live camera
            certificate = table_certificate(address) if self.secure else None
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
            self.status = escape_markup(f"Phones cannot join: {exc}")
            return
        finally:
            self._starting = False
        self.host, self.door = host, door
        host.listeners.append(self.show)
        from kivy.app import App

        app = App.get_running_app()
        if app is not None and hasattr(app, "hub"):  # a phone's photo of its dice (issue 28)
            host.dice_photo = app.hub.camera.photo
        self.hosting = True
        self.show()
        if address.startswith("127."):
            self.status = "No local network found: only this device can open the link."
        else:
            self.status = "Scan the code with a phone's camera. The link works for 10 minutes."
        if door is not None:
            self.status += (
                " The first time, the phone shows how to trust this table: its "
                f"certificate's code is {door.certificate.fingerprint()}."
            )

    def stop(self) -> None:
        host, self.host = self.host, None
        door, self.door = self.door, None
        self.hosting = False
        self.qr = None
        self.link = ""
        self.status = "Phones are not connected. Tap to let them join again."
        if host is not None:
            asyncio.get_running_loop().create_task(host.stop())
        if door is not None:
            asyncio.get_running_loop().create_task(door.stop())
        self.ids.list.clear_widgets()

    def new_link(self) -> None:
        if self.host is not None:
            self.host.new_link()
            self.show()

    def remove(self, phone_id: str) -> None:
        if self.host is not None:
            self.host.remove_phone(phone_id)

    # -- showing -------------------------------------------------------------------------

    def refresh(self, session: Any) -> None:
        if session is not self._session:
            if self.host is not None:
                self.stop()
            self._session = session

    def show(self) -> None:
        host = self.host
        if host is None:
            return
        # the QR code opens the door, which takes a new phone through trusting the table
        join = self.door.url(host.tokens.join.token) if self.door is not None else host.join_url
        if self.link != join:
            self.link = join
            self.qr = qr_texture(join)
        rows = self.ids.list
        rows.clear_widgets()
        phones = host.phones()
        if not phones:
            rows.add_widget(Body(text="No phones yet."))
        for phone, connected in phones:
            rows.add_widget(
                PhoneRow(panel=self, phone_id=phone.id, name=phone.name, connected=connected)
            )


class PhoneRow(BoxLayout):
    panel = ObjectProperty(None)
    phone_id = StringProperty("")
    name = StringProperty("")
    connected = BooleanProperty(False)

    def label(self) -> str:
        state = "here" if self.connected else "away"
        return f"{escape_markup(self.name)} ({state})"


__all__ = ["BigButton", "PhoneRow", "PhonesPanel"]
