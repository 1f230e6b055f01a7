"""The network view: one player's Pipe Network on most of the screen (``n`` at the table).

Two zooms (``z``): tile detail, the table's grid where every pipe is traced and every join
between tiles shows, and the overview, two characters a cell, where a 25-tile network fits an
80 x 24 terminal. The arrows move a cursor and the view pans to keep it in sight; ``c`` centres
on the last tile placed. Tab picks the Pipelines in turn (Enter the one at the cursor), drawn
whole in reverse with its colour, Segments, Refinement Value, the best grade one run takes Crude
to and its Machine. With a Pipe tile in hand the arrows, ``r`` and Enter move, turn and place it,
Tab jumps between the places it may go, the free cells it may cover are dotted, and the line
below says what the placement would make of each Pipeline it touches (drawn in reverse).

Every figure comes from the engine (``pipeline_infos``, ``placement_preview``, the legal moves);
the view computes no rule.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import ScrollableContainer
from textual.geometry import Region
from textual.screen import Screen
from textual.widgets import Static

from ..data.oil import COLOUR_NAMES, GRADE_WORDS
from ..engine import PipelineInfo, PlacementPreview, pipeline_infos, placement_preview, tile_cells
from ..engine import moves as M
from ..i18n import N_, _, ngettext
from ..text import refusal
from .netgrid import CELL_H, CELL_W
from .netmap import OVERVIEW_W, render_detail, render_overview
from .network_panel import Ghost, NetworkPanel
from .style import OIL_LETTERS, OIL_STYLES

if TYPE_CHECKING:
    from ..engine import PlayerState
    from .host import Table

DETAIL, OVERVIEW = "detail", "overview"
FOLLOW_EVERY = 0.25  # seconds between checks that the game moved on under the open view


class MapScroll(ScrollableContainer, can_focus=False):
    """The drawn network, scrolled by the view (the arrows belong to the view's cursor)."""


class NetworkViewScreen(Screen[None]):
    """The Pipe Network of the seat the table shows, for seeing and following its Pipelines."""

    DEFAULT_CSS = """
    NetworkViewScreen { layout: vertical; }
    NetworkViewScreen #nv-title { height: 1; text-style: bold; background: $boost; }
    NetworkViewScreen MapScroll { height: 1fr; align: center middle; }
    NetworkViewScreen #nv-map { width: auto; height: auto; }
    NetworkViewScreen #nv-info { height: auto; max-height: 8; background: $boost; }
    NetworkViewScreen #nv-keys { height: auto; color: $text-muted; }
    """

    BINDINGS = [
        Binding("escape,n", "close", N_("Back to the table")),
        Binding("z", "zoom", N_("Zoom")),
        Binding("l", "letters", N_("Letters")),
        Binding("c", "centre", N_("Centre")),
        Binding("tab", "cycle(1)", N_("Next"), priority=True),
        Binding("shift+tab", "cycle(-1)", N_("Previous"), priority=True),
        Binding("enter", "enter", N_("Pick or place")),
        Binding("r", "rotate", N_("Turn the tile")),
        Binding("up", "move(0,-1)", N_("Up"), show=False),
        Binding("down", "move(0,1)", N_("Down"), show=False),
        Binding("left", "move(-1,0)", N_("Left"), show=False),
        Binding("right", "move(1,0)", N_("Right"), show=False),
    ]

    def __init__(self, table: Table) -> None:
        """``table`` is the TableScreen it was opened from: its game, the seat it shows, its
        ghost tile and its ``play``."""
        super().__init__()
        self.table = table
        self.zoom = DETAIL
        self.letters = bool(os.environ.get("NO_COLOR"))
        self.cursor: tuple[int, int] = (0, 0)
        self.picked: int | None = None  # index into self.infos
        self.infos: list[PipelineInfo] = []
        self.places: list[tuple[int, int, int]] = []  # legal (x, y, rot) of the tile in hand
        self.previews: dict[tuple[int, int, int], PlacementPreview] = {}
        self.preview: PlacementPreview | None = None
        self.drawing = Text()  # the network as drawn now
        self.seen: tuple[object, ...] = ()  # see _landmark
        self.cursor_region: Region | None = None  # the cursor's characters in the drawing

    def compose(self) -> ComposeResult:
        yield Static(id="nv-title")
        with MapScroll():
            yield Static(id="nv-map")
        yield Static(id="nv-info")
        yield Static(id="nv-keys")

    def on_mount(self) -> None:
        self.cursor = self._home()
        self.redraw(centre=True)
        self.seen = self._landmark()
        self.set_interval(FOLLOW_EVERY, self._follow)

    def _landmark(self) -> tuple[object, ...]:
        """What the view was drawn from: the moves played, the seat shown, the state shown."""
        moves = self.table.game.moves
        return len(moves), moves[-1] if moves else None, self.seat, id(self.table.current_state())

    def _follow(self) -> None:
        """Redraw when the game moved on while the view was open (a computer's turn, another
        seat at a shared table, an undo): the previews were of the old network."""
        landmark = self._landmark()
        if landmark != self.seen:
            self.seen = landmark
            self.previews.clear()
            self.redraw()

    # --- what is shown ---
    @property
    def seat(self) -> int:
        return self.table.shown_seat

    @property
    def ghost(self) -> Ghost | None:
        """The table's ghost tile, when it is this seat's to place."""
        state = self.table.current_state()
        return self.table.ghost if state.turn.player == self.seat else None

    def _home(self) -> tuple[int, int]:
        """The ghost's cell, else half A of the last tile placed, else (0, 0)."""
        ghost = self.ghost
        if ghost is not None:
            return ghost.x, ghost.y
        tiles = self.table.current_state().players[self.seat].tiles
        return (tiles[-1][1], tiles[-1][2]) if tiles else (0, 0)

    def redraw(self, centre: bool = False) -> None:
        """Draw the network, the picked Pipeline or the placement's preview, and the keys."""
        state = self.table.current_state()
        player = state.players[self.seat]
        self.infos = pipeline_infos(state, self.seat)
        if self.picked is not None and self.picked >= len(self.infos):
            self.picked = None
        ghost = self.ghost
        ghost_tuple = None
        picked = self.infos[self.picked].segment_keys if self.picked is not None else frozenset()
        free: set[tuple[int, int]] = set()
        if ghost is not None:
            self.places = sorted(
                (m.x, m.y, m.rot) for m in self.table.game.legal_moves() if isinstance(m, M.PlaceTile)
            )
            for x, y, rot in self.places:
                free.update(tile_cells(x, y, rot))
            self.preview = self._preview(ghost.x, ghost.y, ghost.rot)
            ghost.legal = self.preview.reason is None
            ghost_tuple = (ghost.tile, ghost.x, ghost.y, ghost.rot, ghost.legal)
            self.cursor = (ghost.x, ghost.y)
            picked = frozenset().union(*(c.after.segment_keys for c in self.preview.changes))
        else:
            self.preview = None
            self.places = []
            self.cursor = _clamped(self.cursor, player.tiles)
        args = (player.tiles, player.machines, player.worker, ghost_tuple, picked)
        if self.zoom == DETAIL:
            text, grid = render_detail(*args, cursor=self.cursor)
            col, row = grid.lane(*self.cursor)
            self.cursor_region = Region(col, row, CELL_W + 2, CELL_H + 2)
        else:
            text, ogrid = render_overview(*args, cursor=self.cursor, free=free, letters=self.letters)
            col, row = ogrid.origin(*self.cursor)
            self.cursor_region = Region(col, row, OVERVIEW_W, 1)
        self.drawing = text
        self.query_one("#nv-map", Static).update(text)
        self._title(player)
        self.query_one("#nv-info", Static).update(self._info())
        self.query_one("#nv-keys", Static).update(self._keys())
        self.call_after_refresh(self._scroll, centre)

    def _preview(self, x: int, y: int, rot: int) -> PlacementPreview:
        key = (x, y, rot)
        if key not in self.previews:
            self.previews[key] = placement_preview(self.table.current_state(), x, y, rot)
        return self.previews[key]

    def _scroll(self, centre: bool) -> None:
        if self.cursor_region is not None:
            self.query_one(MapScroll).scroll_to_region(
                self.cursor_region, animate=False, center=centre, force=True
            )

    def _title(self, player: PlayerState) -> None:
        zoom = _("tile detail") if self.zoom == DETAIL else _("overview")
        title = _("Pipe Network of {name} · {zoom} · cursor {x},{y}").format(
            name=player.name, zoom=zoom, x=self.cursor[0], y=self.cursor[1]
        )
        self.query_one("#nv-title", Static).update(Text(title))

    def _info(self) -> Text:
        """The picked Pipeline, or what placing the tile in hand here would do."""
        if self.preview is not None:
            return self._placement_info(self.preview)
        out = Text()
        if not self.infos:
            out.append(_("No Pipelines yet: no Pipe tiles in this network."), style="dim")
            return out
        if self.picked is None:
            count = len(self.infos)
            out.append(
                ngettext(
                    "{n} Pipeline. Tab picks one, Enter the one at the cursor.",
                    "{n} Pipelines. Tab picks one, Enter the one at the cursor.",
                    count,
                ).format(n=count),
                style="dim",
            )
            return out
        info = self.infos[self.picked]
        out.append(_("Pipeline {i} of {n}: ").format(i=self.picked + 1, n=len(self.infos)), style="bold")
        out.append_text(_pipeline_line(info))
        return out

    def _placement_info(self, preview: PlacementPreview) -> Text:
        out = Text()
        where = _("Pipe tile in hand at {x},{y} r{rot}: ").format(x=preview.x, y=preview.y, rot=preview.rot)
        out.append(where, style="bold")
        if preview.reason is None:
            count = len(self.places)
            out.append(
                ngettext(
                    "may go here ({n} place in all). Enter places it.",
                    "may go here ({n} places in all). Enter places it.",
                    count,
                ).format(n=count),
                style="bold green",
            )
        else:
            out.append(
                "".join(refusal(preview.reason, _("not here: "), _("not here: {area}: "))), style="bold red"
            )
        for change in preview.changes:
            out.append("\n")
            info = change.after
            out.append(OIL_LETTERS[info.colour], style=OIL_STYLES[info.colour])
            out.append(" ")
            colour = _(COLOUR_NAMES[info.colour])
            segments = info.segments
            if len(change.joined) == 1:
                line = ngettext(
                    "joins the {colour} Pipeline: {before} to {n} Segment",
                    "joins the {colour} Pipeline: {before} to {n} Segments",
                    segments,
                ).format(colour=colour, before=change.joined[0], n=segments)
            elif change.joined:
                line = ngettext(
                    "joins {count} {colour} Pipelines into {n} Segment",
                    "joins {count} {colour} Pipelines into {n} Segments",
                    segments,
                ).format(count=len(change.joined), colour=colour, n=segments)
            else:
                line = ngettext(
                    "a new {colour} Pipeline of {n} Segment",
                    "a new {colour} Pipeline of {n} Segments",
                    segments,
                ).format(colour=colour, n=segments)
            out.append(line)
            out.append(", ")
            out.append(_value_and_grade(info))
            for x, y in change.new_machines:
                out.append(", ")
                out.append(_("reaches your Machine at {x},{y}").format(x=x, y=y), style="bold")
        return out

    def _keys(self) -> Text:
        if self.ghost is not None:
            keys = _("arrows move · r turn · tab next · enter place · z zoom · c centre · esc back")
        else:
            keys = _("arrows · tab Pipeline · enter pick · z zoom · l letters · c centre · esc back")
        return Text(keys)

    # --- keys ---
    def action_close(self) -> None:
        self.dismiss()

    def action_zoom(self) -> None:
        self.zoom = OVERVIEW if self.zoom == DETAIL else DETAIL
        self.redraw(centre=True)

    def action_letters(self) -> None:
        self.letters = not self.letters
        self.redraw()

    def action_centre(self) -> None:
        self.cursor = self._home()
        self.redraw(centre=True)

    def action_move(self, dx: int, dy: int) -> None:
        ghost = self.ghost
        if ghost is not None:
            ghost.x += dx
            ghost.y += dy
            self._ghost_changed()
        else:
            self.cursor = (self.cursor[0] + dx, self.cursor[1] + dy)
        self.redraw()

    def action_rotate(self) -> None:
        ghost = self.ghost
        if ghost is not None:
            ghost.rot = (ghost.rot + 1) % 4
            self._ghost_changed()
            self.redraw()

    def action_cycle(self, step: int) -> None:
        """Tab: the next Pipeline (or, with a tile in hand, the next place it may go)."""
        ghost = self.ghost
        if ghost is not None:
            if not self.places:
                return
            here = (ghost.x, ghost.y, ghost.rot)
            index = self.places.index(here) + step if here in self.places else (0 if step > 0 else -1)
            ghost.x, ghost.y, ghost.rot = self.places[index % len(self.places)]
            self._ghost_changed()
            self.redraw(centre=True)
            return
        if not self.infos:
            return
        if self.picked is None:
            self.picked = 0 if step > 0 else len(self.infos) - 1
        else:
            self.picked = (self.picked + step) % len(self.infos)
        segment = min(self.infos[self.picked].segment_keys)
        self.cursor = (segment[0], segment[1])
        self.redraw(centre=True)

    def action_enter(self) -> None:
        """Enter: place the tile in hand, or pick the Pipeline at the cursor (again: its other
        Pipeline, a cell carrying two)."""
        ghost = self.ghost
        if ghost is not None:
            if self.table.play(M.PlaceTile(x=ghost.x, y=ghost.y, rot=ghost.rot)):
                self.previews.clear()
                self.seen = self._landmark()
                self.picked = None
                self.cursor = self._home()
                self.redraw(centre=True)
            else:
                self.redraw()
            return
        here = [
            i for i, info in enumerate(self.infos) if any(s[:2] == self.cursor for s in info.segment_keys)
        ]
        if not here:
            self.picked = None
        elif self.picked in here:
            self.picked = here[(here.index(self.picked) + 1) % len(here)]
        else:
            self.picked = here[0]
        self.redraw()

    def _ghost_changed(self) -> None:
        """The table re-checks its ghost with the engine, so its panel and hint agree."""
        self.table.post_message(NetworkPanel.Moved())


def _pipeline_line(info: PipelineInfo) -> Text:
    """``T Teal: 7 Segments, value 8, Crude to Mid, Machine at 3,0``."""
    out = Text()
    out.append(OIL_LETTERS[info.colour], style=OIL_STYLES[info.colour])
    out.append(" ")
    out.append(
        ngettext("{colour}: {n} Segment", "{colour}: {n} Segments", info.segments).format(
            colour=_(COLOUR_NAMES[info.colour]), n=info.segments
        ),
        style="bold",
    )
    out.append(", ")
    out.append(_value_and_grade(info))
    out.append(", ")
    if info.machines:
        where = " ".join(f"{x},{y}" for x, y in info.machines)
        out.append(_("Machine at {where}").format(where=where), style="bold")
    else:
        out.append(_("no Machine"))
    return out


def _value_and_grade(info: PipelineInfo) -> str:
    """Refinement Value and the best grade one run takes a Crude barrel to."""
    if info.best_grade:
        return _("value {value}, Crude to {grade}").format(
            value=info.value, grade=_(GRADE_WORDS[info.best_grade])
        )
    return _("value {value}, too short for Crude").format(value=info.value)


def _clamped(cell: tuple[int, int], tiles: Iterable[Sequence[int]]) -> tuple[int, int]:
    """The cursor kept on the drawing: the network's cells and one cell round them."""
    cells = [c for _, x, y, rot in tiles for c in tile_cells(x, y, rot)] or [(0, 0)]
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    return min(max(cell[0], min(xs) - 1), max(xs) + 1), min(max(cell[1], min(ys) - 1), max(ys) + 1)
