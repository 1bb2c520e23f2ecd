"""Camera dice through the hub (issue 28), without a window: the dice in view answer the
waiting roll only when they may, in words otherwise, and a phone's photo answers or waits
for the table's taps.  The reader, the camera dice source's stream, the answerer and the
session are the real thing; the photos are generated and chosen by the reader
(`tests/ui/dice_frames.py`)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.core.library import Library
from companion.games import get_game
from companion.table.dice_camera import listed, plain_d6
from companion.table.dice_hub import DiceHub
from tests.ui.dice_frames import sure_frame, unsure_frame


@pytest.fixture
def session(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))  # its own dice assignments
    s = Library(tmp_path).new(get_game("tiny"))
    yield s
    s.close()


@pytest.fixture
async def hub(session):
    hub = DiceHub()
    hub.attach(session)
    hub.camera.turn_on()  # on the running loop: the hub reads its stream
    yield hub
    await hub.close()


async def until(check, timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


def png(image: np.ndarray) -> bytes:
    return cv2.imencode(".png", image)[1].tobytes()


async def test_the_dice_in_view_answer_only_a_roll_for_as_many_dice(session, hub):
    frame = sure_frame()
    camera = hub.camera
    dice = camera.reader.read(frame.image)
    camera.show(frame.image, dice)
    assert camera.problem() == "No roll is asked for right now."
    session.do("draw")
    assert camera.take() == "A card is asked for, not dice."
    session.answer(session.request.options[0], by="keypad")
    n = len(dice)
    session.do("roll", {"count": 1})
    assert camera.take() == f"{n} dice seen, the roll asks for 1."
    await asyncio.sleep(0.05)
    assert session.request is not None  # nothing was answered
    session.answer([1], by="keypad")
    session.do("roll", {"count": n})
    assert camera.problem() is None
    assert camera.take() == f"Taken: {', '.join(map(str, frame.faces))}"
    await until(lambda: session.request is None)
    assert session.state.last_roll == list(frame.faces)
    assert session.history()[-1][0].data["by"] == "camera dice"
    assert hub.message.endswith(f"rolled {', '.join(map(str, frame.faces))}")


async def test_an_unsure_die_holds_the_roll_until_the_table_sets_it(session, hub):
    frame = unsure_frame()
    camera = hub.camera
    camera.take_when_still = True
    now = [0.0]
    camera.clock = lambda: now[0]  # moved by hand: a read every 0.2 s
    session.do("roll", {"count": len(frame.faces)})
    dice = camera.reader.read(frame.image)
    for i in range(15):  # still for 3 s: the unsure die holds the roll
        now[0] = i * 0.2
        camera.show(frame.image, dice)
    assert camera.stillness.still and session.request is not None
    unsure = [i for i, f in enumerate(frame.faces) if f is None]
    assert "unsure" in (camera.problem() or "")
    assert camera.take().startswith(
        f"Die {unsure[0] + 1} is unsure" if len(unsure) == 1 else "Dice"
    )
    for i in unsure:
        camera.fix(i, 4)
    now[0] += 0.2
    camera.show(frame.image, dice)  # the next read: still, set, taken by itself
    await until(lambda: session.request is None)
    assert session.state.last_roll == [4 if f is None else f for f in frame.faces]


async def test_a_roll_assigned_to_other_dice_is_not_the_cameras(session, hub):
    frame = sure_frame()
    hub.assign("d6", ["tray:1"])
    session.do("roll", {"count": len(frame.faces)})
    hub.camera.show(frame.image, hub.camera.reader.read(frame.image))
    said = hub.camera.take()
    assert said == "This roll is assigned to tray:1: roll those, or change it with Assign dice."


async def test_a_phones_photo_answers_or_waits_for_the_tables_taps(session, hub):
    camera = hub.camera
    sure, unsure = sure_frame(), unsure_frame()
    reply = await camera.photo("Ann", png(sure.image))
    assert reply == {"ok": False, "text": "No roll is asked for right now."}
    session.do("roll", {"count": len(sure.faces)})
    reply = await camera.photo("Ann", png(sure.image))
    read = listed(list(sure.faces))
    assert reply == {"ok": True, "text": f"The tablet read {read}."}
    await until(lambda: session.request is None)
    assert session.history()[-1][0].data["by"] == "phone photo"
    assert camera.photo_from == ""  # back to the live camera

    session.do("roll", {"count": len(unsure.faces)})
    reply = await camera.photo("Ann", png(unsure.image))
    assert not reply["ok"] and reply["text"].endswith("on the tablet.")
    assert camera.photo_from == "Ann" and camera.frame is not None
    live = sure.image
    camera.show(live, camera.reader.read(live))  # the live camera does not replace it
    assert camera.photo_from == "Ann"
    for i, face in enumerate(unsure.faces):
        if face is None:
            camera.fix(i, 2)
    camera.take()
    await until(lambda: session.request is None)
    assert session.state.last_roll == [2 if f is None else f for f in unsure.faces]

    session.do("roll", {"count": 1})
    assert (await camera.photo("Ann", b"not a photo"))["text"] == (
        "The tablet could not open that photo: try again."
    )
    reply = await camera.photo("Ann", png(sure.image))
    assert (
        reply["text"] == f"{len(sure.faces)} dice seen, the roll asks for 1. Take the photo again."
    )
    assert camera.photo_from == "" and session.request is not None


def test_only_a_plain_d6_is_read():
    assert plain_d6("d6") and plain_d6("d3")
    assert not plain_d6("hex_d6") and not plain_d6("d8") and not plain_d6("skill_d10")


async def test_a_die_the_table_corrects_makes_the_camera_ask_about_such_dice(session, hub):
    """The table taps a die the camera read by itself and gives it another face, then takes
    the roll: from then on, on this tablet, the camera leaves any die it is no surer of
    than that one to the table, and says why (companion/table/dice_tally.py)."""
    frame = sure_frame()
    camera = hub.camera
    dice = camera.reader.read(frame.image)
    least = min(range(len(dice)), key=lambda i: dice[i].confidence)
    misread = dice[least].face % 6 + 1  # "the die shows another face"

    session.do("roll", {"count": len(dice)})
    camera.show(frame.image, dice)
    camera.take()  # taken without a look (held still, a phone's photo): teaches nothing
    await until(lambda: session.request is None)
    assert camera.care() is None
    assert not (Path(os.environ["COMPANION_HOME"]) / "camera-dice.json").exists()

    session.do("roll", {"count": len(dice)})
    camera.show(frame.image, dice)
    camera.fix(least, misread)
    assert camera.take(looked=True).startswith("Taken: ")
    await until(lambda: session.request is None)
    assert session.state.last_roll[least] == misread

    camera.clear()  # the dice thrown again, and landing the same: the least sure is asked about
    camera.show(frame.image, dice)
    assert camera.faces()[least] is None
    assert all(  # only the dice it reads as that face, and no surer of it
        (f is None) == (d.face == dice[least].face and d.confidence <= dice[least].confidence)
        for f, d in zip(camera.faces(), dice, strict=True)
    )
    care = camera.care()
    assert care == (
        f"The camera misread 1 of the {len(dice)} dice it read by itself on this table, so it "
        f"now asks you about more of the dice it reads as {dice[least].face}."
    )
    # another start of the app on this tablet remembers it
    again = DiceHub()
    again.camera.reader = camera.reader
    again.camera.show(frame.image, dice)
    assert again.camera.faces() == camera.faces() and again.camera.care() == care


async def test_a_looked_at_roll_is_kept_as_a_photo_only_with_the_groups_leave(session, hub):
    """With Keep photos on, a roll the table looked at and took is kept with the faces it
    took (a die it set by hand with that face); off, or taken without a look, none is
    (companion/table/dice_photos.py)."""
    frame = sure_frame()
    camera = hub.camera
    dice = camera.reader.read(frame.image)
    kept = camera.photos

    async def roll(looked: bool, fix: int | None = None) -> None:
        session.do("roll", {"count": len(dice)})
        camera.show(frame.image, dice)
        if fix is not None:
            camera.fix(0, fix)
        camera.take(looked=looked)
        await until(lambda: session.request is None)

    await roll(looked=True)  # the setting is off
    camera.keep_photos = True
    await roll(looked=False)  # held still, or a phone's photo answered at once
    assert kept.rows() == []
    other = dice[0].face % 6 + 1
    await roll(looked=True, fix=other)
    [row] = kept.rows()
    assert row["dice"] == [
        {"box": list(d.box), "face": other if i == 0 else d.face} for i, d in enumerate(dice)
    ]
    assert row["model"] == camera.reader.signature
    photo = cv2.imread(str(kept.folder / row["image"]))
    assert photo.shape == frame.image.shape  # the frame the dice were read from, whole
    n = len(dice)
    assert camera.photos_words().startswith(f"1 photo of your rolls ({n} dice, ")
    assert str(kept.folder) in camera.photos_words()
