"""Move-choosing policies for tests that need games deeper than uniform random play reaches.

Uniform choice over legal moves mostly ends turns and runs out of money, so it never refines,
delivers or upgrades. ``purposeful_choice`` first picks a move *type* by weight (favouring
deliveries, refining, selling and buying), then a move of that type uniformly, so seeded games
exercise every rule while staying random.
"""

from __future__ import annotations

import random
from collections import defaultdict

from pipeline_tui.engine import moves as M
from pipeline_tui.engine.network import build_map
from pipeline_tui.engine.state import State

TYPE_WEIGHTS: dict[type, float] = {
    M.Deliver: 60,
    M.FulfilOrder: 60,
    M.Refine: 40,
    M.Sell: 25,
    M.Buy: 12,
    M.BuyUpgrade: 12,
    M.RunMachines: 8,
    M.BuyPipe: 10,
    M.BuyMachine: 5,
    M.BuyTank: 4,
    M.TakeContract: 4,
    M.Action: 4,
    M.RunNetwork: 5,
    M.RunMachine: 5,
    M.Government: 6,
    M.BuyGovernmentTile: 10,
    M.Secondary: 2,
    M.ChooseTurnOrder: 2,
    M.FlipToken: 1,
    M.EndAction: 2,
    M.EndTurn: 2,
    M.Pass: 0.3,
    M.TakeLoan: 0.3,
    M.Decline: 0.2,
}


def _best_placement(state: State, moves: list[M.Move], rng: random.Random) -> M.Move:
    """The placement that makes the player's Pipelines longest (sum of squared segments)."""
    player = state.players[state.turn.player]
    tile = state.turn.hand_tile
    best, best_score = moves[0], -1
    for move in moves:
        net = build_map(player.tiles + [(tile, move.x, move.y, move.rot)], player.machines)
        score = sum(p.segments**2 for p in net.pipelines) + rng.random()
        if score > best_score:
            best, best_score = move, score
    return best


def purposeful_choice(moves: list[M.Move], rng: random.Random, state: State | None = None) -> M.Move:
    """Pick a move: a type by :data:`TYPE_WEIGHTS` (1 if unlisted), then uniformly within it.
    Given the state, Pipe tiles are usually placed to grow the longest Pipelines."""
    if state is not None and moves and isinstance(moves[0], M.PlaceTile) and rng.random() < 0.9:
        return _best_placement(state, moves, rng)
    by_type: dict[type, list[M.Move]] = defaultdict(list)
    for move in moves:
        by_type[type(move)].append(move)
    types = sorted(by_type, key=lambda t: t.__name__)
    chosen = rng.choices(types, weights=[TYPE_WEIGHTS.get(t, 1.0) for t in types])[0]
    return rng.choice(by_type[chosen])
