"""The Direwild rules object: commands dispatch to the rule areas, events fold the state."""

from __future__ import annotations

from typing import Any

from companion.core.rules import DIE_PROFILES, Action, Chance, Decision, Event, GameBase, RuleError
from companion.games.direwild import battle, chapters, heroes, legal, phase
from companion.games.direwild.board import STAGING, check_board
from companion.games.direwild.options import SETUP_OPTIONS
from companion.games.direwild.schema import CONTENT_KINDS
from companion.games.direwild.state import (
    FATAL_WOUNDS,
    MAGIC_MAX,
    STAMINA_MAX,
    AiStep,
    Battle,
    DirewildState,
    Enemy,
)
from companion.games.direwild.text import Texts
from companion.games.direwild.units import ADVENTURE, KARN, check_playing, check_unlock


class Direwild(Texts, GameBase):
    id = "direwild"
    title = "Direwild"
    version = "1"
    state_type = DirewildState
    content_kinds = CONTENT_KINDS
    card_kinds = ("minions", "ai_cards", "karn_cards")
    # An Enemy AI card shown to the camera with nothing waiting is the card flipped for the
    # Game Phase (docs/cards.md): the scanner runs this command with it.
    card_commands = {"ai_cards": ("reveal_ai_card", "card")}
    setup_options = SETUP_OPTIONS

    # -- set-up and summary -------------------------------------------------------------

    def initial_state(self, options: dict[str, Any], content: Any) -> DirewildState:
        return chapters.initial_state(dict(options or {}), content)

    def summary(self, state: DirewildState) -> str:
        text = f"Chapter {state.chapter}, round {state.round}"
        if state.outcome:
            text += f" ({state.outcome.replace('_', ' ')})"
        return text

    def validate_content(self, content: Any) -> list[tuple[str, str]]:
        out = []
        for board in content.all("boards"):
            out += [(board.id, f"board: {p}") for p in check_board(board)]
        for card in content.all("ai_cards"):
            for a in card.actions:
                if a.do == "move" and a.move <= 0:
                    out.append((card.id, "a move action needs move: N (1 or more)"))
                if a.priority is not None and not 1 <= a.priority <= 4:
                    out.append((card.id, "priority names a turn-order position, 1 to 4"))
        for m in content.all("minions"):
            if m.hp <= 0:
                out.append((m.id, "hp must be 1 or more"))
            effects = [*m.hit_effects, *(e for a in m.abilities for e in a.effects)]
            out += [(m.id, p) for p in effect_problems(effects)]
        for k in [*content.all("karn"), *content.all("karn_cards")]:
            effects = getattr(k, "hit_effects", None) or getattr(k, "counterattack", [])
            out += [(k.id, p) for p in effect_problems(effects)]
            if getattr(k, "track_length", 2) < 2:
                out.append((k.id, "the Hunting Track needs at least 2 squares"))
        return out

    def evolve(self, state: DirewildState, event: Event) -> None:
        super().evolve(state, event)
        if state.recording:
            text = self.describe(event)
            if state.recording == "ai":
                d = event.data
                actor = str(
                    d.get("unit")
                    or d.get("slot")
                    or d.get("actor")
                    or d.get("hero")
                    or ("karn" if event.type.startswith("Karn") else "table")
                )
                state.walkthrough.append(AiStep(actor, event.type, text, list(d.get("path", []))))
            elif state.last_battle is not None:
                state.last_battle.effects.append(text)

    def legal_actions(self, state: DirewildState, content: Any) -> list[Action]:
        return legal.legal_actions(state, content)

    # -- commands -----------------------------------------------------------------------

    def cmd_start_round(self, d: Decision, args: dict, chance: Chance, content: Any) -> None:
        s = d.state
        check_playing(s)
        if s.prelude is not None:
            p = s.prelude
            raise RuleError(
                f"finish the Charm rounds first (round {p.round} of {p.rounds}: "
                "charm_roll for each hero)"
            )
        if s.phase not in ("setup", "round_over"):
            raise RuleError("this round is still going: end it first (end_round)")
        if not s.enemies:
            chapters.draw_minions(d, chance, content)
        d.emit("RoundStarted", round=s.round + 1)
        phase.move_counters(d)

    def cmd_reveal_ai_card(self, d: Decision, args: dict, chance: Chance, content: Any) -> None:
        phase.reveal(d, args, chance, content)

    def cmd_set_turn_order(self, d: Decision, args: dict, chance: Chance, content: Any) -> None:
        heroes.set_turn_order(d, args)

    def cmd_move_hero(self, d: Decision, args: dict, chance: Chance, content: Any) -> None:
        heroes.move(d, args, chance, content)

    def cmd_resolve_battle(self, d: Decision, args: dict, chance: Chance, content: Any) -> None:
        battle.resolve(d, args, chance, content)

    def cmd_end_turn(self, d: Decision, args: dict, chance: Chance, content: Any) -> None:
        heroes.end_turn(d, args, chance, content)

    def cmd_end_round(self, d: Decision, args: dict, chance: Chance, content: Any) -> None:
        s = d.state
        check_playing(s)
        if s.phase == "game":
            raise RuleError("reveal the Enemy AI card before ending the round")
        if s.phase not in ADVENTURE:
            raise RuleError("no round is being played: start one first (start_round)")
        for hero, h in s.heroes.items():
            if not h.done:
                heroes.finish(d, hero, chance, content)
        d.emit("RoundEnded", outcome=end_condition(d.state))

    def cmd_start_chapter(self, d: Decision, args: dict, chance: Chance, content: Any) -> None:
        chapters.start_chapter(d, args, chance, content)

    def cmd_charm_roll(self, d: Decision, args: dict, chance: Chance, content: Any) -> None:
        chapters.charm_roll(d, args, chance)

    def cmd_target_enemy(self, d: Decision, args: dict, chance: Chance, content: Any) -> None:
        """A creature ability, magic or treasure aimed at an enemy outside battle."""
        heroes.target_enemy(d, args, chance, content)

    def cmd_unlock(self, d: Decision, args: dict, chance: Chance, content: Any) -> None:
        power = args.get("power")
        if power not in ("veteran", "advanced"):
            raise RuleError(
                "unlock names a power the app uses: veteran (d6 in battle) or "
                "advanced (advanced creatures)"
            )
        check_unlock(d.state, power)
        d.emit("PowerUnlocked", power=power)

    # -- events -------------------------------------------------------------------------

    def on_MinionsPlaced(self, s: DirewildState, e: dict) -> None:
        for slot, v in e["slots"].items():
            s.enemies[slot] = Enemy(
                minion=v["minion"], position=v["position"], trail_step=v["trail_step"]
            )
            s.minions_used.append(v["minion"])

    def on_RoundStarted(self, s: DirewildState, e: dict) -> None:
        s.round, s.phase = e["round"], "game"
        s.prompts, s.walkthrough, s.last_battle = [], [], None
        for h in s.heroes.values():
            h.moved = h.battled = h.done = False
        for en in s.enemies.values():
            en.path = []
        s.karn.path = []

    def on_CountersMoved(self, s: DirewildState, e: dict) -> None:
        for unit, value in e["changes"].items():
            self._set_stamina(s, unit, value)

    def on_AiDeckReshuffled(self, s: DirewildState, e: dict) -> None:
        s.ai_deck, s.ai_discard = list(e["cards"]), []

    def on_AiCardRevealed(self, s: DirewildState, e: dict) -> None:
        if e["card"] in s.ai_deck:
            s.ai_deck.remove(e["card"])
        s.ai_discard.append(e["card"])
        s.ai_card, s.walkthrough, s.recording = e["card"], [], "ai"

    def on_KarnAdvanced(self, s: DirewildState, e: dict) -> None:
        s.karn.track = e["track"]

    def on_KarnArrived(self, s: DirewildState, e: dict) -> None:
        s.karn.on_board, s.karn.position, s.karn.path = True, e["position"], [e["position"]]

    def on_MinionActivated(self, s: DirewildState, e: dict) -> None:
        s.enemies[e["slot"]].active = True

    def on_RageGained(self, s: DirewildState, e: dict) -> None:
        for unit in e["units"]:
            value = s.karn.stamina if unit == KARN else s.enemies[unit].stamina
            self._set_stamina(s, unit, min(STAMINA_MAX, value + 1))

    def on_EnemyMoved(self, s: DirewildState, e: dict) -> None:
        unit, path = e["unit"], list(e["path"])
        target = s.karn if unit == KARN else s.enemies[unit]
        target.position, target.path = path[-1], path
        if "trail_step" in e and unit != KARN:
            s.enemies[unit].trail_step = e["trail_step"]

    def on_StaminaChanged(self, s: DirewildState, e: dict) -> None:
        self._set_stamina(s, e["unit"], e["value"])

    def on_FatalWoundReturned(self, s: DirewildState, e: dict) -> None:
        s.fatal_wounds = max(0, s.fatal_wounds - 1)

    def on_WoundTaken(self, s: DirewildState, e: dict) -> None:
        h = s.heroes[e["hero"]]
        if e["fatal"]:
            s.fatal_wounds = max(0, s.fatal_wounds - 1)
            h.fatal += 1
        else:
            h.wounds += e["count"]

    def on_GamePhaseDone(self, s: DirewildState, e: dict) -> None:
        s.phase, s.recording = "turn_order", ""

    def on_Noted(self, s: DirewildState, e: dict) -> None:
        pass

    def on_EffectRolled(self, s: DirewildState, e: dict) -> None:
        pass

    def on_Prompted(self, s: DirewildState, e: dict) -> None:
        if e["text"]:
            s.prompts.append(e["text"])

    def on_TurnOrderSet(self, s: DirewildState, e: dict) -> None:
        s.turn_order, s.phase = list(e["order"]), "adventure"

    def on_HeroMoved(self, s: DirewildState, e: dict) -> None:
        h = s.heroes[e["hero"]]
        h.position, h.moved = e["path"][-1], True
        h.stamina -= e["extra"]

    def on_TreasureLooted(self, s: DirewildState, e: dict) -> None:
        if e["square"] in s.treasures:
            s.treasures.remove(e["square"])
        s.heroes[e["hero"]].treasures += 1

    def on_BattleResolved(self, s: DirewildState, e: dict) -> None:
        s.last_battle = Battle(
            hero=e["hero"],
            enemy=e["enemy"],
            roll=list(e["roll"]),
            hero_total=e["hero_total"],
            enemy_total=e["enemy_total"],
            winner=e["winner"],
            critical=e["critical"],
            flying=e["flying"],
        )
        s.heroes[e["hero"]].battled = True
        s.recording = "battle"

    def on_BattleEnded(self, s: DirewildState, e: dict) -> None:
        s.recording = ""

    def on_AutomaticWin(self, s: DirewildState, e: dict) -> None:
        pass

    def on_UnitPushed(self, s: DirewildState, e: dict) -> None:
        unit, to = e["unit"], e["path"][-1]
        if unit == KARN:
            s.karn.position = to
        elif unit in s.enemies:
            s.enemies[unit].position = to
        else:
            s.heroes[unit].position = to

    def on_DamageDealt(self, s: DirewildState, e: dict) -> None:
        en = s.enemies[e["enemy"]]
        en.damage += 1
        en.damage_by[e["colour"]] = en.damage_by.get(e["colour"], 0) + 1
        h = s.heroes[e["colour"]]
        if e["gem"] == "inactive":
            h.inactive -= 1
        elif e["gem"] == "active":
            h.magic -= 1

    def on_EnemyDefeated(self, s: DirewildState, e: dict) -> None:
        en = s.enemies[e["enemy"]]
        en.defeated, en.position, en.active = True, None, False
        for clan, n in e["returned"].items():
            h = s.heroes[clan]
            back = min(n, max(0, MAGIC_MAX - h.magic))
            h.magic += back
            h.inactive += n - back
        en.damage_by = {}
        for i, hero in enumerate(e.get("released", [])):
            h = s.heroes[hero]
            h.eaten_by = None
            h.position = e["square"] if i == 0 else STAGING

    def on_KarnCardsDiscarded(self, s: DirewildState, e: dict) -> None:
        s.karn.cards_left -= e["count"]
        s.karn.discarded += e["count"]

    def on_KarnCounterattacked(self, s: DirewildState, e: dict) -> None:
        pass

    def on_KarnCardDestroyed(self, s: DirewildState, e: dict) -> None:
        s.karn.discarded = max(0, s.karn.discarded - 1)
        s.karn.destroyed.append(e["card"])

    def on_KarnRegenerated(self, s: DirewildState, e: dict) -> None:
        k = s.karn
        k.regenerates_left -= 1
        k.cards_left += k.discarded
        k.discarded, k.stamina = 0, 0

    def on_KarnDefeated(self, s: DirewildState, e: dict) -> None:
        s.karn.defeated, s.karn.on_board, s.outcome = True, False, "won"

    def on_HeroEaten(self, s: DirewildState, e: dict) -> None:
        s.heroes[e["hero"]].eaten_by = e["by"]

    def on_EnemyTargeted(self, s: DirewildState, e: dict) -> None:
        pass

    def on_TurnEnded(self, s: DirewildState, e: dict) -> None:
        s.heroes[e["hero"]].done = True

    def on_RoundEnded(self, s: DirewildState, e: dict) -> None:
        s.phase, s.outcome = "round_over", e["outcome"]

    def on_ChapterStarted(self, s: DirewildState, e: dict) -> None:
        s.chapter, s.board, s.round, s.phase = e["chapter"], e["board"], 0, "setup"
        s.fatal_wounds, s.outcome = FATAL_WOUNDS, None
        s.treasures, s.enemies = list(e["treasures"]), {}
        s.ai_deck, s.ai_discard, s.ai_card, s.walkthrough = list(e["ai_deck"]), [], None, []
        s.last_battle, s.prompts = None, []
        for h in s.heroes.values():
            h.position, h.stamina, h.eaten_by = STAGING, 0, None
            h.moved = h.battled = h.done = False
        k = s.karn
        k.cards_left += k.discarded
        k.discarded, k.stamina, k.track, k.path = 0, 0, 0, []
        k.on_board, k.position = e["karn_at"] is not None, e["karn_at"]

    def on_CharmRolled(self, s: DirewildState, e: dict) -> None:
        p = s.prelude
        p.rolled.append(e["hero"])
        p.last[e["hero"]] = e["charm"]
        s.heroes[e["hero"]].magic -= e["magic"]
        s.heroes[e["hero"]].inactive += e["magic"]

    def on_CharmRoundDone(self, s: DirewildState, e: dict) -> None:
        s.prelude.round += 1
        s.prelude.rolled = []

    def on_PreludeDone(self, s: DirewildState, e: dict) -> None:
        s.prelude = None

    def on_PowerUnlocked(self, s: DirewildState, e: dict) -> None:
        if e["power"] == "veteran":
            s.veteran = True
        else:
            s.advanced_unlocked = True

    @staticmethod
    def _set_stamina(s: DirewildState, unit: str, value: int) -> None:
        if unit == KARN:
            s.karn.stamina = value
        elif unit in s.enemies:
            s.enemies[unit].stamina = value
        else:
            s.heroes[unit].stamina = value


def effect_problems(effects: list) -> list[str]:
    out = []
    for e in effects:
        if e.roll is not None:
            faces = DIE_PROFILES.get(e.roll)
            if faces is None:
                out.append(f"roll '{e.roll}' is not a die ({', '.join(DIE_PROFILES)})")
            elif not e.hits or any(v not in faces for v in e.hits):
                out.append(
                    f"a {e.roll} roll needs hits: the faces it happens on ({faces[0]}-{faces[-1]})"
                )
        if e.die is not None and e.die not in DIE_PROFILES:
            out.append(f"die '{e.die}' is not a die ({', '.join(DIE_PROFILES)})")
        if e.amount < 0:
            out.append(f"{e.kind} amount must be 0 or more")
    return out


def end_condition(s: DirewildState) -> str | None:
    """Book 2's End Conditions, checked once every hero has finished the round."""
    if s.karn.defeated:
        return "won"
    if s.chapter < 3 and s.enemies and all(e.defeated for e in s.enemies.values()):
        return "chapter_won"
    if s.fatal_wounds == 0:
        return "lost"
    return None
