"""The child process of one SSH session: the shared-tables app on the session's terminal.

``pipeline-tui serve`` starts ``python -m pipeline_tui.serve.session`` on a pty for every SSH
session, with the session's TERM and window size, the Hub's socket in ``PIPELINE_TUI_HUB`` and
a pipe it inherits, named by its number in ``PIPELINE_TUI_CONTROL``: the first line on it is
the token that names the player (never in the environment, where ``/proc/<pid>/environ`` keeps
it for the process's life), later lines tell the session that its window was clamped
(:func:`clamped_notice`), which it shows its player. The child never writes table files.

Its memory is capped by ``serve`` (RLIMIT_AS, ``--session-memory``): running out, it tells its
player in one line and ends with :data:`EXIT_NO_MEMORY`, and every other session goes on.

The session speaks the language its ssh client asked for (``PIPELINE_TUI_LANG``, then
``LC_ALL``, ``LC_MESSAGES``, ``LANG``, passed on by ``serve``; see :func:`session_language`),
unless the player chose one in the lobby before: that choice, kept by the Hub for their key,
comes after ``PIPELINE_TUI_LANG`` and before the locale variables, as a remembered choice does
for the local app (``SharedApp`` applies it once the Hub has said who the player is).

A child never outlives its server: the pty hanging up ends it (SIGHUP, even when ``serve`` was
started with SIGHUP ignored, as under ``nohup``), and a closed Hub connection ends it within
:data:`EXIT_GRACE` seconds, even when its terminal takes no more output and Textual cannot
finish drawing its last screen.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import gc
import inspect
import os
import signal
import sys
import termios
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..i18n import ENV_LANG, _, choose_language, set_language

if TYPE_CHECKING:
    from ..ui.lobby import SharedApp

GC_YOUNG = 10_000  # allocations between young-generation collections (Python's default: 700)
HUB_ENV = "PIPELINE_TUI_HUB"
CONTROL_ENV = "PIPELINE_TUI_CONTROL"  # the number of the inherited control pipe's read end
WATCH_ENV = "PIPELINE_TUI_WATCH"  # a table to open straight away, as a spectator
THEME_ENV = "PIPELINE_TUI_THEME"  # the Textual theme to start in
STAND_ENV = "PIPELINE_TUI_STAND"  # "1": a stand, drawing a table for watchers (serve/stand.py)
TOKEN_ENV = "PIPELINE_TUI_TOKEN"  # never set by serve: dropped from what a child inherits
EXIT_GRACE = 2.0  # seconds a session has to end by itself once its Hub is gone
EXIT_NO_MEMORY = 3  # the session ran out of the memory serve gave it
MAX_CONTROL_LINE = 256  # bytes of a control line; the token is 43
_session_app: type[SharedApp] | None = None  # made by session_app()


def take_terminal() -> None:
    """Make the pty on stdin our controlling terminal (``serve`` starts us leading a new
    session), so window changes arrive as SIGWINCH and a closed session as SIGHUP."""
    with contextlib.suppress(OSError):  # not a terminal, or already ours
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def exit_soon(seconds: float = EXIT_GRACE) -> threading.Timer:
    """End this process ``seconds`` from now unless it has ended by then: Textual's exit writes
    to the terminal, and a terminal that takes no output would hold the process for good."""
    timer = threading.Timer(seconds, os._exit, args=(1,))
    timer.daemon = True
    timer.start()
    return timer


def session_language(environ: Mapping[str, str], remembered: str | None = None) -> str:
    """The language of a session from its client's environment and the choice ``remembered``
    for its key; a ``PIPELINE_TUI_LANG`` the game does not speak is passed over (the player
    cannot be told so before the game starts, and English is always understood).

    >>> session_language({"LANG": "ru_RU.UTF-8"}), session_language({"LANG": "ru_RU.UTF-8"}, "en")
    ('ru', 'en')
    >>> session_language({"PIPELINE_TUI_LANG": "ru"}, "en"), session_language({"PIPELINE_TUI_LANG": "xx"})
    ('ru', 'en')
    """
    try:
        return choose_language(None, environ, remembered)
    except ValueError:
        return choose_language(None, {k: v for k, v in environ.items() if k != ENV_LANG}, remembered)


def clamped_notice(asked: tuple[int, int], shown: tuple[int, int]) -> str:
    """The control line telling a session that its client's window (``asked``, columns and
    rows) was clamped to ``shown``.

    >>> clamped_notice((20000, 20000), (500, 200))
    'clamped 20000 20000 500 200\\n'
    """
    return f"clamped {asked[0]} {asked[1]} {shown[0]} {shown[1]}\n"


def read_token(control: int) -> str | None:
    """The first line of the control pipe (blocking: ``serve`` wrote it before we started)."""
    line = bytearray()
    while len(line) <= MAX_CONTROL_LINE:
        try:
            byte = os.read(control, 1)  # a byte at a time: what follows is the app's to read
        except OSError:
            return None
        if not byte or byte == b"\n":
            break
        line += byte
    return line.decode("ascii", "replace").strip() or None


def main() -> int:
    signal.signal(signal.SIGHUP, signal.SIG_DFL)  # inherited as ignored under nohup
    take_terminal()
    set_language(session_language(os.environ))
    hub = os.environ.get(HUB_ENV)
    try:
        control = int(os.environ.get(CONTROL_ENV, ""))
    except ValueError:
        control = -1
    token = read_token(control) if control >= 0 else None
    if not hub or not token:
        print(
            _("pipeline-tui session: {hub} and {control} must be set by `pipeline-tui serve`").format(
                hub=HUB_ENV, control=CONTROL_ENV
            ),
            file=sys.stderr,
        )
        return 2
    try:
        return play(Path(hub), token, control)
    except MemoryError:
        return out_of_memory()


def out_of_memory() -> int:
    """Tell the player the session ran out of memory, in one line; the status to end with."""
    print(
        "\r\n" + _("pipeline-tui: this session ran out of memory and is closed; connect again"),
        file=sys.stderr,
        flush=True,
    )
    return EXIT_NO_MEMORY


def session_app() -> type[SharedApp]:
    """The app of a session: the shared tables' app with its notices from ``serve`` and its
    memory's end. Made once a process, on first use: serve's zygote makes it (and parses its
    CSS, :func:`warm_up`) before forking, so no session does."""
    global _session_app
    if _session_app is not None:
        return _session_app
    from textual import on, events
    from textual.driver import Driver

    from ..ui.lobby import SharedApp
    from .driver import SessionDriver

    class SessionApp(SharedApp):
        """The app of one SSH session: its notices from ``serve``, and its memory's end."""

        CSS_PATH = str(Path(inspect.getfile(SharedApp)).parent / SharedApp.CSS_PATH)  # not ours
        ran_out = False
        control = -1  # the control pipe's read end (given before the app runs)

        @on(events.Mount)
        def _listen(self) -> None:
            os.set_blocking(self.control, False)
            asyncio.get_running_loop().add_reader(self.control, self._control)
            self.control_buffer = bytearray()

        def _control(self) -> None:
            try:
                data = os.read(self.control, 4096)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:  # serve closed it: the session is ending
                asyncio.get_running_loop().remove_reader(self.control)
                return
            self.control_buffer += data
            *lines, rest = self.control_buffer.split(b"\n")
            self.control_buffer = rest[:MAX_CONTROL_LINE]
            for line in lines:
                words = line.split()
                if len(words) == 5 and words[0] == b"clamped" and all(w.isdigit() for w in words[1:]):
                    columns, rows, shown_columns, shown_rows = (int(w) for w in words[1:])
                    self.notify(
                        _(
                            "Your window is {columns}x{rows}: the game shows only its top left "
                            "{shown_columns}x{shown_rows}."
                        ).format(
                            columns=columns, rows=rows, shown_columns=shown_columns, shown_rows=shown_rows
                        ),
                        timeout=20,
                    )

        def get_driver_class(self) -> type[Driver]:
            return SessionDriver  # its input thread sleeps while nothing is typed

        def _handle_exception(self, error: Exception) -> None:
            if isinstance(error, MemoryError):  # one line for the player, not a traceback
                self.ran_out = True
                self.exit(return_code=EXIT_NO_MEMORY)
                return
            super()._handle_exception(error)

    _session_app = SessionApp
    return SessionApp


def warm_up() -> int:
    """What every session would do alike, done once for all of them by serve's zygote before
    it forks: the session app's CSS and every imported widget's parsed into the process's
    shared stylesheet cache (``ui.compat.parse_ahead``), and each language's catalogue loaded
    (gettext keeps them). Returns the CSS sources parsed."""
    from ..i18n import LANGUAGES, translations_for
    from ..ui.compat import parse_ahead

    for language in LANGUAGES:
        translations_for(language)
    return parse_ahead(session_app()(Path(), ""))


def play(hub: Path, token: str, control: int) -> int:
    """Run the shared-tables app until the player leaves; its exit status."""
    from ..net.priority import SessionPriority

    gc.collect()
    gc.freeze()  # start-up objects live for good: keep full collections short during play
    # A redraw makes thousands of objects that live on in Textual's caches; with the default
    # threshold (700) the collector ran about five times a move over them. Ten thousand makes
    # it about once in seven moves, for a third of the time (docs/benchmarks.md).
    gc.set_threshold(GC_YOUNG, 10, 10)
    app: Any = session_app()(  # a SessionApp, which mypy cannot name here
        hub, token, freeze_memory=True, on_watching=SessionPriority().watching, on_lost=exit_soon
    )
    app.control = control
    app.run()
    if app.ran_out:
        return out_of_memory()
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main())
