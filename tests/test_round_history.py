"""round_history: money and projected final score where each Round began, and at the end."""

import random

from pipeline_tui.data import components as C
from pipeline_tui.engine import Game, GameSetup, round_history

from tests.policies import purposeful_choice


def _play(seed: int, players: int = 2, limit: int | None = None) -> Game:
    game = Game(GameSetup.default(players=players, seed=seed))
    rng = random.Random(seed)
    while not game.is_over() and (limit is None or len(game.moves) < limit):
        game.apply(purposeful_choice(game.legal_moves(), rng, game.state))
    return game


def test_a_new_game_has_one_point_at_the_start() -> None:
    game = Game(GameSetup.default(players=3, seed=4))
    points = round_history(game)
    assert [(p.position, p.year, p.round) for p in points] == [(0, 1, 1)]
    assert points[0].money == (C.START_MONEY,) * 3
    assert points[0].label == "Y1R1"


def test_a_finished_game_has_every_round_then_its_final_scores() -> None:
    game = _play(seed=11)
    assert game.is_over()
    points = round_history(game)
    rounds = [(y, r) for y, n in enumerate(C.ROUNDS_PER_YEAR, 1) for r in range(1, n + 1)]
    assert [(p.year, p.round) for p in points[:-1]] == rounds
    assert points[-1].label == "end" and points[-1].position == len(game.moves)
    positions = [p.position for p in points]
    assert positions == sorted(set(positions))
    final = {s.seat: s.total for s in game.scores()}
    assert points[-1].projected == tuple(final[seat] for seat in range(2))
    assert points[-1].money == tuple(p.money for p in game.state.players)


def test_a_point_is_the_state_where_its_round_began() -> None:
    game = _play(seed=3, players=3, limit=150)
    for point in round_history(game):
        state = game.state_at(point.position)
        assert point.money == tuple(p.money for p in state.players)
        if point.round:
            assert (state.year, state.round) == (point.year, point.round)
