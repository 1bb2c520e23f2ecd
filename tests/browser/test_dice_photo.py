"""A phone's photo of its dice answers the waiting roll (issue 28), in a real browser.

The phone page's "Send a photo of the dice" (the file input a phone's camera app fills)
shrinks the photo, sends it to the host with the phone's own pass, and the tablet's camera
dice read it with the real reader and answer through the hub's answerer, as in the app
(`companion.ui.panels.phones` hands the host the hub's `camera.photo`).  The photo is
made at test time and chosen by the reader itself (`tests/ui/dice_frames.py`)."""

from __future__ import annotations

import itertools
from pathlib import Path

import cv2
import pytest

from companion.table.dice_camera import listed
from companion.table.dice_hub import DiceHub
from tests.browser.harness import HostThread, Phone
from tests.ui.dice_frames import sure_frame

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "ui"
_profiles = itertools.count()


def camera_dice(table: HostThread) -> DiceHub:
    """The tablet's dice hub on the host's loop, its camera dice taking phones' photos."""

    def make() -> DiceHub:
        hub = DiceHub()
        hub.attach(table.session)
        hub.camera.turn_on()  # on the running loop: its stream is read as the app's is
        table.host.dice_photo = hub.camera.photo
        return hub

    hub: DiceHub = table.call(make)
    return hub


def test_a_photo_of_the_dice_from_a_phone_answers_the_waiting_roll(table, tmp_path):
    frame = sure_frame()
    photo = tmp_path / "dice.png"
    cv2.imwrite(str(photo), frame.image)
    hub = camera_dice(table)
    phone = Phone(tmp_path / f"profile-{next(_profiles)}")
    try:
        phone.open(table.host.join_url)
        phone.join_as("Ann")
        assert phone.js("return document.getElementById('dice-photo-label').hidden")
        table.call(lambda: table.session.do("roll", {"count": len(frame.faces)}))
        phone.until(
            lambda: not phone.js("return document.getElementById('dice-photo-label').hidden"),
            what="the photo button with the roll",
        )
        SHOTS.mkdir(parents=True, exist_ok=True)
        phone.driver.save_screenshot(str(SHOTS / "phone-dice-photo-360.png"))
        phone.driver.find_element("id", "dice-photo").send_keys(str(photo))
        read = listed(list(frame.faces))
        phone.until(
            lambda: phone.text("message") == f"The tablet read {read}.",
            what="the tablet's reading",
        )
        phone.driver.save_screenshot(str(SHOTS / "phone-dice-photo-read-360.png"))
        phone.until(
            lambda: table.call(lambda: table.session.request) is None, what="the roll answered"
        )
        assert table.call(lambda: table.session.state.last_roll) == list(frame.faces)
        history = table.call(table.session.history)
        answered = [r for tx in history for r in tx if r.type == "RequestAnswered"]
        assert answered[-1].data["by"] == "phone photo"
        # with nothing asked, a photo answers nothing
        phone.driver.find_element("id", "dice-photo").send_keys(str(photo))
        phone.until(
            lambda: phone.text("message") == "No roll is asked for right now.",
            what="the refusal",
        )
    finally:
        phone.close()
        table.wait(hub.close())
