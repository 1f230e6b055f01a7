"""The component reference (F7, and `c` from the F1 help) and the cards on the table (F8, or a
click on the Contracts, Upgrades or Valuation panel): their text comes from data.reference."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList, Static, TabbedContent

from pipeline_tui.data import components as C
from pipeline_tui.data.reference import (
    LATEST_EDITION,
    contract_text,
    upgrade_text,
    valuation_text,
)
from pipeline_tui.engine import Game, GameSetup
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.reference_screen import CardsScreen, ReferenceScreen, card_text, table_cards
from pipeline_tui.ui.screens import HelpScreen

from tests.helpers import new_game
from tests.ui.pilot import table_for

SIZES = [(80, 24), (160, 48)]


def _shown(screen) -> str:
    tabs = screen.query_one(TabbedContent)
    pane = tabs.get_pane(tabs.active)
    return "\n".join(str(static.render()) for static in pane.query(Static))


@pytest.mark.parametrize("size", SIZES)
async def test_f7_opens_every_table_with_its_source(tmp_path, size):
    async with table_for(new_game(players=3, edition=2), tmp_path, size) as (app, pilot):
        await pilot.press("f7")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReferenceScreen)
        tabs = screen.query_one(TabbedContent)
        shown = []
        for pane in (
            "ref-contracts",
            "ref-orders",
            "ref-markets",
            "ref-shops",
            "ref-upgrades",
            "ref-valuation",
            "ref-refinement",
        ):
            tabs.active = pane
            await pilot.pause()
            text = _shown(screen)
            assert text.startswith("Source"), pane
            shown.append(text)
        assert "#200 SL SL SL     $60" in shown[0]  # the printed edition, as the game
        assert "crude ladder 5-11" in shown[2]
        assert upgrade_text("HR", 3)[:40] in " ".join(shown[4].split())
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ReferenceScreen)


async def test_the_reference_shows_the_edition_of_the_game_on_show(tmp_path):
    async with table_for(new_game(players=2, edition=1), tmp_path, (80, 24)) as (app, pilot):
        await pilot.press("f7")
        await pilot.pause()
        assert app.screen.edition == 1
        assert "#0   OL OL        $40" in _shown(app.screen)
    async with PipelineApp(mode="title", saves_dir=tmp_path).run_test(size=(80, 24)) as pilot:
        await pilot.press("f7")
        await pilot.pause()
        assert pilot.app.screen.edition == LATEST_EDITION == 2


async def test_the_help_leads_to_the_components(tmp_path):
    async with table_for(new_game(), tmp_path, (80, 24)) as (app, pilot):
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, ReferenceScreen)
        assert not any(isinstance(s, HelpScreen) for s in app.screen_stack)  # help closed


@pytest.mark.parametrize("size", SIZES)
async def test_f8_lists_the_cards_on_the_table_and_shows_the_full_text(tmp_path, size):
    game = new_game(players=2)
    async with table_for(game, tmp_path, size) as (app, pilot):
        await pilot.press("f8")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CardsScreen)
        listing = screen.query_one("#cards-list", OptionList)
        first = game.state.contract_rows[0][0]
        assert listing.get_option_at_index(listing.highlighted).id == f"tile-{first}"
        assert contract_text(first) in str(screen.query_one("#card-text", Static).render())
        await pilot.press("down")
        await pilot.pause()
        second = game.state.contract_rows[0][1]
        assert contract_text(second) in str(screen.query_one("#card-text", Static).render())


@pytest.mark.parametrize("panel, option", [("upgrades", "upgrade"), ("valuation", "valuation")])
async def test_a_click_on_a_panel_opens_its_cards(tmp_path, panel, option):
    async with table_for(new_game(players=2), tmp_path, (160, 48)) as (app, pilot):
        app.screen.query_one(f"#{panel}").scroll_visible(animate=False, immediate=True)
        await pilot.pause()
        assert await pilot.click(f"#{panel}", offset=(2, 1))  # its first line
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CardsScreen)
        listing = screen.query_one("#cards-list", OptionList)
        assert listing.get_option_at_index(listing.highlighted).id.startswith(option)


def test_table_cards_are_the_public_cards_and_their_texts_come_from_the_data():
    game = new_game(players=4)
    state = game.state
    held = state.contract_rows[1][0]
    cards = table_cards(state)
    ids = [oid for _, oid, _ in cards]
    assert len(ids) == len(set(ids))
    on_board = [t for row in state.contract_rows + state.order_rows for t in row if t >= 0]
    assert {f"tile-{t}" for t in on_board} <= set(ids)
    assert f"tile-{held}" in ids
    assert sum(oid.startswith("upgrade-") for oid in ids) == 3 * len(state.upgrade_families)
    assert [oid for oid in ids if oid.startswith("valuation-")] == (
        ["valuation-0"] + [f"valuation-{c}" for c in state.valuation_cards]
    )
    family = state.upgrade_families[0]
    assert card_text(f"upgrade-{family}-2") == upgrade_text(family, 2)
    assert card_text("valuation-0") == valuation_text(0)
    assert card_text(f"tile-{C.ORDERS[0].id}") == contract_text(C.ORDERS[0].id)


def test_held_contracts_and_orders_are_listed_under_their_owner():
    from pipeline_tui.engine.state import HeldContract, HeldOrder

    game = Game(GameSetup.default(players=2, seed=4))
    state = game.state
    state.players[1].contracts.append(HeldContract(tile=C.CONTRACTS[5].id, filled=[-1, -1]))
    state.players[1].orders.append(HeldOrder(tile=C.ORDERS[2].id))
    labels = [label for _, _, label in table_cards(state)]
    name = state.players[1].name
    assert f"{name}: Contract SL OL" in labels
    assert f"{name}: Order TL TM SL" in labels


@pytest.mark.parametrize("size, listed", [((80, 24), False), ((160, 48), True)])
async def test_f7_is_in_the_footer_only_where_it_fits_and_works_at_every_width(tmp_path, size, listed):
    """At 80 columns the table's footer is full: listing F7 there pushed the command palette's
    key over the end of the line."""
    app = PipelineApp(mode="new", players=2, seed=3, saves_dir=tmp_path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        keys = [b.binding.description for b in app.screen.active_bindings.values() if b.binding.show]
        assert ("Components" in keys) is listed
        await pilot.press("f7")
        await pilot.pause()
        assert isinstance(app.screen, ReferenceScreen)
