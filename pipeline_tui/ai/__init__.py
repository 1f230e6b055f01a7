"""Computer opponents. They decide only from determinized clones of the public table.

``choose_move(game, kind)`` returns the move a bot of that kind plays now; ``KINDS`` lists the
kinds. The heuristic and search bots plan whole turns and cache the plan, returning its moves
one per call while the table is as the plan expects (otherwise they plan again).
"""

from __future__ import annotations

from ..engine import moves as M
from ..engine import Game, apply_trusted
from . import heuristic, search
from .view import determinize, fingerprint, seat_rng

KINDS = ("random", "heuristic", "search")

_PLANS: dict[tuple[str, int], list[tuple[int, M.Move]]] = {}
_SAFE = (M.EndAction, M.EndTurn, M.Pass, M.Decline)


def _safe(legal: list[M.Move]) -> M.Move:
    for kind in _SAFE:
        for move in legal:
            if type(move) is kind:
                return move
    return legal[0]


def choose_move(game: Game, kind: str, *, seed: int = 0, seconds: float | None = None,
                samples: int | None = None) -> M.Move:
    """The move a bot of ``kind`` plays now. ``seed`` varies its random choices; ``seconds`` and
    ``samples`` bound the search bot's work per turn (``samples`` makes it reproducible)."""
    if kind not in KINDS:
        raise ValueError(f"unknown bot {kind!r} (one of {', '.join(KINDS)})")
    legal = game.legal_moves()
    if not legal:
        raise ValueError("the game is over: there is no move to choose")
    state = game.state
    seat = state.turn.player
    if kind == "random":
        return seat_rng(state, seat, seed).choice(legal)
    here = fingerprint(state)
    cached = _PLANS.get((kind, seat))
    if cached and cached[0][0] == here and cached[0][1] in legal:
        return cached.pop(0)[1]
    rng = seat_rng(state, seat, seed)
    view = determinize(state, seat, rng)
    if kind == "heuristic":
        moves = heuristic.plan_turn(view, seat)
    else:
        moves = search.plan_turn(view, seat, rng, seconds=seconds, samples=samples)
    plan = []
    for move in moves:
        plan.append((fingerprint(view), move))
        if type(move) is M.EndTurn:
            break
        apply_trusted(view, move)
    if not plan or plan[0][1] not in legal:
        _PLANS.pop((kind, seat), None)
        return _safe(legal)
    _PLANS[(kind, seat)] = plan[1:]
    return plan[0][1]


__all__ = ["KINDS", "choose_move", "determinize"]
