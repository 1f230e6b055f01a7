"""Two ``pipeline-tui serve --store postgresql://...`` nodes end to end (issue 39, points 2 and
3): SSH players on different nodes play at one table and see each other's moves on screen; a
node is killed with SIGKILL and its player signs in at the other node, back at their seat.
The shared host key (copied between the nodes' folders) makes both nodes one server to ssh."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import asyncssh
import pytest

from pipeline_tui.engine.moves import format_move
from pipeline_tui.net.store import open_store
from tests.server.sshterm import Terminal, until
from tests.server.test_ssh import Server

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def node(url: str, tables: Path, keys: Path, log: Path) -> Server:
    """``serve --store URL`` in a subprocess."""
    return Server(tables, keys, log, extra=("--store", url))


async def settled(terminal: Terminal, quiet: float = 1.0) -> None:
    """Until ``terminal`` has drawn nothing new for ``quiet`` seconds (its table is up)."""
    length = -1
    while len(terminal.raw) != length:
        length = len(terminal.raw)
        await asyncio.sleep(quiet)


def stored(url: str) -> list[str]:
    store = open_store(url)
    try:
        loaded = store.load("t1")
        return [format_move(m) for m in loaded.game.moves] if loaded else []
    finally:
        store.close()


async def test_players_on_two_nodes_share_a_table_and_survive_a_killed_node(
    pg_url: str, tmp_path: Path
) -> None:
    keys = {name: asyncssh.generate_private_key("ssh-ed25519") for name in ("alice", "bob")}
    authorized = tmp_path / "authorized_keys"
    authorized.write_bytes(b"".join(key.export_public_key() for key in keys.values()))
    one = node(pg_url, tmp_path / "one", authorized, tmp_path / "one.log")
    two = node(pg_url, tmp_path / "two", authorized, tmp_path / "two.log")
    one.start()
    (tmp_path / "two").mkdir()
    shutil.copy2(tmp_path / "one" / "ssh_host_ed25519_key", tmp_path / "two" / "ssh_host_ed25519_key")
    two.start()
    terminals: list[Terminal] = []
    try:
        assert one.host_key == two.host_key
        alice = await Terminal.open(one.port, "alice", keys["alice"])
        terminals.append(alice)
        await alice.expect("No tables yet")
        alice.keys("n")
        await alice.expect("New game")
        alice.keys("\r")  # two human seats; the creator sits at the first
        bob = await Terminal.open(two.port, "bob", keys["bob"])
        terminals.append(bob)
        await bob.expect("Table 1")  # made on the other node
        bob.keys("\r")
        await bob.expect("sit here")
        bob.keys("\r")
        store = open_store(pg_url)
        await until(lambda: (t := store.load("t1")) is not None and None not in t.meta["seats"], "bob seated")
        store.close()
        players = {0: alice, 1: bob}
        for terminal in players.values():
            await settled(terminal)

        async def play(count: int) -> None:
            store = open_store(pg_url)
            loaded = store.load("t1")
            store.close()
            assert loaded is not None
            game = loaded.game
            seat = game.current_player
            legal = [format_move(m) for m in game.legal_moves()]
            text = legal[count % len(legal)]
            marks = {t: t.mark() for t in players.values()}
            players[seat].type_move(text)
            line = f"{count + 1:>4} {game.setup.players[seat].name:<8} {text}"
            for terminal, since in marks.items():
                await terminal.expect(line, since)  # on both nodes' screens

        for count in range(6):
            await play(count)
        before = stored(pg_url)
        one.kill()  # alice's node
        await until(lambda: alice.reader.done(), "alice's session to end with her node")
        await alice.close()
        alice = await Terminal.open(two.port, "alice", keys["alice"])
        terminals.append(alice)
        players = {0: alice, 1: bob}
        await alice.expect("Table 1")
        alice.keys("\r")
        await alice.expect("back to your seat")
        alice.keys("\r")
        await alice.expect("   6 ")  # every move is back on her screen
        await settled(alice)
        await play(6)
        assert stored(pg_url)[:6] == before and len(stored(pg_url)) == 7
    finally:
        for terminal in terminals:
            await terminal.close()
        one.stop()
        two.stop()
