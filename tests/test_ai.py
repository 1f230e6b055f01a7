"""Bots: legal complete games at every player count, reproducible choices, hidden stacks."""

from __future__ import annotations

import random

import pytest

from pipeline_tui import ai
from pipeline_tui.ai.view import determinize, fingerprint, visible_pipe_tiles
from pipeline_tui.data import components as C
from pipeline_tui.engine import highest_grade_from_crude, network_map
from pipeline_tui.engine import moves as M
from pipeline_tui.engine.game import Game
from pipeline_tui.engine.setup import GameSetup, PlayerSetup


def _setup(kinds: list[str], seed: int, edition: int = 1) -> GameSetup:
    return GameSetup(
        seed=seed, players=tuple(PlayerSetup(f"P{i}", k) for i, k in enumerate(kinds)), edition=edition
    )


def _play(game: Game, until: int | None = None, samples: int = 1) -> None:
    """Let the bots named by the setup play, one bot object per seat, asserting every move is
    legal."""
    bots = [ai.make_bot(p.kind, samples=samples) for p in game.setup.players]
    while not game.is_over() and (until is None or len(game.moves) < until):
        kind = game.setup.players[game.current_player].kind
        move = bots[game.current_player].choose(game.clone())
        assert move in game.legal_moves(), (kind, move)
        game.apply(move)


def _mid_game(seed: int = 3, moves: int = 120) -> Game:
    game = Game(_setup(["heuristic", "heuristic"], seed))
    _play(game, until=moves)
    return game


def _fresh(game: Game, kind: str, **options) -> M.Move:
    return ai.choose_move(game.clone(), kind, **options)


def test_kinds_and_the_ui_signature():
    assert ai.KINDS == ("random", "heuristic", "search", "expert")
    game = Game(GameSetup.default(players=2, seed=1))
    for kind in ai.KINDS:
        assert ai.choose_move(game.clone(), kind) in game.legal_moves()
    with pytest.raises(ValueError, match="unknown bot"):
        ai.choose_move(game, "oracle")


@pytest.mark.parametrize("edition", [1, 2])
@pytest.mark.parametrize(
    "kinds",
    [
        ["heuristic", "search"],
        ["random", "heuristic", "search"],
        ["search", "random", "heuristic", "heuristic"],
        ["expert", "heuristic", "search"],
    ],
)
def test_bots_play_complete_games_without_illegal_moves(kinds, edition):
    game = Game(_setup(kinds, seed=len(kinds), edition=edition))
    _play(game)
    assert game.is_over()
    assert len(game.scores()) == len(kinds)


def test_heuristic_beats_random_in_a_seeded_game():
    game = Game(_setup(["random", "heuristic"], seed=11))
    _play(game)
    best = game.scores()[0]
    assert game.setup.players[best.seat].kind == "heuristic"
    assert best.total > 100


@pytest.mark.parametrize("kind", ai.KINDS)
def test_a_decision_is_reproducible(kind):
    game = _mid_game()
    options = {"samples": 3} if kind in ("search", "expert") else {}
    assert _fresh(game, kind, **options) == _fresh(game, kind, **options)


def test_a_seed_varies_random_choices():
    game = Game(GameSetup.default(players=2, seed=5))
    game.apply(M.PlaceStartingTank(grade=0))
    choices = {ai.choose_move(game, "random", seed=s) for s in range(30)}
    assert len(choices) > 1


def _reshuffled(game: Game, seed: int) -> Game:
    """The same public position with the hidden stacks in another real order."""
    other = game.clone()
    rng = random.Random(seed)
    rng.shuffle(other.state.pipe_deck)
    for stack in other.state.contract_stacks:
        below = stack[:-1]
        rng.shuffle(below)
        stack[:-1] = below
    return other


@pytest.mark.parametrize("kind", ai.KINDS)
def test_decisions_ignore_the_real_deck_order(kind):
    game = _mid_game()
    other = _reshuffled(game, 99)
    assert other.state.pipe_deck != game.state.pipe_deck
    options = {"samples": 3} if kind in ("search", "expert") else {}
    assert _fresh(game, kind, **options) == _fresh(other, kind, **options)


def test_determinized_view_draws_only_unseen_tiles_and_hides_the_order():
    game = _mid_game()
    other = _reshuffled(game, 7)
    seat = game.current_player
    view = determinize(game, seat, random.Random(1))
    assert view.pipe_deck == determinize(other, seat, random.Random(1)).pipe_deck
    assert sorted(view.pipe_deck) == sorted(game.state.pipe_deck)
    assert not set(view.pipe_deck) & visible_pipe_tiles(game.state)
    assert view.pipe_deck != game.state.pipe_deck
    for real, guessed, grade in zip(game.state.contract_stacks, view.contract_stacks, C.CONTRACT_ROWS):
        assert len(guessed) == len(real)
        if real:
            assert guessed[-1] == real[-1]
        assert all(C.contract_tile(t).row == grade for t in guessed)
    assert fingerprint(game) == fingerprint(other)
    assert view.players == game.state.players and view.markets == game.state.markets


def test_a_whole_turn_plan_ignores_the_real_deck_order():
    game = _mid_game(moves=60)
    other = _reshuffled(game, 5)
    turns = []
    for table in (game.clone(), other):
        bot, moves = ai.make_bot("heuristic"), []
        seat = table.current_player
        while table.current_player == seat and not table.is_over():
            moves.append(bot.choose(table))
            table.apply(moves[-1])
            if type(moves[-1]) is M.EndTurn:
                break
        turns.append(moves)
    assert turns[0] == turns[1] and len(turns[0]) > 1


def test_random_bots_never_make_an_illegal_move_over_many_seeded_games():
    for seed in range(60):
        players = 2 + seed % 3
        game = Game(
            GameSetup(seed=seed, players=tuple(PlayerSetup(f"P{i}", "random") for i in range(players)))
        )
        bots = [ai.make_bot("random", seed=seed) for _ in range(players)]
        while not game.is_over():
            game.apply(bots[game.current_player].choose(game))  # the checked path
        assert len(game.scores()) == players


def _bot_game(seed: int, until: int) -> list[M.Move]:
    game = Game(_setup(["heuristic", "search"], seed, edition=2))
    _play(game, until=until)
    return list(game.moves)


def test_bots_are_objects_that_keep_to_their_own_game_across_threads():
    from concurrent.futures import ThreadPoolExecutor

    seeds = (21, 22, 21)
    alone = {seed: _bot_game(seed, 70) for seed in set(seeds)}
    with ThreadPoolExecutor(max_workers=3) as pool:
        together = list(pool.map(lambda seed: _bot_game(seed, 70), seeds))
    assert together == [alone[seed] for seed in seeds]
    assert len({tuple(moves) for moves in together}) == 2
    assert not [
        name
        for name, value in vars(ai).items()
        if isinstance(value, (dict, list)) and not name.startswith("__")
    ]  # no plan cache


def test_a_bot_is_one_kind_and_a_game_over_has_no_move():
    with pytest.raises(ValueError, match="unknown bot 'oracle'"):
        ai.make_bot("oracle")
    game = Game(_setup(["random", "random"], seed=4))
    bot = ai.make_bot("random", seed=4)
    while not game.is_over():
        game.apply(bot.choose(game))
    with pytest.raises(ValueError, match="the game is over"):
        bot.choose(game)


def test_a_broken_plan_is_replanned():
    game = _mid_game(moves=40)
    bot = ai.make_bot("heuristic")
    while game.state.turn.stage != "work" or game.state.turn.mains:
        game.apply(bot.choose(game.clone()))
    planned = bot.choose(game.clone())
    assert bot.plan
    other = next(m for m in game.legal_moves() if m != planned and type(m) is M.Action)
    game.apply(other)
    assert bot.choose(game.clone()) in game.legal_moves()


def test_ai_imports_no_user_interface():
    import subprocess
    import sys

    code = "import sys, pipeline_tui.ai, pipeline_tui.ai.arena; print('textual' in sys.modules, 'rich' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def _positions(seeds, players: int):
    """Positions along seeded random games (many Valuation cards, Upgrades and markets)."""
    for seed in seeds:
        game = Game(GameSetup.default(players=players, seed=seed))
        rng = random.Random(seed)
        while not game.is_over():
            yield game.state
            game.apply(rng.choice(game.legal_moves()))


def test_evaluation_scores_pipelines_and_cards_as_the_scoring_does():
    from pipeline_tui.ai import evaluate as E
    from pipeline_tui.engine.rules import network
    from pipeline_tui.engine.scoring import score_player

    cards = set()
    for state in _positions(range(6), 3):
        cards.update(state.valuation_cards)
        for player in state.players:
            steps = E._thresholds(state)
            net = E._network(state, player, player.level("ENG"))
            assert net.reach_of == {
                p.key: E.grade_of(steps[p.colour], p.value(player.level("ENG")))
                for p in network(player).pipelines
            }
            lines = [
                (line.step, line.amount)
                for line in score_player(state, player)
                if line.step in ("pipelines", "valuation_tile") or line.step.startswith("card:")
            ]
            assert E._scored_parts(state, player, net) == lines
    assert len(cards) >= 6


def _reference_outlets(state, player):
    """The outlets as evaluate first listed them, slot by slot with ``rules.market_price``."""
    from pipeline_tui.engine.rules import market_price, market_rows

    out = [[], [], []]
    for index, row in enumerate(market_rows(state)):
        for slot, held in enumerate(state.markets[index]):
            if held >= 0:
                continue
            price = market_price(state, player, index, slot)
            colours = range(3) if player.level("RM") >= 3 and row.market != "C" else [row.colour]
            for colour in colours:
                out[colour].append((price, row.grade))
    bonus = C.CONTRACTS_ORDERS_II_BONUS if player.level("CO") >= 2 else 0
    for row in state.order_rows:
        for tile in row:
            if tile >= 0:
                for colour, grade in C.contract_tile(tile).needs:
                    out[colour].append((int(0.6 * (C.ORDER_PAY[grade] + bonus)), grade))
    return [sorted(slots, reverse=True) for slots in out]


def test_cached_market_outlets_match_the_market_prices():
    from pipeline_tui.ai import evaluate as E

    for state in _positions([4, 5], 4):
        for player in state.players:
            cached = E._outlets(state, player)
            assert cached == _reference_outlets(state, player)
            cached[0].clear()  # evaluate uses slots up: the cache must not change
            assert E._outlets(state, player) == _reference_outlets(state, player)


def test_levels_name_the_kinds_and_the_old_names_still_work():
    assert [ai.bot_kind(level) for level in ai.LEVELS] == list(ai.KINDS)
    assert [ai.bot_kind(kind) for kind in ai.KINDS] == list(ai.KINDS)
    assert ai.bot_kind(" Hard ") == "search" and ai.level_of("heuristic") == "normal"
    assert len(ai.LEVEL_LINES) == len(ai.LEVELS) and all(ai.LEVEL_LINES)
    with pytest.raises(ValueError, match=r"unknown bot 'oracle' \(one of easy \(random\), normal"):
        ai.bot_kind("oracle")


@pytest.mark.parametrize("seed", [70009, 71003, 71006, 71026, 90003, 90008, 90009, 90025, 90056])
def test_the_heuristic_builds_a_refining_pipeline_in_the_first_year(seed):
    """Each seat ends Year 1 with a Pipeline that refines Crude. On each of these seeds a seat used to
    buy Pipe tiles in Round 1 and none for the rest of the game. On the first four, with no
    Pipeline long enough to refine, each further tile was worth less than its price
    (``evaluate`` now counts the first refining Pipeline as the player's income:
    ``FIRST_PIPELINE``). On the last five, the tiles it could buy were placed where they began
    new short Pipelines instead of lengthening the nearest one, so none paid (a placement now
    counts its part of the way to the first refining Pipeline, as ``evaluate`` does)."""
    game = Game(_setup(["heuristic", "heuristic"], seed, edition=2))
    bots = [ai.make_bot("heuristic", seed=seed) for _ in range(2)]
    while game.state.year == 1:
        game.apply(bots[game.current_player].choose(game))
    state = game.state
    for player in state.players:
        eng = player.level("ENG")
        reaches = [
            highest_grade_from_crude(state, p.colour, p.value(eng)) for p in network_map(player).pipelines
        ]
        assert max(reaches, default=0) >= 1, (seed, player.seat, reaches)


def test_out_of_time_in_its_first_pass_the_search_bot_plays_the_plans_it_sampled(monkeypatch):
    """The search bot's budget bounds its first pass over the plans too: once the time is up,
    the plans not sampled yet drop out and the best sampled one is played (the heuristic's best
    come first); with time to spare every plan is sampled, then the best again."""
    from pipeline_tui.ai import heuristic, search

    game = Game(_setup(["heuristic", "heuristic"], 3))
    _play(game, until=120)
    while game.state.turn.mains or game.state.turn.action or game.state.turn.secondary:
        game.apply(ai.make_bot("heuristic").choose(game))
    state, seat = game.state, game.current_player
    arms = [plan.moves + [M.EndTurn()] for plan in heuristic.turn_plans(state, seat)[: search.TOP_PLANS]]
    assert len(arms) > 2
    clock = iter(range(0, 10_000, 10))  # every reading of the clock is 10 s after the last
    monkeypatch.setattr(search.time, "perf_counter", lambda: float(next(clock)))
    sampled: list[list[M.Move]] = []
    monkeypatch.setattr(search, "_rollout", lambda st, s, moves, rng: sampled.append(moves) or 0.0)
    assert search.plan_turn(state, seat, random.Random(1), seconds=1.0) == arms[0]
    assert sampled == [arms[0]]
    sampled.clear()
    monkeypatch.setattr(search.time, "perf_counter", lambda: 0.0)  # time stands still
    search.plan_turn(state, seat, random.Random(1), seconds=1.0)
    assert sampled[: len(arms)] == arms and len(sampled) == search.MAX_SAMPLES


def test_the_placement_gains_kept_between_networks_change_no_placement():
    """``heuristic._GAINS`` keeps a tile's gain by the Pipelines it joins, across networks: at
    states of a 4-player game, every shop Pipe tile is placed as it is with both memos empty."""
    from pipeline_tui.ai import heuristic

    game = Game(_setup(["heuristic"] * 4, 11, edition=2))
    bots = [ai.make_bot("heuristic") for _ in range(4)]
    checked = 0
    while not game.is_over():
        if len(game.moves) % 9 == 0:
            state = game.state
            tiles = [t for shop in state.shop_pipes for t in shop if t >= 0]
            for seat in range(4):
                for tile in tiles:
                    heuristic._PLACEMENTS.clear()  # weighed again, with the gains kept so far
                    kept = heuristic.best_placement(state, seat, tile)
                    heuristic._PLACEMENTS.clear()
                    warm, heuristic._GAINS = heuristic._GAINS, {}
                    try:
                        assert heuristic.best_placement(state, seat, tile) == kept
                    finally:
                        heuristic._GAINS = warm
                    checked += 1
        game.apply(bots[game.current_player].choose(game))
    assert checked > 500


def test_the_heuristic_fills_a_due_contract_holding_its_barrels_in_the_last_round():
    """Rulebook, "Refresh Phase" and end of game: an incomplete Contract is removed with a
    Penalty. With the Orange Valuation card counting the barrels in hand, one delivery at a time
    looked worse than keeping them, and traced seats took the Penalty holding the barrels."""
    from pipeline_tui.engine.state import HeldContract

    from tests.helpers import new_game, setup_player, to_last_round

    game = new_game(seed=4, edition=2)
    to_last_round(game)
    game.state.valuation_cards = [7, 9, 16]  # Orange oil and Pipelines; Low Pipelines; oil types
    player = setup_player(game, money=30, oil={"OL": 2, "TC": 1})
    player.contracts = [HeldContract(tile=204, filled=[-1, -1])]  # Low Orange, Low Orange
    seat = game.state.turn.player
    bot = ai.make_bot("heuristic", seed=4)
    while not game.is_over() and game.current_player == seat:
        game.apply(bot.choose(game.clone()))
    held = game.state.players[seat].contracts
    assert [c.completions for c in held] == [1]
    assert game.state.players[seat].penalties == 0
    assert sum(game.state.players[seat].oil[1]) == 0


@pytest.mark.parametrize(
    "seed",
    [
        2000,
        pytest.param(
            2002,
            marks=pytest.mark.xfail(
                strict=True,
                reason="since Loans count their cash at face value (issue 37.6) this game takes "
                "another course, and seat 1 fails a three-need Contract taken with $12 in Year 2",
            ),
        ),
        2009,
    ],
)
def test_the_heuristic_fails_no_contract_it_takes_in_these_seeded_games(seed):
    """Seeds where the heuristic took Contracts it could not fill (three Low needs for one Crude
    in hand, needs whose Pipeline runs no Round left held) or held their barrels to the Penalty:
    every Penalty marker now comes from a Loan."""
    game = Game(_setup(["heuristic", "heuristic"], seed, edition=2))
    bots = [ai.make_bot("heuristic", seed=seed) for _ in range(2)]
    loans = [0, 0]
    while not game.is_over():
        seat = game.current_player
        move = bots[seat].choose(game)
        loans[seat] += type(move) is M.TakeLoan
        game.apply(move)
    assert [p.penalties for p in game.state.players] == loans
