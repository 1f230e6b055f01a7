"""The scrolling Pipe Network panel, with the ghost tile for placing the Pipe tile in hand."""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding
from textual.containers import ScrollableContainer
from textual.geometry import Region
from textual.message import Message
from textual.widgets import Static

from ..engine.network import tile_cells
from .netgrid import CELL_H, CELL_W, PITCH_H, PITCH_W, Grid, render_network


@dataclass
class Ghost:
    """Where the Pipe tile in hand would go: half A on (x, y), half B towards ``rot``."""

    tile: int
    x: int
    y: int
    rot: int
    legal: bool = False
    reason: str = ""


class NetworkPanel(ScrollableContainer, can_focus=True):
    """A player's network. With a ghost: arrows move it, ``r`` turns it, enter places it."""

    BINDINGS = [
        Binding("up", "nudge(0,-1)", "Up", show=False),
        Binding("down", "nudge(0,1)", "Down", show=False),
        Binding("left", "nudge(-1,0)", "Left", show=False),
        Binding("right", "nudge(1,0)", "Right", show=False),
        Binding("r", "rotate", "Rotate tile"),
        Binding("enter", "place", "Place tile"),
    ]

    class Moved(Message):
        """The ghost moved or turned; the screen re-checks it with the engine."""

    class Place(Message):
        """The player confirmed the ghost."""

    class CellClicked(Message):
        def __init__(self, x: int, y: int) -> None:
            super().__init__()
            self.x, self.y = x, y

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.ghost: Ghost | None = None
        self.grid: Grid | None = None

    def compose(self):
        yield NetworkGrid(id="net-grid")

    def check_action(self, action: str, parameters) -> bool | None:
        if action in ("rotate", "place"):
            return self.ghost is not None
        return True

    def show(self, player, ghost: Ghost | None, mark: tuple[int, int] | None = None) -> None:
        """Draw ``player``'s network, with ``ghost`` over it and the cell ``mark`` reversed."""
        had_ghost = self.ghost is not None
        self.ghost = ghost
        ghost_tuple = None
        if ghost is not None:
            ghost_tuple = (ghost.tile, ghost.x, ghost.y, ghost.rot, ghost.legal)
        text, self.grid = render_network(player.tiles, player.machines, player.worker, ghost_tuple,
                                          mark)
        grid_widget = self.query_one("#net-grid", NetworkGrid)
        grid_widget.update(text)
        grid_widget.styles.width = self.grid.width
        grid_widget.styles.height = self.grid.height
        if ghost is not None:
            self.call_after_refresh(self._scroll_to_ghost)
        if had_ghost != (ghost is not None):
            self.refresh_bindings()

    def _scroll_to_ghost(self) -> None:
        if self.ghost is None or self.grid is None:
            return
        cells = tile_cells(self.ghost.x, self.ghost.y, self.ghost.rot)
        cols = [self.grid.origin(*c)[0] for c in cells]
        rows = [self.grid.origin(*c)[1] for c in cells]
        region = Region(min(cols), min(rows), max(cols) - min(cols) + CELL_W,
                        max(rows) - min(rows) + CELL_H)
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


class NetworkGrid(Static):
    """The drawn grid; passes clicks to its panel as grid characters."""

    def on_click(self, event) -> None:
        panel = self.parent
        if isinstance(panel, NetworkPanel):
            panel.clicked(event.x, event.y)
