"""Combat (placeholder while the skill phase lands)."""


class CombatRules:
    pass
