"""Nothing cut at 80 columns, in English and Russian (issue 37, point 7): the footer's keys end
whole before the palette's key, which reaches the right edge (a column left there showed the
keys under it: "^p paletten"); a card's full text; the Pipelines list's title."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList, Static

from pipeline_tui.i18n import set_language
from pipeline_tui.ui.screens import EndScreen
from pipeline_tui.ui.widgets import SteadyFooter

from tests.helpers import build, new_game, setup_player, straight_row
from tests.ui.pilot import settled, table_for

NARROW = (80, 24)


@pytest.fixture(params=["en", "ru"])
def language(request):
    set_language(request.param)
    yield request.param
    set_language("en")


def footer_keys(app):
    footer = app.screen.query_one(SteadyFooter)
    keys = [key for key in footer.children if key.display]
    palette = next(key for key in keys if key.has_class("-command-palette"))
    return footer, [key for key in keys if key is not palette], palette


async def test_the_score_screens_footer_shows_only_whole_keys(tmp_path, language):
    async with table_for(new_game(), tmp_path, NARROW) as (app, pilot):
        await pilot.press("f6")
        await settled(pilot)
        assert isinstance(app.screen, EndScreen)
        footer, keys, palette = footer_keys(app)
        assert keys and all(key.region.right <= palette.region.x for key in keys)
        assert palette.region.right == footer.region.right


async def test_no_key_shows_through_at_the_right_edge_while_the_palette_is_open(tmp_path, language):
    async with table_for(new_game(), tmp_path, NARROW) as (app, pilot):
        table = app.screen
        await pilot.press("ctrl+p")
        await settled(pilot)
        assert app.screen is not table
        footer = table.query_one(SteadyFooter)
        palette = next(key for key in footer.children if key.has_class("-command-palette"))
        assert palette.region.right == footer.region.right


async def test_a_cards_whole_text_shows_at_80x24(tmp_path, language):
    async with table_for(new_game(), tmp_path, NARROW) as (app, pilot):
        await pilot.press("f8")
        await settled(pilot)
        await pilot.press("down")
        await settled(pilot)
        card = app.screen.query_one("#card-text", Static)
        width = card.content_region.width
        needed = card.get_content_height(card.content_region.size, app.size, width)
        assert 6 <= needed <= card.content_region.height


async def test_the_pipelines_lists_title_fits(tmp_path, language):
    game = new_game()
    setup_player(game, tiles=build(*straight_row("O", 3)))
    async with table_for(game, tmp_path, NARROW) as (app, pilot):
        await pilot.press("f4")
        await settled(pilot)
        await pilot.press("v")
        await settled(pilot)
        pipelines = app.screen.query_one("#pipelines", OptionList)
        assert pipelines.display
        assert len(str(pipelines.border_title)) + 4 <= pipelines.region.width


async def test_the_network_panel_brings_every_tile_into_sight_at_160x48(tmp_path):
    """The grid's blank border and rulers made a 6-half network wider than the panel, shown
    from the left ruler with its right-hand pipes (and a Machine) cut off."""
    from textual.geometry import Region

    from pipeline_tui.engine import network_map
    from pipeline_tui.ui.netgrid import CELL_H, CELL_W
    from pipeline_tui.ui.network_panel import NetworkPanel

    game = new_game()
    north = ((2, -1), "EW:* NS:*", (3, -1), "EW:* NS:*")
    player = setup_player(game, tiles=build(*straight_row("O", 3), north), machines=[(0, 0), (5, 0)])
    async with table_for(game, tmp_path, (160, 48)) as (app, pilot):
        await settled(pilot)
        panel = app.screen.query_one(NetworkPanel)
        assert panel.grid is not None and panel.grid.width > panel.scrollable_content_region.width
        seen = Region(round(panel.scroll_x), round(panel.scroll_y), *panel.scrollable_content_region.size)
        for cell in network_map(player).cells:
            x, y = panel.grid.origin(*cell)
            assert seen.contains_region(Region(x, y, CELL_W, CELL_H)), cell
