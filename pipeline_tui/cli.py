"""The ``pipeline-tui`` command: the Textual app, simulate, replay, check and a plain-text game.

Every error is one line on stderr with a non-zero exit status, never a traceback (set
``PIPELINE_TUI_DEBUG=1`` to see one). Ctrl-C exits with status 130.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence, TextIO

import msgspec

from . import __version__
from .data.editions import PRINTED_EDITION
from .engine.errors import IllegalMove, NotationError
from .engine.game import Game, public_view
from .engine.moves import Move, format_move, parse_move
from .engine.setup import GameSetup
from .i18n import DEFAULT_LANGUAGE, N_, _, current_language, ngettext, quoted, set_language
from .storage import (
    SaveError,
    autosave,
    default_saves_dir,
    game_from_save,
    game_meta,
    list_saves,
    read_save,
    save_game,
)
from .i18n import LANGUAGES, LanguageError, choose_language, remembered_language
from .data.reference import EDITIONS, LATEST_EDITION, reference, reference_json
from .text import refusal, render_components_text, render_scores, render_state

PROG = "pipeline-tui"
MOVE_LIMIT = 100_000  # a random game far longer than this means the engine loops


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


class _Parser(argparse.ArgumentParser):
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


def _out(text: str = "", end: str = "\n") -> None:
    sys.stdout.write(text + end)
    sys.stdout.flush()


def _load(path: str) -> tuple[Game, dict[str, Any]]:
    save = read_save(path)
    return game_from_save(save, Path(path).name), dict(save.meta)


def _players(n: int) -> str:
    return ngettext("{n} player", "{n} players", n).format(n=n)


def _games(n: int) -> str:
    return ngettext("{n} game", "{n} games", n).format(n=n)


def _summary(game: Game) -> str:
    names = ", ".join(p.name for p in game.setup.players)
    moves = len(game.moves)
    text = _("{players} ({names}), {moves}, Year {year} Round {round}").format(
        players=_players(len(game.setup.players)),
        names=names,
        moves=ngettext("{n} move", "{n} moves", moves).format(n=moves),
        year=game.state.year,
        round=game.state.round,
    )
    if game.is_over():
        best = ", ".join(f"{s.name} (${s.total})" for s in game.scores() if s.rank == 1)
        return _("{summary}, finished, winner {names}").format(summary=text, names=best)
    name = game.state.players[game.current_player].name
    return _("{summary}, in progress, {name} to act").format(summary=text, name=name)


def _in_english(build: Callable[[], str]) -> str:
    """``build()`` with the language set to English: ``--json`` output is for tools, the same
    whatever language the player reads (issue 15)."""
    language = current_language()
    set_language(DEFAULT_LANGUAGE)
    try:
        return build()
    finally:
        set_language(language)


# --- simulate ---------------------------------------------------------------------------------


def random_game(players: int, seed: int) -> Game:
    """A game of uniformly random legal moves; the move choice is seeded by the game seed."""
    game = Game(GameSetup.default(players=players, seed=seed))
    rng = random.Random(seed)
    while not game.is_over():
        moves = game.legal_moves()
        if not moves:
            raise CliError(
                _("seed {seed}: the engine offers no move before the game's end").format(seed=seed)
            )
        if len(game.moves) >= MOVE_LIMIT:
            raise CliError(
                _("seed {seed}: the game did not end within {limit} moves").format(
                    seed=seed, limit=MOVE_LIMIT
                )
            )
        game.apply_trusted(rng.choice(moves))
    return game


def cmd_simulate(args: argparse.Namespace) -> int:
    out = Path(args.out) if args.out else None
    if out is not None:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            reason = exc.strerror or exc
            raise CliError(
                _("{folder}: cannot create the folder ({reason})").format(folder=out, reason=reason)
            ) from None
    start = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        game = random_game(args.players, seed)
        scores = game.scores()
        winner = next(s for s in scores if s.rank == 1)
        listed = ", ".join(f"{s.name} {s.total}" for s in scores)
        moves = len(game.moves)
        line = ngettext(
            "seed {seed}: winner {name}, scores {scores}, {n} move",
            "seed {seed}: winner {name}, scores {scores}, {n} moves",
            moves,
        )
        _out(line.format(seed=seed, name=winner.name, scores=listed, n=moves))
        if out is not None:
            save_game(game, out / f"sim-{seed}-{args.players}p.json")
    elapsed = time.perf_counter() - start
    _out(_("{games} in {seconds} s").format(games=_games(args.games), seconds=f"{elapsed:.2f}"))
    return 0


# --- replay, check, saves ---------------------------------------------------------------------


def cmd_replay(args: argparse.Namespace) -> int:
    game, _meta = _load(args.file)
    if args.to is None and not (args.json or args.text) and _interactive():
        return _open_app(args, "replay", file=args.file)
    total = len(game.moves)
    at = total if args.to is None else args.to
    if not 0 <= at <= total:
        raise CliError(
            _("--to {at}: {file} has moves 0 to {total}").format(
                at=at, file=Path(args.file).name, total=total
            )
        )
    state = game.state_at(at)
    if args.json:
        doc = {
            "file": Path(args.file).name,
            "at": at,
            "moves": [format_move(m) for m in game.moves],
            "state": public_view(state),
        }
        _out(_in_english(lambda: msgspec.json.format(msgspec.json.encode(doc), indent=2).decode()))
        return 0
    if at:
        _out(
            _("After move {at} of {total}: {move}").format(
                at=at, total=total, move=format_move(game.moves[at - 1])
            )
        )
    else:
        _out(_("After move {at} of {total} (the table after setup)").format(at=at, total=total))
    _out()
    _out(render_state(state, game.setup), end="")
    if at == total and game.is_over():
        _out()
        _out(render_scores(game.scores()), end="")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    name = Path(args.file).name
    try:
        game, meta = _load(args.file)
    except SaveError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 1
    facts = game_meta(game)
    for key, value in facts.items():
        if key != "app_version" and key in meta and meta[key] != value:
            said = _("{prog}: {file}: meta says {key} is {given} but the log gives {value}").format(
                prog=PROG, file=name, key=key, given=repr(meta[key]), value=repr(value)
            )
            print(said, file=sys.stderr)
            return 1
    _out(_("ok: {file}: {summary}").format(file=name, summary=_summary(game)))
    return 0


def cmd_saves(args: argparse.Namespace) -> int:
    directory = Path(args.dir) if args.dir else default_saves_dir()
    infos = list_saves(directory)
    if not infos:
        _out(_("no saves in {folder}").format(folder=directory))
        return 0
    for info in infos:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(info.modified))
        if info.error:
            _out(
                _("{when}  {file}  BROKEN: {error}").format(when=when, file=info.path.name, error=info.error)
            )
            continue
        if info.finished:
            state = _("finished, winner {names}").format(names=", ".join(info.winners))
        else:
            state = _("in progress")
        line = ngettext(
            "{when}  {file}  {players}; Year {year} Round {round}, {n} move, {state}",
            "{when}  {file}  {players}; Year {year} Round {round}, {n} moves, {state}",
            info.moves,
        )
        _out(
            line.format(
                when=when,
                file=info.path.name,
                players=", ".join(info.players),
                year=info.year,
                round=info.round,
                n=info.moves,
                state=state,
            )
        )
    return 0


# --- play ---------------------------------------------------------------------------------------

HELP = N_("""Commands: a move number, a move in notation (like 'act crude' or 'buy C-OC#3'),
  undo, redo, moves (show the table and moves again), save FILE, help, quit.
  'save NAME' without a folder writes NAME.json into the saves folder.""")
"""The plain-text game's commands; the command words and the notation are the same in every
language, the explanation is translated where it is printed."""


def _move_columns(moves: list[Move], width: int = 100) -> str:
    cells = [f"{i + 1:>3}) {format_move(m)}" for i, m in enumerate(moves)]
    size = max(len(c) for c in cells) + 2
    per_line = max(1, width // size)
    lines = [
        "".join(c.ljust(size) for c in cells[i : i + per_line]).rstrip()
        for i in range(0, len(cells), per_line)
    ]
    return "\n".join(lines)


def _save_target(text: str, saves: Path) -> Path:
    path = Path(text).expanduser()
    if path.parent == Path("."):
        path = saves / (path.name if path.suffix else path.name + ".json")
        saves.mkdir(parents=True, exist_ok=True)
    return path


class _HotSeat:
    """The plain-text game loop on stdin/stdout."""

    def __init__(self, game: Game, saves: Path) -> None:
        self.game = game
        self.saves = saves
        self.autosaved: Path | None = None
        self.written: list[Move] | None = None  # the moves last autosaved

    def autosave(self) -> None:
        """Autosave this line of play; a file holding another game, or a later point of this
        one, is kept and the game goes on in a new file (said once)."""
        base = self.autosaved.name if self.autosaved else None
        try:
            path = autosave(self.game, self.saves, base, self.written)
        except (SaveError, OSError) as exc:
            _out(_("autosave failed: {error}").format(error=exc))
            return
        base = base or f"autosave-{self.game.setup.seed}.json"
        if path.name != base:
            _out(
                _(
                    "{file} holds another game or a later point of this one and is kept; autosaving to {path}"
                ).format(file=base, path=path)
            )
        self.autosaved = path
        self.written = list(self.game.moves)

    def show(self, table: bool) -> None:
        if table:
            _out(render_state(self.game.state, self.game.setup))
        _out(_("Legal moves:"))
        _out(_move_columns(self.game.legal_moves()))

    def read(self, stdin: TextIO) -> str | None:
        name = self.game.state.players[self.game.current_player].name
        _out(f"{name}> ", end="")
        line = stdin.readline()
        return None if line == "" else line.strip()

    def run(self, stdin: TextIO) -> int:
        table = True
        while not self.game.is_over():
            self.show(table)
            table = False
            while True:
                line = self.read(stdin)
                if line is None:
                    if self.autosaved:
                        _out("\n" + _("end of input; autosaved to {path}").format(path=self.autosaved))
                    else:
                        _out("\n" + _("end of input"))
                    return 0
                result = self.command(line)
                if result == "quit":
                    if self.autosaved:
                        _out(_("game left; autosaved to {path}").format(path=self.autosaved))
                    else:
                        _out(_("game left"))
                    return 0
                if result in ("moved", "table"):
                    table = result == "table"
                    break
        _out(render_state(self.game.state, self.game.setup))
        _out(render_scores(self.game.scores()), end="")
        return 0

    def command(self, line: str) -> str:
        """Handle one input line: "moved", "table" (reprint everything), "quit" or "" (ask again)."""
        game = self.game
        word, _sep, rest = line.partition(" ")
        word = word.lower()
        if not line:
            return ""
        if word in ("quit", "exit", "q"):
            return "quit"
        if word in ("help", "?"):
            _out(_(HELP))
            return ""
        if word in ("moves", "table", "show"):
            return "table"
        if word in ("undo", "redo"):
            done = game.undo() if word == "undo" else game.redo()
            if done is None:
                _out(_("nothing to undo") if word == "undo" else _("nothing to redo"))
                return ""
            said = _("undo: {move}") if word == "undo" else _("redo: {move}")
            _out(said.format(move=format_move(done)))
            self.autosave()
            return "table"
        if word == "save":
            if not rest.strip():
                _out(_("save needs a file name, like 'save mygame'"))
                return ""
            try:
                path = _save_target(rest.strip(), self.saves)
                save_game(game, path)
            except (SaveError, OSError) as exc:
                _out(_("not saved: {error}").format(error=exc))
                return ""
            _out(_("saved to {path}").format(path=path))
            return ""
        legal = game.legal_moves()
        if line.isdigit():
            number = int(line)
            if not 1 <= number <= len(legal):
                _out(_("no move {number}: choose 1 to {count}").format(number=number, count=len(legal)))
                return ""
            move = legal[number - 1]
        else:
            try:
                move = parse_move(line)
            except NotationError as exc:
                _out(_("not understood: {error} (type 'help')").format(error=exc))
                return ""
        before = game.current_player
        try:
            game.apply(move)
        except IllegalMove as exc:
            _out("".join(refusal(str(exc), _("illegal: "), _("illegal: {area}: "))))
            return ""
        _out(f"{game.setup.players[before].name}: {format_move(move)}")
        self.autosave()
        return "table" if game.current_player != before or game.is_over() else "moved"


def cmd_play(args: argparse.Namespace) -> int:
    if getattr(args, "load", None):
        game, _meta = _load(args.load)
    else:
        seed = args.seed if args.seed is not None else random.randrange(2**31)
        game = Game(GameSetup.default(players=args.players, seed=seed, first_game=args.first_game))
    saves = Path(args.saves) if args.saves else default_saves_dir()
    _out(_("Pipeline, seed {seed}. Type 'help' for commands.").format(seed=game.setup.seed))
    return _HotSeat(game, saves).run(sys.stdin)


# --- arena ------------------------------------------------------------------------------------


def cmd_arena(args: argparse.Namespace) -> int:
    from .ai import bot_kind
    from .ai.arena import economy_report, report, run_games, summarise

    try:
        bots = [bot_kind(b) for b in args.bots.split(",")]
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if args.round_robin:
        return _round_robin(args, bots)
    if len(bots) > args.players:
        bots_named = ngettext("{n} bot", "{n} bots", len(bots)).format(n=len(bots))
        seats = ngettext("{n} seat", "{n} seats", args.players).format(n=args.players)
        raise CliError(_("{bots} named for {seats}").format(bots=bots_named, seats=seats))
    started = time.perf_counter()
    records = run_games(
        bots,
        args.players,
        args.games,
        args.seed,
        jobs=args.jobs,
        seconds=args.seconds,
        samples=args.samples,
        edition=args.edition,
    )
    _out(
        _(
            "arena: {players}, {games}, seeds {first}-{last}, bots {bots} (seats rotate each game), "
            "component edition {edition}"
        ).format(
            players=_players(args.players),
            games=_games(args.games),
            first=args.seed,
            last=args.seed + args.games - 1,
            bots=", ".join(bots),
            edition=args.edition,
        )
    )
    for line in report(summarise(records)):
        _out(line)
    _out()
    for line in economy_report(records):
        _out(line)
    if args.balance:
        from .ai.balance import balance_report

        _out()
        for line in balance_report(records):
            _out(line)
    _out(_("total time {seconds} s").format(seconds=f"{time.perf_counter() - started:.1f}"))
    return 0


def _round_robin(args: argparse.Namespace, bots: list[str]) -> int:
    from .ai.arena import economy_report, ladder_report, round_robin

    if args.players != 2:
        raise CliError(_("--round-robin plays 2-player games (leave out --players or give 2)"))
    if args.balance:
        raise CliError(_("--balance reports one arena, not a round robin"))
    if len(set(bots)) != len(bots) or len(bots) < 2:
        raise CliError(_("--round-robin needs at least 2 different bots, each named once"))
    started = time.perf_counter()
    pairings = round_robin(
        bots,
        args.games,
        args.seed,
        jobs=args.jobs,
        seconds=args.seconds,
        samples=args.samples,
        edition=args.edition,
    )
    _out(
        _(
            "round robin: 2 players, {games} a pairing, seeds {first}-{last}, bots {bots} "
            "(seats rotate each game), component edition {edition}"
        ).format(
            games=_games(args.games),
            first=args.seed,
            last=args.seed + args.games - 1,
            bots=", ".join(bots),
            edition=args.edition,
        )
    )
    for line in ladder_report(pairings):
        _out(line)
    _out()
    for line in economy_report([r for p in pairings for r in p.records]):
        _out(line)
    _out(_("total time {seconds} s").format(seconds=f"{time.perf_counter() - started:.1f}"))
    return 0


# --- parser and main ----------------------------------------------------------------------------


def _nonneg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("expected a whole number, not {text}").format(text=quoted(text))
        ) from None
    if value < 0:
        raise argparse.ArgumentTypeError(_("expected 0 or more, not {value}").format(value=value))
    return value


def _positive(text: str) -> int:
    value = _nonneg(text)
    if value < 1:
        raise argparse.ArgumentTypeError(_("expected 1 or more"))
    return value


def _seed(text: str) -> int:
    value = _nonneg(text)
    if value >= 2**63:
        raise argparse.ArgumentTypeError(_("a seed is below 2^63"))
    return value


# --- the Textual app ------------------------------------------------------------------------------


def _interactive() -> bool:
    """Whether both ends are a terminal, which the Textual app needs, or the app is one that
    `pipeline-tui web` serves (textual-serve's web driver talks to the browser over pipes)."""
    if os.environ.get("TEXTUAL_DRIVER") == "textual.drivers.web_driver:WebDriver":
        return True
    return sys.stdin.isatty() and sys.stdout.isatty()


def _open_app(args: argparse.Namespace, mode: str, **options: Any) -> int:
    if not _interactive():
        raise CliError(
            _("'{command}' needs a terminal; `{prog} play` is a plain-text game").format(
                command=args.command, prog=PROG
            )
        )
    from .ui import run_app

    run_app(mode=mode, saves_dir=args.saves, mouse=not args.no_mouse, **options)
    return 0


def cmd_components(args: argparse.Namespace) -> int:
    """Every component table with its source, as text or JSON (``data.reference``)."""
    if args.json:
        _out(_in_english(lambda: reference_json(args.edition).decode()))
    else:
        _out(render_components_text(reference(args.edition)), end="")
    return 0


def cmd_title(args: argparse.Namespace) -> int:
    return _open_app(args, "title")


def cmd_new(args: argparse.Namespace) -> int:
    """The app on a new game: the form, or with ``--players`` or ``--bots`` straight to the
    table (``--bots LEVEL``: every seat after the first is a computer player of that level)."""
    bots = None
    if args.bots is not None:
        from . import ai

        try:
            bots = ai.bot_kind(args.bots)
        except ValueError as exc:
            raise CliError(str(exc)) from None
    players = args.players if args.players is not None or bots is None else 2
    return _open_app(args, "new", players=players, seed=args.seed, first_game=args.first_game, bots=bots)


def cmd_load(args: argparse.Namespace) -> int:
    _load(args.file)  # a broken save is reported here in one line, before the app starts
    return _open_app(args, "load", file=args.file)


def cmd_web(args: argparse.Namespace) -> int:
    from .serve import web

    saves = (Path(args.saves).expanduser() if args.saves else default_saves_dir()).absolute()
    try:
        web.serve(
            args.host,
            args.port,
            saves,
            announce=lambda url: _out(
                _("{prog} web: open {url} in a browser (saves in {saves}; Ctrl+C stops)").format(
                    prog=PROG, url=url, saves=saves
                )
            ),
            language=current_language(),
        )
    except OSError as exc:
        raise CliError(web.bind_error(exc, args.host, args.port)) from None
    _out(_("{prog} web: stopped").format(prog=PROG))
    return 0


def _port(text: str, lowest: int = 1) -> int:
    value = _nonneg(text)
    if not lowest <= value <= 65535:
        raise argparse.ArgumentTypeError(
            _("a port is {lowest} to 65535, not {value}").format(lowest=lowest, value=value)
        )
    return value


def cmd_serve(args: argparse.Namespace) -> int:
    from .serve import ssh  # asyncssh loads only for serve

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
    return _port(text, lowest=0)


def _app_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--saves", metavar="DIR", help=_("saves folder (default $PIPELINE_TUI_SAVES or ./saves)"))
    p.add_argument("--no-mouse", action="store_true", help=_("keyboard only"))


def _language_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang",
        metavar="|".join(LANGUAGES),
        help=_("the language, with any command (else $PIPELINE_TUI_LANG, the remembered choice, the locale)"),
    )


def _choose_language(argv: list[str]) -> list[str]:
    """Speak the language asked for (``--lang`` anywhere on the line, docs/translating.md) and
    return the arguments without that option; LanguageError names a language not spoken."""
    picker = _Parser(prog=PROG, add_help=False, allow_abbrev=False)
    _language_option(picker)
    options, rest = picker.parse_known_args(argv)
    set_language(choose_language(options.lang, os.environ, remembered_language()))
    return rest


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description=_("The board game Pipeline in the terminal."))
    parser.add_argument(
        "--version",
        action="version",
        version=f"{PROG} {__version__}",
        help=_("show program's version number and exit"),
    )
    _language_option(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("title", help=_("the title screen (the default in a terminal)"))
    _app_options(p)
    p.set_defaults(func=cmd_title)

    p = sub.add_parser("new", help=_("start a new game in the app"))
    p.add_argument(
        "--players",
        type=int,
        choices=(2, 3, 4),
        default=None,
        help=_("start at once with N seats (otherwise the new-game screen)"),
    )
    p.add_argument("--seed", type=_seed, default=None, help=_("the setup seed (random if omitted)"))
    p.add_argument("--first-game", action="store_true", help=_("the rulebook's first-game setup"))
    p.add_argument(
        "--bots",
        metavar="LEVEL",
        default=None,
        help=_("every seat after yours is a computer player: easy, normal, hard or expert"),
    )
    _app_options(p)
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("load", help=_("continue a saved game in the app"))
    p.add_argument("file", metavar="FILE")
    _app_options(p)
    p.set_defaults(func=cmd_load)

    p = sub.add_parser("play", help=_("a plain-text hot-seat game (the default without a terminal)"))
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    p.add_argument("--seed", type=_seed, default=None, help=_("the setup seed (random if omitted)"))
    p.add_argument("--first-game", action="store_true", help=_("the rulebook's first-game setup"))
    p.add_argument("--saves", metavar="DIR", help=_("saves folder (default $PIPELINE_TUI_SAVES or ./saves)"))
    p.add_argument("--load", metavar="FILE", help=_("continue a saved game"))
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("simulate", help=_("play seeded games of random legal moves headless"))
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    p.add_argument("--games", type=_positive, default=1)
    p.add_argument("--seed", type=_seed, default=0, help=_("game i uses seed S+i"))
    p.add_argument("--out", metavar="DIR", help=_("write one save per game into DIR"))
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("arena", help=_("seeded games between bots: win rates, scores, speed"))
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    p.add_argument("--games", type=_positive, default=10)
    p.add_argument("--seed", type=_seed, default=0, help=_("game i uses seed S+i"))
    p.add_argument(
        "--bots",
        default="heuristic,random",
        help=_(
            "one bot per seat, cycled to fill the seats: easy (random), normal (heuristic), hard (search), "
            "expert"
        ),
    )
    p.add_argument("--jobs", type=_positive, default=1, help=_("processes to play in (at most 2 is wise)"))
    p.add_argument("--seconds", type=float, default=None, help=_("search and expert bots: time per turn"))
    p.add_argument(
        "--samples",
        type=_positive,
        default=None,
        help=_("search and expert bots: rollouts per turn (reproducible, instead of --seconds)"),
    )
    p.add_argument(
        "--balance",
        action="store_true",
        help=_("also what winners do, score spread and each plan's win rate"),
    )
    p.add_argument(
        "--edition",
        type=int,
        choices=EDITIONS,
        default=PRINTED_EDITION,
        help=_("component edition: 2 printed (default), 1 our earlier design"),
    )
    p.add_argument(
        "--round-robin",
        action="store_true",
        help=_(
            "the ladder: every pair of --bots plays --games 2-player games; win rate "
            "per pairing, a Bradley-Terry rating per bot (docs/bots.md)"
        ),
    )
    p.set_defaults(func=cmd_arena)

    p = sub.add_parser("replay", help=_("step through a save in the app, or print its table after a move"))
    p.add_argument("file", metavar="FILE")
    p.add_argument("--to", type=_nonneg, default=None, metavar="N", help=_("after move N (default: last)"))
    p.add_argument("--json", action="store_true", help=_("the public view and the move log as JSON"))
    p.add_argument("--text", action="store_true", help=_("print as text even in a terminal"))
    _app_options(p)
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("web", help=_("serve the app to browsers (each tab its own game)"))
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help=_("address to listen on (default 127.0.0.1; 0.0.0.0 for other machines)"),
    )
    p.add_argument("--port", type=_port, default=8000, help=_("default 8000"))
    p.add_argument("--saves", metavar="DIR", help=_("saves folder (default $PIPELINE_TUI_SAVES or ./saves)"))
    p.set_defaults(func=cmd_web)

    p = sub.add_parser("check", help=_("verify a save file replays"))
    p.add_argument("file", metavar="FILE")
    p.set_defaults(func=cmd_check)

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

    p = sub.add_parser(
        "components",
        help=_(
            "every component table (Contracts, Orders, markets, shops, upgrades, valuation) with its source"
        ),
    )
    p.add_argument("--json", action="store_true", help=_("as JSON, for tools"))
    p.add_argument(
        "--edition",
        type=int,
        choices=EDITIONS,
        default=LATEST_EDITION,
        help=_("component edition (default {edition}, the one new games use)").format(edition=LATEST_EDITION),
    )
    p.set_defaults(func=cmd_components)

    p = sub.add_parser("saves", help=_("list the saves in a folder, broken ones included"))
    p.add_argument("dir", metavar="DIR", nargs="?", help=_("default $PIPELINE_TUI_SAVES or ./saves"))
    p.set_defaults(func=cmd_saves)
    return parser


COMMANDS = (
    "title",
    "new",
    "load",
    "play",
    "simulate",
    "replay",
    "check",
    "saves",
    "arena",
    "web",
    "serve",
    "components",
)


def _run(argv: Sequence[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        argv = _choose_language(argv)
    except LanguageError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    if argv and not argv[0].startswith("-") and argv[0] not in COMMANDS:
        said = _("{prog}: unknown command {name} (one of {commands})").format(
            prog=PROG, name=quoted(argv[0]), commands=", ".join(COMMANDS)
        )
        print(said, file=sys.stderr)
        return 2
    if not argv or (argv[0] not in COMMANDS and argv[0] not in ("-h", "--help", "--version")):
        # no command: the app in a terminal, else the plain-text game (options go to either)
        argv = ["title" if _interactive() else "play", *argv]
    args = build_parser().parse_args(argv)
    command: Callable[[argparse.Namespace], int] = args.func
    return command(args)


def _settle_heap() -> None:
    """Move everything loaded at start-up out of the garbage collector's way, so a full
    collection never walks it again (it otherwise pauses play for milliseconds, mid-undo say)."""
    gc.collect()
    gc.freeze()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    _settle_heap()
    try:
        return _run(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except KeyboardInterrupt:
        _out()
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
