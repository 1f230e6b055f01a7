"""A watching session gives the CPU to the players' sessions (net/priority.py)."""

from __future__ import annotations

import asyncio
import errno
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline_tui.net import priority
from pipeline_tui.net.priority import AUTOGROUP, WATCHING_NICE, SessionPriority


class FakeAutogroup:
    """Stands for /proc/self/autogroup: what was written, and EAGAIN for the first ``busy``
    writes (the kernel allows ten changes a second across the machine)."""

    def __init__(self, nice: int = 0, busy: int = 0) -> None:
        self.nice, self.busy, self.writes = nice, busy, []

    def read_text(self) -> str:
        return f"/autogroup-7 nice {self.nice}\n"

    def write_text(self, text: str) -> None:
        if self.busy:
            self.busy -= 1
            raise OSError(errno.EAGAIN, "Resource temporarily unavailable")
        self.writes.append(text)
        self.nice = int(text)


def test_watching_lowers_the_group_priority_and_leaving_restores_it():
    group = FakeAutogroup()
    session = SessionPriority(group)
    session.watching(False)  # sitting down at first: the group is at 0 already
    assert group.writes == []
    session.watching(True)
    assert group.writes == [str(WATCHING_NICE)] and group.nice == WATCHING_NICE
    session.watching(True)  # another table watched: no change to make
    session.watching(False)
    assert group.writes == [str(WATCHING_NICE), "0"] and group.nice == 0


async def test_a_change_refused_as_too_soon_is_made_a_little_later(monkeypatch):
    monkeypatch.setattr(priority, "RETRY", 0.01)
    group = FakeAutogroup(busy=2)
    session = SessionPriority(group)
    session.watching(True)
    assert group.nice == 0  # refused: tried again later
    for _ in range(100):
        if group.nice == WATCHING_NICE:
            break
        await asyncio.sleep(0.01)
    assert group.writes == [str(WATCHING_NICE)]


async def test_the_last_change_asked_for_is_the_one_that_holds(monkeypatch):
    monkeypatch.setattr(priority, "RETRY", 0.01)
    group = FakeAutogroup(busy=1)
    session = SessionPriority(group)
    session.watching(True)  # refused, a retry pending
    assert session.retrying
    session.watching(False)  # and given up: the group is at 0, as now wanted
    assert not session.retrying  # nothing left to be written later
    assert group.writes == [] and group.nice == 0


def test_without_autogroups_the_priority_is_left_as_it_is(tmp_path):
    session = SessionPriority(tmp_path / "no-such-dir" / "autogroup")
    session.watching(True)  # logged, not raised: the sessions share the CPU as before
    session.watching(False)
    assert session.applied == 0


CHILD = """
import asyncio
from pipeline_tui.net.priority import AUTOGROUP, SessionPriority

async def main():
    session = SessionPriority()
    for watching in (True, False):
        session.watching(watching)
        while session.applied != session.wanted:  # retried: ten changes a second, machine-wide
            await asyncio.sleep(0.02)
        print(AUTOGROUP.read_text().split()[-1], flush=True)

asyncio.run(main())
"""


@pytest.mark.skipif(not AUTOGROUP.exists(), reason="this kernel has no autogroups")
def test_a_session_process_changes_its_own_group_and_back():
    """The real /proc file, in a child leading a session of its own (as ``serve`` starts
    them), so only the child's group changes, not this test runner's."""
    before = AUTOGROUP.read_text()
    out = subprocess.run(
        [sys.executable, "-c", CHILD],
        capture_output=True,
        text=True,
        start_new_session=True,
        timeout=60,
        cwd=Path(__file__).parents[2],
    )
    assert out.stdout.split() == [str(WATCHING_NICE), "0"], out.stderr
    assert AUTOGROUP.read_text() == before
