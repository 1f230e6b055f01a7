"""Balance figures from arena games: what winners do, how scores spread, whether one plan rules.

A seat's "plan" is its most used Main Action kind (a market, an action tile, Government, a network
run). If one plan won far more often than its share of seats, it would dominate the game.
"""

from __future__ import annotations

import statistics
from collections import Counter

from .arena import GameRecord, SeatRecord

MAIN_KINDS = (
    "crude",
    "refined1",
    "refined2",
    "refined3",
    "upgrades",
    "tanks",
    "machines",
    "contracts",
    "government",
    "network",
    "machine",
    "pass",
)


def plan_of(seat: SeatRecord) -> str:
    mains = {k: v for k, v in seat.actions.items() if k in MAIN_KINDS}
    if not mains:
        return "none"
    return max(sorted(mains), key=lambda k: mains[k])


def balance_report(records: list[GameRecord]) -> list[str]:
    """Tables: Actions per game by winners and others; scores; score parts; plans and wins."""
    winners = [s for r in records for s in r.seats if s.rank == 1]
    others = [s for r in records for s in r.seats if s.rank != 1]
    lines = [
        f"{len(records)} games, {len(winners)} winners, {len(others)} other seats",
        "",
        f"{'Action (per game)':<22} {'winners':>8} {'others':>8}",
    ]
    kinds = sorted(
        {k for s in winners + others for k in s.actions}, key=lambda k: (k.startswith("second"), k)
    )
    for kind in kinds:
        w = sum(s.actions[kind] for s in winners) / max(1, len(winners))
        o = sum(s.actions[kind] for s in others) / max(1, len(others))
        lines.append(f"{kind:<22} {w:>8.2f} {o:>8.2f}")
    win_scores = [s.score for s in winners]
    all_scores = [s.score for r in records for s in r.seats]
    margins = [sorted((s.score for s in r.seats), reverse=True) for r in records]
    margins = [m[0] - m[1] for m in margins]
    lines += [
        "",
        f"winning score: mean {statistics.mean(win_scores):.1f}, median "
        f"{statistics.median(win_scores):.0f}, min {min(win_scores)}, max {max(win_scores)}",
        f"all scores: mean {statistics.mean(all_scores):.1f}, sd "
        f"{statistics.pstdev(all_scores):.1f}, min {min(all_scores)}, max {max(all_scores)}",
        f"winner's margin over second: mean {statistics.mean(margins):.1f}, median "
        f"{statistics.median(margins):.0f}",
        "",
        f"{'Score part (mean)':<22} {'winners':>8} {'others':>8}",
    ]
    parts = sorted({k for s in winners + others for k in s.parts})
    for part in parts:
        w = sum(s.parts[part] for s in winners) / max(1, len(winners))
        o = sum(s.parts[part] for s in others) / max(1, len(others))
        lines.append(f"{part:<22} {w:>8.1f} {o:>8.1f}")
    seats = Counter(plan_of(s) for r in records for s in r.seats)
    wins = Counter(plan_of(s) for s in winners)
    share = len(winners) / max(1, len(all_scores))
    lines += [
        "",
        f"{'Plan (most used)':<22} {'seats':>6} {'wins':>6} {'win %':>6}  "
        f"(a seat's fair share is {100 * share:.1f}%)",
    ]
    for plan, n in seats.most_common():
        lines.append(f"{plan:<22} {n:>6} {wins[plan]:>6} {100 * wins[plan] / n:>6.1f}")
    return lines
