"""The screens around the table: new game, load, save as, scores and help (the title is
``title``)."""

from __future__ import annotations

import importlib
import random
from types import ModuleType
from typing import TYPE_CHECKING, Any
from datetime import datetime
from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import (
    Button,
    Checkbox,
    DataTable,
    Input,
    Label,
    Select,
    Static,
    TabbedContent,
    TabPane,
)

from .. import storage
from ..data.editions import PRINTED_EDITION
from ..engine import (
    ClockError,
    ClockSetting,
    FlagRule,
    Game,
    GameSetup,
    PlayerSetup,
    Score,
    SeatKind,
    format_clock,
    parse_clock,
    round_history,
)
from ..i18n import N_, _, ngettext
from .help import help_text
from .host import host
from .panels import score_label
from .style import DEFAULT_SEAT_COLOURS, SEAT_COLOURS, dollars, seat_colours
from .widgets import SteadyFooter, TickBox, TooSmall

if TYPE_CHECKING:
    from ..net.remote import RemoteGame

DEFAULT_NAMES = ("Ada", "Bo", "Cy", "Di")
PLAYER_COUNTS = (2, 3, 4)
COLOUR_LABELS = {
    "red": N_("red"),
    "blue": N_("blue"),
    "green": N_("green"),
    "magenta": N_("magenta"),
    "yellow": N_("yellow"),
}
"""The seat colours as the new-game form names them; the colour names themselves (saves,
``--colours``) stay English in every language."""


def bot_module() -> ModuleType | None:
    """``pipeline_tui.ai`` when it offers bots: ``KINDS`` (seat kinds) and
    ``make_bot(kind, seed=...)`` (a bot object with ``choose(game) -> Move``); otherwise ``None``."""
    try:
        ai = importlib.import_module("pipeline_tui.ai")
    except ImportError:
        return None
    if getattr(ai, "KINDS", None) and callable(getattr(ai, "make_bot", None)):
        return ai
    return None


def bot_kinds() -> tuple[str, ...]:
    """Computer seat kinds that can be chosen (none until the bots exist)."""
    ai = bot_module()
    if ai is None:
        return ()
    return tuple(getattr(ai, "OFFERED", ai.KINDS))


def level_name(kind: str) -> str:
    """A bot kind as players know it: its level (``heuristic`` is "normal") in the language
    spoken, or the kind itself where the bots name no levels."""
    ai = bot_module()
    return _(ai.level_of(kind)) if ai is not None and hasattr(ai, "level_of") else kind


def bot_levels() -> list[tuple[str, str, str]]:
    """Each computer seat kind as players choose it: (kind, level name, one-line description);
    a bot module without levels names its kinds as they are."""
    ai = bot_module()
    kinds = bot_kinds()
    if ai is None or not hasattr(ai, "LEVELS"):
        return [(kind, kind, "") for kind in kinds]
    return [(kind, ai.level_of(kind), ai.LEVEL_LINES[ai.KINDS.index(kind)]) for kind in kinds]


def _level_lines(levels: list[tuple[str, str, str]]) -> str:
    """The computer levels under the seats: each name padded to one column (as wide as the
    longest name in the language spoken), then what the level does."""
    names = [_("bot: {level}").format(level=_(level)) for _kind, level, _line in levels]
    width = max(map(len, names)) + 1
    return "\n".join(
        f"{name:<{width}}{_(line)}" if line else name for name, (_kind, _level, line) in zip(names, levels)
    )


def default_bot_kind() -> str | None:
    """The computer seat a new game offers first: the "normal" level when there is one, so a
    newcomer's first opponent is neither random nor the slowest."""
    ai = bot_module()
    kinds = bot_kinds()
    if not kinds:
        return None
    if ai is not None and hasattr(ai, "bot_kind"):
        try:
            kind: str | None = ai.bot_kind("normal")
        except ValueError:
            kind = None
        if kind in kinds:
            return kind
    return kinds[0]


class NewGameScreen(Screen[None]):
    """A new game in a few keys: it opens on you against one computer player, the number of
    players is a choice (2, 3 or 4), Tab and Shift+Tab reach every field, space ticks the box
    or opens a list, and Enter starts from any field (issue 14)."""

    BINDINGS = [
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("enter", "start", N_("Start"), priority=True),
    ]

    def __init__(
        self,
        seed: int | None = None,
        first_game: bool = False,
        players: int = 2,
        computers: bool = True,
        clock: ClockSetting | None = None,
    ) -> None:
        super().__init__()
        self.computers = computers  # seats after the first start as computer players
        self.clock = clock  # the clock filled in (none unless asked: docs/clocks.md)
        self.seed = seed
        self.first_game = first_game
        self.players = players
        self.error = ""

    def compose(self) -> ComposeResult:
        levels = bot_levels()
        kinds = [(_("human"), SeatKind.HUMAN.value)] + [
            (_("bot: {level}").format(level=_(level)), kind) for kind, level, _line in levels
        ]
        computer = (default_bot_kind() if self.computers else None) or SeatKind.HUMAN.value
        with VerticalScroll(id="new-box", can_focus=False):  # Tab goes field to field
            yield Label(_("New game"), classes="heading")
            with Horizontal(classes="seat-row"):
                yield Label(_("Players"), classes="field-label")
                yield Select(
                    [(str(n), n) for n in PLAYER_COUNTS],
                    value=self.players,
                    allow_blank=False,
                    id="players",
                    compact=True,
                )
            for seat in range(4):
                with Horizontal(classes="seat-row", id=f"seat-{seat}"):
                    yield Label(_("Seat {n}").format(n=seat + 1), classes="field-label")
                    yield Input(
                        DEFAULT_NAMES[seat],
                        placeholder=_("name"),
                        id=f"name-{seat}",
                        max_length=16,
                        compact=True,
                        select_on_focus=False,  # a key typed after Tab adds to the name
                    )
                    yield Select(
                        kinds,
                        value=SeatKind.HUMAN.value if seat == 0 else computer,
                        allow_blank=False,
                        id=f"kind-{seat}",
                        disabled=len(kinds) == 1,
                        compact=True,
                    )
                    yield Select(
                        [(Text(_(COLOUR_LABELS.get(c, c)), style=SEAT_COLOURS[c]), c) for c in SEAT_COLOURS],
                        value=DEFAULT_SEAT_COLOURS[seat],
                        allow_blank=False,
                        id=f"colour-{seat}",
                        compact=True,
                        classes="colour",
                    )
            if levels:
                yield Static(
                    _level_lines(levels),
                    id="levels",
                    classes="dim",
                )
            with Horizontal(classes="seat-row"):
                yield Label(_("Seed"), classes="field-label")
                yield Input(
                    "" if self.seed is None else str(self.seed),
                    placeholder=_("blank = random"),
                    id="seed",
                    restrict=r"[0-9]*",
                    max_length=19,
                    compact=True,
                    select_on_focus=False,
                )
            with Horizontal(classes="seat-row"):
                yield Label(_("Clock"), classes="field-label")
                yield Input(
                    "" if self.clock is None else format_clock(self.clock),
                    placeholder=_("none; 20m+30s, 2d/move"),
                    id="clock",
                    max_length=24,
                    compact=True,
                    select_on_focus=False,
                )
                yield Select(
                    [
                        (_("out of time: computer plays"), FlagRule.COMPUTER.value),
                        (_("out of time: game ends"), FlagRule.END.value),
                    ],
                    value=FlagRule.COMPUTER.value if self.clock is None else self.clock.on_flag,
                    allow_blank=False,
                    id="on-flag",
                    compact=True,
                    classes="wide",
                )
            yield TickBox(
                _("First game (suggested upgrades and Valuation cards)"),
                value=self.first_game,
                id="first-game",
                compact=True,
            )
            yield Static(id="new-error")
            yield Button(_("Start"), id="start", variant="primary", compact=True)
            yield Static(
                _(
                    "Tab and Shift+Tab move between fields; space ticks the box or opens a list; Enter starts."
                ),
                classes="dim",
            )
        yield SteadyFooter()
        yield TooSmall()

    def on_mount(self) -> None:
        self._show_seats()
        self.query_one("#players", Select).focus()

    @on(Select.Changed, "#players")
    def _players_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, int):
            self.players = event.value
        self._show_seats()

    def _show_seats(self) -> None:
        """Rows for the seats in play only, so Tab never stops in a seat that is not."""
        for seat in range(4):
            self.query_one(f"#seat-{seat}").display = seat < self.players

    async def language_changed(self) -> None:
        """Draw the form again in the language now spoken, keeping what was filled in: the
        labels change, the seats, names, kinds, colours, seed and first-game box stay."""
        ticks = {box.id: box.value for box in self.query(Checkbox)}
        texts = {field.id: field.value for field in self.query(Input)}
        choices = {select.id: select.value for select in self.query(Select)}
        await self.recompose()
        for box_id, ticked in ticks.items():
            self.query_one(f"#{box_id}", Checkbox).value = ticked
        for field_id, value in texts.items():
            self.query_one(f"#{field_id}", Input).value = value
        for select_id, choice in choices.items():
            self.query_one(f"#{select_id}", Select).value = choice
        self._show_seats()
        if self.error:
            self._refuse(self.error)

    def _refuse(self, message: str) -> None:
        """Show why the game cannot start (``message`` is English marked ``N_``, shown in the
        language spoken and again after a switch)."""
        self.error = message
        self.query_one("#new-error", Static).update(_(message))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter picks from an open list rather than starting the game."""
        if action == "start" and any(select.expanded for select in self.query(Select)):
            return False
        return True

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        seats = []
        colours = []
        count = self.query_one("#players", Select).value
        self.players = count if isinstance(count, int) else self.players
        for seat in range(self.players):
            name = self.query_one(f"#name-{seat}", Input).value.strip() or DEFAULT_NAMES[seat]
            kind = self.query_one(f"#kind-{seat}", Select).value
            seats.append(PlayerSetup(name=name, kind=str(kind)))
            colours.append(str(self.query_one(f"#colour-{seat}", Select).value))
        names = [s.name for s in seats]
        if len(set(names)) != len(names):
            self._refuse(N_("Each seat needs its own name."))
            return
        if len(set(colours)) != len(colours):
            self._refuse(N_("Each seat needs its own colour."))
            return
        text = self.query_one("#seed", Input).value.strip()
        seed = int(text) if text else random.randrange(2**31)
        if seed >= 2**63:
            self._refuse(N_("The seed must be below 2^63."))
            return
        first = self.query_one("#first-game", Checkbox).value
        clock_text = self.query_one("#clock", Input).value.strip()
        clock = None
        if clock_text:
            try:
                clock = parse_clock(clock_text, str(self.query_one("#on-flag", Select).value))
            except ClockError as exc:
                self._refuse(str(exc))
                return
        setup = GameSetup(
            seed=seed, players=tuple(seats), first_game=first, edition=PRINTED_EDITION, clock=clock
        )
        host(self).start_game(setup, colours)


class LoadScreen(Screen[None]):
    """The saves folder: date, players, year, round; broken files show their error."""

    BINDINGS = [Binding("escape", "app.pop_screen", N_("Back"))]

    def __init__(self, replay: bool) -> None:
        super().__init__()
        self.replay = replay
        self.saves: list[storage.SaveInfo] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="load-box"):
            yield Label(
                _("Replay a saved game") if self.replay else _("Load a saved game"), classes="heading"
            )
            yield Static(id="load-folder", classes="dim")
            yield DataTable(id="saves", cursor_type="row", zebra_stripes=True)
            yield Static(id="load-error")
        yield SteadyFooter()
        yield TooSmall()

    def on_mount(self) -> None:
        folder = host(self).saves_dir
        self.query_one("#load-folder", Static).update(_("Folder: {folder}").format(folder=folder))
        table = self.query_one("#saves", DataTable)
        table.add_columns(_("File"), _("Saved"), _("Players"), _("Year"), _("Round"), _("Moves"), _("State"))
        self.saves = storage.list_saves(folder)
        for info in self.saves:
            when = datetime.fromtimestamp(info.modified).strftime("%Y-%m-%d %H:%M")
            if info.error:
                reason = info.error.removeprefix(info.path.name + ": ")
                table.add_row(
                    info.path.name,
                    when,
                    "",
                    "",
                    "",
                    "",
                    Text(_("broken: {reason}").format(reason=reason), style="red"),
                )
            else:
                state = _("finished") if info.finished else _("in play")
                table.add_row(
                    info.path.name,
                    when,
                    ", ".join(info.players),
                    str(info.year),
                    str(info.round),
                    str(info.moves),
                    state,
                )
        if not self.saves:
            self.query_one("#load-error", Static).update(_("No saves in this folder yet."))
        table.focus()

    @on(DataTable.RowHighlighted, "#saves")
    def _show_error(self, event: DataTable.RowHighlighted) -> None:
        info = self.saves[event.cursor_row]
        self.query_one("#load-error", Static).update(
            Text(_("Cannot open {error}").format(error=info.error), style="red") if info.error else ""
        )

    @on(DataTable.RowSelected, "#saves")
    def _open(self, event: DataTable.RowSelected) -> None:
        info = self.saves[event.cursor_row]
        if info.error:
            self.query_one("#load-error", Static).update(
                Text(_("Cannot open {error}").format(error=info.error), style="red")
            )
            return
        host(self).open_file(info.path, replay=self.replay)


class SaveAsScreen(ModalScreen[None]):
    """Ask for a file name in the saves folder and save the game there."""

    BINDINGS = [Binding("escape", "dismiss", N_("Cancel"))]

    def __init__(self, game: Game, meta: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.game = game
        self.meta = meta

    def compose(self) -> ComposeResult:
        with Vertical(id="save-box"):
            yield Label(_("Save the game as (in the saves folder)"))
            yield Input(f"game-{self.game.setup.seed}.json", id="save-name")
            yield Static(id="save-error")

    async def language_changed(self) -> None:
        """Ask again in the language now spoken, keeping the name typed so far."""
        name = self.query_one("#save-name", Input).value
        await self.recompose()
        self.query_one("#save-name", Input).value = name

    @on(Input.Submitted, "#save-name")
    def _save(self, event: Input.Submitted) -> None:
        name = event.value.strip()
        if not name or "/" in name or "\\" in name:
            self.query_one("#save-error", Static).update(_("Give a plain file name."))
            return
        if not name.endswith(".json"):
            name += ".json"
        path = Path(host(self).saves_dir) / name
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            storage.save_game(self.game, path, self.meta)
        except (storage.SaveError, OSError) as exc:
            self.query_one("#save-error", Static).update(Text(str(exc), style="red"))
            return
        self.app.notify(_("Saved to {path}").format(path=path))
        self.dismiss()


SCORE_SHEET_FRAME = 4  # columns the score sheet's box and scrollbar take from the screen's width


def shortened(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, the cut marked with an ellipsis.

    >>> shortened("1. Alexandra", 8), shortened("1. Bo", 8)
    ('1. Alex…', '1. Bo')
    """
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


class EndScreen(Screen[None]):
    """Final scores: one column per player (winner first), one row per scoring step; and the
    story of the game, each player's money and projected final score by Round (``g``)."""

    BINDINGS = [
        Binding("escape", "app.pop_screen", N_("Back to the table")),
        Binding("t", "app.to_title", N_("Title screen")),
        Binding("g", "chart", N_("Chart")),
    ]

    def __init__(self, game: Game | RemoteGame, colours: list[str] | None = None) -> None:
        super().__init__()
        self.game = game
        self.colours = seat_colours(colours, len(game.state.players))

    def compose(self) -> ComposeResult:
        points = round_history(self.game.clone())  # a shared table's game clones to a Game
        names = [p.name for p in self.game.state.players]
        with Vertical(id="end-box"):
            yield Static(id="end-title", classes="heading")
            with TabbedContent(id="end-tabs"):
                with TabPane(_("Scores"), id="end-scores"):
                    yield DataTable(id="scores", cursor_type="none", zebra_stripes=True)
                with TabPane(_("By Round"), id="end-chart"):
                    from .chart import RoundChart  # plotext: not on the way to the title

                    yield RoundChart("money", points, names, self.colours, id="chart-money")
                    yield RoundChart("projected", points, names, self.colours, id="chart-projected")
        yield SteadyFooter()
        yield TooSmall()

    def action_chart(self) -> None:
        """Between the score sheet and the chart by Round."""
        tabs = self.query_one("#end-tabs", TabbedContent)
        tabs.active = "end-chart" if tabs.active == "end-scores" else "end-scores"

    def on_mount(self) -> None:
        scores = self.game.scores()
        over = self.game.is_over()
        winners = [s.name for s in scores if s.rank == 1]
        title = (
            _("Final scores. Winner: {names}")
            if over
            else _("Scores if the game ended now. Leading: {names}")
        )
        self.query_one("#end-title", Static).update(
            Text(title.format(names=", ".join(winners)), style="bold")
        )
        table = self.query_one("#scores", DataTable)
        lines = scores[0].lines if scores else ()
        labels = [score_label(line.step, line.label) for line in lines]
        columns = [[self._cell(s, i, line.step) for i, line in enumerate(lines)] for s in scores]
        widest = max([len(_("Step")), len(_("Total")), *map(len, labels)])
        room = self._name_room(widest, columns)
        table.add_column(_("Step"))
        for s in scores:
            table.add_column(shortened(f"{s.rank}. {s.name}", room))
        for i, (line, label) in enumerate(zip(lines, labels)):
            cells = [Text(column[i], justify="right") for column in columns]
            table.add_row(label, *cells, height=max(cell.plain.count("\n") + 1 for cell in cells))
        table.add_row(
            Text(_("Total"), style="bold"),
            *[Text(dollars(s.total), style="bold", justify="right") for s in scores],
        )

    def _cell(self, score: Score, index: int, step: str) -> str:
        """One player's amount for one scoring step; under Penalties, their marker count on a
        line above it (a line of its own keeps the column narrow: four players fit 80 columns)."""
        amount = dollars(score.lines[index].amount)
        if step != "penalties":
            return amount
        count = self.game.state.players[score.seat].penalties
        return ngettext("{n} marker", "{n} markers", count).format(n=count) + "\n" + amount

    def _name_room(self, label_width: int, columns: list[list[str]]) -> int:
        """How wide a player's column head may be so the sheet fits the screen's width: the
        room left beside the step names, shared by the players, but never narrower than the
        column's own amounts (a column's two cells of padding and the box's frame counted)."""
        if not columns:
            return 0
        left = self.app.size.width - SCORE_SHEET_FRAME - (label_width + 2)
        widest = max(len(part) for column in columns for cell in column for part in cell.split("\n"))
        return max(left // len(columns) - 2, widest)


class HelpScreen(ModalScreen[None]):
    """The rules in brief and every key."""

    BINDINGS = [Binding("escape,f1,q", "dismiss", N_("Close")), Binding("c", "components", N_("Components"))]

    def action_components(self) -> None:
        """From the help to the component reference (the app's F7)."""
        self.dismiss()
        host(self).action_reference()

    def compose(self) -> ComposeResult:
        from textual.widgets import Markdown  # markdown-it: not on the way to the title

        with VerticalScroll(id="help-box"):
            yield Markdown(help_text())
        yield SteadyFooter()
