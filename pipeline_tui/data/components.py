"""Every component of Pipeline as data, in one place, per component edition.

Edition 1 holds the values we designed while the rulebook's pictures were missing; edition 2
holds the printed components from a public transcription (see ``editions.py`` and
docs/components.md). Each table names its :class:`Source`. Change a ``DESIGN`` value only with
evidence from the bot arena and a CHANGELOG line.
"""

from __future__ import annotations

import json
from enum import StrEnum
from functools import lru_cache

import msgspec

from ..i18n import N_
from .oil import COLOUR_LETTERS, EDGE_LETTERS, parse_barrel


class Source(StrEnum):
    """Where a table's values come from."""

    PRINTED = "printed"  # the public transcription of the printed components
    RULEBOOK = "rulebook"  # the rulebook's text, or public sources agreeing with it
    DESIGN = "design"  # our design: nothing public is known


PUBLIC = Source.RULEBOOK
DESIGN = Source.DESIGN

# --- Counts and rules constants (rulebook "Contents" and setup) ------------------------------

PLAYER_COUNTS = (2, 3, 4)
BARRELS_PER_COLOUR = 44  # PUBLIC: 44 cubes of each colour
PIPE_TILES = 135  # PUBLIC
MACHINE_TILES = 18  # PUBLIC
TANK_TILES = 58  # PUBLIC
START_MONEY = 40  # PUBLIC: "Each player takes $40"
START_TANKS = 5  # PUBLIC
MAX_TANKS_PER_ROW = 5  # PUBLIC (player board has 5 columns)
BARRELS_PER_TANK = 2  # PUBLIC
ROUNDS_PER_YEAR = (8, 6, 4)  # PUBLIC: years 1, 2, 3
SECONDARY_ACTION_COST = 10  # PUBLIC
LOAN_AMOUNT = 15  # PUBLIC
UPGRADE_PRICE = 20  # PUBLIC
UPGRADES_PER_ACTION = 2  # PUBLIC
CONTRACTS_PER_ACTION = 3  # PUBLIC
MACHINE_RUN_COST = 15  # PUBLIC
MACHINE_RUN_COST_MACHINES_II = 5  # PUBLIC
SHOP_PIPE_COSTS = {1: 15, 2: 15, 3: 40, 4: 40}  # PUBLIC: $15 for 1-2 tiles, $40 for 3-4
GOVERNMENT_COSTS = {1: 5, 2: 10, 3: 20, 4: 35, 5: 55}  # PUBLIC
GOVERNMENT_OPEN_LIMIT = (2, 3, 4)  # PUBLIC: quadrants that may be open in years 1, 2, 3

# Pay per barrel by required grade (index = grade; crude is never required). PUBLIC, medium.
CONTRACT_PAY = (0, 20, 35, 45)
ORDER_PAY = (0, 30, 45, 55)
CONTRACTS_ORDERS_II_BONUS = 10  # PUBLIC
REFINED_MARKETS_I_BONUS = 5  # PUBLIC
# End-game values. PUBLIC (rulebook end-game table).
END_OIL_VALUE = (0, 10, 20, 30)  # per barrel by grade
END_PIPELINE_VALUE = (0, 10, 20, 30)  # by the highest grade a crude barrel reaches in one run
TYPE_COUNT_VALUE = (0, 10, 30, 60, 100, 150, 210, 280, 360, 450)  # PUBLIC: valuation tables


def penalty_total(markers: int) -> int:
    """Money lost at the end for ``markers`` Penalty markers (rulebook table: 1: $20 ... 10: $650).

    >>> [penalty_total(n) for n in (0, 1, 2, 5, 10)]
    [0, 20, 50, 200, 650]
    """
    return 5 * markers * (markers + 3)


# --- Pipe tiles (generated, see tilegen.py) ---------------------------------------------------


class TileHalf(msgspec.Struct, frozen=True):
    """Two paths inside one half, each (edge, edge, colour) with edges N=0 E=1 S=2 W=3."""

    paths: tuple[tuple[int, int, int], tuple[int, int, int]]


class PipeTile(msgspec.Struct, frozen=True):
    id: int
    a: TileHalf
    b: TileHalf


def _parse_path(text: str) -> tuple[int, int, int]:
    edges, colour = text.split(":")
    return (EDGE_LETTERS.index(edges[0]), EDGE_LETTERS.index(edges[1]), COLOUR_LETTERS.index(colour))


@lru_cache(maxsize=1)
def pipe_tiles() -> tuple[PipeTile, ...]:
    """The 135 pipe tiles, loaded from the checked-in ``pipe_tiles.json``."""
    from .tilegen import TILES_FILE

    raw = json.loads(TILES_FILE.read_text(encoding="utf-8"))
    return tuple(
        PipeTile(
            id=t["id"],
            a=TileHalf(tuple(_parse_path(p) for p in t["a"])),  # type: ignore[arg-type]
            b=TileHalf(tuple(_parse_path(p) for p in t["b"])),  # type: ignore[arg-type]
        )
        for t in raw["tiles"]
    )


# --- Markets ----------------------------------------------------------------------------------


class MarketRow(msgspec.Struct, frozen=True):
    """One row of a market: one colour and grade, a price per printed slot, and which slots
    each player count uses (Market Overlay tiles cover the others)."""

    code: str  # market letter + barrel code, e.g. "1-OL" or "C-TC"
    market: str  # "C" (Crude Market) or "1", "2", "3" (Refined Markets)
    colour: int
    grade: int
    prices: tuple[int, ...]
    slots: dict[int, tuple[int, ...]]  # player count -> indices into prices that are in play
    supply: int  # barrels added each refresh, filling from the rightmost empty slot leftward
    demand: int  # barrels removed each refresh, from left to right
    starts_full: bool
    source: Source


def _row(
    market: str,
    barrel: str,
    prices: tuple[int, ...],
    supply: int = 0,
    demand: int = 0,
    source: Source = DESIGN,
) -> MarketRow:
    colour, grade = parse_barrel(barrel)
    n = len(prices)
    if n == 6:  # crude rows: overlays cover the leftmost slots
        slots = {2: tuple(range(2, 6)), 3: tuple(range(1, 6)), 4: tuple(range(6))}
    else:  # refined rows: 2 players use the middle two, 3 players drop the leftmost
        slots = {2: (1, 2), 3: (1, 2, 3), 4: (0, 1, 2, 3)}
    return MarketRow(
        f"{market}-{barrel}",
        market,
        colour,
        grade,
        prices,
        slots,
        supply,
        demand,
        starts_full=grade == 0,
        source=source,
    )


# Edition 1's fixed markets. DESIGN, constrained by the PUBLIC prices known before the transcription
# (M1 silver High 50,50,55,55; M1 orange Low 25; M2 orange Low 30,30; M2 teal High and Mid 45;
# M2 silver crude 10).
MARKET_ROWS: tuple[MarketRow, ...] = (
    _row("C", "OC", (10, 9, 8, 7, 6, 5), supply=4),
    _row("C", "TC", (10, 9, 8, 7, 6, 5), supply=4),
    _row("C", "SC", (10, 9, 8, 7, 6, 5), supply=4),
    _row("1", "TC", (12, 11, 10, 10, 9, 8), supply=3),
    _row("1", "OL", (25, 25, 30, 30), demand=1),
    _row("1", "OM", (35, 35, 40, 40), demand=1),
    _row("1", "OH", (45, 45, 50, 50), demand=1),
    _row("1", "SL", (25, 25, 30, 30), demand=2),
    _row("1", "SM", (40, 40, 45, 45), demand=1),
    _row("1", "SH", (50, 50, 55, 55), demand=0),
    _row("2", "SC", (12, 11, 10, 10, 9, 8), supply=2),
    _row("2", "TL", (25, 25, 30, 30), demand=2),
    _row("2", "TM", (40, 40, 45, 45), demand=1),
    _row("2", "TH", (45, 45, 50, 50), demand=1),
    _row("2", "OL", (30, 30, 35, 35), demand=1),
    _row("2", "OM", (35, 35, 40, 40), demand=1),
    _row("2", "OH", (45, 45, 50, 50), demand=0),
    _row("3", "OC", (12, 11, 10, 10, 9, 8), supply=3),
    _row("3", "SL", (25, 30, 30, 35), demand=1),
    _row("3", "SM", (35, 35, 40, 40), demand=2),
    _row("3", "SH", (45, 45, 50, 50), demand=1),
    _row("3", "TL", (25, 25, 30, 30), demand=1),
    _row("3", "TM", (35, 40, 40, 45), demand=1),
    _row("3", "TH", (50, 50, 55, 55), demand=0),
)
MARKET_ROW_INDEX = {row.code: i for i, row in enumerate(MARKET_ROWS)}
MARKET_NAMES = {
    "C": N_("Crude Market"),
    "1": N_("Refined Market 1"),
    "2": N_("Refined Market 2"),
    "3": N_("Refined Market 3"),
}

# --- Shops, edition 1 (DESIGN: tanks cheaper than machines; Machine Shop $20 and $30 PUBLIC) --

TANK_SHOP_PRICES = (5, 10, 15)  # DESIGN
TANK_SHOP_SPACES = {2: (2, 2, 2), 3: (3, 3, 2), 4: (4, 4, 3)}  # DESIGN
MACHINE_SHOP_PRICES = (20, 30, 40)  # PUBLIC for $20 and $30, DESIGN for $40
MACHINE_SHOP_SPACES = {2: (1, 1, 1), 3: (1, 2, 1), 4: (2, 2, 2)}  # DESIGN
SHOP_PIPES_PER_PLAYER = 2  # PUBLIC: "reveal 2 Pipe tiles per player" next to each shop
SHOPS = ("T", "M")  # pipe rows next to the Tank Shop and next to the Machine Shop

# --- Contracts and Orders (edition 1 DESIGN: tile faces were unknown; edition 2 PRINTED) -----


class ContractKind(StrEnum):
    """The two kinds of Contract tiles (rulebook "Contracts", "Orders"), as moves name them."""

    CONTRACT = "contract"
    ORDER = "order"


class ContractTile(msgspec.Struct, frozen=True):
    """A Contract (row = its highest grade 1..3) or an Order (row = its barrel count 3..5).
    Requirements are (colour, grade) pairs of refined oil."""

    id: int
    kind: ContractKind
    row: int
    needs: tuple[tuple[int, int], ...]
    source: Source = DESIGN


def _tiles(
    kind: ContractKind, specs: list[str], start: int, source: Source = DESIGN
) -> tuple[ContractTile, ...]:
    out = []
    for i, spec in enumerate(specs):
        needs = tuple(parse_barrel(code) for code in spec.split())
        row = max(g for _, g in needs) if kind == ContractKind.CONTRACT else len(needs)
        out.append(ContractTile(start + i, kind, row, needs, source))
    return tuple(out)


CONTRACTS = _tiles(
    ContractKind.CONTRACT,
    [
        # Low row (10)
        "OL OL",
        "TL TL",
        "SL SL",
        "OL TL",
        "TL SL",
        "SL OL",
        "OL TL SL",
        "OL OL TL",
        "TL TL SL",
        "SL SL OL",
        # Mid row (10)
        "OM OL",
        "TM TL",
        "SM SL",
        "OM TM",
        "TM SM",
        "SM OM",
        "OM TL SL",
        "TM SL OL",
        "SM OL TL",
        "OM TM SL",
        # High row (10)
        "OH OL",
        "TH TL",
        "SH SL",
        "OH TM",
        "TH SM",
        "SH OM",
        "OH TL SL",
        "TH SL OL",
        "SH OL TL",
        "OH TH",
    ],
    0,
)
ORDERS = _tiles(
    ContractKind.ORDER,
    [
        # 3 barrels (8)
        "OL TL SL",
        "OL OM TL",
        "TL TM SL",
        "SL SM OL",
        "OM TM SL",
        "TM SM OL",
        "SM OM TL",
        "OH TL SL",
        # 4 barrels (8)
        "OL OL TM SM",
        "TL TL SM OM",
        "SL SL OM TM",
        "OL TL SL OH",
        "OM TM SL SL",
        "TM SM OL OL",
        "SM OM TL TL",
        "OH TH SL TL",
        # 5 barrels (8)
        "OL TL SL OM TM",
        "TL SL OL SM TM",
        "SL OL TL OM SM",
        "OL OL TL TL SH",
        "TL TL SL SL OH",
        "SL SL OL OL TH",
        "OM TM SM OL TL",
        "OH TM SM OL SL",
    ],
    100,
)
CONTRACT_STACK_SIZE = {2: 4, 3: 4, 4: 5}  # PUBLIC: contracts set aside per grade
DISPLAY_SPACES = {2: 2, 3: 2, 4: 3}  # PUBLIC: leftmost space of each row unused below 4 players
CONTRACT_ROWS = (1, 2, 3)  # Low, Mid, High
ORDER_ROWS = (3, 4, 5)


# Edition 2 (printed, from the public transcription). Ids never overlap edition 1's, so a tile
# id alone names its tile: Contracts 200..229, Orders 300..323.
PRINTED_CONTRACTS = _tiles(
    ContractKind.CONTRACT,
    [
        # Low row (10)
        "SL SL SL",
        "TL TL",
        "TL TL TL",
        "SL SL",
        "OL OL",
        "OL SL",
        "OL OL SL",
        "SL OL TL",
        "OL TL",
        "SL TL",
        # Mid row (10)
        "SM SM",
        "SM OM TM",
        "SM SM TM",
        "OM OL",
        "SM TM",
        "OM OM",
        "OM OM OM",
        "TM TM TM",
        "SM TL",
        "TM TM",
        # High row (10)
        "OH OH",
        "SH SH",
        "TH TH",
        "SH SH SH",
        "OH TM",
        "SH SM",
        "OH OM TL",
        "TH TL",
        "TH TH TH",
        "TH TH SH",
    ],
    200,
    Source.PRINTED,
)
PRINTED_ORDERS = _tiles(
    ContractKind.ORDER,
    [
        # 3 barrels (8)
        "OH SL TL",
        "SH SH TH",
        "OH OH TH",
        "SH SM OL",
        "SH TM OM",
        "TH TM OL",
        "OH SH TH",
        "SH TM OL",
        # 4 barrels (8)
        "OM OM OM OM",
        "SM SM OL OL",
        "OH OH OM OL",
        "OH OH TL TL",
        "SH TM OL OL",
        "SL SL SL SL",
        "SH OH SM SL",
        "TH TH TH TH",
        # 5 barrels (8)
        "TM TM TM TM TM",
        "SH SH SH OM OM",
        "SM SM SM SM SM",
        "SH OH TH SM OM",
        "OL OL OL OL OL",
        "OH OH OH OM OL",
        "TL TL TL OL OL",
        "TM TM TM SL SL",
    ],
    300,
    Source.PRINTED,
)
_TILES_BY_ID = {t.id: t for t in CONTRACTS + ORDERS + PRINTED_CONTRACTS + PRINTED_ORDERS}


def contract_tile(tile_id: int) -> ContractTile:
    """The Contract or Order tile with this id, in any edition (edition 1: Contracts 0..29,
    Orders 100..123; edition 2: Contracts 200..229, Orders 300..323)."""
    return _TILES_BY_ID[tile_id]


# --- Refinement cost markers (PUBLIC) ----------------------------------------------------------

REFINEMENT_MARKERS = (4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7)  # 9 are dealt, colour x step
FIRST_GAME_REMOVED_MARKER = 7

# --- The action cross (PUBLIC layout) ------------------------------------


class ActionName(StrEnum):
    """The Actions a turn can hold (``TurnState.action``): the eight spaces of the action cross
    (the notation's ``act`` names), then the Main Actions off the cross and the Machine runs."""

    UPGRADES = "upgrades"
    TANKS = "tanks"
    MACHINES = "machines"
    CONTRACTS = "contracts"
    CRUDE = "crude"
    REFINED1 = "refined1"
    REFINED2 = "refined2"
    REFINED3 = "refined3"
    GOVERNMENT = "government"
    NETWORK = "network"
    MACHINE = "machine"
    MACHINES_PHASE = "machines_phase"
    MACHINES_EARLY = "machines_early"


_A = ActionName
ACTION_TILES = (_A.UPGRADES, _A.TANKS, _A.MACHINES, _A.CONTRACTS)  # shuffled onto the inner spaces
MARKET_ACTIONS = (_A.CRUDE, _A.REFINED1, _A.REFINED2, _A.REFINED3)
ACTION_NAMES: dict[str, str] = {
    _A.CRUDE: N_("Crude Market"),
    _A.REFINED1: N_("Refined Market 1"),
    _A.REFINED2: N_("Refined Market 2"),
    _A.REFINED3: N_("Refined Market 3"),
    _A.UPGRADES: N_("Upgrades"),
    _A.TANKS: N_("Tanks & Pipes"),
    _A.MACHINES: N_("Machines & Pipes"),
    _A.CONTRACTS: N_("Contracts & Loans"),
}
ACTION_MARKET: dict[str, str] = {_A.CRUDE: "C", _A.REFINED1: "1", _A.REFINED2: "2", _A.REFINED3: "3"}
# Cross cells (x, y), centre (0, 0) empty. Arm ends hold the markets; inner spaces the tiles.
MARKET_CELLS: dict[str, tuple[int, int]] = {
    _A.CRUDE: (0, -2),
    _A.REFINED1: (-2, 0),
    _A.REFINED2: (0, 2),
    _A.REFINED3: (2, 0),
}
INNER_CELLS = ((0, -1), (-1, 0), (0, 1), (1, 0))  # N, W, S, E: where the action tiles lie
CROSS_CENTRE = (0, 0)

# --- Government (PUBLIC counts and prices; edition 1's DESIGN layout of the domino spaces) ----

GOVERNMENT_QUADRANTS = 4
# One quadrant: a 4x4 cell grid tiled by 8 domino spaces (the number is the space).
GOVERNMENT_LAYOUT = (
    (0, 0, 1, 2),
    (3, 4, 1, 2),
    (3, 4, 5, 5),
    (6, 6, 7, 7),
)


# --- Upgrades (PUBLIC: families, levels and card counts) --------------------------------------


class UpgradeFamily(msgspec.Struct, frozen=True):
    code: str
    name: str
    levels: tuple[str, str, str]  # our own summary of each level's effect


UPGRADE_FAMILIES: tuple[UpgradeFamily, ...] = (
    UpgradeFamily(
        "GOV",
        N_("Government"),
        (
            N_("Take 2 Government Pipe tiles now; each new year take 1 on your first turn."),
            N_("Take 4 Government Pipe tiles now."),
            N_("Take 6 Government Pipe tiles now."),
        ),
    ),
    UpgradeFamily(
        "SHOP",
        N_("Shops"),
        (
            N_("Take 2 Tanks and 1 shop Pipe tile now; each new year take 2 Tanks on your first turn."),
            N_("Take 1 Machine and 2 shop Pipe tiles now."),
            N_("Take 1 Machine and 4 shop Pipe tiles now."),
        ),
    ),
    UpgradeFamily(
        "HR",
        N_("Human Resources"),
        (
            N_("Secondary Actions are free."),
            N_("A Secondary Action may be up to 2 spaces away on the cross."),
            N_("Take any 2 Main Actions in a turn (then no Secondary Action)."),
        ),
    ),
    UpgradeFamily(
        "ENG",
        N_("Engineering"),
        (
            N_("Pipelines gain +1 Refinement Value per 4 segments (also at the end)."),
            N_("Pipelines gain +2 Refinement Value per 4 segments instead (also at the end)."),
            N_("Each Pipeline may refine 2 barrels of the same starting grade."),
        ),
    ),
    UpgradeFamily(
        "RM",
        N_("Refined Markets"),
        (
            N_("Refined oil is $5 dearer in the Refined Markets, buying and selling."),
            N_("One Refined Market Action trades at all three Refined Markets."),
            N_("Sell to a Refined Market row of any colour (grade must still suffice)."),
        ),
    ),
    UpgradeFamily(
        "CO",
        N_("Contracts & Orders"),
        (
            N_("Each Contract may be fulfilled twice a year."),
            N_("Earn $10 more per barrel delivered to Contracts and Orders."),
            N_("Take Orders as Contracts with the Contracts & Loans Action."),
        ),
    ),
    UpgradeFamily(
        "MACH",
        N_("Machines"),
        (
            N_("Take 1 Machine now; a Main Action may run one Machine free."),
            N_("The Machine Phase costs $5 in total."),
            N_("Machines may also run before your Actions."),
        ),
    ),
)
UPGRADE_CODES = tuple(f.code for f in UPGRADE_FAMILIES)
_FAMILIES_BY_CODE = {f.code: f for f in UPGRADE_FAMILIES}


def upgrade_family(code: str) -> UpgradeFamily:
    """The Upgrade family with this code (``KeyError`` if none).

    >>> upgrade_family("GOV").name
    'Government'
    """
    return _FAMILIES_BY_CODE[code]


UPGRADE_CARDS_PER_LEVEL = (3, 1, 1)  # PUBLIC: Level I x3, II x1, III x1
UPGRADE_FAMILIES_PER_GAME = 5  # PUBLIC
FIRST_GAME_UPGRADES = ("GOV", "ENG", "HR", "RM", "SHOP")  # PUBLIC suggestion

# --- Valuation (PUBLIC: the tile and the 16 cards of Appendix 2) ------------------------------


class ValuationCard(msgspec.Struct, frozen=True):
    id: int
    code: str
    name: str


VALUATION_CARDS: tuple[ValuationCard, ...] = (
    ValuationCard(1, "REFINED_OIL", N_("Value of Refined Oil in Tanks")),
    ValuationCard(2, "PIPELINES", N_("Value of Pipelines")),
    ValuationCard(3, "TANKS", N_("$10 per Tank Tile")),
    ValuationCard(4, "LEVEL3", N_("$100 per Level 3 Upgrade")),
    ValuationCard(5, "MACHINE_PIPELINES", N_("Value of Pipelines attached to Machines")),
    ValuationCard(6, "SILVER", N_("Value of Silver Oil in Tanks and Silver Pipelines")),
    ValuationCard(7, "ORANGE", N_("Value of Orange Oil in Tanks and Orange Pipelines")),
    ValuationCard(8, "TEAL", N_("Value of Teal Oil in Tanks and Teal Pipelines")),
    ValuationCard(9, "LOW_PIPELINES", N_("$10 per Pipeline reaching exactly Low-Grade")),
    ValuationCard(10, "MID_PIPELINES", N_("$20 per Pipeline reaching exactly Mid-Grade")),
    ValuationCard(11, "HIGH_PIPELINES", N_("$30 per Pipeline reaching High-Grade")),
    ValuationCard(12, "CONTRACTS", N_("Value of fulfilled Contracts")),
    ValuationCard(13, "ORDERS", N_("Value of fulfilled Orders")),
    ValuationCard(14, "PIPELINE_TYPES", N_("Number of Pipeline types")),
    ValuationCard(15, "MACHINE_PIPELINE_TYPES", N_("Number of Pipeline types attached to Machines")),
    ValuationCard(16, "OIL_TYPES", N_("Number of Refined Oil types in fulfilled Contracts and Orders")),
)
VALUATION_BY_ID = {card.id: card for card in VALUATION_CARDS}
VALUATION_TILE = N_("Value of Pipelines attached to Machines")  # PUBLIC: always in the game
VALUATION_CARDS_PER_GAME = 3
FIRST_GAME_VALUATIONS = (1, 2, 3)  # PUBLIC suggestion
