"""The three games played from phones as a table gets them: `companion host` on the
tablet's LAN address (inside the test's own network namespaces, tests/browser/lan.py),
HTTPS with the certificate the tablet made, phones that trusted it once through their
certificate store, the join QR code's link, and the live (fake) camera reading cards."""

from __future__ import annotations

import itertools
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.core.session import Session
from tests.browser.harness import Phone, card_video
from tests.browser.lan import PHONES, TABLET, Lan, Tablet, companion, namespaces_work, trusting_home

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "phones"
_n = itertools.count()


@pytest.fixture
def lan() -> Iterator[Lan]:
    why = namespaces_work()
    if why:
        pytest.skip(f"no network namespaces here ({why}): the LAN tests need them")
    with Lan() as made:
        made.enter()  # this test's thread (and the browsers it starts) on the phones' side
        yield made


class Table:
    """A game on the tablet, served by `companion host` in the tablet's namespace."""

    def __init__(self, lan: Lan, tmp: Path, game: str) -> None:
        self.tmp, self.home, self.game = tmp, tmp / "data", game
        companion("new", game, "--name", game, home=self.home)
        self.tablet = Tablet(lan, self.home, game)
        self.phones: list[Phone] = []

    def phone(self, name: str, video: Path | None = None, trusted: bool = True) -> Phone:
        n = next(_n)
        home = self.tmp / f"phone-home-{n}"
        home.mkdir()
        if trusted:
            trusting_home(home, Path(self.tablet.info["certificate"]))
        phone = Phone(self.tmp / f"profile-{n}", video, home=home)
        self.phones.append(phone)
        if trusted:
            phone.open(self.tablet.url)  # the QR code's link: the door, then the game
            on_game = "return location.protocol === 'https:' && !!document.getElementById('join')"
            phone.until(lambda: phone.js(on_game), what="the game page after the door")
            phone.join_as(name)
        return phone

    def history(self) -> list[Any]:
        with Session.open(self.home / "sessions" / f"{self.game}.session") as session:
            return [row for tx in session.history() for row in tx]

    def close(self) -> None:
        for phone in self.phones:
            phone.close()
        self.tablet.stop()


@pytest.fixture
def table(lan, tmp_path) -> Iterator[Any]:
    made: list[Table] = []

    def open_table(game: str) -> Table:
        made.append(Table(lan, tmp_path, game))
        return made[-1]

    yield open_table
    for t in made:
        t.close()


def secure_on_the_lan(phone: Phone) -> None:
    """The page came over HTTPS from the tablet's LAN address and is a secure context."""
    where = phone.js("return [location.protocol, location.hostname, window.isSecureContext]")
    assert where == ["https:", TABLET, True]


def screenshots(phone: Phone, game: str, what: str) -> None:
    """The page in light and in dark, for looking at (artifacts/phones/<game>/)."""
    folder = SHOTS / game
    folder.mkdir(parents=True, exist_ok=True)
    for theme in ("light", "dark"):
        phone.js(
            "localStorage.setItem('tc-theme', arguments[0]);"
            "document.documentElement.dataset.theme = arguments[0];",
            theme,
        )
        phone.driver.save_screenshot(str(folder / f"{what}-{theme}.png"))
    phone.js("localStorage.removeItem('tc-theme'); delete document.documentElement.dataset.theme;")


def scan_answers_the_draw(table: Table, phone: Phone, card: str, name: str) -> None:
    phone.until(lambda: phone.text("waiting-who").startswith("Draw:"), what="the draw")
    phone.tap("#scan-start")  # the live camera: only a secure page gets it
    phone.until(lambda: name in phone.text("message"), seconds=30, what=f"{name} taken")
    phone.js("tcPhone.stopCamera()")
    phone.until(lambda: "Card read" not in phone.text("scan-state"), what="the read cleared")
    answered = [r for r in table.history() if r.type == "RequestAnswered"]
    assert [r.data["values"] for r in answered] == [card]
    assert "/" not in phone.text("message")  # names, never ids


def test_the_wire_is_settled_when_the_phones_start(lan):
    """Nothing on the phones' side changes after the wire is up: a late address (IPv6's
    link-local one settling a second on) makes a Chromium started meanwhile drop its page
    with ERR_NETWORK_CHANGED, as a CI run once saw."""

    def addresses() -> str:
        shown = ["ip", "-n", lan.phones_ns, "-o", "addr"]
        return subprocess.run(shown, capture_output=True, text=True, check=True).stdout

    first = addresses()
    time.sleep(2.5)  # longer than IPv6's duplicate-address check
    assert addresses() == first
    assert PHONES in first and "inet6" not in first


def test_kradia_from_a_phone_on_the_lan_with_the_live_camera(table, tmp_path):
    t = table("kradia")
    card = "kradia/battlefield-card/sun"
    phone = t.phone("Ann", card_video(tmp_path / "sun.y4m", card))
    secure_on_the_lan(phone)
    assert phone.text("hero-name") == "Oakla"  # the phone's own hero first
    screenshots(phone, "kradia", "start")
    phone.tap("#actions button.primary")  # Start round 1
    phone.until(lambda: "Start round 1" in phone.text("message"), what="the echo")
    scan_answers_the_draw(t, phone, card, "Sun")
    phone.until(lambda: "Sun" in phone.text("result"), what="the result card")
    screenshots(phone, "kradia", "after-scan")


def test_direwild_from_a_phone_on_the_lan_with_the_live_camera(table, tmp_path):
    t = table("direwild")
    card = "direwild/minion/gryk"
    phone = t.phone("Ben", card_video(tmp_path / "gryk.y4m", card))
    secure_on_the_lan(phone)
    phone.tap("#actions button.primary")  # Start round
    scan_answers_the_draw(t, phone, card, "Gryk")
    screenshots(phone, "direwild", "after-scan")
    # the next draw is a level 2 minion: Gryk, still in view, is refused by name
    phone.until(lambda: "blue" in phone.text("waiting-why"), what="the next draw")
    phone.tap("#scan-start")
    phone.until(lambda: "cannot be drawn" in phone.text("message"), seconds=30, what="refusal")
    phone.js("tcPhone.stopCamera()")
    assert "Gryk" in phone.text("message") and "/" not in phone.text("message")


def test_hexplore_from_a_phone_on_the_lan_hero_first_grouped_echoed(table, tmp_path):
    t = table("hexplore")
    fox = "hexplore/opponent/giant-fox"
    phone = t.phone("Cleo", card_video(tmp_path / "fox.y4m", fox))
    secure_on_the_lan(phone)
    phone.js("document.getElementById('hero-pick').value = 'verdant-keeper';"
             "document.getElementById('hero-pick').dispatchEvent(new Event('change'));")  # fmt: skip
    assert phone.text("hero-name") == "Verdant Keeper (Wood Elf)"
    groups = phone.js(
        "return [...document.querySelectorAll('#actions details')]"
        ".map(d => [d.querySelector('summary').firstChild.textContent, d.open])"
    )
    assert groups[0] == ["Verdant Keeper (Wood Elf)", True]  # my hero's actions first, open
    assert ["Stormcaller (Sprite)", False] in groups and ["Any time", False] in groups
    # the whole page fits a few screens, and Undo is on the first
    screenshots(phone, "hexplore", "start")
    assert phone.js("return document.documentElement.scrollHeight") < 3 * 780
    assert phone.js("return document.getElementById('undo').getBoundingClientRect().bottom") <= 780
    screenshots(phone, "hexplore", "start")
    phone.tap("#next button.primary")  # Roll skills for Stormcaller (the rules' next step)
    phone.until(lambda: phone.text("waiting-who") == "Roll skill d10", what="the skill roll")
    why = phone.text("waiting-why")
    phone.tap('#keypad button[data-value="7"]')
    echo = f"You rolled 7 for {why.replace(': ', ', ', 1)}"
    phone.until(lambda: phone.text("message").startswith(echo), what="the echo")
    screenshots(phone, "hexplore", "roll")
    # the camera reads an opponent card while a roll waits: refused, in names
    phone.until(lambda: "navigate" not in phone.text("waiting-why"), what="the next roll")
    phone.tap("#scan-start")
    phone.until(lambda: "not a card" in phone.text("message"), seconds=30, what="the refusal")
    phone.js("tcPhone.stopCamera()")
    assert "/" not in phone.text("message")


def test_a_new_phone_is_walked_through_trusting_the_table(table):
    t = table("kradia")
    phone = t.phone("Dee", trusted=False)  # no certificate installed yet
    phone.open(t.tablet.url)
    phone.until(lambda: phone.js("return !document.getElementById('steps').hidden"), what="steps")
    words = phone.text("steps")
    assert "Get the certificate" in words and "Advanced" in words
    assert phone.text("fingerprint") == t.tablet.info["fingerprint"]  # as the tablet shows it
    assert "#t=" not in phone.js("return location.href")  # the pass is not left in the bar
    assert phone.js("return document.getElementById('open').href") == t.tablet.page
    folder = SHOTS / "door"
    folder.mkdir(parents=True, exist_ok=True)
    phone.driver.save_screenshot(str(folder / "steps.png"))
    cert = urllib.request.build_opener(urllib.request.ProxyHandler({})).open(
        f"http://{TABLET}:{t.tablet.info['door_port']}/table-companion.crt", timeout=10
    )
    assert cert.headers["Content-Type"] == "application/x-x509-ca-cert"
    assert cert.read()[:1] == b"\x30"  # DER, as Android and iOS install it


def test_the_tablet_restarts_and_the_phones_come_back_by_themselves(table):
    t = table("kradia")
    ann, ben = t.phone("Ann"), t.phone("Ben")
    ben.js("document.getElementById('hero-pick').value = 'warden';"
           "document.getElementById('hero-pick').dispatchEvent(new Event('change'));")  # fmt: skip
    t.tablet.stop(signal.SIGKILL)  # a crash or a flat battery
    ann.until(lambda: ann.text("link").startswith("reconnecting"), what="the tablet gone")
    ann.tap("#actions button.primary")  # Start round 1, tapped while the tablet is away
    assert ann.js("return tcPhone.outbox.length") == 1
    t.tablet.start()  # opened again: same address, port and certificate
    for phone in (ann, ben):
        phone.until(lambda p=phone: p.text("link") == "joined", seconds=30, what="back")
        assert "another table" not in phone.text("message")
    ann.until(lambda: ann.js("return tcPhone.outbox.length") == 0, what="the tap sent")
    ben.until(lambda: ben.text("waiting-who").startswith("Draw:"), what="the draw on Ben's")
    assert [p.text("link") for p in (ann, ben)] == ["joined", "joined"]
    assert ann.js("return localStorage.getItem('tc-name')") == "Ann"
    assert ben.text("hero-name") == "Warden"
    t.tablet.restart(signal.SIGKILL)  # and again: nothing is sent twice
    ann.until(lambda: ann.text("link") == "joined", seconds=30, what="back again")
    started = [r for r in t.history() if r.type == "RequestOpened"]
    assert len(started) == 1  # the round began once: one Battlefield draw


def test_a_change_from_a_second_process_reaches_every_phone(table):
    t = table("kradia")
    ann, ben = t.phone("Ann"), t.phone("Ben")
    companion("do", "kradia", "start_round", home=t.home)  # beside the tablet, another program
    for phone in (ann, ben):
        phone.until(lambda p=phone: p.text("waiting-who").startswith("Draw:"), what="the draw")
    companion("undo", "kradia", home=t.home)
    for phone in (ann, ben):  # and the undo is said in words, with names
        phone.until(lambda p=phone: "took back" in p.text("notice"), seconds=10, what="notice")
        assert "/" not in phone.text("notice")
        assert phone.js("return document.getElementById('waiting').hidden")
    screenshots(ann, "kradia", "undone-beside")


def test_an_answer_to_a_roll_undone_beside_the_tablet_is_refused_not_misdirected(table):
    t = table("hexplore")
    phone = t.phone("Cleo")
    phone.tap("#next button.primary")  # Roll skills for Stormcaller: navigate, explore, survival
    for _ in range(2):
        phone.until(lambda: phone.text("waiting-who") == "Roll skill d10", what="a skill roll")
        shown = phone.text("waiting-why")
        phone.tap('#keypad button[data-value="5"]')
        phone.until(lambda s=shown: phone.text("waiting-why") != s, what="the next roll")
    assert "survival" in phone.text("waiting-why")
    phone.js("tcPhone.pause()")  # the phone looks away: still showing the Survival roll
    companion("undo", "hexplore", home=t.home)  # the explore roll taken back beside the tablet
    phone.tap('#keypad button[data-value="4"]')  # 4 for Survival, on the keypad it shows
    phone.js("tcPhone.resume()")
    phone.until(lambda: "moved on" in phone.text("message"), what="the refusal in words")
    assert "/" not in phone.text("message")
    answered = [r.data["values"] for r in t.history() if r.type == "RequestAnswered"]
    assert [4] not in answered  # nowhere: not for Explore, not for anything
    phone.until(lambda: "explore" in phone.text("waiting-why"), what="the explore roll again")


def test_a_double_tap_answers_one_roll_only(table):
    """The next skill roll's keypad looks the same as the last; taps 40, 150 and 400 ms
    after the first (a double tap, a nervous thumb) answer nothing more."""
    t = table("hexplore")
    phone = t.phone("Cleo")
    phone.tap("#next button.primary")  # Roll skills for Stormcaller: three d10 rolls in a row
    phone.until(lambda: phone.text("waiting-who") == "Roll skill d10", what="the first roll")
    first = phone.text("waiting-why")
    phone.tap('#keypad button[data-value="6"]')
    phone.js(
        "const key = () => document.querySelector('#keypad button[data-value=\"6\"]');"
        "for (const ms of [40, 150, 400]) setTimeout(() => key().click(), ms);"
    )
    phone.until(lambda: phone.text("waiting-why") not in ("", first), what="the next roll")
    phone.until(lambda: phone.js("return performance.now()") > 0 and not phone.js(
        "return document.querySelector('#keypad button').disabled"), what="the keys armed")  # fmt: skip
    answered = [r.data["values"] for r in t.history() if r.type == "RequestAnswered"]
    assert answered == [[6]]
    assert "explore" in phone.text("waiting-why")  # the next roll still waits for its own tap
    assert phone.text("message").startswith("You rolled 6 for Stormcaller (Sprite), navigate")
