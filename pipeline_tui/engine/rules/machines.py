"""Machines (rulebook "Machines", "Machine Phase", Machines upgrade): buying and placing a Machine,
running one as an Action (Machines I), and running them all for a price."""

from __future__ import annotations

from ...data import components as C
from .. import moves as M
from ...i18n import N_, _
from ..state import PlayerState, State
from .base import (
    A,
    begin_main_action,
    WORK,
    between_actions,
    current,
    edition,
    in_action,
    main_action_ok,
    network,
    reset_action,
)


def free_cells_for_machine(player: PlayerState) -> list[tuple[int, int]]:
    """The halves of the player's Pipe tiles that no Machine covers."""
    net = network(player)
    taken = set(map(tuple, player.machines))
    return sorted(c for c in net.cells if c not in taken)


def machines_run_cost(player: PlayerState) -> int:
    """Running all your Machines costs $15 ($5 with Machines II)."""
    return C.MACHINE_RUN_COST_MACHINES_II if player.level("MACH") >= 2 else C.MACHINE_RUN_COST


# --- Checks -----------------------------------------------------------------------------------


def check_run_machine(state: State, m: M.RunMachine) -> str | None:
    why = main_action_ok(state)
    if why:
        return why
    player = current(state)
    if player.level("MACH") < 1:
        return _("Machines I: only its owner may run a Machine as an Action")
    if (m.x, m.y) not in set(map(tuple, player.machines)):
        return _("Machines I: your worker must stand on one of your Machines")
    return None


def check_run_machines(state: State, m: M.RunMachines) -> str | None:
    why = between_actions(state)
    if why:
        return why
    t = state.turn
    player = current(state)
    if not player.machines:
        return _("Machine Phase: you have no Machines")
    cost = machines_run_cost(player)
    if t.stage == WORK and t.mains == 0:
        if player.level("MACH") < 3:
            return _("Machine Phase: Machines run after your Actions (Machines III: before too)")
        if t.machines_early_run:
            return _("Machines III: Machines run once before your Actions")
    elif t.machines_phase_run:
        return _("Machine Phase: your Machines have run this phase")
    if player.money < cost:
        return _("Machine Phase: running your Machines costs ${cost}; you have ${money}").format(
            cost=cost, money=player.money
        )
    return None


def check_buy_machine(state: State, m: M.BuyMachine) -> str | None:
    why = in_action(state, (A.MACHINES,), N_("Machine Shop: buy Machines with the Machines & Pipes Action"))
    if why:
        return why
    if not 0 <= m.shop_row < len(state.machine_shop) or state.machine_shop[m.shop_row] < 1:
        return _("Machine Shop: that row is empty")
    if any(state.machine_shop[: m.shop_row]):
        return _("Machine Shop: Machines come from the cheapest row that has one")
    if not free_cells_for_machine(current(state)):
        return _("Machines: a Machine must cover a Pipe tile half without one")
    if current(state).money < edition(state).machine_shop_prices[m.shop_row]:
        return _("Machine Shop: that Machine costs ${cost}").format(
            cost=edition(state).machine_shop_prices[m.shop_row]
        )
    return None


def check_place_machine(state: State, m: M.PlaceMachine) -> str | None:
    if not state.turn.hand_machine:
        return _("Machines: you have no Machine to place")
    player = current(state)
    if (m.x, m.y) not in network(player).cells:
        return _("Machines: a Machine must cover half of one of your Pipe tiles")
    if (m.x, m.y) in set(map(tuple, player.machines)):
        return _("Machines: that half already has a Machine")
    return None


# --- Effects ----------------------------------------------------------------------------------


def do_run_machine(state: State, m: M.RunMachine) -> None:
    begin_main_action(state, A.MACHINE, f"machine {m.x},{m.y}")
    state.turn.run_x, state.turn.run_y = m.x, m.y


def do_run_machines(state: State, m: M.RunMachines) -> None:
    t = state.turn
    player = current(state)
    player.money -= machines_run_cost(player)
    if t.stage == WORK and t.mains == 0:
        t.machines_early_run = True
        reset_action(t, A.MACHINES_EARLY)
    else:
        t.machines_phase_run = True
        reset_action(t, A.MACHINES_PHASE)


def do_buy_machine(state: State, m: M.BuyMachine) -> None:
    current(state).money -= edition(state).machine_shop_prices[m.shop_row]
    state.machine_shop[m.shop_row] -= 1
    state.turn.hand_machine = True


def do_place_machine(state: State, m: M.PlaceMachine) -> None:
    current(state).machines.append((m.x, m.y))
    state.turn.hand_machine = False


# --- Candidate moves --------------------------------------------------------------------------


def main_moves(state: State) -> list[M.Move]:
    """Machines I: running one Machine as a Main Action."""
    player = current(state)
    if player.level("MACH") < 1:
        return []
    return [
        m for m in (M.RunMachine(x=x, y=y) for x, y in player.machines) if check_run_machine(state, m) is None
    ]


def run_machines_moves(state: State) -> list[M.Move]:
    move = M.RunMachines()
    return [move] if check_run_machines(state, move) is None else []


def buy_machine_moves(state: State) -> list[M.Move]:
    return [
        m
        for m in (M.BuyMachine(shop_row=r) for r in range(len(state.machine_shop)))
        if check_buy_machine(state, m) is None
    ]


def place_machine_moves(state: State) -> list[M.Move]:
    """Every free tile half for the Machine in hand."""
    return [M.PlaceMachine(x=x, y=y) for x, y in free_cells_for_machine(current(state))]
