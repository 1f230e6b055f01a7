"""Moves: one small step each, as frozen tagged msgspec Structs, with a text notation.

Tags are part of the save format: never rename one. Every move formats to a short text that
:func:`parse_move` reads back (``parse_move(format_move(m)) == m``).

>>> format_move(Sell(row="2-TH", slot=0, colour=1, grade=3))
'sell 2-TH#1 TH'
>>> parse_move("place 2,-1 r3")
PlaceTile(x=2, y=-1, rot=3)
"""

from __future__ import annotations

import re
from typing import Union

import msgspec

from ..data.components import (
    ACTION_TILES,
    MARKET_ACTIONS,
    MARKET_NAMES,
    SHOPS,
    UPGRADE_CODES,
    ContractKind,
)
from ..data.oil import COLOUR_LETTERS, GRADE_LETTERS, barrel_code, parse_barrel
from ..i18n import _, ngettext, quoted
from .errors import NotationError


class Move(msgspec.Struct, frozen=True, tag=True, kw_only=True, gc=False):
    """Base of all moves. The tag (the class name) is stored in saves. Moves hold only ints,
    strings and tuples of them, so they cannot be part of a reference cycle: the garbage
    collector does not track them (``gc=False``), nor the log entries that hold them."""


# --- Setup ---
class PlaceStartingTank(Move, tag="start_tank", frozen=True):
    """Setup: place one of your 5 free Tanks in a Tank Farm row (grade 0..3)."""

    grade: int


# --- Choosing actions (Work Phase) ---
class Action(Move, tag="action", frozen=True):
    """Place your worker on a space of the action cross (a Main Action)."""

    action: str


class Secondary(Move, tag="secondary", frozen=True):
    """Move your worker to another cross space and take it as a Secondary Action."""

    action: str


class Government(Move, tag="government", frozen=True):
    """Place your worker on a Government Pipe tile and buy it."""

    quadrant: int
    space: int


class RunNetwork(Move, tag="run_network", frozen=True):
    """Place your worker on a tile of your own Pipe Network to run its Pipelines."""

    x: int
    y: int


class RunMachine(Move, tag="run_machine", frozen=True):
    """Machines I: place your worker on one of your Machines to run it at no cost."""

    x: int
    y: int


class Pass(Move, tag="pass", frozen=True):
    """Take no Action this turn."""


class EndAction(Move, tag="end_action", frozen=True):
    """Finish the Action (or the Machine run) in progress."""


class RunMachines(Move, tag="run_machines", frozen=True):
    """Pay to run all your Machines (Machine Phase, or before Actions with Machines III)."""


class EndTurn(Move, tag="end_turn", frozen=True):
    """End your turn."""


class ChooseTurnOrder(Move, tag="turn_order", frozen=True):
    """After an Action with the Turn Order icon: take this place (0 = first) next round; from
    rules version 2 a space of the next-Round row (an occupied one pushes the disks there)."""

    position: int


# --- Markets ---
class Buy(Move, tag="buy", frozen=True):
    """Buy the barrel in a market slot."""

    row: str
    slot: int


class Sell(Move, tag="sell", frozen=True):
    """Sell one of your barrels (colour, grade) into a free market slot."""

    row: str
    slot: int
    colour: int
    grade: int


# --- Contracts & Loans ---
class TakeContract(Move, tag="take_contract", frozen=True):
    """Take a Contract or, with Contracts & Orders III, an Order as one (``kind``, a
    :class:`ContractKind`)."""

    kind: str
    row: int
    slot: int
    deferred: bool = False


class TakeLoan(Move, tag="loan", frozen=True):
    """Take $15 and a Penalty marker."""


# --- Shops ---
class BuyTank(Move, tag="buy_tank", frozen=True):
    """Buy a Tank from a Tank Shop row and put it in a Tank Farm row (grade)."""

    shop_row: int
    grade: int


class BuyMachine(Move, tag="buy_machine", frozen=True):
    """Buy a Machine from a Machine Shop row (then place it)."""

    shop_row: int


class BuyPipe(Move, tag="buy_pipe", frozen=True):
    """Buy a Pipe tile from the shop of the current Action (then place it)."""

    index: int


class PlaceTile(Move, tag="place_tile", frozen=True):
    """Place the Pipe tile in hand: half A on (x, y), half B towards ``rot``."""

    x: int
    y: int
    rot: int


class PlaceMachine(Move, tag="place_machine", frozen=True):
    """Place the Machine in hand over the tile half at (x, y)."""

    x: int
    y: int


# --- Upgrades ---
class BuyUpgrade(Move, tag="buy_upgrade", frozen=True):
    family: str


class FlipToken(Move, tag="flip_token", frozen=True):
    """After buying Upgrades, flip one more token face down for free."""

    family: str


# --- Government ---
class BuyGovernmentTile(Move, tag="buy_government", frozen=True):
    """Buy a further Government tile next to the one under your worker."""

    space: int


# --- Refining ---
class Refine(Move, tag="refine", frozen=True):
    """Run one barrel through a Pipeline (named by its first segment) from one grade to another."""

    x: int
    y: int
    k: int
    from_grade: int
    to_grade: int


# --- Contracts and Orders, any time between actions ---
class Deliver(Move, tag="deliver", frozen=True):
    """Put one barrel of the given grade on requirement ``need`` of your Contract ``contract``."""

    contract: int
    need: int
    grade: int


class FulfilOrder(Move, tag="fulfil_order", frozen=True):
    """Fulfil an Order from the display at once; grades are the barrels used per requirement."""

    row: int
    slot: int
    grades: tuple[int, ...]


# --- Upgrade grants ---
class TakeGovernmentTile(Move, tag="take_government", frozen=True):
    quadrant: int
    space: int


class TakeTank(Move, tag="take_tank", frozen=True):
    shop_row: int
    grade: int


MACHINE_STACK = -1  # TakeMachine.shop_row: the stack of Machines beside the board


class TakeMachine(Move, tag="take_machine", frozen=True):
    """Upgrade gift: a Machine from a Machine Shop row, or the stack (Machines I, version 2)."""

    shop_row: int


class TakePipe(Move, tag="take_pipe", frozen=True):
    shop: str
    index: int


class Decline(Move, tag="decline", frozen=True):
    """Give up the rest of an upgrade's grant (for example a Machine you do not want)."""


AnyMove = Union[
    PlaceStartingTank,
    Action,
    Secondary,
    Government,
    RunNetwork,
    RunMachine,
    Pass,
    EndAction,
    RunMachines,
    EndTurn,
    ChooseTurnOrder,
    Buy,
    Sell,
    TakeContract,
    TakeLoan,
    BuyTank,
    BuyMachine,
    BuyPipe,
    PlaceTile,
    PlaceMachine,
    BuyUpgrade,
    FlipToken,
    BuyGovernmentTile,
    Refine,
    Deliver,
    FulfilOrder,
    TakeGovernmentTile,
    TakeTank,
    TakeMachine,
    TakePipe,
    Decline,
]


def _letter(grade: int) -> str:
    """A grade's letter; an impossible value (only a hand-built move has one) shows as itself."""
    return GRADE_LETTERS[grade] if 0 <= grade <= 3 else str(grade)


def _barrel(colour: int, grade: int) -> str:
    return barrel_code(colour, grade) if 0 <= colour <= 2 and 0 <= grade <= 3 else f"{colour}/{grade}"


def format_move(m: Move) -> str:
    """The text notation of a move (see the module doc). Numbers that count places (slots,
    rows, spaces, requirements) start at 1; cells are signed grid coordinates."""
    match m:
        case PlaceStartingTank():
            return f"start-tank {_letter(m.grade)}"
        case Action():
            return f"act {m.action}"
        case Secondary():
            return f"second {m.action}"
        case Government():
            return f"gov {m.quadrant + 1}.{m.space + 1}"
        case RunNetwork():
            return f"run {m.x},{m.y}"
        case RunMachine():
            return f"run-machine {m.x},{m.y}"
        case Pass():
            return "pass"
        case EndAction():
            return "done"
        case RunMachines():
            return "machines"
        case EndTurn():
            return "end"
        case ChooseTurnOrder():
            return f"order-place {m.position + 1}"
        case Buy():
            return f"buy {m.row}#{m.slot + 1}"
        case Sell():
            return f"sell {m.row}#{m.slot + 1} {_barrel(m.colour, m.grade)}"
        case TakeContract():
            kind = "C" if m.kind == ContractKind.CONTRACT else "O"
            row = _letter(m.row) if m.kind == ContractKind.CONTRACT else str(m.row)
            return f"contract {kind}{row}.{m.slot + 1}" + (" deferred" if m.deferred else "")
        case TakeLoan():
            return "loan"
        case BuyTank():
            return f"tank {m.shop_row + 1} {_letter(m.grade)}"
        case BuyMachine():
            return f"machine {m.shop_row + 1}"
        case BuyPipe():
            return f"pipe {m.index + 1}"
        case PlaceTile():
            return f"place {m.x},{m.y} r{m.rot}"
        case PlaceMachine():
            return f"put-machine {m.x},{m.y}"
        case BuyUpgrade():
            return f"upgrade {m.family}"
        case FlipToken():
            return f"flip {m.family}"
        case BuyGovernmentTile():
            return f"gov-more {m.space + 1}"
        case Refine():
            return f"refine {m.x},{m.y}/{m.k + 1} {_letter(m.from_grade)}>{_letter(m.to_grade)}"
        case Deliver():
            return f"deliver {m.contract + 1}.{m.need + 1} {_letter(m.grade)}"
        case FulfilOrder():
            return f"fulfil O{m.row}.{m.slot + 1} " + "".join(_letter(g) for g in m.grades)
        case TakeGovernmentTile():
            return f"take-gov {m.quadrant + 1}.{m.space + 1}"
        case TakeTank():
            return f"take-tank {m.shop_row + 1} {_letter(m.grade)}"
        case TakeMachine():
            return "take-machine stack" if m.shop_row == MACHINE_STACK else f"take-machine {m.shop_row + 1}"
        case TakePipe():
            return f"take-pipe {m.shop}{m.index + 1}"
        case Decline():
            return "decline"
        case _:
            raise TypeError(f"not a move: {m!r}")


_INT = r"(-?\d+)"
_ACTIONS = set(ACTION_TILES) | set(MARKET_ACTIONS)


def _grade(text: str) -> int:
    if len(text) != 1 or text.upper() not in GRADE_LETTERS:
        raise NotationError(_("unknown grade {text} (use C, L, M or H)").format(text=quoted(text)))
    return GRADE_LETTERS.index(text.upper())


def _action(text: str) -> str:
    if text not in _ACTIONS:
        raise NotationError(
            _("unknown action {text} (one of {actions})").format(
                text=quoted(text), actions=", ".join(sorted(_ACTIONS))
            )
        )
    return text


def _row(text: str) -> str:
    """A market row code: market letter, a dash, then a barrel (which rows a game has depends
    on its market tiles, so the rules check the rest)."""
    market, dash, barrel = text[:1], text[1:2], text[2:]
    if (
        market not in MARKET_NAMES
        or dash != "-"
        or len(barrel) != 2
        or barrel[0] not in COLOUR_LETTERS
        or barrel[1] not in GRADE_LETTERS
    ):
        raise NotationError(_("unknown market row {text} (like C-OC or 2-TH)").format(text=quoted(text)))
    return text


def _family(text: str) -> str:
    if text.upper() not in UPGRADE_CODES:
        raise NotationError(
            _("unknown upgrade {text} (one of {families})").format(
                text=quoted(text), families=", ".join(UPGRADE_CODES)
            )
        )
    return text.upper()


def _cell(text: str) -> tuple[int, int]:
    m = re.fullmatch(rf"{_INT},{_INT}", text)
    if not m:
        raise NotationError(_("expected a cell like 2,-1, not {text}").format(text=quoted(text)))
    return int(m.group(1)), int(m.group(2))


def _dotted(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"([1-9]\d*)\.([1-9]\d*)", text)
    if not m:
        raise NotationError(_("expected two numbers from 1, like 2.5, not {text}").format(text=quoted(text)))
    return int(m.group(1)), int(m.group(2))


def _index(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise NotationError(_("expected a number from 1, not {text}").format(text=quoted(text)))
    return int(text) - 1


def parse_move(text: str) -> Move:
    """Read a move from its text notation; raises :class:`NotationError` (a ``ValueError``)."""
    words = text.strip().split()
    if not words:
        raise NotationError(_("empty move"))
    verb, args = words[0].lower(), words[1:]

    def need(n: int) -> None:
        if len(args) != n:
            message = ngettext(
                "'{verb}' takes {n} argument, got {got}", "'{verb}' takes {n} arguments, got {got}", n
            )
            raise NotationError(message.format(verb=verb, n=n, got=len(args)))

    try:
        if verb in _SIMPLE:
            need(0)
            return _SIMPLE[verb]()
        if verb == "start-tank":
            need(1)
            return PlaceStartingTank(grade=_grade(args[0]))
        if verb == "act":
            need(1)
            return Action(action=_action(args[0]))
        if verb == "second":
            need(1)
            return Secondary(action=_action(args[0]))
        if verb in ("gov", "take-gov"):
            need(1)
            q, s = _dotted(args[0])
            return (Government if verb == "gov" else TakeGovernmentTile)(quadrant=q - 1, space=s - 1)
        if verb in ("run", "run-machine", "put-machine"):
            need(1)
            x, y = _cell(args[0])
            cls = {"run": RunNetwork, "run-machine": RunMachine, "put-machine": PlaceMachine}[verb]
            return cls(x=x, y=y)
        if verb == "order-place":
            need(1)
            return ChooseTurnOrder(position=_index(args[0]))
        if verb == "buy":
            need(1)
            row, _hash, slot = args[0].partition("#")
            return Buy(row=_row(row), slot=_index(slot))
        if verb == "sell":
            need(2)
            row, _hash, slot = args[0].partition("#")
            colour, grade = parse_barrel(args[1])
            return Sell(row=_row(row), slot=_index(slot), colour=colour, grade=grade)
        if verb == "contract":
            if len(args) not in (1, 2) or (len(args) == 2 and args[1] != "deferred"):
                raise NotationError(
                    _("'contract' takes a place like CL.1 or O4.2, then optionally 'deferred'")
                )
            m = re.fullmatch(r"([CO])([LMH345])\.([1-9]\d*)", args[0], re.IGNORECASE)
            if not m:
                raise NotationError(
                    _("expected a Contract like CL.1 or an Order like O4.2, not {text}").format(
                        text=quoted(args[0])
                    )
                )
            kind = ContractKind.CONTRACT if m.group(1).upper() == "C" else ContractKind.ORDER
            r = m.group(2).upper()
            if (
                kind == ContractKind.CONTRACT
                and r not in GRADE_LETTERS[1:]
                or kind == ContractKind.ORDER
                and r not in "345"
            ):
                raise NotationError(_("no such row {text}").format(text=quoted(args[0])))
            number = GRADE_LETTERS.index(r) if kind == ContractKind.CONTRACT else int(r)
            return TakeContract(kind=kind, row=number, slot=int(m.group(3)) - 1, deferred=len(args) == 2)
        if verb in ("tank", "take-tank"):
            need(2)
            tank = BuyTank if verb == "tank" else TakeTank
            return tank(shop_row=_index(args[0]), grade=_grade(args[1]))
        if verb in ("machine", "take-machine"):
            need(1)
            if verb == "take-machine" and args[0].lower() == "stack":
                return TakeMachine(shop_row=MACHINE_STACK)
            machine = BuyMachine if verb == "machine" else TakeMachine
            return machine(shop_row=_index(args[0]))
        if verb == "pipe":
            need(1)
            return BuyPipe(index=_index(args[0]))
        if verb == "take-pipe":
            need(1)
            shop = args[0][:1].upper()
            if shop not in SHOPS:
                raise NotationError(_("'take-pipe' names a shop T or M and a number, like T3"))
            return TakePipe(shop=shop, index=_index(args[0][1:]))
        if verb == "place":
            need(2)
            x, y = _cell(args[0])
            if not re.fullmatch(r"r[0-3]", args[1]):
                raise NotationError(_("expected a rotation r0..r3, not {text}").format(text=quoted(args[1])))
            return PlaceTile(x=x, y=y, rot=int(args[1][1]))
        if verb in ("upgrade", "flip"):
            need(1)
            return (BuyUpgrade if verb == "upgrade" else FlipToken)(family=_family(args[0]))
        if verb == "gov-more":
            need(1)
            return BuyGovernmentTile(space=_index(args[0]))
        if verb == "refine":
            need(2)
            where, _slash, k = args[0].partition("/")
            x, y = _cell(where)
            m = re.fullmatch(r"([CLMH])>([CLMH])", args[1], re.IGNORECASE)
            if not m or k not in ("1", "2"):
                raise NotationError(_("'refine' takes a segment like 2,0/1 and grades like C>M"))
            return Refine(x=x, y=y, k=int(k) - 1, from_grade=_grade(m.group(1)), to_grade=_grade(m.group(2)))
        if verb == "deliver":
            need(2)
            c, n = _dotted(args[0])
            if c < 1 or n < 1:
                raise NotationError(_("Contracts and requirements count from 1"))
            return Deliver(contract=c - 1, need=n - 1, grade=_grade(args[1]))
        if verb == "fulfil":
            need(2)
            m = re.fullmatch(r"O([345])\.([1-9]\d*)", args[0], re.IGNORECASE)
            if not m:
                raise NotationError(_("expected an Order like O4.1, not {text}").format(text=quoted(args[0])))
            return FulfilOrder(
                row=int(m.group(1)), slot=int(m.group(2)) - 1, grades=tuple(_grade(ch) for ch in args[1])
            )
    except NotationError:
        raise
    except ValueError as exc:
        raise NotationError(str(exc)) from None
    raise NotationError(_("unknown move {verb}").format(verb=quoted(verb)))


_SIMPLE = {
    "pass": Pass,
    "done": EndAction,
    "machines": RunMachines,
    "end": EndTurn,
    "loan": TakeLoan,
    "decline": Decline,
}
