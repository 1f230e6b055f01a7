"""The expert's calibrated evaluation: public features only, the score at the end, and the
relative worth of the two seats of a 2-player game."""

from __future__ import annotations

import random

from pipeline_tui import ai
from pipeline_tui.ai import calibrated
from pipeline_tui.ai.view import determinize
from pipeline_tui.data import components as C
from pipeline_tui.engine.game import Game
from pipeline_tui.engine.setup import GameSetup


def _game(seed: int, moves: int) -> Game:
    game = Game(GameSetup.default(2, seed))
    bots = [ai.make_bot("heuristic") for _ in range(2)]
    while not game.is_over() and len(game.moves) < moves:
        game.apply(bots[game.current_player].choose(game))
    return game


def test_the_inputs_match_the_features_and_the_weights():
    state = _game(3, 60).state
    f = calibrated.features(state, 0)
    x = calibrated.inputs(state, 0)
    assert len(f) == len(calibrated.FEATURES)
    assert len(x) == 2 * (len(f) + 1) == sum(len(w) for w in calibrated.WEIGHTS)
    assert x[0] == 1.0 and x[1 : len(f) + 1] == f


def test_the_calibrated_worth_uses_only_what_the_seat_sees():
    state = _game(3, 60).state
    for seat in (0, 1):
        seen = {calibrated.worth(determinize(state, seat, random.Random(k)), seat) for k in range(3)}
        assert seen == {calibrated.worth(state, seat)}


def test_at_the_end_the_worth_is_the_score():
    game = _game(4, 10_000)
    assert game.is_over()
    scores = {s.seat: s.total for s in game.scores()}
    assert [calibrated.worth(game.state, seat) for seat in (0, 1)] == [scores[0], scores[1]]
    assert calibrated.relative(game.state, 0) == scores[0] - scores[1]


def test_two_seats_relative_worths_are_opposite():
    state = _game(5, 80).state
    assert abs(calibrated.relative(state, 0) + calibrated.relative(state, 1)) < 1e-9


def test_open_contract_needs_count_barrels_in_hand():
    state = _game(6, 70).state
    player = state.players[0]
    tile = next(t for row in state.contract_rows for t in row if t >= 0)
    needs = C.contract_tile(tile).needs
    from pipeline_tui.engine.state import HeldContract

    player.contracts.append(HeldContract(tile=tile, filled=[-1] * len(needs)))
    player.oil = [[0, 0, 0] for _ in range(4)]
    assert calibrated._open_needs(state, 0) == (0, len(needs))
    colour, grade = needs[0]
    player.oil[grade][colour] = 1
    assert calibrated._open_needs(state, 0) == (1, len(needs) - 1)


def test_a_contract_completed_in_the_last_year_is_owed_no_more():
    from pipeline_tui.engine.state import HeldContract

    state = _game(6, 70).state
    tile = next(t for row in state.contract_rows for t in row if t >= 0)
    needs = C.contract_tile(tile).needs
    state.players[0].contracts = [HeldContract(tile=tile, filled=[-1] * len(needs), completions=1)]
    held = calibrated.FEATURES.index("contracts")
    assert calibrated.features(state, 0)[held] == 1  # owed again next Year
    state.year = len(C.ROUNDS_PER_YEAR)
    assert calibrated.features(state, 0)[held] == 0
    state.players[0].contracts[0].completions = 0
    assert calibrated.features(state, 0)[held] == 1  # still to fill: a Penalty if it is not
