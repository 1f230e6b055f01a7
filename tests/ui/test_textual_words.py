"""Textual's own words in the game's language (issue 15): the palette's system commands keep
their callbacks under Russian titles, the keys panel says every key in the language spoken and
follows a live switch, and every word Textual may show is in the catalogue
(``ui/textual_words.py``), so a Textual upgrade that brings a new one fails here."""

from __future__ import annotations

import pytest
from textual.app import App
from textual.command import CommandInput, CommandList, CommandPalette
from textual.containers import ScrollableContainer, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, DataTable, Input, OptionList, Select, TabbedContent, Tabs
from textual.widgets._select import SelectOverlay

from pipeline_tui import i18n
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.compat import BindingsTable
from pipeline_tui.ui.footer import TranslatedBindingsTable
from pipeline_tui.ui.textual_words import KEY_DESCRIPTIONS, PALETTE, SYSTEM_COMMANDS

USED = (
    App, Screen, ModalScreen, Input, OptionList, DataTable, Checkbox, Select, SelectOverlay, Button,
    TabbedContent, Tabs, VerticalScroll, ScrollableContainer, CommandPalette, CommandInput, CommandList,
)  # fmt: skip
"""The Textual classes whose keys the app's screens can show (their bindings are inherited)."""


def textual_words() -> set[str]:
    """Every description and tooltip of the keys of the Textual classes the app uses."""
    words = set()
    for cls in USED:
        for bindings in cls._merge_bindings().key_to_bindings.values():
            for binding in bindings:
                if not binding.system:
                    words |= {word for word in (binding.description, binding.tooltip) if word}
    return words


def test_every_word_textual_shows_is_marked_and_translated() -> None:
    marked = set(KEY_DESCRIPTIONS) | set(PALETTE) | set(SYSTEM_COMMANDS) | {"Quit"}
    missing = textual_words() - marked
    assert not missing, f"mark these in ui/textual_words.py and translate them: {sorted(missing)}"
    russian = i18n.translations_for("ru")
    untranslated = [word for word in marked if russian.gettext(word) == word]
    assert not untranslated


async def test_the_palette_says_textuals_commands_in_russian_with_their_own_callbacks(tmp_path, russian):
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        textuals = list(App.get_system_commands(app, app.screen))
        assert {part for c in textuals for part in (c.title, c.help)} <= set(SYSTEM_COMMANDS)
        commands = {command.title: command for command in app.get_system_commands(app.screen)}
        assert {"Тема", "Выход", "Клавиши", "Снимок экрана", "Новая игра", "Загрузить игру"} <= set(commands)
        assert not {"Theme", "Quit", "Keys", "Screenshot", "New game"} & set(commands)
        assert commands["Тема"].callback == app.action_change_theme
        assert commands["Клавиши"].help == "Показать панель с доступными клавишами"
        commands["Клавиши"].callback()
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        assert app.screen.query_one(CommandInput).placeholder == "Поиск команд…"


def keys_shown(screen) -> str:
    table = screen.query_one(TranslatedBindingsTable)
    rendered = table.render_bindings_table()
    return " ".join(str(cell) for cell in rendered.columns[1].cells)


async def test_the_keys_panel_follows_the_language_and_a_live_switch(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # the switch is remembered there
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            app.action_show_help_panel()
            await pilot.pause()
            assert isinstance(app.screen.query_one(BindingsTable), TranslatedBindingsTable)
            english = keys_shown(app.screen)
            assert "Quit" in english and "palette Open the command palette" in english
            app.switch_language("ru")
            # The panel draws its table again when the bindings change (Textual recomposes it),
            # so wait for the new one: under load one pause may catch the panel between tables.
            russian = ""
            for _ in range(50):
                await pilot.pause()
                if app.screen.query(TranslatedBindingsTable):
                    russian = keys_shown(app.screen)
                    if "Выход" in russian:
                        break
            assert "Выход" in russian and "меню Открыть палитру команд" in russian
            assert "Quit" not in russian
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("word", ["Focus Next", "Move cursor left", "Show menu"])
def test_textuals_words_read_in_russian(word, russian) -> None:
    assert i18n._(word) != word


async def test_the_palette_says_no_matches_in_russian(tmp_path, russian):
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"zqzq")
        for _ in range(50):
            await pilot.pause(0.05)
            listed = app.screen.query_one(CommandList)
            prompts = [
                str(listed.get_option_at_index(i).prompt.renderable) for i in range(listed.option_count)
            ]
            if prompts:
                break
        assert prompts == ["Ничего не найдено"]
