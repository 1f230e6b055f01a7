"""The expert against the heuristic, as the trial scripts play it (``machine_spots.py``,
``outlets.py``): 2 players and the printed components, game ``i`` on seed ``S+i``, the expert in
seat 0 in even games and seat 1 in odd ones (as ``pipeline-tui arena --bots expert,heuristic``
seats them), each bot seeded with the game's seed and the expert playing ``--samples`` rounds a
turn. The package is imported from ``--root`` (default: this checkout), so that a ``git archive``
copy of another commit, or one with a trial patch applied, plays the same games.

Not a benchmark itself: the scripts import it (``python benchmarks/X.py`` puts this folder first
on the path).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pipeline_tui.engine import Game
    from pipeline_tui.engine.moves import Move

ROOT = Path(__file__).resolve().parent.parent


def arguments(doc: str, games: int) -> argparse.Namespace:
    """The scripts' common options, parsed, with ``--root`` put first on the import path."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose package to play")
    parser.add_argument("--seed", type=int, default=84000)
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--samples", type=int, default=2, help="the expert's rounds a turn")
    args = parser.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    return args


def play(
    args: argparse.Namespace,
    index: int,
    before: Callable[[Game, int], None] | None = None,
    after: Callable[[Game, int, int, Move], None] | None = None,
) -> tuple[Game, int, int]:
    """Play game ``index`` to its end: the finished game, the expert's seat, and its Contract or
    Order money (what its deliveries and Orders paid, as the arena counts it). ``before(game,
    seat)`` is called before each decision, ``after(game, seat, mover, move)`` after each move."""
    from pipeline_tui.ai import make_bot
    from pipeline_tui.data.editions import PRINTED_EDITION
    from pipeline_tui.engine import Game, GameSetup, PlayerSetup
    from pipeline_tui.engine import moves as M

    seed = args.seed + index
    kinds = ["expert", "heuristic"] if index % 2 == 0 else ["heuristic", "expert"]
    seat = kinds.index("expert")
    players = tuple(PlayerSetup(f"P{i}", kind) for i, kind in enumerate(kinds))
    game = Game(GameSetup(seed=seed, players=players, edition=PRINTED_EDITION))
    bots = [make_bot(kind, seed=seed, samples=args.samples) for kind in kinds]
    money = 0
    while not game.state.over:
        if before is not None:
            before(game, seat)
        mover = game.current_player
        move = bots[mover].choose(game)
        cash = game.state.players[seat].money  # the state is played on in place
        game.apply(move)
        if mover == seat and type(move) in (M.Deliver, M.FulfilOrder):
            money += game.state.players[seat].money - cash
        if after is not None:
            after(game, seat, mover, move)
    return game, seat, money


def result(game: Game, seat: int) -> tuple[bool, str]:
    """Whether the seat won (a tie for first counts), and "won 232-118" or "lost 102-238": its
    score, then its rival's."""
    scores = {score.seat: score for score in game.scores()}
    won = scores[seat].rank == 1
    return won, f"{'won' if won else 'lost'} {scores[seat].total}-{scores[1 - seat].total}"
