"""Contracts the heuristic takes and fails, playing itself: ``python benchmarks/contracts_kept.py
[--root PATH] [--seed S] [--games N]``.

Game ``i`` is a 2-player game on seed ``S+i`` with the printed components, each seat a heuristic
bot seeded with the game's seed (as ``pipeline-tui arena --bots heuristic,heuristic`` plays it).
Over every seat it prints the Contracts taken, the Contracts failed (Penalty markers less
Loans: a Loan brings one marker, a Contract incomplete at a Refresh or at the end another),
the seats that failed one, the seats with Contract or Order money, the Loans, and the mean
score. ``--root`` is the checkout whose package plays (a ``git archive`` copy of another commit
compares the two); ``docs/bots.md``, "Contracts the heuristic could not fill".
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose package to play")
    parser.add_argument("--seed", type=int, default=2000)
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    sys.path.insert(0, str(args.root.resolve()))

    from pipeline_tui.ai import make_bot
    from pipeline_tui.data.editions import PRINTED_EDITION
    from pipeline_tui.engine import Game, GameSetup, PlayerSetup
    from pipeline_tui.engine import moves as M

    kinds = ["heuristic", "heuristic"]
    total: Counter[str] = Counter()
    scores: list[int] = []
    for seed in range(args.seed, args.seed + args.games):
        players = tuple(PlayerSetup(f"{kind}-{i + 1}", kind) for i, kind in enumerate(kinds))
        game = Game(GameSetup(seed=seed, players=players, edition=PRINTED_EDITION))
        bots = [make_bot(kind, seed=seed) for kind in kinds]
        taken, loans, money = Counter[int](), Counter[int](), Counter[int]()
        while not game.state.over:
            seat = game.current_player
            move = bots[seat].choose(game)
            taken[seat] += type(move) is M.TakeContract and move.kind == "contract"
            loans[seat] += type(move) is M.TakeLoan
            cash = game.state.players[seat].money
            game.apply_trusted(move)
            if type(move) in (M.Deliver, M.FulfilOrder):
                money[seat] += game.state.players[seat].money - cash
        for seat, player in enumerate(game.state.players):
            failed = player.penalties - loans[seat]
            total["Contracts taken"] += taken[seat]
            total["Contracts failed"] += failed
            total["seats that failed one"] += failed > 0
            total["seats with Contract or Order money"] += money[seat] > 0
            total["Loans"] += loans[seat]
        scores += [score.total for score in game.scores()]
    print(f"{args.root}: seeds {args.seed}-{args.seed + args.games - 1}, {2 * args.games} seats")
    for name, count in total.items():
        print(f"  {name:36} {count}")
    print(f"  {'mean score':36} {sum(scores) / len(scores):.1f}")


if __name__ == "__main__":
    main()
