"""Bot strength in blocks: run ``python benchmarks/bench_bots.py`` from the repository root.

Plays the arena's games (``pipeline_tui.ai.arena.run_games``, as ``pipeline-tui arena`` does) in
blocks of ``--block`` games, printing each block's search wins and wall time as it ends, then
the arena table over all of them. Block ``k`` plays seeds ``seed + k*block`` onwards; with a
block that is a multiple of the player count the seats rotate exactly as in one long run, so
the results equal ``pipeline-tui arena --games N --seed S`` (timings apart). The block lines
show a long run's progress and keep its results if it is interrupted.

    python benchmarks/bench_bots.py --players 4 --games 200 --seed 5000 --bots search,heuristic
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline_tui.ai.arena import report, run_games, summarise  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--block", type=int, default=20)
    parser.add_argument("--bots", default="search,heuristic")
    parser.add_argument("--samples", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    bots = args.bots.split(",")
    records = []
    started = time.perf_counter()
    for first in range(0, args.games, args.block):
        count = min(args.block, args.games - first)
        t = time.perf_counter()
        block = run_games(bots, args.players, count, args.seed + first, jobs=args.jobs, samples=args.samples)
        records.extend(block)
        wins = {
            bot: sum(any(s.rank == 1 for s in r.seats if s.bot == bot) for r in block)
            for bot in dict.fromkeys(bots)
        }
        print(
            f"seeds {args.seed + first}-{args.seed + first + count - 1}: "
            + ", ".join(f"{bot} {n}" for bot, n in wins.items())
            + f" wins; {time.perf_counter() - t:.0f} s",
            flush=True,
        )
    print(
        f"{len(records)} games, {args.players} players, seeds {args.seed}-"
        f"{args.seed + len(records) - 1}, {time.perf_counter() - started:.0f} s"
    )
    print("\n".join(report(summarise(records))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
