"""Computer opponents. They decide only from determinized clones of the public table.

A bot is an object, one per seat (:func:`make_bot`): it holds its own turn plan, its seed (the
random source of every decision, derived from that seed and the public position, so a decision
is reproducible and peeks at nothing) and its time budget. ``bot.choose(game)`` returns the move
it plays now. The heuristic, search and expert bots plan whole turns and keep the plan, returning its
moves one per call while the table is as the plan expects (otherwise they plan again). A bot is
safe to call from any thread; share one between seats or tables and it only replans more.
``choose_move(game, kind)`` asks a fresh bot once (no plan kept). ``KINDS`` lists the kinds;
players meet them as difficulty levels (``LEVELS``: easy, normal, hard, expert), see :func:`bot_kind`.
``bot.advise(game)`` is a hint: the move the bot would play for the seat to act, with a line
saying why; ``STRONGEST`` names the kind a hint asks.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from ..engine import moves as M
from ..engine import Game, SeatKind, Stage, State, apply_trusted, legal_moves
from ..i18n import N_, _, quoted
from ..summary import plan_words
from . import evaluate as evaluation, expert, heuristic, search
from .view import determinize, fingerprint, seat_rng

KINDS = tuple(kind.value for kind in SeatKind if kind is not SeatKind.HUMAN)  # the bot kinds
# The kinds players are offered (the new-game form, hints): every kind, since the expert was
# measured above search (102 of 150 games, Wilson 95% 60.2-74.9%, docs/bots.md).
OFFERED = KINDS
STRONGEST = SeatKind.EXPERT.value  # the kind a hint asks: the strongest bot measured
# What players call KINDS, in the same order; marked for translation, shown through _().
LEVELS = (N_("easy"), N_("normal"), N_("hard"), N_("expert"))
LEVEL_LINES = (  # marked for translation; shown translated where the levels are listed
    N_("plays any legal move at random"),
    N_("plays the turn that looks best for it now"),
    N_("tries its best turns against the others' replies (1 s a turn)"),
    N_("plans Machines, Contracts and Orders; thinks 1 s per opponent"),
)

_SAFE = (M.EndAction, M.EndTurn, M.Pass, M.Decline)
HINT_MOVES_SHOWN = 4  # planned moves a hint's reason names before "..."
TURN_STEPS = 200  # a bound on the moves of one turn when playing it out for a hint


def _safe(legal: list[M.Move]) -> M.Move:
    for kind in _SAFE:
        for move in legal:
            if type(move) is kind:
                return move
    return legal[0]


class Bot:
    """One seat's computer player of ``kind``. ``seed`` varies its random choices; ``seconds``
    and ``samples`` bound the search and expert bots' work per turn (``samples`` makes it reproducible)."""

    def __init__(
        self, kind: str, *, seed: int = 0, seconds: float | None = None, samples: int | None = None
    ) -> None:
        if kind not in KINDS:
            raise ValueError(
                _("unknown bot {name} (one of {kinds})").format(name=quoted(kind), kinds=", ".join(KINDS))
            )
        self.kind = kind
        self.seed = seed
        self.seconds = seconds
        self.samples = samples
        self.plan: list[tuple[int, M.Move]] = []  # (public fingerprint before, move), in order
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Bot({self.kind!r}, seed={self.seed})"

    def choose(self, game: Game) -> M.Move:
        """The move this bot plays now for the seat to act in ``game`` (which it does not change)."""
        legal = game.legal_moves()
        if not legal:
            raise ValueError(_("the game is over: there is no move to choose"))
        with self._lock:
            return self._choose(game, legal)

    def advise(self, game: Game) -> Advice:
        """What this bot would play now for the seat to act, and why (a hint). The game is not
        changed, and the bot's own plan is kept as it was: asking for a hint never changes
        what the bot plays for its seat later."""
        legal = game.legal_moves()
        if not legal:
            raise ValueError(_("the game is over: there is no move to advise"))
        with self._lock:
            kept = list(self.plan)  # _choose pops from the plan it follows
            try:
                move = self._choose(game, legal)
                plan = [move] + [m for _, m in self.plan]
            finally:
                self.plan = kept
        seat = game.state.turn.player
        return Advice(move=move, reason=_reason(game, seat, plan, self.seed), plan=plan)

    def _choose(self, game: Game, legal: list[M.Move]) -> M.Move:
        state = game.state
        seat = state.turn.player
        if self.kind == SeatKind.RANDOM:
            return seat_rng(state, seat, self.seed).choice(legal)
        here = fingerprint(state)
        if self.plan and self.plan[0][0] == here and self.plan[0][1] in legal:
            return self.plan.pop(0)[1]
        rng = seat_rng(state, seat, self.seed)
        view = determinize(state, seat, rng)
        if self.kind == SeatKind.HEURISTIC:
            moves = heuristic.plan_turn(view, seat)
        elif self.kind == SeatKind.EXPERT:
            moves = expert.plan_turn(view, seat, rng, seconds=self.seconds, samples=self.samples)
        else:
            moves = search.plan_turn(view, seat, rng, seconds=self.seconds, samples=self.samples)
        plan = []
        for move in moves:
            plan.append((fingerprint(view), move))
            if type(move) is M.EndTurn:
                break
            apply_trusted(view, move)
        if not plan or plan[0][1] not in legal:
            self.plan = []
            return _safe(legal)
        self.plan = plan[1:]
        return plan[0][1]


@dataclass(frozen=True)
class Advice:
    """A hint: the move the bot would play now, why in one line, and the rest of its turn as
    it plans it (starting with ``move``)."""

    move: M.Move
    reason: str
    plan: list[M.Move] = field(default_factory=list)


def _turn_ended(state: State, seat: int) -> bool:
    return state.over or state.turn.player != seat or state.turn.stage == Stage.SETUP


def _play_out(state: State, seat: int, moves: list[M.Move]) -> State:
    """``state`` after ``moves`` (while each is legal) and then the quickest end of the turn:
    passing, finishing the Action, ending the turn (see :func:`_safe`)."""
    for move in moves:
        if _turn_ended(state, seat) or move not in legal_moves(state):
            break
        apply_trusted(state, move)
    for _step in range(TURN_STEPS):
        if _turn_ended(state, seat):
            break
        apply_trusted(state, _safe(legal_moves(state)))
    return state


def _reason(game: Game, seat: int, plan: list[M.Move], seed: int) -> str:
    """One line: what the position after the planned turn is worth (``evaluate``, in dollars)
    against passing, or ending the turn at once, on a determinized view of the table, then the
    turn in words (:func:`~pipeline_tui.summary.plan_words`: "Crude Market, buy 2 Orange Crude
    for $14"; in notation, the first moves, if it has no words). The worth comes first: the
    hint panel cuts a long turn at its height."""
    state = game.state
    view = determinize(state, seat, seat_rng(state, seat, seed))
    shown = plan_words(view, seat, plan)  # on a copy: the view is played out below
    if shown is None:
        shown = ", ".join(M.format_move(m) for m in plan[:HINT_MOVES_SHOWN])
        if len(plan) > HINT_MOVES_SHOWN:
            shown += ", ..."
    if state.turn.stage == Stage.SETUP:
        return _("The rulebook's starting Tanks (2 Crude, then Low, Mid and High): {moves}").format(
            moves=shown
        )
    planned = evaluation.evaluate(_play_out(view, seat, plan), seat)
    can_pass = any(type(m) is M.Pass for m in game.legal_moves())
    quick = evaluation.evaluate(
        _play_out(determinize(state, seat, seat_rng(state, seat, seed)), seat, []), seat
    )
    gain = round(planned - quick)
    if gain <= 0:
        if can_pass:
            return _("No better than passing: {moves}").format(moves=shown)
        return _("No better than ending the turn now: {moves}").format(moves=shown)
    if can_pass:
        return _("Worth about ${gain} more than passing: {moves}").format(moves=shown, gain=gain)
    return _("Worth about ${gain} more than ending the turn now: {moves}").format(moves=shown, gain=gain)


def level_of(kind: str) -> str:
    """The difficulty level players know a bot kind by (the kind itself if it has none)."""
    return LEVELS[KINDS.index(kind)] if kind in KINDS else kind


def bot_kind(name: str) -> str:
    """The bot kind named by a level (``easy``) or a kind (``random``); ``ValueError`` if none."""
    name = name.strip().lower()
    if name in LEVELS:
        return KINDS[LEVELS.index(name)]
    if name in KINDS:
        return name
    names = ", ".join(f"{level} ({kind})" for level, kind in zip(LEVELS, KINDS))
    raise ValueError(_("unknown bot {name} (one of {kinds})").format(name=quoted(name), kinds=names))


def make_bot(kind: str, *, seed: int = 0, seconds: float | None = None, samples: int | None = None) -> Bot:
    """A new bot of ``kind`` for one seat (``ValueError`` names the kinds if unknown)."""
    return Bot(kind, seed=seed, seconds=seconds, samples=samples)


def choose_move(
    game: Game, kind: str, *, seed: int = 0, seconds: float | None = None, samples: int | None = None
) -> M.Move:
    """The move a fresh bot of ``kind`` plays now (it plans from scratch: keep a :class:`Bot`
    per seat to reuse its turn plan)."""
    return make_bot(kind, seed=seed, seconds=seconds, samples=samples).choose(game)


__all__ = [
    "KINDS",
    "LEVELS",
    "OFFERED",
    "LEVEL_LINES",
    "STRONGEST",
    "Advice",
    "Bot",
    "bot_kind",
    "choose_move",
    "determinize",
    "level_of",
    "make_bot",
]
