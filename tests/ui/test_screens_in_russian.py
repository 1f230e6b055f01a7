"""The screens around the table, the F1 help, the component reference and the card texts speak
Russian once it is chosen (issue 15), and a live switch keeps what the new-game form holds."""

from __future__ import annotations

import msgspec
import pytest
from textual.widgets import DataTable, Input, Label, Markdown, OptionList, Select, Static, TabbedContent

from pipeline_tui import i18n
from pipeline_tui.data import components as C
from pipeline_tui.data.reference import contract_text, reference_json, valuation_text
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.help import HELP_BLOCKS, help_text
from pipeline_tui.engine import Game
from pipeline_tui.ui import panels
from pipeline_tui.ui.panels import score_label
from pipeline_tui.ui.reference_screen import CardsScreen, ReferenceScreen, table_cards
from pipeline_tui.ui.screens import EndScreen, HelpScreen, NewGameScreen, SaveAsScreen
from pipeline_tui.ui.title import TitleScreen
from pipeline_tui.ui.table_screen import TableScreen
from pipeline_tui.ui.tutorial import Tutorial, tutorial_setup

from tests.helpers import new_game
from tests.ui.pilot import choose, hint, table_for


def _menu(screen) -> list[str]:
    menu = screen.query_one("#title-menu", OptionList)
    return [str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count)]


async def test_title_menu_in_russian(tmp_path, russian):
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        assert _menu(app.screen) == [
            "Новая игра",
            "Продолжить автосохранение (нет)",
            "Загрузить сохранённую игру",
            "Повтор сохранённой игры",
            "Обучение: первая партия шаг за шагом",
            "Правила и клавиши",
            "Выход",
        ]


async def test_title_menu_follows_a_live_switch(tmp_path):
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert _menu(app.screen)[0] == "New game"
            i18n.set_language("ru")
            await app.screen.language_changed()
            await pilot.pause()
            assert _menu(app.screen)[0] == "Новая игра"
            assert len(_menu(app.screen)) == 7
    finally:
        i18n.set_language("en")


async def test_new_game_form_switches_language_and_keeps_what_was_filled_in(tmp_path):
    app = PipelineApp(mode="new", saves_dir=tmp_path)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, NewGameScreen)
            screen.query_one("#name-1", Input).value = "Ada"  # the same name as seat 1
            screen.query_one("#players", Select).value = 3
            screen.query_one("#seed", Input).value = "42"
            await pilot.press("enter")
            await pilot.pause()
            assert str(screen.query_one("#new-error", Static).render()) == "Each seat needs its own name."
            i18n.set_language("ru")
            await screen.language_changed()
            await pilot.pause()
            assert str(screen.query_one(".heading", Label).render()) == "Новая игра"
            assert str(screen.query_one("#seat-0 Label", Label).render()) == "Место 1"
            assert screen.query_one("#name-1", Input).value == "Ada"
            assert screen.query_one("#players", Select).value == 3
            assert screen.query_one("#seat-2").display
            assert screen.query_one("#seed", Input).value == "42"
            assert (
                str(screen.query_one("#new-error", Static).render())
                == "У каждого места должно быть своё имя."
            )
    finally:
        i18n.set_language("en")


async def test_scores_in_russian_count_penalty_markers_in_three_forms(tmp_path, russian):
    game = new_game(players=3)
    for seat, count in enumerate((1, 3, 5)):
        game.state.players[seat].penalties = count
    async with table_for(game, tmp_path, (160, 48)) as (app, pilot):
        app.push_screen(EndScreen(game))
        await pilot.pause()
        title = str(app.screen.query_one("#end-title", Static).render())
        assert title.startswith("Счёт, если бы игра кончилась сейчас. Лидер: ")
        table = app.screen.query_one("#scores", DataTable)
        cells = [str(table.get_cell_at((r, c))) for r in range(table.row_count) for c in range(4)]
        assert "Итого" in cells
        markers = " ".join(cells)
        assert "1 куб\n" in markers and "3 куба\n" in markers and "5 кубов\n" in markers


def test_help_in_russian_translates_every_block(russian):
    text = help_text()
    assert text.startswith("# «Нефтепровод» вкратце\n\n**Цель.**")
    assert "| Клавиша | Что делает |\n|---|---|\n" in text
    lines = [line for block in HELP_BLOCKS for line in block if line != "|---|---|"]
    assert [line for line in lines if i18n._(line) == line] == []


async def test_f1_help_shows_russian(tmp_path, russian):
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert app.screen.query_one(Markdown).source == help_text()
        assert "перегонки" in app.screen.query_one(Markdown).source


def test_card_texts_in_russian(russian):
    order = C.PRINTED_ORDERS[0]
    assert contract_text(order.id).startswith(
        "Заказ на 3 куба: 1 куб оранжевой нефти высокого сорта, 1 куб белой нефти низкого сорта, "
        "1 куб синей нефти низкого сорта. "
    )
    assert "$115 ($55 + $30 + $30)" in contract_text(order.id)
    assert "Место взятого заказа не пополняется." in contract_text(order.id)
    assert contract_text(C.CONTRACTS[0].id).startswith(
        "Контракт низкого сорта: 2 куба оранжевой нефти низкого сорта; $40 ($20 за куб) каждый год, когда выполнен"
    )
    assert valuation_text(2) == (
        "Каждый нефтепровод вашей сети приносит ещё раз: $10, $20 или $30, если один прогон "
        "доводит сырую нефть до низкого, среднего или высокого сорта."
    )


def test_reference_json_stays_english_in_russian(russian):
    data = msgspec.json.decode(reference_json())
    assert data["contracts"][0]["text"].startswith("Low Contract: ")
    assert i18n.current_language() == "ru"
    assert contract_text(C.CONTRACTS[0].id).startswith("Контракт")


async def test_reference_screens_in_russian_keep_their_tab_ids(tmp_path, russian):
    game = new_game(players=3, edition=2)
    async with table_for(game, tmp_path, (160, 48)) as (app, pilot):
        app.push_screen(ReferenceScreen())
        await pilot.pause()
        screen = app.screen
        assert screen.query_one("#reference-box").border_title.startswith("Компоненты, издание 2")
        tabs = screen.query_one(TabbedContent)
        tabs.active = "ref-refinement"
        await pilot.pause()
        assert str(tabs.get_tab("ref-refinement").label) == "Маркеры"
        await pilot.press("escape")
        app.push_screen(CardsScreen(game.state, "valuation"))
        await pilot.pause()
        listing = app.screen.query_one("#cards-list", OptionList)
        headings = [
            str(listing.get_option_at_index(i).prompt)
            for i in range(listing.option_count)
            if listing.get_option_at_index(i).disabled
        ]
        assert headings == ["Контракты и заказы", "Улучшения в игре", "Оценка"]
        labels = [label for group, _id, label in table_cards(game.state) if group == "valuation"]
        assert labels[1].startswith("Карта ")


async def test_cards_and_save_as_follow_a_live_switch(tmp_path):
    game = new_game(players=2)
    try:
        async with table_for(game, tmp_path, (80, 24)) as (app, pilot):
            app.push_screen(CardsScreen(game.state, "valuation"))
            await pilot.pause()
            assert app.screen.cards[-1][2].startswith("Card ")
            i18n.set_language("ru")
            await app.screen.recompose()
            await pilot.pause()
            assert app.screen.cards[-1][2].startswith("Карта ")
            await pilot.press("escape")
            i18n.set_language("en")
            app.push_screen(SaveAsScreen(game))
            await pilot.pause()
            app.screen.query_one("#save-name", Input).value = "evening"
            i18n.set_language("ru")
            await app.screen.language_changed()
            await pilot.pause()
            assert str(app.screen.query_one(Label).render()) == "Сохранить игру как (в папке сохранений)"
            assert app.screen.query_one("#save-name", Input).value == "evening"
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("players", [3, 4])
async def test_the_russian_score_sheet_fits_80_columns(tmp_path, russian, players):
    """Issue 15, point 5: the sheet with the longest Russian step names and four players does
    not scroll sideways at 80 columns (marker counts on a line of their own, heads shortened)."""
    game = new_game(players=players)
    game.state.valuation_cards = sorted(
        C.VALUATION_BY_ID, key=lambda c: -len(score_label("card:" + C.VALUATION_BY_ID[c].code, ""))
    )[:2]
    game.state.players[0].penalties = 5
    async with table_for(game, tmp_path, (80, 24)) as (app, pilot):
        app.push_screen(EndScreen(game))
        await pilot.pause()
        table = app.screen.query_one("#scores", DataTable)
        assert "Карта: $100 за улучшение III уровня" in [
            str(table.get_cell_at((r, 0))) for r in range(table.row_count)
        ]
        assert table.max_scroll_x == 0 and table.virtual_size.width <= table.region.width


async def test_the_title_is_the_russian_editions(tmp_path, russian):
    """The title screen names the game as the Russian rulebook does, «Нефтепровод» (issue 37,
    point 13); the English keeps PIPELINE."""
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        title = str(app.screen.query_one("#title-name", Static).render())
        assert title.startswith("НЕФТЕПРОВОД\n") and "PIPELINE" not in title


async def test_the_tutorial_speaks_to_you(tmp_path, russian):
    """The tutorial's seat is called «Вы»: its turn is «Ваш ход.», never «Ходит Вы.»."""
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(TableScreen(Game(tutorial_setup(7)), tmp_path, policy=Tutorial()))
        await pilot.pause()
        assert hint(app).startswith("Ваш ход. ") and "Ходит Вы" not in hint(app)


async def test_a_refusal_has_one_colon_after_its_head_and_quotes_with_guillemets(tmp_path, russian):
    """«Нельзя (Рынки): ...», not «Нельзя: Рынки: ...»; a move not understood is
    quoted «так» (issue 37, point 14)."""
    app = PipelineApp(mode="new", players=2, seed=7, saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("colon", *"buy C-OC#4", "enter")
        assert hint(app).startswith(
            "Нельзя (Рынки): покупать и продавать можно только во время действия рынка"
        )
        await pilot.press("escape", "colon", *"foo", "enter")
        assert hint(app).startswith("Нельзя: неизвестный ход «foo»")


def test_the_action_cross_abbreviates_with_a_dot(russian):
    """Every label on the cross is a whole word or cut with a dot, at most 5 characters
    (issue 37, point 13: not «Сор 1», «Улуч», «Контр»)."""
    labels = panels._short()
    assert labels == {
        "crude": "Сырая",
        "refined1": "Рын.1",
        "refined2": "Рын.2",
        "refined3": "Рын.3",
        "upgrades": "Улуч.",
        "tanks": "Цист.",
        "machines": "Насос",
        "contracts": "Конт.",
    }
    assert panels.row_words() == ("Сырая", "Низк.", "Сред.", "Выс.")


async def test_a_tile_that_may_not_go_there_says_why_with_one_colon(tmp_path, russian):
    """With a Pipe tile in hand, a place it may not go reads «Сюда нельзя (Сеть
    нефтепроводов): ...» in the hint and in the network view, not two colons in a row."""
    from tests.ui.test_network_view import open_view, table_with_network, text_of

    app = PipelineApp(mode="new", players=2, seed=7, saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, _player = await table_with_network(pilot, rows=2, per_row=2)
        await choose(pilot, "act tanks")
        await choose(pilot, "pipe 1")
        await open_view(pilot)
        await pilot.press(*["up"] * 6)
        await pilot.pause()
        assert " r0 — сюда нельзя (Сеть нефтепроводов): новый тайл должен касаться" in text_of(
            app, "#nv-info"
        )
        await pilot.press("escape")
        await pilot.pause()
        assert screen.ghost is not None and not screen.ghost.legal
        assert "Сюда нельзя (Сеть нефтепроводов): " in hint(app)
