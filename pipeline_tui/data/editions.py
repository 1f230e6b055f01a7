"""Component editions: which printed values a game is played with (docs/components.md).

Edition 1 is the set we designed while the rulebook's pictures were missing (every save made
before editions existed). Edition 2 is the printed set, from a public transcription of one copy
of the 2-player game; what it leaves unknown (the 3- and 4-player overlays and shop slots) is
derived by us from the printed slots and marked ``DESIGN``. :func:`edition` returns one edition's
tables; each names its source in :attr:`Edition.sources`.

Edition 2's markets are built from market tiles placed at random during setup: a
:data:`MarketLayout` says which colour and which crude ladder or refined pattern lies on each
market position, and :func:`market_rows` turns it into the rows the rules read.

>>> ed = edition(2)
>>> ed.number, len(ed.contracts), len(ed.orders), ed.tank_shop_spaces[2]
(2, 30, 24, (2, 2, 2))
"""

from __future__ import annotations

from collections.abc import Mapping
import math
import random
from functools import lru_cache

import msgspec

from ..i18n import N_, _
from . import EDITIONS as EDITIONS, PRINTED_EDITION as PRINTED_EDITION
from . import components as C
from .components import ContractTile, MarketRow, Source
from .oil import barrel_code

EDITION_NAMES = {
    1: N_("our design (before the printed components were known)"),
    2: N_("printed components (public transcription)"),
}


class TableSource(msgspec.Struct, frozen=True):
    """One component table, where its values come from, and a short note on how."""

    table: str
    source: Source
    note: str


class Edition(msgspec.Struct, frozen=True):
    """The component tables of one edition (prices in $; slot counts per player count)."""

    number: int
    name: str
    contracts: tuple[ContractTile, ...]
    orders: tuple[ContractTile, ...]
    crude_ladders: tuple[tuple[int, ...], ...]  # edition 2: the 3 printed crude price ladders
    refined_patterns: tuple[tuple[tuple[int, ...], ...], ...]  # [pattern][Low, Mid, High]
    tank_shop_prices: tuple[int, ...]
    tank_shop_spaces: Mapping[int, tuple[int, ...]]
    tank_shop_printed: int  # printed spaces per Tank Shop row
    machine_shop_prices: tuple[int, ...]
    machine_shop_spaces: Mapping[int, tuple[int, ...]]
    machine_shop_printed: int
    government_layout: tuple[tuple[int, ...], ...]
    sources: tuple[TableSource, ...]

    def market_rows(self, layout: MarketLayout = (), players: int = 2) -> tuple[MarketRow, ...]:
        """This edition's market rows for a layout (edition 2; edition 1 has fixed rows)."""
        if self.number != 1 and not layout:
            layout = PHOTOGRAPHED_LAYOUT
        return market_rows(self.number, layout, players)

    def source_of(self, table: str) -> Source:
        """The source of the named table (see :attr:`sources`)."""
        for entry in self.sources:
            if entry.table == table:
                return entry.source
        raise KeyError(f"edition {self.number} has no table {table!r}")


# --- Edition 2: the printed values ------------------------------------------------------------

# Crude rows: 8 printed slots, two per price, cheapest (left) first. PRINTED.
CRUDE_LADDERS = (
    (5, 5, 7, 7, 9, 9, 11, 11),
    (6, 6, 8, 8, 10, 10, 12, 12),
    (7, 7, 9, 9, 11, 11, 13, 13),
)
# Refined rows: 4 printed slots, two price pairs, per grade Low, Mid, High. PRINTED.
REFINED_PATTERNS = (
    ((20, 20, 25, 25), (40, 40, 45, 45), (45, 45, 50, 50)),  # pattern A
    ((25, 25, 30, 30), (35, 35, 40, 40), (50, 50, 55, 55)),  # pattern B
)
PATTERN_NAMES = ("A", "B")
# Market Overlays: the printed slots in play per player count. 2 players PRINTED (crude rows use
# the first 6; refined rows the dearer pair, the overlay covering the cheaper pair); 3 and 4
# players DESIGN (the slots marked "3+" and "4" on crude rows, one more refined slot each).
CRUDE_SLOTS = {2: tuple(range(6)), 3: tuple(range(7)), 4: tuple(range(8))}
REFINED_SLOTS = {2: (2, 3), 3: (1, 2, 3), 4: (0, 1, 2, 3)}
# Refresh at 2 players, PRINTED on the 2-player overlays: every crude row gains up to 4 barrels;
# refined rows lose, per market and position (upper, lower) and grade Low, Mid, High:
CRUDE_SUPPLY_2P = 4
REFINED_DEMAND_2P = {
    "1": ((2, 1, 1), (1, 2, 0)),
    "2": ((1, 2, 1), (3, 1, 1)),
    "3": ((3, 2, 1), (2, 1, 0)),
}

# Market positions in the order of ``State.markets`` (and of a MarketLayout): the Crude Market's
# three rows, then per Refined Market its crude row and its upper and lower refined tiles.
CRUDE_POSITIONS = (("C", 0), ("C", 1), ("C", 2), ("1", 0), ("2", 0), ("3", 0))
MARKET_POSITIONS: tuple[tuple[str, str, int], ...] = (
    ("C", "crude", 0),
    ("C", "crude", 1),
    ("C", "crude", 2),
    ("1", "crude", 0),
    ("1", "refined", 0),
    ("1", "refined", 1),
    ("2", "crude", 0),
    ("2", "refined", 0),
    ("2", "refined", 1),
    ("3", "crude", 0),
    ("3", "refined", 0),
    ("3", "refined", 1),
)
MarketLayout = tuple[tuple[int, int], ...]  # per position: (colour, ladder or pattern index)

# The layout photographed in the transcription (one random setup), for tests and reference.
PHOTOGRAPHED_LAYOUT: MarketLayout = (
    (0, 0),
    (2, 1),
    (1, 2),
    (1, 0),
    (0, 0),
    (2, 1),
    (2, 1),
    (0, 1),
    (1, 0),
    (0, 2),
    (2, 0),
    (1, 1),
)


def random_market_layout(rng: random.Random) -> MarketLayout:
    """Place the market tiles at random (rulebook "Setup"; reading in docs/components.md).

    The Crude Market holds one crude row of each colour; each Refined Market sells one colour as
    crude and the other two refined, so the crude colours of the three Refined Markets are a
    shuffle of the three colours. Each colour has one refined tile of each pattern, shuffled over
    its two Refined Markets; the six crude ladder tiles (two of each ladder) are shuffled over the
    six crude rows.
    """
    crude_market = [0, 1, 2]
    rng.shuffle(crude_market)
    market_crude = [0, 1, 2]
    rng.shuffle(market_crude)
    ladders = [0, 0, 1, 1, 2, 2]
    rng.shuffle(ladders)
    patterns = {colour: [0, 1] for colour in range(3)}
    for colour in range(3):
        rng.shuffle(patterns[colour])
    layout: list[tuple[int, int]] = [(c, ladders[i]) for i, c in enumerate(crude_market)]
    for m in range(3):
        crude = market_crude[m]
        refined = [c for c in range(3) if c != crude]
        rng.shuffle(refined)
        layout.append((crude, ladders[3 + m]))
        layout.extend((c, patterns[c].pop()) for c in refined)
    return tuple(layout)


def _scaled(value: int, slots: int, slots_2p: int) -> int:
    """A 2-player refresh amount (PRINTED) scaled up with the slots in play (DESIGN), rounding
    up: crude supply 4, 5, 6 for 6, 7, 8 slots; refined demand 1 becomes 2 on 3 or 4 slots."""
    return math.ceil(value * slots / slots_2p)


@lru_cache(maxsize=256)
def printed_market_rows(layout: MarketLayout, players: int) -> tuple[MarketRow, ...]:
    """The market rows of an edition-2 game with this layout and player count."""
    if len(layout) != len(MARKET_POSITIONS):
        raise ValueError(
            _("a market layout has {n} positions, not {got}").format(n=len(MARKET_POSITIONS), got=len(layout))
        )
    rows: list[MarketRow] = []
    for (market, kind, position), (colour, tile) in zip(MARKET_POSITIONS, layout):
        if kind == "crude":
            slots = {n: CRUDE_SLOTS[n] for n in C.PLAYER_COUNTS}
            supply = _scaled(CRUDE_SUPPLY_2P, len(CRUDE_SLOTS[players]), len(CRUDE_SLOTS[2]))
            rows.append(
                MarketRow(
                    f"{market}-{barrel_code(colour, 0)}",
                    market,
                    colour,
                    0,
                    CRUDE_LADDERS[tile],
                    slots,
                    supply,
                    0,
                    starts_full=True,
                    source=Source.PRINTED,
                )
            )
            continue
        for grade in (1, 2, 3):
            demand2 = REFINED_DEMAND_2P[market][position][grade - 1]
            demand = _scaled(demand2, len(REFINED_SLOTS[players]), len(REFINED_SLOTS[2]))
            rows.append(
                MarketRow(
                    f"{market}-{barrel_code(colour, grade)}",
                    market,
                    colour,
                    grade,
                    REFINED_PATTERNS[tile][grade - 1],
                    dict(REFINED_SLOTS),
                    0,
                    demand,
                    starts_full=False,
                    source=Source.PRINTED,
                )
            )
    return tuple(rows)


@lru_cache(maxsize=256)
def _row_index(layout: MarketLayout, players: int) -> dict[str, int]:
    return {row.code: i for i, row in enumerate(printed_market_rows(layout, players))}


def market_rows(edition_number: int, layout: MarketLayout, players: int) -> tuple[MarketRow, ...]:
    """The market rows the rules read: fixed in edition 1, from the layout in edition 2."""
    if edition_number == 1:
        return C.MARKET_ROWS
    return printed_market_rows(layout, players)


def market_row_index(edition_number: int, layout: MarketLayout, players: int) -> dict[str, int]:
    """Row code (like ``1-OL``) to its index in ``State.markets``."""
    if edition_number == 1:
        return C.MARKET_ROW_INDEX
    return _row_index(layout, players)


# --- The editions -----------------------------------------------------------------------------

# PRINTED: the transcription's board code lays each quadrant's 8 spaces as a pinwheel.
PINWHEEL_LAYOUT = (
    (0, 0, 2, 3),
    (1, 1, 2, 3),
    (4, 5, 6, 6),
    (4, 5, 7, 7),
)

_COMMON_SOURCES = (
    TableSource(N_("upgrades"), Source.RULEBOOK, N_("7 families, Level I x3, II x1, III x1; card texts")),
    TableSource(N_("valuation"), Source.RULEBOOK, N_("the tile and the 16 cards of Appendix 2")),
    TableSource(N_("refinement markers"), Source.RULEBOOK, N_("three each of 4, 5, 6, 7; 9 dealt")),
    TableSource(
        N_("pipe tiles"),
        Source.RULEBOOK,
        N_("the 135 tiles of the tile model; equal to the printed 135 (docs/components.md)"),
    ),
)

_EDITION_1 = Edition(
    number=1,
    name=EDITION_NAMES[1],
    contracts=C.CONTRACTS,
    orders=C.ORDERS,
    crude_ladders=(),
    refined_patterns=(),
    tank_shop_prices=C.TANK_SHOP_PRICES,
    tank_shop_spaces=C.TANK_SHOP_SPACES,
    tank_shop_printed=4,
    machine_shop_prices=C.MACHINE_SHOP_PRICES,
    machine_shop_spaces=C.MACHINE_SHOP_SPACES,
    machine_shop_printed=2,
    government_layout=C.GOVERNMENT_LAYOUT,
    sources=(
        TableSource(N_("contracts"), Source.DESIGN, N_("30 tiles, 10 per row, 2-3 barrels each")),
        TableSource(N_("orders"), Source.DESIGN, N_("24 tiles, 8 each of 3, 4 and 5 barrels")),
        TableSource(
            N_("markets"),
            Source.DESIGN,
            N_(
                "fixed colours; crude rows 6 slots, refined rows 4; prices fitted to the "
                "rulebook's market example"
            ),
        ),
        TableSource(
            N_("market overlays"),
            Source.DESIGN,
            N_("2 players: crude 4 of 6 slots, refined the middle 2 of 4"),
        ),
        TableSource(
            N_("market overlays 3-4 players"),
            Source.DESIGN,
            N_("3 players: crude 5, refined the right 3; 4 players: every slot"),
        ),
        TableSource(
            N_("refresh"),
            Source.DESIGN,
            N_("supply 2-4 per crude row, demand 0-2 per refined row, any player count"),
        ),
        TableSource(N_("refresh 3-4 players"), Source.DESIGN, N_("as at 2 players")),
        TableSource(N_("tank shop"), Source.DESIGN, N_("$5 / $10 / $15, 2 Tanks a row at 2 players")),
        TableSource(N_("tank shop 3-4 players"), Source.DESIGN, N_("3/3/2 Tanks, and 4/4/3")),
        TableSource(
            N_("machine shop"),
            Source.DESIGN,
            N_("$20 / $30 from the rulebook, $40 ours; 1 Machine a row at 2 players"),
        ),
        TableSource(N_("machine shop 3-4 players"), Source.DESIGN, N_("1/2/1 Machines, and 2/2/2")),
        TableSource(N_("government layout"), Source.DESIGN, N_("our domino layout of a quadrant")),
    )
    + _COMMON_SOURCES,
)

_EDITION_2 = Edition(
    number=2,
    name=EDITION_NAMES[2],
    contracts=C.PRINTED_CONTRACTS,
    orders=C.PRINTED_ORDERS,
    crude_ladders=CRUDE_LADDERS,
    refined_patterns=REFINED_PATTERNS,
    tank_shop_prices=(5, 10, 15),
    tank_shop_spaces={2: (2, 2, 2), 3: (3, 3, 3), 4: (4, 4, 4)},
    tank_shop_printed=4,
    machine_shop_prices=(20, 30, 40),
    machine_shop_spaces={2: (1, 1, 1), 3: (1, 2, 1), 4: (2, 2, 2)},
    machine_shop_printed=2,
    government_layout=PINWHEEL_LAYOUT,
    sources=(
        TableSource(N_("contracts"), Source.PRINTED, N_("the 30 Contracts as printed")),
        TableSource(N_("orders"), Source.PRINTED, N_("the 24 Orders as printed")),
        TableSource(
            N_("markets"),
            Source.PRINTED,
            N_("3 crude ladders of 8 slots, 2 refined patterns of 4 slots; tiles placed at random at setup"),
        ),
        TableSource(
            N_("market overlays"),
            Source.PRINTED,
            N_("2 players: crude rows the first 6 of 8 slots, refined rows the dearer pair"),
        ),
        TableSource(
            N_("market overlays 3-4 players"),
            Source.DESIGN,
            N_("from the printed slots: crude 7 (the '3+' slot) and 8; refined the dearer 3, and all 4"),
        ),
        TableSource(
            N_("refresh"),
            Source.PRINTED,
            N_(
                "2 players: every crude row gains up to 4; refined demand per market "
                "position and grade as on the overlays"
            ),
        ),
        TableSource(
            N_("refresh 3-4 players"),
            Source.DESIGN,
            N_("the 2-player amounts scaled with the slots in play, rounded up"),
        ),
        TableSource(
            N_("tank shop"), Source.PRINTED, N_("$5 / $10 / $15, 4 printed spaces a row, 2 used at 2 players")
        ),
        TableSource(N_("tank shop 3-4 players"), Source.DESIGN, N_("3 Tanks a row, and all 4")),
        TableSource(
            N_("machine shop"),
            Source.PRINTED,
            N_("$20 / $30 / $40, 2 printed spaces a row, 1 used at 2 players"),
        ),
        TableSource(N_("machine shop 3-4 players"), Source.DESIGN, N_("1/2/1 Machines, and 2/2/2")),
        TableSource(N_("government layout"), Source.PRINTED, N_("the pinwheel of the transcription")),
    )
    + _COMMON_SOURCES,
)

_EDITIONS = {1: _EDITION_1, 2: _EDITION_2}


def edition(number: int) -> Edition:
    """The component tables of edition ``number`` (1 = our design, 2 = printed)."""
    try:
        return _EDITIONS[number]
    except KeyError:
        raise ValueError(
            _("component edition {edition} is not known (known: 1, 2)").format(edition=number)
        ) from None


@lru_cache(maxsize=4)
def government_adjacency(edition_number: int = 1) -> tuple[frozenset[int], ...]:
    """For each of the 8 spaces of a quadrant, the spaces sharing an edge with it."""
    layout = edition(edition_number).government_layout
    adj: list[set[int]] = [set() for _space in range(8)]
    for y in range(4):
        for x in range(4):
            here = layout[y][x]
            for dx, dy in ((1, 0), (0, 1)):
                nx, ny = x + dx, y + dy
                if nx < 4 and ny < 4:
                    there = layout[ny][nx]
                    if there != here:
                        adj[here].add(there)
                        adj[there].add(here)
    return tuple(frozenset(s) for s in adj)
