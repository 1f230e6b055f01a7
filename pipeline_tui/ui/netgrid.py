"""The Personal Pipe Network drawn as a character grid.

Every tile half is a cell of ``CELL_W`` x ``CELL_H`` characters with a one-character lane to its
left and above it. Paths are box-drawing lines in the oil colour with the colour's letter beside
them; two straights cross as a bridge (the north-south pipe passes over); a Machine is a solid
block marked ``M``; the worker is ``@``. Tile borders are dashed lines in the lanes (blank
between the two halves of one tile), so tiles read without colour; pipes continue across the
lanes as solid lines, and where two colours meet without joining the lane shows ``×``.
Neighbouring tiles also get different backgrounds. A ghost tile (the
Pipe tile in hand) is drawn over the grid on a shaded ``░`` ground (visible without colour too),
green when it may go there and red when not; the hint beside the grid says which in words.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from rich.style import Style
from rich.text import Text

from ..engine import DIRS, ROT_DIRS, rotated_halves, tile_cells
from .style import OIL_LETTERS, OIL_STYLES

CELL_W, CELL_H = 5, 3
PITCH_W, PITCH_H = CELL_W + 1, CELL_H + 1  # a cell and the border lane to its left / above it
RULER_W = 4  # the y ruler on the left
N, E, S, W = 0, 1, 2, 3

# (column, row, character) of each path shape inside a cell, keyed by its sorted edge pair.
_SHAPES: dict[tuple[int, int], tuple[tuple[int, int, str], ...]] = {
    (N, S): ((2, 0, "│"), (2, 1, "│"), (2, 2, "│")),
    (E, W): ((0, 1, "─"), (1, 1, "─"), (2, 1, "─"), (3, 1, "─"), (4, 1, "─")),
    (N, E): ((2, 0, "└"), (3, 0, "┐"), (3, 1, "└"), (4, 1, "─")),
    (N, W): ((2, 0, "┘"), (1, 0, "┌"), (1, 1, "┘"), (0, 1, "─")),
    (E, S): ((2, 2, "┌"), (3, 2, "┘"), (3, 1, "┌"), (4, 1, "─")),
    (S, W): ((2, 2, "┐"), (1, 2, "└"), (1, 1, "┐"), (0, 1, "─")),
}
_LETTER_SPOTS = {
    (N, S): ((1, 0), (3, 0), (1, 2), (3, 2)),
    (E, W): ((4, 2), (0, 2), (4, 0), (0, 0)),
    (N, E): ((4, 0),),
    (N, W): ((0, 0),),
    (E, S): ((4, 2),),
    (S, W): ((0, 2),),
}
_CORNERS = ((0, 0), (4, 0), (0, 2), (4, 2), (1, 0), (3, 0), (1, 2), (3, 2), (2, 1))
TILE_BACKGROUNDS = ("#1d2233", "#33261d", "#1d3324", "#2f1d33")
GHOST_OK = "on #1f6f2f"
GHOST_BAD = "on #8f1f1f"
LIT = "on #5f5f00"

Cell = tuple[int, int]
Paths = Sequence[tuple[int, int, int]]  # a half's paths: (edge, edge, colour)
Placed = Sequence[int]  # a placed tile: (tile id, x, y, rot)
HandTile = tuple[int, int, int, int, bool]  # a tile in hand: (tile id, x, y, rot, legal there)
Drawn = tuple[str, str]  # a character and its style


def _cell_chars(paths: Paths, worker: bool) -> list[tuple[int, int, str, str]]:
    """The drawn characters of one half: (column, row, char, style)."""
    out: list[tuple[int, int, str, str]] = []
    used: set[tuple[int, int]] = set()
    keys = [(a, b) if a < b else (b, a) for a, b, _ in paths]
    crossing = set(keys) == {(N, S), (E, W)}
    for (a, b, colour), key in zip(paths, keys):
        for col, row, ch in _SHAPES[key]:
            if crossing and key == (E, W) and (col, row) == (2, 1):
                continue
            out.append((col, row, ch, OIL_STYLES[colour]))
            used.add((col, row))
    for (a, b, colour), key in zip(paths, keys):
        spot = next((s for s in _LETTER_SPOTS[key] + _CORNERS if s not in used), None)
        if spot is not None:
            out.append((spot[0], spot[1], OIL_LETTERS[colour], OIL_STYLES[colour]))
            used.add(spot)
    if worker:
        spot = next((s for s in _CORNERS if s not in used), (2, 1))
        out.append((spot[0], spot[1], "@", "bold reverse"))
    return out


def _colouring(tiles: Iterable[Placed]) -> list[int]:
    """A background index per tile so that touching tiles differ (greedy)."""
    owner: dict[tuple[int, int], int] = {}
    for index, (_, x, y, rot) in enumerate(tiles):
        for cell in tile_cells(x, y, rot):
            owner[cell] = index
    colours: list[int] = []
    for index, (_, x, y, rot) in enumerate(tiles):
        taken: set[int] = set()
        for cx, cy in tile_cells(x, y, rot):
            for dx, dy in DIRS:
                other = owner.get((cx + dx, cy + dy))
                if other is not None and other < index:
                    taken.add(colours[other])
        colours.append(next(c for c in range(len(TILE_BACKGROUNDS)) if c not in taken))
    return colours


class Grid:
    """The bounds of a drawn network: cell (x, y) -> character position."""

    def __init__(self, cells: Iterable[Cell], extra: Iterable[Cell] = ()) -> None:
        xs = [x for x, _ in cells] + [x for x, _ in extra] + [0]
        ys = [y for _, y in cells] + [y for _, y in extra] + [0]
        self.min_x, self.max_x = min(xs) - 1, max(xs) + 1
        self.min_y, self.max_y = min(ys) - 1, max(ys) + 1

    @property
    def width(self) -> int:
        return RULER_W + PITCH_W * (self.max_x - self.min_x + 1) + 1

    @property
    def height(self) -> int:
        return 1 + PITCH_H * (self.max_y - self.min_y + 1) + 1

    def lane(self, x: int, y: int) -> tuple[int, int]:
        """The lane corner above and left of cell (x, y)."""
        return RULER_W + PITCH_W * (x - self.min_x), 1 + PITCH_H * (y - self.min_y)

    def origin(self, x: int, y: int) -> tuple[int, int]:
        """Top-left character of the inside of cell (x, y)."""
        col, row = self.lane(x, y)
        return col + 1, row + 1

    def contains(self, cell: tuple[int, int]) -> bool:
        return self.min_x <= cell[0] <= self.max_x and self.min_y <= cell[1] <= self.max_y

    def cell_at(self, col: int, row: int) -> tuple[int, int] | None:
        if col < RULER_W or row < 1:
            return None
        return self.min_x + (col - RULER_W) // PITCH_W, self.min_y + (row - 1) // PITCH_H


def worker_cell(worker: str) -> tuple[int, int] | None:
    """The network cell a worker string like ``run 2,-1`` or ``machine 0,0`` points at."""
    verb, _, where = worker.partition(" ")
    if verb not in ("run", "machine") or "," not in where:
        return None
    x, y = where.split(",")
    return int(x), int(y)


def render_network(
    tiles: Sequence[Placed],
    machines: Iterable[Sequence[int]],
    worker: str = "",
    ghost: HandTile | None = None,
    mark: tuple[int, int] | None = None,
    lit: Collection[Cell] = frozenset(),
    size: tuple[int, int] = (0, 0),
) -> tuple[Text, Grid]:
    """Draw a network. ``ghost`` is ``(tile_id, x, y, rot, legal)`` or ``None``; ``mark`` is a
    cell to show in reverse (the cell the highlighted move names); ``lit`` are cells shown on a
    bright ground (the Pipeline picked in the list), their empty spots dotted. The drawing is
    at least ``size`` (width, height), blank to the right and below."""
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
    grid = Grid(cells, ghost_cells)
    width, height = max(grid.width, size[0]), max(grid.height, size[1])
    chars = [[" "] * width for _ in range(height)]
    styles: list[list[str]] = [[""] * width for _ in range(height)]

    for x in range(grid.min_x, grid.max_x + 1):
        col, _ = grid.origin(x, 0)
        label = f"{x:^{CELL_W}}"
        for i, ch in enumerate(label):
            chars[0][col + i] = ch
            styles[0][col + i] = "dim"
    for y in range(grid.min_y, grid.max_y + 1):
        _, row = grid.origin(0, y)
        for i, ch in enumerate(f"{y:>3}"):
            chars[row + 1][i] = ch
            styles[row + 1][i] = "dim"

    def put(cell: Cell, items: Iterable[tuple[int, int, str, str]], background: str, fill: str = " ") -> None:
        col0, row0 = grid.origin(*cell)
        for r in range(CELL_H):
            for c in range(CELL_W):
                chars[row0 + r][col0 + c] = fill
                styles[row0 + r][col0 + c] = background
        for c, r, ch, style in items:
            chars[row0 + r][col0 + c] = ch
            styles[row0 + r][col0 + c] = f"{style} {background}".strip()

    colours = _colouring(tiles)
    machine_cells: set[Cell] = {(m[0], m[1]) for m in machines}
    at = worker_cell(worker)
    for cell, (index, paths) in cells.items():
        background = f"on {TILE_BACKGROUNDS[colours[index]]}"
        if cell in machine_cells:
            items = [(c, r, "█", "#9a9aa8") for r in range(CELL_H) for c in range(CELL_W)]
            items[7] = (2, 1, "M", "bold reverse")
            if cell == at:
                items[6] = (1, 1, "@", "bold reverse")
            put(cell, items, background)
        else:
            put(cell, _cell_chars(paths, cell == at), background)
    if not cells and not ghost_cells:
        col, row = grid.origin(0, 0)
        chars[row + 1][col + 2] = "+"
        styles[row + 1][col + 2] = "dim"
    else:
        for cx, cy in list(cells):
            for dx, dy in DIRS:
                n = (cx + dx, cy + dy)
                if n not in cells and grid.contains(n):
                    col, row = grid.origin(*n)
                    chars[row + 1][col + 2] = "·"
                    styles[row + 1][col + 2] = "dim"
    _draw_lanes(grid, cells, machine_cells, chars, styles)
    if ghost is not None:
        background = GHOST_OK if ghost[4] else GHOST_BAD
        for cell, paths in ghost_cells.items():
            put(cell, _cell_chars(paths, False), background, fill="░")
        (ax, ay), (bx, by) = ghost_cells
        col, row = grid.lane(max(ax, bx), max(ay, by))
        join = ghost_cells[(ax, ay)][0][2]  # half A's first path is the join pipe
        if ax != bx:
            spots = [(col, row + 1 + r, "─" if r == 1 else "░") for r in range(CELL_H)]
        else:
            spots = [(col + 1 + c, row, "│" if c == 2 else "░") for c in range(CELL_W)]
        for c, r, ch in spots:
            chars[r][c] = ch
            styles[r][c] = f"{OIL_STYLES[join]} {background}" if ch != "░" else background
    for cell in lit:
        if cell in cells:
            col0, row0 = grid.origin(*cell)
            for r in range(CELL_H):
                for c in range(CELL_W):
                    if chars[row0 + r][col0 + c] == " ":
                        chars[row0 + r][col0 + c] = "∙"
                    styles[row0 + r][col0 + c] = f"{styles[row0 + r][col0 + c]} {LIT}".strip()
    if mark is not None and grid.contains(mark):
        col0, row0 = grid.origin(*mark)
        for r in range(CELL_H):
            for c in range(CELL_W):
                styles[row0 + r][col0 + c] = f"{styles[row0 + r][col0 + c]} reverse".strip()

    text = Text()
    for r in range(height):
        line = Text()
        run_style, run = styles[r][0], [chars[r][0]]
        for c in range(1, width):
            if styles[r][c] == run_style:
                run.append(chars[r][c])
            else:
                line.append("".join(run), Style.parse(run_style) if run_style else None)
                run_style, run = styles[r][c], [chars[r][c]]
        line.append("".join(run), Style.parse(run_style) if run_style else None)
        if r:
            text.append("\n")
        text.append_text(line)
    return text, grid


def _edge_colour(paths: Paths, edge: int) -> int:
    return next(colour for a, b, colour in paths if edge in (a, b))


def _draw_lanes(
    grid: Grid,
    cells: dict[Cell, tuple[int, Paths]],
    machines: Collection[Cell],
    chars: list[list[str]],
    styles: list[list[str]],
) -> None:
    """Tile borders, pipes crossing between cells, and lane corners."""

    def lane_mark(first: Cell, second: Cell, edge: int, pipe: str, border: str) -> tuple[Drawn, Drawn] | None:
        """What the middle and the rest of a lane between two cells show (None = nothing)."""
        a, b = cells.get(first), cells.get(second)
        if a is None and b is None:
            return None
        same = a is not None and b is not None and a[0] == b[0]
        rest: Drawn = (" ", "") if same else (border, "dim")
        if a is None or b is None:
            return (border, "dim"), rest
        if first in machines or second in machines:
            return ("█", "#9a9aa8"), rest
        ca, cb = _edge_colour(a[1], edge), _edge_colour(b[1], (edge + 2) % 4)
        return ((pipe, OIL_STYLES[ca]) if ca == cb else ("×", "bold")), rest

    for y in range(grid.min_y, grid.max_y + 1):
        for x in range(grid.min_x, grid.max_x + 2):
            marks = lane_mark((x - 1, y), (x, y), E, "─", "╎")
            if marks:
                col, row = grid.lane(x, y)
                for r in range(CELL_H):
                    chars[row + 1 + r][col], styles[row + 1 + r][col] = marks[0] if r == 1 else marks[1]
    for y in range(grid.min_y, grid.max_y + 2):
        for x in range(grid.min_x, grid.max_x + 1):
            marks = lane_mark((x, y - 1), (x, y), S, "│", "╌")
            if marks:
                col, row = grid.lane(x, y)
                for c in range(CELL_W):
                    chars[row][col + 1 + c], styles[row][col + 1 + c] = marks[0] if c == 2 else marks[1]
    for y in range(grid.min_y, grid.max_y + 2):
        for x in range(grid.min_x, grid.max_x + 2):
            around = {c: cells[c][0] for c in ((x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)) if c in cells}
            if not around:
                continue
            col, row = grid.lane(x, y)
            tiles = set(around.values())
            pair = sorted(around)
            if len(around) == 2 and len(tiles) == 1:  # the middle of one tile's long side
                ch = "╌" if pair[0][1] == pair[1][1] else "╎"
            elif (
                len(around) == 4
                and len(tiles) == 2
                and all(around[(x - 1, yy)] == around[(x, yy)] for yy in (y - 1, y))
            ):
                ch = "╌"  # between two tiles lying side by side, each spanning the corner
            elif (
                len(around) == 4
                and len(tiles) == 2
                and all(around[(xx, y - 1)] == around[(xx, y)] for xx in (x - 1, x))
            ):
                ch = "╎"
            else:
                ch = "+"
            chars[row][col], styles[row][col] = ch, "dim"


def render_tile(tile_id: int, rot: int = 0) -> Text:
    """One Pipe tile alone, its halves laid out as ``rot`` places them (B east of A for r0)."""
    pa, pb = rotated_halves(tile_id, rot)
    bx, by = ROT_DIRS[rot]
    cols, rows = (2, 1) if bx else (1, 2)
    spots = {(0 if bx >= 0 else 1, 0 if by >= 0 else 1): pa, (max(bx, 0), max(by, 0)): pb}
    chars = [[(" ", "")] * (CELL_W * cols) for _ in range(CELL_H * rows)]
    for (cx, cy), paths in spots.items():
        for c, r, ch, style in _cell_chars(paths, False):
            chars[cy * CELL_H + r][cx * CELL_W + c] = (ch, style)
    out = Text()
    for r, line in enumerate(chars):
        if r:
            out.append("\n")
        for ch, style in line:
            out.append(ch, f"{style} on #262626".strip())
    return out
