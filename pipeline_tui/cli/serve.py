"""The front ends over the app: ``pipeline-tui web`` (browsers, textual-serve) and
``pipeline-tui serve`` (shared tables over SSH, asyncssh). Each loads its libraries only when
it runs."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from ..i18n import _, current_language
from ..storage import default_saves_dir
from . import common
from .common import PROG, CliError, out

if TYPE_CHECKING:
    from .common import Subparsers


def _origin(text: str) -> str:
    """An ``--allow-origin``: a web page's origin, ``http(s)://host[:port]``."""
    from ..serve.web import normal_origin  # plain Python: neither aiohttp nor textual-serve

    try:
        normal_origin(text)
        if urlsplit(text).path.strip("/"):
            raise ValueError(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("an origin is http://host or https://host, with a port if not the usual, not {text!r}").format(
                text=text
            )
        ) from None
    return text


def _window(text: str) -> tuple[int, int]:
    """``COLUMNSxROWS``, each 1 to 65535 (a pty's sides are 16-bit)."""
    columns, _x, rows = text.lower().partition("x")
    try:
        size = (int(columns), int(rows))
    except ValueError:
        size = (0, 0)
    if not all(1 <= side <= 65535 for side in size):
        raise argparse.ArgumentTypeError(
            _("a window is COLUMNSxROWS, each 1 to 65535, as 500x200; not {text!r}").format(text=text)
        )
    return size


def cmd_web(args: argparse.Namespace) -> int:
    from ..serve import web

    saves = (Path(args.saves).expanduser() if args.saves else default_saves_dir()).absolute()
    limits = web.Limits(
        max_cols=args.max_window[0],
        max_rows=args.max_window[1],
        max_tabs=args.max_tabs,
        allow_origins=tuple(args.allow_origin),
    )
    try:
        web.serve(
            args.host,
            args.port,
            saves,
            announce=lambda url: out(
                _("{prog} web: open {url} in a browser (saves in {saves}; Ctrl+C stops)").format(
                    prog=PROG, url=url, saves=saves
                )
            ),
            language=current_language(),
            limits=limits,
            fork=False if args.spawn else None,
        )
    except OSError as exc:
        raise CliError(web.bind_error(exc, args.host, args.port)) from None
    out(_("{prog} web: stopped").format(prog=PROG))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from ..serve import ssh  # asyncssh loads only for serve

    try:
        return ssh.run(
            args.host,
            args.port,
            Path(args.tables),
            Path(args.authorized_keys).expanduser() if args.authorized_keys else None,
            args.open,
            ssh.Limits(
                max_window=args.max_window,
                sessions_per_key=args.sessions_per_key,
                sessions=args.sessions if args.sessions is not None else ssh.default_sessions(),
                login_grace=args.login_grace,
                startups=args.max_startups,
                session_memory=args.session_memory * ssh.MiB,
            ),
            store=args.store,
            fork=False if args.spawn else None,
            share_after=None if args.no_shared_screens else args.share_after,
        )
    except ssh.ServeError as exc:
        raise CliError(str(exc)) from None


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(
            _("seconds above 0 and at most 3600, not {text!r}").format(text=text)
        )
    return value


def _startups(text: str) -> object:
    from ..serve.ssh import Startups

    try:
        return Startups.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _ssh_port(text: str) -> int:
    """A port for serve: 0 asks the system for a free one (the tests use that)."""
    return common.port(text, lowest=0)


def _store_url(text: str) -> str:
    from ..net.store import is_url

    if not is_url(text):
        raise argparse.ArgumentTypeError(
            _("a store is a postgresql:// URL, not {text}").format(text=repr(text))
        )
    return text


def _max_window(parser: argparse.ArgumentParser, help_text: str) -> None:
    """``--max-window``, the same flag and default for ``web`` and ``serve`` (issue 36)."""
    parser.add_argument("--max-window", type=_window, default=(500, 200), metavar="COLSxROWS", help=help_text)


COMMANDS = ("web", "serve")
"""The commands ``register`` adds, in its order (tests/test_cli.py holds them equal)."""


def register(sub: Subparsers) -> None:
    p = sub.add_parser("web", help=_("serve the app to browsers (each tab its own game)"))
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help=_("address to listen on (default 127.0.0.1; 0.0.0.0 for other machines)"),
    )
    p.add_argument("--port", type=common.port, default=8000, help=_("default 8000"))
    p.add_argument("--saves", metavar="DIR", help=_("saves folder (default $PIPELINE_TUI_SAVES or ./saves)"))
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        type=_origin,
        help=_(
            "also let pages of ORIGIN (http://host:port) open games; repeatable (default: this server's own)"
        ),
    )
    _max_window(p, _("the largest terminal a tab draws; a larger one shows its top left (default 500x200)"))
    p.add_argument(
        "--max-tabs",
        type=common.positive,
        default=16,
        metavar="N",
        help=_("browser tabs playing at once (default 16)"),
    )
    p.add_argument(
        "--spawn",
        action="store_true",
        help=_(
            "start each tab's app as a new Python process instead of forking it from one that "
            "has the game loaded (slower, more memory; as PIPELINE_TUI_SPAWN=1)"
        ),
    )
    p.set_defaults(func=cmd_web)

    p = sub.add_parser("serve", help=_("shared tables over SSH: a lobby, seats, spectators"))
    p.add_argument("--host", default="127.0.0.1", help=_("address to listen on (default 127.0.0.1)"))
    p.add_argument(
        "--port", type=_ssh_port, default=2222, help=_("SSH port (default 2222; 0 picks a free one)")
    )
    p.add_argument(
        "--tables",
        metavar="DIR",
        default="tables",
        help=_("where the tables and the host key live (default ./tables)"),
    )
    p.add_argument(
        "--store",
        metavar="URL",
        type=_store_url,
        default=None,
        help=_("keep the tables in PostgreSQL (postgresql://...), shared with other serve nodes"),
    )
    p.add_argument(
        "--authorized-keys",
        metavar="FILE",
        default=None,
        help=_("public keys that may play (default ~/.ssh/authorized_keys)"),
    )
    p.add_argument(
        "--open",
        action="store_true",
        help=_("let any key in; the key's fingerprint is the player's identity"),
    )
    _max_window(p, _("the largest window a session draws; a larger one shows its top left (default 500x200)"))
    p.add_argument(
        "--sessions-per-key",
        type=common.positive,
        default=4,
        metavar="N",
        help=_("sessions (and connections) one key may have open (default 4)"),
    )
    p.add_argument(
        "--sessions",
        type=common.positive,
        default=None,
        metavar="N",
        help=_("sessions in all (default: one per 256 MiB of the machine's memory, at least 4)"),
    )
    p.add_argument(
        "--login-grace",
        type=_seconds,
        default=20.0,
        metavar="SECONDS",
        help=_("time a connection has to log in (default 20)"),
    )
    p.add_argument(
        "--max-startups",
        type=_startups,
        default="64:30:256",
        metavar="START:RATE:FULL",
        help=_(
            "connections still logging in, as OpenSSH's MaxStartups: past START a new one is "
            "dropped with RATE percent, rising to all at FULL; or one number (default 64:30:256)"
        ),
    )
    p.add_argument(
        "--session-memory",
        type=common.positive,
        default=1024,
        metavar="MiB",
        help=_(
            "the memory (address space) of one session process; beyond it the session ends (default 1024)"
        ),
    )
    p.add_argument(
        "--spawn",
        action="store_true",
        help=_(
            "start each session as a new Python process instead of forking it from one that "
            "has the game loaded (slower, more memory; as PIPELINE_TUI_SPAWN=1)"
        ),
    )
    p.add_argument(
        "--share-after",
        type=_seconds,
        default=5.0,
        metavar="SECONDS",
        help=_(
            "how long a spectator's screen stays untouched before spectators alike share one "
            "process drawing their table (default 5)"
        ),
    )
    p.add_argument(
        "--no-shared-screens",
        action="store_true",
        help=_(
            "give every spectator a session process of their own, instead of one process "
            "drawing a table for all its spectators whose terminals are alike"
        ),
    )
    p.set_defaults(func=cmd_serve)
