"""The rules engine: headless, pure Python, no Textual or Rich (a test enforces it)."""

from .errors import IllegalMove, NotationError
from .game import Game, public_view, replay
from .moves import Move, format_move, parse_move
from .scoring import Score, ScoreLine
from .setup import GameSetup, PlayerSetup, SetupError

__all__ = [
    "Game", "GameSetup", "IllegalMove", "Move", "NotationError", "PlayerSetup", "Score",
    "ScoreLine", "SetupError", "format_move", "parse_move", "public_view", "replay",
]
