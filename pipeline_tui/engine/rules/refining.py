"""The Pipe Network and Refining (rulebook "Pipe Network", "Government", "Refining"): Government
Pipe tiles, placing Pipe tiles, running a Pipe Network and refining barrels through Pipelines."""

from __future__ import annotations

from ...data import components as C
from .. import moves as M
from ..network import Pipeline, placement_codes, placement_codes_grown, placement_of, placement_ok
from ...i18n import N_, _, ngettext
from ..state import State
from .base import (
    A,
    begin_main_action,
    current,
    government_adjacency,
    in_action,
    main_action_ok,
    network,
)

RUN_ACTIONS = (A.NETWORK, A.MACHINE, A.MACHINES_PHASE, A.MACHINES_EARLY)


def refine_cost(state: State, colour: int, from_grade: int, to_grade: int) -> int:
    """Sum of the Refinement Cost markers for each step (rulebook "Refinement Costs")."""
    return sum(state.refinement_costs[colour][from_grade:to_grade])


def highest_grade_from_crude(state: State, colour: int, value: int) -> int:
    """The best grade one run of a Pipeline with this value takes a Crude barrel to (0 = none)."""
    best = 0
    for grade in (1, 2, 3):
        if refine_cost(state, colour, 0, grade) <= value:
            best = grade
    return best


def quadrant_takeable(state: State, quadrant: int, grant: bool) -> bool:
    """Government quadrants: at most 2 open in Year 1, 3 in Year 2, all in Year 3. A grant may
    open a new one only if none was opened this Year (Government upgrade); in Year 3 all four
    are declared open, so a grant takes from any."""
    if state.government_opened[quadrant]:
        return True
    open_count = sum(1 for y in state.government_opened if y)
    limit = C.GOVERNMENT_OPEN_LIMIT[state.year - 1]
    if open_count >= limit:
        return False
    if limit >= C.GOVERNMENT_QUADRANTS:
        return True
    if grant and any(y == state.year for y in state.government_opened):
        return False
    return True


def take_government_tile(state: State, quadrant: int, space: int) -> None:
    """Take a Government Pipe tile into hand; its quadrant is open from this Year on."""
    if not state.government_opened[quadrant]:
        state.government_opened[quadrant] = state.year
    state.turn.hand_tile = state.government[quadrant][space]
    state.government[quadrant][space] = -1


def gov_step_cost(bought: int) -> int:
    """Cost of the next Government tile when ``bought`` were already bought in this Action."""
    return C.GOVERNMENT_COSTS[bought + 1] - C.GOVERNMENT_COSTS.get(bought, 0)


def run_scope(state: State) -> list[Pipeline]:
    """The Pipelines the run in progress may use (a list shared between calls: read it only)."""
    t = state.turn
    net = network(current(state))
    match t.action:
        case A.NETWORK:
            tile = net.tile_of((t.run_x, t.run_y))
            if tile is None:
                return []
            # the same for every listing of the run: kept with the (never changed) map
            key = f"run scope {tile}"
            scope = net.derived.get(key)
            if scope is None:
                scope = net.derived[key] = [p for p in net.through_tile(tile) if not p.machines]
            return scope
        case A.MACHINE:
            key = f"machine scope {t.run_x},{t.run_y}"
            scope = net.derived.get(key)
            if scope is None:
                scope = net.derived[key] = net.attached_to((t.run_x, t.run_y))
            return scope
        case A.MACHINES_PHASE | A.MACHINES_EARLY:
            scope = net.derived.get("machines scope")
            if scope is None:
                scope = net.derived["machines scope"] = net.attached()
            return scope
    return []


# --- Checks -----------------------------------------------------------------------------------


def check_government(state: State, m: M.Government) -> str | None:
    why = main_action_ok(state)
    if why:
        return why
    if not (0 <= m.quadrant < 4 and 0 <= m.space < 8):
        return _("Government: no such space")
    if state.government[m.quadrant][m.space] < 0:
        return _("Government: that space is empty")
    if not quadrant_takeable(state, m.quadrant, grant=False):
        return _("Government: only {n} quadrants may be open in Year {year}").format(
            n=C.GOVERNMENT_OPEN_LIMIT[state.year - 1], year=state.year
        )
    if current(state).money < C.GOVERNMENT_COSTS[1]:
        return _("Government: a tile costs ${cost}").format(cost=C.GOVERNMENT_COSTS[1])
    return None


def check_buy_government(state: State, m: M.BuyGovernmentTile) -> str | None:
    why = in_action(state, (A.GOVERNMENT,), N_("Government: more tiles only during a Government Action"))
    if why:
        return why
    t = state.turn
    if t.gov_bought >= 5:
        return _("Government: at most 5 tiles per Action")
    if not 0 <= m.space < 8 or m.space not in government_adjacency(state)[t.gov_space]:
        return _("Government: extra tiles must share an edge with the tile under your worker")
    if state.government[t.gov_quadrant][m.space] < 0:
        return _("Government: that space is empty")
    cost = gov_step_cost(t.gov_bought)
    if current(state).money < cost:
        n = t.gov_bought + 1
        message = ngettext("Government: {n} tile costs ${cost}", "Government: {n} tiles cost ${cost}", n)
        return message.format(n=n, cost=C.GOVERNMENT_COSTS[n])
    return None


def check_run_network(state: State, m: M.RunNetwork) -> str | None:
    why = main_action_ok(state)
    if why:
        return why
    if network(current(state)).tile_of((m.x, m.y)) is None:
        return _("Running your Pipe Network: your worker must stand on one of your Pipe tiles")
    return None


def check_place_tile(state: State, m: M.PlaceTile) -> str | None:
    if state.turn.hand_tile < 0:
        return _("Pipe Network: you have no Pipe tile to place")
    if not 0 <= m.rot <= 3:
        return _("Pipe Network: rotations are r0 to r3")
    return placement_ok(network(current(state)).cells, m.x, m.y, m.rot)


def check_refine(state: State, m: M.Refine) -> str | None:
    why = in_action(state, RUN_ACTIONS, N_("Refining: only while running your Pipe Network or Machines"))
    if why:
        return why
    t = state.turn
    pipeline = next((p for p in run_scope(state) if p.key == (m.x, m.y, m.k)), None)
    if pipeline is None:
        return _("Refining: that Pipeline is not part of this run")
    player = current(state)
    used = [r for r in t.runs if (r[0], r[1], r[2]) == pipeline.key]
    if used:
        if player.level("ENG") < 3 or len(used) >= 2:
            return _("Refining: each Pipeline refines one barrel per run (Engineering III: two)")
        if used[0][3] != m.from_grade:
            return _("Engineering III: both barrels must start at the same grade")
    if not 0 <= m.from_grade < m.to_grade <= 3:
        return _("Refining: oil is refined to a higher grade")
    colour = pipeline.colour
    if player.oil[m.from_grade][colour] - t.fresh[m.from_grade][colour] < 1:
        return _("Refining: you have no such barrel that has not been refined in this run")
    cost = refine_cost(state, colour, m.from_grade, m.to_grade)
    value = pipeline.value(player.level("ENG"))
    if value < cost:
        return _("Refining: the Pipeline's Refinement Value {value} is below the cost {cost}").format(
            value=value, cost=cost
        )
    if player.free_space(m.to_grade) < 1:
        return _("Tank Farm: no free Tank in the target row")
    return None


# --- Effects ----------------------------------------------------------------------------------


def do_government(state: State, m: M.Government) -> None:
    begin_main_action(state, A.GOVERNMENT, f"gov {m.quadrant + 1}.{m.space + 1}")  # as notation counts
    t = state.turn
    player = current(state)
    t.gov_quadrant, t.gov_space, t.gov_bought = m.quadrant, m.space, 1
    player.money -= C.GOVERNMENT_COSTS[1]
    take_government_tile(state, m.quadrant, m.space)


def do_buy_government(state: State, m: M.BuyGovernmentTile) -> None:
    t = state.turn
    current(state).money -= gov_step_cost(t.gov_bought)
    t.gov_bought += 1
    take_government_tile(state, t.gov_quadrant, m.space)


def do_run_network(state: State, m: M.RunNetwork) -> None:
    begin_main_action(state, A.NETWORK, f"run {m.x},{m.y}")
    state.turn.run_x, state.turn.run_y = m.x, m.y


def do_place_tile(state: State, m: M.PlaceTile) -> None:
    t = state.turn
    current(state).tiles.append((t.hand_tile, m.x, m.y, m.rot))
    t.hand_tile = -1


def do_refine(state: State, m: M.Refine) -> None:
    t = state.turn
    player = current(state)
    colour = network(player).cells[(m.x, m.y)][1][m.k][2]  # the Pipeline's key segment's colour
    player.oil[m.from_grade][colour] -= 1
    player.oil[m.to_grade][colour] += 1
    t.fresh[m.to_grade][colour] += 1
    t.runs.append((m.x, m.y, m.k, m.from_grade))


# --- Candidate moves --------------------------------------------------------------------------


def main_moves(state: State) -> list[M.Move]:
    """Main Actions off the cross: a Government tile, or running the Pipe Network from a tile."""
    out: list[M.Move] = []
    for q in range(4):
        for s in range(8):
            if state.government[q][s] >= 0:
                gov = M.Government(quadrant=q, space=s)
                if check_government(state, gov) is None:
                    out.append(gov)
    for x, y in sorted(network(current(state)).cells):
        run = M.RunNetwork(x=x, y=y)
        if check_run_network(state, run) is None:
            out.append(run)
    return out


def government_moves(state: State) -> list[M.Move]:
    """More Government tiles during a Government Action."""
    return [
        m
        for m in (M.BuyGovernmentTile(space=s) for s in government_adjacency(state)[state.turn.gov_space])
        if check_buy_government(state, m) is None
    ]


_PLACE_TILE: dict[int, M.PlaceTile] = {}  # by placement_codes' number: moves are frozen, so shared


def _place_tile(code: int) -> M.PlaceTile:
    x, y, rot = placement_of(code)
    move = _PLACE_TILE[code] = M.PlaceTile(x=x, y=y, rot=rot)
    return move


def place_tile_moves(state: State) -> list[M.Move]:
    """Every place for the Pipe tile in hand (the placement rules decide them all), listed once
    per network (kept with its map, which never changes); grown from the listing of the network
    one tile smaller when it has one."""
    net = network(current(state))
    moves = net.derived.get("place")
    if moves is None:
        parent = net.parent
        before = parent[0].derived.get("place codes") if parent is not None and parent[0].cells else None
        if parent is not None and before is not None:
            codes = placement_codes_grown(before, net.cells, parent[1])
        else:
            codes = placement_codes(net.cells)
        net.derived["place codes"] = codes
        moves = list(map(_PLACE_TILE.get, codes))
        if None in moves:
            moves = [move or _place_tile(code) for move, code in zip(moves, codes)]
        net.derived["place"] = moves
    return list(moves)


def refine_moves(state: State) -> list[M.Move]:
    """Refining during a run, Pipeline by Pipeline."""
    player = current(state)
    out: list[M.Move] = []
    for p in run_scope(state):
        for f in range(3):
            if player.oil[f][p.colour] > 0:
                for to in range(f + 1, 4):
                    move = M.Refine(x=p.key[0], y=p.key[1], k=p.key[2], from_grade=f, to_grade=to)
                    if check_refine(state, move) is None:
                        out.append(move)
    return out
