"""The child process of one SSH session: the shared-tables app on the session's terminal.

``pipeline-tui serve`` starts ``python -m pipeline_tui.serve.session`` on a pty for every SSH
session, with the session's TERM and window size, the Hub's socket in ``PIPELINE_TUI_HUB`` and
the token that names the player in ``PIPELINE_TUI_TOKEN``. The child never writes table files.

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
from pathlib import Path

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


def main() -> int:
    signal.signal(signal.SIGHUP, signal.SIG_DFL)  # inherited as ignored under nohup
    take_terminal()
    hub = os.environ.get(HUB_ENV)
    token = os.environ.pop(TOKEN_ENV, None)
    if not hub or not token:
        print(
            f"pipeline-tui session: {HUB_ENV} and {TOKEN_ENV} must be set by `pipeline-tui serve`",
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
