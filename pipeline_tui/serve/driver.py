"""The terminal driver of an SSH session: Textual's Linux driver, whose input thread sleeps
until its player types.

Textual's input thread waits for the terminal with a tenth of a second's timeout, so that a
lone escape is told from the start of a key's sequence (``ESCAPE_DELAY``) and so that it sees
the driver stopping. That is ten wake-ups a second for nothing: 0.8 ms of CPU a second in every
session at a table, about 2 ms of each move for a watcher at ``bench_ssh.py``'s pace, and 40
sessions spend 32 ms of every second of the 2 cores on it (docs/benchmarks.md, "A move on every
screen"). Here the thread waits without a timeout unless the parser holds an unfinished escape
sequence, and stopping the driver wakes it through a pipe (open for the session's life).
"""

from __future__ import annotations

import os
import selectors
from codecs import getincrementaldecoder
from threading import Event
from typing import Any

from textual._parser import ParseError
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver

ESCAPE_WAIT = 0.1  # seconds between the parser's checks of an unfinished sequence (Textual's)


class WakingEvent(Event):
    """A threading event that, when set, also writes a byte to a pipe a selector waits on."""

    def __init__(self, wake: int) -> None:
        super().__init__()
        self.wake = wake

    def set(self) -> None:
        super().set()
        try:
            os.write(self.wake, b"\0")
        except OSError:  # the pipe is full (a byte already waits) or closed
            pass


class SessionDriver(LinuxDriver):
    """Textual's Linux driver with an input thread that sleeps while nothing is typed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.wake_read, wake_write = os.pipe()
        os.set_blocking(self.wake_read, False)
        os.set_blocking(wake_write, False)
        self.exit_event = WakingEvent(wake_write)

    def run_input_thread(self) -> None:
        """Read the terminal and post its keys and mouse events until the driver stops: as
        Textual's, but waiting on the terminal and the wake pipe with no timeout while the
        parser has no escape sequence to time out."""
        selector = selectors.SelectSelector()
        fileno, wake = self.fileno, self.wake_read
        selector.register(fileno, selectors.EVENT_READ)
        selector.register(wake, selectors.EVENT_READ)
        parser = XTermParser(self._debug)
        decode = getincrementaldecoder("utf-8")().decode

        def process(ready: list[tuple[selectors.SelectorKey, int]]) -> None:
            for key, _mask in ready:
                if key.fd == wake:
                    try:
                        os.read(wake, 64)
                    except BlockingIOError:
                        pass
                    continue
                text = decode(os.read(fileno, 4096))
                if not text:  # stdin piped and ended
                    break
                for event in parser.feed(text):
                    self.process_message(event)
            for event in parser.tick():
                self.process_message(event)

        try:
            while not self.exit_event.is_set():
                pending = parser._timeout_time is not None  # an escape waits for what follows
                process(selector.select(ESCAPE_WAIT if pending else None))
            selector.unregister(fileno)  # as Textual's: what is typed from now on is dropped
            selector.unregister(wake)
            process(selector.select(ESCAPE_WAIT))  # a last escape times out
        finally:
            selector.close()
            try:
                for _event in parser.feed(""):
                    pass
            except (EOFError, ParseError):
                pass
