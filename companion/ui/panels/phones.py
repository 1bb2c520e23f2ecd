"""The Phones panel: a QR code with the join link, and the phones that came in.

The phone server's life (start, stop, the join link, a phone's pass taken back) is the
table's phone seats' (`companion.host.seats`); this panel shows them.  The host runs on
the app's own asyncio loop (Kivy runs under asyncio), so the session is only ever touched
from one thread.  It listens on the tablet's local network address and nowhere else; when
there is none, the panel says so instead of opening to the world.
"""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import TYPE_CHECKING

from kivy.core.image import Image as CoreImage
from kivy.graphics.texture import Texture
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.utils import escape_markup

from companion.host.seats import PhoneSeats
from companion.ui.widgets import BigButton, Body

if TYPE_CHECKING:
    from companion.core.session import Session
    from companion.host.server import PhoneHost
    from companion.host.trust import TrustDoor

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


def qr_texture(text: str) -> Texture:
    import segno

    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="png", scale=8, border=2)
    buffer.seek(0)
    return CoreImage(buffer, ext="png").texture


class PhonesPanel(BoxLayout):
    """Shows the table's phone seats (`companion.host.seats.PhoneSeats`, which opens and
    closes the phone server) and passes the table's taps to them."""

    hosting = BooleanProperty(False)
    link = StringProperty("")
    status = StringProperty("Let the players' phones join this game from their browsers.")
    qr = ObjectProperty(None, allownone=True)
    address: str | None = None  # None: this tablet's LAN address (tests set loopback)
    secure = True  # HTTPS with the tablet's certificate (a scripted phone test may turn it off)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.seats = PhoneSeats(on_change=self.show)
        self._session: Session | None = None

    @property
    def host(self) -> PhoneHost | None:
        return self.seats.host

    @property
    def door(self) -> TrustDoor | None:
        return self.seats.door

    # -- hosting -------------------------------------------------------------------------

    def toggle(self) -> None:
        if self.seats.hosting:
            self.stop()
        elif self._session is not None and not self.seats.starting:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                self.status = "Phones need the app started by 'companion app' (its network loop)."
                return
            self.seats.starting = True
            loop.create_task(self.start(self._session))

    async def start(self, session: Session, address: str | None = None) -> None:
        from kivy.app import App

        app = App.get_running_app()
        hub = getattr(app, "hub", None) if app is not None else None
        photo = hub.camera.photo if hub is not None else None  # a phone's photo of its dice
        started = await self.seats.start(
            session, address or self.address, secure=self.secure, dice_photo=photo
        )
        if started:
            self.hosting = True
            self.show()
        self.status = escape_markup(self.seats.status)

    def stop(self) -> None:
        self.seats.stop()
        self.hosting = False
        self.qr = None
        self.link = ""
        self.status = escape_markup(self.seats.status)
        self.ids.list.clear_widgets()

    def new_link(self) -> None:
        self.seats.new_link()

    def remove(self, phone_id: str) -> None:
        self.seats.remove(phone_id)

    # -- showing -------------------------------------------------------------------------

    def refresh(self, session: Session | None) -> None:
        if session is not self._session:
            if self.seats.hosting:
                self.stop()
            self._session = session

    def show(self) -> None:
        if not self.seats.hosting:
            return
        # the QR code opens the door, which takes a new phone through trusting the table
        join = self.seats.join_link()
        if self.link != join:
            self.link = join
            self.qr = qr_texture(join)
        rows = self.ids.list
        rows.clear_widgets()
        phones = self.seats.phones()
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
