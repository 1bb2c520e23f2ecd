"""What a game's screens call to correct one value the table tapped."""

from __future__ import annotations

from typing import Protocol


class Correct(Protocol):
    """The view's `correct_value`: open the sheet correcting just the value at `path`,
    starting from `value` (the space tapped on a track) or what the state holds; `bounds`
    bound a number (`least`, `most`) or list the choices to pick from."""

    def __call__(self, title: str, path: str, value: object = None, **bounds: object) -> object: ...
