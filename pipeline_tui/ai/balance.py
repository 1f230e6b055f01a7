"""Balance figures from arena games: what winners do, how scores spread, whether one plan rules.

A seat's "plan" is its most used Main Action kind (a market, an action tile, Government, a network
run). If one plan won far more often than its share of seats, it would dominate the game.
"""

from __future__ import annotations

import statistics
from collections import Counter

from ..i18n import _
from .arena import GameRecord, SeatRecord, headings

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
    """Tables: Actions per game by winners and others; scores; score parts; plans and wins.
    The headings are in the current language; Action, part and plan names stay as counted."""
    winners = [s for r in records for s in r.seats if s.rank == 1]
    others = [s for r in records for s in r.seats if s.rank != 1]
    lines = [
        _("{games} games, {winners} winners, {others} other seats").format(
            games=len(records), winners=len(winners), others=len(others)
        ),
        "",
        headings((_("Action (per game)"), "<22"), (_("winners"), ">8"), (_("others"), ">8")),
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
    ranked = [sorted((s.score for s in r.seats), reverse=True) for r in records]
    margins = [m[0] - m[1] for m in ranked]
    lines += [
        "",
        _("winning score: mean {mean:.1f}, median {median:.0f}, min {min}, max {max}").format(
            mean=statistics.mean(win_scores),
            median=statistics.median(win_scores),
            min=min(win_scores),
            max=max(win_scores),
        ),
        _("all scores: mean {mean:.1f}, sd {sd:.1f}, min {min}, max {max}").format(
            mean=statistics.mean(all_scores),
            sd=statistics.pstdev(all_scores),
            min=min(all_scores),
            max=max(all_scores),
        ),
        _("winner's margin over second: mean {mean:.1f}, median {median:.0f}").format(
            mean=statistics.mean(margins), median=statistics.median(margins)
        ),
        "",
        headings((_("Score part (mean)"), "<22"), (_("winners"), ">8"), (_("others"), ">8")),
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
        headings((_("Plan (most used)"), "<22"), (_("seats"), ">6"), (_("wins"), ">6"), (_("win %"), ">6"))
        + "  "
        + _("(a seat's fair share is {share:.1f}%)").format(share=100 * share),
    ]
    for plan, n in seats.most_common():
        lines.append(f"{plan:<22} {n:>6} {wins[plan]:>6} {100 * wins[plan] / n:>6.1f}")
    return lines
