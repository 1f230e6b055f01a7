"""Markets (rulebook "Market Actions", "Refined Markets" upgrade): buying and selling barrels in
the rows of the market being visited, at the price printed above each slot."""

from __future__ import annotations

from ...data import components as C
from ...data.oil import GRADE_WORDS
from .. import moves as M
from ...i18n import N_, _
from ..state import PlayerState, State
from .base import current, in_action, market_row_index, market_rows, n_players


def market_price(state: State, player: PlayerState, row_index: int, slot: int) -> int:
    """The price printed above a slot, plus $5 for refined oil with Refined Markets I."""
    row = market_rows(state)[row_index]
    price = row.prices[row.slots[n_players(state)][slot]]
    if row.market != "C" and row.grade > 0 and player.level("RM") >= 1:
        price += C.REFINED_MARKETS_I_BONUS
    return price


def rows_in_scope(state: State) -> list[int]:
    """The rows of the market visited now (Refined Markets II: every refined market)."""
    market = C.ACTION_MARKET.get(state.turn.action)
    if market is None:
        return []
    if market != "C" and current(state).level("RM") >= 2:
        markets = {"1", "2", "3"}
    else:
        markets = {market}
    return [i for i, row in enumerate(market_rows(state)) if row.market in markets]


# --- Checks -----------------------------------------------------------------------------------


def _check_market(state: State, row: str, slot: int) -> tuple[str | None, int]:
    why = in_action(state, C.ACTION_MARKET, N_("Markets: buy and sell only during a market Action"))
    if why:
        return why, -1
    index = market_row_index(state).get(row, -1)
    if index not in rows_in_scope(state):
        return _("Markets: row {row} is not part of the market you are visiting").format(row=row), -1
    if not 0 <= slot < len(state.markets[index]):
        return _("Markets: row {row} has no slot {slot} (slots 1 to {n})").format(
            row=row, slot=slot + 1, n=len(state.markets[index])
        ), -1
    return None, index


def check_buy(state: State, m: M.Buy) -> str | None:
    why, index = _check_market(state, m.row, m.slot)
    if why:
        return why
    colour = state.markets[index][m.slot]
    if colour < 0:
        return _("Markets: that slot is empty")
    player = current(state)
    grade = market_rows(state)[index].grade
    if player.free_space(grade) < 1:
        return _("Tank Farm: no free Tank in the {row} row").format(row=_(GRADE_WORDS[grade]))
    if player.money < market_price(state, player, index, m.slot):
        return _("Markets: you cannot afford that barrel")
    return None


def check_sell(state: State, m: M.Sell) -> str | None:
    why, index = _check_market(state, m.row, m.slot)
    if why:
        return why
    if state.turn.bought:
        return _("Markets: complete all your selling before purchasing")
    if state.markets[index][m.slot] >= 0:
        return _("Markets: that slot is taken")
    row = market_rows(state)[index]
    player = current(state)
    if not (0 <= m.colour <= 2 and 0 <= m.grade <= 3) or player.oil[m.grade][m.colour] < 1:
        return _("Tank Farm: you have no such barrel")
    if m.grade < row.grade:
        return _("Markets: oil may be sold as a lower grade, never a higher one")
    if m.colour != row.colour and not (row.market != "C" and player.level("RM") >= 3):
        return _("Markets: the oil type must match the row (Refined Markets III lifts this)")
    return None


# --- Effects ----------------------------------------------------------------------------------


def do_buy(state: State, m: M.Buy) -> None:
    index = market_row_index(state)[m.row]
    player = current(state)
    colour = state.markets[index][m.slot]
    player.money -= market_price(state, player, index, m.slot)
    state.markets[index][m.slot] = -1
    player.oil[market_rows(state)[index].grade][colour] += 1
    state.turn.bought = True


def do_sell(state: State, m: M.Sell) -> None:
    index = market_row_index(state)[m.row]
    player = current(state)
    player.money += market_price(state, player, index, m.slot)
    player.oil[m.grade][m.colour] -= 1
    state.markets[index][m.slot] = m.colour


# --- Candidate moves --------------------------------------------------------------------------


def market_moves(state: State) -> list[M.Move]:
    """Buying and selling during a market Action, slot by slot."""
    t = state.turn
    player = current(state)
    rows = market_rows(state)
    out: list[M.Move] = []
    for index in rows_in_scope(state):
        row = rows[index]
        for slot, colour in enumerate(state.markets[index]):
            if colour >= 0:
                buy = M.Buy(row=row.code, slot=slot)
                if check_buy(state, buy) is None:
                    out.append(buy)
            elif not t.bought:
                for grade in range(row.grade, 4):
                    for c in range(3):
                        if player.oil[grade][c] > 0:
                            sell = M.Sell(row=row.code, slot=slot, colour=c, grade=grade)
                            if check_sell(state, sell) is None:
                                out.append(sell)
    return out
