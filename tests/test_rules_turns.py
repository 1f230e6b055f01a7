"""Setup, the shape of a turn (Main, Secondary, pass, Machine Phase), Rounds, Years and the end."""

from __future__ import annotations

import pytest

from pipeline_tui.data import components as C
from pipeline_tui.engine import Game, GameSetup, IllegalMove
from pipeline_tui.engine import moves as M
from pipeline_tui.engine.rules import why_illegal

from tests.helpers import (
    legal,
    legal_of,
    me,
    new_game,
    pass_round,
    pass_turn,
    play,
    setup_player,
    to_last_round,
)


# --- Starting Tanks -------------------------------------------------------------------------------


def test_setup_deals_40_dollars_and_asks_for_5_starting_tanks_in_turn_order():
    game = Game(GameSetup.default(players=3, seed=4))
    s = game.state
    assert [p.money for p in s.players] == [C.START_MONEY] * 3
    assert s.turn.stage == "setup" and s.turn.player == s.turn_order[0]
    assert legal(game) == [M.PlaceStartingTank(grade=g) for g in range(4)]
    for _ in range(5):
        game.play("start-tank C")
    assert s.turn.player == s.turn_order[1]
    assert s.players[s.turn_order[0]].tanks == [5, 0, 0, 0]


def test_a_tank_farm_row_holds_at_most_5_tanks_at_setup():
    game = Game(GameSetup.default(players=2, seed=4))
    me(game).tanks = [5, 0, 0, 0]
    with pytest.raises(IllegalMove, match="at most 5 Tanks"):
        game.play("start-tank C")
    assert M.PlaceStartingTank(grade=0) not in legal(game)


def test_no_action_before_setup_is_done_and_no_starting_tank_after():
    game = Game(GameSetup.default(players=2, seed=4))
    with pytest.raises(IllegalMove, match="starting Tanks first"):
        game.play("act crude")
    game = new_game()
    with pytest.raises(IllegalMove, match="before the first Round"):
        game.play("start-tank L")


def test_the_first_turn_goes_to_the_start_player_after_everyone_placed_tanks():
    game = new_game(players=4)
    s = game.state
    assert s.turn.stage == "work" and s.turn.player == s.turn_order[0]
    assert all(p.tanks == [2, 1, 1, 1] for p in s.players)
    assert (s.year, s.round) == (1, 1)


# --- Main Action ---------------------------------------------------------------------------------


def test_any_cross_space_may_be_taken_even_if_occupied():
    game = new_game()
    play(game, "act crude", "done", "end")
    play(game, "act crude")
    assert [p.worker for p in game.state.players] == ["crude", "crude"]


def test_only_one_main_action_per_turn():
    game = new_game()
    play(game, "act crude", "done")
    with pytest.raises(IllegalMove, match="taken your Action this turn"):
        game.play("act refined1")
    with pytest.raises(IllegalMove, match="taken your Action"):
        game.play("run 0,0")


def test_no_unknown_action_space():
    game = new_game()
    with pytest.raises(IllegalMove, match="no action space"):
        game.apply(M.Action(action="bank"))


def test_pass_replaces_the_action_and_ends_the_work_phase():
    game = new_game()
    player = me(game)
    play(game, "pass")
    assert game.state.turn.stage == "machine"
    with pytest.raises(IllegalMove):
        game.play("pass")
    play(game, "end")
    assert me(game) is not player and player.money == C.START_MONEY


def test_no_pass_after_an_action_and_no_end_of_turn_before_one():
    game = new_game()
    with pytest.raises(IllegalMove, match="take an Action or pass first"):
        game.play("end")
    play(game, "act crude", "done")
    with pytest.raises(IllegalMove, match="instead of taking an Action"):
        game.play("pass")


def test_an_action_in_progress_must_be_finished_before_the_turn_ends():
    game = new_game()
    play(game, "act crude")
    with pytest.raises(IllegalMove, match="finish it first"):
        game.play("end")
    with pytest.raises(IllegalMove, match="no Action in progress"):
        play(game, "done", "done")


# --- Secondary Action ------------------------------------------------------------------------------


def test_a_secondary_action_costs_10_and_is_the_other_space_on_the_same_arm():
    game = new_game()
    player = me(game)
    play(game, "act crude", "done", "second upgrades")
    assert player.money == 30 and player.worker == "upgrades"
    assert game.state.turn.action == "upgrades"


@pytest.mark.parametrize(
    "main, far",
    [
        ("crude", "tanks"),
        ("crude", "refined1"),
        ("upgrades", "tanks"),
        ("upgrades", "machines"),
        ("refined1", "refined3"),
    ],
)
def test_a_secondary_action_must_be_adjacent(main, far):
    game = new_game()
    play(game, f"act {main}", "done")
    with pytest.raises(IllegalMove, match="next to your Main Action"):
        game.play(f"second {far}")


def test_the_secondary_actions_offered_are_exactly_the_neighbours():
    game = new_game()
    play(game, "act tanks", "done")
    assert legal_of(game, M.Secondary) == [M.Secondary(action="refined1")]
    game = new_game()
    play(game, "act refined2", "done")
    assert legal_of(game, M.Secondary) == [M.Secondary(action="machines")]


def test_no_secondary_action_before_a_main_action_or_twice():
    game = new_game()
    with pytest.raises(IllegalMove, match="only after a Main Action"):
        game.play("second crude")
    play(game, "act crude", "done")
    with pytest.raises(IllegalMove, match="different space"):
        game.play("second crude")
    play(game, "second upgrades", "done")
    with pytest.raises(IllegalMove, match="only after a Main Action|already"):
        game.play("second crude")


def test_no_secondary_action_after_a_government_or_network_action():
    game = new_game()
    play(game, "gov 1.1")
    game.apply(legal_of(game, M.PlaceTile)[0])
    play(game, "done")
    assert legal_of(game, M.Secondary) == []
    with pytest.raises(IllegalMove, match="only after a Main Action on the action cross"):
        game.play("second crude")


def test_a_secondary_action_needs_10_dollars():
    game = new_game()
    setup_player(game, money=9)
    play(game, "act crude", "done")
    with pytest.raises(IllegalMove, match=r"costs \$10"):
        game.play("second upgrades")


def test_human_resources_i_makes_the_secondary_action_free():
    game = new_game()
    player = setup_player(game, money=0, upgrades={"HR": 1})
    play(game, "act crude", "done", "second upgrades")
    assert player.money == 0


@pytest.mark.parametrize(
    "main, second",
    [("upgrades", "tanks"), ("upgrades", "machines"), ("contracts", "tanks"), ("crude", "upgrades")],
)
def test_human_resources_ii_reaches_two_spaces_via_the_centre(main, second):
    game = new_game()
    player = setup_player(game, money=40, upgrades={"HR": 2})
    play(game, f"act {main}", "done", f"second {second}")
    assert player.worker == second and player.money == 40  # HR II includes HR I


@pytest.mark.parametrize(
    "main, second", [("crude", "tanks"), ("crude", "refined2"), ("refined1", "contracts")]
)
def test_human_resources_ii_does_not_reach_three_spaces(main, second):
    game = new_game()
    setup_player(game, upgrades={"HR": 2})
    play(game, f"act {main}", "done")
    with pytest.raises(IllegalMove, match="at most 2 spaces"):
        game.play(f"second {second}")


def test_human_resources_iii_two_main_actions_and_no_secondary():
    """Rules version 1 refuses the same cross space twice (version 2: test_readings)."""
    game = new_game(rules_version=1)
    player = setup_player(game, upgrades={"HR": 3})
    play(game, "act crude", "done")
    with pytest.raises(IllegalMove, match="different spaces"):
        game.play("act crude")
    play(game, "act refined3", "done")
    assert game.state.turn.mains == 2 and player.worker == "refined3"
    with pytest.raises(IllegalMove, match="Secondary Action: only after a Main Action"):
        game.play("second contracts")
    with pytest.raises(IllegalMove, match="taken your Action"):
        game.play("act refined1")


def test_human_resources_iii_second_main_may_be_a_government_tile():
    game = new_game()
    setup_player(game, upgrades={"HR": 3})
    play(game, "act crude", "done", "gov 1.1")
    assert game.state.turn.action == "government" and game.state.turn.mains == 2


def test_human_resources_iii_secondary_instead_of_a_second_main():
    game = new_game()
    setup_player(game, upgrades={"HR": 3})
    play(game, "act crude", "done", "second upgrades", "done")
    with pytest.raises(IllegalMove, match="taken your Action"):
        game.play("act refined1")


def test_without_human_resources_iii_no_second_main_action():
    game = new_game()
    setup_player(game, upgrades={"HR": 2})
    play(game, "act crude", "done")
    with pytest.raises(IllegalMove, match="Human Resources III allows two"):
        game.play("act refined1")


# --- Rounds, Years and the end -------------------------------------------------------------------


def test_years_have_8_6_and_4_rounds_then_the_game_ends():
    game = new_game()
    seen = []
    while not game.is_over():
        seen.append((game.state.year, game.state.round))
        pass_round(game)
    assert seen == [(1, r) for r in range(1, 9)] + [(2, r) for r in range(1, 7)] + [
        (3, r) for r in range(1, 5)
    ]


def test_the_game_is_over_after_the_fourth_round_of_year_3():
    game = new_game(players=3)
    to_last_round(game)
    pass_turn(game)
    pass_turn(game)
    assert not game.is_over()
    pass_turn(game)
    assert game.is_over() and game.state.turn.stage == "over"
    assert game.legal_moves() == []
    assert why_illegal(game.state, M.Pass()) == "the game is over"
    with pytest.raises(IllegalMove, match="game is over"):
        game.play("pass")


def test_workers_return_at_the_end_of_a_round():
    game = new_game()
    play(game, "act crude", "done", "end")
    assert me(game).worker == ""
    assert [p.worker for p in game.state.players].count("crude") == 1
    pass_turn(game)
    assert [p.worker for p in game.state.players] == ["", ""]
