"""The clock bar: each seat's time at a clocked table, whose is running, the last minute marked.

The clocks are the engine's (``Game.clock``, or a shared table's ``RemoteGame.clock``): this
only reads them twice a second. At a hot-seat table it also notices the time that runs out and
tells the table (:meth:`TableScreen.time_ran_out`); at a shared table the server does that and
its note says so to everyone. A table without a clock shows no bar and runs no timer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from ..engine import ClockState, GameTime, SeatKind, format_clock, format_duration
from ..i18n import _

if TYPE_CHECKING:
    from .table_screen import TableScreen

TICK = 0.5  # seconds between readings (the bar shows whole seconds)
TIMEOUT_KIND = SeatKind.HEURISTIC.value  # the computer ("normal") that plays a seat out of time


class ClockBar(Static):
    """One line: the setting, then every seat's time; the running one bold with a mark, in its
    last minute in red."""

    DEFAULT_CSS = """
    ClockBar { height: 1; display: none; padding: 0 1; }
    ClockBar.-on { display: block; }
    """

    def __init__(self, table: TableScreen, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.table = table
        self.reported = -1  # the flags counted when a time that ran out was last reported

    def on_mount(self) -> None:
        table = self.table
        game = table.game
        if game.setup.clock is None or not table.policy.live:
            return
        if table.policy.plays_bots and getattr(game, "timer", False) is None:
            game.timer = GameTime(game.now())  # type: ignore[union-attr]  # a local Game
        timer = getattr(game, "timer", None)
        if timer is not None:
            timer.resume()  # the hot-seat game's time runs while it is open here
        self.add_class("-on")
        self.set_interval(TICK, self.tick)
        self.tick()

    def on_unmount(self) -> None:
        timer = getattr(self.table.game, "timer", None)
        if timer is not None and self.table.policy.plays_bots:
            timer.pause()  # a game left stands still (docs/clocks.md)

    def tick(self) -> None:
        clock = self.table.game.clock()
        if clock is None:
            return
        self.update(self.render_clock(clock))
        flagged = sum(clock.flags)  # the turns whose time ran out, before this one
        if clock.out and self.table.policy.plays_bots and self.reported != flagged:
            self.reported = flagged
            assert clock.running is not None  # a clock that ran out runs
            self.table.time_ran_out(clock.running)

    def render_clock(self, clock: ClockState) -> Text:
        game = self.table.game
        setting = game.setup.clock
        assert setting is not None
        line = Text(_("Clock {setting}:").format(setting=format_clock(setting)), style="dim")
        away = self.table.clock_away
        for seat, player in enumerate(game.setup.players):
            line.append("  ")
            time = format_duration(clock.remaining[seat])
            if seat == clock.running:
                style = "bold reverse red" if clock.last_minute(seat) else "bold"
                line.append(f"\u25b6 {player.name} {time}", style=style)
            else:
                line.append(f"{player.name} {time}")
            if seat in away:
                line.append(" " + _("(computer)"), style="dim")
        return line
