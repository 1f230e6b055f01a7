"""Readable descriptions of engine moves, and their grouping in the move list.

Only wording lives here: which moves exist comes from ``game.legal_moves()``.
"""

from __future__ import annotations

from ..data import components as C
from ..data.oil import barrel_code
from ..engine import moves as M
from ..engine import (
    State,
    edition,
    market_price,
    market_row_index,
    market_rows,
    network_map,
    place_on_track,
    refine_cost,
)
from ..engine import price as move_price
from ..i18n import N_, _
from ..summary import OIL_IN_DESCRIPTION, grade_of, oil_name

GROUPS = (
    N_("Setup"),
    N_("Turn"),
    N_("Actions"),
    N_("Government"),
    N_("Your Pipe Network"),
    N_("Market"),
    N_("Contracts & Loans"),
    N_("Shops"),
    N_("Upgrades"),
    N_("Refining"),
    N_("Place"),
    N_("Upgrade gifts"),
    N_("Fulfil"),
    N_("Turn Order"),
    N_("Finish"),
)
"""The move list's headings, in this order (English keys, translated where they are shown)."""

_GROUP_OF = {
    M.PlaceStartingTank: "Setup",
    M.Pass: "Turn",
    M.RunMachines: "Turn",
    M.Action: "Actions",
    M.Secondary: "Actions",
    M.Government: "Government",
    M.BuyGovernmentTile: "Government",
    M.RunNetwork: "Your Pipe Network",
    M.RunMachine: "Your Pipe Network",
    M.Buy: "Market",
    M.Sell: "Market",
    M.TakeContract: "Contracts & Loans",
    M.TakeLoan: "Contracts & Loans",
    M.BuyTank: "Shops",
    M.BuyMachine: "Shops",
    M.BuyPipe: "Shops",
    M.BuyUpgrade: "Upgrades",
    M.FlipToken: "Upgrades",
    M.Refine: "Refining",
    M.PlaceTile: "Place",
    M.PlaceMachine: "Place",
    M.TakeGovernmentTile: "Upgrade gifts",
    M.TakeTank: "Upgrade gifts",
    M.TakeMachine: "Upgrade gifts",
    M.TakePipe: "Upgrade gifts",
    M.Decline: "Upgrade gifts",
    M.Deliver: "Fulfil",
    M.FulfilOrder: "Fulfil",
    M.ChooseTurnOrder: "Turn Order",
    M.EndAction: "Finish",
    M.EndTurn: "Finish",
}


def group_of(move: M.Move) -> str:
    """The heading (an English key of ``GROUPS``) a move is listed under."""
    return _GROUP_OF.get(type(move), "Turn")


def _oil(colour: int, grade: int) -> str:
    return oil_name(colour, grade, OIL_IN_DESCRIPTION)


def _ordinal(n: int) -> str:
    forms = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd")}
    return _(forms[n]) if n in forms else _("{n}th").format(n=n)


def _action(action: str) -> str:
    return _(C.ACTION_NAMES[action])


def describe(move: M.Move, state: State) -> str:
    """One short sentence saying what a move does, with its price where the table shows one,
    in the current language (the notation listed beside it is the same in every language)."""
    player = state.players[state.turn.player]
    match move:
        case M.PlaceStartingTank():
            return _("Free Tank in the {grade} row").format(grade=grade_of(move.grade))
        case M.Action():
            return _("Main Action: {action}").format(action=_action(move.action))
        case M.Secondary():
            return _("Secondary Action: {action}{cost}").format(
                action=_action(move.action), cost=_cost(move, state)
            )
        case M.Government():
            return _("Buy Government tile {quadrant}.{space}{cost}").format(
                quadrant=move.quadrant + 1, space=move.space + 1, cost=_cost(move, state)
            )
        case M.BuyGovernmentTile():
            return _("Also buy the Government tile on space {space}{cost}").format(
                space=move.space + 1, cost=_cost(move, state)
            )
        case M.RunNetwork():
            return _("Run the Pipelines through the tile at {x},{y}").format(x=move.x, y=move.y)
        case M.RunMachine():
            return _("Run the Machine at {x},{y} (Machines I)").format(x=move.x, y=move.y)
        case M.Pass():
            return _("Take no Action this turn (the Machine Phase follows)")
        case M.EndAction():
            return _("Finish this Action")
        case M.RunMachines():
            if player.level("MACH") >= 2:
                return _("Pay ${price} to run every Pipeline attached to your Machines (Machines II)").format(
                    price=move_price(state, move)
                )
            return _(
                "Pay ${price} to run every Pipeline attached to your Machines (Machines II: ${cheaper})"
            ).format(price=move_price(state, move), cheaper=C.MACHINE_RUN_COST_MACHINES_II)
        case M.EndTurn():
            return _("End your turn")
        case M.ChooseTurnOrder():
            if state.rules_version >= 2 and 0 <= move.position < len(state.next_track):
                track = list(state.next_track)
                place_on_track(track, state.turn.player, move.position)
                names = " ".join(state.players[seat].name if seat >= 0 else "." for seat in track)
                return _("Turn Order space {space}: next Round {row}").format(
                    space=move.position + 1, row=names
                )
            return _("Take the {ordinal} place in next Round's turn order").format(
                ordinal=_ordinal(move.position + 1)
            )
        case M.Buy():
            index = market_row_index(state)[move.row]
            market_row = market_rows(state)[index]
            price = market_price(state, player, index, move.slot)
            return _("Buy {oil} for ${price}").format(
                oil=_oil(market_row.colour, market_row.grade), price=price
            )
        case M.Sell():
            index = market_row_index(state)[move.row]
            price = market_price(state, player, index, move.slot)
            return _("Sell {oil} for ${price}").format(oil=_oil(move.colour, move.grade), price=price)
        case M.TakeContract():
            if move.kind == C.ContractKind.CONTRACT:
                row = state.contract_rows[move.row - 1]
            else:
                row = state.order_rows[move.row - 3]
            tile = row[move.slot] if 0 <= move.slot < len(row) else -1
            needs = ""
            if tile >= 0:
                needs = " " + " ".join(barrel_code(c, g) for c, g in C.contract_tile(tile).needs)
            if move.kind == C.ContractKind.CONTRACT:
                text = (
                    _("Take Contract{needs} (Deferred)")
                    if move.deferred
                    else _("Take Contract{needs} (Active)")
                )
            elif move.deferred:
                text = _("Take Order as a Contract{needs} (Deferred)")
            else:
                text = _("Take Order as a Contract{needs} (Active)")
            return text.format(needs=needs)
        case M.TakeLoan():
            return _("Loan: +${amount} and a Penalty marker").format(amount=C.LOAN_AMOUNT)
        case M.BuyTank():
            price = edition(state).tank_shop_prices[move.shop_row]
            return _("Buy a Tank (${price}) for the {grade} row").format(
                price=price, grade=grade_of(move.grade)
            )
        case M.BuyMachine():
            return _("Buy a Machine for ${price}").format(
                price=edition(state).machine_shop_prices[move.shop_row]
            )
        case M.BuyPipe():
            return _("Buy shop Pipe tile {index}{cost}").format(index=move.index + 1, cost=_cost(move, state))
        case M.PlaceTile():
            side = (_("east"), _("south"), _("west"), _("north"))[move.rot]
            return _("Pipe tile on {x},{y}, other half {side}").format(x=move.x, y=move.y, side=side)
        case M.PlaceMachine():
            return _("Place the Machine on {x},{y}").format(x=move.x, y=move.y)
        case M.BuyUpgrade():
            family = C.upgrade_family(move.family).name
            if family[0] in "AEIOU":
                text = _("Buy an {family} upgrade for ${price}")
            else:
                text = _("Buy a {family} upgrade for ${price}")
            return text.format(family=_(family), price=C.UPGRADE_PRICE)
        case M.FlipToken():
            return _("Flip the {family} token for free").format(family=_(C.upgrade_family(move.family).name))
        case M.Refine():
            colour = _colour_at(state, move)
            cost = refine_cost(state, colour, move.from_grade, move.to_grade)
            return _("Refine {oil} to {grade} (needs Refinement Value {cost})").format(
                oil=_oil(colour, move.from_grade), grade=grade_of(move.to_grade), cost=cost
            )
        case M.Deliver():
            held = player.contracts[move.contract] if move.contract < len(player.contracts) else None
            if held is None:
                return _("Deliver a barrel")
            colour, _grade = C.contract_tile(held.tile).needs[move.need]
            return _("Deliver {oil} to your Contract {contract}").format(
                oil=_oil(colour, move.grade), contract=move.contract + 1
            )
        case M.FulfilOrder():
            return _("Fulfil the {n}-barrel Order in space {space}").format(n=move.row, space=move.slot + 1)
        case M.TakeGovernmentTile():
            return _("Take Government tile {quadrant}.{space}").format(
                quadrant=move.quadrant + 1, space=move.space + 1
            )
        case M.TakeTank():
            return _("Take a Tank for the {grade} row").format(grade=grade_of(move.grade))
        case M.TakeMachine():
            if move.shop_row == M.MACHINE_STACK:
                return _("Take a Machine from the stack beside the board")
            return _("Take a Machine from shop row {row}").format(row=move.shop_row + 1)
        case M.TakePipe():
            if move.shop == "T":
                return _("Take Pipe tile {index} by the Tank Shop").format(index=move.index + 1)
            return _("Take Pipe tile {index} by the Machine Shop").format(index=move.index + 1)
        case M.Decline():
            return _("Decline the rest of this upgrade gift")
        case _:
            return M.format_move(move)


def _cost(move: M.Move, state: State) -> str:
    """ " for $N" (or " for free") from the engine's price of the move, if it has one."""
    amount = move_price(state, move)
    if amount is None:
        return ""
    return _(" for free") if amount == 0 else _(" for ${amount}").format(amount=amount)


def _colour_at(state: State, move: M.Refine) -> int:
    net = network_map(state.players[state.turn.player])
    entry = net.cells.get((move.x, move.y))
    return entry[1][move.k][2] if entry else 0
