"""The heuristic bot: it values whole turn plans and plays the best one.

At the start of a turn it lists candidate plans, one per Main Action worth trying (each cross
space, the most promising Government tiles and network tiles, Machines I runs, passing). Each
Main Action is completed greedily on a clone: at every step of the Action it plays the step that
raises :func:`~pipeline_tui.ai.evaluate.evaluate` most (what to buy or sell, which tiles to buy and
where to place them, what to refine, which Contracts to take, which Upgrades), and stops when
nothing helps. Then come a Secondary (or second Main) Action when one helps, deliveries and
Orders, the Turn Order place, the Machine Phase. The plan whose final position is worth most
wins. Pipe tiles are placed where they lengthen same-colour Pipelines most.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from ..data import components as C
from ..engine import moves as M
from ..engine import (
    DIRS,
    ROT_DIRS,
    GrantKind,
    Pipeline,
    Stage,
    State,
    apply_trusted,
    clone_state,
    government_adjacency,
    highest_grade_from_crude,
    legal_moves,
    legal_placements,
    market_price,
    market_row_index,
    network_map,
    rotated_halves,
)
from .evaluate import FIRST_PIPELINE, SALE, evaluate, loan_premium, rounds_left

Value = Callable[..., float]  # evaluate's signature: (state, seat, turn_done=True) -> dollars
Costs = tuple[tuple[int, int, int], ...]  # the Refinement Costs, per colour
Halves = tuple[tuple[tuple[int, int, int], ...], ...]  # a turned tile's paths, per half

EPS = 0.5  # a step must gain at least this much to be taken
MAX_STEPS = 60  # safety bound on the steps of one Action


@dataclass
class Plan:
    """A turn plan: its moves from the start state and the worth of the position it reaches."""

    moves: list[M.Move] = field(default_factory=list)
    value: float = float("-inf")
    state: State | None = None


# --- Placing tiles and Machines ----------------------------------------------------------------


@lru_cache(maxsize=4096)
def _worth(costs: tuple[int, int, int], value: int) -> float:
    """What a Pipeline of this Refinement Value is worth when placing tiles, given the
    Refinement Costs of its colour: the grade it reaches and its progress to the next one."""
    steps = (0, costs[0], costs[0] + costs[1], costs[0] + costs[1] + costs[2])
    reach = max(g for g in range(4) if steps[g] <= value)
    worth: float = C.END_PIPELINE_VALUE[reach] * 2 + (SALE[reach] - SALE[0] if reach else 0)
    if reach < 3:
        progress = (value - steps[reach]) / max(1, steps[reach + 1] - steps[reach])
        worth += 0.5 * (SALE[reach + 1] - SALE[reach]) * progress
    return worth + 0.3 * value


def tile_gain(eng: int, costs: Costs, turn: Turned, joins: list[tuple[int, Pipeline]], first: float) -> float:
    """How much placing a tile lengthens the player's Pipelines, without tracing anew;
    ``costs`` are the Refinement Costs per colour, as tuples. ``turn`` is the tile as turned
    (:func:`turned`); ``joins`` pairs each of its path ends that meets a Pipeline already laid
    with that Pipeline, in the order of its ports. ``first`` is the progress of the player's
    nearest Pipeline to refining Crude (:func:`first_progress`); below 1.0 the tile's part of
    that way counts too. The tile's four Segments are the nodes 0-3 (half * 2 + path), the
    Pipelines they meet the next ones, joined by union-find."""
    parent = [0, 1, 2, 3]
    colours: list[int] = list(turn.colours)  # per node: its colour
    olds: dict[object, int] = {}  # Pipeline key -> node
    pipes: dict[int, Pipeline] = {}  # node -> the Pipeline laid before

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for me, mine in turn.inside:
        ra, rb = find(me), find(mine)
        if ra != rb:
            parent[ra] = rb
    for me, old in joins:
        node = olds.get(old.key)
        if node is None:
            node = olds[old.key] = len(parent)
            parent.append(node)
            colours.append(old.colour)
            pipes[node] = old
        ra, rb = find(me), find(node)
        if ra != rb:
            parent[ra] = rb
    groups: dict[int, list[int]] = {}
    for node in range(len(parent)):
        groups.setdefault(find(node), []).append(node)
    gain = 0.0
    nearest = first
    per_four = 2 if eng >= 2 else (1 if eng >= 1 else 0)
    for nodes in groups.values():
        new_segments = sum(1 for n in nodes if n < 4)
        old_lines = [pipes[n] for n in nodes if n >= 4]
        colour = colours[nodes[0]]
        segments = new_segments + sum(p.segments for p in old_lines)
        merged = segments + per_four * (segments // 4)
        gain += _worth(costs[colour], merged)
        gain -= sum(_worth(costs[p.colour], p.value(eng)) for p in old_lines)
        if first < 1.0:
            nearest = max(nearest, min(1.0, merged / costs[colour][0]))
    return gain + FIRST_PIPELINE * (nearest - first)


@dataclass(frozen=True, slots=True)
class Turned:
    """A tile as turned for placing: its Segments' colours (nodes 0-3: half * 2 + path), the
    pairs of them that meet inside the tile, and its ports: the path ends facing outside it,
    each as (node, offset of the neighbouring cell from half A's cell, the neighbour's edge
    facing back, colour)."""

    colours: tuple[int, int, int, int]
    inside: tuple[tuple[int, int], ...]
    ports: tuple[tuple[int, int, int, int, int], ...]


@lru_cache(maxsize=1024)
def turned(halves: Halves, rot: int) -> Turned:
    """The tile whose turned halves (as ``rotated_halves`` gives them) are ``halves``, turned
    ``rot`` (:class:`Turned`), worked out once for :func:`best_placement` to try on every cell."""
    other = ROT_DIRS[rot]
    inside = []
    ports = []
    for half, (ox, oy) in ((0, (0, 0)), (1, other)):
        facing = other if half == 0 else (0, 0)
        for k in (0, 1):
            e1, e2, colour = halves[half][k]
            for edge in (e1, e2):
                dx, dy = DIRS[edge]
                back = (edge + 2) % 4
                if (ox + dx, oy + dy) == facing:
                    there = halves[1 - half]
                    k2 = 0 if back in (there[0][0], there[0][1]) else 1
                    if there[k2][2] == colour:
                        inside.append((half * 2 + k, (1 - half) * 2 + k2))
                    continue
                ports.append((half * 2 + k, ox + dx, oy + dy, back, colour))
    colours = (halves[0][0][2], halves[0][1][2], halves[1][0][2], halves[1][1][2])
    return Turned(colours, tuple(inside), tuple(ports))


def first_progress(state: State, pipelines: Iterable[Pipeline], eng: int) -> float:
    """How near the player's nearest Pipeline is to refining Crude (1.0 once one does), as
    ``evaluate`` counts it: until then, the tile that brings one nearest is the one to place."""
    costs = state.refinement_costs
    return max((min(1.0, p.value(eng) / costs[p.colour][0]) for p in pipelines), default=0.0)


_PLACEMENTS: dict[tuple[object, ...], tuple[float, M.PlaceTile]] = {}
# tile_gain by its inputs, a pure function of them: per (Engineering, Refinement Costs, progress to
# a first refining Pipeline), by the tile as turned and (port, key, colour, segments) of each
# Pipeline it joins. A network one tile apart from one already weighed mostly offers the same
# joins: in 4-player rollouts that weigh pairs of shop Pipe tiles, 82% of the calls repeated one.
_GAINS: dict[tuple[object, ...], dict[tuple[object, ...], float]] = {}


def best_placement(state: State, seat: int, tile_id: int) -> tuple[float, M.PlaceTile]:
    """Where a tile lengthens the player's Pipelines most, and by how much (cached by network)."""
    player = state.players[seat]
    eng = player.level("ENG")
    costs: Costs = tuple((a, b, c) for a, b, c in state.refinement_costs)
    key = (tuple(player.tiles), tuple(player.machines), tile_id, eng, costs)
    found = _PLACEMENTS.get(key)
    if found is not None:
        return found
    best: tuple[float, M.PlaceTile] | None = None
    net = network_map(player)
    first = first_progress(state, net.pipelines, eng)
    turns = [turned(rotated_halves(tile_id, rot), rot) for rot in range(4)]
    gains_key = (eng, costs, first)
    gains = _GAINS.get(gains_key)
    if gains is None or len(gains) > 20000:
        if len(_GAINS) > 64:
            _GAINS.clear()
        gains = _GAINS[gains_key] = {}
    alone: list[float | None] = [None] * 4  # per turn, the gain of a tile that joins nothing
    cell_map, machines, segment_pipeline = net.cells, net.machines, net.segment_pipeline
    for x, y, rot in legal_placements(net.cells):
        turn = turns[rot]
        joins: list[tuple[int, Pipeline]] = []
        for me, dx, dy, back, colour in turn.ports:
            n = (x + dx, y + dy)
            entry = cell_map.get(n)
            if entry is not None and n not in machines:
                npaths = entry[1]
                k2 = 0 if back in (npaths[0][0], npaths[0][1]) else 1
                if npaths[k2][2] == colour:
                    joins.append((me, segment_pipeline[(n[0], n[1], k2)]))
        if joins:
            sig = (tile_id, rot, tuple([(me, p.key, p.colour, p.segments) for me, p in joins]))
            known = gains.get(sig)
            if known is None:
                known = gains[sig] = tile_gain(eng, costs, turn, joins, first)
            gain = known
        else:  # joins nothing: the same gain wherever it lies
            lone = alone[rot]
            if lone is None:
                lone = alone[rot] = tile_gain(eng, costs, turn, joins, first)
            gain = lone
        if best is None or gain > best[0] + 1e-9:
            best = (gain, M.PlaceTile(x=x, y=y, rot=rot))
    assert best is not None
    if len(_PLACEMENTS) > 20000:
        _PLACEMENTS.clear()
    _PLACEMENTS[key] = best
    return best


Place = Callable[[State, int, int], tuple[float, M.PlaceTile]]  # best_placement's signature


@dataclass(frozen=True, slots=True)
class Judge:
    """How a plan is completed: ``value`` rates positions (``evaluate``'s signature) and ``place``
    says where a Pipe tile goes and what that is worth (:func:`best_placement`'s). The expert
    bot completes plans with its own of both; the heuristic's are the defaults."""

    value: Value = evaluate
    place: Place = best_placement


HEURISTIC = Judge()


# --- Forced steps: tiles and Machines in hand, upgrade grants ----------------------------------


def _play(state: State, move: M.Move, out: list[M.Move]) -> None:
    apply_trusted(state, move)
    out.append(move)


def _forced_move(state: State, seat: int, judge: Judge = HEURISTIC) -> M.Move:
    """The step to take when a tile, Machine or grant must be dealt with first."""
    t = state.turn
    if t.hand_tile >= 0:
        return judge.place(state, seat, t.hand_tile)[1]
    legal = legal_moves(state)
    if t.hand_machine:
        return _best_by_eval(state, seat, legal, judge)[1]
    kind = t.grants[0].kind
    options = [m for m in legal if not isinstance(m, M.Decline)]
    if not options:
        return legal[-1]
    if kind in (GrantKind.GOV, GrantKind.PIPE):
        return max(options, key=lambda m: best_placement(state, seat, _granted_tile(state, m))[0])
    return _best_by_eval(state, seat, options, judge)[1]


def _granted_tile(state: State, move: M.Move) -> int:
    """The Pipe tile a grant's choice takes: a Government tile or a shop Pipe tile."""
    if isinstance(move, M.TakeGovernmentTile):
        return state.government[move.quadrant][move.space]
    assert isinstance(move, M.TakePipe), move
    return state.shop_pipes[C.SHOPS.index(move.shop)][move.index]


def resolve(state: State, seat: int, out: list[M.Move], judge: Judge = HEURISTIC) -> None:
    """Deal with whatever is in hand or due, in place."""
    t = state.turn
    while not state.over and t.player == seat and (t.hand_tile >= 0 or t.hand_machine or t.grants):
        _play(state, _forced_move(state, seat, judge), out)
        t = state.turn


def _after(state: State, seat: int, move: M.Move, judge: Judge = HEURISTIC) -> tuple[State, list[M.Move]]:
    c = clone_state(state)
    done: list[M.Move] = []
    _play(c, move, done)
    resolve(c, seat, done, judge)
    return c, done


def _best_by_eval(
    state: State, seat: int, moves: list[M.Move], judge: Judge = HEURISTIC
) -> tuple[float, M.Move]:
    best: tuple[float, M.Move] | None = None
    for move in moves:
        c, _ = _after(state, seat, move, judge)
        v = judge.value(c, seat, turn_done=False)
        if best is None or v > best[0] + 1e-9:
            best = (v, move)
    assert best is not None
    return best


# --- Completing an Action greedily -------------------------------------------------------------


def _action_options(state: State, legal: list[M.Move]) -> list[M.Move]:
    """The steps of the Action in progress worth evaluating (cheapest buys, dearest sales)."""
    player = state.players[state.turn.player]
    buys: dict[str, tuple[int, M.Move]] = {}
    sells: dict[tuple[str, int, int], tuple[int, M.Move]] = {}
    out: list[M.Move] = []
    row_index = market_row_index(state)
    for m in legal:
        if type(m) is M.Buy:
            price = market_price(state, player, row_index[m.row], m.slot)
            if m.row not in buys or price < buys[m.row][0]:
                buys[m.row] = (price, m)
        elif type(m) is M.Sell:
            price = market_price(state, player, row_index[m.row], m.slot)
            key = (m.row, m.colour, m.grade)
            if key not in sells or price > sells[key][0]:
                sells[key] = (price, m)
        elif type(m) in (M.EndAction, M.FlipToken):
            continue
        elif type(m) is M.BuyTank:
            grade = m.grade
            if not any(o for o in out if type(o) is M.BuyTank and o.grade == grade):
                out.append(m)
        else:
            out.append(m)
    return [m for _, m in sells.values()] + [m for _, m in buys.values()] + out


def _next_pipe_free(state: State) -> bool:
    """Whether the shop Pipe tile after the next one comes at no extra cost (rulebook, "Tanks &
    Pipes": $15 buys up to 2 tiles, $40 up to 4)."""
    costs = C.SHOP_PIPE_COSTS
    bought = state.turn.pipes_bought
    return bought + 2 in costs and costs[bought + 2] == costs[bought + 1]


def _with_free_pipe(
    state: State, seat: int, alone: float, done: list[M.Move], judge: Judge
) -> tuple[float, list[M.Move]]:
    """The best of a shop Pipe tile bought alone (worth ``alone``, by ``done``) and with the
    tile its price already pays for: weighed one at a time, the first tile of a pair bore the
    whole $15, so a network two tiles from refining was never extended."""
    best, moves = alone, done
    for follow in legal_moves(state):
        if type(follow) is M.BuyPipe:
            c, more = _after(state, seat, follow, judge)
            v = judge.value(c, seat, turn_done=False)
            if v > best:
                best, moves = v, done + more
    return best, moves


def complete_action(state: State, seat: int, out: list[M.Move], judge: Judge = HEURISTIC) -> None:
    """Play the Action in progress step by step, each the most valuable, then end it."""
    for _ in range(MAX_STEPS):
        if state.turn.stage != Stage.ACTION or state.turn.player != seat:
            return
        resolve(state, seat, out, judge)
        legal = legal_moves(state)
        options = _action_options(state, legal)
        base = judge.value(state, seat, turn_done=False)
        best_value, best_moves = base + EPS, None
        for move in options:
            c, done = _after(state, seat, move, judge)
            v = judge.value(c, seat, turn_done=False)
            if type(move) is M.BuyPipe and _next_pipe_free(state):
                v, done = _with_free_pipe(c, seat, v, done, judge)
            elif type(move) is M.TakeLoan:  # its cash counts at face value (evaluate.loan_premium)
                v -= loan_premium(state, seat)
            if v > best_value:
                best_value, best_moves = v, done
        if best_moves is None:
            _play(state, M.EndAction(), out)
            return
        for move in best_moves:
            _play(state, move, out)
    if state.turn.stage == Stage.ACTION:
        _play(state, M.EndAction(), out)


def fill_due(state: State, seat: int, out: list[M.Move]) -> None:
    """In the last Round of a Year, fill every held Contract that the barrels in hand complete
    (rulebook, "Refresh Phase": an incomplete Contract is removed with a Penalty marker).
    ``evaluate`` credits a barrel that covers a need at nearly its pay, and an oil Valuation
    card may count it too, so one delivery at a time never looked better than keeping the
    barrels, and traced heuristic seats took that Penalty holding the barrels for it."""
    if state.over or rounds_left(state, turn_done=False)[1] != 1:
        return
    due = sorted({m.contract for m in legal_moves(state) if type(m) is M.Deliver})
    for index in due:  # a copy only for a Contract that takes a barrel now
        trial = clone_state(state)
        done: list[M.Move] = []
        while True:
            delivers = [m for m in legal_moves(trial) if type(m) is M.Deliver and m.contract == index]
            if not delivers:
                break
            move = min(delivers, key=lambda m: (m.need, m.grade))  # the lowest grade that serves
            apply_trusted(trial, move)
            done.append(move)
        if (
            trial.players[seat].contracts[index].completions
            > state.players[seat].contracts[index].completions
        ):
            for step in done:
                _play(state, step, out)


def fulfil(state: State, seat: int, out: list[M.Move], judge: Judge = HEURISTIC) -> None:
    """Deliver to Contracts and fulfil Orders while that gains, after :func:`fill_due`."""
    fill_due(state, seat, out)
    for _ in range(MAX_STEPS):
        legal = [m for m in legal_moves(state) if type(m) in (M.Deliver, M.FulfilOrder)]
        if not legal:
            return
        base = judge.value(state, seat, turn_done=False)
        v, move = _best_by_eval(state, seat, legal, judge)
        if v <= base + EPS:
            return
        _play(state, move, out)
        resolve(state, seat, out, judge)


def _machine_phase(state: State, seat: int, out: list[M.Move], judge: Judge = HEURISTIC) -> None:
    if M.RunMachines() not in legal_moves(state):
        return
    c = clone_state(state)
    done: list[M.Move] = []
    _play(c, M.RunMachines(), done)
    complete_action(c, seat, done, judge)
    fulfil(c, seat, done, judge)
    if judge.value(c, seat) > judge.value(state, seat) + EPS:
        for move in done:
            _play(state, move, out)


def finish_turn(state: State, seat: int, out: list[M.Move], judge: Judge = HEURISTIC) -> None:
    """After the Actions: deliveries, Turn Order, Machine Phase, end of turn."""
    resolve(state, seat, out, judge)
    fulfil(state, seat, out, judge)
    legal = legal_moves(state)
    if M.ChooseTurnOrder(position=0) in legal:
        _play(state, M.ChooseTurnOrder(position=0), out)
    if state.turn.stage == Stage.WORK and state.turn.mains == 0:
        _play(state, M.Pass(), out)
    _machine_phase(state, seat, out, judge)
    fulfil(state, seat, out, judge)


# --- Candidate Main Actions --------------------------------------------------------------------


def _run_score(state: State, seat: int, pipelines: Iterable[Pipeline]) -> float:
    player = state.players[seat]
    score = 0.0
    for p in pipelines:
        reach = highest_grade_from_crude(state, p.colour, p.value(player.level("ENG")))
        for grade in range(reach):
            if player.oil[grade][p.colour] and player.free_space(reach) > 0:
                score += SALE[reach] - SALE[grade]
                break
    return score


def main_candidates(state: State, seat: int, legal: list[M.Move], wide: bool = True) -> list[M.Move]:
    """The Main Actions worth planning: each cross space, the best Government spaces per open
    quadrant, the network tiles and Machines that can refine most, and passing."""
    out: list[M.Move] = [m for m in legal if type(m) is M.Action]
    gov = [m for m in legal if type(m) is M.Government]
    if gov:
        adjacency = government_adjacency(state)

        def gov_score(m: M.Government) -> float:
            quadrant = state.government[m.quadrant]
            extra = sum(1 for s in adjacency[m.space] if quadrant[s] >= 0)
            return best_placement(state, seat, quadrant[m.space])[0] + 5 * extra

        gov.sort(key=gov_score, reverse=True)
        out.extend(gov[: 2 if wide else 1])
    net = network_map(state.players[seat])
    runs: list[tuple[float, M.Move]] = []
    for m in legal:
        match m:
            case M.RunNetwork():
                tile = net.tile_of((m.x, m.y))
                assert tile is not None  # a legal run is on a tile of the network
                runs.append(
                    (_run_score(state, seat, [p for p in net.through_tile(tile) if not p.machines]), m)
                )
            case M.RunMachine():
                runs.append((_run_score(state, seat, net.attached_to((m.x, m.y))), m))
    seen_scores: set[float] = set()
    runs.sort(key=lambda r: -r[0])
    for score, m in runs:
        if score > 0 and score not in seen_scores and len(seen_scores) < (2 if wide else 1):
            seen_scores.add(score)
            out.append(m)
    if M.Pass() in legal:
        out.append(M.Pass())
    return out


def take_main(state: State, seat: int, move: M.Move, out: list[M.Move], judge: Judge = HEURISTIC) -> None:
    """Take a Main (or Secondary) Action and complete it greedily, then deliver."""
    _play(state, move, out)
    resolve(state, seat, out, judge)
    complete_action(state, seat, out, judge)
    fulfil(state, seat, out, judge)


def turn_plans(state: State, seat: int, wide: bool = True, judge: Judge = HEURISTIC) -> list[Plan]:
    """Every candidate plan for the turn starting (or resumed) at ``state``, best first. Each
    plan ends just before its End Turn move (added by :func:`plan_turn`). ``judge`` rates
    positions and lays tiles (the expert bot passes its own)."""
    start = clone_state(state)
    prefix: list[M.Move] = []
    resolve(start, seat, prefix, judge)
    if start.turn.stage == Stage.ACTION:
        complete_action(start, seat, prefix, judge)
    legal = legal_moves(start)
    firsts: list[Plan] = []
    mains = (
        main_candidates(start, seat, legal, wide)
        if start.turn.stage == Stage.WORK and not start.turn.mains
        else []
    )
    for move in mains:
        st = clone_state(start)
        moves = list(prefix)
        if type(move) is not M.Pass:
            take_main(st, seat, move, moves, judge)
        firsts.append(Plan(moves, judge.value(st, seat, turn_done=False), st))
    if not mains:
        firsts.append(Plan(list(prefix), judge.value(start, seat, turn_done=False), start))
    firsts.sort(key=lambda p: -p.value)
    plans: list[Plan] = []
    for rank, plan in enumerate(firsts):
        assert plan.state is not None  # made above, each with its state
        options = [plan]
        if rank < (3 if wide else 1) and plan.state.turn.stage == Stage.WORK:
            for extra in legal_moves(plan.state):
                if type(extra) in (M.Secondary, M.Action):
                    st = clone_state(plan.state)
                    moves = list(plan.moves)
                    take_main(st, seat, extra, moves, judge)
                    options.append(Plan(moves, judge.value(st, seat, turn_done=False), st))
        for option in options:
            assert option.state is not None
            st = clone_state(option.state)
            moves = list(option.moves)
            finish_turn(st, seat, moves, judge)
            plans.append(Plan(moves, judge.value(st, seat, turn_done=True), st))
    plans.sort(key=lambda p: -p.value)
    return plans


def setup_move(state: State) -> M.Move:
    """Starting Tanks as the rulebook recommends: 2 Crude, then Low, Mid and High."""
    placed = state.turn.setup_placed
    return M.PlaceStartingTank(grade=(0, 0, 1, 2, 3)[placed])


def plan_turn(state: State, seat: int, wide: bool = True) -> list[M.Move]:
    """The best plan's moves, ending the turn."""
    if state.turn.stage == Stage.SETUP:
        return [setup_move(state)]
    plan = turn_plans(state, seat, wide)[0]
    return plan.moves + [M.EndTurn()]
