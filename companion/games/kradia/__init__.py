"""Kradia: Wild Hunt Festival rules (pure: no Kivy, I/O, clock or random)."""

from companion.games.kradia.game import KradiaGame

GAME = KradiaGame()

__all__ = ["GAME", "KradiaGame"]
