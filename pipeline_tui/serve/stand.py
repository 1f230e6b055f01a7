"""Stands: one process draws a table for every watcher whose screen would be the same.

Thirty-six spectators of a table, each in a session process of their own, draw the same frames
36 times: on 2 cores that alone kept a move from every screen for over 150 ms (issue 38, point
2). A **stand** is a session process that watches a table for the server's own identity (no
seats, nothing personal on its screen); ``serve`` writes its pty's output to each watcher
sharing it. A watcher shares one when their session has reported that it watches the table in
its first, untouched view (serve/session.py: ``watching <table> <language> <theme>``), they have
typed nothing since for :data:`HANDOVER_AFTER` seconds (``serve --share-after``), and their window is not clamped; their
own session process then ends, which also frees its memory. Watchers share a stand only when
everything that shapes the screen is alike: the table, the window size, TERM and the colour
variables, the language and the theme (:class:`StandKey`).

A key (or a click, or a new window size) from a watcher who shares a stand starts them a
private session again, opened straight at that table (``PIPELINE_TUI_WATCH``, in their
language and theme), and the key goes to it: the session keeps input until it has drawn the
table (typed at the lobby beneath, keys would act there) and says it watches untouched only
if no key came since (ui/lobby.py); pointer moves and focus changes alone
change nothing and are dropped (:func:`changes_nothing`). A watcher whose client takes the
output more slowly than the stand makes it (over :data:`MAX_BACKLOG` waiting) gets a private
session too, which waits for them as every session does. A stand that ends or fails, or
leaves its table (it closed), gives every watcher on it a private session.

What a client can make us spend: a stand is made only for a session (so no more stands than
sessions, :attr:`Limits.sessions`), and one left without watchers ends after
:data:`LINGER` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from .child import Child, end_child, read_lines, start_child
from .session import LEFT, REPAINT, STAND_ENV, THEME_ENV, WATCH_ENV, read_watching
from .zygote import Zygote

STAND_IDENTITY = "serve:stand"  # the Hub identity of every stand: no key's (those are SHA256:...)
# seconds a watcher's session stays untouched before it shares a stand: the first look
# around a table (a key gives back a session, about half a second) stays the watcher's own
HANDOVER_AFTER = 5.0
LINGER = 3.0  # seconds a stand without watchers waits for one before it ends
READY_WITHIN = 20.0  # seconds a new stand has to draw its table, or it ends
REPAINT_AFTER = 0.05  # seconds: watchers arriving together cost the stand one full repaint
MAX_BACKLOG = 256 << 10  # bytes of a stand's output waiting for one watcher's client
# Input that changes nothing on a table's screen: SGR pointer moves without a button held
# (Textual asks for any-motion reports, 1003 + 1006) and focus in / out (1004).
_IDLE_INPUT = re.compile(rb"(?:\x1b\[<(?:3[5-9]|4[0-9]|5[0-9]|6[0-3]);\d{1,5};\d{1,5}[Mm]|\x1b\[[IO])*")
# the start of such a report, cut off where the client's packet ended
_IDLE_START = re.compile(rb"\x1b(?:\[(?:<(?:\d{1,2}(?:;\d{0,5}(?:;\d{0,5})?)?)?)?)?")
MAX_CUT_REPORT = 16  # bytes of a pointer report cut short that wait for the rest
CUT_REPORT_WAIT = 0.1  # seconds they wait: a lone ESC is a key (escape), not the start of one
CANCEL = b"\x18"  # CAN: ends an escape sequence cut short where one stream gives way to another


def changes_nothing(data: bytes) -> bytes | None:
    """If a watcher's input is only pointer moves (no button) and focus changes, the end of
    it that may be the start of one more, cut off by the packet's end (to be read with what
    comes next); None if the input holds anything else.

    >>> changes_nothing(b"\\x1b[<35;10;4M\\x1b[I"), changes_nothing(b"\\x1b[<35;10;4M\\x1b[<35;1")
    (b'', b'\\x1b[<35;1')
    >>> changes_nothing(b"\\x1b[<0;10;4M"), changes_nothing(b"q"), changes_nothing(b"\\x1b[<35;1q")
    (None, None, None)
    """
    end = _IDLE_INPUT.match(data).end()  # type: ignore[union-attr]  # it matches the empty string
    rest = data[end:]
    if not rest or (len(rest) <= MAX_CUT_REPORT and _IDLE_START.fullmatch(rest)):
        return rest
    return None


@dataclass(frozen=True)
class StandKey:
    """What shapes a watcher's screen: watchers alike in all of it share one stand."""

    table: str
    size: tuple[int, int]
    term: str
    client_env: tuple[tuple[str, str], ...]  # the colour variables the client sent, sorted
    language: str
    theme: str


class Watcher(Protocol):
    """A watcher's SSH session as a stand sees it (serve/ssh.py's GameSession)."""

    def can_share(self, key: StandKey) -> bool: ...
    def share(self, stand: Stand) -> None: ...
    def show(self, data: bytes) -> None: ...
    def unshare(self) -> None: ...


class Stand:
    """One process drawing a table for the watchers of :attr:`key`."""

    def __init__(self, stands: Stands, key: StandKey, env: Mapping[str, str]) -> None:
        self.stands = stands
        self.key = key
        self.env = {**env, WATCH_ENV: key.table, THEME_ENV: key.theme, STAND_ENV: "1"}
        self.watchers: set[Watcher] = set()  # their channels get every byte it draws
        self.waiting: set[Watcher] = set()  # to share it once it has drawn the table
        self.child: Child | None = None
        self.ready = False  # it has drawn the table (its own ``watching`` line)
        self.closing = False
        self.control_buffer = bytearray()
        self.repaint_due: asyncio.TimerHandle | None = None
        self.linger: asyncio.TimerHandle | None = None

    def add(self, watcher: Watcher) -> None:
        """``watcher`` shares this stand now if it has drawn its table, else once it has."""
        if self.linger is not None:
            self.linger.cancel()
            self.linger = None
        if self.ready:
            self._take(watcher)
        else:
            self.waiting.add(watcher)

    def _take(self, watcher: Watcher) -> None:
        if watcher.can_share(self.key):  # it may have been touched while the stand started
            watcher.share(self)
            self.watchers.add(watcher)
            self._repaint()
        else:
            self._wait_for_watchers()

    def leave(self, watcher: Watcher) -> None:
        """``watcher`` no longer shares it (a key, a new size, its channel closed)."""
        self.watchers.discard(watcher)
        self.waiting.discard(watcher)
        self._wait_for_watchers()

    def _wait_for_watchers(self) -> None:
        """With nobody on it, end it after :data:`LINGER` seconds unless somebody comes."""
        if not self.watchers and not self.waiting and self.linger is None and not self.closing:
            self.linger = asyncio.get_running_loop().call_later(LINGER, self._close_if_unwatched)

    def _close_if_unwatched(self) -> None:
        self.linger = None
        if not self.watchers and not self.waiting:
            self.stands.spawn(self.close())

    def _repaint(self) -> None:
        """Ask for the whole screen once watchers stop arriving (each new one needs all of it)."""
        if self.repaint_due is None:
            self.repaint_due = asyncio.get_running_loop().call_later(REPAINT_AFTER, self._send_repaint)

    def _send_repaint(self) -> None:
        self.repaint_due = None
        if self.child is not None:
            with contextlib.suppress(OSError):  # full or gone: its end is on its way
                os.write(self.child.control, REPAINT.encode())

    async def run(self) -> None:
        """Start the process, pass on what it draws until it ends, then give every watcher
        a private session."""
        stands = self.stands
        token = stands.issue_token()
        try:
            child = await start_child(
                self.env, self.key.size, token, stands.zygote, stands.memory, stands.log
            )
        except (OSError, ValueError) as exc:
            stands.log(f"cannot start a stand for table {self.key.table}: {exc}")
            stands.revoke_token(token)
            self._end()
            return
        self.child = child
        key = self.key
        stands.log(
            f"stand for table {key.table} at {key.size[0]}x{key.size[1]} ({key.language}) "
            f"started, pid {child.proc.pid}"
        )
        loop = asyncio.get_running_loop()
        loop.add_reader(child.master, self._read)
        loop.add_reader(child.control, self._read_control)
        not_ready = loop.call_later(READY_WITHIN, self._not_ready)
        if self.closing:
            await end_child(child.proc)
        status = await child.proc.wait()
        not_ready.cancel()
        stands.revoke_token(token)
        self.child = None
        child.close()
        if not self.closing:
            stands.log(f"stand for table {self.key.table} ended (status {status})")
        self._end()

    def _end(self) -> None:
        self.closing = True
        self.stands.forget(self)
        for handle in (self.repaint_due, self.linger):
            if handle is not None:
                handle.cancel()
        watchers, self.watchers, self.waiting = list(self.watchers), set(), set()
        for watcher in watchers:
            watcher.unshare()

    def _not_ready(self) -> None:
        if not self.ready:
            self.stands.log(f"stand for table {self.key.table} drew nothing in {READY_WITHIN:g} s")
            self.stands.spawn(self.close())

    def _read(self) -> None:
        child = self.child
        if child is None:
            return
        try:
            data = os.read(child.master, 1 << 16)
        except BlockingIOError:
            return
        except OSError:  # EIO: it closed its terminal
            data = b""
        if not data:
            asyncio.get_running_loop().remove_reader(child.master)
            return
        for watcher in list(self.watchers):
            watcher.show(data)

    def _read_control(self) -> None:
        child = self.child
        if child is None:
            return
        lines = read_lines(child.control, self.control_buffer)
        if lines is None:
            asyncio.get_running_loop().remove_reader(child.control)
            return
        for line in lines:
            if not self.ready and read_watching(line) is not None:
                self.ready = True
                waiting, self.waiting = list(self.waiting), set()
                for watcher in waiting:
                    self._take(watcher)
                self._wait_for_watchers()
            elif self.ready and line == LEFT.strip().encode() and not self.closing:
                # the table closed under it: what it shows now is nobody's to share
                self.stands.log(f"stand for table {self.key.table} left its table")
                self.stands.spawn(self.close())

    async def close(self) -> None:
        """End the process (its watchers get private sessions as it ends)."""
        self.closing = True
        child = self.child
        if child is not None:
            await end_child(child.proc)


class Stands:
    """The server's stands, one at most for each :class:`StandKey`."""

    def __init__(
        self,
        issue_token: Callable[[], str],
        revoke_token: Callable[[str], None],
        zygote: Zygote | None,
        memory: int,
        log: Callable[[str], None],
        cap: int,
    ) -> None:
        self.issue_token = issue_token
        self.revoke_token = revoke_token
        self.zygote = zygote
        self.memory = memory
        self.log = log
        self.cap = cap  # stands at once (the sessions cap: a stand replaces a session)
        self.stands: dict[StandKey, Stand] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` as a task kept until it is done (the loop holds tasks only weakly)."""
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def join(self, key: StandKey, watcher: Watcher, env: Mapping[str, str]) -> bool:
        """Have ``watcher`` share the stand for ``key`` (made with ``env`` if there is none);
        False if there is none and no more may be made."""
        stand = self.stands.get(key)
        if stand is None or stand.closing:
            if len(self.stands) >= self.cap:
                return False
            stand = Stand(self, key, env)
            self.stands[key] = stand
            self.spawn(stand.run())
        stand.add(watcher)
        return True

    def forget(self, stand: Stand) -> None:
        if self.stands.get(stand.key) is stand:
            del self.stands[stand.key]

    async def close(self) -> None:
        """End every stand (the server stops)."""
        await asyncio.gather(*(s.close() for s in list(self.stands.values())), return_exceptions=True)
        await asyncio.gather(*list(self.tasks), return_exceptions=True)
