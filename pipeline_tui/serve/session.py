"""The child process of one SSH session: the shared-tables app on the session's terminal.

``pipeline-tui serve`` starts ``python -m pipeline_tui.serve.session`` on a pty for every SSH
session, with the session's TERM and window size, the Hub's socket in ``PIPELINE_TUI_HUB`` and
the token that names the player in ``PIPELINE_TUI_TOKEN``. The child never writes table files.

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

import contextlib
import fcntl
import gc
import os
import signal
import sys
import termios
import threading
from collections.abc import Mapping
from pathlib import Path

from ..i18n import ENV_LANG, _, choose_language, set_language

GC_YOUNG = 10_000  # allocations between young-generation collections (Python's default: 700)
HUB_ENV = "PIPELINE_TUI_HUB"
TOKEN_ENV = "PIPELINE_TUI_TOKEN"
EXIT_GRACE = 2.0  # seconds a session has to end by itself once its Hub is gone


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


def main() -> int:
    signal.signal(signal.SIGHUP, signal.SIG_DFL)  # inherited as ignored under nohup
    take_terminal()
    set_language(session_language(os.environ))
    hub = os.environ.get(HUB_ENV)
    token = os.environ.pop(TOKEN_ENV, None)
    if not hub or not token:
        print(
            _("pipeline-tui session: {hub} and {token} must be set by `pipeline-tui serve`").format(
                hub=HUB_ENV, token=TOKEN_ENV
            ),
            file=sys.stderr,
        )
        return 2
    from ..ui.lobby import SharedApp
    from ..net.priority import SessionPriority

    gc.collect()
    gc.freeze()  # start-up objects live for good: keep full collections short during play
    # A redraw makes thousands of objects that live on in Textual's caches; with the default
    # threshold (700) the collector ran about five times a move over them. Ten thousand makes
    # it about once in seven moves, for a third of the time (docs/benchmarks.md).
    gc.set_threshold(GC_YOUNG, 10, 10)
    app = SharedApp(
        Path(hub), token, freeze_memory=True, on_watching=SessionPriority().watching, on_lost=exit_soon
    )
    app.run()
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main())
