"""Refresh and turn order (rulebook "Setup", "Turn Order", "Refresh Phase", "End of the Game"):
the starting Tanks, ending a turn, choosing a place on the turn-order track, and what happens
when a Round, a Year and the game end."""

from __future__ import annotations

from ...data import components as C
from .. import moves as M
from ...i18n import _
from ..state import Grant, State, TurnState
from .base import OVER, SETUP, WORK, between_actions, current, edition, market_rows, n_players
from .contracts import close_contracts
from .upgrades import G, settle_grants


def place_on_track(track: list[int], seat: int, space: int) -> None:
    """Rules version 2, "Turn Order": put a disk on a space of the next-Round row. A disk already
    there is pushed, with the disks touching it, toward the nearest free space: to the right as
    in the rulebook's example when there is one, otherwise to the left."""
    if track[space] >= 0:
        right = [i for i in range(space + 1, len(track)) if track[i] < 0]
        free = right[0] if right else max(i for i in range(space) if track[i] < 0)
        del track[free]
        track.insert(space, -1)
    track[space] = seat


def _sync_next_order(state: State) -> None:
    state.next_order = [seat for seat in state.next_track if seat >= 0]


def start_turn(state: State) -> None:
    """A player's turn begins; on their first turn of Years 2 and 3 yearly upgrade benefits
    arrive (Government: 1 Government tile; Shops: 2 Tanks)."""
    seat = state.turn_order[state.turn_index]
    state.turn = TurnState(player=seat, stage=WORK)
    player = state.players[seat]
    if player.benefits_year < state.year:
        player.benefits_year = state.year
        if player.level("GOV") >= 1:
            state.turn.grants.append(Grant(G.GOV, 1, "GOV yearly"))
        if player.level("SHOP") >= 1:
            state.turn.grants.append(Grant(G.TANK, 2, "SHOP yearly"))


def refresh(state: State) -> None:
    """The Refresh Phase at the start of Years 2 and 3 (rulebook "Refresh Phase")."""
    close_contracts(state, at_game_end=False)
    for row, stack in zip(state.contract_rows, state.contract_stacks):
        row.pop()
        row.insert(0, stack.pop() if stack else -1)
    for slots, market in zip(state.markets, market_rows(state)):
        if market.supply:
            added = 0
            for i in range(len(slots) - 1, -1, -1):
                if added >= market.supply or state.supply[market.colour] <= 0:
                    break
                if slots[i] < 0:
                    slots[i] = market.colour
                    state.supply[market.colour] -= 1
                    added += 1
        if market.demand:
            removed = 0
            for i in range(len(slots)):
                if removed >= market.demand:
                    break
                if slots[i] >= 0:
                    state.supply[slots[i]] += 1
                    slots[i] = -1
                    removed += 1
    n = n_players(state)
    for shop in state.shop_pipes:
        for i, tile in enumerate(shop):
            if tile >= 0:
                state.pipe_discard.append(tile)
            shop[i] = state.pipe_deck.pop() if state.pipe_deck else -1
    for i, full in enumerate(edition(state).tank_shop_spaces[n]):
        add = min(full - state.tank_shop[i], state.tank_reserve)
        state.tank_shop[i] += add
        state.tank_reserve -= add
    for i, full in enumerate(edition(state).machine_shop_spaces[n]):
        add = min(full - state.machine_shop[i], state.machine_reserve)
        state.machine_shop[i] += add
        state.machine_reserve -= add
    state.upgrade_tokens = [True] * len(state.upgrade_tokens)


def end_round(state: State) -> None:
    """The Round ends: next Round's turn order, then the next Year (with a Refresh Phase) or the
    end of the game after Year 3."""
    state.turn_order = state.next_order
    state.next_order = []
    state.next_track = [-1] * len(state.next_track)
    state.turn_index = 0
    for player in state.players:
        player.worker = ""
    if state.round < C.ROUNDS_PER_YEAR[state.year - 1]:
        state.round += 1
    elif state.year < 3:
        state.year += 1
        state.round = 1
        refresh(state)
    else:
        close_contracts(state, at_game_end=True)
        state.over = True
        state.turn = TurnState(player=state.turn_order[0], stage=OVER)
        return
    start_turn(state)
    settle_grants(state)


# --- Checks -----------------------------------------------------------------------------------


def check_start_tank(state: State, m: M.PlaceStartingTank) -> str | None:
    if state.turn.stage != SETUP:
        return _("Setup: starting Tanks are placed before the first Round")
    if not 0 <= m.grade <= 3:
        return _("Tank Farm: the rows are Crude, Low, Mid and High")
    if current(state).tanks[m.grade] >= C.MAX_TANKS_PER_ROW:
        return _("Tank Farm: a row holds at most {n} Tanks").format(n=C.MAX_TANKS_PER_ROW)
    return None


def check_end_turn(state: State, m: M.EndTurn) -> str | None:
    why = between_actions(state)
    if why:
        return why
    t = state.turn
    if t.stage == WORK and t.mains == 0:
        return _("End of turn: take an Action or pass first")
    return None


def check_turn_order(state: State, m: M.ChooseTurnOrder) -> str | None:
    why = between_actions(state)
    if why:
        return why
    t = state.turn
    if not t.icon:
        return _("Turn Order: only after an Action showing the Turn Order icon")
    if t.order_chosen:
        return _("Turn Order: you have chosen your place already this turn")
    if state.rules_version >= 2:
        if not 0 <= m.position < len(state.next_track):
            return _("Turn Order: choose a space from 1 to {n}").format(n=len(state.next_track))
    elif not 0 <= m.position <= len(state.next_order):
        return _("Turn Order: choose a place from 1 to {n}").format(n=len(state.next_order) + 1)
    return None


# --- Effects ----------------------------------------------------------------------------------


def do_start_tank(state: State, m: M.PlaceStartingTank) -> None:
    current(state).tanks[m.grade] += 1
    t = state.turn
    t.setup_placed += 1
    if t.setup_placed < C.START_TANKS:
        return
    state.turn_index += 1
    if state.turn_index < len(state.turn_order):
        state.turn = TurnState(player=state.turn_order[state.turn_index], stage=SETUP)
    else:
        state.turn_index = 0
        start_turn(state)


def do_end_turn(state: State, m: M.EndTurn) -> None:
    t = state.turn
    if not t.order_chosen:
        if state.rules_version >= 2:  # slide down to the leftmost free space
            state.next_track[state.next_track.index(-1)] = t.player
            _sync_next_order(state)
        else:
            state.next_order.append(t.player)
    state.turn_index += 1
    if state.turn_index < len(state.turn_order):
        start_turn(state)
    else:
        end_round(state)


def do_turn_order(state: State, m: M.ChooseTurnOrder) -> None:
    if state.rules_version >= 2:
        place_on_track(state.next_track, state.turn.player, m.position)
        _sync_next_order(state)
    else:
        state.next_order.insert(m.position, state.turn.player)
    state.turn.order_chosen = True


# --- Candidate moves --------------------------------------------------------------------------


def start_tank_moves(state: State) -> list[M.Move]:
    return [m for m in (M.PlaceStartingTank(grade=g) for g in range(4)) if check_start_tank(state, m) is None]


def turn_order_moves(state: State) -> list[M.Move]:
    """A place on the turn-order track, after an Action showing the Turn Order icon."""
    t = state.turn
    if not t.icon or t.order_chosen:
        return []
    places = len(state.next_track) if state.rules_version >= 2 else len(state.next_order) + 1
    return [
        m
        for m in (M.ChooseTurnOrder(position=i) for i in range(places))
        if check_turn_order(state, m) is None
    ]


def end_turn_moves(state: State) -> list[M.Move]:
    move = M.EndTurn()
    return [move] if check_end_turn(state, move) is None else []
