"""``pipeline-tui arena``: seeded games between bots, one arena or a round robin (the ladder,
docs/bots.md). The ai's arena loads only for this command."""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING

from ..data import EDITIONS, PRINTED_EDITION
from ..i18n import _, ngettext
from . import common
from .common import CliError, out

if TYPE_CHECKING:
    from .common import Subparsers


def cmd_arena(args: argparse.Namespace) -> int:
    from ..ai import bot_kind
    from ..ai.arena import economy_report, report, run_games, summarise

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
    out(
        _(
            "arena: {players}, {games}, seeds {first}-{last}, bots {bots} (seats rotate each game), "
            "component edition {edition}"
        ).format(
            players=common.players(args.players),
            games=common.games(args.games),
            first=args.seed,
            last=args.seed + args.games - 1,
            bots=", ".join(bots),
            edition=args.edition,
        )
    )
    for line in report(summarise(records)):
        out(line)
    out()
    for line in economy_report(records):
        out(line)
    if args.balance:
        from ..ai.balance import balance_report

        out()
        for line in balance_report(records):
            out(line)
    out(_("total time {seconds} s").format(seconds=f"{time.perf_counter() - started:.1f}"))
    return 0


def _round_robin(args: argparse.Namespace, bots: list[str]) -> int:
    from ..ai.arena import economy_report, ladder_report, round_robin

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
    out(
        _(
            "round robin: 2 players, {games} a pairing, seeds {first}-{last}, bots {bots} "
            "(seats rotate each game), component edition {edition}"
        ).format(
            games=common.games(args.games),
            first=args.seed,
            last=args.seed + args.games - 1,
            bots=", ".join(bots),
            edition=args.edition,
        )
    )
    for line in ladder_report(pairings):
        out(line)
    out()
    for line in economy_report([r for p in pairings for r in p.records]):
        out(line)
    out(_("total time {seconds} s").format(seconds=f"{time.perf_counter() - started:.1f}"))
    return 0


COMMANDS = ("arena",)
"""The commands ``register`` adds, in its order (tests/test_cli.py holds them equal)."""


def register(sub: Subparsers) -> None:
    p = sub.add_parser("arena", help=_("seeded games between bots: win rates, scores, speed"))
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    p.add_argument("--games", type=common.positive, default=10)
    p.add_argument("--seed", type=common.seed, default=0, help=_("game i uses seed S+i"))
    p.add_argument(
        "--bots",
        default="heuristic,random",
        help=_(
            "one bot per seat, cycled to fill the seats: easy (random), normal (heuristic), hard (search), "
            "expert"
        ),
    )
    p.add_argument(
        "--jobs", type=common.positive, default=1, help=_("processes to play in (at most 2 is wise)")
    )
    p.add_argument("--seconds", type=float, default=None, help=_("search and expert bots: time per turn"))
    p.add_argument(
        "--samples",
        type=common.positive,
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
