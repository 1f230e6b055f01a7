"""The replay viewer: step through a saved game move by move or jump by Year and Round;
"play from here" forks it."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.widgets import Input

from .. import storage
from ..engine import Game, format_move
from .network_panel import NetworkPanel
from .style import seat_style
from .table_screen import TableScreen
from .widgets import Choice, MoveList


class ReplayScreen(TableScreen):
    """The table as it stood after move ``position`` of a finished or saved game."""

    LIVE = False
    MOVES_TITLE = "Replay: moves"

    # The footer shows the main keys and the hint all of them, so the footer fits 80 columns
    # without cutting a word.
    BINDINGS = [
        Binding("left", "step(-1)", "Step", key_display="←→", priority=True),
        Binding("right", "step(1)", "Forward", show=False, priority=True),
        Binding("home", "jump(0)", "Start", show=False, priority=True),
        Binding("end", "jump(-1)", "End", show=False, priority=True),
        Binding("y", "round(1, True)", "Next Year", show=False),
        Binding("r", "round(1, False)", "Next Round", show=False),
        Binding("Y", "round(-1, True)", "Year back", show=False),
        Binding("R", "round(-1, False)", "Round back", show=False),
        Binding("p", "play_from_here", "Play on"),
    ]

    def __init__(self, game: Game, colours: list[str] | None = None) -> None:
        super().__init__(game, saves_dir=storage.default_saves_dir(), colours=colours)
        self.position = 0
        self.rounds = game.round_starts()

    def prepare(self) -> None:
        self.saves_dir = self.app.saves_dir
        self.query_one("#prompt", Input).display = False

    def check_action(self, action: str, parameters) -> bool | None:
        if action in ("undo", "redo", "prompt", "save_as"):
            return False
        return True

    def autosave(self) -> None:
        """A replay writes nothing: the file it shows stays as it is."""

    def bot_kind(self) -> str | None:
        """Nobody plays in the replay viewer, computer seats included."""
        return None

    def current_state(self):
        return self.game.state_at(self.position)

    def moves_shown(self) -> int:
        return self.position

    def _refresh_ghost(self) -> None:
        state = self.current_state()
        self.query_one(NetworkPanel).show(state.players[self.shown_seat], None, state=state)

    def _refresh_moves(self) -> None:
        option_list = self.query_one("#moves", MoveList)
        options = [Choice(Text("Start of the game", style="bold"), id="p0")]
        players = self.game.setup.players
        for i, (move, seat) in enumerate((e.move, e.seat) for e in self.game.entries):
            line = Text(f"{i + 1:>4} ")
            line.append(f"{players[seat].name[:8]:<8}", style=seat_style(self.colours, seat))
            line.append(f" {format_move(move)}")
            options.append(Choice(line, id=f"p{i + 1}"))
        option_list.set_options(options)
        option_list.highlighted = self.position
        option_list.border_subtitle = f"move {self.position} of {len(self.game.moves)}"

    def _refresh_hint(self, move=None) -> None:
        text = Text(f"Replay: move {self.position} of {len(self.game.moves)}\n", style="bold")
        if self.position:
            text.append(format_move(self.game.moves[self.position - 1]) + "\n")
        state = self.current_state()
        text.append(f"Year {state.year} Round {state.round}\n")
        text.append("left/right step, home/end jump, y/r next Year/Round (Y/R back), "
                    "p plays on from here", style="dim")
        self._set("hint", text)

    def option_chosen(self, option_id: str) -> None:
        self.action_jump(int(option_id[1:]))

    def option_highlighted(self, option_id: str) -> None:
        """Highlighting alone does not move the replay; enter or a click does."""

    def action_step(self, delta: int) -> None:
        self.action_jump(max(0, min(len(self.game.moves), self.position + delta)))

    def action_jump(self, position: int) -> None:
        self.position = len(self.game.moves) if position < 0 else position
        self.refresh_table()

    def action_round(self, direction: int, year: bool) -> None:
        """Jump to the first move of the next (or previous) Round, or Year."""
        starts = [n for n, _, r in self.rounds if r == 1 or not year]
        if direction > 0:
            target = next((n for n in starts if n > self.position), None)
        else:
            target = next((n for n in reversed(starts) if n < self.position), None)
        if target is None:
            self.notify(f"No {'later' if direction > 0 else 'earlier'} "
                        f"{'Year' if year else 'Round'} in this game.")
            return
        self.action_jump(target)

    def action_play_from_here(self) -> None:
        fork = Game(self.game.setup, self.game.moves[: self.position])
        name = f"{storage.AUTOSAVE_PREFIX}{fork.setup.seed}-from-{self.position}.json"
        self.app.pop_screen()
        self.app.push_screen(TableScreen(fork, self.app.saves_dir, save_name=name,
                                         colours=self.colours))
