"""The virtual roller rolls the faces it is handed, face for face as the core's roller."""

from __future__ import annotations

import random

import pytest

from companion.core.roller import virtual_answer
from companion.core.rules import DIE_FACES, Request
from hardware.virtual import NoSuchDie, VirtualRoller


def test_virtual_roller_uses_the_profile_faces():
    roller = VirtualRoller(random.Random(1))
    values = {e.value for _ in range(200) for e in roller.roll("d3", DIE_FACES["d3"])}
    assert values == {1, 2, 3}
    with pytest.raises(NoSuchDie, match="the virtual roller has no d7"):
        roller.roll("d7", ())


def test_values_are_chosen_by_the_core_roller():
    """One way of choosing values: the source's dice are the core roller's, face for face."""
    request = Request("dice", "", profile="skill_d10", count=5)
    rolled = VirtualRoller(random.Random(11)).roll("skill_d10", DIE_FACES["skill_d10"], 5)
    assert [e.value for e in rolled] == virtual_answer(request, random.Random(11))
    assert [DIE_FACES["skill_d10"][e.face_index][1] for e in rolled] == [e.value for e in rolled]
