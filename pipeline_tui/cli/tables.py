"""``pipeline-tui tables list|new|copy STORE``: look after the shared tables of a store, a
folder of table files or a ``postgresql://`` URL (issue 39, docs/deploy.md).

``copy`` replays and checks every table on the way (loading a store replays each move with the
rules' checks) and reads each copy back before it says so; a table the target already has is
left alone and named. A files store belongs to one process: use these on a folder while no
``serve`` runs on it (a PostgreSQL store may be served meanwhile)."""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..i18n import _
from .common import PROG, CliError, clock_options, clock_setting, out

if TYPE_CHECKING:
    from ..net.store import TableStore
    from ..net.tables import Table, TableService
    from .common import Subparsers

# The engine, the network layer and the bots are imported by the command that uses them:
# building the parser loads none of them (issue 38, point 3: cold start).

NAMES = ("Ada", "Bo", "Cy", "Di")  # the seats' names, as the lobby's new-table form gives them


def _open(spec: str, must_exist: bool = True) -> TableStore:
    from ..net.protocol import TableError
    from ..net.store import is_url, open_store

    if not is_url(spec) and must_exist and not Path(spec).is_dir():
        raise CliError(_("{folder}: no such folder of tables").format(folder=spec))
    try:
        return open_store(spec if is_url(spec) else Path(spec))
    except TableError as exc:
        raise CliError(exc.shown()) from None


def _still() -> float:
    """The clocks' seconds here: they stand still (looking after tables charges no one)."""
    return 0.0


def _service(store: TableStore) -> TableService:
    from ..net.protocol import TableError
    from ..net.tables import TableService

    try:
        service = TableService(store, wall=_still)
    except TableError as exc:
        store.close()
        raise CliError(exc.shown()) from None
    for problem in service.problems:
        print(_("{prog}: table skipped: {problem}").format(prog=PROG, problem=problem), file=sys.stderr)
    return service


def _line(table: Table) -> str:
    from ..ai import level_of
    from ..engine import SeatKind
    from ..net.protocol import table_name

    seats = []
    for seat, player in enumerate(table.game.setup.players):
        binding = table.bindings[seat]
        who = (
            binding.holder
            if binding
            else (_("open") if player.kind == SeatKind.HUMAN else _(level_of(player.kind)))
        )
        seats.append(f"{player.name}:{who}")
    state = table.game.state
    if table.game.is_over():
        where = _("over")
    else:
        where = _("Year {year} Round {round}").format(year=state.year, round=state.round)
    return "  ".join(
        [table.id, table_name(table.id, table.name), ",".join(seats), str(len(table.game.moves)), where]
    )


def cmd_list(args: argparse.Namespace) -> int:
    service = _service(_open(args.store))
    try:
        for info in service.list():
            out(_line(service.get(info.id)))
    finally:
        service.store.close()
    return 1 if service.problems else 0


def _kinds(text: str) -> list[str]:
    from ..ai import bot_kind
    from ..engine import SeatKind

    kinds = []
    for word in text.split(","):
        if word.strip().lower() == SeatKind.HUMAN:
            kinds.append(SeatKind.HUMAN.value)
            continue
        try:
            kinds.append(bot_kind(word))
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    if not 2 <= len(kinds) <= len(NAMES):
        raise argparse.ArgumentTypeError(_("2 to 4 seats, not {count}").format(count=len(kinds)))
    return kinds


def cmd_new(args: argparse.Namespace) -> int:
    from ..engine import GameSetup, PlayerSetup
    from ..net.protocol import TableError

    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    setup = GameSetup.default(len(args.seats), seed)
    setup = GameSetup(
        seed=seed,
        players=tuple(PlayerSetup(NAMES[i], kind) for i, kind in enumerate(args.seats)),
        edition=setup.edition,
        clock=clock_setting(args),
    )
    service = _service(_open(args.store, must_exist=False))
    try:
        table = service.create(setup, args.name, hints=args.hints)
    except TableError as exc:
        raise CliError(exc.shown()) from None
    finally:
        service.store.close()
    out(table.id)
    return 0


def cmd_copy(args: argparse.Namespace) -> int:
    from ..net.protocol import TableError

    source = _service(_open(args.source))
    failed = len(source.problems)
    target = _open(args.target, must_exist=False)
    try:
        for info in source.list():
            table = source.get(info.id)
            try:
                target.create(table.game, table.meta(), table.id)
                back = target.load(table.id)
                if (
                    back is None
                    or back.game.moves != table.game.moves
                    or back.game.setup != table.game.setup
                    or back.game.times != table.game.times
                    or back.game.now() != table.game.now()
                ):
                    raise TableError(_("the copy does not read back the same"))
            except TableError as exc:
                failed += 1
                print(
                    _("{prog}: {table} not copied: {reason}").format(
                        prog=PROG, table=table.id, reason=exc.shown()
                    ),
                    file=sys.stderr,
                )
                continue
            out(
                _("{table}: copied, {moves} moves replayed").format(
                    table=table.id, moves=len(table.game.moves)
                )
            )
    finally:
        source.store.close()
        target.close()
    return 1 if failed else 0


COMMANDS = ("tables",)
"""The commands ``register`` adds, in its order (tests/test_cli.py holds them equal)."""


def register(sub: Subparsers) -> None:
    p = sub.add_parser(
        "tables", help=_("list, make or copy the shared tables of a folder or a postgresql:// URL")
    )
    tables = p.add_subparsers(dest="tables_command", metavar="list|new|copy", required=True)
    store_help = _("a folder of table files or a postgresql:// URL")

    q = tables.add_parser("list", help=_("one line per table: id, name, seats, moves, state"))
    q.add_argument("store", metavar="STORE", help=store_help)
    q.set_defaults(func=cmd_list)

    q = tables.add_parser("new", help=_("make a table with every human seat open; prints its id"))
    q.add_argument("store", metavar="STORE", help=store_help)
    q.add_argument(
        "--seats",
        type=_kinds,
        required=True,
        metavar="KIND,KIND[,...]",
        help=_("each seat: human or a bot level (easy, normal, hard, expert)"),
    )
    q.add_argument("--name", default="", help=_("the table's name (default: none, shown as Table N)"))
    q.add_argument("--seed", type=int, default=None, help=_("the setup's seed (default: random)"))
    q.add_argument("--hints", action="store_true", help=_("the seated players may ask for a hint"))
    clock_options(q)
    q.set_defaults(func=cmd_new)

    q = tables.add_parser("copy", help=_("copy every table from one store to another, replayed and checked"))
    q.add_argument("source", metavar="FROM", help=store_help)
    q.add_argument("target", metavar="TO", help=store_help)
    q.set_defaults(func=cmd_copy)
