"""Only the table gets in: join links expire, phones' passes can be taken back."""

from __future__ import annotations

import pytest

from companion.host.tokens import TokenRefused, Tokens


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def refusal(tokens: Tokens, token: str | None) -> str:
    with pytest.raises(TokenRefused) as caught:
        tokens.check(token)
    return caught.value.message


def test_a_join_link_lets_in_until_it_expires():
    clock = Clock()
    tokens = Tokens(clock, join_ttl=60)
    assert tokens.check(tokens.join.token).joining
    clock.now += 59
    tokens.check(tokens.join.token)
    clock.now += 1
    assert "expired" in refusal(tokens, tokens.join.token)
    assert "expired" in refusal(tokens, tokens.join.token)  # says the same the second time


def test_a_new_link_retires_the_old_one_but_not_the_phones_in():
    tokens = Tokens()
    old = tokens.join.token
    phone = tokens.issue_phone("p1").token
    tokens.new_join()
    assert "replaced by a newer one" in refusal(tokens, old)
    assert tokens.check(phone).phone == "p1"
    assert tokens.check(tokens.join.token).joining


def test_a_removed_phone_is_refused_in_words():
    tokens = Tokens()
    phone = tokens.issue_phone("p1").token
    tokens.revoke_phone("p1")
    assert "took this phone out" in refusal(tokens, phone)


def test_wrong_or_missing_tokens_are_refused():
    tokens = Tokens()
    assert "not for this table" in refusal(tokens, "x" * 24)
    assert "join link" in refusal(tokens, "")
    assert "join link" in refusal(tokens, None)


def test_rejoining_replaces_a_phones_pass():
    tokens = Tokens()
    first = tokens.issue_phone("p1").token
    second = tokens.issue_phone("p1").token
    assert first != second
    refusal(tokens, first)
    assert tokens.check(second).phone == "p1"


def test_passes_kept_for_a_restart_are_refused_with_the_same_words():
    clock = Clock()
    tokens = Tokens(clock, join_ttl=60, phone_ttl=120)
    first_join = tokens.join.token
    kept_phone = tokens.issue_phone("p1").token
    removed = tokens.issue_phone("p2").token
    tokens.revoke_phone("p2")
    tokens.new_join()
    clock.now += 100  # the second join link has expired by the restart
    old_join = tokens.join.token
    doc = tokens.to_json()
    assert kept_phone not in repr(doc) and removed not in repr(doc)  # hashes only

    again = Tokens(clock, join_ttl=60, phone_ttl=120)
    again.restore(doc)
    assert again.check(kept_phone).phone == "p1"
    assert "took this phone out" in refusal(again, removed)
    assert "replaced by a newer one" in refusal(again, first_join)
    assert "expired" in refusal(again, old_join)
    clock.now += 20
    assert "expired" in refusal(again, kept_phone)
    assert "not for this table" in refusal(again, "never-issued")
