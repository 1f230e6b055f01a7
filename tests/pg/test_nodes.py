"""Several hubs on one PostgreSQL store (issue 39, points 2, 3 and 5): players on different
nodes see each other's moves (LISTEN/NOTIFY), computer seats play on one node at a time and
move on when it is killed, and a lost database is said, never silent."""

from __future__ import annotations

import asyncio
import json
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

import pytest

from pipeline_tui.ai import choose_move
from pipeline_tui.engine import format_move
from pipeline_tui.net.client import TableClient, TableError
from pipeline_tui.net.hub import Hub
from pipeline_tui.net.store import open_store
from pipeline_tui.net.tables import TableService
from tests.server.test_hub import WAIT, Follower, replica, setup


@pytest.fixture
def sock_dir():
    path = Path(tempfile.mkdtemp(prefix="pt-pg-", dir="/tmp"))  # Unix socket paths are short
    yield path
    shutil.rmtree(path, ignore_errors=True)


class Node:
    """A hub in this process on the shared store, and its clients."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.clients: list[TableClient] = []

    async def follower(self, identity: str, name: str) -> Follower:
        assert self.hub.socket_path is not None
        client = await TableClient.connect(self.hub.socket_path, self.hub.issue_token(identity, name))
        self.clients.append(client)
        return Follower(client)

    async def close(self) -> None:
        for client in self.clients:
            await client.close()
        await self.hub.close()


@pytest.fixture
async def nodes(pg_url: str, tmp_path: Path, sock_dir: Path):
    made: list[Node] = []

    async def make(bot_delay: float = 0.0) -> Node:
        number = len(made)
        hub = Hub(tmp_path / f"node{number}", bot_delay=bot_delay, store=pg_url)
        await hub.start(sock_dir / f"hub{number}.sock")
        made.append(Node(hub))
        return made[-1]

    yield make
    for node in made:
        await node.close()


async def until(condition, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)


async def test_players_on_two_nodes_see_each_others_moves(nodes) -> None:
    a, b = await nodes(), await nodes()
    alice = await a.follower("SHA256:alice", "alice")
    bob = await b.follower("SHA256:bob", "bob")
    table_setup = setup("human", "human", seed=8)
    table_id = await alice.client.create_table(table_setup, "across")
    await until(lambda: table_id in b.hub.service.tables)  # told by PostgreSQL, not asked
    listed = await bob.client.list_tables()
    assert [t.name for t in listed] == ["across"]
    await alice.join(table_id, 0)
    await bob.join(table_id, 1)
    await alice.until(lambda: alice.seats[1].holder == "bob")
    by_seat = {0: alice, 1: bob}
    for _ in range(30):
        game = replica(table_setup, alice.log)
        text = format_move(choose_move(game, "heuristic", seed=3))
        await by_seat[game.current_player].client.move(table_id, text)
        expected = [*alice.log] if by_seat[game.current_player] is alice else [*bob.log]
        for follower in (alice, bob):
            await follower.until(lambda f=follower: f.log == expected)
    assert alice.log == bob.log and len(alice.log) == 30
    fresh = TableService(open_store(a.hub.service.store.url))  # type: ignore[attr-defined]
    assert fresh.get(table_id).log() == alice.log
    fresh.store.close()


async def test_computer_seats_play_on_one_node_only(nodes) -> None:
    a, b, c = await nodes(), await nodes(), await nodes()
    await until(lambda: sum(n.hub._bots_here for n in (a, b, c)) == 1)
    alice = await b.follower("SHA256:alice", "alice")
    table_setup = setup("human", "heuristic", "random", seed=12)
    table_id = await alice.client.create_table(table_setup)
    await alice.join(table_id, 0)
    for _ in range(12):
        await alice.until(lambda: replica(table_setup, alice.log).current_player == 0)
        game = replica(table_setup, alice.log)
        await alice.client.move(table_id, format_move(choose_move(game, "heuristic", seed=2)))
    await alice.until(lambda: replica(table_setup, alice.log).current_player == 0)
    fresh = TableService(open_store(a.hub.service.store.url))  # type: ignore[attr-defined]
    table = fresh.get(table_id)
    assert table.log() == alice.log and table.events == len(alice.log)  # no row doubled
    fresh.store.close()
    assert sum(n.hub._bots_here for n in (a, b, c)) == 1


async def _spawn(url: str, tables: Path, sock: Path, log: Path, *who: str, bot_delay: float = 0.05):
    args = [sys.executable, "-m", "pipeline_tui.net.hub", "--store", url, "--tables", str(tables)]
    args += ["--socket", str(sock), "--bot-delay", str(bot_delay), "--log", "INFO"]
    for entry in who:
        args += ["--token", entry]
    with open(log, "ab") as err:
        proc = await asyncio.create_subprocess_exec(*args, stdout=asyncio.subprocess.PIPE, stderr=err)
    line = await asyncio.wait_for(proc.stdout.readline(), WAIT)
    assert line, f"the hub did not start: {log.read_text()}"
    return proc, json.loads(line)["tokens"]


async def _kill(proc) -> None:
    if proc.returncode is None:
        proc.send_signal(signal.SIGKILL)
    await proc.wait()


def lease_holder(url: str) -> int | None:
    """The process id of the node holding the computer-seat lease (from its application name)."""
    import psycopg

    from pipeline_tui.net.pgstore import LEASE_KEY

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted "
            "AND ((l.classid::bigint << 32) | l.objid::bigint) = %s",
            (LEASE_KEY,),
        ).fetchone()
    return int(row[0].split()[-1]) if row else None


async def test_a_killed_node_hands_its_computer_seats_on_and_its_players_come_back(
    pg_url: str, tmp_path: Path, sock_dir: Path
) -> None:
    """Two node processes; the one playing the computer seats is killed with SIGKILL right after
    Alice's move (its computer seats wait a second before each move, so none was played
    there): the other takes the seats over within 10 s, Alice signs in there and is back
    at her seat, and the store's log has every acknowledged move once."""
    procs = {}
    tokens = {}
    for number in (1, 2):
        sock = sock_dir / f"n{number}.sock"
        proc, issued = await _spawn(
            pg_url, tmp_path / f"n{number}", sock, tmp_path / f"n{number}.log", "A:alice"
        )
        procs[proc.pid] = (proc, sock)
        tokens[proc.pid] = issued["A"]
    try:
        holder = None
        deadline = time.monotonic() + WAIT
        while holder not in procs:
            assert time.monotonic() < deadline, "no node took the lease"
            await asyncio.sleep(0.05)
            holder = lease_holder(pg_url)
        (other,) = [pid for pid in procs if pid != holder]
        alice = Follower(await TableClient.connect(procs[holder][1], tokens[holder]))
        table_setup = setup("human", "heuristic", "heuristic", seed=31)
        table_id = await alice.client.create_table(table_setup)
        await alice.join(table_id, 0)
        played = 0
        while played < 8 or replica(table_setup, alice.log).current_player == 0:  # end on a bot's turn
            await alice.until(lambda: replica(table_setup, alice.log).current_player == 0)
            game = replica(table_setup, alice.log)
            await alice.client.move(table_id, format_move(choose_move(game, "heuristic", seed=5)))
            played += 1
        acknowledged = list(alice.log)
        await _kill(procs[holder][0])
        killed_at = time.monotonic()
        with pytest.raises(TableError, match="connection lost"):
            for _ in range(100):
                await alice.client.list_tables()
        await alice.client.close()

        alice = Follower(await TableClient.connect(procs[other][1], tokens[other]))
        joined = await alice.join(table_id, 0)  # her key is her seat, on any node

        assert joined.seat == 0 and joined.moves[: len(acknowledged)] == acknowledged
        await alice.until(
            lambda: (
                len(alice.log) > len(acknowledged) and replica(table_setup, alice.log).current_player == 0
            ),
            timeout=10.0,
        )
        taken_over = time.monotonic() - killed_at
        assert taken_over <= 10.0
        print(f"computer seats back {taken_over:.2f} s after the SIGKILL")
        fresh = TableService(open_store(pg_url))
        table = fresh.get(table_id)
        assert table.log() == alice.log and table.log()[: len(acknowledged)] == acknowledged
        assert table.events == len(table.log())  # every row a move: none doubled, none lost
        fresh.store.close()
        assert lease_holder(pg_url) == other
    finally:
        for proc, _sock in procs.values():
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
            await proc.wait()
