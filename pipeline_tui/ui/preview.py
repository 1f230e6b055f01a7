"""The preview of the highlighted move, for the hint panel: what it costs or brings and the
money after, the barrels in and out, how far a run can refine each colour and what that
sells for, and the full text of a Contract, Order or Upgrade it takes. The engine works it
out (:func:`pipeline_tui.engine.preview`); this module only words it."""

from __future__ import annotations

from rich.text import Text

from ..data.oil import COLOUR_NAMES, GRADE_NAMES
from ..data.reference import contract_text, upgrade_text
from ..engine import State, best_sale, preview
from ..engine import moves as M
from ..i18n import _, ngettext
from ..summary import oil_name
from .style import OIL_STYLES, dollars


def barrel_name(colour: int, grade: int) -> str:
    """``Orange Crude``, ``Teal High-Grade``: colour then grade, in the current language."""
    return _("{colour} {grade}").format(colour=_(COLOUR_NAMES[colour]), grade=_(GRADE_NAMES[grade]))


def _barrels(label: str, barrels: tuple[tuple[int, int, int], ...]) -> Text:
    """``In: 1 × Orange Crude`` (Russian: "1 куб оранжевой сырой нефти"), the oil in its colour."""
    out = Text(label + " ", style="bold")
    for i, (colour, grade, count) in enumerate(barrels):
        if i:
            out.append(", ")
        before, _oil, after = ngettext("{n} × {oil}", "{n} × {oil}", count).partition("{oil}")
        out.append(before.format(n=count))
        out.append(oil_name(colour, grade), style=OIL_STYLES[colour])
        out.append(after.format(n=count))
    return out


def preview_text(state: State, move: M.Move) -> Text | None:
    """The lines that say what ``move`` will do, or ``None`` when it changes nothing worth
    saying (or is not legal now)."""
    seen = preview(state, move)
    if seen is None:
        return None
    lines: list[Text] = []
    if seen.cost > 0:
        lines.append(
            Text(
                _("Costs {cost}: {before} → {after}").format(
                    cost=dollars(seen.cost),
                    before=dollars(seen.money_before),
                    after=dollars(seen.money_after),
                )
            )
        )
    elif seen.cost < 0:
        lines.append(
            Text(
                _("Brings {gain}: {before} → {after}").format(
                    gain=dollars(-seen.cost),
                    before=dollars(seen.money_before),
                    after=dollars(seen.money_after),
                )
            )
        )
    if seen.gained:
        line = _barrels(_("In:"), seen.gained)
        if seen.worth:
            line.append(
                "  " + _("sells for up to {worth} now").format(worth=dollars(seen.worth)), style="dim"
            )
        lines.append(line)
    if seen.lost:
        lines.append(_barrels(_("Out:"), seen.lost))
    for colour, grade, to in seen.reach:
        line = Text(_("Can refine:") + " ", style="bold")
        line.append(barrel_name(colour, grade), style=OIL_STYLES[colour])
        line.append(" → ")
        line.append(_(GRADE_NAMES[to]), style=OIL_STYLES[colour])
        sale = best_sale(state, seen.seat, colour, to)
        if sale:
            line.append("  " + _("sells for up to {worth}").format(worth=dollars(sale)), style="dim")
        lines.append(line)
    if seen.tile >= 0:
        lines.append(Text(contract_text(seen.tile), style="italic"))
    if seen.upgrade is not None:
        lines.append(Text(upgrade_text(*seen.upgrade), style="italic"))
    return Text("\n").join(lines) if lines else None
