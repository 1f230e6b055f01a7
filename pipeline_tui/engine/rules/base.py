"""What every rule asks: whose turn it is, their traced Pipe Network, the edition's tables, and
whether a free choice may be made now (rulebook "Player Turns")."""

from __future__ import annotations

from collections.abc import Collection
from types import SimpleNamespace

from ...data import components as C
from ...data import editions as E
from ...data.components import ActionName
from ...i18n import N_, _
from ..network import NetworkMap, build_map, tile_cells
from ..state import PlayerState, Stage, State, TurnState

# Python 3.11 finds ``Enum.MEMBER`` through EnumType.__getattr__, a Python-level hook five times
# slower than a plain lookup, and the checks run for every candidate move: so they name the
# members through a plain namespace (``A.TANKS is ActionName.TANKS``) and these constants.
A = SimpleNamespace(**ActionName.__members__)
K = SimpleNamespace(**C.ContractKind.__members__)
SETUP, WORK, ACTION, MACHINE, OVER = Stage.SETUP, Stage.WORK, Stage.ACTION, Stage.MACHINE, Stage.OVER


_MAPS: dict[
    tuple[tuple[tuple[int, int, int, int], ...], tuple[tuple[int, int], ...]], NetworkMap
] = {}  # by (tiles, machines); emptied when it reaches _MAPS_KEPT
_MAPS_KEPT = 2048


def network(player: PlayerState) -> NetworkMap:
    """The player's Pipe Network, traced (cached by its contents). A network one tile larger
    than a cached one traces its Pipelines from that one's (``NetworkMap.parent``)."""
    tiles = tuple(player.tiles)
    machines = tuple(player.machines)
    key = (tiles, machines)
    net = _MAPS.get(key)
    if net is None:
        net = build_map(tiles, machines)
        if tiles:
            parent = _MAPS.get((tiles[:-1], machines))
            if parent is not None:
                _tile, x, y, rot = tiles[-1]
                new = tile_cells(x, y, rot)
                if not any(c in parent.cells or c in net.machines for c in new):
                    net.parent = (parent, new)
        if len(_MAPS) >= _MAPS_KEPT:
            _MAPS.clear()
        _MAPS[key] = net
    return net


def current(state: State) -> PlayerState:
    """The player whose turn it is."""
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


# What the Actions in progress are called (the cross's Actions, then the others a turn may hold).
ACTION_TITLES: dict[str, str] = {
    **C.ACTION_NAMES,
    A.GOVERNMENT: N_("Government"),
    A.NETWORK: N_("Run your Pipe Network"),
    A.MACHINE: N_("Run a Machine"),
    A.MACHINES_PHASE: N_("Machine Phase (running Machines)"),
    A.MACHINES_EARLY: N_("Machines III (running Machines)"),
}


def action_title(action: str) -> str:
    """The rulebook's name of an Action in progress (``turn.action``), in the current language."""
    return _(ACTION_TITLES[action]) if action in ACTION_TITLES else action


def busy(state: State) -> str | None:
    """Why no free choice can be made now: a tile or grant must be dealt with first."""
    t = state.turn
    if t.hand_tile >= 0:
        return _("Pipe Network: place the Pipe tile you just took first")
    if t.hand_machine:
        return _("Pipe Network: place the Machine you just took first")
    if t.grants:
        return _("Upgrades: take (or decline) what your upgrade gives first")
    return None


def in_action(state: State, actions: Collection[str], message: str) -> str | None:
    """``message`` (marked with ``N_``, translated here) unless one of ``actions`` is in
    progress. (A tile, Machine or grant to deal with first is refused for every move in
    ``why_illegal``.)"""
    t = state.turn
    return None if t.stage == ACTION and t.action in actions else _(message)


def between_actions(state: State, fulfil: bool = False) -> str | None:
    """Moves made between Actions, in the Work and Machine Phases: a new Action, passing,
    running Machines, ending the turn; and (``fulfil``) Contracts and Orders."""
    if state.over:
        return _("the game is over")
    t = state.turn
    if t.stage == SETUP:
        return _("Setup: place your starting Tanks first")
    if t.stage == ACTION:
        if fulfil:
            return _("Contracts and Orders may not interrupt an Action; finish it first")
        return _("{action}: this Action is in progress; finish it first ('done')").format(
            action=action_title(t.action)
        )
    return busy(state)


def main_action_ok(state: State) -> str | None:
    """May the current player start a Main Action now? (one per turn; Human Resources III: two)"""
    why = between_actions(state)
    if why:
        return why
    t = state.turn
    if t.stage != WORK:
        return _("Work Phase: your Work Phase is over this turn")
    if t.mains == 0:
        return None
    if t.mains == 1 and not t.secondary and current(state).level("HR") >= 3:
        return None
    return _("Work Phase: you have taken your Action this turn (Human Resources III allows two)")


def begin_main_action(state: State, action: str, worker: str, cross: str = "") -> None:
    """A Main Action begins: it counts towards the turn's Actions, the worker stands on
    ``worker`` and ``cross`` is the cross space taken ("" off the cross)."""
    t = state.turn
    t.mains += 1
    t.last_cross = cross
    current(state).worker = worker
    reset_action(t, action)


def reset_action(t: TurnState, action: str) -> None:
    """An Action begins: what the previous one allowed or counted starts again."""
    t.stage = ACTION
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
    t.fresh = [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]
