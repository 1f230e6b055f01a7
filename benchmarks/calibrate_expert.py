"""Fit the expert's calibrated evaluation (``pipeline_tui/ai/calibrated.py``) to played games.

``play`` plays 2-player games to the end with a varied heuristic (mostly its best plan; now and
then a plan that buys a Machine or takes a Contract, ``ai.expert``, or another of its best four,
so that Machines and Contracts occur often enough to be weighed) and writes, at the start of
every turn, the table (``freeze_state``, base64) and the scores the seats went on to make, one
JSON line a position. ``fit`` fits the weights by ridge least squares, reports how well they and ``evaluate``
alone predict who wins on held-out games, and prints the weights for ``calibrated.WEIGHTS``.

    python benchmarks/calibrate_expert.py play --games 200 --seed 30000 --out rows.jsonl
    python benchmarks/calibrate_expert.py fit rows.jsonl
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import sys

from pipeline_tui.ai import calibrated, expert
from pipeline_tui.ai.heuristic import plan_turn as heuristic_turn, setup_move, turn_plans
from pipeline_tui.engine import GameSetup, Stage, apply_trusted, initial_state, score_player
from pipeline_tui.engine import moves as M
from pipeline_tui.engine.state import freeze_state, thaw_state


def _turn(state, seat: int, rng: random.Random) -> list[M.Move]:
    if state.turn.stage == Stage.SETUP:
        return [setup_move(state)]
    r = rng.random()
    plan = None
    if r < 0.2:
        plan = expert.machine_plan(state, seat)
    elif r < 0.3:
        plan = expert.contract_plan(state, seat)
    if plan is None:
        plans = turn_plans(state, seat, wide=False)
        plan = rng.choice(plans[:4]) if r > 0.85 else plans[0]
    return plan.moves + [M.EndTurn()]


def play(games: int, seed: int, out: str, players: int = 2, expert_seat: bool = False) -> None:
    """Play ``games`` games from ``seed`` and write their positions. With ``expert_seat``, one
    seat (rotating with the game) is the expert bot itself (``samples=4``) and the others the
    heuristic bot, as in the arena, so the positions are those the expert's own play reaches and
    the weights learn what its Machines and Contracts earned."""
    with open(out, "a", encoding="utf-8") as fh:
        for g in range(games):
            rng = random.Random(seed + g)
            state = initial_state(GameSetup.default(players, seed + g))
            tables: list[str] = []
            mine = (seed + g) % players if expert_seat else -1
            while not state.over:
                seat = state.turn.player
                if state.turn.stage == Stage.WORK and state.turn.mains == 0 and not state.turn.action:
                    tables.append(base64.b64encode(freeze_state(state)).decode())
                if not expert_seat:
                    turn = _turn(state, seat, rng)
                elif seat == mine:
                    turn = expert.plan_turn(state, seat, rng, samples=4)
                else:
                    turn = heuristic_turn(state, seat)
                for move in turn:
                    apply_trusted(state, move)
                    if state.over or state.turn.player != seat:
                        break
            finals = [sum(line.amount for line in score_player(state, p)) for p in state.players]
            for table in tables:
                fh.write(json.dumps({"game": seed + g, "state": table, "scores": finals}) + "\n")
            print(f"game {seed + g}: scores {finals}, {len(tables)} positions", flush=True)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve ``a w = b`` by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            if f:
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    w = [0.0] * n
    for c in range(n - 1, -1, -1):
        w[c] = (m[c][n] - sum(m[c][k] * w[k] for k in range(c + 1, n))) / m[c][c]
    return w


def _ridge(xs: list[list[float]], ys: list[float], cols: list[int], ridge: float) -> list[float]:
    """Least squares on the columns ``cols`` (each scaled to at most 1, so one ridge fits all)."""
    scale = [max(1e-9, max(abs(x[c]) for x in xs)) for c in cols]
    n = len(cols)
    a = [[0.0] * n for _ in range(n)]
    b = [0.0] * n
    for x, y in zip(xs, ys, strict=True):
        z = [x[c] / s for c, s in zip(cols, scale, strict=True)]
        for i in range(n):
            zi = z[i]
            if zi:
                row = a[i]
                for j in range(n):
                    row[j] += zi * z[j]
                b[i] += zi * y
    for i in range(n):
        a[i][i] += ridge
    return [w / s for w, s in zip(_solve(a, b), scale, strict=True)]


def _pairs(path: str, players: int) -> list[dict]:
    """Per position of a ``players``-player game, for each two seats, the first's inputs less
    the second's and the same for their final scores: the score difference is what winning
    depends on (``calibrated.relative``)."""
    out = []
    for line in open(path, encoding="utf-8"):
        row = json.loads(line)
        if len(row["scores"]) != players:
            continue
        state = thaw_state(base64.b64decode(row["state"]))
        xs = [calibrated.inputs(state, seat) for seat in range(players)]
        for a in range(players):
            for b in range(a + 1, players):
                x = [u - v for u, v in zip(xs[a], xs[b], strict=True)]
                y = row["scores"][a] - row["scores"][b]
                out.append({"game": row["game"], "x": x, "y": y})
    return out


def fit(path: str, ridge: float = 1.0, players: int = 2) -> None:
    rows = _pairs(path, players)
    games = sorted({r["game"] for r in rows})
    n = len(calibrated.FEATURES) + 1
    width = len(rows[0]["x"])
    models = {"evaluate": [1, n + 1], "calibrated": [c for c in range(width) if c not in (0, n)]}
    folds = 5
    report = {name: [0, 0, 0.0] for name in models}
    for k in range(folds):
        held = set(games[k::folds])
        train = [r for r in rows if r["game"] not in held]
        test = [r for r in rows if r["game"] in held]
        for name, cols in models.items():
            w = _ridge([r["x"] for r in train], [r["y"] for r in train], cols, ridge)
            for r in test:
                pred = sum(wi * r["x"][c] for wi, c in zip(w, cols, strict=True))
                if r["y"]:
                    report[name][1] += 1
                    report[name][0] += (pred > 0) == (r["y"] > 0)
                report[name][2] += (pred - r["y"]) ** 2
    for name, (right, total, sse) in report.items():
        print(
            f"{name}: leader right {right}/{total} ({100 * right / total:.1f}%), "
            f"rmse {(sse / len(rows)) ** 0.5:.1f}"
        )
    cols = models["calibrated"]
    fitted = _ridge([r["x"] for r in rows], [r["y"] for r in rows], cols, ridge)
    w = [0.0] * width
    for c, v in zip(cols, fitted, strict=True):
        w[c] = v
    names = ["constant", *calibrated.FEATURES]
    print(f"fitted on {len(rows)} positions of {len(games)} games")
    print("WEIGHTS = (")
    print("    (" + ", ".join(f"{v:.4f}" for v in w[:n]) + "),  # " + ", ".join(names))
    print("    (" + ", ".join(f"{v:.4f}" for v in w[n:]) + "),  # times the share of the game left")
    print(")")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=30000)
    p.add_argument("--out", required=True)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--expert-seat", action="store_true", help="one seat is the expert bot")
    f = sub.add_parser("fit")
    f.add_argument("path")
    f.add_argument("--ridge", type=float, default=1.0)
    f.add_argument("--players", type=int, default=2)
    args = parser.parse_args(argv)
    if args.command == "play":
        play(args.games, args.seed, args.out, args.players, args.expert_seat)
    else:
        fit(args.path, args.ridge, args.players)


if __name__ == "__main__":
    main(sys.argv[1:])
