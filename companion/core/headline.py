"""What a step did, in one line a table reads from across the room: the headline.

Why: the result card's lines say everything a step did, in order, so the outcome (a hero
lost, the opponent vanquished, the boss hit for 9) can sit on line 5 of 10.  The rules
know which of their events is the news; they say it as data (a kind, who it is about, a
few words, a number), never as text for the screen to parse.  Each game gives its events'
headlines beside their words (`Events.on(..., headline=...)`); the session gathers those of
the last step (`Session.last_step`) and the card shows the most important ones first, with
a drawn symbol for the kind (never colour alone).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

# The kinds of news, most important first: the card leads with the first kind it has.
KINDS = ("win", "loss", "damage", "heal", "move", "draw", "roll", "step")
RANK = {kind: n for n, kind in enumerate(KINDS)}
MOST = 3  # headlines a step shows at most: more is the detail lines' job


@dataclass(frozen=True)
class Headline:
    """One piece of news: `kind` (one of KINDS), `subject` (who or what it is about, by
    name), `words` (what happened to it, short), `number` (the damage, the roll...)."""

    kind: str
    subject: str
    words: str
    number: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in RANK:
            raise ValueError(f"a headline's kind is one of {', '.join(KINDS)}, not {self.kind!r}")

    @property
    def text(self) -> str:
        """The headline as one line of words (the symbol aside)."""
        line = f"{self.subject} {self.words}".strip() if self.subject else self.words
        return line[:1].upper() + line[1:]

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "subject": self.subject,
            "words": self.words,
            "number": self.number,
            "text": self.text,
        }


def lead(headlines: Iterable[Headline], most: int = MOST) -> list[Headline]:
    """The step's news in order of importance (a win before the damage that won it, the
    damage before a move), each said once, at most `most`; the order the rules said them
    in breaks ties."""
    seen: list[Headline] = []
    for headline in headlines:
        if headline not in seen:
            seen.append(headline)
    return sorted(seen, key=lambda h: RANK[h.kind])[:most]
