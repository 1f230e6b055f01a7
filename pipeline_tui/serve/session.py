"""The child process of one SSH session: the shared-tables app on the session's terminal.

``pipeline-tui serve`` starts ``python -m pipeline_tui.serve.session`` on a pty for every SSH
session, with the session's TERM and window size, the Hub's socket in ``PIPELINE_TUI_HUB`` and
one end of a socket pair it inherits, named by its number in ``PIPELINE_TUI_CONTROL``: the
first line on it is the token that names the player (never in the environment, where
``/proc/<pid>/environ`` keeps it for the process's life), later lines tell the session that its
window was clamped (:func:`clamped_notice`), which it shows its player, or ask it to draw its
whole screen again (:data:`REPAINT`). The child never writes table files.

Watchers share a screen (issue 38): a spectator whose table screen is drawn, and who holds no
seat at a table still in play, says so on the control socket (:func:`watching_line`), and
:data:`LEFT` when that no longer holds; ``serve`` may then end the session and show the
watcher the screen of a *stand*, one session (``PIPELINE_TUI_STAND``) drawing that table for
every watcher whose terminal is alike. ``PIPELINE_TUI_WATCH`` opens a session straight at a
table as a spectator (the lobby beneath it), ``PIPELINE_TUI_THEME`` in a Textual theme: what a
watcher who presses a key comes back to. The child never waits on what it writes: what the
socket does not take at once waits in a small buffer (:data:`MAX_CONTROL_OUT`), and a line
beyond that is dropped whole.

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
import re
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
CONTROL_ENV = "PIPELINE_TUI_CONTROL"  # the number of the inherited control socket
WATCH_ENV = "PIPELINE_TUI_WATCH"  # a table id: open straight at it as a spectator
THEME_ENV = "PIPELINE_TUI_THEME"  # a Textual theme's name to start in
STAND_ENV = "PIPELINE_TUI_STAND"  # "1": the session draws a table for watchers who share it
TOKEN_ENV = "PIPELINE_TUI_TOKEN"  # never set by serve: dropped from what a child inherits
EXIT_GRACE = 2.0  # seconds a session has to end by itself once its Hub is gone
EXIT_NO_MEMORY = 3  # the session ran out of the memory serve gave it
MAX_CONTROL_LINE = 256  # bytes of a control line; the token is 43
MAX_CONTROL_OUT = 4096  # bytes of lines the child keeps for serve while its socket is full
REPAINT = "repaint\n"  # serve -> child: draw every line of the screen again
LEFT = "left\n"  # child -> serve: the `watching` said before holds no more
WORD = re.compile(r"[A-Za-z0-9_.-]{1,64}")  # a table id, language code or theme name on the wire
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


def watching_line(table_id: str, language: str, theme: str) -> str | None:
    """The control line saying this session watches ``table_id`` in ``language`` and
    ``theme``; None if a field is not a plain word (it would not parse at the other end).

    >>> watching_line("t3", "ru", "textual-dark"), watching_line("t 3", "en", "nord")
    ('watching t3 ru textual-dark\\n', None)
    """
    if not all(WORD.fullmatch(word) for word in (table_id, language, theme)):
        return None
    return f"watching {table_id} {language} {theme}\n"


def read_watching(line: bytes) -> tuple[str, str, str] | None:
    """The table, language and theme of a :func:`watching_line` as ``serve`` reads it; None for
    any other line.

    >>> read_watching(b"watching t3 ru textual-dark"), read_watching(b"watching t3 ru")
    (('t3', 'ru', 'textual-dark'), None)
    """
    words = line.decode("ascii", "replace").split()
    if len(words) != 4 or words[0] != "watching" or not all(WORD.fullmatch(w) for w in words[1:]):
        return None
    return words[1], words[2], words[3]


def env_word(environ: Mapping[str, str], name: str) -> str | None:
    """The value of ``name`` if it is a plain word (:data:`WORD`), else None (ignored).

    >>> env_word({WATCH_ENV: "t3"}, WATCH_ENV), env_word({WATCH_ENV: "t3; rm"}, WATCH_ENV)
    ('t3', None)
    """
    value = environ.get(name, "")
    return value if WORD.fullmatch(value) else None


def read_token(control: int) -> str | None:
    """The first line of the control socket (blocking: ``serve`` wrote it before we started)."""
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
        """The app of one SSH session: its notices from ``serve``, what it watches told to
        ``serve``, and its memory's end."""

        CSS_PATH = str(Path(inspect.getfile(SharedApp)).parent / SharedApp.CSS_PATH)  # not ours
        ran_out = False
        control = -1  # the control socket (or pipe's read end), given before the app runs

        @on(events.Mount)
        def _listen(self) -> None:
            os.set_blocking(self.control, False)
            asyncio.get_running_loop().add_reader(self.control, self._control)
            self.control_buffer = bytearray()
            self.control_out = bytearray()  # lines for serve its socket has not taken yet

        @on(events.Unmount)
        def _stop_listening(self) -> None:
            """Leave the control socket to whoever runs next in this loop (a test's next app:
            its number may be given to another socket once the app's owner closes it)."""
            loop = asyncio.get_running_loop()
            loop.remove_reader(self.control)
            loop.remove_writer(self.control)

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
                if words == [REPAINT.strip().encode()]:
                    self.repaint()
                elif (
                    len(words) == 5
                    and words[0] == b"clamped"
                    and all(w.isdigit() for w in words[1:])
                    and not self.stand  # a stand's window is nobody's
                ):
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

        def repaint(self) -> None:
            """Send every line of the screen again at its next update, not only what changed:
            a watcher who starts sharing this screen has seen none of it. A refresh of the
            whole screen marks its whole region dirty, which the compositor draws as a full
            update (textual's ``Compositor.render_update``)."""
            self.refresh()

        def sharing_changed(self, view: tuple[str, str, str] | None) -> None:
            line = LEFT if view is None else watching_line(*view)
            if line is not None:
                self.tell(line)

        def tell(self, line: str) -> None:
            """Write ``line`` to serve, never waiting: what the socket does not take now is
            kept (up to :data:`MAX_CONTROL_OUT`) and sent when it can be; a line beyond that
            is dropped whole, and so is every line on a control pipe (it is only read)."""
            data = line.encode()
            if self.control_out:
                if len(self.control_out) + len(data) <= MAX_CONTROL_OUT:
                    self.control_out += data
                return
            try:
                sent = os.write(self.control, data)
            except BlockingIOError:
                sent = 0
            except OSError:  # a pipe's read end, or serve has closed the socket
                return
            if sent < len(data):
                self.control_out += data[sent:]
                asyncio.get_running_loop().add_writer(self.control, self._flush_control)

        def _flush_control(self) -> None:
            try:
                sent = os.write(self.control, self.control_out)
            except BlockingIOError:
                return
            except OSError:
                sent = len(self.control_out)
            del self.control_out[:sent]
            if not self.control_out:
                asyncio.get_running_loop().remove_writer(self.control)

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
    watch = env_word(os.environ, WATCH_ENV)
    stand = os.environ.get(STAND_ENV) == "1" and watch is not None
    app: Any = session_app()(  # a SessionApp, which mypy cannot name here
        hub,
        token,
        freeze_memory=True,
        # a stand draws for every watcher of its table: it keeps a seat's CPU weight
        on_watching=None if stand else SessionPriority().watching,
        on_lost=exit_soon,
        watch=watch,
        theme=env_word(os.environ, THEME_ENV),
        stand=stand,
    )
    app.control = control
    app.run()
    if app.ran_out:
        return out_of_memory()
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main())
