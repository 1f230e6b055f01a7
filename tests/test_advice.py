"""Hints (issue 16, point 5): ``Bot.advise`` says what a bot would play now and why, changes
neither the game nor the bot's own plan, and works for every planning kind."""

from __future__ import annotations

import pytest

from pipeline_tui import ai
from pipeline_tui.engine import moves as M
from pipeline_tui.engine.game import Game
from pipeline_tui.engine.setup import GameSetup, PlayerSetup
from pipeline_tui.engine.state import clone_state
from pipeline_tui.summary import plan_words


def _game(kinds: list[str], seed: int = 5) -> Game:
    return Game(GameSetup(seed=seed, players=tuple(PlayerSetup(f"P{i}", k) for i, k in enumerate(kinds))))


def _played(kinds: list[str], moves: int, seed: int = 5) -> Game:
    game = _game(kinds, seed)
    bots = [ai.make_bot(k if k != "human" else "heuristic", samples=1) for k in kinds]
    while not game.is_over() and len(game.moves) < moves:
        game.apply(bots[game.current_player].choose(game.clone()))
    return game


def test_the_strongest_kind_is_a_bot_kind() -> None:
    assert ai.STRONGEST in ai.OFFERED
    assert ai.STRONGEST == "expert"  # measured above search (docs/bots.md)


@pytest.mark.parametrize("kind", ["heuristic", "search", "expert"])
def test_advice_is_a_legal_move_with_a_reason_and_changes_nothing(kind: str) -> None:
    for moves in (10, 40, 75, 110):
        game = _played(["heuristic", "heuristic"], moves)
        before, log = clone_state(game.state), list(game.moves)
        advice = ai.make_bot(kind, samples=2).advise(game)
        assert advice.move in game.legal_moves()
        assert advice.plan[0] == advice.move
        assert game.state == before and game.moves == log
        if advice.reason.startswith("Nothing is worth more than"):  # the plan is to end at once
            assert all(type(m) in (M.EndAction, M.EndTurn, M.Pass, M.Decline) for m in advice.plan)
            continue
        verdict, _, turn = advice.reason.partition(": ")
        assert verdict.startswith(("This turn is worth", "The rulebook's starting Tanks")), advice.reason
        turn = turn.removesuffix(".")
        words = plan_words(game.state, game.current_player, advice.plan)
        if words is not None:  # the turn in words, as a turn still to play
            assert turn == words
        else:  # a turn of silent moves (ending an Action, the turn): in notation
            assert turn.startswith(M.format_move(advice.move))
        assert game.state == before and game.moves == log


@pytest.mark.parametrize("kind", ["heuristic", "search", "expert"])
def test_advice_is_the_move_the_bot_would_play(kind: str) -> None:
    game = _played(["heuristic", "heuristic"], 30)
    assert ai.make_bot(kind, samples=2).advise(game).move == ai.make_bot(kind, samples=2).choose(game)


@pytest.mark.parametrize("kind", ["heuristic", "search", "expert"])
def test_asking_for_hints_does_not_change_what_a_computer_seat_plays(kind: str) -> None:
    """Two bots of one kind play the same seat of the same game; one is asked for a hint before
    every move, twice. Both keep the same turn plan and choose the same moves throughout."""
    plain, asked = ai.make_bot(kind, samples=2), ai.make_bot(kind, samples=2)
    game = _game([kind, "heuristic"], seed=9)
    other = ai.make_bot("heuristic")
    while not game.is_over() and len(game.moves) < 90:
        if game.current_player == 0:
            asked.advise(game)
            assert asked.plan == plain.plan  # the rest of its turn, kept as it was
            move = plain.choose(game)
            asked.advise(game)
            assert asked.choose(game) == move
            assert asked.plan == plain.plan
        else:
            move = other.choose(game)
        game.apply(move)
    assert len(game.moves) == 90


def test_advice_during_setup_names_the_starting_tanks() -> None:
    game = _game(["human", "human"])
    advice = ai.make_bot(ai.STRONGEST).advise(game)
    assert isinstance(advice.move, M.PlaceStartingTank)
    assert advice.reason == "The rulebook's starting Tanks (2 Crude, then Low, Mid and High): " + (
        "place 1 starting Crude Tank"
    )


def test_there_is_no_advice_once_the_game_is_over() -> None:
    game = _played(["random", "random"], 10_000)
    assert game.is_over()
    with pytest.raises(ValueError, match="game is over"):
        ai.make_bot(ai.STRONGEST).advise(game)


@pytest.mark.parametrize("money", [3, 40])
def test_a_hint_reads_as_a_sentence_and_names_no_move_when_it_is_to_end_the_turn(money: int) -> None:
    """Issue 37: "No better than ending the turn now: end" read as nonsense. A plan that only
    ends the turn says so in words; any other reason is a sentence naming the turn."""
    from tests.helpers import in_the_machine_phase

    game = in_the_machine_phase(oil={}, money=money)  # nothing to refine: the Machines earn nothing
    advice = ai.make_bot(ai.STRONGEST, samples=1).advise(game)
    assert advice.plan == [M.EndTurn()]
    assert advice.reason == "Nothing is worth more than ending your turn now."


def test_a_hint_takes_no_loan_for_cash_the_crude_at_hand_would_bring() -> None:
    """Issue 37.6: with $9 and 2 Teal Crude a Pipeline can refine (seed 2, move 36), the hint
    advised a Loan, "worth about $10 more than passing": ``evaluate`` counted the Loan's $15 in
    the cash premium and only then its $20 Penalty. A bot deciding on a Loan now takes that
    premium off (``evaluate.loan_premium``) unless it has no oil and no money for Crude."""
    game = _played(["heuristic", "heuristic"], 36, seed=2)
    player = game.state.players[game.current_player]
    assert player.money < 25 and player.oil[0][1] == 2  # Teal Crude, and a run that refines it
    assert any(type(m) is M.RunNetwork for m in game.legal_moves())
    advice = ai.make_bot(ai.STRONGEST, samples=1).advise(game)
    assert M.TakeLoan() not in advice.plan, advice.reason
    assert "Loan" not in advice.reason


def test_a_loans_cash_premium_stands_only_for_a_seat_that_cannot_earn_without_it() -> None:
    from pipeline_tui.ai.evaluate import cheapest_crude, loan_premium

    game = _played(["heuristic", "heuristic"], 36, seed=2)
    state, seat = clone_state(game.state), game.current_player
    assert loan_premium(state, seat) == 15.0  # $9: the Loan's $15 all under the $25 counted double
    player = state.players[seat]
    player.oil = [[0, 0, 0] for _ in range(4)]
    assert loan_premium(state, seat) == 15.0  # no oil, but money for Crude
    player.money = cheapest_crude(state) - 1
    assert loan_premium(state, seat) == 0.0  # stuck: the Loan's cash is what it needs
