"""`pipeline-tui serve` against hostile clients (issue 36): what a client sends is checked, every
window is clamped, and the host's limits hold (docs/security.md).

The server runs in this process (``ssh.serve`` as a task), so the tests count its file
descriptors and ptys in ``/proc/self/fd`` and see the tokens the Hub issues and revokes; the
session children are real processes on real ptys, reached by asyncssh clients on loopback.
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import fcntl
import os
import re
import signal
import subprocess
import sys
import termios
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh
import pytest
from asyncssh.channel import SSHClientChannel

from pipeline_tui.net.hub import Hub
from pipeline_tui.serve import ssh
from pipeline_tui.serve.session import EXIT_NO_MEMORY, TOKEN_ENV

from tests.server.sshterm import TIMEOUT, Terminal, session_processes, until

PORT = re.compile(r" port (\d+) ")
SESSION_RSS = 200 << 20  # bytes: a session child at any window the client asks for stays below
REFUSED_WITHIN = 10.0  # seconds for a refused session's one line and its end


@dataclass
class Served:
    """``serve`` in this process: its port, its log lines, and the tokens alive now."""

    port: int = 0
    lines: list[str] = field(default_factory=list)
    issued: list[str] = field(default_factory=list)
    live: set[str] = field(default_factory=set)

    async def connect(
        self, key: asyncssh.SSHKey, user: str = "player", **options
    ) -> asyncssh.SSHClientConnection:
        return await asyncssh.connect(
            "127.0.0.1",
            self.port,
            username=user,
            client_keys=[key],
            known_hosts=None,
            agent_path=None,
            **options,
        )


@contextlib.asynccontextmanager
async def serving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limits: ssh.Limits
) -> AsyncIterator[Served]:
    """Serve ``--open`` on a free port with ``limits`` until the block ends."""
    served = Served()
    issue, revoke = Hub.issue_token, Hub.revoke_token

    def issue_token(hub: Hub, identity: str, name: str) -> str:
        token = issue(hub, identity, name)
        served.issued.append(token)
        served.live.add(token)
        return token

    def revoke_token(hub: Hub, token: str) -> None:
        served.live.discard(token)
        revoke(hub, token)

    monkeypatch.setattr(Hub, "issue_token", issue_token)
    monkeypatch.setattr(Hub, "revoke_token", revoke_token)
    stop = asyncio.Event()
    task = asyncio.create_task(
        ssh.serve("127.0.0.1", 0, tmp_path / "tables", None, True, stop, served.lines.append, 0.0, limits)
    )
    try:
        line = await until(lambda: next((m for t in served.lines if (m := PORT.search(t))), None), "serve")
        served.port = int(line.group(1))
        yield served
    finally:
        stop.set()
        await asyncio.wait_for(task, TIMEOUT)


def open_fds() -> list[str]:
    """What this process's file descriptors point at."""
    found = []
    for fd in Path("/proc/self/fd").iterdir():
        with contextlib.suppress(OSError):
            found.append(os.readlink(fd))
    return found


def pty_masters() -> int:
    return open_fds().count("/dev/ptmx")


def session_children() -> list[int]:
    """The session processes this process started or its zygote forked, oldest first."""
    return session_processes(os.getpid())


def rss(pid: int) -> int:
    """The resident memory of ``pid`` in bytes."""
    return int((Path("/proc") / str(pid) / "statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def window(pid: int) -> tuple[int, int]:
    """The window size (columns, rows) of the pty on ``pid``'s standard input."""
    fd = os.open(os.readlink(f"/proc/{pid}/fd/0"), os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
    try:
        size = array.array("H", [0, 0, 0, 0])
        fcntl.ioctl(fd, termios.TIOCGWINSZ, size)
        return size[1], size[0]
    finally:
        os.close(fd)


@pytest.fixture
def key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


async def test_a_nul_in_a_variable_or_term_closes_the_session_and_releases_everything(
    tmp_path, monkeypatch, key
):
    """20 sessions on one connection send a NUL byte in LANG or in TERM: each gets one line and
    ends; the server holds as many descriptors and ptys as before and no token is left."""
    async with serving(tmp_path, monkeypatch, ssh.Limits(sessions=4)) as served:
        async with await served.connect(key) as conn:
            await conn.run("warm up", term_type=None, timeout=TIMEOUT)  # asyncssh's lazy parts
            fds, masters = len(open_fds()), pty_masters()
            for number in range(20):
                bad = {"env": {"LANG": "C\x00"}} if number % 2 else {"term_type": "xterm\x00x"}
                options = {"term_type": "xterm", **bad}
                result = await conn.run("play", timeout=REFUSED_WITHIN, **options)
                assert result.exit_status == 1
                assert result.stdout.count("\n") == 1 and "NUL byte" in result.stdout
            await until(lambda: len(open_fds()) <= fds, "the descriptors back to their number", 5)
            assert pty_masters() == masters
            assert not session_children() and not served.live


async def test_every_window_is_clamped_and_the_player_is_told(tmp_path, monkeypatch, key):
    """A pty asked at 70000x70000 (over 16 bits), then window changes to 20000x20000 and
    65535x65535: the session's pty stays at the largest window the host allows, the player is
    told the game shows only a part, and the session's memory stays under SESSION_RSS."""
    async with serving(tmp_path, monkeypatch, ssh.Limits(max_window=(300, 100))) as served:
        conn = await served.connect(key)
        proc = await conn.create_process(term_type="xterm-256color", term_size=(70000, 70000), encoding=None)
        player = Terminal(conn, proc)
        try:
            await player.expect("shows only its")
            await player.expect("No tables yet")
            (child,) = session_children()
            assert window(child) == (300, 100)
            for size in ((20000, 20000), (65535, 65535), (120, 40), (20000, 20000)):
                mark = player.mark()
                proc.change_terminal_size(*size)
                expected = (min(size[0], 300), min(size[1], 100))
                await until(lambda: window(child) == expected, f"the window at {expected}")
                assert rss(child) < SESSION_RSS
            await player.expect("shows only its", mark)  # told again once it grew past
            await asyncio.sleep(2)  # time to draw, were a larger window drawn
            assert rss(child) < SESSION_RSS
        finally:
            await player.close()


async def test_the_hub_token_is_never_in_a_childs_environment(tmp_path, monkeypatch, key):
    async with serving(tmp_path, monkeypatch, ssh.Limits()) as served:
        player = await Terminal.open(served.port, "alice", key, size=(100, 30))
        try:
            await player.expect("No tables yet")  # signed in with its token
            (child,) = session_children()
            environ = (Path("/proc") / str(child) / "environ").read_bytes()
            (token,) = served.issued
            assert token.encode() not in environ and TOKEN_ENV.encode() not in environ
        finally:
            await player.close()


async def test_a_runaway_session_dies_alone_with_a_word_to_its_player(tmp_path, monkeypatch, key):
    """With windows up to 5000x2000 and 300 MiB a session, a window change to 5000x2000 takes
    the session past its memory: it ends with one line to its player, and another player's
    session and the server go on."""
    limits = ssh.Limits(max_window=(5000, 2000), session_memory=300 * ssh.MiB)
    async with serving(tmp_path, monkeypatch, limits) as served:
        other = await Terminal.open(served.port, "bob", size=(100, 30))
        runaway = await Terminal.open(served.port, "mallory", key, size=(100, 30))
        try:
            for player in (other, runaway):
                await player.expect("No tables yet")
            runaway.proc.change_terminal_size(5000, 2000)
            done = await asyncio.wait_for(runaway.proc.wait(), TIMEOUT)
            assert done.exit_status == EXIT_NO_MEMORY
            assert (
                runaway.text()
                .rstrip()
                .endswith("this session ran out of memory and is closed; connect again")
            )
            assert "Traceback" not in runaway.text()
            assert len(session_children()) == 1
            mark = other.mark()
            other.keys("n")  # the other session still answers
            await other.expect("New game", mark)
        finally:
            for player in (other, runaway):
                await player.close()


class Banner(asyncssh.SSHClient):
    """A client that keeps the authentication banner the server sends."""

    banner = ""

    def auth_banner_received(self, msg: str, lang: str) -> None:
        Banner.banner += msg


async def plain_ssh(port: int, key: asyncssh.SSHKey, folder: Path) -> tuple[int, str]:
    """OpenSSH's ``ssh -tt`` with ``key``, at its default log level (which shows banners) and
    knowing the host key: its exit status and all it printed."""
    path = folder / f"key-{id(key)}"
    path.write_bytes(key.export_private_key())
    path.chmod(0o600)
    host_key = asyncssh.read_private_key(str(folder / "tables" / ssh.HOST_KEY_FILE))
    known = folder / "known_hosts"
    known.write_bytes(f"[127.0.0.1]:{port} ".encode() + host_key.export_public_key())
    proc = await asyncio.create_subprocess_exec(
        "ssh", "-tt", "-p", str(port), "-i", str(path), "-F", "/dev/null", "-o", "BatchMode=yes",
        "-o", "IdentitiesOnly=yes", "-o", f"UserKnownHostsFile={known}", "player@127.0.0.1",
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    out, _ = await asyncio.wait_for(proc.communicate(), TIMEOUT)
    return proc.returncode or 0, out.decode(errors="replace")


async def test_sessions_per_key_and_in_all_are_capped_with_one_line(tmp_path, monkeypatch):
    """At 2 sessions a key and 3 in all: a key's third session, a session past the third, and a
    connection past the third are each refused with one line a plain ``ssh`` shows."""
    alice, bob, carol, dave = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(4))
    async with serving(tmp_path, monkeypatch, ssh.Limits(sessions_per_key=2, sessions=3)) as served:
        own = await served.connect(alice)  # both of alice's sessions on one connection
        players = []
        for _ in range(2):
            proc = await own.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None)
            players.append(Terminal(own, proc))
        held = await served.connect(carol)
        try:
            for player in players:
                await player.expect("No tables yet")
            third = await own.run("play", term_type="xterm", timeout=REFUSED_WITHIN)
            assert third.exit_status == 1
            key_full = "pipeline-tui: your key has 2 sessions open, the most one key may have; close one and try again"
            assert third.stdout == key_full + "\r\n"
            status, shown = await plain_ssh(served.port, alice, tmp_path)  # as OpenSSH shows it
            assert status == 1 and shown.splitlines()[0] == key_full  # then ssh's "Connection closed"
            players.append(await Terminal.open(served.port, "bob", bob, size=(100, 30)))
            await players[-1].expect("No tables yet")
            fourth = await held.run("play", term_type="xterm", timeout=REFUSED_WITHIN)
            assert fourth.exit_status == 1
            assert fourth.stdout == "pipeline-tui: the server is full (3 sessions); try again later\r\n"
            status, shown = await plain_ssh(served.port, dave, tmp_path)  # a fourth connection
            assert status == 255 and "the server is full (3 sessions); try again later" in shown
            assert shown.count("\n") == 2  # the banner, then ssh's own "Permission denied"
            assert len(session_children()) == 3
        finally:
            held.close()
            for player in players:
                await player.close()


async def hang(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection that never logs in, once the server has taken it (sent its version)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    await asyncio.wait_for(reader.readline(), TIMEOUT)
    return reader, writer


async def closed_within(reader: asyncio.StreamReader, seconds: float) -> float:
    """Seconds until the server closes the connection (at most ``seconds``)."""
    start = time.monotonic()
    while await asyncio.wait_for(reader.read(1 << 16), seconds):
        pass
    return time.monotonic() - start


async def test_connections_still_logging_in_are_capped_and_timed_out(tmp_path, monkeypatch, key):
    """At most 5 connections logging in, 1 s each: a sixth is closed at once, the five after
    about 1 s, and then a player logs in."""
    limits = ssh.Limits(login_grace=1.0, startups=ssh.Startups.parse("5"))
    async with serving(tmp_path, monkeypatch, limits) as served:
        held = [await hang(served.port) for _ in range(5)]
        start = time.monotonic()
        reader, writer = await asyncio.open_connection("127.0.0.1", served.port)
        assert await closed_within(reader, 2.0) < 1.0
        writer.close()
        for reader, writer in held:
            await closed_within(reader, 5.0)
            writer.close()
        assert time.monotonic() - start < 3.0
        assert any("dropped a connection" in line for line in served.lines)
        async with await served.connect(key):
            pass


async def test_a_login_while_50_connections_hang_takes_under_a_second(tmp_path, monkeypatch, key):
    """The default limits let a player in at once while 50 connections hang before logging in."""
    async with serving(tmp_path, monkeypatch, ssh.Limits()) as served:
        held = [await hang(served.port) for _ in range(50)]
        try:
            start = time.monotonic()
            async with await served.connect(key):
                took = time.monotonic() - start
            assert took < 1.0
        finally:
            for _, writer in held:
                writer.close()


def test_max_startups_drops_as_openssh_does():
    """10:30:100: none dropped below 10, 30 % at 10, rising to all at 100; ``N`` is a cap."""
    startups = ssh.Startups.parse("10:30:100")
    assert startups.admits(9, 0.0) and not startups.admits(100, 0.99)
    assert not startups.admits(10, 0.29) and startups.admits(10, 0.30)
    assert not startups.admits(55, 0.64) and startups.admits(55, 0.66)  # 30 + 70 * 45 / 90 = 65 %
    assert ssh.Startups.parse("7") == ssh.Startups(7, 100, 7)
    assert ssh.Startups.parse("7").admits(6, 0.99) and not ssh.Startups.parse("7").admits(7, 0.0)
    for bad in ("0", "10:30", "10:101:100", "100:30:10", "a:b:c"):
        with pytest.raises(ValueError, match="START:RATE:FULL"):
            ssh.Startups.parse(bad)


def test_the_default_cap_in_all_follows_the_machines_memory():
    assert ssh.default_sessions(24 << 30) == 96 and ssh.default_sessions(512 << 20) == 4


def test_bad_limit_flags_are_one_line(tmp_path):
    for flags, said in (
        (["--max-window", "70000x10"], "a window is COLUMNSxROWS"),
        (["--max-startups", "5:30"], "START:RATE:FULL"),
        (["--login-grace", "0"], "seconds above 0"),
        (["--share-after", "-1"], "seconds above 0"),
        (["--sessions-per-key", "0"], "expected 1 or more"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "pipeline_tui", "serve", "--open", "--tables", str(tmp_path), *flags],
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        assert done.returncode == 2 and said in done.stderr and done.stderr.count("\n") == 1


async def test_variables_past_those_the_child_takes_are_not_kept(tmp_path, monkeypatch, key):
    """2,000 variables of 30 KB on one session: the server keeps only the one a child takes,
    not their 60 MB (asyncssh alone keeps every one; benchmarks/attack.py measures the
    server's memory, which this process, the client's too, cannot)."""
    kept = []
    started = ssh.GameSession.session_started

    def session_started(session: ssh.GameSession) -> None:
        kept.append(sum(len(k) + len(v) for k, v in session.channel.get_environment_bytes().items()))
        started(session)

    monkeypatch.setattr(ssh.GameSession, "session_started", session_started)
    sent = {f"V{number}": "x" * 30_000 for number in range(2000)} | {"LANG": "ru_RU.UTF-8"}
    async with serving(tmp_path, monkeypatch, ssh.Limits()) as served:
        async with await served.connect(key) as conn:
            result = await conn.run("play", term_type=None, env=sent, timeout=TIMEOUT)
    assert "нужен терминал" in result.stdout  # LANG is kept: the refusal is in Russian
    assert kept == [len("LANG") + len("ru_RU.UTF-8")]


async def test_channels_a_connection_holds_open_are_capped(tmp_path, monkeypatch, key):
    """A client that opens session channels and never starts them (each costs the server a few
    KB) gets 16 on one connection; the rest are refused; closed ones make room again."""
    async with serving(tmp_path, monkeypatch, ssh.Limits(sessions_per_key=4)) as served:
        async with await served.connect(key) as conn:

            async def open_channel() -> SSHClientChannel:
                channel = SSHClientChannel(
                    conn, asyncio.get_running_loop(), "strict", None, "strict", 1 << 16, 1 << 15
                )
                await channel._open(b"session")  # what create_session does first
                return channel

            opened = await asyncio.gather(*(open_channel() for _ in range(40)), return_exceptions=True)
            channels = [c for c in opened if isinstance(c, SSHClientChannel)]
            refused = [c for c in opened if isinstance(c, asyncssh.ChannelOpenError)]
            assert len(channels) == ssh.MIN_CHANNELS and len(refused) == 40 - ssh.MIN_CHANNELS
            for channel in channels:
                channel.close()
                await channel.wait_closed()
            result = await conn.run("play", term_type=None, timeout=TIMEOUT)
            assert result.exit_status == 1 and "needs a terminal" in result.stdout
        assert sum("channels refused" in line for line in served.lines) == 1


async def test_keys_typed_ahead_of_a_child_wait_in_the_client(tmp_path, monkeypatch, key):
    """20 MB sent to a session whose child reads nothing (stopped): the server holds at most
    MAX_PENDING_INPUT of it plus a packet, and the rest waits in the client (SSH flow control)."""
    sessions = []
    started = ssh.GameSession.session_started

    def session_started(session: ssh.GameSession) -> None:
        sessions.append(session)
        started(session)

    monkeypatch.setattr(ssh.GameSession, "session_started", session_started)
    async with serving(tmp_path, monkeypatch, ssh.Limits()) as served:
        player = await Terminal.open(served.port, "mallory", key, size=(100, 30))
        try:
            await player.expect("No tables yet")
            (child,) = session_children()
            os.kill(child, signal.SIGSTOP)
            try:
                player.proc.stdin.write(b"x" * (20 << 20))
                await asyncio.sleep(3)
                assert len(sessions[0].to_child) <= ssh.MAX_PENDING_INPUT + (64 << 10)
            finally:
                os.kill(child, signal.SIGCONT)
        finally:
            await player.close()


async def test_a_session_killed_by_another_hand_tells_its_player(tmp_path, monkeypatch, key):
    """SIGKILL from outside serve (the kernel's OOM killer, say): one line, and the server goes on."""
    async with serving(tmp_path, monkeypatch, ssh.Limits()) as served:
        player = await Terminal.open(served.port, "alice", key, size=(100, 30))
        try:
            await player.expect("No tables yet")
            (child,) = session_children()
            os.kill(child, signal.SIGKILL)
            done = await asyncio.wait_for(player.proc.wait(), TIMEOUT)
            assert done.exit_status == 1
            assert (
                player.text()
                .rstrip()
                .endswith("pipeline-tui: the session ended unexpectedly (SIGKILL); connect again to go on")
            )
            assert not served.live  # its token revoked
        finally:
            await player.close()
