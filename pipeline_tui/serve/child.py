"""A session process on a pty of its own: what every SSH session and every stand runs.

``serve`` opens a pty and a control socket (an AF_UNIX socketpair: the Hub token goes down it
first, never through the environment; later lines go both ways, serve/session.py) and has the
session zygote fork the child on them, or spawns ``python -m pipeline_tui.serve.session`` where
there is no zygote or it fails (issue 38, point 5). The child's memory is capped (RLIMIT_AS).
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import pty
import resource
import signal
import socket
import struct
import sys
import termios
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .session import CONTROL_ENV, MAX_CONTROL_LINE
from .zygote import ForkedChild, Zygote

MAX_PTY_SIDE = 65535  # a pty's columns and rows are 16-bit (TIOCSWINSZ)
HANGUP_GRACE = 3.0  # seconds between SIGHUP and SIGKILL for a child that is to end

Process = asyncio.subprocess.Process | ForkedChild


def clamp_window(columns: int, rows: int, largest: tuple[int, int]) -> tuple[int, int]:
    """A window size from a client (0 to 2^32 - 1 each) within 1 and ``largest``."""
    return (
        max(1, min(columns, largest[0], MAX_PTY_SIDE)),
        max(1, min(rows, largest[1], MAX_PTY_SIDE)),
    )


def set_window(fd: int, columns: int, rows: int) -> None:
    """Give the pty behind ``fd`` a window size (the child gets SIGWINCH); any size a client
    sends fits (clamped to 1-65535)."""
    columns, rows = clamp_window(columns, rows, (MAX_PTY_SIDE, MAX_PTY_SIDE))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


@dataclass
class Child:
    """A started session process: our end of its pty and of its control socket (both
    non-blocking), and the process."""

    master: int
    control: int
    proc: Process

    def close(self) -> None:
        """Close our ends (the process may still be running: it gets EIO and SIGHUP)."""
        loop = asyncio.get_running_loop()
        for fd in (self.master, self.control):
            loop.remove_reader(fd)
            loop.remove_writer(fd)
            os.close(fd)


def read_lines(fd: int, buffer: bytearray) -> list[bytes] | None:
    """The whole lines a child's control socket ``fd`` has for us now (the start of the next
    kept in ``buffer``, at most :data:`MAX_CONTROL_LINE` bytes of it); None at its end."""
    try:
        data = os.read(fd, 4096)
    except BlockingIOError:
        return []
    except OSError:
        data = b""
    if not data:
        return None
    buffer += data
    *lines, rest = buffer.split(b"\n")
    buffer[:] = rest[:MAX_CONTROL_LINE]
    return [bytes(line) for line in lines]


async def start_child(
    env: Mapping[str, str],
    size: tuple[int, int],
    token: str,
    zygote: Zygote | None,
    memory: int,
    log: Callable[[str], None],
) -> Child:
    """A session process with ``env`` on a new pty of ``size`` (columns, rows), signed in
    with ``token``, its memory capped to ``memory`` bytes (0: not capped, as the zygote's);
    OSError or ValueError if none can be started (out of ptys or processes; a
    value exec refuses)."""
    master = slave = -1
    ours: socket.socket | None = None
    theirs: socket.socket | None = None
    try:
        master, slave = pty.openpty()
        ours, theirs = socket.socketpair()
        set_window(master, *size)
        ours.sendall((token + "\n").encode())  # a socket buffer holds far more: never blocks
        env = {**env, CONTROL_ENV: str(theirs.fileno())}
        proc = await _launch(env, slave, theirs.fileno(), zygote, memory, log)
    except (OSError, ValueError):
        if master >= 0:
            os.close(master)
        if ours is not None:
            ours.close()
        raise
    finally:
        if slave >= 0:
            os.close(slave)
        if theirs is not None:
            theirs.close()
    os.set_blocking(master, False)
    ours.setblocking(False)
    return Child(master, ours.detach(), proc)


async def _launch(
    env: Mapping[str, str],
    slave: int,
    control: int,
    zygote: Zygote | None,
    memory: int,
    log: Callable[[str], None],
) -> Process:
    """Forked by the zygote (issue 38), or spawned where there is none or it fails."""
    if zygote is not None:
        try:
            return await zygote.fork(env, [slave, control], memory)
        except OSError as exc:
            log(f"the zygote failed ({exc}); spawning")
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "pipeline_tui.serve.session",
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=dict(env),
        pass_fds=(control,),
        start_new_session=True,
    )
    if memory > 0:
        limit_memory(proc.pid, memory, log)
    return proc


def limit_memory(pid: int, limit: int, log: Callable[[str], None]) -> None:
    """Cap a spawned child's address space (RLIMIT_AS, soft and hard), so a runaway session
    fails its own allocations (it tells its player, serve/session.py) and nobody else's."""
    try:
        resource.prlimit(pid, resource.RLIMIT_AS, (limit, limit))
    except (OSError, ValueError) as exc:  # gone already, or a limit the system refuses
        log(f"cannot limit the memory of session process {pid}: {exc}")


async def end_child(proc: Process) -> None:
    """End a child's process group: SIGHUP, then SIGKILL if it lingers."""
    if proc.returncode is not None:
        return
    for sig in (signal.SIGHUP, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            await asyncio.wait_for(asyncio.shield(proc.wait()), HANGUP_GRACE)
            return
        except asyncio.TimeoutError:
            continue
