"""Invariants every reachable game state must satisfy, for property tests and debugging.

``check_invariants(state)`` raises ``AssertionError`` naming the first broken invariant: every
component is conserved (each of them sits in exactly one place), no count is negative, Tank Farms
hold what their Tanks allow, and each Pipe Network is a set of non-overlapping, connected tiles
with at most one Machine per covered cell.
"""

from __future__ import annotations

from collections import Counter

from pipeline_tui.data import components as C
from pipeline_tui.engine.network import DIRS, tile_cells
from pipeline_tui.engine.rules import market_rows
from pipeline_tui.engine.state import State

__all__ = ["check_invariants"]

_GRADES = "CLMH"
_COLOURS = "OTS"


def _fail(message: str) -> None:
    raise AssertionError(message)


def _check_barrels(state: State) -> None:
    """44 barrels of each colour across supply, markets, Tank Farms, Contracts and Orders."""
    where: list[Counter] = [Counter() for _ in range(3)]
    for colour in range(3):
        where[colour]["supply"] += state.supply[colour]
    rows = market_rows(state)
    for index, slots in enumerate(state.markets):
        code = rows[index].code
        for slot, colour in enumerate(slots):
            if not -1 <= colour <= 2:
                _fail(f"market {code} slot {slot} holds {colour}, not a colour or -1")
            if colour >= 0:
                where[colour]["markets"] += 1
    for p in state.players:
        for grade in range(4):
            for colour in range(3):
                where[colour][f"tank farm {p.seat}"] += p.oil[grade][colour]
        for held in p.contracts:
            for colour, grade in held.barrels:
                where[colour][f"contracts {p.seat}"] += 1
        for held in p.orders:
            for colour, grade in held.barrels:
                where[colour][f"orders {p.seat}"] += 1
    for colour in range(3):
        total = sum(where[colour].values())
        if total != C.BARRELS_PER_COLOUR:
            _fail(
                f"{_COLOURS[colour]} barrels: {total} on the table, not "
                f"{C.BARRELS_PER_COLOUR} ({dict(where[colour])})"
            )


def _check_pipe_tiles(state: State) -> None:
    """Each of the 135 Pipe tiles is in exactly one place."""
    seen: dict[int, str] = {}

    def put(tile: int, place: str) -> None:
        if not 0 <= tile < C.PIPE_TILES:
            _fail(f"Pipe tile id {tile} in {place} is not a tile")
        if tile in seen:
            _fail(f"Pipe tile {tile} is both in {seen[tile]} and in {place}")
        seen[tile] = place

    for tile in state.pipe_deck:
        put(tile, "the deck")
    for tile in state.pipe_discard:
        put(tile, "the discard")
    for q, quadrant in enumerate(state.government):
        for s, tile in enumerate(quadrant):
            if tile >= 0:
                put(tile, f"government {q}.{s}")
            elif tile != -1:
                _fail(f"government {q}.{s} holds {tile}")
    for shop, tiles in zip(C.SHOPS, state.shop_pipes):
        for i, tile in enumerate(tiles):
            if tile >= 0:
                put(tile, f"shop {shop}{i}")
            elif tile != -1:
                _fail(f"shop {shop}{i} holds {tile}")
    if state.turn.hand_tile >= 0:
        put(state.turn.hand_tile, "the current player's hand")
    for p in state.players:
        for tile, *_ in p.tiles:
            put(tile, f"player {p.seat}'s network")
    missing = sorted(set(range(C.PIPE_TILES)) - set(seen))
    if missing:
        _fail(f"Pipe tiles in no place: {missing}")


def _check_machines(state: State) -> None:
    """18 Machines across the shop, the reserve, the hand and the networks."""
    on_boards = sum(len(p.machines) for p in state.players)
    total = sum(state.machine_shop) + state.machine_reserve + int(state.turn.hand_machine) + on_boards
    if total != C.MACHINE_TILES:
        _fail(
            f"Machines: {total} on the table, not {C.MACHINE_TILES} (shop {state.machine_shop}, "
            f"reserve {state.machine_reserve}, in hand {state.turn.hand_machine}, "
            f"on networks {on_boards})"
        )


def _unplaced_start_tanks(state: State) -> int:
    """Starting Tanks not yet placed; during setup players place theirs in turn order."""
    if state.turn.stage != "setup":
        return 0
    expected: dict[int, int] = {}
    for position, seat in enumerate(state.turn_order):
        if position < state.turn_index:
            expected[seat] = C.START_TANKS
        elif position == state.turn_index:
            expected[seat] = state.turn.setup_placed
        else:
            expected[seat] = 0
    for p in state.players:
        if sum(p.tanks) != expected[p.seat]:
            _fail(f"setup: player {p.seat} has {sum(p.tanks)} Tanks placed, expected {expected[p.seat]}")
    return C.START_TANKS * len(state.players) - sum(expected.values())


def _check_tanks(state: State) -> None:
    """58 Tanks across the shop, the reserve, the Tank Farms and unplaced starting Tanks."""
    farms = sum(sum(p.tanks) for p in state.players)
    unplaced = _unplaced_start_tanks(state)
    total = sum(state.tank_shop) + state.tank_reserve + farms + unplaced
    if total != C.TANK_TILES:
        _fail(
            f"Tanks: {total} on the table, not {C.TANK_TILES} (shop {state.tank_shop}, "
            f"reserve {state.tank_reserve}, farms {farms}, unplaced {unplaced})"
        )


def _check_counts(state: State) -> None:
    """No negative money or count anywhere."""
    named = {
        "supply": state.supply,
        "tank shop": state.tank_shop,
        "machine shop": state.machine_shop,
        "tank reserve": [state.tank_reserve],
        "machine reserve": [state.machine_reserve],
        "upgrade cards": [n for row in state.upgrade_cards for n in row],
        "fresh barrels": [n for row in state.turn.fresh for n in row],
        "grants": [g.count for g in state.turn.grants],
    }
    for p in state.players:
        named[f"player {p.seat} money"] = [p.money]
        named[f"player {p.seat} penalties"] = [p.penalties, p.end_penalties]
        named[f"player {p.seat} tanks"] = p.tanks
        named[f"player {p.seat} oil"] = [n for row in p.oil for n in row]
        named[f"player {p.seat} upgrades"] = p.upgrades
        named[f"player {p.seat} contract completions"] = [h.completions for h in p.contracts]
    for name, values in named.items():
        if any(v < 0 for v in values):
            _fail(f"negative count in {name}: {values}")
    for p in state.players:
        if any(level > 3 for level in p.upgrades):
            _fail(f"player {p.seat} upgrades above Level 3: {p.upgrades}")


def _check_tank_farms(state: State) -> None:
    """At most 5 Tanks per row and 2 barrels per Tank."""
    for p in state.players:
        for grade in range(4):
            tanks = p.tanks[grade]
            barrels = sum(p.oil[grade])
            if tanks > C.MAX_TANKS_PER_ROW:
                _fail(f"player {p.seat} Tank Farm row {_GRADES[grade]}: {tanks} Tanks")
            if barrels > C.BARRELS_PER_TANK * tanks:
                _fail(f"player {p.seat} Tank Farm row {_GRADES[grade]}: {barrels} barrels in {tanks} Tanks")


def _check_networks(state: State) -> None:
    """Tiles do not overlap and touch each other; Machines cover distinct cells of the network."""
    for p in state.players:
        cells: dict[tuple[int, int], int] = {}
        for tile, x, y, rot in p.tiles:
            if not 0 <= rot <= 3:
                _fail(f"player {p.seat} tile {tile} has rotation {rot}")
            for cell in tile_cells(x, y, rot):
                if cell in cells:
                    _fail(f"player {p.seat}: tiles {cells[cell]} and {tile} overlap at {cell}")
                cells[cell] = tile
        if cells:
            start = next(iter(cells))
            reached, todo = {start}, [start]
            while todo:
                cx, cy = todo.pop()
                for dx, dy in DIRS:
                    n = (cx + dx, cy + dy)
                    if n in cells and n not in reached:
                        reached.add(n)
                        todo.append(n)
            if len(reached) != len(cells):
                _fail(f"player {p.seat}: the Pipe Network is not connected")
        machines = [tuple(m) for m in p.machines]
        for cell, count in Counter(machines).items():
            if count > 1:
                _fail(f"player {p.seat}: {count} Machines on cell {cell}")
            if cell not in cells:
                _fail(f"player {p.seat}: Machine on cell {cell}, which has no tile of theirs")


def _check_contracts(state: State) -> None:
    """Each Contract and Order tile is in at most one place; held Contracts track every need."""
    seen: dict[int, str] = {}

    def put(tile: int, place: str) -> None:
        if tile in seen:
            _fail(f"Contract/Order tile {tile} is both in {seen[tile]} and in {place}")
        seen[tile] = place

    for r, row in enumerate(state.contract_rows):
        for s, tile in enumerate(row):
            if tile >= 0:
                put(tile, f"contract row {r} slot {s}")
    for r, stack in enumerate(state.contract_stacks):
        for tile in stack:
            put(tile, f"contract stack {r}")
    for r, row in enumerate(state.order_rows):
        for s, tile in enumerate(row):
            if tile >= 0:
                put(tile, f"order row {r} slot {s}")
    for p in state.players:
        for held in p.contracts:
            put(held.tile, f"player {p.seat}'s contracts")
            needs = C.contract_tile(held.tile).needs
            if len(held.filled) != len(needs):
                _fail(
                    f"player {p.seat} Contract {held.tile}: {len(held.filled)} fill marks for "
                    f"{len(needs)} needs"
                )
        for held in p.orders:
            put(held.tile, f"player {p.seat}'s orders")
            if len(held.barrels) != len(C.contract_tile(held.tile).needs):
                _fail(
                    f"player {p.seat} Order {held.tile}: {len(held.barrels)} barrels for "
                    f"{len(C.contract_tile(held.tile).needs)} needs"
                )


def _check_turn_order(state: State) -> None:
    """Every seat is in this Round's order once and on the next-Round track at most once; from
    rules version 2 the track has a space per player and the next order reads it left to right."""
    n = len(state.players)
    if sorted(state.turn_order) != list(range(n)):
        _fail(f"Turn Order: this Round's order {state.turn_order} is not every seat once")
    if len(set(state.next_order)) != len(state.next_order) or not set(state.next_order) <= set(range(n)):
        _fail(f"Turn Order: next Round's order {state.next_order} repeats or invents a seat")
    if state.rules_version >= 2:
        if len(state.next_track) != n:
            _fail(f"Turn Order: the track {state.next_track} has not {n} spaces")
        if [s for s in state.next_track if s >= 0] != state.next_order:
            _fail(f"Turn Order: track {state.next_track} and next order {state.next_order} differ")
    elif state.next_track:
        _fail("Turn Order: rules version 1 keeps no track")


def check_invariants(state: State) -> None:
    """Raise ``AssertionError`` naming the first invariant ``state`` breaks."""
    _check_turn_order(state)
    _check_counts(state)
    _check_barrels(state)
    _check_pipe_tiles(state)
    _check_machines(state)
    _check_tanks(state)
    _check_tank_farms(state)
    _check_networks(state)
    _check_contracts(state)
