"""The kept dice photos carried off the tablet (companion/host/photo_share.py), over real
HTTPS on loopback with the table's own certificate: the link's pass opens a page and the
zip, whose photos import as the tablet's folder does; a wrong pass, a spent link or a
stopped share lets nothing out, in words; the share speaks only TLS, on the LAN only.  And
a model trained on them comes back the same way: put in place only whole and only when it
loads, the tablet's model unchanged otherwise."""

from __future__ import annotations

import io
import re
import ssl
import zipfile

import aiohttp
import numpy as np
import pytest

from companion.host.photo_share import PhotoShare
from companion.host.tls import table_certificate
from companion.table.dice_model import ModelChoice
from companion.table.dice_photos import DicePhotos
from tests.host.tablegame import Clock
from vision.dice.reader import MODELS


def kept_photos(folder) -> DicePhotos:
    kept = DicePhotos(folder)
    for face in (1, 4, 6):
        image = np.full((60, 80, 3), 40 * face, np.uint8)
        kept.keep(image, [((5, 5, 25, 25), face), ((40, 20, 60, 40), 7 - face)], "m")
    return kept


@pytest.fixture
async def shared(tmp_path):
    certificate = table_certificate("127.0.0.1", tmp_path / "tls")
    clock = Clock()
    model = ModelChoice(lambda: tmp_path / "home")
    share = PhotoShare(
        kept_photos(tmp_path / "dice-photos"), "127.0.0.1", certificate, clock=clock, model=model
    )
    await share.start()
    trust = ssl.create_default_context(cafile=str(certificate.ca_pem))
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(ssl=trust)) as client:
        yield share, client, clock
    await share.stop()


async def get(client: aiohttp.ClientSession, url: str) -> tuple[int, bytes, dict[str, str]]:
    async with client.get(url) as r:
        return r.status, await r.read(), dict(r.headers)


async def test_the_link_opens_a_page_and_the_zip_of_every_kept_photo(shared):
    share, client, _clock = shared
    assert share.url.startswith(f"https://127.0.0.1:{share.port}/?t=")
    assert re.fullmatch(r"([2-9A-HJKMNP-Z]{4}-){3}[2-9A-HJKMNP-Z]{4}", share.secret)  # typed
    assert (await get(client, share.url.lower()))[0] == 200  # as a computer's user types it
    status, page, headers = await get(client, share.url)
    text = page.decode()
    assert status == 200 and "3 photos of this table's rolls (6 dice," in text
    assert headers["Referrer-Policy"] == "same-origin" and headers["Cache-Control"] == "no-store"
    assert "import_table --photos dice-photos.zip" in text
    href = text.split("id='download' href='")[1].split("'")[0]
    status, body, headers = await get(client, f"https://127.0.0.1:{share.port}/{href}")
    assert status == 200 and headers["Content-Type"] == "application/zip"
    assert headers["Content-Disposition"] == 'attachment; filename="dice-photos.zip"'
    assert int(headers["Content-Length"]) == len(body)
    with zipfile.ZipFile(io.BytesIO(body)) as z:
        for row in share.photos.rows():
            on_tablet = (share.photos.folder / row["image"]).read_bytes()
            assert z.read(f"dice-photos/{row['image']}") == on_tablet


async def test_a_wrong_or_missing_pass_gets_words_and_no_photo(shared):
    share, client, _clock = shared
    base = f"https://127.0.0.1:{share.port}"
    assert share.site == base
    for _ in range(12):  # the address alone asks for the pass, and is no wrong guess
        status, page, _ = await get(client, base)
        assert status == 200 and b"id='pass' name='t'" in page
    for url in (f"{base}/?t=", f"{base}/?t=guess", f"{base}/dice-photos.zip?t={'x' * 5000}"):
        status, page, _ = await get(client, url)
        assert (
            status == 403 and b"This is not the pass the tablet shows for its dice photos." in page
        )
        assert b"PK" not in page
    for _ in range(10):  # past its allowance a device waits, the right pass too
        await get(client, f"{base}/dice-photos.zip?t=guess")
    status, page, _ = await get(client, share.url)
    assert status == 403 and b"Too many wrong passes from this device: wait" in page


async def test_a_spent_link_and_a_stopped_share_let_nothing_out(shared):
    share, client, clock = shared
    clock.now += share.lasts - 1
    assert (await get(client, share.url))[0] == 200
    clock.now += 1
    status, page, _ = await get(client, share.url)
    assert status == 403 and b"This pass has run out: it works for 10 minutes." in page
    await share.stop()
    with pytest.raises(aiohttp.ClientConnectionError):
        await get(client, share.url)


async def test_it_speaks_only_tls_and_only_on_the_lan(shared):
    share, _client, _clock = shared
    async with aiohttp.ClientSession() as plain:  # plain HTTP to the share's port: no page
        with pytest.raises(aiohttp.ClientError):
            await get(plain, share.url.replace("https://", "http://"))
    untrusting = aiohttp.TCPConnector(ssl=ssl.create_default_context())
    async with aiohttp.ClientSession(connector=untrusting) as stranger:
        with pytest.raises(aiohttp.ClientConnectorCertificateError):
            await get(stranger, share.url)  # a device that does not trust it sends nothing
    with pytest.raises(ValueError, match="not a local network address"):
        PhotoShare(share.photos, "8.8.8.8")


async def send(client, share: PhotoShare, files: dict[str, bytes], **kw) -> tuple[int, str]:
    form = aiohttp.FormData()
    for name, data in files.items():
        form.add_field("model", data, filename=name, content_type="application/octet-stream")
    url = f"https://127.0.0.1:{share.port}/model?t={share.secret}"
    async with client.post(url, data=form, **kw) as r:
        return r.status, await r.text()


def shipped() -> dict[str, bytes]:
    return {f.name: f.read_bytes() for f in MODELS.iterdir() if f.suffix in (".onnx", ".json")}


async def test_a_model_sent_from_the_page_becomes_the_tables_own(shared, tmp_path):
    share, client, _clock = shared
    told: list[bool] = []
    share.installed = lambda: told.append(True)
    page = (await get(client, share.url))[1].decode()
    assert f"action='model?t={share.secret}'" in page and "Send the model" in page
    status, text = await send(client, share, shipped())
    assert status == 200 and "The tablet has your model (4 files)." in text and told
    model = share.model
    assert model is not None and model.has_own()
    assert {f.name: f.read_bytes() for f in model.folder.iterdir()} == shipped()
    model.reader()
    assert model.loaded == "own" and not model.failed
    # a zip of the trained folder, as a computer makes one, does the same
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as z:
        for name, data in shipped().items():
            z.writestr(f"m11/{name}", data)
    assert (await send(client, share, {"m11.zip": packed.getvalue()}))[0] == 200


async def test_a_model_that_does_not_load_changes_nothing_and_says_why(shared):
    share, client, _clock = shared
    assert (await send(client, share, shipped()))[0] == 200
    model = share.model
    before = {f.name: f.read_bytes() for f in model.folder.iterdir()}
    damaged = {**shipped(), "dice_faces.onnx": shipped()["dice_faces.onnx"][:500]}
    status, text = await send(client, share, damaged)
    assert status == 400 and "not a model the camera can read with" in text
    assert "The tablet's model is unchanged." in text
    status, text = await send(client, share, {"notes.txt": b"hello", **shipped()})
    assert status == 400 and "notes.txt is not a dice model's file" in text
    status, text = await send(client, share, {"photo.zip": b"PK not really"})
    assert status == 400 and "photo.zip is not a zip" in text
    assert {f.name: f.read_bytes() for f in model.folder.iterdir()} == before
    assert not model.folder.with_name("dice-model.new").exists()
    # a page of another site cannot post a model with a pass it was given
    status, text = await send(client, share, shipped(), headers={"Origin": "https://evil.example"})
    assert status == 403 and "only from the tablet's own link" in text
