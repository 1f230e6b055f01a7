"""How many bot seats end Year 1 without a Pipeline that refines Crude: seats that then mostly
sit the game out (no income; ``docs/bots.md``, "The fifth expert").

``python benchmarks/first_pipeline.py [--root PATH] [--seed S] [--games N] [--bots heuristic]``
imports the package from ``--root`` (default: this checkout; a ``git archive`` copy of another
commit compares the two), plays N 2-player games of the bot against itself with the printed
components from seeds S, S+1, ... (the players named P0 and P1, each bot seeded with the game's
seed) to the end of Year 1, and prints each seat that has no refining Pipeline then, with its
cash, and the count.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose package to play")
    parser.add_argument("--seed", type=int, default=70000)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--bots", default="heuristic", help="the bot in both seats")
    args = parser.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    from pipeline_tui.ai import make_bot
    from pipeline_tui.data.editions import PRINTED_EDITION
    from pipeline_tui.engine import Game, GameSetup, PlayerSetup, highest_grade_from_crude, network_map

    without = seats = 0
    for seed in range(args.seed, args.seed + args.games):
        players = (PlayerSetup("P0", args.bots), PlayerSetup("P1", args.bots))
        game = Game(GameSetup(seed=seed, players=players, edition=PRINTED_EDITION))
        bots = [make_bot(args.bots, seed=seed) for _ in players]
        while game.state.year == 1:
            game.apply(bots[game.current_player].choose(game))
        state = game.state
        for player in state.players:
            seats += 1
            eng = player.level("ENG")
            pipelines = network_map(player).pipelines
            if not any(highest_grade_from_crude(state, p.colour, p.value(eng)) for p in pipelines):
                without += 1
                print(f"seed {seed} seat {player.seat}: no refining Pipeline, ${player.money}")
    print(
        f"{without} of {seats} seats without a refining Pipeline after Year 1 "
        f"({args.bots}, seeds {args.seed}-{args.seed + args.games - 1})"
    )


if __name__ == "__main__":
    main()
