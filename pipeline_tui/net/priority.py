"""CPU priority of a session: the players' sessions draw a move before the spectators' do.

Every session at a table redraws it for each move, at the same moment. On a small server the
kernel shares the CPU among them evenly, so each session finishes its redraw about when the
last one does: a seat waits for the spectators' drawing as well as its own. A session that
watches therefore lowers its CPU weight while it watches (and restores it when it leaves), so
the seats draw first and the spectators in the time left. Spectators see each move somewhat
later in exchange (docs/benchmarks.md, "Over SSH"); nice 5 rather than 10 keeps them from
falling behind every other process on the machine as well (docs/shared-tables.md, "Priority").

Each session child leads a session of its own (``serve`` starts it so), and Linux puts each
session in a scheduling group of its own (an "autogroup") where they are enabled, as on most
distributions. Between groups the process's own nice value counts for nothing; the group's
nice, ``/proc/self/autogroup``, does. Any process may raise it and lower it again to 0
(lowering it below 0 needs privilege), at most ten times a second across the machine
(``EAGAIN`` otherwise, so a change is tried again a little later). Where there is no such file,
or autogroups do not apply, the sessions share the CPU evenly, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
from pathlib import Path

AUTOGROUP = Path("/proc/self/autogroup")
WATCHING_NICE = 5  # a spectator's group weight: about a third of a seat's (Linux's nice table)
RETRY = 0.15  # seconds before a change refused as too soon (EAGAIN) is tried again
TRIES = 40  # then the change is given up (logged): about six seconds

log = logging.getLogger(__name__)


class SessionPriority:
    """The CPU priority of this session's process group: ``watching(True)`` while it watches a
    table, ``watching(False)`` when it sits down or leaves. Changes needing a retry are made
    from the running event loop; the last change asked for is the one that holds."""

    def __init__(self, path: Path = AUTOGROUP) -> None:
        self.path = path
        self.wanted = 0  # the nice value asked for
        self.applied: int | None = None  # the nice value last written (None: not yet)
        self._retry: asyncio.TimerHandle | None = None

    @property
    def retrying(self) -> bool:
        """Whether a change refused as too soon waits to be tried again."""
        return self._retry is not None

    def watching(self, watching: bool) -> None:
        self.wanted = WATCHING_NICE if watching else 0
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None
        self._apply(TRIES)

    def _apply(self, tries: int) -> None:
        self._retry = None
        if self.wanted == self.applied:
            return
        if self.applied is None and self.wanted == 0 and self._current() in (0, None):
            self.applied = 0  # already so (or no autogroups): nothing to write
            return
        try:
            self.path.write_text(str(self.wanted))
        except OSError as exc:
            if exc.errno == errno.EAGAIN and tries > 1:
                with contextlib.suppress(RuntimeError):  # no event loop: given up, as below
                    loop = asyncio.get_running_loop()
                    self._retry = loop.call_later(RETRY, self._apply, tries - 1)
                    return
            log.info("session priority left as it is (%s): %s", self.path, exc)
            return
        self.applied = self.wanted

    def _current(self) -> int | None:
        """The group's nice value now (``/autogroup-42 nice 0``), or None without the file."""
        try:
            return int(self.path.read_text().split()[-1])
        except (OSError, ValueError, IndexError):
            return None
