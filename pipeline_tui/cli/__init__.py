"""The ``pipeline-tui`` command: the Textual app, simulate, replay, check and a plain-text game.

Every error is one line on stderr with a non-zero exit status, never a traceback (set
``PIPELINE_TUI_DEBUG=1`` to see one). Ctrl-C exits with status 130.

This module assembles the parser and runs it; each command group registers its own
subcommands (``register(sub)``): ``app`` (title, new, load), ``play``, ``games`` (simulate,
replay, check, saves, components), ``arena``, ``serve`` (web, serve) and ``tables``. What they share is
in ``common``.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Callable, Sequence

from .. import __version__
from ..i18n import (
    LANGUAGES,
    LanguageError,
    _,
    choose_language,
    quoted,
    remembered_language,
    set_language,
)
from ..storage import SaveError
from . import app, arena, common, games, play, serve, tables
from .common import PROG, CliError, Parser, out

GROUPS = (app, play, games, arena, serve, tables)
"""The command modules, in the order ``--help`` lists their commands."""


def _language_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang",
        metavar="|".join(LANGUAGES),
        help=_("the language, with any command (else $PIPELINE_TUI_LANG, the remembered choice, the locale)"),
    )


def _choose_language(argv: list[str]) -> list[str]:
    """Speak the language asked for (``--lang`` anywhere on the line, docs/translating.md) and
    return the arguments without that option; LanguageError names a language not spoken."""
    picker = Parser(prog=PROG, add_help=False, allow_abbrev=False)
    _language_option(picker)
    options, rest = picker.parse_known_args(argv)
    set_language(choose_language(options.lang, os.environ, remembered_language()))
    return rest


def _assemble(command: str | None = None) -> Parser:
    """The command line; with ``command``, only the group that has it registers its commands
    (a parser of every command costs a start 3 ms, issue 38, point 3: cold start)."""
    parser = Parser(prog=PROG, description=_("The board game Pipeline in the terminal."))
    parser.add_argument(
        "--version",
        action="version",
        version=f"{PROG} {__version__}",
        help=_("show program's version number and exit"),
    )
    _language_option(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for group in GROUPS:
        if command is None or command in group.COMMANDS:
            group.register(sub)
    return parser


def build_parser() -> argparse.ArgumentParser:
    """The whole command line, in the current language."""
    return _assemble()


def _run(argv: Sequence[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        argv = _choose_language(argv)
    except LanguageError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    commands = tuple(command for group in GROUPS for command in group.COMMANDS)
    if argv and not argv[0].startswith("-") and argv[0] not in commands:
        said = _("{prog}: unknown command {name} (one of {commands})").format(
            prog=PROG, name=quoted(argv[0]), commands=", ".join(commands)
        )
        print(said, file=sys.stderr)
        return 2
    if not argv or (argv[0] not in commands and argv[0] not in ("-h", "--help", "--version")):
        # no command: the app in a terminal, else the plain-text game (options go to either)
        argv = ["title" if common.interactive() else "play", *argv]
    args = _assemble(argv[0] if argv[0] in commands else None).parse_args(argv)
    command: Callable[[argparse.Namespace], int] = args.func
    return command(args)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    try:
        return _run(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except KeyboardInterrupt:
        out()
        return 130
    except BrokenPipeError:
        try:  # the reader went away (``| head``): silence the final flush at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 1
    except (CliError, SaveError, OSError, ValueError) as exc:
        if os.environ.get("PIPELINE_TUI_DEBUG"):
            raise
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # the promise: one line, never a traceback
        if os.environ.get("PIPELINE_TUI_DEBUG"):
            raise
        said = _("{prog}: internal error: {kind}: {error}").format(
            prog=PROG, kind=type(exc).__name__, error=exc
        )
        print(said, file=sys.stderr)
        return 1
