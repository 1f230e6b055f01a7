"""Refusals name the rule broken and count slots as the notation does; the prices of moves
that do not name their own; whether a Machine run would refine anything, and why a run would
gain nothing (issue 37)."""

from __future__ import annotations

import pytest

from pipeline_tui.data import components as C
from pipeline_tui.engine import IllegalMove
from pipeline_tui.engine import moves as M
from pipeline_tui.engine.rules import action_title, machines_would_refine, price, why_idle

from tests.helpers import (
    EXAMPLE_COSTS,
    build,
    in_the_machine_phase,
    me,
    new_game,
    play,
    setup_player,
    straight_row,
)


def test_a_new_action_during_another_names_the_action_in_progress_not_contracts():
    game = new_game()
    play(game, "act crude")
    with pytest.raises(IllegalMove) as refused:
        game.play("act refined1")
    assert str(refused.value) == ("Crude Market: this Action is in progress; finish it first ('done')")
    assert "Contracts" not in str(refused.value)


def test_a_missing_market_slot_is_counted_from_1_as_in_the_notation():
    game = new_game()
    play(game, "act crude")
    slots = len(game.state.markets[C.MARKET_ROW_INDEX["C-SC"]])
    with pytest.raises(IllegalMove) as refused:
        game.play(f"buy C-SC#{slots + 1}")
    assert str(refused.value) == f"Markets: row C-SC has no slot {slots + 1} (slots 1 to {slots})"


def test_a_second_pass_says_the_player_has_passed_and_how_to_end_the_turn():
    game = new_game()
    play(game, "pass")
    with pytest.raises(IllegalMove, match=r"you have passed; .*'end' ends your turn"):
        game.play("pass")


def test_the_actions_in_progress_have_rulebook_names():
    assert action_title("crude") == "Crude Market"
    assert action_title("machines_phase") == "Machine Phase (running Machines)"
    assert "_" not in action_title("machines_early") + action_title("network")


def test_prices_of_moves_that_do_not_name_their_own():
    game = new_game()
    state = game.state
    assert price(state, M.Government(quadrant=0, space=0)) == C.GOVERNMENT_COSTS[1] == 5
    assert price(state, M.RunMachines()) == C.MACHINE_RUN_COST == 15
    assert price(state, M.Secondary(action="crude")) == C.SECONDARY_ACTION_COST == 10
    setup_player(game, upgrades={"MACH": 2, "HR": 1})
    assert price(state, M.RunMachines()) == 5 and price(state, M.Secondary(action="crude")) == 0
    play(game, "act tanks")
    assert price(state, M.BuyPipe(index=0)) == 15
    state.turn.pipes_bought = 2
    assert price(state, M.BuyPipe(index=0)) == 25
    assert price(state, M.EndTurn()) is None


def test_a_machine_run_with_empty_tanks_would_refine_nothing():
    game = in_the_machine_phase(oil={"OC": 2, "TC": 1}, money=40)
    assert machines_would_refine(game.state)
    me(game).oil = [[0, 0, 0] for _ in range(4)]
    assert not machines_would_refine(game.state)
    assert me(game).money == 40  # asking runs nothing


def machine_cut_network(oil: dict[str, int]):
    """An Orange Pipeline of 3 tiles with a Machine at each end, and a tile north of its middle
    tile with a Machine on each half: every Pipeline through the middle tile (the Orange one,
    and the two crossing it, which run north into a Machine) is connected to a Machine."""
    game = new_game()
    game.state.refinement_costs = EXAMPLE_COSTS
    north = ((2, -1), "EW:* NS:*", (3, -1), "EW:* NS:*")
    setup_player(
        game,
        tiles=build(*straight_row("O", 3), north),
        machines=[(0, 0), (5, 0), (2, -1), (3, -1)],
        oil=oil,
        tanks=[2, 2, 2, 2],
    )
    return game


def test_a_run_where_every_pipeline_is_connected_to_a_machine_is_legal_but_idle():
    # the rulebook: the worker "may be placed on any Pipe tile, but cannot run Pipelines
    # connected to a Machine"
    game = machine_cut_network({"OC": 2, "TC": 1})
    run = M.RunNetwork(x=2, y=0)
    assert game.why_illegal(run) is None
    why = why_idle(game.state, run)
    assert why is not None and "every Pipeline through this tile is connected to a Machine" in why
    assert M.RunMachines() not in game.legal_moves()  # Actions first: the Machine Phase follows


def test_a_run_that_could_refine_is_not_idle_and_one_that_could_not_says_so():
    game = new_game()
    game.state.refinement_costs = EXAMPLE_COSTS
    setup_player(game, tiles=build(*straight_row("O", 3)), oil={"OC": 1}, tanks=[2, 2, 2, 2])
    assert why_idle(game.state, M.RunNetwork(x=0, y=0)) is None
    me(game).oil = [[0, 0, 0] for _ in range(4)]
    assert "could refine a barrel" in (why_idle(game.state, M.RunNetwork(x=0, y=0)) or "")
    assert why_idle(game.state, M.RunNetwork(x=9, y=9)) is None  # illegal: not idle, refused
    assert why_idle(game.state, M.Pass()) is None
