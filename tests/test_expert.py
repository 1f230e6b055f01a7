"""The expert bot: reproducible, public views only, legal over whole games, and it plays the
economy (Contracts, Machines) when a position is built for it."""

from __future__ import annotations

import random

import pytest

from pipeline_tui import ai
from pipeline_tui.ai import expert
from pipeline_tui.ai.evaluate import SALE
from pipeline_tui.ai.heuristic import Plan
from pipeline_tui.data import components as C
from pipeline_tui.engine import moves as M
from pipeline_tui.engine import highest_grade_from_crude, network_map, tile_cells
from pipeline_tui.engine.game import Game
from pipeline_tui.engine.setup import GameSetup, PlayerSetup
from pipeline_tui.engine.state import Stage


def _setup(kinds: list[str], seed: int) -> GameSetup:
    return GameSetup(
        seed=seed, players=tuple(PlayerSetup(f"P{i}", k) for i, k in enumerate(kinds)), edition=2
    )


def _played(seed: int, moves: int, players: int = 2) -> Game:
    """Heuristic seats (two unless told) play ``moves`` moves, then stop at the start of a turn."""
    game = Game(_setup(["heuristic"] * players, seed))
    bots = [ai.make_bot("heuristic") for _ in range(players)]
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


def test_the_expert_is_offered_to_players_as_the_strongest_level():
    assert ai.KINDS[-1] == "expert" and "expert" in ai.OFFERED and ai.STRONGEST == "expert"
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


def _fill_an_order(game: Game, seat: int) -> int:
    """Put in ``seat``'s Tank Farm the barrels one Order on the board needs (a position built
    to fulfil it); returns the Order tile."""
    state = game.state
    tile = next(t for row in state.order_rows for t in row if t >= 0)
    player = state.players[seat]
    for colour, grade in C.contract_tile(tile).needs:
        player.oil[grade][colour] += 1
        player.tanks[grade] = max(player.tanks[grade], sum(player.oil[grade]))
    return tile


def test_the_expert_fulfils_an_order_it_can_fill():
    game = _played(6, 70)
    seat = game.current_player
    _fill_an_order(game, seat)
    moves = _turn(game, ai.make_bot("expert", samples=4))
    assert any(type(m) is M.FulfilOrder for m in moves), moves


def _refining(game: Game) -> Game:
    """The same table where every Pipeline of 1 segment reaches Low, 2 Mid and 3 High: long
    Pipelines that a Machine can run."""
    table = game.clone()
    table.state.refinement_costs = [[1, 1, 1] for _ in range(3)]
    return table


def _with_machine(game: Game, seat: int, cell: tuple[int, int]) -> Game:
    table = game.clone()
    table.state.players[seat].machines.append(cell)
    return table


def test_a_machine_where_pipelines_refine_is_worth_its_future_runs():
    game = _refining(_played(6, 70))
    state, seat = game.state, game.current_player
    assert expert.economy(state, seat) == 0
    cells = sorted(network_map(state.players[seat]).cells)
    worth = {cell: expert.economy(_with_machine(game, seat, cell).state, seat) for cell in cells}
    assert max(worth.values()) > 10
    late = game.clone()
    late.state.year, late.state.round = 3, C.ROUNDS_PER_YEAR[2]  # no Machine Phase left to pay
    best = max(worth, key=lambda cell: worth[cell])
    assert expert.economy(_with_machine(late, seat, best).state, seat) < worth[best]


def test_the_expert_weighs_a_machine_where_its_pipelines_refine():
    game = _refining(_played(6, 70))
    seat = game.current_player
    game.state.players[seat].money = 120
    plans = expert.candidate_plans(game.state, seat)
    bought = [p for p in plans if any(type(m) is M.BuyMachine for m in p)]
    assert bought, plans
    table = game.clone()
    for move in bought[0][: next(i for i, m in enumerate(bought[0]) if type(m) is M.PlaceMachine) + 1]:
        table.apply(move)
    assert expert.economy(table.state, seat) > 10  # attached to Pipelines that refine


def test_the_expert_weighs_the_contract_it_can_fill():
    game = _played(6, 70)
    state, seat = game.state, game.current_player
    tile = next(t for row in state.contract_rows for t in row if t >= 0)
    player = state.players[seat]
    for colour, grade in C.contract_tile(tile).needs:
        player.oil[grade][colour] += 1
        player.tanks[grade] = max(player.tanks[grade], sum(player.oil[grade]))
    plan = expert.contract_plan(state, seat)
    assert plan is not None
    take = next(m for m in plan.moves if type(m) is M.TakeContract)
    assert state.contract_rows[take.row - 1][take.slot] == tile
    taking = [p for p in expert.candidate_plans(state, seat) if take in p]
    assert taking and all(sum(type(m) is M.Deliver for m in p) == 3 for p in taking), taking


def test_the_expert_weighs_running_its_machines_when_it_pays():
    game = _refining(_played(6, 70))
    state, seat = game.state, game.current_player
    player = state.players[seat]
    cells = sorted(network_map(player).cells)
    cell = max(cells, key=lambda c: expert.economy(_with_machine(game, seat, c).state, seat))
    player.machines.append(cell)
    player.money = 200
    player.oil[0] = [1, 1, 1]
    player.tanks[0] = max(player.tanks[0], 3)
    plans = expert.candidate_plans(state, seat)
    running = [p for p in plans if M.RunMachines() in p]
    assert running and all(type(p[p.index(M.RunMachines()) + 1]) is M.Refine for p in running), plans


def test_the_expert_scores_its_samples_by_the_fitted_worth(monkeypatch):
    game = _played(4, 90)
    scored = []
    fitted = expert.calibrated.relative

    def recording(state, seat):
        scored.append(seat)
        return fitted(state, seat)

    monkeypatch.setattr(expert.calibrated, "relative", recording)
    seat = game.current_player
    arms = len(expert.candidate_plans(game.state, seat))
    expert.plan_turn(game.state, seat, random.Random(1), samples=1)
    assert arms > 1 and scored == [seat] * arms


def _empty_tanks(game: Game, seat: int) -> None:
    game.state.players[seat].oil = [[0, 0, 0] for _ in range(4)]


def test_barrels_kept_for_an_order_count_more_the_nearer_it_is_filled():
    game = _refining(_played(6, 70))
    state, seat = game.state, game.current_player
    _empty_tanks(game, seat)
    assert expert.order_target(state, seat) == 0
    tile = next(t for row in state.order_rows for t in row if t >= 0)
    needs = C.contract_tile(tile).needs
    player = state.players[seat]
    player.tanks = [9, 9, 9, 9]
    worths = []
    for colour, grade in needs:
        player.oil[grade][colour] += 1
        worths.append(expert.order_target(state, seat))
    assert all(b > a for a, b in zip(worths, worths[1:], strict=False)), worths
    assert worths[-1] == expert.ORDER_TARGET * len(needs)  # whole, the best this table offers
    state.over = True
    assert expert.order_target(state, seat) == 0


def test_an_order_whose_missing_barrels_no_pipeline_refines_is_not_collected_for():
    game = _played(6, 70)
    state, seat = game.state, game.current_player
    _empty_tanks(game, seat)
    state.refinement_costs = [[40, 40, 40] for _ in range(3)]  # no Pipeline reaches Low
    tile = next(t for row in state.order_rows for t in row if len(C.contract_tile(t).needs) > 1)
    colour, grade = C.contract_tile(tile).needs[0]
    state.players[seat].oil[grade][colour] = 1
    assert expert.order_target(state, seat) == 0


def test_the_expert_buys_its_first_machine_at_once_where_it_pays(monkeypatch):
    game = _refining(_played(6, 70))
    state, seat = game.state, game.current_player
    state.players[seat].money = 120
    sampled = []
    monkeypatch.setattr(expert, "_rollout", lambda *args: sampled.append(args) or 0.0)
    moves = expert.plan_turn(state, seat, random.Random(1), samples=2)
    assert any(type(m) is M.BuyMachine for m in moves) and not sampled
    table = game.clone()
    for move in moves[: next(i for i, m in enumerate(moves) if type(m) is M.PlaceMachine) + 1]:
        table.apply(move)
    assert expert.machine_run_gain(table.state, seat) >= expert.MACHINE_COMMIT
    late = game.clone()
    late.state.year = len(C.ROUNDS_PER_YEAR)  # in the last Year it is left to the samples
    assert expert.first_machine(late.state, seat, expert.machine_plan(late.state, seat)) is None
    owned = _with_machine(game, seat, sorted(network_map(state.players[seat]).cells)[0])
    assert expert.first_machine(owned.state, seat, expert.machine_plan(owned.state, seat)) is None


def _hold_for_contracts(game: Game, seat: int, rows: int) -> list[int]:
    """Put in ``seat``'s Tank Farm the barrels of the first Contract of ``rows`` rows."""
    state = game.state
    _empty_tanks(game, seat)
    player = state.players[seat]
    player.tanks = [9, 9, 9, 9]
    tiles = []
    for row in state.contract_rows[:rows]:
        tile = next(t for t in row if t >= 0)
        tiles.append(tile)
        for colour, grade in C.contract_tile(tile).needs:
            player.oil[grade][colour] += 1
    return tiles


def test_in_the_last_year_the_expert_fills_a_contract_from_each_row_it_can():
    game = _played(6, 70)
    state, seat = game.state, game.current_player
    tiles = _hold_for_contracts(game, seat, 2)
    earlier = expert.contract_plan(state, seat)
    assert earlier is not None and sum(type(m) is M.TakeContract for m in earlier.moves) == 1
    state.year, state.round = len(C.ROUNDS_PER_YEAR), 1
    plan = expert.contract_plan(state, seat)
    assert plan is not None and plan.state is not None
    assert sum(type(m) is M.TakeContract for m in plan.moves) == 2
    delivered = sum(len(C.contract_tile(t).needs) for t in tiles)
    assert sum(type(m) is M.Deliver for m in plan.moves) == delivered
    assert all(h.completions == 1 for h in plan.state.players[seat].contracts)


def _reaches(state, seat: int) -> list[int]:
    """The grades the seat's Pipelines refine Crude to, best first (those that refine)."""
    player = state.players[seat]
    eng = player.level("ENG")
    grades = (highest_grade_from_crude(state, p.colour, p.value(eng)) for p in network_map(player).pipelines)
    return sorted((g for g in grades if g), reverse=True)


def test_the_machine_goes_on_a_new_tile_where_refining_pipelines_end():
    """A Machine put on a half of the network cuts the Pipelines through it; a Pipe tile laid
    where refining Pipelines end, with the Machine on that half, attaches them whole. On this
    position no half of the network takes a Machine that runs a refining Pipeline; the hub
    attaches two."""
    game = _played(42, 60)
    state, seat = game.state, game.current_player
    state.players[seat].money = 120
    before = _reaches(state, seat)
    plan = expert.machine_plan(state, seat)
    assert plan is not None
    kinds = [type(m) for m in plan.moves]
    assert kinds[:5] == [M.Action, M.BuyPipe, M.PlaceTile, M.BuyMachine, M.PlaceMachine], plan.moves
    place, machine = plan.moves[2], plan.moves[4]
    assert (machine.x, machine.y) in tile_cells(place.x, place.y, place.rot)
    table = game.clone()
    for move in plan.moves[:5]:
        table.apply(move)
    assert expert.machine_run_gain(table.state, seat) >= 25  # two Low Pipelines, less $15 to run
    after = _reaches(table.state, seat)
    assert all(grade <= reached for grade, reached in zip(before, after)) and len(after) >= len(before)
    direct = game.clone()
    for move in plan.moves[:1] + [M.BuyMachine(shop_row=plan.moves[3].shop_row)]:
        direct.apply(move)
    halves = [m for m in direct.legal_moves() if type(m) is M.PlaceMachine]
    gains = []
    for half in halves:
        tried = direct.clone()
        tried.apply(half)
        gains.append(expert.machine_run_gain(tried.state, seat))
    assert max(gains) < 0, gains


def test_out_of_time_in_its_first_round_the_expert_plays_the_plans_it_sampled(monkeypatch):
    """The 1 s budget bounds the first round too: once the time is up, the plans not sampled
    yet drop out, and the best sampled one is played (the heuristic's best are sampled first)."""
    game = _played(4, 90)
    state, seat = game.state, game.current_player
    arms = expert.candidate_plans(state, seat)
    assert len(arms) > 2
    clock = iter(range(0, 10_000, 10))  # every reading of the clock is 10 s after the last
    monkeypatch.setattr(expert.time, "perf_counter", lambda: float(next(clock)))
    monkeypatch.setattr(expert, "first_machine", lambda *args: None)
    sampled = []
    monkeypatch.setattr(expert, "_rollout", lambda st, s, moves, deal: sampled.append(moves) or 0.0)
    moves = expert.plan_turn(state, seat, random.Random(1), seconds=1.0)
    assert sampled == [arms[0]] and moves == arms[0]
    sampled.clear()
    monkeypatch.setattr(expert.time, "perf_counter", lambda: 0.0)  # time stands still: all sampled
    expert.plan_turn(state, seat, random.Random(1), seconds=1.0)
    assert sampled[: len(arms)] == arms and len(sampled) > len(arms)


@pytest.mark.parametrize("players", [2, 4])
def test_the_default_budget_is_a_second_a_turn_for_each_rival(monkeypatch, players):
    """A sample plays every rival's turns, so the default budget grows with them: 1 s a turn
    at 2 players, 3 s at 4 (each sample here takes 0.25 s of a fake clock); a budget given
    is kept whatever the table."""
    game = _played(4, 90 if players == 2 else 160, players)
    state, seat = game.state, game.current_player
    assert len(expert.candidate_plans(state, seat)) > 2
    now = [0.0]
    monkeypatch.setattr(expert.time, "perf_counter", lambda: now[0])
    monkeypatch.setattr(expert, "first_machine", lambda *args: None)

    def rollout(*args) -> float:
        now[0] += 0.25
        return 0.0

    monkeypatch.setattr(expert, "_rollout", rollout)
    expert.plan_turn(state, seat, random.Random(1))
    budget = players - 1.0
    assert budget - 0.5 < now[0] <= budget + 0.25
    now[0] = 0.0
    expert.plan_turn(state, seat, random.Random(1), seconds=1.0)
    assert 0.5 < now[0] <= 1.25


def _owning_a_machine(seed: int, moves: int) -> tuple[Game, int]:
    """A table where the seat to act owns a Machine on the cell where a Machine Phase nets
    most, has money to run it, one Crude for each colour it refines and empty refined Tanks."""
    game = _played(seed, moves)
    seat = game.current_player
    cells = sorted(network_map(game.state.players[seat]).cells)
    cell = max(cells, key=lambda c: expert.machine_run_gain(_with_machine(game, seat, c).state, seat))
    game = _with_machine(game, seat, cell)
    player = game.state.players[seat]
    player.money = 200
    eng = player.level("ENG")
    refining = {
        p.colour
        for p in network_map(player).pipelines
        if p.machines and highest_grade_from_crude(game.state, p.colour, p.value(eng)) > 0
    }
    player.oil = [[1 if colour in refining else 0 for colour in range(3)], [0, 0, 0], [0, 0, 0], [0, 0, 0]]
    player.tanks[0] = max(player.tanks[0], 2)
    return game, seat


def test_the_expert_runs_its_machines_when_the_refining_sells_for_more_than_it_costs():
    """Judged by ``evaluate``, which counts Crude a Pipeline can refine at most of the grade it
    reaches, a Machine Phase that refines one Crude to Low does not pay its $15; at sale prices
    ($28 against $8) it does, so every plan the expert weighs ends with it."""
    game, seat = _owning_a_machine(4, 90)
    assert expert.machine_run_gain(game.state, seat) > 0
    plans = expert.candidate_plans(game.state, seat)
    assert plans and all(M.RunMachines() in plan for plan in plans), plans
    for plan in plans:
        table = game.clone()
        at = plan.index(M.RunMachines())
        for move in plan[:at]:
            table.apply(move)
        refined = table.clone()
        for move in plan[at:-1]:
            refined.apply(move)
        before, after = table.state.players[seat], refined.state.players[seat]
        sale = sum(SALE[g] * (after.oil[g][c] - before.oil[g][c]) for g in range(4) for c in range(3))
        assert sale + after.money - before.money > 0


def test_the_expert_does_not_pay_for_a_machine_phase_with_nothing_to_refine():
    game, seat = _owning_a_machine(4, 90)
    game.state.players[seat].oil = [[0, 0, 0] for _ in range(4)]
    for plan in expert.candidate_plans(game.state, seat):
        if M.RunMachines() in plan:  # only after buying Crude in the same turn
            assert any(type(m) is M.Buy for m in plan[: plan.index(M.RunMachines())]), plan


def test_a_first_machine_on_a_hub_is_bought_at_once_only_if_it_nets_the_hub_bar(monkeypatch):
    """A Machine plan that lays a shop tile first (a hub) is played without sampling when its
    Machine Phase nets :data:`expert.HUB_COMMIT`; a plain one needs ``MACHINE_COMMIT``."""
    start = _played(4, 90)
    seat = start.current_player
    assert not start.state.players[seat].machines
    owning, _ = _owning_a_machine(4, 90)
    nets = expert.machine_run_gain(owning.state, seat)
    assert nets > 0
    action = M.Action(action=C.ActionName.MACHINES)
    hub = Plan([action, M.BuyPipe(index=0)], 0.0, owning.state)
    plain = Plan([action, M.BuyMachine(shop_row=0)], 0.0, owning.state)
    monkeypatch.setattr(expert, "MACHINE_COMMIT", nets)
    monkeypatch.setattr(expert, "HUB_COMMIT", nets + 1)
    assert expert.first_machine(start.state, seat, plain) is not None
    assert expert.first_machine(start.state, seat, hub) is None
    monkeypatch.setattr(expert, "HUB_COMMIT", nets)
    moves = expert.first_machine(start.state, seat, hub)
    assert moves is not None and moves[:2] == hub.moves and moves[-1] == M.EndTurn()


def test_a_seat_with_no_oil_and_no_money_for_crude_takes_a_loan():
    game = _played(6, 70)
    state, seat = game.state, game.current_player
    player = state.players[seat]
    player.oil = [[0, 0, 0] for _ in range(4)]
    assert expert.cheapest_crude(state) == 5  # the printed ladders start at $5
    player.money = 5
    assert expert.rescue_loan(state, seat) is None  # it can still buy a Crude
    player.money = 0
    moves = expert.rescue_loan(state, seat)
    assert moves is not None and M.TakeLoan() in moves and moves[-1] == M.EndTurn()
    assert expert.plan_turn(state, seat, random.Random(1), samples=1) == moves
    table = game.clone()
    for move in moves:
        table.apply(move)  # legal, as the engine checks them
    assert table.state.players[seat].money >= C.LOAN_AMOUNT
    player.oil[1][0] = 1  # a barrel to sell: no loan
    assert expert.rescue_loan(state, seat) is None
    player.oil[1][0] = 0
    state.year, state.round = len(C.ROUNDS_PER_YEAR), C.ROUNDS_PER_YEAR[-1] - 1  # two Rounds left
    assert expert.rescue_loan(state, seat) is None
