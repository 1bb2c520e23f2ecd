"""The phone page in a real browser: join by the link, answer a roll from the keypad, scan
a card with the phone's camera, two phones at once, a phone cut off mid-command, a phone
that comes back several revisions behind, and tokens refused."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from companion.host.tokens import Tokens
from companion.host.view import revision
from tests.browser.harness import HostThread, Phone, card_video
from tests.host.tablegame import TableTiny, new_session

pytestmark = pytest.mark.browser
SILVER = "tiny/token/silver"
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "ui"
_profiles = itertools.count()


@pytest.fixture
def phones(tmp_path):
    opened: list[Phone] = []

    def open_phone(video: Path | None = None) -> Phone:
        phone = Phone(tmp_path / f"profile-{next(_profiles)}", video)
        opened.append(phone)
        return phone

    yield open_phone
    for phone in opened:
        phone.close()


def rows(table: HostThread, kind: str) -> list:
    history = table.call(table.session.history)
    return [r for tx in history for r in tx if r.type == kind]


def joined(phone: Phone, table: HostThread, name: str = "Ann") -> Phone:
    phone.open(table.host.join_url)
    phone.join_as(name)
    return phone


def test_join_by_the_link_and_answer_a_roll_from_the_keypad(table, phones):
    phone = joined(phones(), table)
    assert phone.text("game") == "Tiny: Round 0, score 0"
    phone.tap("#actions button.primary")  # "Roll for score", the rules' next step
    phone.until(
        lambda: phone.js("return !document.getElementById('waiting').hidden"), what="the roll"
    )
    assert phone.text("waiting-who") == "Roll d6"
    assert phone.text("waiting-why") == "Player: to score"
    faces = phone.js(
        "return [...document.querySelectorAll('#keypad button')].map(b => b.textContent)"
    )
    assert faces == ["1", "2", "3", "4", "5", "6"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.driver.save_screenshot(str(SHOTS / "phone-roll-360.png"))
    phone.tap('#keypad button[data-value="5"]')
    phone.until(lambda: "Rolled 5" in phone.text("result-lines"), what="the result card")
    assert phone.text("game") == "Tiny: Round 0, score 5"
    assert phone.text("message") == "You rolled 5 for Player, to score."  # echoed
    assert rows(table, "RequestAnswered")[-1].data["by"].startswith("phone: ")
    phone.driver.save_screenshot(str(SHOTS / "phone-result-360.png"))
    phone.tap("#undo")
    phone.until(lambda: "Undone." in phone.text("message"), what="the undo")
    assert table.call(lambda: table.session.request) is not None  # back to the waiting roll


def test_a_card_shown_to_the_phones_camera_answers_the_waiting_draw(table, phones, tmp_path):
    video = card_video(tmp_path / "silver.y4m", SILVER)
    phone = joined(phones(video), table)
    table.call(lambda: table.session.do("draw"))
    phone.until(lambda: phone.text("waiting-who") == "Draw: Tokens", what="the draw")
    phone.tap("#scan-start")
    phone.until(lambda: "Silver" in phone.text("message"), seconds=30, what="the card taken")
    phone.js("tcPhone.stopCamera()")
    assert table.call(lambda: table.session.state.hand) == [SILVER]
    answered = rows(table, "RequestAnswered")
    assert len(answered) == 1 and answered[0].data["values"] == SILVER
    phone.until(lambda: "Drew" in phone.text("result-lines"), what="the result card")
    metrics = phone.js("return tcPhone.metrics")
    assert metrics["scans"][0]["shown"] >= metrics["scans"][0]["read"]


def test_two_phones_at_once_one_asks_the_other_answers(table, phones):
    ann, ben = joined(phones(), table), joined(phones(), table)
    ann.tap("#actions button.primary")
    ben.until(lambda: ben.text("waiting-who") == "Roll d6", what="the roll on the other phone")
    ben.tap('#keypad button[data-value="3"]')
    for phone in (ann, ben):
        phone.until(lambda p=phone: "Rolled 3" in p.text("result-lines"), what="result")
    assert len(table.host.phones()) == 2
    assert [r.data["values"] for r in rows(table, "RequestAnswered")] == [[3]]


def test_a_phone_cut_off_mid_command_resends_and_it_is_applied_once(table, phones):
    phone = joined(phones(), table)
    for _ in range(3):  # each time the socket drops right after the command leaves
        before = table.call(lambda: table.session.state.score)
        phone.js("document.querySelector('#actions button').click(); tcPhone.drop();")
        phone.until(lambda: phone.js("return tcPhone.outbox.length") == 0, what="the resend")
        phone.until(lambda: phone.text("link") == "joined", what="rejoined")
        assert table.call(lambda: table.session.state.score) == before + 1
    assert len(rows(table, "Added")) == 3
    held = phone.js("tcPhone.hold = true; tcPhone.send('add', {n: 1}); return tcPhone.seq")
    phone.js("tcPhone.drop(); tcPhone.hold = false;")  # never sent before the drop
    phone.until(lambda: phone.js("return tcPhone.outbox.length") == 0, what="the late send")
    assert len(rows(table, "Added")) == 4 and held == 4


def test_a_phone_several_revisions_behind_catches_up_and_a_stale_answer_is_refused(table, phones):
    phone = joined(phones(), table)
    phone.tap("#actions button.primary")
    phone.until(lambda: phone.text("waiting-who") == "Roll d6", what="the roll")
    phone.js("tcPhone.pause()")
    phone.until(lambda: phone.text("link") != "joined", what="gone")
    seen = phone.js("return tcPhone.view.rev")
    table.call(lambda: table.session.answer([2], by="tablet"))
    for _ in range(3):
        table.call(lambda: table.session.do("add", {"n": 1}))
    table.call(lambda: table.session.do("roll", {"count": 1}))
    now = table.call(lambda: revision(table.session))
    assert now >= seen + 5
    phone.tap('#keypad button[data-value="6"]')  # the old roll's keypad, tapped offline
    phone.js("tcPhone.resume()")
    phone.until(lambda: "moved on" in phone.text("message"), what="the refusal")
    assert phone.js("return tcPhone.view.rev") == now
    assert phone.text("game") == "Tiny: Round 0, score 5"
    assert table.call(lambda: table.session.state.last_roll) == [2]


def test_wrong_expired_and_revoked_tokens_are_refused(phones, tmp_path):
    clock = FakeClock()
    table = HostThread(lambda: new_session(tmp_path, TableTiny()), tokens=Tokens(clock))
    try:
        phone = phones()
        phone.open(f"http://127.0.0.1:{table.host.port}/?t=forged-token")
        assert "not for this table" in phone.text("refused")
        phone = joined(phones(), table)
        old_link = table.host.join_url
        table.call(table.host.new_link)
        late = phones()
        late.open(old_link)
        assert "replaced by a newer one" in late.text("refused")
        clock.now += 11 * 60  # the new link is older than ten minutes now
        late.open(table.host.join_url)
        assert "expired" in late.text("refused")
        phone.driver.refresh()  # a joined phone reloads with its own pass, not the old link
        phone.until(lambda: phone.text("link") == "joined", what="joined again after a reload")
        phone_id = phone.js("return tcPhone.phoneId")
        table.call(lambda: table.host.remove_phone(phone_id))
        phone.until(lambda: "took this phone out" in phone.text("message"), what="the revocation")
        assert "not let in" in phone.text("link")
        tappable = "return [...document.querySelectorAll('button')].filter(b => !b.disabled).length"
        assert phone.js(tappable) == 0  # nothing left looking tappable
        assert table.call(lambda: len(table.host.phones())) == 0
    finally:
        table.close()


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_on_plain_http_a_photo_of_the_card_answers_the_draw(table, phones, tmp_path):
    """A phone on the LAN over plain http gets no live camera (browsers keep it for secure
    pages); the page offers the camera app's photo instead, decoded the same way."""
    import cv2

    from vision.synthetic import make_frame

    photo = tmp_path / "card.jpg"
    frame = make_frame("nominal", 1, cards=[SILVER]).image
    cv2.imwrite(str(photo), cv2.resize(frame, (4000, 2250)))  # a phone camera's 9 megapixels
    phone = joined(phones(), table)
    table.call(lambda: table.session.do("draw"))
    phone.until(lambda: phone.text("waiting-who") == "Draw: Tokens", what="the draw")
    phone.js("document.getElementById('photo-label').hidden = false;"
             "document.getElementById('photo').hidden = false;")  # fmt: skip
    phone.driver.find_element("id", "photo").send_keys(str(photo))
    phone.until(lambda: "Silver" in phone.text("message"), what="the card taken")
    assert table.call(lambda: table.session.state.hand) == [SILVER]


def test_commands_left_unsent_when_the_tablet_restarted_are_sent_once_to_it_again(phones, tmp_path):
    """The table keeps each phone's handled numbers with the session, so an action made
    while the tablet was away is sent when it is back, and applied once."""
    from companion.core.session import Session

    first = HostThread(lambda: new_session(tmp_path, TableTiny()))
    phone = joined(phones(), first)
    phone.js("tcPhone.hold = true; tcPhone.send('add', {n: 1});")
    assert phone.js("return tcPhone.outbox.length") == 1
    port = first.host.port
    first.close()  # the tablet restarts, on the same port (the page's storage is per origin)
    again = HostThread(lambda: Session.open(tmp_path / "table.sqlite"), port=port)
    try:
        phone.js("tcPhone.hold = false;")
        phone.open(again.host.join_url)  # the player scans the new QR code
        phone.until(lambda: phone.text("link") == "joined", what="joined the new hosting")
        phone.until(lambda: phone.js("return tcPhone.outbox.length") == 0, what="the resend")
        phone.driver.refresh()  # and once more: nothing is sent twice
        phone.until(lambda: phone.text("link") == "joined", what="joined after a reload")
        assert again.call(lambda: again.session.state.score) == 1
        assert len(rows(again, "Added")) == 1
    finally:
        again.close()


@pytest.fixture
def dark_phone(tmp_path):
    phone = Phone(tmp_path / f"profile-{next(_profiles)}", dark=True)
    yield phone
    phone.close()


def test_a_name_is_asked_at_join_and_the_theme_follows_the_phone_or_the_toggle(table, dark_phone):
    phone = dark_phone
    phone.open(table.host.join_url)
    phone.until(lambda: phone.js("return !document.getElementById('join').hidden"), what="asked")
    assert table.call(lambda: len(table.host.phones())) == 0  # not seated before a name
    phone.join_as("Zoë")
    assert [p.name for p, _ in table.call(table.host.phones)] == ["Zoë"]
    background = "return getComputedStyle(document.documentElement).backgroundColor"
    assert phone.js(background) == "rgb(21, 23, 28)"  # the phone prefers dark
    assert phone.text("theme") == "Auto"
    phone.tap("#theme")
    assert (phone.text("theme"), phone.js(background)) == ("Light", "rgb(246, 244, 239)")
    phone.driver.refresh()  # the pick is kept
    phone.until(lambda: phone.text("link") == "joined", what="joined again")
    assert (phone.text("theme"), phone.js(background)) == ("Light", "rgb(246, 244, 239)")


def test_too_fast_commands_are_sent_again_and_each_applied_once(table, phones):
    """Past the tablet's per-phone limit the reply says retry: the page sends the same
    command again shortly, so every one is applied, none twice."""
    phone = joined(phones(), table)
    phone.js("for (let i = 0; i < 70; i++) tcPhone.send('add', {n: 1});")
    phone.until(lambda: phone.js("return tcPhone.outbox.length") == 0, seconds=30, what="all")
    assert table.call(lambda: table.session.state.score) == 70
    assert len(rows(table, "Added")) == 70
    assert phone.js("return tcPhone.metrics.retries") > 0  # the limit was met, and honoured
