"""Clocks at shared tables (issue 40), with a fake clock (no sleeps): the clocks wait for every
seat, a restart charges no one for the time the server was down, a seat out of time is played
by the computer until its player sits down again, a correspondence deadline ends the game when
the table says so, and the Hub flags a seat from a timer set from the clocks."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path

import pytest

from pipeline_tui.ai import choose_move
from pipeline_tui.engine import GameSetup, PlayerSetup, format_move, parse_clock
from pipeline_tui.net.client import TableClient
from pipeline_tui.net.hub import Hub
from pipeline_tui.net.protocol import TableError
from pipeline_tui.net.tables import TableService
from pipeline_tui.storage import load_game, read_save

from .test_hub import Follower

ALICE, BOB = "SHA256:alice", "SHA256:bob"


class FakeWall:
    def __init__(self) -> None:
        self.seconds = 10_000.0

    def __call__(self) -> float:
        return self.seconds

    def wait(self, seconds: float) -> None:
        self.seconds += seconds


def clocked(text: str, on_flag: str = "computer", seed: int = 11) -> GameSetup:
    players = (PlayerSetup("Ada"), PlayerSetup("Bo"))
    return GameSetup(seed=seed, players=players, clock=parse_clock(text, on_flag))


def seated(service: TableService, setup: GameSetup) -> str:
    table = service.create(setup)
    service.join(table.id, ALICE, "alice", 0)
    service.join(table.id, BOB, "bob", 1)
    return table.id


def identity_of(seat: int) -> str:
    return (ALICE, BOB)[seat]


@pytest.fixture
def wall() -> FakeWall:
    return FakeWall()


def test_the_clocks_wait_for_every_seat_then_run(tmp_path: Path, wall: FakeWall) -> None:
    service = TableService(tmp_path, wall=wall)
    table = service.create(clocked("1m+0s"))
    service.join(table.id, ALICE, "alice", 0)
    wall.wait(3600)  # an hour with one seat open: no one is charged
    assert service.seconds_to_flag(table.id) is None and table.game.clock().remaining == (60_000, 60_000)
    service.join(table.id, BOB, "bob", 1)
    wall.wait(45)
    seat = table.game.current_player
    assert service.seconds_to_flag(table.id) == 15.0
    assert table.game.clock().remaining[seat] == 15_000 and service.flag(table.id) is None
    info = service.list(identity_of(seat))[0]
    assert (info.to_act, info.waited, info.clock) == (seat, 45_000, "1m+0s")


def test_a_restart_charges_no_one_for_the_time_the_server_was_down(tmp_path: Path, wall: FakeWall) -> None:
    """The rule (docs/clocks.md): a table's clocks run only while a server has it loaded. A
    clean stop writes each running clock; after a crash, the time since the table's last
    write is not charged either. Reloaded hours later, no seat is flagged."""
    service = TableService(tmp_path, wall=wall)
    table_id = seated(service, clocked("1m+0s"))
    seat = service.get(table_id).game.current_player
    wall.wait(50)
    service.stop_clocks()
    assert read_save(tmp_path / f"{table_id}.json").game_time == 50_000
    wall.wait(6 * 3600)
    again = TableService(tmp_path, wall=wall)
    assert again.seconds_to_flag(table_id) == 10.0 and again.flag(table_id) is None
    wall.wait(9.999)
    assert again.flag(table_id) is None
    # That server crashes (nothing written since the stop); three hours later the next one
    # resumes from the file again.
    wall.wait(3 * 3600)
    crashed = TableService(tmp_path, wall=wall)
    assert crashed.seconds_to_flag(table_id) == 10.0
    assert crashed.get(table_id).game.clock().remaining[seat] == 10_000


def test_a_seat_out_of_time_is_played_by_the_computer_until_its_player_sits_again(
    tmp_path: Path, wall: FakeWall
) -> None:
    service = TableService(tmp_path, wall=wall)
    table_id = seated(service, clocked("1m+0s"))
    table = service.get(table_id)
    seat = table.game.current_player
    name = table.seat_name(seat)
    wall.wait(60)  # exactly zero left: the time has run out
    update = service.flag(table_id)
    assert update is not None and update.note.startswith(f"{name}'s time ran out")
    assert update.seats[seat].away and table.bot_to_act() == "heuristic"
    assert read_save(table.path).meta["table"]["away"] == [seat]
    with pytest.raises(TableError, match="your time ran out"):
        service.move(table_id, identity_of(seat), "start-tank C")
    assert service.flag(table_id) is None  # told once
    # The computer plays the rest of the turn (as the Hub does, one move at a time).
    while table.game.current_player == seat:
        job = service.bot_job(table_id)
        assert job is not None
        kind, count, snapshot = job
        assert service.play_bot(table_id, choose_move(snapshot, kind, seed=1), count) is not None
    # A reload keeps the seat with the computer (its file says so).
    again = TableService(tmp_path, wall=wall)
    assert again.get(table_id).away == {seat}
    # The player sits down at the seat again and takes it back.
    joined = again.join(table_id, identity_of(seat), "back", seat)
    assert not joined.seats[seat].away and "away" not in read_save(table.path).meta["table"]


def test_a_correspondence_deadline_ends_the_game_when_the_table_says_so(
    tmp_path: Path, wall: FakeWall
) -> None:
    service = TableService(tmp_path, wall=wall)
    table_id = seated(service, clocked("2d/move", on_flag="end"))
    table = service.get(table_id)
    seat = table.game.current_player
    service.move(table_id, identity_of(seat), "start-tank C")
    wall.wait(2 * 86_400 - 1)
    assert service.seconds_to_flag(table_id) == 1.0 and service.flag(table_id) is None
    wall.wait(1)
    update = service.flag(table_id)
    assert update is not None and "the game ends with the scores as they stand" in update.note
    assert table.over() and service.list()[0].over and service.list()[0].to_act == -1
    with pytest.raises(TableError, match="the game is over"):
        service.move(table_id, identity_of(seat), "start-tank C")
    wall.wait(86_400)
    again = TableService(tmp_path, wall=wall)  # still ended after a restart
    assert again.get(table_id).over() and again.seconds_to_flag(table_id) is None


def test_undo_at_a_table_gives_back_no_time(tmp_path: Path, wall: FakeWall) -> None:
    service = TableService(tmp_path, wall=wall)
    table_id = seated(service, clocked("1m+0s"))
    table = service.get(table_id)
    seat = table.game.current_player
    wall.wait(20)
    service.move(table_id, identity_of(seat), "start-tank C")
    wall.wait(20)
    service.undo(table_id, identity_of(seat))
    assert table.game.clock().remaining[seat] == 20_000
    assert TableService(tmp_path, wall=wall).get(table_id).game.clock().remaining[seat] == 20_000


@pytest.fixture
def sock_dir():
    path = Path(tempfile.mkdtemp(prefix="pt-clk-", dir="/tmp"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


async def test_the_hub_flags_a_seat_from_a_timer_and_the_computer_takes_over(
    tmp_path: Path, sock_dir: Path, wall: FakeWall
) -> None:
    hub = Hub(tmp_path / "tables", bot_delay=0, wall=wall)
    await hub.start(sock_dir / "hub.sock")
    clients: list[TableClient] = []
    try:
        for identity, name in ((ALICE, "alice"), (BOB, "bob")):
            clients.append(await TableClient.connect(hub.socket_path, hub.issue_token(identity, name)))
        alice, bob = Follower(clients[0]), Follower(clients[1])
        table_id = await alice.client.create_table(clocked("1m+0s"))
        await alice.join(table_id, 0)
        joined = await bob.join(table_id, 1)
        assert joined.live and joined.times == [] and joined.setup.clock == parse_clock("1m+0s")
        seat = hub.service.get(table_id).game.current_player
        mover = (alice, bob)[seat]
        wall.wait(5)
        await mover.client.move(table_id, "start-tank C")
        assert mover.updates[-1].times == [5000] and mover.updates[-1].live
        # The timer is set for the deadline (55 s on), once the hub's clock task has asked the
        # table; the fake clock jumps past it, and the next change sets the timer again, for now.
        if hub._clock_tasks:
            await asyncio.wait(set(hub._clock_tasks))
        assert table_id in hub._deadlines
        wall.wait(56)
        hub.watch_clock(table_id)
        name = ("Ada", "Bo")[seat]
        await alice.until(lambda: any(u.note.startswith(f"{name}'s time ran out") for u in alice.updates))
        await bob.until(lambda: any(u.note.startswith(f"{name}'s time ran out") for u in bob.updates))
        # The computer plays the rest of the turn; the other seat is then to act.
        await alice.until(lambda: len(alice.log) >= 5)
        table = hub.service.get(table_id)
        assert table.game.current_player != seat and table.away == {seat}
        # The player sits down again and has the seat back.
        again = await mover.join(table_id, seat)
        assert not again.seats[seat].away and table.away == set()
    finally:
        for client in clients:
            await client.close()
        await hub.close()
    saved = read_save(tmp_path / "tables" / f"{table_id}.json")
    assert saved.times[0] == 5000 and saved.game_time == 61_000  # the stop wrote the clock
    assert format_move(load_game(tmp_path / "tables" / f"{table_id}.json").moves[0]) == "start-tank C"
