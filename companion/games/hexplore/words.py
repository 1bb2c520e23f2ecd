"""The table's words for the values of HEXplore's state fields that are the rules' own
words ("declare"), so a screen that shows the state (the Fix panel) says them as the
rulebook does ("Declaration phase"), never as the code spells them (issue 25)."""

from __future__ import annotations

VALUE_WORDS: dict[str, dict[str, str]] = {
    "phase": {
        "declare": "Declaration phase",
        "resolve": "Resolution phase",
        "over": "Combat over",
    },
}
