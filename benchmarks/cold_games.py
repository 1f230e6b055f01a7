"""The benchmark's random games, cold, for CPU time and for valgrind's instruction counts.

``python benchmarks/cold_games.py [--root PATH] [--warm-up-only]``: imports the engine from
``--root`` (default: this checkout; a ``git archive`` copy of another commit compares the two),
plays one warm-up game (seed 10000, as ``bench_engine.py``), then the 9 random 4-player games
of ``bench_engine.py`` (seeds 0-8) and prints their random decisions a second of CPU time
(``time.process_time``). Each game meets new networks and a new market layout, as in
``bench_engine.py``; playing the same games twice in one process would time a second round
whose networks are all cached. Under valgrind, the games' instructions are a run's ``Collected``
less that of a ``--warm-up-only`` run (see docs/benchmarks.md, "Third pass")::

    valgrind --tool=callgrind python benchmarks/cold_games.py --warm-up-only
    valgrind --tool=callgrind python benchmarks/cold_games.py
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose engine to play")
    parser.add_argument("--warm-up-only", action="store_true", help="stop after the warm-up game")
    args = parser.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    from pipeline_tui.engine import Game, GameSetup

    def random_game(seed: int) -> int:
        game = Game(GameSetup.default(players=4, seed=seed))
        rng = random.Random(seed)
        while not game.is_over():
            game.apply(rng.choice(game.legal_moves()))
        return len(game.moves)

    random_game(10_000)
    gc.collect()
    gc.freeze()
    if args.warm_up_only:
        return
    start = time.process_time()
    moves = sum(random_game(seed) for seed in range(9))
    seconds = time.process_time() - start
    print(
        f"{moves} moves, {seconds * 1e3:.1f} ms of CPU time, {moves / seconds:,.0f} random decisions a second"
    )


if __name__ == "__main__":
    main()
