"""The legal moves, generated directly: the fast path of :func:`rules.legal_moves`.

The checked listing (``rules.checked_legal_moves``) builds every candidate of a kind and keeps
those its rule's check accepts, so each candidate repeats the tests it shares with the others
(whose turn, may a Main Action start, is the market open, ...). Bots and random games list the
moves hundreds of thousands of times, so this module tests each shared condition once per
listing and then produces exactly the moves the checks would keep, in the same order.

Every condition here restates a check of the rule modules (named in each function's
docstring); nothing new is decided. ``tests/test_properties.py`` compares this listing with the
checked one at every state of hundreds of seeded games (uniform, steered and rich tables, both
rules versions and both component editions), and with ``why_illegal`` on random candidates.
Parts with no shared test to hoist (upgrades, grants, Government extras, setup) call the rule
module's own listing.
"""

from __future__ import annotations

from functools import lru_cache

from ...data import components as C
from ...data import editions as E
from .. import moves as M
from ..state import PlayerState, State
from . import contracts, machines, refining, shops, upgrades
from .base import A, ACTION, SETUP, WORK, current, edition, government_adjacency, network
from .cross import CROSS_ACTIONS, cross_cell, secondary_cost
from .machines import machines_run_cost
from .refining import refine_cost, run_scope

_PASS = M.Pass()
_END_ACTION = M.EndAction()
_RUN_MACHINES = M.RunMachines()
_END_TURN = M.EndTurn()
_CROSS_MOVES = tuple(M.Action(action=a) for a in CROSS_ACTIONS)
_SECONDARY_MOVES = tuple(M.Secondary(action=a) for a in CROSS_ACTIONS)
_MARKET_ACTIONS = frozenset(C.ACTION_MARKET)
# Moves are frozen, so the listing may hand out the same objects every time.
_GOVERNMENT_MOVES = tuple(tuple(M.Government(quadrant=q, space=s) for s in range(8)) for q in range(4))
_TURN_ORDER_MOVES = tuple(M.ChooseTurnOrder(position=i) for i in range(8))
_START_TANK_MOVES = tuple(M.PlaceStartingTank(grade=g) for g in range(4))
_MORE_GOVERNMENT_MOVES = tuple(M.BuyGovernmentTile(space=s) for s in range(8))
_UPGRADE_MOVES = {code: (M.BuyUpgrade(family=code), M.FlipToken(family=code)) for code in C.UPGRADE_CODES}
# Where PlayerState.level finds each family, for the listings to read the levels directly.
_HR, _MACH, _RM, _CO, _ENG = (C.UPGRADE_CODES.index(code) for code in ("HR", "MACH", "RM", "CO", "ENG"))
_NO_OIL = [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]  # an empty Tank Farm (PlayerState.oil)
_SMALLEST_ORDER = min(len(tile.needs) for tile in C.ORDERS + C.PRINTED_ORDERS)  # barrels


def legal_moves(state: State) -> list[M.Move]:
    """Every move the current player may make now, in the order of the checked listing."""
    if state.over:
        return []
    t = state.turn
    if t.hand_tile >= 0:
        return refining.place_tile_moves(state)
    if t.hand_machine:
        return machines.place_machine_moves(state)
    if t.grants:
        return upgrades.grant_moves(state)
    stage = t.stage
    if stage == SETUP:
        return _start_tank_moves(state)
    if stage == ACTION:
        return [_END_ACTION, *_action_moves(state)]  # check_end_action: an Action, nothing in hand
    return _between_actions(state)


def _action_moves(state: State) -> list[M.Move]:
    action = state.turn.action
    if action in _MARKET_ACTIONS:
        return _market_moves(state)
    match action:
        case A.CONTRACTS:
            return _contract_moves(state)
        case A.TANKS:
            return _pipe_moves(state, 0) + _tank_moves(state)
        case A.MACHINES:
            return _pipe_moves(state, 1) + _machine_shop_moves(state)
        case A.UPGRADES:
            return _upgrade_moves(state)
        case A.GOVERNMENT:
            return _more_government_moves(state)
        case A.NETWORK | A.MACHINE | A.MACHINES_PHASE | A.MACHINES_EARLY:
            return _refine_moves(state)
    return []


def _start_tank_moves(state: State) -> list[M.Move]:
    """``turns.start_tank_moves`` in the Setup: ``check_start_tank`` (a Tank Farm row with
    room)."""
    tanks = state.players[state.turn.player].tanks
    return [_START_TANK_MOVES[g] for g in range(4) if tanks[g] < C.MAX_TANKS_PER_ROW]


# --- between Actions: the Work and Machine Phases ----------------------------------------------


def _between_actions(state: State) -> list[M.Move]:
    """The Work or Machine Phase with nothing in hand, so ``between_actions`` holds for all:
    Pass (``check_pass``), Main Actions (``main_action_ok``, ``check_action``,
    ``check_government``, ``check_run_network``, ``check_run_machine``), the Secondary Action
    (``check_secondary``), running Machines, Turn Order, ending the turn, then deliveries."""
    t = state.turn
    player = state.players[t.player]
    levels = player.upgrades
    out: list[M.Move] = []
    work = t.stage == WORK
    if work and t.mains == 0:
        out.append(_PASS)
    if work and (t.mains == 0 or (t.mains == 1 and not t.secondary and levels[_HR] >= 3)):
        if state.rules_version < 2 and t.mains == 1:
            out += [m for m in _CROSS_MOVES if m.action != t.last_cross]
        else:
            out += _CROSS_MOVES
        if player.money >= C.GOVERNMENT_COSTS[1]:
            out += _government_moves(state)
        net = network(player)
        runs = net.derived.get("run")
        if runs is None:
            runs = net.derived["run"] = [M.RunNetwork(x=x, y=y) for x, y in net.ordered_cells()]
        out += runs
        if levels[_MACH] >= 1:
            out += [M.RunMachine(x=x, y=y) for x, y in player.machines]
    if work and t.mains == 1 and t.last_cross and not t.secondary:
        reach = 2 if levels[_HR] >= 2 else 1
        if player.money >= secondary_cost(player):
            ax, ay = cross_cell(state, t.last_cross)
            for move in _SECONDARY_MOVES:
                bx, by = cross_cell(state, move.action)
                if 0 < abs(ax - bx) + abs(ay - by) <= reach:  # cross_distance
                    out.append(move)
    if player.machines and _machines_may_run(state, player):
        out.append(_RUN_MACHINES)
    if t.icon and not t.order_chosen:
        places = len(state.next_track) if state.rules_version >= 2 else len(state.next_order) + 1
        out += _TURN_ORDER_MOVES[:places]
    if not (work and t.mains == 0):
        out.append(_END_TURN)
    return out + _fulfilment_moves(state, player)


def _government_moves(state: State) -> list[M.Move]:
    """``check_government`` once money and the Main Action are settled: a tile in the space of
    a quadrant that is open or may open this Year (``quadrant_takeable``)."""
    opened = state.government_opened
    may_open = len(opened) - opened.count(0) < C.GOVERNMENT_OPEN_LIMIT[state.year - 1]
    out: list[M.Move] = []
    for q, quadrant in enumerate(state.government):
        if opened[q] or may_open:
            key = (q, *quadrant)
            moves = _QUADRANT_MOVES.get(key)
            if moves is None:
                if len(_QUADRANT_MOVES) >= 4096:
                    _QUADRANT_MOVES.clear()
                row = _GOVERNMENT_MOVES[q]
                moves = _QUADRANT_MOVES[key] = [row[s] for s, tile in enumerate(quadrant) if tile >= 0]
            out += moves
    return out


# A quadrant's Government moves by its number and tiles: its tiles change only when one is
# taken or at a Refresh, and the Work Phase lists them at almost every state.
_QUADRANT_MOVES: dict[tuple[int, ...], list[M.Move]] = {}


def _machines_may_run(state: State, player: PlayerState) -> bool:
    """``check_run_machines`` for a player who owns Machines, between Actions."""
    t = state.turn
    if t.stage == WORK and t.mains == 0:
        if player.upgrades[_MACH] < 3 or t.machines_early_run:
            return False
    elif t.machines_phase_run:
        return False
    return player.money >= machines_run_cost(player)


@lru_cache(maxsize=None)
def _order_totals(tile: int) -> tuple[int, tuple[tuple[int, int, int], ...]]:
    """The barrels an Order needs, and per colour (colour, barrels, lowest grade): the quick
    refusal of ``contracts.order_assignments``."""
    needs = C.contract_tile(tile).needs
    colours = tuple(
        (colour, sum(1 for c, _ in needs if c == colour), min(g for c, g in needs if c == colour))
        for colour in sorted({c for c, _ in needs})
    )
    return len(needs), colours


def _fulfilment_moves(state: State, player: PlayerState) -> list[M.Move]:
    """``contracts.fulfilment_moves``, skipping the Orders the Tank Farm cannot fill at all
    without building their assignment lists (the same refusal ``order_assignments`` makes)."""
    out: list[M.Move] = []
    oil = player.oil
    if oil == _NO_OIL:  # nothing to deliver: most Work Phase states of random games
        return out
    if player.contracts:
        cap = contracts.contract_max(player)
        for ci, held in enumerate(player.contracts):
            if held.deferred or held.completions >= cap:
                continue
            for ni, (colour, grade) in enumerate(C.contract_tile(held.tile).needs):
                if held.filled[ni] >= 0:
                    continue
                for used in range(grade, 4):
                    if oil[used][colour] > 0:
                        out.append(M.Deliver(contract=ci, need=ni, grade=used))
    o0, o1, o2, o3 = oil
    total = o0[0] + o0[1] + o0[2] + o1[0] + o1[1] + o1[2] + o2[0] + o2[1] + o2[2] + o3[0] + o3[1] + o3[2]
    if total < _SMALLEST_ORDER:
        return out
    at_least: list[list[int]] = []  # barrels of each colour at each grade or above, when needed
    for r, row in enumerate(state.order_rows):
        for slot, tile in enumerate(row):
            if tile < 0:
                continue
            size, colours = _order_totals(tile)
            if size > total:
                continue
            if not at_least:
                at_least = [[0, 0, 0] for _ in range(5)]
                for grade in (3, 2, 1, 0):
                    above, here, kept = at_least[grade + 1], at_least[grade], oil[grade]
                    here[0], here[1], here[2] = above[0] + kept[0], above[1] + kept[1], above[2] + kept[2]
            for colour, wanted, lowest in colours:
                if at_least[lowest][colour] < wanted:
                    break
            else:
                for grades in contracts.order_assignments(player, C.contract_tile(tile).needs):
                    out.append(M.FulfilOrder(row=r + 3, slot=slot, grades=grades))
    return out


# --- during an Action ---------------------------------------------------------------------------


# Per market row: its index in ``State.markets``, grade, whether Refined Markets I's bonus applies
# to it, each slot's price, then what :func:`_row_offers` gives for it.
MarketRow = tuple[
    int,
    int,
    bool,
    tuple[int, ...],
    tuple[M.Buy, ...],
    tuple[tuple[int, int], ...],
    tuple[tuple[M.Sell, ...], ...],
]


@lru_cache(maxsize=256)
def _market_table(
    number: int, layout: tuple[tuple[int, int], ...], players: int, markets: tuple[str, ...], any_colour: bool
) -> tuple[MarketRow, ...]:
    """The rows of ``markets`` (in ``State.markets`` order), worked out once per market layout
    and player count: what ``check_buy`` and ``check_sell`` read from the printed row."""
    table = []
    for index, row in enumerate(E.market_rows(number, layout, players)):
        if row.market in markets:
            refined = row.market != "C"
            prices = tuple(row.prices[position] for position in row.slots[players])
            if min(prices) < 0:  # _market_moves marks a full Tank Farm row by a cap of -1
                raise ValueError(f"market row {row.code}: a negative price")
            offers = _row_offers(row.code, row.grade, row.colour, refined and any_colour, len(prices))
            table.append((index, row.grade, refined and row.grade > 0, prices, *offers))
    return tuple(table)


@lru_cache(maxsize=None)
def _row_offers(
    code: str, grade: int, colour: int, any_colour: bool, slots: int
) -> tuple[tuple[M.Buy, ...], tuple[tuple[int, int], ...], tuple[tuple[M.Sell, ...], ...]]:
    """A market row's Buy move per slot; the (grade, colour) barrels it takes (its grade or
    higher, of its colour unless ``any_colour``: Refined Markets III on a Refined Market row);
    and per slot the Sell move of each of those barrels, in the same order. Row codes are the
    same in every game and moves are frozen, so every layout shares these."""
    buys = tuple(M.Buy(row=code, slot=slot) for slot in range(slots))
    pairs = tuple((g, c) for g in range(grade, 4) for c in range(3) if any_colour or c == colour)
    sells = tuple(
        tuple(M.Sell(row=code, slot=slot, colour=c, grade=g) for g, c in pairs) for slot in range(slots)
    )
    return buys, pairs, sells


def _market_moves(state: State) -> list[M.Move]:
    """``markets.market_moves``: ``check_buy`` (a barrel in the slot, a free Tank of the row's
    grade, the price) and ``check_sell`` (nothing bought yet, an empty slot, a barrel of the
    row's grade or higher, of the row's colour unless Refined Markets III on a refined row)."""
    t = state.turn
    player = state.players[t.player]
    market = C.ACTION_MARKET[t.action]
    rm = player.upgrades[_RM]
    refined_bonus = C.REFINED_MARKETS_I_BONUS if rm >= 1 else 0
    markets: tuple[str, ...] = ("1", "2", "3") if market != "C" and rm >= 2 else (market,)
    table = _market_table(state.edition, tuple(state.market_layout), len(state.players), markets, rm >= 3)
    oil = player.oil
    tanks = player.tanks
    money = player.money
    bought = t.bought
    held = state.markets
    out: list[M.Move] = []
    for index, grade, bonused, prices, buys, pairs, sells in table:
        row = held[index]
        key = tuple(row)
        filled = _FILLED.get(key)
        if filled is None:
            if len(_FILLED) >= 4096:
                _FILLED.clear()
            filled = _FILLED[key] = tuple(slot for slot, barrel in enumerate(row) if barrel >= 0)
        cap = -1  # what a Buy may cost: -1 (below every price) when the Tank Farm row is full
        if filled:
            kept = oil[grade]
            if 2 * tanks[grade] > kept[0] + kept[1] + kept[2]:
                cap = money - refined_bonus if bonused else money
        sellable: list[int] | None = None  # which of the row's pairs the Tank Farm holds
        if not bought and len(filled) < len(row):
            sellable = [i for i, (g, c) in enumerate(pairs) if oil[g][c] > 0]
        if sellable:  # Buys and Sells, slot by slot
            for slot, barrel in enumerate(row):
                if barrel >= 0:
                    if cap >= prices[slot]:
                        out.append(buys[slot])
                else:
                    slot_sells = sells[slot]
                    out += [slot_sells[i] for i in sellable]
        elif cap >= 0:  # Buys alone: only the slots holding a barrel
            out += [buys[slot] for slot in filled if cap >= prices[slot]]
    return out


# Per market row's contents (a colour or -1 per slot), the slots holding a barrel: a row changes
# only when a barrel is bought or sold, and the market listing reads every row of its markets.
_FILLED: dict[tuple[int, ...], tuple[int, ...]] = {}


def _contract_moves(state: State) -> list[M.Move]:
    """``contracts.contract_moves``: ``check_take_contract`` (a tile in the slot, at most three
    per Action and one per row, no Deferring in Year 3) and ``check_loan`` (one per Action)."""
    t = state.turn
    out: list[M.Move] = []
    if len(t.contract_rows) < C.CONTRACTS_PER_ACTION:
        deferrals = (False,) if state.year == 3 else (False, True)
        kinds = [(C.ContractKind.CONTRACT, C.CONTRACT_ROWS, state.contract_rows)]
        if state.players[t.player].upgrades[_CO] >= 3:
            kinds.append((C.ContractKind.ORDER, C.ORDER_ROWS, state.order_rows))
        for kind, numbers, rows in kinds:
            for number, row in zip(numbers, rows):
                if f"{kind}{number}" in t.contract_rows:
                    continue
                for slot, tile in enumerate(row):
                    if tile >= 0:
                        out += [
                            M.TakeContract(kind=kind, row=number, slot=slot, deferred=d) for d in deferrals
                        ]
    if not t.loan:
        out.append(M.TakeLoan())
    return out


def _pipe_moves(state: State, shop_index: int) -> list[M.Move]:
    """``shops.buy_pipe_moves``: ``check_buy_pipe`` (a tile in the space, at most 4 an Action,
    the price of the next one)."""
    t = state.turn
    if t.pipes_bought >= 4 or state.players[t.player].money < shops.pipe_step_cost(t.pipes_bought):
        return []
    return [M.BuyPipe(index=i) for i, tile in enumerate(state.shop_pipes[shop_index]) if tile >= 0]


def _tank_moves(state: State) -> list[M.Move]:
    """``shops.buy_tank_moves``: ``check_buy_tank`` (the cheapest row with a Tank, a Tank Farm
    row with room, the price)."""
    player = current(state)
    prices = edition(state).tank_shop_prices
    for r, count in enumerate(state.tank_shop):
        if count >= 1:
            if player.money < prices[r]:
                return []
            return [M.BuyTank(shop_row=r, grade=g) for g in range(4) if player.tanks[g] < C.MAX_TANKS_PER_ROW]
    return []


def _machine_shop_moves(state: State) -> list[M.Move]:
    """``machines.buy_machine_moves``: ``check_buy_machine`` (the cheapest row with a Machine, a
    free tile half for it, the price)."""
    player = current(state)
    for r, count in enumerate(state.machine_shop):
        if count >= 1:
            if player.money < edition(state).machine_shop_prices[r] or not machines.free_cells_for_machine(
                player
            ):
                return []
            return [M.BuyMachine(shop_row=r)]
    return []


def _upgrade_moves(state: State) -> list[M.Move]:
    """``upgrades.upgrade_moves``: ``check_buy_upgrade`` (no flip yet, at most two Upgrades an
    Action and not two of a family, the token face up, a level left to own and its card, the
    price) and ``check_flip`` (no flip yet, the token face up), family by family."""
    t = state.turn
    if t.flipped:
        return []
    player = state.players[t.player]
    families = state.upgrade_families
    tokens = state.upgrade_tokens
    bought = t.upgrades_bought
    may_buy = len(bought) < C.UPGRADES_PER_ACTION and player.money >= C.UPGRADE_PRICE
    out: list[M.Move] = []
    for family in families:
        row = families.index(family)
        if not tokens[row]:
            continue
        buy, flip = _UPGRADE_MOVES[family]
        if may_buy and family not in bought:
            level = player.level(family)
            if level < 3 and state.upgrade_cards[row][level] >= 1:
                out.append(buy)
        out.append(flip)
    return out


def _more_government_moves(state: State) -> list[M.Move]:
    """``refining.government_moves``: ``check_buy_government`` (at most 5 tiles an Action, a
    tile in a space next to the worker's, the price of the next one)."""
    t = state.turn
    if t.gov_bought >= 5 or state.players[t.player].money < refining.gov_step_cost(t.gov_bought):
        return []
    quadrant = state.government[t.gov_quadrant]
    return [_MORE_GOVERNMENT_MOVES[s] for s in government_adjacency(state)[t.gov_space] if quadrant[s] >= 0]


def _refine_moves(state: State) -> list[M.Move]:
    """``refining.refine_moves``: ``check_refine`` (a Pipeline of this run, one barrel per run
    or two of one grade with Engineering III, an unrefined barrel, the Refinement Value against
    the cost, a free Tank in the target row)."""
    t = state.turn
    player = current(state)
    oil, fresh = player.oil, t.fresh
    engineering = player.upgrades[_ENG]
    out: list[M.Move] = []
    for p in run_scope(state):
        x, y, k = p.key
        colour = p.colour
        used = [r[3] for r in t.runs if r[0] == x and r[1] == y and r[2] == k]
        if used and (engineering < 3 or len(used) >= 2):
            continue
        value = p.value(engineering)
        for f in range(3):
            if oil[f][colour] <= 0 or oil[f][colour] - fresh[f][colour] < 1:
                continue
            if used and used[0] != f:
                continue
            for to in range(f + 1, 4):
                if value >= refine_cost(state, colour, f, to) and player.free_space(to) >= 1:
                    out.append(M.Refine(x=x, y=y, k=k, from_grade=f, to_grade=to))
    return out
