"""A player's Personal Pipe Network: where tiles lie, and the Pipelines they form.

Geometry (docs/architecture.md, "The pipe tile model"): cells on a square grid, x to the east and y to the south. A placed
tile is ``(tile_id, x, y, rot)``: half A lies on cell (x, y) and half B on the neighbouring cell in
direction ``rot`` (0 east, 1 south, 2 west, 3 north); every path is turned ``rot`` quarter turns
clockwise from the tile's canonical orientation. A Segment is one path inside one half. A Pipeline
is a maximal chain of same-colour segments meeting edge to edge; its Refinement Value is its
segment count (rulebook "Running Your Personal Pipe Network") plus Engineering bonuses. A Machine
covers one half: that half's segments do not count and every Pipeline ending at its edges is
attached to it (rulebook "Machine Phase").
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..data.components import pipe_tiles
from ..i18n import _

N, E, S, W = 0, 1, 2, 3
DIRS = ((0, -1), (1, 0), (0, 1), (-1, 0))  # indexed by edge: N, E, S, W
ROT_DIRS = (DIRS[E], DIRS[S], DIRS[W], DIRS[N])  # where half B lies for rot 0, 1, 2, 3
Cell = tuple[int, int]
Placed = tuple[int, int, int, int]  # tile id, x, y, rot
SegmentKey = tuple[int, int, int]  # x, y, path index (0 or 1)
Paths = tuple[tuple[int, int, int], tuple[int, int, int]]


@lru_cache(maxsize=None)
def rotated_halves(tile_id: int, rot: int) -> tuple[Paths, Paths]:
    """The paths of halves A and B of a tile turned ``rot`` quarter turns clockwise."""
    tile = pipe_tiles()[tile_id]

    def turn(paths: Paths) -> Paths:
        return tuple(((a + rot) % 4, (b + rot) % 4, c) for a, b, c in paths)  # type: ignore

    return turn(tile.a.paths), turn(tile.b.paths)


def tile_cells(x: int, y: int, rot: int) -> tuple[Cell, Cell]:
    """The two cells covered by a tile whose half A lies on (x, y)."""
    dx, dy = ROT_DIRS[rot]
    return (x, y), (x + dx, y + dy)


@dataclass(slots=True)
class Pipeline:
    """One Pipeline: its key (smallest segment), colour, segment count and where it runs."""

    key: SegmentKey
    colour: int
    segments: int
    tiles: frozenset[int]  # indices into the placed-tile list it passes through
    machines: frozenset[Cell]  # machine cells it is attached to

    def value(self, engineering: int) -> int:
        """Refinement Value: segments plus Engineering I (+1 per 4) or II (+2 per 4)."""
        per_four = 2 if engineering >= 2 else (1 if engineering >= 1 else 0)
        return self.segments + per_four * (self.segments // 4)


Trace = tuple[list[Pipeline], dict[SegmentKey, Pipeline], dict[SegmentKey, Pipeline]]


@dataclass(slots=True)
class NetworkMap:
    """Everything derived from a list of placed tiles and machines (pure, cached by the game).

    The cells are laid out at once; the Pipelines are traced the first time they are asked for
    (placing a tile or choosing where to run needs only the cells). The trace is stored in one
    assignment, so threads sharing a cached map see it whole or not at all."""

    cells: dict[Cell, tuple[int, Paths]]  # cell -> (index of its tile, its paths)
    machines: frozenset[Cell]
    _trace: Trace | None = field(default=None, compare=False, repr=False)
    _ordered: list[Cell] | None = field(default=None, compare=False, repr=False)
    # What callers derive from the map alone and keep with it (the rules' listings): a map is
    # never changed once built, so neither is what is derived from it.
    derived: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def pipelines(self) -> list[Pipeline]:
        return (self._trace or self._traced())[0]

    @property
    def by_key(self) -> dict[SegmentKey, Pipeline]:
        """Each Pipeline by its key (its smallest segment)."""
        return (self._trace or self._traced())[1]

    @property
    def segment_pipeline(self) -> dict[SegmentKey, Pipeline]:
        """The Pipeline each segment belongs to."""
        return (self._trace or self._traced())[2]

    def _traced(self) -> Trace:
        trace = self._trace = _trace(self.cells, self.machines)
        return trace

    def ordered_cells(self) -> list[Cell]:
        """The covered cells in sorted order (the places a worker may run the network from)."""
        ordered = self._ordered
        if ordered is None:
            ordered = self._ordered = sorted(self.cells)
        return ordered

    def tile_of(self, cell: Cell) -> int | None:
        entry = self.cells.get(cell)
        return None if entry is None else entry[0]

    def longest(self) -> tuple[int, int, int]:
        """Longest Pipeline per colour in segments: the Pipeline track of the player board."""
        best = [0, 0, 0]
        for p in self.pipelines:
            if p.segments > best[p.colour]:
                best[p.colour] = p.segments
        return best[0], best[1], best[2]

    def through_tile(self, tile_index: int) -> list[Pipeline]:
        return [p for p in self.pipelines if tile_index in p.tiles]

    def attached_to(self, machine: Cell) -> list[Pipeline]:
        return [p for p in self.pipelines if machine in p.machines]

    def attached(self) -> list[Pipeline]:
        return [p for p in self.pipelines if p.machines]


def build_map(tiles: list[Placed] | tuple[Placed, ...], machines: Iterable[Sequence[int]]) -> NetworkMap:
    """Lay out a network's cells; its Pipelines are traced when first asked for."""
    cells: dict[Cell, tuple[int, Paths]] = {}
    for index, (tile_id, x, y, rot) in enumerate(tiles):
        pa, pb = rotated_halves(tile_id, rot)
        ca, cb = tile_cells(x, y, rot)
        cells[ca] = (index, pa)
        cells[cb] = (index, pb)
    return NetworkMap(cells=cells, machines=frozenset((m[0], m[1]) for m in machines))


def _trace(cells: dict[Cell, tuple[int, Paths]], machine_cells: frozenset[Cell]) -> Trace:
    """Trace every Pipeline of a network: from each segment not yet reached, follow the
    same-colour segments meeting it edge to edge; a Machine's half is never entered, and every
    Pipeline ending at its edge is attached to it. Pipelines come in the order of their keys."""
    reached: set[SegmentKey] = set()
    found: list[tuple[SegmentKey, list[SegmentKey], set[Cell], int]] = []
    for (cx, cy), (_tile, paths) in cells.items():
        if (cx, cy) in machine_cells:
            continue
        for k0 in (0, 1):
            start = (cx, cy, k0)
            if start in reached:
                continue
            reached.add(start)
            colour = paths[k0][2]
            segs: list[SegmentKey] = []
            machines: set[Cell] = set()
            todo = [start]
            while todo:
                seg = todo.pop()
                segs.append(seg)
                x, y, k = seg
                e1, e2, _colour = cells[(x, y)][1][k]
                for edge in (e1, e2):
                    dx, dy = DIRS[edge]
                    n = (x + dx, y + dy)
                    entry = cells.get(n)
                    if entry is None:
                        continue
                    if n in machine_cells:
                        machines.add(n)
                        continue
                    back = (edge + 2) % 4
                    npaths = entry[1]
                    k2 = 0 if back in (npaths[0][0], npaths[0][1]) else 1
                    if npaths[k2][2] == colour:
                        other = (n[0], n[1], k2)
                        if other not in reached:
                            reached.add(other)
                            todo.append(other)
            found.append((min(segs), segs, machines, colour))
    found.sort(key=lambda f: f[0])
    pipelines: list[Pipeline] = []
    by_key: dict[SegmentKey, Pipeline] = {}
    segment_pipeline: dict[SegmentKey, Pipeline] = {}
    for key, segs, machines, colour in found:
        p = Pipeline(
            key=key,
            colour=colour,
            segments=len(segs),
            tiles=frozenset(cells[(s[0], s[1])][0] for s in segs),
            machines=frozenset(machines),
        )
        pipelines.append(p)
        by_key[key] = p
        for s in segs:
            segment_pipeline[s] = p
    return pipelines, by_key, segment_pipeline


def placement_ok(cells: Collection[Cell], x: int, y: int, rot: int) -> str | None:
    """Why a tile cannot go at (x, y, rot) in a network whose occupied cells are ``cells``.

    Rulebook "Adding Pipe tiles to your Personal Pipe Network": the new tile must touch the network
    orthogonally (colours need not match). The first tile of a network starts at (0, 0).
    """
    a, b = tile_cells(x, y, rot)
    if not cells:
        return None if a == (0, 0) else _("Pipe Network: the first tile starts at 0,0")
    if a in cells or b in cells:
        return _("Pipe Network: that space is already covered by a tile")
    for cx, cy in (a, b):
        for dx, dy in DIRS:
            if (cx + dx, cy + dy) in cells:
                return None
    return _("Pipe Network: a new tile must touch a tile already in the network")


def legal_placements(cells: Collection[Cell]) -> list[tuple[int, int, int]]:
    """All (x, y, rot) where a tile may go, sorted; see :func:`placement_ok`. Every pair of
    free neighbouring cells touching the network takes a tile both ways round."""
    if not cells:
        return [(0, 0, r) for r in range(4)]
    frontier = set()
    for cx, cy in cells:
        for n in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
            if n not in cells:
                frontier.add(n)
    out = []
    for f in frontier:
        fx, fy = f
        for rot, (dx, dy) in enumerate(ROT_DIRS):
            g = (fx + dx, fy + dy)
            if g in cells or (g in frontier and g < f):  # covered, or met from g's side
                continue
            out.append((fx, fy, rot))  # half A on f, half B on g
            out.append((g[0], g[1], (rot + 2) % 4))  # half A on g, half B on f
    out.sort()
    return out
