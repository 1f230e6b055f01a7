"""The session zygote of `pipeline-tui serve` (issue 38): sessions are forked from one process
that has the app loaded; a crash of a session or of the zygote takes nothing else down, the
zygote comes back, and without fork (or with ``PIPELINE_TUI_SPAWN=1``) sessions are spawned.

``serve`` runs in this process (as in test_limits.py); killing ``serve`` itself, and the
zygote with it, is test_ssh.py's test_killing_the_server_leaves_no_session_behind.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest

from pipeline_tui.serve import ssh
from pipeline_tui.serve.zygote import SPAWN_ENV, forking_available

from tests.server.sshterm import TIMEOUT, Terminal, is_running, processes, until, zygotes
from tests.server.test_limits import serving, session_children

pytestmark = pytest.mark.skipif(not forking_available({}), reason="sessions are forked on Linux only")


def parent(pid: int) -> int:
    return processes()[pid][0]


def command(pid: int) -> bytes:
    return (Path("/proc") / str(pid) / "cmdline").read_bytes()


async def test_a_crashed_session_or_zygote_takes_nothing_else_down(tmp_path, monkeypatch):
    """Sessions are children of one zygote; SIGKILL of a session ends it alone; SIGKILL of the
    zygote leaves the sessions playing, a new zygote forks the next one; once serve stops no
    process of any of them is left."""
    monkeypatch.delenv(SPAWN_ENV, raising=False)
    async with serving(tmp_path, monkeypatch, ssh.Limits()) as served:
        alice = await Terminal.open(served.port, "alice", size=(100, 30))
        bob = await Terminal.open(served.port, "bob", size=(100, 30))
        players = [alice, bob]
        try:
            for player in (alice, bob):
                await player.expect("No tables yet")
            assert any("forked from a zygote" in line for line in served.lines)
            (zygote,) = zygotes(os.getpid())
            first, second = children = session_children()
            assert [parent(child) for child in children] == [zygote, zygote]
            assert all(b"pipeline_tui.serve.zygote" in command(child) for child in children)

            os.kill(second, signal.SIGKILL)  # one session crashes: its player is told
            done = await asyncio.wait_for(bob.proc.wait(), TIMEOUT)
            assert done.exit_status == 1 and "session ended unexpectedly (SIGKILL)" in bob.text()
            mark = alice.mark()
            alice.keys("n")
            await alice.expect("New game", mark)

            os.kill(zygote, signal.SIGKILL)  # the zygote dies: alice plays on, a new one comes
            (again,) = await until(lambda: [z for z in zygotes(os.getpid()) if z != zygote], "a new zygote")
            mark = alice.mark()
            alice.keys("\x1b")
            await alice.expect("No tables yet", mark)
            carol = await Terminal.open(served.port, "carol", size=(100, 30))
            players.append(carol)
            await carol.expect("No tables yet")
            assert [parent(child) for child in session_children()] == [again]
            assert is_running(first)
            alice.keys("\x11")  # ctrl+q: the orphaned session ends as any does
            done = await asyncio.wait_for(alice.proc.wait(), TIMEOUT)
            assert done.exit_status == 0
            await until(lambda: not is_running(first), "alice's orphaned session to end")
        finally:
            for player in players:
                await player.close()
    await until(
        lambda: not session_children() and not zygotes(os.getpid()) and not is_running(first),
        "no session and no zygote left",
    )


async def test_without_fork_sessions_are_spawned(tmp_path, monkeypatch):
    """``PIPELINE_TUI_SPAWN=1`` (as a platform without fork): a session is a new Python
    process, a child of serve, with no zygote; it plays as a forked one does."""
    monkeypatch.setenv(SPAWN_ENV, "1")
    assert not forking_available()
    async with serving(tmp_path, monkeypatch, ssh.Limits()) as served:
        player = await Terminal.open(served.port, "alice", size=(100, 30))
        try:
            await player.expect("No tables yet")
            assert any("sessions spawned" in line for line in served.lines)
            (child,) = session_children()
            assert parent(child) == os.getpid() and not zygotes(os.getpid())
            assert b"pipeline_tui.serve.session" in command(child)
            mark = player.mark()
            player.keys("n")
            await player.expect("New game", mark)
        finally:
            await player.close()
    await until(lambda: not session_children(), "no session left")


def test_forking_is_linux_only_and_may_be_turned_off():
    assert forking_available({SPAWN_ENV: "1"}) is False
    assert forking_available({SPAWN_ENV: "0"}) is forking_available({})
