"""A seat's CPU per move at a shared table (issue 38, point 2): what one session child spends
when a move lands, seated or watching.

One session's app (``SharedApp``, the table screen with a ``SharedSeat`` over a ``RemoteGame``,
as ``pipeline-tui serve`` runs it) is driven through ``App.run_test`` at 80x24 and 160x48,
seated at one seat of a 4-seat table (seed 7, the table of ``bench_ssh.py``) or watching it.
No Hub runs: a stand-in client takes the moves sent from here, and the Updates come as the
Hub words them (``base``, the move in notation, the seats, the note "{name}: {move}"). The
moves are those of ``bench_ssh.py``: round robin over each position's legal moves, runs that
would refine nothing skipped.

For each move: the CPU time of this process (``time.process_time``) from handing the Update to
the replica until the app has drawn its screen (Pilot's pause: every pending message and
refresh handled). Moves are counted by kind:

- others: another seat's move after which it is still not this seat's turn,
- turn: another seat's move that makes it this seat's turn,
- own: a move of this seat, played with enter at the prompt and confirmed by the Hub's Update,
- typing: typing that move at the prompt before (``:`` and the move, as bench_ssh.py types it).

``--profile FILE`` writes cProfile statistics of the measured spans of the kinds ``--profiled``
names (default ``others,turn``) to FILE and prints the top functions by cumulative time.

Run: ``python benchmarks/bench_seat.py [--seat 1] [--spectator] [--moves 60] [--size 80x24]
[--profile out.prof]``. Prints a line per kind: moves, median and mean CPU ms.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from textual import events  # noqa: E402
from textual.keys import _character_to_key  # noqa: E402

from pipeline_tui.engine.game import Game  # noqa: E402
from pipeline_tui.engine.moves import format_move  # noqa: E402
from pipeline_tui.engine.rules import why_idle  # noqa: E402
from pipeline_tui.engine.setup import GameSetup, PlayerSetup  # noqa: E402
from pipeline_tui.net.protocol import Joined, SeatInfo, Update  # noqa: E402
from pipeline_tui.net.remote import RemoteGame  # noqa: E402
from pipeline_tui.ui.lobby import SharedApp  # noqa: E402
from pipeline_tui.ui.seats import SharedSeat  # noqa: E402
from pipeline_tui.ui.table_screen import TableScreen  # noqa: E402

NAMES = ("Ada", "Bo", "Cy", "Di")
TABLE = "t1"
QUIET = 0.05  # seconds: a window in which an app with nothing left to do spends no CPU


def playable(game: Game, count: int):
    """The legal move at ``count`` (round robin), skipping runs that would refine nothing (as
    bench_ssh.py chooses)."""
    moves = [m for m in game.legal_moves() if why_idle(game.state, m) is None] or game.legal_moves()
    return moves[count % len(moves)]


class StandInClient:
    """The Hub's side of the moves sent from this seat: taken, and answered by the harness."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def move(self, table_id: str, text: str) -> None:
        self.sent.append(text)

    async def undo(self, table_id: str) -> None:
        return None

    async def leave(self, table_id: str) -> None:
        return None


class SeatApp(SharedApp):
    """The session's app, at the table from the start (no lobby, no Hub)."""

    CSS_PATH = str(ROOT / "pipeline_tui" / "ui" / "app.tcss")  # relative paths follow the module

    def __init__(self, remote: RemoteGame) -> None:
        super().__init__(Path("/nonexistent"), "")
        self.remote = remote

    async def on_mount(self, event) -> None:  # type: ignore[override]
        event.prevent_default()
        assert self.remote is not None
        self.push_screen(TableScreen(self.remote, policy=SharedSeat()))


def seats() -> list[SeatInfo]:
    return [
        SeatInfo(seat=i, name=n, kind="human", holder=f"player{i}", connected=True)
        for i, n in enumerate(NAMES)
    ]


def update(game: Game, text: str, mover: int) -> Update:
    """The Hub's Update for the move ``text`` just applied to ``game``."""
    return Update(
        table_id=TABLE,
        base=len(game.moves) - 1,
        moves=[text],
        seats=seats(),
        note=f"{NAMES[mover]}: {text}",
        note_id="{name}: {move}",
        note_values={"name": NAMES[mover], "move": text},
    )


class Watch:
    """CPU time per measured span, by kind; the kinds asked for are profiled too."""

    def __init__(self, profile: cProfile.Profile | None, profiled: set[str]) -> None:
        self.kinds: dict[str, list[float]] = {"others": [], "turn": [], "own": [], "typing": []}
        self.profile = profile
        self.profiled = profiled

    def start(self, kind: str) -> float:
        if self.profile is not None and kind in self.profiled:
            self.profile.enable()
        return time.process_time()

    def stop(self, kind: str, start: float) -> None:
        self.kinds[kind].append(1000 * (time.process_time() - start))
        if self.profile is not None and kind in self.profiled:
            self.profile.disable()


def type_keys(app: SharedApp, text: str) -> None:
    """The keys of ``text`` handed to the app at once, as an SSH channel delivers a line typed
    in one write (bench_ssh.py's)."""
    driver = app._driver
    assert driver is not None
    for char in text:
        key = "enter" if char == "\r" else _character_to_key(char) if not char.isalnum() else char
        event = events.Key(key, char)
        event.set_sender(app)
        driver.send_message(event)


async def settle() -> None:
    """Until the app has drawn what it was handed: its CPU time stood still over two windows of
    50 ms in a row. (Pilot's pause wakes every widget of the screen, some 6 ms of CPU a time,
    as much as a spectator spends on a move.)"""
    quiet = 0
    while quiet < 2:
        before = time.process_time()
        await asyncio.sleep(QUIET)
        quiet = quiet + 1 if time.process_time() - before < 0.0005 else 0


async def measure(
    seat: int | None, moves: int, size: tuple[int, int], profile: cProfile.Profile | None, profiled: set[str]
) -> dict[str, list[float]]:
    setup = GameSetup(seed=7, players=tuple(PlayerSetup(n, "human") for n in NAMES))
    hub = Game(setup)
    client = StandInClient()
    joined = Joined(table_id=TABLE, setup=setup, moves=[], seats=seats(), seat=seat)
    remote = RemoteGame(client, joined)  # type: ignore[arg-type]
    app = SeatApp(remote)
    watch = Watch(profile, profiled)
    kinds = watch.kinds
    async with app.run_test(size=size):
        await settle()
        await asyncio.sleep(0.3)
        await settle()
        for count in range(moves):
            mover = hub.current_player
            move = playable(hub, count)
            text = format_move(move)
            if mover == seat:
                start = watch.start("typing")
                type_keys(app, ":" + text)
                await settle()
                watch.stop("typing", start)
                start = watch.start("own")
                type_keys(app, "\r")
                await settle()
                hub.apply(move)
                assert client.sent and client.sent[-1] == text, (client.sent[-1:], text)
                remote.update(update(hub, text, mover))
                await settle()
                watch.stop("own", start)
                continue
            hub.apply(move)
            kind = "turn" if hub.current_player == seat and not hub.is_over() else "others"
            start = watch.start(kind)
            remote.update(update(hub, text, mover))
            await settle()
            watch.stop(kind, start)
            assert len(remote.moves) == len(hub.moves)
    return kinds


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seat", type=int, default=1, help="the seat played here, 1-4 (default 1)")
    parser.add_argument("--spectator", action="store_true", help="watch the table instead")
    parser.add_argument("--moves", type=int, default=60, help="moves of the game (default 60)")
    parser.add_argument("--size", default="80x24", help="terminal size (default 80x24)")
    parser.add_argument("--profile", help="write cProfile statistics of the measured spans here")
    parser.add_argument(
        "--profiled", default="others,turn", help="the kinds of move profiled (default others,turn)"
    )
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    seat = None if args.spectator else args.seat - 1
    profile = cProfile.Profile(time.process_time) if args.profile else None  # CPU, not waits
    kinds = asyncio.run(measure(seat, args.moves, (width, height), profile, set(args.profiled.split(","))))
    who = "spectator" if seat is None else f"seat {seat + 1}"
    print(f"{who} at {args.size}, {args.moves} moves of seed 7, CPU ms per move (median, mean, max):")
    for kind, spent in kinds.items():
        if spent:
            print(
                f"  {kind:<7} {len(spent):>3} moves: {statistics.median(spent):6.1f} "
                f"{statistics.fmean(spent):6.1f} {max(spent):6.1f}"
            )
    if profile is not None:
        profile.dump_stats(args.profile)
        stats = pstats.Stats(args.profile)
        stats.sort_stats("cumulative").print_stats("pipeline_tui", 40)
        stats.sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
