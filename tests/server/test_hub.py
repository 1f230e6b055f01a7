"""The Hub over its Unix socket: identity by token, pushes to every seat and spectator, computer
seats, broken clients, and restarts (including a hub killed with SIGKILL)."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shutil
import signal
import stat
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from pipeline_tui.ai import choose_move
from pipeline_tui.engine import Game, GameSetup, PlayerSetup, format_move, parse_move
from pipeline_tui.net.client import TableClient, TableError, Update
from pipeline_tui.net.hub import Hub
from pipeline_tui.net.protocol import MAX_FRAME
from pipeline_tui.storage import load_game

WAIT = float(os.environ.get("PT_WAIT", 60))  # seconds: generous, for a loaded CI machine


def setup(*kinds: str, seed: int = 5) -> GameSetup:
    names = ("Ada", "Bo", "Cy", "Di")
    return GameSetup(seed=seed, players=tuple(PlayerSetup(names[i], k) for i, k in enumerate(kinds)))


class Follower:
    """A client's view of the table it joined last, kept from its Joined and the Updates."""

    def __init__(self, client: TableClient) -> None:
        self.client = client
        self.table_id = ""
        self.log: list[str] = []
        self.updates: list[Update] = []
        self.seats = []
        self._changed = asyncio.Event()
        client.on_update = self._on_update

    def _on_update(self, update: Update) -> None:
        if update.table_id != self.table_id:
            return
        self.updates.append(update)
        self.log = self.log[: update.base] + list(update.moves)
        self.seats = update.seats
        self._changed.set()

    async def join(self, table_id: str, seat: int | None):
        joined = await self.client.join(table_id, seat)
        self.table_id = table_id
        self.updates = []
        self.log = list(joined.moves)
        self.seats = joined.seats
        return joined

    async def until(self, condition, timeout: float = WAIT) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            self._changed.clear()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"timed out; the log has {len(self.log)} moves")
            try:
                await asyncio.wait_for(self._changed.wait(), remaining)
            except asyncio.TimeoutError:
                pass


def replica(table_setup: GameSetup, log: list[str]) -> Game:
    return Game(table_setup, [parse_move(text) for text in log])


@pytest.fixture
def sock_dir():
    path = Path(tempfile.mkdtemp(prefix="pt-hub-", dir="/tmp"))  # Unix socket paths are short
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
async def hub(tmp_path: Path, sock_dir: Path):
    hub = Hub(tmp_path / "tables", bot_delay=0)
    await hub.start(sock_dir / "hub.sock")
    yield hub
    await hub.close()


@pytest.fixture
async def connect(hub: Hub):
    clients: list[TableClient] = []

    async def make(identity: str, name: str) -> TableClient:
        client = await TableClient.connect(hub.socket_path, hub.issue_token(identity, name))
        clients.append(client)
        return client

    yield make
    for client in clients:
        await client.close()


async def test_the_socket_is_private_and_a_forged_token_is_refused(hub: Hub, connect) -> None:
    assert stat.S_IMODE(os.stat(hub.socket_path).st_mode) == 0o600
    with pytest.raises(TableError, match="^Server: unknown token$"):
        await TableClient.connect(hub.socket_path, "forged-token")
    alice = await connect("SHA256:alice", "alice")
    assert (alice.identity, alice.name) == ("SHA256:alice", "alice")
    odd = await connect("SHA256:odd", "bo\tb\n\x1b[2J" + "x" * 60)
    assert odd.name == "bo b [2J" + "x" * 24  # one printable line of at most 32 characters


async def test_a_silent_connection_is_closed(hub: Hub, connect, caplog, monkeypatch) -> None:
    monkeypatch.setattr("pipeline_tui.net.hub.HELLO_TIMEOUT", 0.2)
    caplog.set_level(logging.WARNING, logger="pipeline_tui.net.hub")
    reader, writer = await asyncio.open_unix_connection(str(hub.socket_path))
    assert await asyncio.wait_for(reader.read(), WAIT) == b""
    writer.close()
    assert any("no hello within" in r.getMessage() for r in caplog.records)


async def test_two_seats_and_a_spectator_receive_every_update(hub: Hub, connect) -> None:
    table_setup = setup("human", "human")
    alice, bob, carol = [Follower(await connect(f"SHA256:{n}", n)) for n in ("alice", "bob", "carol")]
    table_id = await alice.client.create_table(table_setup, "three")
    await alice.join(table_id, 0)
    await bob.join(table_id, 1)
    await carol.join(table_id, None)
    assert carol.seats[1].holder == "bob"
    game = Game(table_setup)
    by_seat = {0: alice, 1: bob}
    for _ in range(40):
        mover = by_seat[game.current_player]
        text = format_move(choose_move(game, "heuristic", seed=2))
        await mover.client.move(table_id, text)
        assert mover.log[-1] == text  # the Update arrives before move() returns
        game.play(text)
        for follower in (alice, bob, carol):
            await follower.until(lambda f=follower: len(f.log) == len(game.moves))
    with pytest.raises(TableError, match="^Seat: spectators cannot move$"):
        await carol.client.move(table_id, "pass")
    with pytest.raises(TableError, match="^Seat: spectators cannot undo$"):
        await carol.client.undo(table_id)
    seen = [[(u.base, u.moves) for u in f.updates if u.moves] for f in (alice, bob, carol)]
    assert seen[0] == seen[1] == seen[2] and len(seen[0]) == 40
    expected = [format_move(m) for m in game.moves]
    assert alice.log == bob.log == carol.log == expected
    assert load_game(hub.service.get(table_id).path).moves == game.moves


async def test_moving_for_another_seat_and_illegal_moves_are_refused(hub: Hub, connect) -> None:
    table_setup = setup("human", "human")
    alice = Follower(await connect("SHA256:alice", "alice"))
    bob = Follower(await connect("SHA256:bob", "bob"))
    table_id = await alice.client.create_table(table_setup)
    await alice.join(table_id, 0)
    with pytest.raises(TableError, match="^Seat: Ada's seat belongs to alice$"):
        await bob.client.join(table_id, 0)
    with pytest.raises(TableError, match="^Table: join the table first$"):
        await bob.client.move(table_id, "start-tank C")
    await bob.join(table_id, 1)
    game = Game(table_setup)
    mover, other = (alice, bob) if game.current_player == 0 else (bob, alice)
    name = table_setup.players[game.current_player].name
    with pytest.raises(TableError, match=f"^Turn: it is {name}'s turn, not yours$"):
        await other.client.move(table_id, "start-tank C")
    with pytest.raises(TableError) as refused:
        await mover.client.move(table_id, "end")
    assert str(refused.value) == game.why_illegal(parse_move("end"))
    with pytest.raises(TableError, match="^Table: there is no table 'nope'$"):
        await mover.client.move("nope", "start-tank C")
    await mover.client.move(table_id, "start-tank C")
    await mover.client.undo(table_id)
    assert mover.log == [] and mover.updates[-1].base == 0
    assert hub.service.get(table_id).log() == []


async def test_computer_seats_play_until_a_human_is_to_act(hub: Hub, connect) -> None:
    table_setup = setup("human", "heuristic", "heuristic", seed=9)
    alice = Follower(await connect("SHA256:alice", "alice"))
    table_id = await alice.client.create_table(table_setup)
    await alice.join(table_id, 0)

    def alice_to_act() -> bool:
        game = replica(table_setup, alice.log)
        return game.current_player == 0 or game.is_over()

    for _ in range(3):  # Alice's setup turn and two Work turns, with the bots' turns between
        await alice.until(alice_to_act)
        game = replica(table_setup, alice.log)
        turn_start = len(game.moves)
        while game.current_player == 0:
            text = format_move(choose_move(game, "heuristic", seed=1))
            await alice.client.move(table_id, text)
            game.play(text)
        await alice.until(lambda: len(alice.log) > len(game.moves) and alice_to_act())
        bot_moves = replica(table_setup, alice.log)
        actors = {bot_moves.state_at(i).turn.player for i in range(len(game.moves), len(alice.log))}
        assert actors and actors <= {1, 2}  # only computer seats moved in between
        assert len(game.moves) > turn_start
    table = hub.service.get(table_id)
    assert table.log() == alice.log
    assert [format_move(m) for m in load_game(table.path).moves] == alice.log


async def test_seat_changes_reach_the_table(hub: Hub, connect) -> None:
    alice = Follower(await connect("SHA256:alice", "alice"))
    bob = Follower(await connect("SHA256:bob", "bob"))
    table_id = await alice.client.create_table(setup("human", "human"))
    await alice.join(table_id, 0)
    await bob.join(table_id, 1)
    await alice.until(lambda: alice.seats[1].holder == "bob" and alice.seats[1].connected)
    await bob.client.leave(table_id)
    await alice.until(lambda: not alice.seats[1].connected)
    assert alice.seats[1].holder == "bob"  # the seat stays Bob's
    with pytest.raises(TableError, match="^Table: join the table first$"):
        await bob.client.undo(table_id)
    rejoined = await bob.join(table_id, 1)
    assert rejoined.seat == 1
    await alice.until(lambda: alice.seats[1].connected)
    await bob.client.close()  # a dropped connection counts as leaving
    await alice.until(lambda: not alice.seats[1].connected)
    listing = await alice.client.list_tables()
    assert [(t.id, [s.holder for s in t.seats]) for t in listing] == [(table_id, ["alice", "bob"])]


async def _raw(path: Path, data: bytes) -> bytes:
    """Send raw bytes to the Hub and return everything it sends before it closes."""
    reader, writer = await asyncio.open_unix_connection(str(path))
    writer.write(data)
    await writer.drain()
    received = await asyncio.wait_for(reader.read(), WAIT)
    writer.close()
    return received


def _frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


async def test_broken_clients_are_closed_alone(hub: Hub, connect, caplog) -> None:
    caplog.set_level(logging.WARNING, logger="pipeline_tui.net.hub")
    alice = Follower(await connect("SHA256:alice", "alice"))
    table_id = await alice.client.create_table(setup("human", "human"))
    await alice.join(table_id, 0)
    token = hub.issue_token("SHA256:bob", "bob")
    hello = _frame(json.dumps({"type": "hello", "id": 1, "token": token}).encode())
    assert await _raw(hub.socket_path, b"\x00\x00\x00\x05{oops") == b""
    assert await _raw(hub.socket_path, (MAX_FRAME + 1).to_bytes(4, "big") + b"{}") == b""
    move_first = {"type": "move", "id": 1, "table_id": table_id, "text": "pass"}
    assert await _raw(hub.socket_path, _frame(json.dumps(move_first).encode())) == b""
    answered = await _raw(hub.socket_path, hello + _frame(b'{"type": "teleport", "id": 2}'))
    assert b'"welcome"' in answered  # signed in, then closed for the unknown request
    reasons = " | ".join(r.getMessage() for r in caplog.records)
    for reason in (
        "not a request",
        "over the 1048576-byte limit",
        "the first request must be hello",
        "teleport",
    ):
        assert reason in reasons
    assert [t.id for t in await alice.client.list_tables()] == [table_id]  # Alice is unharmed


async def test_a_lost_hub_is_reported_to_the_client(hub: Hub, connect) -> None:
    client = await connect("SHA256:alice", "alice")
    lost: list[str] = []
    client.on_lost = lost.append
    await hub.close()
    with pytest.raises(TableError, match="^Server: connection lost$"):
        for _ in range(100):  # the first call may be written before the close is seen
            await client.list_tables()
    assert lost == ["Server: connection lost"]
    assert not client.connected


# --- Restarts: a Hub in its own process, killed without warning -------------------------------


async def _spawn(tables: Path, sock: Path, log: Path, *who: str):
    args = [
        sys.executable,
        "-m",
        "pipeline_tui.net.hub",
        "--tables",
        str(tables),
        "--socket",
        str(sock),
        "--bot-delay",
        "0",
    ]
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


async def test_a_killed_hub_loses_no_acknowledged_move(tmp_path: Path, sock_dir: Path) -> None:
    tables, sock = tmp_path / "tables", sock_dir / "hub.sock"
    table_setup = setup("human", "human", "heuristic", seed=21)
    proc, tokens = await _spawn(tables, sock, tmp_path / "hub.log", "A:alice", "B:bob")
    try:
        alice = Follower(await TableClient.connect(sock, tokens["A"]))
        bob = Follower(await TableClient.connect(sock, tokens["B"]))
        table_id = await alice.client.create_table(table_setup)
        await alice.join(table_id, 0)
        await bob.join(table_id, 1)
        by_seat = {0: alice, 1: bob}
        acknowledged: list[str] = []
        while len(acknowledged) < 60:
            await alice.until(lambda: replica(table_setup, alice.log).current_player in by_seat)
            game = replica(table_setup, alice.log)
            text = format_move(choose_move(game, "heuristic", seed=4))
            await by_seat[game.current_player].client.move(table_id, text)
            acknowledged = list(by_seat[game.current_player].log)
        second_setup = setup("human", "human", seed=22)
        second = await bob.client.create_table(second_setup, "second")
        await bob.join(second, 0)
        await alice.join(second, 1)
        second_game = Game(second_setup)
        second_by_seat = {0: bob, 1: alice}
        for _ in range(7):  # a setup turn and a bit of the next one
            mover = second_by_seat[second_game.current_player]
            await mover.client.move(second, "start-tank C")
            second_game.play("start-tank C")
        await _kill(proc)
        for follower in (alice, bob):
            with pytest.raises(TableError, match="connection lost"):
                for _ in range(100):
                    await follower.client.list_tables()
            await follower.client.close()
    finally:
        await _kill(proc)
    assert stat.S_ISSOCK(os.lstat(sock).st_mode)  # left behind by the killed hub
    again = Hub(tables, bot_delay=0)
    assert again.problems == []
    table = again.service.get(table_id)
    assert table.log()[: len(acknowledged)] == acknowledged
    assert [b.holder if b else None for b in table.bindings] == ["alice", "bob", None]
    other = again.service.get(second)
    assert other.game.moves == second_game.moves and other.name == "second"
    assert [b.holder for b in other.bindings] == ["bob", "alice"]
    await again.start(sock)  # the stale socket is replaced
    try:
        client = await TableClient.connect(sock, again.issue_token("A", "alice"))
        joined = await client.join(table_id, 0)
        assert joined.moves[: len(acknowledged)] == acknowledged
        await client.close()
    finally:
        await again.close()


async def test_table_files_are_always_loadable_and_bots_resume(tmp_path: Path, sock_dir: Path) -> None:
    """Four computer seats play as fast as they can while the test reads the file over and over;
    then the hub is killed, and a new hub resumes the game where the file left it."""
    tables, sock = tmp_path / "tables", sock_dir / "hub.sock"
    proc, tokens = await _spawn(tables, sock, tmp_path / "hub.log", "A:alice")
    try:
        client = await TableClient.connect(sock, tokens["A"])
        table_id = await client.create_table(setup(*["heuristic"] * 4, seed=33))
        await client.close()
        path = tables / f"{table_id}.json"
        counts: list[int] = []
        deadline = time.monotonic() + WAIT
        while (not counts or counts[-1] < 120) and time.monotonic() < deadline:
            counts.append(len(load_game(path).moves))  # raises if ever caught half-written
            await asyncio.sleep(0.001)
        assert counts[-1] >= 120, counts[-1]
        assert counts == sorted(counts) and len(set(counts)) > 10
    finally:
        await _kill(proc)
    killed_at = len(load_game(path).moves)
    again = Hub(tables, bot_delay=0)
    await again.start(sock)
    try:
        watcher = Follower(await TableClient.connect(sock, again.issue_token("B", "bob")))
        await watcher.join(table_id, None)
        await watcher.until(lambda: len(watcher.log) > killed_at + 20)
        await watcher.client.close()
    finally:
        await again.close()
    assert len(load_game(path).moves) > killed_at + 20


async def test_many_tables_each_keep_their_own_bots(hub: Hub) -> None:
    from pipeline_tui.ai import make_bot

    setups = [setup("heuristic", "random", "heuristic", seed=seed) for seed in (5, 6, 5)]
    tables = [hub.service.create(table_setup) for table_setup in setups]
    for table in tables:
        hub._kick_bots(table.id)
    deadline = time.monotonic() + WAIT
    while min(len(t.game.moves) for t in tables) < 60 and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    logs = [table.log()[:60] for table in tables]
    assert all(len(log) == 60 for log in logs)
    for table_setup, log in zip(setups, logs):
        game = Game(table_setup)  # the same seats played alone, one bot per seat
        bots = [make_bot(p.kind, seed=table_setup.seed) for p in table_setup.players]
        while len(game.moves) < 60:
            game.apply(bots[game.current_player].choose(game))
        assert [format_move(m) for m in game.moves] == log
    assert logs[0] == logs[2] != logs[1]


async def test_a_failing_bot_hands_its_seat_to_the_table(hub: Hub, connect, monkeypatch) -> None:
    class Broken:
        kind = "heuristic"

        def choose(self, game: Game):
            raise RuntimeError("no idea")

    monkeypatch.setattr("pipeline_tui.net.hub.make_bot", lambda kind, seed: Broken())
    table_setup = setup("human", "heuristic", seed=9)
    alice = Follower(await connect("SHA256:alice", "alice"))
    table_id = await alice.client.create_table(table_setup)
    await alice.join(table_id, 0)
    table = hub.service.get(table_id)
    game = replica(table_setup, alice.log)
    while game.current_player == 0:
        text = format_move(choose_move(game, "heuristic", seed=1))
        await alice.client.move(table_id, text)
        game.play(text)
    deadline = time.monotonic() + WAIT
    while table.handed_back != {1} and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    assert table.handed_back == {1} and table.bot_to_act() is None
    await alice.until(lambda: alice.seats[1].handed_back)
    assert game.current_player == 1 and len(alice.log) == len(game.moves)
    text = format_move(choose_move(game, "heuristic", seed=1))
    await alice.client.move(table_id, text)  # Alice plays Bo's move now
    await alice.until(lambda: len(alice.log) == len(game.moves) + 1)
    assert alice.log[-1] == text
    note = hub.service.bot_failed(table_id, 1, "RuntimeError: no\nidea").note
    assert (
        note == "Bo's computer player failed (RuntimeError: no idea); the players at the table play its moves"
    )


async def test_a_computer_seat_retries_a_move_that_could_not_be_saved(
    tmp_path: Path, sock_dir: Path, caplog, monkeypatch
) -> None:
    monkeypatch.setattr("pipeline_tui.net.hub.SAVE_RETRY", 0.05)
    caplog.set_level(logging.ERROR, logger="pipeline_tui.net.hub")
    hub = Hub(tmp_path / "tables", bot_delay=0)
    table = hub.service.create(setup("heuristic", "random"))
    table.path.unlink()
    table.path.mkdir()  # the file cannot be written while a folder stands in its place
    await hub.start(sock_dir / "hub.sock")
    try:
        retried = lambda: any("tries again" in r.getMessage() for r in caplog.records)  # noqa: E731
        deadline = time.monotonic() + WAIT
        while not retried() and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert retried() and table.game.moves == []
        table.path.rmdir()
        watcher = Follower(await TableClient.connect(hub.socket_path, hub.issue_token("C", "carol")))
        await watcher.join(table.id, None)
        await watcher.until(lambda: len(watcher.log) >= 10)
        await watcher.client.close()
    finally:
        await hub.close()
    assert len(load_game(table.path).moves) >= 10


async def test_a_slow_disk_does_not_stall_the_event_loop(hub: Hub, connect, monkeypatch) -> None:
    """A table file write that does not finish keeps the mover waiting, not everyone else: while
    it is held, another player still signs in (the Hub answers from its event loop)."""
    import pipeline_tui.net.store as tables

    real_save = tables.save_game
    writing, release = threading.Event(), threading.Event()

    def held_save(*args, **kwargs):
        writing.set()
        assert release.wait(WAIT), "the test never let the write finish"
        return real_save(*args, **kwargs)

    alice = Follower(await connect("SHA256:alice", "alice"))
    table_setup = setup("human", "human")
    table_id = await alice.client.create_table(table_setup)
    await alice.join(table_id, Game(table_setup).current_player)
    monkeypatch.setattr(tables, "save_game", held_save)
    loop = asyncio.get_running_loop()
    move = loop.create_task(alice.client.move(table_id, "start-tank C"))
    try:
        assert await loop.run_in_executor(None, writing.wait, WAIT), "the write never started"
        bob = await connect("SHA256:bob", "bob")  # the loop answers while the file is written
        assert bob.name == "bob" and not move.done() and alice.log == []
    finally:
        release.set()
    await move
    assert alice.log == ["start-tank C"]


async def test_watchers_joining_during_play_never_miss_a_move(hub: Hub, connect) -> None:
    """Computer seats play as fast as they can while spectators join, leave and join again:
    every spectator's log (its Joined plus the Updates after it) stays the table's log."""
    owner = await connect("SHA256:owner", "owner")
    table_id = await owner.create_table(setup(*["heuristic"] * 4, seed=44))
    watchers = [Follower(await connect(f"SHA256:w{i}", f"w{i}")) for i in range(6)]
    table = hub.service.get(table_id)
    for round_ in range(5):
        for watcher in watchers:
            await watcher.join(table_id, None)
            await asyncio.sleep(0)  # let a bot move land between joins
        target = len(watchers[-1].log) + 15
        for watcher in watchers:
            await watcher.until(lambda w=watcher: len(w.log) >= target or table.game.is_over())
        log = table.log()
        for watcher in watchers:
            assert watcher.log == log[: len(watcher.log)], f"round {round_}"
        for watcher in watchers[::2]:
            await watcher.client.leave(table_id)
    assert len(table.game.moves) >= 75


async def test_start_refuses_a_path_that_is_taken(hub: Hub, tmp_path: Path, sock_dir: Path) -> None:
    other = Hub(tmp_path / "tables", bot_delay=0)
    with pytest.raises(TableError, match="^Server: another hub is listening on "):
        await other.start(hub.socket_path)
    plain = sock_dir / "plain"
    plain.write_text("mine")
    with pytest.raises(TableError, match="exists and is not a socket; not replacing it$"):
        await other.start(plain)
    assert plain.read_text() == "mine"
    assert stat.S_ISSOCK(os.lstat(hub.socket_path).st_mode)  # the running hub's socket is intact
