"""How each Kradia event changes the state (`on_<Event>`) and reads in the action log
(`text_<Event>`).  Events carry the values they result in, so applying one never needs
the content and a replay is exact."""

from __future__ import annotations

from typing import Any

import msgspec

from companion.games.kradia.state import BossState, ChargeRoll, Hit, KradiaState, LastAttack

Data = dict[str, Any]


def _who(hero: str) -> str:
    return hero.replace("-", " ").title()


def _why(e: Data) -> str:
    return f" ({e['why']})" if e.get("why") else ""


class KradiaEvents:
    # -- round and phases ------------------------------------------------------------------

    def on_RoundStarted(self, s: KradiaState, e: Data) -> None:
        s.round = e["round"]
        s.acted = []
        s.turn = None

    def text_RoundStarted(self, e: Data) -> str:
        return f"Round {e['round']} begins"

    def on_PhaseChanged(self, s: KradiaState, e: Data) -> None:
        s.phase = e["phase"]
        s.turn, s.turn_done = None, False

    def text_PhaseChanged(self, e: Data) -> str:
        return {
            "heroes": "Hero action phase",
            "boss": "Boss attack phase: roll the boss's dice",
            "end": "Round over: pass the First Player token",
            "battlefield": "Battlefield phase: the Start Player reveals a card",
        }.get(e["phase"], f"{e['phase']} phase")

    def on_TurnStarted(self, s: KradiaState, e: Data) -> None:
        s.turn = e["hero"]
        s.turn_done = False

    def on_ActionTaken(self, s: KradiaState, e: Data) -> None:
        s.turn_done = True
        s.charge = None

    def text_ActionTaken(self, e: Data) -> str:
        return f"{_who(e['hero'])} may still use Item cards before ending the turn"

    def text_TurnStarted(self, e: Data) -> str:
        return f"{_who(e['hero'])}'s turn"

    def on_TurnEnded(self, s: KradiaState, e: Data) -> None:
        s.acted.append(e["hero"])
        s.turn, s.turn_done = None, False
        s.charge = None

    def text_TurnEnded(self, e: Data) -> str:
        return ""

    def on_TurnSkipped(self, s: KradiaState, e: Data) -> None:
        s.acted.append(e["hero"])

    def text_TurnSkipped(self, e: Data) -> str:
        return f"{_who(e['hero'])} is {e['why']}: no turn"

    def on_StartPlayerPassed(self, s: KradiaState, e: Data) -> None:
        s.start_player = e["hero"]
        s.battlefield.forbid = []

    def text_StartPlayerPassed(self, e: Data) -> str:
        return f"First Player token to {_who(e['hero'])}"

    # -- battlefield -----------------------------------------------------------------------

    def on_BattlefieldCardRevealed(self, s: KradiaState, e: Data) -> None:
        s.battlefield.face_down.remove(e["card"])
        s.battlefield.face_up.append(e["card"])

    def text_BattlefieldCardRevealed(self, e: Data) -> str:
        return f"Battlefield card revealed: {e['symbol']}"

    def on_BattlefieldReset(self, s: KradiaState, e: Data) -> None:
        s.battlefield.sideways = e["card"]
        s.battlefield.face_up = [e["card"]]
        s.battlefield.face_down = list(e["face_down"])

    def text_BattlefieldReset(self, e: Data) -> str:
        return "Battlefield Reset: the active card turns sideways, the other 2 are shuffled"

    def on_MarkerMoved(self, s: KradiaState, e: Data) -> None:
        bf = s.battlefield
        bf.column, bf.path, bf.effect = e["column"], list(e["path"]), e["effect"]
        bf.forbid = list(e["forbid"])

    def text_MarkerMoved(self, e: Data) -> str:
        label = f"{e['name']} " if e.get("name") else ""
        return f"Battlefield marker to {label}[{e['effect']}]"

    def on_BattlefieldShuffled(self, s: KradiaState, e: Data) -> None:
        bf = s.battlefield
        bf.face_down, bf.face_up, bf.sideways = list(e["face_down"]), [], None
        bf.column, bf.path, bf.effect, bf.forbid = None, [], None, []

    def text_BattlefieldShuffled(self, e: Data) -> str:
        return "The 3 Battlefield cards are reshuffled face down"

    # -- heroes ----------------------------------------------------------------------------

    def on_HeroDamaged(self, s: KradiaState, e: Data) -> None:
        s.heroes[e["hero"]].hp = e["hp"]

    def text_HeroDamaged(self, e: Data) -> str:
        return f"{_who(e['hero'])} takes {e['amount']} damage{_why(e)}: {e['hp']} HP"

    def on_DamageEvaded(self, s: KradiaState, e: Data) -> None:
        pass

    def text_DamageEvaded(self, e: Data) -> str:
        return f"{_who(e['hero'])} evades {e['amount']} damage{_why(e)}"

    def on_HeroHealed(self, s: KradiaState, e: Data) -> None:
        s.heroes[e["hero"]].hp = e["hp"]

    def text_HeroHealed(self, e: Data) -> str:
        return f"{_who(e['hero'])} recovers {e['amount']} HP{_why(e)}: {e['hp']} HP"

    def on_HeroFaded(self, s: KradiaState, e: Data) -> None:
        h = s.heroes[e["hero"]]
        h.hp, h.fading = 0, True
        h.red = h.blue = h.attack_buff = 0
        h.ailments, h.stunned, h.evasion = [], False, False

    def text_HeroFaded(self, e: Data) -> str:
        return f"{_who(e['hero'])} is Fading: Mana, buffs and ailments are removed"

    def on_HeroRetired(self, s: KradiaState, e: Data) -> None:
        h = s.heroes[e["hero"]]
        h.fading, h.retired = False, True

    def text_HeroRetired(self, e: Data) -> str:
        return f"{_who(e['hero'])} is still Fading and retires from the battle"

    def on_HeroRestored(self, s: KradiaState, e: Data) -> None:
        h = s.heroes[e["hero"]]
        h.fading, h.hp = False, e["hp"]

    def text_HeroRestored(self, e: Data) -> str:
        return f"{_who(e['hero'])} is restored{_why(e)} with {e['hp']} HP"

    def on_HeroReturned(self, s: KradiaState, e: Data) -> None:
        h = s.heroes[e["hero"]]
        h.retired, h.fading, h.hp = False, True, 0

    def text_HeroReturned(self, e: Data) -> str:
        return f"{_who(e['hero'])} returns for the next battle, still Fading at 0 HP"

    def on_ManaGained(self, s: KradiaState, e: Data) -> None:
        setattr(s.heroes[e["hero"]], e["color"], e["value"])

    def text_ManaGained(self, e: Data) -> str:
        return f"{_who(e['hero'])} gains {e['amount']} {e['color']} Mana{_why(e)}: {e['value']}"

    def on_AttackBuffSet(self, s: KradiaState, e: Data) -> None:
        who = s.boss if e["who"] == "boss" else s.heroes[e["who"]]
        who.attack_buff = e["value"]

    def text_AttackBuffSet(self, e: Data) -> str:
        return f"{_who(e['who'])}'s Attack Buff: {e['value']}{_why(e)}"

    def on_EvasionSet(self, s: KradiaState, e: Data) -> None:
        s.heroes[e["hero"]].evasion = e["evasion"]

    def text_EvasionSet(self, e: Data) -> str:
        state = "gains Evasion" if e["evasion"] else "loses Evasion"
        return f"{_who(e['hero'])} {state}{_why(e)}"

    def on_StunSet(self, s: KradiaState, e: Data) -> None:
        s.heroes[e["hero"]].stunned = e["stunned"]

    def text_StunSet(self, e: Data) -> str:
        state = "is stunned" if e["stunned"] else "is no longer stunned"
        return f"{_who(e['hero'])} {state}{_why(e)}"

    def on_AilmentAdded(self, s: KradiaState, e: Data) -> None:
        h = s.heroes[e["hero"]]
        h.ailments = [a for a in h.ailments if a not in e["replaced"]] + [e["ailment"]]

    def text_AilmentAdded(self, e: Data) -> str:
        replaced = f", replacing {', '.join(e['replaced'])}" if e["replaced"] else ""
        return f"{_who(e['hero'])} suffers {e['ailment']}{replaced}{_why(e)}"

    def on_AilmentResisted(self, s: KradiaState, e: Data) -> None:
        pass

    def text_AilmentResisted(self, e: Data) -> str:
        return f"{_who(e['hero'])}'s constitution ignores {e['ailment']}"

    def on_AilmentsRemoved(self, s: KradiaState, e: Data) -> None:
        h = s.heroes[e["hero"]]
        h.ailments = [a for a in h.ailments if a not in e["ailments"]]

    def text_AilmentsRemoved(self, e: Data) -> str:
        return f"{_who(e['hero'])} is cured of {', '.join(e['ailments'])}{_why(e)}"

    # -- actions ---------------------------------------------------------------------------

    def on_BasicAttacked(self, s: KradiaState, e: Data) -> None:
        pass

    def text_BasicAttacked(self, e: Data) -> str:
        return f"{_who(e['hero'])}: Basic Attack for {e['damage']}"

    def on_ChargeRolled(self, s: KradiaState, e: Data) -> None:
        s.charge = ChargeRoll(hero=e["hero"], roll=e["roll"], choices=list(e["choices"]))

    def text_ChargeRolled(self, e: Data) -> str:
        choices = ", ".join(f"#{c}" for c in e["choices"])
        return f"{_who(e['hero'])} rolls {e['roll']} for a Charge Attack (may choose {choices})"

    def on_ChargeChosen(self, s: KradiaState, e: Data) -> None:
        s.charge = None

    def text_ChargeChosen(self, e: Data) -> str:
        return f"{_who(e['hero'])}: Charge Attack #{e['effect']}"

    def on_SkillUsed(self, s: KradiaState, e: Data) -> None:
        h = s.heroes[e["hero"]]
        h.red, h.blue = e["red"], e["blue"]

    def text_SkillUsed(self, e: Data) -> str:
        return f"{_who(e['hero'])} uses {e['skill']} (Level {e['level']})"

    def on_ItemUsed(self, s: KradiaState, e: Data) -> None:
        s.heroes[e["hero"]].items.remove(e["item"])
        s.discard.append(e["item"])

    def text_ItemUsed(self, e: Data) -> str:
        return f"{_who(e['hero'])} uses {e['item'].rsplit('/', 1)[-1]}"

    def on_Passed(self, s: KradiaState, e: Data) -> None:
        pass

    def text_Passed(self, e: Data) -> str:
        return f"{_who(e['hero'])} passes"

    def on_RetainerSummoned(self, s: KradiaState, e: Data) -> None:
        s.retainers.remove(e["retainer"])

    def text_RetainerSummoned(self, e: Data) -> str:
        return f"Retainer {e['retainer'].rsplit('/', 1)[-1]} summoned ({e['votes']} agree)"

    # -- boss ------------------------------------------------------------------------------

    def _boss_hp(self, s: KradiaState, e: Data) -> None:
        s.boss.hp = e["hp"]

    on_BossDamaged = _boss_hp
    on_BossHealed = _boss_hp

    def text_BossDamaged(self, e: Data) -> str:
        return f"The boss takes {e['amount']} damage{_why(e)}: {e['hp']} HP"

    def text_BossHealed(self, e: Data) -> str:
        return f"The boss recovers {e['amount']} HP{_why(e)}: {e['hp']} HP"

    def on_BossAttacked(self, s: KradiaState, e: Data) -> None:
        s.last_attack = LastAttack(
            dice=list(e["dice"]), sum=e["sum"], row=e["row"], overdrive=e["overdrive"]
        )

    def text_BossAttacked(self, e: Data) -> str:
        dice = " + ".join(map(str, e["dice"]))
        over = ", with Overdrive" if e["overdrive"] else ""
        return f"The boss attacks: {dice} = {e['sum']} (chart row {e['row'] + 1}{over})"

    def on_HitRecorded(self, s: KradiaState, e: Data) -> None:
        if s.last_attack is None:
            s.last_attack = LastAttack()
        s.last_attack.effects.append(msgspec.convert(e["hit"], Hit))

    def text_HitRecorded(self, e: Data) -> str:
        return ""

    def on_RageRaised(self, s: KradiaState, e: Data) -> None:
        s.boss.rage = e["rage"]

    def text_RageRaised(self, e: Data) -> str:
        return f"Rage: {e['rage']}"

    def on_RageUnleashed(self, s: KradiaState, e: Data) -> None:
        pass

    def text_RageUnleashed(self, e: Data) -> str:
        return "The boss's Rage effect!"

    def on_BossDefeated(self, s: KradiaState, e: Data) -> None:
        s.outcome, s.phase, s.turn, s.charge = e["outcome"], "over", None, None
        s.defeated.append(e["boss"])

    def text_BossDefeated(self, e: Data) -> str:
        won = " The heroes win the game!" if e["outcome"] == "won" else ""
        return f"The boss is defeated!{won}"

    def on_GameLost(self, s: KradiaState, e: Data) -> None:
        s.outcome, s.phase, s.turn, s.charge = "lost", "over", None, None

    def text_GameLost(self, e: Data) -> str:
        return "Every hero is Fading or retired: the heroes have lost"

    # -- story mode ------------------------------------------------------------------------

    def on_ManaConverted(self, s: KradiaState, e: Data) -> None:
        h = s.heroes[e["hero"]]
        h.red = h.blue = 0
        h.hp = e["hp"]

    def text_ManaConverted(self, e: Data) -> str:
        return f"{_who(e['hero'])} spends {e['amount']} Mana for HP: {e['hp']} HP"

    def on_Cleansed(self, s: KradiaState, e: Data) -> None:
        h = s.heroes[e["hero"]]
        h.ailments, h.attack_buff, h.evasion, h.stunned = [], 0, False, False

    def text_Cleansed(self, e: Data) -> str:
        return ""

    def on_LeveledUp(self, s: KradiaState, e: Data) -> None:
        h = s.heroes[e["hero"]]
        h.level, h.level3_side = e["level"], e["side"]

    def text_LeveledUp(self, e: Data) -> str:
        side = f" (Level 3 card side {e['side']})" if e["level"] == 3 else ""
        return f"{_who(e['hero'])} reaches Level {e['level']}{side}"

    def on_ItemDrawn(self, s: KradiaState, e: Data) -> None:
        s.item_deck.remove(e["item"])
        s.heroes[e["hero"]].items.append(e["item"])

    def text_ItemDrawn(self, e: Data) -> str:
        return f"{_who(e['hero'])} draws {e['item'].rsplit('/', 1)[-1]}"

    def on_BossSet(self, s: KradiaState, e: Data) -> None:
        s.boss = msgspec.convert(e["boss"], BossState)
        s.level = e["level"]
        s.round, s.phase, s.turn, s.acted = 0, "battlefield", None, []
        s.outcome, s.last_attack, s.charge = None, None, None

    def text_BossSet(self, e: Data) -> str:
        return f"Level {e['level']} battle: {e['boss']['id'].rsplit('/', 1)[-1]}"
