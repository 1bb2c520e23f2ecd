"""A content problem in words for the screens that load cards (home, new game, Your cards).

Why a module of its own: three screens say a pack's problems the same way, and none of
them should have to import another screen for it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.content.pack import Problem


def problem_words(problem: Problem) -> str:
    """A content problem with the file's name, not its whole path (it is read across a
    table); `companion content check` prints the full path for whoever fixes it."""
    where = f"{Path(problem.file).name}:{problem.line}"
    return (
        f"{where}: {problem.field}: {problem.message}"
        if problem.field
        else (f"{where}: {problem.message}")
    )
