"""Digests of seeded games, to show a speed-up plays the same: the moves, and every value
``evaluate`` returned on the way.

``python benchmarks/move_digest.py [--root PATH] [--bots heuristic,heuristic;search,heuristic]``
imports the package from ``--root`` (default: this checkout; a ``git archive`` copy of another
commit compares the two) and prints one line for 27 random games (seeds 0-8 at 2, 3 and 4
players), then one per bot game (2 players, seeds 1000 and 1001, ``samples=4``): the digest of
its moves, its scores, how many times ``evaluate`` was called so far and the digest of all the
values it returned (the bots call it through names bound at import, so the digest is taken by
swapping the function's code, not its name).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import struct
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose package to play")
    parser.add_argument(
        "--bots", default="heuristic,heuristic;search,heuristic", help="pairings, ';' between"
    )
    args = parser.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    from pipeline_tui.ai import evaluate as ev
    from pipeline_tui.ai import make_bot
    from pipeline_tui.data.editions import PRINTED_EDITION
    from pipeline_tui.engine import Game, GameSetup, PlayerSetup

    values = hashlib.sha256()
    calls = [0]
    original = type(ev.evaluate)(
        ev.evaluate.__code__, ev.evaluate.__globals__, "evaluate", ev.evaluate.__defaults__
    )

    def record(state, seat, turn_done):  # type: ignore[no-untyped-def]
        value = original(state, seat, turn_done)
        values.update(struct.pack("<d", value))
        calls[0] += 1
        return value

    def recorded(state, seat, turn_done=True):  # type: ignore[no-untyped-def]
        return _DIGEST_RECORD(state, seat, turn_done)  # noqa: F821 (a global of evaluate's module)

    ev.evaluate.__globals__["_DIGEST_RECORD"] = record
    ev.evaluate.__code__ = recorded.__code__

    moves = hashlib.sha256()
    for players in (2, 3, 4):
        for seed in range(9):
            game = Game(GameSetup.default(players=players, seed=seed))
            rng = random.Random(seed)
            while not game.is_over():
                game.apply(rng.choice(game.legal_moves()))
            moves.update(repr(game.moves).encode())
    print(f"random games: moves {moves.hexdigest()[:16]}")
    for pairing in args.bots.split(";"):
        bots = pairing.split(",")
        for seed in (1000, 1001):
            start = time.process_time()
            setup = GameSetup(
                seed=seed,
                players=tuple(PlayerSetup(f"{bot}-{i + 1}", bot) for i, bot in enumerate(bots)),
                edition=PRINTED_EDITION,
            )
            game = Game(setup)
            seats = [make_bot(bot, seed=seed, samples=4) for bot in bots]
            while not game.is_over():
                game.apply_trusted(seats[game.current_player].choose(game))
            digest = hashlib.sha256(repr(game.moves).encode()).hexdigest()[:16]
            print(
                f"{pairing} seed {seed}: moves {digest} ({len(game.moves)}, scores "
                f"{[s.total for s in game.scores()]}); evaluate calls {calls[0]}, values "
                f"{values.hexdigest()[:16]}; {time.process_time() - start:.2f} s CPU",
                flush=True,
            )


if __name__ == "__main__":
    main()
