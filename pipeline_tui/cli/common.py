"""What every command shares: the one-line error, the parser in the current language, output,
loading a save, argument types, and opening the Textual app.

The helpers are looked up on this module at call time (``common.interactive()``), so a test
can replace one for every command at once.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

from ..i18n import DEFAULT_LANGUAGE, _, current_language, ngettext, quoted, set_language

if TYPE_CHECKING:
    from ..engine import ClockSetting, Game

PROG = "pipeline-tui"

ON_TIMEOUT = ("computer", "end")
"""``--on-timeout``'s choices: the values of ``engine.FlagRule`` (a test holds them equal),
written out so that building the parser imports no engine (issue 38, point 3: cold start)."""


class CliError(Exception):
    """A user-facing failure; the message is one line."""


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout with its "usage: " heading in the current language."""

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[Any],
        prefix: str | None = None,
    ) -> None:
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump), and its headings and ``-h`` in the
    current language: argparse's own words come from its gettext domain, which has no Russian
    (issue 15: every help text in Russian as well as English)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        wants_help = kwargs.pop("add_help", True)
        kwargs["add_help"] = False  # added below, in the current language
        super().__init__(*args, **kwargs)
        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        if wants_help:
            self._add_help()

    def _add_help(self) -> None:
        self.add_argument(
            "-h",
            "--help",
            action="help",
            default=argparse.SUPPRESS,
            help=_("show this help message and exit"),
        )

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, _("{prog}: {message} (see --help)").format(prog=self.prog, message=message) + "\n")


if TYPE_CHECKING:
    from typing import TypeAlias

    Subparsers: TypeAlias = argparse._SubParsersAction[Parser]
    """What ``register(sub)`` in each command module receives: ``sub.add_parser(name, help=...)``."""


def out(text: str = "", end: str = "\n") -> None:
    sys.stdout.write(text + end)
    sys.stdout.flush()


def load(path: str) -> tuple[Game, dict[str, Any]]:
    from ..storage import game_from_save, read_save

    save = read_save(path)
    return game_from_save(save, Path(path).name), dict(save.meta)


def settle_heap() -> None:
    """Move everything loaded so far out of the garbage collector's way, so a full collection
    never walks it again (it otherwise pauses play for milliseconds, mid-undo say). A command
    that plays calls it once its modules are loaded, as they load with the command, not with
    the parser (the app does the same once its first screen is drawn, ``ui.app``)."""
    gc.collect()
    gc.freeze()


def players(n: int) -> str:
    return ngettext("{n} player", "{n} players", n).format(n=n)


def games(n: int) -> str:
    return ngettext("{n} game", "{n} games", n).format(n=n)


def in_english(build: Callable[[], str]) -> str:
    """``build()`` with the language set to English: ``--json`` output is for tools, the same
    whatever language the player reads (issue 15)."""
    language = current_language()
    set_language(DEFAULT_LANGUAGE)
    try:
        return build()
    finally:
        set_language(language)


# --- argument types -------------------------------------------------------------------------------


def nonneg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("expected a whole number, not {text}").format(text=quoted(text))
        ) from None
    if value < 0:
        raise argparse.ArgumentTypeError(_("expected 0 or more, not {value}").format(value=value))
    return value


def positive(text: str) -> int:
    value = nonneg(text)
    if value < 1:
        raise argparse.ArgumentTypeError(_("expected 1 or more"))
    return value


def seed(text: str) -> int:
    value = nonneg(text)
    if value >= 2**63:
        raise argparse.ArgumentTypeError(_("a seed is below 2^63"))
    return value


def clock(text: str) -> ClockSetting:
    """``--clock``: ``20m+30s`` or ``2d/move`` (engine.clock); one line naming the mistake."""
    from ..engine import ClockError, parse_clock

    try:
        return parse_clock(text)
    except ClockError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def clock_options(p: argparse.ArgumentParser) -> None:
    """``--clock`` and ``--on-timeout`` (hot-seat games have no clock unless asked)."""
    p.add_argument(
        "--clock",
        type=clock,
        default=None,
        metavar="TIME",
        help=_(
            "a clock: 20m+30s (a time bank plus an increment each turn) or 2d/move (a time for each turn)"
        ),
    )
    p.add_argument(
        "--on-timeout",
        choices=ON_TIMEOUT,
        default=ON_TIMEOUT[0],
        help=_("when a seat's time runs out: the computer plays it (default), or the game ends"),
    )


def clock_setting(args: argparse.Namespace) -> ClockSetting | None:
    """The clock the options ask for, with its rule for a time that runs out."""
    setting: ClockSetting | None = getattr(args, "clock", None)
    if setting is None:
        return None
    import msgspec

    return msgspec.structs.replace(setting, on_flag=args.on_timeout)


def port(text: str, lowest: int = 1) -> int:
    value = nonneg(text)
    if not lowest <= value <= 65535:
        raise argparse.ArgumentTypeError(
            _("a port is {lowest} to 65535, not {value}").format(lowest=lowest, value=value)
        )
    return value


# --- the Textual app ------------------------------------------------------------------------------


def interactive() -> bool:
    """Whether both ends are a terminal, which the Textual app needs, or the app is one that
    `pipeline-tui web` serves (textual-serve's web driver talks to the browser over pipes)."""
    if os.environ.get("TEXTUAL_DRIVER") == "textual.drivers.web_driver:WebDriver":
        return True
    return sys.stdin.isatty() and sys.stdout.isatty()


def open_app(args: argparse.Namespace, mode: str, **options: Any) -> int:
    if not interactive():
        raise CliError(
            _("'{command}' needs a terminal; `{prog} play` is a plain-text game").format(
                command=args.command, prog=PROG
            )
        )
    from ..ui import run_app

    run_app(mode=mode, saves_dir=args.saves, mouse=not args.no_mouse, **options)
    return 0


def app_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--saves", metavar="DIR", help=_("saves folder (default $PIPELINE_TUI_SAVES or ./saves)"))
    p.add_argument("--no-mouse", action="store_true", help=_("keyboard only"))
