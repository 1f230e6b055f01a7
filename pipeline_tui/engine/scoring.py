"""End-of-game scoring (rulebook "End of Game" and Appendix 2, the Valuation cards).

The steps, in order: Contracts (incomplete ones were removed with a Penalty marker when the game
ended), Oil barrels, Pipelines, the Valuation tile, each Valuation card, Penalties, Cash. The
winner has the most money; a tie goes to the tied player furthest ahead in Turn Order.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from ..data import components as C
from ..i18n import _, ngettext
from .network import Pipeline
from .rules import highest_grade_from_crude, network
from .state import PlayerState, State


class ScoreLine(msgspec.Struct, frozen=True):
    step: str  # "contracts", "oil", "pipelines", "valuation_tile", "card:<code>", "penalties", "cash"
    label: str
    amount: int


class Score(msgspec.Struct, frozen=True):
    seat: int
    name: str
    lines: tuple[ScoreLine, ...]
    total: int
    rank: int  # 1 = winner


def _pipeline_grade(state: State, player: PlayerState, p: Pipeline) -> int:
    return highest_grade_from_crude(state, p.colour, p.value(player.level("ENG")))


def _pipelines_value(state: State, player: PlayerState, pipelines: Iterable[Pipeline]) -> int:
    return sum(C.END_PIPELINE_VALUE[_pipeline_grade(state, player, p)] for p in pipelines)


def _oil_value(player: PlayerState, colours: Iterable[int] = (0, 1, 2), min_grade: int = 0) -> int:
    return sum(C.END_OIL_VALUE[g] * player.oil[g][c] for g in range(min_grade, 4) for c in colours)


def _types(state: State, player: PlayerState, pipelines: Iterable[Pipeline]) -> int:
    kinds = set()
    for p in pipelines:
        grade = _pipeline_grade(state, player, p)
        if grade:
            kinds.add((p.colour, grade))
    return C.TYPE_COUNT_VALUE[len(kinds)]


def _contract_value(player: PlayerState, tile_id: int, kind: str) -> int:
    bonus = C.CONTRACTS_ORDERS_II_BONUS if player.level("CO") >= 2 else 0
    pay = C.CONTRACT_PAY if kind == C.ContractKind.CONTRACT else C.ORDER_PAY
    return sum(pay[g] + bonus for _colour, g in C.contract_tile(tile_id).needs)


def card_value(state: State, player: PlayerState, card_id: int) -> int:
    """What one Valuation card is worth to a player (Appendix 2)."""
    code = C.VALUATION_BY_ID[card_id].code
    if code == "REFINED_OIL":
        return _oil_value(player, min_grade=1)
    if code == "TANKS":
        return 10 * sum(player.tanks)
    if code == "LEVEL3":
        return 100 * sum(1 for level in player.upgrades if level >= 3)
    if code == "CONTRACTS":
        return sum(_contract_value(player, h.tile, C.ContractKind.CONTRACT) for h in player.contracts)
    if code == "ORDERS":
        return sum(_contract_value(player, o.tile, C.ContractKind.ORDER) for o in player.orders)
    if code == "OIL_TYPES":
        kinds = {need for h in player.contracts for need in C.contract_tile(h.tile).needs}
        kinds |= {need for o in player.orders for need in C.contract_tile(o.tile).needs}
        return C.TYPE_COUNT_VALUE[min(len(kinds), 9)]
    pipes = network(player).pipelines  # the cards below count Pipelines
    attached = [p for p in pipes if p.machines]
    if code == "PIPELINES":
        return _pipelines_value(state, player, pipes)
    if code == "MACHINE_PIPELINES":
        return _pipelines_value(state, player, attached)
    if code in ("ORANGE", "TEAL", "SILVER"):
        colour = ("ORANGE", "TEAL", "SILVER").index(code)
        return _oil_value(player, colours=(colour,)) + _pipelines_value(
            state, player, [p for p in pipes if p.colour == colour]
        )
    if code in ("LOW_PIPELINES", "MID_PIPELINES", "HIGH_PIPELINES"):
        target = ("LOW_PIPELINES", "MID_PIPELINES", "HIGH_PIPELINES").index(code) + 1
        return C.END_PIPELINE_VALUE[target] * sum(
            1 for p in pipes if _pipeline_grade(state, player, p) == target
        )
    if code == "PIPELINE_TYPES":
        return _types(state, player, pipes)
    if code == "MACHINE_PIPELINE_TYPES":
        return _types(state, player, attached)
    raise ValueError(_("unknown valuation card {card}").format(card=card_id))


def score_player(state: State, player: PlayerState) -> list[ScoreLine]:
    """A player's end-game score, step by step (rulebook "End of Game"); the labels are in the
    current language, the steps stay neutral."""
    pipes = network(player).pipelines
    contracts = _("Contracts ({n} incomplete, penalty below)").format(n=player.end_penalties)
    lines = [
        ScoreLine("contracts", contracts, 0),
        ScoreLine("oil", _("Oil barrels"), _oil_value(player)),
        ScoreLine("pipelines", _("Pipelines"), _pipelines_value(state, player, pipes)),
        ScoreLine(
            "valuation_tile",
            _(C.VALUATION_TILE),
            _pipelines_value(state, player, [p for p in pipes if p.machines]),
        ),
    ]
    for card in state.valuation_cards:
        info = C.VALUATION_BY_ID[card]
        lines.append(ScoreLine(f"card:{info.code}", _(info.name), card_value(state, player, card)))
    markers = ngettext("{n} marker", "{n} markers", player.penalties).format(n=player.penalties)
    penalties = _("Penalties ({markers})").format(markers=markers)
    lines.append(ScoreLine("penalties", penalties, -C.penalty_total(player.penalties)))
    lines.append(ScoreLine("cash", _("Cash"), player.money))
    return lines


def final_scores(state: State) -> list[Score]:
    """Every player's breakdown, best first; ties go to the player furthest ahead in Turn Order."""
    order = state.turn_order or list(range(len(state.players)))
    rows = []
    for player in state.players:
        lines = score_player(state, player)
        rows.append((player, tuple(lines), sum(line.amount for line in lines)))
    rows.sort(key=lambda r: (-r[2], order.index(r[0].seat)))
    return [
        Score(seat=p.seat, name=p.name, lines=lines, total=total, rank=i + 1)
        for i, (p, lines, total) in enumerate(rows)
    ]
