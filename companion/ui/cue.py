"""A chime and a short buzz when the table must act: roll dice or show a card.

Why: at a table the tablet lies flat among cards and the players look at the board, not
the screen; when the rules wait for a roll or a card, a sound and (on a tablet or phone
that has one) a vibration say so.  The chime is a short WAV shipped beside this module
(`write_chime` made it); the vibration is plyer's, where the platform offers it.  A
player who wants quiet turns both off in Settings.

Headless (tests, a desktop without audio) nothing sounds, but every cue asked for is
kept in `asked`, so a test can see the table was told.
"""

from __future__ import annotations

import contextlib
import logging
import math
import struct
import wave
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the audio backend loads with the first cue, not at start
    from kivy.core.audio import Sound

log = logging.getLogger(__name__)

CHIME = Path(__file__).with_name("assets") / "cue.wav"
BUZZ_SECONDS = 0.15


def write_chime(path: Path = CHIME, rate: int = 22050) -> Path:
    """The chime: two short soft notes (E6 then A6), faded in and out so it never clicks."""
    frames = bytearray()
    for freq, seconds in ((1318.5, 0.09), (1760.0, 0.14)):
        n = int(rate * seconds)
        for i in range(n):
            fade = min(1.0, i / (rate * 0.01), (n - i) / (rate * 0.03))
            sample = 0.35 * fade * math.sin(2 * math.pi * freq * i / rate)
            frames += struct.pack("<h", int(sample * 32767))
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(bytes(frames))
    return path


class Cue:
    """Tells the table it must act; `enabled` follows the player's setting."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self.asked: list[str] = []  # every cue asked for, sounded or not (what tests see)
        self.given: list[str] = []  # those sounded (and buzzed where there is a vibrator)
        self._sound: Sound | None = None
        self._loaded = False

    def table_must(self, what: str) -> bool:
        """`what` is "roll" or "draw"; returns whether the cue was given (not muted)."""
        self.asked.append(what)
        if not self.enabled:
            return False
        self.given.append(what)
        self._play()
        self._vibrate()
        return True

    def _play(self) -> None:
        if not self._loaded:  # the audio backend loads with the first cue, not at start
            self._loaded = True
            with contextlib.suppress(Exception):
                from kivy.core.audio import SoundLoader

                self._sound = SoundLoader.load(str(CHIME))
        if self._sound is not None:
            with contextlib.suppress(Exception):
                self._sound.stop()
                self._sound.play()

    @staticmethod
    def _vibrate() -> None:
        from kivy.utils import platform

        if platform not in ("android", "ios"):
            return  # plyer has no vibrator on a desktop
        try:
            from plyer import vibrator

            vibrator.vibrate(BUZZ_SECONDS)
        except Exception as exc:  # noqa: BLE001 - a missing vibrator never stops play
            log.info("no vibration: %s", exc)
