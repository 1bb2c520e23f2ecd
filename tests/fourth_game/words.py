"""The table's words for Dash's state fields and their values, for screens that show the
state (the Fix panel): the rules' own spelling never reaches a player."""

FIELD_WORDS = {"square": "Squares run"}
VALUE_WORDS = {"outcome": {"won": "Race won"}}
