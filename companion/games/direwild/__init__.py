"""Direwild: the app runs the Enemy AI, Karn's hunt and every battle (Book 2)."""

from companion.games.direwild.game import Direwild

GAME = Direwild()

__all__ = ["GAME", "Direwild"]
