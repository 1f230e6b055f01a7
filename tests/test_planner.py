"""The expert's tile placement (``ai.planner``): it weighs where Pipelines will meet, worked out
without tracing the network anew, and it lays tiles towards a hub where the heuristic does not."""

from __future__ import annotations

import pytest

from pipeline_tui.ai import expert, heuristic, planner
from pipeline_tui.engine import clone_state, network_map
from pipeline_tui.engine import moves as M
from pipeline_tui.engine.state import State

from tests.test_expert import _played, _refining


def _placed(state: State, seat: int, tile_id: int, move: M.PlaceTile) -> State:
    """The position with the tile laid, as the rules lay it (the network traced from scratch)."""
    after = clone_state(state)
    after.players[seat].tiles.append((tile_id, move.x, move.y, move.rot))
    return after


def _positions() -> list[tuple[State, int, int]]:
    """Start-of-turn positions of seeded heuristic games, with a shop Pipe tile to lay, where
    the seat to move owns no Machine."""
    out = []
    for seed, moves in ((3, 40), (6, 70), (11, 90), (17, 60)):
        state = _played(seed, moves).state
        seat = state.turn.player
        assert not state.players[seat].machines
        out.append((state, seat, state.shop_pipes[0][0]))
    return out


@pytest.mark.parametrize("index", range(4))
def test_each_placement_is_weighed_as_a_full_trace_of_the_network_would_weigh_it(index):
    state, seat, tile_id = _positions()[index]
    weighed = planner.placements(state, seat, tile_id)
    assert len(weighed) > 20
    for _gain, after, move in weighed:
        assert after == pytest.approx(planner.hub_worth(_placed(state, seat, tile_id, move), seat)), move
    # The gain is the heuristic's: its best placement is the one it would choose.
    best_gain, best_move = heuristic.best_placement(state, seat, tile_id)
    assert max(gain for gain, _after, _move in weighed) == pytest.approx(best_gain)
    assert next(m for g, _a, m in weighed if g == pytest.approx(best_gain)) == best_move


def test_a_pipeline_counts_for_a_hub_by_the_grade_it_refines_to_and_its_progress():
    costs = (4, 5, 6)
    worths = [planner.feed_worth(costs, value) for value in range(16)]
    assert worths == sorted(worths) and worths[0] == 0
    assert worths[4] == 20 and worths[9] == 32 and worths[15] == 42  # Low, Mid, High: SALE gains


def test_where_the_planner_lays_a_tile_otherwise_it_leaves_a_better_hub():
    """Over the positions, the planner and the heuristic choose differently at least once, and
    each time the planner's choice leaves the best hub worth more: what it gives up of the
    heuristic's gain it takes back at the hub."""
    differed = 0
    for state, seat, tile_id in _positions():
        gain, chosen = planner.plan_placement(state, seat, tile_id)
        _gain, greedy = heuristic.best_placement(state, seat, tile_id)
        if chosen == greedy:
            continue
        differed += 1
        hub = planner.hub_worth(_placed(state, seat, tile_id, chosen), seat)
        greedy_hub = planner.hub_worth(_placed(state, seat, tile_id, greedy), seat)
        assert hub > greedy_hub, (chosen, greedy)
    assert differed >= 1


def test_a_tile_laid_on_the_hub_takes_it_away(monkeypatch):
    # The position as the heuristic reached it while a Loan's cash counted double (before issue
    # 37.6): the game since takes another course, to positions whose hub a tile can extend.
    monkeypatch.setattr(heuristic, "loan_premium", lambda *_args, **_kw: 0.0)
    state, seat, tile_id = _positions()[1]
    player = state.players[seat]
    ends = planner.feeds(network_map(player), planner._costs(state), player.level("ENG"))
    hub = max(ends.cells, key=lambda cell: planner._top(list(ends.cells[cell].values())))
    before = planner.hub_worth(state, seat)
    assert before > 0
    on_hub = [
        (after, move)
        for _g, after, move in planner.placements(state, seat, tile_id)
        if (move.x, move.y) == hub
    ]
    assert on_hub and all(after <= before for after, _move in on_hub)


def test_the_expert_lays_its_own_tiles_with_the_planner_and_the_heuristic_does_not():
    assert expert.EXPERT.place is planner.plan_placement and expert.EXPERT.value is expert.value
    assert heuristic.HEURISTIC.place is heuristic.best_placement


def test_the_first_machine_goes_on_the_half_where_its_phase_nets_most():
    """``value`` counts what a Machine cuts at once and its Phases only in part; on this table
    it would put the Machine where a Phase nets $37, where another half nets $47."""
    game = _refining(_played(11, 70))
    state, seat = game.state, game.current_player
    state.players[seat].money = 120
    plan = expert.machine_plan(state, seat)
    assert plan is not None and plan.state is not None
    placed = next(i for i, m in enumerate(plan.moves) if type(m) is M.PlaceMachine)
    machine = plan.moves[placed]
    assert (machine.x, machine.y) == expert._best_half(state, seat)
    table = game.clone()
    for move in plan.moves[: placed + 1]:
        table.apply(move)
    assert expert.machine_run_gain(table.state, seat) == 47
    by_value = game.clone()  # the Machine bought, and placed where value likes it
    by_value.apply(plan.moves[0])
    by_value.apply(plan.moves[1])
    heuristic.resolve(by_value.state, seat, [], expert.EXPERT)
    assert expert.machine_run_gain(by_value.state, seat) == 37
