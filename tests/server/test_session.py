"""A session child (``python -m pipeline_tui.serve.session``) never outlives its server.

Each test runs a Hub in this process and one session child on a pty the test holds, as
``serve`` would start it; then the Hub or the terminal goes away and the child must end within
:data:`EXIT_WITHIN` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pty
import signal
import subprocess
import sys
import termios


from pipeline_tui.net.hub import Hub
from pipeline_tui.serve.session import CONTROL_ENV, HUB_ENV

from tests.conftest import RUN_MARK, marked_processes
from tests.server.sshterm import TIMEOUT

EXIT_WITHIN = 5.0  # seconds: issue 13, "a session child exits within 5 seconds"
IGNORING_HANGUP = (
    "import runpy, signal; signal.signal(signal.SIGHUP, signal.SIG_IGN); "
    "runpy.run_module('pipeline_tui.serve.session', run_name='__main__')"
)


class Child:
    """A session child on a pty: ``master`` is its terminal's other end, held by the test."""

    def __init__(self, proc: asyncio.subprocess.Process, master: int, slave: int) -> None:
        self.proc, self.master, self.slave = proc, master, slave
        self.screen = bytearray()
        self.shown = asyncio.Event()
        self.awaited = b""

    @classmethod
    async def start(cls, hub: Hub, socket_path, *, ignoring_hangup: bool = False) -> "Child":
        master, slave = pty.openpty()
        theirs, ours = os.pipe()  # the control pipe: the token first, as serve sends it
        os.write(ours, (hub.issue_token("SHA256:alice", "alice") + "\n").encode())
        env = dict(os.environ, TERM="xterm-256color", **{HUB_ENV: str(socket_path), CONTROL_ENV: str(theirs)})
        args = ("-c", IGNORING_HANGUP) if ignoring_hangup else ("-m", "pipeline_tui.serve.session")
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                *args,
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=env,
                pass_fds=(theirs,),
                start_new_session=True,
            )
        finally:
            os.close(theirs)
            os.close(ours)
        os.set_blocking(master, False)
        child = cls(proc, master, slave)
        asyncio.get_running_loop().add_reader(master, child._read)
        return child

    def _read(self) -> None:
        try:
            self.screen.extend(os.read(self.master, 1 << 16))
        except BlockingIOError:
            return
        except OSError:  # the child closed its terminal
            asyncio.get_running_loop().remove_reader(self.master)
            return
        if self.awaited and self.awaited in self.screen:
            self.shown.set()

    async def expect(self, text: str) -> None:
        self.awaited = text.encode()
        self.shown.clear()
        if self.awaited not in self.screen:
            await asyncio.wait_for(self.shown.wait(), TIMEOUT)

    def stop_reading(self) -> None:
        asyncio.get_running_loop().remove_reader(self.master)

    def close_master(self) -> None:
        self.stop_reading()
        os.close(self.master)
        self.master = -1

    async def ended(self) -> int:
        """The child's exit status, once it has ended by itself within EXIT_WITHIN seconds."""
        return await asyncio.wait_for(self.proc.wait(), EXIT_WITHIN)

    async def close(self) -> None:
        if self.master >= 0:
            self.close_master()
        os.close(self.slave)
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
            await self.proc.wait()


async def test_a_session_ends_when_its_hub_closes(served):
    child = await Child.start(*served)
    try:
        await child.expect("Shared tables")
        await served[0].close()
        assert await child.ended() == 1
        await child.expect("The tables are gone")
    finally:
        await child.close()


async def test_a_session_ends_when_its_hub_closes_though_its_terminal_takes_no_output(served):
    """The terminal stops taking output (as after XOFF, or a client that stopped reading), so
    Textual cannot write its last screen and would wait for good: the session ends anyway."""
    child = await Child.start(*served)
    try:
        await child.expect("Shared tables")
        termios.tcflow(child.slave, termios.TCOOFF)
        child.stop_reading()
        await served[0].close()
        assert await child.ended() == 1
    finally:
        await child.close()


async def test_a_hung_up_terminal_ends_the_session_though_its_server_ignored_hangups(served):
    """``serve`` started under ``nohup`` passes SIGHUP on as ignored: the child takes it back,
    so its terminal hanging up ends it though the Hub is still there."""
    child = await Child.start(*served, ignoring_hangup=True)
    try:
        await child.expect("Shared tables")
        child.close_master()
        assert await child.ended() == -signal.SIGHUP
    finally:
        await child.close()


def test_the_suite_finds_the_processes_it_started():
    """What tests/conftest.py's end-of-run check counts: a process started here is seen, and
    no longer once it has ended."""
    mark = os.environ[RUN_MARK]
    proc = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        assert proc.pid in marked_processes(mark)
    finally:
        proc.stdin.close()
        proc.wait(TIMEOUT)
    assert proc.pid not in marked_processes(mark)
