"""Each Dash command's details, typed: the core checks and converts them once, before the
rule runs, so a rule reads fields and never checks a detail's kind itself."""

from __future__ import annotations

from companion.core.tables import CommandArgs


class RunArgs(CommandArgs):
    runner: str | None = None
