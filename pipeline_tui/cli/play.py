"""``pipeline-tui play``: a plain-text hot-seat game on stdin and stdout (the default without a
terminal). The game itself is ``hotseat``, imported when it starts."""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..i18n import _
from ..storage import default_saves_dir
from . import common
from .common import out

if TYPE_CHECKING:
    from .common import Subparsers


def cmd_play(args: argparse.Namespace) -> int:
    from ..engine import Game, GameSetup
    from .hotseat import HotSeat

    if getattr(args, "load", None):
        game, _meta = common.load(args.load)
    else:
        seed = args.seed if args.seed is not None else random.randrange(2**31)
        setup = GameSetup.default(
            players=args.players, seed=seed, first_game=args.first_game, clock=common.clock_setting(args)
        )
        game = Game(setup)
    saves = Path(args.saves) if args.saves else default_saves_dir()
    common.settle_heap()
    out(_("Pipeline, seed {seed}. Type 'help' for commands.").format(seed=game.setup.seed))
    return HotSeat(game, saves).run(sys.stdin)


COMMANDS = ("play",)
"""The commands ``register`` adds, in its order (tests/test_cli.py holds them equal)."""


def register(sub: Subparsers) -> None:
    p = sub.add_parser("play", help=_("a plain-text hot-seat game (the default without a terminal)"))
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    p.add_argument("--seed", type=common.seed, default=None, help=_("the setup seed (random if omitted)"))
    p.add_argument("--first-game", action="store_true", help=_("the rulebook's first-game setup"))
    p.add_argument("--saves", metavar="DIR", help=_("saves folder (default $PIPELINE_TUI_SAVES or ./saves)"))
    p.add_argument("--load", metavar="FILE", help=_("continue a saved game"))
    common.clock_options(p)
    p.set_defaults(func=cmd_play)
