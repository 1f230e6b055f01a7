"""The rules of Pipeline: what each move requires and what it does.

Every move type has a check (``_check_*``, returning why the move is illegal or ``None``) and an
effect (``_do_*``). :func:`apply_move` runs both; :func:`legal_moves` generates candidates and keeps
those whose check passes, so the two can never disagree. Messages name the rule they enforce
with the rulebook's words (Tank Farm, Contract, Secondary Action, ...).
"""

from __future__ import annotations

from functools import lru_cache

from ...data import components as C
from ...data import editions as E
from .. import moves as M
from ..errors import IllegalMove
from ..network import NetworkMap, build_map, legal_placements, placement_ok
from ..state import Grant, HeldContract, HeldOrder, PlayerState, State, TurnState, clone_state

ICON_ACTIONS = frozenset(C.ACTION_TILES)  # the four action tiles show the Turn Order icon
CROSS_ACTIONS = C.MARKET_ACTIONS + C.ACTION_TILES
RUN_ACTIONS = ("network", "machine", "machines_phase", "machines_early")


# --- Small helpers ----------------------------------------------------------------------------

@lru_cache(maxsize=2048)
def _cached_map(tiles: tuple, machines: tuple) -> NetworkMap:
    return build_map(tiles, machines)


def network(player: PlayerState) -> NetworkMap:
    """The player's Pipe Network, traced (cached by its contents)."""
    return _cached_map(tuple(player.tiles), tuple(player.machines))


def current(state: State) -> PlayerState:
    return state.players[state.turn.player]


def edition(state: State) -> E.Edition:
    """The component tables this game is played with."""
    return E.edition(state.edition)


def market_rows(state: State) -> tuple[C.MarketRow, ...]:
    """The market rows in ``state.markets`` order (edition 2: from the market tiles' layout)."""
    return E.market_rows(state.edition, tuple(state.market_layout), len(state.players))


def market_row_index(state: State) -> dict[str, int]:
    """Market row code (like ``1-OL``) to its index in ``state.markets``."""
    return E.market_row_index(state.edition, tuple(state.market_layout), len(state.players))


def government_adjacency(state: State) -> tuple[frozenset[int], ...]:
    """Per Government space of a quadrant, the spaces sharing an edge with it."""
    return E.government_adjacency(state.edition)


def n_players(state: State) -> int:
    return len(state.players)


def cross_cell(state: State, action: str) -> tuple[int, int]:
    if action in C.MARKET_CELLS:
        return C.MARKET_CELLS[action]
    return C.INNER_CELLS[state.action_tiles.index(action)]


def cross_distance(state: State, a: str, b: str) -> int:
    """Steps along the cross between two spaces (on a plus shape this is the Manhattan distance)."""
    (ax, ay), (bx, by) = cross_cell(state, a), cross_cell(state, b)
    return abs(ax - bx) + abs(ay - by)


def market_price(state: State, player: PlayerState, row_index: int, slot: int) -> int:
    """The price printed above a slot, plus $5 for refined oil with Refined Markets I."""
    row = market_rows(state)[row_index]
    price = row.prices[row.slots[n_players(state)][slot]]
    if row.market != "C" and row.grade > 0 and player.level("RM") >= 1:
        price += C.REFINED_MARKETS_I_BONUS
    return price


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


def _free_cells_for_machine(player: PlayerState) -> list[tuple[int, int]]:
    net = network(player)
    taken = set(map(tuple, player.machines))
    return sorted(c for c in net.cells if c not in taken)


def _pipe_step_cost(bought: int) -> int:
    """Cost of the next shop Pipe tile when ``bought`` were already bought in this Action."""
    return C.SHOP_PIPE_COSTS[bought + 1] - C.SHOP_PIPE_COSTS.get(bought, 0)


def _gov_step_cost(bought: int) -> int:
    return C.GOVERNMENT_COSTS[bought + 1] - C.GOVERNMENT_COSTS.get(bought, 0)


def secondary_cost(player: PlayerState) -> int:
    """A Secondary Action costs $10 (free with Human Resources I)."""
    return 0 if player.level("HR") >= 1 else C.SECONDARY_ACTION_COST


def machines_run_cost(player: PlayerState) -> int:
    """Running all your Machines costs $15 ($5 with Machines II)."""
    return C.MACHINE_RUN_COST_MACHINES_II if player.level("MACH") >= 2 else C.MACHINE_RUN_COST


def price(state: State, move: M.Move) -> int | None:
    """What ``move`` costs the current player now, for the moves with a set price that the move
    itself does not name (a Secondary Action, Government and shop Pipe tiles, running
    Machines); ``None`` for others."""
    player, t = current(state), state.turn
    if isinstance(move, M.Secondary):
        return secondary_cost(player)
    if isinstance(move, M.Government):
        return C.GOVERNMENT_COSTS[1]
    if isinstance(move, M.BuyGovernmentTile):
        return _gov_step_cost(t.gov_bought) if t.gov_bought + 1 in C.GOVERNMENT_COSTS else None
    if isinstance(move, M.BuyPipe):
        return _pipe_step_cost(t.pipes_bought) if t.pipes_bought + 1 in C.SHOP_PIPE_COSTS else None
    if isinstance(move, M.RunMachines):
        return machines_run_cost(player)
    return None


def machines_would_refine(state: State) -> bool:
    """Whether running the current player's Machines now would let them refine a barrel: a run
    that cannot costs its price for nothing."""
    trial = clone_state(state)
    apply_trusted(trial, M.RunMachines())
    return any(isinstance(m, M.Refine) for m in legal_moves(trial))


def _contract_pay(player: PlayerState, grade: int, kind: str) -> int:
    pay = C.CONTRACT_PAY[grade] if kind == "contract" else C.ORDER_PAY[grade]
    if player.level("CO") >= 2:
        pay += C.CONTRACTS_ORDERS_II_BONUS
    return pay


def _market_rows_in_scope(state: State) -> list[int]:
    t = state.turn
    market = C.ACTION_MARKET.get(t.action)
    if market is None:
        return []
    if market != "C" and current(state).level("RM") >= 2:
        markets = {"1", "2", "3"}
    else:
        markets = {market}
    return [i for i, row in enumerate(market_rows(state)) if row.market in markets]


def _run_scope(state: State):
    """The Pipelines the run in progress may use."""
    t = state.turn
    player = current(state)
    net = network(player)
    if t.action == "network":
        tile = net.tile_of((t.run_x, t.run_y))
        return [p for p in net.through_tile(tile) if not p.machines] if tile is not None else []
    if t.action == "machine":
        return net.attached_to((t.run_x, t.run_y))
    if t.action in ("machines_phase", "machines_early"):
        return net.attached()
    return []


def _busy(state: State) -> str | None:
    """Why no free choice can be made now: a tile or grant must be dealt with first."""
    t = state.turn
    if t.hand_tile >= 0:
        return "Pipe Network: place the Pipe tile you just took first"
    if t.hand_machine:
        return "Pipe Network: place the Machine you just took first"
    if t.grants:
        return "Upgrades: take (or decline) what your upgrade gives first"
    return None


def _in_action(state: State, actions, message: str) -> str | None:
    """``message`` unless one of ``actions`` is in progress. (A tile, Machine or grant to deal
    with first is refused for every move in :func:`why_illegal`.)"""
    t = state.turn
    return None if t.stage == "action" and t.action in actions else message


# What the Actions in progress are called (the cross's Actions, then the others a turn may hold).
ACTION_TITLES = {
    **C.ACTION_NAMES, "government": "Government", "network": "Run your Pipe Network",
    "machine": "Run a Machine", "machines_phase": "Machine Phase (running Machines)",
    "machines_early": "Machines III (running Machines)",
}


def action_title(action: str) -> str:
    """The rulebook's name of an Action in progress (``turn.action``)."""
    return ACTION_TITLES.get(action, action)


def _between_actions(state: State, fulfil: bool = False) -> str | None:
    """Moves made between Actions, in the Work and Machine Phases: a new Action, passing,
    running Machines, ending the turn; and (``fulfil``) Contracts and Orders."""
    if state.over:
        return "the game is over"
    t = state.turn
    if t.stage == "setup":
        return "Setup: place your starting Tanks first"
    if t.stage == "action":
        if fulfil:
            return "Contracts and Orders may not interrupt an Action; finish it first"
        return f"{action_title(t.action)}: this Action is in progress; finish it first ('done')"
    return _busy(state)


def _main_action_ok(state: State) -> str | None:
    """May the current player start a Main Action now?"""
    why = _between_actions(state)
    if why:
        return why
    t = state.turn
    if t.stage != "work":
        return "Work Phase: your Work Phase is over this turn"
    if t.mains == 0:
        return None
    if t.mains == 1 and not t.secondary and current(state).level("HR") >= 3:
        return None
    return "Work Phase: you have taken your Action this turn (Human Resources III allows two)"


# --- Checks -----------------------------------------------------------------------------------

def _check_start_tank(state: State, m: M.PlaceStartingTank) -> str | None:
    if state.turn.stage != "setup":
        return "Setup: starting Tanks are placed before the first Round"
    if not 0 <= m.grade <= 3:
        return "Tank Farm: the rows are Crude, Low, Mid and High"
    if current(state).tanks[m.grade] >= C.MAX_TANKS_PER_ROW:
        return f"Tank Farm: a row holds at most {C.MAX_TANKS_PER_ROW} Tanks"
    return None


def _check_action(state: State, m: M.Action) -> str | None:
    why = _main_action_ok(state)
    if why:
        return why
    if m.action not in CROSS_ACTIONS:
        return f"Action: there is no action space {m.action!r}"
    if (state.rules_version < 2 and state.turn.mains == 1
            and m.action == state.turn.last_cross):
        return "Human Resources III: your two Actions must be on different spaces"
    return None


def _check_secondary(state: State, m: M.Secondary) -> str | None:
    why = _between_actions(state)
    if why:
        return why
    t = state.turn
    if t.stage != "work" or t.mains != 1 or not t.last_cross:
        return "Secondary Action: only after a Main Action on the action cross"
    if t.secondary:
        return "Secondary Action: you have taken it already this turn"
    if m.action not in CROSS_ACTIONS:
        return f"Secondary Action: there is no action space {m.action!r}"
    player = current(state)
    reach = 2 if player.level("HR") >= 2 else 1
    distance = cross_distance(state, t.last_cross, m.action)
    if distance == 0:
        return "Secondary Action: it must be a different space from your Main Action"
    if distance > reach:
        return ("Secondary Action: it must be the space next to your Main Action on the same arm"
                if reach == 1 else "Human Resources II: at most 2 spaces from your Main Action")
    cost = secondary_cost(player)
    if player.money < cost:
        return f"Secondary Action: it costs ${cost}"
    return None


def _check_government(state: State, m: M.Government) -> str | None:
    why = _main_action_ok(state)
    if why:
        return why
    if not (0 <= m.quadrant < 4 and 0 <= m.space < 8):
        return "Government: no such space"
    if state.government[m.quadrant][m.space] < 0:
        return "Government: that space is empty"
    if not quadrant_takeable(state, m.quadrant, grant=False):
        return (f"Government: only {C.GOVERNMENT_OPEN_LIMIT[state.year - 1]} quadrants may be "
                f"open in Year {state.year}")
    if current(state).money < C.GOVERNMENT_COSTS[1]:
        return f"Government: a tile costs ${C.GOVERNMENT_COSTS[1]}"
    return None


def _check_run_network(state: State, m: M.RunNetwork) -> str | None:
    why = _main_action_ok(state)
    if why:
        return why
    if network(current(state)).tile_of((m.x, m.y)) is None:
        return "Running your Pipe Network: your worker must stand on one of your Pipe tiles"
    return None


def _check_run_machine(state: State, m: M.RunMachine) -> str | None:
    why = _main_action_ok(state)
    if why:
        return why
    player = current(state)
    if player.level("MACH") < 1:
        return "Machines I: only its owner may run a Machine as an Action"
    if (m.x, m.y) not in set(map(tuple, player.machines)):
        return "Machines I: your worker must stand on one of your Machines"
    return None


def _check_pass(state: State, m: M.Pass) -> str | None:
    why = _between_actions(state)
    if why:
        return why
    t = state.turn
    if t.stage == "machine" and not t.mains:
        return "Pass: you have passed; the Machine Phase is next ('end' ends your turn)"
    if t.stage != "work" or t.mains:
        return "Pass: you pass instead of taking an Action"
    return None


def _check_end_action(state: State, m: M.EndAction) -> str | None:
    if state.turn.stage != "action":
        return "there is no Action in progress to finish"
    return _busy(state)


def _check_run_machines(state: State, m: M.RunMachines) -> str | None:
    why = _between_actions(state)
    if why:
        return why
    t = state.turn
    player = current(state)
    if not player.machines:
        return "Machine Phase: you have no Machines"
    cost = machines_run_cost(player)
    if t.stage == "work" and t.mains == 0:
        if player.level("MACH") < 3:
            return "Machine Phase: Machines run after your Actions (Machines III: before too)"
        if t.machines_early_run:
            return "Machines III: Machines run once before your Actions"
    elif t.machines_phase_run:
        return "Machine Phase: your Machines have run this phase"
    if player.money < cost:
        return f"Machine Phase: running your Machines costs ${cost}"
    return None


def _check_end_turn(state: State, m: M.EndTurn) -> str | None:
    why = _between_actions(state)
    if why:
        return why
    t = state.turn
    if t.stage == "work" and t.mains == 0:
        return "End of turn: take an Action or pass first"
    return None


def _check_turn_order(state: State, m: M.ChooseTurnOrder) -> str | None:
    why = _between_actions(state)
    if why:
        return why
    t = state.turn
    if not t.icon:
        return "Turn Order: only after an Action showing the Turn Order icon"
    if t.order_chosen:
        return "Turn Order: you have chosen your place already this turn"
    if state.rules_version >= 2:
        if not 0 <= m.position < len(state.next_track):
            return f"Turn Order: choose a space from 1 to {len(state.next_track)}"
    elif not 0 <= m.position <= len(state.next_order):
        return f"Turn Order: choose a place from 1 to {len(state.next_order) + 1}"
    return None


def _check_market(state: State, row: str, slot: int) -> tuple[str | None, int]:
    why = _in_action(state, C.ACTION_MARKET, "Markets: buy and sell only during a market Action")
    if why:
        return why, -1
    index = market_row_index(state).get(row, -1)
    if index not in _market_rows_in_scope(state):
        return f"Markets: row {row} is not part of the market you are visiting", -1
    if not 0 <= slot < len(state.markets[index]):
        return (f"Markets: row {row} has no slot {slot + 1} "
                f"(slots 1 to {len(state.markets[index])})"), -1
    return None, index


def _check_buy(state: State, m: M.Buy) -> str | None:
    why, index = _check_market(state, m.row, m.slot)
    if why:
        return why
    colour = state.markets[index][m.slot]
    if colour < 0:
        return "Markets: that slot is empty"
    player = current(state)
    grade = market_rows(state)[index].grade
    if player.free_space(grade) < 1:
        return f"Tank Farm: no free Tank in the {('Crude', 'Low', 'Mid', 'High')[grade]} row"
    if player.money < market_price(state, player, index, m.slot):
        return "Markets: you cannot afford that barrel"
    return None


def _check_sell(state: State, m: M.Sell) -> str | None:
    why, index = _check_market(state, m.row, m.slot)
    if why:
        return why
    if state.turn.bought:
        return "Markets: complete all your selling before purchasing"
    if state.markets[index][m.slot] >= 0:
        return "Markets: that slot is taken"
    row = market_rows(state)[index]
    player = current(state)
    if not (0 <= m.colour <= 2 and 0 <= m.grade <= 3) or player.oil[m.grade][m.colour] < 1:
        return "Tank Farm: you have no such barrel"
    if m.grade < row.grade:
        return "Markets: oil may be sold as a lower grade, never a higher one"
    if m.colour != row.colour and not (row.market != "C" and player.level("RM") >= 3):
        return "Markets: the oil type must match the row (Refined Markets III lifts this)"
    return None


def _check_take_contract(state: State, m: M.TakeContract) -> str | None:
    why = _in_action(state, ("contracts",), "Contracts: take them with the Contracts & Loans Action")
    if why:
        return why
    t = state.turn
    player = current(state)
    if m.kind == "contract":
        if m.row not in C.CONTRACT_ROWS:
            return "Contracts: the rows are Low, Mid and High"
        row = state.contract_rows[m.row - 1]
    elif m.kind == "order":
        if player.level("CO") < 3:
            return "Contracts & Orders III: only then may Orders be taken as Contracts"
        if m.row not in C.ORDER_ROWS:
            return "Orders: the rows are 3, 4 and 5 barrels"
        row = state.order_rows[m.row - 3]
    else:
        return f"Contracts: unknown kind {m.kind!r}"
    if not 0 <= m.slot < len(row) or row[m.slot] < 0:
        return "Contracts: that space is empty"
    if len(t.contract_rows) >= C.CONTRACTS_PER_ACTION:
        return f"Contracts: at most {C.CONTRACTS_PER_ACTION} per Action"
    if f"{m.kind}{m.row}" in t.contract_rows:
        return "Contracts: at most one from each row per Action"
    if m.deferred and state.year == 3:
        return "Contracts: they cannot be Deferred in Year 3"
    return None


def _check_loan(state: State, m: M.TakeLoan) -> str | None:
    if state.turn.loan:
        return "Loans: at most one per Action"
    return _in_action(state, ("contracts",), "Loans: take one with the Contracts & Loans Action")


def _check_tank_common(state: State, shop_row: int, grade: int) -> str | None:
    if not 0 <= shop_row < len(state.tank_shop) or state.tank_shop[shop_row] < 1:
        return "Tank Shop: that row is empty"
    if any(state.tank_shop[:shop_row]):
        return "Tank Shop: Tanks come from the cheapest row that has one"
    if not 0 <= grade <= 3:
        return "Tank Farm: the rows are Crude, Low, Mid and High"
    if current(state).tanks[grade] >= C.MAX_TANKS_PER_ROW:
        return f"Tank Farm: a row holds at most {C.MAX_TANKS_PER_ROW} Tanks"
    return None


def _check_buy_tank(state: State, m: M.BuyTank) -> str | None:
    why = (_in_action(state, ("tanks",), "Tank Shop: buy Tanks with the Tanks & Pipes Action")
           or _check_tank_common(state, m.shop_row, m.grade))
    if why:
        return why
    if current(state).money < edition(state).tank_shop_prices[m.shop_row]:
        return f"Tank Shop: that Tank costs ${edition(state).tank_shop_prices[m.shop_row]}"
    return None


def _check_buy_machine(state: State, m: M.BuyMachine) -> str | None:
    why = _in_action(state, ("machines",), "Machine Shop: buy Machines with the Machines & Pipes Action")
    if why:
        return why
    if not 0 <= m.shop_row < len(state.machine_shop) or state.machine_shop[m.shop_row] < 1:
        return "Machine Shop: that row is empty"
    if any(state.machine_shop[:m.shop_row]):
        return "Machine Shop: Machines come from the cheapest row that has one"
    if not _free_cells_for_machine(current(state)):
        return "Machines: a Machine must cover a Pipe tile half without one"
    if current(state).money < edition(state).machine_shop_prices[m.shop_row]:
        return f"Machine Shop: that Machine costs ${edition(state).machine_shop_prices[m.shop_row]}"
    return None


def _check_buy_pipe(state: State, m: M.BuyPipe) -> str | None:
    why = _in_action(state, ("tanks", "machines"),
                     "Pipe tiles: buy them with the Tanks & Pipes or Machines & Pipes Action")
    if why:
        return why
    t = state.turn
    shop = state.shop_pipes[0 if t.action == "tanks" else 1]
    if not 0 <= m.index < len(shop) or shop[m.index] < 0:
        return "Pipe tiles: that space is empty"
    if t.pipes_bought >= 4:
        return "Pipe tiles: at most 4 per Action"
    if current(state).money < _pipe_step_cost(t.pipes_bought):
        return "Pipe tiles: $15 for up to 2, $40 for 3 or 4"
    return None


def _check_place_tile(state: State, m: M.PlaceTile) -> str | None:
    if state.turn.hand_tile < 0:
        return "Pipe Network: you have no Pipe tile to place"
    if not 0 <= m.rot <= 3:
        return "Pipe Network: rotations are r0 to r3"
    return placement_ok(network(current(state)).cells, m.x, m.y, m.rot)


def _check_place_machine(state: State, m: M.PlaceMachine) -> str | None:
    if not state.turn.hand_machine:
        return "Machines: you have no Machine to place"
    player = current(state)
    if (m.x, m.y) not in network(player).cells:
        return "Machines: a Machine must cover half of one of your Pipe tiles"
    if (m.x, m.y) in set(map(tuple, player.machines)):
        return "Machines: that half already has a Machine"
    return None


def _check_buy_upgrade(state: State, m: M.BuyUpgrade) -> str | None:
    why = _in_action(state, ("upgrades",), "Upgrades: buy them with the Upgrades Action")
    if why:
        return why
    t = state.turn
    if m.family not in state.upgrade_families:
        return f"Upgrades: {m.family} is not in this game"
    if t.flipped:
        return "Upgrades: the free flip ends your purchases"
    if len(t.upgrades_bought) >= C.UPGRADES_PER_ACTION:
        return f"Upgrades: at most {C.UPGRADES_PER_ACTION} per Action"
    if m.family in t.upgrades_bought:
        return "Upgrades: not two of the same type in one Action"
    row = state.upgrade_families.index(m.family)
    if not state.upgrade_tokens[row]:
        return "Upgrades: that token is flipped until next Year"
    level = current(state).level(m.family)
    if level >= 3:
        return "Upgrades: you own all three levels"
    if state.upgrade_cards[row][level] < 1:
        return f"Upgrades: no Level {level + 1} card of that type is left"
    if current(state).money < C.UPGRADE_PRICE:
        return f"Upgrades: each costs ${C.UPGRADE_PRICE}"
    return None


def _check_flip(state: State, m: M.FlipToken) -> str | None:
    why = _in_action(state, ("upgrades",), "Upgrades: the free flip comes with the Upgrades Action")
    if why:
        return why
    t = state.turn
    if t.flipped:
        return "Upgrades: only one free flip"
    if m.family not in state.upgrade_families:
        return f"Upgrades: {m.family} is not in this game"
    if not state.upgrade_tokens[state.upgrade_families.index(m.family)]:
        return "Upgrades: that token is already face down"
    return None


def _check_buy_government(state: State, m: M.BuyGovernmentTile) -> str | None:
    why = _in_action(state, ("government",), "Government: more tiles only during a Government Action")
    if why:
        return why
    t = state.turn
    if t.gov_bought >= 5:
        return "Government: at most 5 tiles per Action"
    if not 0 <= m.space < 8 or m.space not in government_adjacency(state)[t.gov_space]:
        return "Government: extra tiles must share an edge with the tile under your worker"
    if state.government[t.gov_quadrant][m.space] < 0:
        return "Government: that space is empty"
    cost = _gov_step_cost(t.gov_bought)
    if current(state).money < cost:
        return f"Government: {t.gov_bought + 1} tiles cost ${C.GOVERNMENT_COSTS[t.gov_bought + 1]}"
    return None


def _check_refine(state: State, m: M.Refine) -> str | None:
    why = _in_action(state, RUN_ACTIONS, "Refining: only while running your Pipe Network or Machines")
    if why:
        return why
    t = state.turn
    pipeline = next((p for p in _run_scope(state) if p.key == (m.x, m.y, m.k)), None)
    if pipeline is None:
        return "Refining: that Pipeline is not part of this run"
    player = current(state)
    used = [r for r in t.runs if (r[0], r[1], r[2]) == pipeline.key]
    if used:
        if player.level("ENG") < 3 or len(used) >= 2:
            return "Refining: each Pipeline refines one barrel per run (Engineering III: two)"
        if used[0][3] != m.from_grade:
            return "Engineering III: both barrels must start at the same grade"
    if not 0 <= m.from_grade < m.to_grade <= 3:
        return "Refining: oil is refined to a higher grade"
    colour = pipeline.colour
    if player.oil[m.from_grade][colour] - t.fresh[m.from_grade][colour] < 1:
        return "Refining: you have no such barrel that has not been refined in this run"
    cost = refine_cost(state, colour, m.from_grade, m.to_grade)
    value = pipeline.value(player.level("ENG"))
    if value < cost:
        return f"Refining: the Pipeline's Refinement Value {value} is below the cost {cost}"
    if player.free_space(m.to_grade) < 1:
        return "Tank Farm: no free Tank in the target row"
    return None


def _contract_max(player: PlayerState) -> int:
    return 2 if player.level("CO") >= 1 else 1


def _check_deliver(state: State, m: M.Deliver) -> str | None:
    why = _between_actions(state, fulfil=True)
    if why:
        return why
    player = current(state)
    if not 0 <= m.contract < len(player.contracts):
        return "Contracts: you have no such Contract"
    held = player.contracts[m.contract]
    if held.deferred:
        return "Contracts: a Deferred Contract cannot take oil until next Year"
    if held.completions >= _contract_max(player):
        return "Contracts: fulfilled once this Year already (Contracts & Orders I: twice)"
    tile = C.contract_tile(held.tile)
    if not 0 <= m.need < len(tile.needs):
        return "Contracts: no such requirement"
    if held.filled[m.need] >= 0:
        return "Contracts: that requirement is already filled"
    colour, grade = tile.needs[m.need]
    if not 0 <= m.grade <= 3 or m.grade < grade:
        return "Contracts: the oil must be of the required grade or higher"
    if player.oil[m.grade][colour] < 1:
        return "Tank Farm: you have no such barrel"
    return None


def _check_fulfil_order(state: State, m: M.FulfilOrder) -> str | None:
    why = _between_actions(state, fulfil=True)
    if why:
        return why
    if m.row not in C.ORDER_ROWS:
        return "Orders: the rows are 3, 4 and 5 barrels"
    row = state.order_rows[m.row - 3]
    if not 0 <= m.slot < len(row) or row[m.slot] < 0:
        return "Orders: that space is empty"
    tile = C.contract_tile(row[m.slot])
    if len(m.grades) != len(tile.needs):
        return f"Orders: this Order needs {len(tile.needs)} barrels, all at once"
    need: dict[tuple[int, int], int] = {}
    for (colour, grade), used in zip(tile.needs, m.grades):
        if not 0 <= used <= 3 or used < grade:
            return "Orders: each barrel must be of the required grade or higher"
        need[(colour, used)] = need.get((colour, used), 0) + 1
    player = current(state)
    for (colour, grade), count in need.items():
        if player.oil[grade][colour] < count:
            return "Orders: you lack the barrels to fulfil it completely"
    return None


def _grant_head(state: State, kind: str) -> str | None:
    t = state.turn
    if t.hand_tile >= 0 or t.hand_machine:
        return "Pipe Network: place what you hold first"
    if not t.grants or t.grants[0].kind != kind:
        return "Upgrades: nothing of that kind is due to you now"
    return None


def _check_take_government(state: State, m: M.TakeGovernmentTile) -> str | None:
    why = _grant_head(state, "gov")
    if why:
        return why
    if not (0 <= m.quadrant < 4 and 0 <= m.space < 8) or state.government[m.quadrant][m.space] < 0:
        return "Government: that space is empty"
    if not quadrant_takeable(state, m.quadrant, grant=True):
        return "Government: that quadrant is closed (a grant opens one only if none opened this Year)"
    return None


def _check_take_tank(state: State, m: M.TakeTank) -> str | None:
    return _grant_head(state, "tank") or _check_tank_common(state, m.shop_row, m.grade)


def _check_take_machine(state: State, m: M.TakeMachine) -> str | None:
    why = _grant_head(state, "machine")
    if why:
        return why
    if m.shop_row == M.MACHINE_STACK:
        if not state.turn.grants[0].stack:
            return "Shops: their Machine comes from the Machine Shop (Machines I: also the stack)"
        if any(state.machine_shop):
            return "Machines I: the Machine comes from the Machine Shop while it has one"
        if state.machine_reserve < 1:
            return "Machines I: no Machine is left in the stack beside the board"
    elif not 0 <= m.shop_row < len(state.machine_shop) or state.machine_shop[m.shop_row] < 1:
        return "Machine Shop: that row is empty"
    if any(state.machine_shop[:m.shop_row]):
        return "Machine Shop: Machines come from the cheapest row that has one"
    if not _free_cells_for_machine(current(state)):
        return "Machines: a Machine must cover a Pipe tile half without one"
    return None


def _check_take_pipe(state: State, m: M.TakePipe) -> str | None:
    why = _grant_head(state, "pipe")
    if why:
        return why
    if m.shop not in C.SHOPS:
        return "Shops: T (Tank Shop) or M (Machine Shop)"
    shop = state.shop_pipes[C.SHOPS.index(m.shop)]
    if not 0 <= m.index < len(shop) or shop[m.index] < 0:
        return "Pipe tiles: that space is empty"
    return None


def _check_decline(state: State, m: M.Decline) -> str | None:
    t = state.turn
    if t.hand_tile >= 0 or t.hand_machine:
        return "Pipe Network: place what you hold first"
    if not t.grants:
        return "Upgrades: nothing is due to you to decline"
    return None


# --- Effects ----------------------------------------------------------------------------------

def _reset_action(t: TurnState, action: str) -> None:
    t.stage = "action"
    t.action = action
    t.bought = False
    t.upgrades_bought = []
    t.flipped = False
    t.contract_rows = []
    t.loan = False
    t.pipes_bought = 0
    t.gov_quadrant = -1
    t.gov_space = -1
    t.gov_bought = 0
    t.runs = []
    t.fresh = [[0, 0, 0] for _ in range(4)]


def _do_start_tank(state: State, m: M.PlaceStartingTank) -> None:
    current(state).tanks[m.grade] += 1
    t = state.turn
    t.setup_placed += 1
    if t.setup_placed < C.START_TANKS:
        return
    state.turn_index += 1
    if state.turn_index < len(state.turn_order):
        state.turn = TurnState(player=state.turn_order[state.turn_index], stage="setup")
    else:
        state.turn_index = 0
        _start_turn(state)


def _do_action(state: State, m: M.Action) -> None:
    t = state.turn
    t.mains += 1
    t.last_cross = m.action
    current(state).worker = m.action
    _reset_action(t, m.action)


def _do_secondary(state: State, m: M.Secondary) -> None:
    player = current(state)
    player.money -= secondary_cost(player)
    t = state.turn
    t.secondary = True
    player.worker = m.action
    _reset_action(t, m.action)


def _take_government_tile(state: State, quadrant: int, space: int) -> None:
    if not state.government_opened[quadrant]:
        state.government_opened[quadrant] = state.year
    state.turn.hand_tile = state.government[quadrant][space]
    state.government[quadrant][space] = -1


def _do_government(state: State, m: M.Government) -> None:
    t = state.turn
    t.mains += 1
    t.last_cross = ""
    player = current(state)
    player.worker = f"gov {m.quadrant + 1}.{m.space + 1}"  # as the notation counts
    _reset_action(t, "government")
    t.gov_quadrant, t.gov_space, t.gov_bought = m.quadrant, m.space, 1
    player.money -= C.GOVERNMENT_COSTS[1]
    _take_government_tile(state, m.quadrant, m.space)


def _do_run_network(state: State, m: M.RunNetwork) -> None:
    t = state.turn
    t.mains += 1
    t.last_cross = ""
    current(state).worker = f"run {m.x},{m.y}"
    _reset_action(t, "network")
    t.run_x, t.run_y = m.x, m.y


def _do_run_machine(state: State, m: M.RunMachine) -> None:
    t = state.turn
    t.mains += 1
    t.last_cross = ""
    current(state).worker = f"machine {m.x},{m.y}"
    _reset_action(t, "machine")
    t.run_x, t.run_y = m.x, m.y


def _do_pass(state: State, m: M.Pass) -> None:
    state.turn.stage = "machine"


def _do_end_action(state: State, m: M.EndAction) -> None:
    t = state.turn
    if t.action in ICON_ACTIONS:
        t.icon = True
    t.stage = "machine" if t.action == "machines_phase" else "work"
    t.action = ""
    t.runs = []
    t.fresh = [[0, 0, 0] for _ in range(4)]


def _do_run_machines(state: State, m: M.RunMachines) -> None:
    t = state.turn
    player = current(state)
    player.money -= machines_run_cost(player)
    if t.stage == "work" and t.mains == 0:
        t.machines_early_run = True
        _reset_action(t, "machines_early")
    else:
        t.machines_phase_run = True
        _reset_action(t, "machines_phase")


def _do_end_turn(state: State, m: M.EndTurn) -> None:
    t = state.turn
    if not t.order_chosen:
        if state.rules_version >= 2:  # slide down to the leftmost free space
            state.next_track[state.next_track.index(-1)] = t.player
            _sync_next_order(state)
        else:
            state.next_order.append(t.player)
    state.turn_index += 1
    if state.turn_index < len(state.turn_order):
        _start_turn(state)
    else:
        _end_round(state)


def _do_turn_order(state: State, m: M.ChooseTurnOrder) -> None:
    if state.rules_version >= 2:
        place_on_track(state.next_track, state.turn.player, m.position)
        _sync_next_order(state)
    else:
        state.next_order.insert(m.position, state.turn.player)
    state.turn.order_chosen = True


def place_on_track(track: list[int], seat: int, space: int) -> None:
    """Rules version 2, "Turn Order": put a disk on a space of the next-Round row. A disk already
    there is pushed, with the disks touching it, toward the nearest free space: to the right as
    in the rulebook's example when there is one, otherwise to the left."""
    if track[space] >= 0:
        right = [i for i in range(space + 1, len(track)) if track[i] < 0]
        free = right[0] if right else max(i for i in range(space) if track[i] < 0)
        del track[free]
        track.insert(space, -1)
    track[space] = seat


def _sync_next_order(state: State) -> None:
    state.next_order = [seat for seat in state.next_track if seat >= 0]


def _do_buy(state: State, m: M.Buy) -> None:
    index = market_row_index(state)[m.row]
    player = current(state)
    colour = state.markets[index][m.slot]
    player.money -= market_price(state, player, index, m.slot)
    state.markets[index][m.slot] = -1
    player.oil[market_rows(state)[index].grade][colour] += 1
    state.turn.bought = True


def _do_sell(state: State, m: M.Sell) -> None:
    index = market_row_index(state)[m.row]
    player = current(state)
    player.money += market_price(state, player, index, m.slot)
    player.oil[m.grade][m.colour] -= 1
    state.markets[index][m.slot] = m.colour


def _do_take_contract(state: State, m: M.TakeContract) -> None:
    rows = state.contract_rows if m.kind == "contract" else state.order_rows
    row = rows[m.row - (1 if m.kind == "contract" else 3)]
    tile = row[m.slot]
    row[m.slot] = -1
    needs = C.contract_tile(tile).needs
    current(state).contracts.append(
        HeldContract(tile=tile, deferred=m.deferred, filled=[-1] * len(needs)))
    state.turn.contract_rows.append(f"{m.kind}{m.row}")


def _do_loan(state: State, m: M.TakeLoan) -> None:
    player = current(state)
    player.money += C.LOAN_AMOUNT
    player.penalties += 1
    state.turn.loan = True


def _do_buy_tank(state: State, m: M.BuyTank) -> None:
    player = current(state)
    player.money -= edition(state).tank_shop_prices[m.shop_row]
    state.tank_shop[m.shop_row] -= 1
    player.tanks[m.grade] += 1


def _do_buy_machine(state: State, m: M.BuyMachine) -> None:
    current(state).money -= edition(state).machine_shop_prices[m.shop_row]
    state.machine_shop[m.shop_row] -= 1
    state.turn.hand_machine = True


def _do_buy_pipe(state: State, m: M.BuyPipe) -> None:
    t = state.turn
    shop = state.shop_pipes[0 if t.action == "tanks" else 1]
    current(state).money -= _pipe_step_cost(t.pipes_bought)
    t.pipes_bought += 1
    t.hand_tile = shop[m.index]
    shop[m.index] = -1


def _do_place_tile(state: State, m: M.PlaceTile) -> None:
    t = state.turn
    current(state).tiles.append((t.hand_tile, m.x, m.y, m.rot))
    t.hand_tile = -1


def _do_place_machine(state: State, m: M.PlaceMachine) -> None:
    current(state).machines.append((m.x, m.y))
    state.turn.hand_machine = False


_UPGRADE_GRANTS = {
    ("GOV", 1): (("gov", 2),), ("GOV", 2): (("gov", 4),), ("GOV", 3): (("gov", 6),),
    ("SHOP", 1): (("tank", 2), ("pipe", 1)),
    # Pipe tiles before the Machine, so a player with no free tile half can still place it.
    ("SHOP", 2): (("pipe", 2), ("machine", 1)),
    ("SHOP", 3): (("pipe", 4), ("machine", 1)),
    ("MACH", 1): (("machine", 1),),
}


def _do_buy_upgrade(state: State, m: M.BuyUpgrade) -> None:
    player = current(state)
    row = state.upgrade_families.index(m.family)
    level = player.level(m.family)
    state.upgrade_cards[row][level] -= 1
    state.upgrade_tokens[row] = False
    player.money -= C.UPGRADE_PRICE
    player.upgrades[C.UPGRADE_CODES.index(m.family)] = level + 1
    state.turn.upgrades_bought.append(m.family)
    for kind, count in _UPGRADE_GRANTS.get((m.family, level + 1), ()):
        # Rules version 2: the Machines I card has no "if available" clause (rules-readings.md).
        stack = state.rules_version >= 2 and m.family == "MACH"
        state.turn.grants.append(Grant(kind, count, f"{m.family} {'I' * (level + 1)}", stack))


def _do_flip(state: State, m: M.FlipToken) -> None:
    state.upgrade_tokens[state.upgrade_families.index(m.family)] = False
    state.turn.flipped = True


def _do_buy_government(state: State, m: M.BuyGovernmentTile) -> None:
    t = state.turn
    current(state).money -= _gov_step_cost(t.gov_bought)
    t.gov_bought += 1
    _take_government_tile(state, t.gov_quadrant, m.space)


def _do_refine(state: State, m: M.Refine) -> None:
    t = state.turn
    player = current(state)
    colour = network(player).by_key[(m.x, m.y, m.k)].colour
    player.oil[m.from_grade][colour] -= 1
    player.oil[m.to_grade][colour] += 1
    t.fresh[m.to_grade][colour] += 1
    t.runs.append((m.x, m.y, m.k, m.from_grade))


def _do_deliver(state: State, m: M.Deliver) -> None:
    player = current(state)
    held = player.contracts[m.contract]
    colour, grade = C.contract_tile(held.tile).needs[m.need]
    player.oil[m.grade][colour] -= 1
    player.money += _contract_pay(player, grade, "contract")
    held.filled[m.need] = m.grade
    held.barrels.append((colour, m.grade))
    if all(g >= 0 for g in held.filled):
        held.completions += 1
        held.filled = [-1] * len(held.filled)


def _do_fulfil_order(state: State, m: M.FulfilOrder) -> None:
    player = current(state)
    row = state.order_rows[m.row - 3]
    tile = C.contract_tile(row[m.slot])
    row[m.slot] = -1
    barrels = []
    for (colour, grade), used in zip(tile.needs, m.grades):
        player.oil[used][colour] -= 1
        player.money += _contract_pay(player, grade, "order")
        barrels.append((colour, used))
    player.orders.append(HeldOrder(tile=tile.id, barrels=barrels))


def _use_grant(state: State) -> None:
    head = state.turn.grants[0]
    head.count -= 1
    if head.count <= 0:
        state.turn.grants.pop(0)


def _do_take_government(state: State, m: M.TakeGovernmentTile) -> None:
    _use_grant(state)
    _take_government_tile(state, m.quadrant, m.space)


def _do_take_tank(state: State, m: M.TakeTank) -> None:
    _use_grant(state)
    state.tank_shop[m.shop_row] -= 1
    current(state).tanks[m.grade] += 1


def _do_take_machine(state: State, m: M.TakeMachine) -> None:
    _use_grant(state)
    if m.shop_row == M.MACHINE_STACK:
        state.machine_reserve -= 1
    else:
        state.machine_shop[m.shop_row] -= 1
    state.turn.hand_machine = True


def _do_take_pipe(state: State, m: M.TakePipe) -> None:
    _use_grant(state)
    shop = state.shop_pipes[C.SHOPS.index(m.shop)]
    state.turn.hand_tile = shop[m.index]
    shop[m.index] = -1


def _do_decline(state: State, m: M.Decline) -> None:
    state.turn.grants.pop(0)


# --- Turns, Rounds, Years ---------------------------------------------------------------------

def _grant_possible(state: State, grant: Grant) -> bool:
    player = current(state)
    if grant.kind == "gov":
        return any(tile >= 0 and quadrant_takeable(state, q, grant=True)
                   for q in range(4) for tile in state.government[q])
    if grant.kind == "tank":
        return any(state.tank_shop) and any(n < C.MAX_TANKS_PER_ROW for n in player.tanks)
    if grant.kind == "pipe":
        return any(tile >= 0 for shop in state.shop_pipes for tile in shop)
    if grant.kind == "machine":
        return (bool(any(state.machine_shop) or (grant.stack and state.machine_reserve))
                and bool(_free_cells_for_machine(player)))
    return False


def settle_grants(state: State) -> None:
    """Drop gifts that cannot be given: "you do not receive the tile, even if it becomes
    available later" (Shops upgrade)."""
    t = state.turn
    while t.grants and t.hand_tile < 0 and not t.hand_machine and not _grant_possible(state, t.grants[0]):
        t.grants.pop(0)


def _start_turn(state: State) -> None:
    """A player's turn begins; on their first turn of Years 2 and 3 yearly upgrade benefits
    arrive (Government: 1 Government tile; Shops: 2 Tanks)."""
    seat = state.turn_order[state.turn_index]
    state.turn = TurnState(player=seat, stage="work")
    player = state.players[seat]
    if player.benefits_year < state.year:
        player.benefits_year = state.year
        if player.level("GOV") >= 1:
            state.turn.grants.append(Grant("gov", 1, "GOV yearly"))
        if player.level("SHOP") >= 1:
            state.turn.grants.append(Grant("tank", 2, "SHOP yearly"))


def _close_contracts(state: State, at_game_end: bool) -> None:
    """End of a Year: each Active Contract not fulfilled this Year (or with a second fulfilment
    begun and not finished) is removed with a Penalty marker; barrels on Contracts return to the
    supply; Deferred Contracts become Active."""
    for player in state.players:
        kept = []
        for held in player.contracts:
            for colour, _ in held.barrels:
                state.supply[colour] += 1
            held.barrels = []
            if held.deferred:
                held.deferred = False
                kept.append(held)
                continue
            if held.completions == 0 or any(g >= 0 for g in held.filled):
                player.penalties += 1
                if at_game_end:
                    player.end_penalties += 1
                continue
            held.completions = 0
            held.filled = [-1] * len(held.filled)
            kept.append(held)
        player.contracts = kept


def _refresh(state: State) -> None:
    """The Refresh Phase at the start of Years 2 and 3 (rulebook "Refresh Phase")."""
    _close_contracts(state, at_game_end=False)
    for row, stack in zip(state.contract_rows, state.contract_stacks):
        row.pop()
        row.insert(0, stack.pop() if stack else -1)
    for index, row in enumerate(market_rows(state)):
        slots = state.markets[index]
        if row.supply:
            added = 0
            for i in range(len(slots) - 1, -1, -1):
                if added >= row.supply or state.supply[row.colour] <= 0:
                    break
                if slots[i] < 0:
                    slots[i] = row.colour
                    state.supply[row.colour] -= 1
                    added += 1
        if row.demand:
            removed = 0
            for i in range(len(slots)):
                if removed >= row.demand:
                    break
                if slots[i] >= 0:
                    state.supply[slots[i]] += 1
                    slots[i] = -1
                    removed += 1
    n = n_players(state)
    for shop in state.shop_pipes:
        for i, tile in enumerate(shop):
            if tile >= 0:
                state.pipe_discard.append(tile)
            shop[i] = state.pipe_deck.pop() if state.pipe_deck else -1
    for i, full in enumerate(edition(state).tank_shop_spaces[n]):
        add = min(full - state.tank_shop[i], state.tank_reserve)
        state.tank_shop[i] += add
        state.tank_reserve -= add
    for i, full in enumerate(edition(state).machine_shop_spaces[n]):
        add = min(full - state.machine_shop[i], state.machine_reserve)
        state.machine_shop[i] += add
        state.machine_reserve -= add
    state.upgrade_tokens = [True] * len(state.upgrade_tokens)


def _end_round(state: State) -> None:
    state.turn_order = state.next_order
    state.next_order = []
    state.next_track = [-1] * len(state.next_track)
    state.turn_index = 0
    for player in state.players:
        player.worker = ""
    if state.round < C.ROUNDS_PER_YEAR[state.year - 1]:
        state.round += 1
    elif state.year < 3:
        state.year += 1
        state.round = 1
        _refresh(state)
    else:
        _close_contracts(state, at_game_end=True)
        state.over = True
        state.turn = TurnState(player=state.turn_order[0], stage="over")
        return
    _start_turn(state)
    settle_grants(state)


# --- Dispatch ---------------------------------------------------------------------------------

_HANDLERS = {
    M.PlaceStartingTank: (_check_start_tank, _do_start_tank),
    M.Action: (_check_action, _do_action),
    M.Secondary: (_check_secondary, _do_secondary),
    M.Government: (_check_government, _do_government),
    M.RunNetwork: (_check_run_network, _do_run_network),
    M.RunMachine: (_check_run_machine, _do_run_machine),
    M.Pass: (_check_pass, _do_pass),
    M.EndAction: (_check_end_action, _do_end_action),
    M.RunMachines: (_check_run_machines, _do_run_machines),
    M.EndTurn: (_check_end_turn, _do_end_turn),
    M.ChooseTurnOrder: (_check_turn_order, _do_turn_order),
    M.Buy: (_check_buy, _do_buy),
    M.Sell: (_check_sell, _do_sell),
    M.TakeContract: (_check_take_contract, _do_take_contract),
    M.TakeLoan: (_check_loan, _do_loan),
    M.BuyTank: (_check_buy_tank, _do_buy_tank),
    M.BuyMachine: (_check_buy_machine, _do_buy_machine),
    M.BuyPipe: (_check_buy_pipe, _do_buy_pipe),
    M.PlaceTile: (_check_place_tile, _do_place_tile),
    M.PlaceMachine: (_check_place_machine, _do_place_machine),
    M.BuyUpgrade: (_check_buy_upgrade, _do_buy_upgrade),
    M.FlipToken: (_check_flip, _do_flip),
    M.BuyGovernmentTile: (_check_buy_government, _do_buy_government),
    M.Refine: (_check_refine, _do_refine),
    M.Deliver: (_check_deliver, _do_deliver),
    M.FulfilOrder: (_check_fulfil_order, _do_fulfil_order),
    M.TakeGovernmentTile: (_check_take_government, _do_take_government),
    M.TakeTank: (_check_take_tank, _do_take_tank),
    M.TakeMachine: (_check_take_machine, _do_take_machine),
    M.TakePipe: (_check_take_pipe, _do_take_pipe),
    M.Decline: (_check_decline, _do_decline),
}


def why_illegal(state: State, move: M.Move) -> str | None:
    """Why ``move`` is not allowed now, naming the rule, or ``None`` if it is legal."""
    if state.over:
        return "the game is over"
    entry = _HANDLERS.get(type(move))
    if entry is None:
        return f"not a move: {move!r}"
    busy = _busy(state)
    if busy and type(move) not in _ALWAYS_WHEN_BUSY.get(_busy_kind(state), ()):
        return busy
    return entry[0](state, move)


def _busy_kind(state: State) -> str:
    t = state.turn
    if t.hand_tile >= 0:
        return "tile"
    if t.hand_machine:
        return "machine"
    return "grant"


_ALWAYS_WHEN_BUSY = {
    "tile": (M.PlaceTile,),
    "machine": (M.PlaceMachine,),
    "grant": (M.TakeGovernmentTile, M.TakeTank, M.TakeMachine, M.TakePipe, M.Decline),
}


def apply_move(state: State, move: M.Move) -> None:
    """Check a move and play it on ``state`` in place; raises :class:`IllegalMove`."""
    why = why_illegal(state, move)
    if why is not None:
        raise IllegalMove(why)
    _HANDLERS[type(move)][1](state, move)
    settle_grants(state)


def apply_trusted(state: State, move: M.Move) -> None:
    """Play a move known to be legal (replaying a validated log, bots), skipping the check."""
    _HANDLERS[type(move)][1](state, move)
    settle_grants(state)


# --- Legal moves ------------------------------------------------------------------------------

def _keep(state: State, candidates) -> list[M.Move]:
    out = []
    for move in candidates:
        if _HANDLERS[type(move)][0](state, move) is None:
            out.append(move)
    return out


def _order_assignments(player: PlayerState, needs) -> list[tuple[int, ...]]:
    """Every way to fill an Order's needs from the Tank Farm (grade used per need)."""
    results: list[tuple[int, ...]] = []
    for colour in {c for c, _ in needs}:  # quick refusal: not enough oil of a colour at all
        wanted = sum(1 for c, _ in needs if c == colour)
        lowest = min(g for c, g in needs if c == colour)
        if sum(player.oil[g][colour] for g in range(lowest, 4)) < wanted:
            return results
    have = [row[:] for row in player.oil]

    def walk(i: int, chosen: list[int]) -> None:
        if i == len(needs):
            results.append(tuple(chosen))
            return
        colour, grade = needs[i]
        for used in range(grade, 4):
            if have[used][colour] > 0:
                have[used][colour] -= 1
                chosen.append(used)
                walk(i + 1, chosen)
                chosen.pop()
                have[used][colour] += 1

    walk(0, [])
    return sorted(set(results))


def _fulfilment_moves(state: State) -> list[M.Move]:
    player = current(state)
    out: list[M.Move] = []
    cap = _contract_max(player)
    for ci, held in enumerate(player.contracts):
        if held.deferred or held.completions >= cap:
            continue
        for ni, (colour, grade) in enumerate(C.contract_tile(held.tile).needs):
            if held.filled[ni] >= 0:
                continue
            for used in range(grade, 4):
                if player.oil[used][colour] > 0:
                    out.append(M.Deliver(contract=ci, need=ni, grade=used))
    for r, row in enumerate(state.order_rows):
        for slot, tile in enumerate(row):
            if tile >= 0:
                for grades in _order_assignments(player, C.contract_tile(tile).needs):
                    out.append(M.FulfilOrder(row=r + 3, slot=slot, grades=grades))
    return out


def _main_action_candidates(state: State) -> list[M.Move]:
    player = current(state)
    out: list[M.Move] = [M.Action(action=a) for a in CROSS_ACTIONS]
    for q in range(4):
        for s in range(8):
            if state.government[q][s] >= 0:
                out.append(M.Government(quadrant=q, space=s))
    out.extend(M.RunNetwork(x=x, y=y) for x, y in sorted(network(player).cells))
    if player.level("MACH") >= 1:
        out.extend(M.RunMachine(x=x, y=y) for x, y in player.machines)
    return out


def _action_candidates(state: State) -> list[M.Move]:
    t = state.turn
    player = current(state)
    out: list[M.Move] = [M.EndAction()]
    if t.action in C.ACTION_MARKET:
        rows = market_rows(state)
        for index in _market_rows_in_scope(state):
            row = rows[index]
            for slot, colour in enumerate(state.markets[index]):
                if colour >= 0:
                    out.append(M.Buy(row=row.code, slot=slot))
                elif not t.bought:
                    for grade in range(row.grade, 4):
                        for c in range(3):
                            if player.oil[grade][c] > 0:
                                out.append(M.Sell(row=row.code, slot=slot, colour=c, grade=grade))
    elif t.action == "contracts":
        for r in C.CONTRACT_ROWS:
            for slot in range(len(state.contract_rows[r - 1])):
                for deferred in (False, True):
                    out.append(M.TakeContract(kind="contract", row=r, slot=slot, deferred=deferred))
        if player.level("CO") >= 3:
            for r in C.ORDER_ROWS:
                for slot in range(len(state.order_rows[r - 3])):
                    for deferred in (False, True):
                        out.append(M.TakeContract(kind="order", row=r, slot=slot, deferred=deferred))
        out.append(M.TakeLoan())
    elif t.action in ("tanks", "machines"):
        shop = state.shop_pipes[0 if t.action == "tanks" else 1]
        out.extend(M.BuyPipe(index=i) for i in range(len(shop)))
        if t.action == "tanks":
            out.extend(M.BuyTank(shop_row=r, grade=g) for r in range(len(state.tank_shop))
                       for g in range(4))
        else:
            out.extend(M.BuyMachine(shop_row=r) for r in range(len(state.machine_shop)))
    elif t.action == "upgrades":
        for family in state.upgrade_families:
            out.append(M.BuyUpgrade(family=family))
            out.append(M.FlipToken(family=family))
    elif t.action == "government":
        out.extend(M.BuyGovernmentTile(space=s) for s in government_adjacency(state)[t.gov_space])
    elif t.action in RUN_ACTIONS:
        for p in _run_scope(state):
            for f in range(3):
                if player.oil[f][p.colour] > 0:
                    for to in range(f + 1, 4):
                        out.append(M.Refine(x=p.key[0], y=p.key[1], k=p.key[2],
                                            from_grade=f, to_grade=to))
    return out


def legal_moves(state: State) -> list[M.Move]:
    """Every move the current player may make now, in a stable order."""
    if state.over:
        return []
    t = state.turn
    if t.hand_tile >= 0:
        return [M.PlaceTile(x=x, y=y, rot=r)
                for x, y, r in legal_placements(network(current(state)).cells)]
    if t.hand_machine:
        return [M.PlaceMachine(x=x, y=y) for x, y in _free_cells_for_machine(current(state))]
    if t.grants:
        kind = t.grants[0].kind
        if kind == "gov":
            cands = [M.TakeGovernmentTile(quadrant=q, space=s) for q in range(4) for s in range(8)]
        elif kind == "tank":
            cands = [M.TakeTank(shop_row=r, grade=g) for r in range(len(state.tank_shop))
                     for g in range(4)]
        elif kind == "machine":
            cands = [M.TakeMachine(shop_row=r)
                     for r in (*range(len(state.machine_shop)), M.MACHINE_STACK)]
        else:
            cands = [M.TakePipe(shop=s, index=i) for si, s in enumerate(C.SHOPS)
                     for i in range(len(state.shop_pipes[si]))]
        return _keep(state, cands) + [M.Decline()]
    if t.stage == "setup":
        return _keep(state, [M.PlaceStartingTank(grade=g) for g in range(4)])
    if t.stage == "action":
        return _keep(state, _action_candidates(state))
    cands: list[M.Move] = []
    if t.stage == "work":
        if t.mains == 0:
            cands.append(M.Pass())
        if _main_action_ok(state) is None:
            cands.extend(_main_action_candidates(state))
        if t.mains == 1:
            cands.extend(M.Secondary(action=a) for a in CROSS_ACTIONS)
    cands.append(M.RunMachines())
    if t.icon and not t.order_chosen:
        places = len(state.next_track) if state.rules_version >= 2 else len(state.next_order) + 1
        cands.extend(M.ChooseTurnOrder(position=i) for i in range(places))
    cands.append(M.EndTurn())
    return _keep(state, cands) + _fulfilment_moves(state)
