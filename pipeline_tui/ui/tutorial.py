"""The guided first game: the rulebook's first-game setup against one computer player, with a
coach in the hint panel through the first Round.

The coach is a seat policy (:class:`Tutorial`, a :class:`HotSeat`): the game is an ordinary
hot-seat game and every move comes from the engine's legal moves, so leaving the tutorial (F9)
just stops the coaching and the game goes on. At each point of the turn the coach names the
panel to look at (and brings it into view, framed), says what this step does in the rules and
which keys do it, and lists a few of the moves the engine allows now. It holds no rules: which
step applies is read from the turn's stage and Action and from the legal moves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, NamedTuple

import msgspec
from rich.text import Text
from textual.binding import Binding
from textual.color import Color
from textual.widgets import Static

from ..data import components as C
from ..engine import GameSetup, PlayerSetup, SeatKind, Stage, State, format_move
from ..engine import moves as M
from ..i18n import N_, _
from .seats import HotSeat

if TYPE_CHECKING:
    from .host import Table
    from .table_screen import TableScreen

A = C.ActionName
COACHED_BORDER: tuple[Literal["double"], str] = (
    "double",
    "yellow",
)  # the frame of the panel the coach points at
COACHED_LINE = Color(255, 255, 0, 0.3)
"""The status line's background while the coach points at it: a frame would cover its two
rows and show an empty box (issue 37)."""


class Step(NamedTuple):
    """One point of a turn the coach explains: its title, the panel to look at (a widget id of
    the table), what it does in the rules and the keys that do it."""

    title: str
    panel: str
    rule: str
    keys: str


PANEL_TITLES = {
    "board-view": N_("Player board"),
    "cross": N_("Action cross"),
    "market-C": N_("Crude Market"),
    "market-1": N_("Refined Markets 1 to 3"),
    "shops": N_("Shops"),
    "contracts": N_("Contracts and Orders"),
    "upgrades": N_("Upgrades"),
    "government": N_("Government"),
    "network-view": N_("Pipe Network"),
    "log-view": N_("Move log"),
    "status": N_("the status line at the top"),
}

PICK = N_("Up/Down pick a move, Enter plays it; or : and type it, e.g. {example}")

STEPS: dict[str, Step] = {
    "tanks": Step(
        N_("Your starting Tanks"),
        "board-view",
        N_(
            "Place 5 free Tanks on your Tank Farm. The row is the grade a Tank holds (2 barrels). "
            "The rulebook suggests 2 Crude Tanks and one of each refined grade."
        ),
        PICK,
    ),
    "main_action": Step(
        N_("Choose your Main Action"),
        "cross",
        N_(
            "One Main Action a Round: a market or action tile of the cross, a Government Pipe "
            "tile, or a tile of your network to refine. A good start: buy Crude."
        ),
        PICK,
    ),
    "crude": Step(
        N_("At the Crude Market"),
        "market-C",
        N_(
            "Sell first, then buy: after buying you cannot sell on this visit. Crude goes into "
            "free Crude Tanks. 'done' finishes the Action."
        ),
        PICK,
    ),
    "refined": Step(
        N_("At a Refined Market"),
        "market-1",
        N_(
            "Each Refined Market trades its own grades at its own prices. Sell refined barrels "
            "here, then buy if you like. 'done' finishes the Action."
        ),
        PICK,
    ),
    "shop": Step(
        N_("At the Shops"),
        "shops",
        N_(
            "Buy Pipe tiles, Tanks or Machines. A Pipe tile must touch your network; pipes of "
            "one colour that join make a longer Pipeline."
        ),
        PICK,
    ),
    "place_tile": Step(
        N_("Place your Pipe tile"),
        "network-view",
        N_(
            "A Pipeline's length is its Refinement Value: the longer, the higher the grade it "
            "refines Crude to. Join pipes of one colour."
        ),
        N_("Arrows move the tile, r turns it, Enter places it (F4 shows the network)."),
    ),
    "contracts": Step(
        N_("Contracts and Loans"),
        "contracts",
        N_(
            "A Contract pays when you deliver the barrels it asks for; one still open at the end "
            "of the Year costs a Penalty marker. Take one you can fill."
        ),
        PICK,
    ),
    "upgrades": Step(
        N_("Upgrades"),
        "upgrades",
        N_("An Upgrade card gives a lasting advantage: cheaper Pipes, more Tanks, better sales."),
        PICK,
    ),
    "government": Step(
        N_("Government Pipe tiles"),
        "government",
        N_(
            "Buy a Pipe tile from the Government: more tiles next to it in its quadrant cost "
            "more. It joins your network like any Pipe tile."
        ),
        PICK,
    ),
    "network": Step(
        N_("Run your Pipe Network"),
        "network-view",
        N_(
            "Each Pipeline through the tile refines one barrel, up to the grade its value allows, "
            "into a free Tank of that grade, paying the Refinement Costs."
        ),
        PICK,
    ),
    "turn_order": Step(
        N_("Turn Order for the next Round"),
        "status",
        N_(
            "This Action lets you choose your place in next Round's Turn Order (space 1 plays "
            "first); otherwise your disk slides to the leftmost free space."
        ),
        PICK,
    ),
    "after_main": Step(
        N_("After your Main Action"),
        "cross",
        N_(
            "Pay $10 for a Secondary Action next to your Main Action on its arm of the cross, "
            "deliver to Contracts and Orders, or end the Work Phase."
        ),
        PICK,
    ),
    "machine_phase": Step(
        N_("The Machine Phase"),
        "network-view",
        N_(
            "Pay to run every Pipeline attached to your Machines, or end your turn (with no "
            "Machine yet, just end it)."
        ),
        PICK,
    ),
    "watch": Step(
        N_("The computer's turn"),
        "log-view",
        N_(
            "Watch the Move log: each computer turn is summed up in one line. The Round ends "
            "when everybody has played once."
        ),
        N_("Nothing to press: wait, or look around with F2 to F5 and 1 to 4."),
    ),
    "done": Step(
        N_("The first Round is over"),
        "status",
        N_(
            "A Year has 8, 6 or 4 Rounds; after three Years the most money wins. The coach stops "
            "at your next move: play on as a normal game."
        ),
        N_("F1 has the rules in brief and every key; F6 the scores."),
    ),
}


def step_name(state: State, seat: int, legal: list[M.Move]) -> str:
    """Which :data:`STEPS` entry explains the position for the coached ``seat``."""
    if state.over or state.year > 1 or state.round > 1:
        return "done"
    turn = state.turn
    if turn.player != seat:
        return "watch"
    if turn.stage == Stage.SETUP:
        return "tanks"
    if any(isinstance(move, M.PlaceTile) for move in legal):
        return "place_tile"
    if any(isinstance(move, M.ChooseTurnOrder) for move in legal):
        return "turn_order"
    if turn.stage == Stage.MACHINE:
        return "machine_phase"
    if turn.stage == Stage.ACTION:
        action = turn.action
        if action == A.CRUDE:
            return "crude"
        if action in (A.REFINED1, A.REFINED2, A.REFINED3):
            return "refined"
        if action in (A.TANKS, A.MACHINES):
            return "shop"
        if action in (A.CONTRACTS, A.UPGRADES, A.GOVERNMENT):
            return str(action)
        return "network"
    return "main_action" if turn.mains == 0 else "after_main"


def tutorial_setup(seed: int) -> GameSetup:
    """The rulebook's first-game setup (its suggested Upgrades and Valuation cards), you
    against one computer player of the normal level."""
    setup = GameSetup.default(players=2, seed=seed, first_game=True)
    return msgspec.structs.replace(
        setup, players=(PlayerSetup(_("You")), PlayerSetup("Bo", SeatKind.HEURISTIC))
    )


class Tutorial(HotSeat):
    """Hot-seat play with the coach in the hint panel until the first Round is over."""

    bindings = (Binding("f9", "policy('leave')", N_("Leave tutorial"), show=False),)
    css_class = "-hot-seat -tutorial"

    screen: TableScreen  # the coach frames the table's own panels and mounts itself there

    def __init__(self, seat: int = 0) -> None:
        self.seat = seat  # the seat being taught
        self.active = True
        self.seen: list[str] = []  # the steps shown so far, each time the step changed
        self.coached: str | None = None  # the widget id framed now
        self.done_at: int | None = None  # moves in the log when "done" was first shown
        self.title = ""  # the coach's border title: the step

    def current(self) -> str:
        """The step for the position on the table now."""
        game = self.screen.game
        return step_name(game.state, self.seat, game.legal_moves())

    def attach(self, screen: Table) -> None:
        from .table_screen import TableScreen  # imported once a table opens, not for the title

        assert isinstance(screen, TableScreen)
        super().attach(screen)
        self.coach = Coach(id="coach")
        screen.call_later(self._mount_coach)

    def _mount_coach(self) -> None:
        if self.active and not self.coach.is_mounted:
            footers = self.screen.query("SteadyFooter")
            self.screen.mount(self.coach, before=footers.first() if footers else None)
            self.show(self.text())

    def hint(self, move: M.Move | None) -> Text | None:
        """Brings the coach up to date; the hint panel stays the table's own."""
        if self.active:
            text = self.text()
            if self.active and self.coach.is_mounted:
                self.show(text)
        return None

    def show(self, text: Text) -> None:
        self.coach.update(text)
        self.coach.border_title = self.title
        self.coach.border_subtitle = _("F9 leaves the tutorial; the game goes on")

    def text(self) -> Text:
        """The coach's words for now: the panel to look at, the rule, and the keys, with one of
        the engine's legal moves as the example to type."""
        game = self.screen.game
        name = self.current()
        if name == "done":
            if self.done_at is None:
                self.done_at = len(game.moves)
            elif len(game.moves) > self.done_at and game.entries[-1].turn.seat == self.seat:
                self.leave()
                return Text()
        step = STEPS[name]
        self._frame(step.panel)
        if not self.seen or self.seen[-1] != name:  # a new step: numbered on, its panel in sight
            self.seen.append(name)
            self._bring(step.panel)
        out = Text()
        self.title = _("Tutorial {n}: {title}").format(n=len(self.seen), title=_(step.title))
        out.append(_("Look at: {panel}").format(panel=_(PANEL_TITLES[step.panel])), style="bold")
        out.append("\n" + _(step.rule))
        legal = game.legal_moves() if name not in ("watch", "done") else []
        plain = [m for m in legal if not isinstance(m, (M.Pass, M.EndAction, M.EndTurn))] or legal
        example = format_move(plain[0]) if plain else "end"
        out.append("\n" + _(step.keys).format(example=example), style="cyan")
        return out

    def _frame(self, panel: str) -> None:
        """Frame ``panel`` (the status line: colour its background)."""
        if panel == self.coached:
            return
        self._unframe()
        widget = self.screen.query_one(f"#{panel}")
        if panel == "status":
            widget.styles.background = COACHED_LINE
        else:
            widget.styles.border = COACHED_BORDER
        self.coached = panel

    def _bring(self, panel: str) -> None:
        """Bring ``panel`` into sight: its view forward on a narrow screen, and a panel of the
        Table scrolled to (at 80x24 the Table is taller than the screen)."""
        screen = self.screen
        if panel == "status":
            return
        if panel in ("board-view", "network-view", "log-view"):
            screen._show_view(panel)
            return
        screen._show_view("table-view")
        widget = screen.query_one(f"#{panel}")
        table = screen.query_one("#table-view")
        screen.call_after_refresh(lambda: table.scroll_to_widget(widget, animate=False, top=True))

    def _unframe(self) -> None:
        if self.coached is not None:
            styles = self.screen.query_one(f"#{self.coached}").styles
            for rule in ("border_top", "border_right", "border_bottom", "border_left", "background"):
                styles.clear_rule(rule)
            self.coached = None

    def action_leave(self) -> None:
        """F9: stop coaching; the game goes on as a normal hot-seat game."""
        if self.active:
            self.leave()
            self.screen.notify(_("Tutorial left: the game goes on."))
            self.screen.refresh_table()

    def status_with_preview(self) -> bool:
        """While the coach is up it says whose turn it is and what to do, and the hint has 4 rows
        of text at 80x24: they go to a move's preview whole (a Pipe tile's picture was cut with
        the status after it, issue 37.7)."""
        return not self.active

    def leave(self) -> None:
        self.active = False
        self._unframe()
        if self.coach.is_mounted:
            self.coach.remove()


class Coach(Static):
    """The coach's panel, across the bottom of the table above the footer."""

    # The footer is docked too, so the coach keeps a row clear above it (app.tcss gives the
    # hint fewer rows while the coach is up, so the move list keeps its own at 80x24).
    DEFAULT_CSS = """
    Coach {
        dock: bottom; height: auto; max-height: 7; padding: 0 1; margin-bottom: 1;
        border: round yellow; border-title-style: bold; border-title-color: yellow;
    }
    """
