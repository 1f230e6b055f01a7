"""The expert bot: the search bot's scheme with more plans, common deals and deliveries.

Its candidate turns are the heuristic's best :data:`TOP_PLANS` (as the search bot samples them),
its best :data:`VALUE_PLANS` completed with the expert's own :data:`EXPERT` judge (:func:`value`,
and its Pipe tiles laid by :func:`~pipeline_tui.ai.planner.plan_placement` so that its Pipelines
end where a Machine can run them; plans that end in the same position counted once, the next
taking their places), and two economy
plans the greedy completion rarely reaches: one takes Machines & Pipes and buys a Machine,
placed where its attached Pipelines refine most (rulebook, "Machine Phase": one payment of $15
runs every attached Pipeline), and one takes Contracts & Loans and the largest Contract its
Tank Farm can fill at once (in the last Year, one from each row while its barrels last). The
Machine plan may instead lay a shop Pipe tile where refining Pipelines end and put the Machine
on it (:func:`_hubs`), attaching them whole. Every
plan then delivers to held Contracts and fulfils Orders while :func:`value` gains ("Fulfilling
Contracts and Orders": a barrel delivered is paid at once; an incomplete Contract at the
Refresh is a Penalty), and runs the Machine Phase when what it refines sells for more than
it costs (:func:`_machine_phase`). Its first Machine it buys without sampling, once one would
pay (:func:`first_machine`), and so a Loan when it has no oil and no money for Crude
(:func:`rescue_loan`).

The plans are compared on common deals: each round draws one determinization of the hidden Pipe
and Contract stacks (information-set Monte Carlo: a deal the seat cannot tell from the real
one) and plays every plan still in the race on it, then the turns that follow as the heuristic
plays them, up to and including the seat's own second turn (:data:`OWN_TURNS`), scoring the
seat's expected final score less the best rival's (:mod:`~pipeline_tui.ai.calibrated`:
``evaluate`` and a few features of the position, weighed as they predicted the final scores of
the expert's own games), plus what its Machines and Orders will still earn
(:func:`sample_score`). Two own turns, not one, won 33 of 40 trial games against the
heuristic where one won 28, at about the same time a turn with half the rounds
(``docs/bots.md``, "The eighth expert"). A lucky deal then lifts every plan alike, so
fewer samples tell plans apart. After each round the worse half is dropped, down to
:data:`FINALISTS`; the best total wins. ``samples`` is the number of rounds (reproducible);
otherwise ``seconds`` bounds them.

:func:`value` is ``evaluate`` plus :func:`economy` (the refining a Machine will still do, a
bonus for barrels delivered to Contracts) and :func:`order_target` (the Order it collects
barrels for, and the Orders it fulfilled). It completes the value plans, places the Machine and
decides deliveries.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable

import msgspec

from ..data import components as C
from ..engine import moves as M
from ..engine import (
    Pipeline,
    Stage,
    State,
    TurnState,
    apply_trusted,
    build_map,
    clone_state,
    highest_grade_from_crude,
    legal_moves,
    network_map,
    tile_cells,
)
from . import calibrated
from .evaluate import SALE, cheapest_crude, evaluate, rounds_left
from .heuristic import Judge, Plan, complete_action, finish_turn, fulfil, resolve, setup_move, turn_plans
from .planner import Cell, plan_placement
from .search import play_sample

TOP_PLANS = 4  # the heuristic's best turn plans sampled (as the search bot)
VALUE_PLANS = 2  # and its best plans completed with the expert's own :func:`value`
FINALISTS = 2  # plans kept in the race to the last round
DEFAULT_SECONDS = 1.0  # per turn and rival (a turn's later decisions follow the plan, at no cost)
MAX_ROUNDS = 8  # a bound on rounds (deals) a turn when only time bounds the search
OWN_TURNS = 2  # the seat's own next turns played in a sample, each after its rivals'

MACHINE_SHARE = 0.15  # of a Machine Phase's refining expected each turn (Crude must be bought)
MACHINE_PHASES = 4  # at most this many future Machine Phases are counted
MACHINE_BARRELS = 3  # Pipelines a Machine Phase can feed at once (Crude and Tanks bound it)
ORDER_BONUS = 15.0  # per barrel of a fulfilled Order: above ORDER_TARGET, so a full set is used
DELIVERED_BONUS = 5.0  # per barrel delivered to a Contract this Year: paid, and no Penalty risk
ORDER_TARGET = 12.0  # per barrel of the Order it collects for, times the share of it held, squared
MACHINE_COMMIT = 10  # a first Machine is bought at once if a Machine Phase would net this much
HUB_COMMIT = 20  # ... and on a hub (a shop tile laid for it) if it would net this much
SAMPLE_MACHINE_SHARE = 0.3  # of a Machine Phase's refining, per Phase left, counted in a sample
HUBS = 1  # tile-then-Machine placements (:func:`_hubs`) completed and weighed a turn
HUB_CELLS = 2  # the cells whose every tile and turn :func:`_hubs` tries

_MACHINES = C.ActionName.MACHINES.value
_CONTRACTS = C.ActionName.CONTRACTS.value
_RUN_MACHINES = M.RunMachines()


def economy(state: State, seat: int, turn_done: bool = True) -> float:
    """What the seat's Machines will still refine and its fulfilled Orders are worth, in
    dollars, beyond what :func:`~pipeline_tui.ai.evaluate.evaluate` counts."""
    if state.over:
        return 0.0
    player = state.players[seat]
    left, _in_year = rounds_left(state, turn_done)
    phases = min(MACHINE_PHASES, left + (0 if turn_done else 1) - 1)
    worth = 0.0
    if player.machines:
        worth += MACHINE_SHARE * max(0, machine_run_gain(state, seat)) * max(0, phases)
    for held in player.contracts:  # barrels delivered this Year, on completed fills too
        needs = len(C.contract_tile(held.tile).needs)
        delivered = held.completions * needs + sum(1 for grade in held.filled if grade >= 0)
        worth += DELIVERED_BONUS * delivered
    return worth


def _reaches(state: State, seat: int) -> list[int]:
    """Per colour, the highest grade one of the seat's Pipelines refines Crude to."""
    player = state.players[seat]
    eng = player.level("ENG")
    best = [0, 0, 0]
    for p in network_map(player).pipelines:
        best[p.colour] = max(best[p.colour], highest_grade_from_crude(state, p.colour, p.value(eng)))
    return best


def order_target(state: State, seat: int, turn_done: bool = True) -> float:
    """What the seat's Orders are worth beyond their pay, in dollars: :data:`ORDER_BONUS` a
    barrel of each Order fulfilled, and for the Order on the display its Tank Farm covers best
    (whose other needs its Pipelines can refine) :data:`ORDER_TARGET` a barrel times the share
    covered, squared.

    An Order pays above the market and is fulfilled without an Action or a free market slot
    (rulebook, "Fulfilling Contracts and Orders": whole and at once, at any time in the Work
    and Machine Phases), so barrels kept for one are worth more than their sale; the square
    makes the last barrels count most, which is when the Order is nearly in hand, and a
    fulfilled Order counts more than a full set kept."""
    player = state.players[seat]
    done = ORDER_BONUS * sum(len(C.contract_tile(held.tile).needs) for held in player.orders)
    if state.over:
        return done
    left, _in_year = rounds_left(state, turn_done)
    if left <= 0:
        return done
    reach: list[int] | None = None
    best = 0.0
    for row in state.order_rows:
        for tile in row:
            if tile < 0:
                continue
            needs = sorted(C.contract_tile(tile).needs, key=lambda need: -need[1])
            oil = [grades[:] for grades in player.oil]
            covered = 0
            missing: list[tuple[int, int]] = []
            for colour, grade in needs:
                used = next((g for g in range(grade, 4) if oil[g][colour] > 0), -1)
                if used >= 0:
                    oil[used][colour] -= 1
                    covered += 1
                else:
                    missing.append((colour, grade))
            if not covered:
                continue
            if missing:
                if reach is None:
                    reach = _reaches(state, seat)
                if any(reach[colour] < grade for colour, grade in missing):
                    continue
            share = covered / len(needs)
            best = max(best, ORDER_TARGET * len(needs) * share * share)
    return done + best


def machine_future(state: State, seat: int, turn_done: bool = True) -> float:
    """What the seat's Machines will still refine in the Machine Phases left, in dollars
    (rulebook, "Machine Phase": one payment runs every attached Pipeline): a Phase's refining
    less its cost, :data:`SAMPLE_MACHINE_SHARE` of it for each Phase left. A sample ends a few
    turns after the plan, long before a Machine has paid for itself, so its score counts this."""
    if state.over:
        return 0.0
    player = state.players[seat]
    if not player.machines:
        return 0.0
    left, _in_year = rounds_left(state, turn_done)
    return SAMPLE_MACHINE_SHARE * max(0, machine_run_gain(state, seat)) * max(0, left - 1)


def value(state: State, seat: int, turn_done: bool = True) -> float:
    """The expert's worth of a position for ``seat``: ``evaluate`` plus :func:`economy` and
    :func:`order_target`."""
    return (
        evaluate(state, seat, turn_done)
        + economy(state, seat, turn_done)
        + order_target(state, seat, turn_done)
    )


EXPERT = Judge(value=value, place=plan_placement)  # how the expert completes its own plans


def sample_score(state: State, seat: int) -> float:
    """A sample's score: the seat's expected final score less the best rival's
    (:func:`~pipeline_tui.ai.calibrated.relative`), plus what its Machines and the Order it
    collects for will still earn, which the fitted weights, measured on games where Machines and
    Orders were rare, do not see."""
    return calibrated.relative(state, seat) + machine_future(state, seat) + order_target(state, seat)


def _action_to_begin(state: State, name: str) -> M.Action | None:
    """The move that takes the cross Action ``name`` as the turn's Main Action, if it is legal
    now (at the start of the Work Phase, the space free)."""
    if state.turn.stage != Stage.WORK or state.turn.mains:
        return None
    return next((m for m in legal_moves(state) if type(m) is M.Action and m.action == name), None)


def machine_plan(state: State, seat: int) -> Plan | None:
    """The turn that takes the Machines & Pipes Action and buys the cheapest Machine, then
    completes the Action and the turn. The Machine goes first, placed where :func:`value` likes
    it best or on the half where it refines most (:func:`_best_half`), or on a hub
    (:func:`_hubs`). Of the Machine-first turns, the one whose Machine Phase nets most is
    chosen if that is at least :data:`MACHINE_COMMIT`: ``value`` counts the Pipelines a Machine
    cuts and attaches (which a network run no longer refines) at once and its Phases only in
    part, and so put a first Machine where it netted $5 a Phase rather than $25
    (``docs/bots.md``, "The planner"). Otherwise :func:`value` chooses."""
    action = _action_to_begin(state, _MACHINES)
    if action is None:
        return None
    taken = clone_state(state)
    apply_trusted(taken, action)
    buys = [m for m in legal_moves(taken) if type(m) is M.BuyMachine]
    if not buys:
        return None
    buy = min(buys, key=lambda m: m.shop_row)
    best: Plan | None = None
    committed: tuple[int, Plan] | None = None  # the Machine first, netting most (MACHINE_COMMIT+)
    ways: list[list[M.Move]] = [[buy], *_hubs(taken, seat, buy)]
    spot = _best_half(taken, seat)
    if spot is not None:
        ways.append([buy, M.PlaceMachine(x=spot[0], y=spot[1])])
    for steps in ways:
        st = clone_state(taken)
        moves: list[M.Move] = [action]
        for move in steps:
            if move not in legal_moves(st):  # the tile and the Machine may cost more than held
                break
            apply_trusted(st, move)
            moves.append(move)
        if len(moves) <= len(steps):
            continue
        resolve(st, seat, moves, EXPERT)
        complete_action(st, seat, moves, EXPERT)
        finish_turn(st, seat, moves, EXPERT)
        plan = Plan(moves, value(st, seat), st)
        if best is None or plan.value > best.value:
            best = plan
        nets = machine_run_gain(st, seat)
        if (
            type(steps[0]) is M.BuyMachine
            and nets >= MACHINE_COMMIT
            and (committed is None or nets > committed[0])
        ):
            committed = (nets, plan)
    return committed[1] if committed is not None else best


def _best_half(state: State, seat: int) -> Cell | None:
    """The half of the seat's Pipe tiles, not under a Machine, where a Machine would refine
    most in a Machine Phase (:func:`_run_gain`; the Pipelines through that half are cut, and
    each part ending at its edges is attached), if any would refine something."""
    player = state.players[seat]
    eng = player.level("ENG")
    tiles = list(player.tiles)
    covered = {(x, y) for x, y in player.machines}
    cells = {cell for _tile, x, y, rot in tiles for cell in tile_cells(x, y, rot)} - covered
    best = max(
        (
            (_run_gain(state, build_map(tiles, [*player.machines, cell]).pipelines, eng), cell)
            for cell in cells
        ),
        default=None,
    )
    return best[1] if best is not None and best[0] > 0 else None


def _hubs(state: State, seat: int, buy: M.BuyMachine) -> list[list[M.Move]]:
    """The best :data:`HUBS` ways, in the Machines & Pipes Action begun in ``state``, to buy a
    Pipe tile, place it where the seat's refining Pipelines end, and put the Machine on that
    half of it: the half's own Segments stop counting and every Pipeline ending at its edges is
    attached (rulebook, "Machines & Pipes": tiles and Machines in either order; "Machine
    Phase"), so the Machine runs those Pipelines without cutting any. Ranked by what one
    Machine Phase would refine through the attached Pipelines (:func:`_run_gain`): first each
    free cell once, as the Pipelines already laid that end there do not depend on the tile or
    its turn, then every tile and turn on the :data:`HUB_CELLS` best cells."""
    player = state.players[seat]
    if not any(_reaches(state, seat)):
        return []
    eng = player.level("ENG")
    tiles = list(player.tiles)
    machines = list(player.machines)
    options: dict[tuple[int, int], list[tuple[M.BuyPipe, int, M.PlaceTile]]] = {}
    seen: set[int] = set()
    for pipe in [m for m in legal_moves(state) if type(m) is M.BuyPipe]:
        held = clone_state(state)
        apply_trusted(held, pipe)
        tile_id = held.turn.hand_tile
        if tile_id < 0 or tile_id in seen:
            continue
        seen.add(tile_id)
        for place in legal_moves(held):
            if type(place) is M.PlaceTile:
                for cell in tile_cells(place.x, place.y, place.rot):
                    options.setdefault(cell, []).append((pipe, tile_id, place))

    def gain(cell: tuple[int, int], tile_id: int, place: M.PlaceTile) -> int:
        laid = [*tiles, (tile_id, place.x, place.y, place.rot)]
        return _run_gain(state, build_map(laid, [*machines, cell]).pipelines, eng)

    cells = sorted(((gain(cell, *ways[0][1:]), cell) for cell, ways in options.items()), reverse=True)
    ranked: list[tuple[int, list[M.Move]]] = []
    for first, cell in cells[:HUB_CELLS]:
        if first <= 0:
            break
        for pipe, tile_id, place in options[cell]:
            steps = [pipe, place, buy, M.PlaceMachine(x=cell[0], y=cell[1])]
            ranked.append((gain(cell, tile_id, place), steps))
    ranked.sort(key=lambda option: -option[0])
    return [steps for _gain, steps in ranked[:HUBS]]


def _run_gain(state: State, pipelines: Iterable[Pipeline], eng: int) -> int:
    """The sale gain of one Machine Phase through the best :data:`MACHINE_BARRELS` of these
    Pipelines attached to a Machine that refine Crude (``rules.highest_grade_from_crude``, with
    the Engineering bonus in the Pipeline's value), before the cost to run."""
    gains = sorted(
        (
            SALE[r] - SALE[0]
            for p in pipelines
            if p.machines
            for r in [highest_grade_from_crude(state, p.colour, p.value(eng))]
            if r > 0
        ),
        reverse=True,
    )
    return sum(gains[:MACHINE_BARRELS])


def contract_plan(state: State, seat: int) -> Plan | None:
    """The turn that takes the Contracts & Loans Action and the largest Contract its Tank Farm
    can fill at once (rulebook, "Fulfilling Contracts and Orders": each barrel delivered pays its
    grade's price; an incomplete Contract at the Refresh is a Penalty), completes the Action with
    ``evaluate``, fills the Contracts it took (an Order collected for may not keep their
    barrels), delivers further while :func:`value` gains, and ends the turn. Whether it
    pays is left to the samples. A Contract it could only fill later from a Pipeline was taken
    and failed too often (measured, ``docs/bots.md``). In the last Year a filled Contract is owed
    no more, so it takes and fills one from each row while its barrels last (up to three: "Contracts
    & Loans"), paid without a free market slot, and above the barrels' end-game value."""
    action = _action_to_begin(state, _CONTRACTS)
    if action is None:
        return None
    st = clone_state(state)
    apply_trusted(st, action)
    player = st.players[seat]
    last_year = state.year == len(C.ROUNDS_PER_YEAR)

    spare = [row[:] for row in player.oil]  # barrels not yet promised to a Contract taken

    def held(move: M.TakeContract) -> tuple[list[list[int]] | None, int]:
        """The barrels left if the spare ones fill every need of the Contract now (None if
        they cannot), and how many needs it has."""
        if move.kind == C.ContractKind.CONTRACT:
            tile = C.contract_tile(st.contract_rows[move.row - 1][move.slot])
        else:
            tile = C.contract_tile(st.order_rows[move.row - 3][move.slot])
        oil = [row[:] for row in spare]
        for colour, grade in tile.needs:
            found = next((g for g in range(grade, 4) if oil[g][colour] > 0), -1)
            if found < 0:
                return None, len(tile.needs)
            oil[found][colour] -= 1
        return oil, len(tile.needs)

    moves: list[M.Move] = [action]
    while True:  # deliveries wait for the Action's end: they may not interrupt it
        takes = [m for m in legal_moves(st) if type(m) is M.TakeContract and not m.deferred]
        fillable = [(oil, needs, m) for m in takes for oil, needs in [held(m)] if oil is not None]
        if not fillable:
            break
        spare, _needs, take = max(fillable, key=lambda option: option[1])
        moves.append(take)
        apply_trusted(st, take)
        if not last_year:
            break
    if len(moves) == 1:
        return None
    first = len(player.contracts) - (len(moves) - 1)  # the Contracts just taken
    resolve(st, seat, moves)
    complete_action(st, seat, moves)
    while True:  # fill them: the barrels were counted for them (an Order may not take them)
        deliver = next((m for m in legal_moves(st) if type(m) is M.Deliver and m.contract >= first), None)
        if deliver is None:
            break
        apply_trusted(st, deliver)
        moves.append(deliver)
    fulfil(st, seat, moves, EXPERT)
    finish_turn(st, seat, moves)
    return Plan(moves, evaluate(st, seat), st)


def machine_run_gain(state: State, seat: int) -> int:
    """What one Machine Phase would net the seat now, in dollars: the sale gain of its best
    three attached Pipelines' refining (:data:`MACHINE_BARRELS`) less the cost to run them."""
    player = state.players[seat]
    run_cost = C.MACHINE_RUN_COST_MACHINES_II if player.level("MACH") >= 2 else C.MACHINE_RUN_COST
    return _run_gain(state, network_map(player).pipelines, player.level("ENG")) - run_cost


def first_machine(state: State, seat: int, plan: Plan | None) -> list[M.Move] | None:
    """The turn that buys the seat's first Machine, when it is played without sampling: in the
    first two Years, if placed where :func:`value` likes it the Machine nets at least
    :data:`MACHINE_COMMIT` a Machine Phase. Owning one early is the game's engine (rulebook,
    "Machine Phase": every Round, one payment refines through every attached Pipeline, without an
    Action), which a sample a turn or two long cannot see pay back. ``plan`` is
    :func:`machine_plan`'s (made once a turn: the samples weigh it too). On a hub (:func:`_hubs`:
    a shop tile, then the Machine on it) it must net :data:`HUB_COMMIT`: left to the samples, a
    hub netting $25 a Phase stood unbought for two Years (``docs/bots.md``, "The tenth
    expert")."""
    if state.players[seat].machines or state.year >= len(C.ROUNDS_PER_YEAR):
        return None
    if plan is None or plan.state is None:
        return None
    hub = any(type(move) is M.BuyPipe for move in plan.moves[:2])
    if machine_run_gain(plan.state, seat) < (HUB_COMMIT if hub else MACHINE_COMMIT):
        return None
    return _delivering(seat, plan)[0] + [M.EndTurn()]


def rescue_loan(state: State, seat: int) -> list[M.Move] | None:
    """The turn that takes a Loan when the seat has no oil and less money than the cheapest
    Crude (:func:`cheapest_crude`), with two Rounds left after this one to spend it (buy Crude,
    then refine and sell): nothing else it can do earns again (rulebook, "Contracts & Loans":
    $15 and a Penalty marker). Traced, such a seat took an empty Action every turn for two
    Years (``docs/bots.md``); a sample a turn or two long counts the Penalty and not the
    refining the $15 buys."""
    player = state.players[seat]
    left, _in_year = rounds_left(state, turn_done=False)
    if any(any(row) for row in player.oil) or left < 3 or player.money >= cheapest_crude(state):
        return None
    action = _action_to_begin(state, _CONTRACTS)
    if action is None:
        return None
    st = clone_state(state)
    moves: list[M.Move] = [action]
    apply_trusted(st, action)
    if M.TakeLoan() not in legal_moves(st):
        return None
    for move in (M.TakeLoan(), M.EndAction()):
        apply_trusted(st, move)
        moves.append(move)
    finish_turn(st, seat, moves, EXPERT)
    return moves + [M.EndTurn()]


def candidate_plans(state: State, seat: int) -> list[list[M.Move]]:
    """The turn plans worth sampling, each ending the turn: the heuristic's best
    :data:`TOP_PLANS` (completed with ``evaluate``, as the search bot's), then a plan that buys a
    Machine (:func:`machine_plan`) and one that takes the Contract it can best fill
    (:func:`contract_plan`), when they differ from those."""
    return _candidates(state, seat, machine_plan(state, seat))


def _candidates(state: State, seat: int, machine: Plan | None) -> list[list[M.Move]]:
    """:func:`candidate_plans` with the Machine plan already made. Plans that end the turn in
    the same position are one candidate: when nothing pays, the heuristic's best plans are often
    the same empty Action on different spaces, and sampling them alike left the turns that did
    something out of the race, so the next distinct plans take their places."""
    out: list[list[M.Move]] = []
    seen: set[bytes] = set()
    ranked = turn_plans(state, seat)
    by_value = turn_plans(state, seat, judge=EXPERT)
    extras = [plan for plan in (machine, contract_plan(state, seat)) if plan is not None]
    for plans, wanted in ((ranked, TOP_PLANS), (by_value, VALUE_PLANS), (extras, len(extras))):
        taken = 0
        for plan in plans:
            if taken == wanted:
                break
            moves, end = _delivering(seat, plan)
            key = _outcome(end)
            if key not in seen:
                seen.add(key)
                out.append(moves + [M.EndTurn()])
                taken += 1
    return out


_BLANK_TURN = TurnState()
_ENCODE = msgspec.msgpack.Encoder().encode


def _outcome(state: State) -> bytes:
    """The position a plan leaves, but for where the turn stands and the workers stand (which
    Action space was used: nothing reads it once the turn ends): plans with the same outcome play
    out alike."""
    players = [msgspec.structs.replace(player, worker="") for player in state.players]
    return _ENCODE(msgspec.structs.replace(state, turn=_BLANK_TURN, players=players))


def _delivering(seat: int, plan: Plan) -> tuple[list[M.Move], State]:
    """The plan's moves, then every delivery and Order that :func:`value` gains by before the
    turn ends (rulebook, "Fulfilling Contracts and Orders": at any time in the Work and Machine
    Phases), and the position they reach, from a copy of the position the plan reached.
    ``evaluate`` counts a barrel that fills a held Contract at nearly its pay, so the
    heuristic's plans often keep it; a delivered barrel is paid now and cannot end in a Penalty."""
    assert plan.state is not None  # every plan of the heuristic's and of this module has one
    st = clone_state(plan.state)
    out = list(plan.moves)
    fulfil(st, seat, out, EXPERT)
    return out, _machine_phase(st, seat, out)


def _machine_phase(state: State, seat: int, out: list[M.Move]) -> State:
    """The position after the Machine Phase, run (its moves added to ``out``) when what it
    refines sells for more than it costs (rulebook, "Machine Phase": one payment runs every
    attached Pipeline, without an Action), else ``state`` as it was. ``evaluate`` already counts
    Crude a Pipeline can refine at most of the grade it reaches, as if refining were free, so
    judged by it a Machine Phase rarely paid its $15: traced, an expert owning a Machine that
    netted $25 a Phase ran it in 2 of its 13 turns and spent its Main Actions on running its
    Pipe Network instead. Here the refining is counted at sale prices (``evaluate.SALE``)."""
    if state.over or _RUN_MACHINES not in legal_moves(state):
        return state
    st = clone_state(state)
    done: list[M.Move] = [_RUN_MACHINES]
    apply_trusted(st, _RUN_MACHINES)
    complete_action(st, seat, done, EXPERT)
    before, after = state.players[seat], st.players[seat]
    gain = after.money - before.money
    for grade in range(4):
        for colour in range(3):
            gain += SALE[grade] * (after.oil[grade][colour] - before.oil[grade][colour])
    if gain <= 0:
        return state
    fulfil(st, seat, done, EXPERT)
    out += done
    return st


def _rollout(state: State, seat: int, moves: list[M.Move], deal: int) -> float:
    """One sample of a plan on the deal numbered ``deal`` (the hidden stacks drawn from it, so
    every plan of a round meets the same deal): the plan, then every rival's next turn and the
    seat's own, :data:`OWN_TURNS` times, as the heuristic plays them
    (:func:`~pipeline_tui.ai.search.play_sample`), scored by :func:`sample_score`."""
    return sample_score(play_sample(state, seat, moves, random.Random(deal), OWN_TURNS), seat)


def plan_turn(
    state: State, seat: int, rng: random.Random, seconds: float | None = None, samples: int | None = None
) -> list[M.Move]:
    """The chosen plan's moves, ending the turn. Each round draws one deal of the hidden stacks
    and plays every plan still in the race on it (common deals: plans are compared on the same
    cards, so a lucky draw favours none); after each round the worse half is dropped, down to
    :data:`FINALISTS`. ``samples`` is the number of rounds (reproducible); otherwise a round is
    begun only if it should end within ``seconds`` of the start, judged by the last round, at
    most :data:`MAX_ROUNDS`; and should the first round run out of time, the plans it has not
    sampled yet drop out (the heuristic's best come first), so a slow position keeps to the
    budget but for one sample. The default budget is :data:`DEFAULT_SECONDS` for each rival: a
    sample plays every rival's turns, so at 4 players 1 s left time for 1 to 4 samples, and the
    heuristic's best plan was mostly played unsampled (``docs/bots.md``)."""
    if state.turn.stage == Stage.SETUP:
        return [setup_move(state)]
    started = time.perf_counter()
    machine = machine_plan(state, seat)
    first = first_machine(state, seat, machine) or rescue_loan(state, seat)
    if first is not None:
        return first
    arms = _candidates(state, seat, machine)
    if len(arms) == 1:
        return arms[0]
    rounds = samples if samples is not None else MAX_ROUNDS
    budget = seconds or DEFAULT_SECONDS * max(1, len(state.players) - 1)
    deadline = None if samples is not None else started + budget
    totals = [0.0] * len(arms)
    alive = list(range(len(arms)))
    next_round = 0.0  # the expected time of the next round, from the last one
    for _ in range(rounds):
        if deadline is not None and next_round and time.perf_counter() + next_round > deadline:
            break
        begun = time.perf_counter()
        deal = rng.getrandbits(64)
        sampled: list[int] = []
        for arm in alive:
            if deadline is not None and sampled and not next_round and time.perf_counter() > deadline:
                break  # the first round, out of time: the plans not yet sampled drop out
            totals[arm] += _rollout(state, seat, arms[arm], deal)
            sampled.append(arm)
        alive = sampled
        alive.sort(key=lambda a: -totals[a])
        kept = alive[: max(FINALISTS, math.ceil(len(alive) / 2))]
        next_round = (time.perf_counter() - begun) * len(kept) / len(alive)
        alive = kept
    return arms[alive[0]]
