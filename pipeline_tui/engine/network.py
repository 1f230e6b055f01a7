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

from collections.abc import Collection, Iterable, Iterator, Sequence
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
    placed: list[tuple[Cell, Cell]] = field(default_factory=list, compare=False, repr=False)  # by tile
    _trace: Trace | None = field(default=None, compare=False, repr=False)
    _ordered: list[Cell] | None = field(default=None, compare=False, repr=False)
    # What callers derive from the map alone and keep with it (the rules' listings): a map is
    # never changed once built, so neither is what is derived from it.
    derived: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    # The same network less its last tile, and that tile's cells: the trace then extends the
    # parent's (:func:`extend_trace`) instead of starting over. Dropped once traced.
    parent: tuple[NetworkMap, tuple[Cell, Cell]] | None = field(default=None, compare=False, repr=False)

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
        base = self.parent
        if base is None:
            trace = _trace(self.cells, self.machines)
        else:
            parent, new = base
            trace = extend_trace(parent._trace or parent._traced(), self.cells, self.machines, new)
        self._trace = trace
        self.parent = None
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

    # The three below are the traced Pipelines filtered. Before the network is traced they trace
    # only the Pipelines they can contain (:meth:`_near`): a run asks for them, and one run
    # need not trace the whole network (``tests/test_fast_listing.py`` compares the two ways).

    def through_tile(self, tile_index: int) -> list[Pipeline]:
        """The Pipelines with a segment on the tile, in key order."""
        if self._trace is None:
            return self._near(self.placed[tile_index])
        return [p for p in self.pipelines if tile_index in p.tiles]

    def attached_to(self, machine: Cell) -> list[Pipeline]:
        """The Pipelines ending at the Machine's edges, in key order."""
        if self._trace is None:
            return [p for p in self._near(self._beside((machine,))) if machine in p.machines]
        return [p for p in self.pipelines if machine in p.machines]

    def attached(self) -> list[Pipeline]:
        """The Pipelines attached to a Machine, in key order."""
        if self._trace is None:
            return [p for p in self._near(self._beside(self.machines)) if p.machines]
        return [p for p in self.pipelines if p.machines]

    def _beside(self, machines: Iterable[Cell]) -> list[Cell]:
        """The covered cells next to the Machines: a Pipeline attached to one ends on one of them."""
        cells = self.cells
        return [(x + dx, y + dy) for x, y in machines for dx, dy in DIRS if (x + dx, y + dy) in cells]

    def _near(self, starts: Iterable[Cell]) -> list[Pipeline]:
        """The Pipelines with a segment on the ``starts`` cells, traced from them alone, in key
        order (each Pipeline is flooded whole, so it equals the full trace's)."""
        machines = self.machines
        found = [
            p for p, _segs in _pipelines_from(self.cells, machines, [c for c in starts if c not in machines])
        ]
        found.sort(key=_key_of)
        return found


def build_map(tiles: list[Placed] | tuple[Placed, ...], machines: Iterable[Sequence[int]]) -> NetworkMap:
    """Lay out a network's cells; its Pipelines are traced when first asked for."""
    cells: dict[Cell, tuple[int, Paths]] = {}
    placed: list[tuple[Cell, Cell]] = []
    for index, (tile_id, x, y, rot) in enumerate(tiles):
        pa, pb = rotated_halves(tile_id, rot)
        ca, cb = tile_cells(x, y, rot)
        cells[ca] = (index, pa)
        cells[cb] = (index, pb)
        placed.append((ca, cb))
    return NetworkMap(cells=cells, machines=frozenset((m[0], m[1]) for m in machines), placed=placed)


# Per edge (N, E, S, W): the step to the neighbouring cell and the edge it is met by there.
_STEPS = ((0, -1, S), (1, 0, W), (0, 1, N), (-1, 0, E))


def _flood(
    cells: dict[Cell, tuple[int, Paths]],
    machine_cells: frozenset[Cell],
    start: SegmentKey,
    reached: set[SegmentKey],
) -> tuple[list[SegmentKey], set[Cell], int]:
    """The Pipeline through ``start`` (not yet in ``reached``): its segments, the Machines at
    its edges and its colour. Same-colour segments meeting edge to edge join it; a Machine's
    half is never entered (rulebook "Running Your Personal Pipe Network", "Machine Phase")."""
    reached.add(start)
    colour = cells[(start[0], start[1])][1][start[2]][2]
    segs: list[SegmentKey] = []
    machines: set[Cell] = set()
    todo = [start]
    while todo:
        seg = todo.pop()
        segs.append(seg)
        x, y, k = seg
        path = cells[(x, y)][1][k]
        for edge in (path[0], path[1]):
            dx, dy, back = _STEPS[edge]
            n = (x + dx, y + dy)
            entry = cells.get(n)
            if entry is None:
                continue
            if n in machine_cells:
                machines.add(n)
                continue
            first, second = entry[1]
            if first[0] == back or first[1] == back:
                if first[2] != colour:
                    continue
                other = (n[0], n[1], 0)
            else:
                if second[2] != colour:
                    continue
                other = (n[0], n[1], 1)
            if other not in reached:
                reached.add(other)
                todo.append(other)
    return segs, machines, colour


def _pipeline(
    cells: dict[Cell, tuple[int, Paths]], segs: list[SegmentKey], machines: set[Cell], colour: int
) -> Pipeline:
    return Pipeline(
        key=min(segs),
        colour=colour,
        segments=len(segs),
        tiles=frozenset([cells[(s[0], s[1])][0] for s in segs]),
        machines=frozenset(machines),
    )


def _pipelines_from(
    cells: dict[Cell, tuple[int, Paths]], machine_cells: frozenset[Cell], starts: Iterable[Cell]
) -> Iterator[tuple[Pipeline, list[SegmentKey]]]:
    """Each Pipeline through a segment of the ``starts`` cells (no Machine on them), with its
    segments, once: the flood (:func:`_flood`) from each segment not reached yet."""
    reached: set[SegmentKey] = set()
    for cx, cy in starts:
        for k0 in (0, 1):
            start = (cx, cy, k0)
            if start in reached:
                continue
            segs, machines, colour = _flood(cells, machine_cells, start, reached)
            yield _pipeline(cells, segs, machines, colour), segs


def _trace(cells: dict[Cell, tuple[int, Paths]], machine_cells: frozenset[Cell]) -> Trace:
    """Trace every Pipeline of a network: from each segment not yet reached, follow the
    same-colour segments meeting it edge to edge (:func:`_flood`). Pipelines come in the order
    of their keys."""
    pipelines: list[Pipeline] = []
    segment_pipeline: dict[SegmentKey, Pipeline] = {}
    free = [cell for cell in cells if cell not in machine_cells]
    for p, segs in _pipelines_from(cells, machine_cells, free):
        pipelines.append(p)
        for s in segs:
            segment_pipeline[s] = p
    pipelines.sort(key=_key_of)
    return pipelines, {p.key: p for p in pipelines}, segment_pipeline


def _key_of(p: Pipeline) -> SegmentKey:
    return p.key


def extend_trace(
    parent: Trace, cells: dict[Cell, tuple[int, Paths]], machine_cells: frozenset[Cell], new: Collection[Cell]
) -> Trace:
    """The trace of a network that is a traced one (``parent``) with one more tile on the
    ``new`` cells (no Machine on them, the same Machines): the Pipelines through the new tile
    are traced afresh, whole (a Pipeline changes only if a new segment meets it, and then the
    flood from that segment reaches all of it); every other Pipeline is the parent's. The same
    result as :func:`_trace` (``tests/test_fast_listing.py`` compares them)."""
    old_pipelines, _old_by_key, old_segments = parent
    segment_pipeline = dict(old_segments)
    joined: set[SegmentKey] = set()  # keys of the parent's Pipelines the new ones take in
    fresh: list[Pipeline] = []
    for p, segs in _pipelines_from(cells, machine_cells, new):
        fresh.append(p)
        for s in segs:
            was = old_segments.get(s)
            if was is not None:
                joined.add(was.key)
            segment_pipeline[s] = p
    pipelines = [p for p in old_pipelines if p.key not in joined] if joined else list(old_pipelines)
    pipelines += fresh
    pipelines.sort(key=_key_of)
    return pipelines, {p.key: p for p in pipelines}, segment_pipeline


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


# In the placement listing a cell (x, y) is the number x * _SPAN + y, so its neighbours are one
# addition away and sets of cells hash plain ints; |y| stays far below _SPAN / 2 in any game.
_SPAN = 1 << 20
_ROT_STEPS = ((_SPAN, 0), (1, 1), (-_SPAN, 2), (-1, 3))  # ROT_DIRS as steps between numbers, with rot


def placement_codes(cells: Collection[Cell]) -> list[int]:
    """:func:`legal_placements` as sorted numbers ``4 * (x * _SPAN + y) + rot`` (in the same
    order): for each rotation, half A on every free cell such that half B's cell is free too and
    one of the two touches the network (is in its frontier)."""
    if not cells:
        return [0, 1, 2, 3]
    occupied = {x * _SPAN + y for x, y in cells}
    frontier = {c + 1 for c in occupied}
    frontier.update([c - 1 for c in occupied], [c + _SPAN for c in occupied], [c - _SPAN for c in occupied])
    frontier -= occupied
    out: list[int] = []
    for step, rot in _ROT_STEPS:
        heads = {f - step for f in frontier}  # half B on the frontier
        heads |= frontier  # half A on the frontier
        heads -= occupied
        heads.difference_update([c - step for c in occupied])  # half B on a covered cell
        out += [4 * h + rot for h in heads]
    out.sort()
    return out


def placement_codes_grown(before: list[int], cells: Collection[Cell], new: tuple[Cell, Cell]) -> list[int]:
    """:func:`placement_codes` of a network ``cells`` that is one with the codes ``before`` (of a
    network with at least one tile) plus the ``new`` tile's two cells, without walking the whole
    network: a place stays open unless it covers a new cell, and a place opens only if it is free
    and touches a new cell, so only the new cells' neighbours are tried. The same list
    (``tests/test_fast_listing.py`` compares them). The two cells are spelled out: no small
    comprehension per rotation."""
    occupied = {x * _SPAN + y for x, y in cells}
    (ax, ay), (bx, by) = new  # a tile's two cells
    a, b = ax * _SPAN + ay, bx * _SPAN + by
    kept = set(before)
    around: set[int] = set()
    for step, rot in _ROT_STEPS:  # the places with half A or half B on a new cell close
        kept.difference_update((4 * a + rot, 4 * b + rot, 4 * (a - step) + rot, 4 * (b - step) + rot))
        around.add(a + step)
        around.add(b + step)
    around -= occupied
    for step, rot in _ROT_STEPS:
        for c in around:
            if c + step not in occupied:
                kept.add(4 * c + rot)  # half A beside a new cell
            if c - step not in occupied:
                kept.add(4 * (c - step) + rot)  # half B beside a new cell
    return sorted(kept)


def placement_of(code: int) -> tuple[int, int, int]:
    """The ``(x, y, rot)`` a number of :func:`placement_codes` stands for."""
    cell = code >> 2
    x = (cell + _SPAN // 2) // _SPAN
    return x, cell - x * _SPAN, code & 3


def legal_placements(cells: Collection[Cell]) -> list[tuple[int, int, int]]:
    """All (x, y, rot) where a tile may go, sorted; see :func:`placement_ok`. Every pair of
    free neighbouring cells touching the network takes a tile both ways round."""
    return [placement_of(code) for code in placement_codes(cells)]
