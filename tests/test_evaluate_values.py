"""``ai.evaluate`` gives exactly the values it gave before it was made faster.

The bots compare plans by these values, so a speed-up that changed one (even in its last bit)
could change a decision. The positions are those of seeded steered and uniform games at 2, 3
and 4 players (every 4th position and the end of each game), each seat valued with its turn
done and not; the expected values were computed by ``evaluate`` as it stood at commit b60cb19,
then regenerated for two deliberate changes (the pull towards a first refining Pipeline; a held
Contract's needs sharing the Crude, money and Pipeline runs at hand: 14 of 339 positions), and
are kept in ``fixtures/evaluate_values.json`` (regenerate them only for a deliberate change
of the evaluation: ``python -m tests.test_evaluate_values``).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from pipeline_tui.ai.evaluate import evaluate, relative
from pipeline_tui.engine import Game, State, clone_state

from tests.test_properties import players_for, seeker, setup_for, uniform

VALUES = Path(__file__).parent / "fixtures" / "evaluate_values.json"
GAMES = ((1000, seeker), (1001, seeker), (1002, seeker), (1003, seeker), (1005, seeker), (6, uniform))
EVERY = 4


def positions() -> list[State]:
    """Every ``EVERY``-th position of the seeded games, and each game's end."""
    out = []
    for seed, mover in GAMES:
        game = Game(setup_for(seed, players_for(seed)))
        rng = random.Random(seed)
        count = 0
        while not game.is_over():
            if count % EVERY == 0:
                out.append(clone_state(game.state))
            game.apply(mover(rng, game.state, game.legal_moves()))
            count += 1
        out.append(clone_state(game.state))
    return out


def values(states: list[State]) -> list[list[float]]:
    """Per position: each seat's value with its turn done, then not done."""
    return [[evaluate(s, p.seat, done) for p in s.players for done in (True, False)] for s in states]


def test_evaluate_gives_the_pinned_values() -> None:
    expected = json.loads(VALUES.read_text())
    states = positions()
    assert len(states) == len(expected) > 300
    for index, (state, row) in enumerate(zip(states, values(states))):
        assert row == expected[index], f"position {index} (Year {state.year}, Round {state.round})"
    assert sum(1 for s in states if s.over) == len(GAMES)


def test_relative_is_the_seat_less_the_best_rival() -> None:
    """``relative`` (what the search bot scores) from the same values."""
    expected = json.loads(VALUES.read_text())
    states = positions()
    for state, row in list(zip(states, expected))[::5]:
        for seat in range(len(state.players)):
            rivals = [row[2 * p] for p in range(len(state.players)) if p != seat]
            assert relative(state, seat) == row[2 * seat] - max(rivals)


if __name__ == "__main__":
    VALUES.write_text(json.dumps(values(positions())).replace("], [", "],\n[") + "\n")
    sys.exit(0)
