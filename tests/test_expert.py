"""The expert bot: reproducible, public views only, legal over whole games, and it plays the
economy (Contracts, Machines) when a position is built for it."""

from __future__ import annotations

import pytest

from pipeline_tui import ai
from pipeline_tui.ai import expert
from pipeline_tui.data import components as C
from pipeline_tui.engine import moves as M
from pipeline_tui.engine import network_map
from pipeline_tui.engine.game import Game
from pipeline_tui.engine.setup import GameSetup, PlayerSetup
from pipeline_tui.engine.state import HeldContract, Stage


def _setup(kinds: list[str], seed: int) -> GameSetup:
    return GameSetup(
        seed=seed, players=tuple(PlayerSetup(f"P{i}", k) for i, k in enumerate(kinds)), edition=2
    )


def _played(seed: int, moves: int) -> Game:
    """Two heuristic seats play ``moves`` moves, then stop at the start of a turn."""
    game = Game(_setup(["heuristic", "heuristic"], seed))
    bots = [ai.make_bot("heuristic") for _ in range(2)]
    while not game.is_over() and len(game.moves) < moves:
        game.apply(bots[game.current_player].choose(game))
    while not game.is_over():
        turn = game.state.turn
        if turn.stage == Stage.WORK and turn.mains == 0 and not turn.action and not turn.secondary:
            break
        game.apply(bots[game.current_player].choose(game))
    return game


def _turn(game: Game, bot: ai.Bot) -> list[M.Move]:
    """The moves ``bot`` plays for the seat to act until its turn ends (on a copy)."""
    table = game.clone()
    seat, moves = table.current_player, []
    while not table.is_over() and table.current_player == seat:
        move = bot.choose(table)
        assert move in table.legal_moves()
        table.apply(move)
        moves.append(move)
        if type(move) is M.EndTurn:
            break
    return moves


def test_the_expert_is_the_strongest_level_with_a_line():
    assert ai.STRONGEST == "expert" and ai.KINDS[-1] == "expert"
    assert ai.bot_kind("Expert") == "expert" and ai.level_of("expert") == "expert"
    assert "Machines" in ai.LEVEL_LINES[ai.KINDS.index("expert")]


def test_the_expert_is_reproducible_with_a_seed():
    game = _played(4, 90)
    first = _turn(game, ai.make_bot("expert", seed=3, samples=4))
    assert first == _turn(game, ai.make_bot("expert", seed=3, samples=4))
    assert type(first[-1]) is M.EndTurn


@pytest.mark.parametrize("seed", [31, 32])
def test_the_expert_never_makes_an_illegal_move_over_a_whole_game(seed):
    game = Game(_setup(["expert", "heuristic"] if seed % 2 else ["heuristic", "expert"], seed))
    bots = [ai.make_bot(p.kind, seed=seed, samples=2) for p in game.setup.players]
    while not game.is_over():
        move = bots[game.current_player].choose(game)
        assert move in game.legal_moves(), move
        game.apply(move)
    assert len(game.scores()) == 2


def _hold_contract(game: Game, seat: int) -> int:
    """Give ``seat`` a Contract from below a stack, with a barrel in its Tank Farm for each need
    (a position built to deliver); returns the tile."""
    state = game.state
    stack = next(s for s in state.contract_stacks if len(s) > 1)
    tile = stack.pop(0)
    needs = C.contract_tile(tile).needs
    player = state.players[seat]
    player.contracts.append(HeldContract(tile=tile, filled=[-1] * len(needs)))
    for colour, grade in needs:
        player.oil[grade][colour] += 1
        player.tanks[grade] = max(player.tanks[grade], sum(player.oil[grade]))
    return tile


def test_the_expert_delivers_to_a_contract_it_can_fill():
    game = _played(6, 70)
    seat = game.current_player
    _hold_contract(game, seat)
    moves = _turn(game, ai.make_bot("expert", samples=4))
    assert any(type(m) is M.Deliver for m in moves), moves


def test_a_machine_where_long_pipelines_meet_is_worth_its_future_runs():
    game = _played(6, 70)
    state = game.state
    seat = game.current_player
    player = state.players[seat]
    before = expert.economy(state, seat)
    cells = sorted(network_map(player).cells)
    best = max((expert.economy(_with_machine(game, seat, cell).state, seat), cell) for cell in cells)
    assert best[0] > before
    assert expert.value(_with_machine(game, seat, best[1]).state, seat) > expert.value(state, seat)


def _with_machine(game: Game, seat: int, cell: tuple[int, int]) -> Game:
    table = game.clone()
    table.state.players[seat].machines.append(cell)
    return table


def test_the_expert_buys_a_machine_when_it_pays():
    game = _played(6, 70)
    seat = game.current_player
    game.state.players[seat].money = 120
    plans = expert.candidate_plans(game.state, seat)
    assert any(any(type(m) is M.BuyMachine for m in plan) for plan in plans)
