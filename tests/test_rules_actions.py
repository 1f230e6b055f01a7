"""The Actions: Markets, Contracts & Loans, Orders, Tanks & Pipes, Machines & Pipes, Government."""

from __future__ import annotations

import pytest

from pipeline_tui.data import components as C
from pipeline_tui.engine import IllegalMove
from pipeline_tui.engine import moves as M
from pipeline_tui.engine.network import tile_cells

from tests.helpers import (
    build,
    legal_of,
    me,
    new_game,
    oil,
    pass_to_year,
    pass_turn,
    play,
    setup_player,
    straight_row,
    to_last_round,
)

ORANGE, TEAL, SILVER = 0, 1, 2
ROW = C.MARKET_ROW_INDEX


# --- Markets ---------------------------------------------------------------------------------------


def test_buying_pays_the_slot_price_and_fills_a_tank_of_that_grade():
    game = new_game()
    player = me(game)
    play(game, "act crude", "buy C-TC#1")
    # 2 players: the overlay leaves the 4 cheapest slots, priced 8, 7, 6, 5
    assert player.money == 40 - 8
    assert oil(player, "TC") == 1
    assert game.state.markets[ROW["C-TC"]] == [-1, TEAL, TEAL, TEAL]


def test_market_rows_use_fewer_slots_below_4_players():
    assert [len(new_game(players=n).state.markets[ROW["C-OC"]]) for n in (2, 3, 4)] == [4, 5, 6]
    assert [len(new_game(players=n).state.markets[ROW["1-OL"]]) for n in (2, 3, 4)] == [2, 3, 4]


def test_buying_needs_a_free_tank_money_and_a_barrel():
    game = new_game()
    setup_player(game, oil={"OC": 4})  # both Crude tanks full
    play(game, "act crude")
    with pytest.raises(IllegalMove, match="no free Tank in the Crude row"):
        game.play("buy C-TC#1")
    setup_player(game, oil={}, money=7)
    with pytest.raises(IllegalMove, match="cannot afford"):
        game.play("buy C-TC#1")
    game.state.markets[ROW["C-TC"]][0] = -1
    with pytest.raises(IllegalMove, match="slot is empty"):
        game.play("buy C-TC#1")


def test_selling_needs_the_barrel_and_a_free_slot():
    game = new_game()
    setup_player(game, oil={})
    play(game, "act refined3")
    with pytest.raises(IllegalMove, match="no such barrel"):
        game.play("sell 3-SL#1 SL")
    game.state.markets[ROW["3-OC"]] = [ORANGE, -1, -1, -1]
    setup_player(game, oil={"OC": 1})
    with pytest.raises(IllegalMove, match="slot is taken"):
        game.play("sell 3-OC#1 OC")
    play(game, "sell 3-OC#2 OC")
    assert me(game).money == 40 + 10


def test_a_market_action_trades_only_in_its_own_market():
    game = new_game()
    setup_player(game, money=100, tanks=[2, 2, 2, 2])
    play(game, "act refined1")
    rows = {m.row for m in legal_of(game, M.Buy)} | {m.row for m in legal_of(game, M.Sell)}
    assert rows and all(r.startswith("1-") for r in rows)
    with pytest.raises(IllegalMove, match="not part of the market you are visiting"):
        game.play("buy 2-SC#1")
    with pytest.raises(IllegalMove, match="not part of the market"):
        game.play("buy C-OC#1")


def test_no_trading_outside_a_market_action():
    game = new_game()
    with pytest.raises(IllegalMove, match="only during a market Action"):
        game.play("buy C-OC#1")
    play(game, "act tanks")
    with pytest.raises(IllegalMove, match="only during a market Action"):
        game.play("buy C-OC#1")


def test_many_barrels_may_be_bought_in_one_visit():
    game = new_game()
    player = setup_player(game, tanks=[5, 0, 0, 0], money=100)
    play(game, "act crude", *[f"buy C-OC#{i}" for i in range(1, 5)], *[f"buy C-SC#{i}" for i in range(1, 5)])
    assert (oil(player, "OC"), oil(player, "SC")) == (4, 4)
    assert player.money == 100 - 2 * (8 + 7 + 6 + 5)


# --- Contracts & Loans -----------------------------------------------------------------------------


def test_up_to_one_contract_from_each_row_for_free():
    game = new_game()
    player = me(game)
    play(game, "act contracts", "contract CL.1", "contract CM.2 deferred", "contract CH.1")
    assert player.money == 40
    assert [h.deferred for h in player.contracts] == [False, True, False]
    assert game.state.contract_rows[0][0] == -1 and game.state.contract_rows[1][1] == -1


def test_only_one_contract_per_row_per_action():
    game = new_game()
    play(game, "act contracts", "contract CL.1")
    with pytest.raises(IllegalMove, match="one from each row"):
        game.play("contract CL.2")
    with pytest.raises(IllegalMove, match="space is empty"):
        game.play("contract CM.3")


def test_at_most_three_contracts_per_action():
    game = new_game()
    setup_player(game, upgrades={"CO": 3})
    play(game, "act contracts", "contract CL.1", "contract CM.1", "contract CH.1")
    with pytest.raises(IllegalMove, match="at most 3 per Action"):
        game.play("contract O3.1")


def test_contracts_are_taken_only_with_the_contracts_action():
    game = new_game()
    with pytest.raises(IllegalMove, match="Contracts & Loans Action"):
        game.play("contract CL.1")
    with pytest.raises(IllegalMove, match="Contracts & Loans Action"):
        game.play("loan")


def test_contracts_cannot_be_deferred_in_year_3():
    game = new_game()
    to_last_round(game)
    play(game, "act contracts")
    with pytest.raises(IllegalMove, match="cannot be Deferred in Year 3"):
        game.play("contract CL.1 deferred")
    play(game, "contract CL.1")
    assert not me(game).contracts[0].deferred


def test_deferred_contracts_become_active_in_the_refresh_phase():
    game = new_game()
    player = me(game)
    play(game, "act contracts", "contract CH.1 deferred", "done", "end")
    pass_to_year(game, 2)
    assert len(player.contracts) == 1 and not player.contracts[0].deferred
    assert player.penalties == 0


def test_contracts_fill_barrel_by_barrel_and_complete_when_every_need_is_filled():
    game = new_game()
    game.state.contract_rows[0] = [6, -1]  # "OL TL SL"
    player = setup_player(game, money=0, oil={"OL": 1, "TL": 1, "SL": 1})
    play(game, "act contracts", "contract CL.1", "done", "deliver 1.2 L")
    held = player.contracts[0]
    assert player.money == 20 and held.filled == [-1, 1, -1] and held.completions == 0
    with pytest.raises(IllegalMove, match="already filled"):
        game.play("deliver 1.2 L")
    play(game, "deliver 1.1 L", "deliver 1.3 L")
    assert player.money == 60 and held.completions == 1
    with pytest.raises(IllegalMove, match="fulfilled once this Year"):
        game.play("deliver 1.1 L")


def test_delivering_may_not_interrupt_an_action():
    game = new_game()
    game.state.contract_rows[0] = [6, -1]
    setup_player(game, oil={"OL": 1})
    play(game, "act contracts", "contract CL.1")
    with pytest.raises(IllegalMove, match="may not interrupt an Action"):
        game.play("deliver 1.1 L")
    play(game, "done", "deliver 1.1 L")


def test_delivery_needs_the_barrel_and_the_contract():
    game = new_game()
    game.state.contract_rows[0] = [6, -1]
    setup_player(game, oil={})
    with pytest.raises(IllegalMove, match="no such Contract"):
        game.play("deliver 1.1 L")
    play(game, "act contracts", "contract CL.1", "done")
    with pytest.raises(IllegalMove, match="no such barrel"):
        game.play("deliver 1.1 L")
    with pytest.raises(IllegalMove, match="no such requirement"):
        game.play("deliver 1.4 L")


def test_an_unfulfilled_contract_costs_a_penalty_marker_at_the_game_end():
    game = new_game()
    to_last_round(game)
    player = me(game)
    play(game, "act contracts", "contract CL.1", "done", "end")
    pass_turn(game)
    assert game.is_over()
    assert player.contracts == [] and player.penalties == 1 and player.end_penalties == 1


def test_a_loan_gives_15_and_a_penalty_once_per_action():
    game = new_game()
    player = me(game)
    play(game, "act contracts", "loan")
    assert (player.money, player.penalties) == (55, 1)
    with pytest.raises(IllegalMove, match="at most one per Action"):
        game.play("loan")
    play(game, "contract CL.1", "done", "end")
    pass_turn(game)
    play(game, "act contracts", "loan")
    assert (player.money, player.penalties) == (70, 2)


def test_the_contracts_action_may_take_just_a_loan_with_a_secondary_action():
    game = new_game()
    player = me(game)
    play(game, "act refined3", "done", "second contracts", "loan", "done")
    assert (player.money, player.penalties) == (45, 1)


# --- Orders ----------------------------------------------------------------------------------------


def test_an_order_is_fulfilled_all_at_once():
    game = new_game()
    game.state.order_rows[1] = [112, -1]  # "OM TM SL SL"
    player = setup_player(game, money=0, tanks=[1, 2, 2, 1], oil={"OM": 1, "TM": 1, "SL": 1})
    play(game, "pass")
    with pytest.raises(IllegalMove, match="needs 4 barrels, all at once"):
        game.play("fulfil O4.1 MML")
    with pytest.raises(IllegalMove, match="lack the barrels"):
        game.play("fulfil O4.1 MMLL")
    player.oil[1][SILVER] = 2
    play(game, "fulfil O4.1 MMLL")
    assert player.money == 45 + 45 + 30 + 30
    assert [o.tile for o in player.orders] == [112] and game.state.order_rows[1] == [-1, -1]
    assert sum(map(sum, player.oil)) == 0


def test_fulfilled_orders_are_not_refilled():
    game = new_game()
    game.state.order_rows[0] = [100, game.state.order_rows[0][1]]  # "OL TL SL"
    setup_player(game, oil={"OL": 1, "TL": 1, "SL": 1})
    play(game, "pass", "fulfil O3.1 LLL", "end")
    pass_to_year(game, 3)
    assert game.state.order_rows[0][0] == -1 and game.state.order_rows[0][1] >= 0


def test_orders_may_be_fulfilled_in_the_machine_phase_but_not_during_an_action():
    game = new_game()
    game.state.order_rows[0] = [100, -1]
    setup_player(game, oil={"OL": 1, "TL": 1, "SL": 1})
    play(game, "act crude")
    with pytest.raises(IllegalMove, match="may not interrupt an Action"):
        game.play("fulfil O3.1 LLL")
    play(game, "done", "fulfil O3.1 LLL")
    assert len(me(game).orders) == 1


# --- Tanks & Pipes ---------------------------------------------------------------------------------


def test_tanks_come_from_the_cheapest_row_first():
    game = new_game()
    s = game.state
    player = setup_player(game, money=100)
    assert s.tank_shop == list(C.TANK_SHOP_SPACES[2])
    play(game, "act tanks")
    with pytest.raises(IllegalMove, match="cheapest row"):
        game.play("tank 2 H")
    play(game, "tank 1 H", "tank 1 H", "tank 2 L")
    assert player.money == 100 - 5 - 5 - 10
    assert player.tanks == [2, 2, 1, 3] and s.tank_shop == [0, 1, 2]


def test_a_tank_row_holds_at_most_5_and_tanks_cost_money():
    game = new_game()
    setup_player(game, money=4, tanks=[5, 1, 1, 1])
    play(game, "act tanks")
    with pytest.raises(IllegalMove, match="at most 5 Tanks"):
        game.play("tank 1 C")
    with pytest.raises(IllegalMove, match=r"costs \$5"):
        game.play("tank 1 L")


def test_pipes_come_from_the_shop_of_the_action_and_are_placed_at_once():
    game = new_game()
    s = game.state
    player = setup_player(game, money=100)
    tank_shop_tile = s.shop_pipes[0][2]
    play(game, "act tanks", "pipe 3")
    assert s.turn.hand_tile == tank_shop_tile and s.shop_pipes[0][2] == -1
    with pytest.raises(IllegalMove, match="place the Pipe tile you just took first"):
        game.play("tank 1 L")
    play(game, "place 0,0 r1")
    assert player.tiles == [(tank_shop_tile, 0, 0, 1)]
    play(game, "done", "end")
    pass_turn(game)
    machine_shop_tile = s.shop_pipes[1][0]
    play(game, "act machines", "pipe 1", "place 1,0 r0")
    assert player.tiles[-1] == (machine_shop_tile, 1, 0, 0)


def test_at_most_four_pipes_per_action():
    game = new_game(players=3)
    setup_player(game, money=100)
    play(game, "act tanks")
    for index in range(4):
        play(game, f"pipe {index + 1}")
        game.apply(legal_of(game, M.PlaceTile)[0])
    with pytest.raises(IllegalMove, match="at most 4 per Action"):
        game.play("pipe 5")
    assert me(game).money == 60


def test_pipe_tiles_cost_15_for_one_or_two_and_40_for_three_or_four():
    for count, total in ((1, 15), (2, 15), (3, 40), (4, 40)):
        game = new_game()
        player = setup_player(game, money=100)
        play(game, "act machines")
        for index in range(count):
            play(game, f"pipe {index + 1}")
            game.apply(legal_of(game, M.PlaceTile)[0])
        assert 100 - player.money == total == C.SHOP_PIPE_COSTS[count]


def test_a_new_tile_must_touch_the_network_and_not_overlap_it():
    game = new_game()
    setup_player(game, money=100, tiles=build(*straight_row("O", 1)))
    play(game, "act tanks", "pipe 1")
    with pytest.raises(IllegalMove, match="must touch a tile"):
        game.play("place 5,5 r0")
    with pytest.raises(IllegalMove, match="already covered"):
        game.play("place 1,0 r1")
    placements = legal_of(game, M.PlaceTile)
    assert M.PlaceTile(x=0, y=1, rot=0) in placements and placements
    for m in placements:
        cells = set(tile_cells(m.x, m.y, m.rot))
        assert not cells & {(0, 0), (1, 0)}
        assert any(abs(x - a) + abs(y - b) == 1 for x, y in cells for a, b in ((0, 0), (1, 0)))


def test_pipe_tile_money_is_checked():
    game = new_game()
    setup_player(game, money=14)
    play(game, "act tanks")
    with pytest.raises(IllegalMove, match=r"\$15 for up to 2"):
        game.play("pipe 1")


# --- Machines & Pipes ----------------------------------------------------------------------------


def test_a_machine_needs_a_network_half_to_cover():
    game = new_game()
    play(game, "act machines")
    with pytest.raises(IllegalMove, match="must cover a Pipe tile half"):
        game.play("machine 1")


def test_a_machine_is_placed_on_one_free_half_of_the_network():
    game = new_game()
    player = setup_player(game, money=100, tiles=build(*straight_row("O", 1)), machines=[(0, 0)])
    play(game, "act machines", "machine 1")
    assert legal_of(game, M.PlaceMachine) == [M.PlaceMachine(x=1, y=0)]
    with pytest.raises(IllegalMove, match="already has a Machine"):
        game.play("put-machine 0,0")
    with pytest.raises(IllegalMove, match="cover half of one of your Pipe tiles"):
        game.play("put-machine 2,0")
    play(game, "put-machine 1,0")
    assert player.machines == [(0, 0), (1, 0)]
    with pytest.raises(IllegalMove, match="must cover a Pipe tile half without one"):
        game.play("machine 2")


def test_machines_come_from_the_cheapest_row():
    game = new_game(players=4)
    setup_player(game, money=200, tiles=build(*straight_row("O", 3)))
    assert game.state.machine_shop == [2, 2, 2]
    play(game, "act machines")
    with pytest.raises(IllegalMove, match="cheapest row"):
        game.play("machine 2")
    for cell in ("0,0", "1,0", "2,0"):
        play(game, f"machine {1 if game.state.machine_shop[0] else 2}", f"put-machine {cell}")
    assert me(game).money == 200 - 20 - 20 - 30


# --- Government ------------------------------------------------------------------------------------


def test_a_government_action_buys_the_tile_under_the_worker_for_5():
    game = new_game()
    s = game.state
    player = me(game)
    tile = s.government[2][3]
    play(game, "gov 3.4")
    assert player.money == 35 and s.turn.hand_tile == tile and s.government[2][3] == -1
    play(game, "place 0,0 r0", "done")
    assert player.tiles == [(tile, 0, 0, 0)] and s.government_opened[2] == 1


def test_more_government_tiles_must_touch_the_first_within_the_quadrant():
    game = new_game()
    setup_player(game, money=100)
    play(game, "gov 2.1", "place 0,0 r0")  # space 0 touches 1, 3 and 4
    assert {m.space for m in legal_of(game, M.BuyGovernmentTile)} == {1, 3, 4}
    with pytest.raises(IllegalMove, match="share an edge"):
        game.play("gov-more 8")
    game.state.government[1][1] = -1
    with pytest.raises(IllegalMove, match="space is empty"):
        game.play("gov-more 2")


def test_government_needs_a_tile_and_money():
    game = new_game()
    game.state.government[0][0] = -1
    with pytest.raises(IllegalMove, match="space is empty"):
        game.play("gov 1.1")
    setup_player(game, money=4)
    with pytest.raises(IllegalMove, match=r"costs \$5"):
        game.play("gov 1.2")
    setup_player(game, money=9)
    play(game, "gov 1.2", "place 0,0 r0")
    with pytest.raises(IllegalMove, match=r"2 tiles cost \$10"):
        game.play("gov-more 3")


def test_government_quadrants_are_never_refilled():
    game = new_game()
    play(game, "gov 1.1", "place 0,0 r0", "done", "end")
    pass_to_year(game, 2)
    assert game.state.government[0][0] == -1
