"""Correspondence play over SSH (issue 40, point 4): the lobby lists first the tables where it
is your turn, longest waiting first, with how long they have waited; a player who connects with
turns waiting is told how many; ``b`` asks for a bell when your turn comes, kept for the key.
A shared table shows each seat's clock from the Hub's stamps. A fake clock drives the Hub."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from pipeline_tui.engine import GameSetup, PlayerSetup, parse_clock
from pipeline_tui.net.client import TableClient
from pipeline_tui.net.hub import Hub
from pipeline_tui.net.remote import RemoteGame
from pipeline_tui.ui.lobby import LobbyScreen, SharedApp

from .test_clocks import FakeWall
from .test_remote import pilot_until, until

ALICE, BOB = "SHA256:alice", "SHA256:bob"


@pytest.fixture
async def hub_and_wall(tmp_path: Path):
    sock_dir = Path(tempfile.mkdtemp(prefix="pt-cor-", dir="/tmp"))
    wall = FakeWall()
    hub = Hub(tmp_path / "tables", bot_delay=0, wall=wall)
    await hub.start(sock_dir / "hub.sock")
    try:
        yield hub, wall
    finally:
        await hub.close()
        shutil.rmtree(sock_dir, ignore_errors=True)


def setup(seed: int, clock: str | None = "2d/move") -> GameSetup:
    return GameSetup(
        seed=seed,
        players=(PlayerSetup("Ada"), PlayerSetup("Bo")),
        clock=parse_clock(clock) if clock else None,
    )


async def test_the_lobby_puts_your_turns_first_with_their_wait_and_says_how_many(hub_and_wall) -> None:
    hub, wall = hub_and_wall
    alice = await TableClient.connect(hub.socket_path, hub.issue_token(ALICE, "alice"))
    bob = await TableClient.connect(hub.socket_path, hub.issue_token(BOB, "bob"))
    ids = []
    for seed in range(6):  # some tables where Ada is to act, some where Bo is
        table_id = await alice.create_table(setup(seed))
        await alice.join(table_id, 0)
        await bob.join(table_id, 1)
        ids.append(table_id)
        wall.wait(3600)  # the earlier tables have waited longer
    plain = await alice.create_table(setup(99, clock=None))
    to_act = {table_id: hub.service.get(table_id).game.current_player for table_id in ids}
    ada_turns = [table_id for table_id in ids if to_act[table_id] == 0]
    assert ada_turns and len(ada_turns) < len(ids)
    app = SharedApp(hub.socket_path, hub.issue_token(ALICE, "alice"))
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot_until(
            pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.tables, "the list"
        )
        lobby = app.screen
        assert [info.id for info in lobby.tables[: len(ada_turns)]] == ada_turns  # longest first
        first = lobby.query_one("#tables").get_row_at(0)
        assert str(first[5]).startswith(f"your turn, waiting {len(ids) - ids.index(ada_turns[0])}:00:00")
        assert "2d/move" in str(first[5])
        assert plain in [info.id for info in lobby.tables[len(ada_turns) :]]
        count = len(ada_turns)
        told = [n.message for n in app._notifications]
        assert f"It is your turn at {count} table{'s' if count > 1 else ''}." in told
        # b: a bell when your turn comes, kept for the key
        rang = []
        app.bell = lambda: rang.append(1)
        await pilot.press("b")
        await pilot_until(pilot, lambda: hub.bells.get(ALICE), "the bell kept")
        assert "a bell when your turn comes: on" in str(lobby.query_one("#lobby-bell").render())
        # Bo ends his setup turn at a table where he was to act: it is Ada's turn there now.
        bo_table = next(table_id for table_id in ids if to_act[table_id] == 1)
        await bob.join(bo_table, 1)
        for _ in range(5):
            await bob.move(bo_table, "start-tank C")
        lobby.action_refresh()
        await pilot_until(pilot, lambda: rang, "the bell")
        assert lobby.tables[0].id in ada_turns + [bo_table]
        await app.action_quit()
    again = await TableClient.connect(hub.socket_path, hub.issue_token(ALICE, "alice"))
    assert again.bell and not bob.bell
    for client in (alice, bob, again):
        await client.close()


async def test_a_shared_table_shows_each_seats_clock_from_the_hubs_stamps(hub_and_wall) -> None:
    hub, wall = hub_and_wall
    alice = await TableClient.connect(hub.socket_path, hub.issue_token(ALICE, "alice"))
    bob = await TableClient.connect(hub.socket_path, hub.issue_token(BOB, "bob"))
    table_id = await alice.create_table(setup(3, clock="10m+5s"))
    remote = {}
    for client, seat in ((alice, 0), (bob, 1)):
        remote[seat] = RemoteGame(client, await client.join(table_id, seat))
        client.on_update = remote[seat].update
    mover = hub.service.get(table_id).game.current_player
    client = (alice, bob)[mover]
    wall.wait(30)
    for _ in range(5):
        await client.move(table_id, "start-tank C")
    watcher = remote[1 - mover]
    await until(lambda: len(watcher.moves) == 5)
    clock = watcher.clock()
    assert clock is not None and clock.remaining[mover] == 575_000  # 10 min - 30 s + 5 s
    assert clock.running == 1 - mover and watcher.now() >= 30_000
    for c in (alice, bob):
        await c.close()


async def test_a_bell_rings_at_the_table_when_your_turn_comes_if_you_asked_for_it(hub_and_wall) -> None:
    hub, _wall = hub_and_wall
    seed = next(s for s in range(20) if hub.service.create(setup(s)).game.current_player == 1)
    table_id = max(hub.service.tables, key=lambda t: int(t[1:]))
    assert hub.service.get(table_id).game.setup.seed == seed
    bob = await TableClient.connect(hub.socket_path, hub.issue_token(BOB, "bob"))
    await bob.join(table_id, 1)
    hub.bells.set(ALICE, True)
    app = SharedApp(hub.socket_path, hub.issue_token(ALICE, "alice"))
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot_until(
            pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.tables, "the list"
        )
        rang = []
        app.bell = lambda: rang.append(1)
        app.join(table_id, 0)
        await pilot_until(pilot, lambda: app.remote is not None and app.remote.table_id == table_id, "seated")
        for _ in range(4):
            await bob.move(table_id, "start-tank C")
        await pilot_until(pilot, lambda: len(app.remote.moves) == 4, "Bo's moves")
        assert not rang  # not your turn yet
        await bob.move(table_id, "start-tank C")
        await pilot_until(pilot, lambda: rang, "the bell on Ada's turn")
        assert app.remote.my_turn() and len(rang) == 1
        await app.action_quit()
    await bob.close()
