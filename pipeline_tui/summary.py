"""One line saying what a finished turn did, for the log and the hint panel (no Rich, no colour).

The line names the seat, the Actions taken (rulebook names) and what each move bought, sold,
ran, placed, took or delivered, with the money worked out from the states before and after the
move. Repeated moves of one kind in a row are grouped: ``bought 2 Orange Crude for $14``.
"""

from __future__ import annotations

from .data import components as C
from .data.oil import COLOUR_NAMES, GRADE_NAMES
from .engine import moves as M
from .engine import Game, State, Turn

SILENT = (M.EndAction, M.EndTurn, M.ChooseTurnOrder, M.Decline)


def _barrels_gained(before: State, after: State, seat: int) -> str:
    """The barrel a move added to (or took from) a Tank Farm, as ``Orange Crude``."""
    old, new = before.players[seat].oil, after.players[seat].oil
    for grade in range(len(old)):
        for colour in range(len(old[grade])):
            if old[grade][colour] != new[grade][colour]:
                return f"{COLOUR_NAMES[colour]} {GRADE_NAMES[grade]}"
    return "barrel"


def _phrase(move: M.Move, before: State, after: State, seat: int) -> tuple[str, str] | None:
    """(what, unit) for one move: ``what`` is the phrase key; moves with the same key in a row
    are counted together. ``None`` for moves that say nothing on their own."""
    if isinstance(move, SILENT):
        return None
    if isinstance(move, M.Action):
        return (C.ACTION_NAMES.get(move.action, move.action), "")
    if isinstance(move, M.Secondary):
        return (C.ACTION_NAMES.get(move.action, move.action) + " (Secondary)", "")
    if isinstance(move, M.Government):
        return ("Government tile", "")
    if isinstance(move, M.RunNetwork):
        return ("ran the Pipe Network", "")
    if isinstance(move, M.RunMachine):
        return ("ran a Machine", "")
    if isinstance(move, M.RunMachines):
        return ("ran Machines", "")
    if isinstance(move, M.Pass):
        return ("passed", "")
    if isinstance(move, M.Buy):
        return ("bought", _barrels_gained(before, after, seat))
    if isinstance(move, M.Sell):
        return ("sold", f"{COLOUR_NAMES[move.colour]} {GRADE_NAMES[move.grade]}")
    if isinstance(move, M.TakeContract):
        return ("took", "Order" if move.kind == "order" else "Contract")
    if isinstance(move, M.TakeLoan):
        return ("took", "Loan")
    if isinstance(move, (M.BuyTank, M.TakeTank)):
        return ("bought" if isinstance(move, M.BuyTank) else "took", f"{GRADE_NAMES[move.grade]} Tank")
    if isinstance(move, (M.BuyMachine, M.TakeMachine)):
        return ("bought" if isinstance(move, M.BuyMachine) else "took", "Machine")
    if isinstance(move, (M.BuyPipe, M.TakePipe, M.BuyGovernmentTile, M.TakeGovernmentTile)):
        return ("bought" if isinstance(move, (M.BuyPipe, M.BuyGovernmentTile)) else "took", "Pipe tile")
    if isinstance(move, (M.PlaceTile, M.PlaceMachine)):
        return ("placed", "Pipe tile" if isinstance(move, M.PlaceTile) else "Machine")
    if isinstance(move, M.BuyUpgrade):
        return ("bought upgrade", move.family)
    if isinstance(move, M.FlipToken):
        return ("flipped upgrade", move.family)
    if isinstance(move, M.Refine):
        return ("refined", "barrel")
    if isinstance(move, M.Deliver):
        return ("delivered", f"{GRADE_NAMES[move.grade]} barrel")
    if isinstance(move, M.FulfilOrder):
        return ("fulfilled", "Order")
    if isinstance(move, M.PlaceStartingTank):
        return ("placed", f"starting {GRADE_NAMES[move.grade]} Tank")
    return (type(move).__name__, "")


ACTIONS = {"passed", "ran the Pipe Network", "ran a Machine", "ran Machines", "Government tile"}


def _text(what: str, unit: str, count: int, money: int) -> str:
    """One group as words: ``bought 2 Orange Crude for $14``, ``ran Machines, $15``."""
    if unit:
        plural = "s" if count > 1 and unit.split()[0] not in COLOUR_NAMES else ""
        text = f"{what} {count} {unit}{plural}"
    else:
        text = what if count == 1 else f"{what} x{count}"
    if money < 0:
        return f"{text} for ${-money}" if what.startswith("bought") else f"{text}, ${-money}"
    if money > 0:
        return (
            f"{text} for ${money}"
            if what in ("sold", "delivered", "fulfilled", "took")
            else f"{text}, +${money}"
        )
    return text


def _starts_clause(what: str, unit: str) -> bool:
    """An Action (or a run) begins a clause of its own; what it did follows after commas."""
    return not unit and (what in ACTIONS or what in C.ACTION_NAMES.values() or what.endswith("(Secondary)"))


def turn_summary(game: Game, start: int, end: int) -> str:
    """What the turn made of moves ``start`` up to ``end`` (log positions) did, in one line:
    ``Bo: Crude Market, bought 2 Orange Crude for $14; ran Machines, $15``."""
    seat = game.entries[start].seat if start < len(game.entries) else game.current_player
    state = game.state_at(start)
    name = state.players[seat].name
    groups: list[list] = []  # [what, unit, count, money]
    for position in range(start, end):
        move = game.entries[position].move
        after = game.state_at(position + 1)
        money = after.players[seat].money - state.players[seat].money
        phrase = _phrase(move, state, after, seat)
        state = after
        if phrase is None:
            if groups:
                groups[-1][3] += money
            continue
        if groups and groups[-1][:2] == list(phrase) and phrase[1]:
            groups[-1][2] += 1
            groups[-1][3] += money
        else:
            groups.append([*phrase, 1, money])
    if not groups:
        return f"{name}: nothing"
    clauses: list[list[str]] = []
    for group in groups:
        if not clauses or _starts_clause(group[0], group[1]):
            clauses.append([])
        clauses[-1].append(_text(*group))
    return f"{name}: " + "; ".join(", ".join(clause) for clause in clauses)


def finished_turn(game) -> tuple[int, int] | None:
    """(start, end): the log positions of the turn the last move finished, or ``None`` if the
    last move did not finish one (or there is none). ``game`` is a Game or a shared table's
    replica (anything with ``entries``, ``state`` and ``state_at``)."""
    entries = game.entries
    end = len(entries)
    if end == 0 or entries[-1].turn == Turn.of(game.state):
        return None
    start = end - 1
    while start > 0 and entries[start - 1].turn == entries[end - 1].turn:
        start -= 1
    return start, end


def last_turn_summary(game) -> str | None:
    """The summary of the turn the last move finished (``None`` if it finished none)."""
    turn = finished_turn(game)
    return None if turn is None else turn_summary(game, *turn)
