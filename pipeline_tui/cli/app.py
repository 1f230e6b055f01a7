"""The commands that open the Textual app: ``title`` (the default in a terminal), ``new`` and
``load``. The app, Textual and the bots load only when one of them runs."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..i18n import _
from . import common
from .common import CliError

if TYPE_CHECKING:
    from .common import Subparsers


def cmd_title(args: argparse.Namespace) -> int:
    return common.open_app(args, "title", served=args.served)


def cmd_new(args: argparse.Namespace) -> int:
    """The app on a new game: the form, or with ``--players`` or ``--bots`` straight to the
    table (``--bots LEVEL``: every seat after the first is a computer player of that level)."""
    bots = None
    if args.bots is not None:
        from .. import ai

        try:
            bots = ai.bot_kind(args.bots)
        except ValueError as exc:
            raise CliError(str(exc)) from None
    players = args.players if args.players is not None or bots is None else 2
    return common.open_app(
        args,
        "new",
        players=players,
        seed=args.seed,
        first_game=args.first_game,
        bots=bots,
        clock=common.clock_setting(args),
    )


def cmd_load(args: argparse.Namespace) -> int:
    common.load(args.file)  # a broken save is reported here in one line, before the app starts
    return common.open_app(args, "load", file=args.file)


COMMANDS = ("title", "new", "load")
"""The commands ``register`` adds, in its order (tests/test_cli.py holds them equal)."""


def register(sub: Subparsers) -> None:
    p = sub.add_parser("title", help=_("the title screen (the default in a terminal)"))
    common.app_options(p)
    # `pipeline-tui web` runs each browser tab as `title --served web`: the app is on a server's
    # machine then, and offers nothing that writes on its disk beyond the game (ui/app.py)
    p.add_argument("--served", choices=("local", "web"), default="local", help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_title)

    p = sub.add_parser("new", help=_("start a new game in the app"))
    p.add_argument(
        "--players",
        type=int,
        choices=(2, 3, 4),
        default=None,
        help=_("start at once with N seats (otherwise the new-game screen)"),
    )
    p.add_argument("--seed", type=common.seed, default=None, help=_("the setup seed (random if omitted)"))
    p.add_argument("--first-game", action="store_true", help=_("the rulebook's first-game setup"))
    p.add_argument(
        "--bots",
        metavar="LEVEL",
        default=None,
        help=_("every seat after yours is a computer player: easy, normal, hard or expert"),
    )
    common.clock_options(p)
    common.app_options(p)
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("load", help=_("continue a saved game in the app"))
    p.add_argument("file", metavar="FILE")
    common.app_options(p)
    p.set_defaults(func=cmd_load)
