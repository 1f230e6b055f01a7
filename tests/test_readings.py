"""The rule readings of docs/rules-readings.md, one test (or a few) each."""

from __future__ import annotations

import pytest

from pipeline_tui.data import components as C
from pipeline_tui.engine import IllegalMove
from pipeline_tui.engine import moves as M
from pipeline_tui.engine.scoring import final_scores

from tests.helpers import (
    EXAMPLE_COSTS,
    build,
    legal_of,
    me,
    new_game,
    oil,
    pass_round,
    pass_to_year,
    pass_turn,
    pipeline_at,
    play,
    refine,
    setup_player,
    straight_row,
    use_families,
)

ORANGE, TEAL, SILVER = 0, 1, 2
ROW = C.MARKET_ROW_INDEX


# --- Higher grades fill lower requirements, paid at the lower grade --------------------------


def test_high_oil_sold_into_a_mid_row_is_paid_the_mid_price():
    game = new_game(players=4)
    player = setup_player(game, money=0, oil={"TH": 2})
    play(game, "act refined2", "sell 2-TM#1 TH")
    assert player.money == C.MARKET_ROWS[ROW["2-TM"]].prices[0] == 40
    assert game.state.markets[ROW["2-TM"]][0] == TEAL


def test_refined_oil_sold_into_a_crude_row_is_paid_the_crude_price():
    game = new_game(players=4)
    game.state.markets[ROW["2-SC"]] = [-1] * 6
    player = setup_player(game, money=0, oil={"SM": 1})
    play(game, "act refined2", "sell 2-SC#6 SM")
    assert player.money == 8 and oil(player, "SM") == 0


def test_lower_grade_oil_never_fills_a_higher_market_row():
    game = new_game(players=4)
    setup_player(game, oil={"TM": 1})
    play(game, "act refined2")
    with pytest.raises(IllegalMove, match="never a higher one"):
        game.play("sell 2-TH#1 TM")


def test_high_oil_on_a_mid_contract_requirement_is_paid_the_mid_rate():
    game = new_game()
    game.state.contract_rows[1] = [10, -1]  # "OM OL"
    player = setup_player(game, money=0, oil={"OH": 2})
    play(game, "act contracts", "contract CM.1", "done", "deliver 1.1 H", "deliver 1.2 H")
    assert player.money == C.CONTRACT_PAY[2] + C.CONTRACT_PAY[1] == 55


def test_low_oil_cannot_fill_a_mid_contract_requirement():
    game = new_game()
    game.state.contract_rows[1] = [10, -1]
    setup_player(game, oil={"OL": 2})
    play(game, "act contracts", "contract CM.1", "done")
    with pytest.raises(IllegalMove, match="required grade or higher"):
        game.play("deliver 1.1 L")


def test_an_order_filled_with_higher_grades_pays_the_order_rates():
    game = new_game()
    game.state.order_rows[0] = [101, -1]  # "OL OM TL"
    player = setup_player(game, money=0, oil={"OH": 1, "OM": 1, "TM": 1})
    play(game, "pass", "fulfil O3.1 HMM")
    assert player.money == C.ORDER_PAY[1] + C.ORDER_PAY[2] + C.ORDER_PAY[1] == 105
    assert player.orders[0].barrels == [(ORANGE, 3), (ORANGE, 2), (TEAL, 2)]
    with pytest.raises(IllegalMove, match="empty"):
        game.play("fulfil O3.1 LML")


def test_an_order_needs_a_barrel_of_at_least_each_required_grade():
    game = new_game()
    game.state.order_rows[0] = [101, -1]
    setup_player(game, oil={"OL": 2, "TL": 1})
    play(game, "pass")
    with pytest.raises(IllegalMove, match="required grade or higher"):
        game.play("fulfil O3.1 LLL")


# --- Selling comes before buying in one market visit ----------------------------------------


def test_all_selling_comes_before_buying():
    game = new_game(players=4)
    game.state.markets[ROW["C-OC"]] = [-1, -1, ORANGE, ORANGE, ORANGE, ORANGE]
    player = setup_player(game, money=100, oil={"OC": 2})
    play(game, "act crude", "sell C-OC#1 OC", "sell C-OC#2 OC", "buy C-TC#6")
    assert player.money == 100 + 10 + 9 - 5
    with pytest.raises(IllegalMove, match="complete all your selling before purchasing"):
        game.apply(M.Sell(row="C-TC", slot=5, colour=TEAL, grade=0))
    assert legal_of(game, M.Sell) == []
    assert oil(player, "TC") == 1


# --- Yearly upgrade benefits -----------------------------------------------------------------


def test_yearly_benefits_arrive_on_the_owners_first_turn_of_years_2_and_3():
    game = new_game()
    first, second = (game.state.players[s] for s in game.state.turn_order)
    setup_player(game, first, upgrades={"GOV": 1, "SHOP": 1})
    pass_round(game)
    assert game.state.turn.grants == []  # nothing during Year 1
    pass_to_year(game, 2)
    assert me(game) is first
    assert [(g.kind, g.count) for g in game.state.turn.grants] == [("gov", 1), ("tank", 2)]
    game.apply(legal_of(game, M.TakeGovernmentTile)[0])
    play(game, "place 0,0 r0", "take-tank 1 L", "take-tank 1 M")
    assert first.tanks == [2, 2, 2, 1] and len(first.tiles) == 1
    pass_turn(game)
    assert me(game) is second and game.state.turn.grants == []
    pass_turn(game)
    assert me(game) is first and game.state.turn.grants == []  # once per Year only
    pass_to_year(game, 3)
    assert me(game) is first
    assert [(g.kind, g.count) for g in game.state.turn.grants] == [("gov", 1), ("tank", 2)]


# --- Government quadrants open 2 / 3 / 4 by Year --------------------------------------------


def _government_action(game, quadrant: int) -> None:
    space = next(s for s in range(8) if game.state.government[quadrant][s] >= 0)
    game.apply(M.Government(quadrant=quadrant, space=space))
    game.apply(legal_of(game, M.PlaceTile)[0])
    game.apply(M.EndAction())
    game.apply(M.EndTurn())


def test_government_quadrants_open_two_in_year_1_three_in_year_2_four_in_year_3():
    game = new_game()
    _government_action(game, 0)
    _government_action(game, 2)
    assert [y for y in game.state.government_opened] == [1, 0, 1, 0]
    setup_player(game, money=40)
    with pytest.raises(IllegalMove, match="only 2 quadrants may be open in Year 1"):
        game.apply(M.Government(quadrant=1, space=0))
    _government_action(game, 2)  # an open quadrant stays open
    pass_to_year(game, 2)
    pass_turn(game)
    _government_action(game, 3)
    assert game.state.government_opened == [1, 0, 1, 2]
    with pytest.raises(IllegalMove, match="only 3 quadrants may be open in Year 2"):
        game.apply(M.Government(quadrant=1, space=0))
    pass_to_year(game, 3)
    _government_action(game, 1)
    assert game.state.government_opened == [1, 3, 1, 2]


# --- Machines: a Pipeline runs once per Machine Phase ----------------------------------------


def _two_machine_game(**player):
    game = new_game()
    game.state.refinement_costs = EXAMPLE_COSTS
    setup_player(
        game,
        tiles=build(*straight_row("O", 3)),
        machines=[(0, 0), (5, 0)],
        money=40,
        tanks=[3, 3, 3, 3],
        oil={"OC": 3},
        **player,
    )
    return game


def test_a_pipeline_attached_to_two_machines_runs_once_per_machine_phase():
    game = _two_machine_game()
    player = me(game)
    middle = pipeline_at(player, (2, 0), "EW")
    assert middle.segments == 4 and middle.machines == {(0, 0), (5, 0)}
    play(game, "pass", "machines")
    game.apply(refine(middle, "C", "L"))
    with pytest.raises(IllegalMove, match="one barrel per run"):
        game.apply(refine(middle, "C", "L"))
    play(game, "done")
    with pytest.raises(IllegalMove, match="have run this phase"):
        game.play("machines")
    assert player.money == 25 and oil(player, "OL") == 1


# --- Running the network from a worker tile -----------------------------------------------------


def _network_game(eng: int = 0, machines=()):
    game = new_game()
    game.state.refinement_costs = EXAMPLE_COSTS
    setup_player(
        game,
        tiles=build(*straight_row("O", 3)),
        machines=list(machines),
        tanks=[3, 3, 3, 3],
        oil={"OC": 2, "OL": 1},
        upgrades={"ENG": eng},
    )
    return game


def test_a_network_run_refines_one_barrel_per_pipeline_through_the_worker_tile():
    game = _network_game()
    orange = pipeline_at(me(game), (2, 0), "EW")
    play(game, "run 2,0")
    game.apply(refine(orange, "C", "L"))
    with pytest.raises(IllegalMove, match="one barrel per run"):
        game.apply(refine(orange, "C", "L"))


def test_engineering_iii_runs_two_barrels_of_the_same_starting_grade():
    game = _network_game(eng=3)
    player = me(game)
    orange = pipeline_at(player, (2, 0), "EW")
    play(game, "run 3,0")
    game.apply(refine(orange, "C", "L"))
    with pytest.raises(IllegalMove, match="both barrels must start at the same grade"):
        game.apply(refine(orange, "L", "M"))
    game.apply(refine(orange, "C", "M"))
    with pytest.raises(IllegalMove, match="Engineering III: two"):
        game.apply(refine(orange, "C", "L"))
    assert [oil(player, c) for c in ("OC", "OL", "OM")] == [0, 2, 1]


def test_a_network_run_excludes_pipelines_attached_to_a_machine():
    game = _network_game(machines=[(0, 0)])
    player = me(game)
    orange = pipeline_at(player, (2, 0), "EW")
    assert orange.machines == {(0, 0)} and orange.segments == 5
    play(game, "run 2,0")
    with pytest.raises(IllegalMove, match="not part of this run"):
        game.apply(refine(orange, "C", "L"))
    assert legal_of(game, M.Refine) == []


def test_a_barrel_refined_in_a_run_is_not_refined_again_in_that_run():
    game = new_game()
    game.state.refinement_costs = EXAMPLE_COSTS
    tiles = build(
        ((0, 0), "EW:O NS:O", (1, 0), "EW:O NS:*"),
        ((-2, 0), "EW:O NS:*", (-1, 0), "EW:O NS:*"),
        ((0, -2), "NS:O EW:*", (0, -1), "NS:O EW:*"),
        ((0, 1), "NS:O EW:*", (0, 2), "NS:O EW:*"),
        ((0, 3), "NS:O EW:*", (0, 4), "NS:O EW:*"),
    )
    player = setup_player(game, tiles=tiles, tanks=[2, 2, 2, 2], oil={"OC": 1})
    row = pipeline_at(player, (0, 0), "EW")
    column = pipeline_at(player, (0, 0), "NS")
    assert (row.segments, column.segments) == (4, 7)
    play(game, "run 0,0")
    game.apply(refine(row, "C", "L"))
    with pytest.raises(IllegalMove, match="not been refined in this run"):
        game.apply(refine(column, "L", "M"))


# --- Turn order ---------------------------------------------------------------------------------


@pytest.mark.parametrize("rules_version", [1, 2])
def test_turn_order_choosers_insert_and_the_others_append(rules_version):
    """Without gaps on the track both rules versions give the same order."""
    game = new_game(players=3, rules_version=rules_version)
    a, b, c = game.state.turn_order
    pass_turn(game)
    play(game, "act tanks", "done", "order-place 1", "end")
    assert game.state.next_order == [b, a]
    play(game, "act machines", "done", "order-place 2", "end")
    assert game.state.turn_order == [b, c, a]


def test_track_a_chooser_takes_any_free_space_and_the_others_slide_to_the_leftmost_free():
    game = new_game(players=3)
    a, b, c = game.state.turn_order
    pass_turn(game)
    assert game.state.next_track == [a, -1, -1]
    play(game, "act tanks", "done", "order-place 3", "end")
    assert game.state.next_track == [a, -1, b]
    pass_turn(game)  # c did not change, so c slides into the gap ahead of b
    assert game.state.turn_order == [a, c, b] and game.state.next_track == [-1, -1, -1]


def test_track_an_occupied_space_pushes_the_touching_disks_right():
    """The rulebook's example: the disk there and the disks beside it are bumped right."""
    game = new_game(players=4)
    a, b, c, d = game.state.turn_order
    play(game, "act tanks", "done", "order-place 2", "end")
    pass_turn(game)
    assert game.state.next_track == [b, a, -1, -1]
    play(game, "act machines", "done", "order-place 1", "end")
    assert game.state.next_track == [c, b, a, -1]
    pass_turn(game)
    assert game.state.turn_order == [c, b, a, d]


def test_track_an_occupied_space_pushes_left_when_nothing_is_free_to_its_right():
    game = new_game(players=3)
    a, b, c = game.state.turn_order
    play(game, "act tanks", "done", "order-place 3", "end")
    play(game, "act machines", "done", "order-place 3", "end")
    assert game.state.next_track == [-1, a, b]
    pass_turn(game)
    assert game.state.turn_order == [c, a, b]


def test_track_spaces_are_one_per_player_and_version_1_counts_places_instead():
    game = new_game(players=3)
    play(game, "act tanks", "done")
    assert [m.position for m in legal_of(game, M.ChooseTurnOrder)] == [0, 1, 2]
    with pytest.raises(IllegalMove, match="choose a space from 1 to 3"):
        game.play("order-place 4")
    old = new_game(players=3, rules_version=1)
    play(old, "act tanks", "done")
    assert [m.position for m in legal_of(old, M.ChooseTurnOrder)] == [0]
    with pytest.raises(IllegalMove, match="choose a place from 1 to 1"):
        old.play("order-place 3")
    assert old.state.next_track == []


def test_only_the_four_action_tiles_show_the_turn_order_icon():
    game = new_game()
    play(game, "act crude", "done")
    with pytest.raises(IllegalMove, match="Turn Order icon"):
        game.play("order-place 1")
    play(game, "second upgrades", "done", "order-place 1")
    with pytest.raises(IllegalMove, match="already this turn"):
        game.play("order-place 1")


# --- Ties ------------------------------------------------------------------------------------------


def test_a_tie_goes_to_the_player_furthest_ahead_in_turn_order():
    game = new_game()
    s = game.state
    totals = {score.seat: score.total for score in final_scores(s)}
    assert totals[0] == totals[1]
    s.turn_order = [1, 0]
    assert [score.seat for score in final_scores(s)] == [1, 0]
    s.turn_order = [0, 1]
    assert [(score.seat, score.rank) for score in final_scores(s)] == [(0, 1), (1, 2)]
    s.players[1].money += 1
    assert final_scores(s)[0].seat == 1


# --- Further readings (docs/rules-readings.md) -----------------------------------------------------


def test_a_cube_keeps_its_colour_in_a_market_under_refined_markets_iii():
    game = new_game(players=4)
    seller = setup_player(game, oil={"TH": 1}, upgrades={"RM": 3})
    play(game, "act refined1", "sell 1-OH#1 TH")
    assert game.state.markets[ROW["1-OH"]][0] == TEAL
    assert seller.money == 40 + 45 + C.REFINED_MARKETS_I_BONUS
    play(game, "done", "end")
    buyer = setup_player(game, money=100, tanks=[1, 1, 1, 1], oil={})
    play(game, "act refined1", "buy 1-OH#1")
    assert oil(buyer, "TH") == 1 and oil(buyer, "OH") == 0


def test_without_refined_markets_iii_the_colour_must_match():
    game = new_game(players=4)
    setup_player(game, oil={"TH": 1})
    play(game, "act refined1")
    with pytest.raises(IllegalMove, match="oil type must match"):
        game.play("sell 1-OH#1 TH")


def test_the_first_tile_of_a_network_starts_at_the_origin():
    game = new_game()
    setup_player(game, money=40)
    play(game, "act tanks", "pipe 1")
    assert {(m.x, m.y) for m in legal_of(game, M.PlaceTile)} == {(0, 0)}
    with pytest.raises(IllegalMove, match="first tile starts at 0,0"):
        game.play("place 1,0 r0")


def test_pass_skips_the_work_phase_but_the_machine_phase_follows():
    game = _two_machine_game()
    play(game, "pass")
    assert game.state.turn.stage == "machine"
    with pytest.raises(IllegalMove):
        game.play("act crude")
    play(game, "machines")
    assert me(game).money == 25


def test_shop_pipe_tiles_are_charged_15_0_25_0_as_taken():
    game = new_game()
    player = setup_player(game, money=100, tiles=build(*straight_row("O", 1)))
    play(game, "act tanks")
    paid = []
    for index in range(4):
        before = player.money
        play(game, f"pipe {index + 1}")
        game.apply(legal_of(game, M.PlaceTile)[0])
        paid.append(before - player.money)
    assert paid == [15, 0, 25, 0]
    with pytest.raises(IllegalMove, match="that space is empty"):
        game.play("pipe 1")


def test_government_tiles_are_charged_5_5_10_15_20_as_taken():
    game = new_game()
    player = setup_player(game, money=100)
    play(game, "gov 1.5")  # space 4 touches spaces 0, 1, 3, 5 and 6
    game.apply(legal_of(game, M.PlaceTile)[0])
    paid = [100 - player.money]
    for space in (0, 1, 3, 5):
        before = player.money
        play(game, f"gov-more {space + 1}")
        game.apply(legal_of(game, M.PlaceTile)[0])
        paid.append(before - player.money)
    assert paid == [5, 5, 10, 15, 20] and sum(paid) == C.GOVERNMENT_COSTS[5]
    with pytest.raises(IllegalMove, match="at most 5 tiles"):
        game.play("gov-more 7")


def test_engineering_ii_replaces_engineering_i():
    game = new_game()
    player = setup_player(game, tiles=build(*straight_row("O", 4)))
    orange = pipeline_at(player, (0, 0), "EW")
    assert orange.segments == 8
    assert [orange.value(level) for level in (0, 1, 2, 3)] == [8, 10, 12, 12]


def test_barrels_on_contracts_return_to_the_supply_and_barrels_on_orders_stay():
    game = new_game()
    game.state.contract_rows[0] = [3, -1]
    game.state.order_rows[0] = [100, -1]  # "OL TL SL"
    player = setup_player(game, oil={"OL": 2, "TL": 2, "SL": 1})
    s = game.state
    for colour in range(3):  # the barrels given to the player come out of the bank
        s.supply[colour] -= sum(player.oil[g][colour] for g in range(4))
    play(
        game,
        "act contracts",
        "contract CL.1",
        "done",
        "deliver 1.1 L",
        "deliver 1.2 L",
        "fulfil O3.1 LLL",
        "end",
    )
    pass_to_year(game, 2)
    assert player.contracts[0].barrels == []
    assert player.orders[0].barrels == [(ORANGE, 1), (TEAL, 1), (SILVER, 1)]
    for colour in range(3):  # every cube is somewhere: bank, markets, Tank Farms or Orders
        total = (
            s.supply[colour]
            + sum(row.count(colour) for row in s.markets)
            + sum(p.oil[g][colour] for p in s.players for g in range(4))
            + sum(b[0] == colour for p in s.players for o in p.orders for b in o.barrels)
        )
        assert total == C.BARRELS_PER_COLOUR


def test_supply_adds_only_the_barrels_the_bank_still_has():
    game = new_game()
    s = game.state
    s.markets[ROW["C-OC"]] = [-1, -1, -1, -1]
    s.supply[ORANGE] = 1
    pass_to_year(game, 2)
    assert s.markets[ROW["C-OC"]] == [-1, -1, -1, ORANGE] and s.supply[ORANGE] == 0


# --- Human Resources III: "any 2 Actions" -----------------------------------------------------


def test_human_resources_iii_any_two_actions_may_repeat_a_cross_space():
    """Rules version 2: the second Main Action may be the same space (version 1 refuses it:
    test_rules_turns)."""
    game = new_game()
    player = setup_player(game, upgrades={"HR": 3})
    play(game, "act upgrades", "done", "act upgrades", "done")
    assert game.state.turn.mains == 2 and player.worker == "upgrades"
    with pytest.raises(IllegalMove, match="taken your Action"):
        game.play("act upgrades")


@pytest.mark.parametrize("rules_version", [1, 2])
def test_human_resources_iii_may_run_the_same_pipeline_in_both_actions(rules_version):
    """A Pipeline runs once per Action, so the same tile twice refines two barrels."""
    game = new_game(rules_version=rules_version)
    game.state.refinement_costs = EXAMPLE_COSTS
    player = setup_player(
        game, upgrades={"HR": 3}, tanks=[2, 2, 2, 2], oil={"OC": 2}, tiles=build(*straight_row("O", 2))
    )
    orange = pipeline_at(player, (0, 0), "EW")
    play(game, "run 0,0")
    game.apply(refine(orange, "C", "L"))
    play(game, "done", "run 0,0")
    game.apply(refine(orange, "C", "L"))
    assert oil(player, "OL") == 2 and oil(player, "OC") == 0


# --- Machines I with an empty Machine Shop ---------------------------------------------------------


def _machines_i_game(rules_version: int, shop_empty: bool = True):
    game = new_game(rules_version=rules_version)
    use_families(game, ["MACH", "GOV", "HR", "ENG", "RM"])
    setup_player(game, money=100, tiles=build(*straight_row("O", 1)))
    if shop_empty:
        game.state.machine_reserve += sum(game.state.machine_shop)
        game.state.machine_shop = [0] * len(game.state.machine_shop)
    return game


def test_machines_i_takes_from_the_stack_when_the_machine_shop_is_empty():
    """Rules version 2: the card gives a Machine with no "if available" clause."""
    game = _machines_i_game(2)
    reserve = game.state.machine_reserve
    play(game, "act upgrades", "upgrade MACH")
    assert legal_of(game, M.TakeMachine) == [M.TakeMachine(shop_row=M.MACHINE_STACK)]
    play(game, "take-machine stack", "put-machine 1,0")
    assert me(game).machines == [(1, 0)] and game.state.machine_reserve == reserve - 1


def test_machines_i_takes_from_the_shop_while_it_has_one():
    game = _machines_i_game(2, shop_empty=False)
    play(game, "act upgrades", "upgrade MACH")
    with pytest.raises(IllegalMove, match="from the Machine Shop while it has one"):
        game.play("take-machine stack")
    play(game, "take-machine 1", "put-machine 1,0")
    assert me(game).machines == [(1, 0)]


def test_machines_i_with_an_empty_machine_shop_gives_nothing_in_rules_version_1():
    game = _machines_i_game(1)
    reserve = game.state.machine_reserve
    play(game, "act upgrades", "upgrade MACH")
    assert game.state.turn.grants == [] and game.state.machine_reserve == reserve
    with pytest.raises(IllegalMove, match="nothing of that kind is due"):
        game.play("take-machine stack")


def test_machines_i_with_shop_and_stack_empty_gives_nothing():
    game = _machines_i_game(2)
    game.state.machine_reserve = 0
    play(game, "act upgrades", "upgrade MACH")
    assert game.state.turn.grants == []


def test_the_shops_machine_never_comes_from_the_stack():
    """Shops II and III say "from the Machine Shop" and "if available"."""
    game = new_game()
    use_families(game, ["SHOP", "GOV", "HR", "ENG", "RM"])
    setup_player(game, money=100, upgrades={"SHOP": 1}, tiles=build(*straight_row("O", 1)))
    play(game, "act upgrades", "upgrade SHOP", "decline")
    with pytest.raises(IllegalMove, match="their Machine comes from the Machine Shop"):
        game.play("take-machine stack")


# --- Government grants may open a quadrant ------------------------------------------------------


@pytest.mark.parametrize("rules_version", [1, 2])
def test_an_upgrade_grant_opens_a_quadrant_when_none_opened_this_year(rules_version):
    """The rulebook: a quadrant is declared open by a player taking a tile from it "by
    purchasing ... or by taking them due to a Government Upgrade"; within the Year's limit,
    and (as the yearly benefit says) only if no quadrant was opened this Year."""
    game = new_game(rules_version=rules_version)
    use_families(game, ["GOV", "SHOP", "HR", "ENG", "RM"])
    setup_player(game, money=100, upgrades={"GOV": 1})
    game.state.year = 2
    game.state.government_opened = [1, 0, 0, 0]
    play(game, "act upgrades", "upgrade GOV", "take-gov 3.1", "place 0,0 r0")
    assert game.state.government_opened == [1, 0, 2, 0]
    with pytest.raises(IllegalMove, match="quadrant is closed"):
        game.play("take-gov 2.1")
    play(game, "take-gov 3.2", "place 1,1 r0", "take-gov 1.1")
