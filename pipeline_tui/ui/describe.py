"""Readable descriptions of engine moves, and their grouping in the move list.

Only wording lives here: which moves exist comes from ``game.legal_moves()``.
"""

from __future__ import annotations

from ..data import components as C
from ..data.oil import COLOUR_NAMES, GRADE_NAMES, barrel_code
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

GROUPS = (
    "Setup",
    "Turn",
    "Actions",
    "Government",
    "Your Pipe Network",
    "Market",
    "Contracts & Loans",
    "Shops",
    "Upgrades",
    "Refining",
    "Place",
    "Upgrade gifts",
    "Fulfil",
    "Turn Order",
    "Finish",
)

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
    return _GROUP_OF.get(type(move), "Turn")


def _oil(colour: int, grade: int) -> str:
    return f"{GRADE_NAMES[grade]} {COLOUR_NAMES[colour]}"


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def describe(move: M.Move, state: State) -> str:
    """One short sentence saying what a move does, with its price where the table shows one."""
    player = state.players[state.turn.player]
    match move:
        case M.PlaceStartingTank():
            return f"Free Tank in the {GRADE_NAMES[move.grade]} row"
        case M.Action():
            return f"Main Action: {C.ACTION_NAMES[move.action]}"
        case M.Secondary():
            return f"Secondary Action: {C.ACTION_NAMES[move.action]}{_cost(move, state)}"
        case M.Government():
            return f"Buy Government tile {move.quadrant + 1}.{move.space + 1}{_cost(move, state)}"
        case M.BuyGovernmentTile():
            return f"Also buy the Government tile on space {move.space + 1}{_cost(move, state)}"
        case M.RunNetwork():
            return f"Run the Pipelines through the tile at {move.x},{move.y}"
        case M.RunMachine():
            return f"Run the Machine at {move.x},{move.y} (Machines I)"
        case M.Pass():
            return "Take no Action this turn (the Machine Phase follows)"
        case M.EndAction():
            return "Finish this Action"
        case M.RunMachines():
            return f"Pay ${move_price(state, move)} to run all your Machines"
        case M.EndTurn():
            return "End your turn"
        case M.ChooseTurnOrder():
            if state.rules_version >= 2 and 0 <= move.position < len(state.next_track):
                track = list(state.next_track)
                place_on_track(track, state.turn.player, move.position)
                row = " ".join(state.players[seat].name if seat >= 0 else "." for seat in track)
                return f"Turn Order space {move.position + 1}: next Round {row}"
            return f"Take the {_ordinal(move.position + 1)} place in next Round's turn order"
        case M.Buy():
            index = market_row_index(state)[move.row]
            row = market_rows(state)[index]
            price = market_price(state, player, index, move.slot)
            return f"Buy {_oil(row.colour, row.grade)} for ${price}"
        case M.Sell():
            index = market_row_index(state)[move.row]
            price = market_price(state, player, index, move.slot)
            return f"Sell {_oil(move.colour, move.grade)} for ${price}"
        case M.TakeContract():
            if move.kind == C.ContractKind.CONTRACT:
                row = state.contract_rows[move.row - 1]
                what = "Contract"
            else:
                row = state.order_rows[move.row - 3]
                what = "Order as a Contract"
            tile = row[move.slot] if 0 <= move.slot < len(row) else -1
            needs = ""
            if tile >= 0:
                needs = " " + " ".join(barrel_code(c, g) for c, g in C.contract_tile(tile).needs)
            return f"Take {what}{needs}" + (" (Deferred)" if move.deferred else " (Active)")
        case M.TakeLoan():
            return f"Loan: +${C.LOAN_AMOUNT} and a Penalty marker"
        case M.BuyTank():
            price = edition(state).tank_shop_prices[move.shop_row]
            return f"Buy a Tank (${price}) for the {GRADE_NAMES[move.grade]} row"
        case M.BuyMachine():
            return f"Buy a Machine for ${edition(state).machine_shop_prices[move.shop_row]}"
        case M.BuyPipe():
            return f"Buy shop Pipe tile {move.index + 1}{_cost(move, state)}"
        case M.PlaceTile():
            side = ("east", "south", "west", "north")[move.rot]
            return f"Pipe tile on {move.x},{move.y}, other half {side}"
        case M.PlaceMachine():
            return f"Place the Machine on {move.x},{move.y}"
        case M.BuyUpgrade():
            family = _family_name(move.family)
            article = "an" if family[0] in "AEIOU" else "a"
            return f"Buy {article} {family} upgrade for ${C.UPGRADE_PRICE}"
        case M.FlipToken():
            return f"Flip the {_family_name(move.family)} token for free"
        case M.Refine():
            colour = _colour_at(state, move)
            cost = refine_cost(state, colour, move.from_grade, move.to_grade)
            oil = _oil(colour, move.from_grade)
            return f"Refine {oil} to {GRADE_NAMES[move.to_grade]} (needs Refinement Value {cost})"
        case M.Deliver():
            held = player.contracts[move.contract] if move.contract < len(player.contracts) else None
            if held is None:
                return "Deliver a barrel"
            colour, _ = C.contract_tile(held.tile).needs[move.need]
            return f"Deliver {_oil(colour, move.grade)} to your Contract {move.contract + 1}"
        case M.FulfilOrder():
            return f"Fulfil the {move.row}-barrel Order in space {move.slot + 1}"
        case M.TakeGovernmentTile():
            return f"Take Government tile {move.quadrant + 1}.{move.space + 1}"
        case M.TakeTank():
            return f"Take a Tank for the {GRADE_NAMES[move.grade]} row"
        case M.TakeMachine():
            if move.shop_row == M.MACHINE_STACK:
                return "Take a Machine from the stack beside the board"
            return f"Take a Machine from shop row {move.shop_row + 1}"
        case M.TakePipe():
            shop = "Tank" if move.shop == "T" else "Machine"
            return f"Take Pipe tile {move.index + 1} by the {shop} Shop"
        case M.Decline():
            return "Decline the rest of this upgrade gift"
        case _:
            return M.format_move(move)


def _cost(move: M.Move, state: State) -> str:
    """ " for $N" (or " for free") from the engine's price of the move, if it has one."""
    amount = move_price(state, move)
    if amount is None:
        return ""
    return " for free" if amount == 0 else f" for ${amount}"


def _family_name(code: str) -> str:
    return next(f.name for f in C.UPGRADE_FAMILIES if f.code == code)


def _colour_at(state: State, move: M.Refine) -> int:
    net = network_map(state.players[state.turn.player])
    entry = net.cells.get((move.x, move.y))
    return entry[1][move.k][2] if entry else 0
