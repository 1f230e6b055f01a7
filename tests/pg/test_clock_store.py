"""A clocked table on PostgreSQL (issues 39 and 40): each move's game time in its row's
``entry``, the game time and the seats away in the table's meta; a clean stop writes the running
clocks; another node computes the same clocks; ``tables copy`` keeps them both ways."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import psycopg

from pipeline_tui.cli import main
from pipeline_tui.engine import GameSetup, PlayerSetup, format_move, parse_clock
from pipeline_tui.net.client import TableClient
from pipeline_tui.net.hub import Hub
from pipeline_tui.net.store import open_store
from pipeline_tui.net.tables import TableService
from pipeline_tui.storage import read_save
from tests.pg.test_nodes import until
from tests.server.test_hub import Follower

ALICE, BOB = "SHA256:alice", "SHA256:bob"


class FakeWall:
    def __init__(self) -> None:
        self.seconds = 10_000.0

    def __call__(self) -> float:
        return self.seconds

    def wait(self, seconds: float) -> None:
        self.seconds += seconds


def clocked(text: str = "20m+30s", on_flag: str = "computer") -> GameSetup:
    return GameSetup(
        seed=11, players=(PlayerSetup("Ada"), PlayerSetup("Bo")), clock=parse_clock(text, on_flag)
    )


def who(service: TableService, table_id: str) -> str:
    return (ALICE, BOB)[service.get(table_id).game.current_player]


def play(service: TableService, table_id: str, wall: FakeWall, count: int) -> None:
    """``count`` legal moves, 7 seconds apart."""
    for _ in range(count):
        wall.wait(7)
        game = service.get(table_id).game
        service.move(table_id, who(service, table_id), format_move(game.legal_moves()[0]))


def seated(service: TableService) -> str:
    table_id = service.create(clocked()).id
    service.join(table_id, ALICE, "alice", 0)
    service.join(table_id, BOB, "bob", 1)
    return table_id


def test_each_moves_time_is_a_rows_entry_and_comes_back(pg_url: str) -> None:
    wall = FakeWall()
    service = TableService(open_store(pg_url), wall=wall)
    table_id = seated(service)
    play(service, table_id, wall, 5)
    game = service.get(table_id).game
    assert game.times == [7000, 14000, 21000, 28000, 35000]
    with psycopg.connect(pg_url) as conn:
        rows = conn.execute("SELECT entry FROM pipeline_moves WHERE table_id = %s ORDER BY seq", (table_id,))
        assert [row[0] for row in rows] == [{"at": at} for at in game.times]
    wall.wait(40)
    service.stop_clocks()  # a clean stop writes the running clock: 75 s of game time
    service.store.close()

    wall.wait(3600)  # the server is down: no one is charged
    again = TableService(open_store(pg_url), wall=wall)
    copy = again.get(table_id).game
    assert copy.times == game.times and copy.now() == 75_000
    assert copy.clock() == game.clock(75_000)
    again.store.close()


def test_a_seat_out_of_time_stays_away_on_postgresql(pg_url: str) -> None:
    wall = FakeWall()
    service = TableService(open_store(pg_url), wall=wall)
    table_id = service.create(clocked("1m+0s")).id
    service.join(table_id, ALICE, "alice", 0)
    service.join(table_id, BOB, "bob", 1)
    seat = service.get(table_id).game.current_player
    wall.wait(60)
    assert service.flag(table_id) is not None
    service.store.close()
    again = TableService(open_store(pg_url), wall=wall)
    assert again.get(table_id).away == {seat} and again.get(table_id).game.now() == 60_000
    again.join(table_id, (ALICE, BOB)[seat], "back", seat)
    third = TableService(open_store(pg_url), wall=wall)
    assert third.get(table_id).away == set()
    for each in (again, third):
        each.store.close()


def test_another_node_computes_the_same_clocks(pg_url: str) -> None:
    """Node B loaded the table long after node A (its own game time lags A's); a move on A
    reaches B with its stamp, and from then on both show the same remaining times."""
    wall = FakeWall()
    a = TableService(open_store(pg_url), wall=wall)
    table_id = seated(a)
    wall.wait(100)  # A's clock runs; B does not exist yet
    b = TableService(open_store(pg_url), wall=wall)
    play(a, table_id, wall, 3)
    b.sync(table_id)
    assert b.get(table_id).game.times == a.get(table_id).game.times == [107_000, 114_000, 121_000]
    wall.wait(12)
    assert b.get(table_id).game.clock() == a.get(table_id).game.clock()
    for each in (a, b):
        each.store.close()


def test_tables_copy_keeps_the_clock_both_ways(tmp_path: Path, pg_url: str, capsys) -> None:
    files = tmp_path / "tables"
    assert (
        main(
            [
                "--lang",
                "en",
                "tables",
                "new",
                str(files),
                "--seats",
                "human,human",
                "--clock",
                "20m+30s",
                "--on-timeout",
                "end",
            ]
        )
        == 0
    )
    assert capsys.readouterr().out.strip() == "t1"
    wall = FakeWall()
    service = TableService(open_store(files), wall=wall)
    assert service.get("t1").game.setup.clock == parse_clock("20m+30s", "end")
    service.join("t1", ALICE, "alice", 0)
    service.join("t1", BOB, "bob", 1)
    play(service, "t1", wall, 4)
    wall.wait(5)
    service.stop_clocks()
    service.store.close()
    first = read_save(files / "t1.json")
    assert first.times == [7000, 14000, 21000, 28000] and first.game_time == 33_000

    assert main(["--lang", "en", "tables", "copy", str(files), pg_url]) == 0
    back = tmp_path / "back"
    assert main(["--lang", "en", "tables", "copy", pg_url, str(back)]) == 0
    again = read_save(back / "t1.json")
    assert again.times == first.times and again.game_time == first.game_time
    assert again.setup.clock == first.setup.clock
    raw = json.loads((back / "t1.json").read_text())
    assert raw["moves"][0]["at"] == 7000


def test_a_seat_flagged_on_one_node_is_away_on_the_other(pg_url: str) -> None:
    wall = FakeWall()
    a = TableService(open_store(pg_url), wall=wall)
    table_id = a.create(clocked("1m+0s")).id
    a.join(table_id, ALICE, "alice", 0)
    a.join(table_id, BOB, "bob", 1)
    b = TableService(open_store(pg_url), wall=wall)
    seat = a.get(table_id).game.current_player
    wall.wait(60)
    assert a.flag(table_id) is not None
    notes = [u.note for u in b.sync(table_id)]
    assert b.get(table_id).away == {seat} and any("time ran out" in note for note in notes)
    assert b.get(table_id).bot_to_act() == "heuristic"
    b.join(table_id, (ALICE, BOB)[seat], "back", seat)  # the player sits again, on node B
    a.sync(table_id)
    assert a.get(table_id).away == set() and a.get(table_id).bot_to_act() is None
    for each in (a, b):
        each.store.close()


async def test_a_move_on_node_a_gives_node_b_s_hub_the_same_clocks(pg_url: str, tmp_path: Path) -> None:
    """Both seats sit on node A and its clock runs 100 s before node B starts (B's own game
    time lags A's by that much); Ada moves on A; B's hub hears of it, and from then on both
    hubs give the same clocks, the same deadline for the seat to act and the same times."""
    wall = FakeWall()
    sock = Path(tempfile.mkdtemp(prefix="pt-pgc-", dir="/tmp"))  # Unix socket paths are short
    a = Hub(tmp_path / "a", bot_delay=0, store=pg_url, wall=wall)
    await a.start(sock / "a.sock")
    clients: list[TableClient] = []

    async def follower(hub: Hub, identity: str, name: str) -> Follower:
        assert hub.socket_path is not None
        client = await TableClient.connect(hub.socket_path, hub.issue_token(identity, name))
        clients.append(client)
        return Follower(client)

    b: Hub | None = None
    try:
        alice, bob_on_a = await follower(a, ALICE, "alice"), await follower(a, BOB, "bob")
        table_id = await alice.client.create_table(clocked(), "clocked")
        await alice.join(table_id, 0)
        await bob_on_a.join(table_id, 1)
        wall.wait(100)
        b = Hub(tmp_path / "b", bot_delay=0, store=pg_url, wall=wall)
        await b.start(sock / "b.sock")
        bob = await follower(b, BOB, "bob")
        await bob.join(table_id, 1)
        game_a, game_b = a.service.get(table_id).game, b.service.get(table_id).game
        assert game_a.now() == 100_000 and game_b.now() == 0  # B counts from its start
        mover = (alice, bob_on_a)[game_a.current_player]
        wall.wait(7)
        await mover.client.move(table_id, format_move(game_a.legal_moves()[0]))
        await bob.until(lambda: len(bob.log) == 1)
        assert bob.updates[-1].times == [107_000] and game_b.times == game_a.times == [107_000]
        # both Hubs have set their flag timers from the move before the clock moves on (each
        # sets it in a task of its own: one left running would read the later time)
        await until(
            lambda: (
                not a._clock_tasks
                and not b._clock_tasks
                and table_id in a._deadlines
                and table_id in b._deadlines
            )
        )
        wall.wait(12)
        assert game_b.clock() == game_a.clock() and game_b.now() == game_a.now() == 119_000
        # B's flag timer is set again from the move (not left where B's start put it)
        await until(
            lambda: (
                table_id in a._deadlines
                and table_id in b._deadlines
                and abs(b._deadlines[table_id].when() - a._deadlines[table_id].when()) < 1
            )
        )
        assert b.service.seconds_to_flag(table_id) == a.service.seconds_to_flag(table_id)
    finally:
        for client in clients:
            await client.close()
        for hub in (a, b):
            if hub is not None:
                await hub.close()
        shutil.rmtree(sock, ignore_errors=True)
