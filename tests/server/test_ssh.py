"""`pipeline-tui serve` end to end: SSH clients (asyncssh) play at a shared table.

The server runs in a subprocess on a free port with a temporary tables folder and an
authorized-keys file holding the test keys. Every player is a real SSH session with a pty: the
tests type keys into the Textual app and read its screen (escape sequences stripped); the table
file the server writes is the truth about which moves landed.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncssh
import pytest

from pipeline_tui.engine.moves import format_move
from pipeline_tui.net.priority import AUTOGROUP, WATCHING_NICE
from pipeline_tui.serve.ssh import RUN_PREFIX, remove_stale_run_folders
from pipeline_tui.storage import load_game, read_save

from tests.server.sshterm import TIMEOUT, WIDE, Terminal, until
from tests.server.test_session import EXIT_WITHIN

ANNOUNCE = re.compile(r"port (\d+) .* host key (SHA256:\S+?)\.")


class Server:
    """``pipeline-tui serve`` in a subprocess; ``port`` and ``host_key`` from its first line."""

    def __init__(
        self, tables: Path, keys: Path, log: Path, ignoring_hangup: bool = False, extra: tuple[str, ...] = ()
    ) -> None:
        self.tables, self.keys, self.log = tables, keys, log
        self.extra = extra  # more options for serve (``--store URL``: tests/pg)
        self.ignoring_hangup = ignoring_hangup  # started as under nohup
        self.proc: subprocess.Popen | None = None
        self.port = 0
        self.host_key = ""

    def start(self) -> None:
        self.log.write_text("")
        with open(self.log, "w") as out:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "pipeline_tui",
                    "serve",
                    "--port",
                    "0",
                    "--tables",
                    str(self.tables),
                    "--authorized-keys",
                    str(self.keys),
                    *self.extra,
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=ignore_hangup if self.ignoring_hangup else None,
            )
        deadline = time.monotonic() + TIMEOUT
        while not (match := ANNOUNCE.search(self.log.read_text())):
            assert self.proc.poll() is None, f"serve exited: {self.log.read_text()}"
            assert time.monotonic() < deadline, "serve did not start"
            time.sleep(0.05)
        self.port, self.host_key = int(match.group(1)), match.group(2)

    def kill(self) -> None:
        """SIGKILL: no chance to tidy up (the session children lose their pty and end)."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(TIMEOUT)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(TIMEOUT)
            except subprocess.TimeoutExpired:
                self.kill()


def ignore_hangup() -> None:
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


@pytest.fixture(scope="module")
def keys():
    return {
        name: asyncssh.generate_private_key("ssh-ed25519") for name in ("alice", "bob", "carol", "mallory")
    }


@pytest.fixture(scope="module")
def server(tmp_path_factory, keys):
    folder = tmp_path_factory.mktemp("serve")
    authorized = folder / "authorized_keys"
    authorized.write_bytes(b"".join(keys[n].export_public_key() for n in ("alice", "bob", "carol")))
    srv = Server(folder / "tables", authorized, folder / "serve.log")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def table_file(server: Server) -> Path | None:
    files = sorted(server.tables.glob("t*.json"), key=lambda p: int(p.stem[1:]))
    return files[-1] if files else None


def holders(path: Path) -> list[str | None]:
    seats = read_save(path).meta["table"]["seats"]
    return [s and s["holder"] for s in seats]


async def test_unknown_keys_and_passwords_are_refused(server, keys):
    with pytest.raises(asyncssh.PermissionDenied):
        await asyncssh.connect(
            "127.0.0.1",
            server.port,
            username="mallory",
            client_keys=[keys["mallory"]],
            known_hosts=None,
            agent_path=None,
        )
    with pytest.raises(asyncssh.PermissionDenied):
        await asyncssh.connect(
            "127.0.0.1",
            server.port,
            username="alice",
            client_keys=[],
            password="secret",
            known_hosts=None,
            agent_path=None,
        )


async def test_a_session_without_a_terminal_is_refused(server, keys):
    async with asyncssh.connect(
        "127.0.0.1",
        server.port,
        username="alice",
        client_keys=[keys["alice"]],
        known_hosts=None,
        agent_path=None,
    ) as conn:
        result = await conn.run("play", term_type=None, timeout=TIMEOUT)
    assert result.exit_status == 1
    assert "needs a terminal" in result.stdout and result.stdout.count("\n") == 1


async def test_two_seats_play_a_third_watches_and_a_restart_loses_nothing(server, keys):
    alice = await Terminal.open(server.port, "alice", keys["alice"])
    await alice.expect("No tables yet")
    mark = alice.mark()  # the window size follows the client's
    alice.proc.change_terminal_size(70, 20)
    await alice.expect("too small", mark)
    alice.proc.change_terminal_size(*WIDE)
    alice.keys("n")
    await alice.expect("New game")
    alice.keys("\r")  # the defaults: two human seats; the creator sits at the first
    path = await until(lambda: table_file(server), "the table file")
    await until(lambda: holders(path)[0] == "alice", "alice at seat 1")

    bob = await Terminal.open(server.port, "bob", keys["bob"])
    await bob.expect("Table 1")
    bob.keys("\r")
    await bob.expect("sit here")
    bob.keys("\r")
    await until(lambda: holders(path) == ["alice", "bob"], "bob at seat 2")

    carol = await Terminal.open(server.port, "carol", keys["carol"])
    await carol.expect("Table 1")
    carol.keys("w")
    await carol.expect("watching")
    players = {0: alice, 1: bob}
    if AUTOGROUP.exists():  # the spectator's session gives the CPU to the players' (priority.py)
        await until(
            lambda: session_nices(server.proc.pid) == [0, 0, WATCHING_NICE], "the spectator's lower priority"
        )

    async def play(count: int) -> None:
        """Whoever is to move types the next move; every screen shows it."""
        game = load_game(path)
        seat = game.current_player
        legal = [format_move(m) for m in game.legal_moves()]
        text = legal[count % len(legal)]
        marks = {t: t.mark() for t in (alice, bob, carol)}
        players[seat].type_move(text)
        await until(lambda: len(load_game(path).moves) == count + 1, f"move {count + 1} saved")
        assert format_move(load_game(path).moves[-1]) == text
        line = f"{count + 1:>4} {game.setup.players[seat].name:<8} {text}"
        for terminal, since in marks.items():
            await terminal.expect(line, since)

    for count in range(4):
        await play(count)

    # Nobody moves for another seat, and spectators do not move at all.
    game = load_game(path)
    text = format_move(game.legal_moves()[0])
    waiting = players[1 - game.current_player]
    since = waiting.type_move(text)
    await waiting.expect("yours", since)  # "...it is Ada's turn, not yours"
    since = carol.type_move(text)
    await carol.expect("spectators", since)  # "...spectators cannot move"
    await play(4)  # the queue is clear: the next real move is number 5
    assert len(load_game(path).moves) == 5

    # The server dies mid-game; restarted, it has every move and the same host key.
    before = [format_move(m) for m in load_game(path).moves]
    host_key = server.host_key
    rundir = run_folder(server.proc.pid)
    server.kill()
    assert rundir.exists()  # a killed server cannot tidy up...
    for terminal in (alice, bob, carol):
        await until(lambda: terminal.reader.done(), "the session to end with the server")
        await terminal.close()
    server.start()
    assert server.host_key == host_key
    assert not rundir.exists()  # ...the next one does
    alice = await Terminal.open(server.port, "alice", keys["alice"])
    bob = await Terminal.open(server.port, "bob", keys["bob"])
    players = {0: alice, 1: bob}
    for terminal in (alice, bob):
        await terminal.expect("Table 1")
        terminal.keys("\r")
        await terminal.expect("back to your seat")
        terminal.keys("\r")
    carol = await Terminal.open(server.port, "carol", keys["carol"])
    await carol.expect("Table 1")
    carol.keys("w")
    await carol.expect("watching")
    for terminal in (alice, bob, carol):
        await terminal.expect("   5 ")  # the whole log is back on every screen
    await play(5)
    assert [format_move(m) for m in load_game(path).moves][:5] == before
    for terminal in (alice, bob, carol):
        await terminal.close()


async def test_killing_the_server_leaves_no_session_behind(tmp_path, keys):
    """SIGKILL of ``serve`` (started as under nohup, with SIGHUP ignored): every session child
    ends within 5 seconds, whether at a table, in the lobby or still starting."""
    srv = Server(
        tmp_path / "tables", tmp_path / "authorized_keys", tmp_path / "serve.log", ignoring_hangup=True
    )
    srv.keys.write_bytes(b"".join(keys[n].export_public_key() for n in ("alice", "bob", "carol")))
    srv.start()
    terminals = []
    try:
        alice = await Terminal.open(srv.port, "alice", keys["alice"])
        terminals.append(alice)
        await alice.expect("No tables yet")
        alice.keys("n")
        await alice.expect("New game")
        alice.keys("\r")
        path = await until(lambda: table_file(srv), "the table file")
        await until(lambda: holders(path)[0] == "alice", "alice at seat 1")
        bob = await Terminal.open(srv.port, "bob", keys["bob"])
        terminals.append(bob)
        await bob.expect("Table 1")
        terminals.append(await Terminal.open(srv.port, "carol", keys["carol"]))
        children = await until(
            lambda: (found := session_children(srv.proc.pid)) and len(found) == 3 and found,
            "three session children",
        )
        srv.kill()
        await until(
            lambda: not any(map(is_session, children)), "every session child to end", timeout=EXIT_WITHIN
        )
    finally:
        for terminal in terminals:
            await terminal.close()
        srv.stop()


def session_children(pid: int) -> list[int]:
    """The pids of the session children of the server ``pid``, oldest first."""
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            parent = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            if parent == pid and b"pipeline_tui.serve.session" in (proc / "cmdline").read_bytes():
                found.append(int(proc.name))
        except OSError:  # gone meanwhile
            continue
    return sorted(found)


def is_session(pid: int) -> bool:
    """Whether ``pid`` is still a running session child (a zombie has ended)."""
    proc = Path("/proc") / str(pid)
    try:
        state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        return state != "Z" and b"pipeline_tui.serve.session" in (proc / "cmdline").read_bytes()
    except OSError:
        return False


def session_nices(pid: int) -> list[int]:
    """The autogroup nice values of the session children of the server ``pid``, oldest first."""
    nices = {}
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            parent = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            if parent == pid and b"pipeline_tui.serve.session" in (proc / "cmdline").read_bytes():
                nices[int(proc.name)] = int((proc / "autogroup").read_text().split()[-1])
        except OSError:  # gone meanwhile
            continue
    return [nices[child] for child in sorted(nices)]


def run_folder(pid: int) -> Path:
    """The temporary run folder (Hub socket, pid) of the server process ``pid``."""
    return next(
        d
        for d in Path(tempfile.gettempdir()).glob(RUN_PREFIX + "*")
        if (d / "pid").is_file() and (d / "pid").read_text() == str(pid)
    )


def test_run_folders_of_servers_that_are_gone_are_removed(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    folders = {}
    for name, pid in (("gone", gone.pid), ("running", os.getpid()), ("no-pid", None), ("garbled", "x")):
        folder = folders[name] = tmp_path / (RUN_PREFIX + name)
        folder.mkdir()
        (folder / "hub.sock").write_text("")
        if pid is not None:
            (folder / "pid").write_text(str(pid))
    other = tmp_path / "another-program"
    other.mkdir()
    (other / "pid").write_text(str(gone.pid))
    assert remove_stale_run_folders() == [folders["gone"]]
    assert not folders["gone"].exists()
    assert all(folders[n].exists() for n in ("running", "no-pid", "garbled")) and other.exists()


def serve_error(*args: str) -> str:
    """Run ``serve`` expecting it to fail at start: its one line on stderr."""
    done = subprocess.run(
        [sys.executable, "-m", "pipeline_tui", "serve", *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    return done.stderr


def test_start_errors_are_one_line(server, tmp_path):
    assert "cannot listen on 127.0.0.1" in serve_error(
        "--port", str(server.port), "--tables", str(tmp_path / "t"), "--authorized-keys", str(server.keys)
    )
    assert "cannot read the authorized keys" in serve_error(
        "--port", "0", "--tables", str(tmp_path / "t"), "--authorized-keys", str(tmp_path / "missing")
    )
    empty = tmp_path / "empty"
    empty.write_text("")
    assert "hold no usable key" in serve_error(
        "--port", "0", "--tables", str(tmp_path / "t"), "--authorized-keys", str(empty)
    )
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert "cannot use the tables folder" in serve_error("--port", "0", "--tables", str(blocker), "--open")


def test_ctrl_c_stops_cleanly_and_the_host_key_is_private(tmp_path, keys):
    srv = Server(tmp_path / "tables", tmp_path / "authorized_keys", tmp_path / "serve.log")
    srv.keys.write_bytes(keys["alice"].export_public_key())
    srv.start()
    srv.proc.send_signal(signal.SIGINT)
    assert srv.proc.wait(TIMEOUT) == 0
    assert "server stopped" in srv.log.read_text()
    assert (srv.tables / "ssh_host_ed25519_key").stat().st_mode & 0o777 == 0o600


async def test_quitting_or_closing_input_ends_the_session(server, keys):
    quitter = await Terminal.open(server.port, "alice", keys["alice"])
    closer = await Terminal.open(server.port, "bob", keys["bob"])
    for terminal in (quitter, closer):
        await terminal.expect("Shared tables")
    quitter.keys("\x11")  # ctrl+q
    closer.proc.stdin.write_eof()
    quit_done = await asyncio.wait_for(quitter.proc.wait(), TIMEOUT)
    eof_done = await asyncio.wait_for(closer.proc.wait(), TIMEOUT)
    assert quit_done.exit_status == 0
    assert eof_done.exit_status is not None
    for terminal in (quitter, closer):
        await terminal.close()


async def test_each_session_speaks_its_clients_language_and_the_key_keeps_a_choice(server, keys):
    """carol's ssh client sends LANG=ru_RU.UTF-8, bob's nothing: at the same time carol's lobby
    is Russian and bob's English. carol picks English in the lobby (l); the server keeps that
    for her key, and her next session is English although her client still asks for Russian."""
    russian = {"LANG": "ru_RU.UTF-8"}
    carol = await Terminal.open(server.port, "carol", keys["carol"], env=russian)
    bob = await Terminal.open(server.port, "bob", keys["bob"])
    await carol.expect("Общие столы")
    await bob.expect("Shared tables")
    assert "Общие" not in bob.text()
    mark = carol.mark()
    carol.keys("l")
    await carol.expect("Shared tables", mark)
    chosen = server.tables / "players" / "languages.json"
    await until(lambda: chosen.exists() and "SHA256:" in chosen.read_text(), "carol's choice kept")
    for terminal in (carol, bob):
        await terminal.close()
    again = await Terminal.open(server.port, "carol", keys["carol"], env=russian)
    await again.expect("Shared tables")
    assert "Общие" not in again.text()
    await again.close()
    async with asyncssh.connect(
        "127.0.0.1",
        server.port,
        username="bob",
        client_keys=[keys["bob"]],
        known_hosts=None,
        agent_path=None,
    ) as conn:
        result = await conn.run("play", term_type=None, env=russian, timeout=TIMEOUT)
    assert result.exit_status == 1 and "нужен терминал" in result.stdout
