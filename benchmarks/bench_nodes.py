"""Two serve nodes on one PostgreSQL store: a move on one node to the other node's clients
(docs/benchmarks.md, "Several nodes on PostgreSQL"; issue 39, point 2).

Two Hubs run in their own processes (``python -m pipeline_tui.net.hub --store URL``, as under
``serve --store``) on one PostgreSQL database: a throwaway cluster on a Unix socket started
here, with fsync on as a real server (``--store URL`` uses yours instead). One 4-player table
of 4 human seats: seats 0 and 1 and one spectator sign in on node A, seats 2 and 3 and one spectator on node B. Whoever is to act picks
a move with the heuristic bot on its own replica (not timed) and sends it with
``TableClient.move``; per move two figures: the time until the Update carrying it reached every
client on the mover's node, and every client on the other node (the mover's Hub inserts the row
and commits with NOTIFY; the other Hub hears it from PostgreSQL, reads the row, plays it and
pushes). Games of successive seeds are played until at least ``--moves`` moves are timed.

Run: ``python benchmarks/bench_nodes.py [--moves 200] [--store URL]``.
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_server import Arrivals, percentile  # noqa: E402
from pipeline_tui.ai import make_bot  # noqa: E402
from pipeline_tui.engine import Game, GameSetup, format_move  # noqa: E402
from pipeline_tui.net.client import TableClient  # noqa: E402


async def start_hub(url: str, folder: Path, sock: Path, names: list[str]):
    command = [sys.executable, "-m", "pipeline_tui.net.hub", "--store", url, "--tables", str(folder)]
    command += ["--socket", str(sock), "--bot-delay", "0"]
    for name in names:
        command += ["--token", f"SHA256:{name}:{name}"]
    proc = await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.PIPE)
    line = await asyncio.wait_for(proc.stdout.readline(), 60)
    if not line:
        raise SystemExit("a hub did not start")
    return proc, json.loads(line)["tokens"]


async def play_table(
    seats: list[Arrivals], watchers: list[Arrivals], node_of: dict[int, str], seed: int
) -> tuple[list[float], list[float]]:
    setup = GameSetup.default(players=4, seed=seed)
    table_id = await seats[0].client.create_table(setup, f"bench {seed}")
    for seat, arrivals in enumerate(seats):
        arrivals.at.clear()
        arrivals.length = len((await arrivals.client.join(table_id, seat)).moves)
    for arrivals in watchers:
        arrivals.at.clear()
        arrivals.length = len((await arrivals.client.join(table_id, None)).moves)
    game = Game(setup)
    players = [make_bot("heuristic", seed=seed) for _ in seats]
    same_node, other_node = [], []
    everyone = seats + watchers
    while not game.is_over():
        mover = seats[game.current_player]
        text = format_move(players[game.current_player].choose(game))
        game.play(text)
        target = len(game.moves)
        started = time.perf_counter()
        await mover.client.move(table_id, text)
        here = node_of[id(mover)]
        near = [await a.reach(target) for a in everyone if a is not mover and node_of[id(a)] == here]
        far = [await a.reach(target) for a in everyone if node_of[id(a)] != here]
        same_node.append(max(near) - started)
        other_node.append(max(far) - started)
    for arrivals in everyone:
        await arrivals.client.leave(table_id)
    return same_node, other_node


def line(label: str, seconds: list[float]) -> str:
    ms = [1000 * x for x in seconds]
    return (
        f"{label}: p50 {percentile(ms, 0.5):.1f} ms, p95 {percentile(ms, 0.95):.1f} ms, "
        f"max {max(ms):.1f} ms, mean {statistics.mean(ms):.1f} ms, over 200 ms: "
        f"{sum(1 for x in ms if x > 200)} of {len(ms)}"
    )


async def run(args: argparse.Namespace) -> None:
    cluster = None
    url = args.store
    if url is None:
        from tests.pg.cluster import start_cluster

        cluster = start_cluster(durable=True)
        url = cluster.new_database()
    work = Path(tempfile.mkdtemp(prefix="pt-nodes-", dir="/tmp"))
    names = ["seat0", "seat1", "watch0", "seat2", "seat3", "watch1"]
    procs = []
    try:
        proc_a, tokens_a = await start_hub(url, work / "a", work / "a.sock", names)
        proc_b, tokens_b = await start_hub(url, work / "b", work / "b.sock", names)
        procs = [proc_a, proc_b]
        node_of: dict[int, str] = {}
        made: dict[str, Arrivals] = {}
        for index, name in enumerate(names):
            node, sock, tokens = (
                ("A", work / "a.sock", tokens_a) if index < 3 else ("B", work / "b.sock", tokens_b)
            )
            made[name] = Arrivals(await TableClient.connect(sock, tokens[f"SHA256:{name}"]))
            node_of[id(made[name])] = node
        seats = [made[f"seat{i}"] for i in range(4)]
        watchers = [made["watch0"], made["watch1"]]
        same: list[float] = []
        other: list[float] = []
        seed = args.seed
        while len(other) < args.moves:
            near, far = await play_table(seats, watchers, node_of, seed)
            same += near
            other += far
            seed += 1
        for arrivals in made.values():
            await arrivals.client.close()
    finally:
        for proc in procs:
            proc.terminate()
            await proc.wait()
        shutil.rmtree(work, ignore_errors=True)
        if cluster is not None:
            cluster.remove()
    print(f"moves timed: {len(other)} (seeds {args.seed}-{seed - 1}); 2 nodes, 2 seats + 1 spectator each")
    print(line("to every other client on the mover's node", same))
    print(line("to every client on the other node", other))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200, help="at least this many timed moves")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--store", help="a postgresql:// URL (default: a throwaway cluster)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
