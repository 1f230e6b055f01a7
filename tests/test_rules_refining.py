"""Running a Pipe Network and Machines (rulebook "Running Your Personal Pipe Network", "Machine
Phase")."""

from __future__ import annotations

import pytest

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
    pipeline_at,
    play,
    refine,
    setup_player,
    straight_row,
)

ORANGE = 0


def orange_row_game(tiles: int = 3, machines=(), costs=EXAMPLE_COSTS, **player):
    game = new_game()
    game.state.refinement_costs = costs
    defaults = {"tanks": [2, 2, 2, 2], "oil": {"OC": 2, "TC": 1}}
    defaults.update(player)
    setup_player(game, tiles=build(*straight_row("O", tiles)), machines=list(machines), **defaults)
    return game


def test_the_worker_must_stand_on_one_of_your_tiles():
    game = orange_row_game()
    with pytest.raises(IllegalMove, match="stand on one of your Pipe tiles"):
        game.play("run 0,1")
    assert {(m.x, m.y) for m in legal_of(game, M.RunNetwork)} == {(x, 0) for x in range(6)}


def test_refining_happens_only_while_running():
    game = orange_row_game()
    orange = pipeline_at(me(game), (0, 0), "EW")
    with pytest.raises(IllegalMove, match="only while running"):
        game.apply(refine(orange, "C", "L"))
    play(game, "act crude")
    with pytest.raises(IllegalMove, match="only while running"):
        game.apply(refine(orange, "C", "L"))


def test_a_pipeline_refines_only_its_own_colour():
    game = orange_row_game(oil={"TC": 2})
    orange = pipeline_at(me(game), (0, 0), "EW")
    play(game, "run 0,0")
    with pytest.raises(IllegalMove, match="no such barrel"):
        game.apply(refine(orange, "C", "L"))
    assert legal_of(game, M.Refine) == []


def test_the_final_grade_needs_a_free_tank_but_intermediate_grades_do_not():
    game = orange_row_game(tiles=4, tanks=[1, 1, 1, 1], oil={"OC": 1, "OL": 2, "OM": 2})
    player = me(game)
    orange = pipeline_at(player, (0, 0), "EW")
    play(game, "run 0,0")
    with pytest.raises(IllegalMove, match="no free Tank in the target row"):
        game.apply(refine(orange, "C", "M"))
    player.oil[2][ORANGE] = 1
    game.apply(refine(orange, "C", "M"))  # passes the full Low row on its way: 4 + 4 = 8
    assert [oil(player, c) for c in ("OC", "OL", "OM")] == [0, 2, 2]


def test_a_tank_emptied_in_a_run_may_be_refilled_in_it():
    """All Pipelines run at once: a Low barrel moving up frees its Tank for a Crude barrel."""
    game = new_game()
    game.state.refinement_costs = EXAMPLE_COSTS
    tiles = build(
        ((0, 0), "EW:O NS:O", (1, 0), "EW:O NS:*"),
        ((2, 0), "EW:O NS:*", (3, 0), "EW:O NS:*"),
        ((0, 1), "NS:O EW:*", (0, 2), "NS:O EW:*"),
        ((0, -2), "NS:O EW:*", (0, -1), "NS:O EW:*"),
    )
    player = setup_player(game, tiles=tiles, tanks=[1, 1, 1, 1], oil={"OC": 1, "OL": 2})
    row = pipeline_at(player, (0, 0), "EW")
    column = pipeline_at(player, (0, 0), "NS")
    assert (row.segments, column.segments) == (4, 5)
    play(game, "run 0,0")
    with pytest.raises(IllegalMove, match="no free Tank"):
        game.apply(refine(column, "C", "L"))
    game.apply(refine(row, "L", "M"))
    game.apply(refine(column, "C", "L"))
    assert [oil(player, c) for c in ("OC", "OL", "OM")] == [0, 2, 1]


def test_you_may_refine_to_a_lower_grade_than_the_pipeline_allows():
    game = orange_row_game(tiles=6)
    player = me(game)
    orange = pipeline_at(player, (0, 0), "EW")
    assert orange.value(0) == 12
    play(game, "run 0,0")
    assert {(m.from_grade, m.to_grade) for m in legal_of(game, M.Refine)} == {(0, 1), (0, 2)}
    game.apply(refine(orange, "C", "L"))
    assert oil(player, "OL") == 1


def test_refining_goes_up_only():
    game = orange_row_game(oil={"OL": 1})
    orange = pipeline_at(me(game), (0, 0), "EW")
    play(game, "run 0,0")
    with pytest.raises(IllegalMove, match="to a higher grade"):
        game.apply(refine(orange, "L", "C"))


def test_running_the_network_is_free_and_ends_the_work_phase():
    game = orange_row_game()
    player = me(game)
    play(game, "run 2,0", "done")
    assert player.money == 40 and game.state.turn.mains == 1
    assert legal_of(game, M.Secondary) == []


def test_machine_phase_runs_every_attached_pipeline_once():
    game = orange_row_game(machines=[(0, 0), (5, 0)], money=40)
    player = me(game)
    middle = pipeline_at(player, (1, 0), "EW")
    crossings = [p for p in network(player).attached() if p is not middle]
    assert middle.machines == {(0, 0), (5, 0)} and crossings == []
    play(game, "act crude", "done", "machines")
    assert player.money == 25
    game.apply(refine(middle, "C", "L"))
    with pytest.raises(IllegalMove, match="one barrel per run"):
        game.apply(refine(middle, "C", "L"))


def test_machines_i_runs_only_the_pipelines_of_the_chosen_machine():
    flat = [[2, 2, 2]] * 3
    game = orange_row_game(machines=[(0, 0), (3, 0)], costs=flat, upgrades={"MACH": 1})
    player = me(game)
    shared = pipeline_at(player, (1, 0), "EW")
    right = pipeline_at(player, (4, 0), "EW")
    assert shared.machines == {(0, 0), (3, 0)} and right.machines == {(3, 0)}
    play(game, "run-machine 0,0")
    with pytest.raises(IllegalMove, match="not part of this run"):
        game.apply(refine(right, "C", "L"))
    game.apply(refine(shared, "C", "L"))
    assert me(game).money == 40


def test_a_machine_cuts_its_half_out_of_the_network():
    game = orange_row_game(machines=[(2, 0)])
    player = me(game)
    segments = sorted(p.segments for p in network(player).pipelines if p.colour == ORANGE and p.segments > 1)
    assert segments == [2, 3]
    assert all((2, 0, k) not in network(player).segment_pipeline for k in (0, 1))
