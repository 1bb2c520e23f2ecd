"""Phone commands apply once, are refused in words when the game has moved on, and Undo
takes back only a phone's own last action."""

from __future__ import annotations

from companion.host.table import Table
from companion.host.view import revision, waiting_key
from tests.host.tablegame import Clock, TableTiny, new_session, tiny


def cmd(table: Table, phone, seq: int, do: str, args=None, **extra):
    message = {"seq": seq, "rev": revision(table.session), "do": do, "with": args or {}, **extra}
    return table.command(phone, message)


def rows_of(session, kind: str) -> list:
    return [r for tx in session.history() for r in tx if r.type == kind]


def test_a_resent_command_is_applied_once_and_gets_its_first_reply(tmp_path):
    with new_session(tmp_path) as session:
        table = Table(session)
        ann = table.join("ann-phone", "Ann")
        first = cmd(table, ann, 1, "add", {"n": 1})
        again = table.command(ann, {"seq": 1, "rev": 0, "do": "add", "with": {"n": 1}})
        assert first["ok"] and again["ok"] and again["again"]
        assert session.state.score == 1
        assert len(rows_of(session, "Added")) == 1


def test_a_refusal_is_remembered_too_so_a_resend_does_not_run_it_later(tmp_path):
    with new_session(tmp_path) as session:
        table = Table(session)
        ann = table.join("ann", "Ann")
        refused = cmd(table, ann, 1, "answer", {"values": [3]}, waiting="")
        assert not refused["ok"] and "Nothing is waiting" in refused["text"]
        session.do("roll", {"count": 1})
        again = cmd(table, ann, 1, "answer", {"values": [3]}, waiting=waiting_key(session))
        assert not again["ok"] and again["again"]
        assert session.request is not None  # the late resend did not answer the new roll


def test_an_answer_to_a_roll_that_was_answered_meanwhile_is_refused(tmp_path):
    with new_session(tmp_path) as session:
        table = Table(session)
        ann, ben = table.join("ann", "Ann"), table.join("ben", "Ben")
        session.do("roll", {"count": 1})
        key, rev = waiting_key(session), revision(session)
        assert cmd(table, ann, 1, "answer", {"values": [2]}, waiting=key)["ok"]
        session.do("roll", {"count": 1})  # a new roll of the same kind waits now
        late = table.command(
            ben, {"seq": 1, "rev": rev, "do": "answer", "with": {"values": [5]}, "waiting": key}
        )
        assert not late["ok"] and "moved on" in late["text"] and "to score" in late["text"]
        assert session.state.last_roll == [2] and session.request is not None


def test_a_button_the_rules_no_longer_offer_is_refused_when_the_game_moved_on(tmp_path):
    with new_session(tmp_path) as session:
        table = Table(session)
        ann = table.join("ann", "Ann")
        rev = revision(session)
        session.do("roll", {"count": 1})  # now waiting: the rules offer no buttons
        stale = table.command(ann, {"seq": 1, "rev": rev, "do": "add", "with": {"n": 1}})
        assert not stale["ok"] and "moved on" in stale["text"]
        assert session.state.score == 0


def test_a_button_still_offered_after_the_game_moved_on_still_works(tmp_path):
    with new_session(tmp_path) as session:
        table = Table(session)
        ann = table.join("ann", "Ann")
        rev = revision(session)
        session.do("add", {"n": 2})
        moved = table.command(ann, {"seq": 1, "rev": rev, "do": "add", "with": {"n": 1}})
        assert moved["ok"] and session.state.score == 3


def test_undo_takes_back_only_the_phones_own_last_action(tmp_path):
    with new_session(tmp_path) as session:
        table = Table(session)
        ann, ben = table.join("ann", "Ann"), table.join("ben", "Ben")
        assert cmd(table, ann, 1, "add", {"n": 1})["ok"]
        assert cmd(table, ben, 1, "roll", {"count": 1})["ok"]
        assert cmd(table, ben, 2, "answer", {"values": [5]}, waiting=waiting_key(session))["ok"]
        refused = cmd(table, ann, 2, "undo")
        assert not refused["ok"] and "own last action" in refused["text"]
        assert session.state.score == 6
        assert cmd(table, ben, 3, "undo")["ok"] and session.request is not None
        assert cmd(table, ben, 4, "undo")["ok"] and session.state.score == 1
        assert cmd(table, ann, 3, "undo")["ok"] and session.state.score == 0


def test_a_phone_sending_too_fast_is_slowed_and_loses_nothing(tmp_path):
    clock = Clock()
    with new_session(tmp_path) as session:
        table = Table(session, clock=clock, rate=2, burst=3)
        ann = table.join("ann", "Ann")
        replies = [cmd(table, ann, n, "add", {"n": 1}) for n in (1, 2, 3, 4)]
        assert [r["ok"] for r in replies] == [True, True, True, False]
        assert replies[3]["retry"] and "Too fast" in replies[3]["text"]
        clock.now += 1
        assert cmd(table, ann, 4, "add", {"n": 1})["ok"]  # the same number, now taken
        assert session.state.score == 4


def test_a_scanned_card_answers_the_waiting_draw_with_the_phone_named(tmp_path):
    from vision.payload import encode

    with new_session(tmp_path, tiny()) as session:
        table = Table(session)
        ann = table.join("ann", "Ann")
        session.do("draw")
        reply = cmd(table, ann, 1, "scan", {"text": encode("tiny/token/silver")})
        assert reply["ok"], reply
        assert session.state.hand == ["tiny/token/silver"]
        assert rows_of(session, "RequestAnswered")[-1].data["by"] == "phone: Ann"


def test_bad_input_gets_words_and_changes_nothing(tmp_path):
    with new_session(tmp_path) as session:
        table = Table(session)
        ann = table.join("ann", "Ann")
        assert "without its number" in table.command(ann, {"do": "add"})["text"]
        assert "cannot read" in cmd(table, ann, 1, "add", None, **{"with": [1]})["text"]
        assert "do not offer" in cmd(table, ann, 2, "add", {"n": 99})["text"]
        assert "read nothing" in cmd(table, ann, 3, "scan", {"text": 5})["text"]
        assert session.state.score == 0 and len(session.chain.alive) == 1


def test_the_table_seats_a_limited_number_of_phones_that_played(tmp_path):
    from companion.core.rules import RuleError
    from companion.host.table import MAX_PHONES

    with new_session(tmp_path) as session:
        table = Table(session)
        for n in range(MAX_PHONES):
            phone = table.join(f"phone-{n}", f"Player {n}")
            assert cmd(table, phone, 1, "add", {"n": 1})["ok"]
        table.join("phone-0", "Player 0 again")  # one already seated comes back
        try:
            table.join("one-too-many", "Zed")
            raise AssertionError("a phone past the limit was seated")
        except RuleError as exc:
            assert "table is full" in exc.message
        table.remove("phone-3")
        assert table.join("one-too-many", "Zed").name == "Zed"


def test_made_up_seats_that_never_played_give_way_to_a_real_phone(tmp_path):
    from companion.host.table import MAX_PHONES, SEAT_IDLE

    wall = Clock()
    with new_session(tmp_path) as session:
        table = Table(session, wall=wall)
        real = table.join("real", "Ann")
        assert cmd(table, real, 1, "add", {"n": 1})["ok"]
        for n in range(MAX_PHONES - 1):
            table.join(f"made-up-{n}", "x").connected = True
        wall.now += 1
        table.phones["made-up-5"].connected = False  # gone: gives way at once
        ben = table.join("ben", "Ben")
        ben.connected = True
        assert [p.id for p in table.evicted] == ["made-up-5"]
        wall.now += SEAT_IDLE  # the connected ones, idle this long, give way too
        assert table.join("cat", "Cat").name == "Cat"
        assert table.evicted[-1].id.startswith("made-up-") and "real" in table.phones
        assert len(table.phones) == MAX_PHONES


class Counted(TableTiny):
    """`add`'s n is a fact read off the table, declared from 1 to 5 (`inputs`)."""

    def legal_actions(self, state, content):
        return [
            {"do": "add", "with": {"n": 1}, "label": "Add", "inputs": {"n": {"min": 1, "max": 5}}}
        ]


def test_a_table_fact_within_what_the_listed_action_declares_is_taken(tmp_path):
    """The rules say what a listed action is (`offers`): a phone giving a table fact
    inside its declared range sends that action; outside it, the rules do not offer it."""
    with new_session(tmp_path, Counted()) as session:
        table = Table(session)
        ann = table.join("ann", "Ann")
        assert cmd(table, ann, 1, "add", {"n": 4})["ok"] and session.state.score == 4
        assert "do not offer" in cmd(table, ann, 2, "add", {"n": 6})["text"]
        assert "do not offer" in cmd(table, ann, 3, "add", {"n": 2, "twice": True})["text"]
        assert session.state.score == 4
