"""Two ``serve --store postgresql://...`` nodes over SSH: a move typed on one node to the other
node's screens (docs/benchmarks.md, "Several nodes on PostgreSQL"; issue 39, point 2).

Two ``pipeline-tui serve --open --store URL`` processes share one PostgreSQL database (a
throwaway cluster with fsync on, started here, unless ``--store URL``) and one host key. A table
of two human seats is made in the store; ``player0`` sits at seat 1 through node A's lobby,
``player1`` at seat 2 through node B's, and ``--watchers`` more sessions watch, alternately on
A and B (160 x 50 ptys, asyncssh, as ``bench_ssh.py``). For each move the player to act types
``:move`` and, once it is on their screen, enter; the figure is the time from the enter key
being written until the move's log line is on every screen of the other node (and, apart,
every other screen of the mover's node).

Run: ``python benchmarks/bench_ssh_nodes.py [--moves 40] [--watchers 2] [--pace 0]``.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_ssh import playable, settled, spread, until  # noqa: E402
from pipeline_tui.engine.moves import format_move  # noqa: E402
from pipeline_tui.engine.setup import GameSetup, PlayerSetup  # noqa: E402
from pipeline_tui.net.store import open_store  # noqa: E402
from pipeline_tui.net.tables import TableService  # noqa: E402
from tests.server.sshterm import Terminal  # noqa: E402


def start_node(url: str, folder: Path, log: Path) -> subprocess.Popen[bytes]:
    with open(log, "w") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "pipeline_tui", "serve", "--open", "--port", "0"]
            + ["--tables", str(folder), "--store", url],
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
        )


async def port_of(log: Path) -> int:
    await until(lambda: "port " in log.read_text(), f"the node ({log.name})")
    match = re.search(r"port (\d+)", log.read_text())
    assert match is not None
    return int(match.group(1))


async def run(args: argparse.Namespace) -> None:
    cluster = None
    url = args.store
    if url is None:
        from tests.pg.cluster import start_cluster

        cluster = start_cluster(durable=True)
        url = cluster.new_database()
    folder = Path(tempfile.mkdtemp(prefix="bench-nodes-"))
    service = TableService(open_store(url))
    service.create(GameSetup(seed=7, players=(PlayerSetup("Ada"), PlayerSetup("Bo"))), "Table 1")
    store = service.store
    nodes = []
    terminals: list[Terminal] = []
    try:
        nodes.append(start_node(url, folder / "a", folder / "a.log"))
        port_a = await port_of(folder / "a.log")
        (folder / "b").mkdir()
        shutil.copy2(folder / "a" / "ssh_host_ed25519_key", folder / "b" / "ssh_host_ed25519_key")
        nodes.append(start_node(url, folder / "b", folder / "b.log"))
        port_b = await port_of(folder / "b.log")
        node_of: dict[int, str] = {}
        for i in range(2 + args.watchers):
            node, port = ("A", port_a) if i % 2 == 0 else ("B", port_b)
            terminal = await Terminal.open(port, f"player{i}")
            await terminal.expect("Table 1")
            terminals.append(terminal)
            node_of[id(terminal)] = node
        for i, terminal in enumerate(terminals[:2]):
            if i:  # the lobby has seen the first seat taken (it refreshes on its own)
                await terminal.expect("Ada: player0")
            mark = len(terminal.raw)
            terminal.keys("\r")
            await terminal.expect("sit here", mark)
            terminal.keys("\r")  # the first open seat is highlighted
            await until(
                lambda: (t := store.load("t1")) is not None and t.meta["seats"][i] is not None,
                f"player{i} seated",
            )
        for terminal in terminals[2:]:
            terminal.keys("w")
            await terminal.expect("watching")
        await asyncio.sleep(3.0)  # every screen has drawn the table and settled
        far_times, near_times = [], []
        for count in range(args.moves):
            loaded = store.load("t1")
            assert loaded is not None
            game = loaded.game
            seat = game.current_player
            text = format_move(playable(game, count))
            mover = terminals[seat]
            mover.keys(":" + text)
            await settled(mover)
            await asyncio.sleep(args.pace)
            others = [t for t in terminals if t is not mover]
            marks = {id(t): len(t.raw) for t in others}
            line = f"{count + 1:>4} {game.setup.players[seat].name:<8} {text}"
            seen: dict[int, float] = {}
            mover.keys("\r")
            start = time.perf_counter()

            def landed() -> bool:
                for t in others:
                    if id(t) not in seen and t.shows(line, marks[id(t)]):
                        seen[id(t)] = (time.perf_counter() - start) * 1000
                return len(seen) == len(others)

            await until(landed, line)
            here = node_of[id(mover)]
            far_times.append(max(ms for key, ms in seen.items() if node_of[key] != here))
            near = [ms for key, ms in seen.items() if node_of[key] == here]
            if near:
                near_times.append(max(near))
        print(f"{args.moves} moves, 2 seats on 2 nodes, {args.watchers} spectators alternately on A and B")
        print(f"  on every screen of the other node: {spread(far_times)}")
        if near_times:
            print(f"  on every other screen of the mover's node: {spread(near_times)}")
    finally:
        for terminal in terminals:
            terminal.conn.close()
        for node in nodes:
            node.send_signal(signal.SIGINT)
            node.wait(60)
        store.close()
        shutil.rmtree(folder, ignore_errors=True)
        if cluster is not None:
            cluster.remove()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40, help="moves timed")
    parser.add_argument("--watchers", type=int, default=2, help="spectator sessions, alternately on A and B")
    parser.add_argument("--pace", type=float, default=0.0, help="seconds before each enter key")
    parser.add_argument("--store", help="a postgresql:// URL (default: a throwaway cluster)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
