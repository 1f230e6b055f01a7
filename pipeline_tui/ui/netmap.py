"""The network view's two drawings of a Pipe Network: the tile-detail zoom (the table's grid,
``netgrid.render_network``, with one Pipeline drawn over it and a cursor) and the overview zoom,
two characters a cell, so a network of 25 tiles fits an 80 x 24 terminal.

In the overview a cell shows its two paths (rulebook "Pipe tiles": each half carries two
Segments) side by side: the path touching the west edge first, as the box-drawing line of its
shape (``┐└`` are two curves, ``┼─`` two straights crossing), in its oil colour; with letters on
(and always under NO_COLOR) each path shows its colour letter instead (``OT``). A Machine is
``MM``, the worker ``@``. Neighbouring tiles get different backgrounds, the picked Pipeline is
drawn in reverse, and the cursor cell is underlined on a yellow ground.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from rich.style import Style
from rich.text import Text

from ..engine import DIRS, rotated_halves, tile_cells
from .netgrid import _SHAPES, CELL_H, CELL_W, GHOST_BAD, GHOST_OK, TILE_BACKGROUNDS, Grid, _colouring
from .netgrid import HandTile, Paths, Placed, render_network, worker_cell
from .style import OIL_LETTERS, OIL_STYLES

N, E, S, W = 0, 1, 2, 3
Cell = tuple[int, int]
SegmentKey = tuple[int, int, int]
OVERVIEW_W = 2  # characters a cell in the overview
PICKED = "bold reverse"  # the picked Pipeline, in both zooms
CURSOR = "bold underline on #87870f"
CURSOR_CORNERS = "bold #ffd75f"
_GLYPHS = {(N, S): "│", (E, W): "─", (N, E): "└", (N, W): "┘", (E, S): "┌", (S, W): "┐"}


def _key(path: tuple[int, int, int]) -> tuple[int, int]:
    a, b, _ = path
    return (a, b) if a < b else (b, a)


def overview_cell(paths: Paths, letters: bool) -> list[tuple[str, int, int]]:
    """The two characters of one half in the overview: (char, colour, path index)."""
    keys = [_key(p) for p in paths]
    if set(keys) == {(N, S), (E, W)}:
        ns = keys.index((N, S))
        order = [ns, 1 - ns]
        glyphs = ["┼", "─"]
    else:
        first = 0 if W in keys[0] else 1
        order = [first, 1 - first]
        glyphs = [_GLYPHS[keys[i]] for i in order]
    if letters:
        glyphs = [OIL_LETTERS[paths[i][2]] for i in order]
    return [(glyphs[n], paths[i][2], i) for n, i in enumerate(order)]


class OverviewGrid:
    """The bounds of an overview drawing: cell (x, y) -> its first character."""

    def __init__(self, cells: Iterable[Cell]) -> None:
        cells = list(cells) or [(0, 0)]
        self.min_x = min(x for x, _ in cells) - 1
        self.max_x = max(x for x, _ in cells) + 1
        self.min_y = min(y for _, y in cells) - 1
        self.max_y = max(y for _, y in cells) + 1
        self.width = OVERVIEW_W * (self.max_x - self.min_x + 1)
        self.height = self.max_y - self.min_y + 1

    def origin(self, x: int, y: int) -> tuple[int, int]:
        return OVERVIEW_W * (x - self.min_x), y - self.min_y


def render_overview(
    tiles: Sequence[Placed],
    machines: Iterable[Sequence[int]],
    worker: str = "",
    ghost: HandTile | None = None,
    picked: Collection[SegmentKey] = frozenset(),
    cursor: Cell | None = None,
    free: Collection[Cell] = frozenset(),
    letters: bool = False,
) -> tuple[Text, OverviewGrid]:
    """Draw a network two characters a cell. ``ghost`` is ``(tile_id, x, y, rot, legal)`` or
    ``None``; ``picked`` the Segments of the Pipeline to draw in reverse; ``free`` the empty
    cells a tile may cover (dotted)."""
    cells: dict[Cell, tuple[int, Paths]] = {}
    for index, (tile_id, x, y, rot) in enumerate(tiles):
        pa, pb = rotated_halves(tile_id, rot)
        ca, cb = tile_cells(x, y, rot)
        cells[ca] = (index, pa)
        cells[cb] = (index, pb)
    ghost_cells: dict[Cell, Paths] = {}
    if ghost is not None:
        tile_id, gx, gy, rot, _ = ghost
        pa, pb = rotated_halves(tile_id, rot)
        ca, cb = tile_cells(gx, gy, rot)
        ghost_cells = {ca: pa, cb: pb}
    extra = [cursor] if cursor is not None else []
    grid = OverviewGrid([*cells, *ghost_cells, *extra])
    chars = [[" "] * grid.width for _ in range(grid.height)]
    styles = [[""] * grid.width for _ in range(grid.height)]

    def put(cell: Cell, items: list[tuple[str, str]]) -> None:
        col, row = grid.origin(*cell)
        for i, (ch, style) in enumerate(items):
            chars[row][col + i], styles[row][col + i] = ch, style

    for cell in free:
        if cell not in cells:
            col, row = grid.origin(*cell)
            if 0 <= row < grid.height and 0 <= col < grid.width:
                put(cell, [("·", "dim"), (" ", "")])
    colours = _colouring(tiles)
    machine_cells = {(m[0], m[1]) for m in machines}
    at = worker_cell(worker)
    for cell, (index, paths) in cells.items():
        ground = f"on {TILE_BACKGROUNDS[colours[index]]}"
        if cell in machine_cells:
            items = [("M", f"bold reverse #9a9aa8 {ground}"), ("M", f"bold reverse #9a9aa8 {ground}")]
        else:
            items = []
            for ch, colour, k in overview_cell(paths, letters):
                lit = PICKED if (cell[0], cell[1], k) in picked else ""
                items.append((ch, f"{OIL_STYLES[colour]} {lit} {ground}".strip()))
        if cell == at:
            items[1] = ("@", f"bold reverse {ground}")
        put(cell, items)
    if ghost is not None:
        ground = GHOST_OK if ghost[4] else GHOST_BAD
        for cell, paths in ghost_cells.items():
            put(
                cell,
                [(ch, f"{OIL_STYLES[colour]} {ground}") for ch, colour, _ in overview_cell(paths, letters)],
            )
    if cursor is not None:
        col, row = grid.origin(*cursor)
        for i in range(OVERVIEW_W):
            if chars[row][col + i] == " ":
                chars[row][col + i] = "▪" if i == 0 else " "
            styles[row][col + i] = f"{styles[row][col + i]} {CURSOR}".strip()
    return _text(chars, styles), grid


def _text(chars: list[list[str]], styles: list[list[str]]) -> Text:
    """Rows of characters and their styles as one Text, a run of one style at a time."""
    text = Text(no_wrap=True, overflow="crop")
    for r, row in enumerate(chars):
        if r:
            text.append("\n")
        start = 0
        for c in range(1, len(row) + 1):
            if c == len(row) or styles[r][c] != styles[r][start]:
                style = styles[r][start]
                text.append("".join(row[start:c]), Style.parse(style) if style else None)
                start = c
    return text


def render_detail(
    tiles: Sequence[Placed],
    machines: Iterable[Sequence[int]],
    worker: str = "",
    ghost: HandTile | None = None,
    picked: Collection[SegmentKey] = frozenset(),
    cursor: Cell | None = None,
) -> tuple[Text, Grid]:
    """The table's grid (``render_network``) with the Segments ``picked`` drawn in reverse, the
    joins between them too, and the cursor cell's corners in bold yellow (a cursor outside the
    drawing, one cell round the network, is not drawn: the view keeps it inside)."""
    text, grid = render_network(tiles, machines, worker, ghost, None, frozenset())
    width = grid.width
    cells: dict[Cell, Paths] = {}
    for tile_id, x, y, rot in tiles:
        pa, pb = rotated_halves(tile_id, rot)
        ca, cb = tile_cells(x, y, rot)
        cells[ca], cells[cb] = pa, pb

    def stylize(col: int, row: int, style: str) -> None:
        start = row * (width + 1) + col
        text.stylize(style, start, start + 1)

    for x, y, k in picked:
        paths = cells.get((x, y))
        if paths is None:
            continue
        col0, row0 = grid.origin(x, y)
        for c, r, _ in _SHAPES[_key(paths[k])]:
            stylize(col0 + c, row0 + r, PICKED)
        for edge in paths[k][:2]:
            dx, dy = DIRS[edge]
            other = (x + dx, y + dy)
            if other not in cells or not any((other[0], other[1], j) in picked for j in (0, 1)):
                continue
            lane_col, lane_row = grid.lane(max(x, other[0]), max(y, other[1]))
            if dx:
                stylize(lane_col, lane_row + 1 + CELL_H // 2, PICKED)
            else:
                stylize(lane_col + 1 + CELL_W // 2, lane_row, PICKED)
    if cursor is not None and grid.contains(cursor):
        x, y = cursor
        for cx, cy, ch in ((x, y, "┏"), (x + 1, y, "┓"), (x, y + 1, "┗"), (x + 1, y + 1, "┛")):
            col, row = grid.lane(cx, cy)
            start = row * (width + 1) + col
            text = text[:start] + Text(ch, style=CURSOR_CORNERS) + text[start + 1 :]
    return text, grid
