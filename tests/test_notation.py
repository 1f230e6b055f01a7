"""Move notation (docs/architecture.md): every move has a short text that reads back to itself."""

from __future__ import annotations

import random
from functools import lru_cache

import msgspec
import pytest

from pipeline_tui.engine import Game, GameSetup, IllegalMove, NotationError, format_move, parse_move
from pipeline_tui.engine import moves as M

from tests.helpers import new_game

ALL_MOVE_TYPES = set(M.AnyMove.__args__)
IDLE = (M.EndTurn, M.Pass, M.EndAction, M.Decline)


def _random_game(seed: int, players: int, rich: bool, seen: set, rules_version: int) -> int:
    """Play one seeded random game to its end, adding every legal move met to ``seen``.

    A rich game starts everyone with money, Tanks and oil so that late-game moves (Upgrades,
    Machines, refining, Orders) come up; the random player prefers doing something to ending.
    """
    setup = GameSetup.default(players=players, seed=seed)
    game = Game(msgspec.structs.replace(setup, rules_version=rules_version))
    if rich:
        for p in game.state.players:
            p.money, p.tanks = 2000, [3, 3, 3, 3]
            p.oil = [[2, 2, 2] for _ in range(4)]
    rng = random.Random(seed)
    steps = 0
    while not game.is_over():
        legal = game.legal_moves()
        seen.update(legal)
        busy = [m for m in legal if not isinstance(m, IDLE)]
        move = rng.choice(busy) if busy and rng.random() < 0.85 else rng.choice(legal)
        game.apply_trusted(move)
        steps += 1
    return steps


@lru_cache(maxsize=1)
def moves_seen() -> frozenset:
    seen: set = set()
    for rules_version in (1, 2):  # the moves of old saves and of new games
        for seed in range(30):
            _random_game(
                seed, players=(2, 3, 4)[seed % 3], rich=seed % 2 == 0, seen=seen, rules_version=rules_version
            )
    return frozenset(seen)


def test_random_games_reach_every_kind_of_move():
    assert {type(m) for m in moves_seen()} == ALL_MOVE_TYPES
    assert len(moves_seen()) > 1000


def test_every_legal_move_seen_round_trips_through_its_notation():
    bad = [m for m in moves_seen() if parse_move(format_move(m)) != m]
    assert bad == []


def test_notation_is_one_short_line():
    for m in moves_seen():
        text = format_move(m)
        assert "\n" not in text and 0 < len(text) <= 30, text


def test_distinct_moves_have_distinct_texts():
    texts = {}
    for m in moves_seen():
        texts.setdefault(format_move(m), set()).add(m)
    assert all(len(ms) == 1 for ms in texts.values())


@pytest.mark.parametrize(
    "move",
    [
        M.PlaceTile(x=-12, y=-7, rot=3),
        M.RunNetwork(x=-3, y=11),
        M.Refine(x=-4, y=-1, k=1, from_grade=0, to_grade=3),
        M.TakeContract(kind="order", row=5, slot=2, deferred=True),
        M.TakeContract(kind="contract", row=3, slot=0, deferred=False),
        M.FulfilOrder(row=4, slot=1, grades=(1, 3, 2, 1)),
        M.Deliver(contract=9, need=2, grade=3),
        M.TakePipe(shop="M", index=7),
        M.Sell(row="C-SC", slot=5, colour=2, grade=3),
        M.ChooseTurnOrder(position=3),
        M.FlipToken(family="MACH"),
    ],
)
def test_hand_made_moves_round_trip(move):
    assert parse_move(format_move(move)) == move


def test_known_texts_parse_to_the_expected_moves():
    """Places count from 1 in the text (slots, spaces, segments); cells are signed coordinates."""
    assert parse_move("sell 2-TH#1 TH") == M.Sell(row="2-TH", slot=0, colour=1, grade=3)
    assert parse_move("order-place 1") == M.ChooseTurnOrder(position=0)
    assert parse_move("  refine 0,-2/2 c>h ") == M.Refine(x=0, y=-2, k=1, from_grade=0, to_grade=3)
    assert parse_move("upgrade eng") == M.BuyUpgrade(family="ENG")
    assert parse_move("gov 1.8") == M.Government(quadrant=0, space=7)
    assert parse_move("contract CM.1 deferred") == M.TakeContract(
        kind="contract", row=2, slot=0, deferred=True
    )


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "fly",
        "act nowhere",
        "place 1,2",
        "place 1,2 r4",
        "place a,b r0",
        "buy Z-OC#1",
        "sell 2-TH#1 XX",
        "sell 2-TH#1",
        "contract CX.1",
        "contract O6.1",
        "contract CL.1 later",
        "refine 0,0/3 C>L",
        "refine 0,0/0 C>L",
        "refine 0,0/1 L",
        "deliver 0.1 L",
        "deliver 1.1 Q",
        "fulfil O3.1 LZ",
        "fulfil C3.1 LLL",
        "tank 0 C",
        "pipe x",
        "take-pipe X1",
        "upgrade NOPE",
        "gov 1",
        "gov-more x",
        "pass now",
        "start-tank Z",
        "order-place 0",
        "run 1,2,3",
        "buy 2-TH#x",
        "buy 2-TH#0",
        "gov 0.1",
    ],
)
def test_garbage_gives_a_one_line_notation_error(text):
    with pytest.raises(NotationError) as info:
        parse_move(text)
    message = str(info.value)
    assert message and "\n" not in message
    assert isinstance(info.value, ValueError)


def test_game_play_reads_notation_and_refuses_illegal_moves():
    game = new_game()
    move = game.play("act crude")
    assert move == M.Action(action="crude") and game.moves[-1] == move
    with pytest.raises(IllegalMove):
        game.play("act tanks")
    with pytest.raises(NotationError):
        game.play("act")
    assert len(game.moves) == 11  # 10 starting Tanks and the Action


def test_format_move_never_crashes_on_impossible_values():
    """Only a hand-built or tampered move has such values; formatting it for a message or a log
    must not raise."""
    assert format_move(M.PlaceStartingTank(grade=9)) == "start-tank 9"
    assert format_move(M.Sell(row="2-TH", slot=0, colour=7, grade=1)) == "sell 2-TH#1 7/1"
    assert format_move(M.FulfilOrder(row=3, slot=0, grades=(1, 5))) == "fulfil O3.1 L5"
