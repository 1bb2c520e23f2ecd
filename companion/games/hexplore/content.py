"""HEXplore's content, typed: the rules ask for opponents, heroes and Circumstances by
what they are, never through an untyped lookup by kind name."""

from __future__ import annotations

from companion.content.pack import Content
from companion.games.hexplore.schema import (
    AllyCard,
    CircumstanceCard,
    Hero,
    Opponent,
    RelicCard,
)

SINGULAR = {
    "opponents": "opponent",
    "heroes": "hero",
    "circumstances": "circumstance",
    "allies": "ally",
    "relics": "relic",
}


class HexContent:
    """The loaded packs as HEXplore reads them; ids may be given whole or as slugs."""

    def __init__(self, content: Content) -> None:
        self.content = content

    @staticmethod
    def of(content: Content | HexContent) -> HexContent:
        return content if isinstance(content, HexContent) else HexContent(content)

    def _find(self, kind: str, key: object) -> object | None:
        if not isinstance(key, str) or not key:
            return None
        return self.content.find(kind, key) or self.content.find(
            kind, f"hexplore/{SINGULAR[kind]}/{key}"
        )

    def opponents(self) -> list[Opponent]:
        return list(self.content.all("opponents"))

    def allies(self) -> list[AllyCard]:
        return list(self.content.all("allies"))

    def ally(self, key: object) -> AllyCard | None:
        found = self._find("allies", key)
        return found if isinstance(found, AllyCard) else None

    def relics(self) -> list[RelicCard]:
        return list(self.content.all("relics"))

    def relic(self, key: object) -> RelicCard | None:
        found = self._find("relics", key)
        return found if isinstance(found, RelicCard) else None

    def heroes(self) -> list[Hero]:
        return list(self.content.all("heroes"))

    def circumstances(self) -> list[CircumstanceCard]:
        return list(self.content.all("circumstances"))

    def circumstance_ids(self) -> list[str]:
        return self.content.ids("circumstances")

    def opponent(self, key: object) -> Opponent | None:
        found = self._find("opponents", key)
        return found if isinstance(found, Opponent) else None

    def hero(self, key: object) -> Hero | None:
        found = self._find("heroes", key)
        return found if isinstance(found, Hero) else None

    def circumstance(self, key: object) -> CircumstanceCard | None:
        found = self._find("circumstances", key)
        return found if isinstance(found, CircumstanceCard) else None

    def magi(self) -> Opponent | None:
        """Adrimon, the Magi: the first opponent of type magi in the packs."""
        return next((o for o in self.opponents() if o.type == "magi"), None)
