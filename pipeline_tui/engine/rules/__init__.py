"""The rules of Pipeline, by feature: what each move requires and what it does.

Each module holds one part of the rulebook, as a player would look it up: its checks
(``check_*``, returning why a move is illegal or ``None``), its effects (``do_*``) and its
candidate moves (``*_moves``, the legal ones, filtered by the same checks, so the two can never
disagree). This module names each kind of move's rule in one ``match`` (``_rule_of``) and
dispatches through it. Messages name the rule they enforce with the rulebook's words (Tank
Farm, Contract, Secondary Action, ...).

========== ==================================================================================
module     rulebook sections
========== ==================================================================================
cross      Work Phase: Actions on the action cross, Secondary Action, Pass
markets    Market Actions, Refined Markets
refining   Pipe Network, Government, Refining
machines   Machines, Machine Phase
shops      Tanks & Pipes, Machines & Pipes (the Tank Shop, the shops' Pipe tiles)
contracts  Contracts & Loans, Contracts, Orders
upgrades   Upgrades and what they give
turns      Setup, Turn Order, Refresh Phase, End of the Game
base       what they all ask: whose turn, their Pipe Network, whether a choice is free now
========== ==================================================================================
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, get_args

from ...data import components as C
from .. import moves as M
from ...i18n import _
from ..errors import IllegalMove
from ..state import State, clone_state
from . import contracts, cross, machines, markets, refining, shops, turns, upgrades
from .base import (
    A,
    ACTION,
    ACTION_TITLES,
    SETUP,
    WORK,
    action_title,
    busy,
    current,
    edition,
    government_adjacency,
    main_action_ok,
    market_row_index,
    market_rows,
    n_players,
    network,
)
from .fast import legal_moves
from .cross import CROSS_ACTIONS, ICON_ACTIONS, cross_distance, secondary_cost
from .machines import machines_run_cost
from .markets import market_price
from .refining import RUN_ACTIONS, highest_grade_from_crude, quadrant_takeable, refine_cost
from .turns import place_on_track, refresh
from .upgrades import settle_grants

__all__ = [
    "ACTION_TITLES",
    "CROSS_ACTIONS",
    "ICON_ACTIONS",
    "RUN_ACTIONS",
    "action_title",
    "apply_move",
    "apply_trusted",
    "checked_legal_moves",
    "cross_distance",
    "current",
    "edition",
    "government_adjacency",
    "highest_grade_from_crude",
    "legal_moves",
    "machines_run_cost",
    "machines_would_refine",
    "market_price",
    "market_row_index",
    "market_rows",
    "n_players",
    "network",
    "place_on_track",
    "price",
    "quadrant_takeable",
    "refine_cost",
    "refresh",
    "secondary_cost",
    "settle_grants",
    "why_idle",
    "why_illegal",
]

Check = Callable[[State, Any], "str | None"]
Effect = Callable[[State, Any], None]


def _not_a_move(state: State, move: Any) -> str:
    return _("not a move: {move}").format(move=repr(move))


def _refuse(state: State, move: Any) -> None:
    raise IllegalMove(_not_a_move(state, move))


_NOT_A_MOVE: tuple[Check, Effect] = (_not_a_move, _refuse)


def _rule_of(kind: type[M.Move]) -> tuple[Check, Effect]:
    """The check and the effect of a kind of move, from the module of its rule."""
    match kind:
        case M.Action:
            return cross.check_action, cross.do_action
        case M.Secondary:
            return cross.check_secondary, cross.do_secondary
        case M.Pass:
            return cross.check_pass, cross.do_pass
        case M.EndAction:
            return cross.check_end_action, cross.do_end_action
        case M.Buy:
            return markets.check_buy, markets.do_buy
        case M.Sell:
            return markets.check_sell, markets.do_sell
        case M.Refine:
            return refining.check_refine, refining.do_refine
        case M.RunNetwork:
            return refining.check_run_network, refining.do_run_network
        case M.PlaceTile:
            return refining.check_place_tile, refining.do_place_tile
        case M.Government:
            return refining.check_government, refining.do_government
        case M.BuyGovernmentTile:
            return refining.check_buy_government, refining.do_buy_government
        case M.RunMachines:
            return machines.check_run_machines, machines.do_run_machines
        case M.RunMachine:
            return machines.check_run_machine, machines.do_run_machine
        case M.BuyMachine:
            return machines.check_buy_machine, machines.do_buy_machine
        case M.PlaceMachine:
            return machines.check_place_machine, machines.do_place_machine
        case M.BuyPipe:
            return shops.check_buy_pipe, shops.do_buy_pipe
        case M.BuyTank:
            return shops.check_buy_tank, shops.do_buy_tank
        case M.Deliver:
            return contracts.check_deliver, contracts.do_deliver
        case M.FulfilOrder:
            return contracts.check_fulfil_order, contracts.do_fulfil_order
        case M.TakeContract:
            return contracts.check_take_contract, contracts.do_take_contract
        case M.TakeLoan:
            return contracts.check_loan, contracts.do_loan
        case M.BuyUpgrade:
            return upgrades.check_buy_upgrade, upgrades.do_buy_upgrade
        case M.FlipToken:
            return upgrades.check_flip, upgrades.do_flip
        case M.TakeGovernmentTile:
            return upgrades.check_take_government, upgrades.do_take_government
        case M.TakeTank:
            return upgrades.check_take_tank, upgrades.do_take_tank
        case M.TakeMachine:
            return upgrades.check_take_machine, upgrades.do_take_machine
        case M.TakePipe:
            return upgrades.check_take_pipe, upgrades.do_take_pipe
        case M.Decline:
            return upgrades.check_decline, upgrades.do_decline
        case M.EndTurn:
            return turns.check_end_turn, turns.do_end_turn
        case M.ChooseTurnOrder:
            return turns.check_turn_order, turns.do_turn_order
        case M.PlaceStartingTank:
            return turns.check_start_tank, turns.do_start_tank
    return _NOT_A_MOVE


# The match above, looked up once per kind of move (a dict lookup per move, not 31 comparisons).
_RULES = {kind: _rule_of(kind) for kind in get_args(M.AnyMove)}


class _Effects(dict[type, Effect]):
    """Each kind of move's effect; anything else is refused, as ``_NOT_A_MOVE`` does."""

    def __missing__(self, kind: type) -> Effect:
        return _refuse


# The effects alone, for the trusted paths (``apply_trusted`` and ``Game.apply``): one lookup.
EFFECTS = _Effects({kind: rule[1] for kind, rule in _RULES.items()})


_GRANT_MOVES = (M.TakeGovernmentTile, M.TakeTank, M.TakeMachine, M.TakePipe, M.Decline)


def _deals_with_hand(state: State, move: M.Move) -> bool:
    """Whether ``move`` places what is in hand, or takes (or declines) the grant due."""
    t = state.turn
    if t.hand_tile >= 0:
        return isinstance(move, M.PlaceTile)
    if t.hand_machine:
        return isinstance(move, M.PlaceMachine)
    return isinstance(move, _GRANT_MOVES)


def why_illegal(state: State, move: M.Move) -> str | None:
    """Why ``move`` is not allowed now, naming the rule, or ``None`` if it is legal."""
    if state.over:
        return _("the game is over")
    rule = _RULES.get(type(move), _NOT_A_MOVE)
    if rule is _NOT_A_MOVE:
        return _not_a_move(state, move)
    why = busy(state)
    if why and not _deals_with_hand(state, move):
        return why
    return rule[0](state, move)


def apply_move(state: State, move: M.Move) -> None:
    """Check a move and play it on ``state`` in place; raises :class:`IllegalMove`."""
    why = why_illegal(state, move)
    if why is not None:
        raise IllegalMove(why)
    _RULES.get(type(move), _NOT_A_MOVE)[1](state, move)
    if state.turn.grants:  # settle_grants has nothing to drop otherwise
        settle_grants(state)


def apply_trusted(state: State, move: M.Move) -> None:
    """Play a move known to be legal (replaying a validated log, bots), skipping the check."""
    EFFECTS[type(move)](state, move)
    if state.turn.grants:  # settle_grants has nothing to drop otherwise
        settle_grants(state)


def _action_moves(state: State) -> list[M.Move]:
    """What the Action in progress allows, besides finishing it."""
    match state.turn.action:
        case A.CRUDE | A.REFINED1 | A.REFINED2 | A.REFINED3:
            return markets.market_moves(state)
        case A.CONTRACTS:
            return contracts.contract_moves(state)
        case A.TANKS:
            return shops.buy_pipe_moves(state) + shops.buy_tank_moves(state)
        case A.MACHINES:
            return shops.buy_pipe_moves(state) + machines.buy_machine_moves(state)
        case A.UPGRADES:
            return upgrades.upgrade_moves(state)
        case A.GOVERNMENT:
            return refining.government_moves(state)
        case A.NETWORK | A.MACHINE | A.MACHINES_PHASE | A.MACHINES_EARLY:
            return refining.refine_moves(state)
    return []


def checked_legal_moves(state: State) -> list[M.Move]:
    """Every move the current player may make now, in a stable order: each rule's candidates
    filtered by its own checks. The reference for :func:`legal_moves` (``fast``), which lists
    the same moves in the same order without repeating the shared tests per candidate."""
    if state.over:
        return []
    t = state.turn
    if t.hand_tile >= 0:
        return refining.place_tile_moves(state)
    if t.hand_machine:
        return machines.place_machine_moves(state)
    if t.grants:
        return upgrades.grant_moves(state)
    if t.stage == SETUP:
        return turns.start_tank_moves(state)
    if t.stage == ACTION:
        return cross.end_action_moves(state) + _action_moves(state)
    out: list[M.Move] = []
    if t.stage == WORK:
        if t.mains == 0:
            out += cross.pass_moves(state)
        if main_action_ok(state) is None:
            out += cross.main_moves(state) + refining.main_moves(state) + machines.main_moves(state)
        if t.mains == 1:
            out += cross.secondary_moves(state)
    out += machines.run_machines_moves(state)
    out += turns.turn_order_moves(state)
    out += turns.end_turn_moves(state)
    return out + contracts.fulfilment_moves(state)


def price(state: State, move: M.Move) -> int | None:
    """What ``move`` costs the current player now, for the moves with a set price that the move
    itself does not name (a Secondary Action, Government and shop Pipe tiles, running
    Machines); ``None`` for others."""
    t = state.turn
    match move:
        case M.Secondary():
            return secondary_cost(current(state))
        case M.Government():
            return C.GOVERNMENT_COSTS[1]
        case M.BuyGovernmentTile():
            return refining.gov_step_cost(t.gov_bought) if t.gov_bought + 1 in C.GOVERNMENT_COSTS else None
        case M.BuyPipe():
            return shops.pipe_step_cost(t.pipes_bought) if t.pipes_bought + 1 in C.SHOP_PIPE_COSTS else None
        case M.RunMachines():
            return machines_run_cost(current(state))
    return None


def pipe_tile_taken(state: State, move: M.Move) -> int | None:
    """The Pipe tile ``move`` would take (a shop Pipe tile, or a Government tile), so a table can
    draw it before the move is played; ``None`` for other moves or an empty space.

    >>> from pipeline_tui.engine import GameSetup, initial_state
    >>> state = initial_state(GameSetup.default(players=2, seed=1))
    >>> pipe_tile_taken(state, M.TakePipe(shop="T", index=0)) == state.shop_pipes[0][0]
    True
    """

    def at(row: list[int], index: int) -> int | None:
        return row[index] if 0 <= index < len(row) and row[index] >= 0 else None

    match move:
        case M.BuyPipe() if state.turn.action in (A.TANKS, A.MACHINES):
            return at(shops.pipe_shop(state), move.index)
        case M.TakePipe():
            return at(state.shop_pipes[C.SHOPS.index(move.shop)], move.index)
        case M.Government() | M.TakeGovernmentTile():
            return at(state.government[move.quadrant], move.space)
        case M.BuyGovernmentTile() if state.turn.gov_quadrant >= 0:
            return at(state.government[state.turn.gov_quadrant], move.space)
    return None


def why_idle(state: State, move: M.Move) -> str | None:
    """Why a legal run would gain nothing now, or ``None``: a run's only effect is refining, so
    a Main Action (or the Machine Phase's payment) that cannot refine a barrel is wasted. The
    rulebook ("Running Your Personal Pipe Network") lets the worker stand on any Pipe tile but
    not run Pipelines connected to a Machine; those run with their Machines."""
    if why_illegal(state, move) is not None:
        return None
    match move:
        case M.RunNetwork(x=x, y=y):
            net = network(current(state))
            tile = net.tile_of((x, y))
            through = net.through_tile(tile) if tile is not None else []
            if through and all(p.machines for p in through):
                return _(
                    "Running your Pipe Network: every Pipeline through this tile is connected to a "
                    "Machine, and only Machines run those"
                )
            if not _refines_after(state, move):
                return _("Running your Pipe Network: no Pipeline through this tile could refine a barrel now")
        case M.RunMachine():
            if not _refines_after(state, move):
                return _("Machines I: no Pipeline attached to this Machine could refine a barrel now")
        case M.RunMachines():
            if not _refines_after(state, move):
                return _(
                    "Machine Phase: running your Machines costs ${cost} and none could refine a barrel now"
                ).format(cost=machines_run_cost(current(state)))
    return None


def _refines_after(state: State, move: M.Move) -> bool:
    """Whether a Refine is legal once ``move`` (a run) is played."""
    trial = clone_state(state)
    apply_trusted(trial, move)
    return any(isinstance(m, M.Refine) for m in legal_moves(trial))


def machines_would_refine(state: State) -> bool:
    """Whether running the current player's Machines now would let them refine a barrel: a run
    that cannot costs its price for nothing."""
    trial = clone_state(state)
    apply_trusted(trial, M.RunMachines())
    return any(isinstance(m, M.Refine) for m in legal_moves(trial))
