"""The engine's answers for the network view: each Pipeline's value, best grade and Machines,
and what placing the Pipe tile in hand would make of the Pipelines it touches."""

from __future__ import annotations

from pipeline_tui.engine import pipeline_infos, placement_preview

from tests.helpers import EXAMPLE_COSTS, build, me, new_game, setup_player, straight_row, tile_for


def _teal_row_and_a_machine():
    """Seat 0: a Teal Pipeline of 4 Segments on (0,0)-(3,0), a tile on (6,0)-(7,0) with a
    Machine on (6,0), Engineering I, the rulebook's example Refinement Costs; and in hand a
    tile laying Teal east-west on (4,0) and (5,0)."""
    game = new_game()
    game.state.refinement_costs = EXAMPLE_COSTS
    tiles = build(*straight_row("T", 2), ((6, 0), "EW:T NS:*", (7, 0), "EW:T NS:*"))
    setup_player(game, tiles=tiles, machines=[(6, 0)], upgrades={"ENG": 1})
    hand = tile_for((4, 0), "EW:T NS:*", (5, 0), "EW:T NS:*", used={t[0] for t in tiles})
    game.state.turn.hand_tile = hand[0]
    return game, hand


def test_pipeline_infos_give_value_with_engineering_best_grade_and_machine():
    game, _ = _teal_row_and_a_machine()
    infos = pipeline_infos(game.state, game.state.turn.player)
    teal = infos[0]
    assert (teal.colour, teal.segments, teal.value) == (1, 4, 5)  # Engineering I: +1 per 4
    assert teal.best_grade == 1  # Teal Crude to Low costs 4, to Mid 10
    assert teal.machines == ()
    assert {(x, y) for x, y, _ in teal.segment_keys} == {(0, 0), (1, 0), (2, 0), (3, 0)}
    attached = [(i.colour, i.segments, i.machines) for i in infos if i.machines]
    assert attached == [(1, 1, ((6, 0),))]  # only the path of (7,0) meeting its west edge


def test_placement_preview_joins_the_teal_pipeline_and_reaches_the_machine():
    game, (_, x, y, rot) = _teal_row_and_a_machine()
    before = [list(t) for t in me(game).tiles]
    preview = placement_preview(game.state, x, y, rot)
    assert preview.reason is None
    teal = preview.changes[0]
    assert (teal.after.colour, teal.after.segments, teal.after.value) == (1, 6, 7)
    assert teal.joined == (4,)
    assert teal.new_machines == ((6, 0),)
    assert teal.after.best_grade == 1
    assert len(preview.changes) == 3  # the Teal join and a north-south pipe on each half
    assert [list(t) for t in me(game).tiles] == before  # nothing was placed


def test_placement_preview_of_a_place_not_touching_the_network_says_why():
    game, (_, _, _, rot) = _teal_row_and_a_machine()
    far = placement_preview(game.state, 20, 20, rot)
    assert far.reason is not None and "touch" in far.reason and far.changes == ()
    covered = placement_preview(game.state, 0, 0, 0)
    assert covered.reason is not None and covered.changes == ()
