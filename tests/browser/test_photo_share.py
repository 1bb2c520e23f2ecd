"""A computer's browser carries the kept dice photos off the tablet (issue 28): Debian's
Chromium, which does not know the table's certificate, is taken past its warning as a
person would (Advanced, then Proceed), is asked the pass and types it, reads the page and downloads the zip, whose photos
are the tablet's, byte for byte; then sends the tablet a trained model's files from the
page's form, which the tablet reads with from then on."""

from __future__ import annotations

import asyncio
import threading
import time
import zipfile

import numpy as np
import pytest

from companion.host.photo_share import PhotoShare
from companion.host.tls import table_certificate
from companion.table.dice_model import ModelChoice
from companion.table.dice_photos import DicePhotos
from tests.browser.harness import Phone
from vision.dice.reader import MODELS


@pytest.fixture
def share(tmp_path):
    photos = DicePhotos(tmp_path / "dice-photos")
    for face in (2, 6):
        photos.keep(np.full((480, 640, 3), 40 * face, np.uint8), [((9, 9, 60, 60), face)], "m")
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    certificate = table_certificate("127.0.0.1", tmp_path / "tls")
    model = ModelChoice(lambda: tmp_path / "home")
    shared = PhotoShare(photos, "127.0.0.1", certificate, model=model)
    asyncio.run_coroutine_threadsafe(shared.start(), loop).result(timeout=20)
    yield shared
    asyncio.run_coroutine_threadsafe(shared.stop(), loop).result(timeout=20)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(timeout=10)


def test_a_computer_goes_past_the_warning_and_downloads_the_photos(share, tmp_path):
    computer = Phone(tmp_path / "profile", width=1000)
    downloads = tmp_path / "Downloads"
    downloads.mkdir()
    try:
        computer.driver.execute_cdp_cmd(
            "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)}
        )
        computer.open(share.site)  # the address Settings show, typed
        # Chromium's own warning page: a stranger's certificate; Advanced, then Proceed
        warned = "return !!document.getElementById('details-button')"
        computer.until(lambda: computer.js(warned), what="the certificate warning")
        computer.js("document.getElementById('details-button').click()")
        computer.js("document.getElementById('proceed-link').click()")
        asked = "return !!document.getElementById('pass')"
        computer.until(lambda: computer.js(asked), what="the pass asked")
        computer.driver.find_element("id", "pass").send_keys(share.secret.lower())
        computer.js("document.getElementById('open').click()")
        computer.until(lambda: computer.js("return !!document.getElementById('what')"), what="page")
        assert computer.text("what").startswith("2 photos of this table's rolls (2 dice,")
        computer.js("document.getElementById('download').click()")
        zipped = downloads / "dice-photos.zip"
        end = time.monotonic() + 20
        while not zipped.exists() and time.monotonic() < end:
            time.sleep(0.1)
        with zipfile.ZipFile(zipped) as z:
            for row in share.photos.rows():
                on_tablet = (share.photos.folder / row["image"]).read_bytes()
                assert z.read(f"dice-photos/{row['image']}") == on_tablet
        # the model trained on them, sent back from the same page
        trained = sorted(str(f) for f in MODELS.iterdir() if f.suffix in (".onnx", ".json"))
        computer.driver.find_element("id", "files").send_keys("\n".join(trained))
        computer.js("document.getElementById('go').click()")
        computer.until(lambda: computer.js("return !!document.getElementById('said')"), what="said")
        assert computer.text("said").startswith("The tablet has your model (4 files).")
        assert share.model.has_own()
        share.model.reader()
        assert share.model.loaded == "own"
    finally:
        computer.close()
