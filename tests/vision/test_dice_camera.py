"""The camera as a dice source (issue 28), without a window: when dice count as still, what
the source puts on its stream, and the watcher reading a folder of photos on its thread."""

from __future__ import annotations

import asyncio
import threading

import cv2
import numpy as np
import pytest

from hardware.source import SETTLED
from vision.dice.camera import CameraDiceSource, DiceWatcher, ReaderLock, Stillness, same_dice
from vision.dice.reader import DieRead
from vision.frames import ImageSource


def die(x: int, face: int | None, y: int = 10) -> DieRead:
    return DieRead(box=(x, y, x + 40, y + 40), face=face, confidence=0.99 if face else 0.5)


def test_the_same_dice_are_as_many_in_the_same_places_with_the_same_faces():
    a = (die(10, 3), die(100, 5))
    assert same_dice(a, (die(14, 3), die(96, 5)))  # a few pixels of jitter
    assert not same_dice(a, (die(10, 3), die(100, 4)))  # a face changed
    assert same_dice(a, (die(10, 3), die(100, 4)), faces=False)
    assert not same_dice(a, (die(10, 3), die(150, 5)))  # a die moved half its size
    assert not same_dice(a, a[:1])


def test_still_after_enough_reads_and_time_and_taken_only_once_until_the_dice_change():
    still = Stillness(frames=5, seconds=1.0)
    dice = (die(10, 3), die(100, 5))
    for i in range(5):
        still.see(dice, i * 0.1)
        assert not still.still  # five reads but less than a second
    still.see(dice, 1.0)
    assert still.still and still.ready
    still.taken()
    still.see(dice, 1.2)
    assert still.still and not still.ready  # the same dice lying there: taken already
    rolled = (die(10, 6), die(100, 5))
    for i in range(6):
        still.see(rolled, 2.0 + i * 0.25)
    assert still.ready  # rolled again and still: a new roll
    still.see((), 4.0)
    assert not still.still  # no dice is never a roll


async def test_taking_the_dice_puts_one_settled_event_each_on_the_stream():
    source = CameraDiceSource()
    await source.connect()
    assert source.status == "connected" and source.info().kind == "camera"
    first = source.take([3, 5])
    second = source.take([6], by="phone photo")
    await source.disconnect()
    got = [e async for e in source.rolls()]
    assert got == [*first, *second]
    assert [(e.die_id, e.face_index, e.state, e.seq) for e in got] == [
        ("camera:1", 2, SETTLED, 1),
        ("camera:2", 4, SETTLED, 1),
        ("camera:1", 5, SETTLED, 2),
    ]
    assert [e.source for e in got] == ["camera dice", "camera dice", "phone photo"]
    with pytest.raises(ValueError):
        source.take([7])


def test_the_watcher_reads_each_photo_on_its_own_thread_and_closes_the_source(tmp_path):
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((120, 160, 3), 40 * i, np.uint8))
    reads: list[tuple[tuple[int, ...], tuple[DieRead, ...], str]] = []
    done = threading.Event()

    class Counting:
        """A reader that says one die per photo, its face the photo's grey level."""

        def read(self, image: np.ndarray) -> list[DieRead]:
            return [die(10, int(image[0, 0, 0]) // 40 + 1)]

    source = ImageSource([tmp_path])
    watcher = DiceWatcher(
        source,
        ReaderLock(lambda: Counting()),  # type: ignore[arg-type, return-value]
        on_read=lambda f, d: reads.append((f.shape, d, threading.current_thread().name)),
        on_error=lambda words: reads.append(((), (), words)),
        every=0.0,
    )
    closed = source.close
    source.close = lambda: (closed(), done.set())  # type: ignore[method-assign]
    watcher.start()
    assert done.wait(10)
    assert [d[0].face for _s, d, _t in reads] == [1, 2, 3]
    assert {t for _s, _d, t in reads} == {"dice camera"}
    assert watcher.frames == 3


def test_a_camera_that_stops_is_said_in_words():
    from vision.frames import SourceError

    class Gone:
        name, live = "camera 0", True

        def read(self) -> np.ndarray:
            raise SourceError("camera 0 stopped sending pictures (was it unplugged?)")

        def close(self) -> None:
            pass

    said: list[str] = []
    watcher = DiceWatcher(Gone(), ReaderLock(), lambda f, d: None, said.append)
    watcher.start()
    watcher.join(10)
    assert said == ["camera 0 stopped sending pictures (was it unplugged?)"]


async def test_a_stream_read_while_dice_are_taken():
    source = CameraDiceSource()
    seen = []

    async def pump() -> None:
        async for event in source.rolls():
            seen.append(event.face_index + 1)

    task = asyncio.get_running_loop().create_task(pump())
    source.take([2, 4])
    await asyncio.sleep(0)
    await source.disconnect()
    await asyncio.wait_for(task, 5)
    assert seen == [2, 4]
