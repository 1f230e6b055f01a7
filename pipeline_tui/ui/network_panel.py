"""The scrolling Pipe Network panel, with the ghost tile for placing the Pipe tile in hand and a
list of the network's Pipelines with their values (``v``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import ScrollableContainer
from textual.geometry import Region
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ..engine import PlayerState, State, highest_grade_from_crude, network_map, tile_cells
from ..i18n import N_, _
from .panels import row_words
from .netgrid import CELL_H, CELL_W, PITCH_H, PITCH_W, Grid, HandTile, render_network
from .style import OIL_LETTERS, OIL_STYLES
from .compat import StyledFocus
from .widgets import TextPanel

# Blank room the grid gains when a network outgrows its panel: two cells each way. Each time
# the grid grows the screen is laid out again, at a shared table in every session (about 13
# ms each at 160 x 50), and growing a cell at a time did that on most placements.
GROWTH = (2 * PITCH_W, 2 * PITCH_H)


@dataclass
class Ghost:
    """Where the Pipe tile in hand would go: half A on (x, y), half B towards ``rot``."""

    tile: int
    x: int
    y: int
    rot: int
    legal: bool = False
    reason: str = ""


class NetworkPanel(ScrollableContainer, StyledFocus, can_focus=True):
    """A player's network. With a ghost: arrows move it, ``r`` turns it, enter places it.
    ``v`` shows its Pipelines; the one highlighted there is lit on the grid."""

    BINDINGS = [
        Binding("up", "nudge(0,-1)", N_("Up"), show=False),
        Binding("down", "nudge(0,1)", N_("Down"), show=False),
        Binding("left", "nudge(-1,0)", N_("Left"), show=False),
        Binding("right", "nudge(1,0)", N_("Right"), show=False),
        Binding("r", "rotate", N_("Rotate tile"), show=False),
        Binding("enter", "place", N_("Place tile"), show=False),
        Binding("v", "pipelines", N_("Pipelines"), show=False),
    ]
    # The panel's keys are written on its lower border rather than in the Footer: the Footer
    # then stays the same as the focus moves, and a view switch does not rebuild it.
    KEYS_GHOST = N_("r rotate · enter place · v pipelines")
    KEYS = N_("v pipelines")

    class Moved(Message):
        """The ghost moved or turned; the screen re-checks it with the engine."""

    class Place(Message):
        """The player confirmed the ghost."""

    class CellClicked(Message):
        def __init__(self, x: int, y: int) -> None:
            super().__init__()
            self.x, self.y = x, y

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.ghost: Ghost | None = None
        self.grid: Grid | None = None
        self.player: PlayerState | None = None  # whose network is shown (set by :meth:`show`)
        self.state: State | None = None
        self.mark: tuple[int, int] | None = None
        self.pipelines: list[tuple[Text, frozenset[tuple[int, int]]]] = []  # row, cells
        self.lit: frozenset[tuple[int, int]] = frozenset()
        self.drawn_from: tuple[object, ...] | None = None  # what the grid shows: network, ghost, marks
        self.drawn_size: tuple[int, int] | None = None  # the grid's width and height
        self.framed: tuple[object, ...] | None = None  # the network last scrolled into sight
        self.floor = (0, 0)  # the size of the largest network drawn so far
        self.listed = False  # whether the Pipelines list shows self.pipelines (filled when shown)

    def compose(self) -> ComposeResult:
        yield NetworkGrid(id="net-grid")
        pipelines = OptionList(id="pipelines")
        pipelines.display = False
        pipelines.border_title = _("Pipelines")
        yield pipelines

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("rotate", "place"):
            return self.ghost is not None
        return True

    def show(
        self,
        player: PlayerState,
        ghost: Ghost | None,
        mark: tuple[int, int] | None = None,
        state: State | None = None,
    ) -> None:
        """Draw ``player``'s network, with ``ghost`` over it and the cell ``mark`` reversed
        (``state`` prices the Pipelines' best grades)."""
        had_ghost = self.ghost is not None
        self.ghost, self.player, self.state, self.mark = ghost, player, state, mark
        keys = _(self.KEYS_GHOST if ghost is not None else self.KEYS)
        title = _("Pipelines")
        pipelines = self.query_one("#pipelines", OptionList)
        if pipelines.border_title != title:  # the language was switched
            pipelines.border_title = title
        if self.border_subtitle != keys:  # setting it repaints the panel, even when unchanged
            self.border_subtitle = keys
        if self.query_one("#pipelines", OptionList).display:
            self._list_pipelines()
        else:
            self.listed = False  # listed again when shown: most moves change no Pipeline
        self._draw()
        if ghost is not None:
            self.call_after_refresh(self._scroll_to_ghost)
        elif (player.seat, tuple(player.tiles)) != self.framed:
            self.framed = (player.seat, tuple(player.tiles))
            self.call_after_refresh(self._scroll_to_network)
        if had_ghost != (ghost is not None):
            self.refresh_bindings()

    def _draw(self) -> None:
        player, ghost = self.player, self.ghost
        assert player is not None  # drawn once shown
        ghost_tuple: HandTile | None = None
        if ghost is not None:
            ghost_tuple = (ghost.tile, ghost.x, ghost.y, ghost.rot, ghost.legal)
        inputs = (
            tuple(player.tiles),
            tuple(player.machines),
            player.worker,
            ghost_tuple,
            self.mark,
            self.lit,
        )
        if inputs == self.drawn_from:
            return  # the same network, ghost and marks as drawn: nothing to render
        self.drawn_from = inputs
        args = (player.tiles, player.machines, player.worker, ghost_tuple, self.mark, self.lit)
        # The grid keeps the size of the largest network drawn here (blank to the right and
        # below), so going from one player's network to a smaller one needs no new layout,
        # and the scrollbars stay as they were.
        text, self.grid = render_network(*args, size=self.floor)
        view = self.scrollable_content_region
        size = (
            _grown(self.floor[0], self.grid.width, view.width, GROWTH[0]),
            _grown(self.floor[1], self.grid.height, view.height, GROWTH[1]),
        )
        if size != (max(self.grid.width, self.floor[0]), max(self.grid.height, self.floor[1])):
            text, self.grid = render_network(*args, size=size)  # grown, with room to spare
        self.floor = size
        old, self.drawn_size = self.drawn_size, size
        fits = [s is not None and s[0] <= view.width and s[1] <= view.height for s in (old, size)]
        # The grid fills the panel at least (app.tcss), so while the old and the new network
        # both fit, its size stays and the screen needs no new layout (nor its scrollbars).
        self.query_one("#net-grid", NetworkGrid).show(text, layout=old != size and not all(fits))

    def _list_pipelines(self) -> None:
        """Each Pipeline: colour, segments, Refinement Value (with Engineering), the best grade
        one run takes a Crude barrel to, and whether a Machine is attached."""
        player = self.player
        assert player is not None  # listed once shown
        net = network_map(player)
        engineering = player.level("ENG")
        rows = []
        for pipeline in sorted(net.pipelines, key=lambda p: (-p.segments, p.colour, p.key)):
            value = pipeline.value(engineering)
            best = 0
            if self.state is not None:
                best = highest_grade_from_crude(self.state, pipeline.colour, value)
            row = Text(OIL_LETTERS[pipeline.colour], style=OIL_STYLES[pipeline.colour])
            row.append(
                " " + _("{segments:>2} seg  value {value:>2}").format(segments=pipeline.segments, value=value)
            )
            grade = row_words()[best] if best else "-"
            row.append("  " + _("to {grade:<4}").format(grade=grade))
            row.append("  " + _("Machine") if pipeline.machines else "")
            row.rstrip()
            cells = frozenset(
                (x, y) for (x, y, _), p in net.segment_pipeline.items() if p.key == pipeline.key
            )
            rows.append((row, cells))
        if self.listed and [(r.plain, c) for r, c in rows] == [(r.plain, c) for r, c in self.pipelines]:
            return
        self.pipelines = rows
        self.listed = False
        self._fill_pipelines()

    def _fill_pipelines(self) -> None:
        """Put the Pipelines in their list, if it is shown (filling a hidden list lays the screen
        out for nothing, and a move that changes a network would pay for it in every session)."""
        option_list = self.query_one("#pipelines", OptionList)
        if self.listed or not option_list.display:
            return
        self.listed = True
        rows = self.pipelines
        option_list.set_options(
            [Option(row) for row, _ in rows]
            or [Option(Text(_("No Pipelines yet."), style="dim"), disabled=True)]
        )
        if rows:
            option_list.highlighted = 0
        self._light(option_list.highlighted)

    def _light(self, index: int | None) -> None:
        """Light the cells of the Pipeline at ``index`` of the list (none while it is hidden)."""
        shown = self.query_one("#pipelines", OptionList).display
        cells: frozenset[tuple[int, int]] = frozenset()
        if shown and index is not None and 0 <= index < len(self.pipelines):
            cells = self.pipelines[index][1]
        if cells != self.lit:
            self.lit = cells
            if self.player is not None:
                self._draw()

    def action_pipelines(self) -> None:
        option_list = self.query_one("#pipelines", OptionList)
        option_list.display = not option_list.display
        if option_list.display:
            if self.player is not None:
                self._list_pipelines()
            if option_list.highlighted is None and self.pipelines:
                option_list.highlighted = 0
            option_list.focus()
        else:
            self.focus()
        self._light(option_list.highlighted)

    @on(OptionList.OptionHighlighted, "#pipelines")
    def _pipeline_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self._light(event.option_index)

    def _scroll_to_network(self) -> None:
        """Bring the network's tiles into sight, once each time it changes: the grid's blank
        border and rulers make it wider than the panel at 160x48, which showed it from the
        left ruler and cut the pipes at its right edge (issue 37)."""
        if self.grid is None or self.player is None or not self.player.tiles:
            return
        cells = list(network_map(self.player).cells)
        left, top = self.grid.origin(min(x for x, _ in cells), min(y for _, y in cells))
        right, bottom = self.grid.origin(max(x for x, _ in cells), max(y for _, y in cells))
        region = Region(left - 1, top - 1, right - left + CELL_W + 2, bottom - top + CELL_H + 2)
        self.scroll_to_region(region, animate=False, force=True)

    def _scroll_to_ghost(self) -> None:
        if self.ghost is None or self.grid is None:
            return
        cells = tile_cells(self.ghost.x, self.ghost.y, self.ghost.rot)
        cols = [self.grid.origin(*c)[0] for c in cells]
        rows = [self.grid.origin(*c)[1] for c in cells]
        region = Region(min(cols), min(rows), max(cols) - min(cols) + CELL_W, max(rows) - min(rows) + CELL_H)
        self.scroll_to_region(region, animate=False, force=True)

    def action_nudge(self, dx: int, dy: int) -> None:
        if self.ghost is None:
            if dx:
                self.scroll_relative(x=dx * PITCH_W, animate=False)
            else:
                self.scroll_relative(y=dy * PITCH_H, animate=False)
            return
        self.ghost.x += dx
        self.ghost.y += dy
        self.post_message(self.Moved())

    def action_rotate(self) -> None:
        if self.ghost is not None:
            self.ghost.rot = (self.ghost.rot + 1) % 4
            self.post_message(self.Moved())

    def action_place(self) -> None:
        if self.ghost is not None:
            self.post_message(self.Place())

    def clicked(self, col: int, row: int) -> None:
        """A click at character (col, row) of the grid: move the ghost there, or place it."""
        cell = self.grid.cell_at(col, row) if self.grid is not None else None
        if cell is None or self.ghost is None:
            return
        if (self.ghost.x, self.ghost.y) == cell:
            self.post_message(self.Place())
        else:
            self.ghost.x, self.ghost.y = cell
            self.post_message(self.Moved())


def _grown(floor: int, size: int, view: int, growth: int) -> int:
    """The grid's new width (or height): the largest drawn so far, or ``size`` if larger; a
    grid that outgrows the panel (it scrolls) gets ``growth`` more blank room, so the next
    few placements at its edge need no new layout in every session watching."""
    if size <= floor:
        return floor
    return size + growth if view and size > view else size


class NetworkGrid(TextPanel):
    """The drawn grid; passes clicks to its panel as grid characters. Drawn a line at a time
    (a TextPanel that does not wrap): a placement redraws the rows it changed, and another
    player's network the rows that differ (the blank rows to the largest size drawn do not)."""

    WRAP = False

    def on_click(self, event: events.Click) -> None:
        panel = self.parent
        if isinstance(panel, NetworkPanel):
            panel.clicked(event.x, event.y)
