"""Property tests: seeded random games checked move by move.

Three kinds of game, all seeded (2, 3 and 4 players in turn, every 7th seed a first game):
200 games choosing uniformly among ``legal_moves()`` with ``random.Random(seed)`` (plus a few
Hypothesis-drawn seeds); 30 games with the steered ``seeker`` mover, because uniform play almost
never refines, delivers or runs Machines; and 40 rules-level games from a "rich" table (money,
Tanks and oil handed out after setup) where every deep rule runs hundreds of times.

Checked after EVERY move of every game: the invariants of ``tests/invariants.py``; every listed
move passes ``why_illegal``, the list has no duplicates, is empty exactly when the game is
over and equals the checked listing (``rules.checked_legal_moves``: the fast ``legal_moves``
against each rule's candidates filtered by its checks); the move's notation round-trips; and
``Game.apply`` (which plays a listed move without checking it again) gives the state the
checked ``apply_move`` gives. In ``Game`` games also after every move: ``undo()`` gives
back exactly the state before and ``redo()`` exactly the state after. In rich games: the checked
and trusted paths of ``apply`` give the same state. At sampled points: a fresh replay equals the
live state, and random moves of every type (most illegal) are judged legal exactly when
``legal_moves()`` lists them, an illegal one raising ``IllegalMove`` with a message and leaving
the state untouched. At the end: replay, ``state_at(k)`` against fresh replays, save/load round
trips (msgspec JSON, and ``pipeline_tui.storage`` files), and the score sheet. No check is
thinned out; the file takes about 32 s on the 2-core test machine.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline_tui.data import components as C
from pipeline_tui.engine import Game, GameSetup, IllegalMove, replay
from pipeline_tui.engine import moves as M
from pipeline_tui.engine import rules
from pipeline_tui.engine.network import build_map
from pipeline_tui.engine.moves import AnyMove, format_move, parse_move
from pipeline_tui.engine.setup import RULES_VERSION
from pipeline_tui.engine.state import State, clone_state
from pipeline_tui.storage import load_game, save_game

from tests.invariants import check_invariants

SEEDS = range(200)  # uniform random movers
SEEKER_SEEDS = range(1000, 1030)  # the steered mover, same checks
RICH_SEEDS = range(2000, 2040)  # the steered mover on rich tables
MAX_MOVES = 5000  # far above any game seen (about 320 moves at 4 players)
NEGATIVE_POINTS = 3  # sampled states per game for the negative cross-check
CANDIDATES = 60  # random moves tried at each of those states


class SavedGame(msgspec.Struct):
    """What a save needs to rebuild a game: the setup and the move log."""

    setup: GameSetup
    moves: list[AnyMove]


_SAVE_DECODER = msgspec.json.Decoder(SavedGame)


def players_for(seed: int) -> int:
    return 2 + seed % 3


def setup_for(seed: int, players: int) -> GameSetup:
    """Every 7th seed plays the rulebook's suggested first game (no 7 markers, fixed upgrades);
    every 5th plays component edition 1 (fixed markets), the others the printed edition; every
    5th (another residue) the rules version of old saves (1)."""
    setup = GameSetup.default(
        players=players, seed=seed, first_game=seed % 7 == 0, edition=1 if seed % 5 == 0 else 2
    )
    return msgspec.structs.replace(setup, rules_version=1 if seed % 5 == 1 else RULES_VERSION)


# --- random candidate moves -------------------------------------------------------------------

_ACTION_NAMES = list(rules.CROSS_ACTIONS) + ["bogus", ""]
_ROW_CODES = [f"{market}-{colour}{grade}" for market in "C123" for colour in "OTS" for grade in "CLMH"] + [
    "9-XX"
]
_FAMILIES = list(C.UPGRADE_CODES) + ["NOPE"]


def _cell(rng: random.Random, state: State) -> tuple[int, int]:
    """A cell of the current player's network half the time, else anywhere nearby."""
    player = rules.current(state)
    cells = list(rules.network(player).cells)
    if cells and rng.random() < 0.5:
        return rng.choice(cells)
    return rng.randint(-4, 4), rng.randint(-4, 4)


def _refine(rng: random.Random, state: State) -> M.Refine:
    pipelines = rules.network(rules.current(state)).pipelines
    if pipelines and rng.random() < 0.7:
        x, y, k = rng.choice(pipelines).key
    else:
        (x, y), k = _cell(rng, state), rng.randint(-1, 2)
    frm = rng.randint(-1, 3)
    return M.Refine(x=x, y=y, k=k, from_grade=frm, to_grade=rng.randint(frm, 4))


def _r(rng: random.Random, lo: int, hi: int) -> int:
    return rng.randint(lo, hi)


_MAKERS = {
    M.PlaceStartingTank: lambda g, s: M.PlaceStartingTank(grade=_r(g, -1, 4)),
    M.Action: lambda g, s: M.Action(action=g.choice(_ACTION_NAMES)),
    M.Secondary: lambda g, s: M.Secondary(action=g.choice(_ACTION_NAMES)),
    M.Government: lambda g, s: M.Government(quadrant=_r(g, -1, 4), space=_r(g, -1, 8)),
    M.RunNetwork: lambda g, s: M.RunNetwork(**dict(zip("xy", _cell(g, s)))),
    M.RunMachine: lambda g, s: M.RunMachine(**dict(zip("xy", _cell(g, s)))),
    M.Pass: lambda g, s: M.Pass(),
    M.EndAction: lambda g, s: M.EndAction(),
    M.RunMachines: lambda g, s: M.RunMachines(),
    M.EndTurn: lambda g, s: M.EndTurn(),
    M.ChooseTurnOrder: lambda g, s: M.ChooseTurnOrder(position=_r(g, -1, 5)),
    M.Buy: lambda g, s: M.Buy(row=g.choice(_ROW_CODES), slot=_r(g, -1, 6)),
    M.Sell: lambda g, s: M.Sell(
        row=g.choice(_ROW_CODES), slot=_r(g, -1, 6), colour=_r(g, -1, 3), grade=_r(g, -1, 4)
    ),
    M.TakeContract: lambda g, s: M.TakeContract(
        kind=g.choice(["contract", "order", "other"]),
        row=_r(g, 0, 6),
        slot=_r(g, -1, 3),
        deferred=g.random() < 0.5,
    ),
    M.TakeLoan: lambda g, s: M.TakeLoan(),
    M.BuyTank: lambda g, s: M.BuyTank(shop_row=_r(g, -1, 3), grade=_r(g, -1, 4)),
    M.BuyMachine: lambda g, s: M.BuyMachine(shop_row=_r(g, -1, 3)),
    M.BuyPipe: lambda g, s: M.BuyPipe(index=_r(g, -1, 8)),
    M.PlaceTile: lambda g, s: M.PlaceTile(**dict(zip("xy", _cell(g, s))), rot=_r(g, -1, 4)),
    M.PlaceMachine: lambda g, s: M.PlaceMachine(**dict(zip("xy", _cell(g, s)))),
    M.BuyUpgrade: lambda g, s: M.BuyUpgrade(family=g.choice(_FAMILIES)),
    M.FlipToken: lambda g, s: M.FlipToken(family=g.choice(_FAMILIES)),
    M.BuyGovernmentTile: lambda g, s: M.BuyGovernmentTile(space=_r(g, -1, 8)),
    M.Refine: lambda g, s: _refine(g, s),
    M.Deliver: lambda g, s: M.Deliver(contract=_r(g, -1, 3), need=_r(g, -1, 3), grade=_r(g, -1, 4)),
    M.FulfilOrder: lambda g, s: M.FulfilOrder(
        row=_r(g, 2, 6), slot=_r(g, -1, 3), grades=tuple(_r(g, 0, 3) for _ in range(_r(g, 2, 6)))
    ),
    M.TakeGovernmentTile: lambda g, s: M.TakeGovernmentTile(quadrant=_r(g, -1, 4), space=_r(g, -1, 8)),
    M.TakeTank: lambda g, s: M.TakeTank(shop_row=_r(g, -1, 3), grade=_r(g, -1, 4)),
    M.TakeMachine: lambda g, s: M.TakeMachine(shop_row=_r(g, -1, 3)),
    M.TakePipe: lambda g, s: M.TakePipe(shop=g.choice(["T", "M", "X"]), index=_r(g, -1, 8)),
    M.Decline: lambda g, s: M.Decline(),
}


def _perturb(rng: random.Random, move: M.Move) -> M.Move:
    """A legal move with one integer field nudged (often, but not always, illegal)."""
    fields = [f for f in msgspec.structs.fields(move) if type(getattr(move, f.name)) is int]
    if not fields:
        return move
    name = rng.choice(fields).name
    return msgspec.structs.replace(move, **{name: getattr(move, name) + rng.choice((-1, 1))})


def candidate_moves(rng: random.Random, state: State, legal: list[M.Move]) -> list[M.Move]:
    """One random move of each type, then random ones and nudged legal ones up to CANDIDATES."""
    out = [make(rng, state) for make in _MAKERS.values()]
    makers = list(_MAKERS.values())
    while len(out) < CANDIDATES:
        if rng.random() < 0.5:
            out.append(_perturb(rng, rng.choice(legal)))
        else:
            out.append(rng.choice(makers)(rng, state))
    return out


def test_every_move_type_has_a_maker():
    assert set(_MAKERS) == set(AnyMove.__args__)


# --- movers ----------------------------------------------------------------------------------


def uniform(rng: random.Random, state: State, legal: list[M.Move]) -> M.Move:
    """The brief's mover: uniform over the legal moves."""
    return rng.choice(legal)


_ENDS = (M.EndAction, M.EndTurn, M.Pass, M.Decline)
_GOALS = (
    M.Refine,
    M.Deliver,
    M.FulfilOrder,
    M.RunMachines,
    M.RunMachine,
    M.PlaceMachine,
    M.BuyMachine,
    M.TakeMachine,
    M.BuyUpgrade,
)
_WORK_CHOICES = (M.Action, M.Secondary, M.Government, M.RunNetwork, M.RunMachine)


def _opens_goal(state: State, move: M.Move) -> bool:
    after = clone_state(state)
    rules.apply_trusted(after, move)
    return any(isinstance(m, _GOALS) for m in rules.legal_moves(after))


def _longest_after(state: State, place: M.PlaceTile) -> int:
    player = rules.current(state)
    tiles = [*player.tiles, (state.turn.hand_tile, place.x, place.y, place.rot)]
    return max(p.segments for p in build_map(tiles, player.machines).pipelines)


def _wanted_colours(state: State) -> set[int]:
    """Colours with a Pipeline able to refine Crude but fewer than 2 unrefined barrels to feed it."""
    player = rules.current(state)
    return {
        p.colour
        for p in rules.network(player).pipelines
        if p.value(player.level("ENG")) >= state.refinement_costs[p.colour][0]
        and sum(player.oil[g][p.colour] for g in range(3)) < 2
    }


def seeker(rng: random.Random, state: State, legal: list[M.Move]) -> M.Move:
    """A random mover steered towards the deep rules uniform play almost never reaches
    (refining, Contracts, Orders, Machines): it grows long Pipelines, buys Crude they can refine,
    and prefers moves that open a refine, delivery or Machine move; still random among those."""
    if isinstance(legal[0], M.PlaceTile) and rng.random() < 0.8:
        sample = rng.sample(legal, min(8, len(legal)))
        best = max(_longest_after(state, m) for m in sample)
        return rng.choice([m for m in sample if _longest_after(state, m) == best])
    goals = [m for m in legal if isinstance(m, _GOALS)]
    if goals and rng.random() < 0.9:
        return rng.choice(goals)
    want = _wanted_colours(state)
    if want and rng.random() < 0.8:
        feed = [
            m
            for m in legal
            if isinstance(m, M.Buy)
            and rules.market_rows(state)[rules.market_row_index(state)[m.row]].colour in want
        ]
        feed += [m for m in legal if m == M.Action(action="crude")]
        if feed:
            return rng.choice(feed)
    busy = [m for m in legal if not isinstance(m, _ENDS)]
    if busy and rng.random() < 0.7:
        opening = [m for m in busy if isinstance(m, _WORK_CHOICES) and _opens_goal(state, m)]
        if opening:
            return rng.choice(opening)
    if busy and rng.random() < 0.7:
        kinds = sorted({type(m).__name__ for m in busy})
        kind = rng.choice(kinds)
        return rng.choice([m for m in busy if type(m).__name__ == kind])
    return rng.choice(legal)


# --- per-move checks ---------------------------------------------------------------------------


def _negative_check(state: State, legal: list[M.Move], rng: random.Random, apply) -> None:
    """Random moves are legal exactly when listed; illegal ones raise and change nothing."""
    listed = set(legal)
    before = clone_state(state)
    for move in candidate_moves(rng, state, legal):
        why = rules.why_illegal(state, move)
        if move in listed:
            assert why is None, f"listed move {format_move(move)} judged illegal: {why}"
            continue
        assert why, f"{format_move(move)} is not listed but passes why_illegal"
        with pytest.raises(IllegalMove) as raised:
            apply(move)
        assert str(raised.value).strip(), f"{format_move(move)}: empty IllegalMove message"
        assert state == before, f"rejected {format_move(move)} changed the state"


def _check_listing(state: State, legal: list[M.Move], where: str) -> None:
    """The listed moves: present unless the game is over, distinct, each legal, and exactly the
    checked listing (each rule's candidates filtered by its checks), in the same order."""
    assert legal, f"no legal move but the game is not over: {where}"
    assert legal == rules.checked_legal_moves(state), f"fast and checked listings differ: {where}"
    assert len(set(legal)) == len(legal), f"legal_moves() lists a move twice: {where}"
    for move in legal:
        why = rules.why_illegal(state, move)
        assert why is None, f"listed move {format_move(move)} is illegal: {why} ({where})"


def play_checked(seed: int, players: int, mover=uniform) -> Game:
    """Play one game through :class:`Game`, checking every move (see the module doc)."""
    setup = setup_for(seed, players)
    game = Game(setup)
    rng = random.Random(seed)
    sampler = random.Random(f"sample {seed}")
    replay_at = {sampler.randint(1, 150), sampler.randint(1, 300)}
    negative_at = {sampler.randint(0, 150 * players // 2) for _ in range(NEGATIVE_POINTS)}
    check_invariants(game.state)
    while not game.is_over():
        assert len(game.moves) < MAX_MOVES, "the game does not end"
        where = f"seed {seed}, after move {len(game.moves)}"
        legal = game.legal_moves()
        _check_listing(game.state, legal, where)
        if len(game.moves) in negative_at:
            log_length = len(game.moves)
            _negative_check(game.state, legal, sampler, game.apply)
            assert len(game.moves) == log_length, "a rejected move entered the log"
        move = mover(rng, game.state, legal)
        assert parse_move(format_move(move)) == move
        before = clone_state(game.state)
        game.apply(move)  # a listed move: played without a second check
        after = clone_state(game.state)
        context = f"seed {seed}, move {len(game.moves)} ({format_move(move)})"
        checked = clone_state(before)
        rules.apply_move(checked, move)
        assert after == checked, f"Game.apply differs from the checked apply_move: {context}"
        check_invariants(game.state)
        assert game.undo() == move, context
        assert game.state == before, f"undo did not restore the state: {context}"
        assert game.redo() == move, context
        assert game.state == after, f"redo did not give the same state: {context}"
        if len(game.moves) in replay_at:
            assert replay(setup, game.moves) == game.state, f"replay differs: {context}"
    assert game.legal_moves() == []
    return game


def check_finished(game: Game, seed: int, folder: Path) -> None:
    """End-of-game checks: replay, ``state_at``, save round trips (plain msgspec JSON of the
    setup and log, and the storage layer's files) and the score sheet."""
    setup, log = game.setup, game.moves
    assert replay(setup, log) == game.state
    sampler = random.Random(f"state_at {seed}")
    for k in {0, len(log), len(log) - 1, sampler.randrange(len(log)), sampler.randrange(len(log))}:
        assert game.state_at(k) == replay(setup, log[:k]), f"state_at({k}) differs"

    data = msgspec.json.encode(SavedGame(setup=setup, moves=log))
    loaded = _SAVE_DECODER.decode(data)
    assert loaded.setup == setup and loaded.moves == log
    assert Game(loaded.setup, loaded.moves).state == game.state

    path = folder / f"game-{seed}.json"
    save_game(game, path)
    reloaded = load_game(path)
    assert reloaded.setup == setup and reloaded.moves == log
    assert reloaded.state == game.state

    scores = game.scores()
    assert sorted(s.seat for s in scores) == list(range(len(setup.players)))
    assert [s.rank for s in scores] == list(range(1, len(scores) + 1))
    assert [s.total for s in scores] == sorted((s.total for s in scores), reverse=True)
    for score in scores:
        assert score.total == sum(line.amount for line in score.lines)
        cash = [line.amount for line in score.lines if line.step == "cash"]
        assert cash == [game.state.players[score.seat].money]


@pytest.mark.parametrize("seed", SEEDS)
def test_random_game(seed: int, tmp_path: Path) -> None:
    game = play_checked(seed, players_for(seed))
    check_finished(game, seed, tmp_path)


@pytest.mark.parametrize("seed", SEEKER_SEEDS)
def test_seeker_game(seed: int, tmp_path: Path) -> None:
    game = play_checked(seed, players_for(seed), mover=seeker)
    check_finished(game, seed, tmp_path)


@settings(max_examples=6, deadline=None, database=None)
@given(seed=st.integers(min_value=0, max_value=2**63 - 1), players=st.sampled_from([2, 3, 4]))
def test_random_game_any_seed(seed: int, players: int) -> None:
    game = play_checked(seed, players)
    with tempfile.TemporaryDirectory() as folder:
        check_finished(game, seed, Path(folder))


# --- rich tables: plenty of money, Tanks and oil from the first Round ---------------------------


def rich_state(seed: int, players: int) -> State:
    """A table just after setup where every player got $300, Tanks from the reserve and barrels
    from the supply: components are moved, never created, so the invariants still hold."""
    game = Game(setup_for(seed, players))
    rng = random.Random(f"rich {seed}")
    while game.state.turn.stage == "setup":
        game.apply(rng.choice(game.legal_moves()))
    state = clone_state(game.state)
    for player in state.players:
        player.money += 300
        for grade in range(4):
            added = min(C.MAX_TANKS_PER_ROW - player.tanks[grade], state.tank_reserve, 3)
            player.tanks[grade] += added
            state.tank_reserve -= added
            for _ in range(player.free_space(grade)):
                colour = rng.randrange(3)
                if state.supply[colour] and rng.random() < 0.6:
                    state.supply[colour] -= 1
                    player.oil[grade][colour] += 1
    return state


@pytest.mark.parametrize("seed", RICH_SEEDS)
def test_rich_game(seed: int) -> None:
    """Rules-level play from a rich table: the deep rules (refining, Contracts, Orders,
    Machines) run hundreds of times. Checks every move: invariants, the listing, the notation,
    and that the checked and trusted paths give the same state; negative checks every 10 moves."""
    state = rich_state(seed, players_for(seed))
    check_invariants(state)
    rng = random.Random(seed)
    sampler = random.Random(f"rich sample {seed}")
    played = 0
    while not state.over:
        assert played < MAX_MOVES, "the game does not end"
        legal = rules.legal_moves(state)
        _check_listing(state, legal, f"rich seed {seed}, after move {played}")
        if played % 10 == 0:
            _negative_check(state, legal, sampler, lambda m: rules.apply_move(state, m))
        move = seeker(rng, state, legal)
        assert parse_move(format_move(move)) == move
        trusted = clone_state(state)
        rules.apply_trusted(trusted, move)
        rules.apply_move(state, move)
        played += 1
        assert state == trusted, f"apply_trusted differs from apply_move on {format_move(move)}"
        check_invariants(state)
    assert rules.legal_moves(state) == []


def test_player_counts_are_all_covered() -> None:
    assert {players_for(s) for s in SEEDS} == {2, 3, 4}


# --- the checker itself must catch broken states ----------------------------------------------


def _mid_game_state() -> State:
    game = Game(GameSetup.default(players=3, seed=11))
    rng = random.Random(11)
    while len(game.moves) < 120:
        game.apply(rng.choice(game.legal_moves()))
    return clone_state(game.state)


def _give_tile(s: State) -> None:
    s.players[0].tiles.append((s.pipe_deck[-1], 40, 40, 0))


def _lose_tile(s: State) -> None:
    s.pipe_deck.pop()


def _overlap(s: State) -> None:
    tile, x, y, rot = next(p for p in s.players if p.tiles).tiles[0]
    owner = next(p for p in s.players if p.tiles)
    owner.tiles.append((s.pipe_deck.pop(), x, y, (rot + 1) % 4))


def _machine_off_network(s: State) -> None:
    s.players[0].machines.append((99, 99))
    s.machine_reserve -= 1


def _overfill_tanks(s: State) -> None:
    p = s.players[0]
    extra = 2 * p.tanks[0] - sum(p.oil[0]) + 1
    p.oil[0][0] += extra
    s.supply[0] -= extra


def _duplicate_contract(s: State) -> None:
    tile = next(t for row in s.contract_rows + s.contract_stacks for t in row if t >= 0)
    s.order_rows[0][0] = tile


@pytest.mark.parametrize(
    "corrupt, message",
    [
        (lambda s: s.supply.__setitem__(0, s.supply[0] + 1), "O barrels"),
        (lambda s: s.players[1].oil[3].__setitem__(2, s.players[1].oil[3][2] + 1), "S barrels"),
        (_give_tile, "Pipe tile"),
        (_lose_tile, "Pipe tiles in no place"),
        (_overlap, "overlap"),
        (lambda s: setattr(s, "machine_reserve", s.machine_reserve + 1), "Machines"),
        (_machine_off_network, "Machine on cell"),
        (lambda s: setattr(s, "tank_reserve", s.tank_reserve - 1), "Tanks"),
        (lambda s: setattr(s.players[2], "money", -1), "negative"),
        (_overfill_tanks, "barrels in"),
        (_duplicate_contract, "Contract/Order tile"),
    ],
)
def test_invariant_checker_catches(corrupt, message) -> None:
    state = _mid_game_state()
    check_invariants(state)
    corrupt(state)
    with pytest.raises(AssertionError, match=message):
        check_invariants(state)
