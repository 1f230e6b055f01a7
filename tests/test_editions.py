"""Component editions: the printed tables (edition 2) beside ours (edition 1), the market tiles
placed at random from the seed, and the rules reading each game's own tables."""

from __future__ import annotations

import random

import msgspec
import pytest

from pipeline_tui.data import components as C
from pipeline_tui.data import editions as E
from pipeline_tui.data.components import Source
from pipeline_tui.data.oil import barrel_code
from pipeline_tui.engine import Game, GameSetup, IllegalMove, replay
from pipeline_tui.engine import moves as M
from pipeline_tui.engine import rules
from pipeline_tui.engine.setup import SetupError, initial_state

from .helpers import new_game, setup_player

# The printed tiles in the reference's notation (colour O/T/S, grade 1 Low, 2 Mid, 3 High), typed
# from /work/shared/reference/pipeline-components.md independently of the data module.
PRINTED_CONTRACTS = {
    1: "S1S1S1 T1T1 T1T1T1 S1S1 O1O1 O1S1 O1O1S1 S1O1T1 O1T1 S1T1",
    2: "S2S2 S2O2T2 S2S2T2 O2O1 S2T2 O2O2 O2O2O2 T2T2T2 S2T1 T2T2",
    3: "O3O3 S3S3 T3T3 S3S3S3 O3T2 S3S2 O3O2T1 T3T1 T3T3T3 T3T3S3",
}
PRINTED_ORDERS = {
    3: "O3S1T1 S3S3T3 O3O3T3 S3S2O1 S3T2O2 T3T2O1 O3S3T3 S3T2O1",
    4: "O2O2O2O2 S2S2O1O1 O3O3O2O1 O3O3T1T1 S3T2O1O1 S1S1S1S1 S3O3S2S1 T3T3T3T3",
    5: "T2T2T2T2T2 S3S3S3O2O2 S2S2S2S2S2 S3O3T3S2O2 O1O1O1O1O1 O3O3O3O2O1 T1T1T1O1O1 T2T2T2S1S1",
}


def _reference(tile: C.ContractTile) -> str:
    return "".join(f"{'OTS'[c]}{g}" for c, g in tile.needs)


@pytest.mark.parametrize("row", [1, 2, 3])
def test_printed_contracts_are_the_transcribed_tiles_in_order(row):
    tiles = [t for t in E.edition(2).contracts if t.row == row]
    assert [_reference(t) for t in tiles] == PRINTED_CONTRACTS[row].split()
    assert all(t.kind == "contract" and t.source is Source.PRINTED for t in tiles)


@pytest.mark.parametrize("size", [3, 4, 5])
def test_printed_orders_are_the_transcribed_tiles_in_order(size):
    tiles = [t for t in E.edition(2).orders if t.row == size]
    assert [_reference(t) for t in tiles] == PRINTED_ORDERS[size].split()
    assert all(t.kind == "order" and len(t.needs) == size for t in tiles)


def test_tile_ids_name_one_tile_across_editions():
    ids = [t.id for ed in E.EDITIONS for t in E.edition(ed).contracts + E.edition(ed).orders]
    assert len(ids) == len(set(ids)) == 2 * (30 + 24)
    assert C.contract_tile(205).needs == ((0, 1), (2, 1))  # O1S1, the 6th Low Contract
    assert C.contract_tile(5) == C.CONTRACTS[5]


def test_every_table_names_its_source():
    for number in E.EDITIONS:
        ed = E.edition(number)
        tables = [s.table for s in ed.sources]
        assert len(tables) == len(set(tables))
        assert {
            "contracts",
            "orders",
            "markets",
            "market overlays",
            "refresh",
            "tank shop",
            "machine shop",
            "government layout",
            "upgrades",
            "valuation",
        } <= set(tables)
        assert all(isinstance(s.source, Source) and s.note for s in ed.sources)
    assert E.edition(1).source_of("contracts") is Source.DESIGN
    assert E.edition(2).source_of("contracts") is Source.PRINTED
    for table in ("market overlays", "refresh", "tank shop", "machine shop"):
        assert E.edition(2).source_of(table) is Source.PRINTED  # the 2-player use as printed
        assert E.edition(2).source_of(f"{table} 3-4 players") is Source.DESIGN  # derived: ours
    with pytest.raises(KeyError):
        E.edition(2).source_of("bananas")
    with pytest.raises(ValueError, match="edition 3 is not known"):
        E.edition(3)


def test_printed_rows_at_two_players_as_transcribed():
    rows = {r.code: r for r in E.edition(2).market_rows(E.PHOTOGRAPHED_LAYOUT, 2)}
    assert E.edition(1).market_rows(players=2) == C.MARKET_ROWS
    # The photographed setup: Market 1 crude Teal on 5-11, Orange on A, Silver on B.
    assert rows["1-TC"].prices == (5, 5, 7, 7, 9, 9, 11, 11) and rows["1-TC"].supply == 4
    assert [rows["1-OL"].prices[i] for i in rows["1-OL"].slots[2]] == [25, 25]
    assert [rows["1-SH"].prices[i] for i in rows["1-SH"].slots[2]] == [55, 55]
    assert rows["3-OC"].prices[-1] == 13 and rows["2-SC"].prices[0] == 6
    demand = {
        code: rows[code].demand
        for code in (
            "1-OL",
            "1-OM",
            "1-OH",
            "1-SL",
            "1-SM",
            "1-SH",
            "2-OL",
            "2-OM",
            "2-OH",
            "2-TL",
            "2-TM",
            "2-TH",
            "3-SL",
            "3-SM",
            "3-SH",
            "3-TL",
            "3-TM",
            "3-TH",
        )
    }
    assert list(demand.values()) == [2, 1, 1, 1, 2, 0, 1, 2, 1, 3, 1, 1, 3, 2, 1, 2, 1, 0]


@pytest.mark.parametrize("players, crude, refined", [(2, 6, 2), (3, 7, 3), (4, 8, 4)])
def test_overlays_and_refresh_grow_with_the_players(players, crude, refined):
    rows = E.printed_market_rows(E.PHOTOGRAPHED_LAYOUT, players)
    for row in rows:
        in_play = row.slots[players]
        if row.grade == 0:
            assert in_play == tuple(range(crude)) and row.starts_full
            assert row.supply == {6: 4, 7: 5, 8: 6}[crude]
        else:
            assert in_play == tuple(range(4 - refined, 4)) and not row.starts_full
            printed = E.printed_market_rows(E.PHOTOGRAPHED_LAYOUT, 2)[rows.index(row)].demand
            assert row.demand == -(-printed * refined // 2)  # scaled up with the slots
    dearer = [r.prices[r.slots[players][0]] for r in rows if r.grade]
    assert all(p >= 20 for p in dearer)


def test_a_random_layout_places_every_tile_once():
    for seed in range(200):
        layout = E.random_market_layout(random.Random(seed))
        assert len(layout) == len(E.MARKET_POSITIONS)
        crude = [layout[i] for i, (_, kind, _) in enumerate(E.MARKET_POSITIONS) if kind == "crude"]
        refined = [layout[i] for i, (_, kind, _) in enumerate(E.MARKET_POSITIONS) if kind != "crude"]
        assert sorted(ladder for _, ladder in crude) == [0, 0, 1, 1, 2, 2]
        assert sorted(c for c, _ in crude[:3]) == [0, 1, 2] == sorted(c for c, _ in crude[3:])
        assert sorted(refined) == [(c, p) for c in range(3) for p in range(2)]
        codes = [r.code for r in E.printed_market_rows(layout, 2)]
        assert len(codes) == len(set(codes)) == 24
        for m in range(3):  # a Refined Market sells its crude colour only as crude
            crude_colour = crude[3 + m][0]
            assert crude_colour not in (refined[2 * m][0], refined[2 * m + 1][0])


def test_layouts_differ_between_seeds_and_repeat_for_one_seed():
    layouts = {tuple(initial_state(GameSetup.default(2, seed)).market_layout) for seed in range(30)}
    assert len(layouts) > 20
    one = GameSetup.default(3, 42)
    assert initial_state(one).market_layout == initial_state(one).market_layout


def test_the_layout_is_public_and_replays_reproduce_it():
    game = Game(GameSetup.default(2, 9))
    rng = random.Random(9)
    for _ in range(60):
        game.apply_trusted(rng.choice(game.legal_moves()))
    view = game.public_view(0)
    assert [tuple(p) for p in view["market_layout"]] == game.state.market_layout
    assert len(view["market_layout"]) == len(E.MARKET_POSITIONS)
    assert view["edition"] == 2
    again = replay(game.setup, game.moves)
    assert again == game.state and again.market_layout == game.state.market_layout


def test_edition_one_deals_as_before_and_edition_two_shares_the_other_draws():
    one = initial_state(GameSetup.default(3, 17, edition=1))
    two = initial_state(GameSetup.default(3, 17, edition=2))
    assert one.market_layout == [] and one.edition == 1 and two.edition == 2
    assert one.pipe_deck == two.pipe_deck and one.refinement_costs == two.refinement_costs
    assert one.upgrade_families == two.upgrade_families
    assert [[t for t in row] for row in one.contract_rows] != [list(r) for r in two.contract_rows]
    assert all(200 <= t < 230 for row in two.contract_rows for t in row)
    assert all(300 <= t < 324 for row in two.order_rows for t in row)


def test_an_unknown_edition_is_refused_at_setup():
    with pytest.raises(SetupError, match="component edition 7 is not known"):
        initial_state(GameSetup.default(2, 1, edition=7))


def test_setups_without_an_edition_decode_as_edition_one():
    raw = b'{"seed": 3, "players": [{"name": "A"}, {"name": "B"}]}'
    assert msgspec.json.decode(raw, type=GameSetup).edition == 1
    assert GameSetup.default(2, 3).edition == E.PRINTED_EDITION == 2


# --- the rules read the game's own tables -----------------------------------------------------


def _printed_game(players: int = 2, seed: int = 1):
    game = new_game(players, seed, edition=2)
    game.state.market_layout = list(E.PHOTOGRAPHED_LAYOUT)
    rows = E.printed_market_rows(E.PHOTOGRAPHED_LAYOUT, players)
    game.state.markets = [
        [r.colour] * len(r.slots[players]) if r.starts_full else [-1] * len(r.slots[players]) for r in rows
    ]
    return game


def test_printed_prices_are_paid_at_the_printed_crude_row():
    game = _printed_game()
    player = setup_player(game, money=100)
    game.apply(M.Action(action="refined1"))
    game.apply(M.Buy(row="1-TC", slot=5))  # the 6th slot of ladder 5-11 costs $9
    assert player.money == 91 and player.oil[0][1] == 1


def test_a_row_the_layout_does_not_place_is_refused():
    game = _printed_game()
    setup_player(game, money=100)
    game.apply(M.Action(action="refined1"))
    with pytest.raises(IllegalMove, match="row 1-TL is not part of the market"):
        game.apply(M.Buy(row="1-TL", slot=0))
    assert M.Buy(row="1-TL", slot=0) not in game.legal_moves()


def test_refresh_removes_the_printed_demand_and_adds_four_crude():
    game = _printed_game()
    state = game.state
    index = rules.market_row_index(state)
    state.markets[index["3-SL"]] = [2, 2]
    state.markets[index["1-SH"]] = [2, 2]
    state.markets[index["C-OC"]] = [-1] * 6
    state.supply = [s - 2 for s in state.supply]
    rules.refresh(state)
    assert state.markets[index["3-SL"]] == [-1, -1]  # demand 3, two barrels there
    assert state.markets[index["1-SH"]] == [2, 2]  # demand 0
    assert state.markets[index["C-OC"]] == [-1, -1, 0, 0, 0, 0]  # 4, from the right


def test_shops_hold_the_printed_slots_per_player_count():
    for players, tanks, machines in (
        (2, [2, 2, 2], [1, 1, 1]),
        (3, [3, 3, 3], [1, 2, 1]),
        (4, [4, 4, 4], [2, 2, 2]),
    ):
        state = initial_state(GameSetup.default(players, 5))
        assert state.tank_shop == tanks and state.machine_shop == machines
        assert state.tank_reserve == C.TANK_TILES - 5 * players - sum(tanks)


def test_government_spaces_follow_the_printed_pinwheel():
    adjacency = E.government_adjacency(2)
    assert adjacency[0] == {1, 2} and adjacency[6] == {2, 3, 5, 7}
    assert sum(1 for spaces in adjacency if len(spaces) >= 4) == 4  # 4 spaces allow 5 tiles
    assert E.government_adjacency(1) != adjacency
    game = new_game(2, 3, edition=2)
    assert rules.government_adjacency(game.state) is adjacency


def test_barrel_codes_of_printed_rows_are_the_move_notation():
    for layout_seed in range(5):
        layout = E.random_market_layout(random.Random(layout_seed))
        for row in E.printed_market_rows(layout, 3):
            assert row.code == f"{row.market}-{barrel_code(row.colour, row.grade)}"
            assert M.parse_move(f"buy {row.code}#1") == M.Buy(row=row.code, slot=0)


def test_two_players_sell_into_the_dearer_printed_pair_and_refined_markets_i_adds_5():
    game = _printed_game()
    player = setup_player(game, money=0, tanks=[1, 1, 1, 1], oil={"OL": 2}, upgrades={"RM": 1})
    game.apply(M.Action(action="refined1"))
    game.apply(M.Sell(row="1-OL", slot=0, colour=0, grade=1))  # pattern A Low: 20 20 [25 25]
    assert player.money == 25 + C.REFINED_MARKETS_I_BONUS
    game.apply(M.Sell(row="1-OL", slot=1, colour=0, grade=1))
    assert player.money == 2 * 30
    with pytest.raises(IllegalMove, match=r"row 1-OL has no slot 3 \(slots 1 to 2\)"):
        game.apply(M.Sell(row="1-OL", slot=2, colour=0, grade=1))
