"""HEXplore It: The Forests of Adrimon: the fate cycle, skill rolls and combat arithmetic."""

from companion.games.hexplore.game import HexploreGame

GAME = HexploreGame()

__all__ = ["GAME", "HexploreGame"]
