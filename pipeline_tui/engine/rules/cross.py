"""Actions and the action cross (rulebook "Work Phase", "Secondary Action", "Pass"): a Main
Action on a space of the cross, a Secondary Action near it, passing, and finishing an Action."""

from __future__ import annotations

from ...data import components as C
from .. import moves as M
from ...i18n import _, quoted
from ..state import PlayerState, State
from .base import (
    A,
    ACTION,
    MACHINE,
    WORK,
    begin_main_action,
    between_actions,
    busy,
    current,
    main_action_ok,
    reset_action,
)

ICON_ACTIONS = frozenset(C.ACTION_TILES)  # the four action tiles show the Turn Order icon
CROSS_ACTIONS = C.MARKET_ACTIONS + C.ACTION_TILES


def cross_cell(state: State, action: str) -> tuple[int, int]:
    """Where an action space lies on the cross: markets at the arms' ends, tiles inside."""
    if action in C.MARKET_CELLS:
        return C.MARKET_CELLS[action]
    return C.INNER_CELLS[state.action_tiles.index(action)]


def cross_distance(state: State, a: str, b: str) -> int:
    """Steps along the cross between two spaces (on a plus shape this is the Manhattan distance)."""
    (ax, ay), (bx, by) = cross_cell(state, a), cross_cell(state, b)
    return abs(ax - bx) + abs(ay - by)


def secondary_cost(player: PlayerState) -> int:
    """A Secondary Action costs $10 (free with Human Resources I)."""
    return 0 if player.level("HR") >= 1 else C.SECONDARY_ACTION_COST


# --- Checks -----------------------------------------------------------------------------------


def check_action(state: State, m: M.Action) -> str | None:
    why = main_action_ok(state)
    if why:
        return why
    if m.action not in CROSS_ACTIONS:
        return _("Action: there is no action space {action}").format(action=quoted(m.action))
    if state.rules_version < 2 and state.turn.mains == 1 and m.action == state.turn.last_cross:
        return _("Human Resources III: your two Actions must be on different spaces")
    return None


def check_secondary(state: State, m: M.Secondary) -> str | None:
    why = between_actions(state)
    if why:
        return why
    t = state.turn
    if t.stage != WORK or t.mains != 1 or not t.last_cross:
        return _("Secondary Action: only after a Main Action on the action cross")
    if t.secondary:
        return _("Secondary Action: you have taken it already this turn")
    if m.action not in CROSS_ACTIONS:
        return _("Secondary Action: there is no action space {action}").format(action=quoted(m.action))
    player = current(state)
    reach = 2 if player.level("HR") >= 2 else 1
    distance = cross_distance(state, t.last_cross, m.action)
    if distance == 0:
        return _("Secondary Action: it must be a different space from your Main Action")
    if distance > reach:
        return (
            _("Secondary Action: it must be the space next to your Main Action on the same arm")
            if reach == 1
            else _("Human Resources II: at most 2 spaces from your Main Action")
        )
    cost = secondary_cost(player)
    if player.money < cost:
        return _("Secondary Action: it costs ${cost}").format(cost=cost)
    return None


def check_pass(state: State, m: M.Pass) -> str | None:
    why = between_actions(state)
    if why:
        return why
    t = state.turn
    if t.stage == MACHINE and not t.mains:
        return _("Pass: you have passed; the Machine Phase is next ('end' ends your turn)")
    if t.stage != WORK or t.mains:
        return _("Pass: you pass instead of taking an Action")
    return None


def check_end_action(state: State, m: M.EndAction) -> str | None:
    if state.turn.stage != ACTION:
        return _("there is no Action in progress to finish")
    return busy(state)


# --- Effects ----------------------------------------------------------------------------------


def do_action(state: State, m: M.Action) -> None:
    begin_main_action(state, m.action, m.action, cross=m.action)


def do_secondary(state: State, m: M.Secondary) -> None:
    player = current(state)
    player.money -= secondary_cost(player)
    t = state.turn
    t.secondary = True
    player.worker = m.action
    reset_action(t, m.action)


def do_pass(state: State, m: M.Pass) -> None:
    state.turn.stage = MACHINE


def do_end_action(state: State, m: M.EndAction) -> None:
    t = state.turn
    if t.action in ICON_ACTIONS:
        t.icon = True
    t.stage = MACHINE if t.action == A.MACHINES_PHASE else WORK
    t.action = ""
    t.runs = []
    t.fresh = [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]


# --- Candidate moves --------------------------------------------------------------------------


def pass_moves(state: State) -> list[M.Move]:
    move = M.Pass()
    return [move] if check_pass(state, move) is None else []


def main_moves(state: State) -> list[M.Move]:
    """Main Actions on the cross's spaces."""
    return [m for m in (M.Action(action=a) for a in CROSS_ACTIONS) if check_action(state, m) is None]


def secondary_moves(state: State) -> list[M.Move]:
    return [m for m in (M.Secondary(action=a) for a in CROSS_ACTIONS) if check_secondary(state, m) is None]


def end_action_moves(state: State) -> list[M.Move]:
    move = M.EndAction()
    return [move] if check_end_action(state, move) is None else []
