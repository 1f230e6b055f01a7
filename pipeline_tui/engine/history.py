"""The story of a game by Round: each player's money and projected final score.

The scores screen draws these as a chart. A point is taken where each Round begins (the
position before its first move) and one more at the end of the log, so a finished game ends on
its final scores and a game in progress on where it stands now. The projection is the final
scoring applied to that position as if the game ended there (rulebook, "End of the Game"):
cash, oil, Pipelines, the Valuation tile and cards, less Penalties.
"""

from __future__ import annotations

import msgspec

from .game import Game
from .scoring import final_scores


class RoundPoint(msgspec.Struct, frozen=True):
    """Where the players stood at one point of the game, by seat."""

    position: int  # moves of the log before this point
    year: int
    round: int  # 0 marks the end of the log (the game's end, or now)
    money: tuple[int, ...]
    projected: tuple[int, ...]

    @property
    def label(self) -> str:
        """``Y1R3`` for a Round's start; ``end`` for the last point.

        >>> RoundPoint(0, 2, 3, (40,), (40,)).label
        'Y2R3'
        """
        return f"Y{self.year}R{self.round}" if self.round else "end"


def _point(game: Game, position: int, year: int, round_: int) -> RoundPoint:
    state = game.state if position == len(game.moves) else game.state_at(position)
    by_seat = {score.seat: score.total for score in final_scores(state)}
    return RoundPoint(
        position=position,
        year=year,
        round=round_,
        money=tuple(player.money for player in state.players),
        projected=tuple(by_seat[player.seat] for player in state.players),
    )


def round_history(game: Game) -> list[RoundPoint]:
    """One point where each Round of ``game`` began, then one for the end of its log.

    A Round begun but not yet played to its end gives its start point and the end point; the
    end point repeats no start (a log that ends exactly as a Round begins ends on that start).
    """
    points = [_point(game, pos, year, round_) for pos, year, round_ in game.round_starts()]
    if not points or points[-1].position != len(game.moves):
        points.append(_point(game, len(game.moves), game.state.year, 0))
    return points
