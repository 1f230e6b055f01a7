"""A move on a watcher's screen, in-process: the CPU a spectator's session spends per move.

Issue 38 (point 2) asks for a move on all 40 screens of a table (4 seats, 36 watchers) within
150 ms on 2 cores; each screen redraws in its own process, so the CPU every one of them spends
on a move bounds that from below. This runs the session's own app (``SharedApp``, its stylesheet
and its ``SharedSeat`` table screen over a ``RemoteGame``) under ``App.run_test`` at a terminal
size, without SSH or a Hub: the app watches the table (or sits at ``--seat``), and each move of
a seeded game (``bench_ssh.py``'s, move for move) is handed to it as the Hub hands one to a
watcher, an ``Update`` through ``SharedApp._update``. What it reports, per move:

- CPU time of this process (``time.process_time``) from the Update to the screen settled:
  the replica applying the move, the table's redraw, Textual's styles, layout, compositor and
  the frame turned into terminal output (``render_segments``, which a headless app skips and
  a session does for its terminal; added here), garbage collection included;
- the frames drawn and the bytes of terminal output they make.

The session's garbage collector is set as ``serve/session.py`` sets it (threshold, freeze after
the table is drawn), unless ``--gc default``. ``--profile FILE`` writes a cProfile of the moves
(read it with ``python -m pstats FILE``); ``--top N`` prints the N costliest functions.

Run from the repository root: ``python benchmarks/bench_redraw.py [--size 80x24] [--moves 40]
[--start 0] [--seat N] [--runs 3] [--profile FILE]``. Prints one line per run and figure.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from textual._compositor import CompositorUpdate  # noqa: E402
from textual.screen import Screen  # noqa: E402

from pipeline_tui.engine.game import Game  # noqa: E402
from pipeline_tui.engine.moves import format_move  # noqa: E402
from pipeline_tui.engine.rules import why_idle  # noqa: E402
from pipeline_tui.engine.setup import GameSetup, PlayerSetup  # noqa: E402
from pipeline_tui.net.protocol import Joined, SeatInfo, Update  # noqa: E402
from pipeline_tui.net.remote import RemoteGame  # noqa: E402
from pipeline_tui.serve.session import GC_YOUNG  # noqa: E402
from pipeline_tui.ui.lobby import SharedApp  # noqa: E402
from pipeline_tui.ui.seats import SharedSeat  # noqa: E402
from pipeline_tui.ui.table_screen import TableScreen  # noqa: E402

NAMES = ("Ada", "Bo", "Cy", "Di")
TABLE = "t1"
QUIET = 0.1  # seconds without a frame: the move is drawn


def seeded_log(players: int, count: int) -> tuple[GameSetup, list[str]]:
    """``bench_ssh.py``'s table (seed 7, all seats human) and its first ``count`` moves, chosen
    as it chooses them (round robin over the legal moves that are not idle runs)."""
    setup = GameSetup(seed=7, players=tuple(PlayerSetup(n, "human") for n in NAMES[:players]))
    game = Game(setup)
    log: list[str] = []
    for index in range(count):
        if game.is_over():
            break
        legal = game.legal_moves()
        moves = [m for m in legal if why_idle(game.state, m) is None] or legal
        move = moves[index % len(moves)]
        game.apply(move)
        log.append(format_move(move))
    return setup, log


def seats(players: int) -> list[SeatInfo]:
    return [
        SeatInfo(seat=i, name=NAMES[i], kind="human", holder=f"player{i}", connected=True)
        for i in range(players)
    ]


class Offline:
    """Stands in for the Hub connection: the watcher never sends anything."""

    bell = False
    language = ""


class WatchApp(SharedApp):
    """The session's app, joined to the table at once (no Hub): ``joined`` is what the Hub
    would have answered to the join."""

    CSS_PATH = str(ROOT / "pipeline_tui" / "ui" / SharedApp.CSS_PATH)  # relative to its module

    def __init__(self, joined: Joined) -> None:
        super().__init__(Path("/nonexistent"), "token")
        self.joined = joined
        self.frames = 0
        self.written = 0
        self.drawn = 0.0  # process_time after the last frame
        self.frame = asyncio.Event()  # set by every frame
        self.layouts = 0  # the screen laid out again (Screen._refresh_layout, scrolls aside)
        self.scrolls = 0  # the screen's layout refreshed for a scroll only

    async def on_mount(self, event: Any) -> None:
        event.prevent_default()
        self.client = Offline()  # type: ignore[assignment]
        self.remote = RemoteGame(self.client, self.joined)  # type: ignore[arg-type]
        self.push_screen(TableScreen(self.remote, colours=None, policy=SharedSeat()))

    def _display(self, screen: Any, renderable: Any) -> None:
        """What the app would write to its terminal: the headless driver skips it."""
        if renderable is not None and not self._batch_count:
            self.frames += 1
            if isinstance(renderable, CompositorUpdate):
                self.written += len(renderable.render_segments(self.console).encode())
        super()._display(screen, renderable)
        self.drawn = time.process_time()
        self.frame.set()


class Collections:
    """Time and count of the garbage collector's runs (``gc.callbacks``), by generation."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.runs = [0, 0, 0]
        self._start = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.process_time()
        else:
            self.seconds += time.process_time() - self._start
            self.runs[info["generation"]] += 1


COLLECTIONS = Collections()


def count_layouts() -> None:
    """Count each screen layout in its app (a private method of Textual's, wrapped here only)."""
    layout = Screen._refresh_layout

    def counted(screen: Screen[Any], size: Any = None, scroll: bool = False) -> None:
        app = screen.app
        if isinstance(app, WatchApp):
            if scroll and not screen._layout_required:
                app.scrolls += 1
            else:
                app.layouts += 1
        layout(screen, size, scroll)

    Screen._refresh_layout = counted  # type: ignore[method-assign]


async def settle(app: WatchApp, quiet: float = QUIET) -> None:
    """Until the app has drawn what a move set off and then drawn nothing for ``quiet`` seconds
    (the move list comes a frame after the table). No polling and no Pilot pauses (they post
    to every widget): either would cost more CPU than the move."""
    await asyncio.wait_for(app.frame.wait(), 10)
    while True:
        app.frame.clear()
        try:
            await asyncio.wait_for(app.frame.wait(), quiet)
        except asyncio.TimeoutError:
            return


async def run_once(args: argparse.Namespace, setup: GameSetup, log: list[str]) -> dict[str, float]:
    width, height = (int(n) for n in args.size.split("x"))
    joined = Joined(
        table_id=TABLE, setup=setup, moves=log[: args.start], seats=seats(len(setup.players)), seat=args.seat
    )
    app = WatchApp(joined)
    if args.gc == "session":
        gc.collect()
        gc.freeze()
        gc.set_threshold(GC_YOUNG, 10, 10)
    profiler = cProfile.Profile() if args.profile or args.top else None
    async with app.run_test(size=(width, height)) as pilot:
        await pilot.pause()
        await settle(app, 0.3)
        assert isinstance(app.screen, TableScreen)
        if args.gc == "session":  # as SharedApp._freeze does once the table is drawn
            gc.collect()
            gc.freeze()
        idle_cpu = time.process_time()
        idle_wall = time.perf_counter()
        await asyncio.sleep(1.0)
        idle = (time.process_time() - idle_cpu) / (time.perf_counter() - idle_wall) * 1000
        frames, written, layouts, scrolls = app.frames, app.written, app.layouts, app.scrolls
        first = (frames, written, layouts, scrolls)
        collected, runs = COLLECTIONS.seconds, list(COLLECTIONS.runs)
        per_move: list[float] = []  # from the Update to its last frame
        if profiler is not None:
            profiler.enable()
        start = time.process_time()
        for index in range(args.start, min(len(log), args.start + args.moves)):
            app.frame.clear()
            gc_before = COLLECTIONS.seconds
            before = time.process_time()
            app._update(Update(table_id=TABLE, base=index, moves=[log[index]], seats=joined.seats))
            await settle(app)
            per_move.append((app.drawn - before) * 1000)
            if args.verbose:
                gc_ms = (COLLECTIONS.seconds - gc_before) * 1000
                print(
                    f"{index + 1:>4} {log[index]:<24} {per_move[-1]:6.2f} ms to the last frame; "
                    f"frames {app.frames - frames}, layouts {app.layouts - layouts}, "
                    f"scrolls {app.scrolls - scrolls}, garbage collection {gc_ms:.2f} ms"
                )
                frames, written, layouts, scrolls = app.frames, app.written, app.layouts, app.scrolls
        total = (time.process_time() - start) * 1000
        if profiler is not None:
            profiler.disable()
        moves = len(per_move)
        screen = app.screen
        assert isinstance(screen, TableScreen) and len(screen.game.moves) == args.start + moves
    if args.gc == "session":
        gc.unfreeze()
        gc.set_threshold(700, 10, 10)
    if profiler is not None:
        stream = io.StringIO()
        stats = pstats.Stats(profiler, stream=stream)
        if args.profile:
            stats.dump_stats(args.profile)
        if args.top:
            stats.sort_stats("cumulative").print_stats(args.top)
            stats.sort_stats("tottime").print_stats(args.top)
            print(stream.getvalue())
    return {
        "moves": moves,
        "cpu": total / moves,
        "median": statistics.median(per_move),
        "p95": sorted(per_move)[min(moves - 1, int(moves * 0.95))],
        "frames": (app.frames - first[0]) / moves,
        "bytes": (app.written - first[1]) / moves,
        "layouts": (app.layouts - first[2]) / moves,
        "scrolls": (app.scrolls - first[3]) / moves,
        "idle": idle,
        "gc": (COLLECTIONS.seconds - collected) * 1000 / moves,
        "gc_runs": [now - was for now, was in zip(COLLECTIONS.runs, runs)],
    }


async def main_async(args: argparse.Namespace) -> None:
    setup, log = seeded_log(args.players, args.start + args.moves)
    who = "a watcher" if args.seat is None else f"seat {args.seat + 1}"
    print(
        f"{who} at {args.size}, {args.players} seats, moves {args.start + 1}-{args.start + args.moves} "
        f"of bench_ssh.py's game, gc {args.gc}"
    )
    count_layouts()
    results = []
    for run in range(args.runs):
        figures = await run_once(args, setup, log)
        results.append(figures)
        print(
            f"run {run + 1}: CPU per move {figures['cpu']:.2f} ms (to its last frame: median "
            f"{figures['median']:.2f}, p95 {figures['p95']:.2f} ms), {figures['frames']:.2f} frames "
            f"and {figures['bytes'] / 1024:.1f} KB of output a move, layouts {figures['layouts']:.2f}, "
            f"scrolls {figures['scrolls']:.2f}; garbage collection {figures['gc']:.2f} ms a move "
            f"({'/'.join(str(n) for n in figures['gc_runs'])} runs of generations 0/1/2); "
            f"idle {figures['idle']:.1f} ms/s"
        )
    if args.runs > 1:
        print(
            f"median of {args.runs} runs: CPU per move {statistics.median(r['cpu'] for r in results):.2f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="80x24", help="terminal size, COLUMNSxROWS (80x24, 160x48)")
    parser.add_argument("--players", type=int, default=4, help="seats at the table (2-4)")
    parser.add_argument("--moves", type=int, default=40, help="moves handed to the app")
    parser.add_argument("--start", type=int, default=0, help="moves already played when it joins")
    parser.add_argument(
        "--seat", type=int, default=None, help="sit at this seat (0-based) instead of watching"
    )
    parser.add_argument("--runs", type=int, default=3, help="runs, each a fresh app")
    parser.add_argument("--gc", choices=("session", "default"), default="session")
    parser.add_argument("--verbose", action="store_true", help="a line per move")
    parser.add_argument("--profile", help="write a cProfile of the moves to this file")
    parser.add_argument("--top", type=int, default=0, help="print the N costliest functions")
    args = parser.parse_args()
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
