"""Frames from a video, a folder and a (fake) camera, scanned off the calling thread."""

from __future__ import annotations

import threading
import time
import weakref
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.decode import DEFAULT_STAGES, Cascade, Found, Stage, gray, opencv, pyzbar, zxing
from vision.frames import CameraSource, ImageSource, SourceError, VideoSource, open_source
from vision.scanner import Scanner
from vision.synthetic import make_frame, table_image
from vision.tracker import GONE, SEEN, Tracker


def card_then_gap_then_card():
    card = make_frame("nominal", 11)
    empty = table_image(np.random.default_rng(5))
    return card, [card.image] * 6 + [empty] * 10 + [card.image] * 6


def test_video_file_is_scanned_in_order_and_a_card_is_seen_again(tmp_path):
    card, frames = card_then_gap_then_card()
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 15, (1280, 720))
    for f in frames:
        writer.write(f)
    writer.release()
    threads = []
    scanner = Scanner(
        VideoSource(path),
        on_sighting=lambda s: threads.append(threading.current_thread()),
        tracker=Tracker(forget=5),
    )
    scanner.start()
    assert scanner.wait(60)
    changes = []
    while not scanner.sightings.empty():
        s = scanner.sightings.get()
        changes.append((s.change, s.reading.card_id))
    assert changes == [(SEEN, card.cards[0]), (GONE, card.cards[0]), (SEEN, card.cards[0])]
    assert scanner.stats.frames == len(frames)
    assert threads and all(t is not threading.main_thread() for t in threads)


def test_image_folder_in_name_order_skipping_unreadable_files(tmp_path):
    card, frames = card_then_gap_then_card()
    for i, f in enumerate(frames):
        cv2.imwrite(str(tmp_path / f"{i:03}.jpg"), f)
    (tmp_path / "005.5.png").write_text("not an image")
    source = open_source(str(tmp_path))
    assert isinstance(source, ImageSource)
    scanner = Scanner(source, tracker=Tracker(forget=5))
    scanner.start()
    assert scanner.wait(60)
    assert [s.change for s in list(scanner.sightings.queue)] == [SEEN, GONE, SEEN]
    assert source.skipped == [tmp_path / "005.5.png"]


def test_missing_sources_are_explained():
    with pytest.raises(SourceError, match="no video file"):
        VideoSource("/nonexistent/table.mp4")
    with pytest.raises(SourceError, match="no file or folder"):
        ImageSource(["/nonexistent/photos"])


class FakeCamera:
    """The outside world: a camera that sends `frames` over and over, then maybe fails."""

    def __init__(self, frames, opened=True, fail_after=None, fps=60):
        self.frames, self.opened, self.fail_after, self.fps = frames, opened, fail_after, fps
        self.sent = 0
        self.released = False
        self.settings = {}

    def isOpened(self):  # noqa: N802 - cv2.VideoCapture's name
        return self.opened

    def set(self, prop, value):
        self.settings[prop] = value
        return True

    def read(self):
        time.sleep(1 / self.fps)
        if self.fail_after is not None and self.sent >= self.fail_after:
            return False, None
        frame = self.frames[self.sent % len(self.frames)]
        self.sent += 1
        return True, frame

    def release(self):
        self.released = True


def test_a_camera_that_will_not_open_is_explained():
    cam = FakeCamera([], opened=False)
    with pytest.raises(SourceError, match="camera 2 could not be opened"):
        CameraSource(2, capture=lambda i: cam)
    assert cam.released


def test_live_camera_decodes_the_newest_frame_and_stops_cleanly():
    card = make_frame("nominal", 3)
    cam = FakeCamera([card.image], fps=200)
    source = CameraSource(0, capture=lambda i: cam)
    assert cam.settings[cv2.CAP_PROP_FRAME_WIDTH] == 1280
    seen = threading.Event()
    scanner = Scanner(source, on_sighting=lambda s: seen.set())
    cv2.setNumThreads(4)
    scanner.start()
    assert seen.wait(20)
    assert scanner.latest is not None
    assert cv2.getNumThreads() == 1  # no OpenCV worker per core beside the decoding thread
    scanner.stop()
    assert not scanner.running and cam.released
    (sighting,) = list(scanner.sightings.queue)
    assert sighting.reading.card_id == card.cards[0]
    assert scanner.stats.frames <= cam.sent  # frames it could not keep up with were dropped


def test_an_unplugged_camera_stops_the_scanner_with_a_message():
    cam = FakeCamera([table_image(np.random.default_rng(1))], fail_after=3, fps=500)
    errors = []
    scanner = Scanner(CameraSource(0, capture=lambda i: cam), on_error=errors.append)
    scanner.start()
    assert scanner.wait(20)
    assert errors and "stopped sending pictures" in errors[0]
    assert scanner.error == errors[0]


def test_dropped_camera_frames_are_not_counted_as_the_card_leaving():
    card = make_frame("nominal", 8)
    scanner = Scanner(ImageSource([]), tracker=Tracker(forget=2))
    dropped = np.empty((0, 0, 3), np.uint8)
    changes = []
    for frame in [card.image] * 3 + [dropped] * 5 + [card.image]:
        changes += [s.change for s in scanner.process(frame)]
    assert changes == [SEEN]
    assert scanner.stats.frames == 4
    assert [f.reading.card_id for f in scanner.last_found] == card.cards


PHOTOS = Path(__file__).parent / "photos" / "zxing"


def test_frames_that_raise_are_counted_and_logged_and_scanning_goes_on(tmp_path, caplog):
    """zxing's photograph qrcode-2/31 holds Shift JIS text, on which OpenCV's binding
    raises UnicodeDecodeError; the others are frames no decoder can take."""
    photo = cv2.imread(str(PHOTOS / "qrcode-2" / "31.webp"))
    assert photo is not None
    expected = (PHOTOS / "qrcode-2" / "31.txt").read_bytes().decode("utf-8")
    card = make_frame("nominal", 8)
    bad = [  # every shape and type is read now (tests/vision/test_pixels.py): a stage raises
        np.zeros((720, 1280), np.float64),
        np.zeros((40, 40, 2), np.uint8),
        np.zeros((720, 1280, 3), np.int16),
    ]

    def raises_on_black(image: np.ndarray) -> list[Found]:
        if not image.any():
            raise MemoryError("a stage that ran out of memory")
        return []

    decoder = Cascade([*DEFAULT_STAGES, Stage("black", raises_on_black)])
    scanner = Scanner(
        ImageSource([]),
        decoder=decoder,
        tracker=Tracker(confirm=1, window=1),
        error_dir=tmp_path,
    )
    with caplog.at_level("WARNING", logger="vision.scanner"):
        for frame in bad:
            assert scanner.process(frame) == []
    assert scanner.stats.errors == len(bad)
    assert len(list(tmp_path.glob("failed-*.png"))) >= 1  # the ones PNG can hold
    assert "raised while decoding" in caplog.text
    (seen,) = scanner.process(card.image)  # and the next frame is read as ever
    assert seen.reading.card_id == card.cards[0]
    assert expected in [f.text for f in zxing(gray(photo))]  # zxing reads it...
    assert opencv(gray(photo)) == []  # ...OpenCV raised inside and said nothing
    scanner.process(photo)
    assert expected in [f.text for f in scanner.last_found]


def test_the_cascade_reads_the_shift_jis_photograph_with_every_stage():
    photo = gray(cv2.imread(str(PHOTOS / "qrcode-2" / "31.webp")))
    cascade = Cascade([Stage("opencv", opencv), Stage("pyzbar", pyzbar)])
    found = cascade(photo)
    assert cascade.errors == 0  # OpenCV's failure is its own, caught where it happens
    assert [f.stage for f in found] == ["pyzbar"]


def test_a_dying_decoder_thread_is_not_possible(tmp_path):
    """A listener that raises (the app's callback) does not end the live decoding."""
    card = make_frame("nominal", 3)
    cam = FakeCamera([card.image], fps=200)
    calls = []

    def listener(sighting):
        calls.append(sighting)
        raise RuntimeError("the app's handler broke")

    scanner = Scanner(
        CameraSource(0, capture=lambda i: cam),
        on_sighting=listener,
        tracker=Tracker(confirm=1, window=1, forget=1),
        error_dir=tmp_path,
    )
    scanner.start()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and scanner.stats.frames < 5:
        time.sleep(0.05)
    assert scanner.running and scanner.stats.frames >= 5
    scanner.stop()
    assert calls and scanner.stats.errors >= 1


def test_the_cards_panel_imports_opencv_only_when_the_camera_opens(tmp_path):
    """OpenCV, numpy and zxing-cpp cost about 27 MB resident (benchmarks/bench_memory.py):
    a table with the camera off (Settings) opens the Cards panel without paying for them."""
    from tests.fresh import last_line

    code = (
        "import sys, companion.ui.panels.scanner, vision.frames\n"
        "print(sorted(m for m in ('cv2', 'numpy', 'zxingcpp') if m in sys.modules))"
    )
    assert last_line(code, tmp_path) == "[]"


@pytest.mark.skipif(not Path("/proc/self/smaps_rollup").exists(), reason="Linux only")
def test_on_linux_the_allocator_takes_the_fixed_mmap_threshold():
    """glibc's mallopt accepts the setting (benchmarks/bench_memory.py measures what it
    saves with the preview running); elsewhere it is a no-op that says so."""
    from vision.scanner import fixed_mmap_threshold

    assert fixed_mmap_threshold() is True


def _resident_mb() -> float:
    for line in Path("/proc/self/smaps_rollup").read_text().splitlines():
        if line.startswith("Rss:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no Rss line")


@pytest.mark.skipif(not Path("/proc/self/smaps_rollup").exists(), reason="Linux only")
def test_a_running_camera_hands_freed_memory_back_while_it_runs():
    """Memory freed in holes of malloc's heap (as the renderer and the decoders leave it,
    frame after frame) goes back to the system within seconds while the camera runs,
    not only when it stops: 80 MB of 64 KB blocks are allocated and every other one
    freed (the ones kept pin the holes, so free() alone cannot shrink the heap), and the
    process's resident memory drops by most of the 40 MB freed."""
    import ctypes

    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    libc.memset.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t]
    blank = np.full((720, 1280, 3), 200, np.uint8)
    scanner = Scanner(CameraSource(0, capture=lambda _i: FakeCamera([blank], fps=30)))
    scanner.start()
    blocks = []
    try:
        while scanner.stats.frames < 3 and scanner.running:
            time.sleep(0.05)
        for _ in range(1280):  # touched, so every page is resident
            block = libc.malloc(64 * 1024)
            libc.memset(block, 1, 64 * 1024)
            blocks.append(block)
        allocated = _resident_mb()
        for block in blocks[::2]:
            libc.free(block)
        deadline = time.monotonic() + 10
        while _resident_mb() > allocated - 30 and time.monotonic() < deadline:
            time.sleep(0.1)
        dropped = allocated - _resident_mb()
        assert scanner.running, scanner.error
    finally:
        scanner.stop()
        for block in blocks[1::2]:
            libc.free(block)
    assert dropped >= 30, f"resident memory fell by {dropped:.1f} MB of the 40 MB freed"


class FreshFrames(FakeCamera):
    """A camera handing out a new buffer each frame, as a capture device does; frame `i`
    is all grey level i + 1, so the decoder can tell which one it was given."""

    def __init__(self) -> None:
        super().__init__([], fps=100)
        self.made: list = []  # a weak reference to each frame sent

    def read(self):
        time.sleep(1 / self.fps)
        frame = np.full((720, 1280, 3), len(self.made) % 250 + 1, np.uint8)
        self.made.append(weakref.ref(frame))
        self.sent += 1
        return True, frame


def test_a_camera_frame_replaced_while_it_is_decoded_is_let_go():
    """The decoding thread keeps only the grey frame it decodes: the camera's frame, once
    the grabbing thread has newer ones, is freed while the decoding runs on (2.7 MB at
    720p that it held until the decoding ended; benchmarks/bench_memory.py, issue 26)."""
    cam = FreshFrames()
    decoding, done = threading.Event(), threading.Event()
    given: list[int] = []

    def slow_decoder(image: np.ndarray) -> list[Found]:  # still busy with its first frame
        given.append(int(image[0, 0]) - 1)
        decoding.set()
        done.wait(20)
        return []

    scanner = Scanner(CameraSource(0, capture=lambda _i: cam), decoder=slow_decoder)
    scanner.start()
    try:
        assert decoding.wait(20)
        first = given[0]
        deadline = time.monotonic() + 20
        while cam.sent < first + 4 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert cam.sent >= first + 4 and len(given) == 1  # newer frames, the first decoding
        assert cam.made[first]() is None  # the frame being decoded is gone
        assert scanner.latest is not None  # the newest, for the preview
    finally:
        done.set()
        scanner.stop()
