"""The game state: plain msgspec Structs of ints, strings and lists.

Everything here is data; the rules live in the ``rules`` package. A state is cloned by a msgpack round trip
(cheap and exact), compared with ``==``, and printed as JSON by ``msgspec.to_builtins``.
"""

from __future__ import annotations

from enum import StrEnum

import msgspec

from ..data.components import UPGRADE_CODES

Barrel = tuple[int, int]  # (colour, grade)
_FAMILY_INDEX = {code: i for i, code in enumerate(UPGRADE_CODES)}  # level() runs in every listing


class Stage(StrEnum):
    """Where a turn stands (rulebook "Player Turns": the Work Phase, then the Machine Phase)."""

    SETUP = "setup"  # placing the starting Tanks
    WORK = "work"  # Work Phase, between Actions
    ACTION = "action"  # an Action (or a Machine run) in progress
    MACHINE = "machine"  # Machine Phase
    OVER = "over"  # the game has ended


class GrantKind(StrEnum):
    """What an upgrade gives (Government, Shops and Machines upgrades)."""

    GOV = "gov"  # a Government Pipe tile
    TANK = "tank"
    PIPE = "pipe"  # a Pipe tile from a shop
    MACHINE = "machine"


class HeldContract(msgspec.Struct):
    """A Contract next to a player board (an Order taken with Contracts & Orders III too)."""

    tile: int
    deferred: bool = False
    completions: int = 0  # fulfilments completed this year
    filled: list[int] = msgspec.field(default_factory=list)  # grade per requirement, -1 = open
    barrels: list[Barrel] = msgspec.field(default_factory=list)  # cubes sitting on it this year


class HeldOrder(msgspec.Struct):
    """A fulfilled Order and the barrels placed on it."""

    tile: int
    barrels: list[Barrel] = msgspec.field(default_factory=list)


class PlayerState(msgspec.Struct):
    seat: int
    name: str
    money: int
    penalties: int = 0
    end_penalties: int = 0  # Penalty markers taken for incomplete Contracts at the game's end
    tanks: list[int] = msgspec.field(default_factory=lambda: [0, 0, 0, 0])  # per Tank Farm row
    oil: list[list[int]] = msgspec.field(  # [grade][colour] barrels in the Tank Farm
        default_factory=lambda: [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]
    )
    tiles: list[tuple[int, int, int, int]] = msgspec.field(default_factory=list)  # (id, x, y, rot)
    machines: list[tuple[int, int]] = msgspec.field(default_factory=list)  # covered cells
    contracts: list[HeldContract] = msgspec.field(default_factory=list)
    orders: list[HeldOrder] = msgspec.field(default_factory=list)
    upgrades: list[int] = msgspec.field(  # level owned per family, in UPGRADE_CODES order
        default_factory=lambda: [0] * len(UPGRADE_CODES)
    )
    benefits_year: int = 1  # last Year whose yearly upgrade benefits were received
    worker: str = ""  # where the worker stands this round ("" = beside the board)

    def level(self, family: str) -> int:
        return self.upgrades[_FAMILY_INDEX[family]]

    def free_space(self, grade: int) -> int:
        return 2 * self.tanks[grade] - sum(self.oil[grade])


class Grant(msgspec.Struct):
    """Part of an upgrade's immediate or yearly gift still to be taken: kind and how many."""

    kind: GrantKind
    count: int
    source: str = ""  # the upgrade it comes from, for display
    stack: bool = False  # a Machine that may come from the stack beside the board (Machines I)


class TurnState(msgspec.Struct):
    """Where the current player is within their turn."""

    player: int = 0
    stage: Stage = Stage.WORK
    action: str = ""  # the ActionName in progress, "" between Actions
    mains: int = 0  # Main Actions taken this turn
    secondary: bool = False  # a Secondary Action was taken
    last_cross: str = ""  # the last cross action taken as a Main Action
    bought: bool = False  # market visit: bought already, so no more selling
    upgrades_bought: list[str] = msgspec.field(default_factory=list)
    flipped: bool = False
    contract_rows: list[str] = msgspec.field(default_factory=list)  # e.g. "contract1", "order4"
    loan: bool = False
    pipes_bought: int = 0
    gov_quadrant: int = -1
    gov_space: int = -1
    gov_bought: int = 0
    run_x: int = 0  # the tile or machine cell being run
    run_y: int = 0
    runs: list[tuple[int, int, int, int]] = msgspec.field(default_factory=list)  # (x, y, k, from)
    fresh: list[list[int]] = msgspec.field(  # [grade][colour] barrels made by this run
        default_factory=lambda: [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]
    )
    hand_tile: int = -1  # a Pipe tile waiting to be placed
    hand_machine: bool = False  # a Machine waiting to be placed
    grants: list[Grant] = msgspec.field(default_factory=list)
    icon: bool = False  # a Turn Order icon action was completed this turn
    order_chosen: bool = False
    machines_phase_run: bool = False
    machines_early_run: bool = False
    setup_placed: int = 0  # setup: starting tanks placed by the current player


class State(msgspec.Struct):
    """The whole table."""

    players: list[PlayerState]
    year: int = 1
    round: int = 1
    turn_order: list[int] = msgspec.field(default_factory=list)  # seats, this Round
    turn_index: int = 0
    next_order: list[int] = msgspec.field(default_factory=list)  # seats placed for next Round
    next_track: list[int] = msgspec.field(  # rules version 2: the row below, a seat or -1 per space
        default_factory=list
    )
    turn: TurnState = msgspec.field(default_factory=TurnState)
    supply: list[int] = msgspec.field(default_factory=lambda: [0, 0, 0])  # barrels in the bank
    markets: list[list[int]] = msgspec.field(default_factory=list)  # per row: colour or -1
    contract_rows: list[list[int]] = msgspec.field(default_factory=list)  # L, M, H: tile or -1
    contract_stacks: list[list[int]] = msgspec.field(default_factory=list)  # top is the end
    order_rows: list[list[int]] = msgspec.field(default_factory=list)  # 3, 4, 5 barrels
    pipe_deck: list[int] = msgspec.field(default_factory=list)  # face down, top is the end
    pipe_discard: list[int] = msgspec.field(default_factory=list)
    shop_pipes: list[list[int]] = msgspec.field(default_factory=list)  # [Tank shop, Machine shop]
    tank_shop: list[int] = msgspec.field(default_factory=list)  # tanks per price row
    machine_shop: list[int] = msgspec.field(default_factory=list)
    tank_reserve: int = 0
    machine_reserve: int = 0
    government: list[list[int]] = msgspec.field(default_factory=list)  # 4 x 8: tile or -1
    government_opened: list[int] = msgspec.field(  # Year each quadrant opened, 0 = closed
        default_factory=lambda: [0, 0, 0, 0]
    )
    upgrade_families: list[str] = msgspec.field(default_factory=list)  # the 5 in play
    upgrade_tokens: list[bool] = msgspec.field(default_factory=list)  # True = face up
    upgrade_cards: list[list[int]] = msgspec.field(default_factory=list)  # left per level
    valuation_cards: list[int] = msgspec.field(default_factory=list)
    refinement_costs: list[list[int]] = msgspec.field(default_factory=list)  # [colour][step]
    action_tiles: list[str] = msgspec.field(default_factory=list)  # on inner spaces N, W, S, E
    over: bool = False
    edition: int = 1  # the component edition (data/editions.py)
    market_layout: list[tuple[int, int]] = msgspec.field(  # edition 2: (colour, tile) per
        default_factory=list
    )  # market position, placed at random at setup
    rules_version: int = 1  # GameSetup.rules_version: which rule readings apply (rules-readings.md)


_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder(State)


def clone_state(state: State) -> State:
    """An independent deep copy of a state."""
    return _DECODER.decode(_ENCODER.encode(state))


def freeze_state(state: State) -> bytes:
    """A state as msgpack bytes: a snapshot that later moves cannot change. Encoding is the
    cheaper half of a clone, so a snapshot that may never be read back is kept this way."""
    return _ENCODER.encode(state)


def thaw_state(frozen: bytes) -> State:
    """A new state from a snapshot made by :func:`freeze_state`."""
    return _DECODER.decode(frozen)
