"""Buying Upgrades and every level of the seven families (rulebook Appendix 1)."""

from __future__ import annotations

import pytest

from pipeline_tui.data import components as C
from pipeline_tui.engine import IllegalMove
from pipeline_tui.engine import moves as M
from pipeline_tui.engine.rules import network

from tests.helpers import (
    EXAMPLE_COSTS,
    build,
    legal_of,
    me,
    new_game,
    oil,
    pass_to_year,
    pass_turn,
    pipeline_at,
    play,
    refine,
    setup_player,
    straight_column,
    straight_row,
    to_last_round,
    use_families,
)

ORANGE, TEAL = 0, 1
ROW = C.MARKET_ROW_INDEX


def upgrades_game(families=("GOV", "SHOP", "HR", "ENG", "RM"), money=200, **player):
    game = new_game()
    use_families(game, list(families))
    setup_player(game, money=money, **player)
    return game


def grants(game) -> list[tuple[str, int]]:
    return [(g.kind, g.count) for g in game.state.turn.grants]


# --- Buying -----------------------------------------------------------------------------------------


def test_an_upgrade_costs_20_and_flips_its_token():
    game = upgrades_game()
    player = me(game)
    play(game, "act upgrades", "upgrade ENG")
    rows = game.state.upgrade_families
    assert player.level("ENG") == 1 and player.money == 180
    assert game.state.upgrade_tokens[rows.index("ENG")] is False
    assert game.state.upgrade_cards[rows.index("ENG")] == [2, 1, 1]


def test_levels_are_bought_in_order_one_per_year():
    game = upgrades_game()
    player = me(game)
    play(game, "act upgrades", "upgrade ENG", "done", "end")
    pass_turn(game)
    play(game, "act upgrades")
    with pytest.raises(IllegalMove, match="flipped until next Year"):
        game.play("upgrade ENG")
    pass_turn(game)
    pass_to_year(game, 2)
    play(game, "act upgrades", "upgrade ENG")
    assert player.level("ENG") == 2


def test_no_two_of_one_family_and_at_most_two_per_action():
    game = upgrades_game()
    play(game, "act upgrades", "upgrade HR")
    with pytest.raises(IllegalMove, match="not two of the same type"):
        game.play("upgrade HR")
    play(game, "upgrade ENG")
    with pytest.raises(IllegalMove, match="at most 2 per Action"):
        game.play("upgrade RM")


def test_upgrades_not_in_the_game_cannot_be_bought_or_flipped():
    game = upgrades_game()
    play(game, "act upgrades")
    with pytest.raises(IllegalMove, match="not in this game"):
        game.play("upgrade MACH")
    with pytest.raises(IllegalMove, match="not in this game"):
        game.play("flip CO")


def test_an_upgrade_needs_20_dollars_and_a_card_left():
    game = upgrades_game(money=19)
    play(game, "act upgrades")
    with pytest.raises(IllegalMove, match=r"each costs \$20"):
        game.play("upgrade HR")
    setup_player(game, money=100, upgrades={"HR": 1})
    game.state.upgrade_cards[game.state.upgrade_families.index("HR")][1] = 0
    with pytest.raises(IllegalMove, match="no Level 2 card"):
        game.play("upgrade HR")
    setup_player(game, upgrades={"HR": 3})
    with pytest.raises(IllegalMove, match="own all three levels"):
        game.play("upgrade HR")


def test_the_free_flip_blocks_a_family_for_everyone_until_next_year():
    game = upgrades_game()
    play(game, "act upgrades", "upgrade HR", "flip RM")
    with pytest.raises(IllegalMove, match="free flip ends your purchases"):
        game.play("upgrade ENG")
    with pytest.raises(IllegalMove, match="only one free flip"):
        game.play("flip ENG")
    play(game, "done", "end")
    play(game, "act upgrades")
    with pytest.raises(IllegalMove, match="flipped until next Year"):
        game.play("upgrade RM")
    with pytest.raises(IllegalMove, match="already face down"):
        game.play("flip HR")
    assert {m.family for m in legal_of(game, M.BuyUpgrade)} == {"GOV", "SHOP", "ENG"}


def test_upgrades_only_with_the_upgrades_action():
    game = upgrades_game()
    with pytest.raises(IllegalMove, match="Upgrades Action"):
        game.play("upgrade HR")
    play(game, "act crude", "done", "second upgrades", "upgrade HR")
    assert me(game).level("HR") == 1


def test_grants_must_be_taken_or_declined_before_anything_else():
    game = upgrades_game()
    play(game, "act upgrades", "upgrade GOV")
    with pytest.raises(IllegalMove, match="take \\(or decline\\)"):
        game.play("upgrade HR")
    with pytest.raises(IllegalMove, match="take \\(or decline\\)"):
        game.play("done")
    assert all(isinstance(m, (M.TakeGovernmentTile, M.Decline)) for m in game.legal_moves())


# --- Government --------------------------------------------------------------------------------------


@pytest.mark.parametrize("level, tiles", [(1, 2), (2, 4), (3, 6)])
def test_government_upgrades_give_2_4_or_6_tiles(level, tiles):
    game = upgrades_game(upgrades={"GOV": level - 1})
    player = me(game)
    play(game, "act upgrades", "upgrade GOV")
    assert grants(game) == [("gov", tiles)]
    for _ in range(tiles):
        game.apply(legal_of(game, M.TakeGovernmentTile)[0])
        game.apply(legal_of(game, M.PlaceTile)[0])
    assert len(player.tiles) == tiles and grants(game) == []
    assert player.money == 180


def test_a_government_grant_takes_from_open_quadrants_in_any_mix():
    game = upgrades_game()
    play(game, "act upgrades", "upgrade GOV", "take-gov 1.1", "place 0,0 r0")
    # Quadrant 1 was opened this Year, so the grant may not open another.
    with pytest.raises(IllegalMove, match="quadrant is closed"):
        game.play("take-gov 2.1")
    play(game, "take-gov 1.8", "place 0,1 r0")
    assert game.state.government_opened == [1, 0, 0, 0]


def test_a_government_grant_may_open_a_quadrant_if_none_opened_this_year():
    game = upgrades_game()
    game.state.government_opened = [0, 0, 0, 0]
    play(game, "act upgrades", "upgrade GOV", "take-gov 4.1", "place 0,0 r0")
    assert game.state.government_opened == [0, 0, 0, 1]


def test_a_government_grant_takes_from_any_quadrant_in_year_3():
    """Year 3 declares all four quadrants open, even after one was first taken from this Year."""
    game = upgrades_game(upgrades={"GOV": 1})
    to_last_round(game)
    game.state.government_opened = [1, 2, 3, 0]
    play(game, "act upgrades", "upgrade GOV", "take-gov 4.1", "place 0,0 r0")
    assert game.state.government_opened == [1, 2, 3, 3]


def test_a_government_grant_in_year_2_may_not_open_a_second_quadrant_that_year():
    game = upgrades_game(upgrades={"GOV": 1})
    game.state.year = 2
    game.state.government_opened = [1, 2, 0, 0]
    play(game, "act upgrades", "upgrade GOV")
    assert {m.quadrant for m in legal_of(game, M.TakeGovernmentTile)} == {0, 1}


def test_declining_gives_up_the_rest_of_a_grant():
    game = upgrades_game()
    player = me(game)
    play(game, "act upgrades", "upgrade GOV", "take-gov 1.1", "place 0,0 r0", "decline")
    assert grants(game) == [] and len(player.tiles) == 1
    with pytest.raises(IllegalMove, match="nothing is due"):
        game.play("decline")


# --- Shops -------------------------------------------------------------------------------------------


def test_shops_i_gives_2_tanks_and_1_pipe_from_either_shop():
    game = upgrades_game()
    player = me(game)
    s = game.state
    tile = s.shop_pipes[1][3]
    play(game, "act upgrades", "upgrade SHOP")
    assert grants(game) == [("tank", 2), ("pipe", 1)]
    with pytest.raises(IllegalMove, match="nothing of that kind is due"):
        game.play("take-pipe M4")
    play(game, "take-tank 1 H", "take-tank 1 L", "take-pipe M4", "place 0,0 r0")
    assert player.tanks == [2, 2, 1, 2] and player.tiles == [(tile, 0, 0, 0)]
    assert player.money == 180 and s.tank_shop[0] == 0 and s.shop_pipes[1][3] == -1


def test_shops_ii_gives_2_pipes_then_a_machine():
    game = upgrades_game(upgrades={"SHOP": 1}, tiles=build(*straight_row("O", 1)))
    player = me(game)
    play(game, "act upgrades", "upgrade SHOP")
    assert grants(game) == [("pipe", 2), ("machine", 1)]
    play(game, "take-pipe T1")
    game.apply(legal_of(game, M.PlaceTile)[0])
    play(game, "take-pipe T2")
    game.apply(legal_of(game, M.PlaceTile)[0])
    play(game, "take-machine 1", "put-machine 0,0")
    assert player.machines == [(0, 0)] and len(player.tiles) == 3 and player.money == 180


def test_shops_ii_machine_fits_on_the_pipes_it_brings():
    """With no network yet, the Pipe tiles come first, so the Machine has a half to cover."""
    game = upgrades_game(upgrades={"SHOP": 1})
    player = me(game)
    play(game, "act upgrades", "upgrade SHOP", "take-pipe T1", "place 0,0 r0", "take-pipe T2")
    game.apply(legal_of(game, M.PlaceTile)[0])
    assert grants(game) == [("machine", 1)]
    play(game, "take-machine 1", "put-machine 0,0")
    assert player.machines == [(0, 0)]


def test_shops_iii_gives_a_machine_and_4_pipes():
    game = upgrades_game(upgrades={"SHOP": 2}, tiles=build(*straight_row("O", 1)))
    play(game, "act upgrades", "upgrade SHOP")
    assert grants(game) == [("pipe", 4), ("machine", 1)]


def test_a_grant_that_cannot_be_given_is_skipped():
    """Shops: "if a tile is not available you do not receive it, even if it becomes available
    later". With no network there is nowhere for a Machine, and an empty shop gives nothing."""
    game = upgrades_game(upgrades={"SHOP": 1})
    game.state.shop_pipes = [[-1] * 4, [-1] * 4]
    play(game, "act upgrades", "upgrade SHOP")
    assert grants(game) == []
    assert game.state.turn.stage == "action"


def test_a_tank_grant_is_skipped_when_the_tank_shop_is_empty():
    game = upgrades_game()
    game.state.tank_shop = [0, 0, 0]
    play(game, "act upgrades", "upgrade SHOP")
    assert grants(game) == [("pipe", 1)]


def test_shops_i_yearly_tanks_come_from_the_cheapest_row():
    game = upgrades_game(upgrades={"SHOP": 1})
    player = me(game)
    pass_turn(game)
    pass_to_year(game, 2)
    assert me(game) is player and grants(game) == [("tank", 2)]
    with pytest.raises(IllegalMove, match="cheapest row"):
        game.play("take-tank 2 C")
    play(game, "take-tank 1 C", "take-tank 1 C")
    assert player.tanks[0] == 4


# --- Human Resources (the turn-shape effects are tested in test_rules_turns.py) ------------------


def test_human_resources_gives_nothing_to_take():
    game = upgrades_game()
    play(game, "act upgrades", "upgrade HR")
    assert grants(game) == []


# --- Engineering --------------------------------------------------------------------------------------


def _teal_four_game(eng: int):
    game = upgrades_game(
        upgrades={"ENG": eng}, tiles=build(*straight_column("T", 2)), tanks=[2, 2, 2, 2], oil={"TC": 1}
    )
    game.state.refinement_costs = [[4, 4, 6], [5, 6, 5], [5, 7, 7]]
    return game


@pytest.mark.parametrize("eng, value, best", [(0, 4, None), (1, 5, "L"), (2, 6, "L")])
def test_engineering_adds_virtual_value_per_4_segments_in_real_runs(eng, value, best):
    game = _teal_four_game(eng)
    teal = pipeline_at(me(game), (0, 0), "NS")
    assert teal.segments == 4 and teal.value(eng) == value
    play(game, "run 0,1")
    if best is None:
        with pytest.raises(IllegalMove, match="Refinement Value 4 is below the cost 5"):
            game.apply(refine(teal, "C", "L"))
    else:
        game.apply(refine(teal, "C", best))
        assert oil(me(game), "TL") == 1


# --- Refined Markets ------------------------------------------------------------------------------


def test_refined_markets_i_adds_5_to_refined_oil_buying_and_selling():
    game = new_game(players=4)
    s = game.state
    s.markets[ROW["1-OL"]] = [ORANGE, -1, -1, -1]
    s.markets[ROW["1-TC"]] = [-1, TEAL, TEAL, TEAL, TEAL, TEAL]
    player = setup_player(game, money=100, upgrades={"RM": 1}, oil={"SH": 1, "TC": 1})
    play(game, "act refined1", "sell 1-SH#1 SH")
    assert player.money == 100 + 50 + 5
    play(game, "sell 1-TC#1 TC")  # crude oil is unaffected
    assert player.money == 155 + 12
    play(game, "buy 1-OL#1")
    assert player.money == 167 - (25 + 5)


def test_refined_markets_i_does_not_touch_the_crude_market():
    game = new_game(players=4)
    player = setup_player(game, money=100, upgrades={"RM": 1})
    play(game, "act crude", "buy C-OC#1")
    assert player.money == 90


def test_refined_markets_ii_trades_at_all_three_refined_markets():
    game = new_game()
    s = game.state
    s.markets[ROW["3-TH"]] = [-1, -1]
    player = setup_player(game, money=100, upgrades={"RM": 2}, oil={"TH": 1})
    play(game, "act refined1", "sell 3-TH#1 TH", "buy 2-SC#1")
    assert oil(player, "SC") == 1 and s.markets[ROW["3-TH"]][0] == TEAL
    assert player.money == 100 + 50 + 5 - 10  # Level II includes Level I's $5
    with pytest.raises(IllegalMove, match="not part of the market"):
        game.play("buy C-OC#1")


def test_refined_markets_ii_does_not_open_refined_rows_at_the_crude_market():
    game = new_game()
    setup_player(game, money=100, upgrades={"RM": 2})
    play(game, "act crude")
    assert {m.row[0] for m in legal_of(game, M.Buy)} == {"C"}


def test_refined_markets_iii_sells_any_colour_but_not_a_lower_grade():
    game = new_game(players=4)
    player = setup_player(game, money=0, upgrades={"RM": 3}, oil={"OH": 1, "SL": 1})
    play(game, "act refined2", "sell 2-TH#1 OH")
    assert player.money == 45 + 5
    with pytest.raises(IllegalMove, match="never a higher one"):
        game.play("sell 2-TM#1 SL")


def test_refined_markets_iii_does_not_apply_at_the_crude_market():
    game = new_game(players=4)
    game.state.markets[ROW["C-OC"]] = [-1] * 6
    setup_player(game, upgrades={"RM": 3}, oil={"TC": 1})
    play(game, "act crude")
    with pytest.raises(IllegalMove, match="oil type must match"):
        game.play("sell C-OC#1 TC")


# --- Contracts & Orders ---------------------------------------------------------------------------


def _contract_game(co: int, oil_codes: dict):
    game = new_game()
    game.state.contract_rows[0] = [3, -1]  # "OL TL"
    game.state.order_rows[0] = [100, 101]  # "OL TL SL", "OL OM TL"
    player = setup_player(game, money=0, tanks=[2, 3, 2, 2], upgrades={"CO": co}, oil=oil_codes)
    return game, player


def test_contracts_and_orders_i_fulfils_a_contract_twice_a_year():
    game, player = _contract_game(1, {"OL": 2, "TL": 2})
    play(
        game,
        "act contracts",
        "contract CL.1",
        "done",
        "deliver 1.1 L",
        "deliver 1.2 L",
        "deliver 1.1 L",
        "deliver 1.2 L",
    )
    held = player.contracts[0]
    assert held.completions == 2 and player.money == 80 and len(held.barrels) == 4
    with pytest.raises(IllegalMove, match="twice"):
        game.play("deliver 1.1 L")


def test_contracts_and_orders_i_a_second_fulfilment_begun_must_be_finished():
    game, player = _contract_game(1, {"OL": 2, "TL": 1})
    play(
        game,
        "act contracts",
        "contract CL.1",
        "done",
        "deliver 1.1 L",
        "deliver 1.2 L",
        "deliver 1.1 L",
        "end",
    )
    pass_to_year(game, 2)
    assert player.contracts == [] and player.penalties == 1


def test_contracts_and_orders_ii_pays_10_more_per_barrel():
    game, player = _contract_game(2, {"OL": 2, "TL": 2, "SL": 1})
    play(game, "act contracts", "contract CL.1", "done", "deliver 1.1 L")
    assert player.money == 30
    play(game, "fulfil O3.1 LLL")
    assert player.money == 30 + 3 * (30 + 10)


def test_contracts_and_orders_iii_takes_orders_as_contracts_at_contract_rates():
    game, player = _contract_game(3, {"OL": 1, "TL": 1, "SL": 1})
    play(game, "act contracts", "contract O3.1", "contract CL.1")
    with pytest.raises(IllegalMove, match="one from each row"):
        game.play("contract O3.2")
    play(game, "done", "deliver 1.1 L", "deliver 1.2 L", "deliver 1.3 L")
    assert [h.tile for h in player.contracts] == [100, 3]
    assert player.money == 3 * (20 + 10)  # Level III includes Level II
    assert player.contracts[0].completions == 1 and game.state.order_rows[0][0] == -1


def test_orders_cannot_be_taken_as_contracts_below_level_iii():
    game, _ = _contract_game(2, {})
    play(game, "act contracts")
    with pytest.raises(IllegalMove, match="Contracts & Orders III"):
        game.play("contract O3.1")


# --- Machines --------------------------------------------------------------------------------------


def _machine_game(level: int):
    game = upgrades_game(
        families=("MACH", "GOV", "HR", "ENG", "RM"),
        money=40,
        upgrades={"MACH": level},
        tanks=[3, 3, 3, 3],
        oil={"OC": 2},
        tiles=build(*straight_row("O", 3)),
        machines=[(0, 0)],
    )
    game.state.refinement_costs = EXAMPLE_COSTS
    return game


def test_machines_i_gives_a_machine_now():
    game = upgrades_game(families=("MACH", "GOV", "HR", "ENG", "RM"), tiles=build(*straight_row("O", 1)))
    player = me(game)
    play(game, "act upgrades", "upgrade MACH")
    assert grants(game) == [("machine", 1)]
    play(game, "take-machine 1", "put-machine 1,0")
    assert player.machines == [(1, 0)] and game.state.machine_shop[0] == 0


def test_machines_i_runs_one_machine_as_a_free_main_action():
    game = _machine_game(1)
    player = me(game)
    orange = pipeline_at(player, (1, 0), "EW")
    play(game, "run-machine 0,0")
    game.apply(refine(orange, "C", "L"))
    play(game, "done")
    assert player.money == 40 and oil(player, "OL") == 1
    with pytest.raises(IllegalMove, match="taken your Action"):
        game.play("run-machine 0,0")


def test_machines_i_run_needs_the_upgrade_and_a_machine_under_the_worker():
    game = _machine_game(0)
    with pytest.raises(IllegalMove, match="only its owner"):
        game.play("run-machine 0,0")
    setup_player(game, upgrades={"MACH": 1})
    with pytest.raises(IllegalMove, match="stand on one of your Machines"):
        game.play("run-machine 1,0")


def test_machines_ii_costs_5_for_the_machine_phase():
    game = _machine_game(2)
    play(game, "pass", "machines")
    assert me(game).money == 35


def test_the_machine_phase_costs_15_and_needs_money_and_machines():
    game = _machine_game(0)
    setup_player(game, money=14)
    play(game, "pass")
    with pytest.raises(IllegalMove, match=r"costs \$15"):
        game.play("machines")
    setup_player(game, machines=[])
    with pytest.raises(IllegalMove, match="no Machines"):
        game.play("machines")


def test_machines_run_after_the_action_without_machines_iii():
    game = _machine_game(2)
    with pytest.raises(IllegalMove, match="Machines III: before too"):
        game.play("machines")


def test_machines_iii_run_before_the_actions_and_again_in_the_machine_phase():
    game = _machine_game(3)
    player = me(game)
    orange = pipeline_at(player, (1, 0), "EW")
    play(game, "machines")
    game.apply(refine(orange, "C", "L"))
    play(game, "done")
    with pytest.raises(IllegalMove, match="run once before your Actions"):
        game.play("machines")
    play(game, "act crude", "done", "machines")
    game.apply(refine(orange, "C", "L"))
    play(game, "done")
    assert player.money == 40 - 5 - 5 and oil(player, "OL") == 2
    with pytest.raises(IllegalMove, match="have run this phase"):
        game.play("machines")
    assert network(player).attached_to((0, 0)) == [orange]
