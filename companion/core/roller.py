"""The virtual roller: for a table without the dice or the card at hand.

It lives outside the rules on purpose: it picks values like a die would, and the session
stores them as answers (`by="virtual roller"`), so replaying the log never rolls again.
"""

from __future__ import annotations

import random

from companion.core.rules import DIE_FACES, Request, RuleError


def virtual_answer(request: Request, rng: random.Random | None = None) -> list[int] | str:
    """Values for `request` chosen at random: each die lands on a random face."""
    rng = rng or random.SystemRandom()
    if request.kind == "dice":
        faces = DIE_FACES.get(request.profile)
        if faces is None:
            raise RuleError(f"the virtual roller has no {request.profile}")
        return [rng.choice(faces)[1] for _ in range(request.count)]
    if not request.options:
        raise RuleError(f"draw the card from {request.deck} at the table and scan or type it")
    return rng.choice(list(request.options))
