"""The action log and AI walk-through in words the table reads aloud."""

from __future__ import annotations

from companion.games.direwild.board import SLOTS


def name(unit: str | None) -> str:
    if not unit:
        return "a hero"
    if unit in SLOTS:
        return f"{unit.title()} minion"
    return unit.title()


def squares(n: int) -> str:
    return f"{n} square{'s' if n != 1 else ''}"


class Texts:
    """`text_<Event>` for each event the players should read."""

    def text_MinionsPlaced(self, e: dict) -> str:
        parts = [
            f"{slot}: {v['minion'].rsplit('/', 1)[-1]} at {v['position']}"
            for slot, v in e["slots"].items()
        ]
        return "Minion Track filled, face down (" + "; ".join(parts) + ")"

    def text_RoundStarted(self, e: dict) -> str:
        return f"Round {e['round']} begins"

    def text_CountersMoved(self, e: dict) -> str:
        if not e["changes"]:
            return "Move counters 1: every stamina counter is already at 0"
        parts = [f"{name(u)} to {v:+d}" for u, v in e["changes"].items()]
        return "Move counters 1 toward 0: " + ", ".join(parts)

    def text_AiDeckReshuffled(self, e: dict) -> str:
        return "The Enemy AI deck is empty: shuffle the discarded AI cards into a new deck"

    def text_AiCardRevealed(self, e: dict) -> str:
        return f"Enemy AI card: {e['card'].rsplit('/', 1)[-1]}"

    def text_KarnAdvanced(self, e: dict) -> str:
        return f"Karn moves 1 right on his Hunting Track (square {e['track'] + 1})"

    def text_KarnArrived(self, e: dict) -> str:
        if e["displaced"]:
            return (
                f"Karn leaves his track and appears on the land board: his altar "
                f"{e['altar']} is taken, so he stands on {e['position']}"
            )
        return f"Karn leaves his track and appears on his altar at {e['position']}"

    def text_MinionActivated(self, e: dict) -> str:
        return f"{name(e['slot'])} flips face up and is active ({e['why']})"

    def text_RageGained(self, e: dict) -> str:
        if not e["units"]:
            return "All active enemies gain a rage: there are none"
        return "Rage: " + ", ".join(name(u) for u in e["units"]) + " gain 1 stamina"

    def text_EnemyMoved(self, e: dict) -> str:
        path, who = e["path"], name(e["unit"])
        n = len(path) - 1
        if e["mode"] == "teleport":
            return f"{who} teleports to {path[-1]}, next to {name(e['target'])}"
        if n == 0:
            if e["mode"] == "trail" and e["activates"]:
                return f"{who} stays at {path[0]}: it is next to {name(e['target'])} and activates"
            if e.get("target"):
                return f"{who} stays at {path[0]}, engaged with {name(e['target'])}"
            return f"{who} stays at {path[0]}"
        if e["mode"] == "trail":
            text = f"{who}: {squares(n)} along its trail to {path[-1]}"
            if e["activates"]:
                text += f" - activates next to {name(e['target'])}"
            return text
        how = "with priority toward" if e["mode"] == "priority" else "toward"
        return f"{who}: {squares(n)} {how} {name(e['target'])}, to {path[-1]} ({' > '.join(path)})"

    def text_StaminaChanged(self, e: dict) -> str:
        return f"{name(e['unit'])} stamina {e['was']:+d} -> {e['value']:+d} ({e['why']})"

    def text_FatalWoundReturned(self, e: dict) -> str:
        return f"Return a Fatal Wound to the wound pile: {e['why']}"

    def text_WoundTaken(self, e: dict) -> str:
        kind = (
            "a Fatal Wound"
            if e["fatal"]
            else ("a wound" if e["count"] == 1 else f"{e['count']} wounds")
        )
        return f"{name(e['hero'])} puts {kind} in their discard ({e['why']})"

    def text_Noted(self, e: dict) -> str:
        return e["text"]

    def text_Prompted(self, e: dict) -> str:
        return f"{name(e['source'])}: {e['text']}"

    def text_EffectRolled(self, e: dict) -> str:
        if e.get("amount"):
            return f"{name(e['source'])} rolls {e['roll']}: {e['roll']} {e['text']}"
        return f"{name(e['source'])} rolls {e['roll']} for {e['text']}: " + (
            "it happens" if e["hit"] else "nothing happens"
        )

    def text_GamePhaseDone(self, e: dict) -> str:
        return "Game Phase done: choose the turn order and draw 5 cards"

    def text_TurnOrderSet(self, e: dict) -> str:
        return "Turn order: " + ", ".join(name(h) for h in e["order"])

    def text_HeroMoved(self, e: dict) -> str:
        n = len(e["path"]) - 1
        extra = f", exerting {e['extra']} stamina" if e["extra"] else ""
        return f"{name(e['hero'])} moves {squares(n)} to {e['path'][-1]}{extra}"

    def text_TreasureLooted(self, e: dict) -> str:
        return f"{name(e['hero'])} loots the treasure token at {e['square']}: draw a treasure card"

    def text_BattleResolved(self, e: dict) -> str:
        c = e["creature"]
        won = "wins" if e["winner"] == "hero" else "loses"
        crit = " - critical hit!" if e["critical"] else ""
        fly = " (flying)" if e["flying"] else ""
        return (
            f"{name(e['hero'])}{fly} {c['attack']} + stamina + roll {e['roll'][0]} = "
            f"{e['hero_total']} vs {name(e['enemy'])} {e['enemy_total']}: "
            f"{name(e['hero'])} {won}{crit}"
        )

    def text_BattleEnded(self, e: dict) -> str:
        return f"{name(e['hero'])}'s battle is over: discard the cards played this turn"

    def text_AutomaticWin(self, e: dict) -> str:
        return f"{name(e['enemy'])} wins against {name(e['hero'])} automatically ({e['why']})"

    def text_UnitPushed(self, e: dict) -> str:
        n = len(e["path"]) - 1
        text = f"{name(e['unit'])} is knocked back {squares(n)} {e['direction']} to {e['path'][-1]}"
        if e["hit"]:
            text += f", slamming into {'the ' + e['hit'] if e['hit'] in ('edge', 'wall') else name(e['hit'])}"
        return text

    def text_DamageDealt(self, e: dict) -> str:
        crit = "critical " if e["critical"] else ""
        return f"{name(e['enemy'])} takes 1 {crit}damage ({e['colour']} gem)"

    def text_EnemyDefeated(self, e: dict) -> str:
        back = ", ".join(f"{n} to {name(c)}" for c, n in e["returned"].items())
        return f"{name(e['enemy'])} is defeated: its damage returns as active magic ({back})"

    def text_KarnCardsDiscarded(self, e: dict) -> str:
        return f"Discard {e['count']} Karn card{'s' if e['count'] != 1 else ''}"

    def text_KarnCounterattacked(self, e: dict) -> str:
        return f"Karn counterattacks {name(e['hero'])} with {e['card'].rsplit('/', 1)[-1]}"

    def text_KarnCardDestroyed(self, e: dict) -> str:
        return "Destroy the counterattack card"

    def text_KarnRegenerated(self, e: dict) -> str:
        return (
            f"A Regenerate card is revealed: destroy it, put {e['cards_back']} Karn cards "
            "back on his pile and reset his stamina"
        )

    def text_KarnDefeated(self, e: dict) -> str:
        return f"Karn is defeated by {name(e['hero'])}! The Direwild is free"

    def text_HeroEaten(self, e: dict) -> str:
        return f"{name(e['hero'])} is eaten by the {name(e['by'])}: put the hero on its card"

    def text_EnemyTargeted(self, e: dict) -> str:
        what = f"{e['poison']} poison on" if e["poison"] else "targets"
        return f"{name(e['hero'])}'s card, magic or treasure: {what} {name(e['enemy'])}"

    def text_TurnEnded(self, e: dict) -> str:
        return f"{name(e['hero'])}'s turn ends"

    def text_RoundEnded(self, e: dict) -> str:
        return {
            "chapter_won": "Every minion is defeated: the chapter is won!",
            "won": "Karn is defeated: the game is won!",
            "lost": "No Fatal Wounds are left: the heroes are defeated",
        }.get(e["outcome"] or "", "The round ends: play another round")

    def text_ChapterStarted(self, e: dict) -> str:
        return f"Chapter {e['chapter']} begins on {e['board'].rsplit('/', 1)[-1]}"

    def text_CharmRolled(self, e: dict) -> str:
        return f"{name(e['hero'])} rolls {e['roll']}: {e['charm']} Charm to spend in the Wilds"

    def text_CharmRoundDone(self, e: dict) -> str:
        return f"Charm round {e['round']} done"

    def text_PreludeDone(self, e: dict) -> str:
        return "The Charm rounds are done: shuffle your decks and begin the chapter"

    def text_PowerUnlocked(self, e: dict) -> str:
        return f"{e['power'].title()} unlocked"
