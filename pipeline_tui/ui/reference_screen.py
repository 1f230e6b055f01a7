"""The component reference (F7) and the cards on the table (F8): every table and card text
comes from ``data.reference``; these screens only lay them out."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static, TabbedContent, TabPane
from textual.widgets.option_list import Option

from ..data import components as C
from ..data.oil import GRADE_LETTERS, barrel_code
from ..data.reference import LATEST_EDITION, contract_text, reference, upgrade_text, valuation_text
from ..engine import State
from ..i18n import N_, _
from ..text import COMPONENT_SECTIONS, render_components
from .widgets import SteadyFooter

REFERENCE_WIDTH = 74  # fits the box at 80 columns, with its border and scrollbar
TAB_LABELS = {"Refinement markers": N_("Markers")}
CARD_GROUPS = ("contracts", "upgrades", "valuation")  # the panels whose cards can be picked
LEVELS = ("", "I", "II", "III")


class ReferenceScreen(ModalScreen[None]):
    """Every component table of an edition with its source, a tab per table."""

    BINDINGS = [Binding("escape,q,f7", "dismiss", N_("Close"))]

    def __init__(self, edition: int = LATEST_EDITION) -> None:
        super().__init__()
        self.edition = edition

    def compose(self) -> ComposeResult:
        ref = reference(self.edition)
        with Vertical(id="reference-box"):
            with TabbedContent(id="reference-tabs"):
                for section, (title, lines) in zip(
                    COMPONENT_SECTIONS, render_components(ref, width=REFERENCE_WIDTH)
                ):
                    tab_id = "ref-" + section.split()[0].lower()  # English, whatever the language
                    with TabPane(_(TAB_LABELS.get(section, title)), id=tab_id):
                        with VerticalScroll():
                            yield Static(Text("\n".join(lines)), classes="reference-table")
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.query_one("#reference-box").border_title = _(
            "Components, edition {edition}  (pipeline-tui components)"
        ).format(edition=self.edition)


def table_cards(state: State) -> list[tuple[str, str, str]]:
    """The Contracts, Orders, upgrade cards and Valuation cards on the table now, as
    (group, option id, label), in the order the panels show them."""
    cards: list[tuple[str, str, str]] = []
    for r, row in enumerate(state.contract_rows):
        for slot, tile in enumerate(row):
            if tile >= 0:
                needs = " ".join(_needs(tile))
                cards.append(("contracts", f"tile-{tile}", f"C{GRADE_LETTERS[r + 1]}.{slot + 1}  {needs}"))
    for r, row in enumerate(state.order_rows):
        for slot, tile in enumerate(row):
            if tile >= 0:
                cards.append(("contracts", f"tile-{tile}", f"O{r + 3}.{slot + 1}  {' '.join(_needs(tile))}"))
    for p in state.players:
        for held in p.contracts:
            kind = (
                _("Contract")
                if C.contract_tile(held.tile).kind == C.ContractKind.CONTRACT
                else _("Order as Contract")
            )
            label = _("{name}: {kind} {needs}").format(
                name=p.name, kind=kind, needs=" ".join(_needs(held.tile))
            )
            cards.append(("contracts", f"tile-{held.tile}", label))
        for order in p.orders:
            label = _("{name}: Order {needs}").format(name=p.name, needs=" ".join(_needs(order.tile)))
            cards.append(("contracts", f"tile-{order.tile}", label))
    for code in state.upgrade_families:
        name = C.upgrade_family(code).name
        for level in (1, 2, 3):
            cards.append(("upgrades", f"upgrade-{code}-{level}", f"{_(name)} {LEVELS[level]}"))
    cards.append(("valuation", "valuation-0", _("Tile: {name}").format(name=_(C.VALUATION_TILE))))
    for card in state.valuation_cards:
        name = _(C.VALUATION_BY_ID[card].name)
        cards.append(("valuation", f"valuation-{card}", _("Card {n}: {name}").format(n=card, name=name)))
    return cards


def _needs(tile: int) -> list[str]:
    return [barrel_code(c, g) for c, g in C.contract_tile(tile).needs]


def card_text(option_id: str) -> str:
    """The full text of the card an option of :func:`table_cards` names."""
    kind, _sep, rest = option_id.partition("-")
    if kind == "tile":
        return contract_text(int(rest))
    if kind == "upgrade":
        code, _sep, level = rest.partition("-")
        return upgrade_text(code, int(level))
    return valuation_text(int(rest))


class CardsScreen(ModalScreen[None]):
    """The cards on the table: pick one to read its full text."""

    BINDINGS = [Binding("escape,q,f8", "dismiss", N_("Close"))]
    GROUP_TITLES = {
        "contracts": N_("Contracts and Orders"),
        "upgrades": N_("Upgrades in play"),
        "valuation": N_("Valuation"),
    }

    def __init__(self, state: State, group: str = "contracts") -> None:
        super().__init__()
        self.state = state
        self.cards = table_cards(state)
        self.group = group

    def compose(self) -> ComposeResult:
        self.cards = table_cards(self.state)  # again at a recompose: labels in the language now spoken
        options: list[Option | None] = []
        group = ""
        for card_group, option_id, label in self.cards:
            if card_group != group:
                if group:
                    options.append(None)
                group = card_group
                options.append(Option(Text(_(self.GROUP_TITLES[group]), style="bold"), disabled=True))
            options.append(Option(label, id=option_id))
        with Vertical(id="cards-box"):
            yield OptionList(*options, id="cards-list")
            yield Static(id="card-text")
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.query_one("#cards-box").border_title = _("Cards on the table: pick one to read it")
        listing = self.query_one("#cards-list", OptionList)
        first = next((i for i, (g, _id, _label) in enumerate(self.cards) if g == self.group), 0)
        listing.highlighted = self._index_of(first)
        listing.focus()

    def _index_of(self, position: int) -> int:
        """The OptionList index of the ``position``-th card (headings and separators count)."""
        listing = self.query_one("#cards-list", OptionList)
        seen = -1
        for index in range(listing.option_count):
            option = listing.get_option_at_index(index)
            if option.id is not None:
                seen += 1
                if seen == position:
                    return index
        return 0

    @on(OptionList.OptionHighlighted, "#cards-list")
    def _show(self, event: OptionList.OptionHighlighted) -> None:
        option_id = event.option.id
        if option_id is None:
            return
        label = next(label for _group, oid, label in self.cards if oid == option_id)
        text = Text(label + "\n", style="bold")
        text.append(card_text(option_id))
        self.query_one("#card-text", Static).update(text)
