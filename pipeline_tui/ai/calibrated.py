"""A position's worth fitted to measured games: the expert's score for its samples.

``evaluate`` weighs its terms by hand. Here the end-game score a player went on to make is
predicted from a few public features of the position (``evaluate`` itself, cash, Penalties,
barrels, Pipelines, Machines and what their attached Pipelines refine in a Machine Phase,
Contracts held, the barrels in hand that fill their open needs and the needs still open late
in the Year, Upgrades, Tanks), each also multiplied by the share of the game
still to play, with weights fitted by least squares to games played to the end
(``docs/bots.md`` gives the games and the command). A Machine's worth thus comes from what
Machines earned over the Years in those games (rulebook, "Machine Phase": one payment runs every
attached Pipeline), not from a guess.
"""

from __future__ import annotations

from ..data import components as C
from ..engine import State, highest_grade_from_crude, network_map
from .evaluate import SALE, TOTAL_ROUNDS, evaluate, rounds_left

FEATURES = (
    "evaluate",
    "money",
    "penalties",
    "refined_oil",
    "crude",
    "pipelines",
    "refining",
    "machines",
    "machine_run",
    "contracts",
    "contract_ready",
    "contract_late",
    "upgrades",
    "tanks",
)

# Fitted by ``benchmarks/calibrate_expert.py`` (``play --expert-seat``, then ``fit``) to 199
# games of the expert against the heuristic (seeds 50000-50198, docs/bots.md), so to the
# positions the expert's own play reaches: per input of :func:`inputs`, the constant and the
# features, then the same times the share of the game left. Fitted to score differences, so the
# constant does not count.
WEIGHTS = (
    (
        0.0000,
        0.7394,
        0.1790,
        0.2814,
        0.6038,
        3.5191,
        0.4723,
        -0.1291,
        1.2359,
        0.3484,
        -27.1350,
        -23.1878,
        3.7622,
        -3.3601,
        1.0236,
    ),
    (
        0.0000,
        -0.2855,
        1.5673,
        0.2012,
        3.2275,
        19.1499,
        1.8759,
        0.2436,
        20.5020,
        -0.5385,
        -138.8954,
        128.7531,
        30.2343,
        68.4304,
        -5.1421,
    ),
)
_FLAT = WEIGHTS[0] + WEIGHTS[1]


def features(state: State, seat: int) -> list[float]:
    """The seat's features (:data:`FEATURES`, in that order) after its turn, public only."""
    player = state.players[seat]
    eng = player.level("ENG")
    best = [0, 0, 0]
    pipelines = 0
    attached: list[int] = []
    for p in network_map(player).pipelines:
        reach = highest_grade_from_crude(state, p.colour, p.value(eng))
        pipelines += C.END_PIPELINE_VALUE[reach]
        best[p.colour] = max(best[p.colour], reach)
        if p.machines and reach:
            attached.append(SALE[reach] - SALE[0])
    run_cost = C.MACHINE_RUN_COST_MACHINES_II if player.level("MACH") >= 2 else C.MACHINE_RUN_COST
    machine_run = max(0, sum(sorted(attached, reverse=True)[:3]) - run_cost) if player.machines else 0
    # A Contract is owed again each Year (rulebook, "Contracts & Loans": fulfilled Contracts must
    # be fulfilled again by the end of each Year); one completed in the last Year is owed no more.
    last_year = state.year == len(C.ROUNDS_PER_YEAR)
    open_contracts = sum(
        1 for held in player.contracts if not held.deferred and not (last_year and held.completions)
    )
    ready, unfilled = _open_needs(state, seat)
    _, in_year = rounds_left(state, True)
    late = 1.0 - in_year / C.ROUNDS_PER_YEAR[state.year - 1]
    return [
        evaluate(state, seat, True),
        float(player.money),
        -float(C.penalty_total(player.penalties)),
        float(sum(C.END_OIL_VALUE[g] * sum(player.oil[g]) for g in (1, 2, 3))),
        float(sum(player.oil[0])),
        float(pipelines),
        float(sum(SALE[r] - SALE[0] for r in best if r)),
        float(len(player.machines)),
        float(machine_run),
        float(open_contracts),
        float(ready),
        unfilled * late,
        float(sum(player.upgrades)),
        float(sum(player.tanks)),
    ]


def _open_needs(state: State, seat: int) -> tuple[int, int]:
    """The open needs of the seat's active Contracts this Year: how many barrels in its Tank
    Farm could fill now, and how many it cannot (rulebook, "Refresh Phase": an incomplete
    Contract is a Penalty)."""
    player = state.players[seat]
    oil = [row[:] for row in player.oil]
    cap = 2 if player.level("CO") >= 1 else 1
    ready = unfilled = 0
    for held in player.contracts:
        if held.deferred or held.completions >= cap:
            continue
        if held.completions >= 1 and not any(g >= 0 for g in held.filled):
            continue
        for need, (colour, grade) in enumerate(C.contract_tile(held.tile).needs):
            if held.filled[need] >= 0:
                continue
            used = next((g for g in range(grade, 4) if oil[g][colour] > 0), -1)
            if used >= 0:
                oil[used][colour] -= 1
                ready += 1
            else:
                unfilled += 1
    return ready, unfilled


def inputs(state: State, seat: int) -> list[float]:
    """The regression's inputs: a constant, the features, then each times the share of the
    game left (so a term can be worth more early, when it still has Rounds to earn in)."""
    left, _ = rounds_left(state, True)
    h = left / TOTAL_ROUNDS
    f = features(state, seat)
    return [1.0, *f, h, *(x * h for x in f)]


def worth(state: State, seat: int) -> float:
    """The end-game score the seat is expected to make from here, in dollars (the fitted
    weights, :data:`WEIGHTS`); at the end of the game, its score as ``evaluate`` gives it."""
    if state.over:
        return evaluate(state, seat)
    return sum(w * x for w, x in zip(_FLAT, inputs(state, seat), strict=True))


def relative(state: State, seat: int) -> float:
    """The seat's expected score less the best rival's: what winning depends on."""
    mine = worth(state, seat)
    others = [worth(state, p.seat) for p in state.players if p.seat != seat]
    return mine - max(others) if others else mine
