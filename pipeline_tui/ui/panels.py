"""The table's panels as Rich text, each drawn from the engine state alone.

These functions hold no rules: they only show what the state holds, with prices from the
component tables (and ``market_price`` for what the current player would pay).

The markets, Contracts and Orders, shops and Government are drawn from a snapshot of just the
state they show (tuples), by functions of that snapshot alone, cached: most moves leave most of
them as they were, and every session at a shared table redraws its table for every move.
Callers get a copy, theirs to change.
"""

from __future__ import annotations

from functools import lru_cache

from rich.text import Text

from ..data import components as C
from ..data import editions as E
from ..engine import PlayerState, Stage, State, action_title, market_rows, network_map
from .style import EMPTY, GRADE_LETTERS, GRADE_WORDS, OIL_LETTERS, OIL_STYLES, barrel, barrels, seat_style

STAGES = {
    "setup": "Setup",
    "work": "Work Phase",
    "action": "Action",
    "machine": "Machine Phase",
    "over": "Game over",
}
_SHORT = {
    "crude": "Crude",
    "refined1": "Ref 1",
    "refined2": "Ref 2",
    "refined3": "Ref 3",
    "upgrades": "Upgr",
    "tanks": "Tanks",
    "machines": "Mach",
    "contracts": "Contr",
}


def names(state: State, seats) -> str:
    return " > ".join(state.players[s].name for s in seats) or "-"


def track(state: State) -> str:
    """The next-Round Turn Order row: by space (rules version 2, "." = free) or as a list."""
    if not state.next_track:
        return names(state, state.next_order)
    return " ".join(state.players[s].name if s >= 0 else "." for s in state.next_track)


def status(state: State, colours: list[str] | None = None) -> Text:
    """Year, Round, whose turn it is and the turn order of this Round and the next
    (names and worker marks in the seat ``colours``, when given)."""
    if state.over:
        return Text(f"Game over after Year {state.year}", style="bold")
    rounds = C.ROUNDS_PER_YEAR[state.year - 1]
    player = state.players[state.turn.player]
    stage = STAGES.get(state.turn.stage, state.turn.stage)
    if state.turn.stage == Stage.ACTION and state.turn.action:
        stage = f"Action: {action_title(state.turn.action)}"
    text = Text()
    text.append(f"Year {state.year}/3  Round {state.round}/{rounds}  ", style="bold")
    text.append(
        f"{player.seat + 1} {player.name}", style=f"bold reverse {seat_style(colours, player.seat)}".strip()
    )
    text.append(f" {stage}  ")
    text.append(f"Order: {names(state, state.turn_order)}  ")
    text.append(f"Next: {track(state)}  ")
    text.append_text(workers(state, colours))
    return text


def cross(state: State, colours: list[str] | None = None) -> Text:
    """The action cross: markets at the arm ends, the four action tiles inside, workers by seat
    number (in the seat's colour, when given)."""
    at: dict[str, list[int]] = {}
    for p in state.players:
        if p.worker:
            at.setdefault(p.worker, []).append(p.seat + 1)
    cells: dict[tuple[int, int], str] = {}
    for action, cell in C.MARKET_CELLS.items():
        cells[cell] = action
    for action, cell in zip(state.action_tiles, C.INNER_CELLS):
        cells[cell] = action
    out = Text()
    for y in range(-2, 3):
        for x in range(-2, 3):
            action = cells.get((x, y))
            if action is None:
                out.append(" " * 7)
                continue
            seats = at.get(action, [])[:2]
            style = "bold" if action in C.ACTION_TILES else ""
            out.append(f"{_SHORT[action]:<5}", style=style)
            for seat in seats:
                out.append(str(seat), style=f"bold reverse {seat_style(colours, seat - 1)}".strip())
            out.append(" " * (2 - len(seats)))
        if y < 2:
            out.append("\n")
    return out


def workers(state: State, colours: list[str] | None = None) -> Text:
    """Where each worker stands, by seat number (in the seat's colour, when given)."""
    out = Text()
    out.append("Workers", style="dim")
    for p in state.players:
        out.append(" ")
        out.append(f"{p.seat + 1}", style=seat_style(colours, p.seat))
        out.append(f":{_where(p.worker)}")
    return out


def _where(worker: str) -> str:
    if not worker:
        return "-"
    if worker in _SHORT:
        return _SHORT[worker].replace(" ", "")
    return worker.replace("machine ", "M ")


def market(state: State, market_key: str, viewer: PlayerState | None = None) -> Text:
    """One market: per row its code, then each slot in play as price and barrel letter."""
    rows = tuple(
        tuple(state.markets[index])
        for index, row in enumerate(market_rows(state))
        if row.market == market_key
    )
    supply = tuple(state.supply) if market_key == "C" else ()
    return _market(
        state.edition, tuple(state.market_layout), len(state.players), market_key, rows, supply
    ).copy()


@lru_cache(maxsize=64)
def _market(
    edition: int,
    layout: tuple,
    players: int,
    market_key: str,
    rows: tuple[tuple[int, ...], ...],
    supply: tuple[int, ...],
) -> Text:
    out = Text()
    in_market = [row for row in E.market_rows(edition, layout, players) if row.market == market_key]
    for row, slots in zip(in_market, rows):
        if out:
            out.append("\n")
        out.append_text(barrel(row.colour, row.grade))
        for slot, colour in enumerate(slots):
            price = row.prices[row.slots[players][slot]]
            out.append(f" {price:>2}")
            out.append_text(barrel(colour) if colour >= 0 else Text("·", style=EMPTY))
    if market_key == "C":
        out.append("\nBank ")
        for colour in range(3):
            out.append_text(barrel(colour))
            out.append(f"{supply[colour]} ")
    return out


def contracts(state: State) -> Text:
    """Contract rows Low/Mid/High and Order rows 3/4/5, with space numbers as in the notation."""
    return _contracts(
        tuple(map(tuple, state.contract_rows)),
        tuple(len(stack) for stack in state.contract_stacks),
        tuple(map(tuple, state.order_rows)),
    ).copy()


@lru_cache(maxsize=16)
def _contracts(
    contract_rows: tuple[tuple[int, ...], ...],
    stacks: tuple[int, ...],
    order_rows: tuple[tuple[int, ...], ...],
) -> Text:
    out = Text()
    for r, row in enumerate(contract_rows):
        out.append(f"C{GRADE_LETTERS[r + 1]} ", style="bold")
        _tiles_row(out, row)
        out.append(f" stack {stacks[r]}\n", style="dim")
    for r, row in enumerate(order_rows):
        out.append(f"O{r + 3} ", style="bold")
        _tiles_row(out, row)
        if r < 2:
            out.append("\n")
    return out


def _tiles_row(out: Text, row) -> None:
    for slot, tile in enumerate(row):
        out.append(f".{slot + 1} ", style="dim")
        if tile < 0:
            out.append("--", style=EMPTY)
        else:
            out.append_text(barrels(C.contract_tile(tile).needs))
        out.append(" ")


def shops(state: State) -> Text:
    """Tank Shop and Machine Shop rows (price: tiles left, then +reserve) and the Pipe tiles
    beside each shop (T and M), numbered as in the notation."""
    return _shops(
        state.edition,
        tuple(state.tank_shop),
        state.tank_reserve,
        tuple(state.machine_shop),
        state.machine_reserve,
        len(state.pipe_deck),
        tuple(map(tuple, state.shop_pipes)),
    ).copy()


@lru_cache(maxsize=16)
def _shops(
    edition: int,
    tank_shop: tuple[int, ...],
    tank_reserve: int,
    machine_shop: tuple[int, ...],
    machine_reserve: int,
    deck: int,
    shop_pipes: tuple[tuple[int, ...], ...],
) -> Text:
    ed = E.edition(edition)
    out = Text()
    out.append("Tanks    ", style="bold")
    for price, count in zip(ed.tank_shop_prices, tank_shop):
        out.append(f"${price}:{count} ", style="" if count else EMPTY)
    out.append(f"+{tank_reserve}\n", style="dim")
    out.append("Machines ", style="bold")
    for price, count in zip(ed.machine_shop_prices, machine_shop):
        out.append(f"${price}:{count} ", style="" if count else EMPTY)
    out.append(f"+{machine_reserve}\n", style="dim")
    out.append(f"Pipes $15 (1-2) $40 (3-4)  deck {deck}", style="dim")
    for shop, tiles in zip(C.SHOPS, shop_pipes):
        for i, tile in enumerate(tiles):
            if i % 4 == 0:
                out.append(f"\n{shop}:" if i == 0 else "\n  ", style="bold")
            else:
                out.append(" ")
            out.append(f"{i + 1}")
            out.append_text(tile_summary(tile))
    out.rstrip()
    return out


def tile_summary(tile_id: int) -> Text:
    """A Pipe tile in brief: the colours of the two paths of each half, like ``[OT|TS]``."""
    if tile_id < 0:
        return Text("[ -- ]", style=EMPTY)
    tile = C.pipe_tiles()[tile_id]
    out = Text("[")
    for half in (tile.a, tile.b):
        for _, _, colour in half.paths:
            out.append_text(barrel(colour))
        if half is tile.a:
            out.append("|")
    out.append("]")
    return out


def government(state: State) -> Text:
    """The 4 quadrants (open or shut, tiles left) and their 8 spaces, numbered from 1 as in the
    notation (· = taken)."""
    return _government(
        state.edition, tuple(map(tuple, state.government)), tuple(state.government_opened), state.year
    ).copy()


@lru_cache(maxsize=16)
def _government(
    edition: int, spaces: tuple[tuple[int, ...], ...], opened_in: tuple[int, ...], year: int
) -> Text:
    layout = E.edition(edition).government_layout
    out = Text()
    for q in range(C.GOVERNMENT_QUADRANTS):
        opened = opened_in[q]
        left = sum(1 for tile in spaces[q] if tile >= 0)
        label = f"Q{q + 1} {'open' if opened else 'shut'} {left}"
        out.append(f"{label:<10}", style="bold" if opened else "")
    out.rstrip()
    for r in range(4):
        out.append("\n")
        for q in range(C.GOVERNMENT_QUADRANTS):
            for space in layout[r]:
                there = spaces[q][space] >= 0
                out.append(f"{space + 1}" if there else "·", style="" if there else EMPTY)
                out.append(" ")
            out.append("  ")
        out.rstrip()
    limit = C.GOVERNMENT_OPEN_LIMIT[year - 1]
    opened = sum(1 for y in opened_in if y)
    costs = " ".join(str(v) for v in C.GOVERNMENT_COSTS.values())
    out.append(f"\nOpen {opened}/{limit}. 1-5 tiles ${costs}", style="dim")
    return out


def upgrades(state: State) -> Text:
    """The families in play: token up or down, and the cards left per level."""
    out = Text()
    for i, code in enumerate(state.upgrade_families):
        fam = next(f for f in C.UPGRADE_FAMILIES if f.code == code)
        token = "up" if state.upgrade_tokens[i] else "DOWN"
        left = state.upgrade_cards[i]
        out.append(f"{code:<5}", style="bold")
        out.append(f"{fam.name:<19}{token:<5}{left[0]}  {left[1]}  {left[2]}\n")
    out.rstrip()
    return out


def refinement(state: State) -> Text:
    """The Refinement Cost grid: oil type by step; costs add up along one run."""
    out = Text("     C>L L>M M>H", style="bold")
    for colour, row in enumerate(state.refinement_costs):
        out.append("\n  ")
        out.append_text(barrel(colour))
        out.append("  " + "".join(f"{cost:>4}" for cost in row))
    return out


_CARD_SHORT = {
    "REFINED_OIL": "Refined oil in Tanks",
    "PIPELINES": "Pipelines",
    "TANKS": "$10 per Tank",
    "LEVEL3": "$100 per Level 3 Upgrade",
    "MACHINE_PIPELINES": "Pipelines at Machines",
    "SILVER": "Silver oil and Pipelines",
    "ORANGE": "Orange oil and Pipelines",
    "TEAL": "Teal oil and Pipelines",
    "LOW_PIPELINES": "$10 per Low Pipeline",
    "MID_PIPELINES": "$20 per Mid Pipeline",
    "HIGH_PIPELINES": "$30 per High Pipeline",
    "CONTRACTS": "Fulfilled Contracts",
    "ORDERS": "Fulfilled Orders",
    "PIPELINE_TYPES": "Pipeline types",
    "MACHINE_PIPELINE_TYPES": "Pipeline types at Machines",
    "OIL_TYPES": "Oil types delivered",
}


def score_label(step: str, label: str) -> str:
    """A short label for a scoring step (the engine's full labels are long)."""
    if step.startswith("card:"):
        return "Card: " + _CARD_SHORT.get(step[5:], label)
    short = {
        "contracts": "Contracts",
        "valuation_tile": "Tile: Pipelines at Machines",
        "penalties": "Penalties",
    }
    return short.get(step, label)


def valuation(state: State) -> Text:
    """The Valuation tile (always) and this game's cards, in brief (full names in the help)."""
    out = Text("Tile    Pipelines at Machines")
    for card in state.valuation_cards:
        info = C.VALUATION_BY_ID[card]
        out.append(f"\nCard {card:>2} {_CARD_SHORT.get(info.code, info.name)}")
    return out


def board(state: State, seat: int, colours: list[str] | None = None) -> Text:
    """A player board: money, penalties, Tank Farm, Contracts, Orders, upgrades, Pipelines."""
    p = state.players[seat]
    out = Text()
    mark = "  (to play)" if seat == state.turn.player and not state.over else ""
    out.append(f"{seat + 1} {p.name}", style=f"bold {seat_style(colours, seat)}".strip())
    out.append(f"{mark}\n", style="bold")
    out.append(f"Money ${p.money}   Penalty markers {p.penalties}\n")
    out.append("Tank Farm (tank = 2 barrels)\n", style="bold")
    for grade in range(3, -1, -1):
        out.append(f" {GRADE_WORDS[grade]:<5} ")
        queue = [c for c in range(3) for _ in range(p.oil[grade][c])]
        for _ in range(p.tanks[grade]):
            out.append("[")
            for _ in range(2):
                if queue:
                    out.append_text(barrel(queue.pop(0)))
                else:
                    out.append("·", style=EMPTY)
            out.append("]")
        if not p.tanks[grade]:
            out.append("no tanks", style=EMPTY)
        out.append("\n")
    out.append("Contracts\n", style="bold")
    if not p.contracts:
        out.append(" none\n", style=EMPTY)
    for i, held in enumerate(p.contracts):
        tile = C.contract_tile(held.tile)
        state_word = "Deferred" if held.deferred else "Active"
        out.append(f" {i + 1}. {state_word:<8} ")
        for n, ((colour, grade), filled) in enumerate(zip(tile.needs, held.filled)):
            out.append_text(barrel(colour, grade))
            out.append("+ " if filled >= 0 else "- ", style="bold" if filled >= 0 else EMPTY)
        out.append(f"done {held.completions}\n", style="dim")
    out.append("Orders ", style="bold")
    if p.orders:
        out.append_text(Text(", ").join(barrels(C.contract_tile(o.tile).needs) for o in p.orders))
    else:
        out.append("none", style=EMPTY)
    out.append("\nUpgrades ", style="bold")
    owned = [f"{code} {'I' * level}" for code, level in zip(C.UPGRADE_CODES, p.upgrades) if level]
    out.append(", ".join(owned) if owned else "none", style="" if owned else EMPTY)
    out.append("\nLongest Pipeline ", style="bold")
    net = network_map(p)
    for colour, length in enumerate(net.longest()):
        out.append(OIL_LETTERS[colour], style=OIL_STYLES[colour])
        out.append(f" {length}  ")
    out.append(
        f"\nPipelines {len(net.pipelines)}  tiles {len(p.tiles)}  machines {len(p.machines)}", style="dim"
    )
    return out
