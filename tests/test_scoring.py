"""End-of-game scoring (rulebook "End of Game") and the 16 Valuation cards (Appendix 2)."""

from __future__ import annotations

import pytest

from pipeline_tui.data import components as C
from pipeline_tui.engine.scoring import card_value, final_scores
from pipeline_tui.engine.state import HeldContract, HeldOrder

from tests.helpers import (
    build,
    new_game,
    pass_turn,
    pipeline_at,
    play,
    setup_player,
    straight_row,
    to_last_round,
)

FLAT_COSTS = [[4, 4, 4], [4, 4, 4], [4, 4, 4]]  # Crude reaches Low at 4, Mid at 8, High at 12


def scored_player(game):
    """An end-state player: Pipelines orange 12 (High), teal 8 (Mid) and silver 5 (Low, on a
    Machine); oil OC, OL, 2 TM, SH; Upgrades HR III, RM III, CO II; two Contracts and one Order."""
    game.state.refinement_costs = FLAT_COSTS
    tiles = build(*straight_row("O", 6, y=0), *straight_row("T", 4, y=2), *straight_row("S", 3, y=4))
    player = setup_player(
        game,
        game.state.players[0],
        money=123,
        tanks=[2, 1, 2, 1],
        oil={"OC": 1, "OL": 1, "TM": 2, "SH": 1},
        tiles=tiles,
        machines=[(0, 4)],
        upgrades={"HR": 3, "RM": 3, "CO": 2},
        penalties=3,
    )
    player.contracts = [
        HeldContract(tile=3, filled=[-1, -1]),  # "OL TL"
        HeldContract(tile=21, filled=[-1, -1]),
    ]  # "TH TL"
    player.orders = [HeldOrder(tile=100, barrels=[(0, 1), (1, 1), (2, 1)])]  # "OL TL SL"
    return player


def test_the_constructed_network_has_the_intended_pipelines():
    game = new_game()
    player = scored_player(game)
    assert pipeline_at(player, (0, 0), "EW").segments == 12
    assert pipeline_at(player, (0, 2), "EW").segments == 8
    silver = pipeline_at(player, (1, 4), "EW")
    assert silver.segments == 5 and silver.machines == {(0, 4)}


EXPECTED_CARDS = {
    1: 10 + 40 + 30,  # refined oil: OL, 2 TM, SH
    2: 30 + 20 + 10,  # Pipelines by grade reached: High, Mid, Low
    3: 10 * 6,  # 6 Tanks
    4: 100 * 2,  # HR III and RM III
    5: 10,  # the silver Pipeline on the Machine reaches Low
    6: 30 + 10,  # silver: SH and the silver Pipeline
    7: 0 + 10 + 30,  # orange: OC, OL and the orange Pipeline
    8: 40 + 20,  # teal: 2 TM and the teal Pipeline
    9: 10,  # one Pipeline reaching exactly Low
    10: 20,  # one reaching exactly Mid
    11: 30,  # one reaching High
    12: (20 + 10) * 2 + (45 + 10) + (20 + 10),  # both Contracts again, with C&O II
    13: (30 + 10) * 3,  # the Order again, with C&O II
    14: 60,  # 3 Pipeline types
    15: 10,  # 1 type on a Machine
    16: 100,  # OL, TL, TH, SL: 4 oil types
}


@pytest.mark.parametrize("card", sorted(EXPECTED_CARDS))
def test_each_valuation_card(card):
    game = new_game()
    player = scored_player(game)
    assert card_value(game.state, player, card) == EXPECTED_CARDS[card]


def test_all_16_cards_are_covered():
    assert sorted(EXPECTED_CARDS) == [c.id for c in C.VALUATION_CARDS] == list(range(1, 17))


def test_the_full_breakdown_of_a_constructed_end_state():
    game = new_game()
    player = scored_player(game)
    game.state.valuation_cards = [4, 12, 14]
    score = next(s for s in final_scores(game.state) if s.seat == 0)
    lines = {line.step: line.amount for line in score.lines}
    assert lines == {
        "contracts": 0,
        "oil": 80,
        "pipelines": 60,
        "valuation_tile": 10,
        "card:LEVEL3": 200,
        "card:CONTRACTS": 145,
        "card:PIPELINE_TYPES": 60,
        "penalties": -90,
        "cash": 123,
    }
    assert [line.step for line in score.lines][:4] == ["contracts", "oil", "pipelines", "valuation_tile"]
    assert score.total == 80 + 60 + 10 + 200 + 145 + 60 - 90 + 123 == sum(lines.values())
    assert player.money == 123  # scoring reads the state, it does not pay out


def test_engineering_counts_in_end_game_pipeline_values():
    game = new_game()
    player = scored_player(game)
    assert card_value(game.state, player, 11) == 30
    player.upgrades[C.UPGRADE_CODES.index("ENG")] = 2  # teal 8 + 4 = 12: High now
    assert card_value(game.state, player, 11) == 60
    assert card_value(game.state, player, 10) == 0


def test_short_pipelines_score_nothing():
    game = new_game()
    game.state.refinement_costs = FLAT_COSTS
    player = setup_player(game, game.state.players[0], tiles=build(*straight_row("O", 1)))
    assert card_value(game.state, player, 2) == 0
    assert card_value(game.state, player, 14) == 0


@pytest.mark.parametrize(
    "markers, loss",
    [
        (0, 0),
        (1, 20),
        (2, 50),
        (3, 90),
        (4, 140),
        (5, 200),
        (6, 270),
        (7, 350),
        (8, 440),
        (9, 540),
        (10, 650),
    ],
)
def test_penalties_follow_the_player_board_table(markers, loss):
    game = new_game()
    setup_player(game, game.state.players[0], penalties=markers)
    score = next(s for s in final_scores(game.state) if s.seat == 0)
    assert dict((line.step, line.amount) for line in score.lines)["penalties"] == -loss
    assert C.penalty_total(markers) == loss == 5 * markers * (markers + 3)


def test_type_count_table_matches_the_cards():
    assert C.TYPE_COUNT_VALUE == (0, 10, 30, 60, 100, 150, 210, 280, 360, 450)


def test_nine_pipeline_types_are_the_most():
    """Per colour, straight runs of 2, 4 and 6 segments use all six straight tiles of that
    colour; with every step costing 2 they reach Low, Mid and High."""
    game = new_game()
    game.state.refinement_costs = [[2, 2, 2]] * 3
    specs = []
    for colour_index, colour in enumerate("OTS"):
        for tiles in (1, 2, 3):
            specs += straight_row(colour, tiles, x0=20 * colour_index, y=2 * tiles)
    player = setup_player(game, game.state.players[0], tiles=build(*specs))
    assert card_value(game.state, player, 14) == C.TYPE_COUNT_VALUE[9] == 450
    assert card_value(game.state, player, 15) == 0
    assert card_value(game.state, player, 2) == 3 * (10 + 20 + 30)


def test_the_winner_has_the_most_money_and_ties_go_forward_in_turn_order():
    game = new_game(players=3)
    s = game.state
    s.valuation_cards = [3, 4, 13]
    for p, money in zip(s.players, (100, 130, 130)):
        setup_player(game, p, money=money)
    s.turn_order = [0, 2, 1]
    assert [(sc.seat, sc.rank) for sc in final_scores(s)] == [(2, 1), (1, 2), (0, 3)]
    s.turn_order = [1, 0, 2]
    assert [sc.seat for sc in final_scores(s)] == [1, 2, 0]


def test_a_real_game_end_removes_incomplete_contracts_and_scores_their_penalties():
    game = new_game()
    to_last_round(game)
    first = game.state.players[game.state.turn.player]
    play(game, "act contracts", "contract CL.1", "contract CM.1", "loan", "done", "end")
    pass_turn(game)
    assert game.is_over()
    score = next(s for s in game.scores() if s.seat == first.seat)
    lines = {line.step: line for line in score.lines}
    assert first.end_penalties == 2 and first.penalties == 3
    assert lines["penalties"].amount == -90 and "2 incomplete" in lines["contracts"].label
    assert lines["cash"].amount == 55
