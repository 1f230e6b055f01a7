"""Upgrades (rulebook "Upgrades", the upgrade cards): buying Upgrades, the free flip, and what
the Government, Shops and Machines upgrades give at once or each Year."""

from __future__ import annotations

from types import SimpleNamespace

from ...data import components as C
from .. import moves as M
from ...i18n import N_, _
from ..state import Grant, GrantKind, State
from .base import A, current, in_action
from .machines import free_cells_for_machine
from .refining import quadrant_takeable, take_government_tile
from .shops import tank_row_check

G = SimpleNamespace(**GrantKind.__members__)  # see base.A
UPGRADE_GRANTS: dict[tuple[str, int], tuple[tuple[GrantKind, int], ...]] = {
    ("GOV", 1): ((G.GOV, 2),),
    ("GOV", 2): ((G.GOV, 4),),
    ("GOV", 3): ((G.GOV, 6),),
    ("SHOP", 1): ((G.TANK, 2), (G.PIPE, 1)),
    # Pipe tiles before the Machine, so a player with no free tile half can still place it.
    ("SHOP", 2): ((G.PIPE, 2), (G.MACHINE, 1)),
    ("SHOP", 3): ((G.PIPE, 4), (G.MACHINE, 1)),
    ("MACH", 1): ((G.MACHINE, 1),),
}


def grant_possible(state: State, grant: Grant) -> bool:
    """Whether what a grant gives is there to be taken now."""
    player = current(state)
    match grant.kind:
        case G.GOV:
            return any(
                tile >= 0 and quadrant_takeable(state, q, grant=True)
                for q in range(4)
                for tile in state.government[q]
            )
        case G.TANK:
            return any(state.tank_shop) and any(n < C.MAX_TANKS_PER_ROW for n in player.tanks)
        case G.PIPE:
            return any(tile >= 0 for shop in state.shop_pipes for tile in shop)
        case G.MACHINE:
            return bool(any(state.machine_shop) or (grant.stack and state.machine_reserve)) and bool(
                free_cells_for_machine(player)
            )
    return False


def settle_grants(state: State) -> None:
    """Drop gifts that cannot be given: "you do not receive the tile, even if it becomes
    available later" (Shops upgrade)."""
    t = state.turn
    while t.grants and t.hand_tile < 0 and not t.hand_machine and not grant_possible(state, t.grants[0]):
        t.grants.pop(0)


def _use_grant(state: State) -> None:
    head = state.turn.grants[0]
    head.count -= 1
    if head.count <= 0:
        state.turn.grants.pop(0)


# --- Checks -----------------------------------------------------------------------------------


def check_buy_upgrade(state: State, m: M.BuyUpgrade) -> str | None:
    why = in_action(state, (A.UPGRADES,), N_("Upgrades: buy them with the Upgrades Action"))
    if why:
        return why
    t = state.turn
    if m.family not in state.upgrade_families:
        return _("Upgrades: {family} is not in this game").format(family=m.family)
    if t.flipped:
        return _("Upgrades: the free flip ends your purchases")
    if len(t.upgrades_bought) >= C.UPGRADES_PER_ACTION:
        return _("Upgrades: at most {n} per Action").format(n=C.UPGRADES_PER_ACTION)
    if m.family in t.upgrades_bought:
        return _("Upgrades: not two of the same type in one Action")
    row = state.upgrade_families.index(m.family)
    if not state.upgrade_tokens[row]:
        return _("Upgrades: that token is flipped until next Year")
    level = current(state).level(m.family)
    if level >= 3:
        return _("Upgrades: you own all three levels")
    if state.upgrade_cards[row][level] < 1:
        return _("Upgrades: no Level {level} card of that type is left").format(level=level + 1)
    if current(state).money < C.UPGRADE_PRICE:
        return _("Upgrades: each costs ${cost}").format(cost=C.UPGRADE_PRICE)
    return None


def check_flip(state: State, m: M.FlipToken) -> str | None:
    why = in_action(state, (A.UPGRADES,), N_("Upgrades: the free flip comes with the Upgrades Action"))
    if why:
        return why
    t = state.turn
    if t.flipped:
        return _("Upgrades: only one free flip")
    if m.family not in state.upgrade_families:
        return _("Upgrades: {family} is not in this game").format(family=m.family)
    if not state.upgrade_tokens[state.upgrade_families.index(m.family)]:
        return _("Upgrades: that token is already face down")
    return None


def _grant_head(state: State, kind: GrantKind) -> str | None:
    t = state.turn
    if t.hand_tile >= 0 or t.hand_machine:
        return _("Pipe Network: place what you hold first")
    if not t.grants or t.grants[0].kind != kind:
        return _("Upgrades: nothing of that kind is due to you now")
    return None


def check_take_government(state: State, m: M.TakeGovernmentTile) -> str | None:
    why = _grant_head(state, G.GOV)
    if why:
        return why
    if not (0 <= m.quadrant < 4 and 0 <= m.space < 8) or state.government[m.quadrant][m.space] < 0:
        return _("Government: that space is empty")
    if not quadrant_takeable(state, m.quadrant, grant=True):
        return _("Government: that quadrant is closed (a grant opens one only if none opened this Year)")
    return None


def check_take_tank(state: State, m: M.TakeTank) -> str | None:
    return _grant_head(state, G.TANK) or tank_row_check(state, m.shop_row, m.grade)


def check_take_machine(state: State, m: M.TakeMachine) -> str | None:
    why = _grant_head(state, G.MACHINE)
    if why:
        return why
    if m.shop_row == M.MACHINE_STACK:
        if not state.turn.grants[0].stack:
            return _("Shops: their Machine comes from the Machine Shop (Machines I: also the stack)")
        if any(state.machine_shop):
            return _("Machines I: the Machine comes from the Machine Shop while it has one")
        if state.machine_reserve < 1:
            return _("Machines I: no Machine is left in the stack beside the board")
    elif not 0 <= m.shop_row < len(state.machine_shop) or state.machine_shop[m.shop_row] < 1:
        return _("Machine Shop: that row is empty")
    if any(state.machine_shop[: m.shop_row]):
        return _("Machine Shop: Machines come from the cheapest row that has one")
    if not free_cells_for_machine(current(state)):
        return _("Machines: a Machine must cover a Pipe tile half without one")
    return None


def check_take_pipe(state: State, m: M.TakePipe) -> str | None:
    why = _grant_head(state, G.PIPE)
    if why:
        return why
    if m.shop not in C.SHOPS:
        return _("Shops: T (Tank Shop) or M (Machine Shop)")
    shop = state.shop_pipes[C.SHOPS.index(m.shop)]
    if not 0 <= m.index < len(shop) or shop[m.index] < 0:
        return _("Pipe tiles: that space is empty")
    return None


def check_decline(state: State, m: M.Decline) -> str | None:
    t = state.turn
    if t.hand_tile >= 0 or t.hand_machine:
        return _("Pipe Network: place what you hold first")
    if not t.grants:
        return _("Upgrades: nothing is due to you to decline")
    return None


# --- Effects ----------------------------------------------------------------------------------


def do_buy_upgrade(state: State, m: M.BuyUpgrade) -> None:
    player = current(state)
    row = state.upgrade_families.index(m.family)
    level = player.level(m.family)
    state.upgrade_cards[row][level] -= 1
    state.upgrade_tokens[row] = False
    player.money -= C.UPGRADE_PRICE
    player.upgrades[C.UPGRADE_CODES.index(m.family)] = level + 1
    state.turn.upgrades_bought.append(m.family)
    for kind, count in UPGRADE_GRANTS.get((m.family, level + 1), ()):
        # Rules version 2: the Machines I card has no "if available" clause (rules-readings.md).
        stack = state.rules_version >= 2 and m.family == "MACH"
        state.turn.grants.append(Grant(kind, count, f"{m.family} {'I' * (level + 1)}", stack))


def do_flip(state: State, m: M.FlipToken) -> None:
    state.upgrade_tokens[state.upgrade_families.index(m.family)] = False
    state.turn.flipped = True


def do_take_government(state: State, m: M.TakeGovernmentTile) -> None:
    _use_grant(state)
    take_government_tile(state, m.quadrant, m.space)


def do_take_tank(state: State, m: M.TakeTank) -> None:
    _use_grant(state)
    state.tank_shop[m.shop_row] -= 1
    current(state).tanks[m.grade] += 1


def do_take_machine(state: State, m: M.TakeMachine) -> None:
    _use_grant(state)
    if m.shop_row == M.MACHINE_STACK:
        state.machine_reserve -= 1
    else:
        state.machine_shop[m.shop_row] -= 1
    state.turn.hand_machine = True


def do_take_pipe(state: State, m: M.TakePipe) -> None:
    _use_grant(state)
    shop = state.shop_pipes[C.SHOPS.index(m.shop)]
    state.turn.hand_tile = shop[m.index]
    shop[m.index] = -1


def do_decline(state: State, m: M.Decline) -> None:
    state.turn.grants.pop(0)


# --- Candidate moves --------------------------------------------------------------------------


def upgrade_moves(state: State) -> list[M.Move]:
    """The Upgrades Action: an Upgrade or the free flip, family by family."""
    out: list[M.Move] = []
    for family in state.upgrade_families:
        buy = M.BuyUpgrade(family=family)
        if check_buy_upgrade(state, buy) is None:
            out.append(buy)
        flip = M.FlipToken(family=family)
        if check_flip(state, flip) is None:
            out.append(flip)
    return out


def grant_moves(state: State) -> list[M.Move]:
    """Taking what the first grant due gives, or declining the rest of it."""
    out: list[M.Move]
    match state.turn.grants[0].kind:
        case G.GOV:
            out = [
                m
                for m in (M.TakeGovernmentTile(quadrant=q, space=s) for q in range(4) for s in range(8))
                if check_take_government(state, m) is None
            ]
        case G.TANK:
            out = [
                m
                for m in (
                    M.TakeTank(shop_row=r, grade=g) for r in range(len(state.tank_shop)) for g in range(4)
                )
                if check_take_tank(state, m) is None
            ]
        case G.MACHINE:
            out = [
                m
                for m in (
                    M.TakeMachine(shop_row=r) for r in (*range(len(state.machine_shop)), M.MACHINE_STACK)
                )
                if check_take_machine(state, m) is None
            ]
        case _:
            out = [
                m
                for m in (
                    M.TakePipe(shop=s, index=i)
                    for si, s in enumerate(C.SHOPS)
                    for i in range(len(state.shop_pipes[si]))
                )
                if check_take_pipe(state, m) is None
            ]
    return out + [M.Decline()]
