"""The terminal driver of an SSH session (``serve.driver``): its input thread sleeps while the
player types nothing, instead of waking ten times a second as Textual's does, and a lone escape
still reaches the app."""

from __future__ import annotations

import asyncio
from pathlib import Path

from pipeline_tui.serve import ssh

from tests.server.sshterm import Terminal
from tests.server.test_limits import serving, session_children


def wakeups(pid: int) -> dict[int, int]:
    """The times each thread of ``pid`` has been run by the kernel so far, by thread id."""
    counts = {}
    for task in (Path("/proc") / str(pid) / "task").iterdir():
        try:
            counts[int(task.name)] = int((task / "schedstat").read_text().split()[2])
        except (OSError, IndexError):  # the thread ended meanwhile
            continue
    return counts


async def test_an_idle_session_wakes_no_thread_and_takes_escape(tmp_path, monkeypatch):
    async with serving(tmp_path, monkeypatch, ssh.Limits()) as served:
        alice = await Terminal.open(served.port, "alice", size=(100, 30))
        try:
            await alice.expect("No tables yet")
            (child,) = session_children()
            await asyncio.sleep(0.5)  # the lobby has drawn itself
            before = wakeups(child)
            await asyncio.sleep(1.5)
            after = wakeups(child)
            threads = {tid: after[tid] - before.get(tid, 0) for tid in after if tid != child}
            assert threads and max(threads.values()) <= 2, threads  # polling: 15 or more each
            mark = alice.mark()
            alice.keys("n")
            await alice.expect("New game", mark)
            mark = alice.mark()
            alice.keys("\x1b")  # told from a key's sequence only by the parser's timeout
            await alice.expect("No tables yet", mark)
        finally:
            await alice.close()
