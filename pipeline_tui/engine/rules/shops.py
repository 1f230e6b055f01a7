"""The Tank Shop and the Pipe tiles beside the shops (rulebook "Tanks & Pipes", "Machines &
Pipes"): Tanks from the cheapest row, Pipe tiles at $15 for up to 2 and $40 for 3 or 4."""

from __future__ import annotations

from ...data import components as C
from .. import moves as M
from ...i18n import N_, _
from ..state import State
from .base import A, current, edition, in_action


def pipe_step_cost(bought: int) -> int:
    """Cost of the next shop Pipe tile when ``bought`` were already bought in this Action."""
    return C.SHOP_PIPE_COSTS[bought + 1] - C.SHOP_PIPE_COSTS.get(bought, 0)


def pipe_shop(state: State) -> list[int]:
    """The Pipe tiles beside the shop of the Action in progress."""
    return state.shop_pipes[0 if state.turn.action == A.TANKS else 1]


def tank_row_check(state: State, shop_row: int, grade: int) -> str | None:
    """A Tank from the Tank Shop (bought or given) into a Tank Farm row."""
    if not 0 <= shop_row < len(state.tank_shop) or state.tank_shop[shop_row] < 1:
        return _("Tank Shop: that row is empty")
    if any(state.tank_shop[:shop_row]):
        return _("Tank Shop: Tanks come from the cheapest row that has one")
    if not 0 <= grade <= 3:
        return _("Tank Farm: the rows are Crude, Low, Mid and High")
    if current(state).tanks[grade] >= C.MAX_TANKS_PER_ROW:
        return _("Tank Farm: a row holds at most {n} Tanks").format(n=C.MAX_TANKS_PER_ROW)
    return None


# --- Checks -----------------------------------------------------------------------------------


def check_buy_tank(state: State, m: M.BuyTank) -> str | None:
    why = in_action(
        state, (A.TANKS,), N_("Tank Shop: buy Tanks with the Tanks & Pipes Action")
    ) or tank_row_check(state, m.shop_row, m.grade)
    if why:
        return why
    if current(state).money < edition(state).tank_shop_prices[m.shop_row]:
        return _("Tank Shop: that Tank costs ${cost}").format(
            cost=edition(state).tank_shop_prices[m.shop_row]
        )
    return None


def check_buy_pipe(state: State, m: M.BuyPipe) -> str | None:
    why = in_action(
        state,
        (A.TANKS, A.MACHINES),
        N_("Pipe tiles: buy them with the Tanks & Pipes or Machines & Pipes Action"),
    )
    if why:
        return why
    t = state.turn
    shop = pipe_shop(state)
    if not 0 <= m.index < len(shop) or shop[m.index] < 0:
        return _("Pipe tiles: that space is empty")
    if t.pipes_bought >= 4:
        return _("Pipe tiles: at most 4 per Action")
    if current(state).money < pipe_step_cost(t.pipes_bought):
        return _("Pipe tiles: $15 for up to 2, $40 for 3 or 4")
    return None


# --- Effects ----------------------------------------------------------------------------------


def do_buy_tank(state: State, m: M.BuyTank) -> None:
    player = current(state)
    player.money -= edition(state).tank_shop_prices[m.shop_row]
    state.tank_shop[m.shop_row] -= 1
    player.tanks[m.grade] += 1


def do_buy_pipe(state: State, m: M.BuyPipe) -> None:
    t = state.turn
    shop = pipe_shop(state)
    current(state).money -= pipe_step_cost(t.pipes_bought)
    t.pipes_bought += 1
    t.hand_tile = shop[m.index]
    shop[m.index] = -1


# --- Candidate moves --------------------------------------------------------------------------


def buy_pipe_moves(state: State) -> list[M.Move]:
    return [
        m
        for m in (M.BuyPipe(index=i) for i in range(len(pipe_shop(state))))
        if check_buy_pipe(state, m) is None
    ]


def buy_tank_moves(state: State) -> list[M.Move]:
    return [
        m
        for m in (M.BuyTank(shop_row=r, grade=g) for r in range(len(state.tank_shop)) for g in range(4))
        if check_buy_tank(state, m) is None
    ]
