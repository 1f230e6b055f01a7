"""What a move will do, before it is played: the table shows it as the selection moves.

The preview plays the move on a copy of the state (the rules' own effect, so it cannot differ
from playing it) and compares the mover's money and barrels before and after. For a move
that opens a run of the network, a Machine or the Machine Phase it also lists, for each oil
colour, the highest grade a barrel can be refined to next (the run's Refine moves), and for
every barrel the move gains, what it would sell for now at the best free slot of the Refined
Markets (rulebook, "Refined Markets 1, 2, & 3").
"""

from __future__ import annotations

import msgspec

from ..data.components import ContractKind
from . import moves as M
from .rules import apply_trusted, legal_moves, market_price, market_rows, why_idle, why_illegal

from .state import State, clone_state

Barrels = tuple[tuple[int, int, int], ...]
"""(colour, grade, count) triples, sorted."""


class Preview(msgspec.Struct, frozen=True):
    """The mover's side of a move: money and barrels before and after, and for runs how far
    each colour can be refined next."""

    seat: int
    money_before: int
    money_after: int
    gained: Barrels = ()
    lost: Barrels = ()
    reach: tuple[tuple[int, int, int], ...] = ()  # (colour, from grade, highest grade) next
    worth: int = 0  # what the barrels gained would sell for now (refined ones, best free slot)
    tile: int = -1  # the Contract or Order tile the move takes or fulfils
    upgrade: tuple[str, int] | None = None  # the Upgrade card the move buys: (family, level)
    idle: str = ""  # why the move (a run) would gain nothing now (rules.why_idle), or ""

    @property
    def cost(self) -> int:
        """Money the move takes (negative: money it brings)."""
        return self.money_before - self.money_after


def best_sale(state: State, seat: int, colour: int, grade: int) -> int | None:
    """The most a Refined Market pays now for one barrel of ``colour`` at ``grade`` in a free
    slot (a row of that colour and of that grade or a lower one), or ``None``: no free slot, or
    a Crude barrel (the Crude Market only sells)."""
    if grade == 0:
        return None
    player = state.players[seat]
    best: int | None = None
    for index, row in enumerate(market_rows(state)):
        if row.market == "C" or row.colour != colour or row.grade > grade:
            continue
        for slot, held in enumerate(state.markets[index]):
            if held < 0:
                price = market_price(state, player, index, slot)
                best = price if best is None else max(best, price)
    return best


def _barrels(oil: list[list[int]]) -> dict[tuple[int, int], int]:
    return {(c, g): oil[g][c] for g in range(len(oil)) for c in range(len(oil[g])) if oil[g][c]}


def _diff(after: dict[tuple[int, int], int], before: dict[tuple[int, int], int]) -> Barrels:
    keys = sorted(set(after) | set(before))
    return tuple(
        (c, g, after.get((c, g), 0) - before.get((c, g), 0))
        for c, g in keys
        if after.get((c, g), 0) > before.get((c, g), 0)
    )


def _reach(trial: State, seat: int) -> tuple[tuple[int, int, int], ...]:
    """For each (colour, grade) a Refine move of the run can take, the highest grade it can
    reach. A Refine names its Pipeline, not the colour: the colour is the barrel it moves."""
    best: dict[tuple[int, int], int] = {}
    had = _barrels(trial.players[seat].oil)
    for move in legal_moves(trial):
        if isinstance(move, M.Refine):
            step = clone_state(trial)
            apply_trusted(step, move)
            for colour, grade, _n in _diff(had, _barrels(step.players[seat].oil)):
                key = (colour, grade)
                best[key] = max(best.get(key, 0), move.to_grade)
    return tuple((c, g, to) for (c, g), to in sorted(best.items()))


def _tile(state: State, move: M.Move) -> int:
    """The Contract or Order tile ``move`` names by its row and slot (rows 1-3 Contracts, 3-5
    Orders, as in the notation), or -1."""
    match move:
        case M.TakeContract(kind=ContractKind.CONTRACT, row=row, slot=slot):
            return state.contract_rows[row - 1][slot]
        case M.TakeContract(row=row, slot=slot) | M.FulfilOrder(row=row, slot=slot):
            return state.order_rows[row - 3][slot]
    return -1


def preview(state: State, move: M.Move) -> Preview | None:
    """What ``move`` does for the player to act, or ``None`` if it is not legal now."""
    if why_illegal(state, move) is not None:
        return None
    seat = state.turn.player
    trial = clone_state(state)
    apply_trusted(trial, move)
    before, after = state.players[seat], trial.players[seat]
    had, has = _barrels(before.oil), _barrels(after.oil)
    gained = _diff(has, had)
    worth = sum(n * (best_sale(trial, seat, c, g) or 0) for c, g, n in gained)
    runs = isinstance(move, (M.RunNetwork, M.RunMachine, M.RunMachines))
    return Preview(
        seat=seat,
        money_before=before.money,
        money_after=after.money,
        gained=gained,
        lost=_diff(had, has),
        reach=_reach(trial, seat) if runs and trial.turn.player == seat else (),
        worth=worth,
        tile=_tile(state, move),
        upgrade=(move.family, after.level(move.family)) if isinstance(move, M.BuyUpgrade) else None,
        idle=(why_idle(state, move) or "") if runs else "",
    )
