"""The fast listing of legal moves (``rules.fast``) against the checked rules.

``tests/test_properties.py`` compares ``legal_moves`` with ``checked_legal_moves`` at every state
of its games. Here, at sampled states of seeded games (uniform, steered and rich tables), every
move of a wide candidate set (every value each field of a move can sensibly take, and some
beyond) is judged by ``why_illegal`` alone: the moves it accepts must be exactly the listed
ones of those kinds. And ``Game.apply`` of a listed move (played without a second check) must
give the state the checked ``apply_move`` gives.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from pipeline_tui.data import components as C
from pipeline_tui.engine import Game, IllegalMove
from pipeline_tui.engine import moves as M
from pipeline_tui.engine import rules
from pipeline_tui.engine.moves import format_move
from pipeline_tui.engine.rules import base
from pipeline_tui.engine.network import (
    DIRS,
    build_map,
    legal_placements,
    placement_codes,
    placement_codes_grown,
    placement_ok,
    tile_cells,
)
from pipeline_tui.engine.state import PlayerState, State, clone_state

from tests.helpers import (
    EXAMPLE_COSTS,
    build,
    legal_of,
    new_game,
    pipeline_at,
    play,
    refine,
    setup_player,
    straight_row,
)
from tests.test_properties import players_for, rich_state, seeker, setup_for, uniform

GRADES = range(-1, 5)
SLOTS = range(-1, 8)


def _cells(state: State) -> set[tuple[int, int]]:
    """The current player's cells and every cell within 2 steps (a tile's far half may lie
    2 steps from the network)."""
    return _cells_around(set(rules.network(rules.current(state)).cells) | {(0, 0)})


def universe(state: State) -> list[M.Move]:
    """Every candidate of every kind whose fields have a small range (the Order fulfilments
    and tile placements are enumerated from the Tank Farm and the network)."""
    player = rules.current(state)
    rows = [row.code for row in rules.market_rows(state)] + ["9-XX"]
    actions = [*rules.CROSS_ACTIONS, "bogus"]
    out: list[M.Move] = [M.Pass(), M.EndAction(), M.RunMachines(), M.EndTurn(), M.TakeLoan(), M.Decline()]
    out += [M.PlaceStartingTank(grade=g) for g in GRADES]
    out += [M.Action(action=a) for a in actions] + [M.Secondary(action=a) for a in actions]
    out += [M.Government(quadrant=q, space=s) for q in range(-1, 5) for s in SLOTS]
    out += [M.TakeGovernmentTile(quadrant=q, space=s) for q in range(-1, 5) for s in SLOTS]
    out += [M.BuyGovernmentTile(space=s) for s in SLOTS]
    cells = _cells(state)
    out += [M.RunNetwork(x=x, y=y) for x, y in cells] + [M.RunMachine(x=x, y=y) for x, y in cells]
    out += [M.PlaceMachine(x=x, y=y) for x, y in cells]
    out += [M.PlaceTile(x=x, y=y, rot=r) for x, y in cells for r in range(-1, 5)]
    out += [M.ChooseTurnOrder(position=p) for p in range(-1, 7)]
    out += [M.Buy(row=r, slot=s) for r in rows for s in SLOTS]
    out += [
        M.Sell(row=r, slot=s, colour=c, grade=g)
        for r in rows
        for s in SLOTS
        for c in range(-1, 4)
        for g in GRADES
    ]
    out += [
        M.TakeContract(kind=k, row=r, slot=s, deferred=d)
        for k in ("contract", "order", "other")
        for r in range(0, 7)
        for s in range(-1, 4)
        for d in (False, True)
    ]
    out += [M.BuyTank(shop_row=r, grade=g) for r in range(-1, 4) for g in GRADES]
    out += [M.TakeTank(shop_row=r, grade=g) for r in range(-1, 4) for g in GRADES]
    out += [M.BuyMachine(shop_row=r) for r in range(-1, 4)]
    out += [M.TakeMachine(shop_row=r) for r in (*range(-1, 4), M.MACHINE_STACK)]
    out += [M.BuyPipe(index=i) for i in SLOTS] + [
        M.TakePipe(shop=s, index=i) for s in (*C.SHOPS, "X") for i in SLOTS
    ]
    out += [M.BuyUpgrade(family=f) for f in (*C.UPGRADE_CODES, "NOPE")]
    out += [M.FlipToken(family=f) for f in (*C.UPGRADE_CODES, "NOPE")]
    out += [
        M.Deliver(contract=c, need=n, grade=g) for c in range(-1, 5) for n in range(-1, 6) for g in GRADES
    ]
    keys = {p.key for p in rules.network(player).pipelines} | {(0, 0, 0), (0, 0, 2)}
    out += [
        M.Refine(x=x, y=y, k=k, from_grade=f, to_grade=t) for x, y, k in keys for f in GRADES for t in GRADES
    ]
    for r, row in enumerate(state.order_rows):
        for slot, tile in enumerate(row):
            if tile >= 0:
                needs = C.contract_tile(tile).needs
                out += [
                    M.FulfilOrder(row=r + 3, slot=slot, grades=grades)
                    for grades in _grade_choices(len(needs))
                ]
    return out


def _grade_choices(n: int) -> list[tuple[int, ...]]:
    """Every tuple of n grades 0-3 (up to 4**5 = 1024)."""
    choices: list[tuple[int, ...]] = [()]
    for _ in range(n):
        choices = [c + (g,) for c in choices for g in range(4)]
    return choices


def _check_state(state: State, where: str) -> None:
    listed = rules.legal_moves(state)
    assert listed == rules.checked_legal_moves(state), where
    accepted = {m for m in universe(state) if rules.why_illegal(state, m) is None}
    kinds = {type(m) for m in universe(state)}
    listed_here = {m for m in listed if type(m) in kinds}
    assert accepted == listed_here, (
        f"{where}: accepted but not listed {sorted(map(format_move, accepted - listed_here))}, "
        f"listed but refused {sorted(map(format_move, listed_here - accepted))}"
    )


def _play(state: State, mover, rng: random.Random, every: int, where: str) -> int:
    checked = 0
    played = 0
    while not state.over:
        legal = rules.legal_moves(state)
        if played % every == 0:
            _check_state(state, f"{where}, move {played}")
            checked += 1
        rules.apply_move(state, mover(rng, state, legal))
        played += 1
    return checked


@pytest.mark.parametrize("seed", [3, 8, 14, 21, 1001, 1007])
def test_listing_is_what_why_illegal_accepts(seed: int) -> None:
    mover = seeker if seed >= 1000 else uniform
    state = Game(setup_for(seed, players_for(seed))).state
    assert _play(state, mover, random.Random(seed), 4, f"seed {seed}") > 25


@pytest.mark.parametrize("seed", [2001, 2013])
def test_listing_on_rich_tables(seed: int) -> None:
    state = rich_state(seed, players_for(seed))
    assert _play(state, seeker, random.Random(seed), 5, f"rich seed {seed}") > 20


def test_game_apply_of_a_listed_move_equals_the_checked_apply() -> None:
    """``Game.apply`` skips the check for a move it has just listed; the result is the checked
    path's, and a move not listed is still refused with the rule's message."""
    game = Game(setup_for(5, 3))
    rng = random.Random(5)
    while not game.is_over():
        legal = game.legal_moves()
        move = rng.choice(legal)
        expected = clone_state(game.state)
        rules.apply_move(expected, move)
        game.apply(move)
        assert game.state == expected, format_move(move)
    game = Game(setup_for(5, 3))
    game.legal_moves()
    with pytest.raises(IllegalMove, match="Setup"):
        game.apply(M.Action(action=rules.CROSS_ACTIONS[0]))


def test_engineering_iii_lists_two_refines_per_pipeline_and_no_third() -> None:
    """A state the seeded games seldom reach: with Engineering III a Pipeline refines two
    barrels of one starting grade in a run, never a third (``check_refine``)."""
    game = new_game()
    game.state.refinement_costs = EXAMPLE_COSTS
    player = setup_player(
        game, tiles=build(*straight_row("O", 3)), tanks=[3, 3, 3, 3], oil={"OC": 3}, upgrades={"ENG": 3}
    )
    orange = pipeline_at(player, (2, 0), "EW")
    play(game, "run 3,0")
    game.apply(refine(orange, "C", "L"))
    assert refine(orange, "C", "M") in legal_of(game, M.Refine)  # legal_of compares both listings
    assert all(m.from_grade == 0 for m in legal_of(game, M.Refine))
    game.apply(refine(orange, "C", "M"))
    assert player.oil[0][0] == 1
    assert legal_of(game, M.Refine) == []


def _final_players(seeds: tuple[int, ...]) -> Iterator[PlayerState]:
    """The players of seeded games played to the end (uniform moves, or the seeker's from seed
    1000): their networks are the ones these tests grow tile by tile."""
    for seed in seeds:
        game = Game(setup_for(seed, players_for(seed)))
        rng = random.Random(seed)
        while not game.is_over():
            game.apply((seeker if seed >= 1000 else uniform)(rng, game.state, game.legal_moves()))
        yield from game.state.players


def test_legal_placements_are_the_places_placement_ok_accepts() -> None:
    """``network.legal_placements`` (built from the network's free neighbours) against
    ``placement_ok`` at every cell within 2 of every network grown in seeded games."""
    networks = 0
    for player in _final_players((0, 1, 2, 1003)):
        for count in range(len(player.tiles) + 1):
            cells = build_map(player.tiles[:count], []).cells
            box = _cells_around(set(cells) | {(0, 0)})
            accepted = sorted(
                (x, y, r) for x, y in box for r in range(4) if placement_ok(cells, x, y, r) is None
            )
            assert legal_placements(cells) == accepted
            networks += 1
    assert networks > 40


def test_placements_grown_from_the_smaller_network_equal_whole_listings() -> None:
    """The tile placements of a network one tile larger than one already listed are grown from
    that listing (``network.placement_codes_grown``): at every tile of every network grown in
    seeded games they equal the listing made from the whole network."""
    grown = 0
    for player in _final_players((0, 1, 2, 3, 4, 1003, 1004, 1005, 1006)):
        for count in range(2, len(player.tiles) + 1):
            before = placement_codes(build_map(player.tiles[: count - 1], []).cells)
            cells = build_map(player.tiles[:count], []).cells
            _tile, x, y, rot = player.tiles[count - 1]
            assert placement_codes_grown(before, cells, tile_cells(x, y, rot)) == placement_codes(cells)
            grown += 1
    assert grown > 60


def _cells_around(cells: set[tuple[int, int]]) -> set[tuple[int, int]]:
    return {(x + dx, y + dy) for x, y in cells for dx in range(-2, 3) for dy in range(-2, 3)}


def test_traced_pipelines_follow_the_definition() -> None:
    """The Pipeline trace against the rulebook's definition, on every network grown in seeded
    games (with and without the Machines placed): every segment off a Machine belongs to one
    Pipeline, keyed by its smallest segment; same-colour segments meeting edge to edge share
    it, segments of different Pipelines never meet in one colour; a Pipeline is attached to the
    Machines its segments' edges touch."""
    checked = 0
    for player in _final_players((0, 1, 1000, 1004, 2005)):
        for count in range(len(player.tiles) + 1):
            for machines in ([], player.machines):
                _check_trace(build_map(player.tiles[:count], machines))
                checked += 1
    assert checked > 80


def _check_trace(net) -> None:
    segments = {(x, y, k) for (x, y) in net.cells if (x, y) not in net.machines for k in (0, 1)}
    assert set(net.segment_pipeline) == segments
    assert sum(p.segments for p in net.pipelines) == len(segments)
    assert [p.key for p in net.pipelines] == sorted(p.key for p in net.pipelines)
    for p in net.pipelines:
        members = [s for s, q in net.segment_pipeline.items() if q is p]
        assert p.key == min(members) and net.by_key[p.key] is p
        touched = set()
        for x, y, k in members:
            for edge in net.cells[(x, y)][1][k][:2]:
                dx, dy = DIRS[edge]
                neighbour = (x + dx, y + dy)
                if neighbour not in net.cells:  # (a Machine covers a tile half: none here)
                    continue
                if neighbour in net.machines:
                    touched.add(neighbour)
                else:
                    paths = net.cells[neighbour][1]
                    k2 = 0 if (edge + 2) % 4 in paths[0][:2] else 1
                    same = paths[k2][2] == p.colour
                    assert (net.segment_pipeline[(*neighbour, k2)] is p) == same
        assert p.machines == touched


def test_extended_traces_equal_whole_traces(monkeypatch: pytest.MonkeyPatch) -> None:
    """``rules.network`` traces a network one tile larger than a cached one from that one's
    Pipelines (``network.extend_trace``): at every placement of seeded games, traced straight
    away or only later (so parents chain), the Pipelines, their order and every segment's
    Pipeline equal a whole trace of the same tiles."""
    extended = 0
    for seed, eager in ((0, True), (1, False), (1000, True), (1004, False)):
        monkeypatch.setattr(base, "_MAPS", {})  # networks met in other tests are traced whole
        game = Game(setup_for(seed, players_for(seed)))
        rng = random.Random(seed)
        while not game.is_over():
            player = rules.current(game.state)
            net = rules.network(player)
            if net.parent is not None:
                extended += 1
            if eager or len(player.tiles) % 3 == 0:
                whole = build_map(player.tiles, player.machines)
                _check_trace(net)
                assert net.pipelines == whole.pipelines
                assert net.by_key == whole.by_key
                assert net.segment_pipeline == whole.segment_pipeline
            game.apply((seeker if seed >= 1000 else uniform)(rng, game.state, game.legal_moves()))
    assert extended > 20


def test_pipelines_near_a_tile_or_machine_equal_the_traced_ones() -> None:
    """A run asks only for the Pipelines through its tile or attached to its Machines, and an
    untraced network traces just those (``NetworkMap._near``): on every network grown in seeded
    games, with and without its Machines, they equal the full trace filtered, in order."""
    checked = 0
    for player in _final_players((0, 1, 1000, 1004, 2005)):
        for count in range(len(player.tiles) + 1):
            for machines in ([], player.machines):
                tiles = player.tiles[:count]
                whole = build_map(tiles, machines).pipelines
                for index in range(count):
                    near = build_map(tiles, machines).through_tile(index)
                    assert near == [p for p in whole if index in p.tiles]
                for x, y in machines:
                    near = build_map(tiles, machines).attached_to((x, y))
                    assert near == [p for p in whole if (x, y) in p.machines]
                assert build_map(tiles, machines).attached() == [p for p in whole if p.machines]
                checked += 1
    assert checked > 80
