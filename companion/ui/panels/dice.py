"""The dice panel: what the rules are waiting for, a keypad for it, and the dice sources.

The request is the biggest thing on the screen because the whole table reads it.  The
keypad shows the die's own faces ("hex" on a HEXplore die, the d3's 1-2-3) and sends the
game value; several dice are entered one tap each and answered together.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.core.rules import DIE_FACES, Request, request_words
from companion.ui.panels import dice_camera  # noqa: F401 (its block is in this panel's kv)
from companion.ui.widgets import BigButton, Body, clear_and_fill

if TYPE_CHECKING:
    from companion.core.session import Session
    from companion.ui.panels.dice_camera import DiceCameraBlock

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


def keypad_faces(profile: str) -> list[tuple[str, int]]:
    """Each distinct face once, in the die's own order (a d3 shows 1, 2, 3)."""
    seen: dict[str, int] = {}
    for label, value in DIE_FACES.get(profile, ()):
        seen.setdefault(label, value)
    return list(seen.items())


def battery_words(battery: int | None) -> str:
    return "battery unknown" if battery is None else f"battery {battery}%"


class KeyButton(BigButton):
    """A keypad key: bigger than other buttons, tapped many times an evening."""


class DicePanel(BoxLayout):
    request_text = StringProperty("")
    entered_text = StringProperty("")
    entered = ListProperty([])
    can_roll_for_me = BooleanProperty(False)
    can_roll_on_tray = BooleanProperty(False)  # demo: the simulated tray is there to roll
    offer_text = StringProperty("")  # on-screen entry offered when no die answered in time
    _offered_for: Request | None = None
    _profile = ""  # the die profile and how many dice the pending request wants
    _count = 0

    def __init__(self, **kwargs: object) -> None:
        self.camera_block: DiceCameraBlock | None = None
        super().__init__(**kwargs)
        self._hold_camera_block()

    def _hold_camera_block(self) -> DiceCameraBlock:
        """The camera dice block held here: it leaves the panel while it shows nothing,
        and kv's ids keep only a weak reference.  Held before it first leaves: Kivy
        dispatches `parent` as the panel's rules are applied, inside __init__, so it left
        before __init__ could take it, and a garbage collection between (now and then, in
        a long run) left a dead reference (ReferenceError)."""
        if self.camera_block is None:
            self.camera_block = self.ids.camera_block.__self__
        return self.camera_block

    def follow_parent(self) -> None:
        """Shown or put away (no roll waiting, another tab): camera dice follow."""
        self._hold_camera_block().refresh()

    def refresh(self, session: Session) -> None:
        request = session.request if session is not None else None
        if request != self._offered_for:
            self.offer_text = ""  # answered, or another roll: the offer was for that one
        self.entered = []
        if request is None or request.kind != "dice":
            self.request_text = (
                "No roll asked for right now."
                if request is None
                else "A card is asked for: see the Cards tab."
            )
            self._profile = ""
            self._count = 0
            clear_and_fill(self.ids.keypad, [])
        else:
            self.request_text = request_words(request)
            self._profile, self._count = request.profile, request.count
            keys = []
            for label, value in keypad_faces(request.profile):
                key = KeyButton(text=label)
                key.face_value = value
                key.face_label = label
                key.bind(on_release=lambda k: self.press(k.face_label, k.face_value))
                keys.append(key)
            self.ids.keypad.cols = 6 if len(keys) > 6 else max(len(keys), 1)
            clear_and_fill(self.ids.keypad, keys)
        self.can_roll_for_me = bool(self._count)  # the virtual roller (hardware/virtual.py)
        self._show_entered()
        self.refresh_sources()

    def press(self, label: str, value: int) -> None:
        if not self._count:
            return
        self.entered = [*self.entered, (label, value)]
        if len(self.entered) >= self._count:
            values = [v for _l, v in self.entered]
            self.entered = []
            App.get_running_app().root.get_screen("session").answer(values, by="keypad")
        self._show_entered()

    def offer_keypad(self, message: str, request: Request | None) -> None:
        """No device answered `request` in time: say so above the keypad."""
        self._offered_for = request
        self.offer_text = f"{message[:1].upper()}{message[1:]}"

    def open_assignments(self) -> None:
        from companion.ui.panels.assign import AssignPopup

        AssignPopup().open()

    def clear(self) -> None:
        self.entered = []
        self._show_entered()

    def _show_entered(self) -> None:
        if self._count > 1:
            shown = [label for label, _v in self.entered]
            shown += ["_"] * (self._count - len(shown))
            self.entered_text = "Entered: " + "  ".join(shown)
        else:
            self.entered_text = ""

    def refresh_sources(self) -> None:
        hub = App.get_running_app().hub
        self._hold_camera_block().refresh()  # held since __init__
        self.can_roll_on_tray = bool(self._count) and hub.simulated is not None
        shown = (tuple(hub.views()), hub.message)
        if shown == getattr(self, "_sources_shown", None):
            return  # checked every second: rebuild only when something changed
        self._sources_shown = shown
        rows = []
        for view in hub.views():
            mark = "[color=e5534b]" if view.alarming else ""
            end = "[/color]" if view.alarming else ""
            rows.append(
                Body(
                    text=f"{mark}[b]{view.name}[/b]: {view.status}, "
                    f"{battery_words(view.battery)}{end}"
                )
            )
        if not rows:
            rows = [Body(text="No dice connected: use the keypad.")]
        clear_and_fill(self.ids.sources, rows)
        self.ids.message.text = hub.message
