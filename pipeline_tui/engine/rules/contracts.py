"""Contracts and Orders (rulebook "Contracts & Loans", "Contracts", "Orders", Contracts & Orders
upgrade): taking Contracts and Loans, delivering barrels, fulfilling Orders, and the Contracts
closed at the end of each Year."""

from __future__ import annotations

from collections.abc import Sequence

from ...data import components as C
from .. import moves as M
from ...i18n import N_, _, ngettext
from ..state import HeldContract, HeldOrder, PlayerState, State
from .base import A, K, between_actions, current, in_action


def contract_pay(player: PlayerState, grade: int, kind: str) -> int:
    """What a barrel on a Contract or an Order pays (Contracts & Orders II: $10 more)."""
    pay = C.CONTRACT_PAY[grade] if kind == K.CONTRACT else C.ORDER_PAY[grade]
    if player.level("CO") >= 2:
        pay += C.CONTRACTS_ORDERS_II_BONUS
    return pay


def contract_max(player: PlayerState) -> int:
    """Fulfilments of one Contract per Year (Contracts & Orders I: two)."""
    return 2 if player.level("CO") >= 1 else 1


def close_contracts(state: State, at_game_end: bool) -> None:
    """End of a Year: each Active Contract not fulfilled this Year (or with a second fulfilment
    begun and not finished) is removed with a Penalty marker; barrels on Contracts return to the
    supply; Deferred Contracts become Active."""
    for player in state.players:
        kept = []
        for held in player.contracts:
            for colour, _grade in held.barrels:
                state.supply[colour] += 1
            held.barrels = []
            if held.deferred:
                held.deferred = False
                kept.append(held)
                continue
            if held.completions == 0 or any(g >= 0 for g in held.filled):
                player.penalties += 1
                if at_game_end:
                    player.end_penalties += 1
                continue
            held.completions = 0
            held.filled = [-1] * len(held.filled)
            kept.append(held)
        player.contracts = kept


# --- Checks -----------------------------------------------------------------------------------


def check_take_contract(state: State, m: M.TakeContract) -> str | None:
    why = in_action(state, (A.CONTRACTS,), N_("Contracts: take them with the Contracts & Loans Action"))
    if why:
        return why
    t = state.turn
    player = current(state)
    if m.kind == K.CONTRACT:
        if m.row not in C.CONTRACT_ROWS:
            return _("Contracts: the rows are Low, Mid and High")
        row = state.contract_rows[m.row - 1]
    elif m.kind == K.ORDER:
        if player.level("CO") < 3:
            return _("Contracts & Orders III: only then may Orders be taken as Contracts")
        if m.row not in C.ORDER_ROWS:
            return _("Orders: the rows are 3, 4 and 5 barrels")
        row = state.order_rows[m.row - 3]
    else:
        return _("Contracts: unknown kind {kind}").format(kind=repr(m.kind))
    if not 0 <= m.slot < len(row) or row[m.slot] < 0:
        return _("Contracts: that space is empty")
    if len(t.contract_rows) >= C.CONTRACTS_PER_ACTION:
        return _("Contracts: at most {n} per Action").format(n=C.CONTRACTS_PER_ACTION)
    if f"{m.kind}{m.row}" in t.contract_rows:
        return _("Contracts: at most one from each row per Action")
    if m.deferred and state.year == 3:
        return _("Contracts: they cannot be Deferred in Year 3")
    return None


def check_loan(state: State, m: M.TakeLoan) -> str | None:
    if state.turn.loan:
        return _("Loans: at most one per Action")
    return in_action(state, (A.CONTRACTS,), N_("Loans: take one with the Contracts & Loans Action"))


def check_deliver(state: State, m: M.Deliver) -> str | None:
    why = between_actions(state, fulfil=True)
    if why:
        return why
    player = current(state)
    if not 0 <= m.contract < len(player.contracts):
        return _("Contracts: you have no such Contract")
    held = player.contracts[m.contract]
    if held.deferred:
        return _("Contracts: a Deferred Contract cannot take oil until next Year")
    if held.completions >= contract_max(player):
        return _("Contracts: fulfilled once this Year already (Contracts & Orders I: twice)")
    tile = C.contract_tile(held.tile)
    if not 0 <= m.need < len(tile.needs):
        return _("Contracts: no such requirement")
    if held.filled[m.need] >= 0:
        return _("Contracts: that requirement is already filled")
    colour, grade = tile.needs[m.need]
    if not 0 <= m.grade <= 3 or m.grade < grade:
        return _("Contracts: the oil must be of the required grade or higher")
    if player.oil[m.grade][colour] < 1:
        return _("Tank Farm: you have no such barrel")
    return None


def check_fulfil_order(state: State, m: M.FulfilOrder) -> str | None:
    why = between_actions(state, fulfil=True)
    if why:
        return why
    if m.row not in C.ORDER_ROWS:
        return _("Orders: the rows are 3, 4 and 5 barrels")
    row = state.order_rows[m.row - 3]
    if not 0 <= m.slot < len(row) or row[m.slot] < 0:
        return _("Orders: that space is empty")
    tile = C.contract_tile(row[m.slot])
    if len(m.grades) != len(tile.needs):
        n = len(tile.needs)
        return ngettext(
            "Orders: this Order needs {n} barrel, all at once",
            "Orders: this Order needs {n} barrels, all at once",
            n,
        ).format(n=n)
    need: dict[tuple[int, int], int] = {}
    for (colour, grade), used in zip(tile.needs, m.grades):
        if not 0 <= used <= 3 or used < grade:
            return _("Orders: each barrel must be of the required grade or higher")
        need[(colour, used)] = need.get((colour, used), 0) + 1
    player = current(state)
    for (colour, grade), count in need.items():
        if player.oil[grade][colour] < count:
            return _("Orders: you lack the barrels to fulfil it completely")
    return None


# --- Effects ----------------------------------------------------------------------------------


def do_take_contract(state: State, m: M.TakeContract) -> None:
    rows = state.contract_rows if m.kind == K.CONTRACT else state.order_rows
    row = rows[m.row - (1 if m.kind == K.CONTRACT else 3)]
    tile = row[m.slot]
    row[m.slot] = -1
    needs = C.contract_tile(tile).needs
    current(state).contracts.append(HeldContract(tile=tile, deferred=m.deferred, filled=[-1] * len(needs)))
    state.turn.contract_rows.append(f"{m.kind}{m.row}")


def do_loan(state: State, m: M.TakeLoan) -> None:
    player = current(state)
    player.money += C.LOAN_AMOUNT
    player.penalties += 1
    state.turn.loan = True


def do_deliver(state: State, m: M.Deliver) -> None:
    player = current(state)
    held = player.contracts[m.contract]
    colour, grade = C.contract_tile(held.tile).needs[m.need]
    player.oil[m.grade][colour] -= 1
    player.money += contract_pay(player, grade, K.CONTRACT)
    held.filled[m.need] = m.grade
    held.barrels.append((colour, m.grade))
    if all(g >= 0 for g in held.filled):
        held.completions += 1
        held.filled = [-1] * len(held.filled)


def do_fulfil_order(state: State, m: M.FulfilOrder) -> None:
    player = current(state)
    row = state.order_rows[m.row - 3]
    tile = C.contract_tile(row[m.slot])
    row[m.slot] = -1
    barrels = []
    for (colour, grade), used in zip(tile.needs, m.grades):
        player.oil[used][colour] -= 1
        player.money += contract_pay(player, grade, K.ORDER)
        barrels.append((colour, used))
    player.orders.append(HeldOrder(tile=tile.id, barrels=barrels))


# --- Candidate moves --------------------------------------------------------------------------


def contract_moves(state: State) -> list[M.Move]:
    """The Contracts & Loans Action: Contracts (Orders too with Contracts & Orders III), a Loan."""
    cands: list[M.TakeContract] = []
    for r in C.CONTRACT_ROWS:
        for slot in range(len(state.contract_rows[r - 1])):
            for deferred in (False, True):
                cands.append(M.TakeContract(kind=K.CONTRACT, row=r, slot=slot, deferred=deferred))
    if current(state).level("CO") >= 3:
        for r in C.ORDER_ROWS:
            for slot in range(len(state.order_rows[r - 3])):
                for deferred in (False, True):
                    cands.append(M.TakeContract(kind=K.ORDER, row=r, slot=slot, deferred=deferred))
    out: list[M.Move] = [m for m in cands if check_take_contract(state, m) is None]
    loan = M.TakeLoan()
    if check_loan(state, loan) is None:
        out.append(loan)
    return out


def order_assignments(player: PlayerState, needs: Sequence[tuple[int, int]]) -> list[tuple[int, ...]]:
    """Every way to fill an Order's needs from the Tank Farm (grade used per need)."""
    results: list[tuple[int, ...]] = []
    for colour in {c for c, _grade in needs}:  # quick refusal: not enough oil of a colour at all
        wanted = sum(1 for c, _grade in needs if c == colour)
        lowest = min(g for c, g in needs if c == colour)
        if sum(player.oil[g][colour] for g in range(lowest, 4)) < wanted:
            return results
    have = [row[:] for row in player.oil]

    def walk(i: int, chosen: list[int]) -> None:
        if i == len(needs):
            results.append(tuple(chosen))
            return
        colour, grade = needs[i]
        for used in range(grade, 4):
            if have[used][colour] > 0:
                have[used][colour] -= 1
                chosen.append(used)
                walk(i + 1, chosen)
                chosen.pop()
                have[used][colour] += 1

    walk(0, [])
    return sorted(set(results))


def fulfilment_moves(state: State) -> list[M.Move]:
    """Barrels onto held Contracts and whole Orders, between Actions (what the Tank Farm holds
    decides them, so they need no further check)."""
    player = current(state)
    out: list[M.Move] = []
    cap = contract_max(player)
    for ci, held in enumerate(player.contracts):
        if held.deferred or held.completions >= cap:
            continue
        for ni, (colour, grade) in enumerate(C.contract_tile(held.tile).needs):
            if held.filled[ni] >= 0:
                continue
            for used in range(grade, 4):
                if player.oil[used][colour] > 0:
                    out.append(M.Deliver(contract=ci, need=ni, grade=used))
    for r, row in enumerate(state.order_rows):
        for slot, tile in enumerate(row):
            if tile >= 0:
                for grades in order_assignments(player, C.contract_tile(tile).needs):
                    out.append(M.FulfilOrder(row=r + 3, slot=slot, grades=grades))
    return out
