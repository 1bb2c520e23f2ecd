"""Adrimon's clock: the Fate Tracker, the Fate Cycle, Sentinels, mindwipe and teleport."""

from __future__ import annotations

from typing import Any

from companion.core.rules import Chance, Decision, RuleError
from companion.games.hexplore.common import active_heroes, check_lost, in_combat
from companion.games.hexplore.state import HexploreState, Sentinel
from companion.games.hexplore.tables import ADRIMON_CYCLE, BATTLE_SITES, MAX_SENTINELS, PLAY_STYLES


def vanish_threshold(turns_survived: int) -> int:
    """The Fate die result at or under which a mindwiped hero leaves: hex (1) on their
    first Magi phase, hex or 2 on the second, and so on."""
    return turns_survived + 1


class FateRules:
    def cmd_end_game_turn(self, d: Decision, args: dict[str, Any], chance: Chance, content) -> None:
        """The Magi phase: the tracker rises, mindwiped heroes may vanish, the turn ends."""
        s = d.state
        if s.outcome:
            raise RuleError(f"the game is over (the heroes {s.outcome})")
        if in_combat(s):
            raise RuleError("finish the combat before the Magi phase")
        waiting = [h for h, hs in s.heroes.items() if hs.mindwiped and not hs.vanished]
        self._raise_tracker(d, chance, "the Magi phase")
        if waiting:
            roll = chance.roll("fate_d8", for_="group", why="do the mindwiped heroes vanish?")[0]
            gone = [h for h in waiting if roll <= vanish_threshold(s.heroes[h].mindwiped_turns)]
            d.emit(
                "VanishRolled",
                roll=roll,
                vanished=gone,
                stayed=[h for h in waiting if h not in gone],
            )
        for hid in active_heroes(s):
            if "poisoned" in s.heroes[hid].conditions:
                d.emit("VitalsChanged", who=hid, health=-1, why="Poisoned, start of Movement")
                if s.heroes[hid].health <= 0:
                    d.emit("HeroDied", hero=hid, why="Poisoned to 0 Health")
        check_lost(d)
        d.emit("GameTurnEnded", turn=s.turn + 1)

    def cmd_fate_tracker_symbol(
        self, d: Decision, args: dict[str, Any], chance: Chance, content
    ) -> None:
        """A card with the Fate Tracker symbol was played or discarded: +1, once."""
        if d.state.outcome:
            raise RuleError("the game is over")
        card = args.get("card", "")
        self._raise_tracker(d, chance, f"Fate Tracker symbol{f' on {card}' if card else ''}")
        check_lost(d)

    def cmd_defeat_sentinel(
        self, d: Decision, args: dict[str, Any], chance: Chance, content
    ) -> None:
        at = args.get("at")
        if not any(x.location == at for x in d.state.sentinels):
            where = ", ".join(x.location for x in d.state.sentinels) or "none in play"
            raise RuleError(f"no Sentinel stands at {at!r} (Sentinels: {where})")
        d.emit("SentinelDefeated", at=at)

    # -- the clock ---------------------------------------------------------------------

    def _raise_tracker(self, d: Decision, chance: Chance, why: str) -> None:
        fate = d.state.fate
        d.emit("FateTrackerRaised", tracker=fate.tracker + 1, why=why)
        if fate.tracker >= fate.length:
            d.emit("FateCycleRaised", cycle=fate.cycle + 1)
            self._sentinel(d, chance)
            for hid in active_heroes(d.state):
                h = d.state.heroes[hid]
                if all(rank <= fate.cycle for rank in h.skills.values()):
                    d.emit("HeroMindwiped", hero=hid, cycle=fate.cycle)
            if fate.cycle >= ADRIMON_CYCLE:
                d.emit("AdrimonTeleports", cycle=fate.cycle)

    def _sentinel(self, d: Decision, chance: Chance) -> None:
        s: HexploreState = d.state
        if not PLAY_STYLES[s.play_style].sentinels:
            return
        if len(s.sentinels) >= MAX_SENTINELS:
            d.emit("SentinelWithheld", why=f"{MAX_SENTINELS} Sentinels are already in play")
            return
        number = s.fate.sentinels_made + 1
        if number <= BATTLE_SITES:
            d.emit("SentinelAppeared", number=number, location=f"battle_site_{number}", rolls=[])
            return
        rolls: list[int] = []
        taken = {x.location for x in s.sentinels}
        while True:
            roll = chance.roll(
                "hex_d6", for_="group", why="where around the Acropolis the Sentinel appears"
            )[0]
            rolls.append(roll)
            if f"acropolis_{roll}" not in taken:
                break
        d.emit("SentinelAppeared", number=number, location=f"acropolis_{roll}", rolls=rolls)

    # -- events ------------------------------------------------------------------------

    def on_FateTrackerRaised(self, s: HexploreState, e: dict[str, Any]) -> None:
        s.fate.tracker = e["tracker"]

    def text_FateTrackerRaised(self, e: dict[str, Any]) -> str:
        return f"Fate Tracker rises to {e['tracker']} ({e['why']})"

    def on_FateCycleRaised(self, s: HexploreState, e: dict[str, Any]) -> None:
        s.fate.cycle = e["cycle"]
        s.fate.tracker = 0

    def text_FateCycleRaised(self, e: dict[str, Any]) -> str:
        return f"The Fate Cycle rises to {e['cycle']}; the tracker resets"

    def on_SentinelAppeared(self, s: HexploreState, e: dict[str, Any]) -> None:
        s.fate.sentinels_made = e["number"]
        s.sentinels.append(Sentinel(number=e["number"], location=e["location"]))

    def text_SentinelAppeared(self, e: dict[str, Any]) -> str:
        return f"Sentinel {e['number']} appears at {e['location'].replace('_', ' ')}"

    def on_SentinelWithheld(self, s: HexploreState, e: dict[str, Any]) -> None:
        pass

    def on_SentinelDefeated(self, s: HexploreState, e: dict[str, Any]) -> None:
        s.sentinels = [x for x in s.sentinels if x.location != e["at"]]

    def on_HeroMindwiped(self, s: HexploreState, e: dict[str, Any]) -> None:
        h = s.heroes[e["hero"]]
        h.mindwiped = True
        h.mindwiped_turns = 0

    def text_HeroMindwiped(self, e: dict[str, Any]) -> str:
        return f"{e['hero']} is mindwiped: every skill is at or under Fate Cycle {e['cycle']}"

    def on_VanishRolled(self, s: HexploreState, e: dict[str, Any]) -> None:
        for hid in e["vanished"]:
            s.heroes[hid].vanished = True
        for hid in e["stayed"]:
            s.heroes[hid].mindwiped_turns += 1

    def text_VanishRolled(self, e: dict[str, Any]) -> str:
        gone = ", ".join(e["vanished"]) or "nobody"
        return f"Fate die {e['roll']}: {gone} vanishes"

    def on_AdrimonTeleports(self, s: HexploreState, e: dict[str, Any]) -> None:
        s.adrimon_attacks = True

    def text_AdrimonTeleports(self, e: dict[str, Any]) -> str:
        return "Adrimon teleports to the heroes: she attacks in every Event phase from now on"

    def on_GameTurnEnded(self, s: HexploreState, e: dict[str, Any]) -> None:
        s.turn = e["turn"]
        s.circumstance = None
        s.wander = []
        s.wander_stayed = False
