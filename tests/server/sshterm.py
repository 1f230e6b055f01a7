"""A player at ``pipeline-tui serve`` for the SSH tests and ``benchmarks/bench_ssh.py``: an
asyncssh session with a pty, keys in and the screen's text out."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import asyncssh

TIMEOUT = 60.0  # seconds for anything to show up (a loaded 2-core machine starts Pythons slowly)
WIDE = (160, 50)  # columns, rows: the whole table, the move log included
ANSI = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[P\]X^_].*?(?:\x07|\x1b\\)|\x1b[@-Z\\-_]", re.S)


async def until(condition, what: str, timeout: float = TIMEOUT, poll: float = 0.05):
    """``condition()``'s first true value, checked every ``poll`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(poll)


def processes() -> dict[int, tuple[int, str, int, bytes]]:
    """Every process: its parent, state, controlling terminal and command line."""
    found = {}
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            stat = (proc / "stat").read_text().rsplit(")", 1)[1].split()
            found[int(proc.name)] = (int(stat[1]), stat[0], int(stat[4]), (proc / "cmdline").read_bytes())
        except OSError:  # gone meanwhile
            continue
    return found


def session_processes(server: int) -> list[int]:
    """The running session processes of the server ``server``, oldest first: those it spawned
    and those its session zygote forked (a session has a controlling terminal, the zygote none)."""
    table = processes()
    zygotes = {
        pid for pid, (parent, _s, _t, cmd) in table.items() if parent == server and b"serve.zygote" in cmd
    }
    return sorted(
        pid
        for pid, (parent, state, tty, cmd) in table.items()
        if (parent == server or parent in zygotes)
        and state != "Z"
        and tty != 0
        and (b"pipeline_tui.serve.session" in cmd or b"pipeline_tui.serve.zygote" in cmd)
    )


def zygotes(server: int) -> list[int]:
    """The running session zygotes of the server ``server``."""
    return sorted(
        pid
        for pid, (parent, state, _t, cmd) in processes().items()
        if parent == server and state != "Z" and b"pipeline_tui.serve.zygote" in cmd
    )


def is_running(pid: int) -> bool:
    """Whether ``pid`` is a process that has not ended (a zombie has)."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class Terminal:
    """One player's SSH session with a pty: keys in, the screen's text out."""

    def __init__(self, conn: asyncssh.SSHClientConnection, proc) -> None:
        self.conn, self.proc = conn, proc
        self.raw = bytearray()
        self.seen: dict[tuple[str, int], tuple[int, bool]] = {}  # (text, since): (length, shown)
        self.reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, port: int, user: str, key=None, size=WIDE, env=None) -> "Terminal":
        """A session as ``user`` with ``key`` (a fresh key when None: ``serve --open``), sending
        the environment variables ``env`` as an ssh client's SendEnv does."""
        key = key or asyncssh.generate_private_key("ssh-ed25519")
        conn = await asyncssh.connect(
            "127.0.0.1", port, username=user, client_keys=[key], known_hosts=None, agent_path=None
        )
        proc = await conn.create_process(term_type="xterm-256color", term_size=size, encoding=None, env=env)
        return cls(conn, proc)

    async def _read(self) -> None:
        while data := await self.proc.stdout.read(1 << 16):
            self.raw.extend(data)

    def mark(self) -> int:
        return len(self.raw)

    def text(self, since: int = 0) -> str:
        return ANSI.sub(b"", bytes(self.raw[since:])).decode("utf-8", "replace")

    def shows(self, text: str, since: int = 0) -> bool:
        """Whether ``text`` was drawn after ``since``; the screen is read again only when more
        output came, so many sessions can be polled often."""
        length = len(self.raw)
        checked = self.seen.get((text, since))
        if checked is None or (checked[0] != length and not checked[1]):
            checked = (length, text in self.text(since))
            self.seen[(text, since)] = checked
        return checked[1]

    async def expect(self, text: str, since: int = 0) -> None:
        try:
            await until(lambda: self.shows(text, since), f"{text!r} on the screen")
        except AssertionError as exc:  # say what the screen showed instead
            raise AssertionError(f"{exc}; the last output: {self.text(since)[-600:]!r}") from None

    def keys(self, data: str) -> None:
        self.proc.stdin.write(data.encode())

    def type_move(self, text: str) -> int:
        """Type ":", a move and enter in one write (one packet, as a fast typist's keys may
        arrive); returns the mark before."""
        mark = self.mark()
        self.keys(":" + text + "\r")
        return mark

    async def close(self) -> None:
        self.conn.close()
        await self.conn.wait_closed()
        self.reader.cancel()
