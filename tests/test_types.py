"""`Any` stays rare in the app's code, so mypy checks what each value is (issue 27).

Why a test beside `make lint`: mypy strict cannot tell a necessary `Any` from a lazy one,
and each one switches its checks off for every use of the value.  The limit only goes down:
a change that needs one more names the type it has instead (a Struct, a Protocol, JSON from
`companion/jsontypes.py`, `object` for a value only passed on).  Counted as lines, as
`grep -rw Any companion --include=*.py | wc -l` does.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parent.parent / "companion"
LIMIT = 144  # lines naming Any (896 before issue 27); lower it when the count drops
ANY = re.compile(r"\bAny\b")

pytestmark = pytest.mark.lint


def lines_naming_any() -> list[str]:
    return [
        f"{path.relative_to(APP.parent)}:{n}"
        for path in sorted(APP.rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if ANY.search(line)
    ]


def test_any_stays_under_its_limit():
    found = lines_naming_any()
    assert len(found) <= LIMIT, (
        f"{len(found)} lines name Any, the limit is {LIMIT}: name the type instead "
        f"(the last added is among {found[-5:]})"
    )


def test_the_count_reads_the_word_not_a_part_of_it(tmp_path):
    """What the pattern stands on: `Any` as a word, not inside `AnyStr` or `Company`."""
    assert ANY.search("x: Any") and ANY.search("dict[str, Any]")
    assert not ANY.search("Company") and not ANY.search("AnyStr") and not ANY.search("ManyAny")
