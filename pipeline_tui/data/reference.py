"""The component reference for players: every component table with its source, and the full
text of each Contract, Order, upgrade card and Valuation card, in our own words.

:func:`reference` is the one seam between the component data and what players read: the
``pipeline-tui components`` command and the app's reference screen both draw from it, so an
edition's tables change in one place. Texts summarise the rulebook's Appendices (never its
wording) and the readings in ``docs/rules-readings.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import msgspec

from . import components as C
from . import editions as E
from .components import Source
from ..i18n import N_, _, current_language, ngettext, npgettext, pgettext, set_language
from .oil import barrel_code

EDITIONS = E.EDITIONS
LATEST_EDITION = E.PRINTED_EDITION  # what new games use
GRADE_ROWS = {1: "Low", 2: "Mid", 3: "High"}


class TableSource(msgspec.Struct):
    source: Source  # printed, rulebook or design (ours)
    note: str


class ContractEntry(msgspec.Struct):
    id: int
    row: str  # Low, Mid, High: the highest grade it needs
    needs: list[str]  # barrel codes as in the move notation ("SL" = Low Silver)
    pay: int  # one fulfilment at the printed rates
    text: str


class OrderEntry(msgspec.Struct):
    id: int
    size: int  # barrels: the Order row 3, 4 or 5
    needs: list[str]
    pay: int
    text: str


class LadderEntry(msgspec.Struct):
    name: str  # a crude ladder by its prices ("5-11") or a refined pattern by its letter
    prices: dict[str, list[int]]  # per row grade ("crude", "Low", "Mid", "High"), per slot


class MarketRowEntry(msgspec.Struct):
    code: str  # as in the move notation, e.g. "1-OL"
    market: str
    barrel: str
    prices: list[int]  # per printed slot, left to right
    slots: dict[int, list[int]]  # player count -> printed slots in use (from 1)
    supply: int  # barrels added at each Refresh, from the rightmost empty slot leftward
    demand: int  # barrels removed at each Refresh, from left to right


class ShopEntry(msgspec.Struct):
    shop: str
    prices: list[int]  # per row, cheapest first
    printed: int  # printed spaces per row
    spaces: dict[int, list[int]]  # player count -> tiles per row after each refill


class UpgradeEntry(msgspec.Struct):
    family: str  # the code used in the notation, e.g. "HR"
    name: str
    level: int
    text: str


class ValuationEntry(msgspec.Struct):
    id: int  # 0 = the Valuation tile
    name: str
    text: str


class MarkerEntry(msgspec.Struct):
    values: list[int]  # every Refinement Cost marker in the box
    dealt: int
    first_game_removed: int
    text: str


class Reference(msgspec.Struct):
    """Every component table of one edition."""

    edition: int
    sources: dict[str, TableSource]  # table name -> where its values come from
    contracts: list[ContractEntry]
    orders: list[OrderEntry]
    market_tiles: list[LadderEntry]  # edition 2: the crude ladders and refined patterns
    market_rows_note: str
    markets: list[MarketRowEntry]
    shops: list[ShopEntry]
    shop_pipes: str
    upgrades: list[UpgradeEntry]
    valuation_tile: ValuationEntry
    valuations: list[ValuationEntry]
    refinement_markers: MarkerEntry


# --- Full texts ----------------------------------------------------------------------------------


def _barrel_name(colour: int, grade: int) -> str:
    """A barrel in words, e.g. "Low-Grade Teal" (the Russian puts the colour first)."""
    colours = (pgettext("oil", "Orange"), pgettext("oil", "Teal"), pgettext("oil", "Silver"))
    grades = (
        pgettext("oil", "Crude"),
        pgettext("oil", "Low-Grade"),
        pgettext("oil", "Mid-Grade"),
        pgettext("oil", "High-Grade"),
    )
    return _("{grade} {colour}").format(grade=grades[grade], colour=colours[colour])


_CONTRACT_ROWS = {1: N_("Low Contract"), 2: N_("Mid Contract"), 3: N_("High Contract")}


def _counts_barrels() -> bool:
    """Whether the language spoken counts a card's barrels of one kind ("2 куба синей нефти
    низкого сорта") instead of naming each barrel as the English does ("Low-Grade Teal,
    Low-Grade Teal"): it does when it translates the counted form."""
    return npgettext("card needs", "{n} barrel of {oil}", "{n} barrels of {oil}", 1) != "{n} barrel of {oil}"


def _wants(needs: Sequence[tuple[int, int]]) -> str:
    """The barrels a card asks for, as a phrase: each named in turn, or (where the language
    counts them) counted by kind in the order first met, e.g. "2 куба оранжевой нефти низкого
    сорта, 1 куб синей нефти низкого сорта"."""
    if not _counts_barrels():
        return ", ".join(_barrel_name(c, g) for c, g in needs)
    kinds = Counter(needs)
    return ", ".join(
        npgettext("card needs", "{n} barrel of {oil}", "{n} barrels of {oil}", n).format(
            n=n, oil=_oil_of(colour, grade)
        )
        for (colour, grade), n in kinds.items()
    )


def _oil_of(colour: int, grade: int) -> str:
    """The oil of a barrel (Russian genitive: "синей нефти низкого сорта")."""
    colours = (pgettext("oil of", "Orange"), pgettext("oil of", "Teal"), pgettext("oil of", "Silver"))
    forms = (_("{colour} Crude"), _("{colour} Low-Grade"), _("{colour} Mid-Grade"), _("{colour} High-Grade"))
    return forms[grade].format(colour=colours[colour])


def _pay_sum(rates: tuple[int, ...], needs: Sequence[tuple[int, int]]) -> tuple[str, int]:
    """What one fulfilment pays, part by part ("$20 + $20"; where the language counts barrels
    and every barrel pays the same, "$20 за куб"), and in all."""
    pays = [rates[g] for _, g in needs]
    if _counts_barrels() and len(set(pays)) == 1:
        return pgettext("card pay", "${pay} a barrel").format(pay=pays[0]), sum(pays)
    return " + ".join(f"${p}" for p in pays), sum(pays)


def contract_text(tile_id: int) -> str:
    """The full text of a Contract or Order tile (rulebook "Contracts and Loans", "Fulfilling
    Contracts and Orders")."""
    tile = C.contract_tile(tile_id)
    wants = _wants(tile.needs)
    if tile.kind == C.ContractKind.CONTRACT:
        parts, total = _pay_sum(C.CONTRACT_PAY, tile.needs)
        return _(
            "{contract}: {wants}. Pays {parts} = ${total} each Year it is fulfilled, barrel by "
            "barrel at the Contract rates. Taken free with Contracts & Loans, Active or Deferred "
            "to next Year (not in Year 3). An Active Contract must be fulfilled every Year for the "
            "rest of the game, or it is removed with a Penalty marker. Higher grades may fill a "
            "need and are paid at the needed grade."
        ).format(contract=_(_CONTRACT_ROWS[tile.row]), wants=wants, parts=parts, total=total)
    parts, total = _pay_sum(C.ORDER_PAY, tile.needs)
    order = ngettext("Order of {n} barrel", "Order of {n} barrels", tile.row).format(n=tile.row)
    return _(
        "{order}: {wants}. Fulfilled all at once from your Tanks between Actions; pays {parts} = "
        "${total} at the Order rates. It is not refilled once taken. Higher grades may fill a "
        "need and are paid at the needed grade."
    ).format(order=order, wants=wants, parts=parts, total=total)


_UPGRADE_TEXT = {
    ("GOV", 1): N_(
        "Take 2 Government Pipe tiles now, from open quadrants in any mix, and place "
        "them. Every new Year, on your first turn, take 1 more. A gift may open a new "
        "quadrant if none was opened this Year and the Year's limit (2, 3, 4) allows."
    ),
    ("GOV", 2): N_(
        "Take 4 Government Pipe tiles now, from open quadrants in any mix (a gift may "
        "open a quadrant as Level I says)."
    ),
    ("GOV", 3): N_(
        "Take 6 Government Pipe tiles now, from open quadrants in any mix (a gift may "
        "open a quadrant as Level I says)."
    ),
    ("SHOP", 1): N_(
        "Take 2 Tanks from the Tank Shop and 1 Pipe tile from beside either shop now. "
        "Every new Year, on your first turn, take 2 Tanks from the Tank Shop. What the "
        "shops lack is not given, even when it comes back later."
    ),
    ("SHOP", 2): N_(
        "Take 1 Machine from the Machine Shop and 2 Pipe tiles from beside the shops, "
        "in any mix, now. What the shops lack is not given."
    ),
    ("SHOP", 3): N_(
        "Take 1 Machine from the Machine Shop and 4 Pipe tiles from beside the shops, "
        "in any mix, now. What the shops lack is not given."
    ),
    ("HR", 1): N_("Your Secondary Actions are free (instead of $10)."),
    ("HR", 2): N_(
        "Your Secondary Action may be up to 2 spaces from your Main Action on the cross, "
        "the empty centre counting as a space, instead of only the next space on the arm."
    ),
    ("HR", 3): N_(
        "Take any 2 Main Actions in your turn, the same one twice included. With a second "
        "Main Action you take no Secondary Action."
    ),
    ("ENG", 1): N_(
        "Your Pipelines count +1 Refinement Value for every 4 segments, when refining "
        "and in the end-game scoring."
    ),
    ("ENG", 2): N_(
        "Your Pipelines count +2 Refinement Value for every 4 segments instead of +1 "
        "(Level I is discarded), when refining and in the end-game scoring."
    ),
    ("ENG", 3): N_(
        "Each of your Pipelines may refine 2 barrels in one run, both starting at the "
        "same grade (Crude included)."
    ),
    ("RM", 1): N_(
        "Refined oil costs and pays $5 more in the Refined Markets, buying and selling. "
        "Crude oil, Contracts and Orders are unchanged."
    ),
    ("RM", 2): N_(
        "A Refined Market Action lets you buy and sell at all three Refined Markets (not the Crude Market)."
    ),
    ("RM", 3): N_(
        "When you sell to a Refined Market the oil's colour need not match the row; its "
        "grade must still be the row's or higher."
    ),
    ("CO", 1): N_(
        "Each of your Contracts may be fulfilled twice a Year. A second fulfilment, once "
        "begun, must be finished that Year."
    ),
    ("CO", 2): N_("Earn $10 more for every barrel you deliver to a Contract or an Order."),
    ("CO", 3): N_(
        "With the Contracts & Loans Action you may take Orders as if they were Contracts: "
        "fulfilled barrel by barrel, paid at Contract rates, and counted as Contracts "
        "by the Valuation cards."
    ),
    ("MACH", 1): N_(
        "Receive 1 Machine now, from the Machine Shop, or from the stack beside the "
        "board when the shop is empty (rules version 2). As a Main Action you may put "
        "your worker on one of your Machines to run its Pipelines free."
    ),
    ("MACH", 2): N_("Your Machine Phase costs $5 in all instead of $15."),
    ("MACH", 3): N_(
        "You may also run your Machines before your Actions, paying as usual; Machines "
        "run at most once in each phase."
    ),
}


def upgrade_text(family: str, level: int) -> str:
    """The full text of an upgrade card (rulebook Appendix 1, in our words)."""
    return _(_UPGRADE_TEXT[(family, level)])


_END_GRADES = N_("$10, $20 or $30 as one run takes a Crude barrel to Low, Mid or High-Grade")
_TYPES = N_("1 to 9 kinds earn $10, 30, 60, 100, 150, 210, 280, 360, 450")
_VALUATION_TEXT = {
    "REFINED_OIL": N_(
        "Your Low, Mid and High barrels in your Tanks earn their end-game value again ($10, $20, "
        "$30); Crude earns nothing."
    ),
    "PIPELINES": N_("Every Pipeline in your network earns again: {end_grades}."),
    "TANKS": N_("$10 for every Tank you own."),
    "LEVEL3": N_("$100 for every Level III upgrade you own."),
    "MACHINE_PIPELINES": N_(
        "Every Pipeline attached to a Machine earns {end_grades}. The Valuation tile has the same "
        "effect and is always in play; with this card both count."
    ),
    "SILVER": N_(
        "Your Silver barrels earn their end-game value ($0 Crude to $30 High); each of your "
        "Silver Pipelines earns {end_grades}."
    ),
    "ORANGE": N_(
        "Your Orange barrels earn their end-game value ($0 Crude to $30 High); each of your "
        "Orange Pipelines earns {end_grades}."
    ),
    "TEAL": N_(
        "Your Teal barrels earn their end-game value ($0 Crude to $30 High); each of your Teal "
        "Pipelines earns {end_grades}."
    ),
    "LOW_PIPELINES": N_("$10 for every Pipeline whose best run takes Crude to Low-Grade and no further."),
    "MID_PIPELINES": N_("$20 for every Pipeline whose best run takes Crude to Mid-Grade and no further."),
    "HIGH_PIPELINES": N_("$30 for every Pipeline that takes Crude to High-Grade in one run."),
    "CONTRACTS": N_("Every Contract you still hold pays again as if fulfilled once more, at your own rates."),
    "ORDERS": N_("Every Order you fulfilled pays again at your own Order rates."),
    "PIPELINE_TYPES": N_(
        "Count the kinds of Pipeline in your network, a kind being a colour and the best grade it "
        "takes Crude to (9 kinds); {types}."
    ),
    "MACHINE_PIPELINE_TYPES": N_(
        "Count the kinds of Pipeline attached to your Machines, a kind being a colour and the best "
        "grade it takes Crude to; {types}."
    ),
    "OIL_TYPES": N_(
        "Count the different oils (colour and grade) needed by your remaining Contracts and "
        "fulfilled Orders; {types}."
    ),
}
"""Valuation card texts by card code; ``{end_grades}`` and ``{types}`` stand for the scales
several cards share (:data:`_END_GRADES`, :data:`_TYPES`)."""


def valuation_text(card_id: int) -> str:
    """The full text of a Valuation card, or of the Valuation tile for id 0 (Appendix 2)."""
    code = "MACHINE_PIPELINES" if card_id == 0 else C.VALUATION_BY_ID[card_id].code
    return _(_VALUATION_TEXT[code]).format(end_grades=_(_END_GRADES), types=_(_TYPES))


# --- The tables ----------------------------------------------------------------------------------

_SHOP_PIPES = TableSource(Source.RULEBOOK, N_("prices, and 2 tiles per player by each shop"))


def _sources(ed: E.Edition) -> dict[str, TableSource]:
    out = {entry.table: TableSource(entry.source, entry.note) for entry in ed.sources}
    out[N_("shop pipes")] = _SHOP_PIPES
    return out


def _contract_entry(tile: C.ContractTile) -> ContractEntry:
    needs = [barrel_code(c, g) for c, g in tile.needs]
    return ContractEntry(
        tile.id,
        GRADE_ROWS[tile.row],
        needs,
        sum(C.CONTRACT_PAY[g] for _, g in tile.needs),
        contract_text(tile.id),
    )


def _order_entry(tile: C.ContractTile) -> OrderEntry:
    needs = [barrel_code(c, g) for c, g in tile.needs]
    return OrderEntry(
        tile.id, tile.row, needs, sum(C.ORDER_PAY[g] for _, g in tile.needs), contract_text(tile.id)
    )


def _market_tiles(ed: E.Edition) -> list[LadderEntry]:
    tiles = [LadderEntry(f"{ladder[0]}-{ladder[-1]}", {"crude": list(ladder)}) for ladder in ed.crude_ladders]
    tiles += [
        LadderEntry(E.PATTERN_NAMES[i], {GRADE_ROWS[g + 1]: list(p) for g, p in enumerate(pattern)})
        for i, pattern in enumerate(ed.refined_patterns)
    ]
    return tiles


def _market_rows(ed: E.Edition) -> tuple[str, tuple[C.MarketRow, ...]]:
    """Edition 1's fixed rows, or edition 2's rows in the photographed setup as an example."""
    if ed.number == 1:
        return _("The rows are fixed in this edition."), C.MARKET_ROWS
    return (
        _(
            "The market tiles are placed at random at each setup; as an example, the rows of "
            "the photographed 2-player setup (refresh amounts for 2 players)."
        ),
        E.printed_market_rows(E.PHOTOGRAPHED_LAYOUT, 2),
    )


def _market_entry(row: C.MarketRow) -> MarketRowEntry:
    return MarketRowEntry(
        row.code,
        C.MARKET_NAMES[row.market],
        barrel_code(row.colour, row.grade),
        list(row.prices),
        {n: [i + 1 for i in row.slots[n]] for n in row.slots},
        row.supply,
        row.demand,
    )


def reference(edition: int = LATEST_EDITION) -> Reference:
    """Every component table of ``edition``, each naming its source."""
    ed = E.edition(edition)
    pipe_costs = C.SHOP_PIPE_COSTS
    rows_note, rows = _market_rows(ed)
    return Reference(
        edition=edition,
        sources=_sources(ed),
        contracts=[_contract_entry(t) for t in ed.contracts],
        orders=[_order_entry(t) for t in ed.orders],
        market_tiles=_market_tiles(ed),
        market_rows_note=rows_note,
        markets=[_market_entry(row) for row in rows],
        shops=[
            ShopEntry(
                N_("Tank Shop"),
                list(ed.tank_shop_prices),
                ed.tank_shop_printed,
                {n: list(s) for n, s in ed.tank_shop_spaces.items()},
            ),
            ShopEntry(
                N_("Machine Shop"),
                list(ed.machine_shop_prices),
                ed.machine_shop_printed,
                {n: list(s) for n, s in ed.machine_shop_spaces.items()},
            ),
        ],
        shop_pipes=_(
            "{n} Pipe tiles per player beside each shop, refreshed each Year; ${two} for 1 or 2 "
            "in one Action, ${four} for 3 or 4."
        ).format(n=C.SHOP_PIPES_PER_PLAYER, two=pipe_costs[2], four=pipe_costs[4]),
        upgrades=[
            UpgradeEntry(f.code, f.name, level, upgrade_text(f.code, level))
            for f in C.UPGRADE_FAMILIES
            for level in (1, 2, 3)
        ],
        valuation_tile=ValuationEntry(0, C.VALUATION_TILE, valuation_text(0)),
        valuations=[
            ValuationEntry(card.id, card.name, valuation_text(card.id)) for card in C.VALUATION_CARDS
        ],
        refinement_markers=MarkerEntry(
            list(C.REFINEMENT_MARKERS),
            9,
            C.FIRST_GAME_REMOVED_MARKER,
            _(
                "Shuffled face down; 9 are dealt face up in a 3 x 3 grid, a row per colour and a "
                "column per step (Crude to Low, Low to Mid, Mid to High). Refining costs the sum of "
                "the markers along the steps. The first game leaves out the 7s."
            ),
        ),
    )


def reference_json(edition: int = LATEST_EDITION) -> bytes:
    """The reference as JSON (msgspec), for tools: always in English, whatever the language
    spoken, as ``--json`` output is language-neutral (issue 15)."""
    spoken = current_language()
    set_language("en")
    try:
        return msgspec.json.format(msgspec.json.encode(reference(edition)), indent=1)
    finally:
        set_language(spoken)
