"""Replay the attacks of issue 36 on loopback and say for each whether the server held.

``pipeline-tui serve`` runs in a subprocess with its default limits, a temporary tables folder
and an authorized-keys file listing two keys (alice, bob); the attacks come from asyncssh
clients, OpenSSH-like raw sockets and, for the Hub, clients holding a token as a session child
does (a Hub in this process: the Hub's socket is the server user's alone). Every attack is
bounded in count and time (:data:`ATTACK_TIMEOUT` each) and prints one line: held or BROKE, and
the figure it measured.

Extensible: ``ATTACKS`` is a list of ``(name, coroutine function)``, each returning
``(held, figure)``. If ``benchmarks/attack_web.py`` exists, its own ``ATTACKS`` list (same
shape) is run after these.

Run: ``python benchmarks/attack.py [--only REGEX] [--code DIR]`` (about 90 s on 2 cores);
``--code DIR`` runs ``serve`` from the package in DIR (an older checkout, to compare; its
flags may differ, so the runaway attack may not start there).
"""

from __future__ import annotations

import argparse
import array
import asyncio
import contextlib
import fcntl
import importlib.util
import json
import logging
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncssh
from asyncssh.channel import SSHClientChannel

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline_tui.engine.setup import GameSetup, PlayerSetup  # noqa: E402
from pipeline_tui.net.client import TableClient, TableError  # noqa: E402
from pipeline_tui.net.hub import Hub  # noqa: E402
from pipeline_tui.net.tables import TableService  # noqa: E402
from tests.server.sshterm import Terminal, session_processes, until  # noqa: E402

Attack = tuple[str, Callable[[], Awaitable[tuple[bool, str]]]]
ATTACK_TIMEOUT = 90.0  # seconds an attack may take before it counts as broken
WAIT = 30.0  # seconds for a screen or a process to show up
ANNOUNCE = re.compile(r"port (\d+) .* host key")
MB = 1 << 20
SESSION_RSS = 200 * MB  # a session child at any window stays below this
CODE: list[Path] = []  # the checkout whose serve is attacked (empty: this one)
REFUSED_WITHIN = 3.0  # seconds for a refused session's one line
LOGIN_WITHIN = 1.0  # seconds for a real login while connections hang before logging in


# --- the targets ------------------------------------------------------------------------------
class Serve:
    """``pipeline-tui serve`` in a subprocess, started on first use."""

    def __init__(self, *flags: str) -> None:
        self.flags = flags
        self.folder = Path(tempfile.mkdtemp(prefix="pt-attack-"))
        self.keys = {n: asyncssh.generate_private_key("ssh-ed25519") for n in ("alice", "bob", "mallory")}
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = 0

    async def ready(self) -> "Serve":
        if self.proc is None:
            authorized = self.folder / "authorized_keys"
            authorized.write_bytes(b"".join(self.keys[n].export_public_key() for n in ("alice", "bob")))
            log = self.folder / "serve.log"
            with open(log, "w") as out:
                self.proc = subprocess.Popen(
                    [sys.executable, "-m", "pipeline_tui", "serve", "--port", "0", "--tables",
                     str(self.folder / "tables"), "--authorized-keys", str(authorized), *self.flags],
                    stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                    cwd=CODE[0] if CODE else None,
                )  # fmt: skip
            match = await until(lambda: ANNOUNCE.search(log.read_text()), "serve to start", WAIT)
            self.port = int(match.group(1))
        return self

    async def connect(self, who: str = "alice", **options: object) -> asyncssh.SSHClientConnection:
        options.setdefault("client_keys", [self.keys[who]])
        return await asyncssh.connect(
            "127.0.0.1", self.port, username=who, known_hosts=None, agent_path=None, **options
        )

    def children(self) -> list[int]:
        """The live session processes of the server (spawned, or forked by its zygote), oldest first."""
        assert self.proc is not None
        return session_processes(self.proc.pid)

    def fds(self) -> tuple[int, int]:
        """The server's open file descriptors, and how many of them are pty masters."""
        assert self.proc is not None
        links = []
        for fd in Path(f"/proc/{self.proc.pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                links.append(os.readlink(fd))
        return len(links), links.count("/dev/ptmx")

    def log(self) -> str:
        return (self.folder / "serve.log").read_text()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(WAIT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def rss(pid: int) -> int:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def window(pid: int) -> tuple[int, int]:
    """Columns and rows of the pty on ``pid``'s standard input."""
    fd = os.open(os.readlink(f"/proc/{pid}/fd/0"), os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
    try:
        size = array.array("H", [0, 0, 0, 0])
        fcntl.ioctl(fd, termios.TIOCGWINSZ, size)
        return size[1], size[0]
    finally:
        os.close(fd)


SERVE = Serve()
RUNAWAY = Serve("--max-window", "5000x2000", "--session-memory", "300")
STANDS = Serve(
    "--share-after", "1"
)  # its one table: two computer seats playing on their own (serve/stand.py)


async def refused(**options: object) -> tuple[bool, str]:
    """Log in to SERVE with ``options``: held if refused."""
    serve = await SERVE.ready()
    start = time.monotonic()
    try:
        async with await serve.connect(**options):
            return False, "logged in"
    except asyncssh.PermissionDenied:
        return True, f"refused in {(time.monotonic() - start) * 1000:.0f} ms"


async def lobby(term: Terminal) -> None:
    await asyncio.wait_for(term.expect("No tables yet"), WAIT)


# --- SSH --------------------------------------------------------------------------------------
async def unknown_key() -> tuple[bool, str]:
    return await refused(client_keys=[SERVE.keys["mallory"]])


async def password() -> tuple[bool, str]:
    return await refused(client_keys=[], password="alice", preferred_auth="password")


async def keyboard_interactive() -> tuple[bool, str]:
    return await refused(client_keys=[], password="alice", preferred_auth="keyboard-interactive")


async def no_pty() -> tuple[bool, str]:
    serve = await SERVE.ready()
    async with await serve.connect() as conn:
        result = await conn.run("sh -c id", term_type=None, timeout=WAIT)
    one_line = str(result.stdout).count("\n") == 1 and "needs a terminal" in str(result.stdout)
    return one_line and result.exit_status == 1, f"exit {result.exit_status}, {str(result.stdout).strip()!r}"


async def server_variables() -> tuple[bool, str]:
    """Variables that would steer the child: none of them reaches it."""
    serve = await SERVE.ready()
    sent = {
        "PIPELINE_TUI_HUB": "/tmp/evil.sock",
        "PIPELINE_TUI_CONTROL": "0",
        "PIPELINE_TUI_TOKEN": "forged",
        "PYTHONPATH": "/tmp/evil",
        "PYTHONSTARTUP": "/tmp/evil.py",
        "LD_PRELOAD": "/tmp/evil.so",
        "PATH": "/tmp/evil",
    }
    before = set(serve.children())
    conn = await serve.connect()
    proc = await conn.create_process(term_type="xterm", term_size=(100, 30), env=sent, encoding=None)
    term = Terminal(conn, proc)
    try:
        await lobby(term)
        (child,) = set(serve.children()) - before
        environ = Path(f"/proc/{child}/environ").read_bytes().split(b"\0")
        leaked = [name for name, value in sent.items() if f"{name}={value}".encode() in environ]
        return not leaked, f"lobby shown; in the child: {', '.join(leaked) or 'none of 7'}"
    finally:
        await term.close()


async def port_forwarding() -> tuple[bool, str]:
    serve = await SERVE.ready()
    outcomes = []
    async with await serve.connect() as conn:
        try:
            await conn.create_connection(asyncssh.SSHTCPSession, "127.0.0.1", serve.port)
            outcomes.append("local: opened")
        except asyncssh.ChannelOpenError as exc:
            outcomes.append(f"local, to the server's own port: {exc.reason or 'refused'}")
        try:
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 9)
            outcomes.append("remote: opened")
        except asyncssh.ChannelListenError as exc:
            outcomes.append(f"remote: {exc}")
    return not any("opened" in o for o in outcomes), "; ".join(outcomes)


async def sftp() -> tuple[bool, str]:
    serve = await SERVE.ready()
    async with await serve.connect() as conn:
        try:
            async with conn.start_sftp_client():
                return False, "sftp opened"
        except (asyncssh.Error, OSError) as exc:
            return True, f"refused ({type(exc).__name__})"


async def variable_flood() -> tuple[bool, str]:
    """6,000 variables of 30 KB (180 MB) sent on one session: the server's memory."""
    serve = await SERVE.ready()
    assert serve.proc is not None
    sent = {f"V{number}": "x" * 30_000 for number in range(6000)}
    async with await serve.connect() as conn:
        await conn.run("warm up", term_type=None, timeout=WAIT)
        before = rss(serve.proc.pid)
        await conn.run("play", term_type=None, env=sent, timeout=WAIT)
        after = rss(serve.proc.pid)
    return after - before < 50 * MB, f"server RSS {before / MB:.0f} -> {after / MB:.0f} MB"


async def idle_channels() -> tuple[bool, str]:
    """5,000 session channels opened on one connection and never started."""
    serve = await SERVE.ready()
    assert serve.proc is not None
    async with await serve.connect() as conn:
        before = rss(serve.proc.pid)

        async def open_channel() -> None:
            channel = SSHClientChannel(
                conn, asyncio.get_running_loop(), "strict", None, "strict", 1 << 16, 1 << 15
            )
            await channel._open(b"session")  # what create_session does before its requests

        opened = await asyncio.gather(*(open_channel() for _ in range(5000)), return_exceptions=True)
        count = sum(result is None for result in opened)
        after = rss(serve.proc.pid)
    return (
        after - before < 10 * MB,
        f"{count} opened, {5000 - count} refused; server RSS {before / MB:.0f} -> {after / MB:.0f} MB",
    )


async def typed_ahead() -> tuple[bool, str]:
    """100 MB sent to a session whose child reads nothing (stopped here, as a busy one)."""
    serve = await SERVE.ready()
    assert serve.proc is not None
    term, child = await _sized_session((100, 30))
    os.kill(child, signal.SIGSTOP)
    try:
        before = rss(serve.proc.pid)
        term.proc.stdin.write(b"x" * (100 * MB))
        await asyncio.sleep(5)
        after = rss(serve.proc.pid)
    finally:
        os.kill(child, signal.SIGCONT)
        await term.close()
    return after - before < 20 * MB, f"server RSS {before / MB:.0f} -> {after / MB:.0f} MB after 5 s"


async def _nul_sessions(bad: dict[str, object]) -> tuple[bool, str]:
    serve = await SERVE.ready()
    async with await serve.connect() as conn:
        await conn.run("warm up", term_type=None, timeout=WAIT)
        fds, ptys = serve.fds()
        lines = hung = 0
        for _ in range(20):
            try:
                result = await conn.run("play", timeout=REFUSED_WITHIN, **{"term_type": "xterm", **bad})
            except asyncssh.TimeoutError:
                hung += 1
                continue
            lines += result.exit_status == 1 and str(result.stdout).count("\n") == 1
        await asyncio.sleep(0.5)
        after = serve.fds()
    held = lines == 20 and after[0] <= fds and after[1] == ptys
    return held, (
        f"{lines}/20 one-line refusals, {hung} hung {REFUSED_WITHIN:.0f} s; "
        f"server fds {fds} -> {after[0]}, ptys {ptys} -> {after[1]}"
    )


async def nul_variable() -> tuple[bool, str]:
    return await _nul_sessions({"env": {"LANG": "C\x00"}})


async def nul_term() -> tuple[bool, str]:
    return await _nul_sessions({"term_type": "xterm\x00x"})


async def _sized_session(size: tuple[int, int]) -> tuple[Terminal, int]:
    serve = await SERVE.ready()
    before = set(serve.children())
    conn = await serve.connect()
    proc = await conn.create_process(term_type="xterm-256color", term_size=size, encoding=None)
    term = Terminal(conn, proc)
    await lobby(term)
    (child,) = set(serve.children()) - before
    return term, child


async def huge_pty() -> tuple[bool, str]:
    term, child = await _sized_session((70000, 70000))
    try:
        await asyncio.sleep(3)
        size, used = window(child), rss(child)
        told = term.shows("shows only its")
        held = size == (500, 200) and used < SESSION_RSS and told
        return held, f"pty {size[0]}x{size[1]}, RSS {used / MB:.0f} MB, notice shown: {told}"
    finally:
        await term.close()


async def window_change() -> tuple[bool, str]:
    term, child = await _sized_session((100, 30))
    try:
        figures = []
        worst = 0
        for size in ((20000, 20000), (65535, 65535)):
            term.proc.change_terminal_size(*size)
            await asyncio.sleep(10)
            worst = max(worst, rss(child))
            figures.append(f"{size[0]}x{size[1]}: pty {'x'.join(map(str, window(child)))}")
        mark = term.mark()
        term.proc.change_terminal_size(100, 30)
        start = time.monotonic()
        await asyncio.wait_for(term.expect("No tables yet", mark), WAIT)
        shrink = time.monotonic() - start
        figures.append(f"RSS max {worst / MB:.0f} MB after 10 s each; shrink answered in {shrink:.1f} s")
        return worst < SESSION_RSS and shrink < 5, "; ".join(figures)
    finally:
        await term.close()


async def forty_sessions() -> tuple[bool, str]:
    serve = await SERVE.ready()
    assert serve.proc is not None
    before = set(serve.children())
    conn = await serve.connect("bob")
    try:
        opened = await asyncio.gather(
            *(conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None) for _ in range(40)),
            return_exceptions=True,
        )
        terms = [Terminal(conn, p) for p in opened if not isinstance(p, BaseException)]
        channels_refused = sum(isinstance(p, asyncssh.ChannelOpenError) for p in opened)
        await until(lambda: sum(t.reader.done() for t in terms) >= len(terms) - 4, "the refusals", WAIT)
        await asyncio.gather(*(lobby(t) for t in terms if not t.reader.done()))
        started = set(serve.children()) - before
        refusals = sum("most one key may have" in t.text() for t in terms)
        total = sum(rss(c) for c in started) + rss(serve.proc.pid)
        held = len(started) == 4 and refusals + channels_refused == 36
        return held, (
            f"{len(started)} started, {refusals} refused in one line, {channels_refused} channels "
            f"refused (16 a connection); server + sessions RSS {total / MB:.0f} MB"
        )
    finally:
        conn.close()
        await conn.wait_closed()


async def _sharing(
    who: str, size: tuple[int, int] = (160, 50), window: int = 2 * MB
) -> tuple[Serve, Terminal]:
    """``who`` watching STANDS's table at ``size`` (an SSH channel ``window`` bytes wide), their
    screen a stand's (their own process gone)."""
    if STANDS.proc is None:
        setup = GameSetup(seed=5, players=(PlayerSetup("Ada", "random"), PlayerSetup("Bo", "random")))
        TableService(STANDS.folder / "tables").create(setup, "Table 1")
    serve = await STANDS.ready()

    def shared() -> int:
        return sum(
            line.startswith(f"{who} (") and "shares the stand" in line for line in serve.log().splitlines()
        )

    before = shared()
    conn = await serve.connect(who)
    proc = await conn.create_process(
        term_type="xterm-256color",
        term_size=size,
        encoding=None,
        window=window,
        max_pktsize=min(window, 32768),
    )
    term = Terminal(conn, proc)
    await asyncio.wait_for(term.expect("Table 1"), WAIT)
    term.keys("w")
    await until(lambda: shared() > before, f"{who} to share a stand", WAIT)
    return serve, term


async def pointer_flood() -> tuple[bool, str]:
    """100,000 pointer moves (1.4 MB) at a shared screen: no session started, the stand unmoved."""
    serve, term = await _sharing("alice")
    try:
        assert serve.proc is not None
        before, cpu = serve.children(), _cpu(serve.proc.pid)
        term.proc.stdin.write(
            b"".join(b"\x1b[<35;%d;%dM" % (1 + i % 150, 1 + i % 48) for i in range(100_000))
        )
        await asyncio.sleep(3)
        after, used = serve.children(), _cpu(serve.proc.pid) - cpu
    finally:
        await term.close()
    return (
        before == after,
        f"session processes {len(before)} -> {len(after)}; server CPU {used * 1000:.0f} ms",
    )


async def unread_shared_screen() -> tuple[bool, str]:
    """A watcher sharing a stand at the largest window reads nothing for 10 s while the
    computer seats play: the server holds at most MAX_BACKLOG of the stand's output for them,
    then gives them a session of their own, which waits for them."""
    serve, term = await _sharing("bob", (500, 200), window=8192)
    try:
        assert serve.proc is not None
        before = rss(serve.proc.pid)
        term.reader.cancel()  # nothing reads the channel: the client's window closes
        start = time.monotonic()
        await until(lambda: "too slow for the stand" in serve.log(), "bob to be given his own session", WAIT)
        took = time.monotonic() - start
        await asyncio.sleep(5)  # his own session waits for him (it stops drawing)
        after = rss(serve.proc.pid)
    finally:
        await term.close()
    grew = (after - before) / MB
    return grew < 20, f"given his own session after {took:.1f} s; server RSS +{grew:.1f} MB 5 s later"


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _hang(port: int) -> asyncio.StreamWriter:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.transport.set_write_buffer_limits(0)
    writer.reader = reader  # type: ignore[attr-defined]
    return writer


async def half_open_flood() -> tuple[bool, str]:
    """300 connections that never log in: how many the server keeps, and for how long."""
    serve = await SERVE.ready()
    start = time.monotonic()
    writers = [await _hang(serve.port) for _ in range(300)]
    opened = time.monotonic() - start

    async def closed(writer: asyncio.StreamWriter) -> float:
        reader: asyncio.StreamReader = writer.reader  # type: ignore[attr-defined]
        while await reader.read(1 << 16):
            pass
        return time.monotonic() - start

    try:
        ends = await asyncio.wait_for(asyncio.gather(*(closed(w) for w in writers)), 40)
        dropped = sum(end < opened + 1 for end in ends)
        fds = serve.fds()[0]
        held = max(ends) < 25 and dropped > 0
        return held, (
            f"300 opened: {dropped} dropped at once, {300 - dropped} closed at the login grace, "
            f"the last after {max(ends):.1f} s; server fds then {fds}"
        )
    finally:
        for writer in writers:
            writer.close()


async def login_during_half_open() -> tuple[bool, str]:
    serve = await SERVE.ready()
    writers = [await _hang(serve.port) for _ in range(50)]
    try:
        start = time.monotonic()
        async with await serve.connect():
            took = time.monotonic() - start
        return took < LOGIN_WITHIN, f"login took {took * 1000:.0f} ms with 50 connections hanging"
    finally:
        for writer in writers:
            writer.close()


async def token_in_environment() -> tuple[bool, str]:
    term, child = await _sized_session((100, 30))
    try:
        environ = Path(f"/proc/{child}/environ").read_bytes()
        held = b"TOKEN" not in environ
        return (
            held,
            "no token variable in /proc/<child>/environ" if held else "the token is in the environment",
        )
    finally:
        await term.close()


async def runaway_session() -> tuple[bool, str]:
    """With --max-window 5000x2000 --session-memory 300: a window at 5000x2000 outgrows the
    session's memory; it ends alone with one line, another session goes on."""
    serve = await RUNAWAY.ready()
    terms = []
    for who in ("alice", "bob"):
        conn = await serve.connect(who)
        proc = await conn.create_process(term_type="xterm", term_size=(100, 30), encoding=None)
        terms.append(Terminal(conn, proc))
    try:
        for term in terms:
            await lobby(term)
        start = time.monotonic()
        terms[0].proc.change_terminal_size(5000, 2000)
        done = await asyncio.wait_for(terms[0].proc.wait(), WAIT)
        took = time.monotonic() - start
        worded = terms[0].text().rstrip().endswith("connect again")
        alive = len(serve.children()) == 1
        return (
            worded and alive,
            f"ended in {took:.1f} s, exit {done.exit_status}, one line: {worded}; other session alive: {alive}",
        )
    finally:
        for term in terms:
            await term.close()


# --- the Hub ----------------------------------------------------------------------------------
class HubTarget:
    """A Hub in this process on a private socket, started on first use."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="pt-attack-hub-", dir="/tmp"))
        self.hub: Hub | None = None

    async def ready(self) -> Hub:
        if self.hub is None:
            self.hub = Hub(self.folder / "tables", bot_delay=0)
            await self.hub.start(self.folder / "hub.sock")
        return self.hub

    async def client(self, who: str) -> TableClient:
        hub = await self.ready()
        return await TableClient.connect(self.folder / "hub.sock", hub.issue_token(f"SHA256:{who}", who))

    async def raw(self, data: bytes, read_for: float = 5.0) -> tuple[bytes, bool]:
        """Send ``data`` on a new connection; what came back and whether the Hub closed it."""
        await self.ready()
        reader, writer = await asyncio.open_unix_connection(str(self.folder / "hub.sock"))
        writer.write(data)
        got = b""
        closed = False
        try:
            while chunk := await asyncio.wait_for(reader.read(1 << 16), read_for):
                got += chunk
            closed = True
        except asyncio.TimeoutError:
            pass
        finally:
            writer.close()
        return got, closed

    async def close(self) -> None:
        if self.hub is not None:
            await self.hub.close()
        shutil.rmtree(self.folder, ignore_errors=True)


HUB = HubTarget()


def _frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


def _hello(token: str) -> bytes:
    return _frame(json.dumps({"type": "hello", "id": 1, "token": token}).encode())


async def _unharmed() -> bool:
    """Whether a fresh client still gets answers."""
    client = await HUB.client("witness")
    try:
        await asyncio.wait_for(client.list_tables(), 5)
        return True
    finally:
        await client.close()


async def forged_token() -> tuple[bool, str]:
    got, closed = await HUB.raw(_hello(secrets.token_urlsafe(32)))
    return closed and b"unknown token" in got, f"refused and closed: {closed}"


async def garbage_frames() -> tuple[bool, str]:
    hub = await HUB.ready()
    outcomes = []
    for data in (b"\x00\x00\x00\x05{oops", os.urandom(4096), _frame(b'{"type": "teleport", "id": 1}')):
        _, closed = await HUB.raw(data)
        outcomes.append(closed)
    _, closed = await HUB.raw(_hello(hub.issue_token("SHA256:eve", "eve")) + _frame(b"\xff\xfe"))
    outcomes.append(closed)
    unharmed = await _unharmed()
    return all(outcomes) and unharmed, f"{sum(outcomes)}/4 closed; others unharmed: {unharmed}"


async def four_gib_header() -> tuple[bool, str]:
    before = rss(os.getpid())
    start = time.monotonic()
    _, closed = await HUB.raw(b"\xff\xff\xff\xff" + b"x" * 1024)
    grew = (rss(os.getpid()) - before) / MB
    return (
        closed and grew < 50,
        f"closed in {(time.monotonic() - start) * 1000:.0f} ms; hub RSS +{grew:.0f} MB",
    )


async def nested_json() -> tuple[bool, str]:
    hub = await HUB.ready()
    deep = b"[" * 100_000 + b"]" * 100_000
    _, closed = await HUB.raw(_hello(hub.issue_token("SHA256:eve", "eve")) + _frame(deep))
    unharmed = await _unharmed()
    return closed and unharmed, f"closed: {closed}; others unharmed: {unharmed}"


async def other_seats() -> tuple[bool, str]:
    alice, eve = await HUB.client("alice"), await HUB.client("eve")
    try:
        setup = GameSetup(seed=3, players=(PlayerSetup("Ada", "human"), PlayerSetup("Bo", "human")))
        table = await alice.create_table(setup)
        await alice.join(table, 0)
        refusals = []
        try:
            await eve.join(table, 0)
            refusals.append("accepted")
        except TableError as exc:
            refusals.append(str(exc))
        await eve.join(table, None)  # watching, she tries to play Ada's turn
        for attempt in (eve.move(table, "end"), eve.undo(table)):
            try:
                await attempt
                refusals.append("accepted")
            except TableError as exc:
                refusals.append(str(exc))
        held = "accepted" not in refusals
        return held, " | ".join(refusals)
    finally:
        await alice.close()
        await eve.close()


async def unread_requests() -> tuple[bool, str]:
    """2,000 requests sent and no reply read: the Hub's memory stays bounded, others go on."""
    hub = await HUB.ready()
    before = rss(os.getpid())
    request = _frame(json.dumps({"type": "list_tables", "id": 2}).encode())
    data = _hello(hub.issue_token("SHA256:eve", "eve")) + request * 2000
    reader, writer = await asyncio.open_unix_connection(str(HUB.folder / "hub.sock"))
    writer.write(data)
    await writer.drain()
    await asyncio.sleep(2)
    grew = (rss(os.getpid()) - before) / MB
    unharmed = await _unharmed()
    writer.close()
    return unharmed and grew < 50, f"hub RSS +{grew:.0f} MB; others unharmed: {unharmed}"


ATTACKS: list[Attack] = [
    ("ssh: unknown key", unknown_key),
    ("ssh: password", password),
    ("ssh: keyboard-interactive", keyboard_interactive),
    ("ssh: no pty", no_pty),
    ("ssh: overriding the server's variables", server_variables),
    ("ssh: port forwarding", port_forwarding),
    ("ssh: sftp", sftp),
    ("ssh: 6,000 variables of 30 KB", variable_flood),
    ("ssh: 5,000 channels never started", idle_channels),
    ("ssh: 100 MB typed ahead of a stopped child", typed_ahead),
    ("ssh: NUL in a variable, 20 sessions", nul_variable),
    ("ssh: NUL in TERM, 20 sessions", nul_term),
    ("ssh: pty 70000x70000", huge_pty),
    ("ssh: window 20000x20000, 65535x65535", window_change),
    ("ssh: 40 sessions, one key", forty_sessions),
    ("ssh: 300 connections never logging in", half_open_flood),
    ("ssh: login during 50 half-open", login_during_half_open),
    ("ssh: token in /proc/<child>/environ", token_in_environment),
    ("ssh: runaway session memory", runaway_session),
    ("ssh: 100,000 pointer moves at a shared screen", pointer_flood),
    ("ssh: a shared screen read by nobody", unread_shared_screen),
    ("hub: forged token", forged_token),
    ("hub: garbage frames", garbage_frames),
    ("hub: 4 GiB length header", four_gib_header),
    ("hub: JSON nested 100,000 deep", nested_json),
    ("hub: other players' seats", other_seats),
    ("hub: 2,000 unread requests", unread_requests),
]


def web_attacks() -> list[Attack]:
    """``benchmarks/attack_web.py``'s ATTACKS, if that module exists."""
    path = Path(__file__).with_name("attack_web.py")
    if not path.exists():
        return []
    spec = importlib.util.spec_from_file_location("attack_web", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.ATTACKS)


async def replay(attacks: list[Attack]) -> int:
    """Run each attack in turn, printing a line each; the number that broke."""
    broke = 0
    width = max((len(name) for name, _ in attacks), default=0)
    for name, attack in attacks:
        start = time.monotonic()
        try:
            held, figure = await asyncio.wait_for(attack(), ATTACK_TIMEOUT)
        except asyncio.TimeoutError:  # the attack's own wait, or ATTACK_TIMEOUT
            held, figure = False, f"no outcome: gave up waiting after {time.monotonic() - start:.0f} s"
        except Exception as exc:  # an attack that fails is a finding, not a crash of the replay
            held, figure = False, f"{type(exc).__name__}: {exc}"
        broke += not held
        took = time.monotonic() - start
        print(f"{name:<{width}}  {'held ' if held else 'BROKE'}  {figure} ({took:.1f} s)", flush=True)
    return broke


async def main(only: str | None) -> int:
    logging.getLogger("pipeline_tui").setLevel(logging.ERROR)  # the Hub's closing notes
    attacks = [a for a in ATTACKS + web_attacks() if only is None or re.search(only, a[0])]
    try:
        broke = await replay(attacks)
    finally:
        for serve in (SERVE, RUNAWAY, STANDS):
            serve.stop()
        await HUB.close()
    print(f"{len(attacks) - broke} held, {broke} broke")
    return 1 if broke else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="run only the attacks whose name matches this regular expression")
    parser.add_argument("--code", type=Path, help="run serve from the package in this checkout")
    args = parser.parse_args()
    CODE.extend([args.code.resolve()] if args.code else [])
    sys.exit(asyncio.run(main(args.only)))
