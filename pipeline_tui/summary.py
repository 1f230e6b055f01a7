"""One line saying what a finished turn did, for the log and the hint panel (no Rich, no colour).

The line names the seat, the Actions taken (rulebook names) and what each move bought, sold,
ran, placed, took or delivered, with the money worked out from the states before and after the
move. Repeated moves of one kind in a row are grouped: ``bought 2 Orange Crude for $14``.
The line speaks the current language (:mod:`pipeline_tui.i18n`): the words are chosen from
neutral codes as the line is made, and a number picks its form with ``ngettext`` (Russian:
"1 баррель", "2 барреля", "5 баррелей").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from .data import components as C
from .engine import moves as M
from .engine import LogEntry, State, Turn, apply_trusted, clone_state, legal_moves
from .i18n import N_, _, ngettext, npgettext, pgettext

SILENT = (M.EndAction, M.EndTurn, M.ChooseTurnOrder, M.Decline)

Thing = tuple[Any, ...]
"""What a move bought, sold, took...: ``("oil", colour, grade)``, ``("tank", grade)``,
``("machine",)``... (neutral codes; :func:`things` puts a number of them into words)."""

OIL_IN_SUMMARY = (
    N_("{colour} Crude"),
    N_("{colour} Low-Grade"),
    N_("{colour} Mid-Grade"),
    N_("{colour} High-Grade"),
)
OIL_IN_DESCRIPTION = (
    N_("Crude {colour}"),
    N_("Low-Grade {colour}"),
    N_("Mid-Grade {colour}"),
    N_("High-Grade {colour}"),
)
"""A barrel's oil by grade, around its colour (in Russian the genitive: "оранжевой сырой нефти",
the oil a barrel is of): the summary puts the colour first, a move's description the grade."""


def colour_of(colour: int) -> str:
    """The name of an oil colour as it qualifies a barrel (rulebook: Orange, Teal, Silver)."""
    return (pgettext("oil of", "Orange"), pgettext("oil of", "Teal"), pgettext("oil of", "Silver"))[colour]


def grade_of(grade: int) -> str:
    """A grade as it qualifies a barrel or a Tank ("Mid-Grade barrel"; in Russian the genitive,
    "баррель среднего сорта")."""
    return (
        pgettext("grade", "Crude"),
        pgettext("grade", "Low-Grade"),
        pgettext("grade", "Mid-Grade"),
        pgettext("grade", "High-Grade"),
    )[grade]


def oil_name(colour: int, grade: int, forms: tuple[str, ...] = OIL_IN_SUMMARY) -> str:
    """A barrel's oil in words: ``Orange Crude`` (or, with ``OIL_IN_DESCRIPTION``,
    ``Crude Orange``)."""
    return _(forms[grade]).format(colour=colour_of(colour))


def _barrels_gained(before: State, after: State, seat: int) -> Thing:
    """The barrel a move added to (or took from) a Tank Farm, as ``("oil", colour, grade)``."""
    old, new = before.players[seat].oil, after.players[seat].oil
    for grade in range(len(old)):
        for colour in range(len(old[grade])):
            if old[grade][colour] != new[grade][colour]:
                return ("oil", colour, grade)
    return ("barrel",)


def _phrase(move: M.Move, before: State, after: State, seat: int) -> tuple[str, Thing] | None:
    """(verb, thing) for one move, in neutral codes: moves with the same pair in a row are
    counted together; a move with no thing begins a clause. ``None`` for moves that say
    nothing on their own."""
    if isinstance(move, SILENT):
        return None
    if isinstance(move, M.Action):
        return ("action", (move.action,))
    if isinstance(move, M.Secondary):
        return ("secondary", (move.action,))
    simple = {
        M.Government: "government",
        M.RunNetwork: "network",
        M.RunMachine: "machine",
        M.RunMachines: "machines",
        M.Pass: "pass",
    }.get(type(move))
    if simple is not None:
        return (simple, ())
    if isinstance(move, M.Buy):
        return ("bought", _barrels_gained(before, after, seat))
    if isinstance(move, M.Sell):
        return ("sold", ("oil", move.colour, move.grade))
    if isinstance(move, M.TakeContract):
        return ("took", ("order",) if move.kind == "order" else ("contract",))
    if isinstance(move, M.TakeLoan):
        return ("took", ("loan",))
    if isinstance(move, (M.BuyTank, M.TakeTank)):
        return ("bought" if isinstance(move, M.BuyTank) else "took", ("tank", move.grade))
    if isinstance(move, (M.BuyMachine, M.TakeMachine)):
        return ("bought" if isinstance(move, M.BuyMachine) else "took", ("machine",))
    if isinstance(move, (M.BuyPipe, M.TakePipe, M.BuyGovernmentTile, M.TakeGovernmentTile)):
        return ("bought" if isinstance(move, (M.BuyPipe, M.BuyGovernmentTile)) else "took", ("pipe",))
    if isinstance(move, (M.PlaceTile, M.PlaceMachine)):
        return ("placed", ("pipe",) if isinstance(move, M.PlaceTile) else ("machine",))
    if isinstance(move, M.BuyUpgrade):
        return ("bought", ("upgrade", move.family, after.players[seat].level(move.family)))
    if isinstance(move, M.FlipToken):
        return ("flipped", ("token", move.family))
    if isinstance(move, M.Refine):
        return ("refined", ("barrel",))
    if isinstance(move, M.Deliver):
        return ("delivered", ("barrel of", move.grade))
    if isinstance(move, M.FulfilOrder):
        return ("fulfilled", ("order",))
    if isinstance(move, M.PlaceStartingTank):
        return ("placed", ("starting tank", move.grade))
    return (type(move).__name__, ())


VERBS = {
    "bought": N_("bought"),
    "sold": N_("sold"),
    "took": N_("took"),
    "placed": N_("placed"),
    "bought and placed": N_("bought and placed"),
    "took and placed": N_("took and placed"),
    "flipped": N_("flipped"),
    "refined": N_("refined"),
    "delivered": N_("delivered"),
    "fulfilled": N_("fulfilled"),
}
"""What a move did to its things, shown before them ("bought 2 Machines")."""
CLAUSES = {
    "government": N_("Government tile"),
    "network": N_("ran the Pipe Network"),
    "machine": N_("ran a Machine"),
    "machines": N_("ran Machines"),
    "pass": N_("passed"),
}
"""Moves that say what they did with nothing after them, each beginning a clause."""

PLAN_VERBS = {
    "bought": N_("buy"),
    "sold": N_("sell"),
    "took": N_("take"),
    "placed": N_("place"),
    "bought and placed": N_("buy and place"),
    "took and placed": N_("take and place"),
    "flipped": N_("flip"),
    "refined": N_("refine"),
    "delivered": N_("deliver"),
    "fulfilled": N_("fulfil"),
}
"""The same verbs for a turn still to play (a hint's plan): "buy 2 Machines"."""
PLAN_CLAUSES = {
    "government": N_("Government tile"),
    "network": N_("run the Pipe Network"),
    "machine": N_("run a Machine"),
    "machines": N_("run Machines"),
    "pass": N_("pass"),
}
"""The same clauses for a turn still to play."""


LEVELS = ("", "I", "II", "III")
"""An Upgrade's level as the cards print it."""


def things(thing: Thing, n: int, plan: bool = False) -> str:
    """``n`` of a thing in words, in the form the number asks for (Russian has three):
    ``2 Orange Crude``, ``1 Machine``, ``3 starting High-Grade Tanks``; ``plan``: as the object
    of a verb still to do (in Russian a Tank takes another form: "купить 1 цистерну").

    >>> things(("machine",), 2), things(("tank", 0), 1)
    ('2 Machines', '1 Crude Tank')
    """
    match thing:
        case ("oil", colour, grade):
            return ngettext("{n} {oil}", "{n} {oil}", n).format(n=n, oil=oil_name(colour, grade))
        case ("barrel",):
            return ngettext("{n} barrel", "{n} barrels", n).format(n=n)
        case ("barrel of", grade):
            return ngettext("{n} {grade} barrel", "{n} {grade} barrels", n).format(n=n, grade=grade_of(grade))
        case ("tank", grade) if plan:
            return npgettext("to do", "{n} {grade} Tank", "{n} {grade} Tanks", n).format(
                n=n, grade=grade_of(grade)
            )
        case ("tank", grade):
            return ngettext("{n} {grade} Tank", "{n} {grade} Tanks", n).format(n=n, grade=grade_of(grade))
        case ("starting tank", grade) if plan:
            return npgettext("to do", "{n} starting {grade} Tank", "{n} starting {grade} Tanks", n).format(
                n=n, grade=grade_of(grade)
            )
        case ("starting tank", grade):
            return ngettext("{n} starting {grade} Tank", "{n} starting {grade} Tanks", n).format(
                n=n, grade=grade_of(grade)
            )
        case ("order",):
            return ngettext("{n} Order", "{n} Orders", n).format(n=n)
        case ("contract",):
            return ngettext("{n} Contract", "{n} Contracts", n).format(n=n)
        case ("loan",):
            return ngettext("{n} Loan", "{n} Loans", n).format(n=n)
        case ("machine",):
            return ngettext("{n} Machine", "{n} Machines", n).format(n=n)
        case ("pipe",):
            return ngettext("{n} Pipe tile", "{n} Pipe tiles", n).format(n=n)
        case ("upgrade", family, level):  # one a family a Year: no count
            name = _(C.upgrade_family(family).name)
            return _("{family} {level}").format(family=name, level=LEVELS[level])
        case ("token", family):
            return _("the {family} token").format(family=_(C.upgrade_family(family).name))
    return str(n)


def _heading(verb: str, thing: Thing, plan: bool = False) -> str:
    """A move that begins a clause, in words: an Action's name, a run, a pass."""
    if verb in ("action", "secondary"):
        action: str = thing[0]
        name = _(C.ACTION_NAMES.get(action, action))
        return name if verb == "action" else _("{action} (Secondary)").format(action=name)
    clauses = PLAN_CLAUSES if plan else CLAUSES
    return _(clauses[verb]) if verb in clauses else verb


def _text(verb: str, thing: Thing, count: int, money: int, again: bool = False, plan: bool = False) -> str:
    """One group as words: ``bought 2 Orange Crude for $14``, ``ran Machines, $15``; ``again``
    (the group before in the clause had the same verb) leaves the verb out: ``1 Teal Crude for
    $7``; ``plan``: a turn still to play, ``buy 2 Orange Crude for $14``."""
    if thing and verb in VERBS and again:
        text = things(thing, count, plan)
    elif thing and verb in VERBS and plan:
        text = pgettext("to do", "{verb} {things}").format(
            verb=_(PLAN_VERBS[verb]), things=things(thing, count, plan)
        )
    elif thing and verb in VERBS:
        text = _("{verb} {things}").format(verb=_(VERBS[verb]), things=things(thing, count))
    else:
        text = _heading(verb, thing, plan)
    if money < 0:
        if verb.startswith("bought"):
            return _("{what} for ${money}").format(what=text, money=-money)
        return _("{what}, ${money}").format(what=text, money=-money)
    if money > 0:
        if verb in ("sold", "delivered", "fulfilled", "took"):
            return _("{what} for ${money}").format(what=text, money=money)
        return _("{what}, +${money}").format(what=text, money=money)
    return text


def _starts_clause(verb: str) -> bool:
    """An Action (or a run, or a pass) begins a clause of its own; what it did follows after
    commas."""
    return verb in CLAUSES or verb in ("action", "secondary")


PLACED_AFTER = {"bought": "bought and placed", "took": "took and placed"}
"""A Pipe tile or Machine bought or taken is placed at once (rulebook, "Tanks & Pipes",
"Machines & Pipes"): the two moves are said as one, "bought and placed 2 Pipe tiles for $15"."""


def _placed(groups: list[list[Any]], money: int) -> None:
    """Say the last group (a tile or Machine bought or taken) and the placing that follows it
    as one group, and count it with the group before if that said the same."""
    last = groups[-1]
    last[0] = PLACED_AFTER[last[0]]
    last[3] += money
    if len(groups) > 1 and groups[-2][:2] == last[:2]:
        groups[-2][2] += last[2]
        groups[-2][3] += last[3]
        groups.pop()


def _words(steps: Iterable[tuple[State, M.Move, State]], seat: int, plan: bool = False) -> str | None:
    """What the moves did (or, ``plan``, will do) for ``seat``, in words, from each move with
    the states before and after it; ``None`` if they say nothing."""
    groups: list[list[Any]] = []  # [verb, thing, count, money]
    for before, move, after in steps:
        money = after.players[seat].money - before.players[seat].money
        phrase = _phrase(move, before, after, seat)
        if phrase is None:
            if groups:
                groups[-1][3] += money
            continue
        if groups and groups[-1][:2] == list(phrase) and phrase[0] in VERBS:
            groups[-1][2] += 1
            groups[-1][3] += money
        elif groups and phrase == ("placed", groups[-1][1]) and groups[-1][0] in PLACED_AFTER:
            _placed(groups, money)  # one in hand at a time: the group before counts 1
        else:
            groups.append([*phrase, 1, money])
    if not groups:
        return None
    clauses: list[list[str]] = []
    verb_before = None
    for verb, thing, count, money in groups:
        if not clauses or _starts_clause(verb):
            clauses.append([])
            verb_before = None
        clauses[-1].append(_text(verb, thing, count, money, again=verb == verb_before, plan=plan))
        verb_before = verb
    return "; ".join(", ".join(clause) for clause in clauses)


class Replayed(Protocol):
    """What a summary reads of a game: a :class:`~pipeline_tui.engine.Game`, or a shared
    table's replica of one."""

    @property
    def entries(self) -> Sequence[LogEntry]: ...

    @property
    def state(self) -> State: ...

    @property
    def current_player(self) -> int: ...

    def state_at(self, position: int) -> State: ...


def turn_summary(game: Replayed, start: int, end: int) -> str:
    """What the turn made of moves ``start`` up to ``end`` (log positions) did, in one line:
    ``Bo: Crude Market, bought 2 Orange Crude for $14, 1 Teal Crude for $7; ran Machines, $15``
    (a verb is said once for the groups that follow each other in a clause)."""
    seat = game.entries[start].seat if start < len(game.entries) else game.current_player
    states = [game.state_at(position) for position in range(start, end + 1)]
    name = states[0].players[seat].name
    moves = [game.entries[position].move for position in range(start, end)]
    words = _words(zip(states, moves, states[1:]), seat)
    if words is None:
        return _("{name}: nothing").format(name=name)
    return _("{name}: {turn}").format(name=name, turn=words)


def plan_words(state: State, seat: int, moves: Iterable[M.Move]) -> str | None:
    """What playing ``moves`` from ``state`` would do, in words, as a turn still to play:
    ``Crude Market, buy 2 Orange Crude for $14; run Machines, $15`` (a hint's plan). The moves
    are played on a copy while each is legal and ``seat`` is to move; ``None`` if none is, or
    they say nothing. ``state`` is as the seat may see it (a hint passes a determinized view)."""
    steps = []
    before = state
    for move in moves:
        if before.over or before.turn.player != seat or move not in legal_moves(before):
            break
        after = clone_state(before)
        apply_trusted(after, move)
        steps.append((before, move, after))
        before = after
    return _words(steps, seat, plan=True)


def finished_turn(game: Replayed) -> tuple[int, int] | None:
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


def last_turn_summary(game: Replayed) -> str | None:
    """The summary of the turn the last move finished (``None`` if it finished none)."""
    turn = finished_turn(game)
    return None if turn is None else turn_summary(game, *turn)
