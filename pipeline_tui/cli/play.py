"""``pipeline-tui play``: a plain-text hot-seat game on stdin and stdout (the default without a
terminal)."""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..engine.errors import IllegalMove, NotationError
from ..engine.game import Game
from ..engine.moves import Move, format_move, parse_move
from ..engine.setup import GameSetup
from ..i18n import N_, _
from ..storage import SaveError, autosave, default_saves_dir, save_game
from ..text import render_scores, render_state
from . import common
from .common import out

if TYPE_CHECKING:
    from .common import Subparsers

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
            out(_("autosave failed: {error}").format(error=exc))
            return
        base = base or f"autosave-{self.game.setup.seed}.json"
        if path.name != base:
            out(
                _(
                    "{file} holds another game or a later point of this one and is kept; autosaving to {path}"
                ).format(file=base, path=path)
            )
        self.autosaved = path
        self.written = list(self.game.moves)

    def show(self, table: bool) -> None:
        if table:
            out(render_state(self.game.state, self.game.setup))
        out(_("Legal moves:"))
        out(_move_columns(self.game.legal_moves()))

    def read(self, stdin: TextIO) -> str | None:
        name = self.game.state.players[self.game.current_player].name
        out(f"{name}> ", end="")
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
                        out("\n" + _("end of input; autosaved to {path}").format(path=self.autosaved))
                    else:
                        out("\n" + _("end of input"))
                    return 0
                result = self.command(line)
                if result == "quit":
                    if self.autosaved:
                        out(_("game left; autosaved to {path}").format(path=self.autosaved))
                    else:
                        out(_("game left"))
                    return 0
                if result in ("moved", "table"):
                    table = result == "table"
                    break
        out(render_state(self.game.state, self.game.setup))
        out(render_scores(self.game.scores()), end="")
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
            out(_(HELP))
            return ""
        if word in ("moves", "table", "show"):
            return "table"
        if word in ("undo", "redo"):
            done = game.undo() if word == "undo" else game.redo()
            if done is None:
                out(_("nothing to undo") if word == "undo" else _("nothing to redo"))
                return ""
            said = _("undo: {move}") if word == "undo" else _("redo: {move}")
            out(said.format(move=format_move(done)))
            self.autosave()
            return "table"
        if word == "save":
            if not rest.strip():
                out(_("save needs a file name, like 'save mygame'"))
                return ""
            try:
                path = _save_target(rest.strip(), self.saves)
                save_game(game, path)
            except (SaveError, OSError) as exc:
                out(_("not saved: {error}").format(error=exc))
                return ""
            out(_("saved to {path}").format(path=path))
            return ""
        legal = game.legal_moves()
        if line.isdigit():
            number = int(line)
            if not 1 <= number <= len(legal):
                out(_("no move {number}: choose 1 to {count}").format(number=number, count=len(legal)))
                return ""
            move = legal[number - 1]
        else:
            try:
                move = parse_move(line)
            except NotationError as exc:
                out(_("not understood: {error} (type 'help')").format(error=exc))
                return ""
        before = game.current_player
        try:
            game.apply(move)
        except IllegalMove as exc:
            out(_("illegal: {reason}").format(reason=exc))
            return ""
        out(f"{game.setup.players[before].name}: {format_move(move)}")
        self.autosave()
        return "table" if game.current_player != before or game.is_over() else "moved"


def cmd_play(args: argparse.Namespace) -> int:
    if getattr(args, "load", None):
        game, _meta = common.load(args.load)
    else:
        seed = args.seed if args.seed is not None else random.randrange(2**31)
        game = Game(GameSetup.default(players=args.players, seed=seed, first_game=args.first_game))
    saves = Path(args.saves) if args.saves else default_saves_dir()
    out(_("Pipeline, seed {seed}. Type 'help' for commands.").format(seed=game.setup.seed))
    return _HotSeat(game, saves).run(sys.stdin)


def register(sub: Subparsers) -> None:
    p = sub.add_parser("play", help=_("a plain-text hot-seat game (the default without a terminal)"))
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    p.add_argument("--seed", type=common.seed, default=None, help=_("the setup seed (random if omitted)"))
    p.add_argument("--first-game", action="store_true", help=_("the rulebook's first-game setup"))
    p.add_argument("--saves", metavar="DIR", help=_("saves folder (default $PIPELINE_TUI_SAVES or ./saves)"))
    p.add_argument("--load", metavar="FILE", help=_("continue a saved game"))
    p.set_defaults(func=cmd_play)
