"""The search bot: Monte Carlo search over the heuristic's best turn plans.

Once per turn it takes the heuristic's top plans and samples them with UCB1. One sample plays the
plan on a fresh determinized clone (the hidden Pipe and Contract stacks drawn anew), then lets
every rival and then the seat itself play their next turns with a quick heuristic, and scores the position by the seat's
worth less the best rival's. This sees what the one-turn heuristic cannot: what rivals take
next (market slots, Contracts, Government tiles) and what the turn sets up. The plan with the
best mean score is played. A budget of samples keeps it reproducible; a time budget bounds it.
"""

from __future__ import annotations

import math
import random
import time

from ..engine import moves as M
from ..engine import Stage, State, apply_trusted
from .evaluate import relative
from .heuristic import plan_turn as heuristic_turn, setup_move, turn_plans
from .view import determinize

TOP_PLANS = 4
DEFAULT_SECONDS = 1.0  # per turn: a turn is several decisions, so decisions average far less
MAX_SAMPLES = 12
ROLLOUT_TURN_LIMIT = 12
OWN_TURNS = 1  # the seat's own next turns played in a rollout, after its rivals'


def play_sample(
    state: State, seat: int, moves: list[M.Move], rng: random.Random, own_turns: int = OWN_TURNS
) -> State:
    """One sample of a plan: on a determinization of ``state`` for ``seat`` (the hidden stacks
    drawn from ``rng``), the plan's ``moves``, then the turns that follow as the narrow heuristic
    plays them, up to and including the seat's own ``own_turns``-th, at most
    :data:`ROLLOUT_TURN_LIMIT` turns, or to the game's end. The position reached is returned."""
    sim = determinize(state, seat, rng)
    for move in moves:
        apply_trusted(sim, move)
    own = 0
    for _ in range(ROLLOUT_TURN_LIMIT):
        if sim.over:
            break
        player = sim.turn.player
        if player == seat and sim.turn.stage == Stage.WORK and sim.turn.mains == 0:
            if own >= own_turns:
                break
            own += 1
        for move in heuristic_turn(sim, player, wide=False):
            apply_trusted(sim, move)
    return sim


def _rollout(state: State, seat: int, moves: list[M.Move], rng: random.Random) -> float:
    return relative(play_sample(state, seat, moves, rng), seat)


def plan_turn(
    state: State, seat: int, rng: random.Random, seconds: float | None = None, samples: int | None = None
) -> list[M.Move]:
    """The chosen plan's moves, ending the turn. ``samples`` fixes the work done (reproducible);
    otherwise the search stops after ``seconds`` (default :data:`DEFAULT_SECONDS`), in its first
    pass over the plans too: those not sampled by then drop out (the heuristic's best come
    first). Sampling every plan once took 0.7 to 6.0 s of CPU a turn at 4 players (seed 86000)."""
    if state.turn.stage == Stage.SETUP:
        return [setup_move(state)]
    plans = turn_plans(state, seat)
    arms = [p.moves + [M.EndTurn()] for p in plans[:TOP_PLANS]]
    if len(arms) == 1:
        return arms[0]
    limit = samples if samples is not None else MAX_SAMPLES
    deadline = None if samples is not None else time.perf_counter() + (seconds or DEFAULT_SECONDS)
    totals = [0.0] * len(arms)
    counts = [0] * len(arms)
    low, high = math.inf, -math.inf
    for n in range(limit):
        if deadline is not None and n and time.perf_counter() > deadline:
            break
        if n < len(arms):
            arm = n
        else:
            scale = max(1.0, high - low)
            arm = max(
                range(len(arms)),
                key=lambda a: totals[a] / counts[a] + scale * math.sqrt(2 * math.log(n) / counts[a]),
            )
        reward = _rollout(state, seat, arms[arm], rng)
        low, high = min(low, reward), max(high, reward)
        totals[arm] += reward
        counts[arm] += 1
    best = max((a for a in range(len(arms)) if counts[a]), key=lambda a: totals[a] / counts[a])
    return arms[best]
