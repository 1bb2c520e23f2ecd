"""No line of the app's code names a card of the shipped packs (issue 13).

Why: a group plays with its own pack; a demo id or name written into `companion/` (a
default hero, a first boss, an example in a refusal) is a place where the app would quietly
reach for a card the group may not have.  Names the rulebooks print (Stormbringer, Karn,
the Chuddle) are the game's own words and may appear; so may a few ordinary English words
that happen to be a demo card's id as well.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT.parent / "shared" / "rules"
# demo ids that are also words the code uses for itself: a YAML "alias bomb" in the
# loader's guard, a text input's focus, the content folders' roots
ORDINARY_WORDS = {"bomb", "focus", "roots"}
# demo card names that are the rulebooks' own words (a keyword, a creature, a symbol the
# rules name); kept here so the check holds where the rulebooks are not beside the clone,
# and checked against the rulebooks where they are
RULEBOOK_WORDS = {
    "adrimon, the magi",
    "basic attack",
    "chuddle",
    "coatl",
    "decaying forest",
    "drain",
    "elixir",
    "glug",
    "gryk",
    "hex",
    "inkling",
    "karn",
    "mastery",
    "moon",
    "potion",
    "revive",
    "sentinel",
    "smoking limb",
    "special",
    "star",
    "sun",
}


def card_words(data: Any) -> Iterator[str]:
    """Every id, name and title in a content file, at any depth."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ("id", "name", "title") and isinstance(value, str):
                yield value
            yield from card_words(value)
    elif isinstance(data, list):
        for value in data:
            yield from card_words(value)


def shipped_words() -> set[str]:
    words: set[str] = set()
    for path in sorted(ROOT.glob("content/*/*/*.yaml")):
        words |= set(card_words(yaml.safe_load(path.read_text(encoding="utf-8"))))
    return words


def test_the_rulebook_words_are_printed_in_a_rulebook() -> None:
    if not RULES.is_dir():
        pytest.skip(f"the rulebooks are not at {RULES}")
    rules = " ".join(p.read_text(encoding="utf-8") for p in RULES.glob("*.txt")).lower()
    assert sorted(w for w in RULEBOOK_WORDS if w not in rules) == []


def test_the_shipped_packs_are_read_for_words() -> None:
    words = shipped_words()
    # the scan below is only as good as what it looks for: every game's pack is in it
    assert {"direwild/minion", "kradia/boss", "hexplore/opponent"} & {
        "/".join(w.split("/")[:2]) for w in words
    } == {"direwild/minion", "kradia/boss", "hexplore/opponent"}, sorted(words)[:20]
    assert len(words) > 100


def test_no_shipped_card_is_named_in_the_apps_code() -> None:
    words = {w for w in shipped_words() if w.lower() not in ORDINARY_WORDS | RULEBOOK_WORDS}
    code = {
        path: path.read_text(encoding="utf-8")
        for path in sorted((ROOT / "companion").rglob("*"))
        if path.suffix in (".py", ".kv")
    }
    found = []
    for word in sorted(words):
        pattern = re.compile(r"(?<![\w-])" + re.escape(word) + r"(?![\w-])", re.IGNORECASE)
        for path, text in code.items():
            if match := pattern.search(text):
                line = text.count("\n", 0, match.start()) + 1
                found.append(f"{path.relative_to(ROOT)}:{line} names {word!r}")
    assert found == [], "\n".join(found)
