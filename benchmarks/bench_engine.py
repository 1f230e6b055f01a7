"""Engine benchmarks: run ``python benchmarks/bench_engine.py`` from the repository root.

Prints one line per figure (see ``docs/benchmarks.md`` for the method and the targets). All
games are seeded 4-player games; a "random game" chooses uniformly among ``legal_moves()`` with
``random.Random(seed)`` and plays through ``Game.apply`` (checked), so it includes the cost of
enumerating the legal moves at every step.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402

from pipeline_tui.engine import Game, GameSetup  # noqa: E402
from pipeline_tui.engine import rules  # noqa: E402
from pipeline_tui.engine.game import CHECKPOINT_EVERY  # noqa: E402
from pipeline_tui.engine.moves import AnyMove  # noqa: E402
from pipeline_tui.engine.setup import initial_state  # noqa: E402
from pipeline_tui.engine.state import clone_state  # noqa: E402

PLAYERS = 4
TARGETS_MS = {"random game": 50.0, "load + replay": 20.0, "undo": 2.0}


def random_game(seed: int) -> Game:
    game = Game(GameSetup.default(players=PLAYERS, seed=seed))
    rng = random.Random(seed)
    while not game.is_over():
        game.apply(rng.choice(game.legal_moves()))
    return game


def timed(fn, *args):
    start = time.perf_counter()
    result = fn(*args)
    return time.perf_counter() - start, result


def bench_random_games(seeds) -> tuple[list[float], list[Game]]:
    times, games = [], []
    for seed in seeds:
        seconds, game = timed(random_game, seed)
        times.append(seconds * 1e3)
        games.append(game)
    return times, games


def bench_apply(games: list[Game]) -> tuple[float, float]:
    """Mean µs per checked ``apply_move`` and per ``apply_trusted`` over whole game logs."""
    checked = trusted = 0.0
    count = 0
    for game in games:
        for fn in (rules.apply_move, rules.apply_trusted):
            state = initial_state(game.setup)
            start = time.perf_counter()
            for move in game.moves:
                fn(state, move)
            elapsed = time.perf_counter() - start
            if fn is rules.apply_move:
                checked += elapsed
            else:
                trusted += elapsed
        count += len(game.moves)
    return checked / count * 1e6, trusted / count * 1e6


def bench_legal_moves(games: list[Game]) -> tuple[float, float, float, int]:
    """Mean, median and 99th percentile µs per ``rules.legal_moves`` call over every state of
    the games (the worst single call is mostly scheduler noise on a shared machine)."""
    per_call = []
    lengths = []
    for game in games:
        state = initial_state(game.setup)
        for move in game.moves:
            start = time.perf_counter()
            legal = rules.legal_moves(state)
            per_call.append(time.perf_counter() - start)
            lengths.append(len(legal))
            rules.apply_trusted(state, move)
    per_call.sort()
    p99 = per_call[int(len(per_call) * 0.99)]
    return (statistics.fmean(per_call) * 1e6, statistics.median(per_call) * 1e6, p99 * 1e6, max(lengths))


def bench_load_replay(games: list[Game], repeats: int) -> tuple[list[float], list[float]]:
    """ms to rebuild a game from its JSON: msgspec decode + ``Game(setup, moves)``, and
    ``pipeline_tui.storage.load_game`` from a file (read, validate, replay with checks)."""
    from pipeline_tui.storage import load_game, save_game

    class Log(msgspec.Struct):
        setup: GameSetup
        moves: list[AnyMove]

    decoder = msgspec.json.Decoder(Log)
    plain, stored = [], []
    with tempfile.TemporaryDirectory() as folder:
        for game in games:
            data = msgspec.json.encode(Log(game.setup, game.moves))
            path = Path(folder) / "game.json"
            save_game(game, path, force=True)
            for _ in range(repeats):
                start = time.perf_counter()
                log = decoder.decode(data)
                rebuilt = Game(log.setup, log.moves)
                plain.append((time.perf_counter() - start) * 1e3)
                assert rebuilt.state == game.state
                start = time.perf_counter()
                loaded = load_game(path)
                stored.append((time.perf_counter() - start) * 1e3)
                assert loaded.state == game.state
    return plain, stored


def bench_undo(games: list[Game]) -> tuple[float, float, float]:
    """ms per ``undo()`` at the end of each game: the last move, then each of the last
    ``CHECKPOINT_EVERY`` (one per distance from a checkpoint), redone after each measurement."""
    last, window = [], []
    for game in games:
        game = game.clone()
        final = clone_state(game.state)
        seconds, _ = timed(game.undo)
        last.append(seconds * 1e3)
        game.redo()
        assert game.state == final
        undone = []
        for _ in range(CHECKPOINT_EVERY):
            seconds, move = timed(game.undo)
            window.append(seconds * 1e3)
            undone.append(move)
        for _ in undone:
            game.redo()
        assert game.state == final
    return statistics.median(last), statistics.median(window), max(window)


def bench_import() -> tuple[float, float, float]:
    """``-X importtime`` total (sum of self times) for ``import pipeline_tui.engine``, and wall
    ms of a fresh interpreter importing it against one that imports nothing. Bytecode is cached
    first (in a private ``PYTHONPYCACHEPREFIX``), as after any install; without it the figure
    mostly measures compiling the rules package."""
    cache = tempfile.mkdtemp(prefix="bench-pycache-")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = cache
    subprocess.run([sys.executable, "-c", "import pipeline_tui.engine"], cwd=ROOT, env=env, check=True)
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import pipeline_tui.engine"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=True,
    )
    total = own = 0
    for line in result.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        self_us, _cumulative, name = line.removeprefix("import time:").split("|")
        total += int(self_us)
        if name.strip().startswith("pipeline_tui"):
            own += int(self_us)

    def wall(code: str) -> float:
        runs = []
        for _ in range(7):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True)
            runs.append(time.perf_counter() - start)
        return statistics.median(runs) * 1e3

    figures = total / 1e3, own / 1e3, wall("import pipeline_tui.engine") - wall("pass")
    shutil.rmtree(cache, ignore_errors=True)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=9, help="random games to time (>= 5)")
    args = parser.parse_args()

    random_game(10_000)  # warm up: tile table, caches, bytecode
    gc.collect()
    gc.freeze()  # as the command line and the app do after start-up (see docs/benchmarks.md)
    times, games = bench_random_games(range(args.games))
    moves = [len(g.moves) for g in games]
    print(
        f"random 4p game        median {statistics.median(times):7.2f} ms  "
        f"(min {min(times):.2f}, max {max(times):.2f}; {args.games} seeds, "
        f"{min(moves)}-{max(moves)} moves)  target <= {TARGETS_MS['random game']:.0f} ms"
    )
    per_move = [t / n * 1e3 for t, n in zip(times, moves)]
    print(f"  per move (legal_moves + choice + apply)  median {statistics.median(per_move):6.1f} µs")
    print(
        f"  random decisions a second  {sum(moves) / sum(times) * 1e3:,.0f} "
        "(every move of the timed games over their total time, one process)"
    )

    checked, trusted = bench_apply(games)
    print(f"apply() per move      {checked:7.1f} µs checked, {trusted:.1f} µs trusted")

    mean, median, p99, longest = bench_legal_moves(games)
    print(
        f"legal_moves() per call {mean:6.1f} µs mean, {median:.1f} µs median, {p99:.1f} µs p99 "
        f"(longest list {longest})"
    )

    plain, stored = bench_load_replay(games, repeats=5)
    print(
        f"load + replay         median {statistics.median(plain):7.2f} ms msgspec + Game, "
        f"{statistics.median(stored):.2f} ms storage.load_game  "
        f"target <= {TARGETS_MS['load + replay']:.0f} ms"
    )

    last, window, worst_undo = bench_undo(games)
    print(
        f"undo() at game end    median {last:7.3f} ms last move; last {CHECKPOINT_EVERY} moves median "
        f"{window:.3f} ms, worst {worst_undo:.3f} ms  target <= {TARGETS_MS['undo']:.0f} ms"
    )

    total, own, wall = bench_import()
    print(
        f"import pipeline_tui.engine  -X importtime total {total:.1f} ms "
        f"(pipeline_tui modules {own:.1f} ms); wall {wall:.1f} ms over a bare interpreter"
    )


if __name__ == "__main__":
    main()
