"""Rewards after a won combat: group rewards, single rewards by target dice, Fragments."""

from __future__ import annotations

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from companion.games.hexplore.args import GiveSingleReward
from companion.games.hexplore.common import current, gain, hero_id, in_play
from companion.games.hexplore.content import HexContent
from companion.games.hexplore.dice import target_dice
from companion.games.hexplore.events import (
    FragmentsGained,
    PowerUpsGained,
    RewardGiven,
    SingleRewardChosen,
    SingleRewardsWaiting,
)
from companion.games.hexplore.house import house
from companion.games.hexplore.schema import Opponent
from companion.games.hexplore.state import GROUP_NAME, HexploreState, single_reward_takers
from companion.games.hexplore.tables import DIFFICULTIES


def rewarded(s: HexploreState) -> list[str]:
    """The heroes a won combat rewards: those who fought it to the end, still in play."""
    c = current(s)
    return [h for h in c.heroes if h not in c.fled and in_play(s.heroes[h])]


def give_rewards(
    d: Decision, chance: Chance, card: Opponent, outcome: str, waiting: list[str] | None = None
) -> None:
    """One opponent's rewards.  Given `waiting`, Single Rewards to be given by choice are
    gathered there (several opponents' wait together) instead of waiting at once."""
    s: HexploreState = d.state
    c = current(s)
    r = card.rewards
    living = rewarded(s)
    # Dead and mindwiped heroes (still with the group) are the fallen for rewards.
    fallen = [
        h
        for h, x in s.heroes.items()
        if (x.dead or x.mindwiped) and not x.vanished and h not in c.fled
    ]
    if not living:
        return
    # A fallen hero's Gold and Food are divided between the others.
    extra_gold = r.gold * len(fallen) // len(living)
    extra_food = r.food * len(fallen) // len(living)
    for hid in living:
        gain(
            d,
            hid,
            f"{card.title}: group reward",
            gold=r.gold + extra_gold,
            food=r.food + extra_food,
        )
        for text in r.vanquish if outcome == "vanquished" else r.influence:
            d.emit(RewardGiven(hero=hid, reward=text))
    if r.power_ups:
        group = s.play_style == "quick_play"
        d.emit(PowerUpsGained(heroes=[] if group else living + fallen, count=r.power_ups))
    _single(d, chance, r.single, living, waiting)
    if r.fragments:
        _fragments(d, chance, r.fragments)


def _single(
    d: Decision,
    chance: Chance,
    rewards: list[str],
    living: list[str],
    waiting: list[str] | None = None,
) -> None:
    """Each hero rolls target dice; the highest gains the first reward, and so on."""
    if not rewards:
        return
    if len(living) == 1:
        for text in rewards:
            d.emit(RewardGiven(hero=living[0], reward=text))
        return
    if house(d.state, "single_rewards") == "choice":
        if waiting is not None:
            waiting.extend(rewards)
            return
        d.emit(SingleRewardsWaiting(rewards=list(rewards), heroes=list(living)))
        return
    left = list(rewards)
    while left:
        batch, left = left[: len(living)], left[len(living) :]
        order, rolls = target_dice(
            chance,
            living,
            len(batch),
            "target dice for single rewards",
            ordered=True,
            role="reward",
            names={h: d.state.heroes[h].name for h in living},
        )
        for hid, text in zip(order, batch, strict=False):
            d.emit(RewardGiven(hero=hid, reward=text, rolls=rolls.get(hid, [])))


def _fragments(d: Decision, chance: Chance, count: int) -> None:
    """A raised Difficulty lets the group roll the Fate die per Fragment for one more."""
    top = DIFFICULTIES[d.state.difficulty].extra_fragment
    extra = 0
    if top:
        for i in range(count):
            roll = chance.roll(
                "fate_d8",
                for_="group",
                who=GROUP_NAME,
                why=f"extra Fragment on {top} or less ({i + 1} of {count})",
                role="fragment",
            )[0]
            extra += roll <= top
    d.emit(FragmentsGained(count=count + extra, extra=extra))


def give_single_reward(
    d: Decision, args: GiveSingleReward, chance: Chance, content: HexContent
) -> None:
    """Rewards, Optional Rule: "you may choose whether to reward these by chance, or by
    choice" - by choice, the group names the hero for each Single Reward."""
    s: HexploreState = d.state
    reward = args.reward
    if reward not in s.single_rewards:
        waiting = ", ".join(s.single_rewards) or "none"
        raise RuleError(f"no Single Reward {reward!r} is waiting (waiting: {waiting})")
    hid = hero_id(s, args.hero)
    takers = single_reward_takers(s)
    if hid not in takers:
        names = ", ".join(s.heroes[h].name for h in takers)
        raise RuleError(
            f"{s.heroes[hid].name} may not take it: each Single Reward goes to a different "
            f"hero of those rewarded (next: {names})"
        )
    d.emit(SingleRewardChosen(hero=hid, reward=str(reward)))
