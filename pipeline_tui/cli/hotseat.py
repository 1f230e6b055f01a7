"""The plain-text hot-seat game of ``pipeline-tui play`` (cli/play.py) on stdin and stdout:
the table as text, moves by number or notation, undo, saves and the clock. Imported when the
game starts, so that building the command line loads no engine (issue 38, point 3)."""

from __future__ import annotations

import enum
import queue
import threading
from pathlib import Path
from typing import Callable, TextIO

from ..engine.clock import FlagRule, GameTime, format_clock, format_duration
from ..engine.errors import IllegalMove, NotationError
from ..engine.game import Game
from ..engine.moves import Move, format_move, parse_move
from ..i18n import N_, _
from ..storage import SaveError, autosave, save_game
from ..text import refusal, render_scores, render_state
from .common import out

HELP = N_("""Commands: a move number, a move in notation (like 'act crude' or 'buy C-OC#3'),
  undo, redo, moves (show the table and moves again), save FILE, help, quit.
  'save NAME' without a folder writes NAME.json into the saves folder.""")
"""The plain-text game's commands; the command words and the notation are the same in every
language, the explanation is translated where it is printed."""

CLOCK_HELP = N_("""The clock: each prompt shows the mover's time. A turn's time runs from the end
  of the turn before it to your 'end'; undo gives back no time. When a seat's time runs out,
  the computer (normal) plays that seat until a player types 'back' (the seat's next turn
  then starts with the whole setting again), or, with --on-timeout end, the game ends with
  the scores as they stand. A closed game's clocks stand still.""")


class _Timeout(enum.Enum):
    """The mover's time ran out while the prompt waited."""

    TIMEOUT = enum.auto()


TIMEOUT = _Timeout.TIMEOUT
Lines = Callable[[float | None], "str | None | _Timeout"]
"""The next input line, waiting at most so many seconds (None: for ever); None at the end of
the input, TIMEOUT when the wait ran out."""


def _lines(stdin: TextIO, clocked: bool) -> Lines:
    """Lines of ``stdin``. A clocked game reads them in a thread of their own, so a prompt can
    stop waiting when the mover's time runs out (a line typed later is the next prompt's)."""
    if not clocked:
        return lambda _seconds: _line(stdin.readline())
    waiting: queue.Queue[str | None] = queue.Queue()

    def reader() -> None:
        while True:
            line = _line(stdin.readline())
            waiting.put(line)
            if line is None:
                return

    threading.Thread(target=reader, name="play-input", daemon=True).start()

    def get(seconds: float | None) -> str | None | _Timeout:
        try:
            return waiting.get(timeout=seconds)
        except queue.Empty:
            return TIMEOUT

    return get


def _line(text: str) -> str | None:
    return None if text == "" else text.strip()


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


class HotSeat:
    """The plain-text game loop on stdin/stdout."""

    def __init__(self, game: Game, saves: Path, lines: Lines | None = None) -> None:
        self.game = game
        self.saves = saves
        self.autosaved: Path | None = None
        self.written: list[Move] | None = None  # the moves last autosaved
        self.lines = lines
        self.away: set[int] = set()  # seats whose time ran out: the computer plays them
        if game.setup.clock is not None:
            if game.timer is None:
                game.timer = GameTime(game.now())
            game.timer.resume()

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
            self.show_clocks()
        out(_("Legal moves:"))
        out(_move_columns(self.game.legal_moves()))

    def show_clocks(self) -> None:
        """One line: the setting and every seat's time, the running one marked."""
        setting, clock = self.game.setup.clock, self.game.clock()
        if setting is None or clock is None:
            return
        seats = []
        for seat, player in enumerate(self.game.setup.players):
            time = format_duration(clock.remaining[seat])
            if seat == clock.running:
                seats.append(_("{name} {time} (running)").format(name=player.name, time=time))
            else:
                seats.append(f"{player.name} {time}")
        out(_("Clock {setting}: {seats}").format(setting=format_clock(setting), seats=", ".join(seats)))

    def read(self, lines: Lines) -> str | None | _Timeout:
        """Prompt the mover (with their time, in a clocked game) and wait for a line; in a
        clocked game no longer than the mover's time."""
        game = self.game
        seat = game.current_player
        name = game.state.players[seat].name
        clock = game.clock()
        if clock is None or clock.deadline is None or game.timer is None:
            out(f"{name}> ", end="")
            return lines(None)
        out(f"{name} ({format_duration(clock.remaining[seat])})> ", end="")
        return lines(game.timer.seconds_until(clock.deadline))

    def stop_clock(self) -> None:
        """The game is left: its clocks stop, and a clocked game that has moves is autosaved
        with its time, so opening it again charges the time spent until now and no more."""
        timer = self.game.timer
        if timer is None:
            return
        timer.pause()
        if self.game.moves:
            self.autosave()

    def timed_out(self) -> bool:
        """The mover's time ran out: everyone is told, and the rule chosen at setup applies.
        True if the game ends there."""
        game = self.game
        seat = game.current_player
        name = game.setup.players[seat].name
        setting = game.setup.clock
        out("\n" + _("{name}'s time ran out").format(name=name))
        if setting is not None and setting.on_flag == FlagRule.END:
            out(_("the game ends with the scores as they stand"))
            return True
        out(_("the computer plays {name}'s seat until a player types 'back'").format(name=name))
        self.away.add(seat)
        return False

    def computer_turn(self) -> None:
        """The computer (normal) plays the rest of the turn of a seat whose time ran out."""
        from ..ai import make_bot

        game = self.game
        seat = game.current_player
        bot = make_bot("heuristic", seed=game.setup.seed)
        name = game.setup.players[seat].name
        while not game.is_over() and game.current_player == seat:
            move = bot.choose(game.clone())
            game.apply(move)
            out(_("{name} (computer): {move}").format(name=name, move=format_move(move)))
            if game.turn_start() == len(game.moves):
                break
        self.autosave()

    def run(self, stdin: TextIO) -> int:
        lines = self.lines or _lines(stdin, self.game.setup.clock is not None)
        table = True
        while not self.game.is_over():
            if self.game.current_player in self.away:
                self.computer_turn()
                table = True
                continue
            self.show(table)
            table = False
            while True:
                line = self.read(lines)
                if line is TIMEOUT:
                    if self.timed_out():
                        out(render_state(self.game.state, self.game.setup))
                        out(render_scores(self.game.scores()), end="")
                        return 0
                    table = True
                    break
                if line is None:
                    self.stop_clock()
                    if self.autosaved:
                        out("\n" + _("end of input; autosaved to {path}").format(path=self.autosaved))
                    else:
                        out("\n" + _("end of input"))
                    return 0
                result = self.command(line)
                if result == "quit":
                    self.stop_clock()
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
            if game.setup.clock is not None:
                out(_(CLOCK_HELP))
            return ""
        if word == "back" and game.setup.clock is not None:
            if not self.away:
                out(_("no seat is played by the computer"))
                return ""
            names = ", ".join(game.setup.players[seat].name for seat in sorted(self.away))
            self.away.clear()
            out(_("{names}: back from the computer").format(names=names))
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
            out("".join(refusal(str(exc), _("illegal: "), _("illegal: {area}: "))))
            return ""
        out(f"{game.setup.players[before].name}: {format_move(move)}")
        self.autosave()
        return "table" if game.current_player != before or game.is_over() else "moved"
