"""The Refresh Phase at the start of Years 2 and 3 (rulebook "Refresh Phase")."""

from __future__ import annotations

from pipeline_tui.data import components as C

from tests.helpers import new_game, pass_round, pass_to_year, play, setup_player

ORANGE, TEAL, SILVER = 0, 1, 2
ROW = C.MARKET_ROW_INDEX


def test_no_refresh_between_rounds_of_a_year():
    game = new_game()
    s = game.state
    s.markets[ROW["C-OC"]] = [-1, -1, -1, -1]
    rows = [list(r) for r in s.contract_rows]
    pass_round(game)
    assert s.markets[ROW["C-OC"]] == [-1, -1, -1, -1] and s.contract_rows == rows


def test_contracts_slide_right_and_only_the_leftmost_column_is_refilled():
    game = new_game(players=4)
    s = game.state
    before = [list(r) for r in s.contract_rows]
    tops = [stack[-1] for stack in s.contract_stacks]
    sizes = [len(stack) for stack in s.contract_stacks]
    pass_to_year(game, 2)
    for row, old, top in zip(s.contract_rows, before, tops):
        assert row == [top] + old[:-1]
    assert [len(stack) for stack in s.contract_stacks] == [n - 1 for n in sizes]


def test_taken_contract_spaces_slide_along_empty():
    game = new_game()
    s = game.state
    play(game, "act contracts", "contract CL.1", "done", "end")
    pass_to_year(game, 2)
    assert s.contract_rows[0][1] == -1 and s.contract_rows[0][0] >= 0


def test_contract_stacks_hold_4_or_5_per_grade_and_run_out():
    assert [
        len(st) + len(r)
        for st, r in zip(new_game(players=4).state.contract_stacks, new_game(players=4).state.contract_rows)
    ] == [5, 5, 5]
    game = new_game(players=2)
    s = game.state
    assert [len(st) + len(r) for st, r in zip(s.contract_stacks, s.contract_rows)] == [4, 4, 4]
    pass_to_year(game, 3)
    assert all(stack == [] for stack in s.contract_stacks)
    assert all(-1 not in row for row in s.contract_rows)


def test_market_supply_fills_from_the_rightmost_empty_slot_going_left():
    """The rulebook's example: a Crude row adding 4 barrels with 5 spaces in play leaves the
    leftmost space empty."""
    game = new_game(players=3)
    s = game.state
    s.markets[ROW["C-OC"]] = [-1] * 5
    s.markets[ROW["C-TC"]] = [-1, TEAL, -1, TEAL, -1]
    s.markets[ROW["2-SC"]] = [-1] * 5
    pass_to_year(game, 2)
    assert s.markets[ROW["C-OC"]] == [-1, ORANGE, ORANGE, ORANGE, ORANGE]
    assert s.markets[ROW["C-TC"]] == [TEAL] * 5  # only 3 empty: 3 added
    assert s.markets[ROW["2-SC"]] == [-1, -1, -1, SILVER, SILVER]  # supply 2


def test_market_demand_removes_barrels_from_the_left():
    game = new_game(players=4)
    s = game.state
    s.markets[ROW["1-SL"]] = [-1, SILVER, ORANGE, SILVER]  # demand 2
    s.markets[ROW["1-OL"]] = [ORANGE, ORANGE, -1, -1]  # demand 1
    s.markets[ROW["1-SH"]] = [SILVER, -1, -1, -1]  # demand 0

    def cubes(colour: int) -> int:
        return s.supply[colour] + sum(row.count(colour) for row in s.markets)

    before = [cubes(c) for c in range(3)]
    pass_to_year(game, 2)
    assert s.markets[ROW["1-SL"]] == [-1, -1, -1, SILVER]
    assert s.markets[ROW["1-OL"]] == [-1, ORANGE, -1, -1]
    assert s.markets[ROW["1-SH"]] == [SILVER, -1, -1, -1]
    # Removed cubes go back to the bank in their own colour (the orange one from the silver row).
    assert [cubes(c) for c in range(3)] == before


def test_shops_discard_their_pipes_and_restock_tanks_and_machines():
    game = new_game()
    s = game.state
    old_pipes = [list(shop) for shop in s.shop_pipes]
    top = s.pipe_deck[-8:]
    s.tank_shop = [0, 0, 1]
    s.machine_shop = [0, 1, 0]
    reserves = (s.tank_reserve, s.machine_reserve)
    pass_to_year(game, 2)
    assert sorted(s.pipe_discard) == sorted(old_pipes[0] + old_pipes[1])
    assert sorted(s.shop_pipes[0] + s.shop_pipes[1]) == sorted(top)
    assert s.tank_shop == list(C.TANK_SHOP_SPACES[2]) and s.machine_shop == list(C.MACHINE_SHOP_SPACES[2])
    assert s.tank_reserve == reserves[0] - 5 and s.machine_reserve == reserves[1] - 2


def test_upgrade_tokens_turn_face_up():
    game = new_game()
    game.state.upgrade_tokens = [False, True, False, False, True]
    pass_to_year(game, 2)
    assert game.state.upgrade_tokens == [True] * 5


def test_incomplete_contracts_cost_a_penalty_each_and_leave_the_game():
    game = new_game()
    first = setup_player(game)
    play(game, "act contracts", "contract CL.1", "contract CM.1", "contract CH.1 deferred", "done", "end")
    deferred_tile = first.contracts[2].tile
    pass_to_year(game, 2)
    assert first.penalties == 2
    assert [(h.tile, h.deferred) for h in first.contracts] == [(deferred_tile, False)]


def test_a_contract_deferred_into_year_2_must_be_fulfilled_in_year_2():
    game = new_game()
    first = setup_player(game)
    play(game, "act contracts", "contract CH.1 deferred", "done", "end")
    pass_to_year(game, 3)
    assert first.contracts == [] and first.penalties == 1
