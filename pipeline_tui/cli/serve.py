"""The front ends over the app: ``pipeline-tui web`` (browsers, textual-serve) and
``pipeline-tui serve`` (shared tables over SSH, asyncssh). Each loads its libraries only when
it runs."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from ..i18n import _, current_language
from ..storage import default_saves_dir
from . import common
from .common import PROG, CliError, out

if TYPE_CHECKING:
    from .common import Subparsers


def cmd_web(args: argparse.Namespace) -> int:
    from ..serve import web

    saves = (Path(args.saves).expanduser() if args.saves else default_saves_dir()).absolute()
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
        )
    except ssh.ServeError as exc:
        raise CliError(str(exc)) from None


def _ssh_port(text: str) -> int:
    """A port for serve: 0 asks the system for a free one (the tests use that)."""
    return common.port(text, lowest=0)


def register(sub: Subparsers) -> None:
    p = sub.add_parser("web", help=_("serve the app to browsers (each tab its own game)"))
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help=_("address to listen on (default 127.0.0.1; 0.0.0.0 for other machines)"),
    )
    p.add_argument("--port", type=common.port, default=8000, help=_("default 8000"))
    p.add_argument("--saves", metavar="DIR", help=_("saves folder (default $PIPELINE_TUI_SAVES or ./saves)"))
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
    p.set_defaults(func=cmd_serve)
