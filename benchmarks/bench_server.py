"""Shared tables: move propagation latency and the Hub's memory (docs/benchmarks.md, "Shared tables").

A Hub runs in its own process (``python -m pipeline_tui.net.hub``, as under ``serve``) on a
tables folder on disk. This process holds 4 seat clients and 4 spectator clients of one 4-player
table. Whoever is to act chooses a move with the heuristic bot on its own replica (not timed)
and sends it through its TableClient; the figure per move is the time from ``move()`` being
called until the Update carrying that move has reached all 7 other clients (the Hub checks the
move, writes the table file atomically with fsync, then pushes). Games of successive seeds are
played until at least ``--moves`` moves are timed.

Memory: the Hub's RSS (``/proc/PID/status`` VmRSS) with no client, with the 8 clients after the
game, and after ``--extra`` more clients have signed in and joined the table as spectators; the
growth divided by ``--extra`` is the memory per connection.

Run: ``python benchmarks/bench_server.py [--moves 200] [--extra 100] [--dir DIR]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from pipeline_tui.ai import make_bot
from pipeline_tui.engine import Game, GameSetup, format_move
from pipeline_tui.net.client import TableClient, Update
from pipeline_tui.net.tables import TableService


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


class Arrivals:
    """When each log length was first reached at one client (perf_counter seconds)."""

    def __init__(self, client: TableClient) -> None:
        self.client = client
        self.length = 0
        self.at: dict[int, float] = {}
        self.changed = asyncio.Event()
        client.on_update = self.on_update

    def on_update(self, update: Update) -> None:
        now = time.perf_counter()
        self.length = update.base + len(update.moves)
        self.at.setdefault(self.length, now)
        self.changed.set()

    async def reach(self, length: int, timeout: float = 30.0) -> float:
        deadline = time.monotonic() + timeout
        while length not in self.at:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), max(0.0, deadline - time.monotonic()))
        return self.at[length]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def play_table(seats: list[Arrivals], watchers: list[Arrivals], seed: int) -> tuple[list[float], Game]:
    setup = GameSetup.default(players=4, seed=seed)
    table_id = await seats[0].client.create_table(setup, f"bench {seed}")
    for seat, arrivals in enumerate(seats):
        arrivals.at.clear()
        arrivals.length = len((await arrivals.client.join(table_id, seat)).moves)
    for arrivals in watchers:
        arrivals.at.clear()
        arrivals.length = len((await arrivals.client.join(table_id, None)).moves)
    game = Game(setup)
    players = [make_bot("heuristic", seed=seed) for _ in seats]  # one bot per seat keeps its plan
    latencies = []
    everyone = seats + watchers
    while not game.is_over():
        mover = seats[game.current_player]
        text = format_move(players[game.current_player].choose(game))
        game.play(text)
        target = len(game.moves)
        others = [a for a in everyone if a is not mover]
        started = time.perf_counter()
        await mover.client.move(table_id, text)
        arrived = [await a.reach(target) for a in others]
        latencies.append(max(arrived) - started)
    for arrivals in everyone:
        await arrivals.client.leave(table_id)
    return latencies, game


def time_service_moves(folder: Path, games: list[Game]) -> list[float]:
    """The same moves through a TableService in this process: check, apply and atomic write
    (temp file, fsync, os.replace, fsync of the folder) with no socket; seconds per move."""
    service = TableService(folder)
    times = []
    for game in games:
        table = service.create(game.setup)
        for seat in range(len(game.setup.players)):
            service.join(table.id, f"SHA256:seat{seat}", f"seat{seat}", seat)
        for index, move in enumerate(game.moves):
            seat = game.state_at(index).turn.player
            started = time.perf_counter()
            service.move(table.id, f"SHA256:seat{seat}", format_move(move))
            times.append(time.perf_counter() - started)
    return times


async def run(args: argparse.Namespace) -> None:
    folder = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="pt-bench-"))
    sock = Path(tempfile.mkdtemp(prefix="pt-sock-", dir="/tmp")) / "hub.sock"
    names = [f"seat{i}" for i in range(4)] + [f"watch{i}" for i in range(4)]
    names += [f"extra{i}" for i in range(args.extra)]
    command = [
        sys.executable,
        "-m",
        "pipeline_tui.net.hub",
        "--tables",
        str(folder / "tables"),
        "--socket",
        str(sock),
        "--bot-delay",
        "0",
    ]
    for name in names:
        command += ["--token", f"SHA256:{name}:{name}"]
    proc = await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.PIPE)
    try:
        tokens = json.loads(await asyncio.wait_for(proc.stdout.readline(), 60))["tokens"]
        rss_empty = rss_kb(proc.pid)
        clients = [Arrivals(await TableClient.connect(sock, tokens[f"SHA256:{name}"])) for name in names[:8]]
        latencies: list[float] = []
        games: list[Game] = []
        seed = args.seed
        while len(latencies) < args.moves:
            timed, game = await play_table(clients[:4], clients[4:], seed)
            latencies += timed
            games.append(game)
            seed += 1
        rss_eight = rss_kb(proc.pid)
        extra = []
        for name in names[8:]:
            client = await TableClient.connect(sock, tokens[f"SHA256:{name}"])
            await client.join("t1", None)
            extra.append(client)
        await asyncio.sleep(0.5)
        rss_more = rss_kb(proc.pid)
        for client in extra + [a.client for a in clients]:
            await client.close()
    finally:
        proc.terminate()
        await proc.wait()
        shutil.rmtree(sock.parent, ignore_errors=True)
    service_ms = [1000 * x for x in time_service_moves(folder / "in-process", games)]
    if not args.dir:
        shutil.rmtree(folder, ignore_errors=True)
    ms = [1000 * x for x in latencies]
    print(
        f"moves timed: {len(ms)} (seeds {args.seed}-{seed - 1}), 4 seats + 4 spectators, "
        f"tables on {args.dir or 'a temp folder'}"
    )
    print(
        f"propagation to all 7 other clients: p50 {percentile(ms, 0.5):.1f} ms, "
        f"p95 {percentile(ms, 0.95):.1f} ms, max {max(ms):.1f} ms, mean {statistics.mean(ms):.1f} ms"
    )
    print(f"moves over 200 ms: {sum(1 for x in ms if x > 200)} of {len(ms)}")
    print(
        f"TableService.move alone in this process (check + atomic write with fsync): "
        f"p50 {percentile(service_ms, 0.5):.1f} ms, p95 {percentile(service_ms, 0.95):.1f} ms, "
        f"max {max(service_ms):.1f} ms"
    )
    print(
        f"hub RSS: {rss_empty / 1024:.1f} MB with no client, {rss_eight / 1024:.1f} MB with 8 clients "
        f"after the games, {rss_more / 1024:.1f} MB with {args.extra} more spectators"
    )
    print(f"hub RSS growth per connected client: {(rss_more - rss_eight) / args.extra:.1f} KB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200, help="at least this many timed moves")
    parser.add_argument("--extra", type=int, default=100, help="clients added for the memory figure")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", help="folder for the tables (default: a new temp folder)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
