"""Spectators alike share one stand's screen (serve/stand.py, issue 38 point 2), end to end:
real SSH sessions at a real ``pipeline-tui serve``; the server's log and its session processes
tell who shares what."""

from __future__ import annotations

import asyncio
import os
import re
import signal

import pytest

from pipeline_tui.engine.moves import format_move
from pipeline_tui.engine.setup import GameSetup, PlayerSetup
from pipeline_tui.net.tables import TableService
from pipeline_tui.storage import load_game, read_save
from tests.server.sshterm import WIDE, Terminal, is_running, session_processes, until
from tests.server.test_ssh import Server

STARTED = re.compile(r"stand for table (\S+) at (\d+)x(\d+) \((\w+)\) started, pid (\d+)")


@pytest.fixture
def server(tmp_path):
    """A server whose one table has Ada (a person, to sit) against Bo (the computer)."""
    tables = tmp_path / "tables"
    setup = GameSetup(seed=7, players=(PlayerSetup("Ada", "human"), PlayerSetup("Bo", "random")))
    TableService(tables).create(setup, "Table 1")
    srv = Server(tables, tmp_path / "none", tmp_path / "serve.log", extra=("--open", "--share-after", "1"))
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def log(server: Server) -> str:
    return server.log.read_text()


def stands(server: Server) -> list[tuple[str, int, int, str, int]]:
    """Every stand started so far: table, columns, rows, language, pid."""
    return [(t, int(c), int(r), lang, int(pid)) for t, c, r, lang, pid in STARTED.findall(log(server))]


def sharing(server: Server, name: str) -> int:
    """How many times ``name``'s session has gone over to a stand."""
    return sum(
        1 for line in log(server).splitlines() if line.startswith(f"{name} (") and "shares the stand" in line
    )


async def seated(server: Server) -> Terminal:
    """Ada's player at her seat, its table drawn."""
    ada = await Terminal.open(server.port, "ada")
    await ada.expect("Table 1")
    ada.keys("\r")
    await ada.expect("sit here")
    ada.keys("\r")
    path = server.tables / "t1.json"
    await until(
        lambda: (read_save(path).meta["table"]["seats"][0] or {}).get("holder") == "ada", "Ada at her seat"
    )
    return ada


async def watcher(server: Server, name: str, size=WIDE, env=None) -> Terminal:
    """``name`` watching the table (in Russian with ``LANG=ru_RU.UTF-8`` in ``env``)."""
    russian = (env or {}).get("LANG", "").startswith("ru")
    terminal = await Terminal.open(server.port, name, size=size, env=env)
    await terminal.expect("Общие столы: 1 стол" if russian else "Table 1")
    terminal.keys("w")
    await terminal.expect("наблюдение" if russian else "watching")
    return terminal


async def move(server: Server, ada: Terminal, count: int, watchers: list[Terminal]) -> None:
    """Ada moves (the computer answers); every watcher's screen shows her move."""
    path = server.tables / "t1.json"
    await until(lambda: load_game(path).current_player == 0, "Ada's turn")
    game = load_game(path)
    text = format_move(game.legal_moves()[count % len(game.legal_moves())])
    marks = [t.mark() for t in watchers]
    done = len(game.moves)
    ada.type_move(text)
    line = f"{done + 1:>4} Ada      {text}"
    for terminal, mark in zip(watchers, marks):
        await terminal.expect(line, mark)


async def test_watchers_alike_share_one_stand_and_see_every_move(server):
    assert "spectators alike share a stand after 1 s untouched" in log(server)
    ada = await seated(server)
    bob, carol = await watcher(server, "bob"), await watcher(server, "carol")
    await until(lambda: sharing(server, "bob") and sharing(server, "carol"), "both to share a stand")
    (stand,) = stands(server)
    assert stand[:4] == ("t1", *WIDE, "en")
    # Ada's session and the stand: the watchers' own processes have ended
    await until(lambda: len(session_processes(server.proc.pid)) == 2, "two session processes")
    assert stand[4] in session_processes(server.proc.pid)
    for count in range(3):
        await move(server, ada, count, [bob, carol])
    assert len(stands(server)) == 1
    for terminal in (ada, bob, carol):
        await terminal.close()


async def test_a_key_gives_a_watcher_their_own_session_at_the_table_and_the_key_acts_there(server):
    ada = await seated(server)
    bob, carol = await watcher(server, "bob"), await watcher(server, "carol")
    await until(lambda: sharing(server, "bob") and sharing(server, "carol"), "both to share a stand")
    await until(lambda: len(session_processes(server.proc.pid)) == 2, "the watchers' processes to end")
    game = load_game(server.tables / "t1.json")
    since = carol.type_move(format_move(game.legal_moves()[0]))
    await carol.expect("spectators", since)  # typed at the table, not at the lobby beneath it
    assert len(session_processes(server.proc.pid)) == 3  # Ada, the stand, Carol's own
    assert "New game" not in carol.text(since)  # no key reached the lobby ("n": a new table)
    await move(server, ada, 0, [bob, carol])  # Bob still shares the stand, Carol has her own
    assert sharing(server, "carol") == 1 and len(stands(server)) == 1
    for terminal in (ada, bob, carol):
        await terminal.close()


async def test_pointer_moves_over_a_shared_screen_change_nothing(server):
    await seated(server)
    bob = await watcher(server, "bob")
    await until(lambda: sharing(server, "bob"), "Bob to share a stand")
    await until(lambda: len(session_processes(server.proc.pid)) == 2, "Bob's process to end")
    for x in range(200):
        bob.keys(f"\x1b[<35;{x % 150 + 1};{x % 40 + 1}M")
    bob.keys("\x1b[O\x1b[I")
    await asyncio.sleep(1.0)
    assert len(session_processes(server.proc.pid)) == 2 and sharing(server, "bob") == 1


async def test_another_language_or_size_gets_a_stand_of_its_own(server):
    ada = await seated(server)
    bob = await watcher(server, "bob")
    carol = await watcher(server, "carol", env={"LANG": "ru_RU.UTF-8"})
    dave = await watcher(server, "dave", size=(160, 48))
    await until(lambda: len(stands(server)) == 3, "three stands")
    assert sorted(s[1:4] for s in stands(server)) == [(160, 48, "en"), (160, 50, "en"), (160, 50, "ru")]
    await move(server, ada, 0, [bob, carol, dave])
    for terminal in (ada, bob, carol, dave):
        await terminal.close()


async def test_a_killed_stand_gives_its_watchers_their_own_sessions(server):
    ada = await seated(server)
    bob, carol = await watcher(server, "bob"), await watcher(server, "carol")
    await until(lambda: sharing(server, "bob") and sharing(server, "carol"), "both to share a stand")
    ((*_, pid),) = stands(server)
    os.kill(pid, signal.SIGKILL)
    await until(lambda: "ended (status" in log(server), "the server to see the stand end")
    await move(server, ada, 0, [bob, carol])  # each on a session of their own, or a new stand
    await until(lambda: len(stands(server)) == 2, "a new stand for them")
    await move(server, ada, 1, [bob, carol])
    for terminal in (ada, bob, carol):
        await terminal.close()


async def test_without_shared_screens_every_watcher_keeps_a_session(tmp_path):
    tables = tmp_path / "tables"
    setup = GameSetup(seed=7, players=(PlayerSetup("Ada", "human"), PlayerSetup("Bo", "random")))
    TableService(tables).create(setup, "Table 1")
    srv = Server(
        tables,
        tmp_path / "none",
        tmp_path / "serve.log",
        extra=("--open", "--share-after", "1", "--no-shared-screens"),
    )
    srv.start()
    try:
        assert "every spectator a session of their own" in log(srv)
        ada = await seated(srv)
        bob, carol = await watcher(srv, "bob"), await watcher(srv, "carol")
        await move(srv, ada, 0, [bob, carol])
        await asyncio.sleep(2.5)  # past --share-after, which --no-shared-screens overrides
        assert len(session_processes(srv.proc.pid)) == 3 and not stands(srv)
        for terminal in (ada, bob, carol):
            await terminal.close()
    finally:
        srv.stop()


async def test_the_server_killed_leaves_no_stand_behind(server):
    await seated(server)
    await watcher(server, "bob")
    await until(lambda: stands(server), "a stand")
    ((*_, pid),) = stands(server)
    server.kill()
    await until(lambda: not is_running(pid), "the stand to end with its server")


async def test_a_closed_watcher_leaves_and_an_empty_stand_ends(server):
    await seated(server)
    bob = await watcher(server, "bob")
    await until(lambda: sharing(server, "bob"), "Bob to share a stand")
    ((*_, pid),) = stands(server)
    await bob.close()
    await until(lambda: not is_running(pid), "the stand to end after its last watcher left")
