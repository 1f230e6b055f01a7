"""Where the expert lays its Pipe tiles: so that its Pipelines end at a hub.

A Machine covers one half of a Pipe tile and runs every Pipeline ending at its edges for one
payment a Machine Phase (rulebook, "Machines & Pipes" and "Machine Phase"). It pays when two or
three refining Pipelines end at the same cell, a hub. The heuristic lays each tile where it
lengthens the Pipelines most now (:func:`~pipeline_tui.ai.heuristic.best_placement`), so its
Pipelines ended apart and a Machine attached one of them (``docs/bots.md``, "The planner").

:func:`plan_placement` weighs a placement by that same gain plus what it adds to the network's
best hub (:func:`hub_worth`): the free cell faced by the open ends of the Pipelines worth most to
a Machine, each counted by the grade it refines Crude to and its progress to the next
(:func:`feed_worth`). A tile laid on the hub takes it away; one that lengthens a Pipeline ending
there, or turns another's end towards it, brings it nearer.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import moves as M
from ..engine import (
    DIRS,
    ROT_DIRS,
    NetworkMap,
    Pipeline,
    SegmentKey,
    State,
    legal_placements,
    network_map,
    rotated_halves,
)
from .evaluate import SALE, grade_of, progress_of
from .heuristic import Costs, Turned, first_progress, tile_gain, turned

Cell = tuple[int, int]

FEEDERS = 3  # Pipelines a Machine Phase can feed at once (Crude and Tanks bound it)
HUB_WEIGHT = 0.5  # placement gain per dollar a placement adds to the best hub's worth a Phase
PROGRESS = 0.5  # of the next grade's sale gain, counted for a Pipeline's progress towards it


def feed_worth(costs: tuple[int, int, int], value: int) -> float:
    """What a Pipeline of this Refinement Value adds to a Machine Phase, in dollars: the sale
    gain (``evaluate.SALE``) of the grade it refines Crude to, given its colour's Refinement
    Costs, and :data:`PROGRESS` of the next grade's gain times its progress towards it.

    >>> feed_worth((4, 5, 6), 4)  # refines Crude to Low: $28 - $8
    20.0
    >>> feed_worth((4, 5, 6), 2)  # half way to Low
    5.0
    """
    steps = (costs[0], costs[0] + costs[1], costs[0] + costs[1] + costs[2])
    reach = grade_of(steps, value)
    worth: float = SALE[reach] - SALE[0]
    if reach < 3:
        worth += PROGRESS * (SALE[reach + 1] - SALE[reach]) * progress_of(steps, reach, value)
    return worth


@dataclass(frozen=True, slots=True)
class Feeds:
    """The open ends of a network's Pipelines that no Machine runs yet: per free cell, what
    each Pipeline ending there is worth to a Machine (by the Pipeline's key), and per Pipeline,
    the free cells its ends face."""

    cells: dict[Cell, dict[SegmentKey, float]]
    ends: dict[SegmentKey, list[Cell]]


def feeds(net: NetworkMap, costs: Costs, eng: int) -> Feeds:
    """The network's open ends (:class:`Feeds`): every path end on a half not under a Machine
    that faces a cell with no tile."""
    cells, machines, segment_pipeline = net.cells, net.machines, net.segment_pipeline
    by_cell: dict[Cell, dict[SegmentKey, float]] = {}
    ends: dict[SegmentKey, list[Cell]] = {}
    for (x, y), (_tile, paths) in cells.items():
        if (x, y) in machines:
            continue
        for k, (e1, e2, _colour) in enumerate(paths):
            for edge in (e1, e2):
                dx, dy = DIRS[edge]
                facing = (x + dx, y + dy)
                if facing in cells:
                    continue
                p = segment_pipeline[(x, y, k)]
                if p.machines:
                    continue
                ends.setdefault(p.key, []).append(facing)
                by_cell.setdefault(facing, {})[p.key] = feed_worth(costs[p.colour], p.value(eng))
    return Feeds(by_cell, ends)


def _top(worths: list[float]) -> float:
    """The worth of a hub fed by Pipelines worth these: the best :data:`FEEDERS` of them."""
    worths.sort(reverse=True)
    return sum(worths[:FEEDERS])


def _costs(state: State) -> Costs:
    return tuple((a, b, c) for a, b, c in state.refinement_costs)


def hub_worth(state: State, seat: int) -> float:
    """What the best hub of the seat's network would feed a Machine a Phase, in dollars
    (:func:`feeds`, the best :data:`FEEDERS` Pipelines ending at one free cell)."""
    player = state.players[seat]
    return _best_hub(feeds(network_map(player), _costs(state), player.level("ENG")))


def _best_hub(ends: Feeds) -> float:
    """:func:`hub_worth`, the network's open ends at hand."""
    return max((_top(list(w.values())) for w in ends.cells.values()), default=0.0)


@dataclass(slots=True)
class _Groups:
    """The Pipelines a placed tile makes, by union-find over its four Segments (nodes 0-3:
    half * 2 + path) and the Pipelines it joins (the nodes after them)."""

    parent: list[int]
    olds: dict[int, Pipeline]

    def find(self, a: int) -> int:
        parent = self.parent
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb


def _groups(turn: Turned, joins: list[tuple[int, Pipeline]]) -> _Groups:
    groups = _Groups([0, 1, 2, 3], {})
    node_of: dict[SegmentKey, int] = {}
    for a, b in turn.inside:
        groups.union(a, b)
    for me, old in joins:
        node = node_of.get(old.key)
        if node is None:
            node = node_of[old.key] = len(groups.parent)
            groups.parent.append(node)
            groups.olds[node] = old
        groups.union(me, node)
    return groups


_PLANNED: dict[tuple[object, ...], tuple[float, M.PlaceTile]] = {}  # by its inputs: pure


def plan_placement(state: State, seat: int, tile_id: int) -> tuple[float, M.PlaceTile]:
    """Where the tile in hand goes, and its score: the heuristic's gain
    (:func:`~pipeline_tui.ai.heuristic.tile_gain`, what it adds to the Pipelines now) plus
    :data:`HUB_WEIGHT` times what it adds to the worth of the best hub (:func:`hub_worth`).
    The same arguments as ``best_placement``, so that a :class:`~pipeline_tui.ai.heuristic.Judge`
    takes either."""
    player = state.players[seat]
    key = (tuple(player.tiles), tuple(player.machines), tile_id, player.level("ENG"), _costs(state))
    found = _PLANNED.get(key)
    if found is not None:
        return found
    ends = feeds(network_map(player), _costs(state), player.level("ENG"))
    before = _best_hub(ends)
    best: tuple[float, M.PlaceTile] | None = None
    for gain, after, move in _weighed(state, seat, tile_id, ends):
        score = gain + HUB_WEIGHT * (after - before)
        if best is None or score > best[0] + 1e-9:
            best = (score, move)
    assert best is not None  # a network always has a free cell pair beside it
    if len(_PLANNED) > 20000:
        _PLANNED.clear()
    _PLANNED[key] = best
    return best


def placements(state: State, seat: int, tile_id: int) -> list[tuple[float, float, M.PlaceTile]]:
    """Every legal placement of the tile in hand (in ``legal_placements`` order), with the
    heuristic's gain and the worth of the best hub after it (:func:`hub_worth`), worked out
    from the network's open ends (:func:`feeds`) and the Pipelines the tile makes, without
    tracing the network anew for each.

    A group that meets a Machine only through the new tile still counts as open: a Machine
    attaches whatever ends at its edges, but this does not look at the Machines' cells (the
    planner aims at a first hub; ``docs/bots.md``, "The planner")."""
    player = state.players[seat]
    return _weighed(state, seat, tile_id, feeds(network_map(player), _costs(state), player.level("ENG")))


def _weighed(state: State, seat: int, tile_id: int, ends: Feeds) -> list[tuple[float, float, M.PlaceTile]]:
    """:func:`placements`, the network's open ends at hand."""
    player = state.players[seat]
    eng = player.level("ENG")
    costs = _costs(state)
    net = network_map(player)
    ranked = sorted(((_top(list(w.values())), cell) for cell, w in ends.cells.items()), key=lambda r: -r[0])
    first = first_progress(state, net.pipelines, eng)
    per_four = 2 if eng >= 2 else (1 if eng >= 1 else 0)
    turns = [turned(rotated_halves(tile_id, rot), rot) for rot in range(4)]
    cell_map, machines, segment_pipeline = net.cells, net.machines, net.segment_pipeline
    out: list[tuple[float, float, M.PlaceTile]] = []
    for x, y, rot in legal_placements(cell_map):
        turn = turns[rot]
        joins: list[tuple[int, Pipeline]] = []
        open_ports: list[tuple[int, Cell]] = []  # the tile's path ends facing a free cell
        for me, dx, dy, back, colour in turn.ports:
            n = (x + dx, y + dy)
            entry = cell_map.get(n)
            if entry is None:
                open_ports.append((me, n))
            elif n not in machines:
                npaths = entry[1]
                k2 = 0 if back in (npaths[0][0], npaths[0][1]) else 1
                if npaths[k2][2] == colour:
                    joins.append((me, segment_pipeline[(n[0], n[1], k2)]))
        gain = tile_gain(eng, costs, turn, joins, first)
        groups = _groups(turn, joins)
        covered = {(x, y), (x + ROT_DIRS[rot][0], y + ROT_DIRS[rot][1])}
        segments: dict[int, int] = {}
        colours: dict[int, int] = {}
        attached: set[int] = set()
        group_ends: dict[int, list[Cell]] = {}
        for node in range(len(groups.parent)):
            root = groups.find(node)
            if node < 4:
                segments[root] = segments.get(root, 0) + 1
                colours[root] = turn.colours[node]
                continue
            old = groups.olds[node]
            segments[root] = segments.get(root, 0) + old.segments
            colours[root] = old.colour
            if old.machines:
                attached.add(root)
            group_ends.setdefault(root, []).extend(c for c in ends.ends.get(old.key, ()) if c not in covered)
        for me, cell in open_ports:
            group_ends.setdefault(groups.find(me), []).append(cell)
        new_feeds: dict[Cell, list[float]] = {}
        for root, cells in group_ends.items():
            if root in attached:
                continue
            merged = segments[root] + per_four * (segments[root] // 4)
            worth = feed_worth(costs[colours[root]], merged)
            for cell in set(cells):
                new_feeds.setdefault(cell, []).append(worth)
        touched = set(covered)
        for old in groups.olds.values():
            touched.update(ends.ends.get(old.key, ()))
        touched.update(new_feeds)
        gone = {old.key for old in groups.olds.values()}
        after = next((worth for worth, cell in ranked if cell not in touched), 0.0)
        for cell in touched - covered:
            worths = [w for k, w in ends.cells.get(cell, {}).items() if k not in gone]
            worths += new_feeds.get(cell, [])
            after = max(after, _top(worths))
        out.append((gain, after, M.PlaceTile(x=x, y=y, rot=rot)))
    return out
