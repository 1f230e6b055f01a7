"""The headless commands on games and saves: ``simulate`` (seeded random games), ``replay``
(the app, or the table after a move as text or JSON), ``check`` (a save replays), ``saves``
(a folder's saves) and ``components`` (every component table with its source)."""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ..data import EDITIONS, PRINTED_EDITION
from ..i18n import _, ngettext
from ..storage import SaveError, default_saves_dir
from . import common
from .common import PROG, CliError, out

if TYPE_CHECKING:
    from ..engine import Game
    from .common import Subparsers

# The engine, the saves' replay, the text table and the component reference are imported by
# the command that uses them: building the parser loads none (issue 38, point 3: cold start).

MOVE_LIMIT = 100_000  # a random game far longer than this means the engine loops


def _summary(game: Game) -> str:
    names = ", ".join(p.name for p in game.setup.players)
    moves = len(game.moves)
    text = _("{players} ({names}), {moves}, Year {year} Round {round}").format(
        players=common.players(len(game.setup.players)),
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


# --- simulate ---------------------------------------------------------------------------------


def random_game(players: int, seed: int) -> Game:
    """A game of uniformly random legal moves; the move choice is seeded by the game seed."""
    from ..engine import Game, GameSetup

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
    from ..storage import save_game

    folder = Path(args.out) if args.out else None
    if folder is not None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            reason = exc.strerror or exc
            raise CliError(
                _("{folder}: cannot create the folder ({reason})").format(folder=folder, reason=reason)
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
        out(line.format(seed=seed, name=winner.name, scores=listed, n=moves))
        if folder is not None:
            save_game(game, folder / f"sim-{seed}-{args.players}p.json")
    elapsed = time.perf_counter() - start
    out(_("{games} in {seconds} s").format(games=common.games(args.games), seconds=f"{elapsed:.2f}"))
    return 0


# --- replay, check, saves ---------------------------------------------------------------------


def cmd_replay(args: argparse.Namespace) -> int:
    import msgspec

    from ..engine import format_move, public_view
    from ..text import render_scores, render_state

    game, _meta = common.load(args.file)
    if args.to is None and not (args.json or args.text) and common.interactive():
        return common.open_app(args, "replay", file=args.file)
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
        out(common.in_english(lambda: msgspec.json.format(msgspec.json.encode(doc), indent=2).decode()))
        return 0
    if at:
        out(
            _("After move {at} of {total}: {move}").format(
                at=at, total=total, move=format_move(game.moves[at - 1])
            )
        )
    else:
        out(_("After move {at} of {total} (the table after setup)").format(at=at, total=total))
    out()
    out(render_state(state, game.setup), end="")
    if at == total and game.is_over():
        out()
        out(render_scores(game.scores()), end="")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    name = Path(args.file).name
    try:
        game, meta = common.load(args.file)
    except SaveError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 1
    from ..storage import game_meta

    facts = game_meta(game)
    for key, value in facts.items():
        if key != "app_version" and key in meta and meta[key] != value:
            said = _("{prog}: {file}: meta says {key} is {given} but the log gives {value}").format(
                prog=PROG, file=name, key=key, given=repr(meta[key]), value=repr(value)
            )
            print(said, file=sys.stderr)
            return 1
    out(_("ok: {file}: {summary}").format(file=name, summary=_summary(game)))
    return 0


def cmd_saves(args: argparse.Namespace) -> int:
    from ..storage import list_saves

    directory = Path(args.dir) if args.dir else default_saves_dir()
    infos = list_saves(directory)
    if not infos:
        out(_("no saves in {folder}").format(folder=directory))
        return 0
    for info in infos:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(info.modified))
        if info.error:
            out(_("{when}  {file}  BROKEN: {error}").format(when=when, file=info.path.name, error=info.error))
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
        out(
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


def cmd_components(args: argparse.Namespace) -> int:
    """Every component table with its source, as text or JSON (``data.reference``)."""
    from ..data.reference import reference, reference_json
    from ..text import render_components_text

    if args.json:
        out(common.in_english(lambda: reference_json(args.edition).decode()))
    else:
        out(render_components_text(reference(args.edition)), end="")
    return 0


COMMANDS = ("simulate", "replay", "check", "saves", "components")
"""The commands ``register`` adds, in its order (tests/test_cli.py holds them equal)."""


def register(sub: Subparsers) -> None:
    p = sub.add_parser("simulate", help=_("play seeded games of random legal moves headless"))
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    p.add_argument("--games", type=common.positive, default=1)
    p.add_argument("--seed", type=common.seed, default=0, help=_("game i uses seed S+i"))
    p.add_argument("--out", metavar="DIR", help=_("write one save per game into DIR"))
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("replay", help=_("step through a save in the app, or print its table after a move"))
    p.add_argument("file", metavar="FILE")
    p.add_argument(
        "--to", type=common.nonneg, default=None, metavar="N", help=_("after move N (default: last)")
    )
    p.add_argument("--json", action="store_true", help=_("the public view and the move log as JSON"))
    p.add_argument("--text", action="store_true", help=_("print as text even in a terminal"))
    common.app_options(p)
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("check", help=_("verify a save file replays"))
    p.add_argument("file", metavar="FILE")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("saves", help=_("list the saves in a folder, broken ones included"))
    p.add_argument("dir", metavar="DIR", nargs="?", help=_("default $PIPELINE_TUI_SAVES or ./saves"))
    p.set_defaults(func=cmd_saves)

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
        default=PRINTED_EDITION,
        help=_("component edition (default {edition}, the one new games use)").format(
            edition=PRINTED_EDITION
        ),
    )
    p.set_defaults(func=cmd_components)
