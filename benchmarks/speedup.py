"""The engine's speed-up over an older commit: run ``python benchmarks/speedup.py`` from the root.

Issue 16 (point 7) asks for 100,000 random decisions a second "from about 27k today": a figure
read on one machine on one day. Machines differ (the same commit measured 2-3 times apart on
this shared machine from one day to the next), so this script measures the speed-up itself: it
extracts the older commit with ``git archive`` and times the same random games in both trees,
alternating, each run in a fresh process. The games are those of ``bench_engine.py``: seeded
4-player games (seeds 0-8), every move a uniform choice among ``legal_moves()`` played through
the checked ``Game.apply``. A rate is the games' moves over the process CPU time they took.

With ``--callgrind`` it also counts the instructions a move in each tree under valgrind's
callgrind (the same games, less a run that only imports the engine): a count that does not
depend on what else the machine is doing.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

GAMES = """
import random, sys, time
sys.path.insert(0, sys.argv[1])
from pipeline_tui.engine import Game, GameSetup

def random_game(seed):
    game = Game(GameSetup.default(players=4, seed=seed))
    rng = random.Random(seed)
    while not game.is_over():
        game.apply(rng.choice(game.legal_moves()))
    return game

count = int(sys.argv[2])
timed = sys.argv[3] == "timed"
if timed:
    random_game(99)  # warm up: imports, caches
moves, seconds = 0, 0.0
for seed in range(count):
    start = time.process_time()
    game = random_game(seed)
    seconds += time.process_time() - start
    moves += len(game.moves)
print(moves, seconds)
"""


def run(tree: Path, games: int, timed: bool = True, wrap: list[str] | None = None) -> tuple[int, float]:
    """Moves played and CPU seconds taken by ``games`` random games in ``tree``."""
    command = [
        *(wrap or []),
        sys.executable,
        "-c",
        GAMES,
        str(tree),
        str(games),
        "timed" if timed else "count",
    ]
    env = dict(os.environ, PYTHONHASHSEED="0")
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
    moves, seconds = done.stdout.split()
    return int(moves), float(seconds)


def instructions(tree: Path, games: int, out: Path) -> int:
    """Instructions counted by callgrind for ``games`` random games in ``tree``."""
    wrap = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
    run(tree, games, timed=False, wrap=wrap)
    for line in out.read_text().splitlines():
        if line.startswith("summary:") or line.startswith("totals:"):
            return int(line.split()[1])
    raise RuntimeError(f"no instruction total in {out}")


def extract(rev: str, into: Path) -> Path:
    """The tree of ``rev`` in a folder under ``into`` (``git archive``)."""
    tree = into / re.sub(r"[^\w.-]", "_", rev)
    tree.mkdir()
    archive = into / "tree.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "-C", str(ROOT), "archive", rev], stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    return tree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="212328a", help="the older commit (default: before the speed work)")
    parser.add_argument("--pairs", type=int, default=8, help="alternating runs of each tree")
    parser.add_argument("--games", type=int, default=9, help="random games a run (seeds 0..N-1)")
    parser.add_argument("--callgrind", action="store_true", help="also count instructions a move")
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="speedup-"))
    try:
        base = extract(args.base, workdir)
        trees = {f"base {args.base}": base, "this tree": ROOT}
        rates: dict[str, list[float]] = {name: [] for name in trees}
        ratios = []
        for index in range(args.pairs):
            pair, played = {}, set()
            for name, tree in trees.items():
                moves, seconds = run(tree, args.games)
                played.add(moves)
                pair[name] = moves / seconds
                rates[name].append(pair[name])
            if len(played) > 1:
                sys.exit(
                    f"speedup: the trees played different games ({sorted(played)} moves): not comparable"
                )
            ratio = pair["this tree"] / pair[f"base {args.base}"]
            ratios.append(ratio)
            print(
                f"pair {index + 1}: base {pair[f'base {args.base}']:,.0f}, this tree {pair['this tree']:,.0f}"
                f" random decisions a second ({ratio:.2f}x)",
                flush=True,
            )
        for name, values in rates.items():
            print(
                f"{name:<16} random decisions a second: median {statistics.median(values):,.0f}"
                f" (min {min(values):,.0f}, max {max(values):,.0f}; {len(values)} runs of {moves} moves)"
            )
        print(
            f"speed-up         median {statistics.median(ratios):.2f}x (min {min(ratios):.2f}x, max {max(ratios):.2f}x)"
        )
        if args.callgrind:
            if shutil.which("valgrind") is None:
                sys.exit("speedup: --callgrind needs valgrind on the PATH")
            per_move = {}
            for name, tree in trees.items():
                idle = instructions(tree, 0, workdir / "idle.out")
                busy = instructions(tree, args.games, workdir / "busy.out")
                per_move[name] = (busy - idle) / moves
                print(f"{name:<16} instructions a move: {per_move[name]:,.0f}")
            print(
                f"speed-up         {per_move[f'base {args.base}'] / per_move['this tree']:.2f}x fewer instructions"
            )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
