"""A position's worth to one player, in dollars, for bots comparing plans.

The end-game score counts cash, oil, Pipelines, Valuation and Penalties; mid-game a player is also
worth what their position can still earn. So barrels are valued between their end-game value and
their sale price (more of the sale price while Rounds remain to sell), Crude that a Pipeline can
refine at the refined value it can reach, held Contracts at their expected pay less the chance
of a Penalty, Pipelines and Machines at what they can still refine, and Upgrades at a rough
yearly worth; everything that only pays later is discounted by the Rounds left.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import msgspec

from ..data import components as C
from ..data import editions as E
from ..engine import (
    NetworkMap,
    Pipeline,
    PlayerState,
    ScoreLine,
    State,
    card_value,
    highest_grade_from_crude,
    market_rows,
    network_map,
    refine_cost,
    score_player,
)

SALE = (8, 28, 40, 50)  # a typical market price per grade (data.components market rows)
CRUDE_PRICE = SALE[0]  # what a need with no Crude in hand spends to buy one (see evaluate)
TOTAL_ROUNDS = sum(C.ROUNDS_PER_YEAR)
LIQUID_CASH = 25
LIQUIDITY = 1.0
# A player's first Pipeline that refines Crude is their income: until one does, every Action that
# earns waits for it. Its worth beyond a later Pipeline's, and the pull towards it in proportion
# to the progress of the Pipeline nearest to it. With less, a Pipe tile towards it was worth
# less than its price and cash kept, so bots left with short Pipelines bought none for the rest
# of the game (docs/bots.md).
FIRST_PIPELINE = 60.0
# Rough worth of owning each Upgrade level over a whole game, beyond what the position shows
# (grants arrive as tiles, Tanks and Machines the evaluation sees directly).
UPGRADE_WORTH = {
    "GOV": (10, 0, 0),
    "SHOP": (10, 0, 0),
    "HR": (22, 10, 55),
    "ENG": (0, 0, 40),
    "RM": (28, 18, 10),
    "CO": (10, 35, 10),
    "MACH": (15, 22, 10),
}


# UPGRADE_WORTH as (index in PlayerState.upgrades, worth of owning 0, 1, 2, 3 levels): the
# sums evaluate adds, worked out once (integers, so the values are the same).
_UPGRADE_SUMS = tuple(
    (C.UPGRADE_CODES.index(family), tuple(sum(levels[:level]) for level in range(4)))
    for family, levels in UPGRADE_WORTH.items()
)


def rounds_left(state: State, turn_done: bool) -> tuple[int, int]:
    """Rounds still to come in the game and in this Year, counting the current Round unless the
    player's turn is done."""
    year, rnd = state.year, state.round
    in_year = C.ROUNDS_PER_YEAR[year - 1] - rnd + (0 if turn_done else 1)
    later = sum(C.ROUNDS_PER_YEAR[year:])
    return in_year + later, in_year


_RM = C.UPGRADE_CODES.index("RM")
_CO = C.UPGRADE_CODES.index("CO")
_ENG = C.UPGRADE_CODES.index("ENG")


def _thresholds(state: State) -> list[tuple[int, int, int]]:
    """Per colour, the Refinement Value each grade needs from Crude (``rules.refine_cost``)."""
    out = []
    for costs in state.refinement_costs:
        a, b, c = costs[0], costs[0] + costs[1], costs[0] + costs[1] + costs[2]
        out.append((a, b, c))
    return out


def grade_of(steps: tuple[int, int, int], value: int) -> int:
    """``rules.highest_grade_from_crude`` with the colour's thresholds at hand."""
    best = 0
    for grade in (1, 2, 3):
        if steps[grade - 1] <= value:
            best = grade
    return best


def marginal_penalty(player: PlayerState) -> int:
    return C.penalty_total(player.penalties + 1) - C.penalty_total(player.penalties)


def pipeline_progress(state: State, colour: int, value: int) -> float:
    """How far a Pipeline of this value is towards its next grade (0..1), for growing it."""
    reach = highest_grade_from_crude(state, colour, value)
    if reach >= 3:
        return 0.0
    low = refine_cost(state, colour, 0, reach)
    high = refine_cost(state, colour, 0, reach + 1)
    return (value - low) / max(1, high - low)


def _contract_pay(player: PlayerState, grade: int, kind: str) -> int:
    pay = C.CONTRACT_PAY[grade] if kind == C.ContractKind.CONTRACT else C.ORDER_PAY[grade]
    return pay + (C.CONTRACTS_ORDERS_II_BONUS if player.level("CO") >= 2 else 0)


@lru_cache(maxsize=64)
def _market_slots(
    edition: int, layout: tuple[tuple[int, int], ...], players: int, refined_bonus: bool
) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per market row, (slot, price) for each slot in play (``rules.market_price``, tabled)."""
    table = []
    for row in E.market_rows(edition, layout, players):
        bonus = C.REFINED_MARKETS_I_BONUS if refined_bonus and row.market != "C" and row.grade > 0 else 0
        table.append(
            tuple((slot, row.prices[printed] + bonus) for slot, printed in enumerate(row.slots[players]))
        )
    return tuple(table)


@lru_cache(maxsize=512)
def _order_outlets(tile: int, bonus: bool) -> tuple[tuple[int, int, int], ...]:
    """An Order tile's needs as outlets: (colour, part of its pay, grade)."""
    extra = C.CONTRACTS_ORDERS_II_BONUS if bonus else 0
    return tuple(
        (colour, int(0.6 * (C.ORDER_PAY[grade] + extra)), grade)
        for colour, grade in C.contract_tile(tile).needs
    )


Outlets = tuple[tuple[tuple[int, int], ...], ...]  # per colour, (price, lowest grade taken)
_OUTLETS: dict[tuple[object, ...], Outlets] = {}  # ~10 KB an entry: kept small
_ENCODE = msgspec.msgpack.Encoder().encode


def _outlets(state: State, player: PlayerState) -> list[list[tuple[int, int]]]:
    """Per colour, the free market slots and open Order needs that would take a barrel:
    (price, lowest grade accepted), dearest first. Order needs count at part of their pay, as
    an Order is only fulfilled whole. Cached by the markets, the Orders and the player's levels
    that change prices (a plan's steps mostly leave them as they are)."""
    levels = player.upgrades
    encode = _ENCODE
    key = (  # the lists as msgpack bytes: quicker to make and to hash than tuples of tuples
        len(state.players),
        state.edition,
        encode(state.market_layout),
        min(levels[_RM], 3),
        levels[_CO] >= 2,
        encode(state.markets),
        encode(state.order_rows),
    )
    found = _OUTLETS.get(key)
    if found is None:
        found = _list_outlets(state, levels)
        if len(_OUTLETS) > 2048:
            _OUTLETS.clear()
        _OUTLETS[key] = found
    return [list(slots) for slots in found]


def _list_outlets(state: State, levels: list[int]) -> tuple[tuple[tuple[int, int], ...], ...]:
    any_colour = levels[_RM] >= 3
    out: list[list[tuple[int, int]]] = [[], [], []]
    rows = market_rows(state)
    table = _market_slots(state.edition, tuple(state.market_layout), len(state.players), levels[_RM] >= 1)
    for index, row in enumerate(rows):
        held_row = state.markets[index]
        spread = any_colour and row.market != "C"
        for slot, price in table[index]:
            if held_row[slot] >= 0:
                continue
            if spread:
                for colour in range(3):
                    out[colour].append((price, row.grade))
            else:
                out[row.colour].append((price, row.grade))
    bonus = levels[_CO] >= 2
    for order_row in state.order_rows:
        for tile in order_row:
            if tile >= 0:
                for colour, pay, grade in _order_outlets(tile, bonus):
                    out[colour].append((pay, grade))
    for slots in out:
        slots.sort(reverse=True)
    return tuple(tuple(slots) for slots in out)


def _take(slots: list[tuple[int, int]], grade: int) -> int | None:
    """Use the dearest slot that takes a barrel of this grade; its price, or None."""
    for i, (price, accepts) in enumerate(slots):
        if accepts <= grade:
            del slots[i]
            return price
    return None


class _Network:
    """What ``evaluate`` reads from a network, for one Engineering level and one set of
    Refinement Costs: worked out once per network and kept with its map (``NetworkMap.derived``,
    as the rules keep their listings: a map never changes). Only integers and the floats the
    evaluation computed at each call before they were kept here, so keeping them changed no
    value."""

    __slots__ = (
        "reach_of",
        "best_reach",
        "reaches",
        "pipe_terms",
        "first_progress",
        "attached_gain",
        "worth",
        "parts",
    )

    def __init__(self, net: NetworkMap, eng: int, steps: list[tuple[int, int, int]]) -> None:
        pipelines = net.pipelines
        reach_of = {p.key: grade_of(steps[p.colour], p.value(eng)) for p in pipelines}
        self.reach_of = reach_of
        best_reach = [0, 0, 0]
        for p in pipelines:
            best_reach[p.colour] = max(best_reach[p.colour], reach_of[p.key])
        self.best_reach = best_reach
        # Per colour, the grades its Pipelines reach (above Crude), best first.
        self.reaches = [
            sorted(
                (reach_of[p.key] for p in pipelines if p.colour == colour and reach_of[p.key] > 0),
                reverse=True,
            )
            for colour in range(3)
        ]
        # The two best Pipelines of each colour: (weight, sale gain, next step's gain or None,
        # progress towards it), in the order evaluate adds them.
        terms: list[tuple[float, int, int | None, float]] = []
        for colour in range(3):
            pipes = sorted(
                (p for p in pipelines if p.colour == colour), key=lambda p: (-reach_of[p.key], -p.segments)
            )
            for rank, p in enumerate(pipes[:2]):
                weight = 1.0 if rank == 0 else 0.4
                reach = reach_of[p.key]
                gain = SALE[reach] - SALE[0] if reach else 0
                if reach < 3:
                    step = SALE[reach + 1] - SALE[reach] if reach else SALE[1] - SALE[0]
                    terms.append((weight, gain, step, progress_of(steps[colour], reach, p.value(eng))))
                else:
                    terms.append((weight, gain, None, 0.0))
        self.pipe_terms = terms
        # How near the nearest Pipeline is to refining Crude to Low (0..1).
        self.first_progress = max(
            (progress_of(steps[p.colour], 0, p.value(eng)) for p in pipelines), default=0.0
        )
        attached = [p for p in pipelines if p.machines and reach_of[p.key] > 0]
        self.attached_gain = sum(SALE[reach_of[p.key]] - SALE[0] for p in attached[:3])
        values = C.END_PIPELINE_VALUE

        def worth(group: Iterable[Pipeline]) -> int:
            return sum(values[reach_of[p.key]] for p in group)

        def types(group: Iterable[Pipeline]) -> int:
            return C.TYPE_COUNT_VALUE[len({(p.colour, reach_of[p.key]) for p in group if reach_of[p.key]})]

        machine_pipes = [p for p in pipelines if p.machines]
        self.worth = [worth([p for p in pipelines if p.colour == colour]) for colour in range(3)]
        # The Pipeline lines of the score and of the Valuation cards that count only Pipelines.
        self.parts = {
            "pipelines": worth(pipelines),
            "valuation_tile": worth(machine_pipes),
            "PIPELINE_TYPES": types(pipelines),
            "MACHINE_PIPELINE_TYPES": types(machine_pipes),
            "LOW_PIPELINES": values[1] * sum(1 for p in pipelines if reach_of[p.key] == 1),
            "MID_PIPELINES": values[2] * sum(1 for p in pipelines if reach_of[p.key] == 2),
            "HIGH_PIPELINES": values[3] * sum(1 for p in pipelines if reach_of[p.key] == 3),
        }


def _network(state: State, player: PlayerState, eng: int) -> _Network:
    """The player's network as ``evaluate`` reads it with this Engineering level and the
    table's Refinement Costs (kept with the network's map, by the costs themselves)."""
    net = network_map(player)
    kept = net.derived.get("evaluate")
    if kept is None:
        kept = net.derived["evaluate"] = {}
    orange, teal, silver = state.refinement_costs
    key = (eng, *orange, *teal, *silver)
    found = kept.get(key)
    if found is None:
        found = kept[key] = _Network(net, eng, _thresholds(state))
    return found


def evaluate(state: State, seat: int, turn_done: bool = True) -> float:
    """What ``seat``'s position is worth in dollars (see the module doc)."""
    player = state.players[seat]
    if state.over:
        return float(sum(line.amount for line in _score_lines(state, player)))
    left, in_year = rounds_left(state, turn_done)
    h = left / TOTAL_ROUNDS
    sell_w = min(1.0, left / 2) * 0.85
    net = _network(state, player, player.upgrades[_ENG])

    value = float(player.money - C.penalty_total(player.penalties))
    # Cash in hand pays for the next Actions: the first dollars are worth more than face value.
    value += LIQUIDITY * min(player.money, LIQUID_CASH) * min(1.0, max(0, left - 1) / 4)
    oil = [row[:] for row in player.oil]

    # Contracts: held barrels that can fill an open need are worth its pay.
    pen = marginal_penalty(player)
    best_reach = net.best_reach
    cap = 2 if player.level("CO") >= 1 else 1
    future_years = 3 - state.year
    contract_worth = 0.0
    # A need a Pipeline can refine for takes one Crude barrel: in hand, else bought (money, and
    # an Action before the refining). Counted once each: a Contract of three Low needs with one
    # Crude in hand was rated as likely as with three, and 16 of the 23 Contracts the heuristic
    # took in 40 games failed (docs/bots.md, "Contracts the heuristic could not fill").
    crude_left = oil[0][:]
    budget = player.money
    # And a Main Action runs each Pipeline once: a colour's needs share its Pipelines' runs, so
    # a need whose run (and purchase) no Round left in the Year holds is as good as lost.
    refining = [0, 0, 0]
    runs_left = in_year - (1 if not turn_done and state.turn.mains else 0)  # this turn's Main spent
    kinds = {need for o in player.orders for need in C.contract_tile(o.tile).needs}
    for held in player.contracts:
        tile = C.contract_tile(held.tile)
        pays = [_contract_pay(player, grade, C.ContractKind.CONTRACT) for _, grade in tile.needs]
        p_future = 1.0
        for colour, grade in tile.needs:
            p_future *= 0.7 if best_reach[colour] >= grade else 0.2
        years = future_years
        p_all = 1.0
        done_this_year = (
            held.deferred
            or held.completions >= cap
            or (held.completions >= 1 and not any(g >= 0 for g in held.filled))
        )
        if held.deferred:
            years += 1
        if not done_this_year:
            for need, (colour, grade) in enumerate(tile.needs):
                if held.filled[need] >= 0:
                    continue
                used = next((g for g in range(grade, 4) if oil[g][colour] > 0), -1)
                if used >= 0:
                    oil[used][colour] -= 1
                    value += pays[need] * 0.95
                    continue
                pipes = sum(1 for reach in net.reaches[colour] if reach >= grade)
                if pipes:
                    refining[colour] += 1
                    runs = -(-refining[colour] // pipes)
                if in_year <= 0:
                    p = 0.0
                elif not pipes:
                    p = 0.15
                elif crude_left[colour] > 0 and runs <= runs_left:
                    crude_left[colour] -= 1
                    p = 0.8
                elif budget >= CRUDE_PRICE and runs + 1 <= runs_left:
                    budget -= CRUDE_PRICE
                    p = 0.3
                else:
                    p = 0.05
                value += p * pays[need] * 0.4
                p_all *= p
            value -= (1.0 - p_all) * pen
        survive = p_all
        for _ in range(years):
            value += survive * p_future * sum(pays) * 0.3 - survive * (1 - p_future) * pen * 0.8
            survive *= p_future
        contract_worth += (1 - survive) * sum(pays)
        if survive >= 0.5:
            kinds.update(tile.needs)
    # Barrels: each is worth the best free market slot (or Order) that takes it, while Rounds
    # remain to sell; Crude a Pipeline can refine is worth the grade it reaches, if a Tank is free.
    tanks, held_oil = player.tanks, player.oil
    space = [2 * tanks[g] - sum(held_oil[g]) for g in range(4)]  # PlayerState.free_space
    runs = min(2, max(0, left - 1))
    later_w = 0.4 * sell_w if state.year < 3 else 0.0  # a Refresh will free market slots
    outlets = _outlets(state, player)

    def worth(colour: int, grade: int) -> float:
        price = _take(outlets[colour], grade)
        if price is None:
            return C.END_OIL_VALUE[grade] + later_w * (SALE[grade] - C.END_OIL_VALUE[grade])
        return C.END_OIL_VALUE[grade] + sell_w * max(0, price - C.END_OIL_VALUE[grade])

    for colour in range(3):
        for grade in (3, 2, 1):
            for _ in range(oil[grade][colour]):
                value += worth(colour, grade)
        crude = oil[0][colour]
        for reach in net.reaches[colour] * runs:
            if crude <= 0:
                break
            target = next((g for g in range(reach, 0, -1) if space[g] > 0), 0)
            if target == 0:
                break
            space[target] -= 1
            crude -= 1
            value += 0.8 * worth(colour, target)
        for _ in range(crude):
            value += worth(colour, 0)

    # Pipelines: what they will still refine, and progress towards the next grade.
    use_w = min(1.0, max(0, left - 1) / 6)
    for weight, gain, step, progress in net.pipe_terms:  # the two best of each colour
        value += weight * use_w * 2.0 * gain
        if step is not None:  # below High: towards the next grade
            value += weight * use_w * 1.2 * step * progress

    if any(net.best_reach):
        value += use_w * FIRST_PIPELINE
    else:
        value += use_w * FIRST_PIPELINE * net.first_progress

    # Machines: attached Pipelines refine every Machine Phase without an Action.
    if player.machines:
        run_cost = C.MACHINE_RUN_COST_MACHINES_II if player.level("MACH") >= 2 else C.MACHINE_RUN_COST
        per_run = net.attached_gain * 0.5 - run_cost
        value += max(0.0, per_run) * min(4, max(0, left - 1)) * 0.3

    # Tanks: room to buy and refine into.
    value += h * (4 * min(player.tanks[0], 3) + sum(3 * min(n, 2) for n in player.tanks[1:]))

    upgrades = player.upgrades
    for index, sums in _UPGRADE_SUMS:
        value += h * sums[upgrades[index]]

    # End-game parts that are already certain: Pipelines, the Valuation tile and cards.
    # Contracts at risk of failing may not be there to count on the Contract cards.
    # Cards valuing oil in Tanks count only barrels still held at the end, unlikely while they
    # can be sold.
    for line, amount in _scored_parts(state, player, net):
        value += amount
        if line == "card:REFINED_OIL":
            value -= sell_w * amount
        elif line in _COLOUR_CARDS:
            colour = _COLOUR_CARDS[line]
            value -= sell_w * sum(C.END_OIL_VALUE[g] * player.oil[g][colour] for g in range(4))
        if line == "card:CONTRACTS":
            value -= contract_worth
        elif line == "card:OIL_TYPES":
            value += C.TYPE_COUNT_VALUE[min(len(kinds), 9)] - amount
    return value


_COLOUR_CARDS = {"card:ORANGE": 0, "card:TEAL": 1, "card:SILVER": 2}


def _score_lines(state: State, player: PlayerState) -> list[ScoreLine]:
    return score_player(state, player)


def progress_of(steps: tuple[int, int, int], reach: int, value: int) -> float:
    """:func:`pipeline_progress` with the colour's thresholds and the Pipeline's grade at hand."""
    if reach >= 3:
        return 0.0
    low = steps[reach - 1] if reach else 0
    high = steps[reach]
    return (value - low) / max(1, high - low)


_PIPELINE_CARDS = {
    "PIPELINES",
    "MACHINE_PIPELINES",
    "ORANGE",
    "TEAL",
    "SILVER",
    "LOW_PIPELINES",
    "MID_PIPELINES",
    "HIGH_PIPELINES",
    "PIPELINE_TYPES",
    "MACHINE_PIPELINE_TYPES",
}


def _scored_parts(state: State, player: PlayerState, net: _Network) -> list[tuple[str, int]]:
    """The end-game score lines that are already certain (Pipelines, the Valuation tile, each
    Valuation card), as ``scoring.score_player`` gives them, reusing the Pipelines' grades."""
    lines = net.parts
    parts = [("pipelines", lines["pipelines"]), ("valuation_tile", lines["valuation_tile"])]
    for card in state.valuation_cards:
        code, step = _CARD_STEPS.get(card) or _card_step(card)
        if code not in _PIPELINE_CARDS:
            amount = card_value(state, player, card)
        elif code == "PIPELINES":
            amount = parts[0][1]
        elif code == "MACHINE_PIPELINES":
            amount = parts[1][1]
        elif code in _COLOUR_INDEX:
            colour = _COLOUR_INDEX[code]
            amount = sum(C.END_OIL_VALUE[g] * player.oil[g][colour] for g in range(4)) + net.worth[colour]
        else:  # the Pipeline types and the Low, Mid and High Pipelines
            amount = lines[code]
        parts.append((step, amount))
    return parts


_CARD_STEPS: dict[int, tuple[str, str]] = {}  # Valuation card id: its code and its score line


def _card_step(card: int) -> tuple[str, str]:
    code = C.VALUATION_BY_ID[card].code
    found = _CARD_STEPS[card] = (code, f"card:{code}")
    return found


_COLOUR_INDEX = {"ORANGE": 0, "TEAL": 1, "SILVER": 2}


def cheapest_crude(state: State) -> int:
    """The lowest price of a Crude slot in play at this table (its markets' crude rows)."""
    players = len(state.players)
    return min(row.prices[i] for row in market_rows(state) if row.grade == 0 for i in row.slots[players])


def loan_premium(state: State, seat: int, turn_done: bool = False) -> float:
    """What a Loan taken now adds to :func:`evaluate`'s premium on the first dollars of cash,
    for a seat whose next Actions do not wait for cash: a bot deciding on a Loan takes this off.

    A Loan brings $15 and a Penalty marker (rulebook, "Contracts & Loans"; $20 at the end for
    the first). The premium counts the $15 as cash that pays for the next Actions, so under $25 a
    Loan rated $10 above passing, and a hint advised one over refining the Crude at hand (issue
    37, seed 2 move 36). Crude to refine or barrels to sell pay for those Actions as well, at no
    Penalty; only a seat with no oil and less money than the cheapest Crude needs the Loan's cash
    to earn again (as ``expert.rescue_loan``), and for it the premium stands. Counting all cash
    net of the Penalties instead cost the heuristic 26 points a game (docs/bots.md)."""
    player = state.players[seat]
    if not any(any(row) for row in player.oil) and player.money < cheapest_crude(state):
        return 0.0
    left, _in_year = rounds_left(state, turn_done)
    more = min(player.money + C.LOAN_AMOUNT, LIQUID_CASH) - min(player.money, LIQUID_CASH)
    return LIQUIDITY * max(0, more) * min(1.0, max(0, left - 1) / 4)


def relative(state: State, seat: int, turn_done: bool = True) -> float:
    """A seat's worth less the best rival's: what winning depends on."""
    mine = evaluate(state, seat, turn_done)
    others = [evaluate(state, p.seat, True) for p in state.players if p.seat != seat]
    return mine - max(others) if others else mine
