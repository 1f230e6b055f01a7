"""The table's economy in bot games: run ``python benchmarks/economy.py`` from the repository root.

What each bot does with its Actions and barrels, per seat and game, and how full the Refined
Markets stand: the figures behind issue 16's economy targets (``docs/bots.md``, "The table's
economy"). Seats rotate as in ``pipeline-tui arena`` (game ``g`` on seed ``S+g``, the bots
rotated by ``g``), so a run here plays the same games as an arena run with the same arguments.

Printed per bot, per seat and game: the Main Actions by kind; refined barrels sold by the grade
paid (a barrel sold below its grade counts at the grade paid); barrels delivered to Contracts and
Orders fulfilled; turns that ended owning a Machine, Machine Phases run, and the share of those
turns that ran one; Tanks bought; and the seats' wins (a tie for first counts) and mean score. For the table: the share of the Refined Markets' slots in play
(refined rows, above Crude) that held a barrel at the start of each Round, mean and most.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline_tui.ai import bot_kind, make_bot  # noqa: E402
from pipeline_tui.ai.arena import action_name, seat_bots  # noqa: E402
from pipeline_tui.data.editions import PRINTED_EDITION  # noqa: E402
from pipeline_tui.engine import Game, GameSetup, PlayerSetup, Stage, market_rows  # noqa: E402
from pipeline_tui.engine import moves as M  # noqa: E402


def play(
    bots: list[str], seed: int, samples: int | None, counts: dict[str, Counter], fills: list[float]
) -> None:
    """One game; adds each seat's counts under its bot's name and the Round-start fills."""
    setup = GameSetup(
        seed=seed,
        players=tuple(PlayerSetup(f"{bot}-{i + 1}", bot) for i, bot in enumerate(bots)),
        edition=PRINTED_EDITION,
    )
    game = Game(setup)
    players = [make_bot(bot, seed=seed, samples=samples) for bot in bots]
    rows = market_rows(game.state)
    grade_of = {row.code: row.grade for row in rows}
    refined = [i for i, row in enumerate(rows) if row.market != "C" and row.grade > 0]
    slots = sum(len(rows[i].slots[len(bots)]) for i in refined)
    last_round = None
    while not game.is_over():
        state = game.state
        if state.turn.stage != Stage.SETUP and (state.year, state.round) != last_round:
            last_round = (state.year, state.round)
            fills.append(sum(1 for i in refined for barrel in state.markets[i] if barrel >= 0) / slots)
        seat = game.current_player
        move = players[seat].choose(game)
        seen = counts[bots[seat]]
        name = action_name(move)
        if name is not None and not name.startswith("second"):
            seen[f"main: {name}"] += 1
        match move:
            case M.Sell():
                seen[f"sold grade {grade_of[move.row]}"] += 1
            case M.Deliver():
                seen["barrels delivered to Contracts"] += 1
            case M.FulfilOrder():
                seen["Orders fulfilled"] += 1
            case M.RunMachines():
                seen["Machine Phases run"] += 1
            case M.BuyTank():
                seen["Tanks bought"] += 1
            case M.EndTurn() if state.players[seat].machines:
                seen["turns ending with a Machine"] += 1
        game.apply_trusted(move)
    for score in game.scores():
        seen = counts[bots[score.seat]]
        seen["seat games"] += 1
        seen["score"] += score.total
        seen["wins (ties count)"] += score.rank == 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="heuristic,heuristic", help="one per seat, as in arena")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=90000)
    parser.add_argument("--samples", type=int, default=4, help="search and expert bots: rounds a turn")
    args = parser.parse_args()
    names = [bot_kind(name.strip()) for name in args.bots.split(",")]
    counts: dict[str, Counter] = defaultdict(Counter)
    fills: list[float] = []
    started = time.perf_counter()
    for g in range(args.games):
        play(seat_bots(names, args.players, g), args.seed + g, args.samples, counts, fills)
    print(
        f"{args.games} games, {args.players} players, seeds {args.seed}-{args.seed + args.games - 1}, "
        f"bots {', '.join(names)}, --samples {args.samples}; {time.perf_counter() - started:.0f} s"
    )
    print(
        f"Refined Markets' slots holding a barrel at Round starts: mean {100 * statistics.fmean(fills):.1f}%, "
        f"most {100 * max(fills):.1f}%"
    )
    for bot, seen in sorted(counts.items()):
        n = seen.pop("seat games")
        wins, score = seen.pop("wins (ties count)"), seen.pop("score")
        print(f"{bot} ({n} seat games, {wins} won, mean score {score / n:.1f}), per seat and game:")
        for key in sorted(seen):
            print(f"  {key:<34} {seen[key] / n:6.2f}")
        owned = seen["turns ending with a Machine"]
        if owned:
            print(
                f"  {'share of those turns with a Phase':<34} {100 * seen['Machine Phases run'] / owned:5.1f}%"
            )


if __name__ == "__main__":
    main()
