"""The game owns its history: who made each move, where each Round and turn starts, and whether
a seat may take its move back, all from ``Game`` (issue 13), checked against a replay."""

from __future__ import annotations

import random
from pathlib import Path

import msgspec
import pytest

from pipeline_tui.engine import Game, GameSetup, initial_state
from pipeline_tui.engine.game import NOT_YOUR_TURNS_MOVE, NOTHING_TO_UNDO, Turn
from pipeline_tui.engine.rules import apply_trusted
from pipeline_tui.engine.setup import RULES_VERSIONS
from pipeline_tui.storage import load_game

from tests.policies import purposeful_choice

SAVES = Path(__file__).parent / "fixtures" / "saves"


def played(players: int, seed: int, count: int) -> Game:
    """A seeded game of ``count`` purposeful moves (fewer if it ends)."""
    game = Game(GameSetup.default(players=players, seed=seed))
    rng = random.Random(seed)
    while len(game.moves) < count and not game.is_over():
        game.apply_trusted(purposeful_choice(game.legal_moves(), rng, game.state))
    return game


def replayed(game: Game) -> tuple[list[int], list[Turn], list[tuple[int, int, int]]]:
    """The seat and turn of each move and the Round starts, found by replaying the log."""
    state = initial_state(game.setup)
    seats, turns, starts = [], [], [(0, state.year, state.round)]
    for n, move in enumerate(game.moves, 1):
        seats.append(state.turn.player)
        turns.append(Turn.of(state))
        apply_trusted(state, move)
        if not state.over and (state.year, state.round) != starts[-1][1:]:
            starts.append((n, state.year, state.round))
    return seats, turns, starts


@pytest.mark.parametrize("players,seed", [(2, 3), (3, 8), (4, 21)])
def test_each_entry_knows_its_seat_and_turn_and_the_rounds_are_found(players, seed):
    game = played(players, seed, 400)
    seats, turns, starts = replayed(game)
    assert [e.move for e in game.entries] == game.moves
    assert game.movers() == seats and [e.turn for e in game.entries] == turns
    assert len(set(seats)) == players
    assert game.round_starts() == starts and len(starts) > 3


@pytest.mark.parametrize("rules_version", RULES_VERSIONS)
@pytest.mark.parametrize("players,seed", [(2, 0), (3, 1), (4, 2)])
def test_the_turns_that_apply_keeps_per_turn_are_those_of_a_replay(players, seed, rules_version):
    """``Game.apply`` shares one Turn between the moves of a turn (kept with its TurnState):
    whole uniform games, with undo and redo on the way, record the turns a replay finds."""
    setup = msgspec.structs.replace(
        GameSetup.default(players=players, seed=seed), rules_version=rules_version
    )
    game = Game(setup)
    rng = random.Random(seed)
    while not game.is_over():
        game.apply(rng.choice(game.legal_moves()))
        if len(game.moves) % 37 == 0:
            game.undo()
            game.redo()
    assert [e.turn for e in game.entries] == replayed(game)[1]


def test_the_history_follows_undo_redo_and_copies():
    game = played(3, 5, 120)
    seats = game.movers()
    game.undo()
    game.undo()
    assert game.movers() == seats[:-2]
    game.redo()
    assert game.movers() == seats[:-1]
    copy = game.clone()
    game.redo()
    assert game.movers() == seats and copy.movers() == seats[:-1]
    assert replayed(copy)[0] == copy.movers()


def test_the_turn_start_is_where_the_turn_now_played_began():
    game = played(2, 9, 60)
    while len(game.moves) - game.turn_start() < 2:  # a turn with at least two moves in it
        game.apply_trusted(purposeful_choice(game.legal_moves(), random.Random(1), game.state))
    start, now = game.turn_start(), Turn.of(game.state)
    assert all(entry.turn == now for entry in game.entries[start:])
    assert game.entries[start - 1].turn != now


def test_a_seat_may_undo_only_its_own_moves_of_the_turn_it_is_playing():
    game = Game(GameSetup.default(players=2, seed=7))
    assert game.why_no_undo(0) == NOTHING_TO_UNDO
    seat = game.current_player
    game.play("start-tank C")  # Setup: a seat places its Tanks in a turn of its own
    assert game.why_no_undo(seat) is None
    assert game.why_no_undo(1 - seat) == NOT_YOUR_TURNS_MOVE
    while game.current_player == seat:
        game.play("start-tank C")
    assert game.why_no_undo(seat) == NOT_YOUR_TURNS_MOVE  # the turn has passed
    assert game.why_no_undo(game.current_player) == NOT_YOUR_TURNS_MOVE  # not theirs


@pytest.mark.parametrize("name", sorted(p.name for p in SAVES.glob("*.json")))
def test_saves_load_with_their_history(name):
    game = load_game(SAVES / name)
    seats, turns, starts = replayed(game)
    assert game.moves and game.movers() == seats and [e.turn for e in game.entries] == turns
    assert game.round_starts() == starts
