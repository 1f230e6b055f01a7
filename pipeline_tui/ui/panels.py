"""The table's panels as Rich text, each drawn from the engine state alone.

These functions hold no rules: they only show what the state holds, with prices from the
component tables (and ``market_price`` for what the current player would pay).

The markets, Contracts and Orders, shops and Government are drawn from a snapshot of just the
state they show (tuples), by functions of that snapshot alone, cached: most moves leave most of
them as they were, and every session at a shared table redraws its table for every move.
Callers get a copy, theirs to change. The cache is keyed by the language too: every word is
translated as the panel is made (:mod:`pipeline_tui.i18n`), so a language switched live shows
at the next redraw.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from rich.text import Text

from ..data import components as C
from ..data import editions as E
from ..engine import PlayerState, Stage, State, action_title, market_rows, network_map
from ..i18n import N_, _, current_language, pgettext
from .style import EMPTY, GRADE_LETTERS, OIL_LETTERS, OIL_STYLES, barrel, barrels, seat_style

STAGES = {
    "setup": N_("Setup"),
    "work": N_("Work Phase"),
    "action": N_("Action"),
    "machine": N_("Machine Phase"),
    "over": N_("Game over"),
}
"""The parts of a Round (rulebook "Work Phase", "Machine Phase"), translated where shown."""


def _short() -> dict[str, str]:
    """The action cross's labels, at most 5 characters in every language."""
    return {
        "crude": pgettext("action cross", "Crude"),
        "refined1": pgettext("action cross", "Ref 1"),
        "refined2": pgettext("action cross", "Ref 2"),
        "refined3": pgettext("action cross", "Ref 3"),
        "upgrades": pgettext("action cross", "Upgr"),
        "tanks": pgettext("action cross", "Tanks"),
        "machines": pgettext("action cross", "Mach"),
        "contracts": pgettext("action cross", "Contr"),
    }


def row_words() -> tuple[str, ...]:
    """The Tank Farm's rows by grade (Crude, Low, Mid, High), at most 5 characters; also the
    grade a Pipeline takes a Crude barrel to."""
    return (
        pgettext("tank farm row", "Crude"),
        pgettext("tank farm row", "Low"),
        pgettext("tank farm row", "Mid"),
        pgettext("tank farm row", "High"),
    )


def _pad(words: list[str]) -> list[str]:
    """Labels padded to the longest, so the columns after them line up in any language."""
    width = max(len(word) for word in words)
    return [f"{word:<{width}}" for word in words]


def names(state: State, seats: Iterable[int]) -> str:
    return " > ".join(state.players[s].name for s in seats) or "-"


def track(state: State) -> str:
    """The next-Round Turn Order row: by space (rules version 2, "." = free) or as a list."""
    if not state.next_track:
        return names(state, state.next_order)
    return " ".join(state.players[s].name if s >= 0 else "." for s in state.next_track)


def status(state: State, colours: list[str] | None = None) -> Text:
    """Year, Round, whose turn it is and the turn order of this Round and the next
    (names and worker marks in the seat ``colours``, when given): :func:`status_parts` on
    one line."""
    return Text("  ").join(status_parts(state, colours))


def status_parts(state: State, colours: list[str] | None = None) -> list[Text]:
    """The status line's parts, each to be kept whole on a line: the Year and Round, the seat
    to act and its stage, this Round's Turn Order, the next Round's and the workers."""
    if state.over:
        return [Text(_("Game over after Year {year}").format(year=state.year), style="bold")]
    rounds = C.ROUNDS_PER_YEAR[state.year - 1]
    player = state.players[state.turn.player]
    stage = _(STAGES[state.turn.stage]) if state.turn.stage in STAGES else state.turn.stage
    if state.turn.stage == Stage.ACTION and state.turn.action:
        stage = _("Action: {action}").format(action=action_title(state.turn.action))
    when = Text(
        _("Year {year}/3  Round {round}/{rounds}").format(year=state.year, round=state.round, rounds=rounds),
        style="bold",
    )
    who = Text()
    who.append(
        f"{player.seat + 1} {player.name}", style=f"bold reverse {seat_style(colours, player.seat)}".strip()
    )
    who.append(f" {stage}")
    return [
        when,
        who,
        Text(_("Order: {names}").format(names=names(state, state.turn_order))),
        Text(_("Next: {names}").format(names=track(state))),
        workers(state, colours),
    ]


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
    short = _short()
    out = Text()
    for y in range(-2, 3):
        for x in range(-2, 3):
            found = cells.get((x, y))
            if found is None:
                out.append(" " * 8)
                continue
            action = found
            seats = at.get(action, [])[:2]
            style = "bold" if action in C.ACTION_TILES else ""
            out.append(f"{short[action][:5]:<5}", style=style)
            out.append(" ")  # the workers apart from the label: "Ref 1 1", not "Ref 11" (issue 37)
            for seat in seats:
                out.append(str(seat), style=f"bold reverse {seat_style(colours, seat - 1)}".strip())
            out.append(" " * (2 - len(seats)))
        if y < 2:
            out.append("\n")
    return out


def workers(state: State, colours: list[str] | None = None) -> Text:
    """Where each worker stands, by seat number (in the seat's colour, when given)."""
    out = Text()
    out.append(_("Workers"), style="dim")
    for p in state.players:
        out.append(" ")
        out.append(f"{p.seat + 1}", style=seat_style(colours, p.seat))
        out.append(f":{_where(p.worker)}")
    return out


def _where(worker: str) -> str:
    if not worker:
        return "-"
    short = _short()
    if worker in short:
        return short[worker].replace(" ", "")
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
        state.edition,
        tuple(state.market_layout),
        len(state.players),
        market_key,
        rows,
        supply,
        current_language(),
    ).copy()


@lru_cache(maxsize=64)
def _market(
    edition: int,
    layout: tuple[tuple[int, int], ...],
    players: int,
    market_key: str,
    rows: tuple[tuple[int, ...], ...],
    supply: tuple[int, ...],
    language: str,
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
        out.append("\n" + _("Bank") + " ")
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
        current_language(),
    ).copy()


@lru_cache(maxsize=16)
def _contracts(
    contract_rows: tuple[tuple[int, ...], ...],
    stacks: tuple[int, ...],
    order_rows: tuple[tuple[int, ...], ...],
    language: str,
) -> Text:
    out = Text()
    for r, row in enumerate(contract_rows):
        out.append(f"C{GRADE_LETTERS[r + 1]} ", style="bold")
        _tiles_row(out, row)
        out.append(" " + _("stack {n}").format(n=stacks[r]) + "\n", style="dim")
    for r, row in enumerate(order_rows):
        out.append(f"O{r + 3} ", style="bold")
        _tiles_row(out, row)
        if r < 2:
            out.append("\n")
    return out


def _tiles_row(out: Text, row: Iterable[int]) -> None:
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
        current_language(),
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
    language: str,
) -> Text:
    ed = E.edition(edition)
    tanks, machines = _pad([_("Tanks"), _("Machines")])
    out = Text()
    out.append(tanks + " ", style="bold")
    for price, count in zip(ed.tank_shop_prices, tank_shop):
        out.append(f"${price}:{count} ", style="" if count else EMPTY)
    out.append(f"+{tank_reserve}\n", style="dim")
    out.append(machines + " ", style="bold")
    for price, count in zip(ed.machine_shop_prices, machine_shop):
        out.append(f"${price}:{count} ", style="" if count else EMPTY)
    out.append(f"+{machine_reserve}\n", style="dim")
    out.append(_("Pipes $15 (1-2) $40 (3-4)  deck {deck}").format(deck=deck), style="dim")
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
        for _from, _to, colour in half.paths:
            out.append_text(barrel(colour))
        if half is tile.a:
            out.append("|")
    out.append("]")
    return out


def government(state: State) -> Text:
    """The 4 quadrants (open or shut, tiles left) and their 8 spaces, numbered from 1 as in the
    notation (· = taken)."""
    return _government(
        state.edition,
        tuple(map(tuple, state.government)),
        tuple(state.government_opened),
        state.year,
        current_language(),
    ).copy()


@lru_cache(maxsize=16)
def _government(
    edition: int, spaces: tuple[tuple[int, ...], ...], opened_in: tuple[int, ...], year: int, language: str
) -> Text:
    layout = E.edition(edition).government_layout
    out = Text()
    for q in range(C.GOVERNMENT_QUADRANTS):
        opened = opened_in[q]
        left = sum(1 for tile in spaces[q] if tile >= 0)
        label = (_("Q{q} open {left}") if opened else _("Q{q} shut {left}")).format(q=q + 1, left=left)
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
    out.append(
        "\n" + _("Open {opened}/{limit}. 1-5 tiles ${costs}").format(opened=opened, limit=limit, costs=costs),
        style="dim",
    )
    return out


def upgrades(state: State) -> Text:
    """The families in play: token up or down, and the cards left per level."""
    out = Text()
    families = [C.upgrade_family(code) for code in state.upgrade_families]
    width = max([19, *(len(_(fam.name)) + 1 for fam in families)])
    for i, (code, fam) in enumerate(zip(state.upgrade_families, families)):
        token = _("up") if state.upgrade_tokens[i] else _("DOWN")
        left = state.upgrade_cards[i]
        out.append(f"{code:<5}", style="bold")
        out.append(f"{_(fam.name):<{width}}{token:<5}{left[0]}  {left[1]}  {left[2]}\n")
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
    "REFINED_OIL": N_("Refined oil in Tanks"),
    "PIPELINES": N_("Pipelines"),
    "TANKS": N_("$10 per Tank"),
    "LEVEL3": N_("$100 per Level 3 Upgrade"),
    "MACHINE_PIPELINES": N_("Pipelines at Machines"),
    "SILVER": N_("Silver oil and Pipelines"),
    "ORANGE": N_("Orange oil and Pipelines"),
    "TEAL": N_("Teal oil and Pipelines"),
    "LOW_PIPELINES": N_("$10 per Low Pipeline"),
    "MID_PIPELINES": N_("$20 per Mid Pipeline"),
    "HIGH_PIPELINES": N_("$30 per High Pipeline"),
    "CONTRACTS": N_("Fulfilled Contracts"),
    "ORDERS": N_("Fulfilled Orders"),
    "PIPELINE_TYPES": N_("Pipeline types"),
    "MACHINE_PIPELINE_TYPES": N_("Pipeline types at Machines"),
    "OIL_TYPES": N_("Oil types delivered"),
}
"""Valuation cards in brief (rulebook Appendix 2 has them in full), translated where shown."""
_STEP_SHORT = {
    "contracts": N_("Contracts"),
    "valuation_tile": N_("Tile: Pipelines at Machines"),
    "penalties": N_("Penalties"),
}


def _card_short(code: str, name: str) -> str:
    return _(_CARD_SHORT[code]) if code in _CARD_SHORT else _(name)


def score_label(step: str, label: str) -> str:
    """A short label for a scoring step (the engine's full labels are long)."""
    if step.startswith("card:"):
        return _("Card: {card}").format(card=_card_short(step[5:], label))
    return _(_STEP_SHORT[step]) if step in _STEP_SHORT else label


def valuation(state: State) -> Text:
    """The Valuation tile (always) and this game's cards, in brief (full names in the help)."""
    tile = _CARD_SHORT["MACHINE_PIPELINES"]  # the Valuation tile scores as this card does
    out = Text(_("Tile    {name}").format(name=_(tile)))
    for card in state.valuation_cards:
        info = C.VALUATION_BY_ID[card]
        name = _card_short(info.code, info.name)
        out.append("\n" + _("Card {number:>2} {name}").format(number=card, name=name))
    return out


def board(state: State, seat: int, colours: list[str] | None = None) -> Text:
    """A player board: money, penalties, Tank Farm, Contracts, Orders, upgrades, Pipelines."""
    p = state.players[seat]
    out = Text()
    mark = "  " + _("(to play)") if seat == state.turn.player and not state.over else ""
    out.append(f"{seat + 1} {p.name}", style=f"bold {seat_style(colours, seat)}".strip())
    out.append(f"{mark}\n", style="bold")
    out.append(
        _("Money ${money}   Penalty markers {penalties}").format(money=p.money, penalties=p.penalties) + "\n"
    )
    out.append(_("Tank Farm (tank = 2 barrels)") + "\n", style="bold")
    rows = row_words()
    for grade in range(3, -1, -1):
        out.append(f" {rows[grade][:5]:<5} ")
        queue = [c for c in range(3) for _barrel in range(p.oil[grade][c])]
        for _tank in range(p.tanks[grade]):
            out.append("[")
            for _half in range(2):
                if queue:
                    out.append_text(barrel(queue.pop(0)))
                else:
                    out.append("·", style=EMPTY)
            out.append("]")
        if not p.tanks[grade]:
            out.append(_("no tanks"), style=EMPTY)
        out.append("\n")
    out.append(_("Contracts") + "\n", style="bold")
    if not p.contracts:
        out.append(" " + _("none") + "\n", style=EMPTY)
    deferred, active = _pad([_("Deferred"), _("Active"), "x" * 8])[:2]
    for i, held in enumerate(p.contracts):
        tile = C.contract_tile(held.tile)
        out.append(f" {i + 1}. {deferred if held.deferred else active} ")
        for n, ((colour, grade), filled) in enumerate(zip(tile.needs, held.filled)):
            out.append_text(barrel(colour, grade))
            out.append("+ " if filled >= 0 else "- ", style="bold" if filled >= 0 else EMPTY)
        out.append(_("done {n}").format(n=held.completions) + "\n", style="dim")
    out.append(_("Orders") + " ", style="bold")
    if p.orders:
        out.append_text(Text(", ").join(barrels(C.contract_tile(o.tile).needs) for o in p.orders))
    else:
        out.append(_("none"), style=EMPTY)
    out.append("\n" + _("Upgrades") + " ", style="bold")
    owned = [f"{code} {'I' * level}" for code, level in zip(C.UPGRADE_CODES, p.upgrades) if level]
    out.append(", ".join(owned) if owned else _("none"), style="" if owned else EMPTY)
    out.append("\n" + _("Longest Pipeline") + " ", style="bold")
    net = network_map(p)
    for colour, length in enumerate(net.longest()):
        out.append(OIL_LETTERS[colour], style=OIL_STYLES[colour])
        out.append(f" {length}  ")
    out.append(
        "\n"
        + _("Pipelines {pipelines}  tiles {tiles}  machines {machines}").format(
            pipelines=len(net.pipelines), tiles=len(p.tiles), machines=len(p.machines)
        ),
        style="dim",
    )
    return out
