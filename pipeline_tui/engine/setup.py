"""Game setup: the seeded deal of every shuffled component (rulebook "Setup").

One random source, the seed: every shuffle happens here, in a fixed order, so a game is fully
reproduced by its :class:`GameSetup` plus its move log (docs/architecture.md).
"""

from __future__ import annotations

import random
from enum import StrEnum

import msgspec

from ..data import components as C
from ..data import editions as E
from ..i18n import _
from .clock import ClockError, ClockSetting, check_clock
from .state import PlayerState, Stage, State, TurnState

RULES_VERSION = 2  # new games; docs/rules-readings.md lists what each version changes
RULES_VERSIONS = (1, 2)  # saves of every version keep replaying as they were played


class SeatKind(StrEnum):
    """Who plays a seat: a person, or one of the bots (``ai.KINDS``)."""

    HUMAN = "human"
    RANDOM = "random"
    HEURISTIC = "heuristic"
    SEARCH = "search"
    EXPERT = "expert"


class PlayerSetup(msgspec.Struct, frozen=True):
    """A seat: a name and who plays it (a :class:`SeatKind`; saves hold its value)."""

    name: str
    kind: str = SeatKind.HUMAN


class GameSetup(msgspec.Struct, frozen=True):
    """Everything a game starts from. ``edition`` names the component tables (1 = our design,
    which every save made before editions has; 2 = the printed components). ``clock``: the
    game's clock (``engine.clock``), ``None`` for none (every save made before clocks)."""

    seed: int
    players: tuple[PlayerSetup, ...]
    first_game: bool = False
    rules_version: int = RULES_VERSION
    edition: int = 1
    clock: ClockSetting | None = None

    @classmethod
    def default(
        cls,
        players: int,
        seed: int,
        first_game: bool = False,
        edition: int = E.PRINTED_EDITION,
        clock: ClockSetting | None = None,
    ) -> "GameSetup":
        names = ("Ada", "Bo", "Cy", "Di")
        return cls(
            seed=seed,
            players=tuple(PlayerSetup(names[i]) for i in range(players)),
            first_game=first_game,
            edition=edition,
            clock=clock,
        )


class SetupError(ValueError):
    """A setup the game cannot be played with."""


def validate_setup(setup: GameSetup) -> None:
    if len(setup.players) not in C.PLAYER_COUNTS:
        raise SetupError(_("Pipeline is for 2 to 4 players, not {n}").format(n=len(setup.players)))
    if setup.rules_version not in RULES_VERSIONS:
        raise SetupError(
            _("rules version {version} is not known (this program plays {known})").format(
                version=setup.rules_version, known=", ".join(map(str, RULES_VERSIONS))
            )
        )
    if setup.edition not in E.EDITIONS:
        raise SetupError(
            _("component edition {edition} is not known (known: 1, 2)").format(edition=setup.edition)
        )
    if not 0 <= setup.seed < 2**63:
        raise SetupError(_("the seed must be a whole number from 0 to 2^63-1"))
    if setup.clock is not None:
        try:
            check_clock(setup.clock)
        except ClockError as exc:
            raise SetupError(str(exc)) from None


def initial_state(setup: GameSetup) -> State:
    """The table after setup, before the players place their 5 starting Tanks. Edition 2 then
    places the market tiles at random (after every draw edition 1 makes, so both editions deal
    the rest of the table alike from one seed)."""
    validate_setup(setup)
    ed = E.edition(setup.edition)
    n = len(setup.players)
    rng = random.Random(setup.seed)
    spaces = C.DISPLAY_SPACES[n]
    supply = [C.BARRELS_PER_COLOUR] * 3

    deck = list(range(C.PIPE_TILES))
    rng.shuffle(deck)

    contract_rows, contract_stacks = [], []
    for grade in C.CONTRACT_ROWS:
        stack = [t.id for t in ed.contracts if t.row == grade]
        rng.shuffle(stack)
        stack = stack[: C.CONTRACT_STACK_SIZE[n]]
        row = [stack.pop() for _i in range(spaces)]
        contract_rows.append(row)
        contract_stacks.append(stack)
    order_rows = []
    for size in C.ORDER_ROWS:
        stack = [t.id for t in ed.orders if t.row == size]
        rng.shuffle(stack)
        order_rows.append(stack[:spaces])

    if setup.first_game:
        families = list(C.FIRST_GAME_UPGRADES)
    else:
        families = rng.sample(list(C.UPGRADE_CODES), C.UPGRADE_FAMILIES_PER_GAME)
    families.sort(key=C.UPGRADE_CODES.index)

    tank_shop = list(ed.tank_shop_spaces[n])
    machine_shop = list(ed.machine_shop_spaces[n])
    tank_reserve = C.TANK_TILES - C.START_TANKS * n - sum(tank_shop)
    machine_reserve = C.MACHINE_TILES - sum(machine_shop)

    government = [[deck.pop() for _i in range(8)] for _i in range(C.GOVERNMENT_QUADRANTS)]
    per_shop = C.SHOP_PIPES_PER_PLAYER * n
    shop_pipes = [[deck.pop() for _i in range(per_shop)] for _i in C.SHOPS]

    action_tiles: list[str] = list(C.ACTION_TILES)
    rng.shuffle(action_tiles)

    markers = [m for m in C.REFINEMENT_MARKERS if not (setup.first_game and m == C.FIRST_GAME_REMOVED_MARKER)]
    rng.shuffle(markers)
    costs = [markers[0:3], markers[3:6], markers[6:9]]

    if setup.first_game:
        valuations = list(C.FIRST_GAME_VALUATIONS)
    else:
        valuations = sorted(rng.sample([c.id for c in C.VALUATION_CARDS], C.VALUATION_CARDS_PER_GAME))

    start = rng.randrange(n)
    order = [(start + i) % n for i in range(n)]

    layout = E.random_market_layout(rng) if setup.edition != 1 else ()
    markets = []
    for market in E.market_rows(setup.edition, layout, n):
        slots = market.slots[n]
        if market.starts_full:
            filled = min(len(slots), supply[market.colour])
            supply[market.colour] -= filled
            markets.append([market.colour] * filled + [-1] * (len(slots) - filled))
        else:
            markets.append([-1] * len(slots))

    players = [PlayerState(seat=i, name=p.name, money=C.START_MONEY) for i, p in enumerate(setup.players)]
    return State(
        players=players,
        turn_order=order,
        turn=TurnState(player=order[0], stage=Stage.SETUP),
        supply=supply,
        markets=markets,
        contract_rows=contract_rows,
        contract_stacks=contract_stacks,
        order_rows=order_rows,
        pipe_deck=deck,
        shop_pipes=shop_pipes,
        tank_shop=tank_shop,
        machine_shop=machine_shop,
        tank_reserve=tank_reserve,
        machine_reserve=machine_reserve,
        government=government,
        upgrade_families=families,
        upgrade_tokens=[True] * len(families),
        upgrade_cards=[list(C.UPGRADE_CARDS_PER_LEVEL) for _i in families],
        valuation_cards=valuations,
        refinement_costs=costs,
        action_tiles=action_tiles,
        rules_version=setup.rules_version,
        next_track=[-1] * n if setup.rules_version >= 2 else [],
        edition=setup.edition,
        market_layout=list(layout),
    )
